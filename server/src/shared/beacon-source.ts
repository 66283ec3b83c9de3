/**
 * Where a draw's beacon round comes from (bolillo-draw-v2, DESIGN.md points 3, 8 and 9): the drand quicknet relays
 * named in configuration, or a signature typed in by staff from any public source; both verified against the
 * quicknet key. A hall configured for it (the demo hall of `npm start`) falls back to its local demo beacon when no
 * relay answers, and every value it gives says so (`scheme: "demo"`).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { DomainError } from './errors.ts'
import {
  QUICKNET_KEY,
  createDemoBeacon,
  demoSecretKeyFrom,
  roundTime,
  type BeaconKey,
  type DemoBeacon,
} from './beacon.ts'
import {
  createBeaconRelayClient,
  type RefusedBeacon,
  type RelayFailure,
  type VerifiedBeaconRound,
} from './beacon-relay.ts'

export interface BeaconValue extends VerifiedBeaconRound {
  scheme: BeaconKey['scheme']
  chainHash: string
  /** The demo beacon's public key (a quicknet value is checked against the published key). */
  publicKey?: string
}

/**
 * Whose draw asks for a beacon round: a hall's bingo game, or a lotto / lottery draw. Issue 24 point 4: the demo
 * beacon (its key in DATA_DIR) signs only the demo's own; whoever holds DATA_DIR could otherwise know any other
 * draw's result at the close of sales.
 */
export type BeaconScope = { hallId: string } | { drawId: string }

/** The journal's name of a scope (`hall:<id>`, `draw:<id>`), as the demo's `demo.seeded` record lists them. */
export function beaconScopeKey(scope: BeaconScope): string {
  return 'hallId' in scope ? `hall:${scope.hallId}` : `draw:${scope.drawId}`
}

export interface BeaconSource {
  /** What the hall uses: quicknet only, or quicknet with the labelled demo beacon when no relay answers. */
  readonly mode: 'quicknet' | 'demo-fallback'
  /** The demo beacon's key, when the hall may use one. */
  readonly demoKey: BeaconKey | null
  /**
   * Round `round`'s verified value. @throws DomainError BEACON_PENDING before the round is published (quicknet),
   * DEVICE_UNAVAILABLE when no relay gives a verified value and the hall has no demo beacon, BEACON_PENDING when
   * the demo beacon may not sign for `scope` (it waits for the public round, or a typed signature).
   */
  obtain(round: number, now: Date, scope?: BeaconScope): Promise<BeaconValue>
  /** A quicknet signature typed in by staff. @throws DomainError INVALID_SIGNATURE (reported through onRefused). */
  acceptTyped(round: number, signature: string): BeaconValue
}

export interface BeaconSourceOptions {
  relays: readonly string[]
  timeoutMs?: number
  /** The demo beacon, or null where the hall must wait for the public one. */
  demo: DemoBeacon | null
  onRefused?: (refused: RefusedBeacon) => void
  onRelayFailure?: (failure: RelayFailure) => void
  /**
   * Whether the demo beacon may sign for `scope` (issue 24 point 4). Unset: for every draw (unit tests of one hall);
   * the server passes the demo's own scopes.
   */
  demoScope?: (scope: BeaconScope | undefined) => boolean | Promise<boolean>
}

export function createBeaconSource(options: BeaconSourceOptions): BeaconSource {
  const client = createBeaconRelayClient({
    relays: options.relays,
    key: QUICKNET_KEY,
    timeoutMs: options.timeoutMs,
    onRefused: options.onRefused,
    onRelayFailure: options.onRelayFailure,
  })
  const quicknet = (v: VerifiedBeaconRound): BeaconValue => ({
    ...v,
    scheme: 'drand-quicknet',
    chainHash: QUICKNET_KEY.chainHash,
  })
  const demo = options.demo
  return {
    mode: demo ? 'demo-fallback' : 'quicknet',
    demoKey: demo?.key ?? null,
    async obtain(round, now, scope) {
      if (options.relays.length > 0) {
        // A relay cannot have a round before its time: the draw waits for it, demo fallback or not.
        const publishedAt = roundTime(round)
        if (Math.floor(now.getTime() / 1000) < publishedAt) {
          throw new DomainError(
            'BEACON_PENDING',
            `beacon round ${round} is published at ${new Date(publishedAt * 1000).toISOString()}`,
            { round, publishedAt: new Date(publishedAt * 1000).toISOString() },
          )
        }
        try {
          return quicknet(await client.fetchRound(round))
        } catch (e) {
          if (!demo || !(e instanceof DomainError)) throw e
        }
      }
      if (!demo)
        throw new DomainError(
          'DEVICE_UNAVAILABLE',
          "no beacon relay is configured (BOLILLO_BEACON_RELAYS); type the round's signature in",
          { round },
        )
      if (options.demoScope && !(await options.demoScope(scope))) {
        const publishedAt = new Date(roundTime(round) * 1000).toISOString()
        throw new DomainError(
          'BEACON_PENDING',
          `the demo beacon signs only the demo's own draws: this draw waits for public beacon round ${round} (relays, or its signature typed in)`,
          { round, publishedAt },
        )
      }
      const v = demo.sign(round)
      return {
        ...v,
        source: 'demo',
        demo: true,
        scheme: 'demo',
        chainHash: demo.key.chainHash,
        publicKey: demo.key.publicKey,
      }
    },
    acceptTyped(round, signature) {
      return quicknet(client.acceptTyped(round, signature))
    },
  }
}

export const DEMO_BEACON_KEY_FILE = 'demo-beacon.key'

/** The demo beacon's secret key: DATA_DIR/keys/demo-beacon.key (0600), made once from the entropy source. */
export function loadOrCreateDemoBeacon(dataDir: string, entropy: (bytes: number) => Uint8Array): DemoBeacon {
  const dir = join(dataDir, 'keys')
  const file = join(dir, DEMO_BEACON_KEY_FILE)
  try {
    return createDemoBeacon(Buffer.from(readFileSync(file, 'utf8').trim(), 'hex'))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const secret = demoSecretKeyFrom(entropy(48))
  try {
    writeFileSync(file, Buffer.from(secret).toString('hex') + '\n', { mode: 0o600, flag: 'wx' })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateDemoBeacon(dataDir, entropy)
    throw e
  }
  return createDemoBeacon(secret)
}
