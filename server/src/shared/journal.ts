import { nextChainRecord, type JournalRecord } from './journal-chain.ts'
import type { Sql } from '../db/database.ts'
import { insertJournalRow, journalRowsAfter, type JournalRow } from './store.ts'
import { withActor } from './request-context.ts'
import { sealPendingRows, takeSpentVoucher } from './row-seals.ts'
import { linkFor, rememberLink } from './journal-link.ts'
import { scrubJournalPayload } from './journal-privacy.ts'
import { transactionEngine } from '../db/scopes.ts'

export function toRecord(row: JournalRow): JournalRecord {
  return {
    seq: Number(row.seq),
    // A record written before chains has neither (it is the operator chain's, at its seq).
    ...(row.chain === null || row.chain === undefined ? {} : { chain: row.chain, chainSeq: Number(row.chain_seq) }),
    at: row.at,
    type: row.type,
    scope: row.scope,
    payload: JSON.parse(row.payload),
    prevHash: row.prev_hash,
    hash: row.hash,
  }
}

/**
 * Appends one record to the hash-chained journal inside the caller's transaction, so the event and the
 * state change it describes commit or vanish together.
 */
export async function appendJournal(
  tx: Sql,
  entry: { at: string; type: string; scope: string; payload: unknown },
): Promise<JournalRecord> {
  // Issue 23 point 5: the record goes to its scope's chain (which a scoped transaction must have locked), after the
  // chain's head; only the head's position and hash are read, never its payload.
  const link = await linkFor(tx, entry.scope, 1)
  const seq = link.seqs[0]
  // Issue 24 point 1: the value rows this transaction wrote are sealed under this record, which carries their MACs.
  // On PostgreSQL the seals are written by the record's own INSERT (one round trip under the chain's lock, not two).
  const seals: unknown[][] | undefined = transactionEngine() === 'postgres' ? [] : undefined
  const rowSeals = await sealPendingRows(tx, seq, seals)
  const payload = rowSeals ? { ...(entry.payload as Record<string, unknown>), rowSeals } : entry.payload
  // Issue 14 point 2: the authenticated person and device of the request being served name every record.
  // Issue 24 point 2: no bearer code and no identity document in clear in a record the journal never forgets.
  const record = nextChainRecord(seq, link.prev, { ...entry, payload: scrubJournalPayload(withActor(payload)) })
  await insertJournalRow(
    tx,
    {
      seq: record.seq,
      chain: record.chain!,
      chain_seq: record.chainSeq!,
      at: record.at,
      type: record.type,
      scope: record.scope,
      payload: JSON.stringify(record.payload),
      prev_hash: record.prevHash,
      hash: record.hash,
      // GEN-13: the voucher whose spent row this record seals, findable by index (outside the hashed content).
      voucher_id: takeSpentVoucher(tx, rowSeals),
    },
    seals,
  )
  rememberLink(tx, link.chain, seq, { chainSeq: record.chainSeq!, hash: record.hash })
  return record
}

/** Reads the journal in pages, in order, for verification and minutes. */
export async function* readJournal(
  db: Sql,
  options: { scopePrefix?: string; pageSize?: number } = {},
): AsyncGenerator<JournalRecord> {
  const pageSize = options.pageSize ?? 1000
  let after = 0
  for (;;) {
    const rows = await journalRowsAfter(db, after, pageSize, options.scopePrefix)
    if (rows.length === 0) return
    for (const row of rows) yield toRecord(row)
    after = Number(rows[rows.length - 1].seq)
  }
}
