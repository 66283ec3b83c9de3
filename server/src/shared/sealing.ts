/**
 * Sealed secrets (DESIGN.md "Contracts / Sealed secrets"): draw seeds, draw orders, lucky-ball seeds and instant
 * prize files are stored only as AES-256-GCM ciphertext under a sealing key that is not in the database.
 *
 * Sealed text: `bolillo-sealed-v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts). The version, the key id and
 * a caller-given context (e.g. "draw-seed|game:12") are authenticated as additional data, so a value sealed under
 * another key is refused by name, and a value copied to another row or purpose does not open.
 *
 * Pure apart from drawing the IV from the OS CSPRNG (pooled: a paid sale seals its paper; a caller may pass one, for
 * tests only).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto'
import { pooledRandomBytes } from './random-pool.ts'

export const SEALED_VERSION = 'bolillo-sealed-v1'
export const SEALING_KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
const ivBytes = pooledRandomBytes()

export interface SealingKey {
  /** Public fingerprint: first 16 hex of SHA-256("bolillo-sealing-key|" + key). Reveals nothing of the key. */
  readonly id: string
  readonly bytes: Buffer
}

export type SealingErrorCode = 'MALFORMED' | 'WRONG_KEY' | 'TAMPERED' | 'BAD_KEY'

/** Why a value did not seal or open. Messages never include the plaintext or the key. */
export class SealingError extends Error {
  constructor(
    readonly code: SealingErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'SealingError'
  }
}

/** A sealing key from 32 bytes. */
export function sealingKeyFromBytes(bytes: Uint8Array): SealingKey {
  if (!(bytes instanceof Uint8Array) || bytes.length !== SEALING_KEY_BYTES) {
    throw new SealingError(
      'BAD_KEY',
      `a sealing key is ${SEALING_KEY_BYTES} bytes, got ${bytes instanceof Uint8Array ? bytes.length : typeof bytes}`,
    )
  }
  const copy = Buffer.from(bytes)
  const id = createHash('sha256').update('bolillo-sealing-key|').update(copy).digest('hex').slice(0, 16)
  return Object.freeze({ id, bytes: copy })
}

/** A sealing key from configuration text: 64 hex characters, or base64/base64url of 32 bytes. */
export function parseSealingKey(text: string): SealingKey {
  const t = String(text).trim()
  if (/^[0-9a-fA-F]{64}$/.test(t)) return sealingKeyFromBytes(Buffer.from(t, 'hex'))
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const bytes = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
    if (bytes.length === SEALING_KEY_BYTES) return sealingKeyFromBytes(bytes)
  }
  throw new SealingError('BAD_KEY', 'the sealing key must be 64 hex characters or the base64 of 32 bytes')
}

/** Seals `plaintext` for `context` (which must be given again to open it). */
export function seal(
  key: SealingKey,
  plaintext: Uint8Array | string,
  context: string,
  iv: Uint8Array = ivBytes(IV_BYTES),
): string {
  if (iv.length !== IV_BYTES) throw new SealingError('MALFORMED', `IV must be ${IV_BYTES} bytes`)
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(aad(key.id, context))
  const body = Buffer.concat([
    cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext),
    cipher.final(),
  ])
  return [SEALED_VERSION, key.id, b64(iv), b64(body), b64(cipher.getAuthTag())].join('.')
}

/** The key id a sealed value names, without opening it (to pick a key, or report which one is missing). */
export function sealedKeyId(sealed: string): string {
  return parse(sealed).keyId
}

/**
 * Opens a sealed value.
 * @throws SealingError WRONG_KEY when sealed under another key, TAMPERED when ciphertext, context or tag differ,
 *   MALFORMED when it is not a sealed value of this version.
 */
export function openSealed(key: SealingKey, sealed: string, context: string): Buffer {
  const p = parse(sealed)
  if (p.keyId !== key.id)
    throw new SealingError('WRONG_KEY', `sealed under key ${p.keyId}, but the sealing key in use is ${key.id}`)
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, p.iv, { authTagLength: TAG_BYTES })
  decipher.setAAD(aad(p.keyId, context))
  decipher.setAuthTag(p.tag)
  try {
    return Buffer.concat([decipher.update(p.body), decipher.final()])
  } catch {
    throw new SealingError(
      'TAMPERED',
      `sealed value does not authenticate under key ${key.id} for context ${JSON.stringify(context)}: altered, or sealed for another context`,
    )
  }
}

/** {@link openSealed} as UTF-8 text. */
export function openSealedText(key: SealingKey, sealed: string, context: string): string {
  return openSealed(key, sealed, context).toString('utf8')
}

function parse(sealed: string): { keyId: string; iv: Buffer; body: Buffer; tag: Buffer } {
  const parts = typeof sealed === 'string' ? sealed.split('.') : []
  if (parts.length !== 5 || parts[0] !== SEALED_VERSION)
    throw new SealingError('MALFORMED', `not a ${SEALED_VERSION} sealed value`)
  const [, keyId, iv, body, tag] = parts
  const B64URL = /^[A-Za-z0-9_-]*$/
  if (!/^[0-9a-f]{16}$/.test(keyId) || ![iv, body, tag].every((x) => B64URL.test(x)))
    throw new SealingError('MALFORMED', `not a ${SEALED_VERSION} sealed value`)
  const ivBytes = Buffer.from(iv, 'base64url')
  const tagBytes = Buffer.from(tag, 'base64url')
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES)
    throw new SealingError('MALFORMED', 'sealed value has a bad IV or tag length')
  return { keyId, iv: ivBytes, body: Buffer.from(body, 'base64url'), tag: tagBytes }
}

function aad(keyId: string, context: string): Buffer {
  if (typeof context !== 'string' || context.length === 0)
    throw new SealingError('MALFORMED', 'a sealing context is required')
  return Buffer.from(`${SEALED_VERSION}|${keyId}|${context}`, 'utf8')
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url')
}

/** A sealing key bound once, handed to the use cases that keep secrets (seeds, draw orders, prize files). */
export interface Sealer {
  readonly keyId: string
  seal(plaintext: Uint8Array | string, context: string): string
  open(sealed: string, context: string): Buffer
  openText(sealed: string, context: string): string
  /** A 32-byte key for another purpose, HMAC-SHA256(sealing key, label): as secret as the sealing key, never stored. */
  deriveKey(label: string): Buffer
  /**
   * Issue 24 point 2: a keyed hash (HMAC-SHA256, hex) of a bearer value or an identity document for `purpose`, under a
   * key derived from the sealing key, so a copy of the database cannot test guesses against it. Deterministic: a
   * presented value is looked up by its tag.
   */
  tag(value: string, purpose: string): string
}

/** HMAC-SHA256 of `value` for `purpose`, under a subkey of the sealing key (never the sealing key itself). */
export function keyedTag(key: SealingKey, value: string, purpose: string): string {
  if (typeof purpose !== 'string' || purpose.length === 0)
    throw new SealingError('MALFORMED', 'a tag purpose is required')
  let sub = tagSubkeys.get(key.bytes)
  if (!sub) tagSubkeys.set(key.bytes, (sub = createHmac('sha256', key.bytes).update('bolillo-tag-key-v1').digest()))
  return createHmac('sha256', sub).update(`${purpose}|${value}`, 'utf8').digest('hex')
}

/**
 * The tag subkey of each sealing key, derived once: a sale tags each card it sells (its short code), and deriving the
 * subkey again was one HMAC of two per tag on the event loop. Held only as long as the key's bytes are.
 */
const tagSubkeys = new WeakMap<Buffer, Buffer>()

export function createSealer(key: SealingKey): Sealer {
  return {
    keyId: key.id,
    seal: (plaintext, context) => seal(key, plaintext, context),
    open: (sealed, context) => openSealed(key, sealed, context),
    openText: (sealed, context) => openSealedText(key, sealed, context),
    deriveKey: (label) => createHmac('sha256', key.bytes).update(`bolillo-derived-key|${label}`).digest(),
    tag: (value, purpose) => keyedTag(key, value, purpose),
  }
}
