/**
 * GEN-25 (design note on 002 §1.2.2.2): a hall may require a verified player before selling; then no sale, on any
 * channel, goes to an anonymous buyer, and the document it names is the one the exclusion list was asked about
 * (GEN-27). Decided from the hall of the sale (its settings) and the document the sale records (the counter's
 * buyer or named player, the voucher's buyer at a kiosk or terminal), never from a flag in the body.
 */
import { DomainError } from './errors.ts'
import type { SaleChannel } from './player-age.ts'

export function assertIdentifiedWhereRequired(
  hall: { id: string; identifiedSales: boolean },
  document: string | null | undefined,
  channel: SaleChannel,
): void {
  if (!hall.identifiedSales || (document ?? '').trim()) return
  throw new DomainError('PLAYER_ID_REQUIRED', `hall ${hall.id} sells only to identified players (GEN-25)`, {
    field: channel === 'counter' ? 'buyerDocument' : 'voucherCode',
    rule: 'GEN-25',
    channel,
    hallId: hall.id,
  })
}
