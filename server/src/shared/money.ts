/**
 * Money is an integer count of minor units (centavos) plus an ISO 4217 currency taken from configuration.
 * Percentages are basis points (1 % = 100 bp) so that no float ever touches an amount.
 */
export type Cents = number

/** Share of an amount in basis points, rounded down to the centavo (the remainder stays with the house pool). */
export function shareOf(amountCents: Cents, basisPoints: number): Cents {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) throw new RangeError(`bad amount ${amountCents}`)
  if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000)
    throw new RangeError(`bad share ${basisPoints}`)
  // BigInt keeps the product exact for any safe amount.
  return Number((BigInt(amountCents) * BigInt(basisPoints)) / 10_000n)
}

/**
 * Splits a pool equally among `winnerCount` winners. Remainder rule (stated in README and the minutes):
 * every winner gets floor(pool / n); the `pool mod n` leftover centavos go one each to the first winners
 * in the order given (callers pass winners sorted by serial ascending). The parts always sum to the pool.
 */
export function splitEvenly(poolCents: Cents, winnerCount: number): Cents[] {
  if (!Number.isSafeInteger(poolCents) || poolCents < 0) throw new RangeError(`bad pool ${poolCents}`)
  if (!Number.isInteger(winnerCount) || winnerCount < 1) throw new RangeError(`bad winner count ${winnerCount}`)
  const base = Math.floor(poolCents / winnerCount)
  const extra = poolCents - base * winnerCount
  return Array.from({ length: winnerCount }, (_, i) => base + (i < extra ? 1 : 0))
}

/** Formats minor units for people, e.g. formatMoney(123456, 'BOB', 'es') -> "Bs 1.234,56". */
export function formatMoney(amountCents: Cents, currency: string, locale = 'es'): string {
  const minor = currency === 'CLP' ? 0 : 2
  const value = minor === 0 ? amountCents : amountCents / 100
  const tag = locale.startsWith('en') ? 'en-US' : currency === 'EUR' ? 'es-ES' : currency === 'CLP' ? 'es-CL' : 'es-BO'
  const key = `${tag}|${currency}|${minor}`
  let format = moneyFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(tag, {
      style: 'currency',
      currency,
      // In English too the hall's own sign (Bs, $), as its prices and the server's messages write it, never the
      // ISO code ("BOB 5.00") that en-US falls back to for a currency it has no symbol for.
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: minor,
      maximumFractionDigits: minor,
    })
    moneyFormats.set(key, format)
  }
  return format.format(value)
}

/** Building an Intl formatter costs far more than using one: one per locale, currency and precision, kept. */
const moneyFormats = new Map<string, Intl.NumberFormat>()
