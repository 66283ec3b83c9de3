/**
 * Print-shop sheets of pre-printed instant tickets (raspaditas): A4 pages of 8 tickets, each front page followed
 * by its back page (mirrored for long-edge duplex).
 *
 * Front of a ticket: game name, issue number and price; the play area and the validation QR, each inside a
 * dashed "scratch area" box (the coating layer goes exactly over these boxes, INS-1, INS-2, INS-7); outside the
 * boxes only the inventory code: its QR (`BLL1.I.<serial>.<sig>`), an Interleaved 2 of 5 barcode of the serial's
 * 14 digits and the serial in text. Back (INS-4, REGULATIONS §7.12): issue and ticket number, prize structure and
 * odds, claim period, security warnings, payment place, how to play, issuer.
 *
 * Only PDF standard fonts (WinAnsi); every string goes through `winAnsi`.
 */
import {
  PDFDocument,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  StandardFonts,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingRgbColor,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib'
import { formatMoney } from '../../server/src/shared/money.ts'
import { qrMatrix, qrRuns } from './qr.ts'

/**
 * INS-10: the player can know the deadline: the design's last day of sale and the last day to claim (claimDays
 * later), as dates in the wall clock the design was written in (the offset of salesEndAt).
 */
function lastClaimDay(g: { claimDays: number; salesEndAt?: string | null }): string {
  const m = g.salesEndAt ? /([+-]\d{2}):(\d{2})$|Z$/.exec(g.salesEndAt) : null
  if (!g.salesEndAt || !m || !Number.isFinite(Date.parse(g.salesEndAt))) return ''
  const offsetMs = m[1] ? (Number(m[1]) * 60 + Math.sign(Number(m[1]) || 1) * Number(m[2])) * 60_000 : 0
  const day = (ms: number) => {
    const d = new Date(ms + offsetMs)
    return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`
  }
  const end = Date.parse(g.salesEndAt)
  return ` (venta hasta el ${day(end)}; cobro a más tardar el ${day(end + g.claimDays * 86_400_000)})`
}

export interface SheetGame {
  gameNo: number
  name: string
  currency: string
  priceCents: number
  playStyle: 'match-three' | 'beat-their-number'
  symbolAmountsCents: number[]
  tiers: Array<{ amountCents: number; count: number }>
  ticketCount: number
  claimDays: number
  /** INS-10: the design's last moment of sale (ISO with offset): the back prints the last day to claim from it. */
  salesEndAt?: string | null
  issuer: string
  paymentPlace: string
  securityWarnings: string
  instructions: string
  /** LOT-3 / GEN-5: the regulator's authorisation of the game, printed on the back beside the issue. */
  authorisationRef?: string | null
}

export interface SheetTicket {
  serial: string
  /** Validation code, grouped for typing (XXXX-XXXX-...). */
  codeText: string
  /** Signed QR payload of the inventory code (outside). */
  inventoryQr: string
  /** Signed QR payload of the validation code (under the scratch layer). */
  validationQr: string
  face:
    | { style: 'match-three'; cells: number[] }
    | { style: 'beat-their-number'; rows: Array<{ yours: number; theirs: number; symbol: number }> }
}

const PAGE_W = 595.28
const PAGE_H = 841.89
const MARGIN = 18
const GAP = 10
const COLS = 2
const ROWS = 4
export const TICKETS_PER_PAGE = COLS * ROWS
const TW = (PAGE_W - 2 * MARGIN - (COLS - 1) * GAP) / COLS
const TH = (PAGE_H - 2 * MARGIN - (ROWS - 1) * GAP) / ROWS

const INK = rgb(0.08, 0.08, 0.1)
const BRAND = rgb(0.55, 0.1, 0.45)
const SCRATCH = rgb(0.75, 0.75, 0.78)
const SCRATCH_FILL = rgb(0.96, 0.96, 0.97)
const MUTED = rgb(0.4, 0.4, 0.45)

/** Keeps WinAnsi characters; replaces the rest (the standard fonts cannot draw them). */
export function winAnsi(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\u202f\u2009\u2007]/g, ' ')
    .replace(/[^\x20-\x7e\u00a0-\u00ff€]/g, '?')
}

const moneyText = new Map<string, string>()
function money(cents: number, currency: string): string {
  const key = `${currency}${cents}`
  let text = moneyText.get(key)
  if (text === undefined) {
    // Whole amounts without decimals: "Bs 2.000" fits a scratch cell, "Bs 2.000,00" hardly.
    text = winAnsi(formatMoney(cents, currency, 'es')).replace(/[,.]00(?=\D*$)/, '')
    moneyText.set(key, text)
  }
  return text
}

// ------------------------------------------------------------------------------------------------ barcodes

const ITF_PATTERNS = ['nnwwn', 'wnnnw', 'nwnnw', 'wwnnn', 'nnwnw', 'wnwnn', 'nwwnn', 'nnnww', 'wnnwn', 'nwnwn']

/**
 * Interleaved 2 of 5 bars for an even number of digits: [isBar, widthInNarrowUnits] runs, start and stop included.
 * Wide elements are 2.5 narrow units.
 */
export function itfRuns(digits: string): Array<[boolean, number]> {
  if (!/^(\d\d)+$/.test(digits)) throw new Error('ITF needs an even number of digits')
  const W = 2.5
  const runs: Array<[boolean, number]> = [
    [true, 1],
    [false, 1],
    [true, 1],
    [false, 1],
  ]
  for (let i = 0; i < digits.length; i += 2) {
    const a = ITF_PATTERNS[digits.charCodeAt(i) - 48]
    const b = ITF_PATTERNS[digits.charCodeAt(i + 1) - 48]
    for (let k = 0; k < 5; k++) {
      runs.push([true, a[k] === 'w' ? W : 1])
      runs.push([false, b[k] === 'w' ? W : 1])
    }
  }
  runs.push([true, W], [false, 1], [true, 1])
  return runs
}

/** Filled rectangles as one path and one fill: thousands of modules cost one operator each, not a drawing call. */
function fillRects(page: PDFPage, rects: Array<[number, number, number, number]>): void {
  const ops: PDFOperator[] = [pushGraphicsState(), setFillingRgbColor(0.08, 0.08, 0.1)]
  const num = (v: number) => PDFNumber.of(Math.round(v * 1000) / 1000)
  for (const [x, y, w, h] of rects)
    ops.push(PDFOperator.of(PDFOperatorNames.AppendRectangle, [num(x), num(y), num(w), num(h)]))
  ops.push(fill(), popGraphicsState())
  page.pushOperators(...ops)
}

function drawItf(page: PDFPage, digits: string, x: number, y: number, narrow: number, height: number): number {
  let cx = x
  const rects: Array<[number, number, number, number]> = []
  for (const [bar, w] of itfRuns(digits)) {
    if (bar) rects.push([cx, y, w * narrow, height])
    cx += w * narrow
  }
  fillRects(page, rects)
  return cx - x
}

/** Draws a QR of `payload` with its lower-left corner (quiet zone included) at (x, y), `size` points wide. */
export function drawQr(page: PDFPage, payload: string, x: number, y: number, size: number): void {
  const m = qrMatrix(payload)
  const quiet = 4
  const unit = size / (m.size + 2 * quiet)
  page.drawRectangle({ x, y, width: size, height: size, color: rgb(1, 1, 1) })
  fillRects(
    page,
    qrRuns(m).map(([r, c, len]) => [x + (quiet + c) * unit, y + size - (quiet + r + 1) * unit, len * unit, unit]),
  )
}

function dashedBox(page: PDFPage, x: number, y: number, w: number, h: number, label: string, font: PDFFont): void {
  page.drawRectangle({
    x,
    y,
    width: w,
    height: h,
    color: SCRATCH_FILL,
    borderColor: SCRATCH,
    borderWidth: 1.2,
    borderDashArray: [4, 3],
  })
  page.drawText(winAnsi(label), { x: x + 3, y: y + h + 2, size: 5.5, font, color: MUTED })
}

// ------------------------------------------------------------------------------------------------ pages

function origin(slot: number, mirrored: boolean): { x: number; y: number } {
  const row = Math.floor(slot / COLS)
  let col = slot % COLS
  if (mirrored) col = COLS - 1 - col
  return { x: MARGIN + col * (TW + GAP), y: PAGE_H - MARGIN - (row + 1) * TH - row * GAP }
}

function drawFront(
  page: PDFPage,
  g: SheetGame,
  t: SheetTicket,
  x: number,
  y: number,
  fonts: { bold: PDFFont; regular: PDFFont; mono: PDFFont },
): void {
  page.drawRectangle({ x, y, width: TW, height: TH, borderColor: INK, borderWidth: 0.6 })
  // Crop marks at the corners.
  for (const [cx, cy] of [
    [x, y],
    [x + TW, y],
    [x, y + TH],
    [x + TW, y + TH],
  ]) {
    page.drawLine({ start: { x: cx - 4, y: cy }, end: { x: cx + 4, y: cy }, thickness: 0.3, color: MUTED })
    page.drawLine({ start: { x: cx, y: cy - 4 }, end: { x: cx, y: cy + 4 }, thickness: 0.3, color: MUTED })
  }
  page.drawRectangle({ x, y: y + TH - 22, width: TW, height: 22, color: BRAND })
  page.drawText(winAnsi(g.name.toUpperCase()), {
    x: x + 8,
    y: y + TH - 15,
    size: 11,
    font: fonts.bold,
    color: rgb(1, 1, 1),
  })
  const price = money(g.priceCents, g.currency)
  page.drawText(price, {
    x: x + TW - 8 - fonts.bold.widthOfTextAtSize(price, 11),
    y: y + TH - 15,
    size: 11,
    font: fonts.bold,
    color: rgb(1, 1, 1),
  })

  // Scratch area 1: the play area.
  const playX = x + 8
  const playY = y + 58
  const playW = 150
  const playH = TH - 22 - 58 - 14
  dashedBox(page, playX, playY, playW, playH, 'ZONA DE RASPADO - juego (capa de raspado)', fonts.regular)
  if (t.face.style === 'match-three') {
    const cw = playW / 3
    const ch = playH / 3
    t.face.cells.forEach((s, i) => {
      const text = money(g.symbolAmountsCents[s], g.currency)
      const size = 8.5
      const tx = playX + (i % 3) * cw + (cw - fonts.bold.widthOfTextAtSize(text, size)) / 2
      const ty = playY + playH - (Math.floor(i / 3) + 1) * ch + (ch - size) / 2 + 1
      page.drawText(text, { x: tx, y: ty, size, font: fonts.bold, color: INK })
    })
  } else {
    const rh = playH / (t.face.rows.length + 1)
    page.drawText('TU N.  SU N.  PREMIO', {
      x: playX + 6,
      y: playY + playH - rh + 3,
      size: 6.5,
      font: fonts.bold,
      color: MUTED,
    })
    t.face.rows.forEach((r, i) => {
      const ty = playY + playH - (i + 2) * rh + 3
      page.drawText(
        `${String(r.yours).padStart(2, '0')}     ${String(r.theirs).padStart(2, '0')}     ${money(g.symbolAmountsCents[r.symbol], g.currency)}`,
        { x: playX + 8, y: ty, size: 8, font: fonts.mono, color: INK },
      )
    })
  }

  // Scratch area 2: the validation QR and code (INS-9 control number, INS-14 validation code).
  const qrSize = 76
  const vx = x + TW - 8 - 92
  const vy = y + 58
  const vh = playH
  dashedBox(page, vx, vy, 92, vh, 'ZONA DE RASPADO - validación', fonts.regular)
  drawQr(page, t.validationQr, vx + 8, vy + vh - qrSize - 6, qrSize)
  const groups = t.codeText.split('-')
  page.drawText(winAnsi(groups.slice(0, 3).join('-')), {
    x: vx + 6,
    y: vy + 12,
    size: 6.2,
    font: fonts.mono,
    color: INK,
  })
  page.drawText(winAnsi(groups.slice(3).join('-')), { x: vx + 6, y: vy + 4, size: 6.2, font: fonts.mono, color: INK })

  // Outside: the inventory code only.
  drawQr(page, t.inventoryQr, x + 6, y + 4, 50)
  const digits = t.serial.replace(/-/g, '')
  drawItf(page, digits, x + 62, y + 20, 0.85, 26)
  page.drawText(winAnsi(`${t.serial}`), { x: x + 62, y: y + 8, size: 8, font: fonts.mono, color: INK })
  page.drawText(winAnsi(`Juego/Emisión N.º ${String(g.gameNo).padStart(4, '0')}`), {
    x: x + TW - 100,
    y: y + 40,
    size: 6.5,
    font: fonts.regular,
    color: MUTED,
  })
  page.drawText(winAnsi('Raspe solo las zonas grises.'), {
    x: x + TW - 100,
    y: y + 31,
    size: 6.5,
    font: fonts.regular,
    color: MUTED,
  })
  page.drawText(winAnsi('Ver reglamento al dorso.'), {
    x: x + TW - 100,
    y: y + 22,
    size: 6.5,
    font: fonts.regular,
    color: MUTED,
  })
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = []
  for (const para of winAnsi(text).split('\n')) {
    let line = ''
    for (const word of para.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word
      if (font.widthOfTextAtSize(next, size) > width && line) {
        out.push(line)
        line = word
      } else line = next
    }
    out.push(line)
  }
  return out
}

function drawBack(
  page: PDFPage,
  g: SheetGame,
  t: SheetTicket,
  x: number,
  y: number,
  fonts: { bold: PDFFont; regular: PDFFont },
): void {
  page.drawRectangle({ x, y, width: TW, height: TH, borderColor: MUTED, borderWidth: 0.4 })
  let cy = y + TH - 12
  const line = (text: string, size = 7.5, font = fonts.regular) => {
    for (const l of wrap(text, font, size, TW - 16)) {
      if (cy < y + 4) return
      page.drawText(l, { x: x + 8, y: cy, size, font, color: INK })
      cy -= size + 1.6
    }
  }
  line(`${g.name} - Emisión N.º ${String(g.gameNo).padStart(4, '0')} - Boleto ${t.serial}`, 8.5, fonts.bold)
  line('Estructura de premios:', 7.5, fonts.bold)
  line(
    g.tiers
      .map(
        (tr) =>
          `${money(tr.amountCents, g.currency)} x ${tr.count} (1 en ${Math.round(g.ticketCount / tr.count).toLocaleString('es')})`,
      )
      .join('; '),
  )
  line(`Cómo jugar: ${g.instructions}`)
  line(
    `Plazo de cobro: ${g.claimDays} días desde el cierre del juego${lastClaimDay(g)}; después el premio caduca. Premios indivisibles, pagados solo contra presentación del boleto.`,
  )
  line(`Lugar de pago: ${g.paymentPlace}.`)
  line(`Advertencias: ${g.securityWarnings}`)
  line(
    `Emite: ${g.issuer}.${g.authorisationRef ? ` Juego autorizado: ${g.authorisationRef}.` : ''} Precio ${money(g.priceCents, g.currency)}. Código de validación único por boleto, oculto bajo la capa.`,
  )
}

/** Renders tickets into sheets: for every 8 tickets a front page, then its back page. */
export async function renderInstantSheets(g: SheetGame, tickets: readonly SheetTicket[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.setTitle(winAnsi(`${g.name} - emision ${g.gameNo}`))
  doc.setProducer('Bolillo')
  doc.setCreationDate(new Date(0))
  doc.setModificationDate(new Date(0))
  const fonts = {
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    regular: await doc.embedFont(StandardFonts.Helvetica),
    mono: await doc.embedFont(StandardFonts.CourierBold),
  }
  for (let p = 0; p < tickets.length; p += TICKETS_PER_PAGE) {
    const chunk = tickets.slice(p, p + TICKETS_PER_PAGE)
    const front = doc.addPage([PAGE_W, PAGE_H])
    chunk.forEach((t, i) => {
      const o = origin(i, false)
      drawFront(front, g, t, o.x, o.y, fonts)
    })
    const back = doc.addPage([PAGE_W, PAGE_H])
    chunk.forEach((t, i) => {
      const o = origin(i, true)
      drawBack(back, g, t, o.x, o.y, fonts)
    })
  }
  return doc.save({ useObjectStreams: true })
}
