/**
 * The sales and prizes report (issue 17 point 2) as an A4 PDF: the same figures as the back office's charts, drawn
 * as bars (sales and prizes by product and by day; payout ratio against the plan) and listed in tables by product
 * and by game. Spanish or English.
 */
import { formatInZone } from '../../server/src/shared/time-zone.ts'
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib'
import { formatMoney } from '../../server/src/shared/money.ts'
import type { Product, SalesReport } from '../../server/src/reports/figures.ts'
import { toWinAnsi } from './pdf-kit.ts'

const W = 595.28
const H = 841.89
const M = 40
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.42, 0.42, 0.47)
const RULE = rgb(0.8, 0.81, 0.84)
const SALES = rgb(0.15, 0.39, 0.92)
const PRIZES = rgb(0.96, 0.62, 0.04)
const PLAN = rgb(0.07, 0.09, 0.15)

const LABELS = {
  es: {
    title: 'Informe de ventas y premios',
    period: 'Periodo',
    currency: 'Moneda',
    generated: 'Emitido',
    totals: 'Totales',
    sales: 'Ventas',
    prizes: 'Premios',
    payout: 'Devolución',
    plan: 'Plan',
    byProduct: 'Por producto',
    byDay: 'Ventas y premios por día',
    payoutVsPlan: 'Devolución en premios frente al plan',
    byGame: 'Por juego',
    product: 'Producto',
    game: 'Juego',
    day: 'Día',
    none: 'Sin ventas ni premios en el periodo.',
    gameNo: 'nº',
    page: 'Página',
    of: 'de',
    drawers: 'Saldo de caja por turno',
    shift: 'Turno',
    float: 'Fondo inicial',
    in: 'Entradas',
    out: 'Salidas',
    expected: 'Debe haber',
    counted: 'Arqueo',
    difference: 'Diferencia',
    open: 'abierto',
    products: { bingo: 'Bingo', lotto: 'Lotto', lottery: 'Lotería', raffle: 'Rifas', instant: 'Raspaditas' } as Record<
      Product,
      string
    >,
  },
  en: {
    title: 'Sales and prizes report',
    period: 'Period',
    currency: 'Currency',
    generated: 'Issued',
    totals: 'Totals',
    sales: 'Sales',
    prizes: 'Prizes',
    payout: 'Payout',
    plan: 'Plan',
    byProduct: 'By product',
    byDay: 'Sales and prizes by day',
    payoutVsPlan: 'Payout ratio against the plan',
    byGame: 'By game',
    product: 'Product',
    game: 'Game',
    day: 'Day',
    none: 'No sales or prizes in the period.',
    gameNo: 'no.',
    page: 'Page',
    of: 'of',
    drawers: 'Drawer balance by shift',
    shift: 'Shift',
    float: 'Float',
    in: 'In',
    out: 'Out',
    expected: 'Expected',
    counted: 'Counted',
    difference: 'Difference',
    open: 'open',
    products: { bingo: 'Bingo', lotto: 'Lotto', lottery: 'Lottery', raffle: 'Raffles', instant: 'Instant' } as Record<
      Product,
      string
    >,
  },
} as const

export async function renderSalesReportPdf(
  report: SalesReport,
  lang: 'es' | 'en' = 'es',
  issuedAt = new Date().toISOString(),
  timeZone = 'UTC',
): Promise<Uint8Array> {
  const L = LABELS[lang]
  const pdf = await PDFDocument.create()
  pdf.setTitle(L.title)
  pdf.setProducer('Bolillo')
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const charset = new Set(font.getCharacterSet())
  const t = (s: string) => toWinAnsi(s, charset)
  const money = (c: number) => formatMoney(c, report.currency, lang)
  // Issue 17 point 4: times on the hall's clock, with the zone named once in the header.
  const stamp = (iso: string) => formatInZone(iso, timeZone)
  const pct = (bp: number | null) =>
    bp === null ? '—' : `${(bp / 100).toFixed(2).replace('.', lang === 'es' ? ',' : '.')} %`
  let page!: PDFPage
  let y = 0
  const text = (s: string, x: number, yy: number, size = 9, f: PDFFont = font, color: RGB = INK) =>
    page.drawText(t(s), { x, y: yy, size, font: f, color })
  const right = (s: string, x: number, yy: number, size = 9, f: PDFFont = font) =>
    text(s, x - f.widthOfTextAtSize(t(s), size), yy, size, f)
  const newPage = () => {
    page = pdf.addPage([W, H])
    y = H - M
  }
  const need = (h: number) => {
    if (y - h < M + 20) newPage()
  }
  const heading = (s: string) => {
    need(40)
    y -= 18
    text(s, M, y, 12, bold)
    y -= 6
    page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 0.6, color: RULE })
    y -= 14
  }

  newPage()
  text(L.title, M, y - 16, 18, bold)
  y -= 36
  text(
    `${L.period}: ${report.from} — ${report.to}    ${L.currency}: ${report.currency}    ${L.generated}: ${formatInZone(issuedAt, timeZone, 'date-time', true)}`,
    M,
    y,
    9,
    font,
    MUTED,
  )
  y -= 20
  text(
    `${L.sales}: ${money(report.totals.salesCents)}    ${L.prizes}: ${money(report.totals.prizesCents)}    ${L.payout}: ${pct(report.totals.payoutBp)}    ${L.plan}: ${pct(report.totals.planBp)}`,
    M,
    y,
    10,
    bold,
  )
  y -= 8
  if (report.products.length === 0) {
    y -= 20
    text(L.none, M, y, 11)
  }

  /** Horizontal bars of sales and prizes, one pair per row, scaled to the largest value. */
  const pairBars = (rows: Array<{ label: string; a: number; b: number }>, fmt: (n: number) => string) => {
    const max = Math.max(1, ...rows.flatMap((r) => [r.a, r.b]))
    const x0 = M + 90
    const width = W - M - x0 - 90
    for (const r of rows) {
      need(26)
      text(r.label, M, y - 9, 9)
      page.drawRectangle({ x: x0, y: y - 10, width: Math.max(0.5, (r.a / max) * width), height: 9, color: SALES })
      text(fmt(r.a), x0 + (r.a / max) * width + 4, y - 9, 7.5, font, MUTED)
      page.drawRectangle({ x: x0, y: y - 21, width: Math.max(0.5, (r.b / max) * width), height: 9, color: PRIZES })
      text(fmt(r.b), x0 + (r.b / max) * width + 4, y - 20, 7.5, font, MUTED)
      y -= 27
    }
    need(14)
    page.drawRectangle({ x: M, y: y - 8, width: 8, height: 8, color: SALES })
    text(L.sales, M + 12, y - 7, 8)
    page.drawRectangle({ x: M + 70, y: y - 8, width: 8, height: 8, color: PRIZES })
    text(L.prizes, M + 82, y - 7, 8)
    y -= 16
  }

  if (report.products.length > 0) {
    heading(L.byProduct)
    pairBars(
      report.products.map((p) => ({ label: L.products[p.product], a: p.salesCents, b: p.prizesCents })),
      money,
    )
    // Table by product.
    const cols = [M, M + 150, M + 260, M + 370, W - M]
    need(16)
    text(L.product, cols[0], y, 8, bold)
    right(L.sales, cols[2], y, 8, bold)
    right(L.prizes, cols[3], y, 8, bold)
    right(L.payout, cols[4] - 60, y, 8, bold)
    right(L.plan, cols[4], y, 8, bold)
    y -= 12
    for (const p of report.products) {
      need(12)
      text(L.products[p.product], cols[0], y, 9)
      right(money(p.salesCents), cols[2], y)
      right(money(p.prizesCents), cols[3], y)
      right(pct(p.payoutBp), cols[4] - 60, y)
      right(pct(p.planBp), cols[4], y)
      y -= 12
    }

    heading(L.payoutVsPlan)
    const max = Math.max(1, ...report.products.flatMap((p) => [p.payoutBp ?? 0, p.planBp ?? 0]))
    const x0 = M + 90
    const width = W - M - x0 - 60
    for (const p of report.products) {
      need(18)
      text(L.products[p.product], M, y - 9, 9)
      page.drawRectangle({
        x: x0,
        y: y - 11,
        width: Math.max(0.5, ((p.payoutBp ?? 0) / max) * width),
        height: 10,
        color: rgb(0.09, 0.64, 0.29),
      })
      if (p.planBp !== null)
        page.drawLine({
          start: { x: x0 + (p.planBp / max) * width, y: y - 14 },
          end: { x: x0 + (p.planBp / max) * width, y: y + 2 },
          thickness: 2,
          color: PLAN,
        })
      text(`${pct(p.payoutBp)} / ${L.plan} ${pct(p.planBp)}`, x0 + width + 4 - 50, y - 9, 7.5, font, MUTED)
      y -= 18
    }

    heading(L.byDay)
    pairBars(
      report.days.map((d) => ({ label: d.day, a: d.salesCents, b: d.prizesCents })),
      money,
    )

    heading(L.byGame)
    const gcols = [M, M + 70, M + 270, M + 340, M + 410, W - M]
    need(16)
    text(L.day, gcols[0], y, 8, bold)
    text(L.game, gcols[1], y, 8, bold)
    right(L.sales, gcols[3], y, 8, bold)
    right(L.prizes, gcols[4], y, 8, bold)
    right(`${L.payout} / ${L.plan}`, gcols[5], y, 8, bold)
    y -= 12
    for (const g of report.games) {
      need(12)
      const name = `${L.products[g.product]} · ${g.label}${g.gameNo !== null ? ` ${L.gameNo} ${g.gameNo}` : ''}`
      let label = t(name)
      while (label.length > 3 && font.widthOfTextAtSize(label, 9) > gcols[2] - gcols[1] + 20)
        label = label.slice(0, -2) + '.'
      text(g.firstDay, gcols[0], y, 9)
      text(label, gcols[1], y, 9)
      right(money(g.salesCents), gcols[3], y)
      right(money(g.prizesCents), gcols[4], y)
      right(`${pct(g.payoutBp)} / ${pct(g.planBp)}`, gcols[5], y)
      y -= 12
    }
  }

  // Drawer balances by cashier shift (issue 17 point 2): the same figures as the back office's chart.
  if (report.drawers.length > 0) {
    heading(L.drawers)
    const bars: Array<{
      key: 'floatCents' | 'inCents' | 'outCents' | 'expectedCents' | 'countedCents'
      label: string
      color: RGB
    }> = [
      { key: 'floatCents', label: L.float, color: rgb(0.39, 0.45, 0.55) },
      { key: 'inCents', label: L.in, color: SALES },
      { key: 'outCents', label: L.out, color: PRIZES },
      { key: 'expectedCents', label: L.expected, color: PLAN },
      { key: 'countedCents', label: L.counted, color: rgb(0.09, 0.64, 0.29) },
    ]
    const max = Math.max(1, ...report.drawers.flatMap((d) => bars.map((b) => d[b.key] ?? 0)))
    const x0 = M + 150
    const width = W - M - x0 - 70
    for (const d of report.drawers) {
      need(12 + bars.length * 10)
      let label = t(`${d.station} · ${d.cashier}`)
      while (label.length > 3 && font.widthOfTextAtSize(label, 9) > x0 - M - 8) label = label.slice(0, -2) + '.'
      text(label, M, y - 9, 9, bold)
      text(`${stamp(d.openedAt)}${d.open ? ` (${L.open})` : ''}`, M, y - 20, 7.5, font, MUTED)
      for (const b of bars) {
        const v = d[b.key]
        if (v !== null) {
          page.drawRectangle({ x: x0, y: y - 9, width: Math.max(0.5, (v / max) * width), height: 7, color: b.color })
          text(money(v), x0 + (v / max) * width + 4, y - 8, 7, font, MUTED)
        }
        y -= 10
      }
      y -= 6
    }
    need(14)
    bars.forEach((b, i) => {
      page.drawRectangle({ x: M + i * 90, y: y - 8, width: 8, height: 8, color: b.color })
      text(b.label, M + i * 90 + 12, y - 7, 8)
    })
    y -= 20
    const dcols = [M, M + 215, M + 275, M + 335, M + 395, M + 455, W - M]
    need(16)
    text(L.shift, dcols[0], y, 8, bold)
    ;[L.float, L.in, L.out, L.expected, L.counted, L.difference].forEach((h, i) => right(h, dcols[i + 1], y, 8, bold))
    y -= 12
    for (const d of report.drawers) {
      need(22)
      let label = t(`${d.station} · ${d.cashier}`)
      while (label.length > 3 && font.widthOfTextAtSize(label, 8) > dcols[1] - dcols[0] - 60)
        label = label.slice(0, -2) + '.'
      text(label, dcols[0], y, 8)
      const cells = [d.floatCents, d.inCents, d.outCents, d.expectedCents, d.countedCents, d.differenceCents]
      cells.forEach((v, i) => right(v === null ? '—' : money(v), dcols[i + 1], y, 8))
      text(`${stamp(d.openedAt)} — ${d.closedAt ? stamp(d.closedAt) : L.open}`, dcols[0], y - 9, 7, font, MUTED)
      y -= 22
    }
  }

  const pages = pdf.getPages()
  pages.forEach((p, i) => {
    const s = t(`${L.page} ${i + 1} ${L.of} ${pages.length}`)
    p.drawText(s, { x: W - M - font.widthOfTextAtSize(s, 8), y: M / 2, size: 8, font, color: MUTED })
  })
  return pdf.save()
}
