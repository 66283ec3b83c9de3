/**
 * Incidents (BNG-80 to BNG-86): a device failure suspends the game or moves it to manual draw, an irregularity
 * voids it with a full refund, and a wrong call or reader misread is corrected (the number on the ball prevails).
 */
import { DomainError } from '../shared/errors.ts'
import { GameAction, GameStatus, assertLegal } from './game.ts'
import { appendJournal } from '../shared/journal.ts'
import { emit, gameScope, hallOf, loadGame, rebuildCache, type BingoContext, type Tx } from './context.ts'
import { getGameState } from './game-state.ts'
import * as store from './store.ts'
import type { GameRow } from './store.ts'
import type { GameState } from './service.ts'

const INCIDENT_RULES = {
  'device-failure-before-first-ball': 'BNG-80',
  'device-failure-after-first-ball': 'BNG-81',
  'ball-irregularity': 'BNG-82',
  'caller-error': 'BNG-83',
  'unresolved-suspension': 'BNG-80',
  // BNG-83 (Cantabria: with an automatic reader the Jefe de Mesa corrects it): the number on the ball prevails.
  'reader-misread': 'BNG-83',
} as const
export type IncidentKind = keyof typeof INCIDENT_RULES

async function recordIncident(ctx: BingoContext, tx: Tx, game: GameRow, kind: IncidentKind, outcome: string, note: string): Promise<void> {
  const at = ctx.now()
  await store.insertIncident(tx, { id: ctx.newId('inc'), sessionId: game.session_id, gameId: game.id, kind, outcome, note, rule: INCIDENT_RULES[kind], at })
  await appendJournal(tx, { at, type: 'incident', scope: gameScope(game), payload: { gameId: game.id, kind, outcome, note, rule: INCIDENT_RULES[kind] } })
}

/** Voids the game and refunds every sold card at full price (BNG-80, BNG-82, BNG-83, BNG-86). */
async function voidTx(ctx: BingoContext, tx: Tx, game: GameRow, reason: string): Promise<void> {
  assertLegal(GameAction.Annul, game.status, game.id)
  const at = ctx.now()
  const cards = await store.soldCardRefs(tx, game.id)
  await store.refundSoldCards(tx, game.id)
  await store.voidAwardedPrizes(tx, game.id)
  await store.markGameVoid(tx, game.id, reason, at)
  const rec = await appendJournal(tx, { at, type: 'game.void', scope: gameScope(game), payload: { gameId: game.id, reason, refundedCards: cards.length, refundCents: cards.length * game.face_value_cents, serials: cards.map((c) => c.serial), rule: 'BNG-86' } })
  for (const h of ctx.deps.hooks ?? []) await h.gameVoided?.(tx, { game, at, scope: gameScope(game) })
  ctx.caches.delete(game.id)
  emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: rec.seq, reason: 'void' })
}

/** Declares an incident and applies the regulation's outcome for it. */
export async function declareIncident(ctx: BingoContext, input: { gameId: string; kind: IncidentKind; note?: string; correctedBall?: number; seq?: number }): Promise<GameState> {
  const note = (input.note ?? '').slice(0, 2000)
  await ctx.gameTx(input.gameId, async (tx) => {
    const game = await loadGame(tx, input.gameId)
    const { profile } = await hallOf(tx, game.hall_id)
    const balls = await store.calledBalls(tx, game.id)
    switch (input.kind) {
      case 'device-failure-before-first-ball': {
        if (balls.length > 0) throw new DomainError('ILLEGAL_TRANSITION', 'the first ball is out: continue by hand instead (BNG-81)', { rule: 'BNG-81' })
        assertLegal(GameAction.Suspend, game.status, game.id)
        await store.markGameSuspended(tx, game.id, game.status)
        await recordIncident(ctx, tx, game, input.kind, 'suspended', note)
        break
      }
      case 'unresolved-suspension': {
        if (game.status !== GameStatus.Suspended) throw new DomainError('ILLEGAL_TRANSITION', 'only a suspended game can be refunded for an unresolved failure (BNG-80)')
        await recordIncident(ctx, tx, game, input.kind, 'void-refund', note)
        await voidTx(ctx, tx, game, 'unresolved-suspension')
        break
      }
      case 'device-failure-after-first-ball': {
        if (balls.length === 0) throw new DomainError('ILLEGAL_TRANSITION', 'no ball is out yet: suspend the game instead (BNG-80)', { rule: 'BNG-80' })
        assertLegal(GameAction.SwitchToManual, game.status, game.id)
        await store.switchGameToManual(tx, game.id)
        await recordIncident(ctx, tx, game, input.kind, 'continue-manual-with-remaining-balls', note)
        break
      }
      case 'ball-irregularity': {
        await recordIncident(ctx, tx, game, input.kind, 'void-refund', note)
        await voidTx(ctx, tx, game, 'ball-irregularity')
        break
      }
      case 'caller-error': {
        if (profile.callerError === 'annul') {
          await recordIncident(ctx, tx, game, input.kind, 'void-refund', note)
          await voidTx(ctx, tx, game, 'caller-error')
        } else {
          // BNG-83 (Cantabria): the ball prevails; the call is corrected and play goes on. A manually entered
          // ball may be replaced by the one really drawn, while no prize has been awarded since.
          if (input.correctedBall !== undefined) await correctBallTx(ctx, tx, game, input.correctedBall, note)
          else await recordIncident(ctx, tx, game, input.kind, 'call-corrected-ball-prevails', note)
        }
        break
      }
      case 'reader-misread': {
        if (input.correctedBall === undefined) throw new DomainError('VALIDATION_FAILED', 'a reader misread needs the number on the ball (correctedBall)', { field: 'correctedBall' })
        await correctBallTx(ctx, tx, game, input.correctedBall, note, 'reader-misread')
        break
      }
      default: {
        const _never: never = input.kind
        throw new DomainError('VALIDATION_FAILED', `unknown incident ${String(_never)}`)
      }
    }
  })
  return getGameState(ctx, input.gameId)
}

async function correctBallTx(ctx: BingoContext, tx: Tx, game: GameRow, ball: number, note: string, kind: IncidentKind = 'caller-error'): Promise<void> {
  assertLegal(GameAction.CorrectBall, game.status, game.id)
  const last = await store.lastBall(tx, game.id)
  if (!last) throw new DomainError('ILLEGAL_TRANSITION', 'no ball to correct')
  if (last.source === 'rng') throw new DomainError('ILLEGAL_TRANSITION', 'an RNG ball is what it is: correct the announcement, not the ball')
  if ((await store.verifiedClaimCountFrom(tx, game.id, last.seq)) > 0) throw new DomainError('ILLEGAL_TRANSITION', 'a prize was verified after this ball: the error can no longer be corrected (BNG-83)', { rule: 'BNG-83' })
  if (!Number.isInteger(ball) || ball < 1 || ball > game.ball_count) throw new DomainError('BALL_OUT_OF_RANGE', `ball ${ball} is outside 1..${game.ball_count}`)
  if (await store.isBallCalled(tx, game.id, ball)) throw new DomainError('BALL_ALREADY_DRAWN', `ball ${ball} was already drawn`)
  await store.replaceBall(tx, game.id, last.seq, ball)
  await store.deleteSilentWinsAt(tx, game.id, last.seq)
  await recordIncident(ctx, tx, game, kind, `ball-corrected:${last.ball}->${ball}`, note)
  await appendJournal(tx, { at: ctx.now(), type: 'ball.corrected', scope: gameScope(game), payload: { gameId: game.id, seq: last.seq, from: last.ball, to: ball, source: last.source, kind, rule: 'BNG-83' } })
  // Re-evaluate the corrected ball: replay every ball, then record who the corrected one made a winner.
  const fresh = await loadGame(tx, game.id)
  const { cache: { cards }, last: found } = await rebuildCache(ctx, tx, fresh)
  const lineOpen = !fresh.line_closed
  for (const idx of lineOpen ? found.lines : []) await store.insertSilentWin(tx, game.id, cards[idx].id, 'line', last.seq)
  for (const idx of found.bingos) await store.insertSilentWin(tx, game.id, cards[idx].id, 'bingo', last.seq)
  emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: await store.lastJournalSeq(tx), reason: 'ball_corrected', ball })
}

export async function resume(ctx: BingoContext, gameId: string): Promise<GameState> {
  await ctx.gameTx(gameId, async (tx) => {
    const game = await loadGame(tx, gameId)
    assertLegal(GameAction.Resume, game.status, gameId)
    const back = game.suspended_from ?? GameStatus.OnSale
    await store.markGameResumed(tx, gameId, back)
    const rec = await appendJournal(tx, { at: ctx.now(), type: 'game.resumed', scope: gameScope(game), payload: { gameId, to: back, rule: 'BNG-80' } })
    emit(tx, { type: 'game:changed', gameId, hallId: game.hall_id, seq: rec.seq, reason: 'resumed' })
  })
  return getGameState(ctx, gameId)
}
