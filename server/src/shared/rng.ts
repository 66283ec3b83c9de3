/**
 * The Rng port used by pure code (card generation, simulations). Draws do not use it: a draw's balls come
 * from the `bolillo-draw-v1` stream (draw-proof.ts) or from a blower.
 */
export interface Rng {
  /** Uniform integer in [0, maxExclusive). */
  nextInt(maxExclusive: number): number
}

/**
 * Deterministic, fast generator (xoshiro128**) seeded from a string or numbers, so that a master card set
 * can be regenerated bit for bit from its recorded seed. Not for draws.
 */
export function createSeededRng(seed: string | number): Rng & { nextUint32(): number } {
  // Seed expansion with splitmix32 over a 32-bit FNV-1a hash of the seed text.
  let h = 0x811c9dc5
  const text = String(seed)
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  const splitmix = () => {
    h = (h + 0x9e3779b9) >>> 0
    let z = h
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
  let a = splitmix(),
    b = splitmix(),
    c = splitmix(),
    d = splitmix()
  if ((a | b | c | d) === 0) a = 1
  const nextUint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5) >>> 0, 7), 9) >>> 0
    const t = (b << 9) >>> 0
    c ^= a
    d ^= b
    b ^= c
    a ^= d
    c ^= t
    d = rotl(d, 11)
    return result
  }
  return {
    nextUint32,
    nextInt(maxExclusive: number): number {
      if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > 2 ** 32)
        throw new RangeError(`bad bound ${maxExclusive}`)
      // Rejection sampling: no modulo bias.
      const limit = 2 ** 32 - (2 ** 32 % maxExclusive)
      for (;;) {
        const u = nextUint32()
        if (u < limit) return u % maxExclusive
      }
    },
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0
}
