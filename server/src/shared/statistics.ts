/**
 * Statistics for the RNG report (RNG-32): the chi-square goodness-of-fit test with exact p-values from the
 * regularized incomplete gamma function, and the Kolmogorov-Smirnov test of p-values against the uniform law.
 * Pure functions on numbers.
 */

/** ln Γ(x) for x > 0 (Lanczos approximation, g = 7, 9 terms; about 15 significant digits). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`)
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ]
  const z = x - 1
  const t = z + 7.5
  let a = c[0]
  for (let i = 1; i < 9; i++) a += c[i] / (z + i)
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a)
}

const EPS = 1e-15
const MAX_ITER = 10_000
const TINY = 1e-300

/**
 * Regularized lower incomplete gamma P(a, x) = γ(a, x) / Γ(a), for a > 0, x >= 0. Series expansion for
 * x < a + 1, Lentz's continued fraction for Q otherwise (Numerical Recipes §6.2), relative error ~1e-14.
 */
export function regularizedGammaP(a: number, x: number): number {
  checkGammaArgs(a, x)
  if (x === 0) return 0
  return x < a + 1 ? gammaSeries(a, x) : 1 - gammaContinuedFraction(a, x)
}

/** Regularized upper incomplete gamma Q(a, x) = 1 - P(a, x), computed directly where it is small. */
export function regularizedGammaQ(a: number, x: number): number {
  checkGammaArgs(a, x)
  if (x === 0) return 1
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaContinuedFraction(a, x)
}

function checkGammaArgs(a: number, x: number) {
  if (!(a > 0) || !(x >= 0)) throw new RangeError(`incomplete gamma needs a > 0 and x >= 0, got a=${a}, x=${x}`)
}

function gammaSeries(a: number, x: number): number {
  let ap = a
  let sum = 1 / a
  let del = sum
  for (let n = 0; n < MAX_ITER; n++) {
    ap += 1
    del *= x / ap
    sum += del
    if (Math.abs(del) < Math.abs(sum) * EPS) break
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a))
}

function gammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a
  let c = 1 / TINY
  let d = 1 / b
  let h = d
  for (let i = 1; i < MAX_ITER; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < TINY) d = TINY
    c = b + an / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const del = d * c
    h *= del
    if (Math.abs(del - 1) < EPS) break
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h
}

/** CDF of the chi-square law with `df` degrees of freedom at `x`: P(df/2, x/2). */
export function chiSquareCdf(x: number, df: number): number {
  return x <= 0 ? 0 : regularizedGammaP(df / 2, x / 2)
}

/** Upper-tail p-value of a chi-square statistic: Q(df/2, x/2). */
export function chiSquarePValue(x: number, df: number): number {
  return x <= 0 ? 1 : regularizedGammaQ(df / 2, x / 2)
}

/**
 * Pearson's chi-square statistic of observed counts against one expected count per cell (or a list), with
 * `cells - 1` degrees of freedom and its p-value.
 */
export function chiSquareTest(
  observed: ArrayLike<number>,
  expected: number | ArrayLike<number>,
): { statistic: number; df: number; pValue: number } {
  let statistic = 0
  for (let i = 0; i < observed.length; i++) {
    const e = typeof expected === 'number' ? expected : expected[i]
    if (!(e > 0)) throw new RangeError('expected counts must be positive')
    const d = observed[i] - e
    statistic += (d * d) / e
  }
  const df = observed.length - 1
  return { statistic, df, pValue: chiSquarePValue(statistic, df) }
}

/**
 * One-sample Kolmogorov-Smirnov test of `values` (in [0, 1]) against the uniform law; the p-value uses the
 * asymptotic Kolmogorov distribution with Stephens' correction (good from n of about 10).
 */
export function ksUniform(values: readonly number[]): { statistic: number; pValue: number } {
  const v = [...values].sort((a, b) => a - b)
  const n = v.length
  let d = 0
  for (let i = 0; i < n; i++) d = Math.max(d, (i + 1) / n - v[i], v[i] - i / n)
  const t = (Math.sqrt(n) + 0.12 + 0.11 / Math.sqrt(n)) * d
  // Q_KS(t) = 2 Σ (-1)^(k-1) exp(-2 k² t²)
  let p = 0
  for (let k = 1; k <= 100; k++) {
    const term = 2 * (k % 2 === 1 ? 1 : -1) * Math.exp(-2 * k * k * t * t)
    p += term
    if (Math.abs(term) < 1e-12) break
  }
  return { statistic: d, pValue: Math.min(1, Math.max(0, t < 0.2 ? 1 : p)) }
}
