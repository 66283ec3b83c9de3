/**
 * The figures of the sales and prizes report (issue 17 point 2), from rows of sales and prizes per product, day and
 * game: totals by product, by day and by game, and the payout ratio (prizes over sales) against the plan's share.
 * One currency per report: money of different currencies is never added. Pure: rows in, figures out.
 */

export const PRODUCTS = ['bingo', 'lotto', 'lottery', 'raffle', 'instant'] as const
export type Product = (typeof PRODUCTS)[number]

export interface Figure {
  product: Product
  /** YYYY-MM-DD. */
  day: string
  /** The game, draw or batch the figure belongs to (opaque: never shown). */
  gameKey: string
  /** What people call it: the hall, lotto game, lottery or instant game name. */
  label: string
  gameNo: number | null
  currency: string
  salesCents: number
  prizesCents: number
  /** The plan's prize share of sales, basis points, or null where the plan fixes amounts, not a share. */
  planBp: number | null
}

export interface Totals {
  salesCents: number
  prizesCents: number
  payoutBp: number | null
  planBp: number | null
}
export interface SalesReport {
  from: string
  to: string
  currency: string
  currencies: string[]
  totals: Totals
  products: Array<{ product: Product } & Totals>
  days: Array<{ day: string; byProduct: Record<Product, { salesCents: number; prizesCents: number }> } & Totals>
  games: Array<{ product: Product; label: string; gameNo: number | null; firstDay: string } & Totals>
  /** Drawer balances by cashier shift in the report's currency, oldest first. */
  drawers: DrawerFigure[]
}

/**
 * One cashier shift's drawer: the float it opened with, the cash that came in and went out, what it should hold
 * (float + in - out, frozen at the close), what was counted at the close (arqueo) and the difference (counted -
 * expected). An open shift has no count and no difference yet.
 */
export interface DrawerFigure {
  station: string
  cashier: string
  currency: string
  open: boolean
  openedAt: string
  closedAt: string | null
  floatCents: number
  inCents: number
  outCents: number
  expectedCents: number
  countedCents: number | null
  differenceCents: number | null
}

/** A shift as the store reads it: raw numbers (strings on PostgreSQL) and the figures frozen at the close. */
export interface DrawerInput {
  station: string
  cashier: string
  currency: string
  open: boolean
  openedAt: string
  closedAt: string | null
  floatCents: number
  inCents: number
  outCents: number
  expectedCents: number | null
  countedCents: number | null
  differenceCents: number | null
}

/** The drawers of one currency; an open shift's expected balance is what its movements say now. */
export function drawerFigures(shifts: readonly DrawerInput[], currency: string): DrawerFigure[] {
  return shifts
    .filter((s) => s.currency === currency)
    .map((s) => ({
      ...s,
      expectedCents: !s.open && s.expectedCents !== null ? s.expectedCents : s.floatCents + s.inCents - s.outCents,
      countedCents: s.open ? null : s.countedCents,
      differenceCents: s.open ? null : s.differenceCents,
    }))
}

/** Prizes over sales in basis points; null without sales. */
export function payoutBp(prizesCents: number, salesCents: number): number | null {
  return salesCents > 0 ? Math.round((prizesCents * 10_000) / salesCents) : null
}

/**
 * The plan's prize share: bingo line + bingo shares (BNG-56), the lotto plan's prize pool (LOT-5), an instant
 * design's prize fund over the value (INS-1). Lottery and raffle plans fix amounts, so they have none here.
 */
export function planBpOf(product: Product, plan: string | null): number | null {
  if (plan === null || plan === '') return null
  try {
    if (product === 'bingo') return Number.isFinite(Number(plan)) ? Number(plan) : null
    if (product === 'lotto') {
      const p = JSON.parse(plan) as { prizePoolBp?: unknown }
      return typeof p.prizePoolBp === 'number' ? p.prizePoolBp : null
    }
    if (product === 'instant') {
      const d = JSON.parse(plan) as {
        ticketCount?: number
        priceCents?: number
        tiers?: Array<{ amountCents: number; count: number }>
      }
      const value = Number(d.ticketCount) * Number(d.priceCents)
      const fund = (d.tiers ?? []).reduce((s, t) => s + Number(t.amountCents) * Number(t.count), 0)
      return value > 0 ? Math.floor((fund * 10_000) / value) : null
    }
  } catch {
    return null
  }
  return null
}

interface Acc {
  salesCents: number
  prizesCents: number
  planWeighted: number
  planSales: number
}
const acc = (): Acc => ({ salesCents: 0, prizesCents: 0, planWeighted: 0, planSales: 0 })
function add(a: Acc, f: Figure) {
  a.salesCents += f.salesCents
  a.prizesCents += f.prizesCents
  // The plan of a group is its games' plans weighted by their sales.
  if (f.planBp !== null && f.salesCents > 0) {
    a.planWeighted += f.planBp * f.salesCents
    a.planSales += f.salesCents
  }
}
const totalsOf = (a: Acc): Totals => ({
  salesCents: a.salesCents,
  prizesCents: a.prizesCents,
  payoutBp: payoutBp(a.prizesCents, a.salesCents),
  planBp: a.planSales > 0 ? Math.round(a.planWeighted / a.planSales) : null,
})

/** The currency with the most sales (a report shows one), or the given one. */
export function reportCurrency(figures: readonly Figure[], wanted?: string): string {
  if (wanted) return wanted
  const by = new Map<string, number>()
  for (const f of figures) by.set(f.currency, (by.get(f.currency) ?? 0) + f.salesCents + f.prizesCents)
  return [...by.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? 'BOB'
}

export function buildReport(
  figures: readonly Figure[],
  opts: { from: string; to: string; currency?: string },
  shifts: readonly DrawerInput[] = [],
): SalesReport {
  const currency = reportCurrency(figures, opts.currency)
  const mine = figures.filter((f) => f.currency === currency)
  const total = acc()
  const products = new Map<Product, Acc>()
  const days = new Map<string, { all: Acc; byProduct: Map<Product, Acc> }>()
  const games = new Map<string, { product: Product; label: string; gameNo: number | null; firstDay: string; a: Acc }>()
  for (const f of mine) {
    add(total, f)
    if (!products.has(f.product)) products.set(f.product, acc())
    add(products.get(f.product)!, f)
    if (!days.has(f.day)) days.set(f.day, { all: acc(), byProduct: new Map() })
    const d = days.get(f.day)!
    add(d.all, f)
    if (!d.byProduct.has(f.product)) d.byProduct.set(f.product, acc())
    add(d.byProduct.get(f.product)!, f)
    const key = `${f.product}:${f.gameKey}`
    if (!games.has(key))
      games.set(key, { product: f.product, label: f.label, gameNo: f.gameNo, firstDay: f.day, a: acc() })
    const g = games.get(key)!
    if (f.day < g.firstDay) g.firstDay = f.day
    add(g.a, f)
  }
  return {
    from: opts.from,
    to: opts.to,
    currency,
    currencies: [...new Set(figures.map((f) => f.currency))].sort(),
    totals: totalsOf(total),
    products: PRODUCTS.filter((p) => products.has(p)).map((p) => ({ product: p, ...totalsOf(products.get(p)!) })),
    days: [...days.entries()]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([day, d]) => ({
        day,
        ...totalsOf(d.all),
        byProduct: Object.fromEntries(
          PRODUCTS.map((p) => [
            p,
            { salesCents: d.byProduct.get(p)?.salesCents ?? 0, prizesCents: d.byProduct.get(p)?.prizesCents ?? 0 },
          ]),
        ) as Record<Product, { salesCents: number; prizesCents: number }>,
      })),
    games: [...games.values()]
      .sort(
        (a, b) =>
          a.firstDay.localeCompare(b.firstDay) ||
          PRODUCTS.indexOf(a.product) - PRODUCTS.indexOf(b.product) ||
          a.label.localeCompare(b.label) ||
          (a.gameNo ?? 0) - (b.gameNo ?? 0),
      )
      .map((g) => ({ product: g.product, label: g.label, gameNo: g.gameNo, firstDay: g.firstDay, ...totalsOf(g.a) })),
    drawers: drawerFigures(shifts, currency),
  }
}

/** Balls drawn with a set and the count each ball would have if every ball had the same chance (BNG-24). */
export function frequencyFigures(counts: readonly number[]): { balls: number; expected: number } {
  const balls = counts.reduce((s, n) => s + n, 0)
  return { balls, expected: counts.length > 0 ? balls / counts.length : 0 }
}
