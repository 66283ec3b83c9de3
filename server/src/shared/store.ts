/**
 * SQL of the shared kernel: the hash-chained journal, the multi-row INSERT the sale paths share, and the demo's
 * hall lookup. Every function takes the transaction (or connection) to run in as its first argument.
 */
import type { Sql } from '../db/database.ts'

// Journal append and read (journal.ts, journal-batch.ts)

/** A journal record as stored: `payload` is its JSON text. */
export interface JournalRow { seq: number; at: string; type: string; scope: string; payload: string; prev_hash: string; hash: string }

/** Seq and hash of the newest journal record: all `appendJournal` or a batch needs to continue the chain. */
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
/** Issue 24 point 4: the payloads of the demo's `demo.seeded` records (the scopes its demo beacon may sign). */
export function demoSeededPayloads(db: Sql): Promise<Array<{ payload: string }>> {
  return db.all("SELECT payload FROM journal WHERE type = 'demo.seeded' ORDER BY seq")
}

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

// Signed journal checkpoints (checkpoint-service.ts; DESIGN.md "Journal")

export interface CheckpointRow { seq: number; hash: string; at: string; key_id: string; signature: string; reason: string }

/** Stores a checkpoint; a second one of the same head is not stored again. */
export async function insertCheckpoint(tx: Sql, c: CheckpointRow): Promise<boolean> {
  const seen = await tx.get('SELECT seq FROM journal_checkpoints WHERE seq = ?', [c.seq])
  if (seen) return false
  await tx.run('INSERT INTO journal_checkpoints (seq, hash, at, key_id, signature, reason) VALUES (?, ?, ?, ?, ?, ?)', [c.seq, c.hash, c.at, c.key_id, c.signature, c.reason])
  return true
}

export function lastCheckpointRow(sql: Sql): Promise<CheckpointRow | undefined> {
  return sql.get<CheckpointRow>('SELECT * FROM journal_checkpoints ORDER BY seq DESC LIMIT 1')
}

/** Checkpoints in seq order, after `after`, at most `limit`. */
export function checkpointRows(sql: Sql, after: number, limit: number): Promise<CheckpointRow[]> {
  return sql.all<CheckpointRow>('SELECT * FROM journal_checkpoints WHERE seq > ? ORDER BY seq LIMIT ?', [after, limit])
}

/** Checkpoints signed between two instants (ISO 8601, inclusive), in seq order. */
export function checkpointRowsBetween(sql: Sql, from: string, to: string): Promise<CheckpointRow[]> {
  return sql.all<CheckpointRow>('SELECT * FROM journal_checkpoints WHERE at >= ? AND at <= ? ORDER BY seq', [from, to])
}
