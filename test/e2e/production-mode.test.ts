import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/src/config.ts'
import { DEMO_PASSWORD, seedDemoHall } from '../../server/src/demo.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 24 point 4: demo trust stays in the demo. A server without the demo (BOLILLO_SEED_DEMO=false) refuses to
 * start with a DEMO reference or with key files inside DATA_DIR, and says what to set; the demo's accounts are
 * disabled there, not handed over; the demo beacon (its key in DATA_DIR) signs only the demo's own hall and draws;
 * the launcher shows no device credential when the server listens beyond this machine. Authentication on.
 */
const KEY_FILES = ['operator-ed25519.pem', 'sealing-aes256gcm.key', 'instant-code-pepper.hex']
const REAL = 'correct horse battery'

function runStart(env: Record<string, string>, args = ['start']): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['bin/bolillo.mjs', ...args], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', BOLILLO_LOG_LEVEL: 'error', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    p.stdout.on('data', (d) => (out += d))
    p.stderr.on('data', (d) => (out += d))
    const timer = setTimeout(() => p.kill('SIGKILL'), 60_000)
    p.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code: code ?? 1, out })
    })
  })
}

describe('a production start refuses demo references and key files in DATA_DIR (issue 24 point 4)', () => {
  it('npm start without the demo exits, naming every DEMO reference and what to set instead (issue 24: LNS-12, INS-3, INS-16, RNG-26, RNG-27)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-prod-'))
    const keyDir = mkdtempSync(join(tmpdir(), 'bolillo-prod-keys-'))
    try {
      const r = await runStart({
        DATA_DIR: dataDir,
        BOLILLO_KEY_DIR: keyDir,
        BOLILLO_SEED_DEMO: 'false',
        BOLILLO_LOTTERY_RNG_AUTHORISATION: 'DEMO (sin autorización real)',
        BOLILLO_LOTTO_LICENCE: 'DEMO (sin licencia real):2-128',
        BOLILLO_INSTANT_GENERATOR_CERT: `DEMO (sin certificación real):${'a'.repeat(64)}`,
      })
      expect(r.code).not.toBe(0)
      // All three reported at once, each with what to set.
      expect(r.out).toMatch(/BOLILLO_LOTTERY_RNG_AUTHORISATION is a demo reference .*set it to the AJ authorisation/)
      expect(r.out).toMatch(/BOLILLO_LOTTO_LICENCE is a demo reference .*REFERENCE:MIN-MAX/)
      expect(r.out).toMatch(/BOLILLO_INSTANT_GENERATOR_CERT is a demo reference .*signed certificate/)
      expect(r.out).not.toContain('Bolillo en http')
      // Nothing was created: the refusal comes before any database or key file.
      expect(existsSync(join(dataDir, 'bolillo.sqlite'))).toBe(false)
      expect(existsSync(join(keyDir, 'operator-ed25519.pem'))).toBe(false)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
      rmSync(keyDir, { recursive: true, force: true })
    }
  }, 90_000)

  it("npx bolillo demo does not play into a production installation's data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-prod-demo-'))
    try {
      const r = await runStart(
        {
          DATA_DIR: dataDir,
          BOLILLO_SEED_DEMO: 'false',
          BOLILLO_KEY_DIR: join(tmpdir(), 'bolillo-prod-demo-keys-unused'),
        },
        ['demo', '--cards', '10'],
      )
      expect(r.code).toBe(2)
      expect(r.out).toContain('instalación sin demo')
      expect(existsSync(join(dataDir, 'bolillo.sqlite'))).toBe(false)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)

  it('loadConfig: production needs a key directory outside DATA_DIR and refuses the demo beacon; the demo keeps its defaults', () => {
    const at = (env: Record<string, string>) => {
      try {
        loadConfig(env)
        return ''
      } catch (e) {
        return (e as Error).message
      }
    }
    expect(at({ DATA_DIR: '/srv/bolillo', BOLILLO_SEED_DEMO: 'false' })).toMatch(
      /BOLILLO_KEY_DIR is not set: .*outside DATA_DIR/,
    )
    expect(at({ DATA_DIR: '/srv/bolillo', BOLILLO_SEED_DEMO: 'false', BOLILLO_KEY_DIR: '/srv/bolillo/keys' })).toMatch(
      /BOLILLO_KEY_DIR=\/srv\/bolillo\/keys lies inside DATA_DIR/,
    )
    expect(
      at({
        DATA_DIR: '/srv/bolillo',
        BOLILLO_SEED_DEMO: 'false',
        BOLILLO_KEY_DIR: '/etc/bolillo/keys',
        BOLILLO_DEMO_BEACON: 'true',
      }),
    ).toMatch(/BOLILLO_DEMO_BEACON=true: the demo beacon serves only the demo/)
    const prod = loadConfig({
      DATA_DIR: '/srv/bolillo',
      BOLILLO_SEED_DEMO: 'false',
      BOLILLO_KEY_DIR: '/etc/bolillo/keys',
      BOLILLO_LOTTO_LICENCE: 'AJ-LO-2025-0007:20-60',
    })
    expect(prod).toMatchObject({
      production: true,
      keyDir: '/etc/bolillo/keys',
      demoBeacon: false,
      lotteryRngAuthorisation: null,
      instantGeneratorCertification: null,
      lottoLicence: { ref: 'AJ-LO-2025-0007' },
    })
    // README's `npm start`: the demo, its labelled references and its keys under DATA_DIR, unchanged.
    const demo = loadConfig({})
    expect(demo.production).toBe(false)
    expect(demo.lottoLicence?.ref).toMatch(/^DEMO/)
    expect(demo.keyDir).toMatch(/data\/keys$/)
  })
})

describe('the demo switched off on the same DATA_DIR (issue 24 point 4)', () => {
  // Accounts and devices of the demo, its references, and key files: none carries over.
  const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-demo-off-'))
  const keyDir = mkdtempSync(join(tmpdir(), 'bolillo-demo-off-keys-'))
  let demoToken = ''
  let kiosk = ''
  let server: Awaited<ReturnType<typeof startTestServer>> | null = null
  const as = (token: string) => ({ authorization: `Bearer ${token}` })

  beforeAll(async () => {
    // SQLite on both runs: the second server opens the first one's file.
    const demo = await startTestServer({
      auth: 'on',
      dataDir,
      databaseUrl: null,
      seedDemo: true,
      demoBeaconScope: 'demo',
    })
    try {
      await seedDemoHall(demo.services)
      // In the demo its lotto draw sells (the control for the refusal below).
      const lottoDraw = (await demo.services.lotto.listDraws()).find((d) => d.plan.gameCode === 'LOTODEMO')!
      await demo.services.lotto.sellSlip({
        drawId: lottoDraw.drawId,
        quickPicks: 1,
        player: { name: 'Ana Choque', document: '4455667 LP' },
        channel: 'counter',
      })
      kiosk = (
        JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as {
          devices: Array<{ kind: string; credential: string }>
        }
      ).devices.find((d) => d.kind === 'kiosk')!.credential
      expect((await api(demo.url, 'GET', '/api/auth/me', undefined, { authorization: `Device ${kiosk}` })).status).toBe(
        200,
      )
      const login = await api(demo.url, 'POST', '/api/auth/login', { username: 'director', password: DEMO_PASSWORD })
      expect(login.status).toBe(200)
      demoToken = login.body.token
    } finally {
      await demo.close()
    }
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(keyDir, { recursive: true, force: true })
  })

  it('refuses key files inside DATA_DIR, then starts once they are moved to the key directory', async () => {
    await expect(startTestServer({ auth: 'on', dataDir, databaseUrl: null, production: true, keyDir })).rejects.toThrow(
      /key file .*operator-ed25519\.pem is inside DATA_DIR: .*BOLILLO_KEY_DIR/,
    )
    expect(existsSync(join(keyDir, 'operator-ed25519.pem'))).toBe(false)
    for (const f of KEY_FILES) renameSync(join(dataDir, 'keys', f), join(keyDir, f))
    // The demo beacon's key is the demo's alone: it is still refused until deleted.
    await expect(startTestServer({ auth: 'on', dataDir, databaseUrl: null, production: true, keyDir })).rejects.toThrow(
      /demo-beacon\.key is inside DATA_DIR/,
    )
    rmSync(join(dataDir, 'keys', 'demo-beacon.key'))
    server = await startTestServer({ auth: 'on', dataDir, databaseUrl: null, production: true, keyDir })
    // Same operator key as the demo had: tickets it signed still verify.
    expect((await api(server.url, 'GET', '/api/health')).status).toBe(200)
  }, 60_000)

  it('disables the demo accounts: no login, no old session, no password change or reset, no re-enabling', async () => {
    expect(server).not.toBeNull()
    const s = server!
    for (const username of ['director', 'jefe', 'cajero']) {
      expect((await api(s.url, 'POST', '/api/auth/login', { username, password: DEMO_PASSWORD })).status).toBe(401)
    }
    // The session opened while the demo was on ends with it.
    expect((await api(s.url, 'GET', '/api/auth/me', undefined, as(demoToken))).status).toBe(401)
    expect(
      (
        await api(
          s.url,
          'POST',
          '/api/auth/password',
          { current: DEMO_PASSWORD, password: 'una clave nueva y larga' },
          as(demoToken),
        )
      ).status,
    ).toBe(401)
    // A real director cannot hand a demo account over either.
    await s.services.auth.createUser({
      username: 'marta',
      displayName: 'Marta Quispe',
      role: 'director',
      password: REAL,
      halls: '*',
    })
    const marta = as((await api(s.url, 'POST', '/api/auth/login', { username: 'marta', password: REAL })).body.token)
    const people = (await api(s.url, 'GET', '/api/auth/users', undefined, marta)).body.users as Array<{
      id: string
      username: string
    }>
    const demoDirector = people.find((p) => p.username === 'director')!
    const reset = await api(
      s.url,
      'POST',
      `/api/auth/users/${demoDirector.id}/password`,
      { password: 'una clave nueva y larga' },
      marta,
    )
    expect(reset.status).toBe(403)
    expect(reset.body.error.code).toBe('FORBIDDEN')
    expect((await api(s.url, 'POST', `/api/auth/users/${demoDirector.id}/enable`, {}, marta)).status).toBe(403)
    await expect(
      s.services.auth.changePassword(demoDirector.id, { current: DEMO_PASSWORD, next: 'una clave nueva y larga' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' })
    // Still refused after all that: the published password opens nothing.
    expect(
      (await api(s.url, 'POST', '/api/auth/login', { username: 'director', password: DEMO_PASSWORD })).status,
    ).toBe(401)
    // The demo's devices, whose credentials sit in DATA_DIR/demo-credentials.json, are revoked (journaled).
    expect((await api(s.url, 'GET', '/api/auth/me', undefined, { authorization: `Device ${kiosk}` })).status).toBe(401)
    const revoked = await s.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'device.revoked'",
    )
    expect(revoked.map((r) => JSON.parse(r.payload).deviceId)).toContain(kiosk.split('.')[0])
    // Real people are untouched.
    expect((await api(s.url, 'GET', '/api/auth/me', undefined, marta)).status).toBe(200)
  })

  it('sells and draws nothing the demo planned under its DEMO references', async () => {
    const s = server!
    const { lotto, lottery, instant, bingo } = s.services
    const lottoDraw = (await lotto.listDraws()).find((d) => d.plan.gameCode === 'LOTODEMO')!
    expect(lottoDraw.plan.authorisationRef).toMatch(/^DEMO/)
    await expect(
      lotto.sellSlip({
        drawId: lottoDraw.drawId,
        quickPicks: 1,
        player: { name: 'Ana Choque', document: '4455667 LP' },
        channel: 'counter',
      }),
    ).rejects.toMatchObject({ code: 'RULE_DISABLED', message: expect.stringMatching(/demo reference/) })
    const issue = (await lottery.listDraws()).find((d) => d.plan.gameCode === 'LOTDEMO')!
    const seller = await s.services.auth.enrolDevice({
      ...sealed(),
      kind: 'cashier_station',
      name: 'Caja real',
      hallId: 'demo',
    })
    await expect(
      lottery.distribute(
        issue.drawId,
        { from: 10, to: 10, seriesFrom: 1, seriesTo: 1, sellerId: seller.id },
        { kind: 'system', id: 'test', role: 'system', name: 'test' },
      ),
    ).rejects.toMatchObject({ code: 'RULE_DISABLED', message: expect.stringMatching(/demo reference/) })
    // The on-screen instant game of the demo, in the demo hall switched on with a DEMO reference.
    await expect(instant.sellElectronic({ hallId: 'demo', gameNo: 102, stationId: seller.id })).rejects.toMatchObject({
      code: 'RULE_DISABLED',
      message: expect.stringMatching(/demo reference/),
    })
    // The demo hall's terminal terms carry the demo's label: no terminal plays under them, and none is recorded anew.
    expect(await s.services.terminals.termsOf('demo')).toMatchObject({ refused: 'terms_missing' })
    await expect(
      s.services.terminals.setTerms({
        hallId: 'demo',
        reference: 'DEMO — sin resolución de la autoridad (terminales)',
        terms: {
          markingMode: 'automatic',
          maxCardCents: 600,
          maxGameCents: 2500,
          maxSessionCents: 5000,
          minGameSeconds: 0,
          prizeReturnBp: { min: 6000, max: 8500 },
          terminalRangePercent: 25,
          onDisconnect: 'play-on-credit',
        },
        by: 'marta',
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'reference' } })
    // The demo hall's Plan de Apuestas is the demo's: no card is sold in its game.
    const gameId = (await api(s.url, 'GET', '/api/halls/demo')).body.currentGameId
    await expect(bingo.sell({ gameId, count: 1, channel: 'counter' })).rejects.toMatchObject({
      code: 'BETTING_PLAN_REQUIRED',
      message: expect.stringMatching(/demo reference/),
    })
  })
})

describe('the demo beacon signs the demo only; the launcher shows no credential beyond loopback (issue 24 point 4)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let director: Record<string, string>
  let otherGameId = ''
  let demoGameId = ''

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', seedDemo: true, demoBeaconScope: 'demo' })
    demoGameId = (await seedDemoHall(server.services)).gameId
    director = {
      authorization: `Bearer ${(await api(server.url, 'POST', '/api/auth/login', { username: 'director', password: DEMO_PASSWORD })).body.token}`,
    }
    const { bingo } = server.services
    const hall = await bingo.createHall({
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 100, seed: 'demo-scope-e2e' })
    const series = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 1000 })
    const session = await bingo.openSession({
      hallId: hall.id,
      recount: { ballsCounted: 90, confirmedBy: 'Jefa de Mesa' },
    })
    otherGameId = (await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })).gameId
    await bingo.openSales(otherGameId)
    await bingo.sell({ gameId: otherGameId, count: 30, channel: 'counter' })
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it("draws the demo hall's game with the demo beacon and leaves another hall's waiting for the public one", async () => {
    for (const gameId of [demoGameId, otherGameId]) {
      expect((await api(server.url, 'POST', `/api/games/${gameId}/sales/close`, {}, director)).status).toBe(200)
    }
    const demoDraw = await api(server.url, 'POST', `/api/games/${demoGameId}/draw`, undefined, director)
    expect(demoDraw.status).toBe(200)
    expect((await api(server.url, 'GET', `/api/games/${demoGameId}`)).body.beacon).toMatchObject({
      status: 'verified',
      scheme: 'demo',
      demo: true,
    })
    const other = await api(server.url, 'POST', `/api/games/${otherGameId}/draw`, undefined, director)
    expect(other.status).toBe(409)
    expect(other.body.error.code).toBe('BEACON_PENDING')
    expect((await api(server.url, 'GET', `/api/games/${otherGameId}`)).body.beacon).toMatchObject({
      status: 'awaiting',
      demo: false,
    })
    const signed = (
      await server.services.db.all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'game.beacon'")
    ).map((r) => JSON.parse(r.payload).gameId)
    expect(signed).toEqual([demoGameId])
  })

  it("signs the demo's own lotto and lottery draws and nothing else", async () => {
    const { beacon, lotto, lottery } = server.services
    const now = server.services.clock.now()
    const lottoDraw = (await lotto.listDraws()).find((d) => d.plan.gameCode === 'LOTODEMO')!
    const lotteryDraw = (await lottery.listDraws()).find((d) => d.plan.gameCode === 'LOTDEMO')!
    expect((await beacon.obtain(1000, now, { drawId: lottoDraw.drawId })).scheme).toBe('demo')
    expect((await beacon.obtain(1000, now, { drawId: lotteryDraw.drawId })).scheme).toBe('demo')
    await expect(beacon.obtain(1000, now, { drawId: 'ltd_not_the_demos' })).rejects.toMatchObject({
      code: 'BEACON_PENDING',
    })
    await expect(beacon.obtain(1000, now)).rejects.toMatchObject({ code: 'BEACON_PENDING' })
  })

  it("the launcher shows the demo's device credentials on loopback only", async () => {
    const creds = JSON.parse(readFileSync(join(server.dataDir, 'demo-credentials.json'), 'utf8')) as {
      devices: Array<{ credential: string }>
    }
    const local = await (await fetch(`${server.url}/`)).text()
    expect(local).toContain(creds.devices[0].credential)
    const wide = await startTestServer({
      auth: 'on',
      seedDemo: true,
      host: '0.0.0.0',
      dataDir: mkdtempSync(join(tmpdir(), 'bolillo-wide-')),
    })
    try {
      await seedDemoHall(wide.services)
      const wideCreds = JSON.parse(readFileSync(join(wide.dataDir, 'demo-credentials.json'), 'utf8')) as {
        devices: Array<{ credential: string }>
      }
      const page = await (await fetch(`${wide.url}/`)).text()
      expect(page).toContain('data-testid="launch-kiosk"')
      for (const d of wideCreds.devices) {
        expect(page).not.toContain(d.credential)
        expect(page).not.toContain(d.credential.split('.')[1])
      }
      expect(page).not.toContain('device=')
      expect(page).not.toContain(DEMO_PASSWORD)
    } finally {
      await wide.cleanup()
    }
  }, 120_000)
})
