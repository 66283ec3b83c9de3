/**
 * Who is asking (issue 9; BNG-94..97): people log in with a password (scrypt, lockout after repeated failures,
 * expiring sessions); kiosks, cashier stations and displays are enrolled devices with their own revocable
 * credentials. Every request is then checked against the permission table (http/permissions.ts).
 */
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import type { Database, Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import { appendJournal } from '../shared/journal.ts'
import { OPERATOR_CHAIN } from '../shared/journal-chain.ts'
import { getProfile, missingDeviceMarks } from '../shared/profile.ts'
import { hallZoneOf } from '../shared/time-zone.ts'
import type { Clock } from '../shared/clock.ts'
import {
  clearLoginFailures,
  countDirectors,
  demoUsers,
  deviceCredentialById,
  enrolledDevices,
  touchDevices,
  deviceWithSecretById,
  replaceDeviceSecret,
  type DeviceCredentialRow,
  hallsOfUser,
  insertDeviceCredential,
  hallProfileId,
  isDeviceSealTaken,
  setDeviceMarks,
  insertToken,
  insertUser,
  listUsers,
  lockUser,
  missingHalls,
  revokeDeviceCredential,
  revokeToken,
  revokeTokensOfDevice,
  revokeTokensOfUser,
  setMustChangePassword,
  setPassword,
  setUserDisabled,
  setUserHalls,
  takeLoginAttempt,
  tokenByHash,
  unlockUser,
  userById,
  type UserRow,
  deviceMarksById,
} from './store.ts'
import { printerMissingOf, printsTickets } from './device-marks.ts'

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>

export { DeviceKind, PersonRole } from './roles.ts'
import { DeviceKind, PersonRole } from './roles.ts'

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
  /** Issue 14 point 1: the halls this person or device acts in; '*' for a director of every hall. */
  halls?: '*' | readonly string[]
  /** Issue 14 point 5: a person who must choose a new password before doing anything else. */
  mustChangePassword?: boolean
  /** Set for a device credential and for a person whose session was opened on an enrolled device. */
  device?: DeviceRef
}

export const ANONYMOUS: Principal = Object.freeze({
  kind: 'anonymous',
  id: 'anonymous',
  name: 'anonymous',
  role: 'public',
  halls: Object.freeze([]) as readonly string[],
})

/** Whether a principal may act in a hall (issue 14 point 1). */
export function holdsHall(who: Principal, hallId: string): boolean {
  return who.halls === '*' || (who.halls ?? []).includes(hallId)
}

/** One answer for a wrong password, an unknown name and a locked account (issue 14 point 4): none tells them apart. */
export const LOGIN_REFUSED = 'wrong username or password, or the account is locked for a while'

export interface AuthOptions {
  /** Failed logins before the account is locked. */
  maxFailures?: number
  /** The first lock's length; each further lock without a good login in between doubles it, up to a day. */
  lockoutMs?: number
  sessionMs?: number
  /**
   * Issue 24 point 4: a server without the demo. Its demo accounts (published password) are disabled, not handed
   * over: no login, no session, no password change or reset, no re-enabling.
   */
  demoAccountsDisabled?: boolean
  /** Issue 24 point 4: the same server records no DEMO seal code or type-approval number on a device. */
  demoReferencesRefused?: boolean
  /**
   * The scrypt cost new password hashes are made with (default PASSWORD_HASHING). Set by tests only, through
   * ServiceOverrides: no configuration or environment variable lowers it. A stored hash names its own cost, so one
   * made at another cost is still checked at that cost.
   */
  passwordHashing?: PasswordHashing
}

const DEMO_ACCOUNT_DISABLED =
  'the demo accounts are disabled on a server without the demo: each person gets an account of their own'

/** The demo's published password: never accepted as someone's new one. */
const DEMO_PASSWORD_FORBIDDEN = 'bolillo-demo'

export interface PasswordHashing {
  N: number
  r: number
  p: number
}
/** The shipped cost of a password hash: scrypt with N = 2^14, r = 8, p = 1 (about 16 MiB and tens of ms a hash). */
export const PASSWORD_HASHING: Readonly<PasswordHashing> = Object.freeze({ N: 16384, r: 8, p: 1 })
const SCRYPT_MAXMEM = 64 * 1024 * 1024
/** A device of no hall (or of an unknown profile) is asked for no mark. */
/** Issue 26: the printer an enrolled device prints on, as the back office's device list shows it. */
interface PrinterOfDevice {
  id: string
  name: string
  /** It serves this device; otherwise a shared one of its hall or of the operator. */
  own: boolean
  shared: 'hall' | 'operator' | null
  sealCode: string | null
  typeApprovalNo: string | null
  issuingAuthorisation: string | null
  status: string
}
const NO_MARKS = { enrolledDeviceMarks: { sealCode: [], typeApproval: [] } }

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

export async function hashPassword(
  password: string,
  salt = randomBytes(16),
  cost: PasswordHashing = PASSWORD_HASHING,
): Promise<string> {
  const key = await scrypt(password, salt, 32, { ...cost, maxmem: SCRYPT_MAXMEM })
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

export async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt') return false
  const expected = Buffer.from(key, 'base64url')
  const got = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT_MAXMEM,
  })
  return got.length === expected.length && timingSafeEqual(got, expected)
}

export function createAuthService(deps: { db: Database; clock: Clock; options?: AuthOptions }) {
  const { db, clock } = deps
  const maxFailures = deps.options?.maxFailures ?? 5
  const lockoutMs = deps.options?.lockoutMs ?? 15 * 60_000
  const sessionMs = deps.options?.sessionMs ?? 12 * 3600_000
  const now = () => clock.now()
  const demoOff = deps.options?.demoAccountsDisabled ?? false
  const hashing = deps.options?.passwordHashing ?? PASSWORD_HASHING
  const isDisabledDemo = (u: { demo: number | boolean | null }) => demoOff && Number(u.demo) === 1
  const newId = (p: string) => `${p}_${randomBytes(8).toString('hex')}`
  /** When this server last wrote each device's `last_seen_at` (ms of its clock); see authenticate. */
  const seenAt = new Map<string, number>()
  /**
   * The devices seen since the last write of their times, written together right after this turn of the event loop
   * (issue 23 point 5). Alone, each was a statement outside any transaction: on SQLite with synchronous = FULL an
   * fsync on the event loop per device and minute. Together, as the store writes them (touchDevices).
   */
  const seenPending = new Map<string, { at: Date }>()
  let seenWriting = false
  function noteSeen(id: string, at: Date): void {
    seenAt.set(id, at.getTime())
    if (seenPending.size === 0 && !seenWriting) setImmediate(() => void writeSeen())
    seenPending.set(id, { at })
  }
  /** One write at a time: what is seen meanwhile goes in the next (never a queue of them holding connections). */
  async function writeSeen(): Promise<void> {
    if (seenWriting) return
    seenWriting = true
    try {
      while (seenPending.size > 0) {
        const seen = [...seenPending]
        seenPending.clear()
        try {
          await touchDevices(
            db,
            seen.map(([id, s]) => ({
              deviceId: id,
              at: s.at.toISOString(),
              notBefore: new Date(s.at.getTime() - 60_000).toISOString(),
            })),
          )
        } catch {
          // A failed write refuses nothing; the devices are written again at their next request.
          for (const [id] of seen) seenAt.delete(id)
        }
      }
    } finally {
      seenWriting = false
    }
  }

  /**
   * Creates a person working in `halls` (issue 14 point 1): hall ids, or '*' for every hall. Callers inside the
   * server that name none (tests, the demo before its hall exists) get every hall; the HTTP route always names them.
   */
  async function createUser(input: {
    username: string
    displayName: string
    role: PersonRole
    password: string
    halls?: '*' | readonly string[]
    demo?: boolean
    mustChangePassword?: boolean
  }) {
    if (!Object.values(PersonRole).includes(input.role))
      throw new DomainError('VALIDATION_FAILED', `unknown role ${input.role}`)
    if (input.password.length < 8)
      throw new DomainError('VALIDATION_FAILED', 'a password has at least 8 characters', { field: 'password' })
    const halls = input.halls ?? '*'
    if (halls !== '*') {
      const missing = await missingHalls(db, halls)
      if (missing.length)
        throw new DomainError('NOT_FOUND', `no hall ${missing.join(', ')}`, { field: 'halls', missing })
    }
    const hash = await hashPassword(input.password, undefined, hashing)
    const id = newId('u')
    await db.transaction(async (tx) => {
      await insertUser(tx, {
        id,
        username: input.username,
        displayName: input.displayName,
        role: input.role,
        passwordHash: hash,
        createdAt: now().toISOString(),
        allHalls: halls === '*',
        hallIds: halls === '*' ? [] : [...new Set(halls)],
        demo: input.demo,
        mustChangePassword: input.mustChangePassword,
      })
      await appendJournal(tx, {
        at: now().toISOString(),
        type: 'user.created',
        scope: '',
        payload: { userId: id, username: input.username, displayName: input.displayName, role: input.role, halls },
      })
    })
    return { id, username: input.username, role: input.role, halls }
  }

  /** Issue 14 point 1: a director moves a person between halls. */
  async function setHalls(userId: string, halls: '*' | readonly string[]) {
    if (halls !== '*') {
      const missing = await missingHalls(db, halls)
      if (missing.length)
        throw new DomainError('NOT_FOUND', `no hall ${missing.join(', ')}`, { field: 'halls', missing })
    }
    await db.transaction(async (tx) => {
      if (!(await userById(tx, userId))) throw new DomainError('NOT_FOUND', `no person ${userId}`)
      await setUserHalls(tx, userId, halls === '*', halls === '*' ? [] : [...new Set(halls)])
      await appendJournal(tx, { at: now().toISOString(), type: 'user.halls', scope: '', payload: { userId, halls } })
    })
    return { id: userId, halls }
  }

  async function people() {
    const rows = await listUsers(db)
    const out = []
    for (const r of rows) {
      out.push({
        id: r.id,
        username: r.username,
        displayName: r.display_name,
        role: r.role,
        disabled: Number(r.disabled) === 1,
        halls: Number(r.all_halls) === 1 ? ('*' as const) : await hallsOfUser(db, r.id),
        lockedUntil: r.locked_until && Date.parse(r.locked_until) > now().getTime() ? r.locked_until : null,
        mustChangePassword: Number(r.must_change_password) === 1,
      })
    }
    return out
  }

  /** Issue 14 point 5: a disabled person cannot log in, and every session they hold ends at once. */
  async function setDisabled(userId: string, disabled: boolean, by?: Principal) {
    await db.transaction(async (tx) => {
      if (by && by.id === userId && disabled)
        throw new DomainError('VALIDATION_FAILED', 'a director cannot disable herself', { field: 'userId' })
      if (!disabled) {
        const u = await userById(tx, userId)
        if (u && isDisabledDemo(u)) throw new DomainError('FORBIDDEN', DEMO_ACCOUNT_DISABLED, { field: 'userId' })
      }
      if (!(await setUserDisabled(tx, userId, disabled))) throw new DomainError('NOT_FOUND', `no person ${userId}`)
      const ended = disabled ? await revokeTokensOfUser(tx, userId, now().toISOString()) : 0
      await appendJournal(tx, {
        at: now().toISOString(),
        type: disabled ? 'user.disabled' : 'user.enabled',
        scope: '',
        payload: { userId, sessionsEnded: ended },
      })
    })
    return { id: userId, disabled }
  }

  /** Issue 14 point 5: ends every session of a person (a lost phone, a shift handed over). */
  async function endSessions(userId: string) {
    return db.transaction(async (tx) => {
      if (!(await userById(tx, userId))) throw new DomainError('NOT_FOUND', `no person ${userId}`)
      const ended = await revokeTokensOfUser(tx, userId, now().toISOString())
      await appendJournal(tx, {
        at: now().toISOString(),
        type: 'user.sessions-ended',
        scope: '',
        payload: { userId, sessionsEnded: ended },
      })
      return { id: userId, sessionsEnded: ended }
    })
  }

  /** Issue 14 point 4: a director lifts a lockout (and its growing delay). */
  async function unlock(userId: string) {
    await db.transaction(async (tx) => {
      if (!(await unlockUser(tx, userId))) throw new DomainError('NOT_FOUND', `no person ${userId}`)
      await appendJournal(tx, { at: now().toISOString(), type: 'user.unlocked', scope: '', payload: { userId } })
    })
    return { id: userId, locked: false }
  }

  /**
   * Issue 14 point 5: a person changes their own password with the current one (checked like a login, with the
   * same lockout); `resetBy` is a director setting another person's password, who must then change it.
   * Every other session of the person ends.
   */
  async function changePassword(
    userId: string,
    input: { current?: string; next: string; resetBy?: Principal },
    keepToken?: string,
  ) {
    if (input.next.length < 8)
      throw new DomainError('VALIDATION_FAILED', 'a password has at least 8 characters', { field: 'password' })
    const u = await userById(db, userId)
    if (!u) throw new DomainError('NOT_FOUND', `no person ${userId}`)
    if (isDisabledDemo(u)) throw new DomainError('FORBIDDEN', DEMO_ACCOUNT_DISABLED, { field: 'userId' })
    if (!input.resetBy) {
      await verifyPassword(u.username, input.current ?? '')
      if (input.next === input.current)
        throw new DomainError('VALIDATION_FAILED', 'the new password must differ from the current one', {
          field: 'password',
        })
      if (input.next === DEMO_PASSWORD_FORBIDDEN)
        throw new DomainError('VALIDATION_FAILED', 'the demo password cannot be chosen', { field: 'password' })
    }
    const hash = await hashPassword(input.next, undefined, hashing)
    await db.transaction(async (tx) => {
      await setPassword(tx, userId, hash, Boolean(input.resetBy))
      // Every other session ends; the one it was changed from stays open.
      await revokeTokensOfUser(tx, userId, now().toISOString(), keepToken ? sha256(keepToken) : undefined)
      await appendJournal(tx, {
        at: now().toISOString(),
        type: input.resetBy ? 'user.password-reset' : 'user.password-changed',
        scope: '',
        payload: { userId },
      })
      // The operator chain alone, as a login (LOGIN_SCOPES): a person's row, sessions and records are no hall's.
    }, LOGIN_SCOPES)
    return { id: userId, mustChangePassword: Boolean(input.resetBy) }
  }

  /**
   * Issue 14 point 5: outside the demo (no demo seeding, or listening beyond this machine) the demo accounts'
   * published password must be changed before they can do anything.
   */
  async function requirePasswordChangeOfDemoAccounts(): Promise<number> {
    let n = 0
    for (const u of await demoUsers(db)) {
      if (Number(u.must_change_password) === 1) continue
      // A demo account that chose its own password keeps it (it stays a demo account all the same).
      if (!(await checkPassword(DEMO_PASSWORD_FORBIDDEN, u.password_hash))) continue
      await db.transaction(async (tx) => {
        await setMustChangePassword(tx, u.id)
        await appendJournal(tx, {
          at: now().toISOString(),
          type: 'user.password-change-required',
          scope: '',
          payload: { userId: u.id, reason: 'demo account outside the demo' },
        })
      })
      n++
    }
    return n
  }

  /**
   * Issue 24 point 4: a server without the demo revokes the devices the demo enrolled (their credentials are
   * published in DATA_DIR/demo-credentials.json). Returns how many were still enrolled.
   */
  async function revokeDemoDevices(ids: readonly string[]): Promise<number> {
    let n = 0
    for (const id of new Set(ids)) {
      const d = await deviceCredentialById(db, id)
      if (!d || d.revoked_at) continue
      await db.transaction(async (tx) => {
        if (!(await revokeDeviceCredential(tx, id, now().toISOString()))) return
        await revokeTokensOfDevice(tx, id, now().toISOString())
        await appendJournal(tx, {
          at: now().toISOString(),
          type: 'device.revoked',
          scope: '',
          payload: { deviceId: id, reason: 'demo device on a server without the demo' },
        })
        n++
      })
    }
    return n
  }

  /** Whether a director exists (a production start without one asks for `npx bolillo create-director`). */
  async function hasDirector(): Promise<boolean> {
    return Number((await countDirectors(db))?.n ?? 0) > 0
  }

  async function issueToken(
    owner: { userId?: string; deviceId?: string },
    ms: number,
  ): Promise<{ token: string; expiresAt: string }> {
    const token = randomBytes(32).toString('base64url')
    const expiresAt = new Date(now().getTime() + ms).toISOString()
    await insertToken(db, {
      tokenHash: sha256(token),
      userId: owner.userId ?? null,
      deviceId: owner.deviceId ?? null,
      createdAt: now().toISOString(),
      expiresAt,
    })
    return { token, expiresAt }
  }

  /**
   * Issue 23 point 5: a login's writes (the attempt counted on the person's row, a lock, the login's record) lock the
   * operator chain alone, never the global lock, so that a person logging in (or confirming as a second person) at
   * one hall neither waits for nor stops any hall's sales. Not the hall of the device: a person's row is shared by
   * every hall they work in (two halls' logins of one person would count its attempts under two locks), and its
   * records (user.login, user.locked) are the operator chain's, as every record of a person's account; under that
   * one lock two attempts on one account still count one after the other.
   */
  const LOGIN_SCOPES = { scopes: [OPERATOR_CHAIN] }

  /**
   * Checks a username and password (issue 14 point 4). The attempt is counted before the password is checked, in
   * one transaction, so concurrent guesses cannot all slip under the limit: the attempt past `maxFailures` locks
   * the account without a check. Each lock lasts twice the last (from `lockoutMs`, up to a day) until a good login
   * or a director's unlock. Unknown, disabled and locked names get the same answer after the same work.
   */
  async function verifyPassword(
    username: string,
    password: string,
    refuse: (why: string) => DomainError = () => new DomainError('UNAUTHORIZED', LOGIN_REFUSED, { reason: 'login' }),
  ): Promise<UserRow> {
    const at = now().toISOString()
    const user = await db.transaction(async (tx) => {
      const u = await takeLoginAttempt(tx, username, at)
      if (u && Number(u.failed_attempts) > maxFailures) await lockNow(tx, u, username)
      return u
    }, LOGIN_SCOPES)
    // A disabled demo account gets the same answer as an unknown name.
    const usable = user && Number(user.failed_attempts) <= maxFailures && !isDisabledDemo(user)
    // Same work whether or not the attempt may proceed, so timing tells nothing either.
    const ok = await checkPassword(password, usable ? user.password_hash : await dummyHash())
    if (!user || !usable) throw refuse(LOGIN_REFUSED)
    if (!ok) {
      if (Number(user.failed_attempts) >= maxFailures)
        await db.transaction((tx) => lockNow(tx, user, username), LOGIN_SCOPES)
      throw refuse(LOGIN_REFUSED)
    }
    await clearLoginFailures(db, user.id)
    return user
  }

  async function lockNow(tx: Sql, user: UserRow, username: string) {
    const ms = Math.min(24 * 3600_000, lockoutMs * 2 ** Math.min(20, Number(user.lock_count)))
    const until = new Date(now().getTime() + ms).toISOString()
    if (await lockUser(tx, user.id, until, now().toISOString())) {
      await appendJournal(tx, {
        at: now().toISOString(),
        type: 'user.locked',
        scope: '',
        payload: { userId: user.id, username, until, lockNo: Number(user.lock_count) + 1 },
      })
    }
  }

  /**
   * Password login (verifyPassword: lockout). A login sent with an enrolled device's credential opens a session
   * bound to that device: every request with the token then names the station it comes from (a cashier's drawer
   * is the station's, DESIGN.md "Money and people").
   */
  async function login(
    username: string,
    password: string,
    at?: DeviceRef,
  ): Promise<{
    token: string
    expiresAt: string
    user: { id: string; role: string; displayName: string; mustChangePassword: boolean }
    device?: DeviceRef
  }> {
    const user = await verifyPassword(username, password)
    // Issue 14 point 1: a person logs in only at a station of one of their halls.
    if (at?.hallId && !holdsHall({ ...ANONYMOUS, halls: await hallsOf(user) }, at.hallId))
      throw new DomainError('WRONG_HALL', `this station belongs to hall ${at.hallId}`)
    const t = await issueToken({ userId: user.id, deviceId: at?.id }, sessionMs)
    if (at)
      await db.transaction(
        (tx) =>
          appendJournal(tx, {
            at: now().toISOString(),
            type: 'user.login',
            scope: '',
            payload: { userId: user.id, username, deviceId: at.id },
          }),
        LOGIN_SCOPES,
      )
    return {
      ...t,
      user: {
        id: user.id,
        role: user.role,
        displayName: user.display_name,
        mustChangePassword: Number(user.must_change_password) === 1,
      },
      ...(at ? { device: at } : {}),
    }
  }

  /**
   * Issue 15 point 4: a second person confirms an action at the requester's console with their own username and
   * password (same checks and lockout as a login, no session issued). Returns who they are; the caller decides
   * whether their role may confirm and that they are not the requester.
   */
  async function confirmPerson(username: string, password: string): Promise<Principal & { username: string }> {
    const user = await verifyPassword(
      username,
      password,
      (why) => new DomainError('SECOND_PERSON_REQUIRED', `the second person: ${why}`, { field: 'confirm' }),
    )
    return {
      kind: 'person',
      id: user.id,
      name: user.display_name,
      role: user.role as PersonRole,
      username,
      halls: await hallsOf(user),
    }
  }

  async function hallsOf(u: { id: string; all_halls: number }): Promise<'*' | string[]> {
    return Number(u.all_halls) === 1 ? '*' : hallsOfUser(db, u.id)
  }

  let dummy: string | null = null
  async function dummyHash() {
    dummy ??= await hashPassword(randomBytes(8).toString('hex'), undefined, hashing)
    return dummy
  }

  async function logout(token: string) {
    await revokeToken(db, sha256(token), now().toISOString())
  }

  /**
   * Issue 26: a seal code or type-approval number as typed (trimmed, empty = none); at most 60 characters of letters,
   * digits and the separators regulators print (the AJ's identification code, the Consejería's resolution number).
   */
  function markOf(v: string | null | undefined, field: 'sealCode' | 'typeApprovalNo'): string | null {
    const t = (v ?? '').trim()
    if (!t) return null
    if (!/^[\p{L}\p{N}][\p{L}\p{N} ./:_-]{0,59}$/u.test(t))
      throw new DomainError('VALIDATION_FAILED', `${field}: up to 60 letters, digits and . / : _ -`, { field })
    if (deps.options?.demoReferencesRefused && isDemoReference(t))
      throw new DomainError(
        'DEMO_REFERENCE_REFUSED',
        `${field} "${t}" is a demo reference: a server without the demo records only real marks (GEN-7, GEN-4)`,
        { field, rule: field === 'sealCode' ? 'GEN-7' : 'GEN-4' },
      )
    return t
  }

  /**
   * Issue 26 (GEN-7, GEN-4, BNG-31): the marks of a device of `kind` in hall `hallId`, refused when the hall's profile
   * requires one that is missing, or when the seal code is another device's (the AJ's code identifies one device).
   */
  async function checkMarks(
    tx: Sql,
    d: { id?: string; kind: string; hallId: string | null },
    given: { sealCode?: string | null; typeApprovalNo?: string | null },
  ) {
    const marks = {
      sealCode: markOf(given.sealCode, 'sealCode'),
      typeApprovalNo: markOf(given.typeApprovalNo, 'typeApprovalNo'),
    }
    const profileId = d.hallId ? (await hallProfileId(tx, d.hallId))?.profile_id : undefined
    const profile = profileId ? getProfile(profileId) : undefined
    const missing = profile ? missingDeviceMarks(profile, d.kind, marks) : []
    if (missing.length)
      throw new DomainError(
        'DEVICE_MARKS_MISSING',
        `a ${d.kind} of hall ${d.hallId} is enrolled with its ${missing.join(' and ')} (${profile!.id})`,
        {
          field: missing[0] === 'seal-code' ? 'sealCode' : 'typeApprovalNo',
          missing,
          at: 'enrolment',
          rule: missing.includes('seal-code') ? 'GEN-7' : 'GEN-4',
        },
      )
    if (marks.sealCode && (await isDeviceSealTaken(tx, marks.sealCode, d.id)))
      throw new DomainError('CONFLICT', `seal code ${marks.sealCode} is on another enrolled device (GEN-7)`, {
        field: 'sealCode',
      })
    return marks
  }

  /**
   * Enrols a device; the secret is shown once and stored only as a hash. Issue 26: with the seal code and
   * type-approval number its hall's profile requires (DEVICE_MARKS_MISSING otherwise), journaled with it.
   */
  async function enrolDevice(input: {
    kind: DeviceKind
    name: string
    hallId?: string
    sealCode?: string | null
    typeApprovalNo?: string | null
  }): Promise<{ id: string; secret: string; credential: string }> {
    if (!Object.values(DeviceKind).includes(input.kind))
      throw new DomainError('VALIDATION_FAILED', `unknown device kind ${input.kind}`)
    // Issue 14 point 1: a device belongs to a hall that exists.
    if (input.hallId && (await missingHalls(db, [input.hallId])).length)
      throw new DomainError('NOT_FOUND', `no hall ${input.hallId}`, { field: 'hallId' })
    const id = newId('dev')
    const secret = randomBytes(24).toString('base64url')
    await db.transaction(async (tx) => {
      const marks = await checkMarks(tx, { kind: input.kind, hallId: input.hallId ?? null }, input)
      await insertDeviceCredential(tx, {
        id,
        kind: input.kind,
        name: input.name,
        hallId: input.hallId ?? null,
        secretHash: sha256(secret),
        createdAt: now().toISOString(),
        ...marks,
      })
      await appendJournal(tx, {
        at: now().toISOString(),
        type: 'device.enrolled',
        scope: input.hallId ? `hall:${input.hallId}` : '',
        payload: { deviceId: id, kind: input.kind, name: input.name, ...marks },
      })
    })
    return { id, secret, credential: `${id}.${secret}` }
  }

  /**
   * Issue 26: a director records the seal code and type-approval number of an enrolled device of her halls (a device
   * enrolled before they were recorded, a new seal after an inspection). The same profile check as at enrolment.
   */
  async function setMarks(
    deviceId: string,
    given: { sealCode?: string | null; typeApprovalNo?: string | null },
    halls: '*' | readonly string[] = '*',
  ) {
    const d = await deviceOfHalls(deviceId, halls)
    return db.transaction(async (tx) => {
      const marks = await checkMarks(tx, { id: d.id, kind: d.kind, hallId: d.hall_id }, given)
      await setDeviceMarks(tx, deviceId, marks)
      await appendJournal(tx, {
        at: now().toISOString(),
        type: 'device.marks',
        scope: d.hall_id ? `hall:${d.hall_id}` : '',
        payload: {
          deviceId,
          name: d.name,
          from: { sealCode: d.seal_code, typeApprovalNo: d.type_approval_no },
          to: marks,
          rule: 'GEN-7',
        },
      })
      return { id: deviceId, ...marks }
    })
  }

  /**
   * Issue 29 point 7: the enrolled devices of the halls a director holds, with their names, kind, hall, when they
   * were enrolled, last seen and revoked. The id is there for the revoke call, not for a screen to show.
   */
  async function listDevices(halls: '*' | readonly string[]) {
    const policy = { demoReferencesRefused: deps.options?.demoReferencesRefused ?? false }
    const list = await enrolledDevices(db, halls)
    // Issue 26 (GEN-4, GEN-7, BNG-9): the printer each selling device prints on, chosen and judged as its sale is.
    const printers = new Map<string, { printer: PrinterOfDevice | null; printerMissing: string[] }>()
    for (const d of list) {
      if (!printsTickets(d.kind)) continue
      const m = await deviceMarksById(db, d.id)
      const profile = getProfile(d.hall_profile_id ?? '')
      printers.set(d.id, {
        printer: m?.printer_id
          ? {
              id: m.printer_id,
              name: m.printer_name ?? '',
              own: m.printer_serves_device_id === d.id,
              shared: m.printer_serves_device_id === d.id ? null : m.printer_hall_id ? 'hall' : 'operator',
              sealCode: m.printer_seal_code,
              typeApprovalNo: m.printer_type_approval_no,
              issuingAuthorisation: m.printer_issuing_authorisation,
              status: m.printer_status ?? '',
            }
          : null,
        printerMissing: m && profile ? printerMissingOf(m, profile, policy) : [],
      })
    }
    return list.map((d) => ({
      id: d.id,
      name: d.name,
      kind: d.kind,
      hallId: d.hall_id,
      hallName: d.hall_name,
      // Issue 29 point 5: the screen shows the device's times on its hall's clock with the zone named.
      timeZone: d.hall_id ? hallZoneOf(d.hall_settings, getProfile(d.hall_profile_id ?? '')?.timeZone ?? 'UTC') : null,
      enrolledAt: d.created_at,
      lastSeenAt: d.last_seen_at,
      revokedAt: d.revoked_at,
      // Issue 26: the marks on record, and what the hall's profile still asks of this device.
      sealCode: d.seal_code,
      typeApprovalNo: d.type_approval_no,
      missingMarks: missingDeviceMarks(getProfile(d.hall_profile_id ?? '') ?? NO_MARKS, d.kind, {
        sealCode: d.seal_code,
        typeApprovalNo: d.type_approval_no,
      }),
      // Issue 26: its printer (null: none, or a device that prints nothing) and what the hall's profile asks of it.
      printer: printers.get(d.id)?.printer ?? null,
      printerMissing: printers.get(d.id)?.printerMissing ?? [],
      /** What the hall's profile asks of a printer, for the form to mark the fields it requires. */
      printerMarksRequired: getProfile(d.hall_profile_id ?? '')?.printerMarks ?? null,
    }))
  }

  /** The hall an enrolled device belongs to (null: none), undefined when there is no such device. */
  async function deviceHall(deviceId: string): Promise<string | null | undefined> {
    const d = await deviceCredentialById(db, deviceId)
    return d ? d.hall_id : undefined
  }

  /** Listeners told of a device whose credential died (revoked or re-enrolled): realtime cuts its open sockets. */
  const deviceRevokedListeners = new Set<(deviceId: string) => void>()
  function onDeviceRevoked(l: (deviceId: string) => void) {
    deviceRevokedListeners.add(l)
    return () => deviceRevokedListeners.delete(l)
  }
  const deviceRevoked = (deviceId: string) => {
    for (const l of deviceRevokedListeners) l(deviceId)
  }

  /**
   * The enrolled device a director acts on (issue 29 point 7): one of her halls only, decided from the device's own
   * hall as stored, never from the request. '*' (every hall, or authentication off) reaches every device.
   */
  async function deviceOfHalls(deviceId: string, halls: '*' | readonly string[]): Promise<DeviceCredentialRow> {
    const d = await deviceCredentialById(db, deviceId)
    if (!d) throw new DomainError('NOT_FOUND', `no device ${deviceId}`)
    if (halls !== '*' && (d.hall_id === null || !halls.includes(d.hall_id)))
      throw new DomainError('WRONG_HALL', `device ${deviceId} is not of a hall of yours`, {
        field: 'deviceId',
        halls: d.hall_id ? [d.hall_id] : [],
      })
    return d
  }

  /**
   * Revokes a device's credential and the sessions opened at it; its open sockets are cut after the commit
   * (issue 29 point 7: a stolen kiosk stops selling at once).
   */
  async function revokeDevice(deviceId: string, halls: '*' | readonly string[] = '*') {
    const d = await deviceOfHalls(deviceId, halls)
    await db.transaction(async (tx) => {
      if (!(await revokeDeviceCredential(tx, deviceId, now().toISOString())))
        throw new DomainError('NOT_FOUND', `no active device ${deviceId}`)
      await revokeTokensOfDevice(tx, deviceId, now().toISOString())
      await appendJournal(tx, {
        at: now().toISOString(),
        type: 'device.revoked',
        scope: d.hall_id ? `hall:${d.hall_id}` : '',
        payload: { deviceId, name: d.name },
      })
    })
    deviceRevoked(deviceId)
  }

  /**
   * Issue 29 point 7: enrols a device again under its id, name, kind and hall (its drawer and history stay its
   * own) with a new secret shown once; the old credential, the sessions opened at it and its sockets die.
   */
  async function reenrolDevice(
    deviceId: string,
    halls: '*' | readonly string[] = '*',
  ): Promise<{ id: string; name: string; kind: DeviceKind; hallId: string | null; credential: string }> {
    const d = await deviceOfHalls(deviceId, halls)
    const secret = randomBytes(24).toString('base64url')
    await db.transaction(async (tx) => {
      await replaceDeviceSecret(tx, deviceId, sha256(secret))
      await revokeTokensOfDevice(tx, deviceId, now().toISOString())
      await appendJournal(tx, {
        at: now().toISOString(),
        type: 'device.reenrolled',
        scope: d.hall_id ? `hall:${d.hall_id}` : '',
        payload: { deviceId, kind: d.kind, name: d.name },
      })
    })
    deviceRevoked(deviceId)
    return { id: deviceId, name: d.name, kind: d.kind, hallId: d.hall_id, credential: `${deviceId}.${secret}` }
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
      if (!row || row.revoked_at || Date.parse(row.expires_at) <= now().getTime())
        throw new DomainError('UNAUTHORIZED', 'session expired or unknown')
      if (row.user_id) {
        const u = await userById(db, row.user_id)
        if (!u || u.disabled || isDisabledDemo(u)) throw new DomainError('UNAUTHORIZED', 'user disabled')
        // A session opened at a station lasts only as long as the station's enrolment, and acts in its hall only.
        const device = row.device_id ? (await deviceById(row.device_id)).device : undefined
        return {
          kind: 'person',
          id: u.id,
          name: u.display_name,
          role: u.role,
          halls: await hallsOf(u),
          ...(device ? { device } : {}),
          ...(Number(u.must_change_password) === 1 ? { mustChangePassword: true } : {}),
        }
      }
      return deviceById(row.device_id!)
    }
    if (/^device$/i.test(scheme)) {
      const dot = value.indexOf('.')
      if (dot < 1) throw new DomainError('UNAUTHORIZED', 'malformed device credential', { reason: 'device' })
      const id = value.slice(0, dot)
      // The row and its secret's hash in one read (issue 23 point 5: a kiosk presents its credential on every sale).
      const d = await deviceWithSecretById(db, id)
      const given = Buffer.from(sha256(value.slice(dot + 1)))
      if (!d || !timingSafeEqual(given, Buffer.from(d.secret_hash)))
        throw new DomainError('UNAUTHORIZED', 'unknown device credential', { reason: 'device' })
      const device = devicePrincipal(d)
      // Issue 29 point 7: the director's list says when each device was last seen (a failed write refuses nothing).
      // The write changes nothing within a minute of the last one; one this server made is remembered, so that the
      // minute after it costs no statement per request (issue 23 point 5). The row's time only moves forward.
      const at = now()
      const wrote = seenAt.get(id)
      if (wrote === undefined || at.getTime() - wrote > 60_000) noteSeen(id, at)
      return device
    }
    throw new DomainError('UNAUTHORIZED', `unsupported Authorization scheme ${scheme}`)
  }

  async function deviceById(id: string): Promise<Principal> {
    return devicePrincipal(await deviceCredentialById(db, id))
  }

  function devicePrincipal(d: DeviceCredentialRow | undefined): Principal {
    if (!d || d.revoked_at) throw new DomainError('UNAUTHORIZED', 'device revoked or unknown', { reason: 'device' })
    // A device enrolled before halls were tracked (service callers that named none) is not bound to one.
    return {
      kind: 'device',
      id: d.id,
      name: d.name,
      role: d.kind,
      halls: d.hall_id ? [d.hall_id] : '*',
      device: { id: d.id, name: d.name, kind: d.kind, hallId: d.hall_id ?? null },
    }
  }

  return {
    createUser,
    login,
    confirmPerson,
    logout,
    enrolDevice,
    setMarks,
    listDevices,
    deviceHall,
    revokeDevice,
    reenrolDevice,
    onDeviceRevoked,
    revokeDemoDevices,
    authenticate,
    setHalls,
    people,
    setDisabled,
    endSessions,
    unlock,
    changePassword,
    requirePasswordChangeOfDemoAccounts,
    hasDirector,
  }
}

export type AuthService = ReturnType<typeof createAuthService>
