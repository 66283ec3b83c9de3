/**
 * Screen preview of a ticket: an SVG drawn from the same dot layout as the thermal print and the PDF (raster.ts),
 * returned as markup or as a `data:` URL for an <img>.
 */
import { rasterize } from './raster.ts'
import { CHAR_DOTS, type PrintDoc } from './ticket-layout.ts'

const TOP_MARGIN_DOTS = 24
const FONT_DOTS = CHAR_DOTS.width / 0.6
const BASELINE_DOTS = 18

/** SVG markup of a ticket, in printer dots (8 per millimetre); the width attribute is the paper's in millimetres. */
export function renderTicketSvg(doc: PrintDoc): string {
  const r = rasterize(doc)
  const margin = (r.paperWidth - r.width) / 2
  const height = r.height + TOP_MARGIN_DOTS
  const out: string[] = []
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${r.paperWidth} ${height}" width="${r.paperWidth / 8}mm" height="${height / 8}mm" role="img" aria-label="${esc(doc.name)}">`,
  )
  out.push(`<rect width="${r.paperWidth}" height="${height}" fill="#fff"/>`)
  out.push(
    `<g transform="translate(${margin} ${TOP_MARGIN_DOTS})" font-family="'Courier New', Courier, 'DejaVu Sans Mono', monospace" font-size="${FONT_DOTS}">`,
  )
  for (const item of r.items) {
    switch (item.type) {
      case 'rect':
        out.push(
          `<rect x="${item.x}" y="${item.y}" width="${item.w}" height="${item.h}" fill="${item.fill === 'ink' ? '#000' : '#ccc'}"/>`,
        )
        break
      case 'line':
        out.push(
          `<line x1="${item.x1}" y1="${item.y1}" x2="${item.x2}" y2="${item.y2}" stroke="#000" stroke-width="${item.width}"/>`,
        )
        break
      case 'text': {
        if (!item.text.trim()) break
        const length = item.text.length * CHAR_DOTS.width
        out.push(
          `<text transform="translate(${item.x} ${item.y + BASELINE_DOTS * item.scaleY}) scale(${item.scaleX} ${item.scaleY})" textLength="${length}" lengthAdjust="spacingAndGlyphs" xml:space="preserve"${item.bold ? ' font-weight="700"' : ''} fill="${item.inverted ? '#fff' : '#000'}">${esc(item.text)}</text>`,
        )
        break
      }
      default: {
        const _never: never = item
        throw new Error(`unknown item ${JSON.stringify(_never)}`)
      }
    }
  }
  out.push('</g></svg>')
  return out.join('')
}

/** The preview as a `data:image/svg+xml` URL. */
export function ticketPreviewDataUrl(doc: PrintDoc): string {
  return `data:image/svg+xml;base64,${Buffer.from(renderTicketSvg(doc), 'utf8').toString('base64')}`
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
