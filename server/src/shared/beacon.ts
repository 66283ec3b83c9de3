/**
 * Public randomness beacon for `bolillo-draw-v2` (DESIGN.md "Contracts / Draw proof bolillo-draw-v2"): drand's
 * quicknet chain (BLS12-381, signatures on G1, public key on G2, unchained rounds, RFC 9380 hash-to-curve), and a
 * local demo beacon with the same scheme and a key pair of its own, for halls with no network (point 9).
 *
 * Round `r` signs `SHA-256(uint64be(r))`; its randomness is `SHA-256(signature)`.
 *
 * Pure: time arrives as Unix seconds, keys and signatures as bytes or hex.
 */
import { createHash } from 'node:crypto'
import { bls12_381 } from '@noble/curves/bls12-381.js'

/** drand quicknet constants (League of Entropy). */
export const QUICKNET = Object.freeze({
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  genesisTime: 1692803367,
  period: 3,
  schemeId: 'bls-unchained-g1-rfc9380',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
})

/** Domain separation tag of quicknet (and of the demo beacon). */
export const BEACON_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_'

/** The draw uses the second round after the one running at the close of sales. */
export const DRAW_ROUND_OFFSET = 2

/** `scheme` of a beacon in a proof: the public quicknet chain, or the local demo beacon. */
export type BeaconScheme = 'drand-quicknet' | 'demo'

/** What a signature is checked against. */
export interface BeaconKey {
  scheme: BeaconScheme
  chainHash: string
  /** G2 public key, compressed, 192 lowercase hex characters. */
  publicKey: string
}

/** The quicknet key. */
export const QUICKNET_KEY: BeaconKey = Object.freeze({
  scheme: 'drand-quicknet',
  chainHash: QUICKNET.chainHash,
  publicKey: QUICKNET.publicKey,
})

/** A verified beacon round, as it goes into a v2 proof. */
export interface BeaconRound {
  round: number
  /** G1 signature, compressed, 96 lowercase hex characters. */
  signature: string
  /** hex(SHA-256(signature bytes)). */
  randomness: string
}

const HEX_SIGNATURE = /^[0-9a-f]{96}$/
const HEX_PUBLIC_KEY = /^[0-9a-f]{192}$/
const HEX64 = /^[0-9a-f]{64}$/

/** The round running at Unix time `t` (seconds): `floor((t − genesis) / period) + 1`. Throws before genesis. */
export function roundAt(unixSeconds: number): number {
  if (!Number.isSafeInteger(unixSeconds)) throw new RangeError(`time must be whole Unix seconds, got ${unixSeconds}`)
  if (unixSeconds < QUICKNET.genesisTime) throw new RangeError(`time ${unixSeconds} is before the quicknet genesis`)
  return Math.floor((unixSeconds - QUICKNET.genesisTime) / QUICKNET.period) + 1
}

/** The beacon round a draw closed at `closedAtUnixSeconds` uses: `roundAt(t) + 2`. */
export function drawRoundFor(closedAtUnixSeconds: number): number {
  return roundAt(closedAtUnixSeconds) + DRAW_ROUND_OFFSET
}

/** Unix time (seconds) at which round `r` is published: `genesis + period · (r − 1)`. */
export function roundTime(round: number): number {
  assertRound(round)
  return QUICKNET.genesisTime + QUICKNET.period * (round - 1)
}

/** The message a round signs: `SHA-256(uint64be(round))`. */
export function roundMessage(round: number): Buffer {
  assertRound(round)
  const b = Buffer.alloc(8)
  b.writeBigUInt64BE(BigInt(round))
  return createHash('sha256').update(b).digest()
}

/** `hex(SHA-256(signature))` for a signature given in hex. */
export function randomnessOf(signatureHex: string): string {
  return createHash('sha256').update(Buffer.from(signatureHex, 'hex')).digest('hex')
}

/** Result of {@link verifyBeaconSignature}. */
export type BeaconCheck = { ok: true; demo: boolean; round: BeaconRound } | { ok: false; demo: boolean; reason: string }

/**
 * The outcome of the last pairings computed (public key, round and signature to valid or not). A game's draw checks its
 * round twice (its draw order, then its bonus draws), and each check is a BLS pairing of about 100 ms of CPU; the
 * outcome of the same three values cannot change, so the second is read from here.
 */
const pairingsChecked = new Map<string, boolean>()
const PAIRINGS_KEPT = 256

/**
 * Checks a round's signature against `key`. Never throws. `demo` is true when the key is the demo beacon's: such a
 * round is valid but not public randomness, and callers must say so.
 */
export function verifyBeaconSignature(key: BeaconKey, round: number, signatureHex: string): BeaconCheck {
  const demo = key.scheme === 'demo'
  if (!Number.isSafeInteger(round) || round < 1)
    return { ok: false, demo, reason: `round must be a positive integer, got ${String(round)}` }
  if (typeof signatureHex !== 'string' || !HEX_SIGNATURE.test(signatureHex)) {
    return { ok: false, demo, reason: 'signature must be 96 lowercase hex characters (a compressed G1 point)' }
  }
  if (typeof key.publicKey !== 'string' || !HEX_PUBLIC_KEY.test(key.publicKey)) {
    return { ok: false, demo, reason: 'public key must be 192 lowercase hex characters (a compressed G2 point)' }
  }
  const memo = `${key.publicKey}|${round}|${signatureHex}`
  let valid = pairingsChecked.get(memo)
  try {
    if (valid === undefined) {
      const sigs = bls12_381.shortSignatures
      valid = sigs.verify(
        Buffer.from(signatureHex, 'hex'),
        sigs.hash(roundMessage(round), BEACON_DST),
        Buffer.from(key.publicKey, 'hex'),
      )
      pairingsChecked.set(memo, valid)
      if (pairingsChecked.size > PAIRINGS_KEPT) pairingsChecked.delete(pairingsChecked.keys().next().value!)
    }
  } catch (e) {
    return { ok: false, demo, reason: `signature or public key is not a valid curve point (${(e as Error).message})` }
  }
  if (!valid)
    return {
      ok: false,
      demo,
      reason: `the signature does not verify for round ${round} under the ${demo ? 'demo' : 'quicknet'} public key`,
    }
  return { ok: true, demo, round: { round, signature: signatureHex, randomness: randomnessOf(signatureHex) } }
}

/** A local demo beacon: same scheme as quicknet, a key pair of its own. Never public randomness. */
export interface DemoBeacon {
  key: BeaconKey
  /** Signs round `r` as quicknet would. */
  sign(round: number): BeaconRound
}

/**
 * Derives a demo beacon secret key (32 bytes) from at least 48 bytes of entropy supplied by the caller (the
 * server's entropy source).
 */
export function demoSecretKeyFrom(entropy: Uint8Array): Uint8Array {
  if (!(entropy instanceof Uint8Array) || entropy.length < 48)
    throw new RangeError('demo beacon key needs at least 48 bytes of entropy')
  return Uint8Array.from(bls12_381.utils.randomSecretKey(entropy.subarray(0, 48)))
}

/** The chain hash of a demo beacon: `hex(SHA-256("bolillo-demo-beacon|" + publicKey))`. */
export function demoChainHash(publicKeyHex: string): string {
  return createHash('sha256').update(`bolillo-demo-beacon|${publicKeyHex}`, 'utf8').digest('hex')
}

/** A demo beacon from its 32-byte secret key. */
export function createDemoBeacon(secretKey: Uint8Array): DemoBeacon {
  const sigs = bls12_381.shortSignatures
  const publicKey = sigs.getPublicKey(secretKey).toHex(true)
  const key: BeaconKey = Object.freeze({ scheme: 'demo', chainHash: demoChainHash(publicKey), publicKey })
  const sk = Uint8Array.from(secretKey)
  return {
    key,
    sign(round) {
      const signature = sigs.sign(sigs.hash(roundMessage(round), BEACON_DST), sk).toHex(true)
      return { round, signature, randomness: randomnessOf(signature) }
    },
  }
}

/** True for a 64-char lowercase hex string (chain hashes, randomness). */
export function isHex64(value: unknown): value is string {
  return typeof value === 'string' && HEX64.test(value)
}

function assertRound(round: number): void {
  if (!Number.isSafeInteger(round) || round < 1) throw new RangeError(`round must be a positive integer, got ${round}`)
}
