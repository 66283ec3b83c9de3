/**
 * Picks the adapter for each hardware port from configuration (STYLE.md §7):
 *
 * | setting | value | adapter |
 * | --- | --- | --- |
 * | BOLILLO_BALL_SOURCE | `rng` / `manual` | no blower: balls from the bolillo-draw-v1 stream or typed by the caller |
 * | | `serial` | serial/blower.ts on BOLILLO_BLOWER_PORT at BOLILLO_BLOWER_BAUD |
 * | | `sim` | the same driver over the in-memory simulator binding (demo, no device) |
 * | BOLILLO_ENTROPY | `os` | the OS CSPRNG |
 * | | `hwrng` | rng/hwrng.ts on BOLILLO_HWRNG_PATH, health-tested; OS fallback only with BOLILLO_ENTROPY_FALLBACK=true |
 */
import type { BallReader, RngSource } from './ports.ts'
import { createHwrngSource, osRngSource } from './rng/hwrng.ts'
import { createSerialBlower, type SerialBlower } from './serial/blower.ts'
import { createBlowerSimulator, type BlowerSimulator } from './simulators/blower-sim.ts'
import { createSimBinding } from './simulators/sim-binding.ts'

export interface HardwareConfig {
  ballSource: 'rng' | 'manual' | 'serial' | 'sim'
  blowerPort?: string | null
  blowerBaud?: number
  blowerHeartbeatMs?: number
  entropy?: 'os' | 'hwrng'
  hwrngPath?: string
  hwrngEntropyBits?: number
  entropyFallback?: boolean
}

/** The simulated blower's identity, as the demo registers it. */
export const SIM_BLOWER = { deviceId: 'SIM-BLOWER-1', sealCode: 'SIM-SEAL-0001', port: 'sim://blower-1' } as const

export interface SelectedBlower {
  reader: SerialBlower
  /** Present for `sim`: the simulator behind the reader. */
  simulator: BlowerSimulator | null
  /** Opens the port and waits for HELLO; a missing device is reported, not fatal (the driver keeps retrying). */
  open(): Promise<void>
  close(): Promise<void>
}

/** The blower for `serial` and `sim`, or null when balls come from the RNG or the caller's hand. */
export function selectBlower(config: HardwareConfig, options: { seed?: string } = {}): SelectedBlower | null {
  const heartbeatTimeoutMs = config.blowerHeartbeatMs ?? 3000
  if (config.ballSource === 'serial') {
    if (!config.blowerPort) throw new Error('BOLILLO_BALL_SOURCE=serial needs BOLILLO_BLOWER_PORT')
    const reader = createSerialBlower({
      path: config.blowerPort,
      baudRate: config.blowerBaud ?? 9600,
      heartbeatTimeoutMs,
    })
    return {
      reader,
      simulator: null,
      open: async () => {
        await reader.open()
      },
      close: () => reader.close(),
    }
  }
  if (config.ballSource === 'sim') {
    const simulator = createBlowerSimulator({
      seed: options.seed ?? `sim-${Date.now()}`,
      deviceId: SIM_BLOWER.deviceId,
      sealCode: SIM_BLOWER.sealCode,
      heartbeatMs: Math.max(50, Math.floor(heartbeatTimeoutMs / 3)),
    })
    const binding = createSimBinding()
    binding.attach(SIM_BLOWER.port, simulator)
    const reader = createSerialBlower({ path: SIM_BLOWER.port, binding, heartbeatTimeoutMs })
    return {
      reader,
      simulator,
      async open() {
        simulator.power()
        await reader.open()
      },
      async close() {
        await reader.close()
        simulator.shutdown()
      },
    }
  }
  return null
}

/** The entropy source for seeds. */
export function selectEntropy(
  config: HardwareConfig,
  hooks: { onFailure?: (reason: string) => void } = {},
): RngSource & { close?(): void } {
  if ((config.entropy ?? 'os') === 'os') return osRngSource
  return createHwrngSource({
    path: config.hwrngPath ?? '/dev/hwrng',
    entropyBits: config.hwrngEntropyBits ?? 4,
    fallback: config.entropyFallback ?? false,
    onFailure: hooks.onFailure,
  })
}

export type { BallReader }
