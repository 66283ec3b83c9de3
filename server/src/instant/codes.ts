/**
 * Instant-ticket serials, hidden validation codes and the keyed random streams they come from (RNG-27, INS-14).
 *
 * ## Serial (inventory code, printed outside) `GGGG-PPPPPP-TTT-C`
 *
 * Game (issue) number, 4 digits; pack number, 6 digits, from 000001; ticket position in the pack, 3 digits, from
 * 000; a Damm check digit over the 13 digits before it. Damm detects every single-digit error and every
 * transposition of adjacent digits. The serial is public: it says which ticket, never whether it won.
 *
 * ## Hidden validation code (under the scratch layer) 24 characters, shown as `XXXX-XXXX-XXXX-XXXX-XXXX-XXXX`
 *
 * Crockford base32 (`0-9 A-Z` without `I L O U`; typed `I`/`L` read as `1`, `O` as `0`, case and dashes ignored):
 *
 * | chars | content |
 * | ----- | ------- |
 * | 1-4   | game number, 4 decimal digits (valid base32 digits, so a cashier can read it) |
 * | 5-10  | ticket index in the game, 30 bits (index = (pack - 1) x packSize + position) |
 * | 11-22 | secret, 60 bits: the first 60 bits of AES-256(codeKey, uint64be(index) ‖ uint64be(0)) |
 * | 23-24 | check: sum of (i + 1) x value(char i) over chars 1-22, mod 1021, in two base32 digits |
 *
 * The check catches every single-character error and every swap of adjacent characters before the server is
 * asked. The secret cannot be derived from the serial: it comes from a key derived from the batch's secret seed,
 * which the server never stores. The server stores only a 52-bit keyed tag of the code ({@link codeTag}: AES-256
 * under a pepper key kept beside the operator key), so a copy of the database does not reveal any code either.
 *
 * ## Keys and streams (`bolillo-instant-v2`)
 *
 * The batch seed S is 32 bytes from the server's health-tested entropy source (RNG-27, RNG-32); nobody types it.
 * Its public commitment is `C = hex(SHA-256(S))`: with 2^256 possible seeds it cannot be brute-forced. S is stored
 * only sealed (DESIGN.md "Sealed secrets") and opened for an authorised audit. From S and the game number G:
 * `key(label) = HMAC-SHA256(key = S, message = "bolillo-instant-v2|" + label + "|" + G)` for the labels
 * `placement`, `code`, `symbols` and `prize`. The placement stream is AES-256-CTR under key(placement) with a zero
 * IV, read as consecutive big-endian uint32; per-ticket values are AES-256 blocks of (uint64be(index) ‖ uint64be(j)).
 * AES-CTR is the NIST SP 800-90A CTR_DRBG construction without reseeding; anyone holding S can regenerate the
 * batch bit for bit.
 *
 * ## Prize tag (what the database holds of a ticket's prize)
 *
 * `prizeTag = first 48 bits of AES-256(key(prize), uint32be(G) ‖ uint32be(index) ‖ uint32be(tier) ‖ "tier")`.
 * Without key(prize) it is a pseudorandom number that says nothing of the tier; with it, the tier is the one of
 * 0..n whose tag matches (n + 1 block encryptions), and a tag that matches none was altered. Bound to the game and
 * the index, a tag copied onto another ticket does not open either.
 *
 * Pure: deterministic functions of their inputs (node:crypto is used only as a cipher library).
 */
import { createCipheriv, createHmac, hash } from 'node:crypto'
import { DomainError } from '../shared/errors.ts'

export const INSTANT_STREAM_VERSION = 'bolillo-instant-v2'

/** Bytes of a batch seed. */
export const SEED_BYTES = 32

// ------------------------------------------------------------------------------------------------ serial

const DAMM: readonly (readonly number[])[] = [
  [0, 3, 1, 7, 5, 9, 8, 6, 4, 2],
  [7, 0, 9, 2, 1, 5, 4, 8, 6, 3],
  [4, 2, 0, 6, 8, 7, 1, 3, 5, 9],
  [1, 7, 5, 0, 9, 8, 3, 4, 2, 6],
  [6, 1, 2, 3, 0, 4, 5, 9, 7, 8],
  [3, 6, 7, 4, 2, 0, 9, 5, 8, 1],
  [5, 8, 6, 9, 7, 2, 0, 1, 3, 4],
  [8, 9, 4, 5, 3, 6, 2, 0, 1, 7],
  [9, 4, 3, 8, 6, 1, 7, 2, 0, 5],
  [2, 5, 8, 1, 4, 3, 6, 7, 9, 0],
]

/** Damm interim digit after `digits` (a string of 0-9), starting from `interim`. */
export function dammStep(digits: string, interim = 0): number {
  let x = interim
  for (let i = 0; i < digits.length; i++) x = DAMM[x][digits.charCodeAt(i) - 48]
  return x
}

export interface SerialParts {
  gameNo: number
  /** 1-based pack number. */
  packNo: number
  /** 0-based position in the pack. */
  position: number
}

const pad = (n: number, w: number) => String(n).padStart(w, '0')

/** `GGGG-PPPPPP-TTT-C`. */
export function formatSerial(p: SerialParts): string {
  const body = pad(p.gameNo, 4) + pad(p.packNo, 6) + pad(p.position, 3)
  return `${body.slice(0, 4)}-${body.slice(4, 10)}-${body.slice(10)}-${dammStep(body)}`
}

/**
 * Serials of one pack, fast: the Damm state after the game and pack digits is computed once.
 * @returns serials of positions 0..packSize-1.
 */
export function packSerials(gameNo: number, packNo: number, packSize: number): string[] {
  const head = pad(gameNo, 4) + pad(packNo, 6)
  const interim = dammStep(head)
  const prefix = `${head.slice(0, 4)}-${head.slice(4)}-`
  const out = new Array<string>(packSize)
  for (let t = 0; t < packSize; t++) {
    const tt = t < 10 ? `00${t}` : t < 100 ? `0${t}` : String(t)
    out[t] = `${prefix}${tt}-${dammStep(tt, interim)}`
  }
  return out
}

const SERIAL_PATTERN = /^(\d{4})-?(\d{6})-?(\d{3})-?(\d)$/

/** Parses a serial (dashes optional) and checks its Damm digit. @throws VALIDATION_FAILED */
export function parseSerial(text: string): SerialParts {
  const m = SERIAL_PATTERN.exec(String(text).trim())
  if (!m) throw new DomainError('VALIDATION_FAILED', 'not an instant-ticket serial (GGGG-PPPPPP-TTT-C)')
  const body = m[1] + m[2] + m[3]
  if (dammStep(body + m[4]) !== 0)
    throw new DomainError('VALIDATION_FAILED', 'serial check digit does not match: mistyped serial?')
  return { gameNo: Number(m[1]), packNo: Number(m[2]), position: Number(m[3]) }
}

/** True for text shaped like a serial (before the check digit is verified). */
export function looksLikeSerial(text: string): boolean {
  return SERIAL_PATTERN.test(String(text).trim())
}

// ------------------------------------------------------------------------------------------------ validation code

const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const B32_VALUE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1)
  for (let i = 0; i < 32; i++) {
    t[B32.charCodeAt(i)] = i
    t[B32.toLowerCase().charCodeAt(i)] = i
  }
  for (const [c, v] of [
    ['I', 1],
    ['i', 1],
    ['L', 1],
    ['l', 1],
    ['O', 0],
    ['o', 0],
  ] as const)
    t[c.charCodeAt(0)] = v
  return t
})()

/** Length of a validation code without dashes. */
export const VALIDATION_CODE_LENGTH = 24
const CHECK_MOD = 1021

/** `chars` base32 digits of a value below 2^30 (so that 32-bit shifts are exact). */
function b32(value: number, chars: number): string {
  let s = ''
  for (let i = chars - 1; i >= 0; i--) s += B32[(value >>> (5 * i)) & 31]
  return s
}

function checkChars(body: string): string {
  let sum = 0
  for (let i = 0; i < body.length; i++) sum += (i + 1) * B32_VALUE[body.charCodeAt(i)]
  return b32(sum % CHECK_MOD, 2)
}

/**
 * The validation code of a ticket from its secret halves (30 bits each).
 * @example formatValidationCode(101, 12345, hi, lo) // '0101' + 6 index chars + 12 secret chars + 2 check chars
 */
export function formatValidationCode(gameNo: number, index: number, secretHi30: number, secretLo30: number): string {
  const body = pad(gameNo, 4) + b32(index, 6) + b32(secretHi30, 6) + b32(secretLo30, 6)
  return body + checkChars(body)
}

/** `XXXX-XXXX-...`: the code as printed and typed. */
export function groupCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, '$1-')
}

export interface ParsedValidationCode {
  /** Canonical form: 24 upper-case characters, no dashes. */
  code: string
  gameNo: number
  index: number
}

/**
 * Normalises a typed or scanned validation code and checks its check characters.
 * @throws DomainError VALIDATION_FAILED with a reason a cashier can act on.
 */
export function parseValidationCode(text: string): ParsedValidationCode {
  const raw = String(text ?? '').replace(/[\s-]/g, '')
  if (raw.length !== VALIDATION_CODE_LENGTH)
    throw new DomainError(
      'VALIDATION_FAILED',
      `a validation code has ${VALIDATION_CODE_LENGTH} characters, got ${raw.length}`,
    )
  let code = ''
  for (let i = 0; i < raw.length; i++) {
    const v = raw.charCodeAt(i) < 128 ? B32_VALUE[raw.charCodeAt(i)] : -1
    if (v < 0)
      throw new DomainError(
        'VALIDATION_FAILED',
        `character ${JSON.stringify(raw[i])} cannot appear in a validation code`,
      )
    code += B32[v]
  }
  const game = code.slice(0, 4)
  if (!/^\d{4}$/.test(game))
    throw new DomainError('VALIDATION_FAILED', 'a validation code starts with the 4-digit game number')
  if (checkChars(code.slice(0, 22)) !== code.slice(22))
    throw new DomainError('VALIDATION_FAILED', 'validation code check characters do not match: mistyped code?')
  let index = 0
  for (let i = 4; i < 10; i++) index = index * 32 + B32_VALUE[code.charCodeAt(i)]
  return { code, gameNo: Number(game), index }
}

// ------------------------------------------------------------------------------------------------ keys and streams

/** Derives the 32-byte key of `label` for game `gameNo` from the 32-byte batch seed. */
export function deriveKey(seed: Uint8Array, gameNo: number, label: 'placement' | 'code' | 'symbols' | 'prize'): Buffer {
  if (!(seed instanceof Uint8Array) || seed.length !== SEED_BYTES)
    throw new DomainError('VALIDATION_FAILED', `the batch seed must be ${SEED_BYTES} bytes from the entropy source`)
  return createHmac('sha256', seed).update(`${INSTANT_STREAM_VERSION}|${label}|${gameNo}`).digest()
}

/** hex(SHA-256(seed)): recorded and published instead of the seed. */
export function seedCommitment(seed: Uint8Array): string {
  return hash('sha256', seed, 'hex')
}

const TIER_MARK = 0x74696572 // "tier"
const TAG_HI = 65536 // 48-bit tags: 32 high bits x 2^16 + 16 low bits

function prizeBlocks(
  prizeKey: Buffer,
  gameNo: number,
  indexes: ArrayLike<number>,
  tiers: ArrayLike<number> | number,
): Buffer {
  const input = Buffer.alloc(indexes.length * 16)
  for (let i = 0, o = 0; i < indexes.length; i++, o += 16) {
    input.writeUInt32BE(gameNo, o)
    input.writeUInt32BE(indexes[i], o + 4)
    input.writeUInt32BE(typeof tiers === 'number' ? tiers : tiers[i], o + 8)
    input.writeUInt32BE(TIER_MARK, o + 12)
  }
  return ecb(prizeKey, input)
}

const tagAt = (out: Buffer, i: number) => out.readUInt32BE(i * 16) * TAG_HI + out.readUInt16BE(i * 16 + 4)

/** Prize tags of tickets [from, from + tiers.length), one cipher call. */
export function prizeTags(prizeKey: Buffer, gameNo: number, from: number, tiers: ArrayLike<number>): number[] {
  const indexes = new Array<number>(tiers.length)
  for (let i = 0; i < tiers.length; i++) indexes[i] = from + i
  const out = prizeBlocks(prizeKey, gameNo, indexes, tiers)
  const tags = new Array<number>(tiers.length)
  for (let i = 0; i < tiers.length; i++) tags[i] = tagAt(out, i)
  return tags
}

/**
 * The tiers behind prize tags (tier 0..tierCount), or -1 where a tag matches no tier (altered). Tier by tier over
 * the tickets not yet matched, one cipher call per round: most tickets lose and match in the first round.
 */
export function openPrizeTags(
  prizeKey: Buffer,
  gameNo: number,
  indexes: ArrayLike<number>,
  tags: ArrayLike<number>,
  tierCount: number,
): Int16Array {
  const tiers = new Int16Array(indexes.length).fill(-1)
  let open = Array.from({ length: indexes.length }, (_, i) => i)
  for (let t = 0; t <= tierCount && open.length > 0; t++) {
    const out = prizeBlocks(
      prizeKey,
      gameNo,
      open.map((i) => indexes[i]),
      t,
    )
    const still: number[] = []
    open.forEach((i, k) => (tagAt(out, k) === Number(tags[i]) ? (tiers[i] = t) : still.push(i)))
    open = still
  }
  return tiers
}

/** A sequential stream of uint32 from AES-256-CTR, with unbiased bounded integers. */
export interface UintStream {
  nextUint32(): number
  /** Uniform integer in [0, n), n in 1..2^32, by rejection sampling (no modulo bias). */
  uniform(n: number): number
}

/** The placement stream: AES-256-CTR(key, IV = 0), consecutive big-endian uint32. */
export function createCtrStream(key: Buffer, chunkBytes = 1 << 16): UintStream {
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16))
  const zeros = Buffer.alloc(chunkBytes)
  let buf = Buffer.alloc(0)
  let pos = 0
  const nextUint32 = (): number => {
    if (pos + 4 > buf.length) {
      buf = cipher.update(zeros)
      pos = 0
    }
    const v = buf.readUInt32BE(pos)
    pos += 4
    return v
  }
  return {
    nextUint32,
    uniform(n: number): number {
      if (n === 1) return 0
      const limit = 4294967296 - (4294967296 % n)
      for (;;) {
        const u = nextUint32()
        if (u < limit) return u % n
      }
    },
  }
}

/**
 * Keyed per-index blocks: AES-256-ECB(key, uint64be(index) ‖ uint64be(j)) for j in [firstBlock, firstBlock +
 * blocksPerIndex), for the indexes [from, from + count). One cipher call for the whole range.
 * @returns count x blocksPerIndex x 16 bytes, index-major.
 */
export function indexBlocks(key: Buffer, from: number, count: number, blocksPerIndex: number, firstBlock = 0): Buffer {
  const input = Buffer.alloc(count * blocksPerIndex * 16)
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength)
  let o = 0
  for (let i = 0; i < count; i++) {
    const index = from + i
    const hi = Math.floor(index / 4294967296)
    const lo = index >>> 0
    for (let j = 0; j < blocksPerIndex; j++) {
      view.setUint32(o, hi)
      view.setUint32(o + 4, lo)
      view.setUint32(o + 12, firstBlock + j)
      o += 16
    }
  }
  return ecb(key, input)
}

const ecbCiphers = new WeakMap<Buffer, ReturnType<typeof createCipheriv>>()

/** AES-256-ECB of whole blocks. ECB has no chaining, so one cipher object per key serves every call. */
function ecb(key: Buffer, input: Buffer): Buffer {
  let cipher = ecbCiphers.get(key)
  if (!cipher) {
    cipher = createCipheriv('aes-256-ecb', key, null)
    cipher.setAutoPadding(false)
    ecbCiphers.set(key, cipher)
  }
  return cipher.update(input)
}

/** Two base32 digits for each 10-bit value. */
const PAIRS: string[] = Array.from({ length: 1024 }, (_, v) => B32[v >> 5] + B32[v & 31])

/** Codes of a batch, in bulk: the game's digits and their share of the check sum are computed once. */
export interface CodeBatch {
  /** Validation codes of tickets [from, from + count). */
  codes(from: number, count: number): string[]
  /** Codes and their stored tags (see {@link codeTag}) for tickets [from, from + count). */
  codesAndTags(from: number, count: number, pepper: Buffer): { codes: string[]; tags: number[] }
}

function digitSum(value30: number, firstWeight: number): number {
  let sum = 0
  for (let i = 0; i < 6; i++) sum += (firstWeight + i) * ((value30 >>> (5 * (5 - i))) & 31)
  return sum
}

/** A bulk code generator for game `gameNo` under its code key. */
export function createCodeBatch(codeKey: Buffer, gameNo: number): CodeBatch {
  const game = pad(gameNo, 4)
  let gameSum = 0
  for (let i = 0; i < 4; i++) gameSum += (i + 1) * (game.charCodeAt(i) - 48)
  const secrets = (from: number, count: number) => indexBlocks(codeKey, from, count, 1)
  const format = (index: number, hi: number, lo: number): string => {
    const sum = (gameSum + digitSum(index, 5) + digitSum(hi, 11) + digitSum(lo, 17)) % CHECK_MOD
    return (
      game +
      PAIRS[index >>> 20] +
      PAIRS[(index >>> 10) & 1023] +
      PAIRS[index & 1023] +
      PAIRS[hi >>> 20] +
      PAIRS[(hi >>> 10) & 1023] +
      PAIRS[hi & 1023] +
      PAIRS[lo >>> 20] +
      PAIRS[(lo >>> 10) & 1023] +
      PAIRS[lo & 1023] +
      PAIRS[sum]
    )
  }
  return {
    codes(from, count) {
      const blocks = secrets(from, count)
      const out = new Array<string>(count)
      for (let i = 0; i < count; i++)
        out[i] = format(from + i, blocks.readUInt32BE(i * 16) >>> 2, blocks.readUInt32BE(i * 16 + 4) >>> 2)
      return out
    },
    codesAndTags(from, count, pepper) {
      const blocks = secrets(from, count)
      const codes = new Array<string>(count)
      const input = Buffer.alloc(count * 16)
      const view = new DataView(input.buffer, input.byteOffset, input.byteLength)
      for (let i = 0; i < count; i++) {
        const hi = blocks.readUInt32BE(i * 16) >>> 2
        const lo = blocks.readUInt32BE(i * 16 + 4) >>> 2
        codes[i] = format(from + i, hi, lo)
        view.setUint32(i * 16, gameNo)
        view.setUint32(i * 16 + 4, from + i)
        view.setUint32(i * 16 + 8, hi)
        view.setUint32(i * 16 + 12, lo)
      }
      const out = ecb(pepper, input)
      const tags = new Array<number>(count)
      for (let i = 0; i < count; i++)
        tags[i] = out.readUInt32BE(i * 16) * 1048576 + (out.readUInt32BE(i * 16 + 4) >>> 12)
      return { codes, tags }
    },
  }
}

/** The validation codes of tickets [from, from + count) of game `gameNo`. */
export function validationCodes(codeKey: Buffer, gameNo: number, from: number, count: number): string[] {
  return createCodeBatch(codeKey, gameNo).codes(from, count)
}

/**
 * The stored form of a validation code, its tag: the first 52 bits of AES-256(pepper, uint32be(game) ‖
 * uint32be(index) ‖ uint32be(secret high 30 bits) ‖ uint32be(secret low 30 bits)) as an integer (a safe JS number;
 * BIGINT column). AES under a secret key is a pseudorandom function of the code, so the table holds no code and a
 * copy of it is useless for guessing one without the pepper, a 32-byte key kept beside the operator key; with the
 * pepper too, finding a ticket's code still means trying its 2^60 secrets.
 */
export function codeTag(pepper: Buffer, code: string): number {
  const p = parseValidationCode(code)
  const hi = readB32(p.code, 10, 6)
  const lo = readB32(p.code, 16, 6)
  const input = Buffer.alloc(16)
  input.writeUInt32BE(p.gameNo, 0)
  input.writeUInt32BE(p.index, 4)
  input.writeUInt32BE(hi, 8)
  input.writeUInt32BE(lo, 12)
  const out = ecb(pepper, input)
  return out.readUInt32BE(0) * 1048576 + (out.readUInt32BE(4) >>> 12)
}

function readB32(code: string, start: number, chars: number): number {
  let v = 0
  for (let i = start; i < start + chars; i++) v = v * 32 + B32_VALUE[code.charCodeAt(i)]
  return v
}
