import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DomainError } from '../shared/errors.ts'
import {
  GameAction,
  GameStatus,
  assertLegal,
  compareBytes,
  isLegal,
  prizePools,
  secondSeriesLimit,
  splitPrize,
  verifyClaim,
} from './game.ts'
import { shareOf, splitEvenly } from '../shared/money.ts'

describe('prize split (BNG-53, BNG-56)', () => {
  it('splits any pool exactly among any number of winners, leftovers to the lowest serials', () => {
    fc.assert(
      fc.property(
        fc.nat(1_000_000_000),
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 60 }),
        (pool, serials) => {
          const parts = splitPrize(
            pool,
            serials.map((serial) => ({ serial })),
          )
          expect(parts.reduce((s, p) => s + p.amountCents, 0)).toBe(pool)
          const amounts = parts.map((p) => p.amountCents)
          expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1)
          // Sorted by byte order and never increasing: the extra centavos sit at the front.
          for (let i = 1; i < parts.length; i++) {
            expect(compareBytes(parts[i - 1].serial, parts[i].serial)).toBeLessThan(0)
            expect(parts[i].amountCents).toBeLessThanOrEqual(parts[i - 1].amountCents)
          }
        },
      ),
    )
  })

  it('gives 3 winners of 10.00 exactly 3.34 + 3.33 + 3.33', () => {
    expect(
      splitPrize(1000, [{ serial: 'A-3' }, { serial: 'A-1' }, { serial: 'A-2' }]).map((p) => [p.serial, p.amountCents]),
    ).toEqual([
      ['A-1', 334],
      ['A-2', 333],
      ['A-3', 333],
    ])
    expect(splitEvenly(5, 1)).toEqual([5])
    expect(() => splitEvenly(5, 0)).toThrow(RangeError)
  })

  it('takes the Cantabria shares of cards sold x face value, rounded down (BNG-56)', () => {
    expect(prizePools(137, 333, 1000, 5100)).toEqual({ totalCents: 45_621, lineCents: 4562, bingoCents: 23_266 })
    fc.assert(
      fc.property(
        fc.nat(100_000),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (cards, face, bp) => {
          const share = shareOf(cards * face, bp)
          expect(share).toBeLessThanOrEqual(cards * face)
          expect(share * 10_000).toBeLessThanOrEqual(cards * face * bp)
          expect((share + 1) * 10_000).toBeGreaterThan(cards * face * bp)
        },
      ),
    )
  })
})

describe('claim verification (BNG-44, BNG-45)', () => {
  const rows = [
    [1, 12, 23, 45, 67],
    [5, 18, 34, 56, 80],
    [9, 29, 48, 77, 90],
  ]
  it('accepts a line only for a full row of drawn numbers, and only while the line is open', () => {
    expect(verifyClaim(rows, new Set([1, 12, 23, 45, 67]), 'line', false)).toEqual({ ok: true, rowsComplete: [0] })
    expect(verifyClaim(rows, new Set([1, 12, 23, 45, 67]), 'line', true)).toEqual({
      ok: false,
      reason: 'line_already_awarded',
    })
    // Four of five, plus numbers of other rows: not a line (a line cannot combine rows or cards).
    expect(verifyClaim(rows, new Set([1, 12, 23, 45, 5, 18, 34, 56]), 'line', false).ok).toBe(false)
  })
  it('accepts a bingo only when every number is drawn, whenever it was completed', () => {
    const all = new Set(rows.flat())
    expect(verifyClaim(rows, all, 'bingo', true).ok).toBe(true)
    all.delete(90)
    expect(verifyClaim(rows, all, 'bingo', true)).toEqual({ ok: false, reason: 'card_not_complete' })
  })
  it('never counts an undrawn number as marked, for random cards and draws', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 90 }), { minLength: 15, maxLength: 15 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 90 }), { maxLength: 90 }),
        (nums, drawn) => {
          const card = [nums.slice(0, 5), nums.slice(5, 10), nums.slice(10, 15)]
          const called = new Set(drawn)
          const line = verifyClaim(card, called, 'line', false)
          const expected = card.some((r) => r.every((n) => called.has(n)))
          expect(line.ok).toBe(expected)
          expect(verifyClaim(card, called, 'bingo', false).ok).toBe(nums.every((n) => called.has(n)))
        },
      ),
    )
  })
})

describe('game lifecycle (BNG-41 to BNG-51)', () => {
  it('refuses a draw before sales close, a sale after close, and a window close with no claim', () => {
    expect(() => assertLegal(GameAction.Draw, GameStatus.OnSale, 'g')).toThrow(DomainError)
    expect(() => assertLegal(GameAction.Sell, GameStatus.Drawing, 'g')).toThrow(
      expect.objectContaining({ code: 'SALES_CLOSED' }),
    )
    expect(() => assertLegal(GameAction.Sell, GameStatus.Announced, 'g')).toThrow(
      expect.objectContaining({ code: 'SALES_NOT_OPEN' }),
    )
    expect(() => assertLegal(GameAction.CloseWindow, GameStatus.Drawing, 'g')).toThrow(
      expect.objectContaining({ code: 'ILLEGAL_TRANSITION' }),
    )
  })
  it('allows a suspension only before the first ball (BNG-80), and nothing at all once the game has ended', () => {
    expect(isLegal(GameAction.Suspend, GameStatus.SalesClosed)).toBe(true)
    expect(isLegal(GameAction.Suspend, GameStatus.Drawing)).toBe(false)
    for (const action of Object.values(GameAction)) {
      expect(isLegal(action, GameStatus.Finished)).toBe(false)
      expect(isLegal(action, GameStatus.Void)).toBe(false)
    }
  })
})

describe('second series (BNG-13)', () => {
  const first = { faceValueCents: 500, startCardNo: 501, masterSetId: 'm' }
  it('caps the second series below the first series start', () => {
    expect(secondSeriesLimit(first, { faceValueCents: 500, nextCardNo: 1, cardCount: 6000, masterSetId: 'm' })).toBe(
      500,
    )
  })
  it('refuses another face value, a second series not starting at 1, or a first series that started at 1', () => {
    expect(() =>
      secondSeriesLimit(first, { faceValueCents: 600, nextCardNo: 1, cardCount: 6000, masterSetId: 'm' }),
    ).toThrow(/BNG-13.1/)
    expect(() =>
      secondSeriesLimit(first, { faceValueCents: 500, nextCardNo: 7, cardCount: 6000, masterSetId: 'm' }),
    ).toThrow(/BNG-13.2/)
    expect(() =>
      secondSeriesLimit(
        { ...first, startCardNo: 1 },
        { faceValueCents: 500, nextCardNo: 1, cardCount: 6000, masterSetId: 'm' },
      ),
    ).toThrow(/BNG-13.3/)
  })
  it('never lets the two ranges overlap on a card number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }), (start, count) => {
        const limit = secondSeriesLimit(
          { ...first, startCardNo: start },
          { faceValueCents: 500, nextCardNo: 1, cardCount: count, masterSetId: 'm' },
        )
        expect(limit).toBeLessThan(start)
        expect(limit).toBeLessThanOrEqual(count)
      }),
    )
  })
})
