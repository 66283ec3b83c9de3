import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createFifoGate } from './fifo-gate.ts'

/** Issue 23 point 5: the kiosk purchases' line (fifo-gate.ts). */
describe('first-come, first-served gate', () => {
  it('never lets more than its places in, and lets the rest in in the order they came', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        // Each arrival holds its place for a few turns of the event loop (so that all the places fill).
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 60 }),
        async (places, holds) => {
          const gate = createFifoGate(places)
          const admitted: number[] = []
          let inside = 0
          let most = 0
          // What lets `enter` look at the places alone: someone waits only while every place is taken.
          const nobodyWaitsBesideAFreePlace = () => {
            const s = gate.stats()
            if (s.waiting > 0) expect(s.inside).toBe(places)
          }
          await Promise.all(
            holds.map(async (turns, i) => {
              const entered = gate.enter()
              nobodyWaitsBesideAFreePlace()
              await entered
              admitted.push(i)
              most = Math.max(most, ++inside)
              for (let t = 0; t < turns; t++) await new Promise((r) => setImmediate(r))
              inside--
              gate.leave()
              nobodyWaitsBesideAFreePlace()
            }),
          )
          expect(most).toBeLessThanOrEqual(places)
          expect(most).toBe(Math.min(places, holds.length))
          expect(admitted).toEqual(holds.map((_, i) => i))
          expect(gate.stats()).toEqual({ inside: 0, waiting: 0 })
        },
      ),
      { numRuns: 200 },
    )
  })

  it('lets a newcomer wait behind those already in line even when a place has just been freed', async () => {
    const gate = createFifoGate(1)
    const order: string[] = []
    await gate.enter()
    const a = gate.enter().then(() => order.push('a'))
    gate.leave()
    // The place went to `a`; `b` arrives after and waits behind it.
    const b = gate.enter().then(() => order.push('b'))
    await a
    gate.leave()
    await b
    gate.leave()
    expect(order).toEqual(['a', 'b'])
    expect(() => gate.leave()).toThrow(/nobody had entered/)
  })

  it('refuses a gate without places', () => {
    expect(() => createFifoGate(0)).toThrow(RangeError)
  })
})
