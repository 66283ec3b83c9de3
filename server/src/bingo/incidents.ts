/**
 * Incidents (BNG-80 to BNG-86): a device failure suspends the game or moves it to manual draw, an irregularity
 * voids it with a full refund, and a wrong call or reader misread is corrected (the number on the ball prevails).
 */
import { DomainError } from '../shared/errors.ts'
import { GameAction, GameStatus, assertLegal } from './game.ts'
import { appendJournal } from '../shared/journal.ts'
import { emit, gameScope, hallOf, loadGame, rebuildCache, type BingoContext, type Tx } from './context.ts'
import { getGameState } from './game-state.ts'
import { isAllowed, type Role } from '../access/permissions.ts'
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

/**
 * Who declared an incident: the route's authenticated principal (never a name from the body), or the server
 * itself (`system`: a reader fault the draw server declares, a blower's disconnection).
 */
export interface Actor { kind: 'person' | 'device' | 'anonymous' | 'system'; id: string; name: string; role: string }
export const SYSTEM_ACTOR: Actor = Object.freeze({ kind: 'system', id: 'server', name: 'servidor', role: 'system' })

/** The second person's confirmation and the reason of an annulment (issue 15 point 4, BNG-97 "annul game"). */
export interface Annulment { reason: string; confirmedBy: Actor }

/** An annulment as the journal and the minutes keep it: both people and the reason. */
interface SignedAnnulment { reason: string; requestedBy: { id: string; name: string; role: string }; confirmedBy: { id: string; name: string; role: string } }

const person = (a: Actor) => ({ id: a.id, name: a.name, role: a.role })

/**
 * Issue 15 point 4: staff annul a game only as two people with a reason: the requester (the principal) and a
 * different, active floor manager or director who confirmed with their own password (checked by the route).
 * The server's own annulments (a reader fault, BNG-82) carry no second person.
 */
function twoPeople(by: Actor, annulment: Annulment | undefined): SignedAnnulment | null {
  if (by.kind === 'system') return null
  const refuse = (why: string) => new DomainError('SECOND_PERSON_REQUIRED', why, { rule: 'BNG-97' })
  if (!annulment) throw refuse('an annulment needs a reason and a second person\'s confirmation')
  const reason = annulment.reason.trim()
  if (reason.length < 5 || reason.length > 500) throw refuse('the reason of an annulment has 5 to 500 characters')
  const second = annulment.confirmedBy
  if (second.kind !== 'person') throw refuse('the second person must be a person with a username and password')
  if (second.id === by.id) throw refuse('the second person must be someone other than the requester')
  if (!isAllowed('game.annul.confirm', second.role as Role)) throw refuse(`a ${second.role} may not confirm an annulment (floor manager or director)`)
  return { reason, requestedBy: person(by), confirmedBy: person(second) }
}

async function recordIncident(ctx: BingoContext, tx: Tx, game: GameRow, kind: IncidentKind, outcome: string, note: string, by: Actor = SYSTEM_ACTOR, annulment: SignedAnnulment | null = null): Promise<void> {
  const at = ctx.now()
  await store.insertIncident(tx, { id: ctx.newId('inc'), sessionId: game.session_id, gameId: game.id, kind, outcome, note, rule: INCIDENT_RULES[kind], at })
  await appendJournal(tx, { at, type: 'incident', scope: gameScope(game), payload: { gameId: game.id, kind, outcome, note, rule: INCIDENT_RULES[kind], by: person(by), ...(annulment ?? {}) } })
}

/** Voids the game and refunds every sold card at full price (BNG-80, BNG-82, BNG-83, BNG-86). */
async function voidTx(ctx: BingoContext, tx: Tx, game: GameRow, reason: string, annulment: SignedAnnulment | null = null): Promise<void> {
  assertLegal(GameAction.Annul, game.status, game.id)
  const at = ctx.now()
  const cards = await store.soldCardRefs(tx, game.id)
  await store.refundSoldCards(tx, game.id)
  await store.voidAwardedPrizes(tx, game.id)
  await store.markGameVoid(tx, game.id, reason, at)
  if (annulment) await store.insertAnnulment(tx, { gameId: game.id, reason: annulment.reason, requestedBy: annulment.requestedBy, confirmedBy: annulment.confirmedBy, at })
  const signed = annulment ? { annulledBy: annulment.requestedBy, confirmedBy: annulment.confirmedBy, annulReason: annulment.reason } : {}
  const rec = await appendJournal(tx, { at, type: 'game.void', scope: gameScope(game), payload: { gameId: game.id, reason, refundedCards: cards.length, refundCents: cards.length * game.face_value_cents, serials: cards.map((c) => c.serial), rule: 'BNG-86', ...signed } })
  for (const h of ctx.deps.hooks ?? []) await h.gameVoided?.(tx, { game, at, scope: gameScope(game) })
  ctx.caches.delete(game.id)
  emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: rec.seq, reason: 'void' })
}

/** Declares an incident and applies the regulation's outcome for it. */
export async function declareIncident(ctx: BingoContext, input: { gameId: string; kind: IncidentKind; note?: string; correctedBall?: number; seq?: number; by?: Actor; annulment?: Annulment }): Promise<GameState> {
  const note = (input.note ?? '').slice(0, 2000)
  const by = input.by ?? SYSTEM_ACTOR
  await ctx.gameTx(input.gameId, async (tx) => {
    const game = await loadGame(tx, input.gameId)
    const { profile } = await hallOf(tx, game.hall_id)
    const balls = await store.calledBalls(tx, game.id)
    // Checked before anything changes: a refused annulment leaves the game as it was.
    const voids = input.kind === 'ball-irregularity' || input.kind === 'unresolved-suspension' || (input.kind === 'caller-error' && profile.callerError === 'annul')
    const signed = voids ? twoPeople(by, input.annulment) : null
    switch (input.kind) {
      case 'device-failure-before-first-ball': {
        if (balls.length > 0) throw new DomainError('ILLEGAL_TRANSITION', 'the first ball is out: continue by hand instead (BNG-81)', { rule: 'BNG-81' })
        assertLegal(GameAction.Suspend, game.status, game.id)
        await store.markGameSuspended(tx, game.id, game.status)
        await recordIncident(ctx, tx, game, input.kind, 'suspended', note, by)
        break
      }
      case 'unresolved-suspension': {
        if (game.status !== GameStatus.Suspended) throw new DomainError('ILLEGAL_TRANSITION', 'only a suspended game can be refunded for an unresolved failure (BNG-80)')
        await recordIncident(ctx, tx, game, input.kind, 'void-refund', note, by, signed)
        await voidTx(ctx, tx, game, 'unresolved-suspension', signed)
        break
      }
      case 'device-failure-after-first-ball': {
        if (balls.length === 0) throw new DomainError('ILLEGAL_TRANSITION', 'no ball is out yet: suspend the game instead (BNG-80)', { rule: 'BNG-80' })
        assertLegal(GameAction.SwitchToManual, game.status, game.id)
        if (game.draw_source === 'rng') {
          // Issue 15 point 4: in an RNG game the server is the device and its remaining balls are the committed
          // order. BNG-81's manual fallback would let staff pick the next balls, so play resumes from that order.
          await recordIncident(ctx, tx, game, input.kind, 'resume-committed-order', note, by)
          const rec = await appendJournal(tx, { at: ctx.now(), type: 'game.resumed', scope: gameScope(game), payload: { gameId: game.id, from: 'device-failure', nextSeq: balls.length + 1, drawSource: 'rng', rule: 'BNG-81' } })
          emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hall_id, seq: rec.seq, reason: 'resumed' })
          break
        }
        // A blower game's remaining balls are physical: they are entered by hand (BNG-81).
        await store.switchGameToManual(tx, game.id)
        await recordIncident(ctx, tx, game, input.kind, 'continue-manual-with-remaining-balls', note, by)
        break
      }
      case 'ball-irregularity': {
        await recordIncident(ctx, tx, game, input.kind, 'void-refund', note, by, signed)
        await voidTx(ctx, tx, game, 'ball-irregularity', signed)
        break
      }
      case 'caller-error': {
        if (profile.callerError === 'annul') {
          await recordIncident(ctx, tx, game, input.kind, 'void-refund', note, by, signed)
          await voidTx(ctx, tx, game, 'caller-error', signed)
        } else {
          // BNG-83 (Cantabria): the ball prevails; the call is corrected and play goes on. A manually entered
          // ball may be replaced by the one really drawn, while no prize has been awarded since.
          if (input.correctedBall !== undefined) await correctBallTx(ctx, tx, game, input.correctedBall, note, 'caller-error', by)
          else await recordIncident(ctx, tx, game, input.kind, 'call-corrected-ball-prevails', note, by)
        }
        break
      }
      case 'reader-misread': {
        if (input.correctedBall === undefined) throw new DomainError('VALIDATION_FAILED', 'a reader misread needs the number on the ball (correctedBall)', { field: 'correctedBall' })
        await correctBallTx(ctx, tx, game, input.correctedBall, note, 'reader-misread', by)
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

async function correctBallTx(ctx: BingoContext, tx: Tx, game: GameRow, ball: number, note: string, kind: IncidentKind, by: Actor): Promise<void> {
  assertLegal(GameAction.CorrectBall, game.status, game.id)
  const last = await store.lastBall(tx, game.id)
  if (!last) throw new DomainError('ILLEGAL_TRANSITION', 'no ball to correct')
  if (last.source === 'rng') throw new DomainError('ILLEGAL_TRANSITION', 'an RNG ball is what it is: correct the announcement, not the ball')
  if ((await store.verifiedClaimCountFrom(tx, game.id, last.seq)) > 0) throw new DomainError('ILLEGAL_TRANSITION', 'a prize was verified after this ball: the error can no longer be corrected (BNG-83)', { rule: 'BNG-83' })
  if (!Number.isInteger(ball) || ball < 1 || ball > game.ball_count) throw new DomainError('BALL_OUT_OF_RANGE', `ball ${ball} is outside 1..${game.ball_count}`)
  if (await store.isBallCalled(tx, game.id, ball)) throw new DomainError('BALL_ALREADY_DRAWN', `ball ${ball} was already drawn`)
  await store.replaceBall(tx, game.id, last.seq, ball)
  await store.deleteSilentWinsAt(tx, game.id, last.seq)
  await recordIncident(ctx, tx, game, kind, `ball-corrected:${last.ball}->${ball}`, note, by)
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
