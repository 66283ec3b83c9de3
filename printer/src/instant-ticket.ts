/**
 * The printed ticket of an on-screen (e-instant) sale: the kiosk printer cannot apply a scratch coating (INS-2,
 * REGULATIONS §6 item 4), so the reveal happens on screen and the paper carries the result and the validation QR
 * that the cashier scans to pay (INS-10: the ticket is the proof).
 */
import { formatMoney } from '../../server/src/shared/money.ts'
import { formatStamp, type PrintBlock, type PrintDoc, type Paper } from './ticket-layout.ts'

export interface InstantSaleTicket {
  gameNo: number
  name: string
  serial: string
  /** Signed QR payload `BLL1.I.<validation code>.<sig>`. */
  qr: string
  /** Validation code grouped for typing. */
  codeText: string
  priceCents: number
  prizeCents: number
  currency: string
  soldAt: string
  station: string
  claimDays: number
  paymentPlace: string
  /**
   * INS-4: the back of the game, as the pre-printed sheet carries it (instant-sheet.ts drawBack): where INS-15 sells
   * on screen this paper is the player's proof, so it carries them too.
   */
  back: InstantTicketBack
}

export interface InstantTicketBack {
  tiers: Array<{ amountCents: number; count: number }>
  ticketCount: number
  instructions: string
  securityWarnings: string
  issuer: string
  authorisationRef: string | null
}

/** `timeZone`: the hall's (issue 29 point 5: the sale time in the hall's wall-clock time, not UTC). */
export function instantSaleTicket(t: InstantSaleTicket, paper: Paper = '80mm', timeZone?: string): PrintDoc {
  const money = (c: number) => formatMoney(c, t.currency, 'es')
  const blocks: PrintBlock[] = [
    { type: 'text', text: t.name, align: 'center', size: 'large', bold: true },
    { type: 'text', text: `Juego instantáneo N.º ${String(t.gameNo).padStart(4, '0')}`, align: 'center' },
    { type: 'rule', style: 'double' },
    { type: 'pair', left: 'Boleto', right: t.serial },
    { type: 'pair', left: 'Precio', right: money(t.priceCents) },
    { type: 'pair', left: 'Vendido', right: formatStamp(t.soldAt, timeZone) },
    { type: 'pair', left: 'Terminal', right: t.station },
    { type: 'rule' },
    {
      type: 'text',
      text: t.prizeCents > 0 ? `PREMIO ${money(t.prizeCents)}` : 'SIN PREMIO',
      align: 'center',
      size: 'large',
      bold: true,
    },
    { type: 'qr', payload: t.qr },
    { type: 'text', text: t.codeText, align: 'center' },
    {
      type: 'text',
      text: `Cobro en ${t.paymentPlace}, dentro de ${t.claimDays} días del cierre del juego, solo contra este boleto.`,
      align: 'center',
    },
    // INS-4 items 3, 5, 7 and the issuer, compactly: one line per prize, then the texts of the back.
    { type: 'rule' },
    { type: 'text', text: 'Estructura de premios', bold: true },
    ...t.back.tiers.map((tr): PrintBlock => ({
      type: 'pair',
      left: money(tr.amountCents),
      right: `${tr.count} (1 en ${Math.round(t.back.ticketCount / tr.count).toLocaleString('es')})`,
    })),
    { type: 'text', text: `Cómo jugar: ${t.back.instructions}` },
    { type: 'text', text: `Advertencias: ${t.back.securityWarnings}` },
    {
      type: 'text',
      text: `Emite: ${t.back.issuer}. Emisión N.º ${String(t.gameNo).padStart(4, '0')}.${t.back.authorisationRef ? ` Juego autorizado: ${t.back.authorisationRef}.` : ''}`,
    },
  ]
  return { kind: 'instant', name: `instant-${t.serial}`, paper, blocks }
}
