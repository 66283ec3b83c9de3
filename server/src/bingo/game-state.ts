/**
 * Reads of a game outside any transaction: the state every screen shows, the draw proof once the game has
 * ended, a card, the prizes and the undeclared wins kept for the minutes.
 */
import { FIGURE_NAMES, figureKind } from './patterns.ts'
import { figuresOfGame } from './store/figures.ts'
import type { DrawProof } from '../shared/draw-proof.ts'
import { buildDrawProofV2, isoOfUnixSeconds, type DrawProofV2 } from '../shared/draw-proof-v2.ts'
import { beaconKeyOf, beaconStateOf, ensureBeacon, isV2, seedOf } from './draw-beacon.ts'
import { DomainError } from '../shared/errors.ts'
import { GameStatus, compareBytes, timesRequiredOf, type ClaimKind } from './game.ts'
import { chosenLayoutOf } from './modalities.ts'
import type { CardLayout } from './card.ts'
import { NO_EXTRAS, type GameExtras } from './game-extras.ts'
import { findCard, gameScope, loadGame, type BingoContext } from './context.ts'
import { calledBalls, calledBallsWithSource, silentWinsOfGame } from './store/balls.ts'
import { type PrizeWithSerial, claimsWithNumbers, prizesOfGame, prizesWithSerials } from './store/claims.ts'
import { gameSeries, lastJournalSeqOfScope } from './store/games.ts'
import { hallById } from './store/halls.ts'
import { annulmentOfGame, latestIncidentOfGame } from './store/incidents.ts'
import { issuedSerials, soldRuns } from './store/sales.ts'
import { seriesCode } from './store/series.ts'
import { gameSaleLimits } from './store/sale-limits.ts'
import type { GameState, PublicWinner, SoldCard } from './types.ts'
import { postedBets } from './halls.ts'
import type { HallRuleSettings } from './betting-plan.ts'
import { getProfile } from '../shared/profile.ts'

const ENDED: readonly GameStatus[] = [GameStatus.Finished, GameStatus.Void]

export async function getGameState(ctx: BingoContext, gameId: string): Promise<GameState> {
  const { db, deps } = ctx
  const game = await loadGame(db, gameId)
  const hall = (await hallById(db, game.hallId))!
  const balls = await calledBalls(db, gameId)
  const series = await gameSeries(db, gameId)
  const claims = await claimsWithNumbers(db, gameId)
  const prizes = await prizesOfGame(db, gameId)
  const prizeOf = new Map(prizes.map((p) => [`${p.cardId}:${p.kind}`, p]))
  const winners: PublicWinner[] = []
  const seen = new Set<string>()
  for (const c of claims) {
    if (c.status !== 'verified') continue
    const key = `${c.cardId}:${c.kind}`
    if (seen.has(key)) continue
    seen.add(key)
    const p = prizeOf.get(key)
    winners.push({
      kind: c.kind,
      serial: c.serial,
      cardId: c.cardId!,
      rows: JSON.parse(c.numbers ?? '[]'),
      atBall: c.atBall,
      amountCents: p ? p.amountCents : null,
      status: p ? (p.status === 'paid' ? 'paid' : 'awarded') : 'verified',
    })
  }
  const seq = await lastJournalSeqOfScope(db, gameScope(game))
  const annulled = game.status === GameStatus.Void ? await annulmentOfGame(db, gameId) : undefined
  const incident = await latestIncidentOfGame(db, gameId)
  const beforeClose = game.status === GameStatus.Announced || game.status === GameStatus.OnSale
  const soldRanges = beforeClose ? null : await soldRuns(db, gameId)
  let extras: GameExtras = NO_EXTRAS
  for (const h of deps.hooks ?? []) if (h.gameState) extras = { ...extras, ...(await h.gameState(db, game)) }
  return {
    ...extras,
    gameId,
    hallId: game.hallId,
    hallName: hall.name,
    sessionId: game.sessionId,
    orderNo: game.orderNo,
    status: game.status,
    profileId: hall.profileId,
    currency: hall.currency,
    faceValueCents: game.faceValueCents,
    ballCount: game.ballCount,
    cardsSold: game.cardsSold,
    totalCents: game.cardsSold * game.faceValueCents,
    linePoolCents: game.linePoolCents,
    bingoPoolCents: game.bingoPoolCents,
    lineClosed: game.lineClosed,
    window: game.windowKind,
    drawSource: game.drawSource,
    commitment: game.commitment,
    balls,
    lastBall: balls.length ? balls[balls.length - 1] : null,
    series: series.map((s) => ({
      code: s.code,
      position: s.position,
      from: s.startCardNo,
      to: s.endCardNo,
      maxCardNo: s.maxCardNo,
      cardCount: s.cardCount,
    })),
    soldRanges,
    chosenNumbers: chosenNumbersOfGame(game.layout),
    bets: postedBets(getProfile(hall.profileId)!, JSON.parse(hall.settings || '{}') as HallRuleSettings),
    gameBets: await gameSaleLimits(db, gameId),
    winners,
    figures: (await figuresOfGame(db, gameId)).map((f) => ({
      kind: figureKind(f.figure),
      figure: f.figure,
      name: FIGURE_NAMES[f.figure],
      shareBp: f.shareBp,
      poolCents: f.poolCents,
      awarded: f.awardedAt !== null,
    })),
    rejectedClaims: claims
      .filter((c) => c.status === 'rejected')
      .map((c) => ({ serial: c.serial, kind: c.kind, reason: c.reason ?? '', atBall: c.atBall })),
    isLastGame: game.isLastGame,
    voidReason: game.voidReason,
    seq,
    salesDigest: game.salesDigest,
    closedAt: isV2(game) ? isoOfUnixSeconds(Number(game.closedAtUnix)) : null,
    beacon: beaconStateOf(game),
    annulment: annulled ? { reason: annulled.reason, at: annulled.createdAt } : null,
    incident: incident
      ? {
          at: incident.createdAt,
          kind: incident.kind,
          outcome: incident.outcome,
          note: incident.note,
          rule: incident.rule,
        }
      : null,
    times: {
      createdAt: game.createdAt,
      salesOpenedAt: game.salesOpenedAt,
      salesClosedAt: game.salesClosedAt,
      firstBallAt: game.firstBallAt,
      finishedAt: game.finishedAt,
    },
  }
}

/**
 * BNG-98 / CFG-32: the universe, the count of numbers the buyer chooses and how many of them drawn make the bingo,
 * for the counter's screen to ask for them; null for a game of printed cards.
 */
export function chosenNumbersOfGame(layoutJson: string): NonNullable<GameState['chosenNumbers']> | null {
  const terms = chosenLayoutOf(JSON.parse(layoutJson) as CardLayout)
  return terms ? { ...terms, timesRequired: timesRequiredOf(layoutJson) ?? terms.picks } : null
}

type ProofExtras = { status: string; drawSources: string[]; entropySource: string }

/**
 * DESIGN.md draw proof: only once the game has ended, so the seed is never revealed while it matters. A game closed
 * under bolillo-draw-v2 gets the v2 proof (point 6); a game closed under v1 keeps its v1 proof.
 */
export async function getProof(ctx: BingoContext, gameId: string): Promise<(DrawProofV2 | DrawProof) & ProofExtras> {
  const { db, deps } = ctx
  let game = await loadGame(db, gameId)
  if (!ENDED.includes(game.status))
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      `the proof of game ${gameId} is published when the game ends (it is ${game.status})`,
    )
  const balls = await calledBallsWithSource(db, gameId)
  const serials = (await issuedSerials(db, gameId)).sort(compareBytes)
  const rngBalls = balls.filter((b) => b.source === 'rng').map((b) => Number(b.ball))
  const extras: ProofExtras = {
    entropySource: game.entropySource ?? deps.entropy.name,
    status: game.status,
    drawSources: [...new Set(balls.map((b) => b.source))],
  }
  if (isV2(game)) {
    // A game that ended before its first ball (void, or drawn by hand) still gets its round, so the proof is complete.
    if (!game.beaconRandomness) {
      await ensureBeacon(ctx, gameId)
      game = await loadGame(db, gameId)
    }
    const proof = buildDrawProofV2({
      seed: seedOf(ctx, game),
      gameId,
      serials,
      closedAt: Number(game.closedAtUnix),
      beaconKey: beaconKeyOf(game),
      beacon: {
        round: Number(game.beaconRound),
        signature: game.beaconSignature!,
        randomness: game.beaconRandomness!,
      },
      ballCount: game.ballCount,
      calledCount: 0,
    })
    // The balls as called, so that verify-draw checks what the hall saw, not what the order says.
    return { ...proof, balls: rngBalls, ...extras }
  }
  if (game.seedSealed) {
    // Announced under v2 but ended before its close of sales: no draw took place; the seed is shown against C.
    return {
      version: 'bolillo-draw-v2',
      gameId,
      commitment: game.commitment,
      seed: seedOf(ctx, game).toString('hex'),
      salesDigest: null,
      closedAt: null,
      beacon: null,
      ballCount: game.ballCount,
      balls: [],
      ...extras,
    } as unknown as DrawProofV2 & ProofExtras
  }
  return {
    version: 'bolillo-draw-v1',
    gameId,
    commitment: game.commitment,
    seed: game.seedHex,
    salesDigest: game.salesDigest ?? '',
    externalEntropy: game.externalEntropy ?? '',
    ballCount: game.ballCount,
    balls: rngBalls,
    soldSerials: serials,
    ...extras,
  }
}

export async function getCard(
  ctx: BingoContext,
  gameId: string,
  serial: string,
): Promise<(SoldCard & { status: string; gameId: string }) | undefined> {
  const card = await findCard(ctx.db, gameId, { serial })
  if (!card) return undefined
  const code = await seriesCode(ctx.db, card.seriesId)
  return {
    id: card.id,
    serial: card.serial,
    seriesCode: code ?? '',
    cardNo: card.cardNo,
    rows: JSON.parse(card.numbers),
    status: card.status,
    gameId,
  }
}

export function listPrizes(ctx: BingoContext, gameId: string): Promise<PrizeWithSerial[]> {
  return prizesWithSerials(ctx.db, gameId)
}

export function silentWins(
  ctx: BingoContext,
  gameId: string,
): Promise<Array<{ serial: string; kind: ClaimKind; atBall: number }>> {
  return silentWinsOfGame(ctx.db, gameId)
}
