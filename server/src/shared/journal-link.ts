/**
 * Where the next records of a chain go (journal-chain.ts): their `seq` in the whole journal and the head of their
 * chain. Under the transaction's lock on the chain (db/scopes.ts) no one else appends to it, so its head is read
 * once per transaction and then carried in memory (row-seals.ts knownJournalHead). `seq`: on PostgreSQL a database
 * sequence, shared by transactions of other chains running beside this one (a rolled-back transaction leaves a
 * gap); on SQLite, with one writer, the last seq plus one.
 */
import type { Sql } from '../db/database.ts'
import { assertChainHeld, transactionEngine } from '../db/scopes.ts'
import { chainOfScope } from './journal-chain.ts'
import { knownJournalHead, rememberJournalHead, spareJournalSeqs, type JournalTip } from './row-seals.ts'
import { chainHead, lastJournalSeq, nextJournalSeqs } from './store.ts'

/**
 * PostgreSQL: how many of the journal's sequence values a transaction draws at once. A sale writes two records or
 * more and a group-commit batch several sales; the values drawn and not used by the transaction's end are a gap in
 * `seq` (as a rolled-back transaction's are), never reused by another transaction, so committedJournalHorizon's
 * reasoning (whoever holds a seq at or below the sequence's value held the lock when it was read) still holds.
 */
const SEQS_AHEAD = 16

export interface JournalLink {
  chain: string
  /** The `seq` of each record to append, in order. */
  seqs: number[]
  /** The chain's head before them (null: the chain's first record). */
  prev: { chainSeq: number; hash: string } | null
}

/**
 * Reserves `count` records of the chain of `scope`; throws when a scoped transaction did not lock that chain.
 * `after`: a seq this transaction already reserved and not yet remembered (a batch over several chains).
 */
export async function linkFor(tx: Sql, scope: string, count: number, after = 0): Promise<JournalLink> {
  const chain = chainOfScope(scope)
  assertChainHeld(chain)
  const tip = knownJournalHead(tx)
  const known = tip?.chains.get(chain)
  let seqs: number[]
  let prev: { chainSeq: number; hash: string } | null
  if (transactionEngine() === 'postgres') {
    // Seqs drawn ahead by this transaction first (each draw is a round trip under the batch's locks); a chain whose
    // head is not known yet reads it in the same round trip as the seqs drawn after them.
    // Outside a row-seal body (no transaction state to keep them in) only what is needed is drawn.
    const pool = spareJournalSeqs(tx)
    seqs = pool ? pool.splice(0, Math.min(count, pool.length)) : []
    let read: Awaited<ReturnType<typeof nextJournalSeqs>> = []
    if (seqs.length < count || !known) {
      const need = count - seqs.length
      read = await nextJournalSeqs(tx, pool ? Math.max(need, SEQS_AHEAD) : Math.max(need, 1), known ? null : chain)
      // Each draw's values are above every earlier one's: the spares stay in order after those taken now.
      const drawn = read.map((r) => Number(r.seq)).sort((a, b) => a - b)
      seqs.push(...drawn.slice(0, need))
      pool?.push(...drawn.slice(need))
    }
    const head = known ?? (read[0]?.hash ? { seq: Number(read[0].chain_seq), hash: read[0].hash } : undefined)
    prev = head ? { chainSeq: head.seq, hash: head.hash } : await legacyHead(tx, chain)
  } else {
    const last = Math.max(after, tip?.seq ?? Number((await lastJournalSeq(tx)) ?? 0))
    seqs = Array.from({ length: count }, (_, i) => last + i + 1)
    const head = known ?? (await chainHead(tx, chain))
    prev = head ? { chainSeq: Number(head.seq), hash: head.hash } : await legacyHead(tx, chain)
  }
  return { chain, seqs, prev }
}

/** The operator chain's first new record continues from the last record written before chains (if any). */
async function legacyHead(tx: Sql, chain: string): Promise<{ chainSeq: number; hash: string } | null> {
  if (chain !== 'operator') return null
  const head = await chainHead(tx, null)
  return head ? { chainSeq: Number(head.seq), hash: head.hash } : null
}

/** After the INSERT: the chain's new head and the journal's last seq, for the transaction's next records. */
export function rememberLink(tx: Sql, chain: string, seq: number, head: { chainSeq: number; hash: string }): void {
  const tip = knownJournalHead(tx)
  const chains = new Map(tip?.chains)
  chains.set(chain, { seq: head.chainSeq, hash: head.hash })
  const next: JournalTip = { seq: Math.max(seq, tip?.seq ?? 0), chains }
  rememberJournalHead(tx, next)
}
