/**
 * BNG-12: where a game's sale of a series starts. Pure: the time and the hall's time zone arrive as values.
 *
 * Cards are sold correlatively. A game starts with card 1 of a series that begins, or with the card after the
 * last one sold in an earlier game. Bolivia (002 §6.1.5): any earlier game. Cantabria (004 Bingo II.1.a): only a
 * game "held the same day or the previous day". A Cantabrian series idle longer may not continue; and it may not
 * start again at card 1 either, since its cards 1..n were sold (each card of a series is sold once). It has
 * lapsed: the hall puts a new series on sale. Days are calendar days of the hall's time zone, not of UTC.
 */
import type { Profile } from '../shared/profile.ts'

export type SeriesStart =
  { kind: 'continue'; startCardNo: number } | { kind: 'lapsed'; lastSaleDay: string; today: string; idleDays: number }

/** The calendar day (YYYY-MM-DD) of an instant in an IANA time zone. */
export function localDay(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at)
  const get = (t: string) => parts.find((p) => p.type === t)!.value
  return `${get('year')}-${get('month')}-${get('day')}`
}

/** Whole calendar days from day `a` to day `b` (both YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  const utc = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)))
  return Math.round((utc(b) - utc(a)) / 86_400_000)
}

/** True if `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone })
    return true
  } catch {
    return false
  }
}

/**
 * Where the next game's sale of a series starts. `nextCardNo` is the series' cursor (the card after the last
 * one sold); the result never goes below it, so a sold card is never offered again.
 */
export function seriesStart(input: {
  nextCardNo: number
  lastSoldAt: string | null
  now: Date
  carry: Profile['seriesCursorCarry']
  timeZone: string
}): SeriesStart {
  const { nextCardNo, lastSoldAt, now, carry, timeZone } = input
  // A series that never sold a card begins at card 1 (its cursor), whatever the day.
  if (lastSoldAt === null || nextCardNo === 1 || carry === 'any-previous-game')
    return { kind: 'continue', startCardNo: nextCardNo }
  const lastSaleDay = localDay(new Date(lastSoldAt), timeZone)
  const today = localDay(now, timeZone)
  const idleDays = daysBetween(lastSaleDay, today)
  // BNG-12 (Cantabria): the same day (0) or the previous day (1) continues; older has lapsed.
  if (idleDays <= 1) return { kind: 'continue', startCardNo: nextCardNo }
  return { kind: 'lapsed', lastSaleDay, today, idleDays }
}
