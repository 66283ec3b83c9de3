/**
 * Appends many records to the hash-chained journal in one go, inside the caller's transaction: one read of the
 * last record, the chain computed in memory, then multi-row INSERTs (store.ts). The records are exactly those
 * `appendJournal` would write one by one (same seq, prevHash and hash: see `hashRecord` in journal-chain.ts), so
 * `verify-journal` cannot tell the difference; the group-committed lotto sale path uses it to journal every slip
 * of a batch.
 *
 * For speed the record's canonical JSON is assembled from the payload's canonical JSON (keys in the order
 * at, payload, prevHash, scope, seq, type), and that same payload text is what is stored. A caller may pass the
 * payload's canonical JSON ready-made (`payloadText`); journal-batch.test.ts checks both against `hashRecord`.
 */
import { createHash } from 'node:crypto'
import type { Sql } from '../db/database.ts'
import { DomainError } from './errors.ts'
import { canonicalJson, chainOfScope, GENESIS_HASH, type JournalEntry } from './journal-chain.ts'
import { insertJournalRows, insertRows } from './store.ts'
import { linkFor, rememberLink } from './journal-link.ts'
import { withActor } from './request-context.ts'
import { scrubJournalPayload } from './journal-privacy.ts'

// The SQL lives in store.ts; insertRows stays importable from here for the sale paths that use it.
export { insertRows }

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** A journal entry, optionally with its payload's canonical JSON already computed. */
export type BatchEntry = JournalEntry & { payloadText?: string }

/** The hash of a record from its parts, `payloadText` being canonicalJson(payload). Equals `hashRecord`. */
export function hashRecordText(
  r: { seq: number; chain: string; chainSeq: number; at: string; type: string; scope: string; prevHash: string },
  payloadText: string,
): string {
  const text = `{"at":${JSON.stringify(r.at)},"chain":${JSON.stringify(r.chain)},"chainSeq":${JSON.stringify(r.chainSeq)},"payload":${payloadText},"prevHash":${JSON.stringify(r.prevHash)},"scope":${JSON.stringify(r.scope)},"seq":${JSON.stringify(r.seq)},"type":${JSON.stringify(r.type)}}`
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** Appends `entries` in order; returns the seq and hash of each. */
export async function appendJournalBatch(
  tx: Sql,
  entries: readonly BatchEntry[],
): Promise<Array<{ seq: number; hash: string }>> {
  if (entries.length === 0) return []
  // Issue 23 point 5: records of several chains (a slip's hall and its product) are each chained after their own
  // chain's head; only the head's position and hash enter, never its payload.
  const byChain = new Map<string, number>()
  for (const e of entries) {
    if (typeof e.scope !== 'string') throw new DomainError('VALIDATION_FAILED', 'type and scope must be strings')
    const chain = chainOfScope(e.scope)
    byChain.set(chain, (byChain.get(chain) ?? 0) + 1)
  }
  const links = new Map<string, { seqs: number[]; chainSeq: number; prevHash: string }>()
  let reserved = 0
  for (const [chain, count] of byChain) {
    const link = await linkFor(tx, chain === 'operator' ? '' : chain, count, reserved)
    reserved = Math.max(reserved, ...link.seqs)
    links.set(chain, { seqs: link.seqs, chainSeq: link.prev?.chainSeq ?? 0, prevHash: link.prev?.hash ?? GENESIS_HASH })
  }
  // One growing seq across the batch, whatever the chains (each chain's seqs are already in order).
  const seqs = [...links.values()].flatMap((l) => l.seqs).sort((a, b) => a - b)
  const rows: unknown[][] = []
  const out: Array<{ seq: number; hash: string }> = []
  for (const [i, e] of entries.entries()) {
    if (typeof e.at !== 'string' || !ISO_TIME.test(e.at) || Number.isNaN(Date.parse(e.at)))
      throw new DomainError('VALIDATION_FAILED', `at must be an ISO 8601 time with offset, got ${JSON.stringify(e.at)}`)
    if (typeof e.type !== 'string' || e.type.length === 0 || typeof e.scope !== 'string')
      throw new DomainError('VALIDATION_FAILED', 'type and scope must be strings')
    // A ready-made payload text carries its actor already (the lotto sale path adds it); others get it here.
    // Issue 24 point 2: as appendJournal, no bearer code or clear identity document (a ready-made text holds neither).
    const payloadText = e.payloadText ?? canonicalJson(scrubJournalPayload(withActor(e.payload)))
    const chain = chainOfScope(e.scope)
    const link = links.get(chain)!
    const seq = seqs[i]
    link.chainSeq++
    const hash = hashRecordText(
      { seq, chain, chainSeq: link.chainSeq, at: e.at, type: e.type, scope: e.scope, prevHash: link.prevHash },
      payloadText,
    )
    rows.push([seq, chain, link.chainSeq, e.at, e.type, e.scope, payloadText, link.prevHash, hash])
    out.push({ seq, hash })
    link.prevHash = hash
  }
  await insertJournalRows(tx, rows)
  for (const [chain, link] of links)
    rememberLink(tx, chain, seqs[seqs.length - 1], { chainSeq: link.chainSeq, hash: link.prevHash })
  return out
}
