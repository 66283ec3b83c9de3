/**
 * What a refusal from the server means to the player at the kiosk: one of the screen's own problems, said in words
 * (texts.ts), never the server's code, an id or its English detail. Every code the kiosk's sale path (reading a
 * voucher, buying a basket) can answer with has its problem here; `refusals.test.ts` reads those codes from the
 * server's code, so a new refusal on the path without words here fails it.
 */
import { ApiError } from '../../../web/cashdesk-api.ts'
import type { Problem } from './texts.ts'

/** The sale path's refusal codes, each with the problem the player is shown. */
export const PROBLEM_BY_CODE: Readonly<Record<string, Problem>> = {
  // The voucher itself.
  INVALID_SIGNATURE: 'voucher_invalid',
  // A code that matches no voucher (one character mistyped) is not a voucher of another hall: said apart.
  TICKET_NOT_FOUND: 'voucher_not_found',
  WRONG_HALL: 'voucher_other_hall',
  VOUCHER_SPENT: 'voucher_spent',
  VOUCHER_EXPIRED: 'voucher_expired',
  VOUCHER_INSUFFICIENT: 'voucher_empty',
  // Issue 24 point 1: a voucher (or a row the sale pays from) changed behind the journal is not spent anywhere; the
  // player is sent to the cash desk, never shown the code or told to try again.
  ROW_TAMPERED: 'not_usable',
  // GEN-25: a hall that sells only to identified players, and the voucher names nobody.
  PLAYER_ID_REQUIRED: 'id_required',
  // GEN-23 / GEN-27: said without naming the list on a screen others can read; the desk knows why.
  PLAYER_EXCLUDED: 'not_admitted',
  // GEN-23 / CFG-5: the age question unanswered.
  AGE_NOT_CONFIRMED: 'age',
  // What is on sale.
  SALES_CLOSED: 'sales_closed',
  SALES_NOT_OPEN: 'sales_closed',
  GAME_NOT_FOUND: 'sales_closed',
  DRAW_NOT_FOUND: 'sales_closed',
  ILLEGAL_TRANSITION: 'sales_closed',
  SERIES_EXHAUSTED: 'sold_out',
  NUMBERS_TAKEN: 'numbers_taken',
  CHOSEN_NUMBERS_INVALID: 'numbers_invalid',
  RULE_DISABLED: 'instant_disabled',
  // BNG-40 / GEN-18 / CFG-16: the hall's posted limits; BNG-93: no seat left; BNG-19: entry closed; BNG-15.
  BET_OUT_OF_LIMITS: 'limits',
  HALL_FULL: 'hall_full',
  HALL_ENTRY_CLOSED: 'entry_closed',
  PREVIOUS_CARDS_NOT_RETURNED: 'previous_cards',
  // The basket as sent (a count, a currency) rather than the voucher: the player checks the purchase.
  VALIDATION_FAILED: 'basket_invalid',
  // The kiosk cannot sell at all now: its marks, the hall's licence or authorisations, its credential.
  DEVICE_MARKS_MISSING: 'out_of_service',
  PRINTER_MARKS_MISSING: 'out_of_service',
  OPERATING_LICENCE_REQUIRED: 'out_of_service',
  BET_LIMITS_NOT_AUTHORISED: 'out_of_service',
  FACE_VALUE_NOT_AUTHORISED: 'out_of_service',
  FACE_VALUES_NOT_RECORDED: 'out_of_service',
  CHOSEN_NUMBERS_CHANNEL: 'out_of_service',
  SECOND_PERSON_REQUIRED: 'out_of_service',
  UNAUTHORIZED: 'out_of_service',
  FORBIDDEN: 'out_of_service',
  PASSWORD_CHANGE_REQUIRED: 'out_of_service',
  UNSUPPORTED_MEDIA_TYPE: 'out_of_service',
  NOT_FOUND: 'out_of_service',
  // Busy for a moment: the same purchase again is the answer.
  CONFLICT: 'busy',
  RATE_LIMITED: 'busy',
  NETWORK: 'network',
}

/** Problems that the player cannot mend at the kiosk: said on the big screen, with the way to the cash desk. */
export const DESK_PROBLEMS: ReadonlySet<Problem> = new Set<Problem>([
  'not_usable',
  'not_admitted',
  'id_required',
  'out_of_service',
])

/** What a refusal from the server means to the player (never its code: the texts say it in words). */
export function problemOf(err: unknown, at: 'voucher' | 'purchase' = 'purchase'): Problem {
  if (!(err instanceof ApiError)) return 'other'
  if (err.code === 'DEVICE_UNAVAILABLE')
    return (err.details as { reason?: string } | undefined)?.reason === 'paper_out'
      ? 'printer_paper'
      : 'printer_offline'
  // A voucher read that fails validation is the code typed, as is a purchase refused on its voucher field.
  if (err.code === 'VALIDATION_FAILED') {
    const field = (err.details as { field?: string } | undefined)?.field
    if (at === 'voucher' || field === 'voucherCode' || field === 'code') return 'voucher_invalid'
  }
  return PROBLEM_BY_CODE[err.code] ?? 'other'
}
