/**
 * REGULATIONS.md §8 / GEN-7 (issue 26): a lotto slip, lottery fraction or raffle ticket judged at a cash desk is
 * journaled as a bingo card's `ticket.validated` is: the ticket and its kind, the outcome, the station and its seal
 * code, the cashier (and the acting person, added by the journal). Never the player's name or document, nor the
 * bearer code: only the ticket's id, which pays nothing without its signed code.
 */
import type { Sql } from '../db/database.ts'
import { sealCodeOfDevice } from '../access/device-marks.ts'
import { appendJournal } from '../shared/journal.ts'

export interface ValidationRecord {
  at: string
  /** `lotto.ticket_validated`, `lottery.ticket_validated`, `raffle.ticket_validated`. */
  type: string
  scope: string
  kind: string
  ticketId: string | null
  drawIds: string[]
  outcome: string
  amountCents: number
}

export async function journalValidation(
  tx: Sql,
  v: ValidationRecord,
  who: { stationId?: string; cashierId?: string },
): Promise<void> {
  await appendJournal(tx, {
    at: v.at,
    type: v.type,
    scope: v.scope,
    payload: {
      ticketId: v.ticketId,
      kind: v.kind,
      drawIds: v.drawIds,
      outcome: v.outcome,
      amountCents: v.amountCents,
      stationId: who.stationId ?? null,
      sealCode: await sealCodeOfDevice(tx, who.stationId),
      cashierId: who.cashierId ?? null,
      rule: '§8',
    },
  })
}
