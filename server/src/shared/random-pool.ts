/**
 * The OS CSPRNG read 4 KiB at a time: a call of node:crypto's randomBytes costs 8-10 µs whatever its size, and a paid
 * sale draws several record ids and an IV for each value it seals. The same generator's bytes, each handed out once.
 * For ids and IVs only, never for draw seeds (those come from equipment.entropy, the health-tested source).
 */
import { randomBytes, randomFillSync } from 'node:crypto'

export function pooledRandomBytes(): (n: number) => Uint8Array {
  const pool = Buffer.alloc(4096)
  let at = pool.length
  return (n) => {
    if (n > 256) return randomBytes(n)
    if (at + n > pool.length) {
      randomFillSync(pool)
      at = 0
    }
    // A copy: the pool's bytes are overwritten on the next refill.
    const out = Uint8Array.prototype.slice.call(pool, at, at + n)
    at += n
    return out
  }
}
