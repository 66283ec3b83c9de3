/** SQL of the per-player split (BNG-53): the identified player each winning card was sold to, if any. */
import type { Sql } from '../../db/database.ts'

export async function playerKeysOfCards(sql: Sql, cardIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  if (cardIds.length === 0) return out
  const rows = await sql.all<{ card_id: string; player_key: string }>(
    `SELECT card_id, player_key FROM player_cards WHERE card_id IN (${cardIds.map(() => '?').join(', ')})`,
    [...cardIds],
  )
  for (const r of rows) out.set(r.card_id, r.player_key)
  return out
}
