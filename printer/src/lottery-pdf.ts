/**
 * Printed documents of the lotteries (issue #6), drawn with pdf-lib: the lotto extracto (official results, LNS-10,
 * LOT-17), the lotto minutes (acta, LNS-17, §7.11), the lotto receipt (comprobante, LNS-6, §7.10), and for the
 * numbered-ticket lottery and raffles: the extracto, the minutes, the print-shop sheet of tickets with their
 * front and back (LOT-15, LOT-16, §7.8) and the thermal-style ticket layout.
 *
 * Only the PDF standard fonts are used (WinAnsi): every string goes through `toWinAnsi`. Texts are Spanish, the
 * language of the regulations and of the public; field names follow the regulation's checklists.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib'
import QRCode from 'qrcode'
import { formatMoney } from '../../server/src/shared/money.ts'
import { toWinAnsi } from './pdf-kit.ts'
import { formatInZone, zoneLabel } from '../../server/src/shared/time-zone.ts'

const A4 = { w: 595.28, h: 841.89 }
const MARGIN = 48
const INK = rgb(0.08, 0.08, 0.1)
const MUTED = rgb(0.38, 0.39, 0.42)
const BAR = rgb(0.13, 0.2, 0.33)
const FILL = rgb(0.93, 0.94, 0.96)
const WHITE = rgb(1, 1, 1)

export function money(cents: number, currency: string): string {
  try {
    return formatMoney(cents, currency, 'es')
  } catch {
    return `${currency} ${(cents / 100).toFixed(2)}`
  }
}

/** dd/mm/yyyy HH:MM as written in the ISO time (its own offset), with the offset. */
export function formatLocalTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.exec(iso)
  if (!m) return iso
  return `${m[3]}/${m[2]}/${m[1]} ${m[4]}:${m[5]} (${m[6] === 'Z' ? 'UTC' : `UTC${m[6]}`})`
}

/** `iso` shown at the UTC offset written in `ref` (a plan's time): "01/03/2025 12:00 (UTC-04:00)". */
export function formatInOffsetOf(iso: string | null | undefined, ref: string): string {
  if (!iso) return '—'
  const m = /([+-])(\d{2}):(\d{2})$/.exec(ref)
  const t = Date.parse(iso)
  if (!m || !Number.isFinite(t)) return formatLocalTime(iso)
  const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]))
  const d = new Date(t + minutes * 60_000)
  const p2 = (n: number) => String(n).padStart(2, '0')
  return `${p2(d.getUTCDate())}/${p2(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())} (UTC${m[1]}${m[2]}:${m[3]})`
}

/**
 * Issue 17: a time on the wall clock of `timeZone` (the draw's hall or operator); without one, as written in the
 * plan (`ref`, its own offset). Never the server's UTC.
 */
export function stamp(iso: string | null | undefined, timeZone?: string | null, ref?: string): string {
  if (timeZone) return formatInZone(iso, timeZone)
  return ref ? formatInOffsetOf(iso, ref) : formatLocalTime(iso)
}

/** The footnote that says which clock a document's times are on: "Horas de La Paz, UTC-04:00.". */
export function zoneNote(timeZone: string | null | undefined, at: string): string | null {
  const t = Date.parse(at)
  return timeZone && Number.isFinite(t) ? `Horas de ${zoneLabel(t, timeZone)}.` : null
}

type FontKey = 'regular' | 'bold' | 'mono' | 'monoBold'

/** A top-to-bottom writer on A4 pages (or any size) that opens a new page when something does not fit. */
export class DocWriter {
  page!: PDFPage
  y = 0
  private charset: ReadonlySet<number>

  private constructor(
    readonly pdf: PDFDocument,
    readonly fonts: Record<FontKey, PDFFont>,
    readonly title: string,
    readonly size: { w: number; h: number },
  ) {
    this.charset = new Set(fonts.regular.getCharacterSet())
    this.newPage()
  }

  static async create(title: string, size = A4): Promise<DocWriter> {
    const pdf = await PDFDocument.create()
    pdf.setTitle(title)
    pdf.setProducer('Bolillo')
    pdf.setCreator('Bolillo lottery documents')
    const fonts = {
      regular: await pdf.embedFont(StandardFonts.Helvetica),
      bold: await pdf.embedFont(StandardFonts.HelveticaBold),
      mono: await pdf.embedFont(StandardFonts.Courier),
      monoBold: await pdf.embedFont(StandardFonts.CourierBold),
    }
    return new DocWriter(pdf, fonts, title, size)
  }

  get width(): number {
    return this.size.w - 2 * MARGIN
  }

  clean(text: string): string {
    return toWinAnsi(text, this.charset)
  }

  newPage(): void {
    this.page = this.pdf.addPage([this.size.w, this.size.h])
    this.y = this.size.h - MARGIN
  }

  ensure(height: number): void {
    if (this.y - height < MARGIN + 20) this.newPage()
  }

  /** Splits text into lines that fit `width` at `size`. */
  wrap(text: string, width: number, size: number, font: FontKey = 'regular'): string[] {
    const f = this.fonts[font]
    const out: string[] = []
    for (const para of this.clean(text).split('\n')) {
      let line = ''
      for (const word of para.split(' ')) {
        const next = line ? `${line} ${word}` : word
        if (f.widthOfTextAtSize(next, size) <= width || !line) line = next
        else {
          out.push(line)
          line = word
        }
      }
      out.push(line)
    }
    return out
  }

  text(
    text: string,
    opts: {
      size?: number
      font?: FontKey
      color?: ReturnType<typeof rgb>
      indent?: number
      gap?: number
      align?: 'left' | 'center'
    } = {},
  ): void {
    const size = opts.size ?? 9.5
    const font = opts.font ?? 'regular'
    const indent = opts.indent ?? 0
    for (const line of this.wrap(text, this.width - indent, size, font)) {
      this.ensure(size * 1.35)
      const w = this.fonts[font].widthOfTextAtSize(line, size)
      const x = opts.align === 'center' ? MARGIN + (this.width - w) / 2 : MARGIN + indent
      this.page.drawText(line, { x, y: this.y - size, size, font: this.fonts[font], color: opts.color ?? INK })
      this.y -= size * 1.35
    }
    this.y -= opts.gap ?? 2
  }

  heading(text: string, size = 12): void {
    this.ensure(size * 2.4)
    this.y -= 6
    this.page.drawRectangle({ x: MARGIN, y: this.y - size * 1.6, width: this.width, height: size * 1.6, color: BAR })
    this.page.drawText(this.clean(text), {
      x: MARGIN + 6,
      y: this.y - size * 1.2,
      size,
      font: this.fonts.bold,
      color: WHITE,
    })
    this.y -= size * 1.6 + 6
  }

  /** Label / value rows in two columns. */
  pairs(rows: Array<[string, string]>, labelWidth = 170): void {
    const size = 9
    for (const [label, value] of rows) {
      const lines = this.wrap(value || '—', this.width - labelWidth, size)
      this.ensure(lines.length * size * 1.35 + 2)
      this.page.drawText(this.clean(label), { x: MARGIN, y: this.y - size, size, font: this.fonts.bold, color: MUTED })
      for (const l of lines) {
        this.page.drawText(l, { x: MARGIN + labelWidth, y: this.y - size, size, font: this.fonts.regular, color: INK })
        this.y -= size * 1.35
      }
      this.y -= 1.5
    }
    this.y -= 3
  }

  /** A table with a header row; widths are relative. */
  table(columns: Array<{ title: string; w: number; align?: 'left' | 'right' }>, rows: string[][], size = 8.5): void {
    const total = columns.reduce((s, c) => s + c.w, 0)
    const widths = columns.map((c) => (c.w / total) * this.width)
    const header = () => {
      this.ensure(size * 2.2)
      this.page.drawRectangle({ x: MARGIN, y: this.y - size * 1.7, width: this.width, height: size * 1.7, color: FILL })
      let x = MARGIN
      columns.forEach((c, i) => {
        this.page.drawText(this.clean(c.title), {
          x: x + 3,
          y: this.y - size * 1.25,
          size,
          font: this.fonts.bold,
          color: INK,
        })
        x += widths[i]
      })
      this.y -= size * 1.7 + 2
    }
    header()
    for (const row of rows) {
      const cells = row.map((v, i) => this.wrap(v, widths[i] - 6, size))
      const h = Math.max(...cells.map((c) => c.length)) * size * 1.3 + 2
      if (this.y - h < MARGIN + 20) {
        this.newPage()
        header()
      }
      let x = MARGIN
      cells.forEach((lines, i) => {
        lines.forEach((l, j) => {
          const w = this.fonts.regular.widthOfTextAtSize(l, size)
          const tx = columns[i].align === 'right' ? x + widths[i] - 3 - w : x + 3
          this.page.drawText(l, {
            x: tx,
            y: this.y - size - j * size * 1.3,
            size,
            font: this.fonts.regular,
            color: INK,
          })
        })
        x += widths[i]
      })
      this.y -= h
      this.page.drawLine({
        start: { x: MARGIN, y: this.y + 1 },
        end: { x: MARGIN + this.width, y: this.y + 1 },
        thickness: 0.3,
        color: rgb(0.8, 0.8, 0.83),
      })
    }
    this.y -= 6
  }

  /** Signature lines for the people who sign the minutes. */
  signatures(people: Array<{ role: string; name: string }>): void {
    const per = 2
    const w = this.width / per
    for (let i = 0; i < people.length; i += per) {
      this.ensure(70)
      this.y -= 40
      people.slice(i, i + per).forEach((p, j) => {
        const x = MARGIN + j * w + 10
        this.page.drawLine({ start: { x, y: this.y }, end: { x: x + w - 30, y: this.y }, thickness: 0.6, color: INK })
        this.page.drawText(this.clean(p.name), { x, y: this.y - 11, size: 8.5, font: this.fonts.bold, color: INK })
        this.page.drawText(this.clean(p.role), { x, y: this.y - 21, size: 8, font: this.fonts.regular, color: MUTED })
      })
      this.y -= 28
    }
  }

  /** Draws a QR code of `payload` with its top-left corner at (x, top). */
  qr(payload: string, x: number, top: number, size: number, page = this.page): void {
    drawQr(page, payload, x, top, size)
  }

  async save(): Promise<Uint8Array> {
    const pages = this.pdf.getPages()
    pages.forEach((p, i) => {
      const footer = this.clean(`${this.title} - página ${i + 1} de ${pages.length} - Bolillo`)
      p.drawText(footer, { x: MARGIN, y: 24, size: 7, font: this.fonts.regular, color: MUTED })
    })
    return this.pdf.save()
  }
}

/** A QR code (error correction M) drawn as black modules, top-left corner at (x, top), `size` points wide. */
export function drawQr(page: PDFPage, payload: string, x: number, top: number, size: number): void {
  const qr = QRCode.create(payload, { errorCorrectionLevel: 'M' })
  const n = qr.modules.size
  // The standard's quiet zone of 4 modules: scanners need it.
  const quiet = 4
  const cell = size / (n + 2 * quiet)
  page.drawRectangle({ x, y: top - size, width: size, height: size, color: WHITE })
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (qr.modules.data[r * n + c])
        page.drawRectangle({
          x: x + (c + quiet) * cell,
          y: top - (r + quiet + 1) * cell,
          width: cell + 0.05,
          height: cell + 0.05,
          color: INK,
        })
    }
  }
}

// ------------------------------------------------------------------------------------------------ lotto

/** A draw's proof values as the documents print them (bolillo-draw-v2; a draw made before v2 has its v1 entropy). */
export interface ProofFacts {
  version: string
  commitment: string
  seed: string
  salesDigest: string | null
  beacon: { scheme: string; round: number; signature: string; randomness: string; demo: boolean } | null
  beaconRound: number | null
  externalEntropy: string | null
}

/** The beacon lines: a demo beacon says so in plain words (DESIGN.md point 9). */
function beaconPairs(p: {
  beacon: ProofFacts['beacon']
  beaconRound: number | null
  externalEntropy: string | null
}): Array<[string, string]> {
  if (p.beacon) {
    return [
      [
        p.beacon.demo ? 'Baliza de DEMOSTRACIÓN' : 'Baliza pública',
        p.beacon.demo
          ? `ronda ${p.beacon.round}: baliza local de demostración, NO es una baliza pública`
          : `drand quicknet, ronda ${p.beacon.round}, firma BLS verificada`,
      ],
      ['Aleatoriedad de la baliza (X)', p.beacon.randomness],
    ]
  }
  if (p.externalEntropy !== null) return [['Entropía externa (v1)', p.externalEntropy || '(vacía)']]
  return p.beaconRound !== null ? [['Ronda de baliza esperada (R)', String(p.beaconRound)]] : []
}

function proofPairs(p: ProofFacts): Array<[string, string]> {
  return [
    ['Compromiso', p.commitment],
    ['Semilla', p.seed || '(sellada hasta el sorteo)'],
    ['Resumen de ventas (D)', p.salesDigest ?? '—'],
    ...beaconPairs(p),
  ]
}

/** The extracto as the lotto service publishes it. */
export interface LottoExtracto {
  operator: string
  gameName: string
  gameCode: string
  drawId: string
  drawNumber: number
  issue: string
  drawAt: string
  drawPlace: string
  drawMethod: string
  drawDevice: string | null
  range: number
  picks: number
  balls: number[]
  numbers: number[]
  categories: Array<{
    code: string
    name: string
    matches: number
    type: string
    winners: number
    amountEachCents: number
    extraCentWinners: number
    totalCents: number
    carryInCents?: number
    carryOutCents: number
    goods: { description: string; unitValueCents: number } | null
  }>
  /** LNS-4: money rolled over from the previous draw, in total and by old category (code -> receiving code). */
  carriedInCents?: number
  carriedIn?: Array<{ from: string; to: string; cents: number }>
  receipts: number
  plays: number
  salesCents: number
  poolCents: number
  currency: string
  participationSha256: string | null
  proof: ProofFacts | null
  claimDeadline: string
  paymentPlace: string
  regulationUrl: string
  remainderRule: string
  legend: string
  publishedAt: string | null
  /** Issue 17: the hall's or the operator's IANA zone; every time is printed on its wall clock. */
  timeZone?: string | null
}

const two = (n: number) => String(n).padStart(2, '0')

/** Issue 17: the documents speak Spanish; a bilingual "es / en" text keeps its Spanish half. */
function spanishOnly(text: string): string {
  const i = text.indexOf(' / Prize')
  return i > 0 ? text.slice(0, i) : text
}

/** States of a slip and of a range of tickets out of play, as the minutes say them. */
const SLIP_STATUS: Record<string, string> = {
  active: 'válido',
  annulled: 'anulado',
  cancelled: 'cancelado',
  excluded: 'excluido',
  inactive: 'excluido',
  expired: 'caducado',
  paid: 'pagado',
}
const RANGE_KIND: Record<string, string> = {
  returned: 'devolución',
  return: 'devolución',
  lost: 'extravío',
  stolen: 'robo',
}

function footnote(w: DocWriter, note: string | null): void {
  if (note) w.text(note, { size: 8, color: MUTED })
}

function prizeText(c: LottoExtracto['categories'][number], currency: string): string {
  if (c.winners === 0)
    return c.type === 'share'
      ? `Vacante: ${money(c.carryOutCents, currency)} ${c.carryOutCents ? 'acumulado al próximo sorteo' : ''}`.trim()
      : 'Sin ganadores'
  if (c.type === 'goods') return `1 x ${c.goods?.description ?? ''}`
  return money(c.amountEachCents, currency) + (c.extraCentWinners ? ` (+0,01 a ${c.extraCentWinners})` : '')
}

/** The lotto extracto (official results) as an A4 PDF (LNS-10, LOT-17), on the frame both lines share. */
export async function renderLottoExtractoPdf(e: LottoExtracto): Promise<Uint8Array> {
  return renderExtracto(
    {
      institution: e.operator,
      name: e.gameName,
      drawNumber: e.drawNumber,
      issue: `Emisión ${e.issue}`,
      drawAt: e.drawAt,
      timeZone: e.timeZone,
      proof: e.proof,
      claimDeadline: e.claimDeadline,
      paymentPlace: e.paymentPlace,
      regulationUrl: e.regulationUrl,
      notes: [`Regla de redondeo: ${spanishOnly(e.remainderRule)}`],
      legend: e.legend,
    },
    {
      results(w) {
        w.heading('Números ganadores')
        w.text(e.numbers.map(two).join('   '), { size: 22, font: 'monoBold', align: 'center', gap: 4 })
        w.text(`Orden de extracción: ${e.balls.map(two).join(' - ')} (el orden no influye en los premios, LNS-3)`, {
          size: 8.5,
          color: MUTED,
          align: 'center',
          gap: 8,
        })
        w.heading('Premios por categoría')
        w.table(
          [
            { title: 'Categoría', w: 2.2 },
            { title: 'Aciertos', w: 0.9, align: 'right' },
            { title: 'Ganadores', w: 1.1, align: 'right' },
            { title: 'Acumulado', w: 1.4, align: 'right' },
            { title: 'Premio por jugada', w: 2.6, align: 'right' },
            { title: 'Total', w: 1.6, align: 'right' },
          ],
          e.categories.map((c) => [
            `${c.name} (${c.code})`,
            String(c.matches),
            String(c.winners),
            c.type === 'share' ? money(c.carryInCents ?? 0, e.currency) : '—',
            prizeText(c, e.currency),
            c.type === 'goods' ? `${c.winners} u.` : money(c.totalCents, e.currency),
          ]),
        )
        // LNS-4: the money carried in from the previous draw, and under which category it was rolled over.
        const moved = (e.carriedIn ?? []).filter((m) => m.from !== m.to)
        if (moved.length > 0)
          w.text(
            `Acumulado recibido de categorías del sorteo anterior: ${moved.map((m) => `${money(m.cents, e.currency)} de ${m.from} a ${m.to}`).join('; ')} (según el plan autorizado del sorteo, LNS-4).`,
            { size: 8, color: MUTED, gap: 4 },
          )
      },
      data: [
        ['Fecha y hora del sorteo', stamp(e.drawAt, e.timeZone)],
        ['Lugar', e.drawPlace],
        ['Medio de extracción', extractionMeans(e.drawMethod, e.drawDevice, e.proof)],
        ['Rango y selección', `${e.picks} números del 1 al ${e.range}`],
        ['Comprobantes habilitados', String(e.receipts)],
        ['Jugadas', String(e.plays)],
        ['Recaudación', money(e.salesCents, e.currency)],
        ['Fondo de premios', money(e.poolCents, e.currency)],
        ['Acumulado del sorteo anterior', money(e.carriedInCents ?? 0, e.currency)],
        ['Archivo de participación (SHA-256)', e.participationSha256 ?? '—'],
      ],
    },
  )
}

/** What the lotto minutes hold (see LottoService.acta). */
export interface LottoActa {
  drawId: string
  status: string
  /** LNS-22 / LOT-21: the authorised withdrawal or renunciation of the draw, if any. */
  cancellation?: {
    at: string
    kind: string
    authorisationRef: string
    reason: string
    slipsToRefund: number
    refundCents: number
  } | null
  background: {
    operator: string
    gameName: string
    drawNumber: number
    issue: string
    authorisationRef: string
    range: number
    picks: number
    drawCount: number
    priceCents: number
    currency: string
    salesStartAt: string
    salesCloseAt: string
    drawAt: string
    drawPlace: string
    claimDeadline: string
    drawMethod: string
    drawDevice: string | null
    commitment: string
    budgetCents: number
    prizePoolBp: number
    categories: Array<{
      code: string
      name: string
      matches: number
      prize: { type: string; bp?: number; amountCents?: number; description?: string }
    }>
  }
  beforeDraw: {
    closedAt: string | null
    receiptsEnabled: number
    plays: number
    salesCents: number
    participationSha256: string
    salesDigest: string | null
    beaconRound: number | null
    beacon: ProofFacts['beacon']
    externalEntropy: string | null
    excluded: Array<{ receipt: string; status: string; reason: string | null; refundCents: number }>
  } | null
  draw: { balls: number[]; drawnAt: string | null; seed: string | null } | null
  results: {
    numbers: number[]
    poolCents: number
    reserveCents: number
    categories: LottoExtracto['categories']
    histogram: number[]
    remainderRule: string
  } | null
  incidents: Array<{ at: string; note: string }>
  journal: { records: number; lastSeq: number | null; lastHash: string | null }
  signatures: Array<{ role: string; name: string }>
  /** Issue 17: the hall's or the operator's IANA zone; every time is printed on its wall clock. */
  timeZone?: string | null
}

function prizeRule(
  p: { type: string; bp?: number; amountCents?: number; description?: string },
  currency: string,
): string {
  if (p.type === 'share') return `${((p.bp ?? 0) / 100).toFixed(2)} % del fondo (reparto)`
  if (p.type === 'fixed') return `${money(p.amountCents ?? 0, currency)} fijo`
  return `bien: ${p.description ?? ''}`
}

/** The lotto draw minutes (acta, LNS-17, §7.11) as an A4 PDF, on the frame both lines share. */
export async function renderLottoActaPdf(a: LottoActa): Promise<Uint8Array> {
  const b = a.background
  const cancel = a.cancellation
  return renderActa(
    {
      institution: b.operator,
      name: b.gameName,
      drawNumber: b.drawNumber,
      issue: `Emisión ${b.issue}`,
      drawAt: b.drawAt,
      timeZone: a.timeZone,
      currency: b.currency,
      cancellation: cancel
        ? {
            ...cancel,
            rule: 'LNS-22, LOT-21',
            refund: [
              'Comprobantes a reintegrar',
              `${cancel.slipsToRefund} (${money(cancel.refundCents, b.currency)}), en caja contra el código del comprobante`,
            ],
          }
        : null,
      incidents: a.incidents,
      journal: a.journal,
      signatures: a.signatures,
    },
    [
      {
        title: 'Antecedentes',
        body(w) {
          w.pairs([
            ['Autorización AJ', b.authorisationRef],
            ['Rango / selección / extracción', `1 a ${b.range}; ${b.picks} por jugada; ${b.drawCount} bolillas`],
            ['Precio por jugada', money(b.priceCents, b.currency)],
            ['Venta', `${stamp(b.salesStartAt, a.timeZone)} a ${stamp(b.salesCloseAt, a.timeZone)}`],
            ['Sorteo', `${stamp(b.drawAt, a.timeZone)}, ${b.drawPlace}`],
            ['Medio de extracción', extractionMeans(b.drawMethod, b.drawDevice)],
            ['Compromiso de semilla', b.commitment],
            ['Presupuesto general', money(b.budgetCents, b.currency)],
            ['Fondo de premios', `${(b.prizePoolBp / 100).toFixed(2)} % de la recaudación`],
            ['Prescripción', stamp(b.claimDeadline, a.timeZone)],
          ])
          w.table(
            [
              { title: 'Categoría', w: 2.5 },
              { title: 'Aciertos', w: 1, align: 'right' },
              { title: 'Premio', w: 3 },
            ],
            b.categories.map((c) => [`${c.name} (${c.code})`, String(c.matches), prizeRule(c.prize, b.currency)]),
          )
        },
      },
      {
        title: 'Cierre de ventas y participación (LNS-13, LNS-14, LNS-21)',
        body(w) {
          if (!a.beforeDraw) return w.text('Ventas abiertas.', { color: MUTED })
          const d = a.beforeDraw
          w.pairs([
            ['Cierre de ventas', stamp(d.closedAt, a.timeZone, b.drawAt)],
            ['Comprobantes habilitados', String(d.receiptsEnabled)],
            ['Jugadas', String(d.plays)],
            ['Recaudación', money(d.salesCents, b.currency)],
            ['Archivo de participación SHA-256', d.participationSha256],
            ['Resumen de ventas (D)', d.salesDigest ?? '—'],
            ...beaconPairs(d),
          ])
          w.text(`Jugadas excluidas o anuladas: ${d.excluded.length}`, { font: 'bold' })
          if (d.excluded.length)
            w.table(
              [
                { title: 'Comprobante', w: 2 },
                { title: 'Estado', w: 1 },
                { title: 'Observaciones', w: 3 },
                { title: 'Reembolso', w: 1.3, align: 'right' },
              ],
              d.excluded.map((x) => [
                x.receipt,
                SLIP_STATUS[x.status] ?? x.status,
                x.reason ?? '',
                money(x.refundCents, b.currency),
              ]),
            )
        },
      },
      {
        title: 'Sorteo y resultados',
        body(w) {
          if (a.draw) {
            w.pairs([
              ['Orden de extracción', a.draw.balls.map(two).join(' - ')],
              ['Hora', stamp(a.draw.drawnAt, a.timeZone, b.drawAt)],
              ['Semilla revelada', a.draw.seed ?? '—'],
            ])
          }
          if (!a.results) return w.text('Sin liquidar.', { color: MUTED })
          w.text(`Números ganadores: ${a.results.numbers.map(two).join(' ')}`, { size: 13, font: 'monoBold', gap: 6 })
          w.table(
            [
              { title: 'Categoría', w: 2.4 },
              { title: 'Ganadores', w: 1.1, align: 'right' },
              { title: 'Premio por jugada', w: 2.4, align: 'right' },
              { title: 'Total', w: 1.6, align: 'right' },
              { title: 'Acumulado', w: 1.5, align: 'right' },
            ],
            a.results.categories.map((c) => [
              `${c.name} (${c.code})`,
              String(c.winners),
              prizeText(c, b.currency),
              c.type === 'goods' ? `${c.winners} u.` : money(c.totalCents, b.currency),
              money(c.carryOutCents, b.currency),
            ]),
          )
          w.pairs([
            ['Fondo de premios', money(a.results.poolCents, b.currency)],
            ['Reserva del operador', money(a.results.reserveCents, b.currency)],
            ['Jugadas por aciertos', a.results.histogram.map((n, i) => `${i}: ${n}`).join('  ')],
          ])
          w.text(`Regla de redondeo: ${spanishOnly(a.results.remainderRule)}`, { size: 7.5, color: MUTED })
        },
      },
    ],
  )
}

/** What a lotto receipt shows (LNS-6, §7.10); the LottoReceipt of the service. */
export interface LottoReceiptPrint {
  /** The bearer QR payload; null for a copy (issue 13 point 4), which is printed without it. */
  receiptNumber: string
  code: string | null
  operator: string
  gameName: string
  categories: Array<{ code: string; name: string; matches: number }>
  drawNumber: number
  issue: string
  drawAt: string
  draws: Array<{ drawNumber: number; drawAt: string }>
  player: { name: string; document: string }
  boards: Array<{ numbers: number[]; quickPick: boolean }>
  soldAt: string
  amountCents: number
  currency: string
  securityWarnings: string[]
  regulationUrl: string
  paymentPlace: string
  legend: string
  /** Issue 17: the hall's or the operator's IANA zone; every time is printed on its wall clock. */
  timeZone?: string | null
}

/** The lines of a lotto receipt for an 80 mm thermal roll (48 columns); the QR carries `code`. */
export function lottoReceiptLines(r: LottoReceiptPrint, columns = 48): string[] {
  const line = '-'.repeat(columns)
  return [
    r.operator,
    `COMPROBANTE ${r.gameName}`,
    `N.º ${r.receiptNumber}`,
    line,
    `Sorteo N.º ${r.drawNumber}  Emisión ${r.issue}`,
    `Fecha del sorteo: ${stamp(r.drawAt, r.timeZone)}`,
    `Válido para: ${r.draws.map((d) => `N.º ${d.drawNumber}`).join(', ')}`,
    `Categorías: ${r.categories.map((c) => `${c.name} (${c.matches})`).join(', ')}`,
    line,
    `Jugador: ${r.player.name}`,
    `Documento: ${r.player.document}`,
    line,
    ...r.boards.map(
      (b, i) => `${String.fromCharCode(65 + i)}: ${b.numbers.map(two).join(' ')}${b.quickPick ? '  (automática)' : ''}`,
    ),
    line,
    `Emitido: ${stamp(r.soldAt, r.timeZone, r.drawAt)}`,
    `Importe: ${money(r.amountCents, r.currency)}`,
    line,
    ...(zoneNote(r.timeZone, r.soldAt) ? [zoneNote(r.timeZone, r.soldAt)!] : []),
    ...r.securityWarnings,
    `Reglamento: ${r.regulationUrl}`,
    `Cobro: ${r.paymentPlace}`,
    r.legend,
  ]
}

/** The receipt as a PDF on an 80 mm roll-sized page, with the signed QR. */
export async function renderLottoReceiptPdf(r: LottoReceiptPrint): Promise<Uint8Array> {
  const width = 226.77 // 80 mm
  const margin = 14
  const fontSize = 7.5
  // Courier advances 0.6 em: the roll holds this many characters per line.
  const columns = Math.floor((width - 2 * margin) / (fontSize * 0.6))
  const lines = lottoReceiptLines(r, columns).flatMap((l) => wrapColumns(l, columns))
  const qrSize = 150
  const w = await DocWriter.create(`Comprobante ${r.receiptNumber}`, {
    w: width,
    h: 2 * margin + lines.length * 9.5 + qrSize + 12,
  })
  let y = w.size.h - margin
  for (const l of lines) {
    w.page.drawText(w.clean(l), { x: margin, y: y - fontSize, size: fontSize, font: w.fonts.mono, color: INK })
    y -= 9.5
  }
  if (r.code) drawQr(w.page, r.code, (width - qrSize) / 2, y - 6, qrSize)
  else
    w.page.drawText('COPIA - NO VALIDA PARA EL COBRO', {
      x: margin,
      y: y - 20,
      size: 9,
      font: w.fonts.mono,
      color: INK,
    })
  return w.pdf.save()
}

/** Splits text on spaces into lines of at most `columns` characters (longer words are cut). */
export function wrapColumns(text: string, columns: number): string[] {
  const out: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    let wd = word
    while (wd.length > columns) {
      if (line) {
        out.push(line)
        line = ''
      }
      out.push(wd.slice(0, columns))
      wd = wd.slice(columns)
    }
    const next = line ? `${line} ${wd}` : wd
    if (next.length <= columns) line = next
    else {
      out.push(line)
      line = wd
    }
  }
  out.push(line)
  return out
}

// ------------------------------------------------------------------------------------------------ numbered-ticket lottery

/** One fraction as printed (LOT-15 front, LOT-16 back, §7.8). */
export interface LotteryTicketPrint {
  code: string
  ticketId: string
  /** The NO RASPAR zone's control: number, series, fraction, print run and tag ("00041-01-01 T1 3FA2 …"). */
  control: string
  institution: string
  lotteryName: string
  number: string
  series: number
  fraction: number
  fractions: number
  fractionPriceCents: number
  ticketPriceCents: number
  currency: string
  drawNumber: number
  issue: string
  drawAt: string
  drawPlace: string
  securityMarks: string
  authority: string
  legend: string
  prizes: Array<{ name: string; rule: string; amountPerTicketCents: number; amountPerFractionCents: number }>
  claimDeadline: string
  securityWarnings: string[]
  winningTickets: number
  paymentPlace: string
  regulationUrl: string
  authorisationRef: string
  territory: string | null
  /** Issue 17: the hall's or the operator's IANA zone; every time is printed on its wall clock. */
  timeZone?: string | null
}

/** Front and back of a fraction as lines of an 80 mm thermal roll (48 columns); the QR carries `code`. */
export function lotteryTicketLines(t: LotteryTicketPrint): { front: string[]; back: string[]; code: string } {
  const rule = '-'.repeat(48)
  const front = [
    t.institution,
    t.lotteryName,
    rule,
    `NÚMERO ${t.number}   SERIE ${String(t.series).padStart(2, '0')}   FRACCIÓN ${t.fraction}/${t.fractions}`,
    `Sorteo N.º ${t.drawNumber}   ${t.issue}`,
    `Fecha del sorteo: ${stamp(t.drawAt, t.timeZone)}`,
    `Precio fracción: ${money(t.fractionPriceCents, t.currency)}`,
    `Billete entero: ${money(t.ticketPriceCents, t.currency)}`,
    rule,
    // LOT-15 (8): the amount of every prize on the front, not only the first ones.
    ...t.prizes.map((p) => `${p.name}: ${money(p.amountPerTicketCents, t.currency)} por billete`),
    rule,
    `Claves y marcas de seguridad: ${t.securityMarks}`,
    `[ NO RASPAR ]  Control ${t.control}`,
    `Firma: ${t.authority} (Máxima Autoridad Ejecutiva)`,
    '[AJ] ' + t.legend,
  ]
  const back = [
    'REGLAMENTO DEL SORTEO (reverso)',
    `Fracciones por billete: ${t.fractions}`,
    'Estructura de premios (por billete / por fracción):',
    ...t.prizes.map(
      (p) =>
        `- ${p.name} (${p.rule}): ${money(p.amountPerTicketCents, t.currency)} / ${money(p.amountPerFractionCents, t.currency)}`,
    ),
    `Billetes ganadores: hasta ${t.winningTickets.toLocaleString('es')}`,
    `Caducidad: los premios se cobran hasta el ${stamp(t.claimDeadline, t.timeZone)} (mínimo 60 días, LOT-23).`,
    ...t.securityWarnings.map((w) => `! ${w}`),
    `Pago de premios: ${t.paymentPlace}`,
    `Emisión: ${t.issue}  Autorización AJ: ${t.authorisationRef}`,
    ...(t.territory ? [`Venta autorizada solo en: ${t.territory}`] : []),
    `Reglamento específico: ${t.regulationUrl}`,
  ]
  return { front, back, code: t.code }
}

/** One fraction on an 80 mm roll-sized page: front lines, QR, then back lines. */
export async function renderLotteryThermalPdf(t: LotteryTicketPrint): Promise<Uint8Array> {
  const { front, back } = lotteryTicketLines(t)
  const width = 226.77
  const margin = 14
  const fontSize = 7.5
  const columns = Math.floor((width - 2 * margin) / (fontSize * 0.6))
  const f = front.flatMap((l) => wrapColumns(l, columns))
  const b = ['', '-'.repeat(columns), ...back].flatMap((l) => wrapColumns(l, columns))
  const qrSize = 140
  const w = await DocWriter.create(`Billete ${t.number} S${String(t.series).padStart(2, '0')} F${t.fraction}`, {
    w: width,
    h: 2 * margin + (f.length + b.length) * 9.5 + qrSize + 16,
  })
  let y = w.size.h - margin
  const put = (l: string, bold = false) => {
    w.page.drawText(w.clean(l), {
      x: margin,
      y: y - fontSize,
      size: fontSize,
      font: bold ? w.fonts.monoBold : w.fonts.mono,
      color: INK,
    })
    y -= 9.5
  }
  f.forEach((l, i) => put(l, i === 3))
  drawQr(w.page, t.code, (width - qrSize) / 2, y - 4, qrSize)
  y -= qrSize + 8
  for (const l of b) put(l)
  return w.pdf.save()
}

/**
 * A fraction as the back office may see it (LOT-26): what is printed in the clear, without the payable code, its id
 * or the run's tag (the control names the fraction and its run only).
 */
export type LotteryTicketProof = Omit<LotteryTicketPrint, 'code' | 'ticketId'> & {
  code?: undefined
  ticketId?: undefined
}

/**
 * The print-shop sheet: four fractions per A4 page (fronts), each page followed by a page with their backs in the
 * same slots, so that a duplex print (long-edge binding) puts every back behind its front (LOT-15, LOT-16).
 * LOT-26: given proofs (no code), the QR's place says that the secure printer prints it; only the secure printer's
 * file set carries the sheet with the codes.
 */
export async function renderLotteryTicketSheetPdf(
  tickets: readonly (LotteryTicketPrint | LotteryTicketProof)[],
  art: { ajLogo?: Uint8Array; maeSignature?: Uint8Array } = {},
): Promise<Uint8Array> {
  const w = await DocWriter.create(
    tickets.length ? `Billetes ${tickets[0].lotteryName} ${tickets[0].number}-${tickets.at(-1)!.number}` : 'Billetes',
  )
  // CFG-39: the images uploaded by the lottery administration, embedded once and drawn on every fraction.
  const logo = art.ajLogo ? await w.pdf.embedPng(art.ajLogo) : null
  const signature = art.maeSignature ? await w.pdf.embedPng(art.maeSignature) : null
  /** The image scaled to fit the box, keeping its proportions, centred in it. */
  const fitIn = (page: PDFPage, img: PDFImage, x: number, y: number, bw: number, bh: number) => {
    const k = Math.min(bw / img.width, bh / img.height)
    const [iw, ih] = [img.width * k, img.height * k]
    page.drawImage(img, { x: x + (bw - iw) / 2, y: y + (bh - ih) / 2, width: iw, height: ih })
  }
  const perPage = 4
  const boxH = (A4.h - 2 * MARGIN) / perPage
  const boxW = A4.w - 2 * MARGIN
  const { regular, bold, mono, monoBold } = w.fonts
  const txt = (page: PDFPage, s: string, x: number, y: number, size: number, font: PDFFont, color = INK) =>
    page.drawText(w.clean(s), { x, y, size, font, color })
  for (let i = 0; i < tickets.length; i += perPage) {
    const group = tickets.slice(i, i + perPage)
    const front = i === 0 ? w.page : w.pdf.addPage([A4.w, A4.h])
    group.forEach((t, k) => {
      const top = A4.h - MARGIN - k * boxH
      const x = MARGIN
      front.drawRectangle({ x, y: top - boxH + 6, width: boxW, height: boxH - 6, borderColor: INK, borderWidth: 0.8 })
      txt(front, t.institution, x + 10, top - 20, 10, bold)
      txt(front, t.lotteryName, x + 10, top - 34, 9, regular)
      txt(
        front,
        `Sorteo N.º ${t.drawNumber} - ${t.issue} - ${stamp(t.drawAt, t.timeZone)}`,
        x + 10,
        top - 47,
        8,
        regular,
        MUTED,
      )
      txt(front, t.number, x + 10, top - 84, 40, monoBold)
      txt(
        front,
        `Serie ${String(t.series).padStart(2, '0')}   Fracción ${t.fraction} de ${t.fractions}`,
        x + 10,
        top - 100,
        9,
        bold,
      )
      txt(
        front,
        `Fracción ${money(t.fractionPriceCents, t.currency)} - Billete ${money(t.ticketPriceCents, t.currency)}`,
        x + 10,
        top - 113,
        8.5,
        regular,
      )
      // LOT-15 (8): the amount of every prize on the front (the sheet once showed the first two). Every prize in a
      // run of text wrapped to the column left of the scratch box, in as small a size as it takes to fit its lines.
      const prizeText = `Premios por billete: ${t.prizes.map((p) => `${p.name} ${money(p.amountPerTicketCents, t.currency)}`).join(' · ')}`
      const fit = [8, 7, 6.2, 5.5, 4.8].map((size) => ({ size, lines: w.wrap(prizeText, 180, size) }))
      const { size, lines } = fit.find((f) => f.lines.length * (f.size + 1.2) <= 22) ?? fit.at(-1)!
      lines.forEach((l, j) => txt(front, l, x + 10, top - 124 - j * (size + 1.2), size, regular))
      txt(front, `Seguridad: ${t.securityMarks}`, x + 10, top - 150, 7, regular, MUTED)
      // LOT-15 (9): the MAE's signature image above the line and name; without one on record the sheet says so.
      if (signature) fitIn(front, signature, x + 10, top - 167, 170, 14)
      else txt(front, 'Firma de la MAE: imagen no registrada', x + 10, top - 164, 6.5, regular, MUTED)
      front.drawLine({
        start: { x: x + 10, y: top - 168 },
        end: { x: x + 180, y: top - 168 },
        thickness: 0.5,
        color: INK,
      })
      txt(front, `${t.authority} - Máxima Autoridad Ejecutiva`, x + 10, top - 176, 7, regular)
      front.drawRectangle({ x: x + 200, y: top - 110, width: 110, height: 42, color: FILL })
      txt(front, 'NO RASPAR', x + 222, top - 92, 10, bold, MUTED)
      // Two lines that fit under the box: the fraction and its run, then the run's tag.
      const [fractionRun, tag] = [t.control.split(' ').slice(0, 2).join(' '), t.control.split(' ').slice(2).join(' ')]
      txt(front, `Control ${fractionRun}`, x + 200, top - 120, 6.5, mono, MUTED)
      txt(front, tag, x + 200, top - 128, 6.5, mono, MUTED)
      // The regulator's logo (CFG-39 image) and legend (LOT-15 (11), (12)); no logo on record is said in words,
      // never drawn as a stand-in.
      if (logo) fitIn(front, logo, x + 200, top - 160, 34, 24)
      else {
        txt(front, 'Logo AJ:', x + 200, top - 146, 5.5, regular, MUTED)
        txt(front, 'imagen no', x + 200, top - 152, 5.5, regular, MUTED)
        txt(front, 'registrada', x + 200, top - 158, 5.5, regular, MUTED)
      }
      txt(front, t.legend, x + 240, top - 150, 6.5, regular)
      if (t.code) drawQr(front, t.code, x + boxW - 130, top - 12, 118)
      else {
        front.drawRectangle({
          x: x + boxW - 130,
          y: top - 130,
          width: 118,
          height: 118,
          borderColor: MUTED,
          borderWidth: 0.5,
        })
        txt(front, 'Código de cobro:', x + boxW - 124, top - 60, 7, regular, MUTED)
        txt(front, 'lo imprime la', x + boxW - 124, top - 70, 7, regular, MUTED)
        txt(front, 'imprenta segura', x + boxW - 124, top - 80, 7, regular, MUTED)
      }
    })
    const back = w.pdf.addPage([A4.w, A4.h])
    group.forEach((t, k) => {
      // Full-width slots: turned over its long edge, the k-th back lands behind the k-th front.
      const top = A4.h - MARGIN - k * boxH
      const x = MARGIN
      back.drawRectangle({ x, y: top - boxH + 6, width: boxW, height: boxH - 6, borderColor: MUTED, borderWidth: 0.5 })
      const lines = lotteryTicketLines({ ...t, code: t.code ?? '', ticketId: t.ticketId ?? '' }).back
      let y = top - 14
      for (const l of lines) {
        for (const part of w.wrap(l, boxW - 20, 6.8)) {
          if (y < top - boxH + 12) break
          back.drawText(part, { x: x + 10, y, size: 6.8, font: regular, color: INK })
          y -= 8.4
        }
      }
      txt(
        back,
        `${t.number} S${String(t.series).padStart(2, '0')} F${t.fraction}`,
        x + boxW - 90,
        top - boxH + 14,
        7,
        mono,
        MUTED,
      )
    })
  }
  return w.save()
}

/** The lottery or raffle extracto as the service publishes it. */
export interface LotteryExtracto {
  product: string
  kind: string
  institution: string
  name: string
  drawId: string
  drawNumber: number
  issue: string | null
  drawAt: string
  drawPlace: string
  drawMethod: string
  drawDevice: string | null
  series: number
  fractions: number
  currency: string
  winning: Record<string, string>
  prizes: Array<{
    code: string
    name: string
    rule: string
    numbers: string[] | null
    numbersCount: number
    amountPerTicketCents: number
    amountPerFractionCents: number
    ticketsInPlay: number
    goods: string | null
  }>
  ticketsInPlay: number
  participationSha256: string | null
  lostStolen: Array<{ kind: string; from: string; to: string; seriesFrom: number; seriesTo: number; quantity: number }>
  proof: ProofFacts | null
  claimDeadline: string
  paymentPlace: string
  /** LOT-17: the Reglamento Específico the prizes are paid under (a numbered lottery's plan; a raffle has none). */
  regulationUrl?: string | null
  legend: string
  /** Issue 17: the hall's or the operator's IANA zone; every time is printed on its wall clock. */
  timeZone?: string | null
  /** PRM-9: this draw's place in a successive plan, and whether earlier winners stayed in play. */
  successive?: SuccessiveFacts | null
  /** PRM-2: a tómbola by points: the points each drawn ticket got and each object's figure. */
  points?: PointsFacts | null
}

/** PRM-2: a points tómbola's draw as its extracto and acta list it. */
export interface PointsFacts {
  basesRef: string
  totalPoints: number
  tiers: Array<{ count: number; points: number }>
  figures: Array<{ code: string; name: string; points: number }>
  tickets: Array<{ number: string; points: number; order: number }>
}

/** PRM-2: the objects' figures and the drawn tickets with their points, in the order drawn. */
function pointsSection(w: DocWriter, f: PointsFacts): void {
  w.heading('Tómbola por puntos (PRM-2)')
  w.pairs([
    ['Bases', f.basesRef],
    [
      'Puntos aprobados',
      `${f.totalPoints}: ${f.tiers.map((t) => `${t.count} boletos de ${t.points} puntos`).join(', ')}`,
    ],
  ])
  w.table(
    [
      { title: 'Objeto expuesto', w: 3 },
      { title: 'Cifra en puntos', w: 1, align: 'right' },
    ],
    f.figures.map((x) => [x.name, String(x.points)]),
  )
  w.table(
    [
      { title: 'Orden de extracción', w: 1 },
      { title: 'Boleto', w: 1 },
      { title: 'Puntos', w: 1, align: 'right' },
    ],
    f.tickets.map((t) => [String(t.order), t.number, String(t.points)]),
  )
  w.text('Se retira un objeto presentando boletos cuyos puntos sumen al menos su cifra; cada boleto se usa una vez.', {
    color: MUTED,
  })
}

/** PRM-9: a draw of a successive plan (tracto sucesivo), as its extracto and acta state it. */
export interface SuccessiveFacts {
  index: number
  of: number
  winnersStayIn: boolean | null
}

/** "Sorteo 2 de 3; ..." for the extracto and the acta (PRM-9). */
function successiveText(s: SuccessiveFacts): string {
  return `Sorteo ${s.index} de ${s.of}; ${s.winnersStayIn ? 'los boletos premiados siguen en juego' : 'los boletos premiados en sorteos anteriores no participan'}`
}

/** The lottery or raffle extracto (official results, LOT-17) as an A4 PDF, on the frame both lines share. */
export async function renderLotteryExtractoPdf(e: LotteryExtracto): Promise<Uint8Array> {
  return renderExtracto(
    {
      institution: e.institution,
      name: e.name,
      drawNumber: e.drawNumber,
      issue: e.issue,
      drawAt: e.drawAt,
      timeZone: e.timeZone,
      proof: e.proof,
      claimDeadline: e.claimDeadline,
      paymentPlace: e.paymentPlace,
      regulationUrl: e.regulationUrl ?? null,
      paying: 'Los premios son indivisibles y se pagan contra entrega del billete o fracción (LOT-25, LOT-26).',
      legend: e.legend,
    },
    {
      results(w) {
        if (e.points) pointsSection(w, e.points)
        else w.heading(e.product === 'raffle' ? 'Boletos ganadores' : 'Números premiados')
        for (const p of e.prizes.filter((x) => e.winning[x.code]))
          w.text(`${p.name}: ${e.winning[p.code]}`, { size: 15, font: 'monoBold', align: 'center', gap: 2 })
        // PRM-2: a points tómbola's objects are listed with their figures above; none is drawn for a ticket.
        if (e.points) return
        w.heading('Premios')
        w.table(
          [
            { title: 'Premio', w: 2.2 },
            { title: 'Regla', w: 2.4 },
            { title: 'Números', w: 2 },
            { title: e.product === 'raffle' ? 'Premio' : 'Por billete / fracción', w: 2.2, align: 'right' },
          ],
          e.prizes.map((p) => [
            p.name,
            p.rule,
            p.numbers ? p.numbers.join(' ') : `${p.numbersCount} números`,
            p.goods ?? `${money(p.amountPerTicketCents, e.currency)} / ${money(p.amountPerFractionCents, e.currency)}`,
          ]),
        )
      },
      data: [
        ['Fecha y lugar', `${stamp(e.drawAt, e.timeZone)}, ${e.drawPlace}`],
        ['Medio de extracción', extractionMeans(e.drawMethod, e.drawDevice, e.proof)],
        ['Billetes en juego', String(e.ticketsInPlay)],
        ...(e.successive ? [['Tracto sucesivo (PRM-9)', successiveText(e.successive)] as [string, string]] : []),
        ['Series / fracciones', `${e.series} / ${e.fractions}`],
        ['Participación (SHA-256)', e.participationSha256 ?? '—'],
      ],
      after(w) {
        if (!e.lostStolen.length) return
        w.heading('Billetes denunciados (no se pagan, LST-4, LST-5)')
        w.table(
          [
            { title: 'Tipo', w: 1 },
            { title: 'Del', w: 1 },
            { title: 'Al', w: 1 },
            { title: 'Series', w: 1 },
            { title: 'Cantidad', w: 1, align: 'right' },
          ],
          e.lostStolen.map((r) => [
            r.kind === 'stolen' ? 'robo' : 'extravío',
            r.from,
            r.to,
            `${r.seriesFrom}-${r.seriesTo}`,
            String(r.quantity),
          ]),
        )
      },
    },
  )
}

export interface LotteryActa {
  product: string
  drawId: string
  status: string
  plan: {
    name: string
    drawNumber: number
    drawAt: string
    drawPlace: string
    currency: string
    claimDeadline: string
    drawMethod: string
    authorisationRef?: string | null
    /** A numbered lottery's institution and issue, a raffle's organiser; the device of a manual draw (LOT-18). */
    institution?: string
    organiser?: string
    issue?: string
    drawDevice?: string | null
    /** PRM-9: a draw of a successive plan. */
    round?: { index: number; of: number } | null
    winnersStayIn?: boolean | null
  }
  /** LOT-21: the authorised withdrawal or renunciation of the draw, if any, and what is to be refunded. */
  cancellation?: {
    at: string
    kind: string
    authorisationRef: string
    reason: string
    toRefund: number
    refundCents: number
  } | null
  liabilityCents: number
  ranges: Array<{
    kind: string
    from: number
    to: number
    seriesFrom: number
    seriesTo: number
    quantity: number
    details: { notice?: string; policeReportRef?: string | null; lateReport?: boolean }
  }>
  participation: {
    closedAt: string | null
    ticketsInPlay: number
    sha256: string
    salesDigest: string | null
    beaconRound: number | null
    beacon: ProofFacts['beacon']
    externalEntropy: string | null
  } | null
  drawn: string[]
  drawnAt: string | null
  seed: string | null
  commitment: string
  result: {
    winning: Record<string, number>
    prizes: Array<{
      name: string
      rule: string
      numbersCount: number
      ticketsInPlay: number
      liabilityCents: number
      goods: string | null
    }>
    liabilityCents: number
  } | null
  incidents: Array<{ at: string; note: string }>
  journal: { records: number; lastSeq: number | null; lastHash: string | null }
  signatures: Array<{ role: string; name: string }>
  /** Issue 17: the hall's or the operator's IANA zone; every time is printed on its wall clock. */
  timeZone?: string | null
  /** PRM-2: a tómbola by points: the points each drawn ticket got and each object's figure. */
  points?: PointsFacts | null
}

/** The lottery or raffle draw minutes (acta, LOT-19) as an A4 PDF, on the frame both lines share. */
export async function renderLotteryActaPdf(a: LotteryActa): Promise<Uint8Array> {
  const p = a.plan
  const cancel = a.cancellation
  return renderActa(
    {
      institution: p.institution ?? p.organiser ?? null,
      name: p.name,
      drawNumber: p.drawNumber,
      issue: p.issue ?? null,
      drawAt: p.drawAt,
      timeZone: a.timeZone,
      currency: p.currency,
      cancellation: cancel
        ? {
            ...cancel,
            rule: 'LOT-21',
            refund: [
              'Billetes o fracciones a reintegrar',
              `${cancel.toRefund} (${money(cancel.refundCents, p.currency)}), en caja contra el código del billete`,
            ],
          }
        : null,
      incidents: a.incidents,
      journal: a.journal,
      signatures: a.signatures,
    },
    [
      {
        title: 'Antecedentes',
        body(w) {
          w.pairs([
            ['Sorteo', `${stamp(p.drawAt, a.timeZone)}, ${p.drawPlace}`],
            ...(p.round
              ? [
                  [
                    'Tracto sucesivo (PRM-9)',
                    successiveText({ ...p.round, winnersStayIn: p.winnersStayIn ?? null }),
                  ] as [string, string],
                ]
              : []),
            ['Autorización', p.authorisationRef ?? '—'],
            ['Medio de extracción', extractionMeans(p.drawMethod, p.drawDevice ?? null)],
            ['Compromiso de semilla', a.commitment],
            ['Costo máximo de premios', money(a.liabilityCents, p.currency)],
            ['Prescripción', stamp(p.claimDeadline, a.timeZone)],
          ])
        },
      },
      {
        title: 'Billetes fuera de juego (devoluciones, extravíos, robos)',
        body(w) {
          if (!a.ranges.length) return w.text('Ninguno.')
          w.table(
            [
              { title: 'Tipo', w: 1 },
              { title: 'Del', w: 1 },
              { title: 'Al', w: 1 },
              { title: 'Series', w: 0.8 },
              { title: 'Cantidad', w: 0.9, align: 'right' },
              { title: 'Observaciones', w: 3 },
            ],
            a.ranges.map((r) => [
              RANGE_KIND[r.kind] ?? r.kind,
              String(r.from),
              String(r.to),
              `${r.seriesFrom}-${r.seriesTo}`,
              String(r.quantity),
              [
                r.details.notice,
                r.details.policeReportRef ? `denuncia ${r.details.policeReportRef}` : '',
                r.details.lateReport ? 'informe a la AJ fuera de plazo' : '',
              ]
                .filter(Boolean)
                .join('; '),
            ]),
          )
        },
      },
      {
        title: 'Cierre de ventas',
        body(w) {
          if (!a.participation) return w.text('Ventas abiertas.', { color: MUTED })
          w.pairs([
            ['Cierre', stamp(a.participation.closedAt, a.timeZone, p.drawAt)],
            ['Billetes en juego', String(a.participation.ticketsInPlay)],
            ['Archivo SHA-256', a.participation.sha256],
            ['Resumen de ventas (D)', a.participation.salesDigest ?? '—'],
            ...beaconPairs(a.participation),
          ])
        },
      },
      {
        title: 'Sorteo y resultados',
        body(w) {
          w.pairs([
            ['Números extraídos', a.drawn.join(' - ') || '—'],
            ['Hora', stamp(a.drawnAt, a.timeZone, p.drawAt)],
            ['Semilla revelada', a.seed ?? '—'],
          ])
          // PRM-2: a points tómbola's objects are not drawn for tickets: its own section lists figures and points.
          if (a.result && !a.points)
            w.table(
              [
                { title: 'Premio', w: 2 },
                { title: 'Regla', w: 2.5 },
                { title: 'Números', w: 1, align: 'right' },
                { title: 'Billetes en juego', w: 1.2, align: 'right' },
                { title: 'Importe', w: 1.6, align: 'right' },
              ],
              a.result.prizes.map((x) => [
                x.name,
                x.rule,
                String(x.numbersCount),
                String(x.ticketsInPlay),
                x.goods ?? money(x.liabilityCents, p.currency),
              ]),
            )
          if (a.points) pointsSection(w, a.points)
        },
      },
    ],
  )
}

// ------------------------------------------------------------------------------------------------ one frame

/**
 * Issue 23 point 6: the extracto and the minutes of lotto and of the ticket lines are laid out on one frame; each
 * line passes its own sections (results, prizes, what was in play) and what it adds to the paying rule. Where the two
 * layouts differed for no reason, the frame keeps the fuller one: the institution heads both documents, the issue is
 * in the title, the means of extraction names the authorised device (LOT-18, LNS-8), the regulation is cited where
 * the plan has one (LOT-17), incident times are read on the draw's clock, and the minutes have their journal section
 * and the participants' signatures.
 */
async function drawDocument(
  docTitle: string,
  head: { institution: string | null; name: string; drawNumber: number; issue: string | null },
  title: string,
): Promise<DocWriter> {
  const w = await DocWriter.create(`${docTitle} ${head.name} N.${head.drawNumber}`)
  if (head.institution) w.text(head.institution, { size: 11, font: 'bold', align: 'center' })
  w.text(title, { size: 16, font: 'bold', align: 'center' })
  w.text(`${head.name} - Sorteo N.º ${head.drawNumber}${head.issue ? ` - ${head.issue}` : ''}`, {
    size: 11,
    align: 'center',
    gap: 8,
  })
  return w
}

/** The means of extraction: the verifiable generator, or the AJ-authorised tómbola or ball machine by name. */
function extractionMeans(method: string, device: string | null, proof?: ProofFacts | null): string {
  return method === 'rng'
    ? `Generador ${proof?.version ?? 'bolillo-draw-v2'} (verificable)`
    : `Tómbola o bolillero autorizado: ${device ?? ''}`
}

/** What every extracto states besides the line's results and data. */
interface ExtractoFrame {
  institution: string | null
  name: string
  drawNumber: number
  issue: string | null
  drawAt: string
  timeZone?: string | null
  proof: ProofFacts | null
  claimDeadline: string
  paymentPlace: string
  regulationUrl: string | null
  /** Small print before the paying rule (lotto's rounding rule). */
  notes?: string[]
  /** What the line adds to the paying rule (a ticket line: prizes are indivisible and paid against the ticket). */
  paying?: string
  legend: string
}

async function renderExtracto(
  f: ExtractoFrame,
  line: { results(w: DocWriter): void; data: Array<[string, string]>; after?(w: DocWriter): void },
): Promise<Uint8Array> {
  const w = await drawDocument('Extracto', f, 'EXTRACTO OFICIAL DE RESULTADOS')
  line.results(w)
  w.heading('Datos del sorteo')
  w.pairs(line.data)
  if (f.proof) {
    w.heading(`Prueba del sorteo (${f.proof.version})`)
    w.pairs(proofPairs(f.proof))
  }
  line.after?.(w)
  w.heading('Cobro de premios')
  w.pairs([
    ['Plazo de cobro hasta', `${stamp(f.claimDeadline, f.timeZone)} (mínimo 60 días, LOT-23)`],
    ['Lugar de pago', f.paymentPlace],
    ...(f.regulationUrl ? [['Reglamento', f.regulationUrl] as [string, string]] : []),
  ])
  for (const note of f.notes ?? []) w.text(note, { size: 7.5, color: MUTED })
  w.text(
    `Solo el extracto emitido por el operador, las reglas del juego y el Reglamento Específico son base para el pago de premios (LOT-17).${f.paying ? ` ${f.paying}` : ''}`,
    { size: 8, color: MUTED },
  )
  footnote(w, zoneNote(f.timeZone, f.drawAt))
  w.text(f.legend, { size: 9, font: 'bold', align: 'center' })
  return w.save()
}

/** What every set of minutes states after the line's own sections. */
interface ActaFrame {
  institution: string | null
  name: string
  drawNumber: number
  issue: string | null
  drawAt: string
  timeZone?: string | null
  currency: string
  /** LNS-22 / LOT-21: the authorised withdrawal or renunciation, with the line's line of what is refunded. */
  cancellation: {
    at: string
    kind: string
    authorisationRef: string
    reason: string
    rule: string
    refund: [string, string]
  } | null
  incidents: Array<{ at: string; note: string }>
  journal: { records: number; lastSeq: number | null; lastHash: string | null }
  signatures: Array<{ role: string; name: string }>
}

async function renderActa(
  f: ActaFrame,
  sections: Array<{ title: string; body(w: DocWriter): void }>,
): Promise<Uint8Array> {
  const w = await drawDocument('Acta', f, 'ACTA DEL SORTEO')
  let n = 0
  for (const s of sections) {
    w.heading(`${++n}. ${s.title}`)
    s.body(w)
  }
  w.heading(`${++n}. Incidencias`)
  const cancel = f.cancellation
  if (cancel) {
    w.pairs([
      [
        'Sorteo cancelado',
        `${cancel.kind === 'renunciation' ? 'Renuncia' : 'Desistimiento'} con autorización previa de la AJ (${cancel.rule})`,
      ],
      ['Fecha y hora', stamp(cancel.at, f.timeZone, f.drawAt)],
      ['Autorización de la AJ', cancel.authorisationRef],
      ['Motivo', cancel.reason],
      cancel.refund,
    ])
  }
  if (f.incidents.length)
    w.table(
      [
        { title: 'Hora', w: 1.5 },
        { title: 'Descripción', w: 5 },
      ],
      f.incidents.map((i) => [stamp(i.at, f.timeZone, f.drawAt), i.note]),
    )
  else if (!cancel) w.text('Sin incidencias.')
  w.heading(`${++n}. Diario`)
  w.pairs([
    ['Registros del sorteo', String(f.journal.records)],
    ['Último registro', f.journal.lastSeq === null ? '—' : `#${f.journal.lastSeq} ${f.journal.lastHash}`],
  ])
  w.heading(`${++n}. Firmas de los participantes`)
  w.signatures(f.signatures)
  footnote(w, zoneNote(f.timeZone, f.drawAt))
  return w.save()
}
