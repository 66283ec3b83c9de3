import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * Issue 14 point 4, over real HTTP with authentication on: failure counting that holds under concurrency, one
 * answer for unknown and locked names, a growing lockout a director can lift, limits before authentication, an
 * X-Forwarded-For nobody trusted cannot rotate past, and anonymous refusals journaled as one summary.
 */
const PASSWORD = 'correct horse battery'
const login = (url: string, username: string, password: string, headers: Record<string, string> = {}) =>
  api(url, 'POST', '/api/auth/login', { username, password }, headers)

describe('login failures and lockout (issue 14 point 4)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2026-03-02T12:00:00Z')
  let director = ''

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock: { now: () => new Date(t) } })
    await server.services.auth.createUser({
      username: 'directora',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
    })
    director = (await server.services.auth.login('directora', PASSWORD)).token
  })
  afterAll(async () => server?.cleanup())

  it('locks an account under 30 concurrent wrong passwords: the count is taken before the password is checked', async () => {
    const { auth, db } = server.services
    await auth.createUser({ username: 'cajera', displayName: 'Rosa Vargas', role: 'cashier', password: PASSWORD })
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(server.url, 'cajera', `guess number ${i}`)),
    )
    expect(answers.every((a) => a.status === 401)).toBe(true)
    // Locked: the right password is refused too, with the answer an unknown name gets.
    const right = await login(server.url, 'cajera', PASSWORD)
    const unknown = await login(server.url, 'nadie', PASSWORD)
    expect(right.status).toBe(401)
    expect(right.body).toEqual(unknown.body)
    const locks = await db.all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'user.locked'")
    expect(locks.map((r) => JSON.parse(r.payload).username)).toEqual(['cajera'])
    // At most maxFailures (5) attempts ever reached a password check; the failure count never raced past the lock.
    const row = await db.get<{ failed_attempts: number; lock_count: number }>(
      "SELECT failed_attempts, lock_count FROM users WHERE username = 'cajera'",
    )
    expect(Number(row!.lock_count)).toBe(1)
  })

  it('doubles the lockout at each new lock, and a director lifts it (journaled)', async () => {
    const { auth, db } = server.services
    const u = await auth.createUser({
      username: 'jefe',
      displayName: 'Luis Mamani',
      role: 'floor_manager',
      password: PASSWORD,
    })
    const lockedUntil = async () =>
      (await db.get<{ locked_until: string }>('SELECT locked_until FROM users WHERE id = ?', [u.id]))!.locked_until
    for (let i = 0; i < 5; i++) await login(server.url, 'jefe', `wrong ${i}`)
    const first = Date.parse(await lockedUntil()) - t
    expect(first).toBe(15 * 60_000)
    t += first + 1000
    expect((await login(server.url, 'jefe', 'still wrong')).status).toBe(401)
    for (let i = 0; i < 4; i++) await login(server.url, 'jefe', `wrong again ${i}`)
    expect(Date.parse(await lockedUntil()) - t).toBe(30 * 60_000)
    // Only a director may lift it.
    const jefeRefused = await api(server.url, 'POST', `/api/auth/users/${u.id}/unlock`, undefined, {})
    expect(jefeRefused.status).toBe(401)
    const unlocked = await api(server.url, 'POST', `/api/auth/users/${u.id}/unlock`, undefined, {
      authorization: `Bearer ${director}`,
    })
    expect(unlocked.status).toBe(200)
    expect((await login(server.url, 'jefe', PASSWORD)).status).toBe(200)
    const rec = await db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'user.unlocked' ORDER BY seq DESC LIMIT 1",
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({
      userId: u.id,
      actor: { kind: 'person', name: 'Marta Quispe', role: 'director' },
    })
  })
})

describe('limits before authentication and trusted proxies (issue 14 point 4)', () => {
  it('refuses the forwarded-address bypass: rotating X-Forwarded-For from an untrusted peer shares one budget', async () => {
    const server = await startTestServer({ auth: 'on', rateLimitPerMinute: 20 })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 40; i++) {
        const r = await fetch(`${server.url}/api/halls`, { headers: { 'x-forwarded-for': `198.51.100.${i}` } })
        statuses.push(r.status)
      }
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(19)
    } finally {
      await server.cleanup()
    }
  })

  it('believes X-Forwarded-For only from a configured trusted proxy (BOLILLO_TRUSTED_PROXIES)', async () => {
    const server = await startTestServer({ auth: 'on', rateLimitPerMinute: 20, trustedProxies: ['127.0.0.1', '::1'] })
    try {
      // Behind the proxy, 40 different clients each get their own budget.
      for (let i = 0; i < 40; i++) {
        const r = await fetch(`${server.url}/api/halls`, { headers: { 'x-forwarded-for': `198.51.100.${i}` } })
        expect(r.status).toBe(200)
      }
      // One client behind it is limited, whatever it writes in front of the proxy's hop.
      const statuses: number[] = []
      for (let i = 0; i < 30; i++)
        statuses.push(
          (await fetch(`${server.url}/api/halls`, { headers: { 'x-forwarded-for': `6.6.6.${i}, 203.0.113.5` } }))
            .status,
        )
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(9)
    } finally {
      await server.cleanup()
    }
  })

  it('rate-limits invalid credentials per address before looking at them, and journals anonymous refusals as one summary', async () => {
    const server = await startTestServer({ auth: 'on', authFailuresPerMinute: 5 })
    try {
      const { db } = server.services
      const rows = async (type: string) =>
        Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM journal WHERE type = ?', [type]))!.n)
      const before = await rows('access.refused')
      const statuses: number[] = []
      for (let i = 0; i < 8; i++)
        statuses.push(
          (await fetch(`${server.url}/api/journal`, { headers: { authorization: `Bearer forged-${i}` } })).status,
        )
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
      expect(statuses.slice(5)).toEqual([429, 429, 429])
      // Bad logins spend the same budget.
      expect((await login(server.url, 'nadie', 'whatever1')).status).toBe(429)
      // Anonymous refusals leave no row each...
      expect(await rows('access.refused')).toBe(before)
      await server.services.refusals.flush()
      const summary = await db.get<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'access.refused.summary' ORDER BY seq DESC LIMIT 1",
      )
      // ...but one summary counting them (the 429s are not refusals of a credential).
      expect(JSON.parse(summary!.payload)).toMatchObject({ total: 5, byKind: { 'UNAUTHORIZED GET /api/journal': 5 } })
    } finally {
      await server.cleanup()
    }
  })
})
