/**
 * HTTP routes of issue #8: prima de bingo (BNG-57 to BNG-64), progressive / interconnected / lucky-ball pots
 * (BNG-55, BNG-66, BNG-67), bonus prize receipts (BNG-69; paid at the cash desk), simultaneous games (BNG-100) and master sets
 * of the other modalities (BNG-98, BNG-102, BNG-103). Each route validates, authorizes and calls one use case; errors
 * are DomainErrors, turned into JSON by app.ts.
 */
import { body, forReader, needs, principalOf, type App, type AppContext } from '../http/context.ts'
import { printBonusReceipt } from './bonus-print.ts'
import { z } from 'zod'
import { DomainError } from '../shared/errors.ts'
import { counterCashFields, counterTill, tillChannel } from '../http/station.ts'
import { layoutForModality, Modality } from './modalities.ts'
import { clusterOf } from '../realtime/multi-node.ts'
import type { Services } from '../services.ts'

const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const bp = z.number().int().min(0).max(10_000)
/** A path id; anything else (a NUL byte, a slash, 10 kB) is simply not found, and never reaches the database. */
const param = (c: AppContext, name: string): string => {
  const v = c.req.param(name) ?? ''
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(v))
    throw new DomainError('NOT_FOUND', `no ${name} ${JSON.stringify(v.slice(0, 64))}`)
  return v
}

const condition = z.union([
  z
    .object({
      prize: z.enum(['line', 'bingo']),
      scale: z
        .array(z.object({ withinBalls: z.number().int().min(1).max(255), shareBp: bp }).strict())
        .min(1)
        .max(20),
    })
    .strict(),
  z
    .object({
      luckyPrizes: z
        .array(z.enum(['line', 'bingo']))
        .min(1)
        .max(2),
      numbers: z.number().int().min(1).max(10),
    })
    .strict(),
])

export function registerBonusRoutes(app: App, services: Services): void {
  const { bonus, bingo } = services

  // ---- prima de bingo (CFG-29)
  app.get('/api/halls/:hallId/prima', needs('hall.read'), async (c) =>
    c.json(await bonus.primaOfHall(param(c, 'hallId'))),
  )
  app.get('/api/halls/:hallId/prima/ledger', needs('minutes.read'), async (c) =>
    c.json({ ledger: await bonus.primaLedger(param(c, 'hallId')) }),
  )
  app.put('/api/halls/:hallId/prima', needs('hall.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          amountsCents: z.array(cents).min(1).max(20),
          amountCents: cents.optional(),
          deductionBp: bp.optional(),
          baseBallLimit: z.number().int().min(1).max(255).optional(),
          incrementPerGame: z.number().int().min(0).max(255).optional(),
          resetAfterAward: z.enum(['base', 'keep']).optional(),
          // BNG-58: the Consejería resolution under which the deduction differs from 6 %.
          resolutionRef: z.string().min(1).max(120).optional(),
        })
        .strict(),
    )
    return c.json(await bonus.configurePrima(param(c, 'hallId'), b))
  })

  // ---- pots (CFG-28, CFG-30, CFG-31)
  app.get('/api/pots', needs('game.read'), async (c) =>
    c.json({ pots: await bonus.listPots(c.req.query('hallId') || undefined) }),
  )
  app.post('/api/pots', needs('hall.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          name: z.string().min(1).max(120),
          kind: z.enum(['progressive', 'interconnected', 'lucky']),
          contributionBp: bp,
          reserveBp: bp.optional(),
          seedCents: cents.optional(),
          maxCents: cents.nullable().optional(),
          condition,
          hallIds: z.array(id).min(1).max(200),
          // RNG-20 / RNG-21: the AJ's prior authorisation, and the commission approved in the Plan de Apuestas.
          authorisationRef: z.string().max(120).nullable().optional(),
          commissionBp: bp.optional(),
        })
        .strict(),
    )
    return c.json(await bonus.createPot(b), 201)
  })
  app.post('/api/pots/:potId/halls', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ hallId: id }).strict())
    return c.json(await bonus.addPotHall(param(c, 'potId'), b.hallId), 201)
  })
  app.get('/api/pots/:potId', needs('minutes.read'), async (c) =>
    c.json(forReader(c, await bonus.getPot(param(c, 'potId')))),
  )

  // ---- bonus prizes (BNG-69) and the lucky-ball proof (RNG-28)
  app.get('/api/games/:gameId/bonus-prizes', needs('game.read'), async (c) =>
    c.json({ prizes: await bonus.listBonusPrizes(param(c, 'gameId')) }),
  )
  // Issue 24 point 2: the payee's document to the roles that read identities (aml.identity), masked for the rest.
  app.get('/api/bonus-prizes/:prizeId/receipt', needs('prize.pay'), async (c) =>
    c.json(forReader(c, await bonus.bonusReceipt(param(c, 'prizeId')))),
  )
  // Issue 23: a bonus prize is paid only with its card, through the cash desk (POST /api/tickets/pay with the card's
  // code pays every unpaid prize of the card, bonus prizes included). Its receipt is read and printed again here.
  app.post('/api/bonus-prizes/:prizeId/receipt/print', needs('prize.pay'), async (c) => {
    await body(c, z.object({}).strict())
    const receipt = forReader(c, await bonus.bonusReceipt(param(c, 'prizeId')))
    const { timeZone } = await services.cashdesk.vouchers.hallFor(services.db, receipt.hallId)
    const printed = await printBonusReceipt(
      services.cashdesk.printers,
      receipt,
      c.get('authOn') ? ((principalOf(c) as { device?: { id: string } }).device?.id ?? null) : null,
      timeZone,
    )
    if (!printed.printed)
      throw new DomainError('DEVICE_UNAVAILABLE', printed.error.message, { reason: printed.error.reason })
    return c.json(printed)
  })
  app.get('/api/games/:gameId/lucky-proof', needs('game.read'), async (c) =>
    c.json(await bonus.luckyProof(param(c, 'gameId'))),
  )

  // ---- simultaneous games (BNG-100)
  app.post('/api/games/:gameId/halls', needs('game.announce'), async (c) => {
    const b = await body(
      c,
      z
        .object({ hallId: id, seriesId: id, fromCardNo: z.number().int().min(1), toCardNo: z.number().int().min(1) })
        .strict(),
    )
    return c.json({ halls: await bonus.joinGame({ gameId: param(c, 'gameId'), ...b }) }, 201)
  })
  // Issue 13: paid at the counter like any card sale (cash into the station's drawer, cards printed).
  app.post('/api/games/:gameId/halls/:hallId/sales', needs('game.sell'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          count: z.number().int().min(1).max(1000),
          channel: z
            .string()
            .min(1)
            .max(40)
            .regex(/^[a-z0-9:_-]+$/)
            .optional(),
          stationId: z
            .string()
            .min(1)
            .max(40)
            .regex(/^[A-Za-z0-9_.:-]+$/)
            .optional(),
          playerDocument: z.string().min(4).max(40).optional(),
          ...counterCashFields,
        })
        .strict(),
    )
    const station = await counterTill(c, services, b.stationId)
    return c.json(
      await services.paidSales.counterCards({
        saleChannel: tillChannel(c),
        gameId: param(c, 'gameId'),
        hallId: param(c, 'hallId'),
        count: b.count,
        playerDocument: b.playerDocument,
        cash: b.cash,
        buyerDocument: b.buyerDocument,
        ageConfirmed: b.ageConfirmed,
        ...station,
      }),
      201,
    )
  })

  // ---- the nodes this one sees through the socket.io adapter (multi-node deployments on PostgreSQL)
  app.get('/api/cluster', needs('game.read'), async (c) => {
    const info = clusterOf(services)
    return c.json({
      engine: services.db.engine,
      adapter: info?.adapter ?? 'none',
      nodes: info ? await info.nodes() : 1,
    })
  })

  // ---- master sets of the other modalities (75 balls, bingo plus, derived, fast)
  app.post('/api/master-sets/modality', needs('hall.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          modality: z.enum(Object.values(Modality) as [Modality, ...Modality[]]),
          count: z.number().int().min(1).max(1_000_000),
          seed: z.string().min(1).max(128).optional(),
          params: z
            .object({
              ballCount: z.number().int().optional(),
              rows: z.number().int().optional(),
              perRow: z.number().int().optional(),
              columns: z.number().int().optional(),
              picks: z.number().int().optional(),
              timesRequired: z.number().int().optional(),
              playerChooses: z.boolean().optional(),
            })
            .strict()
            .optional(),
        })
        .strict(),
    )
    // BNG-98 / CFG-32: a master set is the cards only; what wins and who chooses the numbers are the hall's licence's
    // terms (fastGameTerms, when a game is announced), never a master set's.
    if (b.params?.timesRequired !== undefined || b.params?.playerChooses !== undefined)
      throw new DomainError(
        'RULE_DISABLED',
        "a fast bingo's times required and chosen numbers are set by the hall's AJ Operating Licence (PUT /api/halls/:hallId/licence), not by its master set (BNG-98, CFG-32)",
        { rule: 'CFG-32' },
      )
    const layout = layoutForModality(b.modality, b.params)
    return c.json(
      { ...(await bingo.createMasterSet({ count: b.count, seed: b.seed, layout })), modality: b.modality, layout },
      201,
    )
  })
}
