/**
 * SQL of the shared kernel that the HTTP edge reads directly.
 */
import type { Sql } from '../db/database.ts'

/** Up to `limit` journal records after sequence number `from`, in order, with their payloads parsed. */
export async function journalPage(sql: Sql, from: number, limit: number): Promise<Array<Record<string, unknown> & { payload: unknown }>> {
  const rows = await sql.all<Record<string, unknown>>('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?', [from, limit])
  return rows.map((r) => ({ ...r, payload: JSON.parse(String(r.payload)) }))
}
