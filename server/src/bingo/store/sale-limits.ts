/**
 * A game's own bet limits (CFG-7, migration 0340): the newest version, as the sale admits against it.
 *
 * The bingo line's SQL only (test/structure.test.ts); the checks and the journal record stay in the use case.
 */
import type { Sql } from '../../db/database.ts'
import type { GameSaleLimits } from '../sale-rules.ts'
import { touchRows } from '../../shared/row-seals.ts'
import type { GameRow } from './games.ts'

export async function gameSaleLimits(sql: Sql, gameId: string): Promise<GameSaleLimits | null> {
  const r = await sql.get<{ limits: string }>('SELECT limits FROM game_sale_limits WHERE game_id = ?', [gameId])
  return r ? (JSON.parse(r.limits) as GameSaleLimits | null) : null
}

/**
 * The game's limits row with its seal, in one statement (the sale counts its statements): `row` null when there is
 * none, and `sealSeq` set when the server sealed one (a row deleted behind the journal has its seal and no row).
 */
export async function gameSaleLimitsWithSeal(
  sql: Sql,
  gameId: string,
): Promise<{ row: Record<string, unknown> | null; sealSeq: number | null }> {
  const r = await sql.get<Record<string, unknown>>(
    `SELECT t.game_id, t.limits, t.authorisation_ref, t.set_at, t.set_by, s.journal_seq AS seal_seq, s.mac AS seal_mac
       FROM (SELECT CAST(? AS TEXT) AS gid) k
       LEFT JOIN game_sale_limits t ON t.game_id = k.gid
       LEFT JOIN row_seals s ON s.tbl = 'game_sale_limits' AND s.row_id = k.gid`,
    [gameId],
  )
  return {
    row: r && r.game_id !== null && r.game_id !== undefined ? r : null,
    sealSeq: r && r.seal_seq !== null && r.seal_seq !== undefined ? Number(r.seal_seq) : null,
  }
}

/**
 * The same read where the game's row joined the limits row and its seal in (`sl_*` columns, cashdesk `gameById`);
 * undefined where the read did not join them.
 */
export function saleLimitsJoined(
  game: GameRow,
): { row: Record<string, unknown> | null; sealSeq: number | null } | undefined {
  if (!('sl_seal_seq' in game)) return undefined
  const row =
    game.sl_game_id === null || game.sl_game_id === undefined
      ? null
      : {
          game_id: game.sl_game_id,
          limits: game.sl_limits,
          authorisation_ref: game.sl_authorisation_ref,
          set_at: game.sl_set_at,
          set_by: game.sl_set_by,
          seal_seq: game.sl_seal_seq,
          seal_mac: game.sl_seal_mac,
        }
  return { row, sealSeq: game.sl_seal_seq === null || game.sl_seal_seq === undefined ? null : Number(game.sl_seal_seq) }
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
  touchRows(sql, 'game_sale_limits', [row.gameId])
}

/**
 * The game's own limits removed (the hall's apply): kept as a sealed row whose limits are `null`, so that a row
 * deleted behind the journal (to lift a game's limits) is told from one the server removed (issue 24 point 1).
 */
export async function deleteGameSaleLimits(sql: Sql, gameId: string, at: string, by: string): Promise<void> {
  await sql.run('DELETE FROM game_sale_limits WHERE game_id = ?', [gameId])
  await sql.run(
    'INSERT INTO game_sale_limits (game_id, limits, authorisation_ref, set_at, set_by) VALUES (?, ?, NULL, ?, ?)',
    [gameId, 'null', at, by],
  )
  touchRows(sql, 'game_sale_limits', [gameId])
}
