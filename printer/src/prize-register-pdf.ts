/**
 * The prize register (libro de registro de premios, REGULATIONS.md §7.13: INS-5, LNS-25) as an A4 landscape PDF:
 * one line per payout with the game number, the winning card, the prize, the payee's names and identity document
 * and a box for the player's signature as proof of receipt.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { formatMoney } from '../../server/src/shared/money.ts'
import type { PrizeRegisterRow } from '../../server/src/cashdesk/payouts.ts'
import { toWinAnsi } from './pdf-kit.ts'
import { formatStamp } from './ticket-layout.ts'

const W = 841.89
const H = 595.28
const M = 36
const ROW_H = 30
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.4, 0.4, 0.45)
const RULE = rgb(0.6, 0.61, 0.65)
const FILL = rgb(0.92, 0.93, 0.95)

const LABELS = {
  es: {
    title: 'LIBRO DE REGISTRO DE PREMIOS',
    subtitle: 'Premios pagados (REGULATIONS §7.13)',
    filter: 'Extracto',
    cols: [
      'N.º',
      'Fecha y hora',
      'Sesión',
      'Partida',
      'Cartón',
      'Premio',
      'Importe',
      'Nombre y apellidos',
      'C.I. / Pasaporte',
      'Firma del jugador',
    ],
    kinds: { line: 'Línea', bingo: 'Bingo' } as Record<string, string>,
    total: 'Total pagado',
    page: 'Página',
    of: 'de',
    none: 'Sin premios pagados en este extracto.',
    table: 'pagado en mesa',
  },
  en: {
    title: 'PRIZE REGISTER',
    subtitle: 'Prizes paid (REGULATIONS §7.13)',
    filter: 'Extract',
    cols: [
      'No.',
      'Date and time',
      'Session',
      'Game',
      'Card',
      'Prize',
      'Amount',
      'Name(s)',
      'ID / Passport',
      'Player signature',
    ],
    kinds: { line: 'Line', bingo: 'Bingo' } as Record<string, string>,
    total: 'Total paid',
    page: 'Page',
    of: 'of',
    none: 'No prizes paid in this extract.',
    table: 'paid at the table',
  },
} as const

/** Column widths (points), summing to the printable width. */
const WIDTHS = [26, 80, 70, 44, 60, 70, 66, 170, 90, 93.89]
const SIGNATURE = WIDTHS.length - 1

export async function renderPrizeRegisterPdf(
  register: {
    filter: Record<string, unknown>
    rows: PrizeRegisterRow[]
    totalCents: number
    currency: string | null
    /** The hall's zone: every time printed is the hall's wall-clock time. */
    timeZone?: string
  },
  lang: 'es' | 'en' = 'es',
): Promise<Uint8Array> {
  const L = LABELS[lang]
  const pdf = await PDFDocument.create()
  pdf.setTitle(L.title)
  pdf.setProducer('Bolillo')
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const charset = new Set(font.getCharacterSet())
  const t = (s: string) => toWinAnsi(s, charset)
  const money = (c: number, cur: string) => formatMoney(c, cur, lang)
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
    page.drawText(t(L.title), { x: M, y: H - M - 14, size: 16, font: bold, color: INK })
    const halls = [...new Set(register.rows.map((r) => r.hallName))].join(', ')
    page.drawText(t(halls ? `${L.subtitle} · ${halls}` : L.subtitle), {
      x: M,
      y: H - M - 30,
      size: 9,
      font,
      color: MUTED,
    })
    // Only the dates: the hall is named above, and record ids mean nothing on paper (issue 29 point 6).
    const filter = Object.entries(register.filter)
      .filter(([k, v]) => v && (k === 'from' || k === 'to'))
      .map(
        ([k, v]) =>
          `${k === 'from' ? (lang === 'en' ? 'From' : 'Desde') : lang === 'en' ? 'To' : 'Hasta'}: ${String(v)}`,
      )
      .join('   ')
    if (filter) page.drawText(t(`${L.filter}: ${filter}`), { x: M, y: H - M - 42, size: 8, font, color: MUTED })
    y = H - M - 58
    page.drawRectangle({ x: M, y: y - 16, width: W - 2 * M, height: 18, color: FILL })
    let x = M
    L.cols.forEach((col, i) => {
      page.drawText(t(col), { x: x + 3, y: y - 11, size: 8, font: bold, color: INK })
      x += WIDTHS[i]
    })
    y -= 16
  }
  header()
  if (register.rows.length === 0) page.drawText(t(L.none), { x: M + 3, y: y - 20, size: 10, font, color: MUTED })
  for (const r of register.rows) {
    if (y - ROW_H < M + 30) header()
    const top = y
    const cells = [
      String(r.entry),
      formatStamp(r.paidAt, register.timeZone),
      r.sessionNo ? String(r.sessionNo) : '',
      String(r.gameNo),
      r.serial,
      r.prizes.map((p) => L.kinds[p.kind] ?? p.kind).join(' + ') + (r.payoutId ? '' : ` (${L.table})`),
      money(r.amountCents, r.currency),
      r.payeeName ?? '',
      r.payeeDocument ?? '',
      '',
    ]
    let x = M
    cells.forEach((cell, i) => {
      const f = i === 3 || i === 4 || i === 6 ? bold : font
      page.drawText(fit(cell, f, 8.5, WIDTHS[i] - 6), { x: x + 3, y: top - 12, size: 8.5, font: f, color: INK })
      x += WIDTHS[i]
    })
    // The signature box stays empty: the player signs the printed register (§7.13 point 6).
    page.drawLine({
      start: { x: W - M - WIDTHS[SIGNATURE] + 6, y: top - ROW_H + 7 },
      end: { x: W - M - 6, y: top - ROW_H + 7 },
      thickness: 0.5,
      color: RULE,
    })
    y -= ROW_H
    page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 0.4, color: RULE })
  }
  if (register.rows.length > 0) {
    if (y - 24 < M + 20) header()
    page.drawText(t(`${L.total}: ${money(register.totalCents, register.currency ?? 'BOB')}`), {
      x: M + 3,
      y: y - 18,
      size: 10,
      font: bold,
      color: INK,
    })
  }
  pages.forEach((p, i) =>
    p.drawText(t(`${L.page} ${i + 1} ${L.of} ${pages.length}`), {
      x: W - M - 70,
      y: M - 14,
      size: 8,
      font,
      color: MUTED,
    }),
  )
  return pdf.save()
}
