/**
 * Tickets as PDF, one page per cut piece, page width = paper width (80 or 58 mm). Drawn from the same dot layout
 * as the thermal print (raster.ts): Courier in font A's 12 x 24-dot cells, the grid with its rules, the QR from
 * the `qrcode` matrix. The file printer keeps this PDF beside the raw ESC/POS job.
 *
 * Only the PDF standard fonts are used; their encoding is WinAnsi, so every string goes through `toWinAnsi`.
 */
import {
  PDFDocument,
  StandardFonts,
  concatTransformationMatrix,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingColor,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib'
import { toWinAnsi } from './pdf-kit.ts'
import { rasterize, type Raster } from './raster.ts'
import { CHAR_DOTS, type PrintDoc } from './ticket-layout.ts'

/** PDF points per printer dot (203.2 dpi: 8 dots per millimetre). */
export const PT_PER_DOT = 72 / 203.2
const TOP_MARGIN_DOTS = 24
const INK = rgb(0, 0, 0)
const SHADE = rgb(0.8, 0.8, 0.8)
const PAPER = rgb(1, 1, 1)
/** Courier advances 0.6 em: a 20-dot font fills the 12-dot cell of font A. */
const FONT_DOTS = CHAR_DOTS.width / 0.6
/** Baseline below the top of a 24-dot cell. */
const BASELINE_DOTS = 18

/** Renders the documents as one PDF, a page per document. */
export async function renderTicketsPdf(docs: readonly PrintDoc[], meta: { title?: string } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  pdf.setTitle(meta.title ?? docs.map((d) => d.name).join(', '))
  pdf.setProducer('Bolillo')
  pdf.setCreator('Bolillo ticket printer')
  const regular = await pdf.embedFont(StandardFonts.Courier)
  const bold = await pdf.embedFont(StandardFonts.CourierBold)
  const fonts = { regular, bold, charset: new Set(regular.getCharacterSet()) }
  for (const doc of docs) drawPage(pdf.addPage(), rasterize(doc), fonts)
  return pdf.save()
}

function drawPage(
  page: PDFPage,
  r: Raster,
  fonts: { regular: PDFFont; bold: PDFFont; charset: ReadonlySet<number> },
): void {
  const k = PT_PER_DOT
  const margin = (r.paperWidth - r.width) / 2
  const width = r.paperWidth * k
  const height = (r.height + TOP_MARGIN_DOTS) * k
  page.setSize(width, height)
  page.drawRectangle({ x: 0, y: 0, width, height, color: PAPER })
  const X = (dots: number) => (margin + dots) * k
  const Y = (dots: number) => height - (TOP_MARGIN_DOTS + dots) * k
  // The rules, cells and QR runs as bare `re f` operators, the fill colour set only when it changes: drawRectangle
  // wraps each in a graphics state, a transform and a path of its own (five times the numbers to write), and a card's
  // QR is hundreds of them. Text and lines keep their own graphics state, so the fill set here is not disturbed.
  let fillOf: 'ink' | 'shade' | null = null
  for (const item of r.items) {
    switch (item.type) {
      case 'rect':
        if (item.fill !== fillOf) {
          fillOf = item.fill
          page.pushOperators(setFillingColor(item.fill === 'ink' ? INK : SHADE))
        }
        page.pushOperators(rectangle(X(item.x), Y(item.y + item.h), item.w * k, item.h * k), fill())
        break
      case 'line':
        page.drawLine({
          start: { x: X(item.x1), y: Y(item.y1) },
          end: { x: X(item.x2), y: Y(item.y2) },
          thickness: item.width * k,
          color: INK,
        })
        break
      case 'text': {
        const font = item.bold ? fonts.bold : fonts.regular
        const text = toWinAnsi(item.text, fonts.charset)
        if (!text.trim()) break
        // Double height and width are a scaling of the cell, as on the printer.
        page.pushOperators(
          pushGraphicsState(),
          concatTransformationMatrix(
            item.scaleX,
            0,
            0,
            item.scaleY,
            X(item.x),
            Y(item.y + BASELINE_DOTS * item.scaleY),
          ),
        )
        page.drawText(text, { x: 0, y: 0, size: FONT_DOTS * k, font, color: item.inverted ? PAPER : INK })
        page.pushOperators(popGraphicsState())
        break
      }
      default: {
        const _never: never = item
        throw new Error(`unknown item ${JSON.stringify(_never)}`)
      }
    }
  }
}
