/**
 * The receipt of a bingo card refunded in cash because its game was annulled or voided (issue 29 point 1; BNG-80 to
 * BNG-83, BNG-86): the hall, the game and the card handed back, the amount handed out, when (the hall's clock, its
 * zone named), where and by whom (names, never ids), and the player's signature. Printed at the cashier or at the
 * table that paid it, and drawn on screen from the same document.
 *
 * Pure: no I/O, no clock.
 */
import { formatMoney } from '../../server/src/shared/money.ts'
import { formatStamp, hallHeader, type Lang, type Paper, type PrintBlock, type PrintDoc } from './ticket-layout.ts'

export interface RefundTicket {
  hallName: string
  /** GEN-5: the hall's recorded authorisation, under its name as on the card refunded (null if none recorded). */
  authorisationRef: string | null
  gameNo: number
  sessionNo: number | null
  serial: string
  amountCents: number
  currency: string
  refundedAt: string
  timeZone: string
  /** The station's and the person's names. */
  station: string
  cashier: string
}

const LABELS = {
  es: {
    title: 'REEMBOLSO DE CARTÓN',
    why: (g: number) => `Partida N.º ${g} anulada: se devuelve el importe íntegro del cartón.`,
    game: 'Partida N.º',
    session: 'Sesión N.º',
    card: 'Cartón devuelto',
    total: 'TOTAL REEMBOLSADO',
    paidIn: 'Forma de pago',
    cash: 'Efectivo',
    at: 'Reembolsado',
    zone: 'Hora de la sala',
    station: 'Puesto',
    cashier: 'Atendido por',
    signature: 'Firma del jugador',
    note: 'El cartón queda en poder de la sala. Un cartón se reembolsa una sola vez.',
  },
  en: {
    title: 'CARD REFUND',
    why: (g: number) => `Game no. ${g} annulled: the full price of the card is refunded.`,
    game: 'Game no.',
    session: 'Session no.',
    card: 'Card handed back',
    total: 'TOTAL REFUNDED',
    paidIn: 'Paid by',
    cash: 'Cash',
    at: 'Refunded',
    zone: 'Hall time',
    station: 'Station',
    cashier: 'Served by',
    signature: 'Player signature',
    note: 'The card stays with the hall. A card is refunded once only.',
  },
} as const

export function refundReceipt(t: RefundTicket, options: { paper?: Paper; lang?: Lang } = {}): PrintDoc {
  const lang = options.lang ?? 'es'
  const L = LABELS[lang]
  const money = (c: number) => formatMoney(c, t.currency, lang)
  const blocks: PrintBlock[] = [
    ...hallHeader(t.hallName, t.authorisationRef, lang),
    { type: 'text', text: L.title, align: 'center', size: 'tall', bold: true },
    { type: 'rule', style: 'double' },
    { type: 'text', text: L.why(t.gameNo) },
    { type: 'rule' },
    { type: 'pair', left: `${L.game} ${t.gameNo}`, right: t.sessionNo ? `${L.session} ${t.sessionNo}` : '' },
    { type: 'pair', left: L.card, right: t.serial, bold: true },
    { type: 'rule' },
    { type: 'pair', left: L.total, right: money(t.amountCents), bold: true },
    { type: 'text', text: money(t.amountCents), align: 'center', size: 'large', bold: true },
    { type: 'pair', left: L.paidIn, right: L.cash },
    { type: 'rule' },
    { type: 'pair', left: L.at, right: formatStamp(t.refundedAt, t.timeZone) },
    { type: 'pair', left: L.zone, right: t.timeZone },
    { type: 'pair', left: L.station, right: t.station },
    { type: 'pair', left: L.cashier, right: t.cashier },
    { type: 'feed', lines: 2 },
    { type: 'writeIn', label: L.signature },
    { type: 'text', text: L.note, align: 'center' },
  ]
  return { kind: 'payout', name: `refund-${t.gameNo}-${t.serial}`, paper: options.paper ?? '80mm', blocks }
}
