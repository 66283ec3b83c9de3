/**
 * Reads of a game outside any transaction: the state every screen shows, the draw proof once the game has
 * ended, a card, the prizes and the undeclared wins kept for the minutes.
 */
import type { DrawProof } from '../shared/draw-proof.ts'
import { buildDrawProofV2, isoOfUnixSeconds, type DrawProofV2 } from '../shared/draw-proof-v2.ts'
import { beaconKeyOf, beaconStateOf, ensureBeacon, isV2, seedOf } from './draw-beacon.ts'
import { DomainError } from '../shared/errors.ts'
import { GameStatus, compareBytes, type ClaimKind } from './game.ts'
import { NO_EXTRAS, type GameExtras } from './game-extras.ts'
import { findCard, gameScope, loadGame, type BingoContext } from './context.ts'
import { calledBalls, calledBallsWithSource, silentWinsOfGame } from './store/balls.ts'
import { type PrizeRow, claimsWithNumbers, prizesOfGame, prizesWithSerials } from './store/claims.ts'
import { gameSeries, lastJournalSeqOfScope } from './store/games.ts'
import { hallById } from './store/halls.ts'
import { annulmentOfGame, latestIncidentOfGame } from './store/incidents.ts'
import { issuedSerials, soldRuns } from './store/sales.ts'
import { seriesCode } from './store/series.ts'
import type { GameState, PublicWinner, SoldCard } from './types.ts'
import { postedBets } from './halls.ts'
import type { HallRuleSettings } from './betting-plan.ts'
import { getProfile } from '../shared/profile.ts'

const ENDED: readonly GameStatus[] = [GameStatus.Finished, GameStatus.Void]

export async function getGameState(ctx: BingoContext, gameId: string): Promise<GameState> {
  const { db, deps } = ctx
  const game = await loadGame(db, gameId)
  const hall = (await hallById(db, game.hall_id))!
  const balls = await calledBalls(db, gameId)
  const series = await gameSeries(db, gameId)
  const claims = await claimsWithNumbers(db, gameId)
  const prizes = await prizesOfGame(db, gameId)
  const prizeOf = new Map(prizes.map((p) => [`${p.card_id}:${p.kind}`, p]))
  const winners: PublicWinner[] = []
  const seen = new Set<string>()
  for (const c of claims) {
    if (c.status !== 'verified') continue
    const key = `${c.card_id}:${c.kind}`
    if (seen.has(key)) continue
    seen.add(key)
    const p = prizeOf.get(key)
    winners.push({
      kind: c.kind,
      serial: c.serial,
      cardId: c.card_id!,
      rows: JSON.parse(c.numbers ?? '[]'),
      atBall: Number(c.at_ball),
      amountCents: p ? Number(p.amount_cents) : null,
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
    hallId: game.hall_id,
    hallName: hall.name,
    sessionId: game.session_id,
    orderNo: game.order_no,
    status: game.status,
    profileId: hall.profile_id,
    currency: hall.currency,
    faceValueCents: game.face_value_cents,
    ballCount: game.ball_count,
    cardsSold: game.cards_sold,
    totalCents: game.cards_sold * game.face_value_cents,
    linePoolCents: game.line_pool_cents,
    bingoPoolCents: game.bingo_pool_cents,
    lineClosed: Boolean(game.line_closed),
    window: game.window_kind,
    drawSource: game.draw_source,
    commitment: game.commitment,
    balls,
    lastBall: balls.length ? balls[balls.length - 1] : null,
    series: series.map((s) => ({
      code: s.code,
      position: s.position,
      from: s.start_card_no,
      to: s.end_card_no,
      maxCardNo: s.max_card_no,
      cardCount: s.card_count,
    })),
    soldRanges,
    bets: postedBets(getProfile(hall.profile_id)!, JSON.parse(hall.settings || '{}') as HallRuleSettings),
    winners,
    rejectedClaims: claims
      .filter((c) => c.status === 'rejected')
      .map((c) => ({ serial: c.serial, kind: c.kind, reason: c.reason ?? '', atBall: Number(c.at_ball) })),
    isLastGame: Boolean(game.is_last_game),
    voidReason: game.void_reason,
    seq,
    salesDigest: game.sales_digest,
    closedAt: isV2(game) ? isoOfUnixSeconds(Number(game.closed_at_unix)) : null,
    beacon: beaconStateOf(game),
    annulment: annulled ? { reason: annulled.reason, at: annulled.created_at } : null,
    incident: incident
      ? {
          at: incident.created_at,
          kind: incident.kind,
          outcome: incident.outcome,
          note: incident.note,
          rule: incident.rule,
        }
      : null,
    times: {
      createdAt: game.created_at,
      salesOpenedAt: game.sales_opened_at,
      salesClosedAt: game.sales_closed_at,
      firstBallAt: game.first_ball_at,
      finishedAt: game.finished_at,
    },
  }
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
    entropySource: game.entropy_source ?? deps.entropy.name,
    status: game.status,
    drawSources: [...new Set(balls.map((b) => b.source))],
  }
  if (isV2(game)) {
    // A game that ended before its first ball (void, or drawn by hand) still gets its round, so the proof is complete.
    if (!game.beacon_randomness) {
      await ensureBeacon(ctx, gameId)
      game = await loadGame(db, gameId)
    }
    const proof = buildDrawProofV2({
      seed: seedOf(ctx, game),
      gameId,
      serials,
      closedAt: Number(game.closed_at_unix),
      beaconKey: beaconKeyOf(game),
      beacon: {
        round: Number(game.beacon_round),
        signature: game.beacon_signature!,
        randomness: game.beacon_randomness!,
      },
      ballCount: game.ball_count,
      calledCount: 0,
    })
    // The balls as called, so that verify-draw checks what the hall saw, not what the order says.
    return { ...proof, balls: rngBalls, ...extras }
  }
  if (game.seed_sealed) {
    // Announced under v2 but ended before its close of sales: no draw took place; the seed is shown against C.
    return {
      version: 'bolillo-draw-v2',
      gameId,
      commitment: game.commitment,
      seed: seedOf(ctx, game).toString('hex'),
      salesDigest: null,
      closedAt: null,
      beacon: null,
      ballCount: game.ball_count,
      balls: [],
      ...extras,
    } as unknown as DrawProofV2 & ProofExtras
  }
  return {
    version: 'bolillo-draw-v1',
    gameId,
    commitment: game.commitment,
    seed: game.seed_hex,
    salesDigest: game.sales_digest ?? '',
    externalEntropy: game.external_entropy ?? '',
    ballCount: game.ball_count,
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
  const code = await seriesCode(ctx.db, card.series_id)
  return {
    id: card.id,
    serial: card.serial,
    seriesCode: code ?? '',
    cardNo: Number(card.card_no),
    rows: JSON.parse(card.numbers),
    status: card.status,
    gameId,
  }
}

export function listPrizes(ctx: BingoContext, gameId: string): Promise<Array<PrizeRow & { serial: string }>> {
  return prizesWithSerials(ctx.db, gameId)
}

export function silentWins(
  ctx: BingoContext,
  gameId: string,
): Promise<Array<{ serial: string; kind: ClaimKind; atBall: number }>> {
  return silentWinsOfGame(ctx.db, gameId)
}
