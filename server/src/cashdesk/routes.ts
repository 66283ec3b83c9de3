/**
 * HTTP routes of the money path (issue #3): credit vouchers at the cashier, kiosk purchases, validation and
 * payout of winning cards, lost/stolen reports, station cash, the prize register and the AML records.
 * Errors are DomainErrors, turned into localized JSON by app.ts.
 *
 * When authentication is on, the enrolled device is the station (kiosk or cash desk) and a logged-in person is
 * the cashier: their ids replace what the body says, so the journal names who really acted.
 */
import { pdf, actors, body, needs, type App, type AppContext } from '../http/context.ts'
import { z } from 'zod'
import { DomainError } from '../shared/errors.ts'
import type { Services } from '../services.ts'

const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/)
const code = z.string().min(1).max(400)
const station = z.string().min(1).max(40).regex(/^[A-Za-z0-9_.:-]+$/)
const person = z.string().min(1).max(120)
const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

function queryOf<T extends z.ZodType>(c: AppContext, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.query())
  if (!parsed.success) throw new DomainError('VALIDATION_FAILED', 'the query does not match the expected fields', { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) })
  return parsed.data
}

export function registerCashdeskRoutes(app: App, services: Services): void {
  const { vouchers, kiosk, payouts } = services.cashdesk

  // ---- kiosk
  app.get('/api/kiosk/halls/:hallId/offer', needs('hall.read'), async (c) => c.json(await kiosk.offer(c.req.param('hallId') ?? '')))
  app.post('/api/kiosk/purchases', needs('voucher.redeem'), async (c) => {
    const b = await body(c, z.object({ voucherCode: code, gameId: id, count: z.number().int().min(1).max(1000), kioskId: station, ageConfirmed: z.literal(true) }).strict())
    const { stationId } = actors(c, { stationId: b.kioskId })
    return c.json(await kiosk.purchase({ ...b, kioskId: stationId }), 201)
  })

  // ---- vouchers
  app.post('/api/vouchers', needs('voucher.sell'), async (c) => {
    const b = await body(c, z.object({
      hallId: id, amountCents: cents.min(1), cash: z.object({ smallCents: cents, otherCents: cents }).strict(),
      stationId: station, cashierId: person, buyerDocument: z.string().max(40).optional(),
    }).strict())
    return c.json(await vouchers.sell({ ...b, ...actors(c, b) }), 201)
  })
  app.post('/api/vouchers/check', needs('voucher.redeem'), async (c) => {
    const b = await body(c, z.object({ code }).strict())
    return c.json(await vouchers.check(b.code))
  })
  app.post('/api/vouchers/cashout', needs('ticket.pay'), async (c) => {
    const b = await body(c, z.object({ code, stationId: station, cashierId: person }).strict())
    return c.json(await vouchers.cashOut({ code: b.code, ...actors(c, b) }))
  })

  // ---- tickets: validation, payout, lost/stolen
  app.post('/api/tickets/validate', needs('ticket.validate'), async (c) => {
    const b = await body(c, z.object({ code, stationId: station.optional(), cashierId: person.optional() }).strict())
    // Issue #7: instant tickets (kind I, or a typed validation code) are the instant service's.
    if (services.instant.handles(b.code)) return c.json(await services.instant.scan(b.code, b.stationId ? actors(c, { stationId: b.stationId, cashierId: b.cashierId }) : {}))
    // Issue #6: lotto receipts (kind L) and lottery or raffle tickets (kind T) are the lottery services'.
    if (services.lotto.handles(b.code)) return c.json(await services.lotto.validate(b.code))
    if (services.lottery.handles(b.code)) return c.json(await services.lottery.validate(b.code))
    return c.json(await payouts.validate(b.code, b.stationId ? actors(c, { stationId: b.stationId, cashierId: b.cashierId }) : {}))
  })
  app.post('/api/tickets/pay', needs('ticket.pay'), async (c) => {
    const b = await body(c, z.object({ code, stationId: station, cashierId: person, payeeDocument: z.string().max(40).optional(), payeeName: z.string().max(120).optional() }).strict())
    if (services.instant.handles(b.code)) return c.json(await services.instant.payAtCashier({ ...b, ...actors(c, b) }))
    const who = actors(c, b)
    const onPaid = services.cashdesk.cashOut(who.stationId, who.cashierId)
    if (services.lotto.handles(b.code)) return c.json({ payout: { kind: 'lotto', ...(await services.lotto.pay({ code: b.code, ...who, onPaid, payee: { name: b.payeeName ?? '', document: b.payeeDocument ?? '' } })) } })
    if (services.lottery.handles(b.code)) return c.json({ payout: { kind: 'lottery', ...(await services.lottery.pay({ code: b.code, ...who, onPaid, payee: { name: b.payeeName ?? '', document: b.payeeDocument ?? '' } })) } })
    return c.json(await payouts.pay({ ...b, ...actors(c, b) }))
  })
  app.post('/api/tickets/block', needs('ticket.block'), async (c) => {
    const b = await body(c, z.object({ code: code.optional(), gameId: id.optional(), serial: z.string().max(40).optional(), reason: z.enum(['lost', 'stolen']), note: z.string().max(2000).optional(), reportedBy: person }).strict())
    return c.json(await payouts.block(b), 201)
  })
  app.get('/api/payouts/:payoutId', needs('report.read'), async (c) => c.json(await payouts.loadPayout(c.req.param('payoutId') ?? '')))
  app.get('/api/payouts/:payoutId/receipt.pdf', needs('report.read'), async (c) => {
    const q = queryOf(c, z.object({ paper: z.enum(['80mm', '58mm']).optional() }))
    const payoutId = c.req.param('payoutId') ?? ''
    return pdf(c, await payouts.receiptPdf(payoutId, q.paper), `recibo-${payoutId}.pdf`)
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
  const registerQuery = z.object({ hallId: id.optional(), sessionId: id.optional(), gameId: id.optional(), from: z.string().max(40).optional(), to: z.string().max(40).optional(), lang: z.enum(['es', 'en']).optional() })
  app.get('/api/prize-register', needs('minutes.read'), async (c) => {
    const { lang: _lang, ...filter } = queryOf(c, registerQuery)
    return c.json(await payouts.prizeRegister(filter))
  })
  app.get('/api/prize-register.pdf', needs('minutes.read'), async (c) => {
    const { lang, ...filter } = queryOf(c, registerQuery)
    const { renderPrizeRegisterPdf } = await import('../../../printer/src/prize-register-pdf.ts')
    return pdf(c, await renderPrizeRegisterPdf(await payouts.prizeRegister(filter), lang ?? 'es'), 'registro-de-premios.pdf')
  })
  app.get('/api/aml/reports', needs('aml.review'), async (c) => {
    const q = queryOf(c, z.object({ status: z.enum(['open', 'filed', 'dismissed']).optional() }))
    return c.json({ reports: await vouchers.amlReports(q) })
  })
  app.post('/api/aml/reports/:reportId/review', needs('aml.review'), async (c) => {
    const b = await body(c, z.object({ status: z.enum(['filed', 'dismissed']), note: z.string().max(4000), officer: person }).strict())
    return c.json(await vouchers.reviewAml(c.req.param('reportId') ?? '', b))
  })
}
