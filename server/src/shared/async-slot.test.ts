import { describe, expect, it } from 'vitest'
import { asyncSlot } from './async-slot.ts'

describe('asyncSlot: one storage, independent slots', () => {
  const a = asyncSlot<string>('a')
  const b = asyncSlot<number>('b')

  it('follows awaits, and running one slot keeps the other as the caller has it', async () => {
    await a.run('request', async () => {
      await Promise.resolve()
      expect(a.get()).toBe('request')
      expect(b.get()).toBeUndefined()
      await b.run(7, async () => {
        await new Promise((r) => setImmediate(r))
        expect([a.get(), b.get()]).toEqual(['request', 7])
        // Unsetting one slot (a batch unit run outside any request) leaves the other.
        await a.run(undefined, async () => {
          await Promise.resolve()
          expect([a.get(), b.get()]).toEqual([undefined, 7])
        })
        expect(a.get()).toBe('request')
      })
      expect(b.get()).toBeUndefined()
    })
    expect(a.get()).toBeUndefined()
  })

  it('keeps concurrent contexts apart', async () => {
    const seen = await Promise.all(
      ['x', 'y', 'z'].map((v, i) =>
        a.run(v, () =>
          b.run(i, async () => {
            await new Promise((r) => setTimeout(r, 5 - i))
            return `${a.get()}${b.get()}`
          }),
        ),
      ),
    )
    expect(seen).toEqual(['x0', 'y1', 'z2'])
  })
})
