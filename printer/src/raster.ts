/**
 * Places a laid-out ticket (flowDoc) on the roll in printer dots, the way the thermal printer does: font A cells of
 * 12 x 24 dots, a 30-dot line pitch, double height and width where the line asks, the grid drawn with box rules,
 * the QR in modules of 6 (80 mm) or 5 (58 mm) dots. The PDF (pdf.ts) and the screen preview (preview.ts) draw these
 * items, so what the player sees on screen and in the PDF is what the printer puts on paper.
 */
import { qrMatrix, qrRuns, QR_QUIET_ZONE } from './qr.ts'
import {
  alignText,
  CHAR_DOTS,
  columnsFor,
  DOTS_PER_MM,
  flowDoc,
  gridCellText,
  gridGeometry,
  PAPER,
  type PrintDoc,
} from './ticket-layout.ts'

export type RasterItem =
  | { type: 'text'; x: number; y: number; text: string; scaleX: 1 | 2; scaleY: 1 | 2; bold: boolean; inverted: boolean }
  | { type: 'rect'; x: number; y: number; w: number; h: number; fill: 'ink' | 'shade' }
  | { type: 'line'; x1: number; y1: number; x2: number; y2: number; width: number }

export interface Raster {
  /** Printable width and total height, in dots (8 dots per millimetre). */
  width: number
  height: number
  /** Paper width in dots, with the unprintable margins either side. */
  paperWidth: number
  items: RasterItem[]
}

const { width: CW, height: CH, line: PITCH } = CHAR_DOTS
/** Blank paper the printer feeds before the cut (cut({ verticalTabAmount: 1 }) = ESC d 4: 4 lines). */
const CUT_FEED = 4 * PITCH

/** Lays a document out in dots. */
export function rasterize(doc: PrintDoc): Raster {
  const width = PAPER[doc.paper].printableDots
  const items: RasterItem[] = []
  let y = 0
  for (const line of flowDoc(doc)) {
    switch (line.type) {
      case 'text': {
        const scale = line.size === 'normal' ? 1 : 2
        const scaleX = line.size === 'large' ? 2 : 1
        const cols = columnsFor(doc.paper, line.size)
        const text = alignText(line.text, cols, line.invert ? 'center' : line.align)
        if (line.invert) items.push({ type: 'rect', x: 0, y, w: width, h: CH * scale, fill: 'ink' })
        // Trailing blanks carry nothing but the inverted band.
        items.push({
          type: 'text',
          x: 0,
          y,
          text: line.invert ? text : text.trimEnd(),
          scaleX,
          scaleY: scale as 1 | 2,
          bold: line.bold,
          inverted: line.invert,
        })
        y += CH * scale + (PITCH - CH)
        break
      }
      case 'rule': {
        if (line.style === 'double') {
          items.push({ type: 'line', x1: 0, y1: y + CH / 2 - 3, x2: width, y2: y + CH / 2 - 3, width: 2 })
          items.push({ type: 'line', x1: 0, y1: y + CH / 2 + 3, x2: width, y2: y + CH / 2 + 3, width: 2 })
        } else {
          items.push({ type: 'line', x1: 0, y1: y + CH / 2, x2: width, y2: y + CH / 2, width: 2 })
        }
        y += PITCH
        break
      }
      case 'grid': {
        const rows = line.rows
        const columns = rows[0]?.length ?? 9
        const g = gridGeometry(doc.paper, columns)
        const x0 = Math.floor((width - g.width * CW) / 2) + CW / 2
        const cellW = (g.cellWidth + 1) * CW
        // Border rows are one normal line (24 dots at the grid's line spacing), number rows are double height.
        const cellH = CH + 2 * CH
        const y0 = y + CH / 2
        for (let r = 0; r < rows.length; r++) {
          for (let c = 0; c < columns; c++) {
            const n = rows[r][c]
            const cx = x0 + c * cellW
            const cy = y0 + r * cellH
            if (!n) {
              items.push({ type: 'rect', x: cx + 2, y: cy + 2, w: cellW - 4, h: cellH - 4, fill: 'shade' })
              continue
            }
            const scaleX = g.largeNumbers ? 2 : 1
            const text = gridCellText(n, g.largeNumbers)
            // Centre the number inside the cell, between the rules (escpos.ts pads with normal-width blanks).
            const tx = cx + CW / 2 + (g.cellWidth * CW - text.length * CW * scaleX) / 2
            items.push({ type: 'text', x: tx, y: cy + CH / 2, text, scaleX, scaleY: 2, bold: true, inverted: false })
          }
        }
        for (let c = 0; c <= columns; c++)
          items.push({
            type: 'line',
            x1: x0 + c * cellW,
            y1: y0,
            x2: x0 + c * cellW,
            y2: y0 + rows.length * cellH,
            width: 3,
          })
        for (let r = 0; r <= rows.length; r++)
          items.push({
            type: 'line',
            x1: x0,
            y1: y0 + r * cellH,
            x2: x0 + columns * cellW,
            y2: y0 + r * cellH,
            width: 3,
          })
        y += rows.length * cellH + CH + (PITCH - CH)
        break
      }
      case 'qr': {
        const m = qrMatrix(line.payload)
        const mod = PAPER[doc.paper].qrModuleDots
        const side = (m.size + 2 * QR_QUIET_ZONE) * mod
        const qx = Math.floor((width - m.size * mod) / 2)
        const qy = y + QR_QUIET_ZONE * mod
        for (const [r, c, n] of qrRuns(m))
          items.push({ type: 'rect', x: qx + c * mod, y: qy + r * mod, w: n * mod, h: mod, fill: 'ink' })
        y += side
        break
      }
      case 'feed':
        y += line.lines * PITCH
        break
      default: {
        const _never: never = line
        throw new Error(`unknown line ${JSON.stringify(_never)}`)
      }
    }
  }
  return { width, height: y + CUT_FEED, paperWidth: PAPER[doc.paper].paperMm * DOTS_PER_MM, items }
}
