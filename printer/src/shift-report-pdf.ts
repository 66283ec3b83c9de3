/**
 * A cashier shift's report (issue 13 point 5) as an A4 PDF: station, person, opening and closing times, the float,
 * the movements summed by product (vouchers sold and cashed, prizes paid, refunds), what the drawer should hold,
 * what was counted (arqueo) and the difference to the centavo, then every movement in time order, and boxes for
 * the cashier's and the supervisor's signatures.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { formatMoney } from '../../server/src/shared/money.ts'
import type { ShiftReport } from '../../server/src/cashdesk/shift-guard.ts'
import { toWinAnsi } from './pdf-kit.ts'
import { formatStamp } from './ticket-layout.ts'

const W = 595.28
const H = 841.89
const M = 42
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.4, 0.4, 0.45)
const RULE = rgb(0.6, 0.61, 0.65)
const FILL = rgb(0.92, 0.93, 0.95)
const BAD = rgb(0.7, 0.1, 0.1)

export const SHIFT_LABELS = {
  es: {
    title: 'INFORME DE TURNO DE CAJA',
    station: 'Caja',
    cashier: 'Cajero/a',
    hall: 'Sala',
    opened: 'Apertura',
    closed: 'Cierre',
    open: 'turno abierto',
    float: 'Fondo inicial contado',
    byProduct: 'Movimientos por producto',
    cols: ['Producto', 'Movimiento', 'N.º', 'Entradas', 'Salidas'],
    totalIn: 'Total entradas',
    totalOut: 'Total salidas',
    expected: 'Debe haber en caja',
    counted: 'Contado en el arqueo',
    difference: 'Diferencia',
    note: 'Observación',
    detail: 'Detalle de movimientos',
    detailCols: ['Hora', 'Producto', 'Movimiento', 'Referencia', 'Importe'],
    none: 'Sin movimientos en este turno.',
    signCashier: 'Firma del cajero/a',
    signSupervisor: 'Firma del supervisor',
    page: 'Página',
    of: 'de',
    products: {
      card: 'Cartones de bingo',
      lotto: 'Boletos de lotto',
      lottery: 'Lotería numerada',
      raffle: 'Rifa',
      instant: 'Raspaditas',
      slip: 'Boletos de lotto',
      voucher: 'Vales de crédito',
    } as Record<string, string>,
    kinds: {
      voucher_sale: 'Venta de vale',
      voucher_cashout: 'Cobro de vale',
      prize_payout: 'Premio pagado',
      refund: 'Reembolso',
      sale: 'Venta',
      card_sale: 'Venta de cartones',
      counter_sale: 'Venta en caja',
    } as Record<string, string>,
  },
  en: {
    title: 'CASHIER SHIFT REPORT',
    station: 'Station',
    cashier: 'Cashier',
    hall: 'Hall',
    opened: 'Opened',
    closed: 'Closed',
    open: 'shift open',
    float: 'Opening float counted',
    byProduct: 'Movements by product',
    cols: ['Product', 'Movement', 'No.', 'In', 'Out'],
    totalIn: 'Total in',
    totalOut: 'Total out',
    expected: 'Drawer should hold',
    counted: 'Counted at close',
    difference: 'Difference',
    note: 'Note',
    detail: 'Every movement',
    detailCols: ['Time', 'Product', 'Movement', 'Reference', 'Amount'],
    none: 'No movements in this shift.',
    signCashier: "Cashier's signature",
    signSupervisor: "Supervisor's signature",
    page: 'Page',
    of: 'of',
    products: {
      card: 'Bingo cards',
      lotto: 'Lotto slips',
      lottery: 'Numbered lottery',
      raffle: 'Raffle',
      instant: 'Instant tickets',
      slip: 'Lotto slips',
      voucher: 'Credit vouchers',
    } as Record<string, string>,
    kinds: {
      voucher_sale: 'Voucher sold',
      voucher_cashout: 'Voucher cashed out',
      prize_payout: 'Prize paid',
      refund: 'Refund',
      sale: 'Sale',
      card_sale: 'Cards sold',
      counter_sale: 'Sold at the counter',
    } as Record<string, string>,
  },
} as const

export async function renderShiftReportPdf(r: ShiftReport, lang: 'es' | 'en' = 'es'): Promise<Uint8Array> {
  const L = SHIFT_LABELS[lang]
  const pdf = await PDFDocument.create()
  pdf.setTitle(`${L.title} ${r.station.name}`)
  pdf.setProducer('Bolillo')
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const charset = new Set(font.getCharacterSet())
  const t = (s: string) => toWinAnsi(s, charset)
  const money = (c: number) => formatMoney(c, r.currency, lang)
  const pages: PDFPage[] = []
  let page!: PDFPage
  let y = 0
  const newPage = () => {
    page = pdf.addPage([W, H])
    pages.push(page)
    y = H - M
  }
  const text = (s: string, x: number, size = 10, f: PDFFont = font, color = INK) =>
    page.drawText(t(s), { x, y, size, font: f, color })
  const right = (s: string, xRight: number, size = 10, f: PDFFont = font, color = INK) =>
    page.drawText(t(s), { x: xRight - f.widthOfTextAtSize(t(s), size), y, size, font: f, color })
  const need = (h: number) => {
    if (y - h < M + 20) newPage()
  }
  const rule = () =>
    page.drawLine({ start: { x: M, y: y + 4 }, end: { x: W - M, y: y + 4 }, thickness: 0.5, color: RULE })

  newPage()
  text(L.title, M, 16, bold)
  y -= 22
  for (const [label, value] of [
    [L.hall, r.hallName],
    [L.station, r.station.name],
    [L.cashier, r.cashier.name],
    [L.opened, formatStamp(r.openedAt, r.timeZone)],
    [L.closed, r.closedAt ? formatStamp(r.closedAt, r.timeZone) : L.open],
  ] as const) {
    text(`${label}:`, M, 10, bold)
    text(value, M + 110, 10)
    y -= 14
  }
  y -= 8
  text(L.float, M, 11, bold)
  right(money(r.floatCents), W - M, 11, bold)
  y -= 22

  text(L.byProduct, M, 12, bold)
  y -= 16
  const cx = [M, M + 150, M + 300, W - M - 110, W - M]
  page.drawRectangle({ x: M, y: y - 4, width: W - 2 * M, height: 16, color: FILL })
  text(L.cols[0], cx[0] + 2, 9, bold)
  text(L.cols[1], cx[1], 9, bold)
  right(L.cols[2], cx[2] + 30, 9, bold)
  right(L.cols[3], cx[3], 9, bold)
  right(L.cols[4], cx[4] - 2, 9, bold)
  y -= 18
  if (r.lines.length === 0) {
    text(L.none, M + 2, 10, font, MUTED)
    y -= 14
  }
  for (const l of r.lines) {
    need(14)
    text(L.products[l.product] ?? l.product, cx[0] + 2, 10)
    text(L.kinds[l.kind] ?? l.kind, cx[1], 10)
    right(String(l.count), cx[2] + 30, 10)
    right(l.inCents ? money(l.inCents) : '', cx[3], 10)
    right(l.outCents ? money(l.outCents) : '', cx[4] - 2, 10)
    y -= 14
  }
  rule()
  y -= 10
  const total = (label: string, value: string, f: PDFFont = font, color = INK) => {
    need(16)
    text(label, M + 2, 11, f, color)
    right(value, W - M - 2, 11, f, color)
    y -= 16
  }
  total(L.totalIn, money(r.inCents))
  total(L.totalOut, money(r.outCents))
  total(L.expected, money(r.expectedCents), bold)
  if (r.countedCents !== null) total(L.counted, money(r.countedCents), bold)
  if (r.differenceCents !== null)
    total(
      L.difference,
      `${r.differenceCents > 0 ? '+' : ''}${money(r.differenceCents)}`,
      bold,
      r.differenceCents === 0 ? INK : BAD,
    )
  if (r.note) total(`${L.note}: ${r.note}`, '')
  y -= 10

  need(60)
  text(L.detail, M, 12, bold)
  y -= 16
  const dx = [M, M + 70, M + 180, M + 300, W - M]
  page.drawRectangle({ x: M, y: y - 4, width: W - 2 * M, height: 16, color: FILL })
  for (let i = 0; i < 4; i++) text(L.detailCols[i], dx[i] + 2, 9, bold)
  right(L.detailCols[4], dx[4] - 2, 9, bold)
  y -= 18
  for (const m of r.movements) {
    need(13)
    text(formatStamp(m.at, r.timeZone).slice(11), dx[0] + 2, 9)
    text(L.products[m.product] ?? m.product, dx[1] + 2, 9)
    text(L.kinds[m.kind] ?? m.kind, dx[2] + 2, 9)
    text(m.ref.length > 30 ? `${m.ref.slice(0, 29)}.` : m.ref, dx[3] + 2, 8, font, MUTED)
    right(money(m.amountCents), dx[4] - 2, 9)
    y -= 13
  }
  y -= 30
  need(60)
  for (const [i, label] of [L.signCashier, L.signSupervisor].entries()) {
    const x = M + i * ((W - 2 * M) / 2 + 10)
    page.drawLine({ start: { x, y }, end: { x: x + (W - 2 * M) / 2 - 10, y }, thickness: 0.5, color: INK })
    page.drawText(t(label), { x, y: y - 12, size: 9, font, color: MUTED })
  }
  pages.forEach((p, i) => {
    const s = t(`${L.page} ${i + 1} ${L.of} ${pages.length}`)
    p.drawText(s, { x: W - M - font.widthOfTextAtSize(s, 8), y: M / 2, size: 8, font, color: MUTED })
  })
  return pdf.save()
}
