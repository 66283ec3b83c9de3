/**
 * Lotto benchmarks (issue #6).
 *
 * - lotto.settle: plays settled per second, 10,000,000 plays of 6 of 49 in memory after the close of sales: each
 *   play a 49-bit mask in two 32-bit words (PackedPlays), matched with AND + popcount (countMatches), then the
 *   winners and amounts of every category (settleLotto, remainder rule included). Generating the plays is not
 *   timed. Best of BENCH_LOTTO_ROUNDS (3) rounds; the median is logged.
 * - lotto.sell / lotto.sell.p99: durable slips per second through HTTP, and the 99th percentile latency (ms), with
 *   100 concurrent keep-alive clients (a raw HTTP/1.1 load generator in a child process, bench/lotto-load.mjs)
 *   against the real server (createServer) on SQLite with synchronous = FULL. A slip is acknowledged only after
 *   the transaction holding it has committed (group commit on the SQLite writer thread; receipt numbers reserved in
 *   blocks and signed ahead on a signer thread). Slips hold 1 to 3 boards, half quick picks, and carry player data.
 *   BENCH_LOTTO_WARMUP_MS (3000) ms warm-up, then BENCH_LOTTO_SELL_SECONDS (10) s measured. stderr also shows the CPU time per slip of the
 *   server process and of the load generator, which bounds the rate on 2 idle cores (the machine is often shared).
 *
 * `npx tsx bench/run.ts lotto` runs only these. BENCH_LOTTO_PLAYS overrides the 10,000,000.
 */
import { registerTestRng } from '../test/helpers/device-marks.ts'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runLoad } from './load.ts'
import { TICKET_DEFAULTS, type Config } from '../server/src/config.ts'
import { countMatches, settleLotto } from '../server/src/lotto/rules.ts'
import { normalizeLottoPlan } from '../server/src/lotto/plan.ts'
import { createSeededRng } from '../server/src/shared/rng.ts'
import { createServer } from '../server/src/server.ts'
import { plan649 } from '../test/helpers/lottery-plans.ts'

export interface BenchResult {
  name: string
  value: number
  unit: string
}

function log(message: string): void {
  process.stderr.write(`[bench lotto] ${message}\n`)
}

/** `count` random 6-of-49 boards packed two words per play (not timed). */
function randomPlays(count: number, seed: string): Uint32Array {
  const rng = createSeededRng(seed)
  const masks = new Uint32Array(count * 2)
  for (let i = 0; i < count; i++) {
    let lo = 0
    let hi = 0
    let n = 0
    while (n < 6) {
      const x = rng.nextInt(49)
      if (x < 32) {
        if (!(lo & (1 << x))) {
          lo |= 1 << x
          n++
        }
      } else if (!(hi & (1 << (x - 32)))) {
        hi |= 1 << (x - 32)
        n++
      }
    }
    masks[2 * i] = lo >>> 0
    masks[2 * i + 1] = hi >>> 0
  }
  return masks
}

async function benchSettle(emit: (r: BenchResult) => void): Promise<void> {
  const count = Number(process.env.BENCH_LOTTO_PLAYS ?? 10_000_000)
  const rounds = Number(process.env.BENCH_LOTTO_ROUNDS ?? 3)
  const plan = normalizeLottoPlan(plan649())
  log(`generating ${count.toLocaleString('en')} plays`)
  const masks = randomPlays(count, 'bench-lotto')
  const out = new Uint8Array(count)
  const times: number[] = []
  let winners = 0
  for (let r = 0; r < rounds; r++) {
    const drawn = [3, 11, 19, 27, 38, 45].map((x) => ((x + r * 7 - 1) % 49) + 1)
    const t0 = performance.now()
    const matches = countMatches(masks, 2, count, drawn, out)
    const s = settleLotto({ plan, salesCents: count * plan.priceCents, matches })
    times.push(performance.now() - t0)
    winners = s.winners.play.length
  }
  const sorted = [...times].sort((a, b) => a - b)
  log(
    `settle ${count.toLocaleString('en')} plays: best ${sorted[0].toFixed(0)} ms, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms (${winners} winning plays)`,
  )
  emit({ name: 'lotto.settle', value: Math.round(count / (sorted[0] / 1000)), unit: 'plays/s' })
}

async function benchSell(emit: (r: BenchResult) => void): Promise<void> {
  const seconds = Number(process.env.BENCH_LOTTO_SELL_SECONDS ?? 10)
  const concurrency = Number(process.env.BENCH_LOTTO_CLIENTS ?? 100)
  const warmupMs = Number(process.env.BENCH_LOTTO_WARMUP_MS ?? 3000)
  const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-bench-lotto-'))
  const config: Config = {
    ...TICKET_DEFAULTS,
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: null,
    profileId: 'BO-2025',
    hallName: 'Bench',
    playingPositions: 100,
    ballSource: 'rng',
    logLevel: 'error',
    seedDemo: false,
    sqliteSynchronous: 'FULL',
    // Each counter slip prints its receipt (LNS-2) after the commit: laid out, then dropped, as in sales.paid.
    printer: 'discard',
    auth: 'off',
    rateLimitPerMinute: 100_000_000,
    // RNG-26: the plan draws by RNG, which the shipped profiles allow only with the AJ's authorisation.
    lotteryRngAuthorisation: 'BENCH (sin autorización real)',
    // LNS-12: the plan's range comes from the operator's licence record.
    lottoLicence: { ref: 'BENCH (sin licencia real)', rangeMin: 2, rangeMax: 128 },
  } as Config
  // A clock inside the sales window of the plan.
  const clock = { now: () => new Date(Date.parse('2025-03-02T12:00:00-04:00') + (performance.now() % 1000)) }
  const server = await createServer(config, { clock })
  // GEN-6: a draw by software needs the operator's registered RNG, as a real operator has it.
  await registerTestRng(server.services)
  try {
    const created = await fetch(`${server.url}/api/lotto/draws`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(plan649()),
    })
    const plan = (await created.json()) as { drawId?: string }
    if (!plan.drawId) throw new Error(`the bench's lotto plan was refused: ${created.status} ${JSON.stringify(plan)}`)
    const drawId = plan.drawId
    const rng = createSeededRng('bench-slips')
    const bodies = Array.from({ length: 1000 }, (_, i) => {
      const boards = 1 + (i % 3)
      const chosen = i % 2 === 0 ? boards : 0
      const pick = () => {
        const s = new Set<number>()
        while (s.size < 6) s.add(1 + rng.nextInt(49))
        return [...s]
      }
      return {
        boards: Array.from({ length: chosen }, pick),
        quickPicks: boards - chosen,
        player: { name: `Jugador ${i}`, document: `${4_000_000 + i} LP` },
        channel: 'kiosk:bench',
        ageConfirmed: true,
      }
    })
    // Through a file: 1,000 bodies are too long for one argument of the child (E2BIG past 128 KiB).
    const bodiesFile = join(dataDir, 'bodies.json')
    writeFileSync(bodiesFile, JSON.stringify(bodies))
    const url = new URL(server.url)
    log(`selling for ${warmupMs / 1000} s warm-up + ${seconds} s with ${concurrency} clients (SQLite synchronous=FULL)`)
    const before = server.services.lotto.saleStats().written
    const cpu0 = process.cpuUsage()
    const result = await runLoad({
      host: url.hostname,
      port: url.port,
      path: `/api/lotto/draws/${drawId}/slips`,
      clients: concurrency,
      warmupMs,
      durationMs: seconds * 1000,
      bodiesFile,
    })
    const stats = server.services.lotto.saleStats()
    const cpu = process.cpuUsage(cpu0)
    // Paid slips (issue 13) commit in the HTTP request's own transaction, not on the writer thread: count both.
    const slipsAll = Math.max(stats.written - before, result.totalSent ? result.ok : 0)
    const serverUs = (cpu.user + cpu.system) / slipsAll
    const clientUs = (result.clientCpuMs * 1000) / result.totalSent
    log(
      `CPU per slip: server ${serverUs.toFixed(0)} µs (HTTP thread + writer thread), load generator ${clientUs.toFixed(0)} µs; 2 cores bound the rate at ~${Math.round(2e6 / (serverUs + clientUs))} slips/s`,
    )
    log(
      `${result.ok} slips in ${result.seconds} s, ${result.errors} errors ${JSON.stringify(result.statuses)}; p50 ${result.p50?.toFixed(1)} ms, p99 ${result.p99?.toFixed(1)} ms, max ${result.max?.toFixed(1)} ms; ${stats.batches} batches to the ${stats.writer} writer, ${(stats.written / Math.max(1, stats.batches)).toFixed(1)} slips each (the writer thread merges the batches queued during a commit)`,
    )
    emit({ name: 'lotto.sell', value: Math.round(result.ok / result.seconds), unit: 'slips/s' })
    emit({ name: 'lotto.sell.p99', value: Number((result.p99 ?? 0).toFixed(1)), unit: 'ms' })
  } finally {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** lotto.sell alone, for bench/bun.ts. */
export { benchSell as sellLotto }

export async function benchLotto(emit: (r: BenchResult) => void): Promise<void> {
  await benchSettle(emit)
  await benchSell(emit)
}
