import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Services } from './services.ts'
import { seedDemoEquipment } from './equipment/service.ts'
import { latestGameOfHall, oldestHall, openSessionOfHall } from './shared/store.ts'
import { getProfile } from './shared/profile.ts'
import { DEMO_BETTING_PLAN } from './bingo/betting-plan.ts'

/** Demo staff accounts (one per role) and enrolled demo devices; written to DATA_DIR/demo-credentials.json. */
export const DEMO_PASSWORD = 'bolillo-demo'
async function seedDemoCredentials(services: Services, hallId: string) {
  const users = [
    { username: 'director', displayName: 'Directora de Bingo', role: 'director' },
    { username: 'jefe', displayName: 'Jefe de Mesa', role: 'floor_manager' },
    { username: 'locutor', displayName: 'Locutor', role: 'caller' },
    { username: 'cajero', displayName: 'Cajera', role: 'cashier' },
    { username: 'auditor', displayName: 'Auditor', role: 'auditor' },
  ] as const
  for (const u of users) await services.auth.createUser({ ...u, password: DEMO_PASSWORD })
  const devices = []
  for (const d of [{ kind: 'kiosk', name: 'Kiosco 1' }, { kind: 'cashier_station', name: 'Caja 1' }, { kind: 'display', name: 'Pantalla sala' }] as const) {
    const e = await services.auth.enrolDevice({ ...d, hallId })
    devices.push({ ...d, credential: e.credential })
  }
  const file = join(services.config.dataDir, 'demo-credentials.json')
  writeFileSync(file, JSON.stringify({ password: DEMO_PASSWORD, users: users.map((u) => u.username), devices }, null, 2), { mode: 0o600 })
  services.log.info(`demo staff: ${users.map((u) => u.username).join(', ')} (password "${DEMO_PASSWORD}"); device credentials in ${file}`)
}

/**
 * Seeds a demo hall so that `npm start` shows a working system: a hall under the configured profile,
 * a master set with two series, an open session and a game on sale with some cards sold.
 */
export async function seedDemoHall(services: Services, options: { cards?: number } = {}): Promise<{ hallId: string; sessionId: string; gameId: string }> {
  const existing = await oldestHall(services.db)
  if (existing) {
    const session = await openSessionOfHall(services.db, existing.id)
    const game = await latestGameOfHall(services.db, existing.id)
    return { hallId: existing.id, sessionId: session?.id ?? '', gameId: game?.id ?? '' }
  }
  const { bingo, config } = services
  // BNG-52: a Bolivian hall plays only with its AJ-approved Plan de Apuestas; the demo's is labelled as a demo.
  const hall = await bingo.createHall({ id: 'demo', name: config.hallName, profileId: config.profileId, playingPositions: config.playingPositions, bettingPlan: getProfile(config.profileId)?.shares ? undefined : DEMO_BETTING_PLAN })
  const set = await bingo.createMasterSet({ count: 6000, seed: 'bolillo-demo-master-set-1' })
  const a = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
  await bingo.createSeries({ hallId: hall.id, code: 'B', masterSetId: set.id, faceValueCents: 500 })
  const blower = await seedDemoEquipment(services, hall.id)
  const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'Jefe de Mesa (demo)' } })
  const drawSource = config.ballSource === 'manual' ? 'manual' : 'rng'
  const game = await bingo.announceGame({ sessionId: session.id, seriesIds: [a.id], ...('drawSource' in blower ? blower : { drawSource: drawSource === 'rng' && config.profileId === 'ES-CB-2010' ? 'manual' as const : drawSource }) })
  await bingo.openSales(game.gameId)
  const count = options.cards ?? 40
  if (count > 0) await bingo.sell({ gameId: game.gameId, count, channel: 'demo' })
  await seedDemoCredentials(services, hall.id)
  return { hallId: hall.id, sessionId: session.id, gameId: game.gameId }
}
