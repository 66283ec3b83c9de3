import type { Context, Hono } from 'hono'
import type { z } from 'zod'
import { DomainError, ErrorCode as ErrorCodes, type ErrorCode } from '../shared/errors.ts'
import { detailedMessage, messages, pickLang } from './messages.ts'
import { isAllowed, permissions, type Permission, type Role } from '../access/permissions.ts'
import { ANONYMOUS, type Principal } from '../access/service.ts'
import { maskIdentityDocuments } from '../shared/document-at-rest.ts'

/** What the /api middleware puts on every request's context (http/app.ts), typed for every route file. */
export interface AppEnv {
  Variables: {
    /** Whether authentication is on (configuration); off only in tests that say why. */
    authOn: boolean
    /** The person or device making the request, resolved from its bearer credential. */
    principal: Principal
    /** The permission the matched route needs (access/permissions.ts). */
    permission: Permission
    /** Issue 14 point 4: the client's address (X-Forwarded-For only from trusted proxies). */
    address: string
    /**
     * Issue 23 point 3: the request's body, parsed once by the /api middleware (http/request-body.ts): undefined
     * when there is none. `body()`, the hall guard and the exclusion check all read this value, never the text.
     */
    requestBody?: unknown
    /** The username a login named, for the aggregated refusal record. */
    loginName?: string
    /** Issue 14 point 8: refuses a sale or payout to a player on the exclusion list (GEN-23, GEN-27). */
    admission?: (c: AppContext) => Promise<void>
    /** Issue 14 point 1: refuses a request that names something of a hall the principal does not hold. */
    hallGuard?: (c: AppContext) => Promise<void>
    /** Checks another person's username and password (auth.confirmPerson: same lockout as a login). */
    confirmPerson: (username: string, password: string) => Promise<Principal & { username: string }>
    /** A person holding the route's permission who authorised a principal lacking it (X-Bolillo-Second-Person). */
    authorisedBy?: Principal
  }
}
export type AppContext = Context<AppEnv>
export type App = Hono<AppEnv>

/** A path parameter; Hono types it as optional once middleware sits in front of the handler. */
export const param = (c: AppContext, name: string): string => c.req.param(name) ?? ''

// What every route file uses: error bodies, body validation, the permission gate, the caller's identity.

export function errorBody(
  c: AppContext,
  code: ErrorCode | 'INTERNAL' | 'PAYLOAD_TOO_LARGE' | 'ROUTE_NOT_FOUND',
  detail: string,
  details?: unknown,
) {
  const lang = pickLang(c.req.header('accept-language'))
  const message = detailedMessage(code, details, lang) ?? fillMessage(messages[code][lang], details)
  return { error: { code, message, detail, details } }
}

/** A message's `{name}` placeholders filled from the error's details (a seller's name, a count, the seconds to wait). */
export function fillMessage(message: string, details: unknown): string {
  if (!message.includes('{') || !details || typeof details !== 'object') return message
  const values = details as Record<string, unknown>
  return message.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const v = values[key]
    return typeof v === 'string' || typeof v === 'number' ? String(v) : whole
  })
}

/**
 * Checks the request's body against a schema; a bad body is a 400 with the field errors in `details`. The body was
 * parsed once by the /api middleware (issue 23 point 3): the value checked here is the one the guards read.
 */
export async function body<T extends z.ZodType>(c: AppContext, schema: T): Promise<z.infer<T>> {
  const given = c.get('requestBody')
  const raw: unknown = given === undefined ? {} : given
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
    // A schema may name the domain code of a refusal whose message says more than "not valid" (station.ts: a cash
    // count given as the small/other split is CASH_COUNT_BY_PIECE, CFG-2).
    for (const i of parsed.error.issues) {
      const named = i.code === 'custom' ? (i.params as { errorCode?: unknown } | undefined)?.errorCode : undefined
      if (typeof named === 'string' && Object.values(ErrorCodes).includes(named as ErrorCode))
        throw new DomainError(named as ErrorCode, i.message, { field: i.path.join('.'), issues })
    }
    throw new DomainError('VALIDATION_FAILED', 'the body does not match the expected fields', { issues })
  }
  return parsed.data
}

/**
 * Every route names the permission it needs (permissions.ts). With authentication on, the principal resolved
 * by the /api middleware must hold it: anonymous callers get 401, others 403 (issue 9).
 */
export function needs(permission: Permission) {
  return async (c: AppContext, next: () => Promise<void>) => {
    c.set('permission', permission)
    c.header('X-Bolillo-Permission', `${permission}:${permissions[permission].join('|')}`)
    if (c.get('authOn')) {
      const who = c.get('principal') ?? ANONYMOUS
      if (!isAllowed(permission, who.role as Role)) {
        if (who.kind === 'anonymous')
          throw new DomainError('UNAUTHORIZED', `${permission} needs one of: ${permissions[permission].join(', ')}`, {
            permission,
          })
        // A jefe may authorise this one action on the console of someone who lacks the permission, with her own
        // credential, without logging him out (issue 14 point 7); both are journaled (actorOf).
        const second = await secondPersonFromHeader(c)
        if (!second)
          throw new DomainError('FORBIDDEN', `${who.role} may not ${permission}`, { permission, role: who.role })
        if (!isAllowed(permission, second.role as Role))
          throw new DomainError('FORBIDDEN', `${second.role} may not ${permission} either`, {
            permission,
            role: second.role,
          })
        await secondInHall(c, second)
        c.set('authorisedBy', second)
      }
      // Issue 14 point 1: and only on things of their own halls (what anyone may read is not a hall's secret).
      if (!isAllowed(permission, 'public' as Role)) await c.get('hallGuard')?.(c)
    }
    await c.get('admission')?.(c)
    await next()
  }
}

export const SECOND_PERSON_HEADER = 'x-bolillo-second-person'

/** The person named by the X-Bolillo-Second-Person header (base64 of "username:password"), checked; or null. */
async function secondPersonFromHeader(c: AppContext): Promise<Principal | null> {
  const raw = c.req.header(SECOND_PERSON_HEADER)
  if (!raw) return null
  const text = Buffer.from(raw.trim(), 'base64').toString('utf8')
  const colon = text.indexOf(':')
  if (colon < 1)
    throw new DomainError('SECOND_PERSON_REQUIRED', 'malformed second-person credential', { field: 'secondPerson' })
  const { username: _username, ...person } = await c.get('confirmPerson')(text.slice(0, colon), text.slice(colon + 1))
  return person
}

/**
 * The second of two people an action needs (BNG-74 incidents, BNG-25/27 witnessed recounts, misprint refunds,
 * unblocking, annulment): a person other than the requester, holding `permission`, who typed their own
 * credential on the same screen. Refused with SECOND_PERSON_REQUIRED when missing, wrong or the same person.
 */
export async function secondPerson(c: AppContext, permission: Permission): Promise<Principal> {
  const refuse = (why: string) => new DomainError('SECOND_PERSON_REQUIRED', why, { field: 'secondPerson', permission })
  const second = await secondPersonFromHeader(c)
  if (!second) throw refuse("this action needs a second person's confirmation")
  const who = principalOf(c)
  if (who.kind === 'person' && who.id === second.id)
    throw refuse('the second person must be someone other than the requester')
  if (!isAllowed(permission, second.role as Role)) throw refuse(`${second.role} may not confirm ${permission}`)
  await secondInHall(c, second)
  return second
}

/**
 * Issue 14 point 1 for the second person too: whoever authorises, witnesses or confirms holds the halls of what
 * the request touches (the same guard as the requester's), or the action is refused with WRONG_HALL.
 */
async function secondInHall(c: AppContext, second: Principal): Promise<void> {
  const guard = c.get('hallGuard')
  if (!guard || !c.get('authOn')) return
  const requester = c.get('principal')
  c.set('principal', second)
  try {
    await guard(c)
  } finally {
    c.set('principal', requester)
  }
}

/**
 * A supervisor's override of a rule that otherwise refuses (GEN-26: paying a named slip to someone the buyer
 * authorised): the second person of the X-Bolillo-Second-Person header, holding `permission`, with the reason the
 * requester gives. undefined without the header, or when the header already authorised a role lacking the route's
 * permission (the same credential does not count twice).
 */
export async function overrideOf(
  c: AppContext,
  permission: Permission,
  reason?: string,
): Promise<{ by: { id: string; name: string; role: string }; reason: string } | undefined> {
  if (!c.req.header(SECOND_PERSON_HEADER) || c.get('authorisedBy')) return undefined
  const p = await secondPerson(c, permission)
  return { by: { id: p.id, name: p.name, role: String(p.role) }, reason: (reason ?? '').trim() }
}

/** The person or device making the request (anonymous when authentication is off or absent). */
export function principalOf(c: AppContext): Principal {
  return c.get('principal') ?? ANONYMOUS
}

export interface Actor {
  kind: string
  id: string
  name: string
  role: string
  device?: { id: string; name: string }
  authorisedBy?: { id: string; name: string; role: string }
}

/** The authenticated principal as a journal record's actor (never a name from the body). */
export function actorOf(c: AppContext): Actor {
  const who = principalOf(c)
  const by = c.get('authorisedBy')
  return {
    kind: who.kind,
    id: who.id,
    name: who.name,
    role: who.role,
    ...(who.device && who.kind === 'person' ? { device: { id: who.device.id, name: who.device.name } } : {}),
    ...(by ? { authorisedBy: { id: by.id, name: by.name, role: by.role } } : {}),
  }
}

/** Station and cashier as the request proves them (an enrolled device or a logged-in person wins over the body). */
export function actors(
  c: AppContext,
  claimed: { stationId: string; cashierId?: string },
): { stationId: string; cashierId: string } {
  const who = principalOf(c)
  return {
    stationId: who.device?.id ?? claimed.stationId,
    cashierId: who.kind === 'person' ? who.id : (claimed.cashierId ?? (who.kind === 'device' ? who.id : 'unknown')),
  }
}

/** A PDF answered inline under `filename`. */
export function pdf(c: AppContext, bytes: Uint8Array, filename: string) {
  return c.body(bytes as unknown as ArrayBuffer, 200, {
    'content-type': 'application/pdf',
    'content-disposition': `inline; filename="${filename}"`,
  })
}

/** A CSV file answered inline under `filename`. */
export function csv(c: AppContext, bytes: Buffer, filename: string) {
  return c.body(bytes as unknown as ArrayBuffer, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `inline; filename="${filename}"`,
  })
}

/**
 * Issue 14 point 2: the name a record gives for who acted. With authentication on it is the authenticated
 * person's (and the one who authorised them), never the request body's; a body name is only read when
 * authentication is off (local experiments and old tests), and then it is required.
 */
export function nameOf(c: AppContext, claimed?: string, field = 'by'): string {
  if (!c.get('authOn')) {
    if (!claimed)
      throw new DomainError('VALIDATION_FAILED', `${field} is required when authentication is off`, { field })
    return claimed
  }
  const who = principalOf(c)
  const by = c.get('authorisedBy')
  return by ? `${who.name} (autorizó ${by.name})` : who.name
}

/**
 * Issue 14 point 2: the witness of an action a rule wants two people for (BNG-25/27 ball-set changes and
 * recounts, BNG-74 incident entries): with authentication on, the second person who typed their own credential
 * on the same screen (secondPerson); the body's name only with authentication off.
 */
export async function witnessOf(
  c: AppContext,
  permission: Permission,
  claimed?: string,
  field = 'witnessedBy',
): Promise<string> {
  if (!c.get('authOn')) return nameOf(c, claimed, field)
  return (await secondPerson(c, permission)).name
}

/**
 * Issue 24 point 2 (GEN-9, GEN-10): whether the caller reads identity documents opened. One rule for every register,
 * report, record and journal view that shows a person's document: the roles holding `aml.identity` (the AML officer,
 * the director, the regulator's inspector). Everyone else reads the rest of the register with the document masked.
 */
export function readsIdentity(c: AppContext): boolean {
  return !c.get('authOn') || isAllowed('aml.identity', principalOf(c).role as Role)
}

/** `value` as the caller may read it: documents opened for {@link readsIdentity}, masked for everyone else. */
export function forReader<T>(c: AppContext, value: T): T {
  return readsIdentity(c) ? value : maskIdentityDocuments(value)
}
