/**
 * HTTP routes of identities (issue 9): log in and out, who am I, people and enrolled devices.
 * Errors are DomainErrors, turned into localized JSON by http/app.ts.
 */
import { z } from 'zod'
import { body, needs, principalOf, param, type App } from '../http/context.ts'
import { pickLang } from '../http/messages.ts'
import { describePrincipal } from './me.ts'
import type { Services } from '../services.ts'

const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/)

export function registerAccessRoutes(app: App, services: Services) {
  app.post('/api/auth/login', async (c) => {
    const b = await body(c, z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(256) }).strict())
    // Sent with an enrolled station's `Authorization: Device ...`, the session is bound to that station.
    return c.json(await services.auth.login(b.username, b.password, principalOf(c).device))
  })
  app.post('/api/auth/logout', async (c) => {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    if (token) await services.auth.logout(token)
    return c.json({ ok: true })
  })
  app.get('/api/auth/me', (c) => c.json(principalOf(c)))
  // Issue 14 point 7: who am I, in words, with my permissions, so screens show only what my role may do.
  app.get('/api/me', (c) => c.json(describePrincipal(principalOf(c), c.get('authOn'), pickLang(c.req.header('accept-language')))))
  app.post('/api/auth/users', needs('users.admin'), async (c) => {
    const b = await body(c, z.object({ username: z.string().min(3).max(64).regex(/^[a-z0-9._-]+$/), displayName: z.string().min(1).max(120), role: z.enum(['director', 'floor_manager', 'caller', 'cashier', 'auditor']), password: z.string().min(8).max(256) }).strict())
    return c.json(await services.auth.createUser(b), 201)
  })
  app.post('/api/auth/devices', needs('device.admin'), async (c) => {
    const b = await body(c, z.object({ kind: z.enum(['kiosk', 'cashier_station', 'display']), name: z.string().min(1).max(120), hallId: id.optional() }).strict())
    return c.json(await services.auth.enrolDevice(b), 201)
  })
  app.post('/api/auth/devices/:deviceId/revoke', needs('device.admin'), async (c) => {
    await services.auth.revokeDevice(param(c, 'deviceId'))
    return c.json({ ok: true })
  })
}
