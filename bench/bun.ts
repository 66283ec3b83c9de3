/**
 * The durable sale benchmarks again under Bun (bun:sqlite, Bun's worker threads and HTTP), in the same
 * `npm run bench` as Node's figures: this module, run on Node, starts itself under the `bun` devDependency,
 * which runs bingo-multi.ts's `bingo.sell.sqlite` and lotto.ts's `lotto.sell` and prints their results; they are
 * emitted here with a `.bun` suffix (`bingo.sell.sqlite.bun`, `lotto.sell.bun`, `lotto.sell.p99.bun`).
 * Skipped with a note when Bun is missing.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { runtime } from '../server/src/shared/runtime.ts'

export interface BenchResult {
  name: string
  value: number
  unit: string
}

const bun = fileURLToPath(new URL('../node_modules/.bin/bun', import.meta.url))

export async function benchBun(emit: (r: BenchResult) => void): Promise<void> {
  if (runtime === 'bun') return
  if (!existsSync(bun)) {
    process.stderr.write('[bench bun] skipped: node_modules/.bin/bun is missing (npm install)\n')
    return
  }
  const lines = await new Promise<string>((resolve, reject) => {
    const child = spawn(bun, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, BOLILLO_BENCH_NODE: process.execPath },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`bun exited with ${code}`))))
  })
  for (const line of lines.split('\n').filter(Boolean)) {
    const r = JSON.parse(line) as BenchResult
    emit({ ...r, name: `${r.name}.bun` })
  }
}

// Under Bun, started by benchBun above: the two sale benchmarks on this runtime, one JSON result per line.
if (runtime === 'bun' && (import.meta as { main?: boolean }).main) {
  const print = (r: BenchResult) => process.stdout.write(`${JSON.stringify(r)}\n`)
  await (await import('./bingo-multi.ts')).sellSqlite(print)
  await (await import('./lotto.ts')).sellLotto(print)
}
