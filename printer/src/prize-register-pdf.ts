/**
 * The prize register (libro de registro de premios, REGULATIONS.md §7.13: INS-5, LNS-25) as an A4 landscape PDF:
 * one line per payout with the game number, the winning card, the prize, the payee's names and identity document
 * and a box for the player's signature as proof of receipt.
 */
import { formatMoney } from '../../server/src/shared/money.ts'
import type { PrizeRegisterRow } from '../../server/src/cashdesk/payouts.ts'
import { renderRegisterTable } from './register-table-pdf.ts'
import { formatStamp } from './ticket-layout.ts'
import { FIGURE_NAMES, figureOfKind } from '../../server/src/bingo/patterns.ts'

/** CFG-13: a figure prize kind's name (any other kind as it is). */
function figureName(kind: string, lang: 'es' | 'en'): string {
  const f = figureOfKind(kind)
  return f ? FIGURE_NAMES[f][lang] : kind
}

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

/** Column widths (points), summing to the printable width; the last is the signature box. */
const WIDTHS = [26, 80, 70, 44, 60, 70, 66, 170, 90, 93.89]
/** Game, card and amount stand out. */
const BOLD = new Set([3, 4, 6])

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
  const money = (c: number, cur: string) => formatMoney(c, cur, lang)
  const halls = [...new Set(register.rows.map((r) => r.hallName))].join(', ')
  // Only the dates: the hall is named above, and record ids mean nothing on paper (issue 29 point 6).
  const filter = Object.entries(register.filter)
    .filter(([k, v]) => v && (k === 'from' || k === 'to'))
    .map(
      ([k, v]) => `${k === 'from' ? (lang === 'en' ? 'From' : 'Desde') : lang === 'en' ? 'To' : 'Hasta'}: ${String(v)}`,
    )
    .join('   ')
  return renderRegisterTable({
    docTitle: L.title,
    title: L.title,
    subtitle: halls ? `${L.subtitle} · ${halls}` : L.subtitle,
    note: filter ? `${L.filter}: ${filter}` : '',
    columns: L.cols.map((label, i) => ({ label, width: WIDTHS[i], bold: BOLD.has(i) })),
    rows: register.rows.map((r) => [
      String(r.entry),
      formatStamp(r.paidAt, register.timeZone),
      r.sessionNo ? String(r.sessionNo) : '',
      String(r.gameNo),
      r.serial,
      r.prizes.map((p) => L.kinds[p.kind] ?? figureName(p.kind, lang)).join(' + ') +
        (r.payoutId ? '' : ` (${L.table})`),
      money(r.amountCents, r.currency),
      r.payeeName ?? '',
      r.payeeDocument ?? '',
      '',
    ]),
    empty: L.none,
    total: `${L.total}: ${money(register.totalCents, register.currency ?? 'BOB')}`,
    pageLabel: (n, of) => `${L.page} ${n} ${L.of} ${of}`,
  })
}
