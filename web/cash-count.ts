/**
 * The cash a cashier or a table counts for a sale, split the way GEN-17 needs it: small denominations (CFG-2: Bs 10
 * and Bs 20 notes, and coins) against the other notes. Pure, in minor units; shared by the cashier's voucher sale and
 * the table's counter sale (issue 24 point 6: every cash intake records its denominations).
 */

/** Notes of each currency and whether they count as small denominations for GEN-17 (CFG-2: Bs 10, Bs 20, coins). */
export const NOTES: Record<string, Array<{ cents: number; small: boolean }>> = {
  BOB: [
    { cents: 20_000, small: false },
    { cents: 10_000, small: false },
    { cents: 5_000, small: false },
    { cents: 2_000, small: true },
    { cents: 1_000, small: true },
  ],
  EUR: [
    { cents: 50_000, small: false },
    { cents: 20_000, small: false },
    { cents: 10_000, small: false },
    { cents: 5_000, small: false },
    { cents: 2_000, small: false },
    { cents: 1_000, small: false },
    { cents: 500, small: false },
  ],
}

export interface CashCount {
  notes: Readonly<Record<number, number>>
  coinsCents: number
}

export function cashBreakdown(
  count: CashCount,
  currency: string,
): { amountCents: number; smallCents: number; otherCents: number } {
  let small = Math.max(0, Math.round(count.coinsCents))
  let other = 0
  for (const note of NOTES[currency] ?? []) {
    const n = Math.max(0, Math.floor(count.notes[note.cents] ?? 0))
    if (note.small) small += n * note.cents
    else other += n * note.cents
  }
  return { amountCents: small + other, smallCents: small, otherCents: other }
}

/** The coins of each currency, largest first (the server checks every one against the hall's profile, CFG-2). */
export const COINS: Record<string, number[]> = {
  BOB: [500, 200, 100, 50, 20, 10],
  EUR: [200, 100, 50, 20, 10, 5, 2, 1],
}

/** A cash count as a request carries it: by note and coin only (CFG-2; the server refuses the split itself). */
export type CashSent = { pieces: Record<string, number> }

/**
 * CFG-2: the count as the server takes it, how many of each note and coin; the server decides which are small by
 * the hall's profile. The coins' total is given as coins, largest first; what no coin makes (Bs 0,05) is sent as it
 * is, and the server refuses it with the currency's notes and coins.
 */
export function cashPieces(count: CashCount, currency: string): { pieces: Record<string, number> } {
  const pieces: Record<string, number> = {}
  for (const note of NOTES[currency] ?? []) {
    const n = Math.max(0, Math.floor(count.notes[note.cents] ?? 0))
    if (n > 0) pieces[String(note.cents)] = n
  }
  let rest = Math.max(0, Math.round(count.coinsCents))
  for (const coin of COINS[currency] ?? []) {
    const n = Math.floor(rest / coin)
    if (n > 0) pieces[String(coin)] = (pieces[String(coin)] ?? 0) + n
    rest -= n * coin
  }
  if (rest > 0) pieces[String(rest)] = (pieces[String(rest)] ?? 0) + 1
  return { pieces }
}
