import type { Sql } from '../db/database.ts'

/**
 * The one thing a product line's settle use case (pay or refund a ticket) asks of the cash desk (issue 23 point 2):
 * called inside the settle's own transaction, so that the money leaving the drawer (or the cheque, or the voucher
 * credited) is recorded together with the payout or not at all. Product lines depend on this contract, never on
 * the cash desk: the cash desk passes its drawer movement in (cashdesk/cash.ts `cashOut`).
 */
export type OnPaid = (
  tx: Sql,
  paid: {
    amountCents: number
    currency: string
    refId: string
    at: string
    kind: 'prize_payout' | 'refund'
    /**
     * GEN-23 / GEN-27 (issue 23 point 3): the identity documents the line read on what it pays (a named slip's
     * buyer), as recorded, for the cash desk to ask the exclusion list about in this same transaction.
     */
    buyers?: readonly string[]
  },
) => Promise<void>
