/**
 * Bingo use cases: the domain core plus storage, the journal and the ball source. Each use case is one
 * transaction and one or more journal records; realtime events are published only after the commit.
 */
import { cardFromRows, cardKey, cardRows, generateMasterSet, type CardLayout } from './card.ts'
import { createDetector } from './detector.ts'
import { commitmentOf, drawOrder, type DrawProof } from '../shared/draw-proof.ts'
import { DomainError } from '../shared/errors.ts'
import {
  GameAction, GameStatus, assertLegal, compareBytes, prizePools, secondSeriesLimit, splitPrize, verifyClaim,
  type ClaimKind,
} from './game.ts'
import { getProfile, minimumCardsToStart, type Profile } from '../shared/profile.ts'
import type { Database, Sql } from '../db/database.ts'
import { appendJournal } from '../shared/journal.ts'
import { NO_EXTRAS, type GameExtras } from './game-extras.ts'

export interface Clock { now(): Date }
export interface EntropySource { randomBytes(n: number): Uint8Array; name: string }

export interface BingoDeps {
  db: Database
  clock: Clock
  entropy: EntropySource
  /** Called after each commit with what screens must show. */
  publish?: (event: BingoEvent) => void
  /** Rules of other modules (device registry, ball sets) run inside the use cases' transactions. */
  hooks?: readonly BingoHooks[]
  /** Randomness for record ids; defaults to `entropy`. Draw seeds always come from `entropy` (RNG-32). */
  idEntropy?: EntropySource
}

/**
 * Extension points called inside a use case's transaction, after its own checks. A hook that throws refuses the
 * action and rolls it back; a hook may append journal records with the `scope` given.
 */
export interface BingoHooks {
  sessionOpened?(tx: Sql, e: { sessionId: string; hallId: string; profile: Profile; recount: { ballsCounted: number; confirmedBy: string }; at: string; scope: string }): Promise<void>
  sessionClosing?(tx: Sql, e: { sessionId: string; hallId: string; profile: Profile; recount: { ballsCounted: number; confirmedBy: string } | null; at: string; scope: string }): Promise<void>
  gameAnnounced?(tx: Sql, e: { gameId: string; sessionId: string; hallId: string; profile: Profile; drawSource: string; deviceId: string | null; at: string; scope: string }): Promise<void>
  ballRecording?(tx: Sql, e: { gameId: string; sessionId: string; hallId: string; profile: Profile; drawSource: string; ball: number; seq: number; source: string; deviceId: string | null; at: string; scope: string }): Promise<void>
  /** Issue #8 (app/bonus.ts): prima, pots, lucky ball, simultaneous games. */
  cardsSelling?(tx: Sql, e: { game: GameRow; count: number; channel: string }): Promise<void>
  salesClosed?(tx: Sql, e: { game: GameRow; profile: Profile; at: string; scope: string }): Promise<void>
  prizeAwarded?(tx: Sql, e: { game: GameRow; profile: Profile; kind: ClaimKind; winners: Array<{ serial: string; cardId: string; atBall: number; amountCents: number }>; balls: number[]; at: string; scope: string }): Promise<void>
  gameVoided?(tx: Sql, e: { game: GameRow; at: string; scope: string }): Promise<void>
  gameState?(db: Sql, game: GameRow): Promise<Partial<GameExtras>>
}

export type BingoEvent =
  | { type: 'game:changed'; gameId: string; hallId: string; seq: number; reason: string; ball?: number; count?: number }
  | { type: 'session:changed'; sessionId: string; hallId: string; seq: number; reason: string }

export interface HallRow { id: string; name: string; profile_id: string; currency: string; playing_positions: number; settings: string; created_at: string }
interface SeriesRow { id: string; hall_id: string; code: string; master_set_id: string; card_count: number; face_value_cents: number; next_card_no: number; last_sold_at: string | null }
interface SessionRow { id: string; hall_id: string; status: string; last_game_announced: number; opened_at: string; closed_at: string | null; open_recount: string | null; close_recount: string | null }
export interface GameRow {
  id: string; session_id: string; hall_id: string; order_no: number; status: GameStatus; suspended_from: GameStatus | null
  face_value_cents: number; ball_count: number; layout: string; line_bp: number; bingo_bp: number; draw_source: string
  commitment: string; seed_hex: string; sales_digest: string | null; external_entropy: string | null; draw_order: string | null
  cards_sold: number; line_pool_cents: number | null; bingo_pool_cents: number | null; line_closed: number; window_kind: ClaimKind | null
  is_last_game: number; created_at: string; sales_opened_at: string | null; sales_closed_at: string | null; first_ball_at: string | null
  finished_at: string | null; void_reason: string | null; entropy_source?: string | null
}
interface GameSeriesRow { game_id: string; series_id: string; position: number; start_card_no: number; end_card_no: number; max_card_no: number; code: string; face_value_cents: number; master_set_id: string; card_count: number; next_card_no: number }
interface CardRow { id: string; game_id: string; series_id: string; card_no: number; serial: string; numbers: string; status: string; channel: string; sold_at: string }
interface ClaimRow { id: string; game_id: string; card_id: string | null; serial: string; kind: ClaimKind; at_ball: number; status: string; reason: string | null; automatic: number; created_at: string }
interface PrizeRow { id: string; game_id: string; card_id: string; kind: ClaimKind; amount_cents: number; at_ball: number; status: string; awarded_at: string; paid_at: string | null; paid_by: string | null }

export interface SoldCard { id: string; serial: string; seriesCode: string; cardNo: number; rows: number[][] }

export interface PublicWinner { kind: ClaimKind; serial: string; cardId: string; rows: number[][]; atBall: number; amountCents: number | null; status: 'verified' | 'awarded' | 'paid' }

/** What every screen may see of a game. Secrets (seed, draw order) are only shown once the game has ended. */
/** The issue #8 fields (GameExtras) are always filled by the server; optional so older screens and fixtures still type-check. */
export interface GameState extends Partial<GameExtras> {
  gameId: string; hallId: string; hallName: string; sessionId: string; orderNo: number; status: GameStatus
  profileId: string; currency: string; faceValueCents: number; ballCount: number
  cardsSold: number; totalCents: number; linePoolCents: number | null; bingoPoolCents: number | null
  lineClosed: boolean; window: ClaimKind | null; drawSource: string; commitment: string
  balls: number[]; lastBall: number | null; series: Array<{ code: string; position: number; from: number; to: number; maxCardNo: number; cardCount: number }>
  winners: PublicWinner[]; rejectedClaims: Array<{ serial: string; kind: ClaimKind; reason: string; atBall: number }>
  isLastGame: boolean; voidReason: string | null; seq: number
  times: { createdAt: string; salesOpenedAt: string | null; salesClosedAt: string | null; firstBallAt: string | null; finishedAt: string | null }
}

const ENDED: readonly GameStatus[] = [GameStatus.Finished, GameStatus.Void]

type Tx = Sql & { events: BingoEvent[] }
function emit(tx: Tx, e: BingoEvent) { tx.events.push(e) }

interface GameCache { detector: ReturnType<typeof createDetector>; cards: CardRow[]; rows: number[][][] }

/**
 * Inserts, as sold, cards `from`..`to` of a series: each card takes the numbers of the same card number of the
 * series' master set (BNG-13) and the serial `<series>-<number>`. The caller moves the correlative cursor.
 */
export async function insertSoldCards(
  tx: Sql,
  s: { gameId: string; seriesId: string; seriesCode: string; seriesCardCount: number; masterSetId: string; from: number; to: number; channel: string; at: string },
  newId: (prefix: string) => string,
): Promise<SoldCard[]> {
  const masters = await tx.all<{ card_no: number; numbers: string; card_key: string }>('SELECT card_no, numbers, card_key FROM master_cards WHERE set_id = ? AND card_no >= ? AND card_no <= ? ORDER BY card_no', [s.masterSetId, s.from, s.to])
  const width = Math.max(5, String(s.seriesCardCount).length)
  const sold: SoldCard[] = []
  const chunk = 100
  for (let i = 0; i < masters.length; i += chunk) {
    const part = masters.slice(i, i + chunk)
    const params: unknown[] = []
    for (const m of part) {
      const serial = `${s.seriesCode}-${String(m.card_no).padStart(width, '0')}`
      const id = newId('c')
      params.push(id, s.gameId, s.seriesId, m.card_no, serial, s.masterSetId, m.card_key, m.numbers, 'sold', s.channel, s.at)
      sold.push({ id, serial, seriesCode: s.seriesCode, cardNo: Number(m.card_no), rows: JSON.parse(m.numbers) })
    }
    await tx.run(`INSERT INTO cards (id, game_id, series_id, card_no, serial, master_set_id, card_key, numbers, status, channel, sold_at) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`, params)
  }
  return sold
}

export function createBingoService(deps: BingoDeps) {
  const { db, clock } = deps
  const caches = new Map<string, GameCache>()
  const now = () => clock.now().toISOString()
  const publish = (e: BingoEvent) => { try { deps.publish?.(e) } catch { /* a screen must never break a sale */ } }

  function newId(prefix: string): string {
    const bytes = (deps.idEntropy ?? deps.entropy).randomBytes(10)
    const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'
    let s = ''
    for (const b of bytes) s += alphabet[b % alphabet.length]
    return `${prefix}_${s}`
  }

  async function hallOf(tx: Sql, hallId: string): Promise<{ hall: HallRow; profile: Profile }> {
    const hall = await tx.get<HallRow>('SELECT * FROM halls WHERE id = ?', [hallId])
    if (!hall) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
    const profile = getProfile(hall.profile_id)
    if (!profile) throw new DomainError('VALIDATION_FAILED', `hall ${hallId} has unknown profile ${hall.profile_id}`)
    const settings = JSON.parse(hall.settings) as { shares?: Partial<Profile['shares']> }
    return { hall, profile: { ...profile, shares: { ...profile.shares, ...(settings.shares ?? {}) } } }
  }

  async function loadGame(tx: Sql, gameId: string): Promise<GameRow> {
    const game = await tx.get<GameRow>('SELECT * FROM games WHERE id = ?', [gameId])
    if (!game) throw new DomainError('GAME_NOT_FOUND', `game ${gameId} not found`, { gameId })
    return { ...game, face_value_cents: Number(game.face_value_cents), line_pool_cents: game.line_pool_cents === null ? null : Number(game.line_pool_cents), bingo_pool_cents: game.bingo_pool_cents === null ? null : Number(game.bingo_pool_cents) }
  }

  async function loadSession(tx: Sql, sessionId: string): Promise<SessionRow> {
    const s = await tx.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [sessionId])
    if (!s) throw new DomainError('SESSION_NOT_FOUND', `session ${sessionId} not found`, { sessionId })
    return s
  }

  const gameScope = (g: { hall_id: string; session_id: string; id: string }) => `hall:${g.hall_id}/session:${g.session_id}/game:${g.id}`
  const sessionScope = (s: { hall_id: string; id: string }) => `hall:${s.hall_id}/session:${s.id}`

  async function calledBalls(tx: Sql, gameId: string): Promise<number[]> {
    return (await tx.all<{ ball: number }>('SELECT ball FROM balls WHERE game_id = ? ORDER BY seq', [gameId])).map((r) => Number(r.ball))
  }

  async function gameSeries(tx: Sql, gameId: string): Promise<GameSeriesRow[]> {
    return tx.all<GameSeriesRow>(
      `SELECT gs.*, s.code, s.face_value_cents, s.master_set_id, s.card_count, s.next_card_no FROM game_series gs JOIN series s ON s.id = gs.series_id WHERE gs.game_id = ? ORDER BY gs.position`,
      [gameId],
    )
  }

  /** The in-memory detector of a game in play, rebuilt from storage after a restart. */
  async function cacheFor(tx: Sql, game: GameRow): Promise<GameCache> {
    const hit = caches.get(game.id)
    if (hit) {
      // Another server node may have drawn a ball, corrected the last one (same count, another number: BNG-83) or
      // closed the line since: then rebuild from storage. Only the last ball can ever be corrected.
      const last = await tx.get<{ seq: number; ball: number }>('SELECT seq, ball FROM balls WHERE game_id = ? ORDER BY seq DESC LIMIT 1', [game.id])
      const mine = hit.detector.called()
      if (Number(last?.seq ?? 0) === mine.length && (!last || Number(last.ball) === mine[mine.length - 1]) && hit.detector.isLineClosed() === Boolean(game.line_closed)) return hit
      caches.delete(game.id)
    }
    // Games another node finished or voided never pass through this node's closeWindow: drop their detectors here.
    if (caches.size > 0) {
      const ids = [...caches.keys()]
      for (const e of await tx.all<{ id: string }>(`SELECT id FROM games WHERE status IN ('finished', 'void') AND id IN (${ids.map(() => '?').join(', ')})`, ids)) caches.delete(e.id)
    }
    return (await rebuildCache(tx, game)).cache
  }

  /**
   * Builds a game's detector from storage (sold cards in serial byte order, every ball called so far) and caches
   * it; also returns what the last ball did, for a correction to re-evaluate it.
   */
  async function rebuildCache(tx: Sql, game: GameRow): Promise<{ cache: GameCache; last: { lines: number[]; bingos: number[] } }> {
    const cards = await tx.all<CardRow>("SELECT * FROM cards WHERE game_id = ? AND status = 'sold' ORDER BY serial", [game.id])
    cards.sort((a, b) => compareBytes(a.serial, b.serial))
    const rows = cards.map((c) => JSON.parse(c.numbers) as number[][])
    const detector = createDetector(rows, game.ball_count)
    let last = { lines: [] as number[], bingos: [] as number[] }
    for (const ball of await calledBalls(tx, game.id)) last = detector.call(ball)
    if (game.line_closed) detector.closeLine()
    const cache = { detector, cards, rows }
    caches.set(game.id, cache)
    return { cache, last }
  }

  async function lastSeq(tx: Sql): Promise<number> {
    const r = await tx.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM journal')
    return Number(r?.seq ?? 0)
  }

  // ---------------------------------------------------------------- halls, master sets, series

  async function createHall(input: { name: string; profileId: string; playingPositions: number; shares?: Partial<Profile['shares']>; id?: string }): Promise<HallRow> {
    const profile = getProfile(input.profileId)
    if (!profile) throw new DomainError('VALIDATION_FAILED', `unknown profile ${input.profileId}`)
    const id = input.id ?? newId('hall')
    return tx(async (tx) => {
      const at = now()
      const settings = JSON.stringify({ shares: input.shares ?? {} })
      await tx.run('INSERT INTO halls (id, name, profile_id, currency, playing_positions, settings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, input.name, profile.id, profile.currency, input.playingPositions, settings, at])
      await appendJournal(tx, { at, type: 'hall.created', scope: `hall:${id}`, payload: { hallId: id, name: input.name, profileId: profile.id, playingPositions: input.playingPositions, shares: input.shares ?? {} } })
      return (await tx.get<HallRow>('SELECT * FROM halls WHERE id = ?', [id]))!
    })
  }

  /** Generates a master card set once from a recorded seed and stores it (BNG-13). */
  async function createMasterSet(input: { count: number; seed?: string; layout?: CardLayout }): Promise<{ id: string; seed: string; count: number }> {
    const seed = input.seed ?? Buffer.from(deps.entropy.randomBytes(16)).toString('hex')
    const layout = input.layout ?? getProfile('BO-2025')!.layout
    const cards = generateMasterSet(seed, input.count, layout)
    const id = newId('set')
    await tx(async (tx) => {
      const at = now()
      await tx.run('INSERT INTO master_sets (id, seed, card_count, layout, created_at) VALUES (?, ?, ?, ?, ?)', [id, seed, input.count, JSON.stringify(layout), at])
      const chunk = 200
      for (let i = 0; i < cards.length; i += chunk) {
        const part = cards.slice(i, i + chunk)
        const params: unknown[] = []
        for (let j = 0; j < part.length; j++) params.push(id, i + j + 1, JSON.stringify(cardRows(part[j])), cardKey(part[j]))
        await tx.run(`INSERT INTO master_cards (set_id, card_no, numbers, card_key) VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')}`, params)
      }
      await appendJournal(tx, { at, type: 'master_set.created', scope: '', payload: { masterSetId: id, seed, count: input.count, layout } })
    })
    return { id, seed, count: input.count }
  }

  async function createSeries(input: { hallId: string; code: string; masterSetId: string; faceValueCents: number }): Promise<SeriesRow> {
    if (!/^[A-Z0-9]{1,8}$/.test(input.code)) throw new DomainError('VALIDATION_FAILED', 'series code must be 1-8 capital letters or digits', { field: 'code' })
    if (!Number.isSafeInteger(input.faceValueCents) || input.faceValueCents <= 0) throw new DomainError('VALIDATION_FAILED', 'face value must be a positive amount of minor units', { field: 'faceValueCents' })
    return tx(async (tx) => {
      await hallOf(tx, input.hallId)
      const set = await tx.get<{ card_count: number }>('SELECT card_count FROM master_sets WHERE id = ?', [input.masterSetId])
      if (!set) throw new DomainError('NOT_FOUND', `master set ${input.masterSetId} not found`)
      const id = newId('ser')
      const at = now()
      await tx.run('INSERT INTO series (id, hall_id, code, master_set_id, card_count, face_value_cents, next_card_no, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)', [id, input.hallId, input.code, input.masterSetId, set.card_count, input.faceValueCents, at])
      await appendJournal(tx, { at, type: 'series.created', scope: `hall:${input.hallId}`, payload: { seriesId: id, code: input.code, masterSetId: input.masterSetId, cardCount: set.card_count, faceValueCents: input.faceValueCents } })
      return (await tx.get<SeriesRow>('SELECT * FROM series WHERE id = ?', [id]))!
    })
  }

  // ---------------------------------------------------------------- sessions

  async function openSession(input: { hallId: string; recount: { ballsCounted: number; confirmedBy: string } }): Promise<SessionRow> {
    return tx(async (tx) => {
      const { hall, profile } = await hallOf(tx, input.hallId)
      const open = await tx.get<{ id: string }>("SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed'", [hall.id])
      if (open) throw new DomainError('CONFLICT', `hall ${hall.id} already has open session ${open.id}`, { sessionId: open.id })
      // BNG-27 / BNG-41: the ball count is verified before the session.
      if (input.recount.ballsCounted !== profile.layout.ballCount) {
        throw new DomainError('VALIDATION_FAILED', `ball recount found ${input.recount.ballsCounted} balls, the set has ${profile.layout.ballCount} (BNG-27)`, { rule: 'BNG-27' })
      }
      const id = newId('ses')
      const at = now()
      await tx.run('INSERT INTO sessions (id, hall_id, status, opened_at, open_recount) VALUES (?, ?, ?, ?, ?)', [id, hall.id, 'open', at, JSON.stringify(input.recount)])
      const rec = await appendJournal(tx, { at, type: 'session.opened', scope: `hall:${hall.id}/session:${id}`, payload: { sessionId: id, hallId: hall.id, hallName: hall.name, profileId: profile.id, recount: input.recount } })
      for (const h of deps.hooks ?? []) await h.sessionOpened?.(tx, { sessionId: id, hallId: hall.id, profile, recount: input.recount, at, scope: `hall:${hall.id}/session:${id}` })
      emit(tx, { type: 'session:changed', sessionId: id, hallId: hall.id, seq: rec.seq, reason: 'opened' })
      return (await tx.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [id]))!
    })
  }

  async function announceLastGame(sessionId: string): Promise<void> {
    await tx(async (tx) => {
      const s = await loadSession(tx, sessionId)
      if (s.status !== 'open') throw new DomainError('ILLEGAL_TRANSITION', `session ${sessionId} is ${s.status}`)
      await tx.run("UPDATE sessions SET status = 'last_game', last_game_announced = 1 WHERE id = ?", [sessionId])
      // BNG-43: the next game announced is the last one; no game may follow it.
      const rec = await appendJournal(tx, { at: now(), type: 'session.last_game', scope: sessionScope(s), payload: { sessionId } })
      emit(tx, { type: 'session:changed', sessionId, hallId: s.hall_id, seq: rec.seq, reason: 'last_game' })
    })
  }

  async function closeSession(sessionId: string, recount: { ballsCounted: number; confirmedBy: string } | null): Promise<void> {
    await tx(async (tx) => {
      const s = await loadSession(tx, sessionId)
      if (s.status === 'closed') throw new DomainError('ILLEGAL_TRANSITION', `session ${sessionId} is already closed`)
      const { profile } = await hallOf(tx, s.hall_id)
      const running = await tx.get<{ id: string; status: string }>("SELECT id, status FROM games WHERE session_id = ? AND status NOT IN ('finished', 'void')", [sessionId])
      if (running) throw new DomainError('ILLEGAL_TRANSITION', `game ${running.id} is still ${running.status}`, { gameId: running.id })
      // BNG-27 (Cantabria): recount at the end of the session as well.
      if (profile.ballRecount === 'start-and-end') {
        if (!recount) throw new DomainError('VALIDATION_FAILED', 'this profile requires a ball recount to close the session (BNG-27)', { rule: 'BNG-27' })
        if (recount.ballsCounted !== profile.layout.ballCount) throw new DomainError('VALIDATION_FAILED', `ball recount found ${recount.ballsCounted} balls, the set has ${profile.layout.ballCount} (BNG-27)`, { rule: 'BNG-27' })
      }
      const at = now()
      for (const h of deps.hooks ?? []) await h.sessionClosing?.(tx, { sessionId, hallId: s.hall_id, profile, recount, at, scope: sessionScope(s) })
      await tx.run("UPDATE sessions SET status = 'closed', closed_at = ?, close_recount = ? WHERE id = ?", [at, recount ? JSON.stringify(recount) : null, sessionId])
      const rec = await appendJournal(tx, { at, type: 'session.closed', scope: sessionScope(s), payload: { sessionId, recount } })
      emit(tx, { type: 'session:changed', sessionId, hallId: s.hall_id, seq: rec.seq, reason: 'closed' })
    })
  }

  /** Runs a use case in one transaction; its events are published only once it has committed. */
  async function tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const events: BingoEvent[] = []
    const result = await db.transaction((inner) => fn({ all: inner.all.bind(inner), get: inner.get.bind(inner), run: inner.run.bind(inner), events }))
    for (const e of events) publish(e)
    return result
  }

  async function gameTx<T>(gameId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await tx(fn)
    } catch (err) {
      caches.delete(gameId)
      throw err
    }
  }

  // ---------------------------------------------------------------- games

  /** BNG-11: announce a game with its series, card count and face value. */
  async function announceGame(input: { sessionId: string; seriesIds: string[]; drawSource?: 'rng' | 'manual' | 'blower'; deviceId?: string }): Promise<GameState> {
    if (input.seriesIds.length < 1 || input.seriesIds.length > 2) throw new DomainError('VALIDATION_FAILED', 'a game is sold from one series, or two under BNG-13', { field: 'seriesIds' })
    const gameId = newId('g')
    await gameTx(gameId, async (tx) => {
      const session = await loadSession(tx, input.sessionId)
      if (session.status === 'closed') throw new DomainError('ILLEGAL_TRANSITION', `session ${session.id} is closed`)
      const { hall, profile } = await hallOf(tx, session.hall_id)
      const running = await tx.get<{ id: string }>("SELECT id FROM games WHERE session_id = ? AND status NOT IN ('finished', 'void')", [session.id])
      if (running) throw new DomainError('ILLEGAL_TRANSITION', `game ${running.id} has not ended yet`, { gameId: running.id })
      const previous = await tx.get<{ n: number; last: number }>('SELECT COUNT(*) AS n, MAX(is_last_game) AS last FROM games WHERE session_id = ?', [session.id])
      if (Number(previous?.last ?? 0) === 1) throw new DomainError('ILLEGAL_TRANSITION', 'the last game of the session has been played (BNG-43)', { rule: 'BNG-43' })
      const drawSource = input.drawSource ?? 'rng'
      if (drawSource === 'rng' && !profile.softwareDrawAllowed) {
        throw new DomainError('RULE_DISABLED', `profile ${profile.id} does not allow software draws (BNG-1)`, { rule: 'BNG-1' })
      }
      const first = await tx.get<SeriesRow>('SELECT * FROM series WHERE id = ? AND hall_id = ?', [input.seriesIds[0], hall.id])
      if (!first) throw new DomainError('NOT_FOUND', `series ${input.seriesIds[0]} not found in hall ${hall.id}`)
      // BNG-12: the cursor carries over from earlier games; in Cantabria only from the same or previous day.
      let start = first.next_card_no
      if (profile.seriesCursorCarry === 'same-or-previous-day' && first.last_sold_at) {
        const ageDays = (clock.now().getTime() - Date.parse(first.last_sold_at.slice(0, 10))) / 86_400_000
        if (ageDays >= 2) start = 1
      }
      if (start > first.card_count) throw new DomainError('SERIES_EXHAUSTED', `series ${first.code} has no cards left`, { series: first.code })
      const seed = deps.entropy.randomBytes(32)
      // RNG-32: the source that produced this seed (it may fall back) is stated in the game's proof.
      const entropySource = deps.entropy.name
      const at = now()
      const orderNo = Number(previous?.n ?? 0) + 1
      const isLast = session.status === 'last_game' ? 1 : 0
      // The game plays the layout its cards were printed with (the master set's): 90, 75 or 100 balls (issue #8).
      const setRow = await tx.get<{ layout: string }>('SELECT layout FROM master_sets WHERE id = ?', [first.master_set_id])
      const layout: CardLayout = setRow ? JSON.parse(setRow.layout) : profile.layout
      await tx.run(
        `INSERT INTO games (id, session_id, hall_id, order_no, status, face_value_cents, ball_count, layout, line_bp, bingo_bp, draw_source, commitment, seed_hex, is_last_game, created_at, entropy_source)
         VALUES (?, ?, ?, ?, 'announced', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [gameId, session.id, hall.id, orderNo, first.face_value_cents, layout.ballCount, JSON.stringify(layout), profile.shares.lineBp, profile.shares.bingoBp, drawSource, commitmentOf(seed), Buffer.from(seed).toString('hex'), isLast, at, entropySource],
      )
      await tx.run('INSERT INTO game_series (game_id, series_id, position, start_card_no, end_card_no, max_card_no) VALUES (?, ?, 1, ?, ?, ?)', [gameId, first.id, start, start - 1, first.card_count])
      if (start !== first.next_card_no) await tx.run('UPDATE series SET next_card_no = ? WHERE id = ?', [start, first.id])
      const rec = await appendJournal(tx, {
        at, type: 'game.announced', scope: `hall:${hall.id}/session:${session.id}/game:${gameId}`,
        payload: { gameId, orderNo, series: [{ code: first.code, startCardNo: start, cardCount: first.card_count }], faceValueCents: Number(first.face_value_cents), commitment: commitmentOf(seed), ballCount: layout.ballCount, drawSource, isLastGame: isLast === 1, lineBp: profile.shares.lineBp, bingoBp: profile.shares.bingoBp, entropySource },
      })
      for (const h of deps.hooks ?? []) await h.gameAnnounced?.(tx, { gameId, sessionId: session.id, hallId: hall.id, profile, drawSource, deviceId: input.deviceId ?? null, at, scope: `hall:${hall.id}/session:${session.id}/game:${gameId}` })
      emit(tx, { type: 'game:changed', gameId, hallId: hall.id, seq: rec.seq, reason: 'announced' })
      if (input.seriesIds[1]) await addSeriesTx(tx, gameId, input.seriesIds[1])
    })
    return getGameState(gameId)
  }

  async function addSeriesTx(tx: Tx, gameId: string, seriesId: string): Promise<void> {
    const game = await loadGame(tx, gameId)
    assertLegal(GameAction.AddSeries, game.status, gameId)
    const existing = await gameSeries(tx, gameId)
    if (existing.length >= 2) throw new DomainError('SERIES_RULE_VIOLATED', 'a game may add only one second series (BNG-13)', { rule: 'BNG-13' })
    const second = await tx.get<SeriesRow>('SELECT * FROM series WHERE id = ? AND hall_id = ?', [seriesId, game.hall_id])
    if (!second) throw new DomainError('NOT_FOUND', `series ${seriesId} not found`)
    if (second.id === existing[0].series_id) throw new DomainError('SERIES_RULE_VIOLATED', 'the second series must differ from the first')
    const secondSet = await tx.get<{ layout: string }>('SELECT layout FROM master_sets WHERE id = ?', [second.master_set_id])
    if (secondSet && JSON.stringify(JSON.parse(secondSet.layout)) !== game.layout) throw new DomainError('SERIES_RULE_VIOLATED', 'the second series must be printed for the same card layout as the first')
    const max = secondSeriesLimit(
      { faceValueCents: Number(existing[0].face_value_cents), startCardNo: existing[0].start_card_no, masterSetId: existing[0].master_set_id },
      { faceValueCents: Number(second.face_value_cents), nextCardNo: second.next_card_no, cardCount: second.card_count, masterSetId: second.master_set_id },
    )
    await tx.run('INSERT INTO game_series (game_id, series_id, position, start_card_no, end_card_no, max_card_no) VALUES (?, ?, 2, 1, 0, ?)', [gameId, second.id, max])
    const rec = await appendJournal(tx, { at: now(), type: 'game.series_added', scope: gameScope(game), payload: { gameId, series: second.code, startCardNo: 1, maxCardNo: max, rule: 'BNG-13' } })
    emit(tx, { type: 'game:changed', gameId, hallId: game.hall_id, seq: rec.seq, reason: 'series_added' })
  }

  async function addSeries(gameId: string, seriesId: string): Promise<GameState> {
    await gameTx(gameId, (tx) => addSeriesTx(tx, gameId, seriesId))
    return getGameState(gameId)
  }

  async function simpleTransition(gameId: string, action: GameAction, to: GameStatus, type: string, extra: (g: GameRow) => Record<string, unknown> = () => ({}), setSql = ''): Promise<GameState> {
    await gameTx(gameId, async (tx) => {
      const game = await loadGame(tx, gameId)
      assertLegal(action, game.status, gameId)
      const at = now()
      await tx.run(`UPDATE games SET status = ?${setSql} WHERE id = ?`, setSql ? [to, at, gameId] : [to, gameId])
      const rec = await appendJournal(tx, { at, type, scope: gameScope(game), payload: { gameId, from: game.status, to, ...extra(game) } })
      emit(tx, { type: 'game:changed', gameId, hallId: game.hall_id, seq: rec.seq, reason: type })
    })
    return getGameState(gameId)
  }

  const openSales = (gameId: string) => simpleTransition(gameId, GameAction.OpenSales, GameStatus.OnSale, 'sales.opened', () => ({}), ', sales_opened_at = ?')

  /** BNG-12/13/14: sells `count` cards in correlative order from the next unsold number. All or nothing. */
  async function sell(input: { gameId: string; count: number; channel: string }): Promise<SoldCard[]> {
    return gameTx(input.gameId, (tx) => sellTx(tx, input))
  }

  /**
   * The same sale inside a caller's transaction: a kiosk purchase paid with a voucher, which also spends the
   * voucher and prints the cards before it commits. Call `publish()` once that transaction has committed, so
   * that no screen ever sees a sale that was rolled back.
   */
  async function sellWithin(sql: Sql, input: { gameId: string; count: number; channel: string }): Promise<{ cards: SoldCard[]; publish(): void }> {
    const inner: Tx = { all: sql.all.bind(sql), get: sql.get.bind(sql), run: sql.run.bind(sql), events: [] }
    const cards = await sellTx(inner, input)
    return { cards, publish: () => { for (const e of inner.events) publish(e) } }
  }

  async function sellTx(tx: Tx, input: { gameId: string; count: number; channel: string }): Promise<SoldCard[]> {
    if (!Number.isInteger(input.count) || input.count < 1 || input.count > 100_000) throw new DomainError('VALIDATION_FAILED', 'count must be 1..100000', { field: 'count' })
    const game = await loadGame(tx, input.gameId)
    assertLegal(GameAction.Sell, game.status, game.id)
    for (const h of deps.hooks ?? []) await h.cardsSelling?.(tx, { game, count: input.count, channel: input.channel })
    const series = await gameSeries(tx, game.id)
    const at = now()
    const sold: SoldCard[] = []
    let remaining = input.count
    for (const s of series) {
      if (remaining === 0) break
      // The first series sells from its cursor; the second from 1 up to its BNG-13 limit.
      const from = s.next_card_no
      const limit = s.position === 1 ? s.card_count : s.max_card_no
      const available = Math.max(0, limit - from + 1)
      const take = Math.min(available, remaining)
      if (take === 0) continue
      sold.push(...await insertSoldCards(tx, { gameId: game.id, seriesId: s.series_id, seriesCode: s.code, seriesCardCount: s.card_count, masterSetId: s.master_set_id, from, to: from + take - 1, channel: input.channel, at }, newId))
      // Conditional update: a concurrent sale that moved the cursor makes this one fail instead of overlapping.
      const moved = await tx.run('UPDATE series SET next_card_no = ?, last_sold_at = ? WHERE id = ? AND next_card_no = ?', [from + take, at, s.series_id, from])
      if (moved.changes !== 1) throw new DomainError('CONFLICT', `series ${s.code} cursor moved during the sale`)
      await tx.run('UPDATE game_series SET end_card_no = ? WHERE game_id = ? AND series_id = ?', [from + take - 1, game.id, s.series_id])
      remaining -= take
    }
    if (remaining > 0) {
      throw new DomainError('SERIES_EXHAUSTED', `only ${input.count - remaining} cards left on sale for this game`, { available: input.count - remaining })
    }
    await tx.run('UPDATE games SET cards_sold = cards_sold + ? WHERE id = ?', [sold.length, game.id])
    const rec = await appendJournal(tx, {
      at, type: 'cards.sold', scope: gameScope(game),
      payload: { gameId: game.id, channel: input.channel, count: sold.length, amountCents: sold.length * game.face_value_cents, serials: sold.map((c) => c.serial), cardIds: sold.map((c) => c.id) },
    })
    emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: rec.seq, reason: 'cards_sold' })
    return sold
  }

  /**
   * BNG-16/17/21: closes sales, checks the minimum participation, fixes the sales digest and the draw key
   * (bolillo-draw-v1) and announces cards sold and prize amounts.
   */
  async function closeSales(input: { gameId: string; externalEntropy?: string }): Promise<GameState> {
    const entropy = input.externalEntropy ?? ''
    if (entropy.length > 1024) throw new DomainError('VALIDATION_FAILED', 'external entropy is at most 1024 characters', { field: 'externalEntropy' })
    await gameTx(input.gameId, async (tx) => {
      const game = await loadGame(tx, input.gameId)
      assertLegal(GameAction.CloseSales, game.status, game.id)
      const { hall, profile } = await hallOf(tx, game.hall_id)
      const cards = await tx.all<{ serial: string }>("SELECT serial FROM cards WHERE game_id = ? AND status = 'sold'", [game.id])
      const minimum = minimumCardsToStart(profile, hall.playing_positions)
      if (cards.length < minimum) {
        throw new DomainError('MINIMUM_PARTICIPATION', `${cards.length} cards sold, the game needs at least ${minimum} (BNG-21)`, { sold: cards.length, minimum, rule: 'BNG-21' })
      }
      const { salesDigest, order } = drawOrder({ seed: Buffer.from(game.seed_hex, 'hex'), gameId: game.id, serials: cards.map((c) => c.serial), externalEntropy: entropy, ballCount: game.ball_count })
      const pools = prizePools(cards.length, game.face_value_cents, game.line_bp, game.bingo_bp)
      const at = now()
      await tx.run(
        "UPDATE games SET status = 'sales_closed', sales_closed_at = ?, sales_digest = ?, external_entropy = ?, draw_order = ?, cards_sold = ?, line_pool_cents = ?, bingo_pool_cents = ? WHERE id = ?",
        [at, salesDigest, entropy, JSON.stringify(order), cards.length, pools.lineCents, pools.bingoCents, game.id],
      )
      const series = await gameSeries(tx, game.id)
      const ranges = series.filter((s) => s.end_card_no >= s.start_card_no).map((s) => ({ series: s.code, from: s.start_card_no, to: s.end_card_no }))
      const rec = await appendJournal(tx, {
        at, type: 'sales.closed', scope: gameScope(game),
        payload: { gameId: game.id, cardsSold: cards.length, faceValueCents: game.face_value_cents, totalCents: pools.totalCents, linePoolCents: pools.lineCents, bingoPoolCents: pools.bingoCents, ranges, salesDigest, externalEntropy: entropy, rule: 'BNG-16' },
      })
      for (const h of deps.hooks ?? []) await h.salesClosed?.(tx, { game: await loadGame(tx, game.id), profile, at, scope: gameScope(game) })
      caches.delete(game.id)
      emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: rec.seq, reason: 'sales_closed' })
    })
    return getGameState(input.gameId)
  }

  /** Draws the next ball from the game's proof stream (RNG source). */
  async function drawNext(gameId: string): Promise<{ ball: number; state: GameState }> {
    let ball = 0
    await gameTx(gameId, async (tx) => {
      const game = await loadGame(tx, gameId)
      assertLegal(GameAction.Draw, game.status, gameId)
      if (game.draw_source !== 'rng') throw new DomainError('ILLEGAL_TRANSITION', `game ${gameId} is drawn by hand (${game.draw_source}): enter the ball read from the blower`)
      const order = JSON.parse(game.draw_order!) as number[]
      const called = await calledBalls(tx, gameId)
      if (called.length >= order.length) throw new DomainError('NO_BALLS_LEFT', 'every ball has been drawn')
      ball = order[called.length]
      await recordBall(tx, game, ball, 'rng', null)
    })
    return { ball, state: await getGameState(gameId) }
  }

  /** Records a ball read from a manual blower or entered by the caller after a device failure (BNG-81). */
  async function enterBall(gameId: string, ball: number, deviceId: string | null = null): Promise<GameState> {
    await gameTx(gameId, async (tx) => {
      const game = await loadGame(tx, gameId)
      assertLegal(GameAction.Draw, game.status, gameId)
      if (game.draw_source === 'rng') throw new DomainError('ILLEGAL_TRANSITION', `game ${gameId} is drawn by the RNG; declare a device failure to continue by hand (BNG-81)`, { rule: 'BNG-81' })
      await recordBall(tx, game, ball, game.draw_source, deviceId)
    })
    return getGameState(gameId)
  }

  async function recordBall(tx: Tx, game: GameRow, ball: number, source: string, deviceId: string | null): Promise<void> {
    if (!Number.isInteger(ball) || ball < 1 || ball > game.ball_count) throw new DomainError('BALL_OUT_OF_RANGE', `ball ${ball} is outside 1..${game.ball_count}`, { ball })
    const called = await calledBalls(tx, game.id)
    if (called.includes(ball)) throw new DomainError('BALL_ALREADY_DRAWN', `ball ${ball} was already drawn in this game`, { ball })
    const { profile } = await hallOf(tx, game.hall_id)
    const cache = await cacheFor(tx, game)
    const at = now()
    const seq = called.length + 1
    for (const h of deps.hooks ?? []) await h.ballRecording?.(tx, { gameId: game.id, sessionId: game.session_id, hallId: game.hall_id, profile, drawSource: game.draw_source, ball, seq, source, deviceId, at, scope: gameScope(game) })
    await tx.run('INSERT INTO balls (game_id, seq, ball, source, device_id, called_at) VALUES (?, ?, ?, ?, ?, ?)', [game.id, seq, ball, source, deviceId, at])
    if (seq === 1) await tx.run("UPDATE games SET status = 'drawing', first_ball_at = ? WHERE id = ?", [at, game.id])
    const rec = await appendJournal(tx, { at, type: 'ball.called', scope: gameScope(game), payload: { gameId: game.id, seq, ball, source, deviceId } })
    emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: rec.seq, reason: 'ball', ball, count: seq })
    const found = cache.detector.call(ball)
    const calledSet = new Set([...called, ball])
    const lineOpen = !game.line_closed
    if (profile.autoClaimSoldCards) {
      // Electronic cards are claimed by the system the moment they win (BNG-101); the line comes first.
      if (lineOpen && found.lines.length > 0) {
        for (const idx of found.lines) await registerClaim(tx, { ...game, status: 'drawing' as GameStatus }, cache.cards[idx], 'line', seq, calledSet, true)
      } else if (found.bingos.length > 0) {
        for (const idx of found.bingos) await registerClaim(tx, { ...game, status: 'drawing' as GameStatus }, cache.cards[idx], 'bingo', seq, calledSet, true)
      }
    } else {
      // BNG-48: nobody may learn of an undeclared winner; the first win is only recorded for the minutes.
      const silent: Array<[number, ClaimKind]> = [
        ...(lineOpen ? found.lines.map((i) => [i, 'line'] as [number, ClaimKind]) : []),
        ...found.bingos.map((i) => [i, 'bingo'] as [number, ClaimKind]),
      ]
      for (const [idx, kind] of silent) {
        await tx.run('INSERT INTO silent_wins (game_id, card_id, kind, at_ball) VALUES (?, ?, ?, ?)', [game.id, cache.cards[idx].id, kind, seq])
      }
    }
  }

  async function findCard(tx: Sql, gameId: string, ref: { serial?: string; cardId?: string }): Promise<CardRow | undefined> {
    if (ref.cardId) return tx.get<CardRow>('SELECT * FROM cards WHERE id = ? AND game_id = ?', [ref.cardId, gameId])
    if (ref.serial) return tx.get<CardRow>('SELECT * FROM cards WHERE serial = ? AND game_id = ?', [ref.serial.trim().toUpperCase(), gameId])
    return undefined
  }

  async function registerClaim(tx: Tx, game: GameRow, card: CardRow, kind: ClaimKind, atBall: number, called: ReadonlySet<number>, automatic: boolean): Promise<{ ok: boolean; reason?: string }> {
    const rows = JSON.parse(card.numbers) as number[][]
    const check = verifyClaim(rows, called, kind, Boolean(game.line_closed))
    const dup = await tx.get<{ id: string }>("SELECT id FROM claims WHERE game_id = ? AND card_id = ? AND kind = ? AND status = 'verified'", [game.id, card.id, kind])
    const at = now()
    if (dup) return { ok: true }
    const window = game.window_kind
    let result: { ok: boolean; reason?: string }
    if (!check.ok) result = { ok: false, reason: check.reason }
    else if (window && window !== kind) result = { ok: false, reason: `window_open_for_${window}` }
    else result = { ok: true }
    await tx.run('INSERT INTO claims (id, game_id, card_id, serial, kind, at_ball, status, reason, automatic, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [newId('cl'), game.id, card.id, card.serial, kind, atBall, result.ok ? 'verified' : 'rejected', result.reason ?? null, automatic ? 1 : 0, at])
    if (result.ok && !window) {
      // BNG-50: the "¿alguna línea/bingo más?" window opens on the first verified claim.
      await tx.run('UPDATE games SET status = ?, window_kind = ? WHERE id = ?', [kind === 'line' ? GameStatus.LineWindow : GameStatus.BingoWindow, kind, game.id])
      game.window_kind = kind
    }
    const rec = await appendJournal(tx, { at, type: result.ok ? 'claim.verified' : 'claim.rejected', scope: gameScope(game), payload: { gameId: game.id, serial: card.serial, cardId: card.id, kind, atBall, automatic, reason: result.reason ?? null, rule: kind === 'line' ? 'BNG-44' : 'BNG-44' } })
    emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: rec.seq, reason: result.ok ? 'claim_verified' : 'claim_rejected' })
    return result
  }

  /** A claim entered by card serial (paper play or a player who called). Verified against the called balls. */
  async function claim(input: { gameId: string; serial?: string; cardId?: string; kind: ClaimKind }): Promise<{ ok: boolean; reason?: string; state: GameState }> {
    let result: { ok: boolean; reason?: string } = { ok: false }
    await gameTx(input.gameId, async (tx) => {
      const game = await loadGame(tx, input.gameId)
      if (game.status === GameStatus.Finished) throw new DomainError('CLAIM_CLOSED', 'prizes have been assigned: no more claims on this game (BNG-45, BNG-50)', { rule: 'BNG-50' })
      assertLegal(GameAction.Claim, game.status, game.id)
      const card = await findCard(tx, game.id, input)
      if (!card) throw new DomainError('TICKET_NOT_FOUND', `card ${input.serial ?? input.cardId} was not sold for this game`, { serial: input.serial })
      if (card.status !== 'sold') throw new DomainError('CLAIM_REJECTED', `card ${card.serial} is ${card.status}`, { status: card.status })
      const called = new Set(await calledBalls(tx, game.id))
      result = await registerClaim(tx, game, card, input.kind, called.size, called, false)
    })
    return { ...result, state: await getGameState(input.gameId) }
  }

  /**
   * BNG-50: the caller closes the "any more?" window. The prize is split equally among the verified claims
   * (BNG-53/56); after the line play resumes, after the bingo the game ends.
   */
  async function closeWindow(gameId: string): Promise<GameState> {
    await gameTx(gameId, async (tx) => {
      const game = await loadGame(tx, gameId)
      assertLegal(GameAction.CloseWindow, game.status, gameId)
      const kind = game.window_kind!
      const claims = await tx.all<ClaimRow>("SELECT * FROM claims WHERE game_id = ? AND kind = ? AND status = 'verified' ORDER BY created_at", [gameId, kind])
      const pool = kind === 'line' ? game.line_pool_cents! : game.bingo_pool_cents!
      const unique = new Map<string, ClaimRow>()
      for (const c of claims) if (!unique.has(c.card_id!)) unique.set(c.card_id!, c)
      const winners = splitPrize(pool, [...unique.values()].map((c) => ({ serial: c.serial, cardId: c.card_id!, atBall: Number(c.at_ball) })))
      const at = now()
      for (const w of winners) {
        await tx.run('INSERT INTO prizes (id, game_id, card_id, kind, amount_cents, at_ball, status, awarded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [newId('pz'), gameId, w.cardId, kind, w.amountCents, w.atBall, 'awarded', at])
      }
      const finished = kind === 'bingo'
      await tx.run('UPDATE games SET status = ?, window_kind = NULL, line_closed = ?, finished_at = ? WHERE id = ?', [
        finished ? GameStatus.Finished : GameStatus.Drawing, kind === 'line' || game.line_closed ? 1 : 0, finished ? at : null, gameId,
      ])
      const rec = await appendJournal(tx, {
        at, type: 'prize.awarded', scope: gameScope(game),
        payload: { gameId, kind, poolCents: pool, winners: winners.map((w) => ({ serial: w.serial, cardId: w.cardId, amountCents: w.amountCents, atBall: w.atBall })), remainderRule: 'equal split, leftover centavos one each to the lowest serials', rule: 'BNG-53' },
      })
      if (deps.hooks?.length) {
        const [{ profile }, balls] = [await hallOf(tx, game.hall_id), await calledBalls(tx, gameId)]
        for (const h of deps.hooks) await h.prizeAwarded?.(tx, { game, profile, kind, winners, balls, at, scope: gameScope(game) })
      }
      if (finished) {
        const endRec = await appendJournal(tx, { at, type: 'game.finished', scope: gameScope(game), payload: { gameId, balls: await calledBalls(tx, gameId) } })
        emit(tx, { type: 'game:changed', gameId, hallId: game.hall_id, seq: endRec.seq, reason: 'finished' })
        caches.delete(gameId)
      } else {
        const cache = caches.get(gameId)
        cache?.detector.closeLine()
        emit(tx, { type: 'game:changed', gameId, hallId: game.hall_id, seq: rec.seq, reason: 'line_awarded' })
        // A ball can complete a bingo while the line window is open: the system claims it now (auto profiles).
        const { profile } = await hallOf(tx, game.hall_id)
        if (profile.autoClaimSoldCards) {
          const fresh = await loadGame(tx, gameId)
          const called = new Set(await calledBalls(tx, gameId))
          const c = await cacheFor(tx, fresh)
          for (let i = 0; i < c.cards.length; i++) {
            if (c.rows[i].every((row) => row.every((n) => called.has(n)))) await registerClaim(tx, fresh, c.cards[i], 'bingo', called.size, called, true)
          }
        }
      }
    })
    return getGameState(gameId)
  }

  /** BNG-46: a player called "¡línea!" or "¡bingo!": the caller stops the game while the card is checked. */
  const stopForClaim = (gameId: string) => simpleTransition(gameId, GameAction.StopForClaim, GameStatus.Checking, 'claim.called', () => ({ rule: 'BNG-46' }))
  /** BNG-49: the claimed card had no prize (or nobody came forward): play resumes. */
  const resumePlay = (gameId: string) => simpleTransition(gameId, GameAction.ResumePlay, GameStatus.Drawing, 'play.resumed', () => ({ rule: 'BNG-49' }))

  /** Pays an awarded prize once. Paying before verification (no prize yet) is refused. */
  async function payPrize(input: { prizeId: string; paidBy: string }): Promise<PrizeRow> {
    let paid: PrizeRow | undefined
    await tx(async (tx) => {
      const prize = await tx.get<PrizeRow>('SELECT * FROM prizes WHERE id = ?', [input.prizeId])
      if (!prize) throw new DomainError('NOT_VERIFIED', `no verified prize ${input.prizeId}`)
      const game = await loadGame(tx, prize.game_id)
      const at = now()
      const r = await tx.run("UPDATE prizes SET status = 'paid', paid_at = ?, paid_by = ? WHERE id = ? AND status = 'awarded'", [at, input.paidBy, prize.id])
      if (r.changes !== 1) throw new DomainError('ALREADY_PAID', `prize ${prize.id} was already paid at ${prize.paid_at}`, { paidAt: prize.paid_at, paidBy: prize.paid_by })
      const card = await tx.get<CardRow>('SELECT serial FROM cards WHERE id = ?', [prize.card_id])
      const rec = await appendJournal(tx, { at, type: 'prize.paid', scope: gameScope(game), payload: { gameId: game.id, prizeId: prize.id, serial: card?.serial ?? null, kind: prize.kind, amountCents: Number(prize.amount_cents), paidBy: input.paidBy } })
      emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: rec.seq, reason: 'prize_paid' })
      paid = (await tx.get<PrizeRow>('SELECT * FROM prizes WHERE id = ?', [prize.id]))!
    })
    return paid!
  }

  /** Pays every awarded prize of a game (the table pays before the next game, BNG-71). */
  async function payAllPrizes(gameId: string, paidBy: string): Promise<number> {
    const prizes = await db.all<{ id: string }>("SELECT id FROM prizes WHERE game_id = ? AND status = 'awarded'", [gameId])
    for (const p of prizes) await payPrize({ prizeId: p.id, paidBy })
    return prizes.length
  }

  // ---------------------------------------------------------------- incidents (BNG-80 to BNG-86)

  const INCIDENT_RULES = {
    'device-failure-before-first-ball': 'BNG-80',
    'device-failure-after-first-ball': 'BNG-81',
    'ball-irregularity': 'BNG-82',
    'caller-error': 'BNG-83',
    'unresolved-suspension': 'BNG-80',
    // BNG-83 (Cantabria: with an automatic reader the Jefe de Mesa corrects it): the number on the ball prevails.
    'reader-misread': 'BNG-83',
  } as const
  type IncidentKind = keyof typeof INCIDENT_RULES

  async function recordIncident(tx: Tx, game: GameRow, kind: IncidentKind, outcome: string, note: string): Promise<void> {
    const at = now()
    await tx.run('INSERT INTO incidents (id, session_id, game_id, kind, outcome, note, rule, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [newId('inc'), game.session_id, game.id, kind, outcome, note, INCIDENT_RULES[kind], at])
    await appendJournal(tx, { at, type: 'incident', scope: gameScope(game), payload: { gameId: game.id, kind, outcome, note, rule: INCIDENT_RULES[kind] } })
  }

  /** Voids the game and refunds every sold card at full price (BNG-80, BNG-82, BNG-83, BNG-86). */
  async function voidTx(tx: Tx, game: GameRow, reason: string): Promise<void> {
    assertLegal(GameAction.Annul, game.status, game.id)
    const at = now()
    const cards = await tx.all<{ id: string; serial: string }>("SELECT id, serial FROM cards WHERE game_id = ? AND status = 'sold'", [game.id])
    await tx.run("UPDATE cards SET status = 'refunded' WHERE game_id = ? AND status = 'sold'", [game.id])
    await tx.run("UPDATE prizes SET status = 'void' WHERE game_id = ? AND status = 'awarded'", [game.id])
    await tx.run("UPDATE games SET status = 'void', void_reason = ?, finished_at = ?, window_kind = NULL WHERE id = ?", [reason, at, game.id])
    const rec = await appendJournal(tx, { at, type: 'game.void', scope: gameScope(game), payload: { gameId: game.id, reason, refundedCards: cards.length, refundCents: cards.length * game.face_value_cents, serials: cards.map((c) => c.serial), rule: 'BNG-86' } })
    for (const h of deps.hooks ?? []) await h.gameVoided?.(tx, { game, at, scope: gameScope(game) })
    caches.delete(game.id)
    emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: rec.seq, reason: 'void' })
  }

  /** Declares an incident and applies the regulation's outcome for it. */
  async function declareIncident(input: { gameId: string; kind: IncidentKind; note?: string; correctedBall?: number; seq?: number }): Promise<GameState> {
    const note = (input.note ?? '').slice(0, 2000)
    await gameTx(input.gameId, async (tx) => {
      const game = await loadGame(tx, input.gameId)
      const { profile } = await hallOf(tx, game.hall_id)
      const balls = await calledBalls(tx, game.id)
      switch (input.kind) {
        case 'device-failure-before-first-ball': {
          if (balls.length > 0) throw new DomainError('ILLEGAL_TRANSITION', 'the first ball is out: continue by hand instead (BNG-81)', { rule: 'BNG-81' })
          assertLegal(GameAction.Suspend, game.status, game.id)
          await tx.run("UPDATE games SET status = 'suspended', suspended_from = ? WHERE id = ?", [game.status, game.id])
          await recordIncident(tx, game, input.kind, 'suspended', note)
          break
        }
        case 'unresolved-suspension': {
          if (game.status !== GameStatus.Suspended) throw new DomainError('ILLEGAL_TRANSITION', 'only a suspended game can be refunded for an unresolved failure (BNG-80)')
          await recordIncident(tx, game, input.kind, 'void-refund', note)
          await voidTx(tx, game, 'unresolved-suspension')
          break
        }
        case 'device-failure-after-first-ball': {
          if (balls.length === 0) throw new DomainError('ILLEGAL_TRANSITION', 'no ball is out yet: suspend the game instead (BNG-80)', { rule: 'BNG-80' })
          assertLegal(GameAction.SwitchToManual, game.status, game.id)
          await tx.run("UPDATE games SET draw_source = 'manual' WHERE id = ?", [game.id])
          await recordIncident(tx, game, input.kind, 'continue-manual-with-remaining-balls', note)
          break
        }
        case 'ball-irregularity': {
          await recordIncident(tx, game, input.kind, 'void-refund', note)
          await voidTx(tx, game, 'ball-irregularity')
          break
        }
        case 'caller-error': {
          if (profile.callerError === 'annul') {
            await recordIncident(tx, game, input.kind, 'void-refund', note)
            await voidTx(tx, game, 'caller-error')
          } else {
            // BNG-83 (Cantabria): the ball prevails; the call is corrected and play goes on. A manually entered
            // ball may be replaced by the one really drawn, while no prize has been awarded since.
            if (input.correctedBall !== undefined) await correctBallTx(tx, game, input.correctedBall, note)
            else await recordIncident(tx, game, input.kind, 'call-corrected-ball-prevails', note)
          }
          break
        }
        case 'reader-misread': {
          if (input.correctedBall === undefined) throw new DomainError('VALIDATION_FAILED', 'a reader misread needs the number on the ball (correctedBall)', { field: 'correctedBall' })
          await correctBallTx(tx, game, input.correctedBall, note, 'reader-misread')
          break
        }
        default: {
          const _never: never = input.kind
          throw new DomainError('VALIDATION_FAILED', `unknown incident ${String(_never)}`)
        }
      }
    })
    return getGameState(input.gameId)
  }

  async function correctBallTx(tx: Tx, game: GameRow, ball: number, note: string, kind: IncidentKind = 'caller-error'): Promise<void> {
    assertLegal(GameAction.CorrectBall, game.status, game.id)
    const last = await tx.get<{ seq: number; ball: number; source: string }>('SELECT seq, ball, source FROM balls WHERE game_id = ? ORDER BY seq DESC LIMIT 1', [game.id])
    if (!last) throw new DomainError('ILLEGAL_TRANSITION', 'no ball to correct')
    if (last.source === 'rng') throw new DomainError('ILLEGAL_TRANSITION', 'an RNG ball is what it is: correct the announcement, not the ball')
    const verifiedAfter = await tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM claims WHERE game_id = ? AND status = 'verified' AND at_ball >= ?", [game.id, last.seq])
    if (Number(verifiedAfter?.n ?? 0) > 0) throw new DomainError('ILLEGAL_TRANSITION', 'a prize was verified after this ball: the error can no longer be corrected (BNG-83)', { rule: 'BNG-83' })
    if (!Number.isInteger(ball) || ball < 1 || ball > game.ball_count) throw new DomainError('BALL_OUT_OF_RANGE', `ball ${ball} is outside 1..${game.ball_count}`)
    const dup = await tx.get('SELECT 1 AS x FROM balls WHERE game_id = ? AND ball = ?', [game.id, ball])
    if (dup) throw new DomainError('BALL_ALREADY_DRAWN', `ball ${ball} was already drawn`)
    await tx.run('UPDATE balls SET ball = ? WHERE game_id = ? AND seq = ?', [ball, game.id, last.seq])
    await tx.run('DELETE FROM silent_wins WHERE game_id = ? AND at_ball = ?', [game.id, last.seq])
    await recordIncident(tx, game, kind, `ball-corrected:${last.ball}->${ball}`, note)
    await appendJournal(tx, { at: now(), type: 'ball.corrected', scope: gameScope(game), payload: { gameId: game.id, seq: Number(last.seq), from: Number(last.ball), to: ball, source: last.source, kind, rule: 'BNG-83' } })
    // Re-evaluate the corrected ball: replay every ball, then record who the corrected one made a winner.
    const fresh = await loadGame(tx, game.id)
    const { cache: { cards }, last: found } = await rebuildCache(tx, fresh)
    const lineOpen = !fresh.line_closed
    for (const idx of lineOpen ? found.lines : []) await tx.run('INSERT INTO silent_wins (game_id, card_id, kind, at_ball) VALUES (?, ?, ?, ?)', [game.id, cards[idx].id, 'line', last.seq])
    for (const idx of found.bingos) await tx.run('INSERT INTO silent_wins (game_id, card_id, kind, at_ball) VALUES (?, ?, ?, ?)', [game.id, cards[idx].id, 'bingo', last.seq])
    emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: await lastSeq(tx), reason: 'ball_corrected', ball })
  }

  async function resume(gameId: string): Promise<GameState> {
    await gameTx(gameId, async (tx) => {
      const game = await loadGame(tx, gameId)
      assertLegal(GameAction.Resume, game.status, gameId)
      const back = game.suspended_from ?? GameStatus.OnSale
      await tx.run('UPDATE games SET status = ?, suspended_from = NULL WHERE id = ?', [back, gameId])
      const rec = await appendJournal(tx, { at: now(), type: 'game.resumed', scope: gameScope(game), payload: { gameId, to: back, rule: 'BNG-80' } })
      emit(tx, { type: 'game:changed', gameId, hallId: game.hall_id, seq: rec.seq, reason: 'resumed' })
    })
    return getGameState(gameId)
  }

  // ---------------------------------------------------------------- reads

  async function getGameState(gameId: string): Promise<GameState> {
    const game = await loadGame(db, gameId)
    const hall = (await db.get<HallRow>('SELECT * FROM halls WHERE id = ?', [game.hall_id]))!
    const balls = await calledBalls(db, gameId)
    const series = await gameSeries(db, gameId)
    const claims = await db.all<ClaimRow & { numbers: string | null }>('SELECT cl.*, c.numbers FROM claims cl LEFT JOIN cards c ON c.id = cl.card_id WHERE cl.game_id = ? ORDER BY cl.created_at', [gameId])
    const prizes = await db.all<PrizeRow>('SELECT * FROM prizes WHERE game_id = ?', [gameId])
    const prizeOf = new Map(prizes.map((p) => [`${p.card_id}:${p.kind}`, p]))
    const winners: PublicWinner[] = []
    const seen = new Set<string>()
    for (const c of claims) {
      if (c.status !== 'verified') continue
      const key = `${c.card_id}:${c.kind}`
      if (seen.has(key)) continue
      seen.add(key)
      const p = prizeOf.get(key)
      winners.push({ kind: c.kind, serial: c.serial, cardId: c.card_id!, rows: JSON.parse(c.numbers ?? '[]'), atBall: Number(c.at_ball), amountCents: p ? Number(p.amount_cents) : null, status: p ? (p.status === 'paid' ? 'paid' : 'awarded') : 'verified' })
    }
    const seqRow = await db.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM journal WHERE scope = ?', [gameScope(game)])
    let extras: GameExtras = NO_EXTRAS
    for (const h of deps.hooks ?? []) if (h.gameState) extras = { ...extras, ...(await h.gameState(db, game)) }
    return {
      ...extras,
      gameId, hallId: game.hall_id, hallName: hall.name, sessionId: game.session_id, orderNo: game.order_no, status: game.status,
      profileId: hall.profile_id, currency: hall.currency, faceValueCents: game.face_value_cents, ballCount: game.ball_count,
      cardsSold: game.cards_sold, totalCents: game.cards_sold * game.face_value_cents,
      linePoolCents: game.line_pool_cents, bingoPoolCents: game.bingo_pool_cents,
      lineClosed: Boolean(game.line_closed), window: game.window_kind, drawSource: game.draw_source, commitment: game.commitment,
      balls, lastBall: balls.length ? balls[balls.length - 1] : null,
      series: series.map((s) => ({ code: s.code, position: s.position, from: s.start_card_no, to: s.end_card_no, maxCardNo: s.max_card_no, cardCount: s.card_count })),
      winners,
      rejectedClaims: claims.filter((c) => c.status === 'rejected').map((c) => ({ serial: c.serial, kind: c.kind, reason: c.reason ?? '', atBall: Number(c.at_ball) })),
      isLastGame: Boolean(game.is_last_game), voidReason: game.void_reason, seq: Number(seqRow?.seq ?? 0),
      times: { createdAt: game.created_at, salesOpenedAt: game.sales_opened_at, salesClosedAt: game.sales_closed_at, firstBallAt: game.first_ball_at, finishedAt: game.finished_at },
    }
  }

  /** DESIGN.md draw proof: only once the game has ended, so the seed is never revealed while it matters. */
  async function getProof(gameId: string): Promise<DrawProof & { status: string; drawSources: string[] }> {
    const game = await loadGame(db, gameId)
    if (!ENDED.includes(game.status)) throw new DomainError('ILLEGAL_TRANSITION', `the proof of game ${gameId} is published when the game ends (it is ${game.status})`)
    const balls = await db.all<{ ball: number; source: string }>('SELECT ball, source FROM balls WHERE game_id = ? ORDER BY seq', [gameId])
    const serials = (await db.all<{ serial: string }>("SELECT serial FROM cards WHERE game_id = ? AND status IN ('sold', 'refunded')", [gameId])).map((r) => r.serial).sort(compareBytes)
    const rngBalls = balls.filter((b) => b.source === 'rng').map((b) => Number(b.ball))
    return {
      version: 'bolillo-draw-v1', gameId, commitment: game.commitment, seed: game.seed_hex,
      salesDigest: game.sales_digest ?? '', externalEntropy: game.external_entropy ?? '', ballCount: game.ball_count,
      balls: rngBalls, soldSerials: serials, entropySource: game.entropy_source ?? deps.entropy.name,
      status: game.status, drawSources: [...new Set(balls.map((b) => b.source))],
    }
  }

  async function getCard(gameId: string, serial: string): Promise<(SoldCard & { status: string; gameId: string }) | undefined> {
    const card = await findCard(db, gameId, { serial })
    if (!card) return undefined
    const s = await db.get<{ code: string }>('SELECT code FROM series WHERE id = ?', [card.series_id])
    return { id: card.id, serial: card.serial, seriesCode: s?.code ?? '', cardNo: Number(card.card_no), rows: JSON.parse(card.numbers), status: card.status, gameId }
  }

  async function listPrizes(gameId: string): Promise<Array<PrizeRow & { serial: string }>> {
    return db.all('SELECT p.*, c.serial FROM prizes p JOIN cards c ON c.id = p.card_id WHERE p.game_id = ? ORDER BY p.kind DESC, c.serial', [gameId])
  }

  async function silentWins(gameId: string): Promise<Array<{ serial: string; kind: ClaimKind; atBall: number }>> {
    const rows = await db.all<{ serial: string; kind: ClaimKind; at_ball: number }>('SELECT c.serial, s.kind, s.at_ball FROM silent_wins s JOIN cards c ON c.id = s.card_id WHERE s.game_id = ? ORDER BY s.at_ball, c.serial', [gameId])
    return rows.map((r) => ({ serial: r.serial, kind: r.kind, atBall: Number(r.at_ball) }))
  }

  return {
    createHall, createMasterSet, createSeries, openSession, announceLastGame, closeSession,
    announceGame, addSeries, openSales, sell, sellWithin, closeSales, drawNext, enterBall, claim, closeWindow, stopForClaim, resumePlay, payPrize, payAllPrizes,
    declareIncident, resume, getGameState, getProof, getCard, listPrizes, silentWins, lastSeq: () => lastSeq(db), newId,
    /** Rebuild helpers for tests. */
    cardFromRows,
  }
}

export type BingoService = ReturnType<typeof createBingoService>
