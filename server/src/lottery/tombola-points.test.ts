import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rafflePlan } from '../../../test/helpers/lottery-plans.ts'
import { salesDigest, shuffleOrder, sortByBytes } from '../shared/draw-proof.ts'
import { drawKeyV2 } from '../shared/draw-proof-v2.ts'
import {
  normalizeRafflePlan,
  pointsAwarded,
  pointsTicketCount,
  validateRafflePlan,
  type TombolaPoints,
} from './rules.ts'

/**
 * PRM-2 (004 F.I: a tómbola's winner takes an object "por suma de puntos hasta alcanzar una cifra determinada"): the
 * one sealed draw extracts as many tickets as the plan's tiers count, among those in play, and each gets its tier's
 * points, in the order drawn.
 */

/** The tickets a v2 draw extracts among `serials` (as lifecycle.drawRng does: the first `count` of the order). */
function drawnTickets(seed: Uint8Array, randomness: string, serials: string[], count: number): number[] {
  const sorted = sortByBytes(serials)
  const key = drawKeyV2(seed, 'raf-points', salesDigest(sorted), 1234, randomness)
  return shuffleOrder(key, sorted.length)
    .slice(0, count)
    .map((v) => Number(sorted[v - 1]))
}

const tiers = fc.array(fc.record({ count: fc.integer({ min: 1, max: 12 }), points: fc.integer({ min: 1, max: 50 }) }), {
  minLength: 1,
  maxLength: 5,
})

describe('tómbola by points: the draw gives out exactly the tiers (PRM-2)', () => {
  it('for any seed, beacon and tickets in play: the points awarded add up to the tiers, each tier to its count, and no ticket gets two tiers', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
        tiers,
        fc.integer({ min: 0, max: 40 }),
        (seed, randomness, ts, extra) => {
          const count = pointsTicketCount({ tiers: ts })
          const serials = Array.from({ length: count + extra }, (_, i) => String(i + 1).padStart(3, '0'))
          const awards = pointsAwarded({ tiers: ts }, drawnTickets(seed, randomness, serials, count))
          const total = ts.reduce((s, t) => s + t.count * t.points, 0)
          expect(awards.reduce((s, a) => s + a.points, 0)).toBe(total)
          ts.forEach((t, i) => {
            const inTier = awards.filter((a) => a.tier === i)
            expect(inTier).toHaveLength(t.count)
            expect(inTier.every((a) => a.points === t.points)).toBe(true)
          })
          // No ticket twice: each drawn ticket is in one tier only, and every one is a ticket in play.
          expect(new Set(awards.map((a) => a.number)).size).toBe(awards.length)
          expect(awards.every((a) => serials.includes(String(a.number).padStart(3, '0')))).toBe(true)
          // The order drawn is kept: the first tier takes the first tickets out.
          expect(awards.map((a) => a.order)).toEqual(awards.map((_, i) => i + 1))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('refuses a draw that gave a ticket twice or another number of tickets than the tiers count', () => {
    const p = {
      tiers: [
        { count: 2, points: 5 },
        { count: 1, points: 1 },
      ],
    }
    expect(() => pointsAwarded(p, [4, 9, 4])).toThrow(/twice/)
    expect(() => pointsAwarded(p, [4, 9])).toThrow(/3 tickets, 2 drawn/)
    expect(pointsAwarded(p, [4, 9, 11]).map((a) => [a.number, a.points])).toEqual([
      [4, 5],
      [9, 5],
      [11, 1],
    ])
  })
})

describe('tómbola by points: the plan (PRM-2, PRM-6)', () => {
  const points = (over: Partial<TombolaPoints> = {}): TombolaPoints => ({
    basesRef: 'Bases art. 7',
    hallId: 'hall-1',
    totalPoints: 13,
    tiers: [
      { count: 2, points: 5 },
      { count: 3, points: 1 },
    ],
    figures: { R1: 10, R2: 3 },
    ...over,
  })
  const problems = (over: Record<string, unknown>) =>
    validateRafflePlan(normalizeRafflePlan(rafflePlan({ kind: 'tombola', ...over } as never)))
  const fields = (over: Record<string, unknown>) => problems(over).map((p) => `${p.field} ${p.rule}`)

  it('accepts tiers that add up to the points the bases approve, with every object given a figure', () => {
    expect(problems({ points: points() })).toEqual([])
  })

  it('refuses tiers that do not add up to the approved points, an object without a figure, a figure of no object, no bases reference, and points on a raffle', () => {
    expect(fields({ points: points({ totalPoints: 14 }) })).toContain('points.tiers PRM-2')
    expect(fields({ points: points({ figures: { R1: 10 } }) })).toContain('points.figures.R2 PRM-2')
    expect(fields({ points: points({ figures: { R1: 10, R2: 3, R9: 1 } }) })).toContain('points.figures.R9 PRM-2')
    expect(fields({ points: points({ basesRef: '' }) })).toContain('points.basesRef PRM-2')
    expect(fields({ points: points({ hallId: '' }) })).toContain('points.hallId PRM-6')
    expect(fields({ points: points({ tiers: [{ count: 0, points: 5 }] }) })).toContain('points.tiers[0].count PRM-2')
    expect(
      validateRafflePlan(normalizeRafflePlan(rafflePlan({ points: points() } as never))).map((p) => p.field),
    ).toContain('points')
  })
})
