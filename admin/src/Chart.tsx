/**
 * A chart drawn by Chart.js on a canvas, with the same figures in a table for screen readers (and tests).
 * Only the pieces used are registered, so the bundle stays small.
 */
import { useEffect, useRef } from 'preact/hooks'
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJs,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js'
import { tx } from './ui.tsx'

ChartJs.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
)

export interface Series {
  label: string
  data: number[]
  color: string
  type?: 'bar' | 'line'
  dashed?: boolean
}

export const COLORS = {
  sales: '#2563eb',
  prizes: '#f59e0b',
  plan: '#111827',
  actual: '#16a34a',
  bingo: '#7c3aed',
  lotto: '#0891b2',
  lottery: '#db2777',
  raffle: '#ea580c',
  instant: '#65a30d',
  other: '#64748b',
}

export function Chart(props: {
  type: 'bar' | 'line'
  labels: string[]
  series: Series[]
  format: (v: number) => string
  testId?: string
  height?: number
  stacked?: boolean
  title: string
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  // Nothing but zeros draws an axis of "Bs 0,01 … Bs 0,00" (Chart.js spreads 0..1 cent): said in words instead.
  const empty = props.labels.length === 0 || props.series.every((s) => s.data.every((v) => !v))
  useEffect(() => {
    if (!canvas.current || empty) return
    const config: ChartConfiguration = {
      type: props.type,
      data: {
        labels: props.labels,
        datasets: props.series.map((s) => ({
          type: s.type ?? props.type,
          label: s.label,
          data: s.data,
          backgroundColor: s.color,
          borderColor: s.color,
          borderWidth: (s.type ?? props.type) === 'line' ? 2 : 0,
          borderDash: s.dashed ? [6, 4] : undefined,
          pointRadius: 4,
          maxBarThickness: 90,
          // Stacked bars add up; a line (prizes, the plan) stands on its own.
          ...(props.stacked ? { stack: (s.type ?? props.type) === 'line' ? 'line' : 'bars' } : {}),
        })) as never,
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: { position: 'bottom' },
          tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${props.format(Number(ctx.parsed.y))}` } },
        },
        scales: {
          x: { stacked: props.stacked, grid: { display: false } },
          y: { stacked: props.stacked, beginAtZero: true, ticks: { callback: (v) => props.format(Number(v)) } },
        },
      },
    }
    const chart = new ChartJs(canvas.current, config)
    return () => chart.destroy()
  }, [empty, props.type, JSON.stringify(props.labels), JSON.stringify(props.series), props.format, props.stacked])
  return (
    <figure class="chart" data-testid={props.testId}>
      <figcaption>{props.title}</figcaption>
      {empty ? (
        <p class="muted" data-testid={props.testId && `${props.testId}-empty`}>
          {tx('chartEmpty')}
        </p>
      ) : (
        <div style={{ height: `${props.height ?? 280}px`, position: 'relative' }}>
          <canvas ref={canvas} role="img" aria-label={props.title} />
        </div>
      )}
      <table class="sr-only">
        <thead>
          <tr>
            <th />{' '}
            {props.series.map((s) => (
              <th key={s.label}>{s.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.labels.map((l, i) => (
            <tr key={l}>
              <th>{l}</th>
              {props.series.map((s) => (
                <td key={s.label}>{props.format(s.data[i] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
