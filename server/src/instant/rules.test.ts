import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DomainError } from '../shared/errors.ts'
import { checkDesign, type InstantDesign } from './design.ts'
import {
  codeTag,
  createCodeBatch,
  deriveKey,
  formatSerial,
  groupCode,
  openPrizeTags,
  packSerials,
  parseSerial,
  parseValidationCode,
  prizeTags,
  seedCommitment,
  validationCodes,
} from './codes.ts'
import { generatePacks, packRuleViolation } from './generate.ts'
import { decodeFace, encodedFaces, encodeFace, evaluateFace, ticketFace, ticketFaces } from './play.ts'

const base: InstantDesign = {
  gameNo: 101,
  name: 'Raspa y Gana',
  currency: 'BOB',
  priceCents: 1000,
  ticketCount: 2000,
  packSize: 50,
  playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
  tiers: [
    { amountCents: 200_000, count: 1 },
    { amountCents: 20_000, count: 5 },
    { amountCents: 5000, count: 40 },
    { amountCents: 2000, count: 200 },
    { amountCents: 1000, count: 300 },
  ],
  payoutShareBp: { min: 4000, max: 7000 },
  packRules: {
    lowTiers: { maxAmountCents: 2000, minPerPack: 5 },
    topTiers: { minAmountCents: 20_000, maxPerPack: 1, notFirstOrLast: true },
  },
  claimDays: 90,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  back: { issuer: 'Lotería', paymentPlace: 'cajas' },
}

/** A fixed 32-byte seed named by a text, for tests (a real one comes from the entropy source). */
const seedOf = (text: string) => createHash('sha256').update(text).digest()

function refusal(d: InstantDesign): string {
  try {
    checkDesign(d)
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError)
    expect((e as DomainError).code).toBe('VALIDATION_FAILED')
    return (e as DomainError).message
  }
  throw new Error('design was accepted')
}

/** Everything a batch is made of, for comparing two generations. */
function materialise(d: InstantDesign, seed: Uint8Array) {
  const c = checkDesign(d)
  const codes = createCodeBatch(deriveKey(seed, d.gameNo, 'code'), d.gameNo)
  const symbolsKey = deriveKey(seed, d.gameNo, 'symbols')
  const packs: Array<{ packNo: number; tiers: number[]; serials: string[]; codes: string[]; faces: string[] }> = []
  for (const p of generatePacks(c, seed)) {
    packs.push({
      packNo: p.packNo,
      tiers: [...p.tiers],
      serials: packSerials(d.gameNo, p.packNo, d.packSize),
      codes: codes.codes(p.firstIndex, d.packSize),
      faces: encodedFaces(c, symbolsKey, p.firstIndex, p.tiers),
    })
  }
  return { c, packs }
}

/** Random designs that can be met: counts, pack sizes, rules and styles drawn, then made consistent. */
const designs = fc
  .record({
    packSize: fc.integer({ min: 3, max: 40 }),
    packs: fc.integer({ min: 1, max: 30 }),
    tierCount: fc.integer({ min: 1, max: 6 }),
    winShare: fc.double({ min: 0.02, max: 0.9, noNaN: true }),
    style: fc.constantFrom('match-three' as const, 'beat-their-number' as const),
    low: fc.integer({ min: 0, max: 3 }),
    topCap: fc.integer({ min: 1, max: 2 }),
    edges: fc.boolean(),
    split: fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 6, maxLength: 6 }),
  })
  .map((r): InstantDesign => {
    const ticketCount = r.packSize * r.packs
    const winners = Math.max(r.tierCount, Math.floor(ticketCount * r.winShare))
    const weights = r.split.slice(0, r.tierCount)
    const total = weights.reduce((a, b) => a + b, 0)
    const counts = weights.map((w) => Math.max(1, Math.floor((winners * w) / total)))
    // Amounts ascending by tier position: tier 1 is the top prize.
    const amounts = counts.map((_, i) => 1000 * 2 ** (r.tierCount - i))
    const tiers = counts.map((count, i) => ({ amountCents: amounts[i], count }))
    const lowest = tiers[tiers.length - 1]
    const minPerPack = Math.min(r.low, Math.floor(lowest.count / r.packs), r.packSize)
    const topTier = tiers.length > 1 ? tiers[0] : null
    const packRules: InstantDesign['packRules'] = { lowTiers: { maxAmountCents: lowest.amountCents, minPerPack } }
    if (topTier) {
      const cap = Math.min(r.topCap, r.edges ? r.packSize - 2 : r.packSize, r.packSize - minPerPack)
      if (cap >= 1) {
        topTier.count = Math.min(topTier.count, cap * r.packs)
        packRules.topTiers = { minAmountCents: topTier.amountCents, maxPerPack: r.topCap, notFirstOrLast: r.edges }
      }
    }
    const fund = tiers.reduce((sum, t) => sum + t.amountCents * t.count, 0)
    return {
      ...base,
      ticketCount,
      packSize: r.packSize,
      tiers,
      priceCents: Math.max(1000, Math.ceil(fund / ticketCount) + 1),
      playStyle:
        r.style === 'match-three'
          ? { type: 'match-three', decoyAmountsCents: [100, 200, 300, 400, 500] }
          : { type: 'beat-their-number', rows: 4, maxNumber: 12, decoyAmountsCents: [100] },
      payoutShareBp: { min: 0, max: 10_000 },
      packRules,
    }
  })

describe('instant batch generation (property)', () => {
  it('has exact tier counts, meets every pack rule, unique serials and codes, faces that match the tier, and is reproducible', () => {
    fc.assert(
      fc.property(designs, fc.uint8Array({ minLength: 32, maxLength: 32 }), (design, seed) => {
        let c
        try {
          c = checkDesign(design)
        } catch (e) {
          // Only a design with more prizes than tickets may be drawn here; refusals are tested below.
          expect((e as Error).message).toMatch(/prizes but there are only/)
          return
        }
        const a = materialise(design, seed)
        const counts = new Array<number>(design.tiers.length + 1).fill(0)
        const serials = new Set<string>()
        const codes = new Set<string>()
        for (const p of a.packs) {
          expect(packRuleViolation(c, p.tiers)).toBeNull()
          p.tiers.forEach((t, i) => {
            counts[t]++
            serials.add(p.serials[i])
            codes.add(p.codes[i])
            const face = decodeFace(p.faces[i])
            const shown = evaluateFace(face, c.symbolAmountsCents)
            expect(shown.ambiguous).toBe(false)
            // A losing ticket never shows a winning pattern; a winner shows exactly its prize.
            expect(shown.amountCents).toBe(t === 0 ? 0 : design.tiers[t - 1].amountCents)
            expect(parseValidationCode(p.codes[i]).index).toBe((p.packNo - 1) * design.packSize + i)
          })
        }
        expect(counts.slice(1)).toEqual(design.tiers.map((t) => t.count))
        expect(counts[0]).toBe(design.ticketCount - c.winnerCount)
        expect(serials.size).toBe(design.ticketCount)
        expect(codes.size).toBe(design.ticketCount)
        expect(materialise(design, seed).packs).toEqual(a.packs)
      }),
      { numRuns: 60 },
    )
  })

  it('gives a different batch for a different seed', () => {
    const a = materialise(base, seedOf('seed-one-1'))
    const b = materialise(base, seedOf('seed-two-2'))
    expect(a.packs.map((p) => p.tiers)).not.toEqual(b.packs.map((p) => p.tiers))
    expect(a.packs[0].codes[0]).not.toBe(b.packs[0].codes[0])
  })

  it('places top prizes only inside packs and at most one per pack', () => {
    const { c, packs } = materialise(
      {
        ...base,
        tiers: [{ amountCents: 20_000, count: 40 }, ...base.tiers.slice(2)],
        payoutShareBp: { min: 0, max: 10_000 },
      },
      seedOf('crowded-top'),
    )
    for (const p of packs) {
      const tops = p.tiers.map((t, i) => (c.topTiers.includes(t) ? i : -1)).filter((i) => i >= 0)
      expect(tops.length).toBe(1)
      expect(tops[0]).toBeGreaterThan(0)
      expect(tops[0]).toBeLessThan(base.packSize - 1)
    }
  })

  it('spreads top prizes over positions (no position favoured beyond chance)', () => {
    const d: InstantDesign = {
      ...base,
      playStyle: { type: 'match-three', decoyAmountsCents: [100, 200, 300] },
      priceCents: 2000,
      ticketCount: 20_000,
      packSize: 20,
      tiers: [
        { amountCents: 20_000, count: 1000 },
        { amountCents: 1000, count: 5000 },
      ],
      packRules: {
        lowTiers: { maxAmountCents: 1000, minPerPack: 2 },
        topTiers: { minAmountCents: 20_000, maxPerPack: 1, notFirstOrLast: true },
      },
      payoutShareBp: { min: 0, max: 10_000 },
    }
    const c = checkDesign(d)
    const byPosition = new Array<number>(20).fill(0)
    for (const p of generatePacks(c, seedOf('spread')))
      p.tiers.forEach((t, i) => {
        if (t === 1) byPosition[i]++
      })
    expect(byPosition[0]).toBe(0)
    expect(byPosition[19]).toBe(0)
    // 1000 prizes over 18 positions: about 55.6 each; a chi-square with 17 degrees of freedom stays under 40.8 (p = 0.001).
    const expected = 1000 / 18
    const chi = byPosition.slice(1, 19).reduce((s, n) => s + (n - expected) ** 2 / expected, 0)
    expect(chi).toBeLessThan(40.8)
  })
})

describe('instant design refusals', () => {
  it('refuses more prizes than tickets', () => {
    expect(refusal({ ...base, tiers: [{ amountCents: 1000, count: 2001 }] })).toMatch(
      /2001 prizes but there are only 2000 tickets/,
    )
  })
  it('refuses a ticket count that is not whole packs', () => {
    expect(refusal({ ...base, ticketCount: 2010 })).toMatch(/not a whole number of packs of 50/)
  })
  it('refuses a payout share outside the declared range', () => {
    expect(refusal({ ...base, payoutShareBp: { min: 6500, max: 7000 } })).toMatch(
      /prize fund is 60\.00% of sales, outside the declared 65\.00%\.\.70\.00%/,
    )
  })
  it('refuses a low-tier rule the low tiers cannot fill', () => {
    expect(refusal({ ...base, packRules: { lowTiers: { maxAmountCents: 2000, minPerPack: 13 } } })).toMatch(
      /every pack needs 13 low-tier prizes: 13 x 40 packs = 520, but the low tiers hold 500/,
    )
  })
  it('refuses more top prizes than packs can hold', () => {
    expect(
      refusal({
        ...base,
        tiers: [{ amountCents: 20_000, count: 41 }, ...base.tiers.slice(2)],
        payoutShareBp: { min: 0, max: 10_000 },
      }),
    ).toMatch(/41 top-tier prizes do not fit 40 packs at 1 per pack/)
  })
  it('refuses a tier that is both low and top', () => {
    expect(
      refusal({
        ...base,
        packRules: { lowTiers: { maxAmountCents: 20_000, minPerPack: 1 }, topTiers: { minAmountCents: 20_000 } },
      }),
    ).toMatch(/tier 2 is both a low tier and a top tier/)
  })
  it('refuses match-three with too few amounts for a losing ticket', () => {
    expect(
      refusal({
        ...base,
        playStyle: { type: 'match-three' },
        tiers: [
          { amountCents: 2000, count: 100 },
          { amountCents: 1000, count: 300 },
        ],
        packRules: {},
        payoutShareBp: { min: 0, max: 10_000 },
      }),
    ).toMatch(/match-three needs at least 5 different amounts/)
  })
  it('refuses two tiers with the same amount', () => {
    expect(
      refusal({
        ...base,
        tiers: [
          { amountCents: 1000, count: 10 },
          { amountCents: 1000, count: 10 },
        ],
      }),
    ).toMatch(/two tiers pay 1000/)
  })
  it('refuses a design without the back texts INS-4 requires', () => {
    expect(refusal({ ...base, back: { issuer: 'x', paymentPlace: '' } })).toMatch(/paymentPlace is required/)
  })
  it('refuses a game number outside the serial', () => {
    expect(refusal({ ...base, gameNo: 10_000 })).toMatch(/gameNo must be an integer 1\.\.9999/)
  })
})

describe('serials and validation codes', () => {
  it('round-trips serials and catches single-digit errors and adjacent swaps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: 0, max: 999 }),
        (gameNo, packNo, position) => {
          const serial = formatSerial({ gameNo, packNo, position })
          expect(parseSerial(serial)).toEqual({ gameNo, packNo, position })
          const digits = serial.replace(/-/g, '')
          for (let i = 0; i < digits.length; i++) {
            const typo = digits.slice(0, i) + String((Number(digits[i]) + 1 + (i % 9)) % 10) + digits.slice(i + 1)
            if (typo !== digits) expect(() => parseSerial(typo)).toThrow(DomainError)
            if (i + 1 < digits.length && digits[i] !== digits[i + 1]) {
              const swap = digits.slice(0, i) + digits[i + 1] + digits[i] + digits.slice(i + 2)
              expect(() => parseSerial(swap)).toThrow(DomainError)
            }
          }
        },
      ),
    )
    expect(packSerials(101, 7, 3)).toEqual(
      [0, 1, 2].map((position) => formatSerial({ gameNo: 101, packNo: 7, position })),
    )
  })

  it('parses typed codes (dashes, lower case, I/L/O) and catches one wrong character or an adjacent swap', () => {
    const key = deriveKey(seedOf('a seed of mine'), 101, 'code')
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 30 - 1 }),
        fc.integer({ min: 4, max: 23 }),
        fc.integer({ min: 1, max: 31 }),
        (index, at, delta) => {
          const code = validationCodes(key, 101, index, 1)[0]
          expect(parseValidationCode(groupCode(code).toLowerCase())).toEqual({ code, gameNo: 101, index })
          const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
          const typo = code.slice(0, at) + alphabet[(alphabet.indexOf(code[at]) + delta) % 32] + code.slice(at + 1)
          expect(() => parseValidationCode(typo)).toThrow(DomainError)
          if (at < 23 && code[at] !== code[at + 1]) {
            expect(() => parseValidationCode(code.slice(0, at) + code[at + 1] + code[at] + code.slice(at + 2))).toThrow(
              DomainError,
            )
          }
        },
      ),
      { numRuns: 300 },
    )
    const code = validationCodes(key, 101, 5, 1)[0]
    expect(parseValidationCode(code.replace(/1/g, 'I').replace(/0/g, 'O')).code).toBe(code)
  })

  it('tags a code with the pepper so that the stored tag reveals nothing without it', () => {
    const key = deriveKey(seedOf('a seed of mine'), 101, 'code')
    const pepper = Buffer.alloc(32, 7)
    const batch = createCodeBatch(key, 101).codesAndTags(40, 10, pepper)
    batch.codes.forEach((c, i) => {
      expect(codeTag(pepper, c)).toBe(batch.tags[i])
      expect(Number.isSafeInteger(batch.tags[i])).toBe(true)
    })
    expect(codeTag(Buffer.alloc(32, 8), batch.codes[0])).not.toBe(batch.tags[0])
  })

  it('commits to the 32-byte seed with plain SHA-256 and refuses a seed that is not 32 bytes', () => {
    const seed = seedOf('commitment')
    expect(seedCommitment(seed)).toBe(createHash('sha256').update(seed).digest('hex'))
    expect(() => deriveKey(Buffer.from('a typed seed of some length'), 101, 'code')).toThrow(DomainError)
    expect(() => deriveKey('0'.repeat(64) as unknown as Uint8Array, 101, 'code')).toThrow(DomainError)
  })

  it('opens every prize tag to its tier, and no tag when altered, moved to another ticket or opened with another key', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 2 ** 30 - 100 }),
        (seed, tiers, from) => {
          const key = deriveKey(seed, 4321, 'prize')
          const tags = prizeTags(key, 4321, from, tiers)
          const indexes = tiers.map((_, i) => from + i)
          expect([...openPrizeTags(key, 4321, indexes, tags, 7)]).toEqual(tiers)
          tags.forEach((t) => expect(Number.isSafeInteger(t) && t >= 0 && t < 2 ** 48).toBe(true))
          // Altered by one bit, copied to the next ticket, or opened under another game's key: no tier at all.
          expect(openPrizeTags(key, 4321, [from], [tags[0] % 2 ? tags[0] - 1 : tags[0] + 1], 7)[0]).toBe(-1)
          expect(openPrizeTags(key, 4321, [from + tiers.length], [tags[0]], 7)[0]).toBe(-1)
          expect(openPrizeTags(deriveKey(seed, 4322, 'prize'), 4321, [from], [tags[0]], 7)[0]).toBe(-1)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('derives the same face one by one as in bulk, and encodes it losslessly', () => {
    const c = checkDesign(base)
    const key = deriveKey(seedOf('faces'), 101, 'symbols')
    const tiers = [0, 1, 2, 0, 5, 4, 0, 3]
    const bulk = ticketFaces(c, key, 1000, tiers)
    tiers.forEach((t, i) => {
      expect(ticketFace(c, key, 1000 + i, t)).toEqual(bulk[i])
      expect(decodeFace(encodeFace(bulk[i]))).toEqual(bulk[i])
    })
    expect(encodedFaces(c, key, 1000, tiers)).toEqual(bulk.map(encodeFace))
  })
})
