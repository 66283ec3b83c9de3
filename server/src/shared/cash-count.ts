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

declare const fromProfile: unique symbol

/**
 * The count as GEN-17 records it: small notes and coins, and the rest. Made only by `splitCash` from a count by
 * piece under the hall's profile (the brand), so no amount typed at a till or sent in a body can stand for it.
 */
export interface CashSplit {
  readonly smallCents: number
  readonly otherCents: number
  readonly [fromProfile]: true
}

/**
 * CFG-2 (issue 26): a cash count is taken by note and coin only. The old form, the split itself
 * (`{ smallCents, otherCents }`) as a cashier or a client states it, is refused (CASH_COUNT_BY_PIECE), whoever
 * calls: small is what the hall's profile says, never what a request says. null: not counted.
 */
export function assertCountedByPiece(cash: unknown): asserts cash is CashPieces | null {
  if (cash === null || cash === undefined) return
  const pieces = typeof cash === 'object' ? (cash as { pieces?: unknown }).pieces : undefined
  if (typeof pieces === 'object' && pieces !== null && !Array.isArray(pieces)) return
  throw new DomainError(
    'CASH_COUNT_BY_PIECE',
    'count the cash by note and coin (cash.pieces: how many of each, by value in minor units); a split into small and other is not taken (CFG-2)',
    { field: 'cash', rule: 'CFG-2' },
  )
}

/** The split of a count by denomination under the profile's notes and coins; refuses a denomination it has not. */
export function splitCash(profile: Pick<Profile, 'cash' | 'currency'>, cash: CashPieces): CashSplit {
  assertCountedByPiece(cash)
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
  return { smallCents: small, otherCents: other } as CashSplit
}
