/**
 * Bingo benchmarks: card generation and winner detection at hall-of-halls scale (1,000,000 sold cards).
 *
 * - bingo.cards.generate: unique valid 90-ball cards per second (generateMasterSetPacked, duplicate check included).
 * - bingo.cards.generate.objects: the same, as Card objects (generateMasterSet), for reference.
 * - bingo.detect.per_ball.p99 / .mean: incremental detector, time of one call(ball), ms.
 * - bingo.detect.rescan.per_ball.p99 / .mean: rescan detector on the same cards and ball orders, ms.
 * - bingo.detect.speedup_vs_rescan: rescan p99 / incremental p99 (.mean: rescan mean / incremental mean).
 * - bingo.detect.to_first_bingo.*: the same figures over the balls up to the first bingo only, where a real game
 *   ends (BNG-49); the last balls of a 90-ball run each complete 100,000+ cards, and returning those indices as a
 *   JS array costs more than finding them.
 *
 * Each game calls all 90 balls in a seeded random order; each game is played REPEATS times on fresh detectors and
 * a ball's time is the minimum over those plays (the work is identical, so this filters interference from other
 * processes and GC pauses on a shared machine); p99 is over GAMES x 90 balls; the line is closed right after the first ball that makes
 * a line (the line prize is awarded, BNG-44), as in a real game, for both detectors alike. Both detectors run on the
 * same packed cards and must report the same winners at every ball. BENCH_BINGO_CARDS overrides the card count;
 * BENCH_DEBUG=1 logs every per-ball time of the incremental detector to stderr.
 */
import { performance } from 'node:perf_hooks'
import {
  LAYOUT_90,
  cardFromPacked,
  generateMasterSet,
  generateMasterSetPacked,
  validateCard,
} from '../server/src/bingo/card.ts'
import {
  createDetectorFromPacked,
  createRescanDetectorFromPacked,
  type BallResult,
  type BallView,
  type WinnerDetector,
} from '../server/src/bingo/detector.ts'
import { ballOrder, mean, p99 } from './stats.ts'

export interface BenchResult {
  name: string
  value: number
  unit: string
}

/** Seeded games (ball orders) measured, and plays of each: a ball's time is its minimum over the plays. */
const GAMES = 5
const REPEATS = 3

/**
 * Plays one game; returns per-ball call() times (ms), how many balls it took to the first bingo, and a digest of
 * the results for cross-checking.
 */
function playGame(
  detector: WinnerDetector,
  order: number[],
  views = false,
): { times: number[]; firstBingo: number; digest: string } {
  const times: number[] = []
  const digest: string[] = []
  let firstBingo = 0
  for (const ball of order) {
    const t0 = performance.now()
    // The incremental detector answers with views onto its buffers (what the server uses); the rescan builds arrays.
    const result: BallResult | BallView = views ? detector.callView(ball) : detector.call(ball)
    times.push(performance.now() - t0)
    let sum = 0
    for (const c of result.bingos) sum = (sum * 31 + c) % 1_000_000_007
    digest.push(`${result.lines.length}:${result.bingos.length}:${sum}`)
    if (result.lines.length > 0) detector.closeLine()
    if (result.bingos.length > 0 && firstBingo === 0) firstBingo = times.length
  }
  return { times, firstBingo, digest: digest.join(',') }
}

function log(message: string): void {
  process.stderr.write(`[bench bingo] ${message}\n`)
}

export async function benchBingo(emit: (r: BenchResult) => void): Promise<void> {
  const layout = LAYOUT_90
  const cardCount = Number(process.env.BENCH_BINGO_CARDS ?? 1_000_000)
  const L = layout.rows * layout.perRow

  // Generation. Warm up the JIT on a small set first.
  generateMasterSetPacked('bench-warmup', Math.min(cardCount, 50_000), layout)
  let t0 = performance.now()
  const packed = generateMasterSetPacked('bench-bingo-1', cardCount, layout)
  let seconds = (performance.now() - t0) / 1000
  emit({ name: 'bingo.cards.generate', value: Math.round(cardCount / seconds), unit: 'cards/s' })
  log(`${cardCount} unique packed cards in ${seconds.toFixed(2)} s`)
  for (let i = 0; i < cardCount; i += Math.max(1, Math.floor(cardCount / 20_000))) {
    const problems = validateCard(cardFromPacked(packed, i, layout), layout)
    if (problems.length > 0) throw new Error(`generated card ${i} is invalid: ${problems.join('; ')}`)
  }

  const objectCount = Math.min(cardCount, 200_000)
  generateMasterSet('bench-warmup', Math.min(objectCount, 20_000), layout)
  t0 = performance.now()
  generateMasterSet('bench-bingo-2', objectCount, layout)
  seconds = (performance.now() - t0) / 1000
  emit({ name: 'bingo.cards.generate.objects', value: Math.round(objectCount / seconds), unit: 'cards/s' })

  // Detection. Warm-up game on a small subset for each detector.
  const small = Math.min(cardCount, 20_000)
  const warmOrder = ballOrder('bench-warmup', layout.ballCount)
  playGame(
    createDetectorFromPacked(packed.subarray(0, small * L), small, layout.rows, layout.perRow, layout.ballCount),
    warmOrder,
    true,
  )
  playGame(
    createRescanDetectorFromPacked(packed.subarray(0, small * L), small, layout.rows, layout.perRow, layout.ballCount),
    warmOrder,
  )

  const incremental: number[] = []
  const rescan: number[] = []
  // Balls up to and including the first bingo: a real game ends there (BNG-49).
  const incrementalGame: number[] = []
  const rescanGame: number[] = []
  for (let g = 0; g < GAMES; g++) {
    const order = ballOrder(`bench-game-${g}`, layout.ballCount)
    let a: ReturnType<typeof playGame> | undefined
    let b: ReturnType<typeof playGame> | undefined
    let buildMs = Infinity
    for (let rep = 0; rep < REPEATS; rep++) {
      t0 = performance.now()
      const det = createDetectorFromPacked(packed, cardCount, layout.rows, layout.perRow, layout.ballCount)
      buildMs = Math.min(buildMs, performance.now() - t0)
      const ra = playGame(det, order, true)
      const rb = playGame(
        createRescanDetectorFromPacked(packed, cardCount, layout.rows, layout.perRow, layout.ballCount),
        order,
      )
      if (ra.digest !== rb.digest) throw new Error(`game ${g}: incremental and rescan detectors disagree`)
      a = a ? { ...a, times: a.times.map((t, i) => Math.min(t, ra.times[i])) } : ra
      b = b ? { ...b, times: b.times.map((t, i) => Math.min(t, rb.times[i])) } : rb
    }
    if (!a || !b) throw new Error('no repetition ran')
    if (process.env.BENCH_DEBUG) log(a.times.map((t, i) => `${i + 1}:${t.toFixed(2)}`).join(' '))
    incremental.push(...a.times)
    rescan.push(...b.times)
    incrementalGame.push(...a.times.slice(0, a.firstBingo))
    rescanGame.push(...b.times.slice(0, a.firstBingo))
    log(
      `game ${g}: index built in ${buildMs.toFixed(0)} ms; first bingo at ball ${a.firstBingo}; per ball incremental max ${Math.max(...a.times).toFixed(3)} ms, rescan max ${Math.max(...b.times).toFixed(3)} ms`,
    )
  }
  const incP99 = p99(incremental)
  const resP99 = p99(rescan)
  emit({ name: 'bingo.detect.per_ball.p99', value: round(incP99), unit: 'ms' })
  emit({ name: 'bingo.detect.per_ball.mean', value: round(mean(incremental)), unit: 'ms' })
  emit({ name: 'bingo.detect.rescan.per_ball.p99', value: round(resP99), unit: 'ms' })
  emit({ name: 'bingo.detect.rescan.per_ball.mean', value: round(mean(rescan)), unit: 'ms' })
  emit({ name: 'bingo.detect.speedup_vs_rescan', value: round(resP99 / incP99), unit: 'x (p99/p99)' })
  emit({
    name: 'bingo.detect.speedup_vs_rescan.mean',
    value: round(mean(rescan) / mean(incremental)),
    unit: 'x (mean/mean)',
  })
  const incGameP99 = p99(incrementalGame)
  const resGameP99 = p99(rescanGame)
  emit({ name: 'bingo.detect.to_first_bingo.per_ball.p99', value: round(incGameP99), unit: 'ms' })
  emit({ name: 'bingo.detect.rescan.to_first_bingo.per_ball.p99', value: round(resGameP99), unit: 'ms' })
  emit({
    name: 'bingo.detect.to_first_bingo.speedup_vs_rescan',
    value: round(resGameP99 / incGameP99),
    unit: 'x (p99/p99)',
  })
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000
}
