/**
 * Issue 25: `npm run bench -- --smoke` is what keeps every benchmark starting under the rules as they are (.ci/run
 * runs it). These runs of bench/run.ts on folders of small modules prove that a module that cannot start fails the
 * run, whatever the way it cannot: it does not load, throws, skips itself without a result, has no benchmark at all,
 * or hangs.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const runner = resolve(import.meta.dirname, '..', 'bench', 'run.ts')
const dirs: string[] = []

function folder(modules: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-bench-run-'))
  dirs.push(dir)
  for (const [name, text] of Object.entries(modules)) writeFileSync(join(dir, name), text)
  return dir
}

function run(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', runner, `--dir=${dir}`, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('error', reject)
    child.on('exit', (code) => done({ code, stdout, stderr }))
  })
}

const GOOD = `export async function benchGood(emit: (r: { name: string; value: number; unit: string }) => void) {
  emit({ name: 'good.cards', value: Number(process.env.BENCH_BINGO_CARDS ?? 1_000_000), unit: 'cards' })
}
`
const HELPERS = 'export function mean(xs: number[]): number { return xs.reduce((a, b) => a + b, 0) / xs.length }\n'

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('bench/run.ts --smoke', () => {
  it('passes when every module emits its results, at the smoke sizes, and the helpers module is not a benchmark', async () => {
    const dir = folder({ 'good.ts': GOOD, 'stats.ts': HELPERS })
    const smoke = await run(dir, ['--smoke'])
    expect(smoke.code, smoke.stderr).toBe(0)
    expect(
      smoke.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([{ name: 'good.cards', value: 2000, unit: 'cards' }])
    expect(smoke.stderr).toContain('smoke run passed')
    // The full run keeps the module's own size.
    const full = await run(dir, [])
    expect(full.code, full.stderr).toBe(0)
    expect(JSON.parse(full.stdout)).toEqual({ name: 'good.cards', value: 1_000_000, unit: 'cards' })
  })

  it('fails, naming each, when a module does not load, throws, emits nothing or has no benchmark; the others still run', async () => {
    const dir = folder({
      'a-good.ts': GOOD,
      'broken.ts': "import { nothing } from './no-such-module.ts'\nexport function benchBroken() { return nothing }\n",
      'refused.ts':
        "export async function benchRefused() { throw new Error('hall has no Plan de Apuestas (BNG-52)') }\n",
      'skipped.ts': "export async function benchSkipped() { process.stderr.write('skipped: tool missing\\n') }\n",
      'renamed.ts': 'export async function measureSomething() {}\n',
      'stats.ts': HELPERS,
    })
    const r = await run(dir, ['--smoke'])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)).toEqual({ name: 'good.cards', value: 2000, unit: 'cards' })
    expect(r.stderr).toContain('broken.ts (loading the module) failed')
    expect(r.stderr).toContain('refused.ts benchRefused failed: Error: hall has no Plan de Apuestas (BNG-52)')
    expect(r.stderr).toContain('skipped.ts benchSkipped failed: Error: emitted no result')
    expect(r.stderr).toContain('renamed.ts failed: Error: exports no bench* function')
    expect(r.stderr).toContain(
      'smoke run FAILED (broken.ts (loading the module), refused.ts benchRefused, renamed.ts, skipped.ts benchSkipped)',
    )
    // Outside a smoke run a module that throws fails the run too.
    const full = await run(dir, ['refused'])
    expect(full.code).toBe(1)
    expect(full.stderr).toContain('refused.ts benchRefused failed')
  })

  it('fails a module that runs past the smoke time limit, and ends the run although the module still holds a timer', async () => {
    const dir = folder({
      'hangs.ts':
        'export function benchHangs() { setInterval(() => undefined, 1000); return new Promise(() => undefined) }\n',
    })
    const t0 = performance.now()
    const r = await run(dir, ['--smoke'], { BENCH_SMOKE_TIMEOUT_MS: '1500' })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('hangs.ts benchHangs failed: Error: still running after 1.5 s')
    expect(performance.now() - t0).toBeLessThan(30_000)
  })
})
