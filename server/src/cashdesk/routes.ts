/**
 * HTTP routes of the money path (issue #3): credit vouchers at the cashier, kiosk purchases, validation and
 * payout of winning cards, lost/stolen reports, station cash, the prize register and the AML records.
 * Errors are DomainErrors, turned into localized JSON by app.ts.
 *
 * When authentication is on, the enrolled device is the station (kiosk or cash desk) and a logged-in person is
 * the cashier: their ids replace what the body says, so the journal names who really acted.
 */
import {
  forReader,
  readsIdentity,
  pdf,
  actors,
  body,
  nameOf,
  needs,
  overrideOf,
  principalOf,
  secondPerson,
  type App,
  type AppContext,
} from '../http/context.ts'
import { z } from 'zod'
import { DomainError } from '../shared/errors.ts'
import { cashCount, kioskStation } from '../http/station.ts'
import type { Services } from '../services.ts'
import { registerShiftRoutes } from './shift-routes.ts'
import { tillOf } from '../http/till.ts'

const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
const code = z.string().min(1).max(400)
const station = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_.:-]+$/)
const person = z.string().min(1).max(120)
const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

function queryOf<T extends z.ZodType>(c: AppContext, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.query())
  if (!parsed.success)
    throw new DomainError('VALIDATION_FAILED', 'the query does not match the expected fields', {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    })
  return parsed.data
}

export function registerCashdeskRoutes(app: App, services: Services): void {
  const { vouchers, payouts } = services.cashdesk

  // ---- kiosk (issue 13: one voucher buys cards, lotto slips and e-instant tickets, all or nothing with printing)
  app.get('/api/kiosk/halls/:hallId/offer', needs('hall.read'), async (c) =>
    c.json(await services.paidSales.offer(c.req.param('hallId') ?? '')),
  )
  const board = z.array(z.number().int()).max(128)
  const kioskSlip = z
    .object({
      drawId: id,
      boards: z.array(board).max(100).optional(),
      quickPicks: z.number().int().min(0).max(100).optional(),
      draws: z.number().int().min(1).max(52).optional(),
      player: z.object({ name: person, document: z.string().min(1).max(40) }).strict(),
    })
    .strict()
  // Built once, not per request (issue 23 point 5): a zod schema compiles its parser on first use, and a schema
  // made per request paid that compilation on every purchase.
  const kioskPurchaseBody = z
    .object({
      voucherCode: code,
      kioskId: station.optional(),
      ageConfirmed: z.boolean().optional(),
      // Cards: `gameId` and `count` (as before), or `cards`.
      gameId: id.optional(),
      count: z.number().int().min(1).max(1000).optional(),
      cards: z
        .object({
          gameId: id,
          count: z.number().int().min(1).max(1000),
          // BNG-98: in a chosen-number game, the player's numbers, one list per card.
          picks: z.array(z.array(z.number()).max(20)).max(1000).optional(),
        })
        .strict()
        .optional(),
      slips: z.array(kioskSlip).max(20).optional(),
      instant: z
        .object({ gameNo: z.number().int().min(1).max(9999), count: z.number().int().min(1).max(100) })
        .strict()
        .optional(),
    })
    .strict()
  app.post('/api/kiosk/purchases', needs('voucher.redeem'), async (c) => {
    const b = await body(c, kioskPurchaseBody)
    const cards = b.cards ?? (b.gameId ? { gameId: b.gameId, count: b.count ?? 1 } : undefined)
    const kioskId = kioskStation(c, b.kioskId ?? 'kiosk-1')
    return c.json(
      await services.paidSales.kioskPurchase({
        voucherCode: b.voucherCode,
        kioskId,
        ageConfirmed: b.ageConfirmed,
        cards,
        slips: b.slips,
        instant: b.instant,
      }),
      201,
    )
  })

  // ---- vouchers
  app.post('/api/vouchers', needs('voucher.sell'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          hallId: id,
          amountCents: cents.min(1),
          cash: cashCount,
          stationId: station.optional(),
          cashierId: person.optional(),
          buyerDocument: z.string().max(40).optional(),
        })
        .strict(),
    )
    // Issue 13 point 5: the cash goes into the drawer of the person's open shift at this station.
    return c.json(await vouchers.sell({ ...b, ...(await tillOf(c, services, b)) }), 201)
  })
  app.post('/api/vouchers/check', needs('voucher.redeem'), async (c) => {
    const b = await body(c, z.object({ code }).strict())
    return c.json(await vouchers.check(b.code))
  })
  app.post('/api/vouchers/cashout', needs('ticket.pay'), async (c) => {
    const b = await body(c, z.object({ code, stationId: station.optional(), cashierId: person.optional() }).strict())
    return c.json(await vouchers.cashOut({ code: b.code, ...(await tillOf(c, services, b)) }))
  })

  // ---- tickets: validation, payout, lost/stolen
  app.post('/api/tickets/validate', needs('ticket.validate'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code,
          // INS-10: an instant ticket's inventory code (outside the scratch area), judged against its validation code.
          inventoryCode: code.optional(),
          stationId: station.optional(),
          cashierId: person.optional(),
        })
        .strict(),
    )
    // Issue 23: the cash desk finds the ticket's line from its code and answers in one shape (`view`).
    return c.json(
      await services.ticketDesk.judge(
        b.code,
        // Issue 26 (§8): a scan at an enrolled station is journaled with that station (and its seal), body or not.
        b.stationId || principalOf(c).device ? actors(c, { stationId: b.stationId ?? '', cashierId: b.cashierId }) : {},
        b.inventoryCode,
      ),
    )
  })
  // Issue 29: a card's state by its serial within a chosen game (the serial as heard: "41", "A-00041"); never a way
  // to pay (BNG-71). The hall is the enrolled station's (the query's only without one), checked in the use case.
  app.get('/api/tickets/lookup/games', needs('ticket.lookup'), async (c) => {
    const who = principalOf(c)
    const q = queryOf(c, z.object({ hallId: id.optional() }).strict())
    const hallId = who.device?.hallId ?? q.hallId
    if (!hallId)
      throw new DomainError('VALIDATION_FAILED', 'the games are listed for an enrolled station or a named hall', {
        field: 'hallId',
      })
    return c.json({ games: await services.cardLookup.games({ hallId, stationId: who.device?.id ?? null }) })
  })
  app.post('/api/tickets/lookup', needs('ticket.lookup'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          gameId: id,
          serial: z.string().trim().min(1).max(40),
          stationId: station.optional(),
          cashierId: person.optional(),
        })
        .strict(),
    )
    const who = b.stationId ? actors(c, { stationId: b.stationId, cashierId: b.cashierId }) : null
    const device = principalOf(c).device?.id ?? null
    return c.json(
      await services.cardLookup.bySerial({
        gameId: b.gameId,
        serial: b.serial,
        stationId: device ?? (c.get('authOn') ? null : (who?.stationId ?? null)),
        cashierId: who?.cashierId ?? principalOf(c).id,
      }),
    )
  })
  // BNG-70: a bingo card's prizes in cash (default) or, where the hall's profile allows it, by cheque.
  const payment = z.discriminatedUnion('method', [
    z.object({ method: z.literal('cash') }).strict(),
    z
      .object({
        method: z.literal('cheque'),
        chequeNumber: z.string().trim().min(1).max(40),
        playerConsent: z.boolean(),
      })
      .strict(),
  ])
  app.post('/api/tickets/pay', needs('ticket.pay'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code,
          // INS-10: an instant ticket is paid only with its inventory code (printed outside the scratch area) too.
          inventoryCode: code.optional(),
          stationId: station.optional(),
          cashierId: person.optional(),
          payeeDocument: z.string().max(40).optional(),
          payeeName: z.string().max(120).optional(),
          payeePhone: z.string().max(30).optional(),
          payeeAuthorisation: z.string().max(500).optional(),
          objectCode: z.string().max(8).optional(),
          // PRM-2: the other tickets of a points tómbola presented with `code`, used together in this one payout.
          codes: z.array(code).max(50).optional(),
          payment: payment.optional(),
        })
        .strict(),
    )
    // Issue 13 points 5-6, issue 23: the one route that pays a prize. Every product is paid against its signed code,
    // out of the drawer of the payer's open shift at an enrolled station (with authentication on, never the body's).
    const till = await tillOf(c, services, b)
    // GEN-26: paying a named slip to someone other than its buyer needs a supervisor's override (second person).
    const override = () => overrideOf(c, 'payee.override', b.payeeAuthorisation)
    return c.json(
      await services.ticketDesk.pay({
        code: b.code,
        inventoryCode: b.inventoryCode,
        till,
        payeeName: b.payeeName,
        payeeDocument: b.payeeDocument,
        payeePhone: b.payeePhone,
        objectCode: b.objectCode,
        moreCodes: b.codes,
        payment: b.payment,
        override,
      }),
    )
  })
  // Issue 23 point 5: a ticket whose print failed after its sale committed is reprinted at the station making the
  // request (an enrolled kiosk or cash desk, never a station named in the body), in the sale's hall only.
  app.post('/api/tickets/reprint', needs('ticket.reprint'), async (c) => {
    const b = await body(
      c,
      z.object({ ref: id.optional(), voucherCode: code.optional(), stationId: station.optional() }).strict(),
    )
    const who = principalOf(c)
    const atKiosk = who.role === 'kiosk' || who.device?.kind === 'kiosk'
    const stationId = who.kind === 'device' ? who.id : (who.device?.id ?? (c.get('authOn') ? undefined : b.stationId))
    if (!stationId)
      throw new DomainError(
        'STATION_REQUIRED',
        'a ticket is reprinted at an enrolled kiosk or cash desk: log in at the station',
        { principal: who.kind },
      )
    return c.json(
      await services.cashdesk.prints.reprint({
        ref: b.ref,
        voucherCode: b.voucherCode,
        stationId,
        atKiosk,
        resolveVoucherId: vouchers.resolveVoucherId,
      }),
    )
  })
  app.get('/api/tickets/reprints', needs('ticket.pay'), async (c) => {
    const who = principalOf(c)
    const stationId = who.device?.id ?? (c.get('authOn') ? undefined : c.req.query('stationId'))
    if (!stationId)
      throw new DomainError(
        'STATION_REQUIRED',
        'the tickets waiting for a reprint are listed at an enrolled cash desk',
        { principal: who.kind },
      )
    return c.json({ pending: await services.cashdesk.prints.pending(stationId) })
  })

  // Issue 14 point 6 (LST-4, LST-5): a staff role blocks a card by its code, or by game and serial only with a
  // documented report (a police or regulator reference); a director reverses it with a second person.
  app.post('/api/tickets/block', needs('ticket.block'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code: code.optional(),
          gameId: id.optional(),
          serial: z.string().max(40).optional(),
          reason: z.enum(['lost', 'stolen']),
          note: z.string().max(2000).optional(),
          reportRef: z.string().min(3).max(120).optional(),
          reportedBy: person.optional(),
        })
        .strict(),
    )
    if (!b.code && !b.reportRef)
      throw new DomainError(
        'VALIDATION_FAILED',
        "without the card's code a block needs a documented report (reportRef)",
        { field: 'reportRef' },
      )
    const note = b.reportRef ? `${b.reportRef}${b.note ? ` · ${b.note}` : ''}` : b.note
    return c.json(await payouts.block({ ...b, note, reportedBy: nameOf(c, b.reportedBy, 'reportedBy') }), 201)
  })
  app.post('/api/tickets/unblock', needs('ticket.unblock'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code: code.optional(),
          gameId: id.optional(),
          serial: z.string().max(40).optional(),
          reason: z.string().min(3).max(500),
        })
        .strict(),
    )
    const witness = c.get('authOn') ? (await secondPerson(c, 'ticket.block')).name : 'sin autenticación'
    return c.json(await payouts.unblock({ ...b, by: nameOf(c, 'sin autenticación'), witness }))
  })
  app.get('/api/payouts/:payoutId', needs('report.read'), async (c) =>
    c.json(forReader(c, await payouts.loadPayout(c.req.param('payoutId') ?? ''))),
  )
  app.get('/api/payouts/:payoutId/receipt.pdf', needs('report.read'), async (c) => {
    const q = queryOf(c, z.object({ paper: z.enum(['80mm', '58mm']).optional() }))
    const payoutId = c.req.param('payoutId') ?? ''
    return pdf(
      c,
      await payouts.receiptPdf(payoutId, q.paper, { showDocuments: readsIdentity(c) }),
      `recibo-${payoutId}.pdf`,
    )
  })
  app.post('/api/payouts/:payoutId/receipt/print', needs('ticket.pay'), async (c) => {
    const b = await body(c, z.object({ stationId: station }).strict())
    return c.json(await payouts.reprintReceipt(c.req.param('payoutId') ?? '', actors(c, b).stationId))
  })

  // ---- cash and registers
  app.get('/api/stations/:stationId/movements', needs('report.read'), async (c) => {
    const q = queryOf(c, z.object({ day: isoDay.optional() }))
    return c.json(await vouchers.stationDay(c.req.param('stationId') ?? '', q.day))
  })
  const registerQuery = z.object({
    hallId: id.optional(),
    sessionId: id.optional(),
    gameId: id.optional(),
    from: z.string().max(40).optional(),
    to: z.string().max(40).optional(),
    lang: z.enum(['es', 'en']).optional(),
  })
  app.get('/api/prize-register', needs('minutes.read'), async (c) => {
    const { lang: _lang, ...filter } = queryOf(c, registerQuery)
    return c.json(forReader(c, await payouts.prizeRegister(filter)))
  })
  app.get('/api/prize-register.pdf', needs('minutes.read'), async (c) => {
    const { lang, ...filter } = queryOf(c, registerQuery)
    const { renderPrizeRegisterPdf } = await import('../../../printer/src/prize-register-pdf.ts')
    return pdf(
      c,
      await renderPrizeRegisterPdf(forReader(c, await payouts.prizeRegister(filter)), lang ?? 'es'),
      'registro-de-premios.pdf',
    )
  })
  app.get('/api/aml/reports', needs('aml.review'), async (c) => {
    const q = queryOf(c, z.object({ status: z.enum(['open', 'filed', 'dismissed']).optional() }))
    // GEN-9 / GEN-10: the person behind a record is read by those who hold aml.identity, masked for an auditor.
    return c.json({ reports: await vouchers.amlReports(q, { showDocuments: readsIdentity(c) }) })
  })
  // GEN-17 (issue 24 point 6): one person's day of cash, voucher and counter sales, by the key of their document.
  // Looking a person up by document is the officer's work (GEN-9), not an auditor's (aml.identity).
  app.get('/api/aml/day', needs('aml.identity'), async (c) => {
    const q = queryOf(
      c,
      z.object({ document: z.string().min(4).max(40), day: z.string().max(10), hallId: z.string().max(80).optional() }),
    )
    return c.json(await vouchers.amlDay(q))
  })
  // GEN-9: only the responsible officer (or the director) files or dismisses, under their own name (issue 14 point 2).
  app.post('/api/aml/reports/:reportId/review', needs('aml.decide'), async (c) => {
    const b = await body(
      c,
      z
        .object({ status: z.enum(['filed', 'dismissed']), note: z.string().max(4000), officer: person.optional() })
        .strict(),
    )
    return c.json(
      await vouchers.reviewAml(c.req.param('reportId') ?? '', { ...b, officer: nameOf(c, b.officer, 'officer') }),
    )
  })

  registerShiftRoutes(app, services)
}
