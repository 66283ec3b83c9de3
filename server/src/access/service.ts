/**
 * Who is asking (issue 9; BNG-94..97): people log in with a password (scrypt, lockout after repeated failures,
 * expiring sessions); kiosks, cashier stations and displays are enrolled devices with their own revocable
 * credentials. Every request is then checked against the permission table (http/permissions.ts).
 */
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import type { Database } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Clock } from '../bingo/service.ts'
import {
  clearLoginFailures, deviceCredentialById, deviceSecretHash, insertDeviceCredential, insertToken, insertUser, revokeDeviceCredential,
  revokeToken, revokeTokensOfDevice, setLoginFailures, tokenByHash, userById, userByUsername,
} from './store.ts'

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>

export const PersonRole = { Director: 'director', FloorManager: 'floor_manager', Caller: 'caller', Cashier: 'cashier', Auditor: 'auditor' } as const
export type PersonRole = (typeof PersonRole)[keyof typeof PersonRole]
export const DeviceKind = { Kiosk: 'kiosk', CashierStation: 'cashier_station', Display: 'display' } as const
export type DeviceKind = (typeof DeviceKind)[keyof typeof DeviceKind]

/** The enrolled device a request comes from: the device itself, or the station a person logged in at. */
export interface DeviceRef {
  id: string
  name: string
  kind: DeviceKind
  hallId: string | null
}

export interface Principal {
  kind: 'person' | 'device' | 'anonymous'
  id: string
  name: string
  role: PersonRole | DeviceKind | 'public'
  /** Set for a device credential and for a person whose session was opened on an enrolled device. */
  device?: DeviceRef
}

export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous', id: 'anonymous', name: 'anonymous', role: 'public' })

export interface AuthOptions {
  /** Failed logins before the account is locked. */
  maxFailures?: number
  lockoutMs?: number
  sessionMs?: number
}

const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

export async function hashPassword(password: string, salt = randomBytes(16)): Promise<string> {
  const key = await scrypt(password, salt, 32, SCRYPT)
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

export async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt') return false
  const expected = Buffer.from(key, 'base64url')
  const got = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem })
  return got.length === expected.length && timingSafeEqual(got, expected)
}

export function createAuthService(deps: { db: Database; clock: Clock; options?: AuthOptions }) {
  const { db, clock } = deps
  const maxFailures = deps.options?.maxFailures ?? 5
  const lockoutMs = deps.options?.lockoutMs ?? 15 * 60_000
  const sessionMs = deps.options?.sessionMs ?? 12 * 3600_000
  const now = () => clock.now()
  const newId = (p: string) => `${p}_${randomBytes(8).toString('hex')}`

  async function createUser(input: { username: string; displayName: string; role: PersonRole; password: string }) {
    if (!Object.values(PersonRole).includes(input.role)) throw new DomainError('VALIDATION_FAILED', `unknown role ${input.role}`)
    if (input.password.length < 8) throw new DomainError('VALIDATION_FAILED', 'a password has at least 8 characters', { field: 'password' })
    const hash = await hashPassword(input.password)
    const id = newId('u')
    await db.transaction(async (tx) => {
      await insertUser(tx, { id, username: input.username, displayName: input.displayName, role: input.role, passwordHash: hash, createdAt: now().toISOString() })
      await appendJournal(tx, { at: now().toISOString(), type: 'user.created', scope: '', payload: { userId: id, username: input.username, role: input.role } })
    })
    return { id, username: input.username, role: input.role }
  }

  async function issueToken(owner: { userId?: string; deviceId?: string }, ms: number): Promise<{ token: string; expiresAt: string }> {
    const token = randomBytes(32).toString('base64url')
    const expiresAt = new Date(now().getTime() + ms).toISOString()
    await insertToken(db, { tokenHash: sha256(token), userId: owner.userId ?? null, deviceId: owner.deviceId ?? null, createdAt: now().toISOString(), expiresAt })
    return { token, expiresAt }
  }

  /**
   * Password login. Locks the account after `maxFailures` failures in a row (journaled). A login sent with an
   * enrolled device's credential opens a session bound to that device: every request with the token then names
   * the station it comes from (a cashier's drawer is the station's, DESIGN.md "Money and people").
   */
  async function login(username: string, password: string, at?: DeviceRef): Promise<{ token: string; expiresAt: string; user: { id: string; role: string; displayName: string }; device?: DeviceRef }> {
    const user = await userByUsername(db, username)
    // Same work whether or not the user exists, so timing does not reveal usernames.
    const ok = await checkPassword(password, user?.password_hash ?? (await dummyHash()))
    if (!user || user.disabled) throw new DomainError('UNAUTHORIZED', 'wrong username or password')
    if (user.locked_until && Date.parse(user.locked_until) > now().getTime()) throw new DomainError('ACCOUNT_LOCKED', `account locked until ${user.locked_until}`, { lockedUntil: user.locked_until })
    if (!ok) {
      await countFailure(user, username)
      throw new DomainError('UNAUTHORIZED', 'wrong username or password')
    }
    await clearLoginFailures(db, user.id)
    const t = await issueToken({ userId: user.id, deviceId: at?.id }, sessionMs)
    if (at) await db.transaction((tx) => appendJournal(tx, { at: now().toISOString(), type: 'user.login', scope: '', payload: { userId: user.id, username, deviceId: at.id } }))
    return { ...t, user: { id: user.id, role: user.role, displayName: user.display_name }, ...(at ? { device: at } : {}) }
  }

  /** A wrong password counts towards the lockout, whether typed at the login or as a second person. */
  async function countFailure(user: { id: string; failed_attempts: number }, username: string): Promise<void> {
    const failures = Number(user.failed_attempts) + 1
    const lock = failures >= maxFailures ? new Date(now().getTime() + lockoutMs).toISOString() : null
    await db.transaction(async (tx) => {
      await setLoginFailures(tx, user.id, lock ? 0 : failures, lock)
      if (lock) await appendJournal(tx, { at: now().toISOString(), type: 'user.locked', scope: '', payload: { userId: user.id, username, until: lock, failures } })
    })
  }

  /**
   * Issue 15 point 4: a second person confirms an action at the requester's console with their own username and
   * password (same checks and lockout as a login, no session issued). Returns who they are; the caller decides
   * whether their role may confirm and that they are not the requester.
   */
  async function confirmPerson(username: string, password: string): Promise<Principal & { username: string }> {
    const refuse = (why: string) => new DomainError('SECOND_PERSON_REQUIRED', why, { field: 'confirm' })
    const user = await userByUsername(db, username)
    const ok = await checkPassword(password, user?.password_hash ?? (await dummyHash()))
    if (!user || user.disabled) throw refuse('the second person\'s username or password is wrong')
    if (user.locked_until && Date.parse(user.locked_until) > now().getTime()) throw refuse(`the second person's account is locked until ${user.locked_until}`)
    if (!ok) {
      await countFailure(user, username)
      throw refuse('the second person\'s username or password is wrong')
    }
    await clearLoginFailures(db, user.id)
    return { kind: 'person', id: user.id, name: user.display_name, role: user.role as PersonRole, username }
  }

  let dummy: string | null = null
  async function dummyHash() {
    dummy ??= await hashPassword(randomBytes(8).toString('hex'))
    return dummy
  }

  async function logout(token: string) {
    await revokeToken(db, sha256(token), now().toISOString())
  }

  /** Enrols a device; the secret is shown once and stored only as a hash. */
  async function enrolDevice(input: { kind: DeviceKind; name: string; hallId?: string }): Promise<{ id: string; secret: string; credential: string }> {
    if (!Object.values(DeviceKind).includes(input.kind)) throw new DomainError('VALIDATION_FAILED', `unknown device kind ${input.kind}`)
    const id = newId('dev')
    const secret = randomBytes(24).toString('base64url')
    await db.transaction(async (tx) => {
      await insertDeviceCredential(tx, { id, kind: input.kind, name: input.name, hallId: input.hallId ?? null, secretHash: sha256(secret), createdAt: now().toISOString() })
      await appendJournal(tx, { at: now().toISOString(), type: 'device.enrolled', scope: input.hallId ? `hall:${input.hallId}` : '', payload: { deviceId: id, kind: input.kind, name: input.name } })
    })
    return { id, secret, credential: `${id}.${secret}` }
  }

  async function revokeDevice(deviceId: string) {
    await db.transaction(async (tx) => {
      if (!(await revokeDeviceCredential(tx, deviceId, now().toISOString()))) throw new DomainError('NOT_FOUND', `no active device ${deviceId}`)
      await revokeTokensOfDevice(tx, deviceId, now().toISOString())
      await appendJournal(tx, { at: now().toISOString(), type: 'device.revoked', scope: '', payload: { deviceId } })
    })
  }

  /**
   * Resolves an Authorization header: `Bearer <session token>` (people) or `Device <id>.<secret>` (enrolled
   * devices). No header: anonymous. A bad or expired credential is refused, not downgraded to anonymous.
   */
  async function authenticate(header: string | undefined | null): Promise<Principal> {
    if (!header) return ANONYMOUS
    const [scheme, value] = header.trim().split(/\s+/, 2)
    if (!value) throw new DomainError('UNAUTHORIZED', 'malformed Authorization header')
    if (/^bearer$/i.test(scheme)) {
      const row = await tokenByHash(db, sha256(value))
      if (!row || row.revoked_at || Date.parse(row.expires_at) <= now().getTime()) throw new DomainError('UNAUTHORIZED', 'session expired or unknown')
      if (row.user_id) {
        const u = await userById(db, row.user_id)
        if (!u || u.disabled) throw new DomainError('UNAUTHORIZED', 'user disabled')
        // A session opened at a station lasts only as long as the station's enrolment.
        const device = row.device_id ? (await deviceById(row.device_id)).device : undefined
        return { kind: 'person', id: u.id, name: u.display_name, role: u.role, ...(device ? { device } : {}) }
      }
      return deviceById(row.device_id!)
    }
    if (/^device$/i.test(scheme)) {
      const dot = value.indexOf('.')
      if (dot < 1) throw new DomainError('UNAUTHORIZED', 'malformed device credential')
      const id = value.slice(0, dot)
      const d = await deviceSecretHash(db, id)
      const given = Buffer.from(sha256(value.slice(dot + 1)))
      if (!d || !timingSafeEqual(given, Buffer.from(d.secret_hash))) throw new DomainError('UNAUTHORIZED', 'unknown device credential')
      return deviceById(id)
    }
    throw new DomainError('UNAUTHORIZED', `unsupported Authorization scheme ${scheme}`)
  }

  async function deviceById(id: string): Promise<Principal> {
    const d = await deviceCredentialById(db, id)
    if (!d || d.revoked_at) throw new DomainError('UNAUTHORIZED', 'device revoked or unknown')
    return { kind: 'device', id: d.id, name: d.name, role: d.kind, device: { id: d.id, name: d.name, kind: d.kind, hallId: d.hall_id ?? null } }
  }

  return { createUser, login, confirmPerson, logout, enrolDevice, revokeDevice, authenticate }
}

export type AuthService = ReturnType<typeof createAuthService>
