import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { secondPerson, type AppEnv } from '../../server/src/http/context.ts'
import { DomainError } from '../../server/src/shared/errors.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 13 point 5 and issue 14 points 2 and 7, over real HTTP with authentication on: a person's session opened
 * at an enrolled station names that station on every request; a jefe authorises one action on a caller's
 * console with her own credential; a second person is someone else, checked like a login.
 */
const PASSWORD = 'correct horse battery'
const second = (username: string, password = PASSWORD) =>
  Buffer.from(`${username}:${password}`, 'utf8').toString('base64')

describe('a session bound to its station, and a second person on the same screen', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const tokens = new Map<string, string>()
  let station = { id: '', credential: '' }

  const as = (user: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${tokens.get(user)}`,
    'accept-language': 'es',
    ...extra,
  })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    const { auth } = server.services
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['mesa', 'Luis Mamani', 'floor_manager'],
      ['locutor', 'Pedro Flores', 'caller'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const) {
      await auth.createUser({ username, displayName, role, password: PASSWORD })
      tokens.set(username, (await auth.login(username, PASSWORD)).token)
    }
    station = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1' })
  })
  afterAll(async () => server?.cleanup())

  it('a cashier who logs in at an enrolled station carries the station on every request, until it is revoked', async () => {
    const login = await api(
      server.url,
      'POST',
      '/api/auth/login',
      { username: 'cajera', password: PASSWORD },
      { authorization: `Device ${station.credential}` },
    )
    expect(login.status).toBe(200)
    expect(login.body.device).toMatchObject({ id: station.id, name: 'Caja 1', kind: 'cashier_station' })
    const me = await api(server.url, 'GET', '/api/auth/me', undefined, { authorization: `Bearer ${login.body.token}` })
    expect(me.body).toMatchObject({
      kind: 'person',
      name: 'Rosa Vargas',
      role: 'cashier',
      device: { id: station.id, name: 'Caja 1' },
    })
    // A login without a station is a person alone.
    const plain = await api(server.url, 'GET', '/api/auth/me', undefined, as('cajera'))
    expect(plain.body.device).toBeUndefined()
    // The session dies with the station's enrolment.
    await server.services.auth.revokeDevice(station.id)
    const after = await api(server.url, 'GET', '/api/auth/me', undefined, {
      authorization: `Bearer ${login.body.token}`,
    })
    expect(after.status).toBe(401)
  })

  it('a caller is refused a jefe-only action, and gets it when a jefe types her own credential on his console', async () => {
    const path = '/api/games/no-such-game/window/close'
    const alone = await api(server.url, 'POST', path, undefined, as('locutor'))
    expect(alone.status).toBe(403)
    expect(alone.body.error.code).toBe('FORBIDDEN')
    // A wrong password, or a person who lacks the permission too, does not open the door.
    const wrong = await api(
      server.url,
      'POST',
      path,
      undefined,
      as('locutor', { 'x-bolillo-second-person': second('mesa', 'not her password') }),
    )
    expect(wrong.status).toBe(403)
    expect(wrong.body.error.code).toBe('SECOND_PERSON_REQUIRED')
    const cashier = await api(
      server.url,
      'POST',
      path,
      undefined,
      as('locutor', { 'x-bolillo-second-person': second('cajera') }),
    )
    expect(cashier.status).toBe(403)
    expect(cashier.body.error.code).toBe('FORBIDDEN')
    // With the jefe's credential the request passes the gate and reaches the use case (no such game: 404).
    const authorised = await api(
      server.url,
      'POST',
      path,
      undefined,
      as('locutor', { 'x-bolillo-second-person': second('mesa') }),
    )
    expect(authorised.status).toBe(404)
    // The caller's own session is untouched.
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, as('locutor'))).body).toMatchObject({
      role: 'caller',
    })
  })

  it('an action for two people needs someone else, holding the permission, with the right password', async () => {
    // A two-person route as the product lines mount them: the requester's session plus secondPerson(c, ...).
    const app = new Hono<AppEnv>()
    app.use('*', async (c, next) => {
      c.set('principal', await server.services.auth.authenticate(c.req.header('authorization')))
      c.set('confirmPerson', server.services.auth.confirmPerson)
      await next()
    })
    app.post('/annul', async (c) => {
      const by = await secondPerson(c, 'game.annul.confirm')
      return c.json({ confirmedBy: by.name })
    })
    app.onError((err, c) => c.json({ code: err instanceof DomainError ? err.code : 'INTERNAL' }, 403))
    const post = async (headers: Record<string, string>) => {
      const res = await app.request('/annul', { method: 'POST', headers })
      return res.json() as Promise<{ code?: string; confirmedBy?: string }>
    }
    expect(await post(as('mesa'))).toEqual({ code: 'SECOND_PERSON_REQUIRED' })
    expect(await post(as('mesa', { 'x-bolillo-second-person': second('mesa') }))).toEqual({
      code: 'SECOND_PERSON_REQUIRED',
    })
    expect(await post(as('mesa', { 'x-bolillo-second-person': second('locutor') }))).toEqual({
      code: 'SECOND_PERSON_REQUIRED',
    })
    expect(await post(as('mesa', { 'x-bolillo-second-person': second('jefa', 'wrong password') }))).toEqual({
      code: 'SECOND_PERSON_REQUIRED',
    })
    expect(await post(as('mesa', { 'x-bolillo-second-person': second('jefa') }))).toEqual({
      confirmedBy: 'Marta Quispe',
    })
  })
})
