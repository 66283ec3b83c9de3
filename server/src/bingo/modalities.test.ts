import { describe, expect, it } from 'vitest'
import { LAYOUT_75, LAYOUT_90, generateMasterSet, validateCard } from './card.ts'
import { DomainError } from '../shared/errors.ts'
import { bingoPlusLayout, derivedLayout, evenColumns, fastBingoLayout, layoutForModality } from './modalities.ts'

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
    expect(evenColumns(48, 5)).toEqual([[1, 10], [11, 20], [21, 30], [31, 39], [40, 48]])
  })

  it('gives 90 and 75 balls for the ordinary and the 5 x 5 games', () => {
    expect(layoutForModality('ordinary-90')).toBe(LAYOUT_90)
    expect(layoutForModality('bingo-75')).toBe(LAYOUT_75)
  })

  it('plays bingo plus on 1..100 with cards of 5 to 20 numbers', () => {
    for (const [rows, perRow] of [[1, 5], [2, 5], [4, 5], [2, 10], [5, 4]]) {
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

  it('plays derived bingo on 6 to 100 numbers with cards of 6 to 20 numbers', () => {
    expect(derivedLayout({ ballCount: 6, rows: 2, perRow: 3 }).ballCount).toBe(6)
    expect(derivedLayout({ ballCount: 100, rows: 4, perRow: 5 }).ballCount).toBe(100)
    expect(code(() => derivedLayout({ ballCount: 5, rows: 1, perRow: 5 }))).toBe('VALIDATION_FAILED')
    expect(code(() => derivedLayout({ ballCount: 101, rows: 2, perRow: 3 }))).toBe('VALIDATION_FAILED')
    expect(code(() => derivedLayout({ ballCount: 60, rows: 1, perRow: 5 }))).toBe('VALIDATION_FAILED') // 5 numbers
    expect(code(() => derivedLayout({ ballCount: 60, rows: 3, perRow: 7 }))).toBe('VALIDATION_FAILED') // 21 numbers
  })

  it('plays fast bingo as one row of picks from the universe', () => {
    const layout = fastBingoLayout({ ballCount: 30, picks: 5 })
    for (const card of generateMasterSet('fast', 50, layout)) {
      expect(validateCard(card, layout)).toEqual([])
      expect(card.grid).toHaveLength(1)
    }
  })
})
