/**
 * HTTP routes of bingo: halls, master sets, series, sessions and their minutes, games (sales, draw, claims,
 * incidents, proof, cards) and prizes. Errors are DomainErrors, turned into localized JSON by http/app.ts.
 */
import { FIGURES, figureKind } from './patterns.ts'
import { z } from 'zod'
import {
  actorOf,
  body,
  nameOf,
  needs,
  param,
  principalOf,
  secondPerson,
  type App,
  type AppContext,
} from '../http/context.ts'
import { fieldReasons, pickLang } from '../http/messages.ts'
import { DomainError } from '../shared/errors.ts'
import { isAllowed, type Role } from '../access/permissions.ts'
import { counterCashFields, counterTill, tillChannel } from '../http/station.ts'
import type { Services } from '../services.ts'
import { tillOf } from '../http/till.ts'
import { TicketKind, verifyTicketCode } from '../shared/ticket-code.ts'
import { hallAnswer } from './store/halls.ts'
import { sessionAnswer } from './store/games.ts'
import { seriesAnswer } from './store/series.ts'
import { prizeAnswer } from './store/claims.ts'

const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
/**
 * Issue 14 point 2 (BNG-27, BNG-94, BNG-96): a recount is made by the requester (the Jefe de Mesa, or de Mesa-Cajero)
 * in the presence of the Director de Bingo (Bolivia) or the Jefe de Sala (Cantabria), who confirms it with their own
 * credential on the same screen (X-Bolillo-Second-Person, holding ball-set.witness). Both names go into the journal
 * and the minutes; the body's `confirmedBy` is read only with authentication off (witnessOf).
 */
async function recountOf(
  c: AppContext,
  r: { ballsCounted: number; confirmedBy?: string },
): Promise<{ ballsCounted: number; confirmedBy: string; countedBy?: string; confirmedByRole?: string }> {
  if (!c.get('authOn'))
    return { ballsCounted: r.ballsCounted, confirmedBy: nameOf(c, r.confirmedBy, 'recount.confirmedBy') }
  // Issue 26, BNG-27: the witness's role goes to the use case, which asks the hall's profile whom it must be.
  const witness = await secondPerson(c, 'ball-set.witness')
  return {
    ballsCounted: r.ballsCounted,
    countedBy: nameOf(c),
    confirmedBy: witness.name,
    confirmedByRole: witness.role,
  }
}

const bp = z.number().int().min(0).max(10_000)
/** BNG-52: a Plan de Apuestas version: prize shares, pot increments and commission, in basis points of the total collected. */
const bettingPlan = z
  .object({
    authorisationRef: z.string().min(1).max(120),
    shares: z.object({ poolBp: bp, lineBp: bp, bingoBp: bp, primaBp: bp }).strict(),
    potsBp: bp.default(0),
    commissionBp: bp.default(0),
  })
  .strict()
// BNG-40 / GEN-18 / CFG-16 / BNG-10: the hall's posted bets and authorised face values, with their authorisation.
const cards = z.number().int().min(1).max(100_000)
/** BNG-98 / CFG-32: a licence's bingo rápido (checked against the profile by modalities.ts checkFastBingoTerms). */
const fastBingoTerms = z
  .object({
    universe: z.number().int().min(2).max(255),
    picks: z.number().int().min(1).max(20),
    timesRequired: z.number().int().min(1).max(20),
    playerChooses: z.boolean(),
  })
  .strict()
const saleRules = z
  .object({
    authorisationRef: z.string().min(1).max(120),
    minCardsPerPurchase: cards,
    maxCardsPerPurchase: cards,
    maxCardsPerPlayer: cards,
    faceValuesCents: z.array(z.number().int().positive().max(100_000_000)).min(1).max(20).nullable().default(null),
  })
  .strict()
const recount = z
  .object({ ballsCounted: z.number().int().min(0).max(1000), confirmedBy: z.string().min(1).max(120).optional() })
  .strict()

export function registerBingoRoutes(app: App, services: Services) {
  const { bingo } = services
  // ---- halls, series, sessions
  app.get('/api/halls', needs('hall.read'), async (c) => c.json({ halls: await bingo.listHalls() }))
  app.get('/api/halls/:hallId', needs('hall.read'), async (c) =>
    c.json(await bingo.getHallOverview(param(c, 'hallId'))),
  )
  app.post('/api/halls', needs('hall.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          name: z.string().min(1).max(120),
          profileId: z.enum(['BO-2025', 'BO-2013', 'ES-CB-2010']),
          playingPositions: z.number().int().min(1).max(100_000),
          id: id.optional(),
          timeZone: z.string().min(1).max(64).optional(),
          bettingPlan: bettingPlan.optional(),
          saleRules: saleRules.optional(),
          // GEN-1: the operating licence, recorded with the hall (a Bolivian hall sells nothing without it); CFG-21:
          // whether it allows the system's claims (absent: it does not).
          licence: z
            .object({
              authorisationRef: z.string().min(1).max(120),
              minimumBasis: z.enum(['cards', 'positions']),
              fastBingo: fastBingoTerms.optional(),
              autoClaims: z.boolean().optional(),
            })
            .strict()
            .optional(),
        })
        .strict(),
    )
    return c.json(hallAnswer(await bingo.createHall({ ...b, by: actorOf(c) })), 201)
  })
  // Issue 18: the rules a hall plays under and every version of its plans (BNG-52, CFG-17, CFG-24/25, BNG-102).
  app.get('/api/halls/:hallId/rules', needs('minutes.read'), async (c) =>
    c.json(await bingo.hallRules(param(c, 'hallId'))),
  )
  app.put('/api/halls/:hallId/betting-plan', needs('hall.rules'), async (c) => {
    const plan = await body(c, bettingPlan)
    return c.json(await bingo.setBettingPlan({ hallId: param(c, 'hallId'), plan, by: actorOf(c) }))
  })
  app.put('/api/halls/:hallId/licence', needs('hall.rules'), async (c) => {
    const terms = await body(
      c,
      z
        .object({
          authorisationRef: z.string().min(1).max(120),
          minimumBasis: z.enum(['cards', 'positions']),
          playingPositions: z.number().int().min(1).max(100_000),
          // BNG-98 / CFG-32: the licence's bingo rápido, where it sets one.
          fastBingo: fastBingoTerms.optional(),
          // CFG-21: the licence allows the system's claims (absent: it does not).
          autoClaims: z.boolean().optional(),
        })
        .strict(),
    )
    return c.json(await bingo.setLicenceTerms({ hallId: param(c, 'hallId'), terms, by: actorOf(c) }))
  })
  app.put('/api/halls/:hallId/derived-plan', needs('hall.rules'), async (c) => {
    const plan = await body(
      c,
      z
        .object({
          authorisationRef: z.string().min(1).max(120),
          version: z.enum(['instant', 'deferred']),
          ballCount: z.number().int(),
          rows: z.number().int().min(1).max(5),
          perRow: z.number().int().min(1).max(18),
          prizePercentBp: z.number().int().min(0).max(10_000),
          prizes: z
            .array(
              z
                .object({
                  name: z.string().min(1).max(60),
                  combination: z.string().min(1).max(120),
                  wins: z.enum(['line', 'bingo']),
                  shareBp: z.number().int().min(0).max(10_000),
                  fixedCents: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
                  stakeMultiple: z.number().int().positive().max(100_000).optional(),
                })
                .strict(),
            )
            .min(1)
            .max(20),
          window: z
            .object({
              games: z.number().int().min(1).max(100_000).optional(),
              hours: z.number().int().min(1).max(8760).optional(),
            })
            .strict()
            .optional(),
        })
        .strict(),
    )
    return c.json(await bingo.setDerivedPlan({ hallId: param(c, 'hallId'), plan, by: actorOf(c) }))
  })
  // CFG-13 / BNG-103 / CFG-35: the prize figures the hall's games may play, with the approval's reference.
  app.put('/api/halls/:hallId/figure-plan', needs('hall.rules'), async (c) => {
    const plan = await body(
      c,
      z
        .object({
          authorisationRef: z.string().min(1).max(120),
          prizes: z
            .array(z.object({ figure: z.enum(FIGURES), shareBp: z.number().int().min(1).max(10_000) }).strict())
            .min(1)
            .max(FIGURES.length),
        })
        .strict(),
    )
    return c.json(await bingo.setFigurePlan({ hallId: param(c, 'hallId'), plan, by: actorOf(c) }))
  })
  // BNG-40 / GEN-18 / CFG-16 / BNG-10: the hall's posted bets and authorised face values, with their authorisation.
  app.put('/api/halls/:hallId/sale-rules', needs('hall.rules'), async (c) => {
    const rules = await body(c, saleRules)
    return c.json(await bingo.setSaleRules({ hallId: param(c, 'hallId'), rules, by: actorOf(c) }))
  })
  // CFG-7: a game's own minimum and maximum bets within the hall's, per channel where the plan sets them (null: none).
  app.put('/api/games/:gameId/sale-limits', needs('hall.rules'), async (c) => {
    const limits = z
      .object({ minCardsPerPurchase: cards, maxCardsPerPurchase: cards, maxCardsPerPlayer: cards })
      .strict()
    const b = await body(
      c,
      z
        .object({
          limits: limits
            .extend({
              authorisationRef: z.string().max(120).nullable().default(null),
              channels: z
                .object({ counter: limits, table: limits, kiosk: limits, terminal: limits })
                .partial()
                .strict()
                .default({}),
            })
            .strict()
            .nullable(),
        })
        .strict(),
    )
    return c.json(await bingo.setGameSaleLimits({ gameId: param(c, 'gameId'), limits: b.limits, by: actorOf(c) }))
  })
  // CFG-20 / BNG-42 / BNG-50 / BNG-80: the hall's calling rhythm, "any more?" window and suspension times.
  app.put('/api/halls/:hallId/calling-times', needs('hall.rules'), async (c) => {
    const times = await body(
      c,
      z
        .object({
          authorisationRef: z.string().max(120).nullable().optional(),
          minBallIntervalSeconds: z.number().int().min(0).max(120),
          claimWindowSeconds: z.number().int().min(0).max(600),
          suspensionMinutes: z.number().int().min(0).max(240),
        })
        .strict(),
    )
    return c.json(
      await bingo.setCallingTimes({
        hallId: param(c, 'hallId'),
        times: { ...times, authorisationRef: times.authorisationRef ?? null },
        by: actorOf(c),
      }),
    )
  })
  // BNG-22 (000 §6.1.4, BO-2013): the notice posted at the start of the day that games may start below the minimum.
  app.post('/api/halls/:hallId/reduced-minimum', needs('hall.rules'), async (c) => {
    const b = await body(c, z.object({ notice: z.string().min(1).max(500) }).strict())
    return c.json(await bingo.postReducedMinimum({ hallId: param(c, 'hallId'), notice: b.notice, by: actorOf(c) }), 201)
  })
  // CFG-21: the hall's automatic claims (null: the default, on where its licence allows them).
  app.put('/api/halls/:hallId/auto-claim', needs('hall.rules'), async (c) => {
    const b = await body(c, z.object({ autoClaim: z.boolean().nullable() }).strict())
    return c.json(await bingo.setAutoClaim({ hallId: param(c, 'hallId'), autoClaim: b.autoClaim, by: actorOf(c) }))
  })
  // BNG-34: the hall's CCTV camera on the ball exit point, named by every incident of its games (GEN-31).
  app.put('/api/halls/:hallId/cctv', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ ballCameraId: z.string().min(1).max(80).nullable() }).strict())
    return c.json(
      await bingo.setHallCamera({ hallId: param(c, 'hallId'), ballCameraId: b.ballCameraId, by: actorOf(c) }),
    )
  })
  // Issue 17: the hall's wall clock (IANA zone); null goes back to the profile's.
  app.put('/api/halls/:hallId/time-zone', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ timeZone: z.string().min(1).max(64).nullable() }).strict())
    return c.json(await bingo.setHallTimeZone({ hallId: param(c, 'hallId'), timeZone: b.timeZone, by: actorOf(c) }))
  })
  // GEN-25: the hall sells only to players who give their identity document (checked on the exclusion list).
  app.put('/api/halls/:hallId/identified-sales', needs('hall.rules'), async (c) => {
    const b = await body(c, z.object({ required: z.boolean() }).strict())
    return c.json(await bingo.setIdentifiedSales({ hallId: param(c, 'hallId'), required: b.required, by: actorOf(c) }))
  })
  // LOT-28: the hall's place (departamento/municipio/ciudad) that territory-limited lotteries are checked against.
  app.put('/api/halls/:hallId/territory', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ territory: z.string().min(1).max(120).nullable() }).strict())
    return c.json(await bingo.setHallTerritory({ hallId: param(c, 'hallId'), territory: b.territory, by: actorOf(c) }))
  })
  app.post('/api/master-sets', needs('hall.admin'), async (c) => {
    const b = await body(
      c,
      z.object({ count: z.number().int().min(1).max(1_000_000), seed: z.string().min(1).max(128).optional() }).strict(),
    )
    return c.json(await bingo.createMasterSet(b), 201)
  })
  app.post('/api/halls/:hallId/series', needs('hall.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code: z.string().min(1).max(8),
          masterSetId: id,
          faceValueCents: z.number().int().positive().max(100_000_000),
          layoutAuthorisationRef: z.string().min(1).max(120).optional(),
        })
        .strict(),
    )
    return c.json(seriesAnswer(await bingo.createSeries({ hallId: param(c, 'hallId'), ...b, by: actorOf(c) })), 201)
  })
  app.post('/api/halls/:hallId/sessions', needs('session.open'), async (c) => {
    // BNG-41: the ball recount (BNG-27) and the check of the material and installations, both before the session.
    const b = await body(
      c,
      z
        .object({
          recount,
          checklist: z
            .object({
              extractor: z.boolean(),
              cctv: z.boolean(),
              displays: z.boolean(),
              sound: z.boolean(),
              reader: z.boolean().optional(),
              note: z.string().max(500).optional(),
            })
            .strict(),
        })
        .strict(),
    )
    return c.json(
      sessionAnswer(
        await bingo.openSession({
          hallId: param(c, 'hallId'),
          recount: await recountOf(c, b.recount),
          checklist: b.checklist,
        }),
      ),
      201,
    )
  })
  // BNG-93 / BNG-19: players let into or out of the hall (never more than its seated positions; none while closed).
  app.post('/api/sessions/:sessionId/entries', needs('game.sales'), async (c) => {
    const b = await body(
      c,
      z.object({ direction: z.enum(['in', 'out']), people: z.number().int().min(1).max(1000) }).strict(),
    )
    return c.json(await bingo.recordEntry({ sessionId: param(c, 'sessionId'), ...b, by: actorOf(c) }), 201)
  })
  app.get('/api/sessions/:sessionId', needs('minutes.read'), async (c) =>
    c.json(await services.minutes.sessionSummary(param(c, 'sessionId'))),
  )
  app.post('/api/sessions/:sessionId/last-game', needs('session.close'), async (c) => {
    await bingo.announceLastGame(param(c, 'sessionId'))
    return c.json({ ok: true })
  })
  app.post('/api/sessions/:sessionId/close', needs('session.close'), async (c) => {
    const b = await body(c, z.object({ recount: recount.optional() }).strict())
    await bingo.closeSession(param(c, 'sessionId'), b.recount ? await recountOf(c, b.recount) : null)
    return c.json({ ok: true })
  })
  app.get('/api/sessions/:sessionId/minutes', needs('minutes.read'), async (c) =>
    c.json(await services.minutes.sessionMinutes(param(c, 'sessionId'))),
  )
  app.get('/api/sessions/:sessionId/minutes.pdf', needs('minutes.read'), async (c) => {
    const pdf = await services.minutes.sessionMinutesPdf(
      param(c, 'sessionId'),
      pickLang(c.req.header('accept-language')),
    )
    return c.body(pdf as unknown as ArrayBuffer, 200, {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="acta-${param(c, 'sessionId')}.pdf"`,
    })
  })

  // ---- games
  app.post('/api/sessions/:sessionId/games', needs('game.announce'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          seriesIds: z.array(id).min(1).max(2),
          drawSource: z.enum(['rng', 'manual', 'blower']).optional(),
          deviceId: z.string().min(1).max(40).optional(),
          // CFG-13: the prize figures of the hall's approved plan this game plays.
          figures: z.array(z.enum(FIGURES)).max(FIGURES.length).optional(),
          // BNG-98 / CFG-32: a fast bingo game's terms, as its hall's licence sets them (refused otherwise).
          fastBingo: z
            .object({
              timesRequired: z.number().int().min(1).max(20).optional(),
              playerChooses: z.boolean().optional(),
            })
            .strict()
            .optional(),
        })
        .strict(),
    )
    return c.json(await bingo.announceGame({ sessionId: param(c, 'sessionId'), ...b }), 201)
  })
  app.get('/api/games/:gameId', needs('game.read'), async (c) => c.json(await bingo.getGameState(param(c, 'gameId'))))
  app.get('/api/games/:gameId/state', needs('game.read'), async (c) =>
    c.json(await bingo.getGameState(param(c, 'gameId'))),
  )
  app.post('/api/games/:gameId/series', needs('game.announce'), async (c) => {
    const b = await body(c, z.object({ seriesId: id }).strict())
    return c.json(await bingo.addSeries(param(c, 'gameId'), b.seriesId))
  })
  // BNG-73: the Jefe de Mesa signs each game's closing entry, with her own session.
  app.post('/api/games/:gameId/closing/sign', needs('game.closing.sign'), async (c) => {
    const b = await body(c, z.object({ note: z.string().max(500).optional() }).strict())
    return c.json(await bingo.signGameClosing({ gameId: param(c, 'gameId'), signer: actorOf(c), note: b.note }))
  })
  app.post('/api/games/:gameId/sales/open', needs('game.sales'), async (c) =>
    c.json(await bingo.openSales(param(c, 'gameId'))),
  )
  app.post('/api/games/:gameId/sales/close', needs('game.sales'), async (c) => {
    const b = await body(c, z.object({ externalEntropy: z.unknown().optional() }).strict())
    // BNG-16 / BNG-97: the locutor does not close sales alone; a jefe confirms with her own credential (asked once
    // the game is known to exist, so that an unknown game answers 404 to everyone).
    const who = principalOf(c)
    if (c.get('authOn') && who.kind === 'person' && !isAllowed('game.sales.close', who.role as Role)) {
      await bingo.getGameState(param(c, 'gameId'))
      await secondPerson(c, 'game.sales.close')
    }
    // bolillo-draw-v2: no person supplies entropy; an old client that still sends it is told so plainly.
    if (b.externalEntropy !== undefined) {
      throw new DomainError(
        'VALIDATION_FAILED',
        'externalEntropy is no longer accepted: the draw uses the public beacon round fixed by the close time',
        { field: 'externalEntropy', reason: fieldReasons.externalEntropy[pickLang(c.req.header('accept-language'))] },
      )
    }
    return c.json(await bingo.closeSales({ gameId: param(c, 'gameId') }))
  })
  // DESIGN.md bolillo-draw-v2 point 3: round R typed in by staff from any public source, or fetched now from the relays.
  app.post('/api/games/:gameId/beacon', needs('game.draw'), async (c) => {
    const b = await body(c, z.object({ signature: z.string().min(1).max(400).optional() }).strict())
    const who = principalOf(c)
    if (b.signature === undefined) return c.json(await bingo.obtainBeacon(param(c, 'gameId')))
    return c.json(
      await bingo.acceptTypedBeacon({
        gameId: param(c, 'gameId'),
        signature: b.signature,
        actor: { kind: who.kind, id: who.id, name: who.name, role: String(who.role) },
      }),
    )
  })
  // Issue 13: a counter sale (cashier station, the caller's table) takes the cash into the station's drawer and
  // prints the cards, all or nothing; a kiosk sells only against a voucher (POST /api/kiosk/purchases).
  // `channel` is still accepted from older clients and ignored: the channel is the station that took the cash.
  app.post('/api/games/:gameId/sales', needs('game.sell'), async (c) => {
    // `playerDocument`: the buyer's identity document, when the seller records it; the hall's maximum per player
    // (CFG-16) and its seats (BNG-93) then count this player's cards of the game (bingo/purchases.ts).
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
          // BNG-98: in a chosen-number game, the buyer's numbers, one list per card (checked by the sale's admission).
          picks: z.array(z.array(z.number()).max(20)).max(1000).optional(),
          ...counterCashFields,
        })
        .strict(),
    )
    const station = await counterTill(c, services, b.stationId)
    return c.json(
      await services.paidSales.counterCards({
        saleChannel: tillChannel(c),
        gameId: param(c, 'gameId'),
        count: b.count,
        picks: b.picks,
        playerDocument: b.playerDocument,
        cash: b.cash,
        buyerDocument: b.buyerDocument,
        ageConfirmed: b.ageConfirmed,
        ...station,
      }),
      201,
    )
  })
  // BNG-19 (Cantabria): the jefe closes the hall's entry as the reading of the game's data begins.
  app.post('/api/games/:gameId/entry/close', needs('game.sales'), async (c) =>
    c.json(await bingo.closeHallEntry({ gameId: param(c, 'gameId'), by: actorOf(c) })),
  )
  // BNG-15 / BNG-88: cards handed back to staff, scanned by their signed codes (up to 10 per request).
  // BNG-15 / BNG-88: the same people who collect cards after a game (card.collect, people only, never a kiosk).
  app.post('/api/cards/returns', needs('card.collect'), async (c) => {
    const b = await body(
      c,
      z
        .object({ code: z.union([z.string().min(1).max(400), z.array(z.string().min(1).max(400)).min(1).max(10)]) })
        .strict(),
    )
    const codes = Array.isArray(b.code) ? b.code : [b.code]
    const cardIds = codes.map((code) => {
      const ref = verifyTicketCode(code, services.keys.publicKey)
      if (ref.kind !== TicketKind.card)
        throw new DomainError('VALIDATION_FAILED', 'only bingo cards are handed back here', { field: 'code' })
      return ref.id
    })
    const who = principalOf(c)
    return c.json(await bingo.returnCards({ cardIds, by: actorOf(c), stationId: who.device?.id ?? null }))
  })
  app.post('/api/games/:gameId/draw', needs('game.draw'), async (c) => c.json(await bingo.drawNext(param(c, 'gameId'))))
  app.post('/api/games/:gameId/balls', needs('game.draw'), async (c) => {
    const b = await body(c, z.object({ ball: z.number().int(), deviceId: z.string().max(64).optional() }).strict())
    return c.json(await bingo.enterBall(param(c, 'gameId'), b.ball, b.deviceId ?? null))
  })
  app.post('/api/games/:gameId/claims', needs('game.claim'), async (c) => {
    // CFG-13: a figure is claimed as `figure:<name>` (patterns.ts), on the same path as the line and the bingo.
    const b = await body(
      c,
      z
        .object({ kind: z.enum(['line', 'bingo', ...FIGURES.map(figureKind)]), serial: z.string().min(1).max(40) })
        .strict(),
    )
    const r = await bingo.claim({ gameId: param(c, 'gameId'), serial: b.serial, kind: b.kind })
    return c.json(r, r.ok ? 200 : 422)
  })
  app.post('/api/games/:gameId/claims/stop', needs('game.claim'), async (c) =>
    c.json(await bingo.stopForClaim(param(c, 'gameId'))),
  )
  app.post('/api/games/:gameId/claims/resume', needs('game.claim'), async (c) =>
    c.json(await bingo.resumePlay(param(c, 'gameId'))),
  )
  app.post('/api/games/:gameId/window/close', needs('game.window'), async (c) =>
    c.json(await bingo.closeWindow(param(c, 'gameId'))),
  )
  app.post('/api/games/:gameId/incidents', needs('game.incident'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          kind: z.enum([
            'device-failure-before-first-ball',
            'device-failure-after-first-ball',
            'ball-irregularity',
            'caller-error',
            'unresolved-suspension',
            'reader-misread',
          ]),
          note: z.string().max(2000).optional(),
          correctedBall: z.number().int().optional(),
          // Issue 15 point 4: an annulment carries its reason and a second person's confirmation.
          reason: z.string().max(500).optional(),
          confirm: z
            .object({ username: z.string().min(1).max(120), password: z.string().min(1).max(200) })
            .strict()
            .optional(),
          // BNG-34 / GEN-31: the camera whose footage shows it (default: the hall's ball-exit camera) and the recording.
          cameraId: z.string().min(1).max(80).optional(),
          cctvRef: z.string().min(1).max(200).optional(),
        })
        .strict(),
    )
    const who = principalOf(c)
    const by = { kind: who.kind, id: who.id, name: who.name, role: who.role }
    const boss = c.get('authorisedBy')
    const authorisedBy = boss ? { kind: boss.kind, id: boss.id, name: boss.name, role: boss.role } : undefined
    // The password is checked here, at the door; whether the incident annuls, whether the hall wants the director's
    // co-signature (BNG-74) and who may give either is the use case's. Only a checked credential names the second
    // person: never a name in the body.
    const confirmedBy = b.confirm
      ? await services.auth.confirmPerson(b.confirm.username, b.confirm.password)
      : undefined
    const annulment = confirmedBy ? { reason: b.reason ?? '', confirmedBy } : undefined
    return c.json(
      await bingo.declareIncident({
        gameId: param(c, 'gameId'),
        kind: b.kind,
        note: b.note,
        correctedBall: b.correctedBall,
        by,
        authorisedBy,
        cosigner: confirmedBy,
        annulment,
        cctv: { cameraId: b.cameraId, cctvRef: b.cctvRef },
      }),
    )
  })
  // BNG-83 (Cantabria): any manually entered ball is corrected to the number on the ball, before a prize is
  // verified at or after it (CORRECTION_TOO_LATE after that: only the annulment incident is left).
  app.post('/api/games/:gameId/balls/:seq/correction', needs('game.incident'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          ball: z.number().int(),
          kind: z.enum(['caller-error', 'reader-misread']).optional(),
          note: z.string().max(2000).optional(),
        })
        .strict(),
    )
    const seq = Number(param(c, 'seq'))
    if (!Number.isInteger(seq) || seq < 1)
      throw new DomainError('VALIDATION_FAILED', "seq is the ball's extraction number (1, 2, ...)", { field: 'seq' })
    const who = principalOf(c)
    return c.json(
      await bingo.correctCalledBall({
        gameId: param(c, 'gameId'),
        seq,
        ball: b.ball,
        kind: b.kind,
        note: b.note,
        by: { kind: who.kind, id: who.id, name: who.name, role: who.role },
      }),
    )
  })
  app.post('/api/games/:gameId/resume', needs('game.incident'), async (c) =>
    c.json(await bingo.resume(param(c, 'gameId'))),
  )
  app.get('/api/games/:gameId/proof', needs('game.read'), async (c) => c.json(await bingo.getProof(param(c, 'gameId'))))
  app.get('/api/games/:gameId/cards/:serial', needs('game.claim'), async (c) => {
    const card = await bingo.getCard(param(c, 'gameId'), param(c, 'serial'))
    if (!card) throw new DomainError('TICKET_NOT_FOUND', 'card not sold in this game')
    return c.json(card)
  })
  app.get('/api/games/:gameId/prizes', needs('game.read'), async (c) =>
    c.json({ prizes: (await bingo.listPrizes(param(c, 'gameId'))).map(prizeAnswer) }),
  )
  // Issue 13 point 6: the table pays through the cashier's path: against the card's signed code, after the game's
  // prize window has closed, out of the drawer of the person's open shift at the table's station.
  app.post('/api/prizes/:prizeId/pay', needs('prize.pay'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code: z.string().min(1).max(400).optional(),
          paidBy: z.string().min(1).max(120).optional(),
          payeeName: z.string().max(120).optional(),
          payeeDocument: z.string().max(40).optional(),
          payeePhone: z.string().max(30).optional(),
          // CFG-27 / BNG-70: where the profile allows it, the table pays by cheque too (Cantabria pays at the table
          // before the next game, BNG-71); payouts.pay decides, as at the cash desk.
          payment: z
            .discriminatedUnion('method', [
              z.object({ method: z.literal('cash') }).strict(),
              z
                .object({
                  method: z.literal('cheque'),
                  chequeNumber: z.string().trim().min(1).max(40),
                  playerConsent: z.boolean(),
                })
                .strict(),
            ])
            .optional(),
        })
        .strict(),
    )
    const till = await tillOf(c, services, { stationId: 'mesa', cashierId: b.paidBy })
    return c.json(
      await services.cashdesk.payouts.payAtTable({
        prizeId: param(c, 'prizeId'),
        code: b.code,
        ...till,
        payeeName: b.payeeName,
        payeeDocument: b.payeeDocument,
        payeePhone: b.payeePhone,
        payment: b.payment,
      }),
    )
  })
}
