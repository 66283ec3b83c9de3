/**
 * The prize register (libro de registro de premios, REGULATIONS.md §7.13: INS-5, LNS-25) of the lotto, numbered
 * lotteries and raffles, and instant games, as an A4 landscape PDF: one line per prize paid with the game or draw
 * number, the winning ticket, slip or receipt number, the prize, the payee's first and last names and identity
 * document, and a box for the player's signature as proof of receipt. Times on the operator's wall clock.
 */
import { formatMoney } from '../../server/src/shared/money.ts'
import { renderRegisterTable } from './register-table-pdf.ts'
import { formatStamp } from './ticket-layout.ts'

export interface GamePrizeRegisterRow {
  paidAt: string
  /** §7.13 (1): the game or draw number as the player knows it ("Loto 6/49 N.º 101", "Juego 5501"). */
  game: string
  /** §7.13 (2): the winning ticket, fraction, coupon or receipt number. */
  ticket: string
  /** §7.13 (5): the prize awarded, in words (category, tier, goods). */
  prize: string
  amountCents: number
  currency: string
  payeeName: string | null
  payeeDocument: string | null
}

export interface GamePrizeRegister {
  /** "Lotto", "Lotería", "Juego instantáneo": what the book records. */
  product: string
  /** The extract (draw, game) the book covers, or empty for all. */
  extract: string
  rows: GamePrizeRegisterRow[]
  timeZone?: string
}

const COLS = [
  'N.º',
  'Fecha y hora',
  'Juego / sorteo',
  'Boleto / comprobante',
  'Premio',
  'Importe',
  'Nombre y apellidos',
  'C.I. / Pasaporte',
  'Firma del jugador',
]
/** Column widths (points), summing to the printable width; the last is the signature box. */
const WIDTHS = [26, 78, 100, 110, 96, 66, 120, 86, 87.89]
/** The ticket and the amount stand out. */
const BOLD = new Set([3, 5])

export async function renderGamePrizeRegisterPdf(register: GamePrizeRegister): Promise<Uint8Array> {
  const totals = new Map<string, number>()
  for (const r of register.rows) totals.set(r.currency, (totals.get(r.currency) ?? 0) + r.amountCents)
  const zone = register.timeZone ? ` · hora de ${register.timeZone}` : ''
  return renderRegisterTable({
    docTitle: `Libro de registro de premios - ${register.product}`,
    title: 'LIBRO DE REGISTRO DE PREMIOS OTORGADOS',
    subtitle: `${register.product} · premios pagados (REGULATIONS §7.13, INS-5, LNS-25)`,
    note: register.extract || zone ? `Extracto: ${register.extract || 'todos'}${zone}` : '',
    columns: COLS.map((label, i) => ({ label, width: WIDTHS[i], bold: BOLD.has(i) })),
    rows: register.rows.map((r, n) => [
      String(n + 1),
      formatStamp(r.paidAt, register.timeZone),
      r.game,
      r.ticket,
      r.prize,
      formatMoney(r.amountCents, r.currency, 'es'),
      r.payeeName ?? '',
      r.payeeDocument ?? '',
      '',
    ]),
    empty: 'Sin premios pagados en este extracto.',
    total: `Total pagado: ${[...totals].map(([cur, c]) => formatMoney(c, cur, 'es')).join(' + ')}`,
    pageLabel: (n, of) => `Página ${n} de ${of}`,
  })
}
