import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DomainError } from './errors.ts'
import { buildDrawProof } from './draw-proof.ts'
import { QUICKNET, QUICKNET_KEY, createDemoBeacon, demoSecretKeyFrom, roundTime } from './beacon.ts'
import {
  buildDrawProofV2,
  drawKeyV2,
  drawOrderV2,
  isoOfUnixSeconds,
  luckyKeyV2,
  luckyNumbersV2,
  unixSecondsOf,
  verifyProof,
  type DrawInputV2,
  type DrawProofV2,
} from './draw-proof-v2.ts'

const VECTOR = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
}
// Close of sales two rounds before the vector's round, one second into that round.
const CLOSED_AT = roundTime(VECTOR.round - 2) + 1
const seed = Buffer.from('11'.repeat(16) + '22'.repeat(16), 'hex')
const serials = ['B-0003', 'B-0001', 'B-0002']

function input(over: Partial<DrawInputV2> = {}): DrawInputV2 {
  return {
    seed,
    gameId: 'g-7',
    serials,
    closedAt: CLOSED_AT,
    beaconKey: QUICKNET_KEY,
    beacon: VECTOR,
    ballCount: 90,
    ...over,
  }
}

/** Straight from DESIGN.md, sharing no code with the module: byte-built message, BigInt rejection sampling. */
function referenceOrder(
  seedHex: string,
  gameId: string,
  digest: string,
  round: number,
  x: string,
  n: number,
): number[] {
  const msg = Buffer.concat([
    Buffer.from('bolillo-draw-v2|'),
    Buffer.from(gameId),
    Buffer.from('|' + digest + '|'),
    Buffer.from(String(round)),
    Buffer.from('|' + x),
  ])
  const k = createHmac('sha256', Buffer.from(seedHex, 'hex')).update(msg).digest()
  let block = 0
  let buf: number[] = []
  const next = (): bigint => {
    if (buf.length === 0) {
      const c = Buffer.from([block >>> 24, (block >>> 16) & 255, (block >>> 8) & 255, block & 255])
      buf = [...createHmac('sha256', k).update(c).digest()]
      block++
    }
    const [a, b, cc, d] = buf.splice(0, 4)
    return (BigInt(a) << 24n) | (BigInt(b) << 16n) | (BigInt(cc) << 8n) | BigInt(d)
  }
  const a = Array.from({ length: n }, (_, i) => i + 1)
  for (let j = n - 1; j >= 1; j--) {
    const m = BigInt(j + 1)
    const limit = 2n ** 32n - (2n ** 32n % m)
    let u = next()
    while (u >= limit) u = next()
    const r = Number(u % m)
    ;[a[j], a[r]] = [a[r], a[j]]
  }
  return a
}

describe('bolillo-draw-v2 with drand quicknet', () => {
  const proof = buildDrawProofV2({ ...input(), calledCount: 40 })

  it('builds a proof that verifies, with public randomness and no notice', () => {
    expect(proof.beacon).toEqual({ scheme: 'drand-quicknet', chainHash: QUICKNET.chainHash, ...VECTOR })
    expect(proof.closedAt).toBe(isoOfUnixSeconds(CLOSED_AT))
    expect(proof.balls).toHaveLength(40)
    const r = verifyProof(JSON.parse(JSON.stringify(proof)))
    expect(r).toMatchObject({ ok: true, version: 'bolillo-draw-v2', demoBeacon: false, errors: [], notices: [] })
    expect(r.beacon).toEqual({ scheme: 'drand-quicknet', round: VECTOR.round, publicRandomness: true })
  })

  it('matches an independent implementation of the contract', () => {
    const digest = createHash('sha256').update('B-0001\nB-0002\nB-0003').digest('hex')
    expect(proof.salesDigest).toBe(digest)
    expect(proof.balls).toEqual(
      referenceOrder(proof.seed, 'g-7', digest, VECTOR.round, VECTOR.randomness, 90).slice(0, 40),
    )
  })

  it('differs from the v1 draw and from the lucky key with the same inputs', () => {
    const v1 = buildDrawProof({
      seed,
      gameId: 'g-7',
      serials,
      externalEntropy: VECTOR.randomness,
      ballCount: 90,
      calledCount: 40,
    })
    expect(v1.balls).not.toEqual(proof.balls)
    expect(luckyKeyV2(seed, 'g-7', proof.salesDigest, VECTOR.round, VECTOR.randomness)).not.toEqual(
      drawKeyV2(seed, 'g-7', proof.salesDigest, VECTOR.round, VECTOR.randomness),
    )
    expect(luckyNumbersV2(seed, 'g-7', proof.salesDigest, VECTOR, 90, 3)).toHaveLength(3)
  })

  it('accepts any close time inside the same 3 s round, and no other', () => {
    expect(drawOrderV2(input({ closedAt: CLOSED_AT + 1 })).round).toBe(VECTOR.round)
    expect(() => drawOrderV2(input({ closedAt: CLOSED_AT + 2 }))).toThrow(/needs beacon round 657414/)
    expect(() => drawOrderV2(input({ closedAt: CLOSED_AT - 2 }))).toThrow(/needs beacon round 657412/)
  })

  it('refuses to draw from an unverified or inconsistent beacon value', () => {
    const badSig =
      VECTOR.signature.slice(0, 10) + (VECTOR.signature[10] === 'a' ? 'b' : 'a') + VECTOR.signature.slice(11)
    expect(() => drawOrderV2(input({ beacon: { ...VECTOR, signature: badSig } }))).toThrow(DomainError)
    expect(() => drawOrderV2(input({ beacon: { ...VECTOR, randomness: '0'.repeat(64) } }))).toThrow(
      /SHA-256 of its signature/,
    )
  })

  const tamper = (f: (p: DrawProofV2) => void): string[] => {
    const copy = JSON.parse(JSON.stringify(proof)) as DrawProofV2
    f(copy)
    const r = verifyProof(copy)
    expect(r.ok).toBe(false)
    for (const e of r.errors) expect(e.es.length * e.en.length).toBeGreaterThan(0)
    return r.errors.map((e) => e.code)
  }

  it('names what was tampered with', () => {
    expect(
      tamper((p) => {
        p.seed = '33'.repeat(32)
      }),
    ).toContain('commitment')
    expect(
      tamper((p) => {
        p.closedAt = isoOfUnixSeconds(CLOSED_AT + 3)
      }),
    ).toEqual(['beacon.round'])
    expect(
      tamper((p) => {
        p.beacon.signature = p.beacon.signature.replace(/^b7/, 'b6')
      }),
    ).toContain('beacon.signature')
    expect(
      tamper((p) => {
        p.beacon.randomness = 'ff' + p.beacon.randomness.slice(2)
      }),
    ).toEqual(['beacon.randomness'])
    expect(
      tamper((p) => {
        p.beacon.chainHash = '00'.repeat(32)
      }),
    ).toEqual(['beacon.chainHash'])
    expect(
      tamper((p) => {
        p.beacon.round += 1
        p.closedAt = isoOfUnixSeconds(CLOSED_AT + 3)
      }),
    ).toEqual(['beacon.signature'])
    expect(
      tamper((p) => {
        ;[p.balls[3], p.balls[4]] = [p.balls[4], p.balls[3]]
      }),
    ).toEqual(['balls', 'balls'])
    expect(
      tamper((p) => {
        p.soldSerials = ['B-0001', 'B-0002']
      }),
    ).toEqual(['salesDigest'])
    expect(
      tamper((p) => {
        p.gameId = 'g-8'
      }),
    ).toEqual(['balls', 'balls', 'balls', 'balls', 'balls', 'balls', 'balls', 'balls', 'balls', 'balls', 'balls'])
  })

  it('does not accept a quicknet signature passed off as a demo one, or vice versa', () => {
    const demo = createDemoBeacon(demoSecretKeyFrom(new Uint8Array(48).fill(3)))
    expect(
      tamper((p) => {
        p.beacon.scheme = 'demo'
        p.beacon.publicKey = demo.key.publicKey
        p.beacon.chainHash = demo.key.chainHash
      }),
    ).toEqual(['beacon.signature'])
    expect(
      tamper((p) => {
        p.beacon.publicKey = demo.key.publicKey
      }),
    ).toEqual(['beacon.publicKey'])
  })
})

describe('bolillo-draw-v2 with the demo beacon', () => {
  const demo = createDemoBeacon(demoSecretKeyFrom(new Uint8Array(48).fill(5)))
  const closedAt = 1_750_000_000
  const round = Math.floor((closedAt - 1692803367) / 3) + 3
  const proof = buildDrawProofV2({
    ...input({ closedAt, beaconKey: demo.key, beacon: demo.sign(round) }),
    calledCount: 90,
  })

  it('verifies, and says plainly that it is a demo beacon', () => {
    expect(proof.beacon).toMatchObject({ scheme: 'demo', publicKey: demo.key.publicKey, round })
    const r = verifyProof(proof)
    expect(r.ok).toBe(true)
    expect(r.demoBeacon).toBe(true)
    expect(r.beacon?.publicRandomness).toBe(false)
    expect(r.notices.map((n) => n.code)).toEqual(['demo-beacon'])
    expect(r.notices[0].es).toMatch(/DEMOSTRACIÓN.*no es un sorteo público/)
    expect(r.notices[0].en).toMatch(/DEMO BEACON.*not a publicly verifiable draw/)
    expect([...proof.balls].sort((a, b) => a - b)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1))
  })

  it('fails when the demo key in the proof is swapped for another', () => {
    const other = createDemoBeacon(demoSecretKeyFrom(new Uint8Array(48).fill(6)))
    const r = verifyProof({
      ...proof,
      beacon: { ...proof.beacon, publicKey: other.key.publicKey, chainHash: other.key.chainHash },
    })
    expect(r.errors.map((e) => e.code)).toEqual(['beacon.signature'])
  })
})

describe('verifyProof and v1', () => {
  it('still verifies v1 proofs, with a notice that staff supplied the entropy', () => {
    const v1 = buildDrawProof({
      seed,
      gameId: 'g-1',
      serials,
      externalEntropy: 'dice 3 5 1',
      ballCount: 75,
      calledCount: 20,
    })
    const r = verifyProof(v1)
    expect(r).toMatchObject({ ok: true, version: 'bolillo-draw-v1', beacon: null, demoBeacon: false })
    expect(r.notices.map((n) => n.code)).toEqual(['v1-entropy'])
    const bad = verifyProof({ ...v1, externalEntropy: 'dice 3 5 2' })
    expect(bad.ok).toBe(false)
    expect(bad.errors[0].en).toMatch(/ball #\d+ is/)
  })

  it('refuses unknown versions and non-objects', () => {
    expect(verifyProof({ version: 'bolillo-draw-v3' }).errors[0].code).toBe('version')
    expect(verifyProof(null).ok).toBe(false)
    expect(verifyProof([]).ok).toBe(false)
  })

  it('parses closedAt strictly as UTC', () => {
    expect(unixSecondsOf('2025-03-01T20:15:00Z')).toBe(Date.UTC(2025, 2, 1, 20, 15) / 1000)
    expect(unixSecondsOf('2025-03-01T20:15:00.999Z')).toBe(Date.UTC(2025, 2, 1, 20, 15) / 1000)
    expect(() => unixSecondsOf('2025-03-01T20:15:00+01:00')).toThrow(DomainError)
    expect(() => unixSecondsOf('2025-03-01 20:15:00Z')).toThrow(DomainError)
  })
})
