/**
 * The cashier's reading of a scan. The server answers every scan and payout in one shape (`view`, `paid`: the
 * server's cashdesk/ticket-answer.ts, shared with this screen); what is left here is the screen's own: the refusals
 * of a bad code that come back as errors rather than answers.
 */
import { invalidView, ticketOfCode, type ScanView } from '../../../server/src/cashdesk/ticket-answer.ts'

export { invalidView, productOfCode, readTyped, ticketOfCode } from '../../../server/src/cashdesk/ticket-answer.ts'
export type {
  InvalidWhy,
  PaidView,
  PrizeLabel,
  PrizeRow,
  Product,
  ScanView,
  TicketIds,
  TypedCode,
  Verdict,
} from '../../../server/src/cashdesk/ticket-answer.ts'

/** An error of the scan request that is an answer about the code (the instant service refuses bad codes so). */
export function invalidFromError(code: string, errorCode: string, detail: string | undefined): ScanView | null {
  const p = ticketOfCode(code)
  if (errorCode === 'INVALID_SIGNATURE')
    return invalidView(p, p === 'instant' && !code.startsWith('BLL1.') ? 'counterfeit' : 'signature', detail ?? null)
  if (errorCode === 'TICKET_NOT_FOUND' || errorCode === 'NOT_FOUND') return invalidView(p, 'unknown', detail ?? null)
  if (errorCode === 'VALIDATION_FAILED' && p === 'instant')
    return invalidView(p, /inventory code/.test(detail ?? '') ? 'inventory' : 'mistyped', detail ?? null)
  return null
}
