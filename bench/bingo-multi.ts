/**
 * Simultaneous bingo and durable sales (issue #8).
 *
 * - bingo.simultaneous.detect.per_ball.p99 / .mean: one simultaneous game of 1,000,000 cards sold by 50 halls, each
 *   hall holding its own disjoint range of one master set (uneven sizes). The detector of domain/detector.ts runs
 *   over the union of the halls' cards; each ball's time covers call() plus attributing every winner of that ball
 *   to its hall (a per-card hall table, per-hall counts and the first winner of each hall). All 90 balls of GAMES
 *   seeded games, the line closed right after the first line ball; a ball's time is its minimum over REPEATS plays
 *   (the work is identical; this filters interference on a shared machine), as in bench/bingo.ts. Target: <= 2 ms.
 *   .to_first_bingo.per_ball.p99: the same over the balls up to the first bingo, where a real game ends (BNG-49).
 * - bingo.sell.sqlite / bingo.sell.postgres: durable card sales per second through the bingo service, one card per
 *   sale transaction (journal record included), SQLite with synchronous=FULL, PostgreSQL with its default fsync, 4
 *   concurrent sellers. The PostgreSQL figure is skipped with a note when no server answers at the default
 *   postgres://bolillo:bolillo@127.0.0.1:5432/postgres; when BOLILLO_BENCH_DATABASE_URL names one, it must answer.
 *
 * BENCH_MULTI_CARDS overrides the card count, BENCH_MULTI_SALES the number of sales per engine, BENCH_MULTI_REPEATS the
 * plays of each game (3).
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../test/helpers/sale-rules.ts'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { withBenchDatabase } from './postgres.ts'
import { createBingoService } from '../server/src/bingo/service.ts'
import { createBonusService } from '../server/src/bingo/bonus-service.ts'
import type { Database } from '../server/src/db/database.ts'
import { migrate } from '../server/src/db/migrate.ts'
import { openPostgres } from '../server/src/db/postgres.ts'
import { openSqlite } from '../server/src/db/sqlite-runtime.ts'
import { LAYOUT_90, generateMasterSetPacked } from '../server/src/bingo/card.ts'
import { createDetectorFromPacked, type WinnerDetector } from '../server/src/bingo/detector.ts'
import { createSeededRng } from '../server/src/shared/rng.ts'
import { ballOrder, mean, p99 } from './stats.ts'
import { createSealer, sealingKeyFromBytes } from '../server/src/shared/sealing.ts'

interface BenchResult {
  name: string
  value: number
  unit: string
}

const GAMES = 5
const REPEATS = Number(process.env.BENCH_MULTI_REPEATS ?? 3)
const HALLS = 50

function log(message: string): void {
  process.stderr.write(`[bench bingo-multi] ${message}\n`)
}
const round = (x: number) => Math.round(x * 1000) / 1000

/** 50 disjoint ranges of uneven size covering 0..cardCount-1: the card index -> hall table. */
function hallRanges(cardCount: number): Uint8Array {
  const rng = createSeededRng('bench-halls')
  const weights = Array.from({ length: HALLS }, () => 1 + rng.nextInt(4))
  const total = weights.reduce((a, b) => a + b, 0)
  const hallOf = new Uint8Array(cardCount)
  let start = 0
  weights.forEach((w, h) => {
    const end = h === HALLS - 1 ? cardCount : start + Math.floor((cardCount * w) / total)
    hallOf.fill(h, start, end)
    start = end
  })
  return hallOf
}

/** One game; per ball: detection plus per-hall attribution of its winners. */
function playGame(
  det: WinnerDetector,
  order: number[],
  hallOf: Uint8Array,
): { times: number[]; firstBingo: number; digest: string } {
  const perHall = new Int32Array(HALLS)
  const firstOfHall = new Int32Array(HALLS)
  const times: number[] = []
  const digest: string[] = []
  let firstBingo = 0
  for (const ball of order) {
    const t0 = performance.now()
    const r = det.callView(ball)
    perHall.fill(0)
    firstOfHall.fill(-1)
    const { lines, bingos } = r
    for (let i = 0; i < lines.length; i++) {
      const h = hallOf[lines[i]]
      if (perHall[h]++ === 0) firstOfHall[h] = lines[i]
    }
    for (let i = 0; i < bingos.length; i++) {
      const h = hallOf[bingos[i]]
      if (perHall[h]++ === 0) firstOfHall[h] = bingos[i]
    }
    times.push(performance.now() - t0)
    let halls = 0
    for (let h = 0; h < HALLS; h++) if (perHall[h] > 0) halls++
    digest.push(`${lines.length}:${bingos.length}:${halls}`)
    if (lines.length > 0) det.closeLine()
    if (bingos.length > 0 && firstBingo === 0) firstBingo = times.length
  }
  return { times, firstBingo, digest: digest.join(',') }
}

async function benchDetect(emit: (r: BenchResult) => void): Promise<void> {
  const layout = LAYOUT_90
  const cardCount = Number(process.env.BENCH_MULTI_CARDS ?? 1_000_000)
  let t0 = performance.now()
  const packed = generateMasterSetPacked('bench-simultaneous', cardCount, layout)
  log(
    `${cardCount} cards of one master set in ${((performance.now() - t0) / 1000).toFixed(1)} s, sold by ${HALLS} halls in disjoint ranges`,
  )
  const hallOf = hallRanges(cardCount)
  const build = () => createDetectorFromPacked(packed, cardCount, layout.rows, layout.perRow, layout.ballCount)
  const small = Math.min(cardCount, 20_000)
  playGame(
    createDetectorFromPacked(packed.subarray(0, small * 15), small, layout.rows, layout.perRow, layout.ballCount),
    ballOrder('warm', 90),
    hallOf,
  )
  const all: number[] = []
  const toFirst: number[] = []
  for (let g = 0; g < GAMES; g++) {
    const order = ballOrder(`bench-multi-${g}`, layout.ballCount)
    let best: ReturnType<typeof playGame> | undefined
    let buildMs = Infinity
    for (let rep = 0; rep < REPEATS; rep++) {
      t0 = performance.now()
      const det = build()
      buildMs = Math.min(buildMs, performance.now() - t0)
      const r = playGame(det, order, hallOf)
      if (best && best.digest !== r.digest) throw new Error('plays of one game disagree')
      best = best ? { ...best, times: best.times.map((t, i) => Math.min(t, r.times[i])) } : r
    }
    all.push(...best!.times)
    toFirst.push(...best!.times.slice(0, best!.firstBingo))
    log(
      `game ${g}: detector built in ${buildMs.toFixed(0)} ms; first bingo at ball ${best!.firstBingo}; max per ball ${Math.max(...best!.times).toFixed(3)} ms`,
    )
  }
  emit({ name: 'bingo.simultaneous.detect.per_ball.p99', value: round(p99(all)), unit: 'ms' })
  emit({ name: 'bingo.simultaneous.detect.per_ball.mean', value: round(mean(all)), unit: 'ms' })
  emit({ name: 'bingo.simultaneous.detect.to_first_bingo.per_ball.p99', value: round(p99(toFirst)), unit: 'ms' })
}

/** Sales of one card each, `sellers` at a time, through the bingo service on `db`; returns cards per second. */
async function salesPerSecond(db: Database, sales: number, sellers = 4): Promise<number> {
  await migrate(db)
  const clock = { now: () => new Date() }
  const entropy = { name: 'bench', randomBytes: (n: number) => randomBytes(n) }
  const bonus = createBonusService({ db, clock, entropy, sealer: createSealer(sealingKeyFromBytes(randomBytes(32))) })
  const bingo = createBingoService({ db, clock, entropy, hooks: [bonus.hooks] })
  const hall = await bingo.createHall({
    name: 'Sala Bench',
    profileId: 'BO-2025',
    saleRules: TEST_SALE_RULES,
    licence: TEST_LICENCE,
    playingPositions: 1000,
    shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
  })
  const set = await bingo.createMasterSet({ count: sales + 10, seed: 'bench-sell' })
  const series = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
  const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'bench' } })
  const game = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
  await bingo.openSales(game.gameId)
  for (let i = 0; i < 20; i++) await bingo.sell({ gameId: game.gameId, count: 1, channel: 'warmup' })
  let left = sales - 20
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: sellers }, async () => {
      while (left > 0) {
        left--
        await bingo.sell({ gameId: game.gameId, count: 1, channel: 'kiosk' })
      }
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  const sold = Number(
    (
      await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM cards WHERE game_id = ? AND channel = 'kiosk'", [
        game.gameId,
      ])
    )?.n ?? 0,
  )
  return sold / seconds
}

/** bingo.sell.sqlite alone; bench/bun.ts also runs it under Bun. */
export async function sellSqlite(emit: (r: BenchResult) => void): Promise<void> {
  const sales = Number(process.env.BENCH_MULTI_SALES ?? 2000)
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-bench-'))
  try {
    const db = await openSqlite(join(dir, 'bench.sqlite'), { synchronous: 'FULL' })
    try {
      const rate = await salesPerSecond(db, sales)
      emit({ name: 'bingo.sell.sqlite', value: Math.round(rate), unit: 'cards/s' })
      log(`sqlite (WAL, synchronous=FULL): ${rate.toFixed(0)} durable one-card sales per second`)
    } finally {
      await db.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function benchSell(emit: (r: BenchResult) => void): Promise<void> {
  await sellSqlite(emit)
  const sales = Number(process.env.BENCH_MULTI_SALES ?? 2000)
  await withBenchDatabase('bingo.sell.postgres', async (url) => {
    const db = openPostgres(url)
    try {
      const rate = await salesPerSecond(db, sales)
      emit({ name: 'bingo.sell.postgres', value: Math.round(rate), unit: 'cards/s' })
      log(`postgres: ${rate.toFixed(0)} durable one-card sales per second`)
    } finally {
      await db.close()
    }
  })
}

export async function benchBingoMulti(emit: (r: BenchResult) => void): Promise<void> {
  await benchDetect(emit)
  await benchSell(emit)
}
