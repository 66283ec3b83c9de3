/**
 * What every bingo use case shares: the dependencies, the transaction runner that publishes events after the
 * commit, record ids, the loading of halls, sessions and games with their not-found errors, and the per-game
 * detector cache. Built once per service by `createBingoService` (service.ts).
 */
import { RECORD_ID_BYTES, recordId } from '../shared/record-id.ts'
import { randomBytes } from 'node:crypto'
import { createDetector } from './detector.ts'
import { createSealer, sealingKeyFromBytes, type Sealer } from '../shared/sealing.ts'
import { createBeaconSource, type BeaconSource } from '../shared/beacon-source.ts'
import { createDemoBeacon, demoSecretKeyFrom } from '../shared/beacon.ts'
import { DomainError } from '../shared/errors.ts'
import { compareBytes, timesRequiredOf } from './game.ts'
import { getProfile, type Profile } from '../shared/profile.ts'
import type { Database, Sql, TransactionOptions } from '../db/database.ts'
import type { BingoDeps, BingoEvent } from './types.ts'
import { calledBalls } from './store/balls.ts'
import { type Game, type Session, gameById, sessionById, endedGameIds } from './store/games.ts'
import { type Hall, hallById } from './store/halls.ts'
import { type Card, cardOfGameById, cardOfGameBySerial, cardsOfGameByNumber, soldCardsBySerial } from './store/sales.ts'
import { parseTypedSerial } from './typed-serial.ts'
import { hallProfile } from './betting-plan.ts'
import { activeHallCameras, hallCameraById } from '../equipment/store.ts'
import { gameHallsOfGame } from './store/simultaneous.ts'
import { hallSharesAPot } from './store/pots.ts'

/** A use case's transaction: the events it collects are published once it has committed. */
export type Tx = Sql & { events: BingoEvent[] }
export function emit(tx: Tx, e: BingoEvent) {
  tx.events.push(e)
}

/** `order`: the draw order, opened from its sealed form on the first ball this node draws (kept in memory only). */
export interface GameCache {
  detector: ReturnType<typeof createDetector>
  cards: Card[]
  rows: number[][][]
  order?: number[]
}

export interface BingoContext {
  deps: BingoDeps
  db: Database
  /** Seals seeds and draw orders (DESIGN.md "Sealed secrets"). */
  sealer: Sealer
  /** Where the beacon round of a v2 draw comes from (DESIGN.md bolillo-draw-v2, point 3). */
  beacon: BeaconSource
  /** Detectors of the games in play on this node, rebuilt from storage when stale. */
  caches: Map<string, GameCache>
  /** The clock's time, ISO 8601. */
  now(): string
  newId(prefix: string): string
  publish(e: BingoEvent): void
  /**
   * Runs a use case in one transaction; its events are published only once it has committed. `scopes`: the journal
   * chains it writes (db/scopes.ts), decided by the use case from what it resolved; none: every chain.
   */
  tx<T>(fn: (tx: Tx) => Promise<T>, scopes?: readonly string[]): Promise<T>
  /** Like `tx`, and drops the game's detector if the transaction fails. */
  gameTx<T>(gameId: string, fn: (tx: Tx) => Promise<T>, scopes?: readonly string[]): Promise<T>
  /**
   * Like `gameTx`, for a step of the game in play that its caller waits on with the hall watching (a ball, a claim's
   * judgement, a window's close): started ahead of queued sales (TransactionOptions.priority), so that a busy sales
   * floor, here or in another hall, does not hold up the draw (issue 23, `draw.ball.stalled_printer.p99`).
   */
  inPlayTx<T>(gameId: string, fn: (tx: Tx) => Promise<T>, scopes?: readonly string[]): Promise<T>
}

export function createBingoContext(deps: BingoDeps): BingoContext {
  const { db, clock } = deps
  const caches = new Map<string, GameCache>()
  const publish = (e: BingoEvent) => {
    try {
      deps.publish?.(e)
    } catch {
      /* a screen must never break a sale */
    }
  }

  function newId(prefix: string): string {
    return recordId(prefix, (deps.idEntropy ?? deps.entropy).randomBytes(RECORD_ID_BYTES))
  }

  async function tx<T>(fn: (tx: Tx) => Promise<T>, scopes?: readonly string[], priority = false): Promise<T> {
    const events: BingoEvent[] = []
    const options: TransactionOptions = { ...(scopes?.length ? { scopes } : {}), ...(priority ? { priority } : {}) }
    const result = await db.transaction(
      (inner) => fn({ all: inner.all.bind(inner), get: inner.get.bind(inner), run: inner.run.bind(inner), events }),
      options,
    )
    for (const e of events) publish(e)
    return result
  }

  async function gameTx<T>(
    gameId: string,
    fn: (tx: Tx) => Promise<T>,
    scopes?: readonly string[],
    priority = false,
  ): Promise<T> {
    try {
      return await tx(fn, scopes, priority)
    } catch (err) {
      caches.delete(gameId)
      throw err
    }
  }
  const inPlayTx = <T>(gameId: string, fn: (tx: Tx) => Promise<T>, scopes?: readonly string[]) =>
    gameTx(gameId, fn, scopes, true)

  // Composed without them (unit tests, tools): a key that lives as long as this service, and the labelled demo beacon.
  const sealer = deps.sealer ?? createSealer(sealingKeyFromBytes(randomBytes(32)))
  const beacon =
    deps.beacon ?? createBeaconSource({ relays: [], demo: createDemoBeacon(demoSecretKeyFrom(randomBytes(48))) })
  return {
    deps,
    db,
    sealer,
    beacon,
    caches,
    now: () => clock.now().toISOString(),
    newId,
    publish,
    tx,
    gameTx,
    inPlayTx,
  }
}

/**
 * Issue 23 point 5: what a game's draw and claims lock on PostgreSQL: the game's own hall (a game never changes
 * hall), read before the transaction. Every row they read to decide is that hall's (the game, its cards, balls,
 * claims, figures, ball sets) or changes only under the global lock's exclusive side (halls, profiles, devices, card
 * custody); a simultaneous game's sale in another hall locks the game's hall too (paid-sales.ts counterCards), so its
 * cards are guarded. Undefined (every chain) when the game is not found: the use case refuses it as before.
 */
export async function gameHallScopes(ctx: BingoContext, gameId: string): Promise<string[] | undefined> {
  const game = await gameById(ctx.db, gameId)
  return game ? [`hall:${game.hallId}`] : undefined
}

/**
 * Issue 23 point 5: whether a game's awards and their payment write only the game's hall's rows, so that they may
 * lock that hall alone: no other hall sells the game (BNG-100: its prima and winners span the halls) and the hall
 * shares no pot with another hall (BNG-66: an interconnected pot's fund and ledger are every member hall's). Both
 * change only under the global lock's exclusive side (pots, simultaneous games), so, read again inside a scoped
 * transaction, the answer holds until its commit. The hall's own prima, progressive and lucky-ball pots are its rows.
 */
export async function awardsStayInHall(sql: Sql, game: { id: string; hallId: string }): Promise<boolean> {
  return (await gameHallsOfGame(sql, game.id)).length === 0 && !(await hallSharesAPot(sql, game.hallId))
}

export const gameScope = (g: { hallId: string; sessionId: string; id: string }) =>
  `hall:${g.hallId}/session:${g.sessionId}/game:${g.id}`
export const sessionScope = (s: { hallId: string; id: string }) => `hall:${s.hallId}/session:${s.id}`

/** A hall and its profile as the hall plays it (its Plan de Apuestas and licence options: hallProfile). */
export async function hallOf(tx: Sql, hallId: string): Promise<{ hall: Hall; profile: Profile }> {
  const hall = await hallById(tx, hallId)
  if (!hall) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
  return profiledHall(hall)
}

/** {@link hallOf} over a hall row already read in the caller's transaction. */
export function profiledHall(hall: Hall): { hall: Hall; profile: Profile } {
  const hallId = hall.id
  const profile = getProfile(hall.profileId)
  if (!profile) throw new DomainError('VALIDATION_FAILED', `hall ${hallId} has unknown profile ${hall.profileId}`)
  // Issue 17: the hall's own time zone, when it set one, is the profile's for everything this hall shows.
  return { hall, profile: { ...hallProfile(profile, hall.settings), timeZone: hallTimeZone(hall, profile) } }
}

/**
 * BNG-34 / GEN-31: the hall's camera on the ball exit point (hall setting `ballCameraId`), if it registered one. The
 * draw's records (ball, claim, award, payout) carry it, so that footage can be matched to each system event.
 */
export function ballCameraOf(hall: { settings: string }): string | null {
  return (JSON.parse(hall.settings || '{}') as { ballCameraId?: string }).ballCameraId ?? null
}

/**
 * BNG-34 / GEN-31: what a draw record says of the hall's ball-exit camera. The camera the director named (setting
 * `ballCameraId`) and, when it is a registered camera of the hall (equipment/cameras.ts), its regulator's seal; with
 * no name set, the hall's registered camera (the one its displays are relayed), with its seal. Nothing: no camera.
 */
export async function cameraRecord(
  tx: Sql,
  hall: { id: string; settings: string } | string,
): Promise<{ cameraId?: string; cameraSealCode?: string }> {
  const h = typeof hall === 'string' ? await hallById(tx, hall) : hall
  if (!h) return {}
  const named = ballCameraOf(h)
  if (named) {
    const reg = await hallCameraById(tx, named)
    return reg && reg.hall_id === h.id && reg.status === 'active'
      ? { cameraId: named, cameraSealCode: reg.seal_code }
      : { cameraId: named }
  }
  const reg = (await activeHallCameras(tx, h.id))[0]
  return reg ? { cameraId: reg.id, cameraSealCode: reg.seal_code } : {}
}

/** The ball-exit camera of a hall by id (ballCameraOf). */
export async function hallCameraOf(tx: Sql, hallId: string): Promise<string | null> {
  const hall = await hallById(tx, hallId)
  return hall ? ballCameraOf(hall) : null
}

/**
 * The hall's IANA time zone: its own setting (`settings.timeZone`) if it has one, else its profile's default
 * (America/La_Paz, Europe/Madrid). Calendar-day rules (BNG-12) count the hall's days, not UTC's.
 */
export function hallTimeZone(hall: Hall, profile: Profile): string {
  const settings = JSON.parse(hall.settings) as { timeZone?: unknown }
  return typeof settings.timeZone === 'string' && settings.timeZone ? settings.timeZone : profile.timeZone
}

export async function loadGame(tx: Sql, gameId: string): Promise<Game> {
  const game = await gameById(tx, gameId)
  if (!game) throw new DomainError('GAME_NOT_FOUND', `game ${gameId} not found`, { gameId })
  return game
}

export async function loadSession(tx: Sql, sessionId: string): Promise<Session> {
  const s = await sessionById(tx, sessionId)
  if (!s) throw new DomainError('SESSION_NOT_FOUND', `session ${sessionId} not found`, { sessionId })
  return s
}

/**
 * A card of the game by id or by serial as the caller heard it: exact ("A-00041"), or "a41", "A 41", or the number
 * alone when only one series in play has that card number. When several have it the caller is asked which
 * (SERIAL_AMBIGUOUS, with the serials to choose from); nothing is guessed.
 */
export async function findCard(
  tx: Sql,
  gameId: string,
  ref: { serial?: string; cardId?: string },
): Promise<Card | undefined> {
  if (ref.cardId) return cardOfGameById(tx, gameId, ref.cardId)
  if (!ref.serial) return undefined
  const exact = await cardOfGameBySerial(tx, gameId, ref.serial.trim().toUpperCase())
  if (exact) return exact
  const typed = parseTypedSerial(ref.serial)
  if (!typed) return undefined
  const found = (await cardsOfGameByNumber(tx, gameId, typed.cardNo)).filter(
    (c) => typed.seriesCode === null || c.seriesCode === typed.seriesCode,
  )
  if (found.length > 1) {
    const serials = found.map((c) => c.serial).sort()
    throw new DomainError(
      'SERIAL_AMBIGUOUS',
      `card number ${typed.cardNo} is in several series of this game: ${serials.join(', ')}`,
      { serials },
    )
  }
  return found[0]
}

/** The in-memory detector of a game in play, rebuilt from storage after a restart. */
export async function cacheFor(ctx: BingoContext, tx: Sql, game: Game): Promise<GameCache> {
  const { caches } = ctx
  const hit = caches.get(game.id)
  if (hit) {
    // Another server node may have drawn a ball, corrected any manual ball (same count, another number: BNG-83)
    // or closed the line since: then rebuild from storage.
    const stored = await calledBalls(tx, game.id)
    const mine = hit.detector.called()
    if (
      stored.length === mine.length &&
      stored.every((b, i) => b === mine[i]) &&
      hit.detector.isLineClosed() === game.lineClosed
    )
      return hit
    caches.delete(game.id)
  }
  // Games another node finished or voided never pass through this node's closeWindow: drop their detectors here.
  if (caches.size > 0) {
    for (const id of await endedGameIds(tx, [...caches.keys()])) caches.delete(id)
  }
  return (await rebuildCache(ctx, tx, game)).cache
}

/**
 * Builds a game's detector from storage (sold cards in serial byte order, every ball called so far) and caches
 * it; also returns what the last ball did, for a correction to re-evaluate it.
 */
export async function rebuildCache(
  ctx: BingoContext,
  tx: Sql,
  game: Game,
): Promise<{ cache: GameCache; last: { lines: number[]; bingos: number[] } }> {
  const cards = await soldCardsBySerial(tx, game.id)
  cards.sort((a, b) => compareBytes(a.serial, b.serial))
  const rows = cards.map((c) => JSON.parse(c.numbers) as number[][])
  // BNG-98 / CFG-32: a fast bingo's cards win with the number of picks its hall's licence sets.
  const detector = createDetector(rows, game.ballCount, { bingoAfter: timesRequiredOf(game.layout) })
  let last = { lines: [] as number[], bingos: [] as number[] }
  for (const ball of await calledBalls(tx, game.id)) last = detector.call(ball)
  if (game.lineClosed) detector.closeLine()
  const cache = { detector, cards, rows }
  ctx.caches.set(game.id, cache)
  return { cache, last }
}
