/**
 * The A4 PDF toolkit the printed documents share (minutes, lottery sheets, reports, registers): page geometry and
 * palette, `toWinAnsi` for the standard fonts' encoding, and the flowing page `Writer` (columns, tables, keep-
 * together blocks, page breaks with running header and footer). Moved out of minutes-pdf.ts (issue 25 point 5).
 */
import { rgb } from 'pdf-lib'
import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib'

// ------------------------------------------------------------------------------------------------ page geometry

export const PAGE_W = 595.28
export const PAGE_H = 841.89
export const MARGIN_X = 48
export const MARGIN_TOP = 46
/** Content never goes below this line; the footer lives underneath. */
export const CONTENT_BOTTOM = 62
export const CONTENT_W = PAGE_W - 2 * MARGIN_X
/** Blocks up to this height are moved whole to the next page rather than split. */
export const KEEP_TOGETHER = (PAGE_H - MARGIN_TOP - CONTENT_BOTTOM) * 0.4
export const GRID_LABEL_SIZE = 6.2
export const GRID_LABEL_LEAD = 7.6

export const INK = rgb(0.1, 0.1, 0.12)
export const MUTED = rgb(0.36, 0.37, 0.41)
export const RULE = rgb(0.6, 0.61, 0.65)
export const FILL = rgb(0.925, 0.93, 0.945)
export const BAR = rgb(0.16, 0.22, 0.33)
export const BAR_LIGHT = rgb(0.84, 0.87, 0.92)
export const WHITE = rgb(1, 1, 1)
export const LINE_SHADE = rgb(0.8, 0.88, 0.98)
export const BINGO_SHADE = rgb(0.99, 0.85, 0.62)
export const LUCKY_RULE = rgb(0.13, 0.52, 0.3)
export const VOID_FILL = rgb(0.99, 0.93, 0.92)
export const VOID_RULE = rgb(0.72, 0.3, 0.27)

// ------------------------------------------------------------------------------------------------ WinAnsi

/** Characters outside WinAnsi that have an obvious spelling inside it. */
export const TRANSLITERATIONS: Readonly<Record<string, string>> = {
  '\u2192': '->',
  '\u2190': '<-',
  '\u2194': '<->',
  '\u21d2': '=>',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2212': '-',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2015': '-',
  '\u2043': '-',
  '\u2009': ' ',
  '\u200a': ' ',
  '\u2007': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u202f': '\u00a0',
  '\u2060': '',
  '\u200b': '',
  '\ufeff': '',
  '\u2116': 'N.\u00ba',
  '\u2713': 'x',
  '\u2714': 'x',
  '\u2717': 'x',
  '\u2715': 'x',
  '\u00d7': 'x',
  '\u2032': "'",
  '\u2033': '"',
  '\u201f': '"',
  '\u201b': "'",
  '\u2024': '.',
  '\u2027': '\u00b7',
  '\u2219': '\u00b7',
  '\u25cf': '\u00b7',
  '\u0141': 'L',
  '\u0142': 'l',
  '\u0110': 'D',
  '\u0111': 'd',
  '\u0131': 'i',
  '\u00df': 'ss',
}

/**
 * Returns `text` spelled only with characters of `charset` (the font's WinAnsi code points): NFC first so that
 * decomposed accents join their letter, then known transliterations, then the base letter of accented
 * characters WinAnsi lacks (ő -> o); pictographs (emoji) are dropped and any other character becomes "?", so a
 * name in another script visibly lost letters. Control characters and line breaks become spaces.
 */
export function toWinAnsi(text: string, charset: ReadonlySet<number>): string {
  let out = ''
  for (const ch of String(text).normalize('NFC')) {
    const cp = ch.codePointAt(0) ?? 0x3f
    if (cp >= 0x20 && charset.has(cp)) out += ch
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp === 0x2028 || cp === 0x2029) out += ' '
    else if (ch in TRANSLITERATIONS) out += TRANSLITERATIONS[ch]
    // Pictographs, emoji joiners and variation selectors carry nothing the minutes need.
    else if (/\p{Extended_Pictographic}|\p{So}|\p{Variation_Selector}|\u200d/u.test(ch)) continue
    else {
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '')
      out +=
        base.length > 0 && [...base].every((c) => charset.has(c.codePointAt(0) ?? -1))
          ? base
          : /\p{M}/u.test(ch)
            ? ''
            : '?'
    }
  }
  return out
}

export type FontKey = 'regular' | 'bold' | 'italic' | 'mono' | 'monoBold'
export type Fonts = Record<FontKey, PDFFont>

export interface Cell {
  label: string
  value: string | string[]
  span?: number
  font?: FontKey
  size?: number
}

export interface Column {
  title: string
  /** Relative width. */
  w: number
  align?: 'left' | 'right' | 'center'
  font?: FontKey
}

/** A cursor that writes top to bottom and opens a new page when the next element does not fit. */
export class Writer {
  readonly pages: PDFPage[] = []
  page!: PDFPage
  /** Top of the free space on the current page. */
  y = 0
  /** Drawn at the top of a new page while a game block is in progress. */
  continuation: (() => void) | null = null

  constructor(
    private readonly doc: PDFDocument,
    readonly f: Fonts,
    private readonly charset: ReadonlySet<number>,
    private readonly runningHeader: (w: Writer) => void,
  ) {}

  clean(text: string): string {
    return toWinAnsi(text, this.charset)
  }

  width(text: string, font: FontKey, size: number): number {
    return this.f[font].widthOfTextAtSize(this.clean(text), size)
  }

  newPage(): void {
    this.page = this.doc.addPage([PAGE_W, PAGE_H])
    this.pages.push(this.page)
    this.y = PAGE_H - MARGIN_TOP
    if (this.pages.length > 1) this.runningHeader(this)
    this.continuation?.()
  }

  /** Makes room for `height` points, on a new page if needed. */
  ensure(height: number): void {
    if (this.y - height < CONTENT_BOTTOM) this.newPage()
  }

  space(h: number): void {
    this.y -= h
  }

  text(text: string, x: number, baseline: number, font: FontKey = 'regular', size = 9, color: RGB = INK): void {
    const t = this.clean(text)
    if (t.length > 0) this.page.drawText(t, { x, y: baseline, font: this.f[font], size, color })
  }

  textRight(
    text: string,
    right: number,
    baseline: number,
    font: FontKey = 'regular',
    size = 9,
    color: RGB = INK,
  ): void {
    this.text(text, right - this.width(text, font, size), baseline, font, size, color)
  }

  textCenter(
    text: string,
    center: number,
    baseline: number,
    font: FontKey = 'regular',
    size = 9,
    color: RGB = INK,
  ): void {
    this.text(text, center - this.width(text, font, size) / 2, baseline, font, size, color)
  }

  /** Shortens `text` with an ellipsis so that it fits `maxW`. */
  fit(text: string, font: FontKey, size: number, maxW: number): string {
    let t = this.clean(text)
    if (this.f[font].widthOfTextAtSize(t, size) <= maxW) return t
    while (t.length > 1 && this.f[font].widthOfTextAtSize(`${t}\u2026`, size) > maxW) t = t.slice(0, -1)
    return `${t}\u2026`
  }

  /** Word-wraps to `maxW`; words longer than a line (hashes, ids) are cut. Line breaks in the text are kept. */
  wrap(text: string, font: FontKey, size: number, maxW: number): string[] {
    const f = this.f[font]
    const fits = (s: string) => f.widthOfTextAtSize(s, size) <= maxW
    const out: string[] = []
    for (const para of String(text).split(/\r\n|\r|\n/)) {
      let line = ''
      for (const word of this.clean(para).split(' ')) {
        if (word === '') continue
        const candidate = line ? `${line} ${word}` : word
        if (fits(candidate)) {
          line = candidate
          continue
        }
        if (line) out.push(line)
        let rest = word
        while (!fits(rest) && rest.length > 1) {
          let n = rest.length - 1
          while (n > 1 && !fits(rest.slice(0, n))) n--
          out.push(rest.slice(0, n))
          rest = rest.slice(n)
        }
        line = rest
      }
      out.push(line)
    }
    return out
  }

  rect(
    x: number,
    top: number,
    w: number,
    h: number,
    fill?: RGB,
    border: RGB | undefined = RULE,
    borderWidth = 0.5,
  ): void {
    this.page.drawRectangle({
      x,
      y: top - h,
      width: w,
      height: h,
      color: fill,
      borderColor: border,
      borderWidth: border ? borderWidth : 0,
    })
  }

  hline(x1: number, x2: number, y: number, thickness = 0.5, color: RGB = RULE): void {
    this.page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness, color })
  }

  /** Wrapped paragraph, page-breaking between lines. */
  paragraph(
    text: string,
    opts: { font?: FontKey; size?: number; color?: RGB; indent?: number; width?: number; leading?: number } = {},
  ): void {
    const font = opts.font ?? 'regular'
    const size = opts.size ?? 9
    const lead = opts.leading ?? size * 1.35
    const x = MARGIN_X + (opts.indent ?? 0)
    for (const line of this.wrap(text, font, size, opts.width ?? CONTENT_W - (opts.indent ?? 0))) {
      this.ensure(lead)
      this.text(line, x, this.y - size * 0.95, font, size, opts.color ?? INK)
      this.y -= lead
    }
  }

  /** Section heading with a rule under it; keeps `keepWith` points of what follows on the same page. */
  heading(title: string, keepWith = 40): void {
    this.ensure(20 + keepWith)
    this.text(title.toUpperCase(), MARGIN_X, this.y - 10, 'bold', 9.5, BAR)
    this.hline(MARGIN_X, MARGIN_X + CONTENT_W, this.y - 14, 0.8, BAR)
    this.y -= 20
  }

  /** Smaller heading inside a game block. */
  subheading(title: string, keepWith = 30): void {
    this.ensure(15 + keepWith)
    this.text(title, MARGIN_X, this.y - 9, 'bold', 8.5, BAR)
    this.y -= 13
  }

  /** Caption of a part of a sub-section (the prima, the pots, the lucky ball), with a short rule before it. */
  minorHeading(title: string, keepWith = 24): void {
    this.ensure(12 + keepWith)
    this.hline(MARGIN_X, MARGIN_X + 10, this.y - 6.2, 1.4, BAR)
    this.text(title.toUpperCase(), MARGIN_X + 14, this.y - 8.2, 'bold', 6.9, BAR)
    this.y -= 11.5
  }

  /** Lays out boxed form fields: `cols` columns, each row stretched to the full width. */
  private layoutGrid(cells: Cell[], cols: number) {
    const unit = CONTENT_W / cols
    const rows: Cell[][] = []
    let row: Cell[] = []
    let used = 0
    for (const c of cells) {
      const span = Math.min(cols, Math.max(1, c.span ?? 1))
      if (used + span > cols) {
        rows.push(row)
        row = []
        used = 0
      }
      row.push({ ...c, span })
      used += span
    }
    if (row.length > 0) rows.push(row)
    return rows.map((r) => {
      const total = r.reduce((s, c) => s + (c.span ?? 1), 0)
      r[r.length - 1].span = (r[r.length - 1].span ?? 1) + cols - total
      const laid = r.map((c) => {
        const w = (c.span ?? 1) * unit
        const size = c.size ?? 9
        const font = c.font ?? 'regular'
        const labels = this.wrap(c.label.toUpperCase(), 'bold', GRID_LABEL_SIZE, w - 9)
        const values = (Array.isArray(c.value) ? c.value : [c.value]).flatMap((v) => this.wrap(v, font, size, w - 9))
        return { w, size, font, labels, values }
      })
      // Values start under the row's tallest label, so that they line up across the row.
      const labelLines = Math.max(...laid.map((l) => l.labels.length))
      return {
        laid,
        labelLines,
        h: Math.max(...laid.map((l) => 4 + labelLines * GRID_LABEL_LEAD + 1.5 + l.values.length * l.size * 1.28 + 3.5)),
      }
    })
  }

  /** Height `grid` would take. */
  gridHeight(cells: Cell[], cols = 4): number {
    return this.layoutGrid(cells, cols).reduce((s, r) => s + r.h, 0)
  }

  /**
   * Boxed form fields, a small label over each value. The grid stays on one page when it is not taller than
   * KEEP_TOGETHER; a taller one breaks between rows.
   */
  grid(cells: Cell[], cols = 4): void {
    const rows = this.layoutGrid(cells, cols)
    const total = rows.reduce((s, r) => s + r.h, 0)
    if (total <= KEEP_TOGETHER) this.ensure(total)
    for (const { laid, labelLines, h } of rows) {
      this.ensure(h)
      let x = MARGIN_X
      for (const l of laid) {
        this.rect(x, this.y, l.w, h, undefined, RULE, 0.5)
        let base = this.y - 4 - GRID_LABEL_SIZE * 0.85
        for (const t of l.labels) {
          this.text(t, x + 4.5, base, 'bold', GRID_LABEL_SIZE, MUTED)
          base -= GRID_LABEL_LEAD
        }
        base = this.y - 4 - labelLines * GRID_LABEL_LEAD - 1.5 - l.size * 0.85
        for (const t of l.values) {
          this.text(t, x + 4.5, base, l.font, l.size, INK)
          base -= l.size * 1.28
        }
        x += l.w
      }
      this.y -= h
    }
  }

  /** Ruled table with a shaded header row, repeated after a page break. */
  table(columns: Column[], rows: string[][]): void {
    const sum = columns.reduce((s, c) => s + c.w, 0)
    const widths = columns.map((c) => (c.w / sum) * CONTENT_W)
    const headSize = 6.6
    const bodySize = 8
    const lead = bodySize * 1.25
    const headLines = columns.map((c, i) => this.wrap(c.title.toUpperCase(), 'bold', headSize, widths[i] - 8))
    const headH = 5 + Math.max(...headLines.map((l) => l.length)) * headSize * 1.25 + 3
    const bodyLines = rows.map((r) =>
      r.map((v, i) => this.wrap(v, columns[i].font ?? 'regular', bodySize, widths[i] - 8)),
    )
    const rowH = (lines: string[][]) => 4 + Math.max(1, ...lines.map((l) => l.length)) * lead + 2
    const drawHeader = () => {
      let x = MARGIN_X
      for (let i = 0; i < columns.length; i++) {
        this.rect(x, this.y, widths[i], headH, FILL, RULE, 0.5)
        let base = this.y - 5 - headSize * 0.85
        for (const t of headLines[i]) {
          this.alignText(t, columns[i].align, x, widths[i], base, 'bold', headSize, MUTED)
          base -= headSize * 1.25
        }
        x += widths[i]
      }
      this.y -= headH
    }
    this.ensure(headH + (bodyLines.length > 0 ? rowH(bodyLines[0]) : 0))
    drawHeader()
    for (const lines of bodyLines) {
      const h = rowH(lines)
      if (this.y - h < CONTENT_BOTTOM) {
        this.newPage()
        drawHeader()
      }
      let x = MARGIN_X
      for (let i = 0; i < columns.length; i++) {
        this.rect(x, this.y, widths[i], h, undefined, RULE, 0.5)
        let base = this.y - 4 - bodySize * 0.85
        for (const t of lines[i]) {
          this.alignText(t, columns[i].align, x, widths[i], base, columns[i].font ?? 'regular', bodySize, INK)
          base -= lead
        }
        x += widths[i]
      }
      this.y -= h
    }
  }

  private alignText(
    t: string,
    align: Column['align'],
    x: number,
    w: number,
    base: number,
    font: FontKey,
    size: number,
    color: RGB,
  ): void {
    if (align === 'right') this.textRight(t, x + w - 4, base, font, size, color)
    else if (align === 'center') this.textCenter(t, x + w / 2, base, font, size, color)
    else this.text(t, x + 4, base, font, size, color)
  }

  /** Signature line of `width` points at x with a caption under it. */
  signatureLine(x: number, width: number, caption: string, sub?: string): void {
    this.hline(x, x + width, this.y, 0.6, INK)
    this.text(caption, x, this.y - 9.5, 'bold', 8, INK)
    if (sub) this.text(sub, x, this.y - 19, 'regular', 7, MUTED)
  }
}

// ------------------------------------------------------------------------------------------------ renderer
