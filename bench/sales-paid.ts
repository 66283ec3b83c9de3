/**
 * Paid kiosk sales (issue 23 point 5), through HTTP against the real server (createServer) on SQLite with
 * synchronous = FULL, printers `discard` (each ticket laid out, then dropped), and authentication on, as the product
 * ships: the 99 kiosks (and the stalled one) are enrolled in the hall with their seal marks, as test/helpers enrol
 * kiosks, and each purchase carries its kiosk's device credential (`Authorization: Device <id>.<secret>`), which the
 * server checks on every request and from which it takes the kiosk (the body names none); the balls are drawn by a
 * floor manager logged in with a password (`Authorization: Bearer <token>`). BENCH_PAID_AUTH=off runs the server
 * with authentication off and the kiosks named in the body instead (the bench before, to measure what the
 * credentials cost).
 *
 * - sales.paid / sales.paid.p99: paid kiosk purchases per second and the 99th percentile latency (ms) of single
 *   purchases, 100 concurrent keep-alive clients (bench/lotto-load.mjs in a child process), each request spending
 *   its own credit voucher (sold beforehand, not timed) on one lotto slip or one bingo card, alternately. A
 *   purchase is answered after its transaction (sale, payment, journal, the paper it owes) has committed and its
 *   ticket has been printed. Measured warm (after a 2 s warm-up) over BENCH_PAID_SECONDS (8) s;
 *   sales.paid.cold / sales.paid.cold.p99: the same from the first request of a fresh server, over 3 s.
 * - sales.paid.stalled_printer.p99: the other clients' p99 (99 clients) while one more kiosk's printer is a TCP
 *   server that accepts and never reads, with that kiosk's player buying over and over (each purchase waits for
 *   the printer's timeout); draw.ball.stalled_printer.p99: the p99 of balls drawn meanwhile over HTTP in another
 *   hall's game (one every 100 ms; a line or bingo window is closed between balls, untimed).
 *
 * - sales.paid.postgres / .p99: the warm run again on PostgreSQL (a fresh database on the server at
 *   BOLILLO_BENCH_DATABASE_URL, default postgres://bolillo:bolillo@127.0.0.1:5432/postgres; skipped with a note when
 *   none answers).
 *
 * BENCH_PAID_VOUCHERS (40,000) vouchers are sold before the runs; a run that outpaces them reuses spent vouchers,
 * which are refused (counted as errors, never as sales). `npx tsx bench/run.ts sales-paid` runs only these.
 */
import { registerTestPrinterAndSoftware, registerTestRng, sealed } from '../test/helpers/device-marks.ts'
import { spawn } from 'node:child_process'
import { withBenchDatabase } from './postgres.ts'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createTcpServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TICKET_DEFAULTS, type Config } from '../server/src/config.ts'
import { createServer } from '../server/src/server.ts'
import { openDatabase } from '../server/src/services.ts'
import { countingDatabase, type StatementTally } from '../test/helpers/statement-count.ts'
import { markDemo } from '../server/src/demo.ts'
import { plan649 } from '../test/helpers/lottery-plans.ts'
import { hallWithGameOnSale } from '../test/helpers/cashdesk.ts'
import { p99 } from './stats.ts'
import { runLoad, type LoadResult } from './load.ts'
import { backendCpuDelta, backendCpuMs, tapPostgres, type PgTiming } from './pg-timing.ts'

export interface BenchResult {
  name: string
  value: number
  unit: string
}

function log(message: string): void {
  process.stderr.write(`[bench sales.paid] ${message}\n`)
}

/** A printer that accepts every connection and never reads from it (a jammed printer with a full buffer). */
async function stalledPrinter(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createTcpServer((s) => {
    sockets.add(s)
    s.on('error', () => undefined)
    s.pause()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `tcp://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

function load(
  host: string,
  port: string,
  clients: number,
  warmupMs: number,
  durationMs: number,
  bodiesFile: string,
): Promise<LoadResult> {
  return runLoad({ host, port, path: '/api/kiosk/purchases', clients, warmupMs, durationMs, bodiesFile })
}

/** Runs bench/ball-client.mjs: balls drawn over HTTP from another process; resolves with each 200's time (ms). */
function ballClient(
  url: string,
  gameId: string,
  authorization: string,
  intervalMs: number,
  durationMs: number,
): Promise<{ times: number[]; statuses: Record<string, number> }> {
  const client = fileURLToPath(new URL('./ball-client.mjs', import.meta.url))
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.env.BOLILLO_BENCH_NODE ?? process.execPath,
      [client, url, gameId, authorization, String(intervalMs), String(durationMs)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let text = ''
    child.stdout!.on('data', (c) => {
      text += c
    })
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(text) as { times: number[]; statuses: Record<string, number> })
        : reject(new Error(`ball client exited with ${code}`)),
    )
  })
}

/** Bytes this process has had written to storage (Linux: /proc/self/io write_bytes: the WAL, its checkpoints); NaN elsewhere. */
function storageWrittenBytes(): number {
  try {
    return Number(/^write_bytes: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN)
  } catch {
    return NaN
  }
}

/** CPU time (ms) of each of this process's threads but the main one, as name:id (Linux: /proc); empty elsewhere. */
function otherThreadsCpuMs(): Map<string, number> {
  const out = new Map<string, number>()
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      if (tid === String(process.pid)) continue
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(`${name}:${tid}`, (out.get(`${name}:${tid}`) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10)
    }
  } catch {
    /* not Linux */
  }
  return out
}

/**
 * CPU time (ms) of this process's main thread, the one that runs the event loop (Linux: /proc); NaN elsewhere.
 * process.cpuUsage() adds up every thread, the thread pool's crypto and the writer thread included.
 */
function mainThreadCpuMs(): number {
  const { user, system } = mainThreadCpuSplit()
  return user + system
}

/** The same, user and system (kernel: the sockets' writes and reads among it) apart. */
function mainThreadCpuSplit(): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name; in clock ticks (100/s).
    return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 }
  } catch {
    return { user: NaN, system: NaN }
  }
}

/**
 * BENCH_PAID_PROFILE=<file.cpuprofile>: the server's CPU profile of the warm run (SQLite, then PostgreSQL's over it; open it in Chrome's
 * DevTools, or sum its self times), to see where a paid sale's CPU goes without the untimed set-up.
 * BENCH_PAID_HEAP_PROFILE=<file.heapprofile>: what the warm run allocated, by function (sampled; collected objects
 * kept): a sale's garbage is what the scavenger and the V8 threads beside the event loop spend their CPU on.
 * BENCH_PAID_KEEP=1: the database and keys are left in their temporary folder (its path logged) to be looked at.
 */
async function startProfile(): Promise<{ stop(): Promise<void> } | null> {
  const file = process.env.BENCH_PAID_PROFILE
  const heapFile = process.env.BENCH_PAID_HEAP_PROFILE
  if (!file && !heapFile) return null
  const { Session } = await import('node:inspector/promises')
  const session = new Session()
  session.connect()
  if (file) {
    await session.post('Profiler.enable')
    await session.post('Profiler.start')
  }
  if (heapFile) {
    await session.post('HeapProfiler.enable')
    // Every 32 KiB allocated, on average; objects collected since are kept, to see what a sale allocates in all.
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 32 * 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    })
  }
  return {
    async stop() {
      if (file) {
        const { profile } = await session.post('Profiler.stop')
        writeFileSync(file, JSON.stringify(profile))
        log(`CPU profile of the warm run written to ${file}`)
      }
      if (heapFile) {
        const { profile } = await session.post('HeapProfiler.stopSampling')
        writeFileSync(heapFile, JSON.stringify(profile))
        log(`allocation profile of the warm run written to ${heapFile}`)
      }
      session.disconnect()
    },
  }
}

export async function benchSalesPaid(emit: (r: BenchResult) => void): Promise<void> {
  // BENCH_PAID_SQLITE=0: the PostgreSQL run only (paired runs while changing that engine's path).
  if (process.env.BENCH_PAID_SQLITE !== '0')
    await run(emit, { databaseUrl: null, voucherCount: Number(process.env.BENCH_PAID_VOUCHERS ?? 40_000) })
  // BENCH_PAID_POSTGRES=0: the SQLite runs only (paired runs while profiling one engine).
  if (process.env.BENCH_PAID_POSTGRES === '0') return
  await withBenchDatabase('sales.paid.postgres', (url) =>
    run(emit, { databaseUrl: url, voucherCount: Number(process.env.BENCH_PAID_VOUCHERS_POSTGRES ?? 12_000) }),
  )
}

/** SQLite (databaseUrl null): cold, warm and stalled-printer runs; PostgreSQL: the warm run only (sales.paid.postgres). */
async function run(
  emit: (r: BenchResult) => void,
  options: { databaseUrl: string | null; voucherCount: number },
): Promise<void> {
  const seconds = Number(process.env.BENCH_PAID_SECONDS ?? 8)
  const clients = Number(process.env.BENCH_PAID_CLIENTS ?? 100)
  const voucherCount = options.voucherCount
  const postgres = options.databaseUrl !== null
  const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-bench-paid-'))
  const stalled = await stalledPrinter()
  const printerTimeoutMs = 2000
  const authOn = process.env.BENCH_PAID_AUTH !== 'off'
  const printers: Record<string, string> = {}
  const config: Config = {
    ...TICKET_DEFAULTS,
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: options.databaseUrl,
    profileId: 'BO-2025',
    hallName: 'Bench',
    playingPositions: 100,
    ballSource: 'rng',
    logLevel: 'error',
    seedDemo: false,
    sqliteSynchronous: 'FULL',
    auth: authOn ? 'on' : 'off',
    rateLimitPerMinute: 100_000_000,
    lotteryRngAuthorisation: 'BENCH (sin autorización real)',
    lottoLicence: { ref: 'BENCH (sin licencia real)', rangeMin: 2, rangeMax: 128 },
    printer: 'discard',
    // The stalled kiosk's printer, by its device id once enrolled (read per print, not at start).
    printers,
    printerTimeoutMs,
  } as Config
  // A clock inside the lotto plan's sales window that moves with real time (the beacon round of a close comes due).
  const base = Date.parse('2025-03-02T12:00:00-04:00')
  const started = Date.now()
  const clock = { now: () => new Date(base + (Date.now() - started)) }
  // BENCH_PAID_COUNT=1: every SQL statement is counted (test/helpers/statement-count.ts) and the warm run's statements
  // per sale are printed, most run first; a figure independent of the machine's load (the timings are not).
  let tally: StatementTally | null = null
  const timing: PgTiming | null = postgres && process.env.BENCH_PAID_PG_TIMING === '1' ? tapPostgres() : null
  let db
  if (process.env.BENCH_PAID_COUNT === '1') {
    const counted = countingDatabase(await openDatabase(config))
    db = counted.db
    tally = counted.tally
  }
  const server = await createServer(config, { clock, ...(db ? { db } : {}) })
  const { services } = server
  // GEN-6: a draw by software needs the operator's registered RNG, as a real operator has it.
  await registerTestRng(services)
  // GEN-4, RNG-32: the kiosks print on a recorded printer, and the running draw engine is certified, as in a real hall.
  await registerTestPrinterAndSoftware(services)
  try {
    const draw = await services.lotto.createDraw(plan649())
    const cardsOnSale = Math.ceil(voucherCount / 2) + 1000
    // BNG-93: every voucher is a player of its own, seated: the hall has the most playing positions a licence allows.
    const hall = await hallWithGameOnSale(services, {
      faceValueCents: 500,
      cards: cardsOnSale,
      name: 'Sala Bench',
      playingPositions: 100_000,
    })
    // Another hall's game in play for the ball draws: cards sold, sales closed now (its beacon round comes due).
    const other = await hallWithGameOnSale(services, { faceValueCents: 500, cards: 200, name: 'Sala Bolas' })
    await services.paidSales.counterCards({
      gameId: other.gameId,
      count: 12,
      stationId: 'mesa-bench',
      soldBy: 'bench',
      ageConfirmed: true,
    })
    // Its draws are signed by the local demo beacon, which signs only the demo's own halls (issue 24 point 4): without
    // this the bench waits for a public beacon round it cannot fetch and draws no ball at all.
    await markDemo(services, [{ hallId: other.hallId }])
    await services.bingo.closeSales({ gameId: other.gameId })

    // The kiosks, enrolled in the bench's hall with the seal marks its profile requires (as test/helpers do), and the
    // floor manager who draws the other hall's balls; with authentication off, kiosks named in the body as before.
    const kiosks: Array<{ id: string; headers: Record<string, string> }> = []
    let stalledKiosk: { id: string; headers: Record<string, string> } = {
      id: 'kiosk-stalled',
      headers: {} as Record<string, string>,
    }
    let drawer: Record<string, string> = {}
    if (authOn) {
      for (let i = 1; i <= 100; i++) {
        const d = await services.auth.enrolDevice({
          ...sealed(),
          kind: 'kiosk',
          name: `Kiosco ${i}`,
          hallId: hall.hallId,
        })
        kiosks.push({ id: d.id, headers: { authorization: `Device ${d.credential}` } })
      }
      stalledKiosk = kiosks.pop()!
      const password = 'bench-mesa-contraseña'
      await services.auth.createUser({ username: 'mesa', displayName: 'Jefe de mesa', role: 'floor_manager', password })
      drawer = { authorization: `Bearer ${(await services.auth.login('mesa', password)).token}` }
    } else for (let i = 1; i <= 99; i++) kiosks.push({ id: `kiosk-${i}`, headers: {} })
    printers[stalledKiosk.id] = stalled.url

    log(`selling ${voucherCount.toLocaleString('en')} vouchers (not timed)`)
    const at = clock.now().toISOString()
    const codes: string[] = []
    for (let i = 0; i < voucherCount; i += 2000) {
      await services.db.transaction(async (tx) => {
        for (let k = i; k < Math.min(voucherCount, i + 2000); k++) {
          const v = await services.cashdesk.vouchers.issue(tx, {
            hallId: hall.hallId,
            currency: 'BOB',
            amountCents: 500,
            origin: 'cashier',
            parentId: null,
            stationId: 'caja-bench',
            issuedBy: 'bench',
            smallCents: 0,
            otherCents: 500,
            buyerDocument: null,
            at,
          })
          codes.push(services.cashdesk.vouchers.codeOf(v.id))
        }
      })
    }
    // The stalled kiosk's player has vouchers of his own (the last 200); the load generator's bodies take the rest.
    const stalledCodes = codes.splice(codes.length - 200)
    let nextVoucher = 0
    const bodiesFile = join(dataDir, 'bodies.json')
    /** `count` purchases, one voucher each, alternately a card and a slip, at kiosks 1..99 (with their credentials). */
    const writeBodies = (count: number) => {
      const bodies = Array.from({ length: count }, (_, i) => {
        const voucherCode = codes[nextVoucher++ % codes.length]
        const kiosk = kiosks[i % kiosks.length]
        const at = authOn ? {} : { kioskId: kiosk.id }
        const body =
          i % 2 === 0
            ? { voucherCode, ...at, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } }
            : {
                voucherCode,
                ...at,
                ageConfirmed: true,
                slips: [
                  {
                    drawId: draw.drawId,
                    quickPicks: 1,
                    player: { name: `Jugador ${nextVoucher}`, document: `${5_000_000 + nextVoucher} LP` },
                  },
                ],
              }
        return { headers: kiosk.headers, body }
      })
      writeFileSync(bodiesFile, JSON.stringify(bodies))
    }
    const url = new URL(server.url)
    const report = (label: string, r: LoadResult) =>
      log(
        `${label}: ${r.ok} sales in ${r.seconds} s, ${r.errors} errors ${JSON.stringify(r.statuses)}; p50 ${r.p50?.toFixed(1)} ms, p99 ${r.p99?.toFixed(1)} ms, max ${r.max?.toFixed(1)} ms`,
      )

    if (postgres) {
      writeBodies(codes.length)
      const profiling = await startProfile()
      const units0 = services.paidSales.stats()
      const split0 = mainThreadCpuSplit()
      const main0 = mainThreadCpuMs()
      const cpu0 = process.cpuUsage()
      timing?.reset()
      tally?.reset()
      const backends0 = await backendCpuMs(services.db)
      const warm = await load(url.hostname, url.port, clients, 2000, seconds * 1000, bodiesFile)
      const cpu = process.cpuUsage(cpu0)
      const mainMs = mainThreadCpuMs() - main0
      const split1 = mainThreadCpuSplit()
      const backendMs = backendCpuDelta(backends0, await backendCpuMs(services.db))
      await profiling?.stop()
      report('postgres, warm', warm)
      const g = services.paidSales.stats()
      // Warm-up included: per sale is over every purchase sent (the group commit's units count printed marks too).
      const sold = Math.max(1, warm.totalSent)
      log(
        `postgres CPU per sale: server ${((cpu.user + cpu.system) / sold).toFixed(0)} µs (its event loop's thread ${Number.isNaN(mainMs) ? '-' : ((mainMs * 1000) / sold).toFixed(0)} µs: user ${(((split1.user - split0.user) * 1000) / sold).toFixed(0)}, system ${(((split1.system - split0.system) * 1000) / sold).toFixed(0)}), PostgreSQL's backends ${((backendMs * 1000) / sold).toFixed(0)} µs; ${g.batches - units0.batches} batches for ${g.units - units0.units} units (sales and printed marks) over ${sold} purchases`,
      )
      // `ok` counts only requests sent and answered inside the window: with answers slower than about a second it
      // undercounts; this counts every answer from the start of the warm-up (about `clients` still in flight).
      log(
        `postgres: about ${Math.round((warm.totalSent - clients) / (2 + seconds))} purchases answered per second over warm-up and window`,
      )
      if (tally) {
        log(`postgres statements (warm-up included): ${tally.total()} over ${sold} purchases`)
        for (const l of tally.byStatement().slice(0, 60))
          log(`  ${(l.count / sold).toFixed(2)}  ${l.sql.slice(0, 160)}`)
      }
      if (timing) for (const line of timing.report(sold)) log(line)
      log(
        `postgres group commit: ${g.units} sales in ${g.batches} transactions, ${(g.units / Math.max(1, g.batches)).toFixed(1)} each`,
      )
      emit({ name: 'sales.paid.postgres', value: Math.round(warm.ok / warm.seconds), unit: 'sales/s' })
      emit({ name: 'sales.paid.postgres.p99', value: Number((warm.p99 ?? 0).toFixed(1)), unit: 'ms' })
      return
    }

    // Cold: a fresh server's first 3 s.
    const coldSeconds = 3
    writeBodies(Math.floor(codes.length / 4))
    const cold = await load(url.hostname, url.port, clients, 0, coldSeconds * 1000, bodiesFile)
    report('cold', cold)
    emit({ name: 'sales.paid.cold', value: Math.round(cold.ok / cold.seconds), unit: 'sales/s' })
    emit({ name: 'sales.paid.cold.p99', value: Number((cold.p99 ?? 0).toFixed(1)), unit: 'ms' })

    // Warm.
    writeBodies(Math.floor(codes.length / 2))
    const unitsBefore = services.paidSales.stats().units
    const cpu0 = process.cpuUsage()
    const main0 = mainThreadCpuMs()
    const written0 = storageWrittenBytes()
    const threads0 = otherThreadsCpuMs()
    const profiling = await startProfile()
    tally?.reset()
    const warm = await load(url.hostname, url.port, clients, 2000, seconds * 1000, bodiesFile)
    const cpu = process.cpuUsage(cpu0)
    const mainMs = mainThreadCpuMs() - main0
    const written = storageWrittenBytes() - written0
    const threads = [...otherThreadsCpuMs()]
      .map(([name, ms]) => [name, ms - (threads0.get(name) ?? 0)] as const)
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1])
    await profiling?.stop()
    report('warm', warm)
    const perSale = (x: number) => (x / Math.max(1, warm.totalSent)).toFixed(0)
    log(
      `storage written per sale: ${Number.isNaN(written) ? '-' : perSale(written / 1024)} KiB; the other threads' CPU per sale: ${perSale(threads.reduce((sum, [, ms]) => sum + ms, 0) * 1000)} µs (the busiest: ${
        threads
          .slice(0, 5)
          .map(([name, ms]) => `${name} ${perSale(ms * 1000)}`)
          .join(', ') || '-'
      }; the V8 platform's are the first few after the main one: GC)`,
    )
    if (tally) {
      // The warm-up's sales are counted too: per sale is over every purchase answered 200 since the reset.
      const sold = services.paidSales.stats().units
      const lines = tally.byStatement()
      log(`statements (warm-up included): ${tally.total()} over ${sold - unitsBefore} group-commit units`)
      for (const l of lines.slice(0, 60))
        log(
          `  ${(l.count / Math.max(1, sold - unitsBefore)).toFixed(2)}  ${((l.ms * 1000) / Math.max(1, sold - unitsBefore)).toFixed(0).padStart(4)} µs  ${l.sql.slice(0, 160)}`,
        )
    }
    const g = services.paidSales.stats()
    log(
      `group commit so far: ${g.units} sales in ${g.batches} transactions, ${(g.units / Math.max(1, g.batches)).toFixed(1)} each`,
    )
    log(
      `CPU per sale: server ${((cpu.user + cpu.system) / Math.max(1, warm.totalSent)).toFixed(0)} µs (its event loop's thread ${Number.isNaN(mainMs) ? '-' : ((mainMs * 1000) / Math.max(1, warm.totalSent)).toFixed(0)} µs), load generator ${((warm.clientCpuMs * 1000) / Math.max(1, warm.totalSent)).toFixed(0)} µs`,
    )
    emit({ name: 'sales.paid', value: Math.round(warm.ok / warm.seconds), unit: 'sales/s' })
    emit({ name: 'sales.paid.p99', value: Number((warm.p99 ?? 0).toFixed(1)), unit: 'ms' })

    // The other hall's first ball, untimed: it waits for the beacon round fixed at its close (DESIGN.md v2 step 3).
    for (let i = 0; i < 100; i++) {
      const r = await fetch(`${server.url}/api/games/${other.gameId}/draw`, { method: 'POST', headers: drawer })
      await r.text()
      if (r.status === 200) break
      await new Promise((res) => setTimeout(res, 500))
    }

    // Stalled printer: one kiosk's player buys over and over at a printer that never reads; balls drawn meanwhile.
    writeBodies(Math.floor(codes.length / 4))
    let stop = false
    const stalledAnswers: Record<string, number> = {}
    const stalledPlayer = (async () => {
      while (!stop) {
        const voucherCode = stalledCodes.pop()
        if (!voucherCode) break
        const r = await fetch(`${server.url}/api/kiosk/purchases`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...stalledKiosk.headers },
          body: JSON.stringify({
            voucherCode,
            ...(authOn ? {} : { kioskId: stalledKiosk.id }),
            ageConfirmed: true,
            cards: { gameId: hall.gameId, count: 1 },
          }),
        })
        const answer = (await r.json()) as { print?: { code?: string }; error?: { code: string } }
        const key = `${r.status} ${answer.error?.code ?? answer.print?.code ?? 'printed'}`
        stalledAnswers[key] = (stalledAnswers[key] ?? 0) + 1
      }
    })()
    // The balls are drawn by a child process (bench/ball-client.mjs): a caller's console is another machine, and a
    // client on the server's own event loop would add its own wait to read each answer to the ball's time. Windows
    // are closed here meanwhile, untimed (the caller's "no prize" after a window).
    const ballWindowMs = Math.min(seconds, 6) * 1000
    const ballRun = ballClient(server.url, other.gameId, drawer.authorization ?? '', 100, ballWindowMs)
    const balls = (async () => {
      while (!stop) {
        const state = await services.bingo.getGameState(other.gameId)
        if (state.status === 'finished') break
        if (state.status === 'line_window' || state.status === 'bingo_window')
          await services.bingo.closeWindow(other.gameId)
        await new Promise((r) => setTimeout(r, 20))
      }
    })()
    const others = await load(url.hostname, url.port, clients - 1, 1000, Math.min(seconds, 6) * 1000, bodiesFile)
    stop = true
    const [{ times: ballTimes, statuses: ballStatuses }] = await Promise.all([ballRun, stalledPlayer, balls])
    report('stalled printer, the other clients', others)
    log(
      `stalled kiosk: answers ${JSON.stringify(stalledAnswers)} (each waits for its printer's ${printerTimeoutMs} ms timeout); ${ballTimes.length} balls drawn meanwhile, p50 ${ballTimes.length ? [...ballTimes].sort((a, b) => a - b)[Math.floor(ballTimes.length / 2)].toFixed(1) : '-'} ms, p99 ${ballTimes.length ? p99(ballTimes).toFixed(1) : '-'} ms, max ${ballTimes.length ? Math.max(...ballTimes).toFixed(1) : '-'} ms (draws answered ${JSON.stringify(ballStatuses)})`,
    )
    emit({ name: 'sales.paid.stalled_printer.p99', value: Number((others.p99 ?? 0).toFixed(1)), unit: 'ms' })
    if (ballTimes.length)
      emit({ name: 'draw.ball.stalled_printer.p99', value: Number(p99(ballTimes).toFixed(1)), unit: 'ms' })
    else log('no ball could be drawn (beacon round not due?): draw.ball.stalled_printer.p99 not measured')
  } finally {
    await server.close()
    await stalled.close()
    if (process.env.BENCH_PAID_KEEP) log(`data kept in ${dataDir}`)
    else rmSync(dataDir, { recursive: true, force: true })
  }
}
