/**
 * HTTP routes of issue #6 for lotto, under /api/lotto. Cashier scans of lotto receipts (kind `L`) also arrive
 * through the generic POST /api/tickets/validate and /api/tickets/pay (cashdesk/routes.ts), which hand that kind
 * to this service.
 *
 * Public (game.read): plans, participation files and excluded lists (LNS-14), extractos (LNS-10, LOT-17) and
 * proofs.
 */
import { pdf, csv, actorOf, body, needs, param as p, principalOf, type App, type AppContext } from '../http/context.ts'
import { isAllowed, type Role } from '../access/permissions.ts'
import { z } from 'zod'
import type { Services } from '../services.ts'
import { refusePersonEntropy } from '../shared/lottery-draw-v2.ts'
import { counterCashFields, counterTill } from '../http/station.ts'

const text = (max = 500) => z.string().min(1).max(max)
const iso = z.string().min(16).max(40)
const station = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_.:-]+$/)
const staff = z.object({ authority: text(120), director: text(120), moderator: text(120), notary: text(120) }).strict()

const lottoPrize = z.discriminatedUnion('type', [
  z.object({ type: z.literal('share'), bp: z.number().int() }).strict(),
  z.object({ type: z.literal('fixed'), amountCents: z.number().int() }).strict(),
  z
    .object({
      type: z.literal('goods'),
      description: z.string().max(500),
      unitValueCents: z.number().int(),
      invoiceRef: z.string().max(120),
      source: z.enum(['operator', 'sponsor', 'expired-promotion']).optional(),
    })
    .strict(),
])
/** Shape only: the rules (LOT-5, LOT-23...) are checked by the domain, which names every problem at once. */
const lottoPlan = z
  .object({
    operator: z.string().max(500),
    gameCode: z.string().max(16),
    name: z.string().max(500),
    drawNumber: z.number().int(),
    issue: z.string().max(40),
    range: z.number().int(),
    picks: z.number().int(),
    drawCount: z.number().int().optional(),
    priceCents: z.number().int(),
    currency: z.string().max(3),
    maxBoardsPerSlip: z.number().int().optional(),
    maxDrawsPerSlip: z.number().int().optional(),
    prizePoolBp: z.number().int(),
    unwonShares: z.enum(['rollover', 'operator']).optional(),
    categories: z
      .array(
        z
          .object({ code: z.string().max(8), name: z.string().max(80), matches: z.number().int(), prize: lottoPrize })
          .strict(),
      )
      .max(20),
    budgetCents: z.number().int(),
    expectedPlays: z.number().int().nullable().optional(),
    salesStartAt: iso,
    salesCloseAt: iso,
    drawAt: iso,
    claimDeadline: iso,
    drawPlace: z.string().max(500),
    paymentPlace: z.string().max(500),
    regulationUrl: z.string().max(500),
    authorisationRef: z.string().max(120),
    drawMethod: z.enum(['rng', 'manual']),
    drawDevice: z.string().max(120).nullable().optional(),
    drawHallId: z.string().max(64).nullable().optional(),
    licensedRange: z.object({ min: z.number().int(), max: z.number().int() }).strict().nullable().optional(),
    staff,
    securityWarnings: z.array(z.string().max(300)).max(10).optional(),
    timeZone: z.string().max(64).nullable().optional(),
    carryMap: z.record(z.string().max(8), z.string().max(8)).optional(),
  })
  .strict()

const slip = z
  .object({
    boards: z.array(z.array(z.number().int()).max(128)).max(100).optional(),
    quickPicks: z.number().int().min(0).max(100).optional(),
    draws: z.number().int().min(1).max(52).optional(),
    player: z.object({ name: text(120), document: text(40) }).strict(),
    channel: z
      .string()
      .min(1)
      .max(40)
      .regex(/^[a-z0-9:_-]+$/)
      .default('counter'),
  })
  .strict()

/** Whether the caller's role pays prizes (and so may see a player's identity document, GEN-16). */
function paysPrizes(c: AppContext): boolean {
  return !c.get('authOn') || isAllowed('ticket.pay', principalOf(c).role as Role)
}

export function registerLottoRoutes(app: App, services: Services): void {
  const lotto = services.lotto

  // ---- lotto: plans
  app.post('/api/lotto/draws', needs('lottery.admin'), async (c) =>
    c.json(await lotto.createDraw(await body(c, lottoPlan)), 201),
  )
  app.get('/api/lotto/draws', needs('game.read'), async (c) =>
    c.json({ draws: await lotto.listDraws(c.req.query('game') || undefined) }),
  )
  app.get('/api/lotto/draws/:drawId', needs('game.read'), async (c) => c.json(await lotto.getDraw(p(c, 'drawId'))))

  // ---- lotto: ball sets (LNS-9), the operator's: registered and the reserve marked by the lottery operator or director
  app.get('/api/lotto/ball-sets', needs('lottery.draw'), async (c) => c.json({ ballSets: await lotto.listBallSets() }))
  app.post('/api/lotto/ball-sets', needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ reference: text(60), ballCount: z.number().int(), sealRef: text(120) }).strict())
    return c.json(await lotto.registerBallSet(b, actorOf(c)), 201)
  })
  app.post('/api/lotto/ball-sets/:ballSetId/reserve', needs('lottery.admin'), async (c) =>
    c.json(await lotto.markReserveBallSet(p(c, 'ballSetId'), actorOf(c))),
  )
  // LNS-9: a worn set retired with its reason (never one a draw is being drawn with); mid-draw, a swap to the reserve.
  app.post('/api/lotto/ball-sets/:ballSetId/retire', needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ reason: text(500) }).strict())
    return c.json(await lotto.retireBallSet(p(c, 'ballSetId'), b.reason, actorOf(c)))
  })
  app.post('/api/lotto/draws/:drawId/ball-set-swap', needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ reason: text(500) }).strict())
    return c.json(await lotto.swapBallSet(p(c, 'drawId'), b.reason, actorOf(c)))
  })

  // ---- lotto: sales
  // Issue 13: a counter sale takes the cash into the station's drawer and prints the receipt (LNS-6), all or
  // nothing; a kiosk sells slips only against a voucher (POST /api/kiosk/purchases).
  app.post('/api/lotto/draws/:drawId/slips', needs('lottery.sell'), async (c) => {
    const {
      stationId: claimed,
      cash,
      buyerDocument,
      ageConfirmed,
      ...b
    } = await body(c, slip.extend({ stationId: station.optional(), ...counterCashFields }))
    const who = await counterTill(c, services, claimed)
    return c.json(
      await services.paidSales.counterSlip({
        ...who,
        cash,
        buyerDocument,
        ageConfirmed,
        slip: { drawId: p(c, 'drawId'), ...b },
      }),
      201,
    )
  })
  // Issue 13 point 4: a lookup by receipt number never carries the bearer code, and the player's document only for
  // those who pay prizes (ticket.pay); a copy of the receipt is printed without its QR.
  app.get('/api/lotto/slips/:receipt', needs('lotto.slip.read'), async (c) =>
    c.json(await lotto.getReceipt(p(c, 'receipt'), { showDocument: paysPrizes(c) })),
  )
  app.get('/api/lotto/slips/:receipt/receipt.pdf', needs('lotto.slip.read'), async (c) =>
    pdf(
      c,
      await lotto.receiptPdf(p(c, 'receipt'), { showDocument: paysPrizes(c) }),
      `comprobante-copia-${p(c, 'receipt')}.pdf`,
    ),
  )
  // LNS-20: player data amended before the draw, with the supporting document; validated by the operator's staff.
  app.post('/api/lotto/slips/:receipt/player', needs('lottery.draw'), async (c) => {
    const b = await body(
      c,
      z.object({ name: text(120), document: text(40), evidenceRef: text(200), reason: text(500) }).strict(),
    )
    return c.json(await lotto.amendPlayer(p(c, 'receipt'), b, actorOf(c)))
  })
  app.post('/api/lotto/slips/:receipt/annul', needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ reason: text(500) }).strict())
    await lotto.annulSlip(p(c, 'receipt'), b.reason)
    return c.json({ ok: true })
  })

  // ---- lotto: close of sales, participation, draw, settlement
  // bolillo-draw-v2: no entropy from any person; a body that still sends one is refused by name.
  app.post('/api/lotto/draws/:drawId/close', needs('lottery.draw'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          externalEntropy: z.unknown().optional(),
          entropySource: z.unknown().optional(),
          earlyReason: z.string().max(500).optional(),
        })
        .strict(),
    )
    refusePersonEntropy(b)
    return c.json(await lotto.closeSales(p(c, 'drawId'), { earlyReason: b.earlyReason }, actorOf(c)))
  })
  app.get('/api/lotto/draws/:drawId/excluded', needs('game.read'), async (c) =>
    csv(c, await lotto.participationFile(p(c, 'drawId'), 'excluded'), `excluidas-${p(c, 'drawId')}.csv`),
  )
  // LNS-21: the notary's act listing the excluded and annulled plays, recorded after the close and before the draw.
  app.post('/api/lotto/draws/:drawId/notarial-act', needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ notary: text(120), actNumber: text(60), actDate: iso.optional() }).strict())
    return c.json(await lotto.recordNotarialAct(p(c, 'drawId'), b, actorOf(c)), 201)
  })
  app.post('/api/lotto/draws/:drawId/balls', needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ ball: z.number().int(), deviceId: z.string().max(120).optional() }).strict())
    return c.json(await lotto.enterBall(p(c, 'drawId'), b.ball, b.deviceId ?? null))
  })
}
