/**
 * `npm run bench`: runs every benchmark module in bench/ and prints one JSON object per line on stdout,
 * `{"name","value","unit"}`. Progress goes to stderr. A benchmark is any exported function named `bench...`
 * taking an `emit` callback. Optional arguments filter modules by file name: `npx tsx bench/run.ts bingo`.
 *
 * `npm run bench -- --smoke` runs every module at a tiny size (SMOKE_SIZES; a size already set in the environment
 * wins) in seconds, to prove each one still starts under the rules as they are: it exits non-zero if a module fails
 * to load, has no benchmark, throws, emits no result (a benchmark that skipped itself) or runs past
 * BENCH_SMOKE_TIMEOUT_MS (180 s). `.ci/run` runs it. Its figures mean nothing. `--dir=<path>` reads the modules
 * from another folder (for the runner's own test, test/bench-run.test.ts).
 */
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

interface BenchResult {
  name: string
  value: number
  unit: string
}

type BenchFn = (emit: (r: BenchResult) => void) => Promise<void> | void

/** Modules of shared helpers: they export no benchmark, and any other module without one is a mistake. */
const HELPER_MODULES = new Set(['stats.ts', 'postgres.ts', 'pg-timing.ts', 'load.ts'])

/** The sizes of a smoke run: every loop of every module a few times, every set-up path once. */
const SMOKE_SIZES: Record<string, string> = {
  BENCH_BINGO_CARDS: '2000',
  BENCH_MULTI_CARDS: '2000',
  BENCH_MULTI_SALES: '60',
  BENCH_MULTI_REPEATS: '1',
  BENCH_DISPLAY_CLIENTS: '20',
  BENCH_DISPLAY_BALLS: '3',
  BENCH_DISPLAY_GAP_MS: '20',
  BENCH_TERMINAL_CLIENTS: '20',
  BENCH_TERMINAL_BALLS: '3',
  BENCH_TERMINAL_GAP_MS: '20',
  BENCH_FLOOD_FIRST: '300',
  BENCH_FLOOD_OTHERS: '60',
  BENCH_INSTANT_TICKETS: '10000',
  BENCH_INSTANT_VALIDATIONS: '50',
  BENCH_LOTTO_PLAYS: '10000',
  BENCH_LOTTO_ROUNDS: '1',
  BENCH_LOTTO_SELL_SECONDS: '1',
  BENCH_LOTTO_WARMUP_MS: '200',
  BENCH_LOTTO_CLIENTS: '4',
}
const SMOKE_TIMEOUT_MS = Number(process.env.BENCH_SMOKE_TIMEOUT_MS ?? 180_000)

const args = process.argv.slice(2)
const smoke = args.includes('--smoke')
const dirArg = args.find((a) => a.startsWith('--dir='))
const dir = dirArg ? path.resolve(dirArg.slice('--dir='.length)) : path.dirname(fileURLToPath(import.meta.url))
const filters = args.filter((a) => !a.startsWith('--'))
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()

if (smoke) {
  // Set before any module runs: the modules read their sizes when called, and bench/bun.ts hands them to its child.
  for (const [key, value] of Object.entries(SMOKE_SIZES)) process.env[key] ??= value
  process.env.BOLILLO_BENCH_SMOKE = '1'
  process.stderr.write(`[bench] smoke run of ${files.length} modules at tiny sizes: the figures mean nothing\n`)
}

const emit = (r: BenchResult): void => {
  process.stdout.write(`${JSON.stringify({ name: r.name, value: r.value, unit: r.unit })}\n`)
}

const failures: string[] = []
const fail = (what: string, err: unknown): void => {
  failures.push(what)
  process.stderr.write(`${what} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
}

/** Runs one benchmark; in a smoke run, within SMOKE_TIMEOUT_MS. Resolves with the number of results it emitted. */
async function run(fn: BenchFn): Promise<number> {
  let emitted = 0
  const counted = (r: BenchResult) => {
    emitted++
    emit(r)
  }
  if (!smoke) {
    await fn(counted)
    return emitted
  }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`still running after ${SMOKE_TIMEOUT_MS / 1000} s: a smoke run takes seconds`)),
      SMOKE_TIMEOUT_MS,
    )
  })
  try {
    await Promise.race([fn(counted), timeout])
  } finally {
    clearTimeout(timer)
  }
  return emitted
}

const t0 = performance.now()
for (const file of files) {
  let mod: Record<string, unknown>
  try {
    mod = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>
  } catch (err) {
    fail(`${file} (loading the module)`, err)
    continue
  }
  const benches = Object.entries(mod).filter(
    ([name, fn]) => typeof fn === 'function' && /^bench[A-Z]/.test(name),
  ) as Array<[string, BenchFn]>
  if (benches.length === 0 && !HELPER_MODULES.has(file)) {
    fail(file, new Error('exports no bench* function (a module of helpers goes in HELPER_MODULES of bench/run.ts)'))
    continue
  }
  for (const [name, fn] of benches) {
    const started = performance.now()
    try {
      const emitted = await run(fn)
      // A benchmark that emits nothing was skipped (a missing tool, a refused set-up it swallowed): in a smoke run
      // that is a failure, so that a module cannot stop measuring without anyone noticing.
      if (smoke && emitted === 0) throw new Error('emitted no result: it did not run')
      if (smoke)
        process.stderr.write(
          `[bench] ${file} ${name}: ${emitted} results in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
        )
    } catch (err) {
      fail(`${file} ${name}`, err)
    }
  }
}
if (smoke)
  process.stderr.write(
    `[bench] smoke run ${failures.length ? `FAILED (${failures.join(', ')})` : 'passed'} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  )
if (failures.length > 0) process.exitCode = 1
// A smoke run that failed may leave a benchmark's server or sockets open (a timeout does not stop it): end here.
if (smoke) process.exit()
