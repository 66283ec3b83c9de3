/**
 * Bingo use cases: the domain core plus storage, the journal and the ball source. Each use case is one
 * transaction and one or more journal records; realtime events are published only after the commit.
 *
 * The use cases live by topic (halls.ts, games.ts, draw.ts, claims.ts, incidents.ts, game-state.ts) and share
 * one context (context.ts); their SQL is in store.ts. `createBingoService` composes them into the one service
 * the rest of the server calls.
 */
import { cardFromRows, type CardLayout } from './card.ts'
import type { Sql } from '../db/database.ts'
import { createBingoContext } from './context.ts'
import * as halls from './halls.ts'
import * as games from './games.ts'
import * as draw from './draw.ts'
import * as claims from './claims.ts'
import * as incidents from './incidents.ts'
import * as reads from './game-state.ts'
import * as beacon from './draw-beacon.ts'
import * as gameLimits from './game-limits.ts'
import * as purchases from './purchases.ts'
import { lastJournalSeq } from './store/games.ts'
import { playerOfCard } from './store/sales.ts'
import { hallById } from './store/halls.ts'

export { insertSoldCards } from './games.ts'

export type * from './types.ts'
import type { Actor, BingoDeps } from './types.ts'

export function createBingoService(deps: BingoDeps) {
  const ctx = createBingoContext(deps)
  return {
    createHall: (input: Parameters<typeof halls.createHall>[1]) => halls.createHall(ctx, input),
    createMasterSet: (input: { count: number; seed?: string; layout?: CardLayout }) =>
      halls.createMasterSet(ctx, input),
    createSeries: (input: Parameters<typeof halls.createSeries>[1]) => halls.createSeries(ctx, input),
    setHallCamera: (input: Parameters<typeof halls.setHallCamera>[1]) => halls.setHallCamera(ctx, input),
    openSession: (input: Parameters<typeof halls.openSession>[1]) => halls.openSession(ctx, input),
    announceLastGame: (sessionId: string) => halls.announceLastGame(ctx, sessionId),
    closeSession: (sessionId: string, recount: { ballsCounted: number; confirmedBy: string } | null) =>
      halls.closeSession(ctx, sessionId, recount),
    announceGame: (input: Parameters<typeof games.announceGame>[1]) => games.announceGame(ctx, input),
    addSeries: (gameId: string, seriesId: string) => games.addSeries(ctx, gameId, seriesId),
    openSales: (gameId: string) => games.openSales(ctx, gameId),
    signGameClosing: (input: Parameters<typeof games.signGameClosing>[1]) => games.signGameClosing(ctx, input),
    sell: (input: { gameId: string; count: number; channel: string }) => games.sell(ctx, input),
    sellWithin: (sql: Sql, input: Parameters<typeof games.sellWithin>[2]) => games.sellWithin(ctx, sql, input),
    closeSales: (input: { gameId: string }) => games.closeSales(ctx, input),
    /** Obtains and verifies the game's beacon round now (relays or demo beacon). @throws BEACON_PENDING before it is published. */
    obtainBeacon: (gameId: string) => beacon.ensureBeacon(ctx, gameId).then(() => reads.getGameState(ctx, gameId)),
    /** A quicknet signature typed in by staff for the game's round. @throws INVALID_SIGNATURE (journaled). */
    // The game as the hall sees it once the typed round is stored (read here: draw-beacon.ts does not import the reads).
    acceptTypedBeacon: async (input: { gameId: string; signature: string; actor: Actor }) => {
      await beacon.acceptTypedBeacon(ctx, input)
      return reads.getGameState(ctx, input.gameId)
    },
    drawNext: (gameId: string) => draw.drawNext(ctx, gameId),
    enterBall: (gameId: string, ball: number, deviceId: string | null = null) =>
      draw.enterBall(ctx, gameId, ball, deviceId),
    assertBallDue: (gameId: string) => draw.assertBallDue(ctx, gameId),
    claim: (input: Parameters<typeof claims.claim>[1]) => claims.claim(ctx, input),
    closeWindow: (gameId: string) => claims.closeWindow(ctx, gameId),
    stopForClaim: (gameId: string) => claims.stopForClaim(ctx, gameId),
    resumePlay: (gameId: string) => claims.resumePlay(ctx, gameId),
    declareIncident: (input: Parameters<typeof incidents.declareIncident>[1]) => incidents.declareIncident(ctx, input),
    resume: (gameId: string) => incidents.resume(ctx, gameId),
    correctCalledBall: (input: Parameters<typeof incidents.correctCalledBall>[1]) =>
      incidents.correctCalledBall(ctx, input),
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
    setIdentifiedSales: (input: Parameters<typeof halls.setIdentifiedSales>[1]) => halls.setIdentifiedSales(ctx, input),
    hallExists: (hallId: string) => halls.hallExists(ctx, hallId),
    currentGameOfHall: (hallId: string) => halls.currentGameOfHall(ctx, hallId),
    // Issue 18: the hall's Plan de Apuestas, licence options and derived bingo versions (BNG-52, CFG-17, BNG-102).
    hallRules: (hallId: string) => halls.hallRules(ctx, hallId),
    setBettingPlan: (input: Parameters<typeof halls.setBettingPlan>[1]) => halls.setBettingPlan(ctx, input),
    setLicenceTerms: (input: Parameters<typeof halls.setLicenceTerms>[1]) => halls.setLicenceTerms(ctx, input),
    setDerivedPlan: (input: Parameters<typeof halls.setDerivedPlan>[1]) => halls.setDerivedPlan(ctx, input),
    setFigurePlan: (input: Parameters<typeof halls.setFigurePlan>[1]) => halls.setFigurePlan(ctx, input),
    // Issue 18: posted bets and face values (BNG-40, GEN-18, CFG-16, BNG-10), automatic claims (CFG-21), the
    // purchase checks every sale path makes (purchases.ts), the hall's door (BNG-93, BNG-19), cards handed back (BNG-15).
    setSaleRules: (input: Parameters<typeof halls.setSaleRules>[1]) => halls.setSaleRules(ctx, input),
    setCallingTimes: (input: Parameters<typeof halls.setCallingTimes>[1]) => halls.setCallingTimes(ctx, input),
    postReducedMinimum: (input: Parameters<typeof halls.postReducedMinimum>[1]) => halls.postReducedMinimum(ctx, input),
    setAutoClaim: (input: Parameters<typeof halls.setAutoClaim>[1]) => halls.setAutoClaim(ctx, input),
    // CFG-7: a game's own limits, per channel where the plan sets them (game-limits.ts).
    setGameSaleLimits: (input: Parameters<typeof gameLimits.setGameSaleLimits>[1]) =>
      gameLimits.setGameSaleLimits(ctx, input),
    saleLimitsOfGame: (gameId: string) => gameLimits.saleLimitsOfGame(ctx.db, gameId),
    admitPurchaseWithin: (sql: Sql, input: purchases.PurchaseInput) => purchases.admitPurchase(ctx, sql, input),
    /** A hall's row read in the caller's transaction (a kiosk sale hands it to admitPurchaseWithin). */
    hallWithin: (sql: Sql, hallId: string) => hallById(sql, hallId),
    recordPurchaseWithin: (sql: Sql, input: Parameters<typeof purchases.recordPurchase>[2]) =>
      purchases.recordPurchase(ctx, sql, input),
    closeHallEntry: (input: Parameters<typeof purchases.closeHallEntry>[1]) => purchases.closeHallEntry(ctx, input),
    recordEntry: (input: Parameters<typeof purchases.recordEntry>[1]) => purchases.recordEntry(ctx, input),
    returnCards: (input: Parameters<typeof purchases.returnCards>[1]) => purchases.returnCards(ctx, input),
    playerOfCard: (cardId: string) => playerOfCard(ctx.db, cardId),
    /** Rebuild helpers for tests. */
    cardFromRows,
  }
}

export type BingoService = ReturnType<typeof createBingoService>
