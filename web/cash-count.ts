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
