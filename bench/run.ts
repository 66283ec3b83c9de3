/**
 * `npm run bench`: runs every benchmark module in bench/ and prints one JSON object per line on stdout,
 * `{"name","value","unit"}`. Progress goes to stderr. A benchmark is any exported function named `bench...`
 * taking an `emit` callback. Optional arguments filter modules by file name: `npx tsx bench/run.ts bingo`.
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

const dir = path.dirname(fileURLToPath(import.meta.url))
const filters = process.argv.slice(2)
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()

const emit = (r: BenchResult): void => {
  process.stdout.write(`${JSON.stringify({ name: r.name, value: r.value, unit: r.unit })}\n`)
}

let failed = false
for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>
  for (const [name, fn] of Object.entries(mod)) {
    if (typeof fn !== 'function' || !/^bench[A-Z]/.test(name)) continue
    try {
      await (fn as BenchFn)(emit)
    } catch (err) {
      failed = true
      process.stderr.write(`${file} ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    }
  }
}
if (failed) process.exitCode = 1
