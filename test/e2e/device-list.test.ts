/**
 * Issue 29 point 7 over real HTTP, authentication on: a director lists the enrolled devices of her halls (name,
 * kind, hall, last seen), revokes a stolen one by its name's row and enrols a new one; the revoked credential is
 * refused at once. Insiders: a cashier lists nothing, a director of another hall neither sees nor revokes this
 * hall's devices. The revoked or re-enrolled device's open sockets are cut at once, its next request refused in
 * words.
 */
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { sealed } from '../helpers/device-marks.ts'

/** A real socket.io client with a credential, as the screens connect (handshake auth). */
function connectAs(url: string, authorization: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false, auth: { authorization } })
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}
const disconnected = (socket: Socket, timeoutMs = 3000) =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket was not cut')), timeoutMs)
    socket.once('disconnect', (reason) => {
      clearTimeout(timer)
      resolve(reason)
    })
  })

const PASSWORD = 'correct horse battery'
const started = Date.now()
/** Moved ahead by a test that waits out the minute between two writes of a device's "last seen". */
let ahead = 0
const clock = { now: () => new Date(Date.parse('2026-03-14T22:10:00Z') + (Date.now() - started) + ahead) }

describe('the enrolled devices: list, revoke, enrol again (issue 29 point 7)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const es = { 'accept-language': 'es' }
  const as = (token: string) => ({ ...es, authorization: `Bearer ${token}` })
  const asDevice = (credential: string) => ({ ...es, authorization: `Device ${credential}` })
  let hallA = ''
  let marta = ''
  let pedro = ''
  let rosa = ''
  let kiosk = { id: '', credential: '' }
  let other = { id: '', credential: '' }
  let cashDesk = { id: '', credential: '' }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth, bingo } = server.services
    const shares = { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 }
    hallA = (
      await bingo.createHall({
        name: 'Sala Illimani',
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 100,
        shares,
      })
    ).id
    const hallB = (
      await bingo.createHall({
        name: 'Sala Sajama',
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 100,
        shares,
      })
    ).id
    await auth.createUser({
      username: 'marta',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
      halls: [hallA],
    })
    await auth.createUser({
      username: 'pedro',
      displayName: 'Pedro Choque',
      role: 'director',
      password: PASSWORD,
      halls: [hallB],
    })
    await auth.createUser({
      username: 'rosa',
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
      halls: [hallA],
    })
    marta = (await auth.login('marta', PASSWORD)).token
    pedro = (await auth.login('pedro', PASSWORD)).token
    rosa = (await auth.login('rosa', PASSWORD)).token
    kiosk = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: hallA })
    cashDesk = await auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name: 'Caja 1', hallId: hallA })
    other = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco Sajama', hallId: hallB })
  })
  afterAll(async () => server?.cleanup())

  it('lists her hall’s devices by name, kind and hall, and when each was last seen; nothing of another hall', async () => {
    const before = await api(server.url, 'GET', '/api/auth/devices', undefined, as(marta))
    expect(before.status).toBe(200)
    expect(before.body.devices.map((d: { name: string }) => d.name).sort()).toEqual(['Caja 1', 'Kiosco 1'])
    const k = before.body.devices.find((d: { name: string }) => d.name === 'Kiosco 1')
    expect(k).toMatchObject({ kind: 'kiosk', hallName: 'Sala Illimani', lastSeenAt: null, revokedAt: null })
    // The kiosk works: it is seen, at the server's clock. The time is written after the answer (issue 23 point 5:
    // nobody waits on a time of last sight), so the list shows it a moment later: the test waits for it.
    const lastSeen = async (): Promise<string | null> =>
      (await api(server.url, 'GET', '/api/auth/devices', undefined, as(marta))).body.devices.find(
        (d: { name: string }) => d.name === 'Kiosco 1',
      ).lastSeenAt
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(kiosk.credential))).status).toBe(200)
    await expect.poll(lastSeen, { timeout: 5_000 }).not.toBeNull()
    const seen = (await lastSeen())!
    expect(seen).toMatch(/^2026-03-14T22:1/)
    // Issue 23 point 5: seen again within the minute, its time is not written again (no statement on those requests);
    // seen a minute later, it is.
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(kiosk.credential))).status).toBe(200)
    await new Promise((r) => setTimeout(r, 100))
    expect(await lastSeen()).toBe(seen)
    ahead += 61_000
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(kiosk.credential))).status).toBe(200)
    await expect.poll(lastSeen, { timeout: 5_000 }).not.toBe(seen)
    const later = (await lastSeen())!
    expect(Date.parse(later) - Date.parse(seen)).toBeGreaterThanOrEqual(61_000)
    // Insiders: a cashier sees no list; the other hall's director sees only hers.
    expect((await api(server.url, 'GET', '/api/auth/devices', undefined, as(rosa))).status).toBe(403)
    const theirs = await api(server.url, 'GET', '/api/auth/devices', undefined, as(pedro))
    expect(theirs.body.devices.map((d: { name: string }) => d.name)).toEqual(['Kiosco Sajama'])
  })

  it('refuses a director’s revoke of another hall’s device (WRONG_HALL); that device keeps working', async () => {
    const r = await api(server.url, 'POST', `/api/auth/devices/${other.id}/revoke`, {}, as(marta))
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe('WRONG_HALL')
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(other.credential))).status).toBe(200)
  })

  it('revokes a stolen kiosk: its credential is refused at once; a new one is enrolled under the same name', async () => {
    const r = await api(server.url, 'POST', `/api/auth/devices/${kiosk.id}/revoke`, {}, as(marta))
    expect(r.status).toBe(200)
    const refused = await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(kiosk.credential))
    expect(refused.status).toBe(401)
    const list = (await api(server.url, 'GET', '/api/auth/devices', undefined, as(marta))).body.devices
    expect(list.find((d: { id: string }) => d.id === kiosk.id).revokedAt).toMatch(/^2026-03-14T22:1/)
    const again = await api(
      server.url,
      'POST',
      '/api/auth/devices',
      { ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId: hallA },
      as(marta),
    )
    expect(again.status).toBe(201)
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(again.body.credential))).status).toBe(200)
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(kiosk.credential))).status).toBe(401)
  })

  it('revoking cuts the device’s open sockets at once and refuses its next request in Spanish', async () => {
    const dev = await server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 2', hallId: hallA })
    const socket = await connectAs(server.url, `Device ${dev.credential}`)
    const watched = await socket.emitWithAck('hall:watch', { hallId: hallA })
    expect(watched.ok).toBe(true)
    // Another device's socket stays open: only the revoked one is cut.
    const bystander = await connectAs(server.url, `Device ${other.credential}`)
    const cut = disconnected(socket)
    expect((await api(server.url, 'POST', `/api/auth/devices/${dev.id}/revoke`, {}, as(marta))).status).toBe(200)
    expect(await cut).toBe('io server disconnect')
    expect(bystander.connected).toBe(true)
    bystander.close()
    const refused = await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(dev.credential))
    expect(refused.status).toBe(401)
    expect(refused.body.error.message).toMatch(/^Este equipo ya no está autorizado/)
    const en = await api(server.url, 'GET', '/api/auth/me', undefined, {
      'accept-language': 'en',
      authorization: `Device ${dev.credential}`,
    })
    expect(en.body.error.message).toMatch(/^This device is no longer authorised/)
    // Nor may it open a new socket.
    await expect(connectAs(server.url, `Device ${dev.credential}`)).rejects.toThrow()
  })

  it('re-enrols a device under the same name and hall: a new credential works once shown, the old one is dead and its socket cut', async () => {
    const socket = await connectAs(server.url, `Device ${cashDesk.credential}`)
    const cut = disconnected(socket)
    const r = await api(server.url, 'POST', `/api/auth/devices/${cashDesk.id}/reenrol`, {}, as(marta))
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ id: cashDesk.id, name: 'Caja 1', kind: 'cashier_station', hallId: hallA })
    expect(r.body.credential).not.toBe(cashDesk.credential)
    await cut
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(cashDesk.credential))).status).toBe(401)
    const me = await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(r.body.credential))
    expect(me.status).toBe(200)
    // A revoked device re-enrolled is live again, in the list too.
    await api(server.url, 'POST', `/api/auth/devices/${cashDesk.id}/revoke`, {}, as(marta))
    const again = await api(server.url, 'POST', `/api/auth/devices/${cashDesk.id}/reenrol`, {}, as(marta))
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(again.body.credential))).status).toBe(200)
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(r.body.credential))).status).toBe(401)
    const list = (await api(server.url, 'GET', '/api/auth/devices', undefined, as(marta))).body.devices
    expect(list.find((d: { id: string }) => d.id === cashDesk.id).revokedAt).toBeNull()
  })

  it('refuses re-enrolling another hall’s device (WRONG_HALL) and a cashier’s re-enrol (403); their credentials keep working', async () => {
    const r = await api(server.url, 'POST', `/api/auth/devices/${other.id}/reenrol`, {}, as(marta))
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe('WRONG_HALL')
    expect(r.body.credential).toBeUndefined()
    const byCashier = await api(server.url, 'POST', `/api/auth/devices/${other.id}/reenrol`, {}, as(rosa))
    expect(byCashier.status).toBe(403)
    expect((await api(server.url, 'GET', '/api/auth/me', undefined, asDevice(other.credential))).status).toBe(200)
    // A device can neither revoke nor re-enrol itself.
    const self = await api(server.url, 'POST', `/api/auth/devices/${other.id}/reenrol`, {}, asDevice(other.credential))
    expect(self.status).toBe(403)
  })

  it('a wrong password says so in words, not "Debe identificarse."', async () => {
    const r = await api(server.url, 'POST', '/api/auth/login', { username: 'marta', password: 'no es esta' }, es)
    expect(r.status).toBe(401)
    expect(r.body.error.code).toBe('UNAUTHORIZED')
    expect(r.body.error.message).toMatch(/^Usuario o contraseña incorrectos\./)
  })
})
