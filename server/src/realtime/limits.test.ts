import { describe, expect, it } from 'vitest'
import { createBucket, createBucketMap, eventBytes } from './limits.ts'

describe('socket limits: token buckets and event sizes (issue 24 point 5)', () => {
  it('gives a burst of `capacity`, then one event per 1/perSecond, never more than capacity after a rest', () => {
    const b = createBucket({ capacity: 3, perSecond: 2 }, 0)
    expect([b.take(0), b.take(0), b.take(0), b.take(0)]).toEqual([true, true, true, false])
    expect(b.take(499)).toBe(false) // 0.998 of a token
    expect(b.take(500)).toBe(true)
    expect(b.take(500)).toBe(false)
    // A long rest refills to capacity, not beyond.
    const after = Array.from({ length: 5 }, () => b.take(60_000))
    expect(after).toEqual([true, true, true, false, false])
  })

  it('keeps one bucket per key: one address exhausted leaves another untouched', () => {
    const m = createBucketMap({ capacity: 2, perSecond: 1 })
    expect([m.take('a', 0), m.take('a', 0), m.take('a', 0)]).toEqual([true, true, false])
    expect(m.take('b', 0)).toBe(true)
  })

  it('sizes an event by its arguments as JSON, acks excluded', () => {
    expect(eventBytes([{ gameId: 'g1' }, () => {}])).toBe(JSON.stringify([{ gameId: 'g1' }]).length)
    expect(eventBytes([{ gameId: 'x'.repeat(5000) }])).toBeGreaterThan(5000)
    const loop: Record<string, unknown> = {}
    loop.self = loop
    expect(eventBytes([loop])).toBe(Infinity)
  })
})
