import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LAYOUT_75, LAYOUT_90, cardFromRows, generateMasterSet, validateCard } from './card.ts'
import { DomainError } from '../shared/errors.ts'
import { createDetector } from './detector.ts'
import {
  bingoPlusLayout,
  checkDerivedPlan,
  checkChosenNumbers,
  checkFastBingoTerms,
  chosenLayoutOf,
  chosenNumbersLayout,
  derivedLayout,
  evenColumns,
  fastBingoLayout,
  fastGameTerms,
  fastLayoutOf,
  layoutForModality,
  type DerivedPlan,
} from './modalities.ts'
import { BOLIVIA_2013, BOLIVIA_2025, CANTABRIA_2010 } from '../shared/profile.ts'
import { hitsComplete, verifyClaim } from './game.ts'

const code = (f: () => unknown) => {
  try {
    f()
    return 'OK'
  } catch (err) {
    return err instanceof DomainError ? err.code : 'THROW'
  }
}

describe('modality layouts from the one card model (BNG-98, BNG-102, BNG-103)', () => {
  it('cuts a ball range into consecutive columns', () => {
    expect(evenColumns(100, 10)[9]).toEqual([91, 100])
    expect(evenColumns(48, 5)).toEqual([
      [1, 10],
      [11, 20],
      [21, 30],
      [31, 39],
      [40, 48],
    ])
  })

  it('gives 90 and 75 balls for the ordinary and the 5 x 5 games', () => {
    expect(layoutForModality('ordinary-90')).toBe(LAYOUT_90)
    expect(layoutForModality('bingo-75')).toBe(LAYOUT_75)
  })

  it('plays bingo plus on 1..100 with cards of 5 to 20 numbers', () => {
    for (const [rows, perRow] of [
      [1, 5],
      [2, 5],
      [4, 5],
      [2, 10],
      [5, 4],
    ]) {
      const layout = bingoPlusLayout({ rows, perRow })
      expect(layout.ballCount).toBe(100)
      for (const card of generateMasterSet(`plus-${rows}x${perRow}`, 30, layout)) {
        expect(validateCard(card, layout)).toEqual([])
        expect(card.grid.flat().filter((n) => n > 0)).toHaveLength(rows * perRow)
      }
    }
    expect(code(() => bingoPlusLayout({ rows: 1, perRow: 4 }))).toBe('VALIDATION_FAILED') // 4 numbers
    expect(code(() => bingoPlusLayout({ rows: 3, perRow: 7 }))).toBe('VALIDATION_FAILED') // 21 numbers
  })

  it('plays derived bingo on at most 90 and at least 6 numbers, with cards of 6 to 18 numbers (BNG-102, decree 004 Bingo VI.3.a)', () => {
    expect(derivedLayout({ ballCount: 6, rows: 2, perRow: 3 }).ballCount).toBe(6)
    expect(derivedLayout({ ballCount: 90, rows: 3, perRow: 6 }).ballCount).toBe(90) // 18 numbers on 90
    expect(code(() => derivedLayout({ ballCount: 5, rows: 1, perRow: 5 }))).toBe('VALIDATION_FAILED')
    expect(code(() => derivedLayout({ ballCount: 91, rows: 2, perRow: 3 }))).toBe('VALIDATION_FAILED')
    expect(code(() => derivedLayout({ ballCount: 100, rows: 4, perRow: 5 }))).toBe('VALIDATION_FAILED')
    expect(code(() => derivedLayout({ ballCount: 60, rows: 1, perRow: 5 }))).toBe('VALIDATION_FAILED') // 5 numbers
    expect(code(() => derivedLayout({ ballCount: 60, rows: 4, perRow: 5 }))).toBe('VALIDATION_FAILED') // 20 numbers
    expect(code(() => derivedLayout({ ballCount: 90, rows: 1, perRow: 19 }))).toBe('VALIDATION_FAILED') // 19 numbers
  })

  it('accepts every derived layout inside the decree and refuses every one outside (BNG-102, property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 12 }),
        (ballCount, rows, perRow) => {
          const n = rows * perRow
          let ok = true
          try {
            derivedLayout({ ballCount, rows, perRow })
          } catch {
            ok = false
          }
          if (ballCount > 90 || ballCount < 6 || n < 6 || n > 18) expect(ok).toBe(false)
        },
      ),
    )
  })

  describe('derived bingo versions (BNG-102, CFG-34)', () => {
    const base = {
      authorisationRef: 'Res. Consejería 12/2026',
      ballCount: 60,
      rows: 2,
      perRow: 5,
      prizePercentBp: 7000,
    }
    const instant: DerivedPlan = {
      ...base,
      version: 'instant',
      prizes: [
        { name: 'Fila', combination: 'una fila completa', wins: 'line', shareBp: 2000, stakeMultiple: 3 },
        { name: 'Cartón', combination: 'cartón completo', wins: 'bingo', shareBp: 5000, fixedCents: 20_000 },
      ],
    }
    const deferred: DerivedPlan = {
      ...base,
      version: 'deferred',
      prizes: [{ name: 'Cartón', combination: 'cartón completo', wins: 'bingo', shareBp: 7000 }],
      window: { games: 50 },
    }

    it('takes an instant version with fixed prizes and a deferred one with a time span', () => {
      expect(checkDerivedPlan(CANTABRIA_2010, instant).version).toBe('instant')
      expect(checkDerivedPlan(CANTABRIA_2010, deferred).window).toEqual({ games: 50 })
    })
    it('refuses an instant prize that depends on sales, a deferred one fixed in advance or without its window', () => {
      expect(
        code(() =>
          checkDerivedPlan(CANTABRIA_2010, {
            ...instant,
            prizes: [{ name: 'Cartón', combination: 'completo', wins: 'bingo', shareBp: 7000 }],
          }),
        ),
      ).toBe('VALIDATION_FAILED')
      expect(
        code(() =>
          checkDerivedPlan(CANTABRIA_2010, {
            ...deferred,
            prizes: [{ name: 'Cartón', combination: 'completo', wins: 'bingo', shareBp: 7000, fixedCents: 100 }],
          }),
        ),
      ).toBe('VALIDATION_FAILED')
      expect(code(() => checkDerivedPlan(CANTABRIA_2010, { ...deferred, window: undefined }))).toBe('VALIDATION_FAILED')
    })
    it('refuses a prize percentage below the Consejería minimum, a split that does not add up, and a card of 20 numbers', () => {
      expect(
        code(() =>
          checkDerivedPlan(CANTABRIA_2010, {
            ...deferred,
            prizePercentBp: 6000,
            prizes: [{ name: 'C', combination: 'completo', wins: 'bingo', shareBp: 6000 }],
          }),
        ),
      ).toBe('VALIDATION_FAILED')
      expect(
        code(() =>
          checkDerivedPlan(CANTABRIA_2010, {
            ...deferred,
            prizes: [{ name: 'C', combination: 'completo', wins: 'bingo', shareBp: 6900 }],
          }),
        ),
      ).toBe('VALIDATION_FAILED')
      expect(code(() => checkDerivedPlan(CANTABRIA_2010, { ...deferred, rows: 4, perRow: 5 }))).toBe(
        'VALIDATION_FAILED',
      )
    })
    it('is a Cantabrian modality: a Bolivian hall has none', () => {
      expect(code(() => checkDerivedPlan(BOLIVIA_2025, deferred))).toBe('RULE_DISABLED')
    })
  })

  it('plays fast bingo as one row of picks from the universe', () => {
    const layout = fastBingoLayout({ ballCount: 30, picks: 5 })
    for (const card of generateMasterSet('fast', 50, layout)) {
      expect(validateCard(card, layout)).toEqual([])
      expect(card.grid).toHaveLength(1)
    }
  })

  describe("BNG-98 / CFG-32: the fast bingo terms are the hall licence's (002 §6.1.9)", () => {
    const licence = (fastBingo?: Parameters<typeof checkFastBingoTerms>[1]) => ({
      version: 2,
      authorisationRef: 'AJ-LO-RAPIDO-7',
      ...(fastBingo ? { fastBingo } : {}),
    })
    const threeOfFive = { universe: 30, picks: 5, timesRequired: 3, playerChooses: false }

    it('only a profile whose licence sets a bingo rápido (Bolivia 2025) records its terms', () => {
      expect(BOLIVIA_2025.fastBingo).toEqual({ licenceTerms: true })
      for (const p of [BOLIVIA_2013, CANTABRIA_2010]) {
        expect(p.fastBingo).toEqual({ licenceTerms: false })
        expect(code(() => checkFastBingoTerms(p, threeOfFive))).toBe('RULE_DISABLED')
      }
      expect(checkFastBingoTerms(BOLIVIA_2025, threeOfFive)).toEqual(threeOfFive)
    })

    it('times required is 1..picks, on a universe and picks that make a fast card', () => {
      for (const t of [0, 6, 2.5])
        expect(code(() => checkFastBingoTerms(BOLIVIA_2025, { ...threeOfFive, timesRequired: t }))).toBe(
          'VALIDATION_FAILED',
        )
      expect(code(() => checkFastBingoTerms(BOLIVIA_2025, { ...threeOfFive, universe: 300 }))).toBe('VALIDATION_FAILED')
      expect(checkFastBingoTerms(BOLIVIA_2025, { ...threeOfFive, timesRequired: 1 }).timesRequired).toBe(1)
    })

    it('a licence may let the player choose his numbers (002 §6.1.9 "elegir y adquirir"); a game then plays them', () => {
      const chosen = { ...threeOfFive, playerChooses: true }
      expect(checkFastBingoTerms(BOLIVIA_2025, chosen)).toEqual(chosen)
      expect(fastGameTerms({ universe: 30, picks: 5 }, licence(chosen))).toMatchObject({
        timesRequired: 3,
        playerChooses: true,
      })
      // Where the licence sets chosen numbers, a game asking for printed cards is refused, naming the licence.
      expect(code(() => fastGameTerms({ universe: 30, picks: 5 }, licence(chosen), { playerChooses: false }))).toBe(
        'RULE_DISABLED',
      )
    })

    it('a chosen-number card: exactly `picks` distinct numbers anywhere in the universe, sorted', () => {
      const layout = chosenNumbersLayout({ ballCount: 30, picks: 5 })
      expect(chosenLayoutOf(layout)).toEqual({ universe: 30, picks: 5 })
      expect(fastLayoutOf(layout)).toBeNull()
      for (const l of [fastBingoLayout({ ballCount: 30, picks: 5 }), LAYOUT_90, LAYOUT_75])
        expect(chosenLayoutOf(l)).toBeNull()
      const terms = { universe: 30, picks: 5 }
      // Five numbers of one band: no printed fast card holds them, a chosen card does.
      expect(checkChosenNumbers(terms, [5, 1, 4, 2, 3])).toEqual({ numbers: [1, 2, 3, 4, 5] })
      for (const bad of [
        [1, 2, 3, 4],
        [1, 2, 3, 4, 5, 6],
        [1, 1, 2, 3, 4],
        [0, 1, 2, 3, 4],
        [1, 2, 3, 4, 31],
        [1, 2, 3, 4, 2.5],
        'x',
        null,
      ])
        expect(checkChosenNumbers(terms, bad).problems?.length).toBeGreaterThan(0)
      expect(code(() => chosenNumbersLayout({ ballCount: 5, picks: 5 }))).toBe('VALIDATION_FAILED')
    })

    it('property: every accepted chosen card is valid under its layout, and its k-of-n bingo comes at the k-th pick drawn', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 2, max: 90 }).chain((universe) =>
            fc.integer({ min: 1, max: Math.min(20, universe - 1) }).chain((picks) =>
              fc.record({
                universe: fc.constant(universe),
                picks: fc.constant(picks),
                timesRequired: fc.integer({ min: 1, max: picks }),
                // A player's choice: right, with a number twice, or anything at all.
                given: fc.oneof(
                  fc.shuffledSubarray(
                    Array.from({ length: universe }, (_, i) => i + 1),
                    { minLength: picks, maxLength: picks },
                  ),
                  fc
                    .shuffledSubarray(
                      Array.from({ length: universe }, (_, i) => i + 1),
                      { minLength: picks, maxLength: picks },
                    )
                    .map((a) => (a.length > 1 ? [...a.slice(1), a[1]] : [0])),
                  fc.array(fc.integer({ min: -2, max: universe + 2 }), { minLength: 0, maxLength: picks + 2 }),
                ),
                order: fc.shuffledSubarray(
                  Array.from({ length: universe }, (_, i) => i + 1),
                  { minLength: universe, maxLength: universe },
                ),
              }),
            ),
          ),
          ({ universe, picks, timesRequired, given, order }) => {
            const layout = chosenNumbersLayout({ ballCount: universe, picks })
            const r = checkChosenNumbers({ universe, picks }, given)
            const valid =
              given.length === picks &&
              new Set(given).size === picks &&
              given.every((n) => Number.isInteger(n) && n >= 1 && n <= universe)
            expect(r.numbers !== undefined).toBe(valid)
            // A valid choice, whatever it was, is a card of the layout; a refused one never reaches a card.
            const numbers = r.numbers ?? order.slice(0, picks).sort((a, b) => a - b)
            const card = cardFromRows([numbers], layout)
            expect(validateCard(card, layout)).toEqual([])
            // The draw order `order`: the card's bingo (k of n) comes exactly at its k-th number drawn.
            const positions = numbers.map((n) => order.indexOf(n)).sort((a, b) => a - b)
            const winAt = positions[timesRequired - 1]
            const detector = createDetector([[numbers]], universe, { bingoAfter: timesRequired })
            order.forEach((ball, i) => {
              const won = detector.call(ball).bingos.length > 0
              expect(won).toBe(i === winAt)
              expect(hitsComplete([numbers], new Set(order.slice(0, i + 1)), timesRequired)).toBe(i >= winAt)
            })
          },
        ),
        { numRuns: 200 },
      )
    })

    it('recognises a fast layout, and no other', () => {
      expect(fastLayoutOf(fastBingoLayout({ ballCount: 30, picks: 5 }))).toEqual({ universe: 30, picks: 5 })
      expect(fastLayoutOf(LAYOUT_90)).toBeNull()
      expect(fastLayoutOf(LAYOUT_75)).toBeNull()
    })

    it("a game plays its licence's terms for its format, and the default (all picks) otherwise", () => {
      expect(fastGameTerms({ universe: 30, picks: 5 }, licence(threeOfFive))).toEqual({
        timesRequired: 3,
        playerChooses: false,
        licence: { version: 2, authorisationRef: 'AJ-LO-RAPIDO-7' },
      })
      // Another format than the licence's, no fast terms, no licence at all: every pick, as before.
      for (const l of [licence(threeOfFive), licence(), null])
        expect(fastGameTerms({ universe: 40, picks: 6 }, l)).toMatchObject({ timesRequired: 6, licence: null })
      expect(fastGameTerms({ universe: 30, picks: 5 }, licence(threeOfFive), { timesRequired: 3 }).timesRequired).toBe(
        3,
      )
    })

    it('a game asking for other terms than its licence sets is refused, naming the licence', () => {
      const refused = (
        l: ReturnType<typeof licence> | null,
        asked: { timesRequired?: number; playerChooses?: boolean },
      ) => {
        try {
          fastGameTerms({ universe: 30, picks: 5 }, l, asked)
        } catch (err) {
          expect(err).toBeInstanceOf(DomainError)
          expect((err as DomainError).code).toBe('RULE_DISABLED')
          return (err as DomainError).message
        }
        throw new Error('not refused')
      }
      expect(refused(licence(), { timesRequired: 3 })).toMatch(
        /AJ-LO-RAPIDO-7 \(version 2\).*won with 5 of them drawn, not 3/,
      )
      expect(refused(licence(threeOfFive), { timesRequired: 5 })).toMatch(/AJ-LO-RAPIDO-7.*with 3 of them drawn, not 5/)
      expect(refused(licence(threeOfFive), { playerChooses: true })).toMatch(/AJ-LO-RAPIDO-7.*choose his numbers/)
      expect(refused(null, { timesRequired: 3 })).toMatch(/no AJ Operating Licence on record/)
    })
  })

  it('BNG-98: by default a fast card wins when all its picks are drawn', () => {
    const layout = fastBingoLayout({ ballCount: 30, picks: 5 })
    const [card] = generateMasterSet('fast-times', 1, layout)
    const picks = card.grid[0].filter((n): n is number => typeof n === 'number' && n > 0)
    expect(picks).toHaveLength(5)
    const detector = createDetector([[picks]], 30)
    // Four of the five picks drawn: no winner; the fifth: the card wins (times required = every pick).
    for (const n of picks.slice(0, 4)) expect(detector.call(n).bingos).toEqual([])
    expect(detector.call(picks[4]).bingos).toEqual([0])
  })

  it('BNG-98 / CFG-32: a card wins exactly at the ball where the k-th of its picks is drawn, never before', () => {
    const layout = fastBingoLayout({ ballCount: 30, picks: 5 })
    const deck = generateMasterSet('fast-k', 40, layout).map((c) => [c.grid[0].filter((n) => n > 0)])
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.shuffledSubarray(
          Array.from({ length: 30 }, (_, i) => i + 1),
          { minLength: 30, maxLength: 30 },
        ),
        fc.subarray(
          Array.from({ length: 40 }, (_, i) => i),
          { minLength: 1, maxLength: 12 },
        ),
        fc.boolean(),
        (k, order, chosen, closeLine) => {
          const cards = chosen.map((i) => deck[i])
          const detector = createDetector(cards, 30, { bingoAfter: k })
          if (closeLine) detector.closeLine()
          const wonAt = new Array<number>(cards.length).fill(0)
          const called = new Set<number>()
          order.forEach((ball, i) => {
            called.add(ball)
            for (const c of detector.call(ball).bingos) {
              expect(wonAt[c]).toBe(0) // reported once
              wonAt[c] = i + 1
            }
            // The pure check agrees at every ball: won from the k-th pick on, not before.
            cards.forEach((rows, c) => {
              expect(hitsComplete(rows, called, k)).toBe(wonAt[c] > 0)
              expect(verifyClaim(rows, called, 'bingo', true, k).ok).toBe(wonAt[c] > 0)
            })
          })
          cards.forEach((rows, c) => {
            const kth = Math.max(
              ...rows[0]
                .map((n) => order.indexOf(n) + 1)
                .sort((a, b) => a - b)
                .slice(0, k),
            )
            expect(wonAt[c]).toBe(kth)
            expect(detector.firstBingoAt(c)).toBe(kth)
          })
        },
      ),
      { numRuns: 150 },
    )
  })
})
