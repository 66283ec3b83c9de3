import { describe, expect, it } from 'vitest'
import { cashBreakdown, parseAmount } from './cash.ts'

describe('cash counted for a voucher (GEN-17)', () => {
  it('splits Bs 10 and Bs 20 notes and coins from the other notes', () => {
    expect(cashBreakdown({ notes: { 20_000: 1, 5_000: 1, 2_000: 2, 1_000: 3 }, coinsCents: 350 }, 'BOB')).toEqual({
      amountCents: 32_350,
      smallCents: 7_350,
      otherCents: 25_000,
    })
  })
  it('parses amounts typed with a comma or a point', () => {
    expect(parseAmount('12,5')).toBe(1_250)
    expect(parseAmount('3.05')).toBe(305)
    expect(parseAmount('7')).toBe(700)
    expect(parseAmount('1,234')).toBeNaN()
  })
})
