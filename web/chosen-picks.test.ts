import { describe, expect, it } from 'vitest'
import { chosenGridColumns, quickPick, quickPickOrNone, tapNumber, type ChosenDraft } from './chosen-picks.ts'

const terms = { universe: 30, picks: 5 }
const empty: ChosenDraft = { cards: [], pending: [] }
const tap = (d: ChosenDraft, ns: number[], max = 50) => ns.reduce((x, n) => tapNumber(x, n, terms, max), d)

describe('the cards a buyer chooses at the counter (BNG-98, BNG-13)', () => {
  it('a card joins sorted once it holds its picks; a number tapped again is taken back', () => {
    expect(tap(empty, [4, 1, 6, 6])).toEqual({ cards: [], pending: [1, 4] })
    expect(tap(empty, [30, 2, 17, 9, 3])).toEqual({ cards: [[2, 3, 9, 17, 30]], pending: [] })
  })
  it('a number outside 1..U, a card beyond the maximum, or the same card twice (BNG-13) is not taken', () => {
    expect(tap(empty, [0, 31])).toEqual(empty)
    const one = tap(empty, [1, 2, 3, 4, 5])
    expect(tap(one, [5, 4, 3, 2, 1])).toEqual({ cards: [[1, 2, 3, 4, 5]], pending: [2, 3, 4, 5] })
    expect(tap(one, [6], 1)).toEqual(one)
  })
  it('"Al azar" completes the card being chosen with numbers not yet tapped, never a card already chosen', () => {
    let i = 0
    // The first draw would repeat card 1 (01..05): drawn again.
    const seq = [1, 2, 3, 4, 1, 2, 3, 5]
    const d = quickPick({ cards: [[1, 2, 3, 4, 5]], pending: [1] }, terms, 50, () => seq[i++])
    expect(d).toEqual({
      cards: [
        [1, 2, 3, 4, 5],
        [1, 2, 3, 4, 6],
      ],
      pending: [],
    })
  })
  it('"Al azar" finds the one card left when random draws keep repeating, and says when none is left (null)', () => {
    const six = { universe: 6, picks: 5 }
    // Five of the six cards of 5 among 1..6 are chosen; the random source always draws the first of them (1..5).
    const cards = [
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 6],
      [1, 2, 3, 5, 6],
      [1, 2, 4, 5, 6],
      [1, 3, 4, 5, 6],
    ]
    let i = 0
    const same = () => i++ % 5
    expect(quickPickOrNone({ cards, pending: [] }, six, 50, same)).toEqual({
      cards: [...cards, [2, 3, 4, 5, 6]],
      pending: [],
    })
    const all = [...cards, [2, 3, 4, 5, 6]]
    expect(quickPickOrNone({ cards: all, pending: [] }, six, 50, same)).toBeNull()
    // With a number tapped, only the cards holding it count.
    expect(quickPickOrNone({ cards, pending: [1] }, six, 50, same)).toBeNull()
    expect(quickPick({ cards: all, pending: [] }, six, 50, same)).toEqual({ cards: all, pending: [] })
  })
  it('the grid keeps up to 90 numbers to six rows at most', () => {
    for (const u of [30, 40, 41, 60, 75, 90]) expect(Math.ceil(u / chosenGridColumns(u))).toBeLessThanOrEqual(6)
  })
})
