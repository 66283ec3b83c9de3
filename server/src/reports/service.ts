/**
 * Use cases of the back office's reports (issue 17 point 2): the sales and prizes report of every product for a
 * range of days (JSON and PDF), a ball set's frequencies over its life, and the master sets a director picks from.
 * Reads only.
 */
import type { Database } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { chiSquareTest } from '../shared/statistics.ts'
import { buildReport, frequencyFigures, planBpOf, type Figure, type Product, type SalesReport } from './figures.ts'
import * as store from './store.ts'

const DAY = /^\d{4}-\d{2}-\d{2}$/

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
}

export interface Frequencies {
  setId: string
  label: string
  ballCount: number
  games: number
  balls: number
  counts: number[]
  expected: number
  chiSquare: { statistic: number; df: number; pValue: number } | null
}

export function createReportsService(deps: { db: Database; now: () => Date }) {
  const { db } = deps

  async function salesReport(input: {
    from?: string
    to?: string
    currency?: string
    hallId?: string
  }): Promise<SalesReport> {
    const today = deps.now().toISOString().slice(0, 10)
    const to = input.to ?? today
    const from = input.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10)
    if (!DAY.test(from) || !DAY.test(to) || from > to)
      throw new DomainError('VALIDATION_FAILED', 'from and to are days YYYY-MM-DD, from not after to', {
        field: 'from',
      })
    const [a, b] = [from, nextDay(to)]
    const figures: Figure[] = []
    const push = (product: Product, rows: store.FigureRow[], kind: 'sales' | 'prizes') => {
      for (const r of rows) {
        const cents = Number(r.cents ?? 0)
        figures.push({
          product,
          day: String(r.day),
          gameKey: String(r.game_key),
          label: String(r.label),
          gameNo: r.game_no === null ? null : Number(r.game_no),
          currency: String(r.currency),
          salesCents: kind === 'sales' ? cents : 0,
          prizesCents: kind === 'prizes' ? cents : 0,
          planBp: planBpOf(product, r.plan),
        })
      }
    }
    const hall = input.hallId
    push('bingo', await store.bingoSales(db, a, b, hall), 'sales')
    push('bingo', await store.bingoPrizes(db, a, b, hall), 'prizes')
    // Lotto, lottery and instant sales are not kept per hall (except instant): a hall filter shows bingo and instant.
    if (!hall) {
      push('lotto', await store.lottoSales(db, a, b), 'sales')
      push('lotto', await store.lottoPrizes(db, a, b), 'prizes')
      for (const r of await store.lotterySales(db, a, b))
        push(r.product === 'raffle' ? 'raffle' : 'lottery', [r], 'sales')
      for (const r of await store.lotteryPrizes(db, a, b))
        push(r.product === 'raffle' ? 'raffle' : 'lottery', [r], 'prizes')
    }
    push('instant', await store.instantSales(db, a, b, hall), 'sales')
    if (!hall) push('instant', await store.instantPrizes(db, a, b), 'prizes')
    const num = (v: number | string | null) => (v === null || v === undefined ? null : Number(v))
    const shifts = (await store.drawerShifts(db, a, b, hall)).map((r) => ({
      station: r.station_name,
      cashier: r.cashier_name,
      currency: r.currency,
      open: r.status !== 'closed',
      openedAt: r.opened_at,
      closedAt: r.closed_at,
      floatCents: Number(r.float_cents),
      inCents: num(r.in_cents) ?? 0,
      outCents: num(r.out_cents) ?? 0,
      expectedCents: num(r.expected_cents),
      countedCents: num(r.counted_cents),
      differenceCents: num(r.difference_cents),
    }))
    return buildReport(figures, { from, to, currency: input.currency }, shifts)
  }

  async function salesReportPdf(
    input: { from?: string; to?: string; currency?: string; hallId?: string },
    lang: 'es' | 'en',
    timeZone = 'UTC',
  ): Promise<Uint8Array> {
    const { renderSalesReportPdf } = await import('../../../printer/src/sales-report-pdf.ts')
    return renderSalesReportPdf(await salesReport(input), lang, deps.now().toISOString(), timeZone)
  }

  /** BNG-24: every ball of a set should come out about as often as the others over its life; the chi-square test says how far it is. */
  async function ballFrequencies(setId: string): Promise<Frequencies> {
    const set = await store.ballSetInfo(db, setId)
    if (!set) throw new DomainError('NOT_FOUND', `ball set ${setId} not found`)
    const ballCount = Number(set.ball_count)
    const counts = new Array<number>(ballCount).fill(0)
    for (const r of await store.ballCountsOfSet(db, setId)) {
      const ball = Number(r.ball)
      if (ball >= 1 && ball <= ballCount) counts[ball - 1] = Number(r.n)
    }
    const { balls, expected } = frequencyFigures(counts)
    return {
      setId,
      label: set.label,
      ballCount,
      games: await store.gamesOfSet(db, setId),
      balls,
      counts,
      expected,
      chiSquare: balls > 0 && ballCount > 1 ? chiSquareTest(counts, expected) : null,
    }
  }

  async function masterSets() {
    return (await store.masterSetRows(db)).map((r) => ({
      id: r.id,
      cardCount: Number(r.card_count),
      createdAt: r.created_at,
      seriesCount: Number(r.series_count),
    }))
  }

  return { salesReport, salesReportPdf, ballFrequencies, masterSets }
}

export type ReportsService = ReturnType<typeof createReportsService>
