import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ballCall, englishWords, MAX_WORDS_NUMBER, numberWords, spanishWords } from './number-words.ts'

describe('spanishWords', () => {
  it.each([
    [0, 'cero'],
    [1, 'uno'],
    [9, 'nueve'],
    [10, 'diez'],
    [11, 'once'],
    [15, 'quince'],
    [16, 'dieciséis'],
    [19, 'diecinueve'],
    [20, 'veinte'],
    [21, 'veintiuno'],
    [22, 'veintidós'],
    [23, 'veintitrés'],
    [26, 'veintiséis'],
    [29, 'veintinueve'],
    [30, 'treinta'],
    [31, 'treinta y uno'],
    [45, 'cuarenta y cinco'],
    [58, 'cincuenta y ocho'],
    [67, 'sesenta y siete'],
    [77, 'setenta y siete'],
    [88, 'ochenta y ocho'],
    [90, 'noventa'],
    [99, 'noventa y nueve'],
    [100, 'cien'],
    [101, 'ciento uno'],
    [115, 'ciento quince'],
    [200, 'doscientos'],
    [345, 'trescientos cuarenta y cinco'],
    [500, 'quinientos'],
    [777, 'setecientos setenta y siete'],
    [999, 'novecientos noventa y nueve'],
    [1000, 'mil'],
    [1001, 'mil uno'],
    [2000, 'dos mil'],
    [21_000, 'veintiún mil'],
    [31_000, 'treinta y un mil'],
    [100_000, 'cien mil'],
    [101_000, 'ciento un mil'],
    [999_999, 'novecientos noventa y nueve mil novecientos noventa y nueve'],
  ])('says %i as "%s"', (n, words) => {
    expect(spanishWords(n)).toBe(words)
  })

  it('gives every ball of a 90-ball set a distinct, non-empty name', () => {
    const names = Array.from({ length: 90 }, (_, i) => spanishWords(i + 1))
    expect(new Set(names).size).toBe(90)
    for (const name of names) expect(name).toMatch(/^[a-záéíóúñ ]+$/)
  })

  it('never produces doubled or stray spaces and is injective up to the maximum', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_WORDS_NUMBER }),
        fc.integer({ min: 0, max: MAX_WORDS_NUMBER }),
        (a, b) => {
          const wa = spanishWords(a)
          expect(wa).toBe(wa.trim())
          expect(wa).not.toMatch(/ {2}/)
          if (a !== b) expect(wa).not.toBe(spanishWords(b))
        },
      ),
    )
  })

  it('refuses numbers it cannot say', () => {
    expect(() => spanishWords(-1)).toThrow(RangeError)
    expect(() => spanishWords(4.5)).toThrow(RangeError)
    expect(() => spanishWords(1_000_000)).toThrow(RangeError)
    expect(() => spanishWords(Number.NaN)).toThrow(RangeError)
  })
})

describe('englishWords', () => {
  it.each([
    [0, 'zero'],
    [7, 'seven'],
    [13, 'thirteen'],
    [20, 'twenty'],
    [45, 'forty-five'],
    [90, 'ninety'],
    [100, 'one hundred'],
    [115, 'one hundred and fifteen'],
    [1000, 'one thousand'],
    [1005, 'one thousand and five'],
    [21_345, 'twenty-one thousand three hundred and forty-five'],
  ])('says %i as "%s"', (n, words) => {
    expect(englishWords(n)).toBe(words)
  })
})

describe('ballCall', () => {
  it('calls a ball the way a Spanish-speaking caller does', () => {
    expect(ballCall(45, 'es')).toBe('el cuarenta y cinco')
    expect(ballCall(1, 'es')).toBe('el uno')
    expect(ballCall(90, 'es')).toBe('el noventa')
  })

  it('calls in English when the screen is in English', () => {
    expect(ballCall(45, 'en')).toBe('forty-five')
    expect(numberWords(16, 'en')).toBe('sixteen')
    expect(numberWords(16, 'es')).toBe('dieciséis')
  })
})
