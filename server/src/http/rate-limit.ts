/**
 * Token buckets per caller (person, device or address): `perMinute` requests a minute with bursts up to the
 * same number. In memory: each server node limits its own callers.
 */
export function createRateLimiter(perMinute: number, now: () => number = () => Date.now()) {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const ratePerMs = perMinute / 60_000
  return {
    take(key: string): boolean {
      const t = now()
      const b = buckets.get(key) ?? { tokens: perMinute, at: t }
      b.tokens = Math.min(perMinute, b.tokens + (t - b.at) * ratePerMs)
      b.at = t
      if (buckets.size > 100_000) buckets.clear() // bounded memory under a flood of addresses
      buckets.set(key, b)
      if (b.tokens < 1) return false
      b.tokens -= 1
      return true
    },
  }
}
