/**
 * A game's own bet limits (CFG-7, migration 0340): the newest version, as the sale admits against it.
 *
 * The bingo line's SQL only (test/structure.test.ts); the checks and the journal record stay in the use case.
 */
import type { Sql } from '../../db/database.ts'
import type { GameSaleLimits } from '../sale-rules.ts'

export async function gameSaleLimits(sql: Sql, gameId: string): Promise<GameSaleLimits | null> {
  const r = await sql.get<{ limits: string }>('SELECT limits FROM game_sale_limits WHERE game_id = ?', [gameId])
  return r ? (JSON.parse(r.limits) as GameSaleLimits) : null
}

export async function putGameSaleLimits(
  sql: Sql,
  row: { gameId: string; limits: GameSaleLimits; at: string; by: string },
): Promise<void> {
  await sql.run('DELETE FROM game_sale_limits WHERE game_id = ?', [row.gameId])
  await sql.run(
    'INSERT INTO game_sale_limits (game_id, limits, authorisation_ref, set_at, set_by) VALUES (?, ?, ?, ?, ?)',
    [row.gameId, JSON.stringify(row.limits), row.limits.authorisationRef, row.at, row.by],
  )
}

export async function deleteGameSaleLimits(sql: Sql, gameId: string): Promise<void> {
  await sql.run('DELETE FROM game_sale_limits WHERE game_id = ?', [gameId])
}
