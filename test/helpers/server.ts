import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { io, type Socket } from 'socket.io-client'
import { TICKET_DEFAULTS, type Config } from '../../server/src/config.ts'
import { createServer, type RunningServer } from '../../server/src/server.ts'
import type { ServiceOverrides } from '../../server/src/services.ts'
import { freshPostgresUrl, testPostgresUrl } from './database.ts'
import { registerTestPrinterAndSoftware, registerTestRng } from './device-marks.ts'
import { registerTestCertifier, signedGeneratorCertificate } from './generator-certificate.ts'

export function testConfig(overrides: Partial<Config> = {}): Config {
  // A restart test passes the first server's dataDir (and port) back in: no fresh directory then.
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'bolillo-test-'))
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    // LOT-26: the secure printer's outbox beside the data directory (cleanup removes both).
    printShopDir: `${dataDir}-print-shop`,
    databaseUrl: null,
    profileId: 'BO-2025',
    hallName: 'Sala de pruebas',
    playingPositions: 100,
    ballSource: 'rng',
    logLevel: 'error',
    seedDemo: false,
    sqliteSynchronous: 'NORMAL',
    auth: 'off',
    rateLimitPerMinute: 1_000_000,
    authFailuresPerMinute: 1_000_000,
    // RNG-26: the shipped profiles draw lotto and lotteries by tómbola unless the licence names the AJ authorisation of
    // the RNG; the test licence names one so that RNG draws can be tested (lottery-rules.test.ts sets none).
    lotteryRngAuthorisation: 'AJ-RA-PRUEBAS-RNG',
    // LNS-12: BO-2025 plans lotto draws only within the licence record's range; the test licence authorises 2 to 128
    // balls (lotto-licence-draw.test.ts sets a narrow one).
    lottoLicence: { ref: 'AJ-LO-PRUEBAS', rangeMin: 2, rangeMax: 128 },
    // LOT-12: BO-2025 plans lotteries only within the licence record's maximum issue (lottery-licence.test.ts sets a small one),
    // LOT-1: in the name of the public entity it was granted to (the institution of test/helpers/lottery-plans.ts).
    lotteryLicence: {
      ref: 'AJ-LO-PRUEBAS',
      maxTickets: 1_000_000,
      holder: 'Lotería Nacional de Beneficencia y Salubridad',
    },
    // INS-3: BO-2025 generates instant batches only under a certificate of the running build signed by a registered
    // certifier: the test laboratory's (startTestServer records it).
    instantGeneratorCertification: signedGeneratorCertificate(),
    // Issue 24 point 4: the shipped server's demo beacon signs only the demo's own hall and draws; tests play halls of
    // their own offline with it (production-mode.test.ts checks the shipped scope).
    demoBeaconScope: 'any',
    ...TICKET_DEFAULTS,
    ...overrides,
  }
}

/**
 * Issue 25 point 3: the scrypt cost of the passwords the test servers hash (N = 2^10 instead of the shipped 2^14).
 * Every login, second-person confirmation and person created hashes once at the shipped cost, about 100 ms of CPU on
 * this 2-core machine; a rule file logs its people in again each time it moves the clock. The rules on passwords do
 * not depend on the cost. The shipped cost is checked by server/src/access/password-hashing.test.ts (a server without
 * this override stores N = 16384) and is what every test of the CLI and of a spawned server runs with.
 */
export const TEST_PASSWORD_HASHING = { N: 1024, r: 8, p: 1 } as const

/** A real server on a free loopback port with a fresh data directory. */
export async function startTestServer(
  overrides: Partial<Config> = {},
  services: ServiceOverrides = {},
): Promise<RunningServer & { dataDir: string; cleanup(): Promise<void> }> {
  const config = testConfig(overrides)
  if (testPostgresUrl && overrides.databaseUrl === undefined) config.databaseUrl = await freshPostgresUrl()
  const server = await createServer(config, { passwordHashing: TEST_PASSWORD_HASHING, ...services })
  // Issue 26 (GEN-6): both shipped profiles draw by software only with a registered, certified RNG device.
  await registerTestRng(server.services)
  // Issue 26 (GEN-4, BNG-9; RNG-3, RNG-29, RNG-32): a registered ticket printer and the running software's certificates.
  await registerTestPrinterAndSoftware(server.services)
  // INS-3 / RNG-27: the test laboratory, recorded as an AJ-authorised certifier of the instant generator.
  await registerTestCertifier(server.services)
  return {
    ...server,
    dataDir: config.dataDir,
    async cleanup() {
      await server.close()
      rmSync(config.dataDir, { recursive: true, force: true })
      if (config.printShopDir) rmSync(config.printShopDir, { recursive: true, force: true })
    },
  }
}

/** JSON over real HTTP; returns status and parsed body. */
export async function api<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

export function connect(url: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false })
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

export function waitFor<T = any>(
  socket: Socket,
  event: string,
  predicate: (payload: T) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, handler)
      reject(new Error(`timed out waiting for ${event}`))
    }, timeoutMs)
    const handler = (payload: T) => {
      if (!predicate(payload)) return
      clearTimeout(timer)
      socket.off(event, handler)
      resolve(payload)
    }
    socket.on(event, handler)
  })
}
