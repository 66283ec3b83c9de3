/**
 * The lotto receipt (comprobante) as the kiosk's or the counter's thermal printer prints it, with every field of
 * LNS-6 (REGULATIONS §7.10): (1) operator; (2) the categories' fantasy names; (3) draw number and issue; (4) draw
 * date; (5) player data; (6) the numbers played; (7) date and time of issue; (8) price paid; (9) every draw it is
 * valid for; (10) the security warnings, and the QR of the signed code `BLL1.L.<receipt>.<sig>`.
 *
 * Pure: no I/O; dates arrive as ISO strings (the plan's own offset is kept for draw dates).
 */
import { formatMoney } from '../../server/src/shared/money.ts'
import { formatStamp, type LayoutOptions, type PrintBlock, type PrintDoc } from './ticket-layout.ts'

export interface LottoReceiptTicket {
  receiptNumber: string
  code: string
  operator: string
  gameName: string
  categories: Array<{ code: string; name: string; matches: number }>
  drawNumber: number
  issue: string
  drawAt: string
  draws: Array<{ drawNumber: number; issue: string; drawAt: string }>
  player: { name: string; document: string }
  boards: Array<{ numbers: number[]; quickPick: boolean }>
  soldAt: string
  amountCents: number
  currency: string
  securityWarnings: string[]
  paymentPlace: string
  legend: string
  station: string
}

/** "08/03/2025 20:00" as the plan writes it (its own offset), whatever the printer's zone. */
function planTime(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso)
  return m ? `${m[3]}/${m[2]}/${m[1]} ${m[4]}:${m[5]}` : iso
}

const two = (n: number) => String(n).padStart(2, '0')

export function lottoReceiptTicket(t: LottoReceiptTicket, options: LayoutOptions = {}): PrintDoc {
  const paper = options.paper ?? '80mm'
  const en = options.lang === 'en'
  const money = (c: number) => formatMoney(c, t.currency, options.lang ?? 'es')
  const blocks: PrintBlock[] = [
    // LNS-6 (1) operator, (2) the game and its categories' fantasy names.
    { type: 'text', text: t.operator, align: 'center', bold: true },
    { type: 'text', text: t.gameName, align: 'center', size: 'large', bold: true },
    { type: 'text', text: en ? 'LOTTO RECEIPT' : 'COMPROBANTE DE LOTERÍA', align: 'center', bold: true },
    { type: 'rule', style: 'double' },
    { type: 'pair', left: en ? 'Receipt no.' : 'Comprobante N.º', right: t.receiptNumber, bold: true },
    // (3) draw number and issue, (4) draw date.
    {
      type: 'pair',
      left: `${en ? 'Draw no.' : 'Sorteo N.º'} ${t.drawNumber}`,
      right: `${en ? 'Issue' : 'Emisión'} ${t.issue}`,
    },
    { type: 'pair', left: en ? 'Draw date' : 'Fecha del sorteo', right: planTime(t.drawAt) },
    { type: 'rule' },
    // (6) the numbers played, one board a line.
    { type: 'text', text: en ? 'Numbers played' : 'Números jugados', bold: true },
    ...t.boards.map((b, i): PrintBlock => ({
      type: 'pair',
      left: `${String.fromCharCode(65 + (i % 26))}. ${b.numbers.map(two).join(' ')}`,
      right: b.quickPick ? (en ? 'quick pick' : 'automática') : '',
      bold: true,
    })),
    { type: 'rule' },
    // (9) every draw the slip is valid for.
    { type: 'text', text: en ? 'Valid for the draws' : 'Válido para los sorteos', bold: true },
    ...t.draws.map((d): PrintBlock => ({
      type: 'pair',
      left: `N.º ${d.drawNumber} · ${d.issue}`,
      right: planTime(d.drawAt),
    })),
    { type: 'rule' },
    { type: 'text', text: en ? 'Prize categories' : 'Categorías de premios', bold: true },
    ...t.categories.map((c): PrintBlock => ({
      type: 'pair',
      left: c.name,
      right: `${c.matches} ${en ? 'hits' : 'aciertos'}`,
    })),
    { type: 'rule' },
    // (5) player data.
    { type: 'pair', left: en ? 'Player' : 'Jugador', right: t.player.name },
    { type: 'pair', left: en ? 'ID document' : 'Documento', right: t.player.document },
    // (7) date and time of issue, (8) price paid.
    { type: 'pair', left: en ? 'Issued' : 'Emitido', right: formatStamp(t.soldAt, options.timeZone) },
    { type: 'pair', left: en ? 'Terminal' : 'Terminal', right: t.station },
    { type: 'pair', left: en ? 'PRICE PAID' : 'PRECIO PAGADO', right: money(t.amountCents), bold: true },
    { type: 'qr', payload: t.code },
    { type: 'text', text: t.receiptNumber, align: 'center' },
    // (10) security warnings.
    ...t.securityWarnings.map((w): PrintBlock => ({ type: 'text', text: w, align: 'center' })),
    {
      type: 'text',
      text: `${en ? 'Prizes paid at' : 'Premios se pagan en'} ${t.paymentPlace}, ${en ? 'only against this receipt.' : 'solo contra este comprobante.'}`,
      align: 'center',
    },
    { type: 'text', text: t.legend, align: 'center' },
  ]
  return { kind: 'lotto', name: `lotto-${t.receiptNumber}`, paper, blocks }
}
