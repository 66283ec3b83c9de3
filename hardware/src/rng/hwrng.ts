/**
 * Entropy sources for draw seeds (bolillo-draw-v1 `S`, RNG-32).
 *
 * - `os`: the operating system's CSPRNG (`crypto.randomBytes`), named `os-csprng`.
 * - `hwrng`: a hardware generator read from a device or file (`/dev/hwrng` by default). Every raw byte goes
 *   through the SP 800-90B continuous health tests (health.ts) after a start-up test over 1,024 samples; each
 *   32-byte output block is SHA-256 over enough raw bytes to carry 256 + 64 bits of assessed min-entropy
 *   (SP 800-90B §3.1.5.1.2 vetted conditioning), so the output has full entropy when the assessment holds.
 *   Named `hwrng:<path>`.
 *
 * When the hardware source fails a test, cannot be read or runs dry, it stays failed: seeds then come from the OS
 * CSPRNG only if the fallback was configured (the name then says so, and each proof states it); otherwise every
 * request fails with ENTROPY_HEALTH_FAILED and no game can be created.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto'
import { closeSync, openSync, readSync } from 'node:fs'
import { DomainError } from '../../../server/src/shared/errors.ts'
import type { RngSource } from '../ports.ts'
import { createHealthMonitor, type HealthFailure } from './health.ts'

/** Start-up test length (SP 800-90B §4.3: at least 1,024 consecutive samples). */
export const STARTUP_SAMPLES = 1024

export const osRngSource: RngSource = {
  name: 'os-csprng',
  randomBytes: (n) => new Uint8Array(randomBytes(n)),
  nextInt: async (max) => randomInt(max),
}

export interface HwrngOptions {
  path: string
  /** Assessed min-entropy per raw byte, in bits (0 < H <= 8); sets the test cutoffs and the raw bytes per block. */
  entropyBits: number
  /** OS CSPRNG fallback after a failure (BOLILLO_ENTROPY_FALLBACK=true). */
  fallback?: boolean
  /** Called once, at the first failure (the server logs and journals it). */
  onFailure?: (reason: string) => void
  /** Raw byte reader, for tests; defaults to synchronous reads of `path`. */
  read?: (n: number) => Uint8Array
}

export interface HwrngSource extends RngSource {
  /** Why the hardware source is failed, or null while it is healthy. */
  readonly failure: string | null
  readonly cutoffs: { repetitionCount: number; adaptiveProportion: number }
  close(): void
}

function describe(f: HealthFailure): string {
  return f.test === 'repetition-count'
    ? `repetition count test: value ${f.value} repeated ${f.run} times (cutoff ${f.cutoff}) at sample ${f.sample}`
    : `adaptive proportion test: value ${f.value} seen ${f.count} times in a window of ${f.window} (cutoff ${f.cutoff}) at sample ${f.sample}`
}

/** Reads exactly `n` bytes from an open file descriptor (a device may return fewer per read). */
function readExactly(fd: number, n: number): Uint8Array {
  const out = Buffer.alloc(n)
  let got = 0
  while (got < n) {
    const k = readSync(fd, out, got, n - got, null)
    if (k === 0) throw new Error('end of file: the entropy source ran dry')
    got += k
  }
  return new Uint8Array(out)
}

export function createHwrngSource(options: HwrngOptions): HwrngSource {
  const hwName = `hwrng:${options.path}`
  const monitor = createHealthMonitor({ entropyBits: options.entropyBits })
  const rawPerBlock = Math.ceil((256 + 64) / options.entropyBits)
  let fd: number | null = null
  let failure: string | null = null
  let lastName = hwName
  let started = false
  let counter = 0

  const readRaw = (n: number): Uint8Array => {
    if (options.read) return options.read(n)
    if (fd === null) fd = openSync(options.path, 'r')
    return readExactly(fd, n)
  }

  function fail(reason: string): never {
    failure = reason
    options.onFailure?.(reason)
    throw new DomainError('ENTROPY_HEALTH_FAILED', `${hwName}: ${reason}`, { source: hwName, reason })
  }

  function healthyRaw(n: number): Uint8Array {
    let raw: Uint8Array
    try {
      raw = readRaw(n)
    } catch (err) {
      fail(`cannot read: ${(err as Error).message}`)
    }
    const f = monitor.feed(raw)
    if (f) fail(describe(f))
    return raw
  }

  function hardwareBytes(n: number): Uint8Array {
    if (!started) {
      // Start-up test: these samples are tested and discarded.
      healthyRaw(STARTUP_SAMPLES)
      started = true
    }
    const out = new Uint8Array(n)
    for (let off = 0; off < n; off += 32) {
      const raw = healthyRaw(rawPerBlock)
      const ctr = Buffer.alloc(8)
      ctr.writeBigUInt64BE(BigInt(counter++))
      const block = createHash('sha256').update('bolillo-hwrng-v1').update(ctr).update(raw).digest()
      out.set(block.subarray(0, Math.min(32, n - off)), off)
    }
    return out
  }

  const source: HwrngSource = {
    get name() {
      return lastName
    },
    get failure() {
      return failure
    },
    cutoffs: { repetitionCount: monitor.rctCutoff, adaptiveProportion: monitor.aptCutoff },
    randomBytes(n: number): Uint8Array {
      if (failure === null) {
        try {
          const bytes = hardwareBytes(n)
          lastName = hwName
          return bytes
        } catch (err) {
          if (!options.fallback) throw err
        }
      } else if (!options.fallback) {
        throw new DomainError('ENTROPY_HEALTH_FAILED', `${hwName} failed earlier: ${failure}`, {
          source: hwName,
          reason: failure,
        })
      }
      lastName = `os-csprng (fallback: ${hwName} failed)`
      return new Uint8Array(randomBytes(n))
    },
    async nextInt(max: number): Promise<number> {
      if (!Number.isInteger(max) || max < 1 || max > 2 ** 32) throw new RangeError(`bad bound ${max}`)
      const limit = 2 ** 32 - (2 ** 32 % max)
      for (;;) {
        const b = source.randomBytes(4)
        const u = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0
        if (u < limit) return u % max
      }
    },
    close() {
      if (fd !== null) closeSync(fd)
      fd = null
    },
  }
  return source
}
