/**
 * Bingo use cases: the domain core plus storage, the journal and the ball source. Each use case is one
 * transaction and one or more journal records; realtime events are published only after the commit.
 *
 * The use cases live by topic (halls.ts, games.ts, draw.ts, claims.ts, incidents.ts, game-state.ts) and share
 * one context (context.ts); their SQL is in store.ts. `createBingoService` composes them into the one service
 * the rest of the server calls.
 */
import { cardFromRows, type CardLayout } from './card.ts'
import type { GameStatus, ClaimKind } from './game.ts'
import type { Profile } from '../shared/profile.ts'
import type { BeaconValue } from '../shared/beacon-source.ts'
import type { Database, Sql } from '../db/database.ts'
import type { GameExtras } from './game-extras.ts'
import { createBingoContext } from './context.ts'
import * as halls from './halls.ts'
import * as games from './games.ts'
import * as draw from './draw.ts'
import * as claims from './claims.ts'
import * as incidents from './incidents.ts'
import * as reads from './game-state.ts'
import { lastJournalSeq, type GameRow } from './store.ts'

export type { GameRow, HallRow } from './store.ts'
export { insertSoldCards } from './games.ts'

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
  /**
   * bolillo-draw-v2: the game's beacon round has been obtained and verified after close of sales (DESIGN.md draw v2
   * point 3). The lucky ball is fixed here (bonus-service.ts). Called by the v2 draw, inside its transaction.
   */
  onBeacon?(tx: Sql, game: GameRow, beacon: BeaconValue): Promise<void>
  gameState?(db: Sql, game: GameRow): Promise<Partial<GameExtras>>
}

export type BingoEvent =
  | { type: 'game:changed'; gameId: string; hallId: string; seq: number; reason: string; ball?: number; count?: number }
  | { type: 'session:changed'; sessionId: string; hallId: string; seq: number; reason: string }

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
  /** Issue 15 point 4: a game annulled by two people shows the hall their reason (the names stay in the minutes). */
  annulment?: { reason: string; at: string } | null
  times: { createdAt: string; salesOpenedAt: string | null; salesClosedAt: string | null; firstBallAt: string | null; finishedAt: string | null }
}


export function createBingoService(deps: BingoDeps) {
  const ctx = createBingoContext(deps)
  return {
    createHall: (input: Parameters<typeof halls.createHall>[1]) => halls.createHall(ctx, input),
    createMasterSet: (input: { count: number; seed?: string; layout?: CardLayout }) => halls.createMasterSet(ctx, input),
    createSeries: (input: Parameters<typeof halls.createSeries>[1]) => halls.createSeries(ctx, input),
    openSession: (input: Parameters<typeof halls.openSession>[1]) => halls.openSession(ctx, input),
    announceLastGame: (sessionId: string) => halls.announceLastGame(ctx, sessionId),
    closeSession: (sessionId: string, recount: { ballsCounted: number; confirmedBy: string } | null) => halls.closeSession(ctx, sessionId, recount),
    announceGame: (input: Parameters<typeof games.announceGame>[1]) => games.announceGame(ctx, input),
    addSeries: (gameId: string, seriesId: string) => games.addSeries(ctx, gameId, seriesId),
    openSales: (gameId: string) => games.openSales(ctx, gameId),
    sell: (input: { gameId: string; count: number; channel: string }) => games.sell(ctx, input),
    sellWithin: (sql: Sql, input: { gameId: string; count: number; channel: string }) => games.sellWithin(ctx, sql, input),
    closeSales: (input: { gameId: string; externalEntropy?: string }) => games.closeSales(ctx, input),
    drawNext: (gameId: string) => draw.drawNext(ctx, gameId),
    enterBall: (gameId: string, ball: number, deviceId: string | null = null) => draw.enterBall(ctx, gameId, ball, deviceId),
    claim: (input: Parameters<typeof claims.claim>[1]) => claims.claim(ctx, input),
    closeWindow: (gameId: string) => claims.closeWindow(ctx, gameId),
    stopForClaim: (gameId: string) => claims.stopForClaim(ctx, gameId),
    resumePlay: (gameId: string) => claims.resumePlay(ctx, gameId),
    payPrize: (input: { prizeId: string; paidBy: string }) => claims.payPrize(ctx, input),
    payAllPrizes: (gameId: string, paidBy: string) => claims.payAllPrizes(ctx, gameId, paidBy),
    declareIncident: (input: Parameters<typeof incidents.declareIncident>[1]) => incidents.declareIncident(ctx, input),
    resume: (gameId: string) => incidents.resume(ctx, gameId),
    getGameState: (gameId: string) => reads.getGameState(ctx, gameId),
    getProof: (gameId: string) => reads.getProof(ctx, gameId),
    getCard: (gameId: string, serial: string) => reads.getCard(ctx, gameId, serial),
    listPrizes: (gameId: string) => reads.listPrizes(ctx, gameId),
    silentWins: (gameId: string) => reads.silentWins(ctx, gameId),
    lastSeq: () => lastJournalSeq(ctx.db),
    newId: ctx.newId,
    /** Halls as the API lists them, a hall's page, and what a hall screen needs to start watching. */
    listHalls: () => halls.listHalls(ctx),
    getHallOverview: (hallId: string) => halls.getHallOverview(ctx, hallId),
    hallExists: (hallId: string) => halls.hallExists(ctx, hallId),
    currentGameOfHall: (hallId: string) => halls.currentGameOfHall(ctx, hallId),
    /** Rebuild helpers for tests. */
    cardFromRows,
  }
}

export type BingoService = ReturnType<typeof createBingoService>
