/**
 * bolillo-draw-v2 as lotto, numbered lotteries and raffles use it (DESIGN.md "Draw proof bolillo-draw-v2" and
 * "Sealed secrets"): the seed taken from the health-tested entropy source and sealed at once (RNG-32), the close
 * facts D, t and R, the beacon value kept with the draw, and the person who acted.
 *
 * A draw's id is its `gameId` in the proof (DESIGN.md point 4).
 */
import { QUICKNET_KEY, drawRoundFor, roundTime, type BeaconKey } from './beacon.ts'
import type { BeaconValue } from './beacon-source.ts'
import { commitmentOf, SEED_BYTES } from './draw-proof.ts'
import { isoOfUnixSeconds, unixSecondsOf, type ProofBeacon } from './draw-proof-v2.ts'
import { DomainError } from './errors.ts'
import type { Sealer } from './sealing.ts'

/** Who caused a record: the authenticated principal of the request (never a name from a body). */
export interface Actor {
  kind: string
  id: string
  role: string
}

/** The sealing context of a draw's seed: `lotto-seed|<drawId>` or `lottery-seed|<drawId>` (raffles too). */
export const seedContext = (line: 'lotto' | 'lottery', drawId: string) => `${line}-seed|${drawId}`

/** A new seed: its commitment and its sealed text. The clear seed leaves this function only sealed. */
export function newSealedSeed(
  entropy: { randomBytes(n: number): Uint8Array; name: string },
  sealer: Sealer,
  context: string,
): { commitment: string; sealed: string; source: string } {
  const seed = entropy.randomBytes(SEED_BYTES)
  if (seed.length !== SEED_BYTES)
    throw new DomainError(
      'ENTROPY_HEALTH_FAILED',
      `the entropy source gave ${seed.length} bytes for a ${SEED_BYTES}-byte seed`,
    )
  const out = { commitment: commitmentOf(seed), sealed: sealer.seal(seed, context), source: entropy.name }
  seed.fill(0)
  return out
}

/** The seed of a draw row: opened from its sealed value, or the clear seed of a draw planned before v2. */
export function seedOf(sealer: Sealer, context: string, row: { seedSealed: string | null; seedHex: string }): Buffer {
  return row.seedSealed ? sealer.open(row.seedSealed, context) : Buffer.from(row.seedHex, 'hex')
}

/** What the close of sales fixes besides D: `t` (whole Unix seconds of the close record) and `R`. */
export interface CloseFacts {
  closedAtUnix: number
  closedAt: string
  beaconRound: number
  beaconPublishedAt: string
}

export function closeFacts(closedAtIso: string): CloseFacts {
  const t = unixSecondsOf(closedAtIso)
  const beaconRound = drawRoundFor(t)
  return {
    closedAtUnix: t,
    closedAt: isoOfUnixSeconds(t),
    beaconRound,
    beaconPublishedAt: isoOfUnixSeconds(roundTime(beaconRound)),
  }
}

/** The round a closed draw waits for (a draw closed before v2 derives it from its close time). */
export function beaconRoundOf(row: { beaconRound: number | null; closedAt: string | null }): number {
  if (row.beaconRound !== null && row.beaconRound !== undefined) return row.beaconRound
  return closeFacts(row.closedAt!).beaconRound
}

/** The key a stored beacon value was verified against. */
export function beaconKeyOf(v: BeaconValue): BeaconKey {
  return v.scheme === 'demo' ? { scheme: 'demo', chainHash: v.chainHash, publicKey: v.publicKey! } : QUICKNET_KEY
}

/** The beacon as the draw view, the extracto and the minutes show it. */
export function beaconSummary(v: BeaconValue): ProofBeacon & { demo: boolean; source: string } {
  return {
    scheme: v.scheme,
    chainHash: v.chainHash,
    round: v.round,
    signature: v.signature,
    randomness: v.randomness,
    ...(v.publicKey ? { publicKey: v.publicKey } : {}),
    demo: v.scheme === 'demo',
    source: v.source,
  }
}

export const parseBeacon = (json: string | null): BeaconValue | null =>
  json ? (JSON.parse(json) as BeaconValue) : null

/**
 * Refuses a close-of-sales body that carries entropy from a person: v2 takes none (DESIGN.md point 2).
 * @throws DomainError VALIDATION_FAILED naming the field.
 */
export function refusePersonEntropy(body: Record<string, unknown>): void {
  for (const field of ['externalEntropy', 'entropySource']) {
    if (field in body) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `${field} is no longer accepted: bolillo-draw-v2 takes its randomness from the public beacon round fixed by the close of sales, never from a person`,
        { field },
      )
    }
  }
}

/** The proof's public values as the extracto states them (a draw made before v2 shows its v1 external entropy). */
export function proofFacts(row: {
  commitment: string
  seedHex: string
  salesDigest: string | null
  externalEntropy: string | null
  beacon: string | null
  beaconRound: number | null
  closedAt: string | null
}) {
  const v = parseBeacon(row.beacon)
  return {
    version: v || row.externalEntropy === null ? 'bolillo-draw-v2' : 'bolillo-draw-v1',
    commitment: row.commitment,
    seed: row.seedHex,
    salesDigest: row.salesDigest,
    beacon: v
      ? {
          scheme: v.scheme,
          round: v.round,
          signature: v.signature,
          randomness: v.randomness,
          demo: v.scheme === 'demo',
        }
      : null,
    beaconRound: row.closedAt ? beaconRoundOf(row) : null,
    externalEntropy: v ? null : row.externalEntropy,
  }
}
