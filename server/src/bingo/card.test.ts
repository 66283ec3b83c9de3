import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  LAYOUT_75,
  LAYOUT_90,
  cardFromPacked,
  cardFromRows,
  cardKey,
  cardNumbers,
  cardRows,
  completedRows,
  countCards,
  forEachMasterCard,
  generateCard,
  generateMasterSet,
  generateMasterSetPacked,
  isFullHouse,
  isLineComplete,
  validateCard,
  validateLayout,
  type Card,
  type CardLayout,
} from './card.ts'
import { DomainError, ErrorCode } from '../shared/errors.ts'
import { createSeededRng } from '../shared/rng.ts'

/** 2 rows of 2 numbers over 3 columns {1,2} {3,4} {5,6,7}: small enough to enumerate every card. */
const TINY: CardLayout = {
  ballCount: 7,
  rows: 2,
  columns: 3,
  perRow: 2,
  columnRanges: [
    [1, 2],
    [3, 4],
    [5, 7],
  ],
  minPerColumn: 1,
}

/** Every valid card of a layout, by brute force over row patterns and column subsets (reference for counts). */
function enumerateCards(layout: CardLayout): Card[] {
  const { rows, columns, perRow, columnRanges } = layout
  const rowMasks: number[] = []
  for (let m = 0; m < 1 << columns; m++) {
    let bits = 0
    for (let x = m; x; x &= x - 1) bits++
    if (bits === perRow) rowMasks.push(m)
  }
  const subsets = (lo: number, hi: number, k: number): number[][] => {
    if (k === 0) return [[]]
    const out: number[][] = []
    for (let x = lo; x <= hi; x++) for (const rest of subsets(x + 1, hi, k - 1)) out.push([x, ...rest])
    return out
  }
  const cards: Card[] = []
  const patterns = (r: number, acc: number[]): void => {
    if (r === rows) {
      const counts = Array.from({ length: columns }, (_, c) => acc.filter((m) => m & (1 << c)).length)
      if (counts.some((n, c) => n < layout.minPerColumn || n > columnRanges[c][1] - columnRanges[c][0] + 1)) return
      let grids: number[][][] = [acc.map(() => new Array<number>(columns).fill(0))]
      for (let c = 0; c < columns; c++) {
        const chosen = subsets(columnRanges[c][0], columnRanges[c][1], counts[c])
        const next: number[][][] = []
        for (const g of grids) {
          for (const nums of chosen) {
            const copy = g.map((row) => row.slice())
            let i = 0
            acc.forEach((m, rr) => {
              if (m & (1 << c)) copy[rr][c] = nums[i++]
            })
            next.push(copy)
          }
        }
        grids = next
      }
      for (const grid of grids) cards.push({ grid })
      return
    }
    for (const m of rowMasks) patterns(r + 1, [...acc, m])
  }
  patterns(0, [])
  return cards
}

const seedArb = fc.oneof(fc.string({ maxLength: 12 }), fc.integer())

describe('card layouts', () => {
  it('ships valid 90-ball and 75-ball layouts', () => {
    expect(validateLayout(LAYOUT_90)).toEqual([])
    expect(validateLayout(LAYOUT_75)).toEqual([])
    expect(LAYOUT_75.columnRanges.map(([lo, hi]) => hi - lo + 1)).toEqual([15, 15, 15, 15, 15])
  })

  it('counts exactly the 3,669,688,706,217,187,500 distinct 90-ball cards (BNG-5)', () => {
    // Reference: sum over the 3 row patterns (5 of 9 columns each, no empty column) of prod C(column size, count).
    const sizes = LAYOUT_90.columnRanges.map(([lo, hi]) => hi - lo + 1)
    const binom = (n: number, k: number): bigint => {
      let r = 1n
      for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i)
      return r
    }
    const masks: number[] = []
    for (let m = 0; m < 512; m++) if ((m.toString(2).match(/1/g) ?? []).length === 5) masks.push(m)
    let total = 0n
    for (const a of masks)
      for (const b of masks)
        for (const c of masks) {
          let w = 1n
          for (let j = 0; j < 9; j++) {
            const k = ((a >> j) & 1) + ((b >> j) & 1) + ((c >> j) & 1)
            if (k === 0) {
              w = 0n
              break
            }
            w *= binom(sizes[j], k)
          }
          total += w
        }
    expect(total).toBe(3669688706217187500n)
    // countCards is a double: exact below 2^53, within rounding above.
    expect(Math.abs(countCards(LAYOUT_90) / Number(total) - 1)).toBeLessThan(1e-12)
  })

  it('counts every card of a small layout exactly', () => {
    expect(countCards(TINY)).toBe(enumerateCards(TINY).length)
  })

  it('rejects a layout that admits no card', () => {
    const impossible: CardLayout = {
      ...TINY,
      perRow: 3,
      minPerColumn: 2,
      columnRanges: [
        [1, 1],
        [2, 2],
        [3, 3],
      ],
    }
    expect(() => generateCard(createSeededRng(1), impossible)).toThrow(DomainError)
  })
})

describe('generateCard (BNG-5)', () => {
  it('always produces valid 90-ball cards', () => {
    fc.assert(
      fc.property(seedArb, (seed) => {
        const rng = createSeededRng(seed)
        for (let i = 0; i < 100; i++) {
          const card = generateCard(rng)
          expect(validateCard(card)).toEqual([])
          expect(cardNumbers(card)).toHaveLength(15)
        }
      }),
      { numRuns: 50 },
    )
  })

  it('always produces valid 75-ball cards (5 x 5, columns of 15, no free centre)', () => {
    fc.assert(
      fc.property(seedArb, (seed) => {
        const rng = createSeededRng(seed)
        for (let i = 0; i < 50; i++) {
          const card = generateCard(rng, LAYOUT_75)
          expect(validateCard(card, LAYOUT_75)).toEqual([])
          expect(card.grid.flat().every((x) => x > 0)).toBe(true)
        }
      }),
      { numRuns: 30 },
    )
  })

  it('is generic over layouts: every card of a random feasible layout is valid', () => {
    const layoutArb = fc
      .record({
        rows: fc.integer({ min: 1, max: 4 }),
        sizes: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 7 }),
        perRowFrac: fc.double({ min: 0, max: 1, noNaN: true }),
        minPerColumn: fc.integer({ min: 0, max: 1 }),
      })
      .map(({ rows, sizes, perRowFrac, minPerColumn }): CardLayout => {
        const columnRanges: [number, number][] = []
        let lo = 1
        for (const size of sizes) {
          columnRanges.push([lo, lo + size - 1])
          lo += size
        }
        const perRow = 1 + Math.floor(perRowFrac * (sizes.length - 1))
        return { ballCount: lo - 1, rows, columns: sizes.length, perRow, columnRanges, minPerColumn }
      })
    fc.assert(
      fc.property(layoutArb, seedArb, (layout, seed) => {
        let feasible = true
        try {
          countCards(layout)
        } catch (e) {
          expect((e as DomainError).code).toBe(ErrorCode.ValidationFailed)
          feasible = false
        }
        fc.pre(feasible)
        const rng = createSeededRng(seed)
        for (let i = 0; i < 20; i++) expect(validateCard(generateCard(rng, layout), layout)).toEqual([])
      }),
      { numRuns: 200 },
    )
  })

  it('fills every column of a layout whose column count equals perRow', () => {
    const card = generateCard(createSeededRng('full'), LAYOUT_75)
    for (let c = 0; c < 5; c++) expect(card.grid.filter((row) => row[c] > 0)).toHaveLength(5)
  })

  it('produces every shape: 90 in the last column and three-number columns, including 80-90 (BNG-5)', () => {
    const rng = createSeededRng('shapes')
    let with90 = 0
    let lastColumnOfThree = 0
    const threeByColumn = new Array<number>(9).fill(0)
    const n = 4000
    for (let i = 0; i < n; i++) {
      const { grid } = generateCard(rng)
      if (grid[2][8] === 90) with90++
      for (let c = 0; c < 9; c++) if (grid.every((row) => row[c] > 0)) threeByColumn[c]++
      if (grid.every((row) => row[8] > 0)) lastColumnOfThree++
    }
    // 90 can only sit at the bottom of column 9; P(90 on the card) = E[numbers in column 9] / 11, about 16 %.
    expect(with90 / n).toBeGreaterThan(0.1)
    expect(lastColumnOfThree).toBeGreaterThan(0)
    for (let c = 0; c < 9; c++) expect(threeByColumn[c]).toBeGreaterThan(0)
  })

  it('is uniform over all valid cards of a small layout (chi-square)', () => {
    const all = enumerateCards(TINY)
    const index = new Map(all.map((card, i) => [cardKey(card), i]))
    expect(index.size).toBe(all.length)
    const counts = new Array<number>(all.length).fill(0)
    const rng = createSeededRng('uniform')
    const draws = 200 * all.length
    for (let i = 0; i < draws; i++) {
      const k = index.get(cardKey(generateCard(rng, TINY)))
      expect(k).toBeDefined()
      counts[k!]++
    }
    const expected = draws / all.length
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0)
    // df = all.length - 1; mean df, sd sqrt(2 df): allow 5 sd (seeded, so deterministic anyway).
    const df = all.length - 1
    expect(chi2).toBeLessThan(df + 5 * Math.sqrt(2 * df))
  })

  it('matches the exact column-count distribution of 90-ball cards', () => {
    // P(column 1 holds 3 numbers) over all cards, by enumeration of row patterns with weights.
    const sizes = LAYOUT_90.columnRanges.map(([lo, hi]) => hi - lo + 1)
    const binom = (n: number, k: number) => {
      let r = 1
      for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i
      return r
    }
    const masks: number[] = []
    for (let m = 0; m < 512; m++) if ((m.toString(2).match(/1/g) ?? []).length === 5) masks.push(m)
    let total = 0
    const byCount = [0, 0, 0, 0]
    for (const a of masks)
      for (const b of masks)
        for (const c of masks) {
          let w = 1
          const k0 = (a & 1) + (b & 1) + (c & 1)
          for (let j = 0; j < 9 && w > 0; j++) {
            const k = ((a >> j) & 1) + ((b >> j) & 1) + ((c >> j) & 1)
            w = k === 0 ? 0 : w * binom(sizes[j], k)
          }
          total += w
          byCount[k0] += w
        }
    const rng = createSeededRng('distribution')
    const seen = [0, 0, 0, 0]
    const n = 20_000
    for (let i = 0; i < n; i++) seen[generateCard(rng).grid.filter((row) => row[0] > 0).length]++
    for (let k = 1; k <= 3; k++) {
      const p = byCount[k] / total
      const sd = Math.sqrt((p * (1 - p)) / n)
      expect(Math.abs(seen[k] / n - p)).toBeLessThan(5 * sd)
    }
  })
})

describe('validateCard (BNG-5)', () => {
  const valid: Card = {
    grid: [
      [1, 0, 20, 0, 40, 0, 61, 0, 80],
      [0, 11, 21, 0, 0, 55, 0, 72, 85],
      [9, 0, 0, 33, 49, 0, 69, 0, 90],
    ],
  }

  it('accepts a card with a three-number last column ending in 90', () => {
    expect(validateCard(valid)).toEqual([])
  })

  it('names each broken rule', () => {
    const broken = (edit: (g: number[][]) => void): string[] => {
      const grid = valid.grid.map((row) => row.slice())
      edit(grid)
      return validateCard({ grid })
    }
    expect(
      broken((g) => {
        g[0][0] = 10
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/outside the column's range 1-9/)]))
    expect(
      broken((g) => {
        g[0][0] = 0
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/row 1 has 4 numbers, expected 5/)]))
    expect(
      broken((g) => {
        g[0][0] = 9
        g[2][0] = 1
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/column 1 is not ascending/)]))
    expect(
      broken((g) => {
        g[1][1] = 20
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/number 20 appears more than once/)]))
    expect(
      broken((g) => {
        g[1].push(0)
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/row 2 has 10 cells/)]))
    expect(
      broken((g) => {
        g.pop()
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/card has 2 rows, expected 3/)]))
    expect(
      broken((g) => {
        g[0][2] = 1.5
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/neither a number nor blank/)]))
    expect(validateCard({} as Card)).toEqual(['card has no grid'])
  })

  it('rejects an empty column even when every row holds 5 numbers', () => {
    const grid = [
      [1, 10, 20, 30, 40, 0, 0, 0, 0],
      [2, 11, 21, 0, 0, 50, 60, 0, 0],
      [0, 0, 0, 31, 41, 51, 61, 70, 0],
    ]
    expect(validateCard({ grid })).toEqual(['column 9 holds 0 numbers, expected 1 to 3'])
  })
})

describe('conversions', () => {
  it('cardFromRows(cardRows(card)) rebuilds the card', () => {
    fc.assert(
      fc.property(seedArb, fc.constantFrom(LAYOUT_90, LAYOUT_75, TINY), (seed, layout) => {
        const card = generateCard(createSeededRng(seed), layout)
        const rows = cardRows(card)
        expect(rows).toHaveLength(layout.rows)
        for (const row of rows) expect(row).toHaveLength(layout.perRow)
        expect(cardFromRows(rows, layout)).toEqual(card)
      }),
      { numRuns: 200 },
    )
  })

  it('cardFromRows rejects numbers it cannot place', () => {
    expect(() =>
      cardFromRows([
        [1, 2, 20, 30, 40],
        [11, 21, 31, 41, 51],
        [60, 70, 80, 85, 89],
      ]),
    ).toThrow(/same column/)
    expect(() => cardFromRows([[91]])).toThrow(DomainError)
    expect(() => cardFromRows([[1], [2], [3], [4]])).toThrow(/4 rows/)
  })

  it('cardNumbers lists the 15 numbers ascending', () => {
    const card = generateCard(createSeededRng('numbers'))
    const numbers = cardNumbers(card)
    expect(numbers).toEqual(
      cardRows(card)
        .flat()
        .sort((a, b) => a - b),
    )
    expect(new Set(numbers).size).toBe(15)
  })

  it('cardKey is equal exactly when the grids are equal', () => {
    fc.assert(
      fc.property(seedArb, seedArb, (s1, s2) => {
        const a = generateCard(createSeededRng(s1))
        const b = generateCard(createSeededRng(s2))
        const same = JSON.stringify(a.grid) === JSON.stringify(b.grid)
        expect(cardKey(a) === cardKey(b)).toBe(same)
        expect(cardKey(a)).toBe(cardKey({ grid: a.grid.map((row) => row.slice()) }))
      }),
      { numRuns: 200 },
    )
    const key = cardKey({
      grid: [
        [1, 0, 20, 0, 40, 0, 61, 0, 80],
        [0, 11, 21, 0, 0, 55, 0, 72, 85],
        [9, 0, 0, 33, 49, 0, 69, 0, 90],
      ],
    })
    expect(key).toBe('01.20.40.61.80-.1121..55.7285-09..3349.69.90')
    expect(
      cardKey({
        grid: [
          [1, 0],
          [0, 2],
        ],
      }),
    ).not.toBe(
      cardKey({
        grid: [
          [0, 1],
          [2, 0],
        ],
      }),
    )
  })
})

describe('marking (BNG-44)', () => {
  const card: Card = {
    grid: [
      [1, 0, 20, 0, 40, 0, 61, 0, 80],
      [0, 11, 21, 0, 0, 55, 0, 72, 85],
      [9, 0, 0, 33, 49, 0, 69, 0, 90],
    ],
  }

  it('never counts a blank cell as marked', () => {
    // Four of the five numbers of row 1, plus "0": not a line (the classic bug counts blanks as marks).
    const called = new Set([0, 1, 20, 40, 61])
    expect(isLineComplete(card, called, 0)).toBe(false)
    const bitmap = new Uint8Array(91)
    for (const x of [0, 1, 20, 40, 61]) bitmap[x] = 1
    expect(isLineComplete(card, bitmap, 0)).toBe(false)
    bitmap[80] = 1
    expect(isLineComplete(card, bitmap, 0)).toBe(true)
    expect(completedRows(card, bitmap)).toEqual([0])
    // A row of blanks only is never a line, whatever is called.
    const blankRow: Card = {
      grid: [
        [0, 0, 0],
        [1, 2, 3],
      ],
    }
    expect(isLineComplete(blankRow, new Set([0, 1, 2, 3]), 0)).toBe(false)
    expect(isFullHouse({ grid: [[0, 0]] }, new Set([0]))).toBe(false)
  })

  it('line, completed rows and full house agree with their definitions', () => {
    fc.assert(
      fc.property(seedArb, fc.uniqueArray(fc.integer({ min: 0, max: 90 }), { maxLength: 90 }), (seed, balls) => {
        const c = generateCard(createSeededRng(seed))
        const called = new Set(balls)
        const bitmap = new Uint8Array(91)
        for (const b of balls) bitmap[b] = 1
        const rows = cardRows(c)
        const expectedRows = rows.flatMap((row, r) => (row.every((x) => called.has(x)) ? [r] : []))
        expect(completedRows(c, called)).toEqual(expectedRows)
        expect(completedRows(c, bitmap)).toEqual(expectedRows)
        expect(isFullHouse(c, called)).toBe(expectedRows.length === 3)
        expect(isFullHouse(c, bitmap)).toBe(expectedRows.length === 3)
      }),
      { numRuns: 300 },
    )
  })

  it('ignores out-of-range bitmap positions', () => {
    expect(isLineComplete(card, new Uint8Array(10).fill(1), 0)).toBe(false)
  })
})

describe('master sets (BNG-13: no two identical cards in a game)', () => {
  it('are pairwise distinct, valid and deterministic from the seed', () => {
    const a = generateMasterSet('series-A', 3000)
    const b = generateMasterSet('series-A', 3000)
    expect(a).toEqual(b)
    expect(new Set(a.map(cardKey)).size).toBe(3000)
    for (const card of a.slice(0, 500)) expect(validateCard(card)).toEqual([])
    expect(generateMasterSet('series-B', 10).map(cardKey)).not.toEqual(a.slice(0, 10).map(cardKey))
    // Card number k is element k-1, and a longer set starts with the shorter one.
    expect(generateMasterSet('series-A', 5)).toEqual(a.slice(0, 5))
  })

  it('packed, streamed and object forms hold the same cards in the same order', () => {
    fc.assert(
      fc.property(
        seedArb,
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom(LAYOUT_90, LAYOUT_75),
        (seed, count, layout) => {
          const cards = generateMasterSet(seed, count, layout)
          const packed = generateMasterSetPacked(seed, count, layout)
          expect(packed.length).toBe(count * layout.rows * layout.perRow)
          const streamed: Card[] = []
          forEachMasterCard(seed, count, layout, (card, i) => {
            expect(i).toBe(streamed.length)
            streamed.push(card)
          })
          expect(streamed).toEqual(cards)
          cards.forEach((card, i) => {
            expect(cardFromPacked(packed, i, layout)).toEqual(card)
            expect(
              Array.from(packed.subarray(i * layout.rows * layout.perRow, (i + 1) * layout.rows * layout.perRow)),
            ).toEqual(cardRows(card).flat())
          })
        },
      ),
      { numRuns: 40 },
    )
  })

  it('redraws duplicates: a set may hold every card of a small layout, and no more', () => {
    const total = countCards(TINY)
    const all = generateMasterSet('exhaust', total, TINY)
    expect(new Set(all.map(cardKey)).size).toBe(total)
    expect(new Set(all.map(cardKey))).toEqual(new Set(enumerateCards(TINY).map(cardKey)))
    expect(() => generateMasterSet('exhaust', total + 1, TINY)).toThrow(/impossible/)
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 0, max: total }), (seed, count) => {
        expect(new Set(generateMasterSet(seed, count, TINY).map(cardKey)).size).toBe(count)
      }),
      { numRuns: 100 },
    )
  })

  it('rejects a bad count', () => {
    expect(() => generateMasterSet('x', -1)).toThrow(DomainError)
    expect(() => generateMasterSet('x', 1.5)).toThrow(DomainError)
  })
})
