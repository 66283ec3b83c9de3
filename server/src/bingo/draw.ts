/**
 * The draw: the next ball from the game's proof stream (RNG), or a ball read from a blower or entered by hand
 * (BNG-81); each ball runs the detector, which claims for electronic cards (BNG-101) or records silent wins (BNG-48).
 */
import { DomainError } from '../shared/errors.ts'
import { GameAction, GameStatus, assertLegal, type ClaimKind } from './game.ts'
import { appendJournal } from '../shared/journal.ts'
import {
  cacheFor,
  cameraRecord,
  emit,
  gameHallScopes,
  gameScope,
  hallOf,
  loadGame,
  type BingoContext,
  type Tx,
} from './context.ts'
import { registerClaim } from './claims.ts'
import { anyClaimedBySystem, claimedBySystem } from './system-claims.ts'
import { cardsFormingAt, figureKind, firstFormed } from './patterns.ts'
import { figuresOfGame } from './store/figures.ts'
import { drawOrderOf, ensureBeacon, isV2 } from './draw-beacon.ts'
import { getGameState } from './game-state.ts'
import { calledBalls, insertBall, insertSilentWin, lastBallCalledAt } from './store/balls.ts'
import type { HallRuleSettings } from './betting-plan.ts'
import { secondsToWait } from './calling-times.ts'
import { type Game, markFirstBall } from './store/games.ts'
import type { GameState } from './types.ts'
import type { Sql } from '../db/database.ts'

/**
 * Draws the next ball from the game's proof stream (RNG source). Under bolillo-draw-v2 no ball is drawn before beacon
 * round R is verified (DESIGN.md point 3): the first draw obtains it, or answers BEACON_PENDING until it is published.
 */
export async function drawNext(ctx: BingoContext, gameId: string): Promise<{ ball: number; state: GameState }> {
  let ball = 0
  const before = await loadGame(ctx.db, gameId)
  assertLegal(GameAction.Draw, before.status, gameId)
  if (before.drawSource !== 'rng')
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      `game ${gameId} is drawn by hand (${before.drawSource}): enter the ball read from the blower`,
    )
  if (isV2(before) && !before.beaconRandomness) await ensureBeacon(ctx, gameId)
  // Issue 23 point 5: a ball locks its game's hall only (gameHallScopes), so a hall's draw never queues behind
  // another hall's open transaction, nor theirs behind it.
  await ctx.inPlayTx(
    gameId,
    async (tx) => {
      const game = await loadGame(tx, gameId)
      assertLegal(GameAction.Draw, game.status, gameId)
      if (game.drawSource !== 'rng')
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `game ${gameId} is drawn by hand (${game.drawSource}): enter the ball read from the blower`,
        )
      const order = isV2(game)
        ? drawOrderOf(ctx, game, await cacheFor(ctx, tx, game))
        : (JSON.parse(game.drawOrder!) as number[])
      const called = await calledBalls(tx, gameId)
      if (called.length >= order.length) throw new DomainError('NO_BALLS_LEFT', 'every ball has been drawn')
      ball = order[called.length]
      await recordBall(ctx, tx, game, ball, 'rng', null)
    },
    [`hall:${before.hallId}`],
  )
  return { ball, state: await getGameState(ctx, gameId) }
}

/** Records a ball read from a manual blower or entered by the caller after a device failure (BNG-81). */
export async function enterBall(
  ctx: BingoContext,
  gameId: string,
  ball: number,
  deviceId: string | null = null,
): Promise<GameState> {
  const scopes = await gameHallScopes(ctx, gameId)
  await ctx.inPlayTx(
    gameId,
    async (tx) => {
      const game = await loadGame(tx, gameId)
      assertLegal(GameAction.Draw, game.status, gameId)
      // Issue 15 point 4: no staff lever over an RNG draw; its balls come only from the committed order.
      if (game.drawSource === 'rng')
        throw new DomainError(
          'RNG_NO_MANUAL_BALL',
          `game ${gameId} is drawn by the RNG: its balls come only from the committed order`,
          { rule: 'BNG-81' },
        )
      await recordBall(ctx, tx, game, ball, game.drawSource, deviceId)
    },
    scopes,
  )
  return getGameState(ctx, gameId)
}

/**
 * BNG-42 step 7 / CFG-20 (002 §6.1.5, 004 Bingo III: "con el ritmo adecuado para que todos los jugadores puedan"
 * mark them): the hall's least interval between two balls, whatever the source (RNG, blower, by hand), by the
 * server's clock. CALLING_TOO_SOON with the seconds still to wait.
 */
async function assertRhythm(sql: Sql, game: Game, hall: { settings: string }, at: string): Promise<void> {
  const rhythm = (JSON.parse(hall.settings || '{}') as HallRuleSettings).callingTimes?.minBallIntervalSeconds ?? 0
  const wait = secondsToWait(await lastBallCalledAt(sql, game.id), at, rhythm)
  if (wait > 0)
    throw new DomainError('CALLING_TOO_SOON', `the next ball may be drawn in ${wait} s (hall's rhythm: ${rhythm} s)`, {
      step: 'ball',
      waitSeconds: wait,
      minSeconds: rhythm,
      rule: 'CFG-20',
    })
}

/**
 * CFG-20: the same check before a connected blower is asked to release a ball (equipment/blowers.ts), so that no ball
 * leaves the machine only to be refused; enterBall checks again when the read arrives.
 */
export async function assertBallDue(ctx: BingoContext, gameId: string): Promise<void> {
  const game = await loadGame(ctx.db, gameId)
  const { hall } = await hallOf(ctx.db, game.hallId)
  await assertRhythm(ctx.db, game, hall, ctx.now())
}

async function recordBall(
  ctx: BingoContext,
  tx: Tx,
  game: Game,
  ball: number,
  source: string,
  deviceId: string | null,
): Promise<void> {
  if (!Number.isInteger(ball) || ball < 1 || ball > game.ballCount)
    throw new DomainError('BALL_OUT_OF_RANGE', `ball ${ball} is outside 1..${game.ballCount}`, { ball })
  const called = await calledBalls(tx, game.id)
  if (called.includes(ball))
    throw new DomainError('BALL_ALREADY_DRAWN', `ball ${ball} was already drawn in this game`, { ball })
  const { hall, profile } = await hallOf(tx, game.hallId)
  const at = ctx.now()
  await assertRhythm(tx, game, hall, at)
  const cache = await cacheFor(ctx, tx, game)
  const seq = called.length + 1
  for (const h of ctx.deps.hooks ?? [])
    await h.ballRecording?.(tx, {
      gameId: game.id,
      sessionId: game.sessionId,
      hallId: game.hallId,
      profile,
      drawSource: game.drawSource,
      ball,
      seq,
      source,
      deviceId,
      at,
      scope: gameScope(game),
    })
  await insertBall(tx, { gameId: game.id, seq, ball, source, deviceId, at })
  if (seq === 1) await markFirstBall(tx, game.id, at)
  const rec = await appendJournal(tx, {
    at,
    type: 'ball.called',
    scope: gameScope(game),
    // GEN-31: the camera on the ball exit, so the ball's footage is found from its record.
    // RNG-32 point 4: the draw log names the software version and its build hash.
    payload: {
      gameId: game.id,
      seq,
      ball,
      source,
      deviceId,
      ...(await cameraRecord(tx, hall)),
      ...(ctx.deps.drawEngine
        ? { software: { version: ctx.deps.drawEngine.version, buildSha256: ctx.deps.drawEngine.buildSha256 } }
        : {}),
    },
  })
  emit(tx, {
    type: 'game:changed',
    gameId: game.id,
    hallId: game.hallId,
    seq: rec.seq,
    reason: 'ball',
    ball,
    count: seq,
  })
  const found = cache.detector.call(ball)
  const calledSet = new Set([...called, ball])
  const lineOpen = !game.lineClosed
  // CFG-21 / BNG-101: the cards the system claims for (system-claims.ts); every other card waits for its player's call.
  const bySystem = (idx: number) => claimedBySystem(profile, cache.cards[idx])
  const drawing = { ...game, status: 'drawing' as GameStatus }
  const figures = await figuresOfGame(tx, game.id)
  if (anyClaimedBySystem(profile)) {
    // The line comes first: a bingo formed while the line is open is claimed once the line is awarded (claims.ts).
    const lines = lineOpen ? found.lines.filter(bySystem) : []
    const bingos = found.bingos.filter(bySystem)
    if (lines.length > 0) {
      for (const idx of lines) await registerClaim(ctx, tx, drawing, cache.cards[idx], 'line', seq, calledSet, true)
    } else if (bingos.length > 0) {
      for (const idx of bingos) await registerClaim(ctx, tx, drawing, cache.cards[idx], 'bingo', seq, calledSet, true)
    } else {
      // CFG-13: the system claims a figure the moment it is formed on a card, like the line (one figure's window at
      // a time: the first open figure formed on any card, in the plan's order).
      for (const f of figures) {
        if (f.awardedAt) continue
        // Formed at an earlier ball where that ball's line window held it back: the cards that formed it then, at
        // that ball, not those that formed it since.
        const first = firstFormed(f.figure, cache.rows, [...called, ball])
        if (!first) continue
        for (const i of first.cards.filter(bySystem))
          await registerClaim(ctx, tx, drawing, cache.cards[i], figureKind(f.figure), first.atBall, calledSet, true)
        break
      }
    }
  }
  // BNG-48: nobody may learn of an undeclared winner; the first win of a card its player must call is only recorded
  // for the minutes.
  const silent: Array<[number, ClaimKind]> = [
    ...(lineOpen ? found.lines.map((i) => [i, 'line'] as [number, ClaimKind]) : []),
    ...found.bingos.map((i) => [i, 'bingo'] as [number, ClaimKind]),
  ]
  for (const [idx, kind] of silent) {
    if (!bySystem(idx)) await insertSilentWin(tx, game.id, cache.cards[idx].id, kind, seq)
  }
  // CFG-13: a figure still open is a prize too; the cards that formed it at this ball are recorded the same way.
  for (const f of figures) {
    if (f.awardedAt) continue
    for (const idx of cardsFormingAt(f.figure, cache.rows, [...called, ball], seq))
      if (!bySystem(idx)) await insertSilentWin(tx, game.id, cache.cards[idx].id, figureKind(f.figure), seq)
  }
}
