import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  QUICKNET,
  QUICKNET_KEY,
  createDemoBeacon,
  demoSecretKeyFrom,
  drawRoundFor,
  randomnessOf,
  roundAt,
  roundMessage,
  roundTime,
  verifyBeaconSignature,
} from './beacon.ts'

/** drand's published quicknet test vector (DESIGN.md). */
const VECTOR = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
}

describe('quicknet signature', () => {
  it('verifies the published test vector and derives its randomness', () => {
    const r = verifyBeaconSignature(QUICKNET_KEY, VECTOR.round, VECTOR.signature)
    expect(r).toEqual({ ok: true, demo: false, round: VECTOR })
  })

  it('refuses the signature with any one hex character changed', () => {
    // Positions across the whole point, including the flag bits of the first byte.
    for (const i of [0, 1, 2, 17, 47, 95]) {
      const c = VECTOR.signature[i]
      const bad =
        VECTOR.signature.slice(0, i) +
        (c === '0' ? '1' : c === 'f' ? 'e' : (parseInt(c, 16) ^ 1).toString(16)) +
        VECTOR.signature.slice(i + 1)
      const r = verifyBeaconSignature(QUICKNET_KEY, VECTOR.round, bad)
      expect(r.ok, `position ${i}`).toBe(false)
    }
  })

  it('refuses the signature for a neighbouring round', () => {
    expect(verifyBeaconSignature(QUICKNET_KEY, VECTOR.round + 1, VECTOR.signature)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('does not verify'),
    })
    expect(verifyBeaconSignature(QUICKNET_KEY, VECTOR.round - 1, VECTOR.signature).ok).toBe(false)
  })

  it('refuses malformed input without throwing', () => {
    expect(verifyBeaconSignature(QUICKNET_KEY, VECTOR.round, VECTOR.signature.toUpperCase()).ok).toBe(false)
    expect(verifyBeaconSignature(QUICKNET_KEY, VECTOR.round, VECTOR.signature.slice(2)).ok).toBe(false)
    expect(verifyBeaconSignature(QUICKNET_KEY, 0, VECTOR.signature).ok).toBe(false)
    expect(
      verifyBeaconSignature({ ...QUICKNET_KEY, publicKey: '00'.repeat(96) }, VECTOR.round, VECTOR.signature).ok,
    ).toBe(false)
  })

  it('signs SHA-256 of the round as uint64 big-endian', () => {
    expect(roundMessage(1).toString('hex')).toBe(
      createHash('sha256').update(Buffer.from('0000000000000001', 'hex')).digest('hex'),
    )
    expect(roundMessage(2 ** 40 + 5).toString('hex')).toBe(
      createHash('sha256').update(Buffer.from('0000010000000005', 'hex')).digest('hex'),
    )
    expect(randomnessOf(VECTOR.signature)).toBe(VECTOR.randomness)
  })
})

describe('round arithmetic', () => {
  it('round 1 is published at genesis and each round lasts 3 s', () => {
    expect(roundAt(QUICKNET.genesisTime)).toBe(1)
    expect(roundAt(QUICKNET.genesisTime + 2)).toBe(1)
    expect(roundAt(QUICKNET.genesisTime + 3)).toBe(2)
    expect(drawRoundFor(QUICKNET.genesisTime + 3)).toBe(4)
    expect(roundTime(VECTOR.round)).toBe(1692803367 + 3 * 657412)
    expect(() => roundAt(QUICKNET.genesisTime - 1)).toThrow(RangeError)
    expect(() => roundAt(1.5e9 + 0.5)).toThrow(RangeError)
  })

  it('a round runs from its publication time to just before the next one (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), fc.integer({ min: 0, max: 2 }), (r, offset) => {
        const t = roundTime(r)
        expect(roundAt(t + offset)).toBe(r)
        expect(roundAt(t + 3)).toBe(r + 1)
        if (r > 1) expect(roundAt(t - 1)).toBe(r - 1)
        // The draw round is published strictly after the close, at least 3 s later.
        expect(roundTime(drawRoundFor(t + offset))).toBeGreaterThan(t + offset)
        expect(roundTime(drawRoundFor(t + offset)) - (t + offset)).toBeGreaterThanOrEqual(4)
      }),
    )
  })
})

describe('demo beacon', () => {
  const beacon = createDemoBeacon(demoSecretKeyFrom(new Uint8Array(48).fill(9)))

  it('signs rounds that verify under its own key, marked as demo', () => {
    const r = beacon.sign(1234)
    expect(r.randomness).toBe(randomnessOf(r.signature))
    expect(verifyBeaconSignature(beacon.key, 1234, r.signature)).toEqual({ ok: true, demo: true, round: r })
    expect(beacon.key.scheme).toBe('demo')
    expect(beacon.key.chainHash).not.toBe(QUICKNET.chainHash)
  })

  it('its signatures do not pass as quicknet ones, nor for another round', () => {
    const r = beacon.sign(1234)
    expect(verifyBeaconSignature(QUICKNET_KEY, 1234, r.signature).ok).toBe(false)
    expect(verifyBeaconSignature(beacon.key, 1235, r.signature).ok).toBe(false)
  })

  it('a check repeated (its pairing outcome kept) answers for the same key, round and signature only', () => {
    const r = beacon.sign(4321)
    for (let i = 0; i < 2; i++) {
      expect(verifyBeaconSignature(beacon.key, 4321, r.signature)).toEqual({ ok: true, demo: true, round: r })
      expect(verifyBeaconSignature(QUICKNET_KEY, 4321, r.signature).ok).toBe(false)
      expect(verifyBeaconSignature(beacon.key, 4322, r.signature).ok).toBe(false)
      expect(verifyBeaconSignature(beacon.key, 4321, beacon.sign(4322).signature).ok).toBe(false)
      expect(verifyBeaconSignature(QUICKNET_KEY, VECTOR.round, VECTOR.signature).ok).toBe(true)
      // The same public key under another scheme's name: still the demo flag of the key given.
      expect(verifyBeaconSignature({ ...beacon.key, scheme: 'drand-quicknet' }, 4321, r.signature)).toMatchObject({
        ok: true,
        demo: false,
      })
    }
  })

  it('two demo keys differ', () => {
    const other = createDemoBeacon(demoSecretKeyFrom(new Uint8Array(48).fill(10)))
    expect(other.key.publicKey).not.toBe(beacon.key.publicKey)
    expect(verifyBeaconSignature(other.key, 7, beacon.sign(7).signature).ok).toBe(false)
  })
})
