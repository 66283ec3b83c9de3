/**
 * CFG-2 / GEN-17: a cash count by denomination, as the cashier or the table counts it (how many of each note and
 * coin), turned into the split the AML rule needs: small denominations against the rest, the small ones being the
 * hall's profile's (profile.ts `cash`), never an amount typed at the till. Pure.
 */
import { DomainError } from './errors.ts'
import type { Profile } from './profile.ts'

/** How many notes or coins of each value (minor units, as the key) were handed over. */
export interface CashPieces {
  pieces: Readonly<Record<string, number>>
}

/** The count as GEN-17 records it: small notes and coins, and the rest. */
export interface CashSplit {
  smallCents: number
  otherCents: number
}

/** A count given by denomination, or (older clients) already split. */
export type CashTendered = CashSplit | CashPieces

export const isPieces = (cash: CashTendered): cash is CashPieces => 'pieces' in cash

/** The split of a count by denomination under the profile's notes and coins; refuses a denomination it has not. */
export function splitCash(profile: Pick<Profile, 'cash' | 'currency'>, cash: CashPieces): CashSplit {
  const { notesCents, coinsCents, smallCents } = profile.cash
  const known = new Set([...notesCents, ...coinsCents])
  let small = 0
  let other = 0
  for (const [key, count] of Object.entries(cash.pieces)) {
    const value = Number(key)
    if (!/^[1-9][0-9]*$/.test(key) || !known.has(value)) {
      throw new DomainError(
        'DENOMINATION_UNKNOWN',
        `${key} is not a note or coin of ${profile.currency} (CFG-2): ${[...notesCents, ...coinsCents].join(', ')}`,
        {
          field: `cash.pieces.${key}`,
          denomination: key,
          currency: profile.currency,
          notesCents: [...notesCents],
          coinsCents: [...coinsCents],
          rule: 'CFG-2',
        },
      )
    }
    if (!Number.isSafeInteger(count) || count < 0 || count > 100_000)
      throw new DomainError('VALIDATION_FAILED', `the count of ${key} must be a whole number 0..100000`, {
        field: `cash.pieces.${key}`,
      })
    if (smallCents.includes(value)) small += value * count
    else other += value * count
  }
  return { smallCents: small, otherCents: other }
}
