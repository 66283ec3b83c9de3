import { createHash, createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DomainError } from './errors.ts'
import {
  EMPTY_SALES_DIGEST,
  DrawStream,
  buildDrawProof,
  commitmentOf,
  compareUtf8,
  drawKey,
  drawOrder,
  lottoNumbers,
  pickFromSorted,
  salesDigest,
  shuffleOrder,
  sortByBytes,
  verifyDrawProof,
  type DrawProof,
} from './draw-proof.ts'

/**
 * A second implementation of bolillo-draw-v1, written straight from DESIGN.md and deliberately different from
 * draw-proof.ts: serials sorted by code point (equal to UTF-8 byte order), the key message built from byte
 * pieces, the stream as a lazy generator of bytes assembled by arithmetic, and the rejection rule in BigInt.
 */
const reference = {
  digest(serials: string[]): string {
    const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0)!)
    const sorted = [...serials].sort((a, b) => {
      const x = codePoints(a),
        y = codePoints(b)
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i]
      return x.length - y.length
    })
    return createHash('sha256')
      .update(Buffer.from(sorted.join('\n')))
      .digest('hex')
  },
  key(seed: Uint8Array, gameId: string, digest: string, entropy: string): Buffer {
    const pieces = ['bolillo-draw-v1', gameId, digest, entropy].map((p) => Buffer.from(p, 'utf8'))
    const message = Buffer.concat(pieces.flatMap((p, i) => (i === 0 ? [p] : [Buffer.from([0x7c]), p])))
    return createHmac('sha256', Buffer.from(seed)).update(message).digest()
  },
  *bytes(key: Buffer): Generator<number> {
    for (let i = 0; ; i++) {
      const counter = Buffer.from([(i >>> 24) & 255, (i >>> 16) & 255, (i >>> 8) & 255, i & 255])
      yield* createHmac('sha256', key).update(counter).digest()
    }
  },
  uint32s(key: Buffer): () => number {
    const it = reference.bytes(key)
    return () => {
      let v = 0
      for (let k = 0; k < 4; k++) v = v * 256 + (it.next().value as number)
      return v
    }
  },
  below(next: () => number, m: number): number {
    const span = 2n ** 32n
    const limit = span - (span % BigInt(m))
    for (;;) {
      const u = BigInt(next())
      if (u < limit) return Number(u % BigInt(m))
    }
  },
  order(key: Buffer, n: number): number[] {
    const next = reference.uint32s(key)
    const a = Array.from({ length: n }, (_, i) => i + 1)
    for (let j = n - 1; j >= 1; j--) {
      const r = reference.below(next, j + 1)
      ;[a[j], a[r]] = [a[r], a[j]]
    }
    return a
  },
}

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 })
const gameIdArb = fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).filter((s) => !s.includes('|'))
const serialArb = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }).filter((s) => !s.includes('\n'))
const serialsArb = fc.uniqueArray(serialArb, { maxLength: 40 })
const entropyArb = fc.string({ maxLength: 40, unit: 'grapheme' })

const SEED = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex')

function sampleProof(overrides: Partial<Parameters<typeof buildDrawProof>[0]> = {}): DrawProof {
  return buildDrawProof({
    seed: SEED,
    gameId: 'hall-1/session-7/game-3',
    serials: ['A-0001', 'a-0002', 'B-0003'],
    externalEntropy: 'beacon 1234',
    ballCount: 90,
    calledCount: 40,
    ...overrides,
  })
}

describe('bolillo-draw-v1 against an independent implementation', () => {
  it('agrees on digest, key and full order for random inputs', () => {
    fc.assert(
      fc.property(
        seedArb,
        gameIdArb,
        serialsArb,
        entropyArb,
        fc.integer({ min: 1, max: 120 }),
        (seed, gameId, serials, entropy, n) => {
          const result = drawOrder({ seed, gameId, serials, externalEntropy: entropy, ballCount: n })
          const digest = reference.digest(serials)
          expect(result.salesDigest).toBe(digest)
          expect(result.commitment).toBe(createHash('sha256').update(seed).digest('hex'))
          expect(drawKey(seed, gameId, digest, entropy).equals(reference.key(seed, gameId, digest, entropy))).toBe(true)
          expect(result.order).toEqual(reference.order(reference.key(seed, gameId, digest, entropy), n))
        },
      ),
      { numRuns: 200 },
    )
  })

  it('agrees on the rejection rule where it rejects often (m = 3 * 2^30 rejects a quarter of the values)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (keyBytes) => {
        const key = Buffer.from(keyBytes)
        const stream = new DrawStream(key)
        const next = reference.uint32s(key)
        for (let i = 0; i < 20; i++) expect(stream.nextBelow(3 * 2 ** 30)).toBe(reference.below(next, 3 * 2 ** 30))
      }),
      { numRuns: 50 },
    )
  })

  it('reads the stream as big-endian uint32s of consecutive HMAC blocks', () => {
    const key = Buffer.alloc(32, 7)
    const stream = new DrawStream(key)
    const values = Array.from({ length: 17 }, () => stream.nextUint32())
    const block0 = createHmac('sha256', key)
      .update(Buffer.from([0, 0, 0, 0]))
      .digest()
    const block1 = createHmac('sha256', key)
      .update(Buffer.from([0, 0, 0, 1]))
      .digest()
    const block2 = createHmac('sha256', key)
      .update(Buffer.from([0, 0, 0, 2]))
      .digest()
    expect(values[0]).toBe(block0.readUInt32BE(0))
    expect(values[7]).toBe(block0.readUInt32BE(28))
    expect(values[8]).toBe(block1.readUInt32BE(0))
    expect(values[16]).toBe(block2.readUInt32BE(0))
    expect(stream.count).toBe(17)
  })
})

describe('shuffleOrder', () => {
  it('is a permutation of 1..N: never repeats or skips a ball', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: 300 }), (key, n) => {
        const order = shuffleOrder(key, n)
        expect(order).toHaveLength(n)
        expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1))
      }),
    )
  })

  it('puts every ball first about equally often', () => {
    // 5000 deterministic keys, 5 balls: each count is ~1000 with sd ~28; the bounds are 5 sd wide.
    const counts = [0, 0, 0, 0, 0]
    for (let i = 0; i < 5000; i++) {
      const key = createHash('sha256').update(`uniformity ${i}`).digest()
      counts[shuffleOrder(key, 5)[0] - 1]++
    }
    for (const c of counts) expect(c).toBeGreaterThan(860)
    for (const c of counts) expect(c).toBeLessThan(1140)
  })

  it('rejects a bad size', () => {
    expect(() => shuffleOrder(SEED, -1)).toThrow(DomainError)
    expect(() => shuffleOrder(SEED, 2.5)).toThrow(DomainError)
  })
})

describe('fixed test vector', () => {
  // Guards against accidental drift of the published contract: if this test fails, old proofs would no longer
  // verify. The values were computed once with draw-proof.ts and checked against a separate Python
  // implementation written from DESIGN.md. Never "update" them; a new algorithm needs a new version tag.
  const input = {
    seed: SEED,
    gameId: 'hall-1/session-7/game-3',
    serials: ['z-5', 'a-0002', 'B-0003', 'é-4', 'A-0001'],
    externalEntropy: 'beacon round 1234 ñ',
    ballCount: 90,
  }

  it('gives the recorded commitment, digest and first 10 balls', () => {
    const result = drawOrder(input)
    expect(result.commitment).toBe('630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd')
    expect(result.salesDigest).toBe('7fb6ebb790062b505e7b0fcb63517a9967ebfdbd8ea604922cb566db2e92e7f7')
    expect(result.order.slice(0, 10)).toEqual([51, 35, 19, 46, 39, 86, 67, 65, 17, 50])
  })

  it('gives the recorded lotto 6/49 with no sales and empty entropy', () => {
    const key = drawKey(SEED, 'g', EMPTY_SALES_DIGEST, '')
    expect(lottoNumbers(key, 49, 6)).toEqual([8, 42, 49, 25, 19, 23])
  })
})

describe('salesDigest and byte order', () => {
  it('is SHA-256 of the empty string for no sales', () => {
    expect(salesDigest([])).toBe(EMPTY_SALES_DIGEST)
    expect(EMPTY_SALES_DIGEST).toBe(createHash('sha256').update('').digest('hex'))
  })

  it('sorts by UTF-8 bytes, not by locale: "B" before "a", "z" before "é"', () => {
    expect(sortByBytes(['a', 'B'])).toEqual(['B', 'a'])
    expect(['a', 'B'].sort((x, y) => x.localeCompare(y))).toEqual(['a', 'B'])
    expect(sortByBytes(['é', 'z'])).toEqual(['z', 'é'])
    expect(['é', 'z'].sort((x, y) => x.localeCompare(y, 'es'))).toEqual(['é', 'z'])
    expect(salesDigest(['a', 'B'])).toBe(createHash('sha256').update('B\na').digest('hex'))
    expect(salesDigest(['é', 'z'])).toBe(createHash('sha256').update('z\né').digest('hex'))
  })

  it('sorts by bytes, not by UTF-16 code units: U+FFFD before an emoji', () => {
    // UTF-16 puts the surrogate pair of U+1F600 (0xD83D...) before U+FFFD; UTF-8 bytes put EF BF BD before F0 9F.
    expect(['\uFFFD', '😀'].sort()).toEqual(['😀', '\uFFFD'])
    expect(sortByBytes(['😀', '\uFFFD'])).toEqual(['\uFFFD', '😀'])
    expect(compareUtf8('\uFFFD', '😀')).toBeLessThan(0)
  })

  it('does not depend on the order the serials are given in', () => {
    fc.assert(
      fc.property(serialsArb, fc.func(fc.integer()), (serials, score) => {
        const shuffled = [...serials].sort((a, b) => score(a) - score(b))
        expect(salesDigest(shuffled)).toBe(salesDigest(serials))
      }),
    )
  })

  it('rejects sale lists whose joined text would be ambiguous', () => {
    for (const bad of [[''], ['a\nb'], ['x', 'x'], ['\uD800']]) {
      expect(() => salesDigest(bad)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }))
    }
  })
})

describe('drawKey', () => {
  it('rejects a gameId with "|", a short seed and a malformed digest', () => {
    expect(() => drawKey(SEED, 'a|b', EMPTY_SALES_DIGEST, '')).toThrow(/must not contain "\|"/)
    expect(() => drawKey(SEED.subarray(0, 16), 'g', EMPTY_SALES_DIGEST, '')).toThrow(/32 bytes/)
    expect(() => drawKey(SEED, 'g', EMPTY_SALES_DIGEST.toUpperCase(), '')).toThrow(/salesDigest/)
    expect(() => commitmentOf(new Uint8Array(31))).toThrow(DomainError)
  })
})

describe('draws among tickets and lotto', () => {
  it('maps value v to the v-th ticket in byte order', () => {
    fc.assert(
      fc.property(
        seedArb,
        fc.uniqueArray(serialArb, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        (seed, tickets, kRaw) => {
          const k = kRaw % (tickets.length + 1)
          const key = drawKey(seed, 'raffle-1', salesDigest(tickets), '')
          const winners = pickFromSorted(tickets, key, k)
          const sorted = sortByBytes(tickets)
          const expected = reference
            .order(reference.key(seed, 'raffle-1', reference.digest(tickets), ''), tickets.length)
            .slice(0, k)
            .map((v) => sorted[v - 1])
          expect(winners).toEqual(expected)
          expect(new Set(winners).size).toBe(k)
        },
      ),
      { numRuns: 100 },
    )
  })

  it('takes the first k of the order for lotto', () => {
    const key = drawKey(SEED, 'lotto-7', EMPTY_SALES_DIGEST, '')
    expect(lottoNumbers(key, 49, 6)).toEqual(shuffleOrder(key, 49).slice(0, 6))
    expect(() => lottoNumbers(key, 49, 50)).toThrow(DomainError)
  })

  it('rejects duplicate tickets and k out of range', () => {
    expect(() => pickFromSorted(['a', 'a'], SEED, 1)).toThrow(/more than once/)
    expect(() => pickFromSorted(['a'], SEED, 2)).toThrow(DomainError)
  })
})

describe('verifyDrawProof', () => {
  it('accepts a proof for a game that ended early, for no ball yet and for every ball', () => {
    for (const calledCount of [0, 1, 40, 90]) {
      expect(verifyDrawProof(sampleProof({ calledCount }))).toEqual({ ok: true, errors: [] })
    }
    expect(
      verifyDrawProof(JSON.parse(JSON.stringify(sampleProof({ includeSerials: false, entropySource: 'beacon' })))).ok,
    ).toBe(true)
  })

  it('accepts proofs built from random inputs', () => {
    fc.assert(
      fc.property(
        seedArb,
        gameIdArb,
        serialsArb,
        entropyArb,
        fc.integer({ min: 1, max: 90 }),
        fc.nat(),
        (seed, gameId, serials, e, n, c) => {
          const proof = buildDrawProof({
            seed,
            gameId,
            serials,
            externalEntropy: e,
            ballCount: n,
            calledCount: c % (n + 1),
          })
          expect(verifyDrawProof(JSON.parse(JSON.stringify(proof)))).toEqual({ ok: true, errors: [] })
        },
      ),
      { numRuns: 100 },
    )
  })

  it('names a tampered ball with its position and the value the stream gives', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 39 }), (i) => {
        const proof = sampleProof()
        const truth = proof.balls[i]
        const fake = shuffleOrder(drawKey(SEED, proof.gameId, proof.salesDigest, proof.externalEntropy), 90)[60]
        proof.balls[i] = fake
        const result = verifyDrawProof(proof)
        expect(result.ok).toBe(false)
        expect(result.errors).toEqual([`ball #${i + 1} is ${fake} but the proof stream gives ${truth}`])
      }),
    )
  })

  it('names the seed/commitment when either is changed', () => {
    const proof = sampleProof()
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1)
    const seedTampered = verifyDrawProof({ ...proof, seed: flip(proof.seed) })
    expect(seedTampered.ok).toBe(false)
    expect(seedTampered.errors[0]).toMatch(/^commitment [0-9a-f]{64} does not match SHA-256\(seed\)/)
    // A different seed also gives a different stream; the ball list is capped at 10 lines plus a summary.
    expect(seedTampered.errors.some((e) => /^ball #\d+ is \d+ but the proof stream gives \d+$/.test(e))).toBe(true)
    expect(seedTampered.errors.length).toBeLessThanOrEqual(12)

    const commitmentTampered = verifyDrawProof({ ...proof, commitment: flip(proof.commitment) })
    expect(commitmentTampered.errors).toEqual([
      `commitment ${flip(proof.commitment)} does not match SHA-256(seed) = ${proof.commitment}`,
    ])
  })

  it('names the sales digest when it does not match the sold serials', () => {
    const proof = sampleProof()
    const digest = salesDigest(['A-0001', 'a-0002'])
    const result = verifyDrawProof({ ...proof, salesDigest: digest })
    expect(result.ok).toBe(false)
    expect(result.errors[0]).toBe(
      `salesDigest ${digest} does not match the 3 soldSerials, which give ${proof.salesDigest}`,
    )

    const withoutSerials = verifyDrawProof({ ...sampleProof({ includeSerials: false }), salesDigest: digest })
    expect(withoutSerials.ok).toBe(false)
    expect(withoutSerials.errors[0]).toMatch(/^ball #\d+ is \d+ but the proof stream gives \d+$/)

    const serialAdded = verifyDrawProof({ ...proof, soldSerials: [...proof.soldSerials!, 'C-9'] })
    expect(serialAdded.errors[0]).toMatch(/^salesDigest .* does not match the 4 soldSerials/)
  })

  it('fails when gameId or external entropy is changed', () => {
    expect(verifyDrawProof({ ...sampleProof(), gameId: 'hall-1/session-7/game-4' }).ok).toBe(false)
    expect(verifyDrawProof({ ...sampleProof(), externalEntropy: 'beacon 1235' }).ok).toBe(false)
  })

  it('reports shape errors precisely', () => {
    expect(verifyDrawProof(null)).toEqual({ ok: false, errors: ['proof must be a JSON object'] })
    const result = verifyDrawProof({
      version: 'bolillo-draw-v2',
      gameId: '',
      seed: 'xyz',
      balls: [1, 'x', 200],
      ballCount: 90,
    })
    expect(result.ok).toBe(false)
    expect(result.errors).toEqual(
      expect.arrayContaining([
        'version must be "bolillo-draw-v1", got "bolillo-draw-v2"',
        'gameId must be a non-empty string without "|", got ""',
        'commitment must be 64 lowercase hex characters, got nothing',
        'seed must be 64 lowercase hex characters (32 bytes), got "xyz"',
        'salesDigest must be 64 lowercase hex characters, got nothing',
        'externalEntropy must be a string (may be empty), got nothing',
        'ball #2 must be an integer, got "x"',
        'ball #3 is 200, outside 1..90',
      ]),
    )
    const tooMany = sampleProof({ ballCount: 5, calledCount: 5 })
    tooMany.balls.push(tooMany.balls[0])
    expect(verifyDrawProof(tooMany).errors).toContain('balls has 6 entries but ballCount is 5')
  })
})
