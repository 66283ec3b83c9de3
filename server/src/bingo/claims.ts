/**
 * Claims and prizes: a claim checked against the called balls (BNG-44 to BNG-50), the "any more?" window and the
 * equal split of its prize (BNG-50, BNG-53, BNG-56), and the payment of a prize once (BNG-71).
 */
import { anyClaimedBySystem, claimedBySystem } from './system-claims.ts'
import { DomainError } from '../shared/errors.ts'
import {
  GameAction,
  GameStatus,
  assertLegal,
  splitPrize,
  splitPrizeByPlayer,
  hitsComplete,
  timesRequiredOf,
  verifyClaim,
  type ClaimKind,
} from './game.ts'
import { playerKeysOfCards } from './store/split.ts'
import { figureFormed, figureKind, figureOfKind, type Figure } from './patterns.ts'
import { figuresOfGame, markFigureAwarded, type GameFigure } from './store/figures.ts'
import { assertRowsSealed } from '../shared/row-seals.ts'
import { narrowOrAll, ScopesTooNarrow } from '../db/scopes.ts'

/**
 * BNG-53 / CFG-26: the one split of a line or bingo pool, on the basis the hall's profile states (per card, or per
 * player where decree 002 says "entre los jugadores").
 */
async function splitWinners<T extends { serial: string; cardId: string }>(
  tx: Tx,
  game: Game,
  pool: number,
  winners: readonly T[],
): Promise<Array<T & { amountCents: number }>> {
  const { profile } = await hallOf(tx, game.hallId)
  if (profile.splitBasis !== 'player') return splitPrize(pool, winners)
  const keys = await playerKeysOfCards(
    tx,
    winners.map((w) => w.cardId),
  )
  return splitPrizeByPlayer(
    pool,
    // An unnamed purchase's seat key (BNG-93, purchases.ts) names no player: each such card shares as before.
    winners.map((w) => {
      const key = keys.get(w.cardId) ?? null
      return { ...w, playerKey: key?.startsWith('anon:') ? null : key }
    }),
  )
}

/**
 * The `prize.awarded` record of one award (a claim's, the line paid at the bingo, a figure at the bingo): the same
 * payload for all three, with what each adds (`extra`: its rule, the figure), and the hall's camera record.
 */
async function journalAward(
  tx: Tx,
  game: Game,
  kind: string,
  pool: number,
  winners: ReadonlyArray<{ serial: string; cardId: string; amountCents: number; atBall: number }>,
  at: string,
  extra: Record<string, unknown>,
) {
  return appendJournal(tx, {
    at,
    type: 'prize.awarded',
    scope: gameScope(game),
    payload: {
      gameId: game.id,
      kind,
      poolCents: pool,
      winners: winners.map((w) => ({
        serial: w.serial,
        cardId: w.cardId,
        amountCents: w.amountCents,
        atBall: w.atBall,
      })),
      remainderRule: 'equal split, leftover centavos one each to the lowest serials',
      ...extra,
      ...(await cameraRecord(tx, game.hallId)),
    },
  })
}
import { appendJournal } from '../shared/journal.ts'
import {
  cacheFor,
  cameraRecord,
  emit,
  findCard,
  awardsStayInHall,
  gameHallScopes,
  gameScope,
  hallOf,
  loadGame,
  type BingoContext,
  type Tx,
} from './context.ts'
import { simpleTransition } from './games.ts'
import { getGameState } from './game-state.ts'
import { calledBalls } from './store/balls.ts'
import type { HallRuleSettings } from './betting-plan.ts'
import { secondsToWait } from './calling-times.ts'
import { type Claim, verifiedClaimIdOfCard, insertClaim, verifiedClaimsOfKind, insertPrize } from './store/claims.ts'
import { type Game, gameById, openClaimWindow, closeClaimWindow } from './store/games.ts'
import type { Card } from './store/sales.ts'
import type { GameState } from './types.ts'

/** Records a claim (verified or rejected); the first verified one opens the window for its kind (BNG-50). */
export async function registerClaim(
  ctx: BingoContext,
  tx: Tx,
  game: Game,
  card: Card,
  kind: ClaimKind,
  atBall: number,
  called: ReadonlySet<number>,
  automatic: boolean,
): Promise<{ ok: boolean; reason?: string }> {
  const rows = JSON.parse(card.numbers) as number[][]
  const figure = figureOfKind(kind)
  // CFG-13: a figure claim is checked the same way, against the called balls: formed, in this game, not yet awarded.
  const check = figure
    ? await verifyFigureClaim(tx, game.id, figure, rows, called)
    : verifyClaim(rows, called, kind, game.lineClosed, timesRequiredOf(game.layout))
  const dup = await verifiedClaimIdOfCard(tx, game.id, card.id, kind)
  const at = ctx.now()
  if (dup) return { ok: true }
  const window = game.windowKind
  let result: { ok: boolean; reason?: string }
  if (!check.ok) result = { ok: false, reason: check.reason }
  // BNG-56: at a bingo with no line called before it, "¿Alguna línea más?" is still asked: a line formed and never
  // called is heard in the bingo window and shares the line pool (see closeWindow).
  // CFG-13: a figure still open is formed on every bingo card, and heard in the bingo window as the line is.
  else if (window && window !== kind && !(window === 'bingo' && ((kind === 'line' && !game.lineClosed) || figure)))
    result = { ok: false, reason: `window_open_for_${window}` }
  else result = { ok: true }
  await insertClaim(tx, {
    id: ctx.newId('cl'),
    gameId: game.id,
    cardId: card.id,
    serial: card.serial,
    kind,
    atBall,
    status: result.ok ? 'verified' : 'rejected',
    reason: result.reason ?? null,
    automatic: automatic ? 1 : 0,
    at,
  })
  if (result.ok && !window) {
    // BNG-50: the "¿alguna línea/bingo más?" window opens on the first verified claim.
    // A figure's window is like the line's: play resumes when it closes (the game ends only at the bingo).
    await openClaimWindow(tx, game.id, kind === 'bingo' ? GameStatus.BingoWindow : GameStatus.LineWindow, kind)
    game.windowKind = kind
  }
  const rec = await appendJournal(tx, {
    at,
    type: result.ok ? 'claim.verified' : 'claim.rejected',
    scope: gameScope(game),
    payload: {
      gameId: game.id,
      serial: card.serial,
      cardId: card.id,
      kind,
      atBall,
      automatic,
      reason: result.reason ?? null,
      rule: figure ? 'CFG-13' : 'BNG-44',
      // GEN-31: the camera on the ball exit, so a disputed claim's footage is found from its record.
      ...(await cameraRecord(tx, game.hallId)),
    },
  })
  emit(tx, {
    type: 'game:changed',
    gameId: game.id,
    hallId: game.hallId,
    seq: rec.seq,
    reason: result.ok ? 'claim_verified' : 'claim_rejected',
  })
  return result
}

/** A claim entered by card serial (paper play or a player who called). Verified against the called balls. */
export async function claim(
  ctx: BingoContext,
  input: { gameId: string; serial?: string; cardId?: string; kind: ClaimKind },
): Promise<{ ok: boolean; reason?: string; state: GameState }> {
  let result: { ok: boolean; reason?: string } = { ok: false }
  // Issue 23 point 5: a claim is judged under its game's hall's lock only (gameHallScopes): it reads and writes the
  // game's own rows (card, balls, claims, window).
  const scopes = await gameHallScopes(ctx, input.gameId)
  await ctx.inPlayTx(
    input.gameId,
    async (tx) => {
      const game = await loadGame(tx, input.gameId)
      if (game.status === GameStatus.Finished)
        throw new DomainError(
          'CLAIM_CLOSED',
          'prizes have been assigned: no more claims on this game (BNG-45, BNG-50)',
          {
            rule: 'BNG-50',
          },
        )
      assertLegal(GameAction.Claim, game.status, game.id)
      const card = await findCard(tx, game.id, input)
      if (!card)
        throw new DomainError('TICKET_NOT_FOUND', `card ${input.serial ?? input.cardId} was not sold for this game`, {
          serial: input.serial,
        })
      if (card.status !== 'sold')
        throw new DomainError('CLAIM_REJECTED', `card ${card.serial} is ${card.status}`, { status: card.status })
      const called = new Set(await calledBalls(tx, game.id))
      result = await registerClaim(ctx, tx, game, card, input.kind, called.size, called, false)
    },
    scopes,
  )
  return { ...result, state: await getGameState(ctx, input.gameId) }
}

/**
 * BNG-50: the caller closes the "any more?" window. The prize is split equally among the verified claims
 * (BNG-53/56); after the line play resumes, after the bingo the game ends.
 */
export async function closeWindow(ctx: BingoContext, gameId: string): Promise<GameState> {
  // Issue 23 point 5: the awards lock the game's hall only when every row they write is that hall's (see
  // awardsStayInHall); else every chain, as before.
  const found = await gameById(ctx.db, gameId)
  const scopes = found && (await awardsStayInHall(ctx.db, found)) ? [`hall:${found.hallId}`] : undefined
  await narrowOrAll(scopes, (s) => closeWindowTx(ctx, gameId, s))
  return getGameState(ctx, gameId)
}

async function closeWindowTx(ctx: BingoContext, gameId: string, scopes: readonly string[] | undefined): Promise<void> {
  const { deps, caches } = ctx
  await ctx.inPlayTx(
    gameId,
    async (tx) => {
      const game = await loadGame(tx, gameId)
      if (scopes && !(await awardsStayInHall(tx, game))) throw new ScopesTooNarrow()
      assertLegal(GameAction.CloseWindow, game.status, gameId)
      const kind = game.windowKind!
      const claims = await verifiedClaimsOfKind(tx, gameId, kind)
      // BNG-50 / CFG-20 (002 §6.1.5 "un plazo de tiempo prudencial", 004 Bingo III "un tiempo prudencial"): the order
      // that ends the right to claim comes no sooner than the hall's least window after the first verified claim.
      const { hall } = await hallOf(tx, game.hallId)
      const least = (JSON.parse(hall.settings || '{}') as HallRuleSettings).callingTimes?.claimWindowSeconds ?? 0
      const wait = secondsToWait(claims[0]?.createdAt, ctx.now(), least)
      if (wait > 0)
        throw new DomainError('CALLING_TOO_SOON', `the window may be closed in ${wait} s (hall's window: ${least} s)`, {
          step: 'window',
          waitSeconds: wait,
          minSeconds: least,
          rule: 'BNG-50',
        })
      const figure = figureOfKind(kind)
      const pool = figure
        ? ((await sealedFiguresOfGame(tx, gameId)).find((f) => f.figure === figure)?.poolCents ?? 0)
        : kind === 'line'
          ? game.linePoolCents!
          : game.bingoPoolCents!
      const unique = new Map<string, Claim>()
      for (const c of claims) if (!unique.has(c.cardId!)) unique.set(c.cardId!, c)
      const winners = await splitWinners(
        tx,
        game,
        pool,
        [...unique.values()].map((c) => ({ serial: c.serial, cardId: c.cardId!, atBall: c.atBall })),
      )
      const at = ctx.now()
      if (figure && !(await markFigureAwarded(tx, gameId, figure, at)))
        throw new DomainError('CONFLICT', `figure ${figure} of game ${gameId} was already awarded`, { rule: 'CFG-13' })
      if (kind === 'bingo' && !game.lineClosed) await awardLineAtBingo(ctx, tx, game, [...unique.values()], at)
      if (kind === 'bingo') await awardFiguresAtBingo(ctx, tx, game, [...unique.values()], at)
      for (const w of winners) {
        await insertPrize(tx, {
          id: ctx.newId('pz'),
          gameId,
          cardId: w.cardId,
          kind,
          amountCents: w.amountCents,
          atBall: w.atBall,
          at,
        })
      }
      const finished = kind === 'bingo'
      await closeClaimWindow(tx, gameId, {
        status: finished ? GameStatus.Finished : GameStatus.Drawing,
        lineClosed: kind === 'line' || game.lineClosed ? 1 : 0,
        finishedAt: finished ? at : null,
      })
      const rec = await journalAward(tx, game, kind, pool, winners, at, {
        rule: 'BNG-53',
        ...(figure ? { figure, figureRule: 'CFG-13' } : {}),
      })
      // Bonus prizes (prima, pots, lucky ball) follow the line and the bingo only, never a figure.
      if (deps.hooks?.length && (kind === 'line' || kind === 'bingo')) {
        const [{ profile }, balls] = [await hallOf(tx, game.hallId), await calledBalls(tx, gameId)]
        for (const h of deps.hooks)
          await h.prizeAwarded?.(tx, { game, profile, kind, winners, balls, at, scope: gameScope(game) })
      }
      if (finished) {
        const endRec = await appendJournal(tx, {
          at,
          type: 'game.finished',
          scope: gameScope(game),
          payload: { gameId, balls: await calledBalls(tx, gameId) },
        })
        emit(tx, { type: 'game:changed', gameId, hallId: game.hallId, seq: endRec.seq, reason: 'finished' })
        caches.delete(gameId)
      } else {
        const cache = caches.get(gameId)
        if (kind === 'line') cache?.detector.closeLine()
        emit(tx, {
          type: 'game:changed',
          gameId,
          hallId: game.hallId,
          seq: rec.seq,
          reason: figure ? 'figure_awarded' : 'line_awarded',
        })
        // A ball can complete a bingo while the line window is open: the system claims it now, for the cards it claims
        // for (CFG-21 / BNG-101, system-claims.ts).
        const { profile } = await hallOf(tx, game.hallId)
        if (anyClaimedBySystem(profile)) {
          const fresh = await loadGame(tx, gameId)
          const called = new Set(await calledBalls(tx, gameId))
          const c = await cacheFor(ctx, tx, fresh)
          const timesRequired = timesRequiredOf(fresh.layout)
          for (let i = 0; i < c.cards.length; i++) {
            if (claimedBySystem(profile, c.cards[i]) && hitsComplete(c.rows[i], called, timesRequired))
              await registerClaim(ctx, tx, fresh, c.cards[i], 'bingo', called.size, called, true)
          }
        }
      }
    },
    scopes,
  )
}

/**
 * BNG-56 (004 Bingo V.1; 002 §6.1.5 and §6.1.8.3): a bingo called before any line. Both texts define the line as
 * formed "cuando hayan sido extraídos todos los números que la integran, siempre y cuando no haya sido cantada
 * correctamente por otro jugador durante la extracción de las bolas anteriores", and 004 distributes 67 % of the
 * face value in every game (line 10 %): the line pool is not kept. Every bingo card has all its rows drawn and no
 * line was called before, so the line is formed on it; so it is on any card whose line was claimed in the bingo
 * window ("¿Alguna línea más?"). The line pool is split equally among those cards (BNG-53), before the bingo.
 */
async function awardLineAtBingo(
  ctx: BingoContext,
  tx: Tx,
  game: Game,
  bingoClaims: Claim[],
  at: string,
): Promise<void> {
  const cards = new Map<string, { serial: string; cardId: string; atBall: number }>()
  for (const c of [...bingoClaims, ...(await verifiedClaimsOfKind(tx, game.id, 'line'))]) {
    if (!cards.has(c.cardId!)) cards.set(c.cardId!, { serial: c.serial, cardId: c.cardId!, atBall: c.atBall })
  }
  const pool = game.linePoolCents!
  const winners = await splitWinners(tx, game, pool, [...cards.values()])
  for (const w of winners)
    await insertPrize(tx, {
      id: ctx.newId('pz'),
      gameId: game.id,
      cardId: w.cardId,
      kind: 'line',
      amountCents: w.amountCents,
      atBall: w.atBall,
      at,
    })
  await journalAward(tx, game, 'line', pool, winners, at, { lineAtBingo: true, rule: 'BNG-56' })
  if (ctx.deps.hooks?.length) {
    const [{ profile }, balls] = [await hallOf(tx, game.hallId), await calledBalls(tx, game.id)]
    for (const h of ctx.deps.hooks)
      await h.prizeAwarded?.(tx, { game, profile, kind: 'line', winners, balls, at, scope: gameScope(game) })
  }
}

/**
 * A game's figures as the server wrote them (issue 24 point 1): a figure's pool or its `awarded_at` edited behind the
 * journal (to pay more, or to award a figure twice) refuses the claim or the award (ROW_TAMPERED, journaled).
 */
async function sealedFiguresOfGame(tx: Tx, gameId: string): Promise<GameFigure[]> {
  const figures = await figuresOfGame(tx, gameId)
  await assertRowsSealed(
    tx,
    'game_figures',
    figures.map((f) => `${gameId}|${f.figure}`),
  )
  return figures
}

/** CFG-13: a figure claim, against the called balls: one of the game's figures, still open, formed on the card. */
async function verifyFigureClaim(
  tx: Tx,
  gameId: string,
  figure: Figure,
  rows: readonly (readonly number[])[],
  called: ReadonlySet<number>,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const played = (await sealedFiguresOfGame(tx, gameId)).find((f) => f.figure === figure)
  if (!played) return { ok: false, reason: 'figure_not_in_game' }
  if (played.awardedAt) return { ok: false, reason: 'figure_already_awarded' }
  return figureFormed(figure, rows, called) ? { ok: true } : { ok: false, reason: 'figure_not_formed' }
}

/**
 * CFG-13, as BNG-56 does for the line: a figure not yet awarded when the bingo is called is formed on every bingo
 * card (all its numbers are drawn), and on any card whose figure claim was heard in the bingo window. Its pool is
 * split equally among those cards (BNG-53), so the plan's prize money is paid out, not kept.
 */
async function awardFiguresAtBingo(
  ctx: BingoContext,
  tx: Tx,
  game: Game,
  bingoClaims: Claim[],
  at: string,
): Promise<void> {
  for (const f of await sealedFiguresOfGame(tx, game.id)) {
    if (f.awardedAt) continue
    const kind = figureKind(f.figure)
    const cards = new Map<string, { serial: string; cardId: string; atBall: number }>()
    for (const c of [...bingoClaims, ...(await verifiedClaimsOfKind(tx, game.id, kind))])
      if (!cards.has(c.cardId!)) cards.set(c.cardId!, { serial: c.serial, cardId: c.cardId!, atBall: c.atBall })
    const pool = f.poolCents ?? 0
    const winners = await splitWinners(tx, game, pool, [...cards.values()])
    for (const w of winners)
      await insertPrize(tx, {
        id: ctx.newId('pz'),
        gameId: game.id,
        cardId: w.cardId,
        kind,
        amountCents: w.amountCents,
        atBall: w.atBall,
        at,
      })
    await markFigureAwarded(tx, game.id, f.figure, at)
    await journalAward(tx, game, kind, pool, winners, at, { figure: f.figure, figureAtBingo: true, rule: 'CFG-13' })
  }
}

/** BNG-46: a player called "¡línea!" or "¡bingo!": the caller stops the game while the card is checked. */
export const stopForClaim = async (ctx: BingoContext, gameId: string) =>
  simpleTransition(
    ctx,
    gameId,
    GameAction.StopForClaim,
    GameStatus.Checking,
    'claim.called',
    () => ({ rule: 'BNG-46' }),
    undefined,
    // Issue 23 point 5: the game's status only, under its hall's lock.
    await gameHallScopes(ctx, gameId),
  )
/** BNG-49: the claimed card had no prize (or nobody came forward): play resumes. */
export const resumePlay = async (ctx: BingoContext, gameId: string) =>
  simpleTransition(
    ctx,
    gameId,
    GameAction.ResumePlay,
    GameStatus.Drawing,
    'play.resumed',
    () => ({ rule: 'BNG-49' }),
    undefined,
    await gameHallScopes(ctx, gameId),
  )
