/**
 * Issue 24 point 5: what a socket.io flood from one address costs everybody else. Starts the real server
 * (authentication on, SQLite), then a separate process (test/helpers/socket-flood.mjs, at the lowest CPU priority:
 * a real flooder spends its own machine's CPU) opens BENCH_FLOOD_SOCKETS (default 6) anonymous sockets claiming one
 * address through the trusted proxy; the first sends BENCH_FLOOD_FIRST (default 3,000) events, each other
 * BENCH_FLOOD_OTHERS (default 600). Meanwhile this process asks `/api/health` over HTTP, one request after another.
 *
 * - flood.health.before.p50: ms per /api/health answer before the flood (after 20 warm-up requests).
 * - flood.health.during.p50 / .p99 / .max: the same, only while the flood is on; goal p99 <= 50 ms.
 * - flood.events.served: the flood's events that reached a handler (the rest were refused by the limits).
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../test/helpers/sale-rules.ts'
import { performance } from 'node:perf_hooks'
import { startFlood } from '../test/helpers/flood.ts'
import { startTestServer } from '../test/helpers/server.ts'
import { p99 } from './stats.ts'

interface BenchResult {
  name: string
  value: number
  unit: string
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)]

export async function benchSocketFlood(emit: (r: BenchResult) => void): Promise<void> {
  const sockets = Number(process.env.BENCH_FLOOD_SOCKETS ?? 6)
  const first = Number(process.env.BENCH_FLOOD_FIRST ?? 3000)
  const others = Number(process.env.BENCH_FLOOD_OTHERS ?? 600)
  const server = await startTestServer({ auth: 'on', trustedProxies: ['127.0.0.1', '::1'] })
  try {
    const { bingo } = server.services
    const hall = await bingo.createHall({
      name: 'Sala Sajama',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 600, seed: 'bench-flood' })
    const series = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 1000 })
    const session = await bingo.openSession({
      hallId: hall.id,
      recount: { ballsCounted: 90, confirmedBy: 'Jefa de Mesa' },
    })
    const { gameId } = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await bingo.openSales(gameId)

    const health = async () => {
      const t = performance.now()
      const r = await fetch(`${server.url}/api/health`)
      await r.arrayBuffer()
      if (r.status !== 200) throw new Error(`/api/health answered ${r.status}`)
      return performance.now() - t
    }
    for (let i = 0; i < 20; i++) await health()
    const before: number[] = []
    for (let i = 0; i < 50; i++) before.push(await health())

    let flooding = true
    const flood = startFlood(server.url, '203.0.113.66', gameId, sockets, first, others)
    const done = flood.done.finally(() => {
      flooding = false
    })
    await flood.started
    const during: number[] = []
    while (flooding) during.push(await health())
    const result = await done
    process.stderr.write(
      `[bench] socket flood: ${result.sent} events in ${result.floodMs} ms, ${result.ok} served; ${during.length} health requests during it\n`,
    )
    const round = (ms: number) => Number(ms.toFixed(3))
    emit({ name: 'flood.health.before.p50', value: round(percentile(before, 0.5)), unit: 'ms' })
    emit({ name: 'flood.health.during.p50', value: round(percentile(during, 0.5)), unit: 'ms' })
    emit({ name: 'flood.health.during.p99', value: round(p99(during)), unit: 'ms' })
    emit({ name: 'flood.health.during.max', value: round(Math.max(...during)), unit: 'ms' })
    emit({ name: 'flood.events.served', value: result.ok, unit: 'events' })
  } finally {
    await server.cleanup()
  }
}
