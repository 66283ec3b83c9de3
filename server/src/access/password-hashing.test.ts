// Issue 14 point 4 (BNG-94): passwords are kept as scrypt hashes at the shipped cost. The test servers hash at a lower
// cost (test/helpers/server.ts TEST_PASSWORD_HASHING, issue 25 point 3); this file is where the shipped cost is held.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer, testConfig, TEST_PASSWORD_HASHING } from '../../../test/helpers/server.ts'
import { freshPostgresUrl, testPostgresUrl } from '../../../test/helpers/database.ts'
import { createServer, type RunningServer } from '../server.ts'
import { checkPassword, hashPassword, PASSWORD_HASHING } from './service.ts'

const PASSWORD = 'correct horse battery'
const storedHash = async (server: RunningServer, username: string) =>
  (await server.services.db.get<{ password_hash: string }>('SELECT password_hash FROM users WHERE username = ?', [
    username,
  ]))!.password_hash

describe('password hashing cost', () => {
  let shipped: RunningServer
  let dataDir = ''
  beforeAll(async () => {
    // The server as shipped: no service override of the hashing cost.
    const config = testConfig({ auth: 'on' })
    if (testPostgresUrl) config.databaseUrl = await freshPostgresUrl()
    dataDir = config.dataDir
    shipped = await createServer(config)
  })
  afterAll(async () => {
    await shipped?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('the shipped server stores a new password and a changed one as scrypt N=16384 r=8 p=1, and logs in with them', async () => {
    expect(PASSWORD_HASHING).toEqual({ N: 16384, r: 8, p: 1 })
    const { id } = await shipped.services.auth.createUser({
      username: 'jefa',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
    })
    expect(await storedHash(shipped, 'jefa')).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
    const login = await api(shipped.url, 'POST', '/api/auth/login', { username: 'jefa', password: PASSWORD })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
    await shipped.services.auth.changePassword(id, { current: PASSWORD, next: 'otra clave larga' })
    expect(await storedHash(shipped, 'jefa')).toMatch(/^scrypt\$16384\$8\$1\$/)
    const wrong = await api(shipped.url, 'POST', '/api/auth/login', { username: 'jefa', password: PASSWORD })
    expect(wrong.status).toBe(401)
    const again = await api(shipped.url, 'POST', '/api/auth/login', { username: 'jefa', password: 'otra clave larga' })
    expect(again.status).toBe(200)
  })

  it("a hash is checked at the cost it names: one made at the tests' cost is accepted for its password only", async () => {
    const cheap = await hashPassword(PASSWORD, undefined, TEST_PASSWORD_HASHING)
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/)
    expect(await checkPassword(PASSWORD, cheap)).toBe(true)
    expect(await checkPassword('correct horse batterY', cheap)).toBe(false)
    expect(await checkPassword(PASSWORD, await hashPassword(PASSWORD))).toBe(true)
  })

  it('a test server hashes at the lower cost (so the figure above is not what the suite runs with by accident)', async () => {
    const server = await startTestServer({ auth: 'on' })
    try {
      await server.services.auth.createUser({
        username: 'mesa',
        displayName: 'Luis',
        role: 'floor_manager',
        password: PASSWORD,
      })
      expect(await storedHash(server, 'mesa')).toMatch(/^scrypt\$1024\$8\$1\$/)
    } finally {
      await server.cleanup()
    }
  })
})
