import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/src/config.ts'
import { DEMO_PASSWORD } from '../../server/src/demo.ts'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * Issue 14 point 5 over real HTTP with authentication on: a director creates people who must choose their own
 * password, disables them (their sessions end at once) and ends their sessions; demo accounts must change the
 * published password outside the demo; `npx bolillo create-director` gives a production start its first
 * director; the demo listens on this machine only unless HOST says otherwise.
 */
const PASSWORD = 'correct horse battery'

describe('people: passwords, disabling, sessions (issue 14 point 5)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let director = ''
  const as = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'es' })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    await server.services.bingo.createHall({
      id: 'sala',
      name: 'Sala',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    await server.services.auth.createUser({
      username: 'jefa',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
    })
    director = (await server.services.auth.login('jefa', PASSWORD)).token
  })
  afterAll(async () => server?.cleanup())

  it('makes a person created by a director choose a password before anything else', async () => {
    const created = await api(
      server.url,
      'POST',
      '/api/auth/users',
      { username: 'rosa', displayName: 'Rosa Vargas', role: 'cashier', password: 'temporal-123', halls: ['sala'] },
      as(director),
    )
    expect(created.status).toBe(201)
    const login = await api(server.url, 'POST', '/api/auth/login', { username: 'rosa', password: 'temporal-123' })
    expect(login.body.user.mustChangePassword).toBe(true)
    const token = login.body.token
    const blocked = await api(server.url, 'GET', '/api/halls/sala/ball-sets', undefined, as(token))
    expect([blocked.status, blocked.body.error.code]).toEqual([403, 'PASSWORD_CHANGE_REQUIRED'])
    expect(blocked.body.error.message).toMatch(/cambiar su contraseña/)
    const wrong = await api(
      server.url,
      'POST',
      '/api/auth/password',
      { current: 'not it', password: 'rosa-elige-1' },
      as(token),
    )
    expect(wrong.status).toBe(401)
    const changed = await api(
      server.url,
      'POST',
      '/api/auth/password',
      { current: 'temporal-123', password: 'rosa-elige-1' },
      as(token),
    )
    expect(changed.status).toBe(200)
    // The same session now works, and the old password no longer does.
    expect((await api(server.url, 'GET', '/api/prize-register', undefined, as(token))).status).toBe(403) // cashier lacks minutes.read
    expect((await api(server.url, 'GET', '/api/stations/x/movements', undefined, as(token))).status).toBe(200)
    expect(
      (await api(server.url, 'POST', '/api/auth/login', { username: 'rosa', password: 'temporal-123' })).status,
    ).toBe(401)
  })

  it('disables a person and ends every session at once; ends sessions on demand (journaled)', async () => {
    await server.services.auth.createUser({
      username: 'luis',
      displayName: 'Luis Mamani',
      role: 'floor_manager',
      password: PASSWORD,
    })
    const t1 = (await server.services.auth.login('luis', PASSWORD)).token
    const people = await api(server.url, 'GET', '/api/auth/users', undefined, as(director))
    const luis = people.body.users.find((u: any) => u.username === 'luis')
    const end = await api(server.url, 'POST', `/api/auth/users/${luis.id}/sessions/end`, undefined, as(director))
    expect(end.body.sessionsEnded).toBe(1)
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, as(t1))).status).toBe(401)
    const t2 = (await server.services.auth.login('luis', PASSWORD)).token
    expect((await api(server.url, 'POST', `/api/auth/users/${luis.id}/disable`, undefined, as(director))).status).toBe(
      200,
    )
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, as(t2))).status).toBe(401)
    expect((await api(server.url, 'POST', '/api/auth/login', { username: 'luis', password: PASSWORD })).status).toBe(
      401,
    )
    const types = (
      await server.services.db.all<{ type: string }>("SELECT type FROM journal WHERE type LIKE 'user.%'")
    ).map((r) => r.type)
    expect(types).toEqual(expect.arrayContaining(['user.sessions-ended', 'user.disabled']))
  })

  it('makes the demo accounts change the published password once the server is not the local demo', async () => {
    await server.services.auth.createUser({
      username: 'cajero',
      displayName: 'Cajera',
      role: 'cashier',
      password: DEMO_PASSWORD,
      demo: true,
    })
    expect(await server.services.auth.requirePasswordChangeOfDemoAccounts()).toBe(1)
    const login = await api(server.url, 'POST', '/api/auth/login', { username: 'cajero', password: DEMO_PASSWORD })
    expect(login.body.user.mustChangePassword).toBe(true)
    const again = await api(
      server.url,
      'POST',
      '/api/auth/password',
      { current: DEMO_PASSWORD, password: DEMO_PASSWORD },
      as(login.body.token),
    )
    expect(again.status).toBe(400)
  })
})

describe('first director and listen address (issue 14 point 5)', () => {
  it('listens on 127.0.0.1 for the demo unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1')
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0')
    expect(loadConfig({ BOLILLO_SEED_DEMO: 'false', BOLILLO_KEY_DIR: '/etc/bolillo/keys' }).host).toBe('0.0.0.0')
  })

  it('creates the first director of a production install with npx bolillo create-director', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-director-'))
    // Issue 24 point 4: a production install keeps its keys outside DATA_DIR.
    const keyDir = mkdtempSync(join(tmpdir(), 'bolillo-director-keys-'))
    try {
      const run = (args: string[], input?: string) =>
        new Promise<{ code: number; out: string }>((resolve) => {
          const p = spawn(process.execPath, ['bin/bolillo.mjs', ...args], {
            env: { ...process.env, DATA_DIR: dataDir, BOLILLO_KEY_DIR: keyDir, BOLILLO_SEED_DEMO: 'false' },
            stdio: ['pipe', 'pipe', 'pipe'],
          })
          let out = ''
          p.stdout.on('data', (d) => (out += d))
          p.stderr.on('data', (d) => (out += d))
          p.stdin.end(input ?? '')
          p.on('close', (code) => resolve({ code: code ?? 1, out }))
        })
      const made = await run(
        ['create-director', '--username', 'directora', '--name', 'Marta Quispe', '--password-stdin'],
        'una clave larga\n',
      )
      expect(made.code, made.out).toBe(0)
      // The CLI wrote to the embedded SQLite default under DATA_DIR (no DATABASE_URL given): start on that file, on either engine's run.
      const server = await startTestServer({ auth: 'on', dataDir, keyDir, production: true, databaseUrl: null })
      try {
        const login = await api(server.url, 'POST', '/api/auth/login', {
          username: 'directora',
          password: 'una clave larga',
        })
        expect(login.status).toBe(200)
        expect(login.body.user.role).toBe('director')
      } finally {
        await server.close()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
      rmSync(keyDir, { recursive: true, force: true })
    }
  }, 120_000)
})
