import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitPrize } from './game.ts'
import {
  FIGURES,
  cardsFormingAt,
  figureAlternatives,
  figureFits,
  figureFormed,
  figurePlanProblems,
  firstFormed,
  poolsWithFigures,
  type Figure,
} from './patterns.ts'

/** A card of `rows` x `perRow` distinct numbers out of 1..100 and an order in which all 100 balls are drawn. */
const cardAndDraw = fc
  .record({ rows: fc.integer({ min: 1, max: 5 }), perRow: fc.integer({ min: 1, max: 9 }) })
  .chain(({ rows, perRow }) =>
    fc.record({
      order: fc.shuffledSubarray(
        Array.from({ length: 100 }, (_, i) => i + 1),
        { minLength: 100, maxLength: 100 },
      ),
      picks: fc.shuffledSubarray(
        Array.from({ length: 100 }, (_, i) => i + 1),
        { minLength: rows * perRow, maxLength: rows * perRow },
      ),
      rows: fc.constant(rows),
      perRow: fc.constant(perRow),
      figure: fc.constantFrom(...FIGURES),
    }),
  )

describe('prize figures (CFG-13, BNG-103, CFG-35)', () => {
  it('a figure is formed exactly at the ball that completes all the numbers of one of its alternatives, never earlier', () => {
    fc.assert(
      fc.property(cardAndDraw, ({ order, picks, rows, perRow, figure }) => {
        const card = Array.from({ length: rows }, (_, r) => picks.slice(r * perRow, (r + 1) * perRow))
        const alts = figureAlternatives(figure, card)
        const position = new Map(order.map((b, i) => [b, i]))
        // The ball index at which the figure is due: the earliest alternative's last number.
        const due = alts.length ? Math.min(...alts.map((a) => Math.max(...a.map((n) => position.get(n)!)))) : Infinity
        const called = new Set<number>()
        for (let i = 0; i < order.length; i++) {
          called.add(order[i])
          expect(figureFormed(figure, card, called)).toBe(i >= due)
        }
        // A figure that does not fit the card is never formed, even with every ball called.
        expect(alts.length > 0).toBe(figureFits(figure, { rows, perRow }))
      }),
      { numRuns: 300 },
    )
  })

  it('the cards that formed a figure first are exactly those on which it is formed at the earliest prefix of the draw, at that ball (CFG-21)', () => {
    // Several cards of one game and a partial draw: the oracle replays the draw ball by ball with figureFormed.
    const game = fc.record({
      figure: fc.constantFrom(...FIGURES),
      cards: fc.array(
        fc.shuffledSubarray(
          Array.from({ length: 30 }, (_, i) => i + 1),
          { minLength: 9, maxLength: 9 },
        ),
        { minLength: 1, maxLength: 8 },
      ),
      order: fc.shuffledSubarray(
        Array.from({ length: 30 }, (_, i) => i + 1),
        { minLength: 0, maxLength: 30 },
      ),
    })
    fc.assert(
      fc.property(game, ({ figure, cards, order }) => {
        const grids = cards.map((c) => [c.slice(0, 3), c.slice(3, 6), c.slice(6, 9)])
        let expected: { cards: number[]; atBall: number } | null = null
        const called = new Set<number>()
        for (let i = 0; i < order.length && !expected; i++) {
          called.add(order[i])
          const formed = grids.flatMap((g, k) => (figureFormed(figure, g, called) ? [k] : []))
          if (formed.length) expected = { cards: formed, atBall: i + 1 }
        }
        expect(firstFormed(figure, grids, order)).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  it('the cards a figure is formed on at a ball are exactly those it is formed on with that ball and not without it (BNG-48)', () => {
    const game = fc.record({
      figure: fc.constantFrom(...FIGURES),
      cards: fc.array(
        fc.shuffledSubarray(
          Array.from({ length: 30 }, (_, i) => i + 1),
          { minLength: 9, maxLength: 9 },
        ),
        { minLength: 1, maxLength: 8 },
      ),
      order: fc.shuffledSubarray(
        Array.from({ length: 30 }, (_, i) => i + 1),
        { minLength: 1, maxLength: 30 },
      ),
    })
    fc.assert(
      fc.property(game, ({ figure, cards, order }) => {
        const grids = cards.map((c) => [c.slice(0, 3), c.slice(3, 6), c.slice(6, 9)])
        for (let seq = 1; seq <= order.length; seq++) {
          const before = new Set(order.slice(0, seq - 1))
          const now = new Set(order.slice(0, seq))
          const expected = grids.flatMap((g, k) =>
            figureFormed(figure, g, now) && !figureFormed(figure, g, before) ? [k] : [],
          )
          expect(cardsFormingAt(figure, grids, order, seq)).toEqual(expected)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('each figure covers exactly its cells on a 3 x 5 card of 90 and a 5 x 5 card', () => {
    const c90 = [
      [1, 12, 33, 54, 85],
      [5, 27, 40, 66, 79],
      [9, 18, 49, 71, 90],
    ]
    expect(figureAlternatives('four-corners', c90)).toEqual([[1, 85, 9, 90]])
    expect(figureAlternatives('double-line', c90)).toHaveLength(3)
    // Cross needs an odd number of rows and numbers per row: a 3 x 5 card has one.
    expect(figureAlternatives('cross', c90)[0].sort((a, b) => a - b)).toEqual([5, 27, 33, 40, 49, 66, 79])
    expect(figureAlternatives('frame', c90)[0]).toHaveLength(12)
    // Not the line (one row) and not the bingo: a card of one row or two rows has no double line.
    expect(figureFits('double-line', { rows: 2, perRow: 5 })).toBe(false)
    expect(figureFits('four-corners', { rows: 1, perRow: 15 })).toBe(false)
  })

  it("the figures' pools come out of the bingo pool: line + bingo + figures stay the plan's, and each split sums to its pool", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 2000, max: 7000 }),
        fc.subarray([...FIGURES], { minLength: 1 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 4, maxLength: 4 }),
        (cards, face, bingoBp, figs, shares, winners) => {
          const total = cards * face
          const prizes = figs.map((figure: Figure, i) => ({ figure, shareBp: shares[i] * 10 }))
          const bingo = Math.floor((total * bingoBp) / 10_000)
          const pools = poolsWithFigures(total, bingo, prizes)
          const figuresSum = pools.figures.reduce((s, f) => s + f.poolCents, 0)
          expect(pools.bingoCents + figuresSum).toBe(bingo)
          expect(pools.bingoCents).toBeGreaterThanOrEqual(0)
          pools.figures.forEach((f, i) => {
            const split = splitPrize(
              f.poolCents,
              Array.from({ length: winners[i] }, (_, k) => ({ serial: `A-${k}` })),
            )
            expect(split.reduce((s, w) => s + w.amountCents, 0)).toBe(f.poolCents)
          })
        },
      ),
    )
  })

  it('a plan is refused when a figure does not fit the card, repeats, or leaves the bingo nothing', () => {
    expect(figurePlanProblems([{ figure: 'cross', shareBp: 500 }], { rows: 4, perRow: 5 }, 5000)).toHaveLength(1)
    expect(
      figurePlanProblems(
        [
          { figure: 'frame', shareBp: 500 },
          { figure: 'frame', shareBp: 500 },
        ],
        { rows: 3, perRow: 5 },
        5000,
      ),
    ).toHaveLength(1)
    expect(figurePlanProblems([{ figure: 'frame', shareBp: 5000 }], { rows: 3, perRow: 5 }, 5000)).toHaveLength(1)
    expect(figurePlanProblems([{ figure: 'frame', shareBp: 500 }], { rows: 3, perRow: 5 }, 5000)).toEqual([])
  })
})
