/**
 * Continuous health tests on raw entropy samples, NIST SP 800-90B §4.4 (pure, no I/O):
 *
 * - Repetition Count Test (§4.4.1): fails when one sample value repeats `C = 1 + ceil(-log2(α) / H)` times in a
 *   row, where `H` is the assessed min-entropy per sample (bits) and `α` the false-alarm probability.
 * - Adaptive Proportion Test (§4.4.2): in each window of `W` samples (512 for non-binary samples), fails when the
 *   window's first value occurs `C` or more times, with `C = 1 + CRITBINOM(W, 2^-H, 1 - α)`.
 *
 * A stuck source (constant output) trips the repetition test within `C` samples; a source that has lost entropy
 * (a few values dominate) trips the proportion test. Samples here are bytes.
 */
import { logGamma } from '../../../server/src/shared/statistics.ts'

export { logGamma }

/** Default false-alarm probability exponent: α = 2^-30 per sample (SP 800-90B allows 2^-20 to 2^-40). */
export const DEFAULT_ALPHA_LOG2 = 30
/** Window size for non-binary samples (§4.4.2). */
export const APT_WINDOW = 512

/** Repetition Count Test cutoff `C = 1 + ceil(alphaLog2 / H)`. */
export function repetitionCutoff(entropyBits: number, alphaLog2 = DEFAULT_ALPHA_LOG2): number {
  if (!(entropyBits > 0 && entropyBits <= 8))
    throw new RangeError(`entropy per byte must be in (0, 8], got ${entropyBits}`)
  return 1 + Math.ceil(alphaLog2 / entropyBits)
}

/** Smallest `k` with P(X <= k) >= q for X ~ Binomial(n, p) (Excel's CRITBINOM). */
export function critBinom(n: number, p: number, q: number): number {
  const lnp = Math.log(p)
  const lnq = Math.log1p(-p)
  const base = logGamma(n + 1)
  // Sum the upper tail from the top, which stays accurate when 1 - q is tiny.
  const target = 1 - q
  let tail = 0
  for (let k = n; k >= 0; k--) {
    const pmf = Math.exp(base - logGamma(k + 1) - logGamma(n - k + 1) + k * lnp + (n - k) * lnq)
    // tail = P(X >= k); P(X <= k-1) = 1 - tail
    if (tail + pmf > target) return k
    tail += pmf
  }
  return 0
}

/** Adaptive Proportion Test cutoff `C = 1 + CRITBINOM(W, 2^-H, 1 - α)`. */
export function adaptiveProportionCutoff(
  entropyBits: number,
  window = APT_WINDOW,
  alphaLog2 = DEFAULT_ALPHA_LOG2,
): number {
  if (!(entropyBits > 0 && entropyBits <= 8))
    throw new RangeError(`entropy per byte must be in (0, 8], got ${entropyBits}`)
  return 1 + critBinom(window, 2 ** -entropyBits, 1 - 2 ** -alphaLog2)
}

export type HealthFailure =
  | { test: 'repetition-count'; value: number; run: number; cutoff: number; sample: number }
  | { test: 'adaptive-proportion'; value: number; count: number; cutoff: number; window: number; sample: number }

export interface HealthMonitor {
  readonly rctCutoff: number
  readonly aptCutoff: number
  /** Samples seen so far. */
  readonly samples: number
  /** First failure, sticky: once failed, the source stays failed until a new monitor is made. */
  readonly failure: HealthFailure | null
  /** Runs both tests over `bytes`, continuing from the previous call. Returns the failure, if any. */
  feed(bytes: Uint8Array): HealthFailure | null
}

/** Both continuous tests with their state, for one noise source. */
export function createHealthMonitor(options: {
  entropyBits: number
  alphaLog2?: number
  window?: number
}): HealthMonitor {
  const alphaLog2 = options.alphaLog2 ?? DEFAULT_ALPHA_LOG2
  const window = options.window ?? APT_WINDOW
  const rctCutoff = repetitionCutoff(options.entropyBits, alphaLog2)
  const aptCutoff = adaptiveProportionCutoff(options.entropyBits, window, alphaLog2)
  let samples = 0
  let failure: HealthFailure | null = null
  // RCT state
  let last = -1
  let run = 0
  // APT state
  let aptValue = -1
  let aptCount = 0
  let aptIndex = 0
  return {
    rctCutoff,
    aptCutoff,
    get samples() {
      return samples
    },
    get failure() {
      return failure
    },
    feed(bytes) {
      if (failure) return failure
      for (let i = 0; i < bytes.length; i++) {
        const x = bytes[i]
        samples++
        if (x === last) {
          run++
          if (run >= rctCutoff)
            return (failure = { test: 'repetition-count', value: x, run, cutoff: rctCutoff, sample: samples })
        } else {
          last = x
          run = 1
        }
        if (aptIndex === 0) {
          aptValue = x
          aptCount = 1
        } else if (x === aptValue) {
          aptCount++
          if (aptCount >= aptCutoff)
            return (failure = {
              test: 'adaptive-proportion',
              value: x,
              count: aptCount,
              cutoff: aptCutoff,
              window,
              sample: samples,
            })
        }
        aptIndex = (aptIndex + 1) % window
      }
      return null
    },
  }
}
