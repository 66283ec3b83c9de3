/**
 * The prize register (libro de registro de premios, REGULATIONS.md §7.13: INS-5, LNS-25) of the lotto, numbered
 * lotteries and raffles, and instant games, as an A4 landscape PDF: one line per prize paid with the game or draw
 * number, the winning ticket, slip or receipt number, the prize, the payee's first and last names and identity
 * document, and a box for the player's signature as proof of receipt. Times on the operator's wall clock.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { formatMoney } from '../../server/src/shared/money.ts'
import { toWinAnsi } from './pdf-kit.ts'
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

const W = 841.89
const H = 595.28
const M = 36
const ROW_H = 30
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.4, 0.4, 0.45)
const RULE = rgb(0.6, 0.61, 0.65)
const FILL = rgb(0.92, 0.93, 0.95)
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
/** Column widths (points), summing to the printable width W - 2M. */
const WIDTHS = [26, 78, 100, 110, 96, 66, 120, 86, 87.89]
const SIGNATURE = WIDTHS.length - 1

export async function renderGamePrizeRegisterPdf(register: GamePrizeRegister): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  pdf.setTitle(`Libro de registro de premios - ${register.product}`)
  pdf.setProducer('Bolillo')
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const charset = new Set(font.getCharacterSet())
  const t = (s: string) => toWinAnsi(s, charset)
  const pages: PDFPage[] = []
  let page!: PDFPage
  let y = 0
  const fit = (text: string, f: PDFFont, size: number, width: number) => {
    let s = t(text)
    while (s.length > 1 && f.widthOfTextAtSize(s, size) > width) s = s.slice(0, -2) + '.'
    return s
  }
  const header = () => {
    page = pdf.addPage([W, H])
    pages.push(page)
    page.drawText(t('LIBRO DE REGISTRO DE PREMIOS OTORGADOS'), {
      x: M,
      y: H - M - 14,
      size: 16,
      font: bold,
      color: INK,
    })
    page.drawText(t(`${register.product} · premios pagados (REGULATIONS §7.13, INS-5, LNS-25)`), {
      x: M,
      y: H - M - 30,
      size: 9,
      font,
      color: MUTED,
    })
    const zone = register.timeZone ? ` · hora de ${register.timeZone}` : ''
    if (register.extract || zone)
      page.drawText(t(`Extracto: ${register.extract || 'todos'}${zone}`), {
        x: M,
        y: H - M - 42,
        size: 8,
        font,
        color: MUTED,
      })
    y = H - M - 58
    page.drawRectangle({ x: M, y: y - 16, width: W - 2 * M, height: 18, color: FILL })
    let x = M
    COLS.forEach((col, i) => {
      page.drawText(t(col), { x: x + 3, y: y - 11, size: 8, font: bold, color: INK })
      x += WIDTHS[i]
    })
    y -= 16
  }
  header()
  if (register.rows.length === 0)
    page.drawText(t('Sin premios pagados en este extracto.'), { x: M + 3, y: y - 20, size: 10, font, color: MUTED })
  const totals = new Map<string, number>()
  register.rows.forEach((r, n) => {
    if (y - ROW_H < M + 30) header()
    const top = y
    const cells = [
      String(n + 1),
      formatStamp(r.paidAt, register.timeZone),
      r.game,
      r.ticket,
      r.prize,
      formatMoney(r.amountCents, r.currency, 'es'),
      r.payeeName ?? '',
      r.payeeDocument ?? '',
      '',
    ]
    let x = M
    cells.forEach((cell, i) => {
      const f = i === 3 || i === 5 ? bold : font
      page.drawText(fit(cell, f, 8.5, WIDTHS[i] - 6), { x: x + 3, y: top - 12, size: 8.5, font: f, color: INK })
      x += WIDTHS[i]
    })
    // The signature box stays empty: the player signs the printed book (§7.13 point 6).
    page.drawLine({
      start: { x: W - M - WIDTHS[SIGNATURE] + 6, y: top - ROW_H + 7 },
      end: { x: W - M - 6, y: top - ROW_H + 7 },
      thickness: 0.5,
      color: RULE,
    })
    y -= ROW_H
    page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 0.4, color: RULE })
    totals.set(r.currency, (totals.get(r.currency) ?? 0) + r.amountCents)
  })
  if (register.rows.length > 0) {
    if (y - 24 < M + 20) header()
    const total = [...totals].map(([cur, c]) => formatMoney(c, cur, 'es')).join(' + ')
    page.drawText(t(`Total pagado: ${total}`), { x: M + 3, y: y - 18, size: 10, font: bold, color: INK })
  }
  pages.forEach((p, i) =>
    p.drawText(t(`Página ${i + 1} de ${pages.length}`), { x: W - M - 70, y: M - 14, size: 8, font, color: MUTED }),
  )
  return pdf.save()
}
