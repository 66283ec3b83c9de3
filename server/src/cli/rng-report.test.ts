import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { formatRngReport, runRngReport } from './rng-report.ts'

const dir = mkdtempSync(join(tmpdir(), 'bolillo-rng-report-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const entropy = { name: 'test-entropy', randomBytes: (n: number) => new Uint8Array(randomBytes(n)) }

describe('rng-report', () => {
  it('writes the very uint32 values the shuffle consumed, little-endian, game after game', () => {
    const out = join(dir, 'one.bin')
    const r = runRngReport({ games: 3, entropy, out, wordsPerGame: 128 })
    const bytes = readFileSync(out)
    expect(bytes.length).toBe(3 * 128 * 4)
    expect(r.raw).toMatchObject({ bytes: 3 * 128 * 4, dieharder: `dieharder -a -g 201 -f ${out}` })
    // Replay the contract's shuffle (DESIGN.md step 5) on each game's words, independently of the engine.
    const orders = [0, 1, 2].map((g) => {
      let w = g * 128
      const next = () => bytes.readUInt32LE(4 * w++)
      const a = Array.from({ length: 90 }, (_, i) => i + 1)
      for (let j = 89; j >= 1; j--) {
        const m = j + 1
        const limit = 2 ** 32 - (2 ** 32 % m)
        let u = next()
        while (u >= limit) u = next()
        const k = u % m
        ;[a[j], a[k]] = [a[k], a[j]]
      }
      return a
    })
    // The report counted exactly these three orders.
    const firsts = new Array(90).fill(0)
    for (const o of orders) firsts[o[0] - 1]++
    expect(r.firstBall.counts).toEqual(firsts)
    for (const o of orders) expect([...o].sort((x, y) => x - y)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1))
  })

  it('reports chi-square p-values that do not reject a fair engine', () => {
    const r = runRngReport({ games: 3000, entropy })
    expect(r.firstBall.df).toBe(89)
    expect(r.firstBall.counts.reduce((s, c) => s + c, 0)).toBe(3000)
    expect(r.positions).toHaveLength(90)
    expect(r.positionSummary.table.df).toBe(7921)
    // These hold with overwhelming probability for a uniform shuffle (each is a 1e-6-level event otherwise).
    expect(r.firstBall.pValue).toBeGreaterThan(1e-6)
    expect(r.positionSummary.table.pValue).toBeGreaterThan(1e-6)
    expect(r.positionSummary.ksUniform.pValue).toBeGreaterThan(1e-6)
    const text = formatRngReport(r)
    expect(text).toMatch(/3000 games of 90 balls, seeds from test-entropy/)
    expect(text).toMatch(/chi-square .*df 89, p = /)
  })

  it('calibrates the whole-table statistic: mean (N-1)^2, not N(N-1)', () => {
    // 100 reports of 500 games of 5 balls: the scaled statistic averages 16 (chi-square, 16 df); the raw sum 20.
    const stats = Array.from(
      { length: 100 },
      () => runRngReport({ games: 500, ballCount: 5, entropy }).positionSummary.table,
    )
    const mean = stats.reduce((s, t) => s + t.statistic, 0) / stats.length
    expect(stats[0].df).toBe(16)
    expect(Math.abs(mean - 16)).toBeLessThan(3)
    expect(Math.abs(stats.reduce((s, t) => s + t.rawSum, 0) / stats.length - 20)).toBeLessThan(3.5)
  })
})
