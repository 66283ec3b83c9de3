import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isAllowed, permissions, type Permission, type Role } from '../../server/src/access/permissions.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 14 point 7: `GET /api/me` tells a screen who is logged in (name, role in words, station) and exactly the
 * permissions that `needs()` will let through, so a screen shows only what the role may do.
 */
const PASSWORD = 'correct horse battery'

describe('GET /api/me with authentication on', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const auth = new Map<string, string>()
  const me = (who: string | null, lang = 'es') =>
    api(server.url, 'GET', '/api/me', undefined, {
      'accept-language': lang,
      ...(who ? { authorization: auth.get(who)! } : {}),
    })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    const people = [
      ['marta', 'Marta Quispe', 'director'],
      ['luis', 'Luis Mamani', 'floor_manager'],
      ['pedro', 'Pedro Flores', 'caller'],
      ['ines', 'Inés Rojas', 'auditor'],
      ['rosa', 'Rosa Vargas', 'cashier'],
    ] as const
    for (const [username, displayName, role] of people) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    }
    const kiosk = await server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Quiosco de la entrada' })
    auth.set('kiosk', `Device ${kiosk.credential}`)
  })
  afterAll(async () => server?.cleanup())

  it('names a locutor in words and lists only his permissions: no window, announce, pay or minutes', async () => {
    const r = await me('pedro')
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      kind: 'person',
      name: 'Pedro Flores',
      role: 'caller',
      roleLabel: 'Locutor',
      station: null,
      authOn: true,
    })
    expect(r.body.permissions).toEqual(expect.arrayContaining(['game.draw', 'game.claim', 'game.sales']))
    // Issue 13: whoever sells at the table keeps its cash in a shift of his own, so the locutor opens, reads and closes it.
    expect(r.body.permissions).toEqual(expect.arrayContaining(['shift.open', 'shift.current']))
    for (const p of ['game.window', 'game.announce', 'prize.pay', 'minutes.read', 'session.open', 'journal.read'])
      expect(r.body.permissions).not.toContain(p)
    expect((await me('pedro', 'en')).body.roleLabel).toBe('Caller')
  })

  it('gives each role exactly the permissions the table grants it, and the server agrees on a guarded route', async () => {
    const roles: Record<string, Role> = {
      marta: 'director',
      luis: 'floor_manager',
      pedro: 'caller',
      ines: 'auditor',
      rosa: 'cashier',
      kiosk: 'kiosk',
    }
    for (const [who, role] of Object.entries(roles)) {
      const r = await me(who)
      const expected = (Object.keys(permissions) as Permission[]).filter((p) => isAllowed(p, role))
      expect(r.body.permissions, who).toEqual(expected)
    }
    // The list is what the server enforces: the auditor reads the journal's verification, the locutor may not.
    expect(
      (await api(server.url, 'GET', '/api/journal/verify', undefined, { authorization: auth.get('ines')! })).status,
    ).toBe(200)
    expect(
      (await api(server.url, 'GET', '/api/journal/verify', undefined, { authorization: auth.get('pedro')! })).status,
    ).toBe(403)
  })

  it('names an enrolled device by its name as the station, and an anonymous caller with no permission beyond public reads', async () => {
    const k = await me('kiosk')
    expect(k.body).toMatchObject({
      kind: 'device',
      name: 'Quiosco de la entrada',
      roleLabel: 'Quiosco',
      station: { name: 'Quiosco de la entrada', kind: 'kiosk' },
    })
    const anon = await me(null)
    expect(anon.status).toBe(200)
    expect(anon.body).toMatchObject({ kind: 'anonymous', roleLabel: 'Sin identificar', station: null })
    expect(anon.body.permissions).toEqual(
      (Object.keys(permissions) as Permission[]).filter((p) => isAllowed(p, 'public')),
    )
    // Nothing on the answer is an internal id a screen could end up showing.
    for (const who of ['pedro', 'kiosk'])
      expect(JSON.stringify((await me(who)).body)).not.toMatch(/u_[0-9a-f]{16}|dev_[0-9a-f]{16}/)
  })

  it('names the station a person logged in at (the session is bound to the enrolled device)', async () => {
    const station = await server.services.auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 2' })
    const login = await api(
      server.url,
      'POST',
      '/api/auth/login',
      { username: 'rosa', password: PASSWORD },
      { authorization: `Device ${station.credential}` },
    )
    expect(login.status).toBe(200)
    const r = await api(server.url, 'GET', '/api/me', undefined, { authorization: `Bearer ${login.body.token}` })
    expect(r.body).toMatchObject({
      kind: 'person',
      name: 'Rosa Vargas',
      roleLabel: 'Cajero',
      station: { name: 'Caja 2', kind: 'cashier_station' },
    })
  })

  it("names the halls a person acts in (issue 14 point 1): every hall for a director of all, the hall's name for a scoped person", async () => {
    await server.services.bingo.createHall({
      id: 'illimani',
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    await server.services.auth.createUser({
      username: 'tito',
      displayName: 'Tito Mamani',
      role: 'caller',
      password: PASSWORD,
      halls: ['illimani'],
    })
    const token = (await server.services.auth.login('tito', PASSWORD)).token
    const r = await api(server.url, 'GET', '/api/me', undefined, { authorization: `Bearer ${token}` })
    expect(r.body.halls).toEqual([{ id: 'illimani', name: 'Sala Illimani' }])
    expect((await me('marta')).body.halls).toBe('all')
  })

  it("answers in the request's language and refuses a bad token with a message, not a code", async () => {
    const r = await api(server.url, 'GET', '/api/me', undefined, {
      authorization: 'Bearer nope',
      'accept-language': 'en',
    })
    expect(r.status).toBe(401)
    expect(r.body.error.message).toBe('Authentication required.')
  })
})
