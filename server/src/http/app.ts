import { Hono } from 'hono'
import { errorBody, needs, principalOf, type AppEnv } from './context.ts'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { DomainError, type ErrorCode } from '../shared/errors.ts'
import type { Services } from '../services.ts'
import { ANONYMOUS } from '../access/service.ts'
import { appendJournal } from '../shared/journal.ts'
import { createRateLimiter } from './rate-limit.ts'
import { runtime } from '../shared/runtime.ts'
import { registerCashdeskRoutes } from '../cashdesk/routes.ts'
import { registerEquipmentRoutes } from '../equipment/routes.ts'
import { registerInstantRoutes } from '../instant/routes.ts'
import { registerBonusRoutes } from '../bingo/bonus-routes.ts'
import { registerLottoRoutes } from '../lotto/routes.ts'
import { registerLotteryRoutes } from '../lottery/routes.ts'
import { registerAccessRoutes } from '../access/routes.ts'
import { registerBingoRoutes } from '../bingo/routes.ts'
import { journalPage } from '../shared/store.ts'
import { ping } from '../db/health.ts'

const statusByCode: Record<ErrorCode, ContentfulStatusCode> = {
  VALIDATION_FAILED: 400, TYPED_SEED_REFUSED: 400, NOT_FOUND: 404, GAME_NOT_FOUND: 404, SESSION_NOT_FOUND: 404, TICKET_NOT_FOUND: 404,
  ILLEGAL_TRANSITION: 409, SALES_CLOSED: 409, SALES_NOT_OPEN: 409, SERIES_EXHAUSTED: 409, SERIES_RULE_VIOLATED: 422,
  DUPLICATE_CARD: 409, MINIMUM_PARTICIPATION: 422, BALL_ALREADY_DRAWN: 409, BALL_OUT_OF_RANGE: 422, NO_BALLS_LEFT: 409,
  CLAIM_REJECTED: 422, CLAIM_CLOSED: 409, NOT_VERIFIED: 409, ALREADY_PAID: 409, INVALID_SIGNATURE: 422,
  CONFLICT: 409, BEACON_PENDING: 409, DEVICE_UNAVAILABLE: 503, DEVICE_NOT_CERTIFIED: 422, BALL_SET_EXHAUSTED: 409, BALL_SET_REQUIRED: 409, ENTROPY_HEALTH_FAILED: 503, RULE_DISABLED: 422, UNAUTHORIZED: 401, FORBIDDEN: 403, ACCOUNT_LOCKED: 423, RATE_LIMITED: 429,
  VOUCHER_SPENT: 409, VOUCHER_EXPIRED: 410, VOUCHER_INSUFFICIENT: 422, NOT_A_WINNER: 422, PRIZE_PENDING: 409,
  TICKET_EXPIRED: 410, TICKET_VOID: 409, TICKET_BLOCKED: 423, PAYEE_ID_REQUIRED: 422,
  PACK_NOT_ACTIVATED: 409, RNG_NO_MANUAL_BALL: 409, SECOND_PERSON_REQUIRED: 403,
  // Issue 18 (bingo rules)
  SERIES_LAPSED: 409, PRIZE_SHARES_INVALID: 422, PRIZES_UNPAID: 409, RESERVE_SET_REQUIRED: 409, CORRECTION_TOO_LATE: 409,
}

/** Refusals worth an audit record (issue 9: every refused attempt is journaled). */
const AUDITED: ReadonlySet<string> = new Set(['UNAUTHORIZED', 'FORBIDDEN', 'ACCOUNT_LOCKED', 'INVALID_SIGNATURE', 'ALREADY_PAID', 'SECOND_PERSON_REQUIRED'])

export function createHttpApp(services: Services) {
  const { config } = services
  const app = new Hono<AppEnv>()

  const limitBody = bodyLimit({ maxSize: 256 * 1024, onError: (c) => c.json(errorBody(c, 'PAYLOAD_TOO_LARGE', 'body over 256 KiB'), 413) })
  // With a Content-Length the limit is checked on the header alone: hono's bodyLimit reads c.req.raw.body, which
  // makes the node adapter build a web Request and stream for every POST (a fifth of the lotto sale path's CPU).
  app.use('/api/*', async (c, next) => {
    const length = c.req.header('content-length')
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return limitBody(c, next)
    if (Number(length) > 256 * 1024) return c.json(errorBody(c, 'PAYLOAD_TOO_LARGE', 'body over 256 KiB'), 413)
    await next()
  })

  const limiter = createRateLimiter(config.rateLimitPerMinute)
  app.use('/api/*', async (c, next) => {
    const authOn = config.auth === 'on'
    c.set('authOn', authOn)
    const principal = authOn ? await services.auth.authenticate(c.req.header('authorization')) : ANONYMOUS
    c.set('principal', principal)
    c.set('confirmPerson', services.auth.confirmPerson)
    // Per person or device; anonymous callers share a bucket per remote address.
    const key = principal.kind === 'anonymous' ? `ip:${c.req.header('x-forwarded-for') ?? (c.env as { incoming?: { socket?: { remoteAddress?: string } } })?.incoming?.socket?.remoteAddress ?? 'local'}` : `${principal.kind}:${principal.id}`
    if (!limiter.take(key)) throw new DomainError('RATE_LIMITED', `more than ${config.rateLimitPerMinute} requests a minute`)
    await next()
  })

  app.onError(async (err, c) => {
    if (err instanceof DomainError && AUDITED.has(err.code)) {
      const who = principalOf(c)
      await services.db.transaction((tx) => appendJournal(tx, {
        at: new Date().toISOString(), type: 'access.refused', scope: '',
        payload: { code: err.code, method: c.req.method, path: c.req.path, principal: { kind: who.kind, id: who.id, role: who.role }, reason: err.message },
      })).catch((e) => services.log.warn('could not journal a refusal', e))
    }
    if (err instanceof DomainError) return c.json(errorBody(c, err.code, err.message, err.details), statusByCode[err.code] ?? 400)
    services.log.error('unexpected error', err)
    return c.json(errorBody(c, 'INTERNAL', 'internal error'), 500)
  })
  app.notFound((c) => c.json(errorBody(c, 'ROUTE_NOT_FOUND', `${c.req.method} ${c.req.path}`), 404))

  app.get('/api/health', async (c) => {
    await ping(services.db)
    return c.json({ ok: true, engine: services.db.engine, runtime, profile: config.profileId, version: services.version })
  })

  app.get('/api/keys', (c) => c.json(services.keys.publicInfo()))

  // ---- identities (issue 9)
  registerAccessRoutes(app, services)
  // ---- halls, series, sessions, games, claims, incidents, prizes
  registerBingoRoutes(app, services)

  // ---- journal
  app.get('/api/journal', needs('journal.read'), async (c) => {
    const from = Math.max(0, Number(c.req.query('from') ?? 0) || 0)
    const limit = Math.min(1000, Math.max(1, Number(c.req.query('limit') ?? 100) || 100))
    return c.json({ records: await journalPage(services.db, from, limit) })
  })
  app.get('/api/journal/verify', needs('journal.read'), async (c) => c.json(await services.verifyJournal()))
  // Issue 15 point 5: the signed checkpoints as JSON lines, a file a regulator keeps for `verify-journal --checkpoints`.
  app.get('/api/journal/checkpoints', needs('journal.read'), async (c) => {
    const after = Math.max(0, Number(c.req.query('after') ?? 0) || 0)
    const lines = (await services.checkpoints.list(after)).map((cp) => JSON.stringify(cp)).join('\n')
    return c.body(lines ? `${lines}\n` : '', 200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'content-disposition': 'inline; filename="checkpoints.jsonl"' })
  })

  // ---- vouchers, kiosk sales, validation and payout (issue #3)
  registerCashdeskRoutes(app, services)
  registerEquipmentRoutes(app, services)
  // ---- instant lottery (issue #7)
  registerInstantRoutes(app, services)
  // ---- prima, pots, lucky ball, simultaneous games, other modalities (issue #8)
  registerBonusRoutes(app, services)
  // ---- lotto, numbered-ticket lotteries, raffles (issue #6)
  registerLottoRoutes(app, services)
  registerLotteryRoutes(app, services)

  return app
}
