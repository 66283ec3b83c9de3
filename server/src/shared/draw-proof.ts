/**
 * The `bolillo-draw-v1` draw proof (DESIGN.md "Contracts / Draw proof"). Every RNG draw is reproducible by
 * anyone from published values, and the operator cannot choose the outcome after seeing the sales:
 *
 * 1. At game creation the server takes a 32-byte secret seed `S` from the OS CSPRNG and publishes
 *    `C = hex(SHA-256(S))` ({@link commitmentOf}).
 * 2. At close of sales it fixes `D = hex(SHA-256(sold serials sorted by UTF-8 byte order, joined by "\n"))`
 *    ({@link salesDigest}) and an optional external entropy string `X`.
 * 3. `K = HMAC-SHA256(key = S, msg = UTF-8("bolillo-draw-v1|" + gameId + "|" + D + "|" + X))` ({@link drawKey}).
 * 4. Stream: block `i` = `HMAC-SHA256(key = K, msg = uint32be(i))`, blocks concatenated, read as big-endian
 *    uint32 values ({@link DrawStream}).
 * 5. Fisher-Yates from the top with rejection sampling ({@link shuffleOrder}); the extraction order is `a[0..N-1]`.
 *
 * Pure: `node:crypto` is used only for hashing; the seed arrives as an argument.
 */
import { createHash, createHmac } from 'node:crypto'
import { DomainError } from './errors.ts'

/** Version tag of the algorithm; part of the key derivation message and of every published proof. */
export const DRAW_PROOF_VERSION = 'bolillo-draw-v1'

/** Seed length fixed by the contract. */
export const SEED_BYTES = 32

/**
 * Largest N accepted by {@link shuffleOrder}. The algorithm itself works up to 2^32; the cap only protects
 * memory (a draw among 16 million tickets is far beyond any real issue).
 */
export const MAX_DRAW_SIZE = 2 ** 24

/** SHA-256 of the empty string: the sales digest of a game that sold nothing. */
export const EMPTY_SALES_DIGEST = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

const TWO_POW_32 = 2 ** 32
const HEX64 = /^[0-9a-f]{64}$/
// In a `u` regex a surrogate class only matches *unpaired* surrogates, which have no UTF-8 encoding.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

/**
 * Commitment to a seed: `hex(SHA-256(S))`, lowercase. Published before sales so that the seed cannot be
 * changed afterwards.
 */
export function commitmentOf(seed: Uint8Array): string {
  assertSeed(seed)
  return createHash('sha256').update(seed).digest('hex')
}

/**
 * Compares two strings by the bytes of their UTF-8 encoding (which is also Unicode code point order).
 * JavaScript's `<` compares UTF-16 code units and `localeCompare` follows a collation; neither is what the
 * contract fixes, and both differ from byte order for some inputs ("B" < "a" in bytes; "😀" vs "\uFFFD").
 */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

/**
 * Returns a sorted copy of `serials` in ascending UTF-8 byte order, the order the contract uses for the sales
 * digest and for draws among tickets.
 */
export function sortByBytes(serials: readonly string[]): string[] {
  // Encode each serial once: a sale list can hold tens of thousands of entries.
  return serials
    .map((s) => ({ s, b: Buffer.from(s, 'utf8') }))
    .sort((x, y) => Buffer.compare(x.b, y.b))
    .map((x) => x.s)
}

/**
 * Sales digest `D`: lowercase hex SHA-256 of the sold serials sorted ascending by UTF-8 byte order and joined
 * by "\n" (no trailing newline). For an empty list this is SHA-256 of the empty string,
 * {@link EMPTY_SALES_DIGEST}.
 *
 * Serials must be non-empty, unique, free of "\n" and well-formed Unicode: otherwise two different sale lists
 * could produce the same joined text (for example `[]` and `[""]`, or `["a\nb"]` and `["a", "b"]`).
 *
 * @throws DomainError VALIDATION_FAILED for an empty, duplicated, multi-line or ill-formed serial.
 */
export function salesDigest(serials: readonly string[]): string {
  serials.forEach((s, i) => {
    if (typeof s !== 'string' || s.length === 0) throw invalid(`serial #${i + 1} is empty or not a string`)
  })
  const sorted = sortByBytes(serials)
  for (let i = 0; i < sorted.length; i++) {
    const s = sorted[i]
    if (s.includes('\n')) throw invalid(`serial ${JSON.stringify(s)} contains a newline`)
    if (LONE_SURROGATE.test(s)) throw invalid(`serial ${JSON.stringify(s)} is not well-formed Unicode`)
    if (i > 0 && sorted[i - 1] === s) throw invalid(`serial ${JSON.stringify(s)} appears more than once`)
  }
  return createHash('sha256').update(sorted.join('\n'), 'utf8').digest('hex')
}

/**
 * Draw key `K = HMAC-SHA256(key = S, msg = UTF-8("bolillo-draw-v1|" + gameId + "|" + D + "|" + X))`.
 *
 * `gameId` must be non-empty and contain no "|", so that the message splits back into its fields in one way
 * only. `salesDigest` is the 64-char lowercase hex from {@link salesDigest}. `externalEntropy` may be empty.
 *
 * @throws DomainError VALIDATION_FAILED for a bad seed, gameId, digest or entropy string.
 */
export function drawKey(seed: Uint8Array, gameId: string, salesDigest: string, externalEntropy: string): Buffer {
  assertSeed(seed)
  assertGameId(gameId)
  if (typeof salesDigest !== 'string' || !HEX64.test(salesDigest))
    throw invalid('salesDigest must be 64 lowercase hex characters')
  if (typeof externalEntropy !== 'string') throw invalid('externalEntropy must be a string')
  if (LONE_SURROGATE.test(externalEntropy)) throw invalid('externalEntropy is not well-formed Unicode')
  const message = `${DRAW_PROOF_VERSION}|${gameId}|${salesDigest}|${externalEntropy}`
  return createHmac('sha256', seed).update(message, 'utf8').digest()
}

/**
 * The `bolillo-draw-v1` random stream: block `i` is `HMAC-SHA256(key = K, msg = uint32be(i))` for
 * i = 0, 1, 2, ...; the blocks are concatenated and read as consecutive big-endian uint32 values (8 per block).
 */
export class DrawStream {
  private readonly key: Buffer
  private block: Buffer = Buffer.alloc(0)
  private offset = 0
  private nextBlockIndex = 0
  private consumed = 0

  constructor(key: Uint8Array) {
    if (!(key instanceof Uint8Array) || key.length === 0) throw invalid('draw key must be a non-empty byte array')
    this.key = Buffer.from(key)
  }

  /** Number of uint32 values read so far (useful in proofs and tests). */
  get count(): number {
    return this.consumed
  }

  /** Next uint32 of the stream. */
  nextUint32(): number {
    if (this.offset >= this.block.length) {
      // The counter is a uint32; 2^32 blocks (16 GiB of stream) is far beyond any draw.
      if (this.nextBlockIndex >= TWO_POW_32) throw new RangeError('bolillo-draw-v1 stream exhausted')
      const counter = Buffer.alloc(4)
      counter.writeUInt32BE(this.nextBlockIndex)
      this.block = createHmac('sha256', this.key).update(counter).digest()
      this.nextBlockIndex++
      this.offset = 0
    }
    const value = this.block.readUInt32BE(this.offset)
    this.offset += 4
    this.consumed++
    return value
  }

  /**
   * Uniform integer in [0, m) by the contract's rejection rule: `limit = 2^32 - (2^32 mod m)`; read values until
   * `u < limit`; return `u mod m`. Rejection removes the modulo bias.
   */
  nextBelow(m: number): number {
    if (!Number.isInteger(m) || m < 1 || m > TWO_POW_32) throw new RangeError(`bad bound ${m}`)
    const limit = TWO_POW_32 - (TWO_POW_32 % m)
    for (;;) {
      const u = this.nextUint32()
      if (u < limit) return u % m
    }
  }
}

/**
 * Extraction order of balls 1..n under key `K` (steps 5 and 6 of the contract): `a = [1..n]`; for `j` from
 * `n-1` down to 1, `r = stream.nextBelow(j + 1)`, swap `a[j]` and `a[r]`. Returns `a`, a permutation of 1..n
 * whose first element is the first ball drawn. `n = 0` gives `[]`.
 *
 * The whole permutation is always computed, because `a[0]` is fixed last.
 */
export function shuffleOrder(key: Uint8Array, n: number): number[] {
  if (!Number.isInteger(n) || n < 0 || n > MAX_DRAW_SIZE)
    throw invalid(`draw size must be an integer in 0..${MAX_DRAW_SIZE}, got ${n}`)
  const stream = new DrawStream(key)
  const a = Array.from({ length: n }, (_, i) => i + 1)
  for (let j = n - 1; j >= 1; j--) {
    const r = stream.nextBelow(j + 1)
    const t = a[j]
    a[j] = a[r]
    a[r] = t
  }
  return a
}

/** Inputs of an RNG draw, as recorded at close of sales. */
export interface DrawInput {
  /** The 32-byte secret seed `S` whose commitment was published. */
  seed: Uint8Array
  gameId: string
  /** Sold serials in any order; they are sorted by bytes here. */
  serials: readonly string[]
  /** External entropy `X` (UTF-8, may be empty). */
  externalEntropy: string
  /** N: balls 1..N (90 for bingo, 49 for a 6/49 lotto, M for a draw among M tickets). */
  ballCount: number
}

/**
 * Full RNG draw: commitment, sales digest and the extraction order of balls 1..ballCount.
 *
 * @example
 * const { order } = drawOrder({ seed, gameId: 'g-12', serials, externalEntropy: '', ballCount: 90 })
 * // order[0] is the first ball called
 */
export function drawOrder(input: DrawInput): { commitment: string; salesDigest: string; order: number[] } {
  const commitment = commitmentOf(input.seed)
  const digest = salesDigest(input.serials)
  const key = drawKey(input.seed, input.gameId, digest, input.externalEntropy)
  return { commitment, salesDigest: digest, order: shuffleOrder(key, input.ballCount) }
}

/**
 * Lotto draw of `k` numbers out of 1..n: the first `k` of the extraction order, in the order they came out
 * (sort them for the published result if the game ignores order).
 */
export function lottoNumbers(key: Uint8Array, n: number, k: number): number[] {
  if (!Number.isInteger(k) || k < 0 || k > n) throw invalid(`cannot draw ${k} numbers out of ${n}`)
  return shuffleOrder(key, n).slice(0, k)
}

/**
 * Draw of `k` items among `M = items.length` (for example `k` winning tickets among the sold ones). The items
 * are sorted by UTF-8 byte order, the order is computed with `N = M`, and value `v` maps to the `v`-th item of
 * the sorted list (1-based). Returns the winners in extraction order.
 *
 * Use the key derived with `salesDigest(items)` so that the digest covers exactly the list drawn from.
 *
 * @throws DomainError VALIDATION_FAILED for duplicate items or `k` outside 0..M.
 */
export function pickFromSorted(items: readonly string[], key: Uint8Array, k: number): string[] {
  if (!Number.isInteger(k) || k < 0 || k > items.length) throw invalid(`cannot pick ${k} of ${items.length} items`)
  const sorted = sortByBytes(items)
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i - 1] === sorted[i]) throw invalid(`item ${JSON.stringify(sorted[i])} appears more than once`)
  }
  return shuffleOrder(key, sorted.length)
    .slice(0, k)
    .map((v) => sorted[v - 1])
}

/**
 * The JSON published at `GET /api/games/{gameId}/proof` and checked by `npx bolillo verify-draw`. `balls` are
 * the balls called, in order: a prefix of the extraction order (a game may end before every ball is drawn).
 */
export interface DrawProof {
  version: typeof DRAW_PROOF_VERSION
  gameId: string
  /** hex(SHA-256(seed)), published before sales. */
  commitment: string
  /** The seed `S`, 64 lowercase hex characters, revealed after the game. */
  seed: string
  /** `D`, 64 lowercase hex characters. */
  salesDigest: string
  externalEntropy: string
  ballCount: number
  balls: number[]
  /** Optional: the sold serials, so that anyone can recompute `salesDigest`. */
  soldSerials?: string[]
  /** Optional free text naming where `externalEntropy` came from (beacon URL and round, notary's dice...). */
  entropySource?: string
}

/**
 * Builds the published proof of an RNG draw whose first `calledCount` balls were called.
 *
 * @param options.includeSerials put the sold serials in the proof (default true) so the digest is checkable.
 */
export function buildDrawProof(
  input: DrawInput & { calledCount: number; entropySource?: string; includeSerials?: boolean },
): DrawProof {
  const { commitment, salesDigest: digest, order } = drawOrder(input)
  if (!Number.isInteger(input.calledCount) || input.calledCount < 0 || input.calledCount > order.length) {
    throw invalid(`calledCount must be an integer in 0..${order.length}, got ${input.calledCount}`)
  }
  const proof: DrawProof = {
    version: DRAW_PROOF_VERSION,
    gameId: input.gameId,
    commitment,
    seed: Buffer.from(input.seed).toString('hex'),
    salesDigest: digest,
    externalEntropy: input.externalEntropy,
    ballCount: input.ballCount,
    balls: order.slice(0, input.calledCount),
  }
  if (input.includeSerials ?? true) proof.soldSerials = sortByBytes(input.serials)
  if (input.entropySource !== undefined) proof.entropySource = input.entropySource
  return proof
}

/** At most this many per-ball mismatches are listed; a wrong seed would otherwise list every ball. */
const MAX_BALL_ERRORS = 10

/**
 * Checks a published draw proof (any JSON value). Verifies, in order:
 * - the shape (version, field types, 64-hex values, ballCount and balls in range);
 * - `SHA-256(seed) == commitment`;
 * - `salesDigest` recomputed from `soldSerials`, when they are included;
 * - `balls` equals the prefix, of the same length, of the order recomputed from seed, gameId, salesDigest and
 *   externalEntropy.
 *
 * Never throws; returns every problem found as an English sentence (empty when `ok`).
 *
 * @example
 * verifyDrawProof(JSON.parse(text)) // { ok: false, errors: ['ball #17 is 42 but the proof stream gives 7'] }
 */
export function verifyDrawProof(proof: unknown): { ok: boolean; errors: string[] } {
  const errors: string[] = []
  if (typeof proof !== 'object' || proof === null || Array.isArray(proof)) {
    return { ok: false, errors: ['proof must be a JSON object'] }
  }
  const p = proof as Record<string, unknown>

  if (p.version !== DRAW_PROOF_VERSION)
    errors.push(`version must be "${DRAW_PROOF_VERSION}", got ${describe(p.version)}`)
  const gameIdOk =
    typeof p.gameId === 'string' && p.gameId.length > 0 && !p.gameId.includes('|') && !LONE_SURROGATE.test(p.gameId)
  if (!gameIdOk) errors.push(`gameId must be a non-empty string without "|", got ${describe(p.gameId)}`)
  const commitmentOk = isHex64(p.commitment)
  if (!commitmentOk) errors.push(`commitment must be 64 lowercase hex characters, got ${describe(p.commitment)}`)
  const seedOk = isHex64(p.seed)
  if (!seedOk) errors.push(`seed must be 64 lowercase hex characters (32 bytes), got ${describe(p.seed)}`)
  const digestOk = isHex64(p.salesDigest)
  if (!digestOk) errors.push(`salesDigest must be 64 lowercase hex characters, got ${describe(p.salesDigest)}`)
  const entropyOk = typeof p.externalEntropy === 'string' && !LONE_SURROGATE.test(p.externalEntropy)
  if (!entropyOk) errors.push(`externalEntropy must be a string (may be empty), got ${describe(p.externalEntropy)}`)
  const ballCountOk =
    Number.isInteger(p.ballCount) && (p.ballCount as number) >= 1 && (p.ballCount as number) <= MAX_DRAW_SIZE
  if (!ballCountOk) errors.push(`ballCount must be an integer in 1..${MAX_DRAW_SIZE}, got ${describe(p.ballCount)}`)

  let balls: number[] | null = null
  if (!Array.isArray(p.balls)) {
    errors.push(`balls must be an array of integers, got ${describe(p.balls)}`)
  } else {
    balls = p.balls as number[]
    balls.forEach((b, i) => {
      if (!Number.isInteger(b)) errors.push(`ball #${i + 1} must be an integer, got ${describe(b)}`)
      else if (ballCountOk && (b < 1 || b > (p.ballCount as number)))
        errors.push(`ball #${i + 1} is ${b}, outside 1..${p.ballCount as number}`)
    })
    if (ballCountOk && balls.length > (p.ballCount as number)) {
      errors.push(`balls has ${balls.length} entries but ballCount is ${p.ballCount as number}`)
    }
  }
  if (p.entropySource !== undefined && typeof p.entropySource !== 'string') {
    errors.push(`entropySource must be a string when present, got ${describe(p.entropySource)}`)
  }

  if (seedOk && commitmentOk) {
    const actual = createHash('sha256')
      .update(Buffer.from(p.seed as string, 'hex'))
      .digest('hex')
    if (actual !== p.commitment)
      errors.push(`commitment ${p.commitment as string} does not match SHA-256(seed) = ${actual}`)
  }

  if (p.soldSerials !== undefined) {
    if (!Array.isArray(p.soldSerials) || !p.soldSerials.every((s) => typeof s === 'string')) {
      errors.push('soldSerials must be an array of strings when present')
    } else {
      try {
        const actual = salesDigest(p.soldSerials as string[])
        if (digestOk && actual !== p.salesDigest) {
          errors.push(
            `salesDigest ${p.salesDigest as string} does not match the ${p.soldSerials.length} soldSerials, which give ${actual}`,
          )
        }
      } catch (e) {
        errors.push(`soldSerials are not a valid sale list: ${(e as Error).message}`)
      }
    }
  }

  if (seedOk && gameIdOk && digestOk && entropyOk && ballCountOk && balls !== null) {
    const key = drawKey(
      Buffer.from(p.seed as string, 'hex'),
      p.gameId as string,
      p.salesDigest as string,
      p.externalEntropy as string,
    )
    const order = shuffleOrder(key, p.ballCount as number)
    let mismatches = 0
    const prefix = Math.min(balls.length, order.length)
    for (let i = 0; i < prefix; i++) {
      if (balls[i] === order[i]) continue
      mismatches++
      if (mismatches <= MAX_BALL_ERRORS)
        errors.push(`ball #${i + 1} is ${describe(balls[i])} but the proof stream gives ${order[i]}`)
    }
    if (mismatches > MAX_BALL_ERRORS)
      errors.push(`... and ${mismatches - MAX_BALL_ERRORS} more balls differ from the proof stream`)
  }

  return { ok: errors.length === 0, errors }
}

function isHex64(value: unknown): value is string {
  return typeof value === 'string' && HEX64.test(value)
}

function assertSeed(seed: Uint8Array): void {
  if (!(seed instanceof Uint8Array) || seed.length !== SEED_BYTES) {
    throw invalid(`seed must be ${SEED_BYTES} bytes, got ${seed instanceof Uint8Array ? seed.length : typeof seed}`)
  }
}

function assertGameId(gameId: string): void {
  if (typeof gameId !== 'string' || gameId.length === 0) throw invalid('gameId must be a non-empty string')
  // "|" separates the fields of the key message; forbidding it keeps the message unambiguous.
  if (gameId.includes('|')) throw invalid(`gameId ${JSON.stringify(gameId)} must not contain "|"`)
  if (LONE_SURROGATE.test(gameId)) throw invalid('gameId is not well-formed Unicode')
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text
}

function invalid(message: string): DomainError {
  return new DomainError('VALIDATION_FAILED', message)
}
