/**
 * Streams the prize placement of an instant-ticket batch, pack by pack, with exact tier counts and every pack
 * rule met, from the batch seed (bolillo-instant-v2). Memory is O(tiers + packSize): no pack is kept after it has
 * been yielded, so 10 million tickets cost the same memory as ten thousand.
 *
 * ## Placement algorithm (reproducible from the seed; every draw reads the placement stream U in this order)
 *
 * Let P packs of S tickets, tier counts c_k, low tiers L (pack rule: at least m per pack), top tiers T (at most
 * `cap` per pack, never first or last when the rule says so). `draw(pool)` takes one prize out of a pool without
 * replacement: r = U.uniform(pool total), then walks the buckets (no prize first, then tiers 1..n) to the bucket
 * holding position r.
 *
 * 1. Reserve: draw m x P prizes out of the low tiers' pool; these are the "reserved" pool, the rest of the low
 *    prizes join the free pool (a uniformly random split by tier).
 * 2. For each pack p = 1..P:
 *    a. top count k_p: for each of the pack's `cap` top slots, select it when U.uniform(slots left in the batch)
 *       < top prizes left (selection sampling: the selected slots are a uniform subset of all P x cap slots);
 *    b. k_p draws from the top pool, then m draws from the reserved pool, then S - m - k_p draws from the free
 *       pool (no-prize tickets, mid tiers, unreserved low tiers);
 *    c. the S - k_p non-top tickets are shuffled (Fisher-Yates, j from last down to 1, r = U.uniform(j + 1));
 *    d. the top tickets take k_p distinct positions chosen by a partial Fisher-Yates over the allowed positions
 *       (1..S-2 with the edge rule, else 0..S-1); the non-top tickets fill the other positions in order.
 *
 * Every pool ends empty, so each tier's count is exact; each pack holds at least m low prizes and at most cap top
 * prizes, none at an edge with the rule. Within those rules the placement is uniformly random: which prizes share a
 * pack is a uniform draw from the pools, and their order within the pack is uniform among the orders the edge rule
 * allows.
 */
import type { CheckedDesign } from './design.ts'
import { createCtrStream, deriveKey, type UintStream } from './codes.ts'

export interface GeneratedPack {
  /** 1-based pack number (the PPPPPP of the serial). */
  packNo: number
  /** Index of the pack's first ticket in the game (0-based). */
  firstIndex: number
  /** Tier of each ticket, by position; 0 = no prize. A fresh array per pack. */
  tiers: Uint8Array
}

/** Draws without replacement from bucket counts; `total` is kept in step. */
class Pool {
  total = 0
  constructor(readonly counts: number[]) {
    for (const c of counts) this.total += c
  }
  draw(u: UintStream): number {
    let r = u.uniform(this.total)
    const counts = this.counts
    for (let k = 0; k < counts.length; k++) {
      if (r < counts[k]) {
        counts[k]--
        this.total--
        return k
      }
      r -= counts[k]
    }
    throw new Error('pool exhausted')
  }
}

/**
 * Yields the batch's packs in order. Deterministic: the same design and seed give the same packs.
 */
export function* generatePacks(c: CheckedDesign, seed: Uint8Array): Generator<GeneratedPack> {
  const d = c.design
  const u = createCtrStream(deriveKey(seed, d.gameNo, 'placement'))
  const tierCount = d.tiers.length
  const P = c.packCount
  const S = d.packSize
  const m = c.minLowPerPack
  const cap = c.topCapacityPerPack
  const isTop = new Uint8Array(tierCount + 1)
  for (const k of c.topTiers) isTop[k] = 1

  // Pools are bucket arrays indexed by tier (bucket 0 = no prize).
  const lowCounts = new Array<number>(tierCount + 1).fill(0)
  for (const k of c.lowTiers) lowCounts[k] = d.tiers[k - 1].count
  const lowPool = new Pool(lowCounts)
  const reservedCounts = new Array<number>(tierCount + 1).fill(0)
  for (let i = 0; i < m * P; i++) reservedCounts[lowPool.draw(u)]++
  const reserved = new Pool(reservedCounts)

  const freeCounts = new Array<number>(tierCount + 1).fill(0)
  const topCounts = new Array<number>(tierCount + 1).fill(0)
  freeCounts[0] = d.ticketCount - c.winnerCount
  for (let k = 1; k <= tierCount; k++) {
    if (isTop[k]) topCounts[k] = d.tiers[k - 1].count
    else freeCounts[k] = d.tiers[k - 1].count - reservedCounts[k]
  }
  const free = new Pool(freeCounts)
  const top = new Pool(topCounts)

  let slotsLeft = P * cap
  const allowed: number[] = []
  for (let pos = c.notFirstOrLast ? 1 : 0; pos < (c.notFirstOrLast ? S - 1 : S); pos++) allowed.push(pos)

  const nonTop = new Uint8Array(S)
  for (let p = 0; p < P; p++) {
    let k = 0
    for (let s = 0; s < cap; s++) {
      if (u.uniform(slotsLeft) < top.total - k) k++
      slotsLeft--
    }
    const topTiers: number[] = []
    for (let i = 0; i < k; i++) topTiers.push(top.draw(u))
    let n = 0
    for (let i = 0; i < m; i++) nonTop[n++] = reserved.draw(u)
    while (n < S - k) nonTop[n++] = free.draw(u)
    for (let j = n - 1; j > 0; j--) {
      const r = u.uniform(j + 1)
      const t = nonTop[j]
      nonTop[j] = nonTop[r]
      nonTop[r] = t
    }
    const tiers = new Uint8Array(S)
    if (k === 0) {
      tiers.set(nonTop.subarray(0, n))
    } else {
      const positions = allowed.slice()
      const taken = new Uint8Array(S)
      for (let i = 0; i < k; i++) {
        const r = i + u.uniform(positions.length - i)
        const t = positions[i]
        positions[i] = positions[r]
        positions[r] = t
        tiers[positions[i]] = topTiers[i]
        taken[positions[i]] = 1
      }
      let q = 0
      for (let pos = 0; pos < S; pos++) if (!taken[pos]) tiers[pos] = nonTop[q++]
    }
    yield { packNo: p + 1, firstIndex: p * S, tiers }
  }
}

/** Checks one pack against the design's pack rules; returns the broken rule, or null. For audits and tests. */
export function packRuleViolation(c: CheckedDesign, tiers: ArrayLike<number>): string | null {
  let low = 0
  let top = 0
  for (let i = 0; i < tiers.length; i++) {
    const t = tiers[i]
    if (c.lowTiers.includes(t)) low++
    if (c.topTiers.includes(t)) {
      top++
      if (c.notFirstOrLast && (i === 0 || i === tiers.length - 1)) return `top prize at position ${i}`
    }
  }
  if (low < c.minLowPerPack) return `${low} low-tier prizes, at least ${c.minLowPerPack} required`
  if (c.topTiers.length && top > c.topCapacityPerPack)
    return `${top} top-tier prizes, at most ${c.topCapacityPerPack} allowed`
  return null
}
