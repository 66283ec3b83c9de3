import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  chiSquareCdf,
  chiSquarePValue,
  chiSquareTest,
  ksUniform,
  logGamma,
  regularizedGammaP,
  regularizedGammaQ,
} from './statistics.ts'

// Reference values from SciPy 1.17 (scipy.special.gammainc / gammaincc, scipy.stats.chi2).
describe('regularized incomplete gamma', () => {
  it('matches closed forms: P(1, x) = 1 - e^-x and P(1/2, x) = erf(sqrt x)', () => {
    for (const x of [0.01, 0.5, 1, 3, 10, 40]) expect(regularizedGammaP(1, x)).toBeCloseTo(1 - Math.exp(-x), 13)
    expect(regularizedGammaP(0.5, 1)).toBeCloseTo(0.8427007929497149, 13)
    expect(regularizedGammaQ(0.5, 0.001)).toBeCloseTo(0.9643294082703201, 12)
  })

  it('matches reference values on both sides of x = a + 1', () => {
    expect(regularizedGammaP(3.5, 2)).toBeCloseTo(0.22022259152428406, 13)
    expect(regularizedGammaQ(50, 70) / 0.0051405024585059085).toBeCloseTo(1, 11)
    expect(regularizedGammaP(100, 80) / 0.0171083130351331).toBeCloseTo(1, 11)
  })

  it('keeps P + Q = 1 and P increasing in x', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 500, noNaN: true }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        (a, x, dx) => {
          expect(regularizedGammaP(a, x) + regularizedGammaQ(a, x)).toBeCloseTo(1, 10)
          expect(regularizedGammaP(a, x + dx)).toBeGreaterThanOrEqual(regularizedGammaP(a, x) - 1e-12)
        },
      ),
    )
  })

  it('computes ln Gamma', () => {
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12)
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13)
  })
})

describe('chi-square', () => {
  it('gives the textbook critical values', () => {
    expect(chiSquareCdf(3.841458820694124, 1)).toBeCloseTo(0.95, 12)
    expect(chiSquareCdf(18.307038053275146, 10)).toBeCloseTo(0.95, 12)
    expect(chiSquareCdf(112.02198574980785, 89)).toBeCloseTo(0.95, 12)
    expect(chiSquareCdf(8216.7437252618, 7921)).toBeCloseTo(0.99, 10)
  })

  it('gives upper-tail p-values, tiny ones included', () => {
    expect(chiSquarePValue(100, 89)).toBeCloseTo(0.1998171271092731, 12)
    expect(chiSquarePValue(8100, 7921)).toBeCloseTo(0.07826022017785728, 10)
    expect(chiSquarePValue(300, 89) / 1.151540994426996e-24).toBeCloseTo(1, 8)
  })

  it('tests counts against the uniform expectation', () => {
    expect(chiSquareTest([10, 10, 10, 10], 10)).toEqual({ statistic: 0, df: 3, pValue: 1 })
    const r = chiSquareTest([20, 0, 10, 10], 10)
    expect(r.statistic).toBe(20)
    expect(r.pValue).toBeCloseTo(chiSquarePValue(20, 3), 15)
  })
})

describe('Kolmogorov-Smirnov against the uniform law', () => {
  it('accepts evenly spread p-values and rejects clustered ones', () => {
    const even = Array.from({ length: 90 }, (_, i) => (i + 0.5) / 90)
    expect(ksUniform(even).pValue).toBeGreaterThan(0.99)
    const low = Array.from({ length: 90 }, (_, i) => (i + 0.5) / 900)
    expect(ksUniform(low).pValue).toBeLessThan(1e-10)
  })
})
