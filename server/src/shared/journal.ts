import { nextRecord, type JournalRecord } from './journal-chain.ts'
import type { Sql } from '../db/database.ts'

interface JournalRow { seq: number; at: string; type: string; scope: string; payload: string; prev_hash: string; hash: string }

export function toRecord(row: JournalRow): JournalRecord {
  return { seq: Number(row.seq), at: row.at, type: row.type, scope: row.scope, payload: JSON.parse(row.payload), prevHash: row.prev_hash, hash: row.hash }
}

/**
 * Appends one record to the hash-chained journal inside the caller's transaction, so the event and the
 * state change it describes commit or vanish together.
 */
export async function appendJournal(tx: Sql, entry: { at: string; type: string; scope: string; payload: unknown }): Promise<JournalRecord> {
  const last = await tx.get<JournalRow>('SELECT seq, at, type, scope, payload, prev_hash, hash FROM journal ORDER BY seq DESC LIMIT 1')
  const record = nextRecord(last ? toRecord(last) : null, entry)
  await tx.run('INSERT INTO journal (seq, at, type, scope, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    record.seq, record.at, record.type, record.scope, JSON.stringify(record.payload), record.prevHash, record.hash,
  ])
  return record
}

/** Reads the journal in pages, in order, for verification and minutes. */
export async function* readJournal(db: Sql, options: { scopePrefix?: string; pageSize?: number } = {}): AsyncGenerator<JournalRecord> {
  const pageSize = options.pageSize ?? 1000
  let after = 0
  for (;;) {
    const rows = options.scopePrefix
      ? await db.all<JournalRow>('SELECT * FROM journal WHERE seq > ? AND (scope = ? OR scope LIKE ?) ORDER BY seq LIMIT ?', [after, options.scopePrefix, `${options.scopePrefix}/%`, pageSize])
      : await db.all<JournalRow>('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?', [after, pageSize])
    if (rows.length === 0) return
    for (const row of rows) yield toRecord(row)
    after = Number(rows[rows.length - 1].seq)
  }
}
