/**
 * Incidents (BNG-80 to BNG-86): a device failure suspends the game or moves it to manual draw, an irregularity
 * voids it with a full refund, and a wrong call or reader misread is corrected (the number on the ball prevails).
 */
import { DomainError } from '../shared/errors.ts'
import { GameAction, GameStatus, assertLegal, timesRequiredOf } from './game.ts'
import { appendJournal } from '../shared/journal.ts'
import { emit, gameScope, hallCameraOf, hallOf, loadGame, rebuildCache, type BingoContext, type Tx } from './context.ts'
import { getGameState } from './game-state.ts'
import { isAllowed, type Role } from '../access/permissions.ts'
import {
  calledBalls,
  lastBall,
  ballAt,
  isBallCalled,
  replaceBall,
  deleteSilentWinsFrom,
  insertSilentWin,
} from './store/balls.ts'
import { paidBonusPrizesOfGame, paidPrizesOfGame, voidAwardedPrizes, verifiedClaimCountFrom } from './store/claims.ts'
import {
  type Game,
  markGameVoid,
  markGameSuspended,
  switchGameToManual,
  lastJournalSeq,
  markGameResumed,
} from './store/games.ts'
import { insertIncident, insertAnnulment, latestIncidentOfGame } from './store/incidents.ts'
import type { HallRuleSettings } from './betting-plan.ts'
import { secondsToWait } from './calling-times.ts'
import { soldCardRefs, refundSoldCards } from './store/sales.ts'
import { createDetector } from './detector.ts'
import { cardsFormingAt, figureKind } from './patterns.ts'
import { figuresOfGame } from './store/figures.ts'
import type { GameState } from './types.ts'
import { incidentSignatures, type IncidentSignatures } from './incident-signatures.ts'

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
export interface Actor {
  kind: 'person' | 'device' | 'anonymous' | 'system'
  id: string
  name: string
  role: string
}
export const SYSTEM_ACTOR: Actor = Object.freeze({ kind: 'system', id: 'server', name: 'servidor', role: 'system' })

/** The second person's confirmation and the reason of an annulment (issue 15 point 4, BNG-97 "annul game"). */
export interface Annulment {
  reason: string
  confirmedBy: Actor
}

/** An annulment as the journal and the minutes keep it: both people and the reason. */
interface SignedAnnulment {
  reason: string
  requestedBy: { id: string; name: string; role: string }
  confirmedBy: { id: string; name: string; role: string }
}

const person = (a: Actor) => ({ id: a.id, name: a.name, role: a.role })

/**
 * Issue 15 point 4: staff annul a game only as two people with a reason: the requester (the principal) and a
 * different, active floor manager or director who confirmed with their own password (checked by the route).
 * The server's own annulments (a reader fault, BNG-82) carry no second person.
 */
function twoPeople(by: Actor, annulment: Annulment | undefined): SignedAnnulment | null {
  if (by.kind === 'system') return null
  const refuse = (why: string) => new DomainError('SECOND_PERSON_REQUIRED', why, { rule: 'BNG-97' })
  if (!annulment) throw refuse("an annulment needs a reason and a second person's confirmation")
  const reason = annulment.reason.trim()
  if (reason.length < 5 || reason.length > 500) throw refuse('the reason of an annulment has 5 to 500 characters')
  const second = annulment.confirmedBy
  if (second.kind !== 'person') throw refuse('the second person must be a person with a username and password')
  if (second.id === by.id) throw refuse('the second person must be someone other than the requester')
  if (!isAllowed('game.annul.confirm', second.role as Role))
    throw refuse(`a ${second.role} may not confirm an annulment (floor manager or director)`)
  return { reason, requestedBy: person(by), confirmedBy: person(second) }
}

/**
 * BNG-34 / GEN-29 / GEN-31: the CCTV camera whose footage shows an incident and, when staff give it, the reference
 * of the recording to review. Optional: GEN-31 is a design note ("should"), and GEN-29 only makes the footage the
 * last resort of a dispute. The camera defaults to the hall's camera on the ball exit point (BNG-34, hall setting
 * `ballCameraId`), so every incident of a hall that registered it names it, with the incident's time.
 */
export interface IncidentCctv {
  cameraId?: string
  cctvRef?: string
}

/** Who declared and who signed an incident entry (BNG-74), checked before anything changed; the footage (BNG-34). */
interface Signed {
  by: Actor
  signatures: IncidentSignatures | null
  cctv?: { cameraId: string | null; cctvRef: string | null }
}

const CCTV_ID = /^[\p{L}\p{N} ._:/#-]{1,80}$/u
function checkCctv(
  input: IncidentCctv | undefined,
  hallCamera: string | null,
): { cameraId: string | null; cctvRef: string | null } {
  const cameraId = input?.cameraId?.trim() || hallCamera
  const cctvRef = input?.cctvRef?.trim() || null
  if (cameraId && !CCTV_ID.test(cameraId))
    throw new DomainError('VALIDATION_FAILED', 'cameraId has 1 to 80 letters, digits or . _ : / # -', {
      field: 'cameraId',
      rule: 'GEN-31',
    })
  if (cctvRef && (cctvRef.length > 200 || [...cctvRef].some((ch) => ch.charCodeAt(0) < 32)))
    throw new DomainError('VALIDATION_FAILED', 'cctvRef has at most 200 printable characters', {
      field: 'cctvRef',
      rule: 'GEN-29',
    })
  if (cctvRef && !cameraId)
    throw new DomainError('VALIDATION_FAILED', 'a recording reference names its camera (cameraId)', {
      field: 'cameraId',
      rule: 'GEN-31',
    })
  return { cameraId, cctvRef }
}

async function recordIncident(
  ctx: BingoContext,
  tx: Tx,
  game: Game,
  kind: IncidentKind,
  outcome: string,
  note: string,
  signed: Signed = { by: SYSTEM_ACTOR, signatures: null },
  annulment: SignedAnnulment | null = null,
): Promise<void> {
  const at = ctx.now()
  const { by, signatures } = signed
  const cctv = signed.cctv ?? checkCctv(undefined, await hallCameraOf(tx, game.hallId))
  await insertIncident(tx, {
    id: ctx.newId('inc'),
    sessionId: game.sessionId,
    gameId: game.id,
    kind,
    outcome,
    note,
    rule: INCIDENT_RULES[kind],
    at,
    cameraId: cctv.cameraId,
    cctvRef: cctv.cctvRef,
  })
  // BNG-74: both signers' names go with the entry into the journal, and from there into the minutes.
  const rec = await appendJournal(tx, {
    at,
    type: 'incident',
    scope: gameScope(game),
    payload: {
      gameId: game.id,
      kind,
      outcome,
      note,
      rule: INCIDENT_RULES[kind],
      by: person(by),
      ...(signatures ? { signedBy: signatures, signatureRule: 'BNG-74' } : {}),
      ...(cctv.cameraId ? { cctv: { ...cctv, rule: 'BNG-34' } } : {}),
      ...(annulment ?? {}),
    },
  })
  // Issue 17: every screen hears of it at once (a suspension or a switch to the blower changes no ball).
  ctx.caches.delete(game.id)
  emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hallId, seq: rec.seq, reason: 'incident' })
}

/** Voids the game and refunds every sold card at full price (BNG-80, BNG-82, BNG-83, BNG-86). */
async function voidTx(
  ctx: BingoContext,
  tx: Tx,
  game: Game,
  reason: string,
  annulment: SignedAnnulment | null = null,
): Promise<void> {
  assertLegal(GameAction.Annul, game.status, game.id)
  // Prizes already paid while the game played: a virtual card's line and its bonus prizes are credited to its
  // terminal once awarded (issue 27); a paper card's are paid only after the game ends, when it is no longer annulled.
  const paidPrizes = [...(await paidPrizesOfGame(tx, game.id)), ...(await paidBonusPrizesOfGame(tx, game.id))]
  // Issue 13 point 6, BNG-51 (002 §6.1.8.1: claims about errors in announcing numbers "no serán consideradas" once the
  // prizes are paid): a caller's error does not annul a game that has paid a prize (refused, not reversed).
  if (reason === 'caller-error' && paidPrizes.length > 0)
    throw new DomainError(
      'ANNUL_AFTER_PAYOUT',
      `${paidPrizes.length} prize(s) of game ${game.orderNo} were already paid: it cannot be annulled (BNG-51)`,
      { paidPrizes: paidPrizes.length, rule: 'BNG-51' },
    )
  // BNG-82 (004 Bingo II.1.b: on a missing, duplicated or defective ball or any irregularity of the balls or the
  // mechanism "se suspenderá la partida y se dará por finalizada, procediéndose a reintegrar a los jugadores ... el
  // importe íntegro" of their cards) and BNG-80 (an unresolved failure: the same full refund): a prize paid during
  // the game does not stop the annulment. The decree orders the full refund of every card and says nothing of taking
  // back a prize already handed over, so the decision is: the paid prizes stand (not reversed, not paid again) and are
  // named in the annulment's record, every sold card is refunded in full, and a prize awarded and not yet paid is
  // voided (its pot gets it back, bonus-service). All of it in this transaction.
  const at = ctx.now()
  const cards = await soldCardRefs(tx, game.id)
  await refundSoldCards(tx, game.id)
  await voidAwardedPrizes(tx, game.id)
  await markGameVoid(tx, game.id, reason, at)
  if (annulment)
    await insertAnnulment(tx, {
      gameId: game.id,
      reason: annulment.reason,
      requestedBy: annulment.requestedBy,
      confirmedBy: annulment.confirmedBy,
      at,
    })
  const signed = annulment
    ? { annulledBy: annulment.requestedBy, confirmedBy: annulment.confirmedBy, annulReason: annulment.reason }
    : {}
  const rec = await appendJournal(tx, {
    at,
    type: 'game.void',
    scope: gameScope(game),
    payload: {
      gameId: game.id,
      reason,
      refundedCards: cards.length,
      refundCents: cards.length * game.faceValueCents,
      serials: cards.map((c) => c.serial),
      rule: 'BNG-86',
      ...(paidPrizes.length ? { paidPrizesStand: paidPrizes, paidPrizesRule: 'BNG-82' } : {}),
      ...signed,
    },
  })
  for (const h of ctx.deps.hooks ?? []) await h.gameVoided?.(tx, { game, at, scope: gameScope(game) })
  ctx.caches.delete(game.id)
  emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hallId, seq: rec.seq, reason: 'void' })
}

/** Declares an incident and applies the regulation's outcome for it. */
/**
 * Declares an incident and applies the regulation's outcome for it. `by` is the authenticated requester,
 * `authorisedBy` the jefe who authorised a locutor on his console, `cosigner` the second person who confirmed with
 * their own credential: the Director de Bingo's co-signature where the profile wants it (BNG-74), and the
 * confirmation of an annulment (issue 15 point 4).
 */
export async function declareIncident(
  ctx: BingoContext,
  input: {
    gameId: string
    kind: IncidentKind
    note?: string
    correctedBall?: number
    seq?: number
    by?: Actor
    authorisedBy?: Actor
    cosigner?: Actor & { halls?: '*' | readonly string[] }
    annulment?: Annulment
    cctv?: IncidentCctv
  },
): Promise<GameState> {
  const note = (input.note ?? '').slice(0, 2000)
  const by = input.by ?? SYSTEM_ACTOR
  await ctx.gameTx(input.gameId, async (tx) => {
    const game = await loadGame(tx, input.gameId)
    const { profile } = await hallOf(tx, game.hallId)
    const balls = await calledBalls(tx, game.id)
    // Checked before anything changes: a refused annulment leaves the game as it was.
    // BNG-83 (Cantabria): a wrong call that can no longer be corrected (a prize was awarded after it) and that
    // substantially affects the game annuls it: staff ask for that with a reason and a second person.
    const callerAnnul =
      input.kind === 'caller-error' && (profile.callerError === 'annul' || input.annulment !== undefined)
    const voids = input.kind === 'ball-irregularity' || input.kind === 'unresolved-suspension' || callerAnnul
    const signed = voids ? twoPeople(by, input.annulment) : null
    // BNG-74: in a hall whose profile wants it, no entry without the jefe's and the director's signatures.
    const entry: Signed = {
      by,
      signatures: incidentSignatures(profile.incidentCosign, game.hallId, input.authorisedBy ?? by, input.cosigner),
      cctv: checkCctv(input.cctv, await hallCameraOf(tx, game.hallId)),
    }
    switch (input.kind) {
      case 'device-failure-before-first-ball': {
        if (balls.length > 0)
          throw new DomainError('ILLEGAL_TRANSITION', 'the first ball is out: continue by hand instead (BNG-81)', {
            rule: 'BNG-81',
          })
        assertLegal(GameAction.Suspend, game.status, game.id)
        await markGameSuspended(tx, game.id, game.status)
        await recordIncident(ctx, tx, game, input.kind, 'suspended', note, entry)
        break
      }
      case 'unresolved-suspension': {
        if (game.status !== GameStatus.Suspended)
          throw new DomainError(
            'ILLEGAL_TRANSITION',
            'only a suspended game can be refunded for an unresolved failure (BNG-80)',
          )
        // BNG-80 / CFG-20 (004 Bingo II.1.b: suspended "durante un plazo prudencial, a juicio del Jefe de Sala"): no
        // refund before the hall's least suspension, counted from the suspension's entry.
        const { hall } = await hallOf(tx, game.hallId)
        const minutes = (JSON.parse(hall.settings || '{}') as HallRuleSettings).callingTimes?.suspensionMinutes ?? 0
        const suspendedAt = (await latestIncidentOfGame(tx, game.id))?.createdAt
        const wait = secondsToWait(suspendedAt, ctx.now(), minutes * 60)
        if (wait > 0)
          throw new DomainError('CALLING_TOO_SOON', `the suspension may be declared unresolved in ${wait} s`, {
            step: 'suspension',
            waitSeconds: wait,
            minSeconds: minutes * 60,
            rule: 'BNG-80',
          })
        await recordIncident(ctx, tx, game, input.kind, 'void-refund', note, entry, signed)
        await voidTx(ctx, tx, game, 'unresolved-suspension', signed)
        break
      }
      case 'device-failure-after-first-ball': {
        if (balls.length === 0)
          throw new DomainError('ILLEGAL_TRANSITION', 'no ball is out yet: suspend the game instead (BNG-80)', {
            rule: 'BNG-80',
          })
        assertLegal(GameAction.SwitchToManual, game.status, game.id)
        if (game.drawSource === 'rng') {
          // Issue 15 point 4: in an RNG game the server is the device and its remaining balls are the committed
          // order. BNG-81's manual fallback would let staff pick the next balls, so play resumes from that order.
          await recordIncident(ctx, tx, game, input.kind, 'resume-committed-order', note, entry)
          const rec = await appendJournal(tx, {
            at: ctx.now(),
            type: 'game.resumed',
            scope: gameScope(game),
            payload: {
              gameId: game.id,
              from: 'device-failure',
              nextSeq: balls.length + 1,
              drawSource: 'rng',
              rule: 'BNG-81',
            },
          })
          emit(tx, { type: 'game:changed', gameId: game.id, hallId: game.hallId, seq: rec.seq, reason: 'resumed' })
          break
        }
        // A blower game's remaining balls are physical: they are entered by hand (BNG-81).
        await switchGameToManual(tx, game.id)
        await recordIncident(ctx, tx, game, input.kind, 'continue-manual-with-remaining-balls', note, entry)
        break
      }
      case 'ball-irregularity': {
        await recordIncident(ctx, tx, game, input.kind, 'void-refund', note, entry, signed)
        await voidTx(ctx, tx, game, 'ball-irregularity', signed)
        break
      }
      case 'caller-error': {
        if (profile.callerError === 'annul') {
          await recordIncident(ctx, tx, game, input.kind, 'void-refund', note, entry, signed)
          await voidTx(ctx, tx, game, 'caller-error', signed)
        } else if (callerAnnul) {
          // BNG-83 (Cantabria, 004 Bingo II.1.b): annulment only for an error that "no pueda ser subsanado antes de
          // la adjudicación de los premios": while no prize has been verified the call is corrected instead.
          if ((await verifiedClaimCountFrom(tx, game.id, 0)) === 0) {
            throw new DomainError(
              'ILLEGAL_TRANSITION',
              'no prize has been awarded yet: correct the call (the ball prevails) instead of annulling the game (BNG-83)',
              { rule: 'BNG-83' },
            )
          }
          await recordIncident(ctx, tx, game, input.kind, 'void-refund-uncorrectable', note, entry, signed)
          await voidTx(ctx, tx, game, 'caller-error', signed)
        } else {
          // BNG-83 (Cantabria): the ball prevails; the call is corrected and play goes on. Any manually entered
          // ball (the last one unless `seq` names another) may be replaced by the one really drawn, while no prize
          // has been verified at or after it.
          if (input.correctedBall !== undefined)
            await correctBallTx(ctx, tx, game, input.correctedBall, note, 'caller-error', entry, input.seq)
          else await recordIncident(ctx, tx, game, input.kind, 'call-corrected-ball-prevails', note, entry)
        }
        break
      }
      case 'reader-misread': {
        if (input.correctedBall === undefined)
          throw new DomainError('VALIDATION_FAILED', 'a reader misread needs the number on the ball (correctedBall)', {
            field: 'correctedBall',
          })
        await correctBallTx(ctx, tx, game, input.correctedBall, note, 'reader-misread', entry, input.seq)
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

/**
 * BNG-83 (Cantabria, 004 Bingo III): "prevalecerá, en todo caso, el que figure en la bola extraída". Replaces the
 * manually entered ball at `seq` (default: the last) by the number on the ball, then re-evaluates every ball from
 * it on. Any manual ball may be corrected, not only the last, as long as no prize was verified at or after it:
 * after that award the error "no puede ser subsanado" and only the annulment path is left (CORRECTION_TOO_LATE).
 */
async function correctBallTx(
  ctx: BingoContext,
  tx: Tx,
  game: Game,
  ball: number,
  note: string,
  kind: IncidentKind,
  entry: Signed,
  seq?: number,
): Promise<void> {
  assertLegal(GameAction.CorrectBall, game.status, game.id)
  const target = seq === undefined ? await lastBall(tx, game.id) : await ballAt(tx, game.id, seq)
  if (!target)
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      seq === undefined ? 'no ball to correct' : `game ${game.id} has no ball number ${seq}`,
    )
  if (target.source === 'rng')
    throw new DomainError('ILLEGAL_TRANSITION', 'an RNG ball is what it is: correct the announcement, not the ball')
  if ((await verifiedClaimCountFrom(tx, game.id, target.seq)) > 0) {
    throw new DomainError(
      'CORRECTION_TOO_LATE',
      `a prize was verified at or after ball ${target.seq}: the error can no longer be corrected; annul the game if it substantially affects it (BNG-83)`,
      { rule: 'BNG-83', seq: target.seq },
    )
  }
  if (!Number.isInteger(ball) || ball < 1 || ball > game.ballCount)
    throw new DomainError('BALL_OUT_OF_RANGE', `ball ${ball} is outside 1..${game.ballCount}`)
  if (await isBallCalled(tx, game.id, ball))
    throw new DomainError('BALL_ALREADY_DRAWN', `ball ${ball} was already drawn`)
  await replaceBall(tx, game.id, target.seq, ball)
  await deleteSilentWinsFrom(tx, game.id, target.seq)
  await recordIncident(ctx, tx, game, kind, `ball-corrected:${target.ball}->${ball}`, note, entry)
  await appendJournal(tx, {
    at: ctx.now(),
    type: 'ball.corrected',
    scope: gameScope(game),
    payload: {
      gameId: game.id,
      seq: target.seq,
      from: target.ball,
      to: ball,
      source: target.source,
      kind,
      by: person(entry.by),
      rule: 'BNG-83',
    },
  })
  // Re-evaluate from the corrected ball on: replay every ball and record, for the minutes (BNG-48), who first won
  // at each ball from the corrected one. Prizes verified before it stand (the line stays closed if it was).
  const fresh = await loadGame(tx, game.id)
  const {
    cache: { cards },
  } = await rebuildCache(ctx, tx, fresh)
  const balls = await calledBalls(tx, game.id)
  const replay = createDetector(
    cards.map((c) => JSON.parse(c.numbers) as number[][]),
    fresh.ballCount,
    { bingoAfter: timesRequiredOf(fresh.layout) },
  )
  for (let i = 0; i < balls.length; i++) {
    if (i + 1 === target.seq && fresh.lineClosed) replay.closeLine()
    const found = replay.call(balls[i])
    if (i + 1 < target.seq) continue
    for (const idx of replay.isLineClosed() ? [] : found.lines)
      await insertSilentWin(tx, game.id, cards[idx].id, 'line', i + 1)
    for (const idx of found.bingos) await insertSilentWin(tx, game.id, cards[idx].id, 'bingo', i + 1)
  }
  // CFG-13: the open figures' first wins from the corrected ball on, as the draw records them.
  const rows = cards.map((c) => JSON.parse(c.numbers) as number[][])
  for (const f of await figuresOfGame(tx, game.id)) {
    if (f.awardedAt) continue
    for (let i = target.seq - 1; i < balls.length; i++)
      for (const idx of cardsFormingAt(f.figure, rows, balls, i + 1))
        await insertSilentWin(tx, game.id, cards[idx].id, figureKind(f.figure), i + 1)
  }
  emit(tx, {
    type: 'game:changed',
    gameId: game.id,
    hallId: game.hallId,
    seq: await lastJournalSeq(tx),
    reason: 'ball_corrected',
    ball,
  })
}

/**
 * BNG-83 (Cantabria): corrects the manually entered ball number `seq` to the number on the ball. Where a wrong call
 * annuls the game instead (Bolivia, 002 §6.1.8.2) there is nothing to correct: RULE_DISABLED.
 */
export async function correctCalledBall(
  ctx: BingoContext,
  input: {
    gameId: string
    seq: number
    ball: number
    kind?: 'caller-error' | 'reader-misread'
    note?: string
    by?: Actor
  },
): Promise<GameState> {
  const kind = input.kind ?? 'caller-error'
  if (kind === 'caller-error') {
    const game = await loadGame(ctx.db, input.gameId)
    const { profile } = await hallOf(ctx.db, game.hallId)
    if (profile.callerError !== 'ball-prevails')
      throw new DomainError(
        'RULE_DISABLED',
        'under this profile a wrong call that affects the game annuls it (BNG-83): declare the incident instead',
        { rule: 'BNG-83' },
      )
  }
  return declareIncident(ctx, {
    gameId: input.gameId,
    kind,
    seq: input.seq,
    correctedBall: input.ball,
    note: input.note,
    by: input.by,
  })
}

export async function resume(ctx: BingoContext, gameId: string): Promise<GameState> {
  await ctx.gameTx(gameId, async (tx) => {
    const game = await loadGame(tx, gameId)
    assertLegal(GameAction.Resume, game.status, gameId)
    const back = game.suspendedFrom ?? GameStatus.OnSale
    await markGameResumed(tx, gameId, back)
    const rec = await appendJournal(tx, {
      at: ctx.now(),
      type: 'game.resumed',
      scope: gameScope(game),
      payload: { gameId, to: back, rule: 'BNG-80' },
    })
    emit(tx, { type: 'game:changed', gameId, hallId: game.hallId, seq: rec.seq, reason: 'resumed' })
  })
  return getGameState(ctx, gameId)
}
