/**
 * The cash a cashier counts for a voucher, split the way GEN-17 needs it: small denominations (CFG-2: Bs 10 and
 * Bs 20 notes, and coins) against the other notes. Pure, in minor units.
 */
export { cashBreakdown, cashPieces, type CashCount } from '../../../web/cash-count.ts'

/** "12,50" or "12.5" typed by a person, in minor units (NaN when it is not an amount). */
export function parseAmount(text: string): number {
  const t = text.trim().replace(/\s/g, '')
  if (!/^\d+([.,]\d{1,2})?$/.test(t)) return Number.NaN
  const [whole, frac = ''] = t.split(/[.,]/)
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'))
}
