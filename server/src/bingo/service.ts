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
import type { Database, Sql } from '../db/database.ts'
import type { GameExtras } from './game-extras.ts'
import { createBingoContext } from './context.ts'
import * as halls from './halls.ts'
import * as games from './games.ts'
import * as draw from './draw.ts'
import * as claims from './claims.ts'
import * as incidents from './incidents.ts'
import * as reads from './game-state.ts'
import * as beacon from './draw-beacon.ts'
import * as purchases from './purchases.ts'
import { lastJournalSeq, playerOfCard, type GameRow } from './store.ts'
import type { Sealer } from '../shared/sealing.ts'
import type { BeaconSource, BeaconValue } from '../shared/beacon-source.ts'
import type { BeaconScheme } from '../shared/beacon.ts'

export type { GameRow, HallRow } from './store.ts'
export { insertSoldCards } from './games.ts'

import type { Clock, EntropySource } from '../shared/clock.ts'
// Kept for the bingo files that import them from here; other product lines import shared/clock.ts.
export type { Clock, EntropySource }

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
  /** Seals seeds and draw orders; services.ts passes the one under the operator's sealing key. */
  sealer?: Sealer
  /** bolillo-draw-v2's beacon; services.ts passes the configured relays (and the demo hall's demo beacon). */
  beacon?: BeaconSource
  /** Fetch the beacon round as soon as it is published after a close of sales, so the hall sees it before the first ball. */
  autoBeacon?: boolean
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
  /**
   * bolillo-draw-v2: round R of a game is verified and its order fixed (DESIGN.md draw v2 point 3), inside the
   * draw's transaction. The v2 lucky ball is fixed here (bonus-service.ts).
   */
  beaconVerified?(tx: Sql, e: { game: GameRow; beacon: BeaconValue; at: string; scope: string }): Promise<void>
}

export type BingoEvent =
  | { type: 'game:changed'; gameId: string; hallId: string; seq: number; reason: string; ball?: number; count?: number }
  | { type: 'session:changed'; sessionId: string; hallId: string; seq: number; reason: string }

export interface SoldCard { id: string; serial: string; seriesCode: string; cardNo: number; rows: number[][] }

/**
 * The beacon round of a v2 draw as the hall sees it (DESIGN.md bolillo-draw-v2 points 2, 3 and 9): from the close of
 * sales, the round awaited and when it is published; once verified, its randomness. `demo`: the local demo beacon.
 */
export interface BeaconState { round: number; publishedAt: string; status: 'awaiting' | 'verified'; randomness?: string; scheme: BeaconScheme; demo: boolean }

/** Who caused a journal record, from the authenticated request (never from a body). */
export interface Actor { kind: string; id: string; name: string; role: string }

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
  /** Fixed at the close of sales (v2): the sales digest D, the close time t and the beacon round R. */
  salesDigest?: string | null; closedAt?: string | null
  beacon?: BeaconState | null
  /** Issue 15 point 4: a game annulled by two people shows the hall their reason (the names stay in the minutes). */
  annulment?: { reason: string; at: string } | null
  /** Issue 17: the game's newest incident (what happened and how the game goes on), shown on every screen. */
  incident?: { at: string; kind: string; outcome: string; note: string; rule: string } | null
  times: { createdAt: string; salesOpenedAt: string | null; salesClosedAt: string | null; firstBallAt: string | null; finishedAt: string | null }
}


export function createBingoService(deps: BingoDeps) {
  const ctx = createBingoContext(deps)
  return {
    createHall: (input: Parameters<typeof halls.createHall>[1]) => halls.createHall(ctx, input),
    createMasterSet: (input: { count: number; seed?: string; layout?: CardLayout }) => halls.createMasterSet(ctx, input),
    createSeries: (input: Parameters<typeof halls.createSeries>[1]) => halls.createSeries(ctx, input),
    setHallCamera: (input: Parameters<typeof halls.setHallCamera>[1]) => halls.setHallCamera(ctx, input),
    openSession: (input: Parameters<typeof halls.openSession>[1]) => halls.openSession(ctx, input),
    announceLastGame: (sessionId: string) => halls.announceLastGame(ctx, sessionId),
    closeSession: (sessionId: string, recount: { ballsCounted: number; confirmedBy: string } | null) => halls.closeSession(ctx, sessionId, recount),
    announceGame: (input: Parameters<typeof games.announceGame>[1]) => games.announceGame(ctx, input),
    addSeries: (gameId: string, seriesId: string) => games.addSeries(ctx, gameId, seriesId),
    openSales: (gameId: string) => games.openSales(ctx, gameId),
    sell: (input: { gameId: string; count: number; channel: string }) => games.sell(ctx, input),
    sellWithin: (sql: Sql, input: { gameId: string; count: number; channel: string }) => games.sellWithin(ctx, sql, input),
    closeSales: (input: { gameId: string }) => games.closeSales(ctx, input),
    /** Obtains and verifies the game's beacon round now (relays or demo beacon). @throws BEACON_PENDING before it is published. */
    obtainBeacon: (gameId: string) => beacon.ensureBeacon(ctx, gameId).then(() => reads.getGameState(ctx, gameId)),
    /** A quicknet signature typed in by staff for the game's round. @throws INVALID_SIGNATURE (journaled). */
    acceptTypedBeacon: (input: { gameId: string; signature: string; actor: Actor }) => beacon.acceptTypedBeacon(ctx, input),
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
    correctCalledBall: (input: Parameters<typeof incidents.correctCalledBall>[1]) => incidents.correctCalledBall(ctx, input),
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
    setHallTimeZone: (input: Parameters<typeof halls.setHallTimeZone>[1]) => halls.setHallTimeZone(ctx, input),
    setHallTerritory: (input: Parameters<typeof halls.setHallTerritory>[1]) => halls.setHallTerritory(ctx, input),
    hallExists: (hallId: string) => halls.hallExists(ctx, hallId),
    currentGameOfHall: (hallId: string) => halls.currentGameOfHall(ctx, hallId),
    // Issue 18: the hall's Plan de Apuestas, licence options and derived bingo versions (BNG-52, CFG-17, BNG-102).
    hallRules: (hallId: string) => halls.hallRules(ctx, hallId),
    setBettingPlan: (input: Parameters<typeof halls.setBettingPlan>[1]) => halls.setBettingPlan(ctx, input),
    setLicenceTerms: (input: Parameters<typeof halls.setLicenceTerms>[1]) => halls.setLicenceTerms(ctx, input),
    setDerivedPlan: (input: Parameters<typeof halls.setDerivedPlan>[1]) => halls.setDerivedPlan(ctx, input),
    // Issue 18: posted bets and face values (BNG-40, GEN-18, CFG-16, BNG-10), automatic claims (CFG-21), the
    // purchase checks every sale path makes (purchases.ts), the hall's door (BNG-93, BNG-19), cards handed back (BNG-15).
    setSaleRules: (input: Parameters<typeof halls.setSaleRules>[1]) => halls.setSaleRules(ctx, input),
    setAutoClaim: (input: Parameters<typeof halls.setAutoClaim>[1]) => halls.setAutoClaim(ctx, input),
    admitPurchaseWithin: (sql: Sql, input: purchases.PurchaseInput) => purchases.admitPurchase(ctx, sql, input),
    recordPurchaseWithin: (sql: Sql, input: Parameters<typeof purchases.recordPurchase>[2]) => purchases.recordPurchase(ctx, sql, input),
    closeHallEntry: (input: Parameters<typeof purchases.closeHallEntry>[1]) => purchases.closeHallEntry(ctx, input),
    recordEntry: (input: Parameters<typeof purchases.recordEntry>[1]) => purchases.recordEntry(ctx, input),
    returnCards: (input: Parameters<typeof purchases.returnCards>[1]) => purchases.returnCards(ctx, input),
    playerOfCard: (cardId: string) => playerOfCard(ctx.db, cardId),
    /** Rebuild helpers for tests. */
    cardFromRows,
  }
}

export type BingoService = ReturnType<typeof createBingoService>
