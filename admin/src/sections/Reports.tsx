/**
 * Reports people would rather look at than read (issue 17 point 2): sales and prizes by product, day and game,
 * the payout ratio against the plan, drawer balances by cashier shift and a ball set's frequencies. The same figures come
 * as a PDF from GET /api/reports/sales.pdf.
 */
import { useState } from 'preact/hooks'
import type { Product, SalesReport } from '../../../server/src/reports/figures.ts'
import { api, can, lang } from '../session.ts'
import { Chart, COLORS } from '../Chart.tsx'
import {
  HallDay,
  hallInput,
  Field,
  Loading,
  Panel,
  Select,
  Table,
  day,
  money,
  openPdf,
  percent,
  tx,
  useAction,
  useLoad,
} from '../ui.tsx'
import { FrequencyChart, type Frequencies } from './BallSets.tsx'
import { HallPicker, useHalls } from './Halls.tsx'
import { DrawerBalances } from './Drawers.tsx'

const productName = (p: Product) => tx(`p_${p}` as const)
// The hall's calendar day n days ago (issue 29: one clock), not UTC's nor the browser's.
const daysAgo = (n: number) => hallInput(Date.now() - n * 86_400_000).slice(0, 10)

function SalesCharts(props: { report: SalesReport }) {
  const r = props.report
  const m = (v: number) => money(v, r.currency)
  const products = r.products.map((p) => p.product)
  return (
    <>
      <div class="kpis" data-testid="kpis">
        <div>
          <span>{tx('sales')}</span>
          <strong data-testid="kpi-sales">{m(r.totals.salesCents)}</strong>
        </div>
        <div>
          <span>{tx('prizes')}</span>
          <strong data-testid="kpi-prizes">{m(r.totals.prizesCents)}</strong>
        </div>
        <div>
          <span>{tx('payoutShare')}</span>
          <strong data-testid="kpi-payout">{percent(r.totals.payoutBp)}</strong>
          <small>
            {tx('planned')} {percent(r.totals.planBp)}
          </small>
        </div>
      </div>
      <div class="charts">
        <Chart
          testId="chart-by-product"
          title={tx('byProduct')}
          type="bar"
          labels={products.map(productName)}
          format={m}
          series={[
            { label: tx('sales'), data: r.products.map((p) => p.salesCents), color: COLORS.sales },
            { label: tx('prizes'), data: r.products.map((p) => p.prizesCents), color: COLORS.prizes },
          ]}
        />
        <Chart
          testId="chart-payout"
          title={tx('payoutVsPlan')}
          type="bar"
          labels={products.map(productName)}
          format={(v) => percent(v)}
          series={[
            { label: tx('actual'), data: r.products.map((p) => p.payoutBp ?? 0), color: COLORS.actual },
            { label: tx('planned'), data: r.products.map((p) => p.planBp ?? 0), color: COLORS.plan },
          ]}
        />
        <Chart
          testId="chart-by-day"
          title={tx('byDay')}
          type="bar"
          stacked
          labels={r.days.map((d) => day(`${d.day}T12:00:00Z`))}
          format={m}
          height={320}
          series={[
            ...products.map((p) => ({
              label: `${tx('sales')} · ${productName(p)}`,
              data: r.days.map((d) => d.byProduct[p].salesCents),
              color: COLORS[p],
            })),
            {
              label: tx('prizes'),
              data: r.days.map((d) => d.prizesCents),
              color: COLORS.prizes,
              type: 'line' as const,
            },
          ]}
        />
      </div>
      <h3>{tx('byGame')}</h3>
      <Table
        testId="by-game"
        head={[tx('date'), tx('game'), tx('sales'), tx('prizes'), tx('payoutShare'), tx('planned')]}
        rows={r.games.map((g) => [
          day(`${g.firstDay}T12:00:00Z`),
          `${productName(g.product)} · ${g.label}${g.gameNo !== null ? ` · ${tx(g.product === 'bingo' ? 'bingoGameNo' : g.product === 'instant' ? 'gameNo' : 'drawNo')} ${g.gameNo}` : ''}`,
          m(g.salesCents),
          m(g.prizesCents),
          percent(g.payoutBp),
          percent(g.planBp),
        ])}
      />
    </>
  )
}

function BallFrequencies() {
  const halls = useHalls()
  const [hallId, setHallId] = useState('')
  const hall = hallId || halls.data?.[0]?.id || ''
  const sets = useLoad(
    () =>
      hall
        ? api<{ sets: Array<{ id: string; label: string; status: string }> }>(
            'GET',
            `/api/halls/${encodeURIComponent(hall)}/ball-sets`,
          ).then((r) => r.sets)
        : Promise.resolve([]),
    [hall],
  )
  const [setId, setSetId] = useState('')
  const current = setId || sets.data?.find((s) => s.status === 'active')?.id || sets.data?.[0]?.id || ''
  const freq = useLoad(
    () =>
      current
        ? api<Frequencies>('GET', `/api/ball-sets/${encodeURIComponent(current)}/frequencies`)
        : Promise.resolve(null),
    [current],
  )
  return (
    <Panel title={tx('frequencies')} testId="report-frequencies" wide>
      <div class="inline">
        {halls.data && (
          <HallPicker
            halls={halls.data}
            value={hall}
            onValue={(v) => {
              setHallId(v)
              setSetId('')
            }}
          />
        )}
        <Field label={tx('ballSets')}>
          <Select
            value={current}
            onValue={setSetId}
            options={(sets.data ?? []).map((s): [string, string] => [s.id, s.label])}
          />
        </Field>
      </div>
      {freq.data ? (
        <FrequencyChart f={freq.data} />
      ) : current ? (
        <Loading error={freq.error} />
      ) : (
        <p class="muted">{tx('nothing')}</p>
      )}
    </Panel>
  )
}

export function ReportsSection() {
  const [from, setFrom] = useState(daysAgo(29))
  const [to, setTo] = useState(daysAgo(0))
  const [currency, setCurrency] = useState('')
  const q = `from=${from}&to=${to}${currency ? `&currency=${currency}` : ''}`
  const report = useLoad(() => api<SalesReport>('GET', `/api/reports/sales?${q}`), [q])
  const pdf = useAction(async () => {
    await openPdf(`/api/reports/sales.pdf?${q}&lang=${lang.value}`, api)
  })
  return (
    <div class="grid">
      <Panel
        title={tx('reportsTitle')}
        testId="report-sales"
        wide
        actions={
          <button class="primary" data-testid="report-pdf" onClick={() => void pdf.run()}>
            {tx('reportPdf')}
          </button>
        }
      >
        <div class="inline">
          {/* Issue 29 point 4: days typed dd/mm/aaaa on the hall's calendar; the report stays on the last real day
              while the field says what to type. */}
          <HallDay name="from" label={tx('fromDate')} value={from} onValue={(v) => v && setFrom(v)} />
          <HallDay name="to" label={tx('toDate')} value={to} onValue={(v) => v && setTo(v)} />
          {report.data && report.data.currencies.length > 1 && (
            <Field label={tx('currency')}>
              <Select
                value={currency || report.data.currency}
                onValue={setCurrency}
                options={report.data.currencies.map((c): [string, string] => [c, c])}
              />
            </Field>
          )}
        </div>
        {pdf.error && pdf.feedback}
        {report.data ? <SalesCharts report={report.data} /> : <Loading error={report.error} />}
      </Panel>
      {can('report.read') && report.data && (
        <DrawerBalances drawers={report.data.drawers} currency={report.data.currency} />
      )}
      <BallFrequencies />
    </div>
  )
}
