/**
 * HTTP routes of identities (issue 9, issue 14): log in and out, who am I, people (halls, disabling, sessions,
 * passwords, lockouts) and enrolled devices. Errors are DomainErrors, turned into localized JSON by http/app.ts.
 */
import { z } from 'zod'
import { body, nameOf, needs, principalOf, param, type App, type AppContext } from '../http/context.ts'
import { DomainError } from '../shared/errors.ts'
import { pickLang } from '../http/messages.ts'
import { describePrincipal } from './me.ts'
import type { Services } from '../services.ts'
import { holdsHall, PersonRole } from './service.ts'
import { isAllowed, type Role } from './permissions.ts'

const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
const halls = z.union([z.literal('*'), z.array(id).min(1).max(100)])
const password = z.string().min(8).max(256)

/** Issue 14 point 1: a director gives only halls she holds herself. */
function assertHolds(c: AppContext, wanted: '*' | readonly string[]) {
  const who = principalOf(c)
  if (!c.get('authOn') || who.halls === '*') return
  if (wanted === '*')
    throw new DomainError('WRONG_HALL', 'only a director of every hall may give every hall', { field: 'halls' })
  const foreign = wanted.filter((h) => !holdsHall(who, h))
  if (foreign.length)
    throw new DomainError('WRONG_HALL', `not a hall of yours: ${foreign.join(', ')}`, {
      field: 'halls',
      halls: foreign,
    })
}

export function registerAccessRoutes(app: App, services: Services) {
  const { auth } = services
  app.post('/api/auth/login', async (c) => {
    const b = await body(
      c,
      z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(256) }).strict(),
    )
    c.set('loginName', b.username)
    // Sent with an enrolled station's `Authorization: Device ...`, the session is bound to that station.
    return c.json(await auth.login(b.username, b.password, principalOf(c).device))
  })
  app.post('/api/auth/logout', async (c) => {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    if (token) await auth.logout(token)
    return c.json({ ok: true })
  })
  app.get('/api/auth/me', (c) => c.json(principalOf(c)))
  // Issue 14 point 7: who am I, in words, with my permissions, so screens show only what my role may do.
  app.get('/api/me', async (c) => {
    const halls = await services.bingo.listHalls()
    const names = new Map(halls.map((h) => [h.id, h.name]))
    const zones = new Map(halls.map((h) => [h.id, h.timeZone]))
    return c.json(
      describePrincipal(principalOf(c), c.get('authOn'), pickLang(c.req.header('accept-language')), names, zones),
    )
  })
  // Issue 14 point 5: a person changes their own password (the current one checked like a login).
  app.post('/api/auth/password', async (c) => {
    const who = principalOf(c)
    if (who.kind !== 'person') throw new DomainError('UNAUTHORIZED', 'log in to change your password')
    const b = await body(c, z.object({ current: z.string().min(1).max(256), password }).strict())
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    return c.json(await auth.changePassword(who.id, { current: b.current, next: b.password }, token))
  })

  app.get('/api/auth/users', needs('users.admin'), async (c) => c.json({ users: await auth.people() }))
  app.post('/api/auth/users', needs('users.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          username: z
            .string()
            .min(3)
            .max(64)
            .regex(/^[a-z0-9._-]+$/),
          displayName: z.string().min(1).max(120),
          role: z.enum(Object.values(PersonRole) as [PersonRole, ...PersonRole[]]),
          password,
          halls,
        })
        .strict(),
    )
    assertHolds(c, b.halls)
    // Set by someone else: the person chooses their own at the first login.
    return c.json(await auth.createUser({ ...b, mustChangePassword: c.get('authOn') }), 201)
  })
  app.post('/api/auth/users/:userId/halls', needs('users.admin'), async (c) => {
    const b = await body(c, z.object({ halls }).strict())
    assertHolds(c, b.halls)
    return c.json(await auth.setHalls(param(c, 'userId'), b.halls))
  })
  app.post('/api/auth/users/:userId/disable', needs('users.admin'), async (c) =>
    c.json(await auth.setDisabled(param(c, 'userId'), true, principalOf(c))),
  )
  app.post('/api/auth/users/:userId/enable', needs('users.admin'), async (c) =>
    c.json(await auth.setDisabled(param(c, 'userId'), false, principalOf(c))),
  )
  app.post('/api/auth/users/:userId/sessions/end', needs('users.admin'), async (c) =>
    c.json(await auth.endSessions(param(c, 'userId'))),
  )
  app.post('/api/auth/users/:userId/unlock', needs('users.admin'), async (c) =>
    c.json(await auth.unlock(param(c, 'userId'))),
  )
  app.post('/api/auth/users/:userId/password', needs('users.admin'), async (c) => {
    const b = await body(c, z.object({ password }).strict())
    return c.json(await auth.changePassword(param(c, 'userId'), { next: b.password, resetBy: principalOf(c) }))
  })

  // Issue 14 point 8 (GEN-23, GEN-25, GEN-27): the exclusion list of self-excluded and prohibited players.
  app.get('/api/players/exclusions', needs('players.read'), async (c) =>
    // Issue 24 point 2: the documents are read in clear by those who keep the list, masked for the other readers.
    c.json({
      exclusions: await services.players.list({
        showDocuments: !c.get('authOn') || isAllowed('players.exclude', principalOf(c).role as Role),
      }),
      // CFG-4: whether an exclusion may name an international list (the back office asks for it only then).
      internationalLists: services.players.internationalLists(),
    }),
  )
  app.post('/api/players/exclusions', needs('players.exclude'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          document: z.string().min(4).max(40),
          name: z.string().min(1).max(120),
          kind: z.enum(['self_excluded', 'prohibited']),
          reason: z.string().min(3).max(500),
          hallId: id.nullable().optional(),
          until: z.string().datetime({ offset: true }).nullable().optional(),
          listSource: z.string().max(200).nullable().optional(),
        })
        .strict(),
    )
    return c.json(await services.players.exclude(b, nameOf(c, 'sin autenticación')), 201)
  })
  app.post('/api/players/exclusions/:exclusionId/lift', needs('players.exclude'), async (c) =>
    c.json(await services.players.lift(param(c, 'exclusionId'), nameOf(c, 'sin autenticación'))),
  )

  app.post('/api/auth/devices', needs('device.admin'), async (c) => {
    // Issue 14 point 1: every device belongs to a hall that exists (and that the director holds).
    const b = await body(
      c,
      z
        .object({
          kind: z.enum(['kiosk', 'cashier_station', 'display', 'terminal']),
          name: z.string().min(1).max(120),
          hallId: id,
          // Issue 26 (GEN-7, GEN-4): required where the hall's profile says so; the use case decides.
          sealCode: z.string().max(60).nullable().optional(),
          typeApprovalNo: z.string().max(60).nullable().optional(),
        })
        .strict(),
    )
    assertHolds(c, [b.hallId])
    return c.json(await auth.enrolDevice(b), 201)
  })
  // Issue 29 point 7: the devices of the halls the director holds, so a lost credential is revoked by its name.
  app.get('/api/auth/devices', needs('device.admin'), async (c) => {
    const who = principalOf(c)
    return c.json({ devices: await auth.listDevices(c.get('authOn') ? (who.halls ?? []) : '*') })
  })
  // Issue 29 point 7: the hall check is the use case's, from the device's own hall (WRONG_HALL for another's).
  const actingHalls = (c: AppContext): '*' | readonly string[] => (c.get('authOn') ? (principalOf(c).halls ?? []) : '*')
  app.post('/api/auth/devices/:deviceId/revoke', needs('device.admin'), async (c) => {
    await auth.revokeDevice(param(c, 'deviceId'), actingHalls(c))
    return c.json({ ok: true })
  })
  // Issue 26: the seal code and type approval of an enrolled device (one enrolled before they were recorded).
  app.post('/api/auth/devices/:deviceId/marks', needs('device.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          sealCode: z.string().max(60).nullable().optional(),
          typeApprovalNo: z.string().max(60).nullable().optional(),
        })
        .strict(),
    )
    return c.json(await auth.setMarks(param(c, 'deviceId'), b, actingHalls(c)))
  })
  app.post('/api/auth/devices/:deviceId/reenrol', needs('device.admin'), async (c) =>
    c.json(await auth.reenrolDevice(param(c, 'deviceId'), actingHalls(c))),
  )
}
