/**
 * The hash-chained journal (DESIGN.md "Contracts / Journal"). Every record holds the hash of the one before it in
 * its chain, so changing, removing, inserting or reordering any record breaks its chain at that point.
 *
 * Chains (issue 23 point 5): the journal is one chain per scope, so that on PostgreSQL writers of different halls
 * never wait on one lock. A record's chain follows from its `scope` ({@link chainOfScope}): the hall of a
 * `hall:<id>/...` scope, an operator product (`lotto`, `lottery`, `instant`) for `lotto:...` and the like, and
 * `operator` for everything else ('' included). Each chain counts its own records (`chainSeq` 1, 2, 3, ... without
 * gaps) from {@link GENESIS_HASH}. `seq` orders the whole journal: it only grows, and on PostgreSQL (a database
 * sequence shared by concurrent writers) it may have gaps left by rolled-back transactions; row seals name it.
 * Signed checkpoints hold every chain's head and so join the chains (checkpoints.ts).
 *
 * Record hash: lowercase hex SHA-256 of the UTF-8 bytes of
 * `canonicalJson({ seq, chain, chainSeq, at, type, scope, payload, prevHash })`.
 * Records written before chains (format 1, no `chain`) hash `canonicalJson({ seq, at, type, scope, payload,
 * prevHash })`; they are the start of the `operator` chain, with `chainSeq` = `seq` (1, 2, 3, ... as then), and the
 * operator chain's first new record continues from the last of them. History is never rewritten.
 *
 * A chain alone cannot reveal that records were cut off at the END: anchor the heads elsewhere (checkpoints, session
 * minutes, published reports) and check them.
 *
 * Pure: the time of a record arrives as a value.
 */
import { createHash } from 'node:crypto'
import { DomainError } from './errors.ts'

/** One journal record, as stored and as exported for audit. */
export interface JournalRecord {
  /** Position in the whole journal: only grows (gaps possible on PostgreSQL). Row seals name records by it. */
  seq: number
  /** The chain ({@link chainOfScope} of `scope`); absent on a record written before chains (the `operator` chain). */
  chain?: string
  /** 1, 2, 3, ... without gaps within the chain; absent before chains (it was `seq`). */
  chainSeq?: number
  /** ISO 8601 time with offset, e.g. "2025-03-01T20:15:00.000Z". */
  at: string
  /** Event type, e.g. "ticket.sold", "ball.called". */
  type: string
  /** What the event belongs to, e.g. "hall:1/session:2/game:3"; "" for system-wide events. */
  scope: string
  /** Any JSON value accepted by {@link canonicalJson}. */
  payload: unknown
  /** `hash` of the previous record of the chain, or {@link GENESIS_HASH} for its first. */
  prevHash: string
  /** {@link hashRecord} of this record. */
  hash: string
}

/** `prevHash` of the first record. */
export const GENESIS_HASH = '0'.repeat(64)

/** The chain of system-wide records, and of every record written before chains. */
export const OPERATOR_CHAIN = 'operator'
/** Operator products journaled outside any hall, each its own chain (a lotto slip sale locks its hall and `lotto`). */
export const PRODUCT_CHAINS = ['lotto', 'lottery', 'instant'] as const

/**
 * The chain of a record's scope: `hall:<id>` for a scope under a hall, the product for one under an operator product
 * (`lotto:L6/sales` → `lotto`), else `operator`. The chain is also the lock a scoped transaction must hold.
 * @example chainOfScope('hall:h_1/session:2/game:3') // 'hall:h_1'
 */
export function chainOfScope(scope: string): string {
  const first = scope.split('/', 1)[0]
  if (/^hall:./.test(first)) return first
  const kind = first.split(':', 1)[0]
  return (PRODUCT_CHAINS as readonly string[]).includes(kind) ? kind : OPERATOR_CHAIN
}

/** A record's chain (`operator` for a record written before chains). */
export function chainOf(r: Pick<JournalRecord, 'chain'>): string {
  return r.chain ?? OPERATOR_CHAIN
}

/** A record's position in its chain (its `seq` for a record written before chains). */
export function chainSeqOf(r: Pick<JournalRecord, 'chain' | 'chainSeq' | 'seq'>): number {
  return r.chain === undefined ? r.seq : (r.chainSeq ?? NaN)
}

const HEX64 = /^[0-9a-f]{64}$/
// ISO 8601 date-time with an explicit offset; the exact text is hashed, so it is kept as given.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * Canonical JSON: object keys sorted recursively (by UTF-16 code units, as `Array.prototype.sort` and RFC 8785
 * do), no whitespace, numbers and strings as `JSON.stringify` writes them. Two values that are equal as JSON
 * give the same text whatever the key order they were built with.
 *
 * Only JSON data is accepted, so that a value read back from storage hashes exactly like the value written:
 * plain objects (prototype `Object.prototype` or `null`), arrays, strings, finite numbers, booleans and null.
 *
 * @throws DomainError VALIDATION_FAILED naming the path of an undefined, function, symbol, bigint, NaN,
 *   Infinity, sparse array slot, non-plain object (Date, Map, class instance...) or cycle.
 * @example
 * canonicalJson({ b: [1, { d: null, c: 'x' }], a: true }) // '{"a":true,"b":[1,{"c":"x","d":null}]}'
 */
export function canonicalJson(value: unknown): string {
  return write(value, [], [])
}

/**
 * `at`: the keys and indexes leading to `value`, turned into a path ("$.payload.cards[2]") only for an error: a sale's
 * record is canonicalised on every sale, and building each value's path up front was most of what that allocated.
 */
function write(value: unknown, at: Array<string | number>, stack: object[]): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'number':
      if (!Number.isFinite(value)) throw notJson(at, String(value))
      // JSON.stringify writes -0 as "0", which is what a JSON reader gives back anyway.
      return JSON.stringify(value)
    case 'object': {
      if (value === null) return 'null'
      if (stack.includes(value)) throw notJson(at, 'a cycle')
      stack.push(value)
      let text: string
      if (Array.isArray(value)) {
        text = '['
        for (let i = 0; i < value.length; i++) {
          at.push(i)
          if (!(i in value)) throw notJson(at, 'an empty array slot')
          text += (i ? ',' : '') + write(value[i], at, stack)
          at.pop()
        }
        text += ']'
      } else {
        const proto = Object.getPrototypeOf(value)
        if (proto !== Object.prototype && proto !== null)
          throw notJson(at, `a ${value.constructor?.name ?? 'non-plain'} object`)
        if (Object.getOwnPropertySymbols(value).length > 0) throw notJson(at, 'a symbol key')
        const record = value as Record<string, unknown>
        const keys = Object.keys(record).sort()
        text = '{'
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]
          at.push(k)
          text += (i ? ',' : '') + JSON.stringify(k) + ':' + write(record[k], at, stack)
          at.pop()
        }
        text += '}'
      }
      stack.pop()
      return text
    }
    default:
      // undefined, function, symbol, bigint: JSON.stringify would drop or reject them inconsistently.
      throw notJson(at, typeof value)
  }
}

function notJson(at: ReadonlyArray<string | number>, what: string): DomainError {
  const path = '$' + at.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('')
  return new DomainError('VALIDATION_FAILED', `canonicalJson: ${what} at ${path} is not JSON data`)
}

/**
 * Hash of a record: lowercase hex SHA-256 of the UTF-8 of
 * `canonicalJson({ seq, chain, chainSeq, at, type, scope, payload, prevHash })`, or without `chain` and `chainSeq`
 * for a record written before chains. Other properties of `r` (such as `hash`) are ignored.
 */
export function hashRecord(r: Omit<JournalRecord, 'hash'>): string {
  const base = { seq: r.seq, at: r.at, type: r.type, scope: r.scope, payload: r.payload, prevHash: r.prevHash }
  // A record of format 1 (before chains) keeps the hash it was written with.
  const text = canonicalJson(r.chain === undefined ? base : { ...base, chain: r.chain, chainSeq: r.chainSeq })
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** What a caller supplies for a new record; the chain fields are computed. */
export interface JournalEntry {
  at: string
  type: string
  scope: string
  payload: unknown
}

/**
 * Builds the record that follows `prev` (or the first record when `prev` is null): `seq = prev.seq + 1`
 * (1 for the first), `prevHash = prev.hash` ({@link GENESIS_HASH} for the first), `hash` computed.
 *
 * @throws DomainError VALIDATION_FAILED for a bad time, empty type, non-string scope or non-JSON payload.
 * @example
 * const r1 = nextRecord(null, { at: '2025-03-01T20:00:00.000Z', type: 'session.opened', scope: 'hall:1/session:2', payload: {} })
 * const r2 = nextRecord(r1, { at: '2025-03-01T20:05:00.000Z', type: 'sales.closed', scope: 'hall:1/session:2/game:1', payload: { sold: 120 } })
 */
export function nextRecord(prev: Pick<JournalRecord, 'seq' | 'hash'> | null, entry: JournalEntry): JournalRecord {
  const problem = entryProblem(entry)
  if (problem) throw new DomainError('VALIDATION_FAILED', problem)
  const seq = prev ? prev.seq + 1 : 1
  const prevHash = prev ? prev.hash : GENESIS_HASH
  if (prev && (!Number.isSafeInteger(prev.seq) || prev.seq < 1 || !HEX64.test(prev.hash))) {
    throw new DomainError('VALIDATION_FAILED', 'previous record has no valid seq and hash')
  }
  const unsigned = { seq, at: entry.at, type: entry.type, scope: entry.scope, payload: entry.payload, prevHash }
  return { ...unsigned, hash: hashRecord(unsigned) }
}

/**
 * Builds the record `seq` of the journal that follows `prev` in the chain of `entry.scope` (its first record when
 * `prev` is null): `chainSeq = prev.chainSeq + 1`, `prevHash = prev.hash`, `hash` computed.
 */
export function nextChainRecord(
  seq: number,
  prev: { chainSeq: number; hash: string } | null,
  entry: JournalEntry,
): JournalRecord {
  const problem = entryProblem(entry)
  if (problem) throw new DomainError('VALIDATION_FAILED', problem)
  if (!Number.isSafeInteger(seq) || seq < 1)
    throw new DomainError('VALIDATION_FAILED', 'seq must be a positive integer')
  if (prev && (!Number.isSafeInteger(prev.chainSeq) || prev.chainSeq < 1 || !HEX64.test(prev.hash)))
    throw new DomainError('VALIDATION_FAILED', 'previous record has no valid chain seq and hash')
  const unsigned = {
    seq,
    chain: chainOfScope(entry.scope),
    chainSeq: prev ? prev.chainSeq + 1 : 1,
    at: entry.at,
    type: entry.type,
    scope: entry.scope,
    payload: entry.payload,
    prevHash: prev ? prev.hash : GENESIS_HASH,
  }
  return { ...unsigned, hash: hashRecord(unsigned) }
}

function entryProblem(entry: JournalEntry): string | null {
  if (typeof entry.at !== 'string' || !ISO_TIME.test(entry.at) || Number.isNaN(Date.parse(entry.at))) {
    return `at must be an ISO 8601 time with offset, got ${JSON.stringify(entry.at)}`
  }
  if (typeof entry.type !== 'string' || entry.type.length === 0) return 'type must be a non-empty string'
  if (typeof entry.scope !== 'string') return 'scope must be a string (may be empty)'
  return null
}

/** The head of one chain: its last record's position in the chain and hash. */
export interface ChainHead {
  chain: string
  seq: number
  hash: string
}

/**
 * Result of a journal check. `count` is the number of records found valid (before the bad one, if any); `lastSeq`
 * and `lastHash` are the journal's last record's, `chains` every chain's head (by chain name, sorted).
 */
export type ChainVerification =
  | { ok: true; count: number; lastSeq: number; lastHash: string; chains: ChainHead[] }
  | { ok: false; count: number; badSeq: number; reason: string }

/** Options of {@link verifyChain}. */
export interface ChainOptions {
  /**
   * Verify a segment that continues after a record of the operator chain already trusted (a checkpoint of a
   * journal written before chains): its seq and hash. Default: every chain starts at its first record.
   */
  after?: { seq: number; hash: string }
  /** The head anchored elsewhere (minutes, report): the journal's last record must have this seq and hash. */
  head?: { seq: number; hash: string }
}

/**
 * Incremental journal checker for streams that arrive piece by piece (database cursors, async readers). Feed
 * records in `seq` order with `push`; it returns the failure as soon as one is found and ignores later records.
 */
export interface ChainVerifier {
  /** Checks the next record; returns the failure the first time one is found, else null. */
  push(record: JournalRecord): (ChainVerification & { ok: false }) | null
  /** The outcome so far, including the `head` check once the stream has ended. */
  result(): ChainVerification
}

/** Creates a {@link ChainVerifier}: every chain checked on its own, and `seq` growing across the journal. */
export function createChainVerifier(options: ChainOptions = {}): ChainVerifier {
  // Per chain: the position and hash of its last record, and that record's seq (to name where a record is missing).
  const chains = new Map<string, { seq: number; hash: string; at: number }>()
  if (options.after)
    chains.set(OPERATOR_CHAIN, { seq: options.after.seq, hash: options.after.hash, at: options.after.seq })
  let lastSeq = options.after?.seq ?? 0
  let lastHash = options.after?.hash ?? GENESIS_HASH
  let count = 0
  let failure: (ChainVerification & { ok: false }) | null = null

  const fail = (badSeq: number, reason: string) => {
    failure = { ok: false, count, badSeq, reason }
    return failure
  }

  return {
    push(record) {
      if (failure) return null
      // badSeq is where the journal breaks: the record itself when it is altered, or the position a missing or
      // moved record of its chain should hold (one past that chain's last good record), as for a single chain.
      const problem = recordShapeProblem(record)
      if (problem) return fail(lastSeq + 1, `record ${lastSeq + 1}: ${problem}`)
      const chain = chainOf(record)
      const at = chainSeqOf(record)
      const name = record.chain === undefined ? `record ${record.seq}` : `record ${record.seq} (chain ${chain} #${at})`
      if (record.seq <= lastSeq)
        return fail(
          lastSeq + 1,
          `record ${lastSeq + 1}: found seq ${record.seq} where seq ${lastSeq + 1} or later was expected (a record is repeated or out of order)`,
        )
      if (record.chain !== undefined && record.chain !== chainOfScope(record.scope))
        return fail(
          record.seq,
          `${name}: its scope ${JSON.stringify(record.scope)} belongs to chain ${chainOfScope(record.scope)} (moved between chains)`,
        )
      const prev = chains.get(chain) ?? { seq: 0, hash: GENESIS_HASH, at: 0 }
      const expected = prev.seq + 1
      if (at !== expected) {
        const why = at > expected ? 'a record is missing or out of order' : 'a record is repeated or out of order'
        // Before chains, seq had no gaps: the missing record is the seq skipped, named as it was then.
        if (record.chain === undefined)
          return fail(
            expected,
            `record ${expected}: found seq ${record.seq} where seq ${expected} was expected (${why})`,
          )
        return fail(prev.at + 1, `${name}: found chain ${chain} #${at} where #${expected} was expected (${why})`)
      }
      if (record.prevHash !== prev.hash) {
        return fail(
          record.seq,
          `${name}: prevHash ${record.prevHash} does not match the hash of the record before it in chain ${chain}, ${prev.hash}`,
        )
      }
      let actual: string
      try {
        actual = hashRecord(record)
      } catch (e) {
        return fail(record.seq, `${name}: ${(e as Error).message}`)
      }
      if (actual !== record.hash) {
        return fail(
          record.seq,
          `${name}: stored hash ${record.hash} does not match its contents, which hash to ${actual}`,
        )
      }
      count++
      chains.set(chain, { seq: at, hash: record.hash, at: record.seq })
      lastSeq = record.seq
      lastHash = record.hash
      return null
    },
    result() {
      if (failure) return failure
      const head = options.head
      if (head && (head.seq !== lastSeq || head.hash !== lastHash)) {
        const badSeq = Math.min(lastSeq + 1, head.seq)
        return {
          ok: false,
          count,
          badSeq,
          reason:
            head.seq > lastSeq
              ? `the journal ends at seq ${lastSeq} but the anchored head is seq ${head.seq}: records ${lastSeq + 1}..${head.seq} are missing`
              : `the anchored head is seq ${head.seq} with hash ${head.hash}, but the journal has seq ${lastSeq} with hash ${lastHash}`,
        }
      }
      const heads = [...chains.entries()]
        .map(([chain, h]) => ({ chain, seq: h.seq, hash: h.hash }))
        .sort((x, y) => (x.chain < y.chain ? -1 : x.chain > y.chain ? 1 : 0))
      return { ok: true, count, lastSeq, lastHash, chains: heads }
    },
  }
}

/**
 * Recomputes every chain and names the first record that does not match: a shape error, a chain position skipped
 * or repeated (missing, inserted or reordered records), a record whose scope is not its chain's (moved between
 * chains), a `prevHash` that is not the previous hash of its chain, a `hash` that is not the record's own, or a
 * `seq` that does not grow. Iterates `records` once and keeps one entry per chain, so it can run over a cursor.
 */
export function verifyChain(records: Iterable<JournalRecord>, options: ChainOptions = {}): ChainVerification {
  const verifier = createChainVerifier(options)
  for (const record of records) {
    if (verifier.push(record)) break
  }
  return verifier.result()
}

function recordShapeProblem(record: unknown): string | null {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'not an object'
  const r = record as Record<string, unknown>
  if (!Number.isSafeInteger(r.seq)) return `seq must be an integer, got ${JSON.stringify(r.seq)}`
  if (r.chain !== undefined && (typeof r.chain !== 'string' || !Number.isSafeInteger(r.chainSeq)))
    return 'chain must be a string with an integer chainSeq'
  if (typeof r.prevHash !== 'string' || !HEX64.test(r.prevHash)) return 'prevHash must be 64 lowercase hex characters'
  if (typeof r.hash !== 'string' || !HEX64.test(r.hash)) return 'hash must be 64 lowercase hex characters'
  return entryProblem(r as unknown as JournalEntry)
}
