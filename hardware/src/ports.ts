/**
 * What the draw server depends on from hardware (STYLE.md §7). Each port has a real adapter (serial/) and a
 * simulator (simulators/); select.ts picks one from configuration. A device that drops out surfaces as
 * `DEVICE_UNAVAILABLE`.
 */
import type { BlowerState, FaultCode } from './protocols/blower-protocol.ts'

export type Unsubscribe = () => void

/** What a blower says about itself in its HELLO (GEN-7: `sealCode` is the regulator's security seal). */
export interface DeviceIdentity {
  deviceId: string
  firmware: string
  sealCode: string
  ballCount: number
  bootId: string
}

/** One ball read by the automatic reader. `seq` is the frame's sequence number (unique since the device booted). */
export interface BallRead {
  deviceId: string
  ball: number
  /** Reader confidence, 0..100 %. */
  confidence: number
  seq: number
}

export interface DeviceFault {
  deviceId: string | null
  code: FaultCode
  detail: string
}

export interface ConnectionChange {
  connected: boolean
  identity: DeviceIdentity | null
  /** `hello`, `heartbeat-timeout`, `port-closed`, `port-error`, `closed`. */
  reason: string
}

/** A blower's air / drum: mixing on and off. */
export interface Blower {
  /** Start mixing. Rejects with DEVICE_UNAVAILABLE when the device is away or refuses. */
  start(): Promise<void>
  /** Stop the air / drum. */
  stop(): Promise<void>
}

/** A blower with an automatic ball reader: it releases balls on command and reports what it read. */
export interface BallReader extends Blower {
  /** Where it is attached (serial path or simulator name), for logs. */
  readonly label: string
  /** Identity from the last HELLO, or null before the first one. */
  readonly identity: DeviceIdentity | null
  /** True between a HELLO and a heartbeat timeout or a port loss. */
  readonly connected: boolean
  /** Last state the device reported. */
  readonly state: BlowerState | null
  onBall(cb: (read: BallRead) => void): Unsubscribe
  onStatus(cb: (state: BlowerState) => void): Unsubscribe
  onFault(cb: (fault: DeviceFault) => void): Unsubscribe
  onConnection(cb: (change: ConnectionChange) => void): Unsubscribe
  /** Release the next ball. Resolves when the device has accepted the command; the ball arrives on `onBall`. */
  release(): Promise<void>
  /** Ask the device to identify itself again; resolves with its HELLO. */
  identify(): Promise<DeviceIdentity>
  close(): Promise<void>
}

/** A source of random bytes for seeds (bolillo-draw-v1 `S`), with the name stated in each proof. */
export interface RngSource {
  /** Name of the source that produced the most recent bytes, e.g. `os-csprng` or `hwrng:/dev/hwrng`. */
  readonly name: string
  /** `n` random bytes. Throws DomainError ENTROPY_HEALTH_FAILED when the source fails its health tests. */
  randomBytes(n: number): Uint8Array
  /** Uniform integer in [0, max), without modulo bias. */
  nextInt(max: number): Promise<number>
}
