import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { io } from 'socket.io-client'
import { createHttpApp } from '../../server/src/http/app.ts'
import {
  ALL_ROLES,
  isAllowed,
  permissions,
  socketPermissions,
  type Permission,
  type Role,
} from '../../server/src/access/permissions.ts'
import { startTestServer } from '../helpers/server.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 9: every HTTP route and every socket event, called with every role, against the permission table.
 */
const PUBLIC_WITHOUT_PERMISSION = new Set([
  'GET /api/health',
  'GET /api/keys',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'GET /api/auth/me',
  'GET /api/me',
  'POST /api/auth/password',
])

describe('permission table on every route and socket event', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const credentials = new Map<Role, string | null>()

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    const { auth } = server.services
    for (const role of [
      'director',
      'floor_manager',
      'caller',
      'cashier',
      'auditor',
      'hall_manager',
      'table_cashier',
      'aml_officer',
      'lottery_operator',
      'inspector',
      'regulator',
    ] as const) {
      await auth.createUser({ username: `u-${role}`, displayName: role, role, password: 'correct horse battery' })
      const { token } = await auth.login(`u-${role}`, 'correct horse battery')
      credentials.set(role, `Bearer ${token}`)
    }
    for (const kind of ['kiosk', 'cashier_station', 'display', 'terminal'] as const) {
      const d = await auth.enrolDevice({ ...sealed(), kind, name: `${kind} 1` })
      credentials.set(kind, `Device ${d.credential}`)
    }
    credentials.set('public', null)
    expect([...credentials.keys()].sort()).toEqual([...ALL_ROLES].sort())
  })
  afterAll(async () => server?.cleanup())

  it('refuses or admits each role on each route exactly as the table says', async () => {
    const app = createHttpApp(server.services)
    const routes = app.routes.filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL')
    const seen = new Set<string>()
    let checked = 0
    for (const route of routes) {
      const key = `${route.method} ${route.path}`
      if (seen.has(key)) continue
      seen.add(key)
      const path = route.path.replace(/:[A-Za-z]+/g, 'x_unknown')
      // Learn the route's permission from the anonymous answer (401 names it) or its header.
      const anon = await app.request(path, {
        method: route.method,
        headers: { 'content-type': 'application/json' },
        body: route.method === 'GET' ? undefined : '{}',
      })
      let permission: Permission | null = null
      if (anon.status === 401) permission = ((await anon.json()) as any).error.details?.permission ?? null
      else permission = (anon.headers.get('x-bolillo-permission')?.split(':')[0] as Permission) ?? null
      if (!permission) {
        expect(PUBLIC_WITHOUT_PERMISSION.has(key), `${key} declares no permission`).toBe(true)
        continue
      }
      expect(Object.keys(permissions)).toContain(permission)
      for (const role of ALL_ROLES) {
        const auth = credentials.get(role)
        const res = await app.request(path, {
          method: route.method,
          headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
          body: route.method === 'GET' ? undefined : '{}',
        })
        const refused = res.status === 401 || res.status === 403
        expect(refused, `${role} on ${key} (${permission}) answered ${res.status}`).toBe(!isAllowed(permission, role))
        if (refused) expect(res.status).toBe(role === 'public' ? 401 : 403)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(200)
  })

  it('refuses every role of hall A on every route naming a hall, session or game of hall B (issue 14 point 1)', async () => {
    const { bingo, auth } = server.services
    await bingo.createHall({
      id: 'hall-a',
      name: 'Sala A',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    await bingo.createHall({
      id: 'hall-b',
      name: 'Sala B',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 100, seed: 'two halls' })
    const series = await bingo.createSeries({ hallId: 'hall-b', code: 'A', masterSetId: set.id, faceValueCents: 500 })
    const session = await bingo.openSession({ hallId: 'hall-b', recount: { ballsCounted: 90, confirmedBy: 'setup' } })
    const game = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'rng' })
    const ofHallA = new Map<Role, string>()
    for (const role of ALL_ROLES) {
      if (role === 'public') continue
      if (['kiosk', 'cashier_station', 'display', 'terminal'].includes(role)) {
        ofHallA.set(
          role,
          `Device ${(await auth.enrolDevice({ ...sealed(), kind: role as 'kiosk', name: `${role} A`, hallId: 'hall-a' })).credential}`,
        )
      } else {
        await auth.createUser({
          username: `a-${role}`,
          displayName: `${role} A`,
          role: role as 'cashier',
          password: 'correct horse battery',
          halls: ['hall-a'],
        })
        ofHallA.set(role, `Bearer ${(await auth.login(`a-${role}`, 'correct horse battery')).token}`)
      }
    }
    const app = createHttpApp(server.services)
    let refused = 0
    const seen = new Set<string>()
    for (const route of app.routes.filter(
      (r) => r.path.startsWith('/api/') && r.method !== 'ALL' && /:(hallId|sessionId|gameId)\b/.test(r.path),
    )) {
      const key = `${route.method} ${route.path}`
      if (seen.has(key)) continue
      seen.add(key)
      const path = route.path
        .replace(':hallId', 'hall-b')
        .replace(':sessionId', session.id)
        .replace(':gameId', game.gameId)
        .replace(/:[A-Za-z]+/g, 'x_unknown')
      const probe = await app.request(path, {
        method: route.method,
        headers: { 'content-type': 'application/json', authorization: credentials.get('director')! },
        body: route.method === 'GET' ? undefined : '{}',
      })
      const permission = probe.headers.get('x-bolillo-permission')?.split(':')[0] as Permission | undefined
      if (!permission || isAllowed(permission, 'public')) continue
      for (const [role, credential] of ofHallA) {
        if (!isAllowed(permission, role)) continue
        const res = await app.request(path, {
          method: route.method,
          headers: { 'content-type': 'application/json', authorization: credential },
          body: route.method === 'GET' ? undefined : '{}',
        })
        const answer = res.status === 403 ? ((await res.json()) as any).error.code : res.status
        expect(answer, `${role} of hall A on ${key} (${permission})`).toBe('WRONG_HALL')
        refused++
      }
    }
    expect(refused).toBeGreaterThan(60)
  })

  it('journals every refused attempt with who and where', async () => {
    const before = Number(
      (await server.services.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM journal WHERE type = 'access.refused'"))!
        .n,
    )
    const res = await fetch(`${server.url}/api/halls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: credentials.get('cashier')! },
      body: '{}',
    })
    expect(res.status).toBe(403)
    const rows = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'access.refused' ORDER BY seq",
    )
    expect(rows.length).toBe(before + 1)
    expect(JSON.parse(rows.at(-1)!.payload)).toMatchObject({
      code: 'FORBIDDEN',
      method: 'POST',
      path: '/api/halls',
      principal: { kind: 'person', role: 'cashier' },
    })
  })

  it('lets every role watch over socket.io, and refuses a bad credential at the handshake', async () => {
    for (const role of ALL_ROLES) {
      const auth = credentials.get(role)
      const socket = io(server.url, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        auth: auth ? { authorization: auth } : {},
      })
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve())
        socket.once('connect_error', reject)
      })
      for (const event of Object.keys(socketPermissions) as Array<keyof typeof socketPermissions>) {
        const r = await socket.emitWithAck(event, event === 'game:watch' ? { gameId: 'g_none' } : { hallId: 'none' })
        // Allowed for everyone (reads); the answer is "not found", never "forbidden".
        expect(isAllowed(socketPermissions[event], role)).toBe(true)
        expect(r.error?.code).not.toBe('FORBIDDEN')
      }
      socket.close()
    }
    const bad = io(server.url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: { authorization: 'Bearer forged' },
    })
    const err = await new Promise<Error>((resolve) => bad.once('connect_error', resolve))
    expect(err.message).toBe('UNAUTHORIZED')
    bad.close()
  })

  it('locks an account after five failed logins and journals it', async () => {
    const { auth, db } = server.services
    await auth.createUser({ username: 'u-victim', displayName: 'v', role: 'cashier', password: 'the right one' })
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'u-victim', password: `guess ${i}` }),
      })
      expect(r.status).toBe(401)
    }
    const locked = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'u-victim', password: 'the right one' }),
    })
    // Issue 14 point 4: a locked account answers exactly like an unknown name (no hint for whoever guesses).
    const unknown = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'u-nobody', password: 'the right one' }),
    })
    expect(locked.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(await locked.json()).toEqual(await unknown.json())
    expect(await db.get("SELECT 1 AS x FROM journal WHERE type = 'user.locked'")).toBeTruthy()
  })

  it('stops a revoked device at once', async () => {
    const d = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'cashier_station',
      name: 'station to revoke',
    })
    const call = () =>
      fetch(`${server.url}/api/games/x_unknown/sales`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Device ${d.credential}` },
        body: JSON.stringify({ count: 1 }),
      })
    // Admitted (issue 13: a station alone moves no cash, so the sale is refused for that, not for who is asking).
    const before = await call()
    expect(before.status).toBe(409)
    expect(((await before.json()) as any).error.code).toBe('STATION_REQUIRED')
    const revoke = await fetch(`${server.url}/api/auth/devices/${d.id}/revoke`, {
      method: 'POST',
      headers: { authorization: credentials.get('director')! },
    })
    expect(revoke.status).toBe(200)
    expect((await call()).status).toBe(401)
  })
})
