/**
 * BNG-69: a paid prima (or interconnected, progressive, lucky-ball) prize prints its detailed receipt for the player
 * and its duplicate, marked DUPLICADO, attached to the winning card with the ball extraction order and the card's
 * series; BNG-70: both say whether it was paid in cash or by cheque (and the cheque's number). Printed after the
 * payment's commit at the paying station's printer: paying is a fact whether or not the paper comes out, and a
 * failed receipt is printed again from the prize (POST /api/bonus-prizes/:prizeId/receipt/print). Issue 23: the prize
 * itself is paid with its card at the cash desk (POST /api/tickets/pay), which prints this after its commit.
 */
import { DomainError } from '../shared/errors.ts'
import { bonusPrizeReceipt, type PrintDoc } from '../../../printer/src/ticket-layout.ts'
import { ticketPreviewDataUrl } from '../../../printer/src/preview.ts'
import type { PrinterPool, PrintResult } from '../../../printer/src/printers.ts'
import type { BonusReceipt } from './bonus-service.ts'

export type BonusPrint =
  | {
      printed: true
      copies: ['original', 'duplicate']
      print: PrintResult
      previews: { original: string; duplicate: string }
    }
  | { printed: false; error: { code: string; reason: string | null; message: string } }

/** The receipt and its duplicate as print documents. */
export function bonusReceiptDocs(r: BonusReceipt, paper: PrintDoc['paper'], timeZone: string): [PrintDoc, PrintDoc] {
  if (r.status !== 'paid' || !r.payment || !r.paidAt)
    throw new DomainError('NOT_VERIFIED', `bonus prize ${r.prizeId} is not paid: no receipt yet`)
  const ticket = {
    prizeId: r.prizeId,
    hallName: r.hallName,
    name: r.name,
    source: r.source,
    gameNo: r.gameOrderNo,
    accumulatedGames: r.accumulatedGames,
    amountCents: r.amountCents,
    currency: r.currency,
    seriesCode: r.seriesCode,
    cardNo: r.cardNo,
    serial: r.serial,
    balls: r.balls,
    atBall: r.atBall,
    paidAt: r.paidAt,
    payment: r.payment,
    payeeName: r.payee?.name ?? null,
    payeeDocument: r.payee?.document ?? null,
    paidBy: r.paidBy ?? '-',
  }
  return [
    bonusPrizeReceipt(ticket, 'original', { paper, timeZone }),
    bonusPrizeReceipt(ticket, 'duplicate', { paper, timeZone }),
  ]
}

/** Prints both copies in one job at `stationId`'s printer (the hall's default printer when there is no station). */
export async function printBonusReceipt(
  printers: PrinterPool,
  r: BonusReceipt,
  stationId: string | null,
  timeZone: string,
): Promise<BonusPrint> {
  const printer = printers.forStation(stationId ?? '')
  const docs = bonusReceiptDocs(r, printer.paper, timeZone)
  try {
    const print = await printer.print(docs, `bonus-${r.prizeId}`)
    return {
      printed: true,
      copies: ['original', 'duplicate'],
      print,
      previews: { original: ticketPreviewDataUrl(docs[0]), duplicate: ticketPreviewDataUrl(docs[1]) },
    }
  } catch (err) {
    if (!(err instanceof DomainError)) throw err
    const details = err.details as { reason?: string } | undefined
    return { printed: false, error: { code: err.code, reason: details?.reason ?? null, message: err.message } }
  }
}
