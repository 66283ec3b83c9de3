/**
 * `npx bolillo demo --beacon-file F` (DESIGN.md bolillo-draw-v2 point 7): F holds published quicknet rounds, one JSON
 * object a line, `{"round": 657413, "signature": "b713…"}`. The demo plays offline against them: a clock whose close
 * of sales makes R the first round in F, and a beacon source that serves F's rounds only after their BLS signature
 * verifies against the quicknet key, as a relay's would.
 */
import { readFileSync } from 'node:fs'
import { DomainError } from '../shared/errors.ts'
import { QUICKNET_KEY, roundTime, verifyBeaconSignature } from '../shared/beacon.ts'
import type { BeaconSource, BeaconValue } from '../shared/beacon-source.ts'
import type { Clock } from '../shared/clock.ts'

export interface BeaconFileRound {
  round: number
  signature: string
}

/** Parses F; a line that is not `{"round", "signature"}` is an error naming its line number. */
export function parseBeaconFile(text: string): BeaconFileRound[] {
  const rounds: BeaconFileRound[] = []
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return
    let v: unknown
    try {
      v = JSON.parse(line)
    } catch {
      throw new Error(`beacon file line ${i + 1}: not JSON`)
    }
    const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>
    const round = typeof o.round === 'string' ? Number(o.round) : o.round
    if (!Number.isSafeInteger(round) || (round as number) < 1 || typeof o.signature !== 'string')
      throw new Error(`beacon file line ${i + 1}: expected {"round": N, "signature": "hex"}`)
    rounds.push({ round: round as number, signature: o.signature.trim().toLowerCase() })
  })
  if (rounds.length === 0) throw new Error('beacon file holds no round')
  return rounds
}

export function readBeaconFile(path: string): BeaconFileRound[] {
  return parseBeaconFile(readFileSync(path, 'utf8'))
}

/** A beacon source over the file's rounds; each value is verified against the quicknet key before it is served. */
export function fileBeaconSource(rounds: readonly BeaconFileRound[], source: string): BeaconSource {
  const byRound = new Map(rounds.map((r) => [r.round, r.signature]))
  const verified = (round: number, signature: string, from: string): BeaconValue => {
    const check = verifyBeaconSignature(QUICKNET_KEY, round, signature)
    if (!check.ok)
      throw new DomainError('INVALID_SIGNATURE', `beacon round ${round} from ${from} refused: ${check.reason}`)
    return { ...check.round, source: from, demo: false, scheme: 'drand-quicknet', chainHash: QUICKNET_KEY.chainHash }
  }
  return {
    mode: 'quicknet',
    demoKey: null,
    async obtain(round) {
      const signature = byRound.get(round)
      if (signature === undefined)
        throw new DomainError('DEVICE_UNAVAILABLE', `beacon round ${round} is not in ${source}`, { round })
      return verified(round, signature, source)
    },
    acceptTyped: (round, signature) => verified(round, String(signature).replace(/\s+/g, '').toLowerCase(), 'staff'),
  }
}

/**
 * The demo's clock: until `publish()`, stands still within round R − 2 (a close of sales then fixes R); afterwards it
 * runs on from the time round R is published.
 */
export function beaconFileClock(round: number): Clock & { publish(): void } {
  let publishedAt: { clock: number; real: number } | null = null
  return {
    now: () =>
      new Date(publishedAt ? publishedAt.clock + (Date.now() - publishedAt.real) : roundTime(round - 2) * 1000 + 500),
    publish() {
      publishedAt = { clock: roundTime(round) * 1000, real: Date.now() }
    },
  }
}
