/**
 * The printed book of prizes paid (REGULATIONS.md §7.13: INS-5, LNS-25): an A4 landscape table, one ruled line per
 * prize, its last column an empty box the player signs as proof of receipt, pages numbered "N of M". The bingo
 * register and the lotto / lottery / instant register are this table with their own columns.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { toWinAnsi } from './pdf-kit.ts'

export interface RegisterTable {
  /** The PDF's document title. */
  docTitle: string
  title: string
  subtitle: string
  /** A third header line (the extract, the zone), or empty for none. */
  note: string
  /** The last column is the player's signature box. */
  columns: ReadonlyArray<{ label: string; width: number; bold?: boolean }>
  /** One array of cells per prize, one cell per column (the signature cell empty). */
  rows: ReadonlyArray<ReadonlyArray<string>>
  /** Printed when there is no row. */
  empty: string
  /** Printed below the last row when there is one. */
  total: string
  pageLabel: (page: number, of: number) => string
}

const W = 841.89
const H = 595.28
const M = 36
const ROW_H = 30
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.4, 0.4, 0.45)
const RULE = rgb(0.6, 0.61, 0.65)
const FILL = rgb(0.92, 0.93, 0.95)

export async function renderRegisterTable(table: RegisterTable): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  pdf.setTitle(table.docTitle)
  pdf.setProducer('Bolillo')
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const charset = new Set(font.getCharacterSet())
  const t = (s: string) => toWinAnsi(s, charset)
  const signatureWidth = table.columns[table.columns.length - 1].width
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
    page.drawText(t(table.title), { x: M, y: H - M - 14, size: 16, font: bold, color: INK })
    page.drawText(t(table.subtitle), { x: M, y: H - M - 30, size: 9, font, color: MUTED })
    if (table.note) page.drawText(t(table.note), { x: M, y: H - M - 42, size: 8, font, color: MUTED })
    y = H - M - 58
    page.drawRectangle({ x: M, y: y - 16, width: W - 2 * M, height: 18, color: FILL })
    let x = M
    for (const col of table.columns) {
      page.drawText(t(col.label), { x: x + 3, y: y - 11, size: 8, font: bold, color: INK })
      x += col.width
    }
    y -= 16
  }
  header()
  if (table.rows.length === 0) page.drawText(t(table.empty), { x: M + 3, y: y - 20, size: 10, font, color: MUTED })
  for (const cells of table.rows) {
    if (y - ROW_H < M + 30) header()
    const top = y
    let x = M
    table.columns.forEach((col, i) => {
      const f = col.bold ? bold : font
      page.drawText(fit(cells[i] ?? '', f, 8.5, col.width - 6), {
        x: x + 3,
        y: top - 12,
        size: 8.5,
        font: f,
        color: INK,
      })
      x += col.width
    })
    // The signature box stays empty: the player signs the printed book (§7.13 point 6).
    page.drawLine({
      start: { x: W - M - signatureWidth + 6, y: top - ROW_H + 7 },
      end: { x: W - M - 6, y: top - ROW_H + 7 },
      thickness: 0.5,
      color: RULE,
    })
    y -= ROW_H
    page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 0.4, color: RULE })
  }
  if (table.rows.length > 0) {
    if (y - 24 < M + 20) header()
    page.drawText(t(table.total), { x: M + 3, y: y - 18, size: 10, font: bold, color: INK })
  }
  pages.forEach((p, i) =>
    p.drawText(t(table.pageLabel(i + 1, pages.length)), { x: W - M - 70, y: M - 14, size: 8, font, color: MUTED }),
  )
  return pdf.save()
}
