/**
 * Composition of issue #5 for services.ts: the entropy source of draw seeds, the device registry, ball sets (their
 * rules run inside the bingo use cases as hooks) and the blower chosen by configuration.
 */
import { selectBlower, selectEntropy, type SelectedBlower } from '../../../hardware/src/select.ts'
import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'
import type { Logger } from '../log.ts'
import { createBallSetService } from './ball-sets.ts'
import type { BingoHooks, BingoService } from '../bingo/service.ts'
import type { Clock, EntropySource } from '../shared/clock.ts'
import { createBlowerControl, type BlowerControl } from './blowers.ts'
import { createDeviceRegistry } from './devices.ts'
import { createCameraRegistry } from './cameras.ts'
import { createSoftwareRegistry, recordDemoSoftware, type SoftwareRegistry } from './software.ts'
import { PROFILES } from '../shared/profile.ts'
import { appendJournal } from '../shared/journal.ts'
import { randomBytes } from 'node:crypto'

export function createEquipment(deps: { config: Config; db: Database; clock: Clock; log: Logger }) {
  const { config, db, clock, log } = deps
  const entropy = selectEntropy(config, {
    onFailure: (reason) => {
      log.error(`entropy source failed its health tests: ${reason}`)
      // Journaled after the fact: the failing call is synchronous and may be inside a transaction.
      setImmediate(() => {
        db.transaction((tx) =>
          appendJournal(tx, {
            at: clock.now().toISOString(),
            type: 'entropy.failure',
            scope: 'entropy',
            payload: { source: config.hwrngPath, reason, fallback: config.entropyFallback ?? false, rule: 'RNG-32' },
          }),
        ).catch((err) => log.error('could not journal the entropy failure', err))
      })
    },
  })
  const devices = createDeviceRegistry({ db, clock, demoReferencesRefused: config.production ?? false })
  // Issue 26 (RNG-30): the central's ball-exit camera of simultaneous games.
  const cameras = createCameraRegistry({ db, clock, demoReferencesRefused: config.production ?? false })
  const ballSets = createBallSetService({
    db,
    clock,
    newId: () => `bs_${randomBytes(8).toString('hex')}`,
    demoReferencesRefused: config.production ?? false,
  })
  // Issue 26 (RNG-3, RNG-29, RNG-32): the certified software components, checked and recorded as a game is announced.
  const software = createSoftwareRegistry({ db, clock, demoReferencesRefused: config.production ?? false })
  const hooks: BingoHooks[] = [devices.bingoHooks, ballSets.bingoHooks, software.bingoHooks]
  let blowers: BlowerControl | null = null
  let selected: SelectedBlower | null = null

  return {
    /** Seeds come from here; its `name` is stated in every proof. */
    entropy: entropy as EntropySource,
    devices,
    cameras,
    ballSets,
    software,
    hooks,
    /** The blower control; attaches and opens the configured blower (a missing device is logged, not fatal). */
    async startBlowers(bingo: BingoService): Promise<BlowerControl> {
      blowers = createBlowerControl({ db, bingo, devices, clock, log, minConfidence: config.readerMinConfidence })
      selected = selectBlower(config)
      if (selected) {
        blowers.attach(selected.reader)
        try {
          await selected.open()
        } catch (err) {
          log.warn(`blower on ${selected.reader.label} did not answer: ${(err as Error).message}`)
        }
      }
      return blowers
    },
    /** The entropy source's name and health (RNG-32), with the configured source and fallback. */
    entropyStatus() {
      const e = entropy as { name: string; failure?: string | null; cutoffs?: unknown }
      return {
        source: e.name,
        failure: e.failure ?? null,
        healthTests: e.cutoffs ?? null,
        configured: config.entropy ?? 'os',
        fallback: config.entropyFallback ?? false,
      }
    },
    /** The simulator behind BOLILLO_BALL_SOURCE=sim, for the demo. */
    get simulator() {
      return selected?.simulator ?? null
    },
    async close(): Promise<void> {
      await selected?.close()
      await blowers?.close()
      ;(entropy as { close?(): void }).close?.()
    },
  }
}

export type Equipment = ReturnType<typeof createEquipment>

/**
 * Issue 26 (GEN-6, RNG-25): the server's RNG is a medio de juego registered with its seal and certificate, labelled as
 * the demo's; the operator's (no hall), so that it serves the demo halls' RNG games and the operator's lotto and
 * lottery draws. Registered once (the CLI demo game plays in a data directory of its own, or again in one).
 */
export async function registerDemoRng(services: {
  devices: ReturnType<typeof createDeviceRegistry>
  software: SoftwareRegistry
}): Promise<void> {
  // Issue 26 (RNG-3, RNG-29, RNG-32): the demo's records of the running software builds, labelled demo, for every
  // shipped jurisdiction; and (GEN-4, GEN-7, BNG-9) the operator's shared ticket printer, the one every demo kiosk and
  // station prints on, with the demo's labelled seal, type approval and issuing-system authorisation.
  await recordDemoSoftware(services.software, Object.keys(PROFILES))
  if (!(await services.devices.list({ kind: 'printer' })).some((d) => d.id === 'DEMO-IMPRESORA'))
    await services.devices.register({
      id: 'DEMO-IMPRESORA',
      kind: 'printer',
      name: 'Impresora de tickets (demostración)',
      hallId: null,
      manufacturer: 'Bolillo',
      model: 'ESC/POS 80 mm (demo)',
      sealCode: 'DEMO-PRECINTO-IMPRESORA',
      typeApprovalNo: 'DEMO-HOM-IMPRESORA',
      issuingAuthorisation: 'DEMO-AUT-EMISION-EN-SALA',
    })
  if ((await services.devices.list({ kind: 'rng' })).some((d) => d.id === 'DEMO-RNG')) return
  await services.devices.register({
    id: 'DEMO-RNG',
    kind: 'rng',
    name: 'Generador de números aleatorios del servidor (demostración)',
    hallId: null,
    manufacturer: 'Bolillo',
    model: 'bolillo-draw-v2',
    sealCode: 'DEMO-PRECINTO-RNG',
    certificateId: 'DEMO-CERT-RNG',
    typeApprovalNo: 'DEMO-HOM-RNG',
  })
}

/**
 * Demo hall equipment (issue #5): an active ball set and a reserve one (BNG-25) and, with
 * BOLILLO_BALL_SOURCE=sim, the simulated blower registered with its seal and certificate. Returns the draw source
 * the demo game should use when it is the blower.
 */
export async function seedDemoEquipment(
  services: {
    config: Config
    devices: ReturnType<typeof createDeviceRegistry>
    ballSets: ReturnType<typeof createBallSetService>
    software: SoftwareRegistry
  },
  hallId: string,
): Promise<{ drawSource: 'blower'; deviceId: string } | Record<string, never>> {
  await services.ballSets.register({
    hallId,
    label: 'Demo 1',
    approvalNo: 'DEMO-HOM-1',
    guaranteedGames: 3000,
    status: 'active',
  })
  await services.ballSets.register({
    hallId,
    label: 'Demo 2 (reserva)',
    approvalNo: 'DEMO-HOM-1',
    guaranteedGames: 3000,
    status: 'reserve',
  })
  await registerDemoRng(services)
  if (services.config.ballSource !== 'sim') {
    // BNG-30/31: the demo's manual games are drawn from a registered, sealed, certified and type-approved drum.
    await services.devices.register({
      id: 'DEMO-BOMBO',
      kind: 'blower',
      name: 'Bombo manual (demostración)',
      hallId,
      manufacturer: 'Bolillo',
      model: 'demo',
      sealCode: 'DEMO-PRECINTO-BOMBO',
      certificateId: 'DEMO-CERT-BOMBO',
      typeApprovalNo: 'DEMO-HOM-BOMBO',
    })
    return {}
  }
  const { SIM_BLOWER } = await import('../../../hardware/src/select.ts')
  await services.devices.register({
    id: SIM_BLOWER.deviceId,
    kind: 'blower',
    name: 'Extractor neumático (simulado)',
    hallId,
    manufacturer: 'Bolillo',
    model: 'simulator',
    sealCode: SIM_BLOWER.sealCode,
    certificateId: 'SIM-CERT-DEMO',
    typeApprovalNo: 'SIM-HOM-DEMO',
  })
  return { drawSource: 'blower', deviceId: SIM_BLOWER.deviceId }
}
