/**
 * Appends many records to the hash-chained journal in one go, inside the caller's transaction: one read of the
 * last record, the chain computed in memory, then multi-row INSERTs. The records are exactly those
 * `appendJournal` would write one by one (same `nextRecord`), so `verify-journal` cannot tell the difference; the
 * group-committed lotto sale path uses it to journal every slip of a batch.
 */
import type { Sql } from '../db/database.ts'
import { nextRecord, type JournalEntry, type JournalRecord } from '../domain/journal-chain.ts'

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

/** Appends `entries` in order and returns their records. */
export async function appendJournalBatch(tx: Sql, entries: readonly JournalEntry[]): Promise<JournalRecord[]> {
  if (entries.length === 0) return []
  // Only seq and hash of the previous record enter the chain: the payload is not read back.
  const last = await tx.get<{ seq: number; hash: string }>('SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1')
  let prev: JournalRecord | null = last ? { seq: Number(last.seq), hash: last.hash, at: '', type: '', scope: '', payload: null, prevHash: '' } : null
  const records: JournalRecord[] = []
  for (const e of entries) {
    prev = nextRecord(prev, e)
    records.push(prev)
  }
  await insertRows(tx, 'journal', ['seq', 'at', 'type', 'scope', 'payload', 'prev_hash', 'hash'],
    records.map((r) => [r.seq, r.at, r.type, r.scope, JSON.stringify(r.payload), r.prevHash, r.hash]))
  return records
}
