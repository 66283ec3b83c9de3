/** SQL of the prize figures a game plays (CFG-13, BNG-103, CFG-35): the hall's approved plans and each game's figures. */
import type { Sql } from '../../db/database.ts'
import type { Figure } from '../patterns.ts'
import { touchRows } from '../../shared/row-seals.ts'

export interface GameFigure {
  gameId: string
  figure: Figure
  shareBp: number
  planVersion: number
  authorisationRef: string
  poolCents: number | null
  awardedAt: string | null
}

interface GameFigureRow {
  game_id: string
  figure: string
  share_bp: number | string
  plan_version: number | string
  authorisation_ref: string
  pool_cents: number | string | null
  awarded_at: string | null
}

const toGameFigure = (r: GameFigureRow): GameFigure => ({
  gameId: r.game_id,
  figure: r.figure as Figure,
  shareBp: Number(r.share_bp),
  planVersion: Number(r.plan_version),
  authorisationRef: r.authorisation_ref,
  poolCents: r.pool_cents === null ? null : Number(r.pool_cents),
  awardedAt: r.awarded_at,
})

/** The hall's newest figure plan (version, reference, body), or undefined. */
export function newestFigurePlanOfHall(
  sql: Sql,
  hallId: string,
): Promise<{ id: string; version: number; authorisation_ref: string; body: string } | undefined> {
  return sql.get(
    "SELECT id, version, authorisation_ref, body FROM hall_plans WHERE hall_id = ? AND kind = 'figures' ORDER BY version DESC LIMIT 1",
    [hallId],
  )
}

export async function insertGameFigure(
  sql: Sql,
  f: {
    gameId: string
    figure: Figure
    position: number
    shareBp: number
    planVersion: number
    authorisationRef: string
  },
): Promise<void> {
  await sql.run(
    'INSERT INTO game_figures (game_id, figure, position, share_bp, plan_version, authorisation_ref) VALUES (?, ?, ?, ?, ?, ?)',
    [f.gameId, f.figure, f.position, f.shareBp, f.planVersion, f.authorisationRef],
  )
  touchRows(sql, 'game_figures', [`${f.gameId}|${f.figure}`])
}

/** A game's figures in the order they were announced (the plan's order). */
export async function figuresOfGame(sql: Sql, gameId: string): Promise<GameFigure[]> {
  const rows = await sql.all<GameFigureRow>('SELECT * FROM game_figures WHERE game_id = ? ORDER BY position', [gameId])
  return rows.map(toGameFigure)
}

export async function setFigurePool(sql: Sql, gameId: string, figure: Figure, poolCents: number): Promise<void> {
  await sql.run('UPDATE game_figures SET pool_cents = ? WHERE game_id = ? AND figure = ?', [poolCents, gameId, figure])
  touchRows(sql, 'game_figures', [`${gameId}|${figure}`])
}

/** Marks the figure's prize as given; false if it already was (a second award of the same figure is refused). */
export async function markFigureAwarded(sql: Sql, gameId: string, figure: Figure, at: string): Promise<boolean> {
  const r = await sql.run(
    'UPDATE game_figures SET awarded_at = ? WHERE game_id = ? AND figure = ? AND awarded_at IS NULL',
    [at, gameId, figure],
  )
  if (r.changes === 1) touchRows(sql, 'game_figures', [`${gameId}|${figure}`])
  return r.changes === 1
}
