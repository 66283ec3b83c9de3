/**
 * SQL of the shared kernel: the hash-chained journal, the multi-row INSERT the sale paths share, and the demo's
 * hall lookup. Every function takes the transaction (or connection) to run in as its first argument.
 */
import type { Sql } from '../db/database.ts'

// Journal append and read (journal.ts, journal-batch.ts)

/** A journal record as stored: `payload` is its JSON text. */
export interface JournalRow { seq: number; at: string; type: string; scope: string; payload: string; prev_hash: string; hash: string }

/** The newest journal record, whole (the chain's previous record for `appendJournal`). */
export function lastJournalRow(tx: Sql): Promise<JournalRow | undefined> {
  return tx.get<JournalRow>('SELECT seq, at, type, scope, payload, prev_hash, hash FROM journal ORDER BY seq DESC LIMIT 1')
}

/** Seq and hash of the newest journal record: all a batch needs to continue the chain. */
export function lastJournalLink(tx: Sql): Promise<{ seq: number; hash: string } | undefined> {
  return tx.get<{ seq: number; hash: string }>('SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1')
}

export async function insertJournalRow(tx: Sql, row: JournalRow): Promise<void> {
  await tx.run('INSERT INTO journal (seq, at, type, scope, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    row.seq, row.at, row.type, row.scope, row.payload, row.prev_hash, row.hash,
  ])
}

/** Up to `limit` records after `after`, in order; with `scopePrefix`, only that scope and the scopes under it. */
export function journalRowsAfter(db: Sql, after: number, limit: number, scopePrefix?: string): Promise<JournalRow[]> {
  return scopePrefix
    ? db.all<JournalRow>('SELECT * FROM journal WHERE seq > ? AND (scope = ? OR scope LIKE ?) ORDER BY seq LIMIT ?', [after, scopePrefix, `${scopePrefix}/%`, limit])
    : db.all<JournalRow>('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?', [after, limit])
}

/** Appends ready-made records (seq, at, type, scope, payload, prev_hash, hash values) with multi-row INSERTs. */
export function insertJournalRows(tx: Sql, rows: readonly unknown[][]): Promise<void> {
  return insertRows(tx, 'journal', ['seq', 'at', 'type', 'scope', 'payload', 'prev_hash', 'hash'], rows)
}

/** Rows per INSERT statement: a few fixed sizes keep the prepared-statement cache small. */
const CHUNKS = [64, 16, 4, 1] as const

/** Inserts `rows` (each `columns.length` values) into `table` with as few statements as the chunk sizes allow. */
export async function insertRows(tx: Sql, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  let i = 0
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `
  const tuple = `(${columns.map(() => '?').join(', ')})`
  while (i < rows.length) {
    const size = CHUNKS.find((c) => c <= rows.length - i) ?? 1
    const params: unknown[] = []
    for (let j = i; j < i + size; j++) for (const v of rows[j]) params.push(v)
    await tx.run(head + Array.from({ length: size }, () => tuple).join(', '), params)
    i += size
  }
}

// Demo hall lookup (demo.ts)

/** The first hall created, if any. */
export function oldestHall(db: Sql): Promise<{ id: string } | undefined> {
  return db.get<{ id: string }>('SELECT id FROM halls ORDER BY created_at LIMIT 1')
}

/** The newest session of a hall that is not closed. */
export function openSessionOfHall(db: Sql, hallId: string): Promise<{ id: string } | undefined> {
  return db.get<{ id: string }>("SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed' ORDER BY opened_at DESC LIMIT 1", [hallId])
}

/** The newest game of a hall, whatever its status. */
export function latestGameOfHall(db: Sql, hallId: string): Promise<{ id: string } | undefined> {
  return db.get<{ id: string }>('SELECT id FROM games WHERE hall_id = ? ORDER BY created_at DESC LIMIT 1', [hallId])
}

// Journal pages for the HTTP edge (http/app.ts)

/** Up to `limit` journal records after sequence number `from`, in order, with their payloads parsed. */
export async function journalPage(sql: Sql, from: number, limit: number): Promise<Array<Record<string, unknown> & { payload: unknown }>> {
  const rows = await sql.all<Record<string, unknown>>('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?', [from, limit])
  return rows.map((r) => ({ ...r, payload: JSON.parse(String(r.payload)) }))
}
