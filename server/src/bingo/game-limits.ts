/**
 * CFG-7 (002 §1.2.1.1): a game's own minimum and maximum bets, within the hall's, and per sale channel where the
 * Plan de Apuestas sets them (sale-rules.ts GameSaleLimits). Set before or during the game's sale; apply to the next
 * purchase in every channel (purchases.ts admitPurchase); posted with the game (BNG-40).
 */
import { assertHoldsHall } from '../access/acting-hall.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { GameStatus } from './game.ts'
import { gameScope, hallOf, loadGame, type BingoContext } from './context.ts'
import { checkGameSaleLimits, type GameSaleLimits } from './sale-rules.ts'
import { deleteGameSaleLimits, gameSaleLimits, putGameSaleLimits } from './store/sale-limits.ts'
import type { Sql } from '../db/database.ts'

type Actor = { kind: string; id: string; name: string; role: string }

/** Records (or, with null, removes) a game's own limits; refused once its sale is over. */
export async function setGameSaleLimits(
  ctx: BingoContext,
  input: { gameId: string; limits: GameSaleLimits | null; by: Actor },
): Promise<{ gameId: string; saleLimits: GameSaleLimits | null }> {
  return ctx.gameTx(input.gameId, async (tx) => {
    const game = await loadGame(tx, input.gameId)
    // Issue 23 point 3: the game's own hall, as stored, whatever the request names.
    assertHoldsHall(game.hallId, 'game')
    if (game.status !== GameStatus.Announced && game.status !== GameStatus.OnSale)
      throw new DomainError('ILLEGAL_TRANSITION', `game ${game.id} is ${game.status}: its sale is over`, {
        gameId: game.id,
      })
    const { profile } = await hallOf(tx, game.hallId)
    const limits = input.limits ? checkGameSaleLimits(profile, profile.betLimits, input.limits) : null
    const at = ctx.now()
    if (limits) await putGameSaleLimits(tx, { gameId: game.id, limits, at, by: JSON.stringify(input.by) })
    else await deleteGameSaleLimits(tx, game.id, at, JSON.stringify(input.by))
    await appendJournal(tx, {
      at,
      type: 'game.sale_limits',
      scope: gameScope(game),
      payload: { gameId: game.id, limits, by: input.by, rule: 'CFG-7' },
    })
    return { gameId: game.id, saleLimits: limits }
  })
}

/** The game's own limits, or null (the hall's apply). */
export async function saleLimitsOfGame(sql: Sql, gameId: string): Promise<GameSaleLimits | null> {
  return gameSaleLimits(sql, gameId)
}
