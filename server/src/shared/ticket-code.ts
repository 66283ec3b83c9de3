/**
 * Signed ticket codes: the payload of the QR printed on every card, slip, ticket and voucher
 * (DESIGN.md "Contracts / Ticket codes").
 *
 * ## Format `BLL1`
 *
 * ```
 * BLL1.<kind>.<id>.<signature>
 * ```
 *
 * | field       | value                                                                                   |
 * | ----------- | --------------------------------------------------------------------------------------- |
 * | `BLL1`      | product prefix `BLL` followed by the format version `1`                                 |
 * | `kind`      | one character: `C` bingo card, `L` lotto slip, `T` lottery ticket, `I` instant ticket, `V` credit voucher |
 * | `id`        | the ticket's id: 1 to 64 characters from `A-Z a-z 0-9 - _`                               |
 * | `signature` | Ed25519 (RFC 8032, pure Ed25519) signature by the operator's key, base64url without padding: exactly 86 characters |
 *
 * The signed message is the UTF-8 (here plain ASCII) text of everything before the last `.`, that is
 * `BLL1.<kind>.<id>`. The whole code matches
 * `^BLL1\.[CLTIV]\.[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{86}$`, uses only URL-safe characters and is at most
 * 158 characters long (about 114 for a 20-character id), which fits a QR code of version 7 to 9 at level M.
 *
 * The signature must be the canonical base64url encoding of its 64 bytes: its last character carries only
 * 2 bits, and the other 4 must be zero. Decoders that ignore those bits would accept several spellings of one
 * signature; this module rejects every spelling but the canonical one, so that any one-character change to a
 * code is rejected.
 *
 * To check a ticket offline: take the operator's public key from `GET /api/keys` (raw 32-byte key in
 * base64url, or SPKI PEM), split the code at its last `.`, check the first part against the pattern above,
 * decode the 86-character signature from base64url and verify it with Ed25519 over the ASCII bytes of the
 * first part. A code whose signature fails is rejected, always.
 *
 * Example: `BLL1.C.g12-000345.<86 base64url characters>`.
 *
 * Pure: keys arrive as `node:crypto` KeyObjects; nothing here generates one.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { DomainError } from './errors.ts'

/** Product prefix of every code. */
export const TICKET_CODE_PREFIX = 'BLL'
/** Format version written after the prefix. */
export const TICKET_CODE_VERSION = 1

/** Kind of ticket a code stands for, as its one-character tag. */
export const TicketKind = {
  card: 'C',
  lotto: 'L',
  lottery: 'T',
  instant: 'I',
  voucher: 'V',
} as const
export type TicketKind = (typeof TicketKind)[keyof typeof TicketKind]

/** Longest id accepted: keeps the QR small. */
export const MAX_TICKET_ID_LENGTH = 64
/** Length of an Ed25519 signature in unpadded base64url. */
export const SIGNATURE_CHARS = 86
/** Longest possible code: 3 dots and the kind character besides prefix, id and signature (158). */
export const MAX_TICKET_CODE_LENGTH =
  `${TICKET_CODE_PREFIX}${TICKET_CODE_VERSION}`.length + 4 + MAX_TICKET_ID_LENGTH + SIGNATURE_CHARS

const KINDS: ReadonlySet<string> = new Set(Object.values(TicketKind))
const ID_PATTERN = /^[A-Za-z0-9_-]+$/
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{86}$/
// DER header of a PKCS#8 Ed25519 private key; the 32-byte seed follows (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

/** The fields a code carries. */
export interface TicketRef {
  kind: TicketKind
  id: string
}

/** A code split into its fields, before any signature check. */
export interface ParsedTicketCode extends TicketRef {
  prefix: typeof TICKET_CODE_PREFIX
  version: typeof TICKET_CODE_VERSION
  /** The 64 signature bytes. */
  signature: Buffer
  /** The signed text: everything before the last ".". */
  message: string
}

/**
 * Encodes and signs a ticket code.
 *
 * @throws DomainError VALIDATION_FAILED for an unknown kind, an id outside `[A-Za-z0-9_-]{1,64}`, or a key
 *   that is not an Ed25519 private key.
 * @example
 * encodeTicketCode({ kind: TicketKind.card, id: 'g12-000345' }, privateKey) // 'BLL1.C.g12-000345.Xk3...'
 */
export function encodeTicketCode(ticket: TicketRef, privateKey: KeyObject): string {
  if (!KINDS.has(ticket.kind))
    throw new DomainError('VALIDATION_FAILED', `unknown ticket kind ${JSON.stringify(ticket.kind)}`)
  assertId(ticket.id)
  assertEd25519(privateKey, 'private')
  const message = `${TICKET_CODE_PREFIX}${TICKET_CODE_VERSION}.${ticket.kind}.${ticket.id}`
  const signature = sign(null, Buffer.from(message, 'utf8'), privateKey)
  return `${message}.${signature.toString('base64url')}`
}

/**
 * {@link encodeTicketCode} on libuv's thread pool (node:crypto's asynchronous `sign`): the same code (Ed25519 is
 * deterministic), signed off the calling thread. For codes whose id is known before the sale's transaction (ids
 * drawn ahead), so that the event loop does not sign while it holds the write lock.
 */
export async function encodeTicketCodeAsync(ticket: TicketRef, privateKey: KeyObject): Promise<string> {
  if (!KINDS.has(ticket.kind))
    throw new DomainError('VALIDATION_FAILED', `unknown ticket kind ${JSON.stringify(ticket.kind)}`)
  assertId(ticket.id)
  assertEd25519(privateKey, 'private')
  const message = `${TICKET_CODE_PREFIX}${TICKET_CODE_VERSION}.${ticket.kind}.${ticket.id}`
  const signature = await new Promise<Buffer>((resolve, reject) =>
    sign(null, Buffer.from(message, 'utf8'), privateKey, (err, sig) => (err ? reject(err) : resolve(sig))),
  )
  return `${message}.${signature.toString('base64url')}`
}

/**
 * Splits a code into its fields and checks their syntax. Does NOT check the signature: use
 * {@link verifyTicketCode} before trusting anything in it.
 *
 * @throws DomainError VALIDATION_FAILED when the text is not a `BLL1` code (wrong prefix or version, field
 *   count, kind or id); INVALID_SIGNATURE when only the signature field is malformed.
 */
export function parseTicketCode(code: string): ParsedTicketCode {
  if (typeof code !== 'string' || code.length === 0) throw malformed('empty ticket code')
  // Bound the work done on hostile input before splitting it.
  if (code.length > MAX_TICKET_CODE_LENGTH)
    throw malformed(`ticket code is ${code.length} characters, at most ${MAX_TICKET_CODE_LENGTH} allowed`)
  const parts = code.split('.')
  if (parts.length !== 4) throw malformed(`ticket code must have 4 fields separated by ".", found ${parts.length}`)
  const [head, kind, id, signatureText] = parts
  if (head !== `${TICKET_CODE_PREFIX}${TICKET_CODE_VERSION}`) {
    if (/^BLL\d+$/.test(head)) throw malformed(`unsupported ticket code version ${JSON.stringify(head.slice(3))}`)
    throw malformed('not a Bolillo ticket code (prefix must be "BLL1")')
  }
  if (!KINDS.has(kind)) throw malformed(`unknown ticket kind ${JSON.stringify(kind)}`)
  assertId(id)
  if (!SIGNATURE_PATTERN.test(signatureText)) {
    throw new DomainError('INVALID_SIGNATURE', `signature must be ${SIGNATURE_CHARS} base64url characters`)
  }
  const signature = Buffer.from(signatureText, 'base64url')
  // Only the canonical spelling (unused low bits of the last character zero) is accepted.
  if (signature.length !== 64 || signature.toString('base64url') !== signatureText) {
    throw new DomainError('INVALID_SIGNATURE', 'signature is not canonical base64url')
  }
  return {
    prefix: TICKET_CODE_PREFIX,
    version: TICKET_CODE_VERSION,
    kind: kind as TicketKind,
    id,
    signature,
    message: code.slice(0, code.lastIndexOf('.')),
  }
}

/**
 * Verifies a code against the operator's public key (or any of several keys, during a key rotation) and
 * returns what it identifies. A code that is malformed or whose signature fails is rejected, always.
 *
 * Cost: one Ed25519 verification per key tried (tens of microseconds).
 *
 * @throws DomainError INVALID_SIGNATURE for any malformed code or failed signature (the parse error's code
 *   is kept in `details.cause`); VALIDATION_FAILED only when a key is not an Ed25519 public key.
 */
export function verifyTicketCode(code: string, publicKey: KeyObject | readonly KeyObject[]): TicketRef {
  const { keys, parsed, message } = toVerify(code, publicKey)
  for (const key of keys) {
    if (verify(null, message, key, parsed.signature)) return { kind: parsed.kind, id: parsed.id }
  }
  throw badSignature()
}

/**
 * {@link verifyTicketCode} on libuv's thread pool (node:crypto's asynchronous `verify`): the same checks and the
 * same refusals, but the Ed25519 verification (a few hundred microseconds with OpenSSL 3.0) runs off the calling
 * thread, so that an HTTP server verifying one code per request keeps its event loop for the rest of the request.
 */
export async function verifyTicketCodeAsync(
  code: string,
  publicKey: KeyObject | readonly KeyObject[],
): Promise<TicketRef> {
  const { keys, parsed, message } = toVerify(code, publicKey)
  for (const key of keys) {
    const ok = await new Promise<boolean>((resolve, reject) =>
      verify(null, message, key, parsed.signature, (err, valid) => (err ? reject(err) : resolve(valid))),
    )
    if (ok) return { kind: parsed.kind, id: parsed.id }
  }
  throw badSignature()
}

function toVerify(
  code: string,
  publicKey: KeyObject | readonly KeyObject[],
): { keys: readonly KeyObject[]; parsed: ParsedTicketCode; message: Buffer } {
  const keys: readonly KeyObject[] = Array.isArray(publicKey) ? publicKey : [publicKey as KeyObject]
  if (keys.length === 0) throw new DomainError('VALIDATION_FAILED', 'no public key to verify the ticket code with')
  for (const key of keys) assertEd25519(key, 'public')
  let parsed: ParsedTicketCode
  try {
    parsed = parseTicketCode(code)
  } catch (e) {
    if (e instanceof DomainError)
      throw new DomainError('INVALID_SIGNATURE', `invalid ticket code: ${e.message}`, { cause: e.code })
    throw e
  }
  return { keys, parsed, message: Buffer.from(parsed.message, 'utf8') }
}

const badSignature = () =>
  new DomainError('INVALID_SIGNATURE', 'ticket code signature does not verify with the operator key')

/** True when `code` verifies; never throws for a bad code. */
export function isValidTicketCode(code: string, publicKey: KeyObject | readonly KeyObject[]): boolean {
  try {
    verifyTicketCode(code, publicKey)
    return true
  } catch (e) {
    if (e instanceof DomainError && e.code === 'INVALID_SIGNATURE') return false
    throw e
  }
}

/**
 * Ed25519 private key from its 32-byte seed (RFC 8032 secret key). The seed must come from a CSPRNG; this
 * function only wraps it, so that key material can be stored or derived outside the domain.
 */
export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (!(seed instanceof Uint8Array) || seed.length !== 32)
    throw new DomainError('VALIDATION_FAILED', 'Ed25519 seed must be 32 bytes')
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' })
}

/** Ed25519 private key from PKCS#8 PEM text. */
export function privateKeyFromPem(pem: string): KeyObject {
  const key = createPrivateKey(pem)
  assertEd25519(key, 'private')
  return key
}

/** The public half of an Ed25519 private key. */
export function publicKeyOf(privateKey: KeyObject): KeyObject {
  assertEd25519(privateKey, 'private')
  return createPublicKey(privateKey)
}

/** The raw 32-byte Ed25519 public key (RFC 8032 encoding). */
export function publicKeyToRaw(publicKey: KeyObject): Buffer {
  return Buffer.from(publicKeyToJwk(publicKey).x, 'base64url')
}

/** Ed25519 public key from its raw 32 bytes, or from those bytes in base64url. */
export function publicKeyFromRaw(raw: Uint8Array | string): KeyObject {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'base64url') : Buffer.from(raw)
  if (bytes.length !== 32 || (typeof raw === 'string' && bytes.toString('base64url') !== raw)) {
    throw new DomainError('VALIDATION_FAILED', 'raw Ed25519 public key must be 32 bytes (43 base64url characters)')
  }
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: bytes.toString('base64url') }, format: 'jwk' })
}

/** The public key as a JWK (RFC 8037): `{ kty: 'OKP', crv: 'Ed25519', x }`. */
export function publicKeyToJwk(publicKey: KeyObject): { kty: 'OKP'; crv: 'Ed25519'; x: string } {
  assertEd25519(publicKey, 'public')
  const jwk = publicKey.export({ format: 'jwk' })
  return { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x) }
}

/** The public key as SPKI PEM text. */
export function publicKeyToPem(publicKey: KeyObject): string {
  assertEd25519(publicKey, 'public')
  return publicKey.export({ format: 'pem', type: 'spki' }).toString()
}

/** Ed25519 public key from SPKI PEM text. */
export function publicKeyFromPem(pem: string): KeyObject {
  const key = createPublicKey(pem)
  assertEd25519(key, 'public')
  return key
}

/** Short stable name of a public key: the first 8 bytes of SHA-256(raw key), in hex. */
export function publicKeyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKeyToRaw(publicKey)).digest('hex').slice(0, 16)
}

/** What `GET /api/keys` publishes for one key, so that anyone can check a ticket offline. */
export interface PublishedTicketKey {
  kid: string
  alg: 'Ed25519'
  format: `${typeof TICKET_CODE_PREFIX}${typeof TICKET_CODE_VERSION}`
  /** Raw 32-byte public key, base64url without padding. */
  raw: string
  pem: string
  jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string; alg: 'EdDSA'; use: 'sig' }
}

/** Describes a public key for publication (raw base64url, PEM and JWK, with a key id). */
export function describePublicKey(publicKey: KeyObject): PublishedTicketKey {
  const jwk = publicKeyToJwk(publicKey)
  const kid = publicKeyId(publicKey)
  return {
    kid,
    alg: 'Ed25519',
    format: `${TICKET_CODE_PREFIX}${TICKET_CODE_VERSION}`,
    raw: jwk.x,
    pem: publicKeyToPem(publicKey),
    jwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig' },
  }
}

function assertId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_TICKET_ID_LENGTH || !ID_PATTERN.test(id)) {
    throw malformed(
      `ticket id must be 1 to ${MAX_TICKET_ID_LENGTH} characters from A-Z a-z 0-9 - _, got ${JSON.stringify(id)}`,
    )
  }
}

function assertEd25519(key: KeyObject, type: 'public' | 'private'): void {
  if (typeof key !== 'object' || key === null || key.type !== type || key.asymmetricKeyType !== 'ed25519') {
    throw new DomainError('VALIDATION_FAILED', `expected an Ed25519 ${type} key`)
  }
}

function malformed(message: string): DomainError {
  return new DomainError('VALIDATION_FAILED', message)
}
