import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DomainError } from '../shared/errors.ts'
import {
  PackedPlays,
  countMatches,
  formatBoards,
  maskOf,
  parseBoard,
  parseStoredBoards,
  quickPick,
  receiptNumber,
  recordManualBall,
  settleLotto,
  wordsFor,
} from './rules.ts'
import type { LottoCategory } from './plan.ts'
import { createSeededRng } from '../shared/rng.ts'

describe('boards and quick picks (LNS-2, LNS-15, LNS-21)', () => {
  it('sorts a valid board and refuses more numbers than authorised, repeats and numbers outside the range', () => {
    expect(parseBoard([45, 3, 19, 11, 38, 27], 49, 6)).toEqual([3, 11, 19, 27, 38, 45])
    const codeOf = (f: () => unknown) => {
      try {
        f()
        return null
      } catch (e) {
        return (e as DomainError).code + ':' + (e as Error).message
      }
    }
    expect(codeOf(() => parseBoard([1, 2, 3, 4, 5, 6, 7], 49, 6))).toMatch(/VALIDATION_FAILED:.*LNS-21/)
    expect(codeOf(() => parseBoard([1, 2, 3, 4, 5, 50], 49, 6))).toMatch(/outside 1\.\.49/)
    expect(codeOf(() => parseBoard([1, 2, 3, 4, 5, 5], 49, 6))).toMatch(/twice/)
    expect(codeOf(() => parseBoard([1, 2, 3, 4, 5, 5.5], 49, 6))).toMatch(/outside/)
  })

  it('quick picks are distinct, in range and ascending', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 128 }), fc.nat(), fc.string(), (range, k0, seed) => {
        const picks = 1 + (k0 % (range - 1))
        const b = quickPick(createSeededRng(seed), range, picks)
        expect(b.length).toBe(picks)
        expect(new Set(b).size).toBe(picks)
        expect(b.every((x, i) => x >= 1 && x <= range && (i === 0 || b[i - 1] < x))).toBe(true)
      }),
    )
  })

  it('stores boards as text and reads them back', () => {
    const boards = [
      [3, 11, 19, 27, 38, 45],
      [1, 2, 3, 4, 5, 6],
    ]
    expect(formatBoards(boards)).toBe('3-11-19-27-38-45 1-2-3-4-5-6')
    expect(parseStoredBoards(formatBoards(boards))).toEqual(boards)
    expect(receiptNumber('LOTO649', 123)).toBe('LOTO649-000000123')
  })

  it('records manual balls one by one without repetition (LNS-16)', () => {
    let drawn: number[] = []
    for (const b of [17, 3, 49]) drawn = recordManualBall(drawn, b, 49, 6)
    expect(drawn).toEqual([17, 3, 49])
    expect(() => recordManualBall(drawn, 3, 49, 6)).toThrow(/already/)
    expect(() => recordManualBall(drawn, 50, 49, 6)).toThrow(/outside/)
    expect(() => recordManualBall([1, 2, 3, 4, 5, 6], 7, 49, 6)).toThrow(/all 6/)
  })
})

describe('packed plays', () => {
  it('counts matches exactly like a set intersection, for 1, 2, 3 and 4 words', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 128 }), fc.string(), fc.integer({ min: 0, max: 40 }), (range, seed, n) => {
        const rng = createSeededRng(seed)
        const picks = 1 + rng.nextInt(range - 1)
        const drawCount = picks + rng.nextInt(range - picks)
        const boards = Array.from({ length: n }, () => quickPick(rng, range, picks))
        const drawn = quickPick(rng, range, drawCount)
        const packed = new PackedPlays(range, 1)
        for (const b of boards) packed.push(b)
        expect(packed.words).toBe(wordsFor(range))
        const got = countMatches(packed.masks, packed.words, packed.count, drawn)
        const want = boards.map((b) => b.filter((x) => drawn.includes(x)).length)
        expect(Array.from(got)).toEqual(want)
      }),
      { numRuns: 300 },
    )
  })

  it('puts number x in bit (x-1) mod 32 of word (x-1) div 32', () => {
    expect(Array.from(maskOf([1, 32, 33, 49], 2))).toEqual([0x80000001 >>> 0, (1 | (1 << 16)) >>> 0])
  })
})

/**
 * Brute-force recount: written independently of settleLotto (sets for matches, BigInt for money), so that the
 * property below compares two implementations of the plan's rules (module comment of lotto.ts).
 */
function bruteForce(input: {
  categories: LottoCategory[]
  prizePoolBp: number
  unwonShares: 'rollover' | 'operator'
  salesCents: number
  carryIn: Record<string, number>
  boards: number[][]
  drawn: number[]
}) {
  const drawn = new Set(input.drawn)
  const matches = input.boards.map((b) => b.filter((x) => drawn.has(x)).length)
  const pool = (BigInt(input.salesCents) * BigInt(input.prizePoolBp)) / 10000n
  const shares = input.categories.filter((c) => c.prize.type === 'share')
  const sumBp = shares.reduce((s, c) => s + (c.prize as { bp: number }).bp, 0)
  const floors = new Map(shares.map((c) => [c.code, (pool * BigInt((c.prize as { bp: number }).bp)) / 10000n]))
  const leftover = pool - [...floors.values()].reduce((s, x) => s + x, 0n)
  const perPlay = new Map<number, { code: string; amount: number }>()
  const cats = input.categories.map((c) => {
    const winners = matches.map((m, i) => (m === c.matches ? i : -1)).filter((i) => i >= 0)
    let money = 0n
    if (c.prize.type === 'share') {
      money =
        floors.get(c.code)! +
        BigInt(input.carryIn[c.code] ?? 0) +
        (sumBp === 10000 && shares[0].code === c.code ? leftover : 0n)
    }
    winners.forEach((play, rank) => {
      let amount = 0
      if (c.prize.type === 'fixed') amount = c.prize.amountCents
      else if (c.prize.type === 'share') {
        const w = BigInt(winners.length)
        amount = Number(money / w + (BigInt(rank) < money % w ? 1n : 0n))
      }
      perPlay.set(play, { code: c.code, amount })
    })
    const paid = winners.reduce((s, p) => s + perPlay.get(p)!.amount, 0)
    const unwon = c.prize.type === 'share' && winners.length === 0 ? Number(money) : 0
    return {
      code: c.code,
      winners: winners.length,
      paid,
      carryOut: input.unwonShares === 'rollover' ? unwon : 0,
      retained: input.unwonShares === 'operator' ? unwon : 0,
    }
  })
  return {
    pool: Number(pool),
    reserve: sumBp === 10000 || shares.length === 0 ? (shares.length === 0 ? Number(pool) : 0) : Number(leftover),
    cats,
    perPlay,
  }
}

const arbitraryDraw = fc.record({
  seed: fc.string(),
  range: fc.integer({ min: 3, max: 70 }),
  plays: fc.integer({ min: 0, max: 120 }),
  exactShares: fc.boolean(),
  rollover: fc.boolean(),
})

describe('settlement', () => {
  it('equals a brute-force recount on random small plans and plays, and never creates or loses a centavo', () => {
    fc.assert(
      fc.property(arbitraryDraw, ({ seed, range, plays, exactShares, rollover }) => {
        const rng = createSeededRng(seed)
        const picks = 1 + rng.nextInt(Math.min(range - 1, 8))
        const drawCount = picks + rng.nextInt(Math.min(range - picks, 4))
        // Categories for a random subset of match counts, with random prize kinds.
        const categories: LottoCategory[] = []
        for (let m = Math.min(picks, drawCount); m >= 0; m--) {
          if (rng.nextInt(3) === 0) continue
          const kind = rng.nextInt(3)
          const prize =
            kind === 0
              ? { type: 'share' as const, bp: 1 + rng.nextInt(5000) }
              : kind === 1
                ? { type: 'fixed' as const, amountCents: 1 + rng.nextInt(10_000) }
                : {
                    type: 'goods' as const,
                    description: 'Moto',
                    unitValueCents: 5_000_000,
                    class: 'registrable' as const,
                    invoiceRef: 'F-1',
                    source: 'operator' as const,
                  }
          categories.push({ code: `C${m}`, name: `Categoría ${m}`, matches: m, prize })
        }
        const shareCats = categories.filter((c) => c.prize.type === 'share')
        if (exactShares && shareCats.length > 0) {
          // Make the shares add up to exactly 100 %.
          let left = 10_000
          shareCats.forEach((c, i) => {
            const bp =
              i === shareCats.length - 1
                ? left
                : Math.max(1, Math.min(left - (shareCats.length - 1 - i), 1 + rng.nextInt(left)))
            ;(c.prize as { bp: number }).bp = bp
            left -= bp
          })
        } else if (shareCats.reduce((s, c) => s + (c.prize as { bp: number }).bp, 0) > 10_000) {
          shareCats.forEach((c) => {
            ;(c.prize as { bp: number }).bp = 1 + ((c.prize as { bp: number }).bp % 2000)
          })
        }
        const boards = Array.from({ length: plays }, () => quickPick(rng, range, picks))
        const drawn = quickPick(rng, range, drawCount)
        const salesCents = plays * (1 + rng.nextInt(1000))
        const prizePoolBp = rng.nextInt(10_001)
        const carryIn: Record<string, number> = {}
        for (const c of shareCats) if (rng.nextInt(2)) carryIn[c.code] = rng.nextInt(100_000)
        const unwonShares = rollover ? ('rollover' as const) : ('operator' as const)

        const packed = new PackedPlays(range, 4)
        for (const b of boards) packed.push(b)
        const s = settleLotto({
          plan: { categories, prizePoolBp, unwonShares, picks },
          salesCents,
          carryInCents: carryIn,
          matches: countMatches(packed.masks, packed.words, packed.count, drawn),
        })
        const want = bruteForce({ categories, prizePoolBp, unwonShares, salesCents, carryIn, boards, drawn })

        expect(s.poolCents).toBe(want.pool)
        expect(s.reserveCents).toBe(want.reserve)
        expect(
          s.categories.map((c) => ({
            code: c.code,
            winners: c.winners,
            paid: c.type === 'goods' ? 0 : c.totalCents,
            carryOut: c.carryOutCents,
            retained: c.retainedCents,
          })),
        ).toEqual(want.cats)
        const got = new Map<number, { code: string; amount: number }>()
        for (let i = 0; i < s.winners.play.length; i++)
          got.set(s.winners.play[i], { code: categories[s.winners.category[i]].code, amount: s.winners.amountCents[i] })
        expect(got).toEqual(want.perPlay)
        // Conservation: the pool and the carry-ins end up paid, carried, retained or in reserve; nothing else.
        const shareIn = s.poolCents + Object.values(carryIn).reduce((a, b) => a + b, 0)
        const shareOut =
          s.reserveCents +
          s.categories
            .filter((c) => c.type === 'share')
            .reduce((a, c) => a + c.totalCents + c.carryOutCents + c.retainedCents, 0)
        if (shareCats.length > 0) expect(shareOut).toBe(shareIn)
        // Amounts are whole centavos, and within a category differ by at most one.
        for (const c of s.categories) {
          const amounts = Array.from(s.winners.amountCents).filter(
            (_, i) => categories[s.winners.category[i]].code === c.code,
          )
          if (amounts.length)
            expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(c.type === 'share' ? 1 : 0)
          expect(amounts.every((a) => Number.isSafeInteger(a) && a >= 0)).toBe(true)
        }
      }),
      { numRuns: 400 },
    )
  })

  it('gives the leftover centavos to the first winners in receipt order and the flooring residue to the top category', () => {
    const categories: LottoCategory[] = [
      { code: 'C6', name: 'Premio Mayor', matches: 2, prize: { type: 'share', bp: 3333 } },
      { code: 'C5', name: 'Segundo', matches: 1, prize: { type: 'share', bp: 6667 } },
    ]
    // Sales 1,001 x 100 % = 1,001; floors: 333 (33.33 %) and 667 (66.67 %), residue 1 to C6 -> 334 among 3 winners.
    const s = settleLotto({
      plan: { categories, prizePoolBp: 10_000, unwonShares: 'rollover', picks: 2 },
      salesCents: 1001,
      matches: Uint8Array.from([2, 0, 2, 1, 2]),
    })
    expect(s.categories[0]).toMatchObject({
      poolCents: 334,
      residueCents: 1,
      winners: 3,
      amountEachCents: 111,
      extraCentWinners: 1,
      totalCents: 334,
    })
    expect(Array.from(s.winners.play)).toEqual([0, 2, 3, 4])
    expect(Array.from(s.winners.amountCents)).toEqual([112, 111, 667, 111])
  })

  it('rolls an unwon category over, or leaves it with the operator', () => {
    const categories: LottoCategory[] = [{ code: 'J', name: 'Pozo', matches: 3, prize: { type: 'share', bp: 10_000 } }]
    const roll = settleLotto({
      plan: { categories, prizePoolBp: 5000, unwonShares: 'rollover', picks: 3 },
      salesCents: 10_000,
      carryInCents: { J: 250 },
      matches: Uint8Array.from([0, 1, 2]),
    })
    expect(roll.categories[0]).toMatchObject({
      winners: 0,
      poolCents: 5250,
      carryOutCents: 5250,
      retainedCents: 0,
      totalCents: 0,
    })
    const keep = settleLotto({
      plan: { categories, prizePoolBp: 5000, unwonShares: 'operator', picks: 3 },
      salesCents: 10_000,
      matches: Uint8Array.from([0]),
    })
    expect(keep.categories[0]).toMatchObject({ carryOutCents: 0, retainedCents: 5000 })
  })
})
