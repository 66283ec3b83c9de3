/** SQL of derived bingo games (BNG-102, CFG-34): the hall's recorded versions and the version each game plays. */
import type { Sql } from '../../db/database.ts'

/** The hall's derived bingo versions, newest first. */
export function derivedPlansOfHall(
  sql: Sql,
  hallId: string,
): Promise<Array<{ id: string; version: number; authorisation_ref: string; body: string }>> {
  return sql.all(
    "SELECT id, version, authorisation_ref, body FROM hall_plans WHERE hall_id = ? AND kind = 'derived' ORDER BY version DESC",
    [hallId],
  )
}

export async function insertDerivedGame(
  sql: Sql,
  g: { gameId: string; hallId: string; planVersion: number; authorisationRef: string; plan: string; at: string },
): Promise<void> {
  await sql.run(
    'INSERT INTO derived_games (game_id, hall_id, plan_version, authorisation_ref, plan, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [g.gameId, g.hallId, g.planVersion, g.authorisationRef, g.plan, g.at],
  )
}

export async function derivedPlanOfGame(sql: Sql, gameId: string): Promise<string | undefined> {
  return (await sql.get<{ plan: string }>('SELECT plan FROM derived_games WHERE game_id = ?', [gameId]))?.plan
}
