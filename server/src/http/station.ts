/**
 * Issue 13: which station's drawer takes the cash of a counter sale, and who sold. The station is the one a person
 * logged in at (`principalOf(c).device`, through http/till.ts), never a name from the body; a station's credential
 * alone moves no cash. A kiosk has no drawer: it sells only against a voucher.
 */
import { DomainError } from '../shared/errors.ts'
import { principalOf, type AppContext } from './context.ts'
import type { Services } from '../services.ts'
import { tillOf } from './till.ts'
import { tillChannelOfRole } from '../access/roles.ts'
import { z } from 'zod'

/**
 * CFG-2 (issue 26): the cash count of an intake, by denomination only (`pieces`: how many of each note and coin, by
 * its value in minor units), split into small and other by the hall's profile in the use case (cash-intake.ts). The
 * old form, the split itself (`smallCents`, `otherCents`), is refused with CASH_COUNT_BY_PIECE (context.ts body):
 * a client cannot say which of its cash is small.
 */
export const cashCount = z
  .object({
    pieces: z
      .record(z.string().max(12), z.number().int().min(0).max(100_000))
      .refine((p) => Object.keys(p).length <= 40, {
        message: 'at most 40 denominations',
      })
      .optional(),
    smallCents: z.unknown().optional(),
    otherCents: z.unknown().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.smallCents !== undefined || v.otherCents !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: 'count the cash by note and coin (cash.pieces); a split into small and other is not taken (CFG-2)',
        params: { errorCode: 'CASH_COUNT_BY_PIECE' },
      })
    else if (v.pieces === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['pieces'],
        message: 'the count by note and coin (cash.pieces) is required',
      })
  })
  .transform((v) => ({ pieces: v.pieces ?? {} }))
/**
 * GEN-17 (issue 24 point 6): what every counter sale's body may carry about its cash: the count by note and coin
 * (required over the limit, cash-intake.ts) and the buyer's identity document.
 */
export const counterCashFields = {
  cash: cashCount.optional(),
  buyerDocument: z.string().min(4).max(40).optional(),
  /** GEN-23: the seller's tick that the player is of age; the sale refuses without it (AGE_NOT_CONFIRMED). */
  ageConfirmed: z.boolean().optional(),
}

/**
 * The drawer a counter sale's cash goes into (issue 13 point 2, point 5): with authentication on, the open shift of
 * the person logged in at an enrolled cashier station (STATION_REQUIRED, SHIFT_NOT_OPEN otherwise), so the sale is
 * one of the shift's movements and counts in its arqueo. A kiosk has no drawer: it sells only against a voucher.
 */
export async function counterTill(
  c: AppContext,
  services: Services,
  claimed?: string,
): Promise<{ stationId: string; soldBy: string; shiftId: string | null }> {
  const who = principalOf(c)
  if (who.role === 'kiosk' || who.device?.kind === 'kiosk') {
    throw new DomainError(
      'KIOSK_VOUCHER_ONLY',
      'a kiosk sells only against a credit voucher (POST /api/kiosk/purchases)',
      { rule: 'GEN-14' },
    )
  }
  // Authentication off (tests that say why): nothing is proven, the body names the drawer.
  if (!c.get('authOn')) return { stationId: claimed ?? 'counter', soldBy: who.id, shiftId: null }
  const till = await tillOf(c, services, {})
  return { stationId: till.stationId, soldBy: till.cashierId, shiftId: till.shiftId }
}

/** The kiosk making a voucher purchase: the enrolled kiosk itself (with authentication off, the body's name). */
export function kioskStation(c: AppContext, claimed: string): string {
  const who = principalOf(c)
  if (who.kind === 'device') return who.id
  if (who.device) return who.device.id
  return claimed
}

/**
 * CFG-7: the channel a card sale at a till is made through, from who is logged in (never the body): the table's
 * staff (jefe de mesa, jefe de sala, locutor, director) sell at the caller's table; a cashier (or a station's own
 * credential) at the counter.
 */
export function tillChannel(c: AppContext): 'counter' | 'table' {
  return tillChannelOfRole(String(principalOf(c).role))
}
