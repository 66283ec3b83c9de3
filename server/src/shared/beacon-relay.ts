/**
 * Beacon relay client (DESIGN.md "Draw proof bolillo-draw-v2", point 3): gets round R's signature from the relays
 * named in configuration (drand HTTP API, `GET {relay}/{chainHash}/public/{round}`), or from staff who typed it in
 * from any public source. A value is returned only after its BLS signature verifies; a refused signature is
 * reported through `onRefused` so the service can journal it.
 */
import { DomainError } from './errors.ts'
import { verifyBeaconSignature, type BeaconKey, type BeaconRound } from './beacon.ts'

/** A signature that failed verification, for the journal. */
export interface RefusedBeacon {
  source: 'relay' | 'staff'
  /** The relay's base URL (source "relay"). */
  relay?: string
  round: number
  /** What was offered, as received (cut to 200 characters). */
  signature: string
  reason: string
}

/** A relay that could not be used (network error, timeout, bad JSON), not a refused signature. */
export interface RelayFailure {
  relay: string
  round: number
  reason: string
}

export interface BeaconRelayOptions {
  /** Base URLs, tried in order, e.g. ["https://api.drand.sh", "https://drand.cloudflare.com"]. */
  relays: readonly string[]
  /** Key and chain hash to verify against (quicknet, or a demo beacon's). */
  key: BeaconKey
  /** Per relay, for the whole request and body. Default 3000 ms. */
  timeoutMs?: number
  onRefused?: (refused: RefusedBeacon) => void
  onRelayFailure?: (failure: RelayFailure) => void
  /** Injected for tests; default the global fetch. */
  fetch?: typeof fetch
}

/** A verified round and where it came from. */
export interface VerifiedBeaconRound extends BeaconRound {
  /** Relay base URL, or "staff". */
  source: string
  /** True when verified against a demo key: not public randomness. */
  demo: boolean
}

export interface BeaconRelayClient {
  /** Tries each relay in order; resolves with the first verified value. @throws DomainError DEVICE_UNAVAILABLE when none gives one. */
  fetchRound(round: number): Promise<VerifiedBeaconRound>
  /** Verifies a signature typed in by staff. @throws DomainError INVALID_SIGNATURE (after reporting it) when it does not verify. */
  acceptTyped(round: number, signature: string): VerifiedBeaconRound
}

export function createBeaconRelayClient(options: BeaconRelayOptions): BeaconRelayClient {
  const timeoutMs = options.timeoutMs ?? 3000
  const doFetch = options.fetch ?? fetch
  const refuse = (r: RefusedBeacon) => options.onRefused?.({ ...r, signature: r.signature.slice(0, 200) })

  async function fromRelay(relay: string, round: number): Promise<VerifiedBeaconRound | null> {
    const url = `${relay.replace(/\/+$/, '')}/${options.key.chainHash}/public/${round}`
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    let body: unknown
    try {
      const res = await doFetch(url, { signal: controller.signal, headers: { accept: 'application/json' } })
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      body = await res.json()
    } catch (e) {
      const reason = controller.signal.aborted ? `no answer within ${timeoutMs} ms` : (e as Error).message
      options.onRelayFailure?.({ relay, round, reason })
      return null
    } finally {
      clearTimeout(timer)
    }
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
    const signature = typeof b.signature === 'string' ? b.signature : ''
    if (b.round !== round) {
      options.onRelayFailure?.({ relay, round, reason: `relay answered round ${JSON.stringify(b.round)}` })
      return null
    }
    const check = verifyBeaconSignature(options.key, round, signature)
    if (!check.ok) {
      refuse({ source: 'relay', relay, round, signature, reason: check.reason })
      return null
    }
    if (b.randomness !== undefined && b.randomness !== check.round.randomness) {
      refuse({ source: 'relay', relay, round, signature, reason: 'randomness is not SHA-256 of the signature' })
      return null
    }
    return { ...check.round, source: relay, demo: check.demo }
  }

  return {
    async fetchRound(round) {
      for (const relay of options.relays) {
        const got = await fromRelay(relay, round)
        if (got) return got
      }
      throw new DomainError(
        'DEVICE_UNAVAILABLE',
        `no beacon relay gave a valid signature for round ${round} (${options.relays.length} tried)`,
      )
    },
    acceptTyped(round, typed) {
      const signature = String(typed).replace(/\s+/g, '').toLowerCase()
      const check = verifyBeaconSignature(options.key, round, signature)
      if (!check.ok) {
        refuse({ source: 'staff', round, signature: String(typed), reason: check.reason })
        throw new DomainError('INVALID_SIGNATURE', `the typed signature for round ${round} is refused: ${check.reason}`)
      }
      return { ...check.round, source: 'staff', demo: check.demo }
    },
  }
}
