/**
 * The HTTP load generator of the sale benchmarks (bench/lotto-load.mjs), run as a child process so that its CPU is
 * not the server's: `clients` keep-alive connections POST the bodies of `bodiesFile` to `path` for a warm-up, then
 * `durationMs` measured. It runs on Node also when the server runs on Bun (`BOLILLO_BENCH_NODE`, bench/bun.ts), so
 * the figures compare servers.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export interface LoadResult {
  ok: number
  errors: number
  statuses: Record<string, number>
  seconds: number
  p50: number | null
  p99: number | null
  max: number | null
  clientCpuMs: number
  totalSent: number
}

export function runLoad(options: {
  host: string
  port: string | number
  path: string
  clients: number
  warmupMs: number
  durationMs: number
  /** A JSON file of the bodies (too many for one argument of the child: E2BIG past 128 KiB). */
  bodiesFile: string
}): Promise<LoadResult> {
  const loader = fileURLToPath(new URL('./lotto-load.mjs', import.meta.url))
  const args = [options.host, String(options.port), options.path, String(options.clients)]
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.env.BOLILLO_BENCH_NODE ?? process.execPath,
      [loader, ...args, String(options.warmupMs), String(options.durationMs), `@${options.bodiesFile}`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let text = ''
    child.stdout!.on('data', (c) => {
      text += c
    })
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(text) as LoadResult) : reject(new Error(`load generator exited with ${code}`)),
    )
  })
}
