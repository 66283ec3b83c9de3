/**
 * The payout receipt of a lotto or lottery prize, drawn by the cashier screen: the server pays these (LNS-25,
 * LOT-25) without printing at the station, so the screen lays the receipt out with the same thermal layout as every
 * other ticket (printer/src/ticket-layout.ts) for the payee to sign, printed from the browser.
 */
import { formatMoney } from '../../../server/src/shared/money.ts'
import { renderTicketSvg } from '../../../printer/src/preview.ts'
import { formatStamp, type PrintBlock, type PrintDoc } from '../../../printer/src/ticket-layout.ts'
import type { Lang } from '../../../web/cashdesk-api.ts'
import type { PaidView, ScanView } from './answer.ts'

export interface ReceiptParty {
  stationId: string
  cashierId: string
  payeeName: string
  payeeDocument: string
}

const LABELS = {
  es: {
    lotto: 'LOTTO',
    lottery: 'LOTERÍA',
    raffle: 'RIFA',
    payout: 'PAGO DE PREMIO',
    refund: 'REEMBOLSO DEL PRECIO',
    game: 'Juego',
    draw: 'Sorteo N.º',
    receipt: 'Comprobante',
    number: 'Número',
    ticketUsed: 'Boleto usado',
    points: (n: number) => `${n} ${n === 1 ? 'punto' : 'puntos'}`,
    series: 'Serie',
    fraction: 'Fracción',
    board: 'jugada',
    total: 'TOTAL PAGADO',
    goods: 'Premio en especie',
    paidAt: 'Pagado',
    station: 'Terminal',
    cashier: 'Cajero',
    payee: 'Cobrador',
    document: 'Documento',
    signature: 'Firma del cobrador',
    register: 'Registrado en el libro de registro de premios.',
    keep: (n: string) => `El comprobante sigue en juego: sorteo N.º ${n}.`,
  },
  en: {
    lotto: 'LOTTO',
    lottery: 'LOTTERY',
    raffle: 'RAFFLE',
    payout: 'PRIZE PAYOUT',
    refund: 'PRICE REFUND',
    game: 'Game',
    draw: 'Draw no.',
    receipt: 'Receipt',
    number: 'Number',
    ticketUsed: 'Ticket used',
    points: (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`,
    series: 'Series',
    fraction: 'Fraction',
    board: 'board',
    total: 'TOTAL PAID',
    goods: 'Prize in goods',
    paidAt: 'Paid',
    station: 'Terminal',
    cashier: 'Cashier',
    payee: 'Payee',
    document: 'Document',
    signature: 'Payee signature',
    register: 'Entered in the prize register.',
    keep: (n: string) => `The receipt still plays: draw no. ${n}.`,
  },
} as const

/** The receipt of a lotto or lottery payout as a thermal ticket (80 mm). */
export function lotteryReceiptDoc(paid: PaidView, scan: ScanView, who: ReceiptParty, lang: Lang): PrintDoc {
  const L = LABELS[lang]
  const money = (c: number) => formatMoney(c, paid.currency || scan.currency || 'BOB', lang)
  const ids = scan.ids
  const product = paid.product === 'raffle' ? L.raffle : paid.product === 'lottery' ? L.lottery : L.lotto
  const blocks: PrintBlock[] = [
    { type: 'text', text: `${product} · ${ids.gameName ?? ids.gameCode ?? ''}`.trim(), align: 'center', bold: true },
    { type: 'text', text: paid.refund ? L.refund : L.payout, align: 'center', size: 'large', bold: true },
    { type: 'rule', style: 'double' },
  ]
  // No internal id on paper: the payout's id stays off the receipt (the prize register has no line number to print
  // instead); the lotto slip is named by its printed receipt number, a fraction or raffle ticket by what it prints.
  const draws = paid.drawNumbers.length ? paid.drawNumbers : (ids.drawNumbers ?? [])
  if (draws.length) blocks.push({ type: 'pair', left: L.draw, right: draws.join(', ') })
  if (paid.product === 'lotto') blocks.push({ type: 'pair', left: L.receipt, right: ids.receipt ?? '-', bold: true })
  else {
    if (ids.number) blocks.push({ type: 'pair', left: L.number, right: ids.number, bold: true })
    if (paid.product === 'lottery' && ids.series !== undefined)
      blocks.push({
        type: 'pair',
        left: `${L.series} / ${L.fraction}`,
        right: `${ids.series} / ${ids.fraction ?? '-'}`,
      })
  }
  blocks.push({ type: 'rule' })
  if (!paid.refund) {
    for (const p of scan.prizes) {
      const left =
        p.label.t === 'category'
          ? `${p.label.drawNumber} ${L.board} ${p.label.board}: ${p.label.name}`
          : p.label.t === 'named'
            ? p.label.name
            : ''
      if (left) blocks.push({ type: 'pair', left, right: money(p.amountCents) })
    }
    for (const g of paid.goods) blocks.push({ type: 'pair', left: L.goods, right: g })
    // PRM-2: every ticket of a points tómbola used in the hand-over, with its points.
    for (const x of paid.tickets ?? [])
      blocks.push({ type: 'pair', left: `${L.ticketUsed} ${x.number}`, right: L.points(x.points) })
    blocks.push({ type: 'rule' })
  }
  blocks.push(
    { type: 'pair', left: L.total, right: money(paid.amountCents), bold: true },
    { type: 'text', text: money(paid.amountCents), align: 'center', size: 'large', bold: true },
    { type: 'rule' },
    { type: 'pair', left: L.paidAt, right: formatStamp(paid.paidAt) },
    { type: 'pair', left: L.station, right: who.stationId },
    { type: 'pair', left: L.cashier, right: who.cashierId },
    { type: 'pair', left: L.payee, right: who.payeeName || '-' },
    { type: 'pair', left: L.document, right: who.payeeDocument || '-' },
  )
  if (scan.pendingDraws.length)
    blocks.push({ type: 'text', text: L.keep(scan.pendingDraws.join(', ')), align: 'center', bold: true })
  blocks.push(
    { type: 'feed', lines: 2 },
    { type: 'writeIn', label: L.signature },
    { type: 'text', text: L.register, align: 'center' },
  )
  // The name is the preview's spoken label (aria-label): words, not the payout's id.
  const title = `${paid.refund ? L.refund : L.payout} · ${product} · ${ids.gameName ?? ids.gameCode ?? ''}`
  return { kind: 'payout', name: title.replace(/ · $/, ''), paper: '80mm', blocks }
}

/** The receipt as an <img> source. */
export function receiptDataUrl(doc: PrintDoc): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderTicketSvg(doc))}`
}
