/**
 * GEN-23 (1) and (5): no one under age, and no one who cannot be identified, takes part in any game (002
 * §1.2.2.2; CFG-5 the profile's minimum age). Whoever hands the game over asks: the player at a kiosk or a hall
 * terminal answers the question on its screen; at a counter (a cashier station or the caller's table) the person
 * selling confirms it for each sale, having seen the player's document. The channel is the one the request came
 * through (the station that takes the cash, the kiosk or terminal that takes the voucher), never the body.
 */
import { DomainError } from './errors.ts'

export type SaleChannel = 'kiosk' | 'counter' | 'terminal'

/** Refuses a sale whose channel did not confirm the player is of age (AGE_NOT_CONFIRMED, 400). */
export function assertOfAge(channel: SaleChannel, confirmed: unknown): void {
  if (confirmed === true) return
  const who = channel === 'counter' ? 'the seller must confirm the player is' : 'the player must confirm being'
  throw new DomainError('AGE_NOT_CONFIRMED', `${who} of age before any sale (GEN-23)`, {
    field: 'ageConfirmed',
    rule: 'GEN-23',
    channel,
  })
}
