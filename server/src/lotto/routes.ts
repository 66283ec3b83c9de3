/**
 * HTTP routes of issue #6 for lotto, under /api/lotto. Cashier scans of lotto receipts (kind `L`) also arrive
 * through the generic POST /api/tickets/validate and /api/tickets/pay (cashdesk/routes.ts), which hand that kind
 * to this service.
 *
 * Public (game.read): plans, participation files and excluded lists (LNS-14), extractos (LNS-10, LOT-17) and
 * proofs.
 */
import { pdf, csv, actorOf, actors, body, needs, param as p, type App } from '../http/context.ts'
import { z } from 'zod'
import type { Services } from '../services.ts'
import { refusePersonEntropy } from '../shared/lottery-draw-v2.ts'

const text = (max = 500) => z.string().min(1).max(max)
const iso = z.string().min(16).max(40)
const code = z.string().min(1).max(400)
const station = z.string().min(1).max(40).regex(/^[A-Za-z0-9_.:-]+$/)
const staff = z.object({ authority: text(120), director: text(120), moderator: text(120), notary: text(120) }).strict()
const payee = z.object({ name: text(120), document: text(40), signatureRef: text(200).optional() }).strict()

const lottoPrize = z.discriminatedUnion('type', [
  z.object({ type: z.literal('share'), bp: z.number().int() }).strict(),
  z.object({ type: z.literal('fixed'), amountCents: z.number().int() }).strict(),
  z.object({ type: z.literal('goods'), description: z.string().max(500), unitValueCents: z.number().int(), invoiceRef: z.string().max(120) }).strict(),
])
/** Shape only: the rules (LOT-5, LOT-23...) are checked by the domain, which names every problem at once. */
const lottoPlan = z.object({
  operator: z.string().max(500), gameCode: z.string().max(16), name: z.string().max(500), drawNumber: z.number().int(), issue: z.string().max(40),
  range: z.number().int(), picks: z.number().int(), drawCount: z.number().int().optional(), priceCents: z.number().int(), currency: z.string().max(3),
  maxBoardsPerSlip: z.number().int().optional(), maxDrawsPerSlip: z.number().int().optional(), prizePoolBp: z.number().int(),
  unwonShares: z.enum(['rollover', 'operator']).optional(),
  categories: z.array(z.object({ code: z.string().max(8), name: z.string().max(80), matches: z.number().int(), prize: lottoPrize }).strict()).max(20),
  budgetCents: z.number().int(), expectedPlays: z.number().int().nullable().optional(), salesStartAt: iso, salesCloseAt: iso, drawAt: iso, claimDeadline: iso,
  drawPlace: z.string().max(500), paymentPlace: z.string().max(500), regulationUrl: z.string().max(500), authorisationRef: z.string().max(120),
  drawMethod: z.enum(['rng', 'manual']), drawDevice: z.string().max(120).nullable().optional(),
  licensedRange: z.object({ min: z.number().int(), max: z.number().int() }).strict().nullable().optional(),
  staff, securityWarnings: z.array(z.string().max(300)).max(10).optional(),
}).strict()

const slip = z.object({
  boards: z.array(z.array(z.number().int()).max(128)).max(100).optional(),
  quickPicks: z.number().int().min(0).max(100).optional(),
  draws: z.number().int().min(1).max(52).optional(),
  player: z.object({ name: text(120), document: text(40) }).strict(),
  channel: z.string().min(1).max(40).regex(/^[a-z0-9:_-]+$/).default('counter'),
}).strict()

export function registerLottoRoutes(app: App, services: Services): void {
  const lotto = services.lotto

  // ---- lotto: plans
  app.post('/api/lotto/draws', needs('lottery.admin'), async (c) => c.json(await lotto.createDraw(await body(c, lottoPlan)), 201))
  app.get('/api/lotto/draws', needs('game.read'), async (c) => c.json({ draws: await lotto.listDraws(c.req.query('game') || undefined) }))
  app.get('/api/lotto/draws/:drawId', needs('game.read'), async (c) => c.json(await lotto.getDraw(p(c, 'drawId'))))

  // ---- lotto: sales
  app.post('/api/lotto/draws/:drawId/slips', needs('lottery.sell'), async (c) => {
    const b = await body(c, slip)
    return c.json(await lotto.sellSlip({ drawId: p(c, 'drawId'), ...b }), 201)
  })
  app.get('/api/lotto/slips/:receipt', needs('ticket.validate'), async (c) => c.json(await lotto.getReceipt(p(c, 'receipt'))))
  app.get('/api/lotto/slips/:receipt/receipt.pdf', needs('lottery.sell'), async (c) => pdf(c, await lotto.receiptPdf(p(c, 'receipt')), `comprobante-${p(c, 'receipt')}.pdf`))
  app.post('/api/lotto/slips/:receipt/annul', needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ reason: text(500) }).strict())
    await lotto.annulSlip(p(c, 'receipt'), b.reason)
    return c.json({ ok: true })
  })

  // ---- lotto: close of sales, participation, draw, settlement
  // bolillo-draw-v2: no entropy from any person; a body that still sends one is refused by name.
  app.post('/api/lotto/draws/:drawId/close', needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ externalEntropy: z.unknown().optional(), entropySource: z.unknown().optional(), earlyReason: z.string().max(500).optional() }).strict())
    refusePersonEntropy(b)
    return c.json(await lotto.closeSales(p(c, 'drawId'), { earlyReason: b.earlyReason }, actorOf(c)))
  })
  app.get('/api/lotto/draws/:drawId/participation', needs('game.read'), async (c) => csv(c, await lotto.participationFile(p(c, 'drawId')), `participacion-${p(c, 'drawId')}.csv`))
  app.get('/api/lotto/draws/:drawId/excluded', needs('game.read'), async (c) => csv(c, await lotto.participationFile(p(c, 'drawId'), 'excluded'), `excluidas-${p(c, 'drawId')}.csv`))
  // Beacon round R typed in by staff from any public source (whoever may run the draw).
  app.post('/api/lotto/draws/:drawId/beacon', needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ signature: z.string().min(1).max(400) }).strict())
    return c.json(await lotto.recordBeacon(p(c, 'drawId'), b.signature, actorOf(c)))
  })
  app.post('/api/lotto/draws/:drawId/draw', needs('lottery.draw'), async (c) => c.json(await lotto.drawRng(p(c, 'drawId'), actorOf(c))))
  app.post('/api/lotto/draws/:drawId/balls', needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ ball: z.number().int(), deviceId: z.string().max(120).optional() }).strict())
    return c.json(await lotto.enterBall(p(c, 'drawId'), b.ball, b.deviceId ?? null))
  })
  app.post('/api/lotto/draws/:drawId/incidents', needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ note: text(2000) }).strict())
    await lotto.recordIncident(p(c, 'drawId'), b.note)
    return c.json({ ok: true }, 201)
  })
  app.post('/api/lotto/draws/:drawId/settle', needs('lottery.draw'), async (c) => c.json(await lotto.settle(p(c, 'drawId'))))
  app.get('/api/lotto/draws/:drawId/proof', needs('game.read'), async (c) => c.json(await lotto.getProof(p(c, 'drawId'))))
  app.get('/api/lotto/draws/:drawId/extracto', needs('game.read'), async (c) => c.json(await lotto.extracto(p(c, 'drawId'))))
  app.get('/api/lotto/draws/:drawId/extracto.pdf', needs('game.read'), async (c) => pdf(c, await lotto.extractoPdf(p(c, 'drawId')), `extracto-${p(c, 'drawId')}.pdf`))
  app.get('/api/lotto/draws/:drawId/acta', needs('minutes.read'), async (c) => c.json(await lotto.acta(p(c, 'drawId'))))
  app.get('/api/lotto/draws/:drawId/acta.pdf', needs('minutes.read'), async (c) => pdf(c, await lotto.actaPdf(p(c, 'drawId')), `acta-${p(c, 'drawId')}.pdf`))

  // ---- lotto: cashier, claim period, prize register
  app.post('/api/lotto/tickets/validate', needs('ticket.validate'), async (c) => {
    const b = await body(c, z.object({ code }).strict())
    return c.json(await lotto.validate(b.code))
  })
  app.post('/api/lotto/tickets/pay', needs('ticket.pay'), async (c) => {
    const b = await body(c, z.object({ code, stationId: station, cashierId: text(120).optional(), payee }).strict())
    return c.json(await lotto.pay({ code: b.code, payee: b.payee, ...actors(c, b) }))
  })
  app.get('/api/lotto/draws/:drawId/unclaimed', needs('report.read'), async (c) => c.json(await lotto.unclaimed(p(c, 'drawId'))))
  app.post('/api/lotto/draws/:drawId/unclaimed/dispose', needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ destination: text(500), reference: text(200) }).strict())
    return c.json(await lotto.disposeUnclaimed(p(c, 'drawId'), b), 201)
  })
  app.get('/api/lotto/prize-register', needs('report.read'), async (c) => c.json({ entries: await lotto.prizeRegister(c.req.query('drawId') || undefined) }))
}
