/** SQL of the pots a hall funds (BNG-52, CFG-28): the sum of their contributions. */
import type { Sql } from '../../db/database.ts'
import type { Hall } from './halls.ts'

/** Basis points of the takings the hall's active pots take, without `exceptPotId`. */
export async function activePotsBpOfHall(sql: Sql, hallId: string): Promise<number> {
  const r = await sql.get<{ bp: number | null }>(
    "SELECT SUM(p.contribution_bp) AS bp FROM pots p JOIN pot_halls ph ON ph.pot_id = p.id WHERE ph.hall_id = ? AND p.status = 'active'",
    [hallId],
  )
  return Number(r?.bp ?? 0)
}

export function hallProfileAndSettings(
  sql: Sql,
  hallId: string,
): Promise<Pick<Hall, 'profileId' | 'settings'> | undefined> {
  return sql.get('SELECT profile_id AS "profileId", settings FROM halls WHERE id = ?', [hallId])
}
