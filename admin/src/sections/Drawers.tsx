/**
 * Drawer balances by cashier shift (issue 17 point 2), from the sales report's `drawers`: per shift the float it
 * opened with, the cash in and out, what the drawer should hold, what was counted at the close (arqueo) and the
 * difference. The same figures are in the report's PDF.
 */
import type { DrawerFigure } from '../../../server/src/reports/figures.ts'
import { Chart, COLORS } from '../Chart.tsx'
import { Panel, Table, money, tx, when } from '../ui.tsx'

export function DrawerBalances(props: { drawers: DrawerFigure[]; currency: string }) {
  const list = props.drawers
  const m = (v: number) => money(v, props.currency)
  const label = (d: DrawerFigure) =>
    `${d.station} · ${d.cashier} · ${when(d.openedAt)}${d.open ? ` (${tx('shiftOpen')})` : ''}`
  return (
    <Panel title={tx('drawers')} testId="report-drawers" wide>
      {list.length === 0 ? (
        <p class="muted">{tx('noShifts')}</p>
      ) : (
        <>
          <Chart
            testId="chart-drawers"
            title={tx('drawersChart')}
            type="bar"
            format={m}
            labels={list.map(label)}
            series={[
              { label: tx('shiftFloat'), data: list.map((d) => d.floatCents), color: COLORS.other },
              { label: tx('shiftIn'), data: list.map((d) => d.inCents), color: COLORS.sales },
              { label: tx('shiftOut'), data: list.map((d) => d.outCents), color: COLORS.prizes },
              { label: tx('shiftExpected'), data: list.map((d) => d.expectedCents), color: COLORS.plan },
              { label: tx('shiftCounted'), data: list.map((d) => d.countedCents ?? 0), color: COLORS.actual },
              { label: tx('shiftDifference'), data: list.map((d) => d.differenceCents ?? 0), color: COLORS.lottery },
            ]}
          />
          <Table
            testId="drawers-table"
            head={[
              tx('who'),
              tx('when'),
              tx('shiftFloat'),
              tx('shiftIn'),
              tx('shiftOut'),
              tx('shiftExpected'),
              tx('shiftCounted'),
              tx('shiftDifference'),
            ]}
            rows={list.map((d) => [
              `${d.station} · ${d.cashier}`,
              `${when(d.openedAt)} – ${d.open ? tx('shiftOpen') : when(d.closedAt)}`,
              m(d.floatCents),
              m(d.inCents),
              m(d.outCents),
              m(d.expectedCents),
              d.countedCents === null ? '—' : m(d.countedCents),
              d.differenceCents === null ? (
                '—'
              ) : (
                <span class={`tag ${d.differenceCents === 0 ? 'good' : 'bad'}`}>{m(d.differenceCents)}</span>
              ),
            ])}
          />
        </>
      )}
    </Panel>
  )
}
