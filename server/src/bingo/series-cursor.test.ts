import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { daysBetween, localDay, seriesStart } from './series-cursor.ts'

const madrid = 'Europe/Madrid'
const laPaz = 'America/La_Paz'

describe('BNG-12: where a series continues', () => {
  it("counts days in the hall's time zone: 23:30 in Madrid on the 10th is still the 10th there", () => {
    expect(localDay(new Date('2026-03-10T22:30:00Z'), madrid)).toBe('2026-03-10')
    expect(localDay(new Date('2026-03-10T23:30:00Z'), madrid)).toBe('2026-03-11')
    expect(localDay(new Date('2026-03-11T02:00:00Z'), laPaz)).toBe('2026-03-10')
  })

  it('Cantabria: a sale the previous local day continues, although more than 24 h and two UTC dates apart', () => {
    // Last sale 00:30 Madrid on the 11th (23:30 UTC on the 10th); now 01:30 Madrid on the 12th (UTC 12th).
    const r = seriesStart({
      nextCardNo: 6,
      lastSoldAt: '2026-03-10T23:30:00.000Z',
      now: new Date('2026-03-12T00:30:00Z'),
      carry: 'same-or-previous-day',
      timeZone: madrid,
    })
    expect(r).toEqual({ kind: 'continue', startCardNo: 6 })
  })

  it('Cantabria: two local days idle lapses the series, although only one UTC date apart', () => {
    // Last sale 23:30 Madrid on the 10th; now 00:30 Madrid on the 12th (23:30 UTC on the 11th).
    const r = seriesStart({
      nextCardNo: 6,
      lastSoldAt: '2026-03-10T22:30:00.000Z',
      now: new Date('2026-03-11T23:30:00Z'),
      carry: 'same-or-previous-day',
      timeZone: madrid,
    })
    expect(r).toMatchObject({ kind: 'lapsed', lastSaleDay: '2026-03-10', today: '2026-03-12', idleDays: 2 })
  })

  it('Bolivia: any earlier game carries the cursor, however long ago', () => {
    const r = seriesStart({
      nextCardNo: 41,
      lastSoldAt: '2025-01-01T12:00:00.000Z',
      now: new Date('2026-03-12T00:30:00Z'),
      carry: 'any-previous-game',
      timeZone: laPaz,
    })
    expect(r).toEqual({ kind: 'continue', startCardNo: 41 })
  })

  it('a series that never sold begins at card 1 on any day', () => {
    // Fixed days, not the machine's (a leap day, a year end in Madrid, a date years ahead): the test passes alike on any.
    for (const now of ['2028-02-29T12:00:00Z', '2027-12-31T23:30:00Z', '2031-03-01T00:00:00Z']) {
      expect(
        seriesStart({
          nextCardNo: 1,
          lastSoldAt: null,
          now: new Date(now),
          carry: 'same-or-previous-day',
          timeZone: madrid,
        }),
      ).toEqual({ kind: 'continue', startCardNo: 1 })
    }
  })

  it('never offers a sold card again: the start is the cursor or the series has lapsed (property)', () => {
    const zones = fc.constantFrom(madrid, laPaz, 'UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago')
    const t = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) })
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        t,
        fc.integer({ min: 0, max: 10 * 86_400_000 }),
        zones,
        fc.constantFrom('same-or-previous-day', 'any-previous-game' as const),
        (next, last, gap, tz, carry) => {
          const r = seriesStart({
            nextCardNo: next,
            lastSoldAt: new Date(last).toISOString(),
            now: new Date(last + gap),
            carry: carry as 'same-or-previous-day',
            timeZone: tz,
          })
          if (r.kind === 'continue') {
            expect(r.startCardNo).toBe(next)
            if (carry === 'same-or-previous-day' && next > 1)
              expect(daysBetween(localDay(new Date(last), tz), localDay(new Date(last + gap), tz))).toBeLessThanOrEqual(
                1,
              )
          } else {
            expect(carry).toBe('same-or-previous-day')
            expect(r.idleDays).toBeGreaterThanOrEqual(2)
          }
        },
      ),
    )
  })
})
