/**
 * The cash desk's unit suites (server/src/cashdesk/*.test.ts): the services over a fresh database (SQLite, or
 * PostgreSQL when BOLILLO_TEST_DATABASE_URL is set), with the clock injected, a hall and an enrolled cashier
 * station, and the person at it as the station login names them. No HTTP: the suites call the use cases.
 */
import { randomBytes } from 'node:crypto'
import type { StationPerson } from '../../server/src/cashdesk/shifts.ts'
import { createServices, type Services } from '../../server/src/services.ts'
import { openTestDatabase } from './database.ts'
import { testConfig } from './server.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from './sale-rules.ts'
import { registerTestPrinterAndSoftware, registerTestRng, sealed } from './device-marks.ts'

export interface DeskSetup {
  services: Services
  hallId: string
  /** A cashier station of the hall, and the person at it. */
  rosa: StationPerson
  /** Another station of the same hall, another person. */
  jorge: StationPerson
  /** Moves the injected clock on. */
  advance(ms: number): void
}

export async function deskOverDatabase(start = '2026-11-21T14:00:00Z'): Promise<DeskSetup> {
  let now = Date.parse(start)
  const db = await openTestDatabase()
  const services = await createServices(testConfig(), {
    db,
    entropy: { name: 'test', randomBytes: (n) => new Uint8Array(randomBytes(n)) },
    clock: { now: () => new Date(now) },
  })
  await registerTestRng(services)
  await registerTestPrinterAndSoftware(services)
  const hall = await services.bingo.createHall({
    name: 'Sala Illimani',
    profileId: 'BO-2025',
    playingPositions: 100,
    shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    // GEN-18 / BNG-40: the hall's bet limits with the AJ's reference (no card is sold without them).
    saleRules: TEST_SALE_RULES,
    licence: TEST_LICENCE,
  })
  const station = async (name: string, person: { id: string; name: string }): Promise<StationPerson> => {
    const device = await services.auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name, hallId: hall.id })
    return {
      station: { id: device.id, name, kind: 'cashier_station', hallId: hall.id },
      person: { ...person, role: 'cashier', halls: [hall.id] },
    }
  }
  return {
    services,
    hallId: hall.id,
    rosa: await station('Caja 1', { id: 'u_rosa', name: 'Rosa Mamani' }),
    jorge: await station('Caja 2', { id: 'u_jorge', name: 'Jorge Choque' }),
    advance: (ms) => {
      now += ms
    },
  }
}
