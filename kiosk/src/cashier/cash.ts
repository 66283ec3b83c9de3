/**
 * The cash a cashier counts for a voucher, split the way GEN-17 needs it: small denominations (CFG-2: Bs 10 and
 * Bs 20 notes, and coins) against the other notes. Pure, in minor units.
 */
import { NOTES } from './texts.ts'

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

/** "12,50" or "12.5" typed by a person, in minor units (NaN when it is not an amount). */
export function parseAmount(text: string): number {
  const t = text.trim().replace(/\s/g, '')
  if (!/^\d+([.,]\d{1,2})?$/.test(t)) return Number.NaN
  const [whole, frac = ''] = t.split(/[.,]/)
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'))
}
