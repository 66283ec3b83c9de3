import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { createSeededRng } from '../../../server/src/shared/rng.ts'
import { adaptiveProportionCutoff, createHealthMonitor, critBinom, logGamma, repetitionCutoff } from './health.ts'
import { STARTUP_SAMPLES, createHwrngSource } from './hwrng.ts'

describe('SP 800-90B cutoffs', () => {
  it('computes the repetition count cutoff C = 1 + ceil(-log2(alpha) / H)', () => {
    expect(repetitionCutoff(8, 20)).toBe(4)
    expect(repetitionCutoff(1, 20)).toBe(21)
    expect(repetitionCutoff(4, 30)).toBe(9)
    expect(repetitionCutoff(0.5, 20)).toBe(41)
  })

  it('matches the adaptive proportion cutoffs of SP 800-90B Table 2 (W = 512, alpha = 2^-20)', () => {
    const table: Array<[number, number]> = [
      [0.5, 410],
      [1, 311],
      [2, 177],
      [4, 62],
      [8, 13],
    ]
    for (const [h, c] of table) expect(adaptiveProportionCutoff(h, 512, 20)).toBe(c)
  })

  it('computes CRITBINOM and ln Gamma', () => {
    expect(critBinom(10, 0.5, 0.5)).toBe(5)
    expect(critBinom(100, 0.01, 0.99)).toBe(4)
    expect(logGamma(1)).toBeCloseTo(0, 12)
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12)
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12)
    expect(logGamma(171)).toBeCloseTo(706.5730622457874, 9)
  })
})

describe('continuous health tests', () => {
  it('trips the repetition count test on a stuck source', () => {
    const m = createHealthMonitor({ entropyBits: 4 })
    const f = m.feed(new Uint8Array(100).fill(0x55))
    expect(f).toMatchObject({ test: 'repetition-count', value: 0x55, run: 9, sample: 9 })
    // Sticky: good bytes afterwards do not clear it.
    expect(m.feed(randomBytes(64))).toBe(f)
  })

  it('trips the adaptive proportion test on a source that lost entropy without repeating', () => {
    // One value in every other sample: never 2 in a row, but 256 of 512 per window.
    const m = createHealthMonitor({ entropyBits: 4 })
    const bytes = new Uint8Array(2048).map((_, i) => (i % 2 === 0 ? 7 : 8 + (i % 200)))
    expect(m.feed(bytes)).toMatchObject({ test: 'adaptive-proportion', value: 7, cutoff: m.aptCutoff })
  })

  it('passes full-entropy bytes, however they are chunked', () => {
    const data = randomBytes(64 * 1024)
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4096 }), { maxLength: 30 }), (sizes) => {
        const m = createHealthMonitor({ entropyBits: 4 })
        let off = 0
        for (const s of [...sizes, data.length]) {
          const part = data.subarray(off, Math.min(data.length, off + s))
          off += part.length
          expect(m.feed(part)).toBeNull()
          if (off >= data.length) break
        }
        expect(m.samples).toBe(off)
      }),
      { numRuns: 20 },
    )
  })

  it('gives the same verdict split or whole (the state carries across calls)', () => {
    const stuckRun = (n: number) => new Uint8Array(n).fill(1)
    const m = createHealthMonitor({ entropyBits: 8, alphaLog2: 20 })
    expect(m.rctCutoff).toBe(4)
    expect(m.feed(stuckRun(2))).toBeNull()
    expect(m.feed(stuckRun(1))).toBeNull()
    expect(m.feed(stuckRun(1))).toMatchObject({ test: 'repetition-count', run: 4 })
  })
})

describe('hardware entropy source', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-hwrng-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const seeded = (seed: string, n: number) => {
    const r = createSeededRng(seed)
    return new Uint8Array(n).map(() => r.nextInt(256))
  }

  it('reads a device file, conditions it and names itself in the proof', () => {
    const file = join(dir, 'good.bin')
    writeFileSync(file, seeded('good', 200_000))
    const src = createHwrngSource({ path: file, entropyBits: 4 })
    const a = src.randomBytes(32)
    const b = src.randomBytes(32)
    expect(a).toHaveLength(32)
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false)
    expect(src.name).toBe(`hwrng:${file}`)
    expect(src.failure).toBeNull()
    src.close()
  })

  it('refuses seeds from a stuck generator (ENTROPY_HEALTH_FAILED) and stays failed', () => {
    const file = join(dir, 'stuck.bin')
    writeFileSync(file, new Uint8Array(10_000))
    const reasons: string[] = []
    const src = createHwrngSource({ path: file, entropyBits: 4, onFailure: (r) => reasons.push(r) })
    expect(() => src.randomBytes(32)).toThrowError(expect.objectContaining({ code: 'ENTROPY_HEALTH_FAILED' }))
    expect(src.failure).toMatch(/repetition count/)
    expect(() => src.randomBytes(32)).toThrowError(expect.objectContaining({ code: 'ENTROPY_HEALTH_FAILED' }))
    expect(reasons).toHaveLength(1)
    src.close()
  })

  it('catches a generator that gets stuck after a good start', () => {
    let served = 0
    const good = seeded('then-stuck', STARTUP_SAMPLES + 500)
    const src = createHwrngSource({
      path: '/dev/fake',
      entropyBits: 4,
      read: (n) => {
        const out = new Uint8Array(n).map((_, i) => (served + i < good.length ? good[served + i] : 0xff))
        served += n
        return out
      },
    })
    expect(src.randomBytes(32)).toHaveLength(32)
    for (let i = 0; i < 10 && src.failure === null; i++) {
      try {
        src.randomBytes(32)
      } catch {
        /* expected once the source sticks */
      }
    }
    expect(src.failure).toMatch(/repetition count/)
  })

  it('falls back to the OS CSPRNG only when configured, and says so in its name', () => {
    const src = createHwrngSource({ path: join(dir, 'missing.bin'), entropyBits: 4, fallback: true })
    expect(src.randomBytes(32)).toHaveLength(32)
    expect(src.failure).toMatch(/cannot read/)
    expect(src.name).toBe(`os-csprng (fallback: hwrng:${join(dir, 'missing.bin')} failed)`)
    const strict = createHwrngSource({ path: join(dir, 'missing.bin'), entropyBits: 4 })
    expect(() => strict.randomBytes(32)).toThrowError(expect.objectContaining({ code: 'ENTROPY_HEALTH_FAILED' }))
  })

  it('reads the machine generator when there is one', async () => {
    const { existsSync, accessSync, constants } = await import('node:fs')
    let readable = existsSync('/dev/hwrng')
    try {
      if (readable) accessSync('/dev/hwrng', constants.R_OK)
    } catch {
      readable = false
    }
    if (!readable) return
    const src = createHwrngSource({ path: '/dev/hwrng', entropyBits: 4 })
    expect(src.randomBytes(64)).toHaveLength(64)
    expect(src.failure).toBeNull()
    src.close()
  })
})
