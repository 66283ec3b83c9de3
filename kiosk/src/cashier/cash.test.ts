import { describe, expect, it } from 'vitest'
import { cashBreakdown, cashPieces, parseAmount } from './cash.ts'

describe('cash counted for a voucher (GEN-17)', () => {
  it('splits Bs 10 and Bs 20 notes and coins from the other notes', () => {
    expect(cashBreakdown({ notes: { 20_000: 1, 5_000: 1, 2_000: 2, 1_000: 3 }, coinsCents: 350 }, 'BOB')).toEqual({
      amountCents: 32_350,
      smallCents: 7_350,
      otherCents: 25_000,
    })
  })
  it('sends the count by denomination, the coins as coins, for the server to split by the profile (CFG-2)', () => {
    expect(cashPieces({ notes: { 20_000: 1, 2_000: 2 }, coinsCents: 350 }, 'BOB')).toEqual({
      pieces: { '20000': 1, '2000': 2, '200': 1, '100': 1, '50': 1 },
    })
    // What no coin makes is sent as it is: the server refuses it (DENOMINATION_UNKNOWN), nothing is rounded away.
    expect(cashPieces({ notes: {}, coinsCents: 15 }, 'BOB')).toEqual({ pieces: { '10': 1, '5': 1 } })
  })
  it('parses amounts typed with a comma or a point', () => {
    expect(parseAmount('12,5')).toBe(1_250)
    expect(parseAmount('3.05')).toBe(305)
    expect(parseAmount('7')).toBe(700)
    expect(parseAmount('1,234')).toBeNaN()
  })
})
