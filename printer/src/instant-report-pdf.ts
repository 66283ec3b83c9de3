/**
 * Reconciliation report of an instant game as an A4 PDF, from the JSON of InstantService.reconciliation: stock
 * generated, distributed, activated, lost or stolen, sold; prizes per tier generated, in play, paid, unpaid,
 * expired; misprint refunds; the payout share achieved against the design.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import type { InstantService } from '../../server/src/instant/service.ts'
import { formatMoney } from '../../server/src/shared/money.ts'
import { formatInZone, zoneLabel } from '../../server/src/shared/time-zone.ts'
import { winAnsi } from './instant-sheet.ts'

type Reconciliation = Awaited<ReturnType<InstantService['reconciliation']>>

const W = 595.28
const H = 841.89
const X = 44
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.4, 0.4, 0.45)
const BAR = rgb(0.16, 0.22, 0.33)

const pct = (bp: number | null) => (bp === null ? '-' : `${(bp / 100).toFixed(2)} %`)
const n = (v: number | null) => (v === null ? '-' : v.toLocaleString('es-ES'))

const STATUS: Record<string, string> = { generating: 'en generación', ready: 'en venta', closed: 'cerrado' }

/** `timeZone`: the clock the report's times are printed on (named under the title); UTC when absent. */
export async function renderReconciliationPdf(r: Reconciliation, timeZone = 'UTC'): Promise<Uint8Array> {
  const when = (iso: string | null | undefined) => (iso ? formatInZone(iso, timeZone) : '-')
  const doc = await PDFDocument.create()
  doc.setTitle(winAnsi(`Conciliación juego ${r.gameNo}`))
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  let page: PDFPage = doc.addPage([W, H])
  let y = H - 50
  const money = (c: number) => winAnsi(formatMoney(c, r.currency, 'es'))
  const text = (s: string, x: number, size = 9, font: PDFFont = regular, color = INK) =>
    page.drawText(winAnsi(s), { x, y, size, font, color })
  const need = (h: number) => {
    if (y - h < 50) {
      page = doc.addPage([W, H])
      y = H - 50
    }
  }

  text(`Conciliación del juego instantáneo N.º ${String(r.gameNo).padStart(4, '0')} - ${r.name}`, X, 14, bold)
  y -= 16
  text(
    `Canal: ${r.channel === 'printed' ? 'boletos preimpresos' : 'electrónico (en pantalla)'} - ${STATUS[r.status] ?? r.status} - precio ${money(r.priceCents)} - a fecha ${when(r.asOf)} (${zoneLabel(Date.parse(r.asOf), timeZone)})`,
    X,
    8.5,
    regular,
    MUTED,
  )
  y -= 12
  text(
    `Generado ${when(r.generatedAt)}; cierre ${r.closedAt ? when(r.closedAt) : 'abierto'}; caducidad de premios ${when(r.claimExpiresAt)}`,
    X,
    8.5,
    regular,
    MUTED,
  )
  y -= 22

  const rows: Array<[string, string, string]> = [
    ['Generados', `${n(r.generated.tickets)} boletos`, `${n(r.generated.packs)} paquetes de ${r.generated.packSize}`],
    ['Distribuidos', `${n(r.distributed.tickets)} boletos`, `${n(r.distributed.packs)} paquetes`],
    ['Activados', `${n(r.activated.tickets)} boletos`, `${n(r.activated.packs)} paquetes`],
    [
      'Extraviados / robados',
      `${n(r.lostOrStolen.lostTickets)} / ${n(r.lostOrStolen.stolenTickets)} boletos`,
      'LST-4, LST-5: sin pago ni canje',
    ],
    ['Vendidos (escaneados / pool)', `${n(r.sold.tickets)} boletos`, money(r.sold.amountCents)],
    ['Reembolsos por error de impresión', `${n(r.refunds.tickets)} boletos`, money(r.refunds.amountCents)],
    [
      'Fondo de premios del diseño',
      money(r.generated.prizeFundCents),
      `ventas potenciales ${money(r.generated.salesValueCents)}`,
    ],
    [
      'Porcentaje de premios',
      `diseño ${pct(r.payoutShare.designBp)}`,
      `en juego ${pct(r.payoutShare.inPlayBp)}; pagado/ventas ${pct(r.payoutShare.paidOfSalesBp)}`,
    ],
  ]
  page.drawRectangle({ x: X - 4, y: y - 4, width: W - 2 * X + 8, height: 16, color: BAR })
  text('Existencias y ventas', X, 10, bold, rgb(1, 1, 1))
  y -= 18
  for (const [a, b, c] of rows) {
    need(14)
    text(a, X, 9, bold)
    text(b, X + 190, 9)
    text(c, X + 330, 9, regular, MUTED)
    y -= 14
  }
  y -= 12
  need(40)
  page.drawRectangle({ x: X - 4, y: y - 4, width: W - 2 * X + 8, height: 16, color: BAR })
  text('Premios por categoría', X, 10, bold, rgb(1, 1, 1))
  y -= 18
  const cols = [X, X + 30, X + 110, X + 165, X + 220, X + 265, X + 345, X + 395]
  const head = ['Cat.', 'Importe', 'Emitidos', 'En juego', 'Pagados', 'Pagado', 'Sin cobrar', 'Caducados']
  head.forEach((h, i) => text(h, cols[i], 8, bold, MUTED))
  y -= 12
  for (const t of r.tiers) {
    need(12)
    const cells = [
      String(t.tier),
      money(t.amountCents),
      n(t.generated),
      n(t.inPlay),
      n(t.paid),
      money(t.paidCents),
      n(t.unpaid),
      n(t.expired),
    ]
    cells.forEach((s, i) => text(s, cols[i], 8.5))
    y -= 12
  }
  y -= 16
  need(30)
  text(
    'Pagado/ventas: premios pagados sobre la mayor de las ventas registradas o el valor de los paquetes activados.',
    X,
    7.5,
    regular,
    MUTED,
  )
  y -= 10
  text(
    'Los premios caducados son los no cobrados al vencer el plazo (INS-10). Fuente: base de datos y diario encadenado.',
    X,
    7.5,
    regular,
    MUTED,
  )
  if (r.inPlayWithheld) {
    y -= 10
    text(
      'Premios en juego: se informan al cerrar el juego; mientras se activan paquetes dirían qué paquete tiene qué premios.',
      X,
      7.5,
      regular,
      MUTED,
    )
  }
  return doc.save()
}
