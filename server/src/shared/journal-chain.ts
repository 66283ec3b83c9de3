/**
 * The hash-chained journal (DESIGN.md "Contracts / Journal"). Every record holds the hash of the one before,
 * so changing, removing, inserting or reordering any record breaks the chain at that point.
 *
 * Record hash: lowercase hex SHA-256 of the UTF-8 bytes of
 * `canonicalJson({ seq, at, type, scope, payload, prevHash })`. The first record has `seq` 1 and
 * `prevHash` = {@link GENESIS_HASH} (64 zeros); each next record has `seq + 1` and the previous `hash`.
 *
 * The chain alone cannot reveal that records were cut off at the END: anchor the last hash elsewhere (session
 * minutes, published reports) and check it with `verifyChain(records, { head })`.
 *
 * Pure: the time of a record arrives as a value.
 */
import { createHash } from 'node:crypto'
import { DomainError } from './errors.ts'

/** One journal record, as stored and as exported for audit. */
export interface JournalRecord {
  /** 1, 2, 3, ... without gaps. */
  seq: number
  /** ISO 8601 time with offset, e.g. "2025-03-01T20:15:00.000Z". */
  at: string
  /** Event type, e.g. "ticket.sold", "ball.called". */
  type: string
  /** What the event belongs to, e.g. "hall:1/session:2/game:3"; "" for system-wide events. */
  scope: string
  /** Any JSON value accepted by {@link canonicalJson}. */
  payload: unknown
  /** `hash` of the previous record, or {@link GENESIS_HASH} for seq 1. */
  prevHash: string
  /** {@link hashRecord} of this record. */
  hash: string
}

/** `prevHash` of the first record. */
export const GENESIS_HASH = '0'.repeat(64)

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
  return write(value, '$', [])
}

function write(value: unknown, path: string, stack: object[]): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'number':
      if (!Number.isFinite(value)) throw notJson(path, String(value))
      // JSON.stringify writes -0 as "0", which is what a JSON reader gives back anyway.
      return JSON.stringify(value)
    case 'object': {
      if (value === null) return 'null'
      if (stack.includes(value)) throw notJson(path, 'a cycle')
      stack.push(value)
      let text: string
      if (Array.isArray(value)) {
        const items: string[] = []
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) throw notJson(`${path}[${i}]`, 'an empty array slot')
          items.push(write(value[i], `${path}[${i}]`, stack))
        }
        text = `[${items.join(',')}]`
      } else {
        const proto = Object.getPrototypeOf(value)
        if (proto !== Object.prototype && proto !== null)
          throw notJson(path, `a ${value.constructor?.name ?? 'non-plain'} object`)
        if (Object.getOwnPropertySymbols(value).length > 0) throw notJson(path, 'a symbol key')
        const record = value as Record<string, unknown>
        const keys = Object.keys(record).sort()
        text = `{${keys.map((k) => `${JSON.stringify(k)}:${write(record[k], `${path}.${k}`, stack)}`).join(',')}}`
      }
      stack.pop()
      return text
    }
    default:
      // undefined, function, symbol, bigint: JSON.stringify would drop or reject them inconsistently.
      throw notJson(path, typeof value)
  }
}

function notJson(path: string, what: string): DomainError {
  return new DomainError('VALIDATION_FAILED', `canonicalJson: ${what} at ${path} is not JSON data`)
}

/**
 * Hash of a record: lowercase hex SHA-256 of the UTF-8 of
 * `canonicalJson({ seq, at, type, scope, payload, prevHash })`. Other properties of `r` (such as `hash`) are
 * ignored.
 */
export function hashRecord(r: Omit<JournalRecord, 'hash'>): string {
  const text = canonicalJson({
    seq: r.seq,
    at: r.at,
    type: r.type,
    scope: r.scope,
    payload: r.payload,
    prevHash: r.prevHash,
  })
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

function entryProblem(entry: JournalEntry): string | null {
  if (typeof entry.at !== 'string' || !ISO_TIME.test(entry.at) || Number.isNaN(Date.parse(entry.at))) {
    return `at must be an ISO 8601 time with offset, got ${JSON.stringify(entry.at)}`
  }
  if (typeof entry.type !== 'string' || entry.type.length === 0) return 'type must be a non-empty string'
  if (typeof entry.scope !== 'string') return 'scope must be a string (may be empty)'
  return null
}

/** Result of a chain check. `count` is the number of records found valid (before the bad one, if any). */
export type ChainVerification =
  | { ok: true; count: number; lastSeq: number; lastHash: string }
  | { ok: false; count: number; badSeq: number; reason: string }

/** Options of {@link verifyChain}. */
export interface ChainOptions {
  /**
   * Verify a segment that continues after a record already trusted (a checkpoint): its seq and hash.
   * Default: the chain starts at seq 1 after {@link GENESIS_HASH}.
   */
  after?: { seq: number; hash: string }
  /** The head anchored elsewhere (minutes, report): the last record must have this seq and hash. */
  head?: { seq: number; hash: string }
}

/**
 * Incremental chain checker for streams that arrive piece by piece (database cursors, async readers). Feed
 * records in order with `push`; it returns the failure as soon as one is found and ignores later records.
 */
export interface ChainVerifier {
  /** Checks the next record; returns the failure the first time one is found, else null. */
  push(record: JournalRecord): (ChainVerification & { ok: false }) | null
  /** The outcome so far, including the `head` check once the stream has ended. */
  result(): ChainVerification
}

/** Creates a {@link ChainVerifier}. */
export function createChainVerifier(options: ChainOptions = {}): ChainVerifier {
  let expectedSeq = (options.after?.seq ?? 0) + 1
  let expectedPrev = options.after?.hash ?? GENESIS_HASH
  let count = 0
  let failure: (ChainVerification & { ok: false }) | null = null

  const fail = (badSeq: number, reason: string) => {
    failure = { ok: false, count, badSeq, reason }
    return failure
  }

  return {
    push(record) {
      if (failure) return null
      // badSeq is the position where the chain breaks (the seq the record there should have), so that a
      // deleted, inserted, reordered or renumbered record is named the same way as an altered one.
      const problem = recordShapeProblem(record)
      if (problem) return fail(expectedSeq, `record ${expectedSeq}: ${problem}`)
      if (record.seq !== expectedSeq) {
        const why =
          record.seq > expectedSeq ? 'a record is missing or out of order' : 'a record is repeated or out of order'
        return fail(
          expectedSeq,
          `record ${expectedSeq}: found seq ${record.seq} where seq ${expectedSeq} was expected (${why})`,
        )
      }
      if (record.prevHash !== expectedPrev) {
        return fail(
          expectedSeq,
          `record ${expectedSeq}: prevHash ${record.prevHash} does not match the hash of the record before it, ${expectedPrev}`,
        )
      }
      let actual: string
      try {
        actual = hashRecord(record)
      } catch (e) {
        return fail(expectedSeq, `record ${expectedSeq}: ${(e as Error).message}`)
      }
      if (actual !== record.hash) {
        return fail(
          expectedSeq,
          `record ${expectedSeq}: stored hash ${record.hash} does not match its contents, which hash to ${actual}`,
        )
      }
      count++
      expectedSeq++
      expectedPrev = record.hash
      return null
    },
    result() {
      if (failure) return failure
      const lastSeq = expectedSeq - 1
      const head = options.head
      if (head && (head.seq !== lastSeq || head.hash !== expectedPrev)) {
        const badSeq = Math.min(lastSeq + 1, head.seq)
        return {
          ok: false,
          count,
          badSeq,
          reason:
            head.seq > lastSeq
              ? `the journal ends at seq ${lastSeq} but the anchored head is seq ${head.seq}: records ${lastSeq + 1}..${head.seq} are missing`
              : `the anchored head is seq ${head.seq} with hash ${head.hash}, but the journal has seq ${lastSeq} with hash ${expectedPrev}`,
        }
      }
      return { ok: true, count, lastSeq, lastHash: expectedPrev }
    },
  }
}

/**
 * Recomputes the chain and names the first record that does not match: a shape error, a seq gap or repeat
 * (missing, inserted or reordered records), a `prevHash` that is not the previous hash, or a `hash` that is not
 * the record's own. Iterates `records` once and keeps O(1) state, so it can run over a database cursor.
 *
 * On failure, `badSeq` is the seq at which the chain breaks (the seq expected at that position) and `count`
 * is the number of records verified before it.
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
  if (typeof r.prevHash !== 'string' || !HEX64.test(r.prevHash)) return 'prevHash must be 64 lowercase hex characters'
  if (typeof r.hash !== 'string' || !HEX64.test(r.hash)) return 'hash must be 64 lowercase hex characters'
  return entryProblem(r as unknown as JournalEntry)
}
