/**
 * A game from its announcement to the close of sales: series in play (BNG-11 to BNG-13), correlative card sales
 * (BNG-12 to BNG-14), the minimum participation and the draw key fixed at the close (BNG-16, BNG-17, BNG-21).
 */
import { cardFromRows, cardKey, type CardLayout } from './card.ts'
import type { GameLayout } from './game.ts'
import { commitmentOf, salesDigest as digestOf } from '../shared/draw-proof.ts'
import { drawRoundFor, roundTime } from '../shared/beacon.ts'
import { isoOfUnixSeconds } from '../shared/draw-proof-v2.ts'
import { scheduleBeacon, seedContext } from './draw-beacon.ts'
import { DomainError } from '../shared/errors.ts'
import { GameAction, GameStatus, assertLegal, prizePools, secondSeriesLimit } from './game.ts'
import { assertFaceValueAuthorised } from './sale-rules.ts'
import { minimumCardsToStart } from '../shared/profile.ts'
import { isoInZone } from '../shared/time-zone.ts'
import type { HallRuleSettings } from './betting-plan.ts'
import type { Sql } from '../db/database.ts'
import { appendJournal } from '../shared/journal.ts'
import { assertReadRowsSealed, assertRowsSealed } from '../shared/row-seals.ts'
import { emit, gameScope, hallOf, hallTimeZone, loadGame, loadSession, type BingoContext, type Tx } from './context.ts'
import { seriesStart } from './series-cursor.ts'
import { entryClosedWithin } from './purchases.ts'
import { getGameState } from './game-state.ts'
import {
  type Game,
  unfinishedGameOfSession,
  sessionGameCount,
  insertGame,
  insertFirstGameSeries,
  gameSeries,
  insertSecondGameSeries,
  setGameStatus,
  setGameStatusSalesOpened,
  setGameSeriesEnd,
  addCardsSold,
  markSalesClosed,
} from './store/games.ts'
import { unpaidPrizesOfHall } from './store/halls.ts'
import { gameForSale, markGameClosingSigned, type GameRow } from './store/games.ts'
import { insertCards, soldRuns, soldSerials, takenCardKeys } from './store/sales.ts'
import { masterCardsInRange, seriesOfHall, masterSetLayout, advanceSeriesCursor } from './store/series.ts'
import { hallTermsRead, type GameState, type JoinedSaleFacts, type SoldCard } from './types.ts'
import type { Profile } from '../shared/profile.ts'
import {
  checkDerivedPlan,
  checkChosenNumbers,
  chosenLayoutOf,
  chosenNumbersRefused,
  chosenNumbersLayout,
  derivedPools,
  derivedShares,
  fastBingoLayout,
  fastGameTerms,
  fastLayoutOf,
  isDerivedLayoutOf,
  isSameLayout,
  type DerivedPlan,
} from './modalities.ts'
import { derivedPlanOfGame, derivedPlansOfHall, insertDerivedGame } from './store/derived.ts'
import {
  figurePlanProblems,
  figuresAllowedOn,
  poolsWithFigures,
  type Figure,
  type FigurePlan,
  type FigurePrize,
} from './patterns.ts'
import { figuresOfGame, insertGameFigure, newestFigurePlanOfHall, setFigurePool } from './store/figures.ts'

/**
 * BNG-102 / CFG-34: the derived bingo version a game on this layout plays (the hall's newest version of that card
 * format), checked again now against the decree and the Consejería minimum; undefined for any other game.
 */
async function derivedVersionFor(
  tx: Sql,
  hallId: string,
  profile: Profile,
  layout: CardLayout,
): Promise<{ version: number; authorisationRef: string; plan: DerivedPlan } | undefined> {
  for (const row of await derivedPlansOfHall(tx, hallId)) {
    await assertRowsSealed(tx, 'hall_plans', [row.id])
    const body = JSON.parse(row.body) as DerivedPlan
    if (!isDerivedLayoutOf(layout, body)) continue
    return {
      version: Number(row.version),
      authorisationRef: row.authorisation_ref,
      plan: checkDerivedPlan(profile, body),
    }
  }
  return undefined
}

/**
 * CFG-13 / BNG-103 / CFG-35: the prize figures a game plays, chosen among the hall's newest approved figure plan
 * (each with the share the plan approved, the plan's reference), on a card the profile allows them on, fitting the
 * card, and leaving the bingo a part of its share. None chosen: line and bingo only.
 */
async function figuresForGame(
  tx: Sql,
  hallId: string,
  profile: Profile,
  layout: CardLayout,
  bingoBp: number,
  chosen: readonly Figure[],
  derived: boolean,
): Promise<{ version: number; authorisationRef: string; prizes: FigurePrize[] }> {
  const none = { version: 0, authorisationRef: '', prizes: [] }
  if (chosen.length === 0) return none
  const refuse = (message: string, details: Record<string, unknown> = {}) =>
    new DomainError('RULE_DISABLED', message, { rule: 'CFG-13', ...details })
  // A derived game's combinations are its version's predetermined prizes (BNG-102), not figures added to it.
  if (derived) throw refuse("a derived bingo game pays its version's predetermined prizes only (BNG-102)")
  if (!figuresAllowedOn(profile, layout))
    throw refuse(
      profile.figurePrizes.layouts === 'none'
        ? `profile ${profile.id} plays line and bingo only (CFG-13)`
        : `profile ${profile.id} allows prize figures on bingo plus cards only (BNG-103)`,
      { layouts: profile.figurePrizes.layouts },
    )
  const row = await newestFigurePlanOfHall(tx, hallId)
  if (!row) throw refuse(`hall ${hallId} has no approved figure plan (${profile.figurePrizes.authority})`)
  // Issue 24 point 1: the figures and their shares come from the plan as the server recorded it.
  await assertRowsSealed(tx, 'hall_plans', [row.id])
  const plan = JSON.parse(row.body) as FigurePlan
  const prizes: FigurePrize[] = []
  for (const f of new Set(chosen)) {
    const p = plan.prizes.find((x) => x.figure === f)
    if (!p)
      throw refuse(`figure ${f} is not in the hall's approved figure plan (version ${row.version})`, { figure: f })
    prizes.push(p)
  }
  const problems = figurePlanProblems(prizes, { rows: layout.rows, perRow: layout.perRow }, bingoBp)
  if (problems.length)
    throw new DomainError('VALIDATION_FAILED', `figures refused for this game: ${problems.join('; ')} (CFG-13)`, {
      problems,
      rule: 'CFG-13',
    })
  return { version: Number(row.version), authorisationRef: row.authorisation_ref, prizes }
}

/**
 * Inserts, as sold, cards `from`..`to` of a series: each card takes the numbers of the same card number of the
 * series' master set (BNG-13) and the serial `<series>-<number>`. The caller moves the correlative cursor.
 */
export async function insertSoldCards(
  tx: Sql,
  s: {
    gameId: string
    seriesId: string
    seriesCode: string
    seriesCardCount: number
    masterSetId: string
    from: number
    to: number
    channel: string
    at: string
    /**
     * BNG-98: a chosen-number game's cards, one per card number from..to in order: each card holds the player's
     * numbers (rows and key of the game's chosenNumbersLayout) instead of its master set's.
     */
    chosen?: ReadonlyArray<{ numbers: readonly number[]; cardKey: string }>
  },
  newId: (prefix: string) => string,
): Promise<SoldCard[]> {
  const masters = s.chosen
    ? s.chosen.map((c, i) => ({
        card_no: s.from + i,
        numbers: JSON.stringify([c.numbers]),
        card_key: c.cardKey,
      }))
    : await masterCardsInRange(tx, s.masterSetId, s.from, s.to)
  const width = Math.max(5, String(s.seriesCardCount).length)
  const sold: SoldCard[] = []
  const rows: Parameters<typeof insertCards>[1][number][] = []
  for (const m of masters) {
    const serial = `${s.seriesCode}-${String(m.card_no).padStart(width, '0')}`
    const id = newId('c')
    rows.push({
      id,
      gameId: s.gameId,
      seriesId: s.seriesId,
      cardNo: m.card_no,
      serial,
      masterSetId: s.masterSetId,
      cardKey: m.card_key,
      numbers: m.numbers,
      status: 'sold',
      channel: s.channel,
      soldAt: s.at,
    })
    sold.push({ id, serial, seriesCode: s.seriesCode, cardNo: Number(m.card_no), rows: JSON.parse(m.numbers) })
  }
  await insertCards(tx, rows)
  return sold
}

/** BNG-11: announce a game with its series, card count and face value. */
export async function announceGame(
  ctx: BingoContext,
  input: {
    sessionId: string
    seriesIds: string[]
    drawSource?: 'rng' | 'manual' | 'blower'
    deviceId?: string
    figures?: Figure[]
    /** BNG-98 / CFG-32: what a fast bingo game asks for; its hall's licence decides (fastGameTerms). */
    fastBingo?: { timesRequired?: number; playerChooses?: boolean }
  },
): Promise<GameState> {
  const { deps } = ctx
  if (input.seriesIds.length < 1 || input.seriesIds.length > 2)
    throw new DomainError('VALIDATION_FAILED', 'a game is sold from one series, or two under BNG-13', {
      field: 'seriesIds',
    })
  const gameId = ctx.newId('g')
  await ctx.gameTx(gameId, async (tx) => {
    const session = await loadSession(tx, input.sessionId)
    if (session.status === 'closed') throw new DomainError('ILLEGAL_TRANSITION', `session ${session.id} is closed`)
    const { hall, profile } = await hallOf(tx, session.hallId)
    const running = await unfinishedGameOfSession(tx, session.id)
    if (running)
      throw new DomainError('ILLEGAL_TRANSITION', `game ${running.id} has not ended yet`, { gameId: running.id })
    const previous = await sessionGameCount(tx, session.id)
    if (previous.lastAnnounced)
      throw new DomainError('ILLEGAL_TRANSITION', 'the last game of the session has been played (BNG-43)', {
        rule: 'BNG-43',
      })
    // BNG-52: no game without the prize shares of an approved Plan de Apuestas (Bolivia fixes none by default).
    const shares = profile.shares
    if (!shares)
      throw new DomainError(
        'BETTING_PLAN_REQUIRED',
        `hall ${hall.id} has no Plan de Apuestas with its prize shares (BNG-52)`,
        { hallId: hall.id, rule: 'BNG-52' },
      )
    // BNG-71: where prizes are paid before the next game starts, no game is announced while one is unpaid.
    if (profile.prizesPaidBeforeNextGame) {
      const unpaid = await unpaidPrizesOfHall(tx, hall.id)
      if (unpaid.count > 0)
        throw new DomainError(
          'PRIZES_UNPAID',
          `${unpaid.count} prizes (${unpaid.amountCents} cents) of game ${unpaid.gameIds.join(', ')} are unpaid: pay them before the next game (BNG-71)`,
          { ...unpaid, rule: 'BNG-71' },
        )
    }
    const drawSource = input.drawSource ?? 'rng'
    if (drawSource === 'rng' && !profile.softwareDrawAllowed) {
      throw new DomainError('RULE_DISABLED', `profile ${profile.id} does not allow software draws (BNG-1)`, {
        rule: 'BNG-1',
      })
    }
    const first = await seriesOfHall(tx, input.seriesIds[0], hall.id)
    if (!first) throw new DomainError('NOT_FOUND', `series ${input.seriesIds[0]} not found in hall ${hall.id}`)
    // Issue 24 point 1: the game is priced at the series' face value as the server wrote it.
    await assertRowsSealed(tx, 'series', [first.id])
    // BNG-10 / CFG-15: a series created at a value the hall's sale rules no longer authorise is not announced.
    assertFaceValueAuthorised(profile, first.faceValueCents)
    // BNG-12: the cursor carries over from earlier games; in Cantabria only from the same or previous day of the
    // hall's calendar. A lapsed series is refused: its sold cards cannot be sold again from card 1.
    const where = seriesStart({
      nextCardNo: first.nextCardNo,
      lastSoldAt: first.lastSoldAt,
      now: deps.clock.now(),
      carry: profile.seriesCursorCarry,
      timeZone: hallTimeZone(hall, profile),
    })
    if (where.kind === 'lapsed') {
      throw new DomainError(
        'SERIES_LAPSED',
        `series ${first.code} last sold on ${where.lastSaleDay}, ${where.idleDays} days before ${where.today}: put a new series on sale (BNG-12)`,
        { series: first.code, lastSaleDay: where.lastSaleDay, today: where.today, rule: 'BNG-12' },
      )
    }
    const start = where.startCardNo
    if (start > first.cardCount)
      throw new DomainError('SERIES_EXHAUSTED', `series ${first.code} has no cards left`, { series: first.code })
    // DESIGN.md bolillo-draw-v2 point 1: S from the health-tested source, sealed at once; only C is ever in clear.
    const seed = deps.entropy.randomBytes(32)
    const seedSealed = ctx.sealer.seal(seed, seedContext(gameId))
    const commitment = commitmentOf(seed)
    // RNG-32: the source that produced this seed (it may fall back) is stated in the game's proof.
    const entropySource = deps.entropy.name
    const at = ctx.now()
    const orderNo = previous.count + 1
    const isLast = session.status === 'last_game' ? 1 : 0
    // The game plays the layout its cards were printed with (the master set's): 90, 75 or 100 balls (issue #8).
    const setLayout = await masterSetLayout(tx, first.masterSetId)
    const cardLayout: CardLayout = setLayout !== undefined ? JSON.parse(setLayout) : profile.layout
    // BNG-98 / CFG-32 (002 §6.1.9): a fast bingo game plays the terms of the hall's AJ Operating Licence; fewer
    // numbers than all its picks win only where the licence sets so. Kept in the game's sealed layout, which every
    // win check reads (GameLayout.timesRequired).
    const fast = fastLayoutOf(cardLayout)
    if (!fast && input.fastBingo)
      throw new DomainError('VALIDATION_FAILED', `series ${first.code} holds no fast bingo cards (BNG-98)`, {
        field: 'fastBingo',
        rule: 'BNG-98',
      })
    const fastTerms = fast
      ? fastGameTerms(fast, (JSON.parse(hall.settings) as HallRuleSettings).licence ?? null, input.fastBingo)
      : null
    // Where the licence lets the player choose his numbers, the game's cards are the player's picks anywhere in the
    // universe (chosenNumbersLayout), each made at its sale (sellTx); the series gives their correlative numbers.
    const played: CardLayout =
      fast && fastTerms?.playerChooses
        ? chosenNumbersLayout({ ballCount: fast.universe, picks: fast.picks })
        : cardLayout
    const layout: GameLayout =
      fast && fastTerms && fastTerms.timesRequired < fast.picks
        ? { ...played, timesRequired: fastTerms.timesRequired }
        : played
    // BNG-102: a derived game's prizes and amounts are its version's, fixed now, before the game (004 Bingo VI.3.b).
    const derived = await derivedVersionFor(tx, hall.id, profile, layout)
    const gameShares = derived ? derivedShares(derived.plan) : shares
    const figures = await figuresForGame(
      tx,
      hall.id,
      profile,
      layout,
      gameShares.bingoBp,
      input.figures ?? [],
      !!derived,
    )
    await insertGame(tx, {
      id: gameId,
      sessionId: session.id,
      hallId: hall.id,
      orderNo,
      faceValueCents: first.faceValueCents,
      ballCount: layout.ballCount,
      layout: JSON.stringify(layout),
      lineBp: gameShares.lineBp,
      bingoBp: gameShares.bingoBp,
      drawSource,
      commitment,
      seedSealed,
      isLastGame: isLast,
      at,
      entropySource,
    })
    await insertFirstGameSeries(tx, gameId, first.id, start, first.cardCount)
    for (const [position, f] of figures.prizes.entries())
      await insertGameFigure(tx, {
        gameId,
        figure: f.figure,
        position,
        shareBp: f.shareBp,
        planVersion: figures.version,
        authorisationRef: figures.authorisationRef,
      })
    if (derived)
      await insertDerivedGame(tx, {
        gameId,
        hallId: hall.id,
        planVersion: derived.version,
        authorisationRef: derived.authorisationRef,
        plan: JSON.stringify(derived.plan),
        at,
      })
    const rec = await appendJournal(tx, {
      at,
      type: 'game.announced',
      scope: `hall:${hall.id}/session:${session.id}/game:${gameId}`,
      payload: {
        gameId,
        orderNo,
        series: [{ code: first.code, startCardNo: start, cardCount: first.cardCount }],
        faceValueCents: first.faceValueCents,
        commitment,
        ballCount: layout.ballCount,
        drawSource,
        isLastGame: isLast === 1,
        lineBp: gameShares.lineBp,
        bingoBp: gameShares.bingoBp,
        entropySource,
        ...(fastTerms
          ? {
              fastBingo: {
                picks: fast!.picks,
                universe: fast!.universe,
                timesRequired: fastTerms.timesRequired,
                playerChooses: fastTerms.playerChooses,
                licence: fastTerms.licence,
                rule: 'BNG-98',
              },
            }
          : {}),
        ...(derived
          ? {
              derived: {
                planVersion: derived.version,
                authorisationRef: derived.authorisationRef,
                version: derived.plan.version,
                prizePercentBp: derived.plan.prizePercentBp,
                prizes: derived.plan.prizes,
                rule: 'BNG-102',
              },
            }
          : {}),
        ...(figures.prizes.length
          ? {
              figures: {
                planVersion: figures.version,
                authorisationRef: figures.authorisationRef,
                prizes: figures.prizes,
                rule: 'CFG-13',
              },
            }
          : {}),
      },
    })
    for (const h of deps.hooks ?? [])
      await h.gameAnnounced?.(tx, {
        gameId,
        sessionId: session.id,
        hallId: hall.id,
        profile,
        drawSource,
        deviceId: input.deviceId ?? null,
        at,
        scope: `hall:${hall.id}/session:${session.id}/game:${gameId}`,
      })
    emit(tx, { type: 'game:changed', gameId, hallId: hall.id, seq: rec.seq, reason: 'announced' })
    if (input.seriesIds[1]) await addSeriesTx(ctx, tx, gameId, input.seriesIds[1])
  })
  return getGameState(ctx, gameId)
}

async function addSeriesTx(ctx: BingoContext, tx: Tx, gameId: string, seriesId: string): Promise<void> {
  const game = await loadGame(tx, gameId)
  assertLegal(GameAction.AddSeries, game.status, gameId)
  const existing = await gameSeries(tx, gameId)
  if (existing.length >= 2)
    throw new DomainError('SERIES_RULE_VIOLATED', 'a game may add only one second series (BNG-13)', { rule: 'BNG-13' })
  const second = await seriesOfHall(tx, seriesId, game.hallId)
  if (!second) throw new DomainError('NOT_FOUND', `series ${seriesId} not found`)
  if (second.id === existing[0].seriesId)
    throw new DomainError('SERIES_RULE_VIOLATED', 'the second series must differ from the first')
  const secondLayout = await masterSetLayout(tx, second.masterSetId)
  // The game's layout may carry its fast bingo's times required (BNG-98): the card format is what must match; a
  // chosen-number game's series are printed for the fast bingo of the same universe and picks.
  const gameLayout = JSON.parse(game.layout) as CardLayout
  const chosen = chosenLayoutOf(gameLayout)
  const printedFor = chosen ? fastBingoLayout({ ballCount: chosen.universe, picks: chosen.picks }) : gameLayout
  if (secondLayout !== undefined && !isSameLayout(JSON.parse(secondLayout), printedFor))
    throw new DomainError(
      'SERIES_RULE_VIOLATED',
      'the second series must be printed for the same card layout as the first',
    )
  const max = secondSeriesLimit(
    {
      faceValueCents: existing[0].faceValueCents,
      startCardNo: existing[0].startCardNo,
      masterSetId: existing[0].masterSetId,
    },
    {
      faceValueCents: second.faceValueCents,
      nextCardNo: second.nextCardNo,
      cardCount: second.cardCount,
      masterSetId: second.masterSetId,
    },
  )
  await insertSecondGameSeries(tx, gameId, second.id, max)
  const rec = await appendJournal(tx, {
    at: ctx.now(),
    type: 'game.series_added',
    scope: gameScope(game),
    payload: { gameId, series: second.code, startCardNo: 1, maxCardNo: max, rule: 'BNG-13' },
  })
  emit(tx, { type: 'game:changed', gameId, hallId: game.hallId, seq: rec.seq, reason: 'series_added' })
}

export async function addSeries(ctx: BingoContext, gameId: string, seriesId: string): Promise<GameState> {
  await ctx.gameTx(gameId, (tx) => addSeriesTx(ctx, tx, gameId, seriesId))
  return getGameState(ctx, gameId)
}

/**
 * A status change with nothing else to it but its journal record. `setStatus` writes it (and may stamp a time).
 */
export async function simpleTransition(
  ctx: BingoContext,
  gameId: string,
  action: GameAction,
  to: GameStatus,
  type: string,
  extra: (g: Game) => Record<string, unknown> = () => ({}),
  setStatus: (tx: Sql, gameId: string, to: GameStatus, at: string) => Promise<void> = (tx, id, status) =>
    setGameStatus(tx, id, status),
  /** The journal chains it locks (BingoContext.tx); none: every chain. */
  scopes?: readonly string[],
): Promise<GameState> {
  await ctx.gameTx(
    gameId,
    async (tx) => {
      const game = await loadGame(tx, gameId)
      assertLegal(action, game.status, gameId)
      const at = ctx.now()
      await setStatus(tx, gameId, to, at)
      const rec = await appendJournal(tx, {
        at,
        type,
        scope: gameScope(game),
        payload: { gameId, from: game.status, to, ...extra(game) },
      })
      emit(tx, { type: 'game:changed', gameId, hallId: game.hallId, seq: rec.seq, reason: type })
    },
    scopes,
  )
  return getGameState(ctx, gameId)
}

export const openSales = (ctx: BingoContext, gameId: string) =>
  simpleTransition(
    ctx,
    gameId,
    GameAction.OpenSales,
    GameStatus.OnSale,
    'sales.opened',
    () => ({}),
    async (tx, id, status, at) => {
      // BNG-34: what the hall must have before a game is offered to its players (its ball-exit camera) is checked
      // by the hooks before the sale opens.
      const game = await loadGame(tx, id)
      const { profile } = await hallOf(tx, game.hallId)
      for (const h of ctx.deps.hooks ?? []) await h.salesOpening?.(tx, { game, profile, at, scope: gameScope(game) })
      await setGameStatusSalesOpened(tx, id, status, at)
    },
  )

/**
 * BNG-12/13/14: sells `count` cards in correlative order from the next unsold number. All or nothing.
 *
 * Cards handed out with no buyer, no payment and no admission (admitPurchase: GEN-1 licence, GEN-18/BNG-40 limits,
 * BNG-93 seats, BNG-15 cards handed back): only the demo seed at start-up (demo.ts) and the CLI demo game
 * (cli/demo-game.ts) call it. No HTTP route, socket or terminal reaches it: every sale a person or device makes goes
 * through cashdesk/paid-sales.ts, which admits the purchase (admitPurchaseWithin) in the transaction that then calls
 * sellWithin. test/structure.test.ts keeps it so.
 */
export async function sell(
  ctx: BingoContext,
  input: { gameId: string; count: number; channel: string },
): Promise<SoldCard[]> {
  return ctx.gameTx(input.gameId, (tx) => sellTx(ctx, tx, input))
}

/**
 * The same sale inside a caller's transaction: a kiosk purchase paid with a voucher, which also spends the
 * voucher and prints the cards before it commits. Call `publish()` once that transaction has committed, so
 * that no screen ever sees a sale that was rolled back.
 */
export async function sellWithin(
  ctx: BingoContext,
  sql: Sql,
  input: {
    gameId: string
    count: number
    channel: string
    cardIds?: readonly string[]
    picks?: unknown
    /**
     * The game's row with its seal (`seal_seq`, `seal_mac`), as the caller read it earlier in this same transaction
     * (a kiosk sale: cashdesk/store.ts gameById): the sale prices from it instead of reading it again.
     */
    gameRow?: GameRow & { seal_seq?: unknown; seal_mac?: unknown }
  },
): Promise<{ cards: SoldCard[]; cardsInSeries: ReadonlyMap<string, number>; publish(): void }> {
  const inner: Tx = { all: sql.all.bind(sql), get: sql.get.bind(sql), run: sql.run.bind(sql), events: [] }
  // Ids drawn ahead by the caller (their codes signed before the transaction), in order; then new ones.
  const ahead = [...(input.cardIds ?? [])]
  const newId = ahead.length ? (prefix: string) => ahead.shift() ?? ctx.newId(prefix) : ctx.newId
  const cardsInSeries = new Map<string, number>()
  const cards = await sellTx(ctx, inner, input, newId, cardsInSeries)
  return {
    cards,
    cardsInSeries,
    publish: () => {
      for (const e of inner.events) ctx.publish(e)
    },
  }
}

/** The facts the caller's read of this game joined in (cashdesk gameWithSealsById), undefined where it did not. */
function joinedSaleFacts(row: GameRow | undefined, gameId: string): JoinedSaleFacts | undefined {
  if (row?.id !== gameId || row.game_hall_count === undefined || row.hc_hall_id === undefined) return undefined
  return {
    hallClosedAt: row.hc_hall_id === null ? null : String(row.hc_closed_at),
    gameHalls: Number(row.game_hall_count),
    ...(row.tt_profile_id === undefined
      ? {}
      : {
          hallTerms: hallTermsRead({
            profile_id: row.tt_profile_id,
            settings: row.tt_settings ?? null,
            hall_id: row.tt_hall_id ?? null,
            reference: row.tt_reference ?? null,
            terms: row.tt_terms ?? null,
            set_at: row.tt_set_at ?? null,
            set_by: row.tt_set_by ?? null,
          }),
        }),
  }
}

async function sellTx(
  ctx: BingoContext,
  tx: Tx,
  input: {
    gameId: string
    count: number
    channel: string
    picks?: unknown
    gameRow?: GameRow & { seal_seq?: unknown; seal_mac?: unknown }
  },
  newId: (prefix: string) => string = ctx.newId,
  /** Filled with each series' number of cards (BNG-6: printed on the card), as this sale read them. */
  cardsInSeries?: Map<string, number>,
): Promise<SoldCard[]> {
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > 100_000)
    throw new DomainError('VALIDATION_FAILED', 'count must be 1..100000', { field: 'count' })
  const forSale = await gameForSale(tx, input.gameId, input.gameRow)
  if (!forSale) throw new DomainError('GAME_NOT_FOUND', `game ${input.gameId} not found`, { gameId: input.gameId })
  const { game } = forSale
  assertLegal(GameAction.Sell, game.status, game.id)
  const chosen = await chosenCardsOf(tx, game, input)
  const joined = joinedSaleFacts(input.gameRow, input.gameId)
  for (const h of ctx.deps.hooks ?? [])
    await h.cardsSelling?.(tx, { game, count: input.count, channel: input.channel, ...(joined ? { joined } : {}) })
  const series = forSale.series.map((s) => s.series)
  for (const s of series) cardsInSeries?.set(s.code, s.cardCount)
  // Issue 24 point 1: a card is sold at the face value the server wrote (a game's or a series' price edited behind
  // the journal refuses the sale, ROW_TAMPERED, journaled, rather than sell at the edited price). The rows checked
  // are the rows this sale read and prices from, with their seals read beside them.
  assertReadRowsSealed(tx, 'games', [forSale.sealed])
  assertReadRowsSealed(
    tx,
    'series',
    forSale.series.map((s) => s.sealed),
  )
  const at = ctx.now()
  const sold: SoldCard[] = []
  let remaining = input.count
  for (const s of series) {
    if (remaining === 0) break
    // The first series sells from its cursor; the second from 1 up to its BNG-13 limit.
    let from = s.nextCardNo
    let limit = s.position === 1 ? s.cardCount : s.maxCardNo
    // Issue 27 (BNG-9): a range of the series may be reserved for one kind of seller (the hall's terminals).
    let ownCursor: ((from: number, next: number) => Promise<boolean>) | undefined
    for (const h of ctx.deps.hooks ?? []) {
      const range = await h.cardRange?.(tx, {
        game,
        seriesId: s.seriesId,
        cardCount: s.cardCount,
        nextCardNo: s.nextCardNo,
        channel: input.channel,
        ...(joined ? { joined } : {}),
      })
      if (!range) continue
      from = range.from
      limit = Math.min(limit, range.to)
      ownCursor = range.advance ?? ownCursor
    }
    const available = Math.max(0, limit - from + 1)
    const take = Math.min(available, remaining)
    if (take === 0) continue
    sold.push(
      ...(await insertSoldCards(
        tx,
        {
          gameId: game.id,
          seriesId: s.seriesId,
          seriesCode: s.code,
          seriesCardCount: s.cardCount,
          masterSetId: s.masterSetId,
          from,
          to: from + take - 1,
          channel: input.channel,
          at,
          chosen: chosen?.slice(input.count - remaining, input.count - remaining + take),
        },
        newId,
      )),
    )
    // Conditional update: a concurrent sale that moved the cursor makes this one fail instead of overlapping.
    if (ownCursor) {
      if (!(await ownCursor(from, from + take)))
        throw new DomainError('CONFLICT', `series ${s.code} cursor moved during the sale`)
    } else {
      if (!(await advanceSeriesCursor(tx, s.seriesId, from, from + take, at)))
        throw new DomainError('CONFLICT', `series ${s.code} cursor moved during the sale`)
      await setGameSeriesEnd(tx, game.id, s.seriesId, from + take - 1)
    }
    remaining -= take
  }
  if (remaining > 0) {
    throw new DomainError('SERIES_EXHAUSTED', `only ${input.count - remaining} cards left on sale for this game`, {
      available: input.count - remaining,
    })
  }
  await addCardsSold(tx, game.id, sold.length)
  const rec = await appendJournal(tx, {
    at,
    type: 'cards.sold',
    scope: gameScope(game),
    payload: {
      gameId: game.id,
      channel: input.channel,
      count: sold.length,
      amountCents: sold.length * game.faceValueCents,
      serials: sold.map((c) => c.serial),
      cardIds: sold.map((c) => c.id),
      ...(chosen ? { chosenNumbers: sold.map((c) => c.rows[0]), rule: 'BNG-98' } : {}),
    },
  })
  emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hallId, seq: rec.seq, reason: 'cards_sold' })
  return sold
}

/**
 * BNG-98 / CFG-32 (002 §6.1.9: the players "deben elegir y adquirir uno o más números ... entre un universo"): the
 * cards of a chosen-number game are made at their sale, inside its transaction, from the numbers the buyer gives
 * (one list per card). Decisions: each card takes the next correlative number of the series and its serial and
 * signed code as every card (BNG-12, BNG-14: the series' numbering stays whole); BNG-13 (002 §6.1.5 "en ningún caso
 * podrán venderse en la misma partida dos cartones iguales") refuses a combination already sold in the game, or twice
 * in one purchase: NUMBERS_TAKEN, nothing sold (the UNIQUE (game_id, card_key) of cards stands behind this check).
 * The channels are the admission's (purchases.ts admitPurchase); the numbers are checked here, where the cards are
 * made: none, a wrong count, a number twice or out of the universe, or numbers for a game of printed cards, 422
 * CHOSEN_NUMBERS_INVALID with the field. Undefined for any other game.
 */
async function chosenCardsOf(
  tx: Tx,
  game: Game,
  input: { count: number; picks?: unknown },
): Promise<Array<{ numbers: number[]; cardKey: string }> | undefined> {
  const layout = JSON.parse(game.layout) as CardLayout
  const terms = chosenLayoutOf(layout)
  if (!terms) {
    if (input.picks !== undefined) throw chosenNumbersRefused(['this game sells printed cards: no numbers are chosen'])
    return undefined
  }
  const picks = Array.isArray(input.picks) ? input.picks : []
  if (picks.length !== input.count)
    throw chosenNumbersRefused([`${input.count} cards need ${input.count} lists of ${terms.picks} numbers`], terms)
  const out: Array<{ numbers: number[]; cardKey: string }> = []
  for (const [i, p] of picks.entries()) {
    const r = checkChosenNumbers(terms, p)
    if (r.problems)
      throw chosenNumbersRefused(
        r.problems.map((x) => `card ${i + 1}: ${x}`),
        terms,
        i,
      )
    out.push({ numbers: r.numbers, cardKey: cardKey(cardFromRows([r.numbers], layout)) })
  }
  const keys = out.map((c) => c.cardKey)
  const taken = new Set(await takenCardKeys(tx, game.id, keys))
  const twice = keys.filter((k, i) => keys.indexOf(k) !== i)
  const clash = out.filter((c) => taken.has(c.cardKey) || twice.includes(c.cardKey)).map((c) => c.numbers)
  if (clash.length)
    throw new DomainError(
      'NUMBERS_TAKEN',
      `the numbers ${clash.map((n) => n.join('-')).join(', ')} are already on a card of this game: choose other numbers (BNG-13)`,
      { taken: clash, rule: 'BNG-13' },
    )
  return out
}

/**
 * BNG-16/17/21: closes sales, checks the minimum participation and announces cards sold and prize amounts. Under
 * bolillo-draw-v2 (DESIGN.md point 2) it fixes the sales digest D, the close time t (whole Unix seconds) and the
 * beacon round R, and journals them before anything else; nobody supplies entropy and no order exists yet.
 */
export async function closeSales(ctx: BingoContext, input: { gameId: string }): Promise<GameState> {
  let round = 0
  await ctx.gameTx(input.gameId, async (tx) => {
    const game = await loadGame(tx, input.gameId)
    assertLegal(GameAction.CloseSales, game.status, game.id)
    const { hall, profile } = await hallOf(tx, game.hallId)
    const serials = await soldSerials(tx, game.id)
    // BNG-22 (000 §6.1.4, BO-2013): fewer cards than the minimum only on a day whose start the hall posted it.
    const posted = (JSON.parse(hall.settings || '{}') as HallRuleSettings).reducedMinimum
    const reduced =
      profile.minimumParticipation?.belowIfPosted === true &&
      posted?.day === isoInZone(Date.parse(ctx.now()), hallTimeZone(hall, profile)).slice(0, 10)
    const minimum = reduced ? 1 : minimumCardsToStart(profile, hall.playingPositions)
    if (serials.length < minimum) {
      throw new DomainError(
        'MINIMUM_PARTICIPATION',
        `${serials.length} cards sold, the game needs at least ${minimum} (BNG-21)`,
        { sold: serials.length, minimum, rule: 'BNG-21' },
      )
    }
    const salesDigest = digestOf(serials)
    // BNG-102: a derived game pays its version's prizes (an instant version's fixed amounts whatever the sales).
    const derivedPlan = await derivedPlanOfGame(tx, game.id)
    const pools = derivedPlan
      ? derivedPools(JSON.parse(derivedPlan) as DerivedPlan, serials.length, game.faceValueCents)
      : prizePools(serials.length, game.faceValueCents, game.lineBp, game.bingoBp)
    // CFG-13: each figure's pool is its share of the takings, out of the bingo's (line + bingo + figures = the plan's).
    const gameFigures = await figuresOfGame(tx, game.id)
    // Issue 24 point 1: each figure's share as announced (a share raised behind the journal fixes no pool).
    await assertRowsSealed(
      tx,
      'game_figures',
      gameFigures.map((f) => `${game.id}|${f.figure}`),
    )
    const withFigures = poolsWithFigures(pools.totalCents, pools.bingoCents, gameFigures)
    pools.bingoCents = withFigures.bingoCents
    for (const f of withFigures.figures) await setFigurePool(tx, game.id, f.figure, f.poolCents)
    const at = ctx.now()
    const closedAtUnix = Math.floor(Date.parse(at) / 1000)
    round = drawRoundFor(closedAtUnix)
    await markSalesClosed(tx, game.id, {
      at,
      closedAtUnix,
      beaconRound: round,
      salesDigest,
      cardsSold: serials.length,
      linePoolCents: pools.lineCents,
      bingoPoolCents: pools.bingoCents,
    })
    const series = await gameSeries(tx, game.id)
    const ranges = series
      .filter((s) => s.endCardNo >= s.startCardNo)
      .map((s) => ({ series: s.code, from: s.startCardNo, to: s.endCardNo }))
    const rec = await appendJournal(tx, {
      at,
      type: 'sales.closed',
      scope: gameScope(game),
      payload: {
        gameId: game.id,
        cardsSold: serials.length,
        faceValueCents: game.faceValueCents,
        totalCents: pools.totalCents,
        linePoolCents: pools.lineCents,
        bingoPoolCents: pools.bingoCents,
        ...(withFigures.figures.length ? { figurePools: withFigures.figures } : {}),
        ranges,
        // BNG-17 / BNG-18: the runs really sold (a terminals' block is its own run), as the jefe announces them.
        soldRanges: await soldRuns(tx, game.id),
        salesDigest,
        closedAt: isoOfUnixSeconds(closedAtUnix),
        closedAtUnix,
        beaconRound: round,
        beaconPublishedAt: isoOfUnixSeconds(roundTime(round)),
        drawVersion: 'bolillo-draw-v2',
        rule: 'BNG-16',
      },
    })
    // BNG-19 (Cantabria): the reading of the game's data begins with the close of sales at the latest: the hall's
    // entry closes now if staff did not close it earlier, until the game ends.
    if (profile.hallEntryClosesForGame)
      await entryClosedWithin(ctx, tx, game, at, { kind: 'system', reason: 'sales closed' })
    for (const h of ctx.deps.hooks ?? [])
      await h.salesClosed?.(tx, { game: await loadGame(tx, game.id), profile, at, scope: gameScope(game) })
    ctx.caches.delete(game.id)
    emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hallId, seq: rec.seq, reason: 'sales_closed' })
  })
  if (ctx.deps.autoBeacon) scheduleBeacon(ctx, input.gameId, round)
  return getGameState(ctx, input.gameId)
}

/**
 * BNG-73 (002 §6.1.5 "Al final de cada partida se asentará la diligencia de cierre firmada por el Jefe de Mesa"):
 * the closing entry of a game that has ended, signed once by the jefe de mesa logged in (never a name from a body):
 * a jefe of the floor, not the caller, a cashier or the director. The minutes print who signed and when.
 */
export async function signGameClosing(
  ctx: BingoContext,
  input: { gameId: string; signer: { kind: string; id: string; name: string; role: string }; note?: string },
): Promise<{ gameId: string; signedAt: string; signedBy: { name: string; role: string } }> {
  if (input.signer.kind === 'person' && !JEFE_ROLES.has(input.signer.role))
    throw new DomainError('FORBIDDEN', "the game's closing entry is signed by the Jefe de Mesa (BNG-73)", {
      rule: 'BNG-73',
    })
  return ctx.gameTx(input.gameId, async (tx) => {
    const game = await loadGame(tx, input.gameId)
    if (game.status !== GameStatus.Finished && game.status !== GameStatus.Void)
      throw new DomainError(
        'ILLEGAL_TRANSITION',
        `game ${game.id} is ${game.status}: its closing is signed once it ends (BNG-73)`,
        {
          rule: 'BNG-73',
        },
      )
    const at = ctx.now()
    if (!(await markGameClosingSigned(tx, game.id, at, JSON.stringify(input.signer))))
      throw new DomainError('CONFLICT', `the closing of game ${game.id} is already signed (BNG-73)`, { rule: 'BNG-73' })
    await appendJournal(tx, {
      at,
      type: 'game.closing_signed',
      scope: gameScope(game),
      payload: {
        gameId: game.id,
        status: game.status,
        signedBy: { id: input.signer.id, name: input.signer.name, role: input.signer.role },
        note: input.note?.trim() || null,
        rule: 'BNG-73',
      },
    })
    return { gameId: game.id, signedAt: at, signedBy: { name: input.signer.name, role: input.signer.role } }
  })
}

/** BNG-73 / BNG-96: the jefes of the floor (jefe de mesa, de mesa-cajero, de sala). */
const JEFE_ROLES = new Set(['floor_manager', 'table_cashier', 'hall_manager'])
