import { describe, expect, it } from 'vitest'
import { pooledIdEntropy } from './services.ts'

describe('record ids drawn from a pool of the OS CSPRNG (issue 23 point 5)', () => {
  it('hands out each byte once: ids across several refills are all distinct, and a refill does not change an id already handed out', () => {
    const entropy = pooledIdEntropy()
    const first = entropy.randomBytes(10)
    const kept = Buffer.from(first).toString('hex')
    const seen = new Set<string>([kept])
    // 2,000 ids of 10 bytes: the 4 KiB pool is refilled four times.
    for (let i = 0; i < 2000; i++) {
      const id = entropy.randomBytes(10)
      expect(id).toHaveLength(10)
      seen.add(Buffer.from(id).toString('hex'))
    }
    expect(seen.size).toBe(2001)
    expect(Buffer.from(first).toString('hex')).toBe(kept)
  })

  it('answers a request larger than its pool straight from the generator', () => {
    const entropy = pooledIdEntropy()
    const big = entropy.randomBytes(8192)
    expect(big).toHaveLength(8192)
    expect(new Set(big).size).toBeGreaterThan(200)
  })
})
