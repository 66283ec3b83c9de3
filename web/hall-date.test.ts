import { describe, expect, it } from 'vitest'
import { dayText, hallWallValue, readDayMonthYear, readTime24, splitWallValue } from './hall-date.ts'

describe("a date and time typed on the hall's convention (issue 29 point 4)", () => {
  it('reads the day first, never the month first, and refuses a day that does not exist', () => {
    expect(readDayMonthYear('03/11/2026')).toBe('2026-11-03')
    expect(readDayMonthYear('3/11/2026')).toBe('2026-11-03')
    expect(readDayMonthYear('14-03-2026')).toBe('2026-03-14')
    expect(readDayMonthYear('14.03.2026')).toBe('2026-03-14')
    // What an en-US picker would mean by 03/14/2026 is no day here: month 14.
    expect(readDayMonthYear('03/14/2026')).toBeNull()
    expect(readDayMonthYear('31/04/2026')).toBeNull()
    expect(readDayMonthYear('29/02/2027')).toBeNull()
    expect(readDayMonthYear('29/02/2028')).toBe('2028-02-29')
    expect(readDayMonthYear('2026-03-14')).toBeNull()
  })
  it('reads a 24-hour time and refuses AM/PM and impossible times', () => {
    expect(readTime24('18:30')).toBe('18:30')
    expect(readTime24('9:05')).toBe('09:05')
    expect(readTime24('00:00')).toBe('00:00')
    expect(readTime24('24:00')).toBeNull()
    expect(readTime24('6:30 PM')).toBeNull()
    expect(readTime24('18:60')).toBeNull()
  })
  it('joins the pair into the wall-clock value, empty when both are, null when either is wrong', () => {
    expect(hallWallValue('14/03/2026', '18:30')).toBe('2026-03-14T18:30')
    expect(hallWallValue('', '')).toBe('')
    expect(hallWallValue('14/03/2026', '')).toBeNull()
    expect(hallWallValue('14/03/2026', '6:30 PM')).toBeNull()
    expect(splitWallValue('2026-03-14T18:30')).toEqual({ date: '14/03/2026', time: '18:30' })
    expect(splitWallValue('')).toEqual({ date: '', time: '' })
  })
  it('shows a day-only value day first, and nothing for what is not a day', () => {
    expect(dayText('2026-03-14')).toBe('14/03/2026')
    expect(readDayMonthYear(dayText('2028-02-29'))).toBe('2028-02-29')
    expect(dayText('2026-03-14T18:30')).toBe('')
    expect(dayText('')).toBe('')
  })
})
