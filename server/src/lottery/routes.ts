/**
 * HTTP routes of issue #6 for numbered-ticket lotteries and raffles, under /api/lottery (lotto is in
 * lotto/routes.ts). Cashier scans of lottery/raffle tickets (kind `T`) also arrive through the generic
 * POST /api/tickets/validate and /api/tickets/pay (cashdesk/routes.ts), which hand that kind to this service.
 *
 * Public (game.read): plans, participation files, extractos (LOT-17), proofs, and the public list of lost or
 * stolen ranges (LST-3).
 */
import { counterCashFields, counterTill } from '../http/station.ts'
import { pdf, actorOf, body, needs, param as p, type App, type AppContext } from '../http/context.ts'
import { z } from 'zod'
import { DomainError } from '../shared/errors.ts'
import type { Services } from '../services.ts'
import { refusePersonEntropy } from '../shared/lottery-draw-v2.ts'
import { registerReissueRoutes } from './reissue-routes.ts'

const text = (max = 500) => z.string().min(1).max(max)
const iso = z.string().min(16).max(40)
const staff = z.object({ authority: text(120), director: text(120), moderator: text(120), notary: text(120) }).strict()

export function registerLotteryRoutes(app: App, services: Services): void {
  // ---- numbered-ticket lotteries and raffles
  const lottery = services.lottery
  registerReissueRoutes(app, services)
  app.post('/api/lottery/draws', needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ kind: z.string().max(20) }).passthrough())
    const plan = ['raffle', 'tombola', 'promotional'].includes(b.kind)
      ? await lottery.createRaffle(await bodyAgain(c, rafflePlan))
      : await lottery.createLottery(await bodyAgain(c, lotteryPlan))
    return c.json(plan, 201)
  })
  app.get('/api/lottery/draws', needs('game.read'), async (c) => {
    const product = c.req.query('product')
    return c.json({
      draws: await lottery.listDraws(product === 'lottery' || product === 'raffle' ? product : undefined),
    })
  })
  app.get('/api/lottery/draws/:drawId', needs('game.read'), async (c) => c.json(await lottery.getDraw(p(c, 'drawId'))))
  // Issue 13 point 3: a fraction's signed code leaves the server only in a print run of the lottery administration,
  // before the close of sales, entered in the issue register (the per-fraction code route that any kiosk could call
  // is gone). LOT-26: the codes go to the secure printer's outbox only (lottery/print-files.ts); the answer is the run's
  // counts, ranges and the print file's digest as JSON, or the sheet as printed in the clear (no code) as a PDF.
  app.post('/api/lottery/draws/:drawId/print-runs', needs('lottery.admin'), async (c) => {
    const b = await body(
      c,
      block
        .extend({ reason: z.string().max(500).optional(), format: z.enum(['json', 'pdf']).default('json') })
        .strict(),
    )
    if (b.format === 'pdf') {
      const run = await lottery.printRunPdf(p(c, 'drawId'), b, actorOf(c))
      c.header('x-print-file-sha256', run.printFileSha256)
      return pdf(c, run.pdf, `billetes-${p(c, 'drawId')}-tiraje-${run.runNo}-prueba.pdf`)
    }
    return c.json(await lottery.printRun(p(c, 'drawId'), b, actorOf(c)), 201)
  })
  app.post('/api/lottery/draws/:drawId/distributions', needs('lottery.admin'), async (c) => {
    const b = await body(c, block.extend({ sellerId: z.string().min(1).max(80) }).strict())
    return c.json(await lottery.distribute(p(c, 'drawId'), b, actorOf(c)), 201)
  })
  // CFG-39, LOT-15 (9), (11): the AJ logo and the MAE signature for the ticket sheet, as PNG (base64 in JSON).
  app.get('/api/lottery/artwork', needs('lottery.admin'), async (c) =>
    c.json({ artwork: await lottery.artworkStatus() }),
  )
  // The image on record, for the back office's preview of what the ticket sheet will carry.
  app.get('/api/lottery/artwork/:kind', needs('lottery.admin'), async (c) => {
    const kind = z.enum(['aj-logo', 'mae-signature']).safeParse(p(c, 'kind'))
    if (!kind.success) throw new DomainError('NOT_FOUND', `no artwork kind ${p(c, 'kind')}`)
    return c.json(await lottery.artworkImage(kind.data))
  })
  app.put('/api/lottery/artwork/:kind', needs('lottery.admin'), async (c) => {
    const kind = z.enum(['aj-logo', 'mae-signature']).safeParse(p(c, 'kind'))
    if (!kind.success) throw new DomainError('NOT_FOUND', `no artwork kind ${p(c, 'kind')}`)
    const b = await body(
      c,
      z
        .object({
          pngBase64: z
            .string()
            .min(1)
            .max(256 * 1024),
        })
        .strict(),
    )
    return c.json(await lottery.uploadArtwork(kind.data, b.pngBase64, actorOf(c)), 200)
  })
  // Issue 29 point 8: whom the back office can distribute to (names for the select; the id is the value sent back).
  app.get('/api/lottery/sellers', needs('lottery.admin'), async (c) => c.json(await lottery.sellers()))
  app.get('/api/lottery/draws/:drawId/register', needs('report.read'), async (c) =>
    c.json(await lottery.register(p(c, 'drawId'))),
  )
  app.post('/api/lottery/draws/:drawId/returns', needs('lottery.draw'), async (c) => {
    const b = await body(
      c,
      block.extend({ sellerId: z.string().min(1).max(80).optional(), note: z.string().max(500).optional() }).strict(),
    )
    return c.json(await lottery.recordReturn(p(c, 'drawId'), b, actorOf(c)), 201)
  })
  app.post('/api/lottery/draws/:drawId/lost-stolen', needs('lottery.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          kind: z.enum(['lost', 'stolen']),
          from: z.number().int(),
          to: z.number().int(),
          seriesFrom: z.number().int().optional(),
          seriesTo: z.number().int().optional(),
          discoveredAt: iso,
          reportedToAjAt: iso,
          distributed: z.boolean(),
          policeReportRef: z.string().max(200).nullable().optional(),
          remedy: z.enum(['new-numbering', 'full-reprint', 'renunciation', 'new-draw-date', 'none']),
          notice: text(2000),
        })
        .strict(),
    )
    return c.json(await lottery.reportLostStolen(p(c, 'drawId'), b), 201)
  })
  app.get('/api/lottery/draws/:drawId/lost-stolen', needs('game.read'), async (c) =>
    c.json(await lottery.lostStolenNotice(p(c, 'drawId'))),
  )
  app.post('/api/lottery/draws/:drawId/tickets', needs('lottery.sell'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          count: z.number().int().min(1).max(1000).optional(),
          numbers: z.array(z.number().int()).max(1000).optional(),
          buyerName: z.string().max(120).optional(),
          channel: z
            .string()
            .min(1)
            .max(40)
            .regex(/^[a-z0-9:_-]+$/)
            .default('counter'),
          ...counterCashFields,
        })
        .strict(),
    )
    // Issue 13 point 2: sold at a counter for cash into the open shift's drawer (PRM-1), never issued for nothing.
    const { channel: _channel, ...sale } = b
    return c.json(
      await services.paidSales.counterRaffle({ drawId: p(c, 'drawId'), ...sale, ...(await counterTill(c, services)) }),
      201,
    )
  })
  // bolillo-draw-v2: no entropy from any person; a body that still sends one is refused by name.
  app.post('/api/lottery/draws/:drawId/close', needs('lottery.draw'), async (c) => {
    const b = await body(
      c,
      z.object({ externalEntropy: z.unknown().optional(), entropySource: z.unknown().optional() }).strict(),
    )
    refusePersonEntropy(b)
    return c.json(await lottery.closeSales(p(c, 'drawId'), actorOf(c)))
  })
  app.post('/api/lottery/draws/:drawId/numbers', needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ number: z.number().int(), deviceId: z.string().max(120).optional() }).strict())
    return c.json(await lottery.enterNumber(p(c, 'drawId'), b.number, b.deviceId ?? null))
  })
  // LNS-9 / LOT-18: mid-draw, the digit set in use is swapped for the reserve, with the reason (who may: as registers sets).
  app.post('/api/lottery/draws/:drawId/ball-set-swap', needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ reason: text(500) }).strict())
    return c.json(await lottery.swapBallSet(p(c, 'drawId'), b.reason, actorOf(c)))
  })

  // ---- lottery: the operator's digit ball sets (0-9 in each drum, LOT-18), as lotto's (LNS-9): lottery.admin
  app.get('/api/lottery/ball-sets', needs('lottery.draw'), async (c) =>
    c.json({ ballSets: await lottery.listBallSets() }),
  )
  app.post('/api/lottery/ball-sets', needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ reference: text(60), drums: z.number().int(), sealRef: text(120) }).strict())
    return c.json(await lottery.registerBallSet(b, actorOf(c)), 201)
  })
  app.post('/api/lottery/ball-sets/:ballSetId/reserve', needs('lottery.admin'), async (c) =>
    c.json(await lottery.markReserveBallSet(p(c, 'ballSetId'), actorOf(c))),
  )
  app.post('/api/lottery/ball-sets/:ballSetId/retire', needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ reason: text(500) }).strict())
    return c.json(await lottery.retireBallSet(p(c, 'ballSetId'), b.reason, actorOf(c)))
  })
}

const numbering = z.object({ from: z.number().int(), to: z.number().int(), digits: z.number().int() }).strict()
const lotteryPlan = z
  .object({
    kind: z.enum(['traditional', 'popular', 'regional']),
    institution: z.string().max(500),
    name: z.string().max(500),
    gameCode: z.string().max(16),
    drawNumber: z.number().int(),
    issue: z.string().max(40),
    numbering,
    series: z.number().int(),
    fractions: z.number().int(),
    ticketPriceCents: z.number().int(),
    currency: z.string().max(3),
    licensedMaxTickets: z.number().int().optional(),
    budgetCents: z.number().int(),
    prizes: z
      .array(
        z
          .object({
            code: z.string().max(8),
            name: z.string().max(80),
            amountCents: z.number().int(),
            rule: z.discriminatedUnion('type', [
              z.object({ type: z.literal('exact') }).strict(),
              z
                .object({ type: z.literal('approximation'), of: z.string().max(8), distance: z.number().int() })
                .strict(),
              z.object({ type: z.literal('ending'), of: z.string().max(8), digits: z.number().int() }).strict(),
              z.object({ type: z.literal('beginning'), of: z.string().max(8), digits: z.number().int() }).strict(),
              z.object({ type: z.literal('progression'), of: z.string().max(8), step: z.number().int() }).strict(),
            ]),
            kind: z.enum(['cash', 'goods', 'in-kind']).optional(),
            goods: z
              .object({
                description: z.string().max(500),
                class: z.enum(['movable', 'registrable', 'real-estate']),
                invoiceRef: z.string().max(120).nullable().optional(),
                commitmentRef: z.string().max(120).nullable().optional(),
                supplierCertificateRef: z.string().max(120).nullable().optional(),
              })
              .strict()
              .nullable()
              .optional(),
            source: z.enum(['operator', 'sponsor', 'expired-promotion']).optional(),
          })
          .strict(),
      )
      .max(50),
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
    territory: z.string().max(120).nullable().optional(),
    staff,
    securityMarks: z.string().max(500),
    securityWarnings: z.array(z.string().max(300)).max(10).optional(),
    timeZone: z.string().max(64).nullable().optional(),
  })
  .strict()
const rafflePlan = z
  .object({
    kind: z.enum(['raffle', 'tombola', 'promotional']),
    organiser: z.string().max(500),
    name: z.string().max(500),
    gameCode: z.string().max(16),
    drawNumber: z.number().int(),
    classification: z.enum(['benefica', 'utilidad-publica', 'interes-particular', 'promotional']),
    nonProfit: z.boolean(),
    numbering,
    ticketPriceCents: z.number().int(),
    currency: z.string().max(3),
    prizes: z
      .array(
        z
          .object({
            code: z.string().max(8),
            name: z.string().max(80),
            description: z.string().max(500),
            kind: z.enum(['goods', 'service', 'cash']),
            valueCents: z.number().int(),
            depositedAt: iso,
            depositPlace: z.string().max(500),
            invoiceRef: z.string().max(120),
            bankDepositRef: z.string().max(120).nullable().optional(),
            source: z.enum(['operator', 'sponsor', 'expired-promotion']).optional(),
          })
          .strict(),
      )
      .max(100),
    authorisationRef: z.string().max(120).nullable().optional(),
    communicationRef: z.string().max(120).nullable().optional(),
    successive: z.boolean().optional(),
    draws: z
      .array(z.object({ drawAt: iso, prizeCodes: z.array(z.string().max(8)).max(100) }).strict())
      .max(52)
      .nullable()
      .optional(),
    winnersStayIn: z.boolean().nullable().optional(),
    // PRM-2: a tómbola by points, as its bases approve it.
    points: z
      .object({
        basesRef: z.string().max(120),
        hallId: z.string().max(64),
        totalPoints: z.number().int(),
        tiers: z.array(z.object({ count: z.number().int(), points: z.number().int() }).strict()).max(20),
        figures: z.record(z.string().max(8), z.number().int()),
      })
      .strict()
      .nullable()
      .optional(),
    drawAmong: z.enum(['sold', 'issued']).optional(),
    salesStartAt: iso,
    salesCloseAt: iso,
    drawAt: iso,
    claimDeadline: iso,
    drawPlace: z.string().max(500),
    paymentPlace: z.string().max(500),
    drawMethod: z.enum(['rng', 'manual']),
    drawDevice: z.string().max(120).nullable().optional(),
    staff,
    timeZone: z.string().max(64).nullable().optional(),
  })
  .strict()
const block = z.object({
  from: z.number().int(),
  to: z.number().int(),
  seriesFrom: z.number().int().optional(),
  seriesTo: z.number().int().optional(),
  fractionFrom: z.number().int().optional(),
  fractionTo: z.number().int().optional(),
})

/** The body again, for a second schema: hono caches the text it read. */
async function bodyAgain<T extends z.ZodType>(c: AppContext, schema: T): Promise<z.infer<T>> {
  return body(c, schema)
}
