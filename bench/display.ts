/**
 * Hall display fan-out: how long after the server calls a ball does every screen have it (BNG-37: the numbers
 * drawn appear simultaneously on every screen in the hall).
 *
 * Starts the real server (HTTP + socket.io, SQLite with the production `synchronous = FULL`), connects
 * BENCH_DISPLAY_CLIENTS (default 1,000) real socket.io clients over websockets, all watching one game
 * ('game:watch'), spread over BENCH_DISPLAY_PROCESSES (default 2) child processes so that the clients share neither
 * the server's event loop nor its process. Every clock reads `process.hrtime.bigint()`, which on Linux is
 * CLOCK_MONOTONIC, one clock for every process of the machine; before the clients connect, each child is asked the
 * time over IPC and its answer must lie between the parent's send and receipt (else the bench stops: the two clocks
 * are not one). A client stops its clock when it receives 'ball:drawn'.
 *
 * - display.fanout.p50 / .p99 / .max: ms from the server-side publish of the ball (the moment its transaction
 *   commits; the hub writes the ball to the sockets right after) to receipt, over every (client, ball) pair.
 * - display.call_to_screen.p50 / .p99: the same, from just before the in-process `drawNext` call, so including
 *   the transaction, the journal append and the fsync.
 * Progress on stderr also gives the hub's own write time for one ball to every socket.
 *
 * BENCH_DISPLAY_BALLS (default 40) balls are measured after 3 warm-up balls, one every BENCH_DISPLAY_GAP_MS
 * (default 250 ms), so each ball meets an idle server as in a hall (a blower calls every few seconds). The clients
 * run on the same machine as the server, so on a small or busy machine they compete with it for the CPU.
 */
import { sealed } from '../test/helpers/device-marks.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../test/helpers/sale-rules.ts'
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import type { Database } from '../server/src/db/database.ts'
import { openDatabase } from '../server/src/services.ts'
import { startTestServer, testConfig } from '../test/helpers/server.ts'

export interface BenchResult {
  name: string
  value: number
  unit: string
}

const WARMUP_BALLS = 3

/**
 * Runs in each child process (node -e, with an IPC channel): N socket.io clients that watch the game (or the hall)
 * and time-stamp every ball; with an authorization, each connects as that enrolled device. It answers 'clock' at
 * once with its monotonic time, so the parent can check that both read one clock.
 */
const CLIENT_PROCESS = `
const parentPort = { postMessage: (m, done) => process.send(m, done), on: (t, f) => process.on(t, f) }
const workerData = JSON.parse(process.env.BENCH_CLIENT_DATA)
const { io } = require(workerData.clientPath)
const { url, watch, target, count, authorization } = workerData
parentPort.on('message', (m) => {
  if (m.type === 'clock') parentPort.postMessage({ type: 'clock', at: String(process.hrtime.bigint()) })
})
const sockets = []
const received = [] // flat pairs: ball count, receipt time (ns, monotonic)
let watching = 0
let failed = 0
let started = false
parentPort.on('message', (m) => { if (m.type === 'start' && !started) { started = true; connect() } })
function connect() {
for (let i = 0; i < count; i++) {
  const s = io(url, { transports: ['websocket'], forceNew: true, reconnection: false, timeout: 60000, ...(authorization ? { auth: { authorization } } : {}) })
  s.on('ball:drawn', (e) => { received.push(e.count, Number(process.hrtime.bigint())) })
  s.once('connect', () => {
    s.timeout(60000).emit(watch + ':watch', watch === 'hall' ? { hallId: target } : { gameId: target }, (err, r) => {
      if (err || !r || !r.ok) failed++
      else watching++
      if (watching + failed === count) parentPort.postMessage({ type: 'ready', watching, failed })
    })
  })
  s.once('connect_error', (err) => {
    failed++
    if (watching + failed === count) parentPort.postMessage({ type: 'ready', watching, failed, error: String(err && err.message) })
  })
  sockets.push(s)
}
}
parentPort.on('message', (m) => {
  if (m.type === 'report') parentPort.postMessage({ type: 'report', received })
  if (m.type === 'close') {
    for (const s of sockets) s.close()
    parentPort.postMessage({ type: 'closed' }, () => process.exit(0))
  }
})
`

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]
}

function nextMessage<T>(child: ChildProcess, type: string, timeoutMs = 120_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', on)
      reject(new Error(`client process: no ${type} in ${timeoutMs} ms`))
    }, timeoutMs)
    const on = (m: { type: string }) => {
      if (m.type !== type) return
      clearTimeout(timer)
      child.off('message', on)
      resolve(m as T)
    }
    child.on('message', on)
  })
}

/**
 * The receipts of a child are compared with the parent's clock: that holds only if both read one monotonic clock
 * (CLOCK_MONOTONIC is system-wide on Linux). Asked a few times; every answer must fall between the parent's send
 * and receipt. Returns the widest round trip seen (ms), the bound on any disagreement.
 */
async function assertSharedClock(child: ChildProcess): Promise<number> {
  // The first answer waits for the child to start; the checks that bound the clocks come after it.
  const first = nextMessage(child, 'clock', 60_000)
  child.send({ type: 'clock' })
  await first
  let widest = 0
  for (let i = 0; i < 5; i++) {
    const sent = process.hrtime.bigint()
    const answer = nextMessage<{ at: string }>(child, 'clock', 30_000)
    child.send({ type: 'clock' })
    const at = BigInt((await answer).at)
    const back = process.hrtime.bigint()
    if (at < sent || at > back)
      throw new Error(
        `the client process's monotonic clock is not the server's (${at} outside ${sent}..${back}): no honest timing`,
      )
    widest = Math.max(widest, Number(back - sent) / 1e6)
  }
  return widest
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const round = (ms: number) => Number(ms.toFixed(3))

/** What a fan-out measurement connects: hall screens (anonymous, one game) or terminals (authenticated, the hall). */
export interface FanoutSetup {
  /** The log's prefix, e.g. "display". */
  label: string
  /** Sizes from `${envPrefix}_CLIENTS`, `_BALLS`, `_GAP_MS`, `_PROCESSES` (`_THREADS`, its older name). */
  envPrefix: string
  defaults: { clients: number; balls: number }
  /** What each client watches: 'game' ('game:watch', a hall display) or 'hall' ('hall:watch', a terminal). */
  watch: 'game' | 'hall'
  /** Authentication on and every client connected as one enrolled device of this kind; null: anonymous. */
  device: 'terminal' | null
  goal: string
}

export interface FanoutFigures {
  clients: number
  /** ms, sorted: publish -> receipt, and draw call -> receipt, over every (client, ball) pair. */
  fanout: number[]
  callToScreen: number[]
}

export function fanoutPercentile(sorted: number[], p: number): number {
  return percentile(sorted, p)
}

export async function benchDisplay(emit: (r: BenchResult) => void): Promise<void> {
  const { fanout, callToScreen, clients } = await measureBallFanout({
    label: 'display',
    envPrefix: 'BENCH_DISPLAY',
    defaults: { clients: 1000, balls: 40 },
    watch: 'game',
    device: null,
    goal: 'target p99 <= 50 ms',
  })
  emit({ name: 'display.fanout.p50', value: round(percentile(fanout, 0.5)), unit: 'ms' })
  emit({ name: 'display.fanout.p99', value: round(percentile(fanout, 0.99)), unit: 'ms' })
  emit({ name: 'display.fanout.max', value: round(fanout[fanout.length - 1]), unit: 'ms' })
  emit({ name: 'display.call_to_screen.p50', value: round(percentile(callToScreen, 0.5)), unit: 'ms' })
  emit({ name: 'display.call_to_screen.p99', value: round(percentile(callToScreen, 0.99)), unit: 'ms' })
  emit({ name: 'display.fanout.clients', value: clients, unit: 'clients' })
}

/** Starts the server, connects the clients, draws the balls and answers every receipt's delays. */
export async function measureBallFanout(setup: FanoutSetup): Promise<FanoutFigures> {
  const env = (name: string, fallback: number) => Number(process.env[`${setup.envPrefix}_${name}`] ?? fallback)
  const clientCount = env('CLIENTS', setup.defaults.clients)
  const ballCount = env('BALLS', setup.defaults.balls)
  const gapMs = env('GAP_MS', 250)
  const processes = Math.max(1, env('PROCESSES', env('THREADS', 2)))
  const log = (message: string) => process.stderr.write(`[bench ${setup.label}] ${message}\n`)

  // The storage is wrapped only to take a server-side timestamp the moment a transaction commits: the ball is
  // published to the screens right after its commit, so that is when the fan-out starts.
  // Every client comes from this host's one address: the bench measures the fan-out, not the socket limits
  // (issue 24 point 5), which would turn away the 121st connection of the minute.
  const config = testConfig({
    sqliteSynchronous: 'FULL',
    ...(setup.device ? { auth: 'on' as const } : {}),
    logLevel: 'error',
    socketLimits: { connectionsPerMinute: 1_000_000, address: { capacity: 1_000_000, perSecond: 1_000_000 } },
  })
  const real = await openDatabase(config)
  let committedAt = 0
  const db: Database = Object.assign(Object.create(real) as Database, {
    transaction: <T>(fn: Parameters<Database['transaction']>[0], options?: Parameters<Database['transaction']>[1]) =>
      real.transaction(fn, options).then((r) => {
        committedAt = Number(process.hrtime.bigint())
        return r as T
      }),
  })
  const server = await startTestServer({ ...config }, { db })
  const workers: ChildProcess[] = []
  try {
    const { bingo } = server.services
    // BNG-52: a Bolivian hall plays only under the prize shares of its Plan de Apuestas.
    const hall = await bingo.createHall({
      name: 'Sala Bench',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 1000,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 200, seed: `bench-${setup.label}` })
    const series = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 1000 })
    const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'bench' } })
    const { gameId } = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await bingo.openSales(gameId)
    // Few cards: the line and bingo windows come late, and the bench measures the fan-out, not the detector.
    await bingo.sell({ gameId, count: 10, channel: 'bench' })
    await bingo.closeSales({ gameId })
    // One enrolled device's credential for every client: the fan-out to authenticated screens.
    const authorization = setup.device
      ? `Device ${(await server.services.auth.enrolDevice({ ...sealed(), kind: setup.device, name: `${setup.label} bench`, hallId: hall.id })).credential}`
      : undefined
    const target = setup.watch === 'hall' ? hall.id : gameId

    const clientPath = createRequire(import.meta.url).resolve('socket.io-client')
    const t0 = performance.now()
    const per = Math.ceil(clientCount / processes)
    for (let i = 0; i < processes; i++) {
      const count = Math.min(per, clientCount - i * per)
      if (count <= 0) break
      const data = { clientPath, url: server.url, watch: setup.watch, target, count, authorization }
      workers.push(
        spawn(process.execPath, ['-e', CLIENT_PROCESS], {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          env: { ...process.env, BENCH_CLIENT_DATA: JSON.stringify(data) },
        }),
      )
    }
    const roundTrips = await Promise.all(workers.map((w) => assertSharedClock(w)))
    log(
      `one monotonic clock in ${workers.length} client processes (pid ${workers.map((w) => w.pid).join(', ')}): IPC round trip <= ${Math.max(...roundTrips).toFixed(2)} ms`,
    )
    const ready = await Promise.all(
      workers.map((w) => {
        const r = nextMessage<{ watching: number; failed: number; error?: string }>(w, 'ready')
        w.send({ type: 'start' })
        return r
      }),
    )
    const watching = ready.reduce((s, r) => s + r.watching, 0)
    const failed = ready.reduce((s, r) => s + r.failed, 0)
    log(
      `${watching} clients watching ${setup.watch} ${target} in ${workers.length} processes in ${((performance.now() - t0) / 1000).toFixed(1)} s${
        failed
          ? `, ${failed} failed (${ready
              .map((r) => r.error)
              .filter(Boolean)
              .join('; ')})`
          : ''
      }`,
    )
    if (watching !== clientCount) throw new Error(`only ${watching} of ${clientCount} clients are watching`)

    // Ball number (count) -> when the draw was called and when it was committed and published, ns on the
    // monotonic clock every process shares (checked above).
    const calledAt = new Map<number, number>()
    const publishedAt = new Map<number, number>()
    const emitDoneAt = new Map<number, number>()
    // Listeners run in registration order: this one runs right after the hub's has written the ball to every socket.
    server.services.onEvent((e) => {
      if (e.type === 'game:changed' && e.reason === 'ball' && e.count)
        emitDoneAt.set(e.count, Number(process.hrtime.bigint()))
    })
    let drawn = 0
    while (drawn < WARMUP_BALLS + ballCount) {
      await sleep(gapMs)
      const state = await bingo.getGameState(gameId)
      if (state.status === 'finished' || state.balls.length >= state.ballCount) break
      if (state.window) {
        await bingo.closeWindow(gameId)
        continue
      }
      const at = Number(process.hrtime.bigint())
      const { state: after } = await bingo.drawNext(gameId)
      drawn++
      if (drawn > WARMUP_BALLS) {
        calledAt.set(after.balls.length, at)
        publishedAt.set(after.balls.length, committedAt)
      }
    }
    await sleep(Math.max(gapMs, 500))

    const reports = await Promise.all(
      workers.map((w) => {
        const p = nextMessage<{ received: number[] }>(w, 'report')
        w.send({ type: 'report' })
        return p
      }),
    )
    const fanout: number[] = []
    const callToScreen: number[] = []
    for (const { received } of reports) {
      for (let i = 0; i < received.length; i += 2) {
        const called = calledAt.get(received[i])
        if (called === undefined) continue
        callToScreen.push((received[i + 1] - called) / 1e6)
        fanout.push((received[i + 1] - publishedAt.get(received[i])!) / 1e6)
      }
    }
    const expected = calledAt.size * clientCount
    if (fanout.length !== expected)
      throw new Error(
        `${fanout.length} receipts, expected ${expected} (${calledAt.size} balls x ${clientCount} clients)`,
      )
    fanout.sort((a, b) => a - b)
    callToScreen.sort((a, b) => a - b)
    const commit = [...calledAt].map(([c, t]) => (publishedAt.get(c)! - t) / 1e6).sort((a, b) => a - b)
    const p50 = percentile(fanout, 0.5)
    const p99 = percentile(fanout, 0.99)
    const max = fanout[fanout.length - 1]
    log(`${calledAt.size} balls x ${clientCount} clients = ${fanout.length} receipts`)
    log(
      `fan-out, publish -> client: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${max.toFixed(2)} ms (${setup.goal})`,
    )
    const emitMs = [...publishedAt].map(([c, t]) => ((emitDoneAt.get(c) ?? t) - t) / 1e6).sort((a, b) => a - b)
    log(
      `hub write of the ball to every socket: p50 ${percentile(emitMs, 0.5).toFixed(2)} ms, max ${emitMs[emitMs.length - 1].toFixed(2)} ms`,
    )
    log(
      `draw call -> commit (transaction, journal, fsync): p50 ${percentile(commit, 0.5).toFixed(2)} ms, max ${commit[commit.length - 1].toFixed(2)} ms`,
    )
    log(
      `draw call -> client: p50 ${percentile(callToScreen, 0.5).toFixed(2)} ms, p99 ${percentile(callToScreen, 0.99).toFixed(2)} ms`,
    )
    return { clients: clientCount, fanout, callToScreen }
  } finally {
    await Promise.all(
      workers.map(async (w) => {
        if (w.exitCode !== null || w.signalCode !== null) return
        const exited = new Promise<void>((r) => w.once('exit', () => r()))
        const closed = nextMessage(w, 'closed', 10_000).catch(() => undefined)
        if (w.connected) w.send({ type: 'close' })
        await closed
        const timer = setTimeout(() => w.kill('SIGKILL'), 5_000)
        await exited
        clearTimeout(timer)
      }),
    )
    await server.cleanup()
  }
}
