/**
 * `npx bolillo rng-report`: draws N games through the real bolillo-draw-v1 engine (fresh 32-byte seeds from the
 * configured entropy source, random game ids and sold serials), then reports how often each ball comes out first
 * and at each position, with chi-square statistics and p-values, and can write the engine's HMAC stream as raw
 * binary for dieharder:
 *
 *     npx bolillo rng-report --games 100000 --out draws.bin --words-per-game 2048
 *     dieharder -a -g 201 -f draws.bin
 *
 * The file holds, game after game, the first `--words-per-game` uint32 values of each game's stream (the values the
 * shuffle consumes come first: 89 or, on a rare rejection, a few more for 90 balls), each written little-endian
 * so that dieharder's raw file reader (`-g 201`, host byte order on x86) sees the very uint32 values the engine read.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, openSync, writeSync } from 'node:fs'
import { DrawStream, drawKey, salesDigest, shuffleOrder } from '../shared/draw-proof.ts'
import { chiSquarePValue, chiSquareTest, ksUniform } from '../shared/statistics.ts'

export interface RngReportOptions {
  games: number
  ballCount?: number
  /** Seed source (the configured one); `name` goes into the report. */
  entropy: { name: string; randomBytes(n: number): Uint8Array }
  /** Raw output file for dieharder, or null. */
  out?: string | null
  /** uint32 values of each game's stream written to `out` (default 96: 12 HMAC blocks). */
  wordsPerGame?: number
  onProgress?: (done: number) => void
}

export interface RngReport {
  version: 'bolillo-rng-report-v1'
  games: number
  ballCount: number
  entropySource: string
  seconds: number
  /** Chi-square of the first ball: each ball should come first in games / ballCount games. */
  firstBall: {
    statistic: number
    df: number
    pValue: number
    counts: number[]
    min: { ball: number; count: number }
    max: { ball: number; count: number }
  }
  /** One chi-square per extraction position (1..ballCount), each with ballCount - 1 degrees of freedom. */
  positions: Array<{ position: number; statistic: number; pValue: number }>
  /** Summary over the positions. */
  positionSummary: {
    minPValue: number
    maxPValue: number
    below001: number
    below005: number
    /** The per-position p-values should be uniform on [0, 1]. */
    ksUniform: { statistic: number; pValue: number }
    /**
     * The whole position x ball table. Each game adds a permutation matrix (every row and every column sums to 1),
     * so the sum of the per-position statistics is asymptotically N/(N-1) times a chi-square with (N-1)^2 degrees of
     * freedom; `statistic` is that sum times (N-1)/N.
     */
    table: { statistic: number; df: number; pValue: number; rawSum: number }
  }
  raw: { file: string; bytes: number; wordsPerGame: number; dieharder: string } | null
}

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'

function randomId(prefix: string, bytes: Buffer, offset: number, len: number): string {
  let s = prefix
  for (let i = 0; i < len; i++) s += ALPHABET[bytes[offset + i] % ALPHABET.length]
  return s
}

/** Random sold serials in the server's format: series code, dash, zero-padded card number; 10 to 60 of them. */
function randomSerials(): string[] {
  const r = randomBytes(8)
  const count = 10 + (r[0] % 51)
  const code = String.fromCharCode(65 + (r[1] % 26))
  const start = 1 + (r.readUInt32BE(2) % 5000)
  return Array.from({ length: count }, (_, i) => `${code}-${String(start + i).padStart(5, '0')}`)
}

export function runRngReport(options: RngReportOptions): RngReport {
  const n = options.ballCount ?? 90
  const games = options.games
  if (!Number.isInteger(games) || games < 1) throw new RangeError('--games must be a positive integer')
  const wordsPerGame = options.wordsPerGame ?? 96
  if (!Number.isInteger(wordsPerGame) || wordsPerGame < 1 || wordsPerGame > 1 << 24)
    throw new RangeError('--words-per-game must be 1..16777216')
  const counts = new Float64Array(n * n) // counts[position * n + (ball - 1)]
  const started = performance.now()
  let fd: number | null = options.out ? openSync(options.out, 'w') : null
  const chunk = Buffer.alloc(4 << 20)
  let used = 0
  let written = 0
  const flush = () => {
    if (fd !== null && used > 0) writeSync(fd, chunk, 0, used)
    written += used
    used = 0
  }
  try {
    for (let g = 0; g < games; g++) {
      const seed = options.entropy.randomBytes(32)
      const ids = randomBytes(10)
      const gameId = randomId('g_', ids, 0, 10)
      const digest = salesDigest(randomSerials())
      const key = drawKey(seed, gameId, digest, '')
      const order = shuffleOrder(key, n)
      for (let p = 0; p < n; p++) counts[p * n + order[p] - 1]++
      if (fd !== null) {
        const stream = new DrawStream(key)
        for (let w = 0; w < wordsPerGame; w++) {
          if (used + 4 > chunk.length) flush()
          chunk.writeUInt32LE(stream.nextUint32(), used)
          used += 4
        }
      }
      if (options.onProgress && (g + 1) % 10_000 === 0) options.onProgress(g + 1)
    }
    flush()
  } finally {
    if (fd !== null) closeSync(fd)
    fd = null
  }
  const expected = games / n
  const first = Array.from(counts.subarray(0, n))
  const firstTest = chiSquareTest(first, expected)
  const positions = Array.from({ length: n }, (_, p) => {
    const t = chiSquareTest(counts.subarray(p * n, (p + 1) * n), expected)
    return { position: p + 1, statistic: t.statistic, pValue: t.pValue }
  })
  const rawSum = positions.reduce((s, p) => s + p.statistic, 0)
  const tableStatistic = (rawSum * (n - 1)) / n
  const tableDf = (n - 1) * (n - 1)
  const pvals = positions.map((p) => p.pValue)
  let min = { ball: 1, count: first[0] }
  let max = { ball: 1, count: first[0] }
  first.forEach((c, i) => {
    if (c < min.count) min = { ball: i + 1, count: c }
    if (c > max.count) max = { ball: i + 1, count: c }
  })
  return {
    version: 'bolillo-rng-report-v1',
    games,
    ballCount: n,
    entropySource: options.entropy.name,
    seconds: (performance.now() - started) / 1000,
    firstBall: { ...firstTest, counts: first, min, max },
    positions,
    positionSummary: {
      minPValue: Math.min(...pvals),
      maxPValue: Math.max(...pvals),
      below001: pvals.filter((p) => p < 0.01).length,
      below005: pvals.filter((p) => p < 0.05).length,
      ksUniform: ksUniform(pvals),
      table: { statistic: tableStatistic, df: tableDf, pValue: chiSquarePValue(tableStatistic, tableDf), rawSum },
    },
    raw: options.out
      ? { file: options.out, bytes: written, wordsPerGame, dieharder: `dieharder -a -g 201 -f ${options.out}` }
      : null,
  }
}

/** The report as text for people. */
export function formatRngReport(r: RngReport): string {
  const f = (x: number, d = 4) => (x < 1e-4 && x > 0 ? x.toExponential(2) : x.toFixed(d))
  const lines = [
    `bolillo-draw-v1 RNG report: ${r.games} games of ${r.ballCount} balls, seeds from ${r.entropySource}, ${r.seconds.toFixed(1)} s`,
    ``,
    `First ball (expected ${(r.games / r.ballCount).toFixed(1)} per ball):`,
    `  chi-square ${r.firstBall.statistic.toFixed(2)}, df ${r.firstBall.df}, p = ${f(r.firstBall.pValue)}`,
    `  least frequent: ball ${r.firstBall.min.ball} (${r.firstBall.min.count}); most frequent: ball ${r.firstBall.max.ball} (${r.firstBall.max.count})`,
    ``,
    `Each extraction position (chi-square over the ${r.ballCount} balls, df ${r.ballCount - 1}):`,
    `  p-values from ${f(r.positionSummary.minPValue)} to ${f(r.positionSummary.maxPValue)}; ${r.positionSummary.below001} below 0.01 and ${r.positionSummary.below005} below 0.05 (about ${(r.ballCount * 0.01).toFixed(1)} and ${(r.ballCount * 0.05).toFixed(1)} expected)`,
    `  Kolmogorov-Smirnov of the ${r.ballCount} p-values (nearly independent) against uniform: D = ${r.positionSummary.ksUniform.statistic.toFixed(4)}, p = ${f(r.positionSummary.ksUniform.pValue)}`,
    `  whole position x ball table: chi-square ${r.positionSummary.table.statistic.toFixed(1)} (sum ${r.positionSummary.table.rawSum.toFixed(1)} x ${r.ballCount - 1}/${r.ballCount}), df ${r.positionSummary.table.df}, p = ${f(r.positionSummary.table.pValue)}`,
    `  by position: ${r.positions.map((p) => `${p.position}:${p.pValue.toFixed(3)}`).join(' ')}`,
  ]
  if (r.raw) {
    lines.push(
      '',
      `Raw stream: ${r.raw.bytes} bytes (${r.raw.wordsPerGame} uint32 per game, little-endian) in ${r.raw.file}`,
      `  test it with: ${r.raw.dieharder}`,
    )
  }
  return lines.join('\n') + '\n'
}
