/**
 * HTTP routes of cashier shifts and card refunds (issue 13 points 5 and 7). The till of a request is http/till.ts's.
 */
import { z } from 'zod'
import { body, needs, param, pdf, principalOf, type App } from '../http/context.ts'
import { pickLang } from '../http/messages.ts'
import { refundActor, stationPersonOf, tillOf, type WithDevice } from '../http/till.ts'
import { DomainError } from '../shared/errors.ts'
import { scopedHall } from '../http/hall-scope.ts'
import type { Services } from '../services.ts'

const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)

export function registerShiftRoutes(app: App, services: Services): void {
  const { shifts, refunds } = services.cashdesk

  // ---- shifts (issue 13 point 5)
  /** Who is at this station and its open shift, for the cashier screen and the table's console (no shift: null). */
  app.get('/api/shifts/current', needs('shift.current'), async (c) => {
    const who: WithDevice = principalOf(c)
    if (!who.device) return c.json({ station: null, person: null, shift: null })
    const person = who.kind === 'person' ? { id: who.id, name: who.name, role: String(who.role) } : null
    const shift = await shifts.current({ station: who.device, person: person ?? { id: '', name: '', role: '' } })
    // Issue 29 point 5: the screens show the station's times on its hall's clock, not the browser's.
    const timeZone = who.device.hallId
      ? (await services.cashdesk.vouchers.hallFor(services.db, who.device.hallId)).timeZone
      : null
    return c.json({
      station: { id: who.device.id, name: who.device.name, kind: who.device.kind, hallId: who.device.hallId, timeZone },
      person,
      shift,
    })
  })
  app.post('/api/shifts', needs('shift.open'), async (c) => {
    const b = await body(c, z.object({ floatCents: cents }).strict())
    return c.json(await shifts.open(stationPersonOf(c), b), 201)
  })
  app.post('/api/shifts/current/close', needs('shift.open'), async (c) => {
    const b = await body(c, z.object({ countedCents: cents, note: z.string().max(500).optional() }).strict())
    return c.json(await shifts.close(stationPersonOf(c), b))
  })
  app.get('/api/shifts', needs('report.read'), async (c) => {
    const q = c.req.query()
    // Issue 14 point 1: a person of some halls lists the shifts of one of them, never every hall's drawers.
    return c.json({
      shifts: await shifts.list({
        stationId: q.stationId,
        hallId: scopedHall(c, q.hallId),
        limit: Number(q.limit) || 50,
      }),
    })
  })
  // A malformed id is a 400 like any bad input, never a 500 (found by the fuzz test).
  const shiftIdOf = (c: Parameters<typeof param>[0]) => {
    const parsed = id.safeParse(param(c, 'shiftId'))
    if (!parsed.success)
      throw new DomainError('VALIDATION_FAILED', 'a shift id is letters, digits, - and _', { field: 'shiftId' })
    return parsed.data
  }
  app.get('/api/shifts/:shiftId', needs('report.read'), async (c) => c.json(await shifts.report(shiftIdOf(c))))
  app.get('/api/shifts/:shiftId/report.pdf', needs('report.read'), async (c) => {
    const shiftId = shiftIdOf(c)
    const lang =
      c.req.query('lang') === 'en'
        ? 'en'
        : c.req.query('lang') === 'es'
          ? 'es'
          : pickLang(c.req.header('accept-language'))
    return pdf(c, await shifts.reportPdf(shiftId, lang), `turno-${shiftId}.pdf`)
  })

  // ---- card refunds (issue 13 point 7, BNG-86): cash at a cashier's till, or a new voucher (kiosk buyers)
  app.post('/api/refunds/cards', needs('ticket.refund'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code: z.string().min(1).max(400),
          to: z.enum(['cash', 'voucher']).default('cash'),
          stationId: z.string().max(40).optional(),
          cashierId: z.string().max(120).optional(),
        })
        .strict(),
    )
    const who: WithDevice = principalOf(c)
    // A kiosk refunds only onto a voucher (it takes and gives no cash, GEN-14); its own printer prints it.
    if (c.get('authOn') && who.kind === 'device') {
      if (who.role !== 'kiosk' || b.to !== 'voucher')
        throw new DomainError('STATION_REQUIRED', 'cash refunds are paid by a person at a cashier station', {})
      return c.json(
        await refunds.refundCard({
          code: b.code,
          to: 'voucher',
          till: { stationId: who.id, cashierId: who.id, shiftId: null },
          actor: refundActor(c),
        }),
        201,
      )
    }
    const till = await tillOf(c, services, b)
    return c.json(await refunds.refundCard({ code: b.code, to: b.to, till, actor: refundActor(c) }), 201)
  })
  // Issue 29 point 1: the table's list of the annulled game's cards it sold, refunded or still to refund. The
  // station is the one the person is logged in at (authentication off: the query's, older tests only).
  app.get('/api/refunds/cards', needs('ticket.refund'), async (c) => {
    const gameId = id.safeParse(c.req.query('gameId'))
    if (!gameId.success) throw new DomainError('VALIDATION_FAILED', 'gameId is required', { field: 'gameId' })
    const stationId = c.get('authOn') ? stationPersonOf(c).station.id : String(c.req.query('stationId') ?? '')
    if (!stationId) throw new DomainError('VALIDATION_FAILED', 'stationId is required', { field: 'stationId' })
    return c.json(await refunds.stationCards({ gameId: gameId.data, stationId }))
  })
}
