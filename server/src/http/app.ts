import { Hono } from 'hono'
import { param, type AppContext, type AppEnv } from './context.ts'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from 'zod'
import { DomainError, type ErrorCode } from '../shared/errors.ts'
import type { Services } from '../services.ts'
import { messages, pickLang } from './messages.ts'
import { isAllowed, permissions, type Permission, type Role } from '../access/permissions.ts'
import { ANONYMOUS, type Principal } from '../access/service.ts'
import { appendJournal } from '../shared/journal.ts'
import { createRateLimiter } from './rate-limit.ts'
import { registerCashdeskRoutes } from '../cashdesk/routes.ts'
import { registerEquipmentRoutes } from '../equipment/routes.ts'
import { registerInstantRoutes } from '../instant/routes.ts'
import { registerBonusRoutes } from '../bingo/bonus-routes.ts'
import { registerLottoRoutes } from '../lotto/routes.ts'
import { registerLotteryRoutes } from '../lottery/routes.ts'

const statusByCode: Record<ErrorCode, ContentfulStatusCode> = {
  VALIDATION_FAILED: 400, NOT_FOUND: 404, GAME_NOT_FOUND: 404, SESSION_NOT_FOUND: 404, TICKET_NOT_FOUND: 404,
  ILLEGAL_TRANSITION: 409, SALES_CLOSED: 409, SALES_NOT_OPEN: 409, SERIES_EXHAUSTED: 409, SERIES_RULE_VIOLATED: 422,
  DUPLICATE_CARD: 409, MINIMUM_PARTICIPATION: 422, BALL_ALREADY_DRAWN: 409, BALL_OUT_OF_RANGE: 422, NO_BALLS_LEFT: 409,
  CLAIM_REJECTED: 422, CLAIM_CLOSED: 409, NOT_VERIFIED: 409, ALREADY_PAID: 409, INVALID_SIGNATURE: 422,
  CONFLICT: 409, DEVICE_UNAVAILABLE: 503, DEVICE_NOT_CERTIFIED: 422, BALL_SET_EXHAUSTED: 409, BALL_SET_REQUIRED: 409, ENTROPY_HEALTH_FAILED: 503, RULE_DISABLED: 422, UNAUTHORIZED: 401, FORBIDDEN: 403, ACCOUNT_LOCKED: 423, RATE_LIMITED: 429,
  VOUCHER_SPENT: 409, VOUCHER_EXPIRED: 410, VOUCHER_INSUFFICIENT: 422, NOT_A_WINNER: 422, PRIZE_PENDING: 409,
  TICKET_EXPIRED: 410, TICKET_VOID: 409, TICKET_BLOCKED: 423, PAYEE_ID_REQUIRED: 422,
  PACK_NOT_ACTIVATED: 409,
}

export function errorBody(c: AppContext, code: ErrorCode | 'INTERNAL' | 'PAYLOAD_TOO_LARGE' | 'ROUTE_NOT_FOUND', detail: string, details?: unknown) {
  const lang = pickLang(c.req.header('accept-language'))
  return { error: { code, message: messages[code][lang], detail, details } }
}

/** Parses a JSON body against a schema; a bad body is a 400 with the field errors in `details`. */
export async function body<T extends z.ZodType>(c: AppContext, schema: T): Promise<z.infer<T>> {
  let raw: unknown = {}
  const text = await c.req.text()
  if (text.trim()) {
    try {
      raw = JSON.parse(text)
    } catch {
      throw new DomainError('VALIDATION_FAILED', 'the body is not valid JSON')
    }
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    throw new DomainError('VALIDATION_FAILED', 'the body does not match the expected fields', { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) })
  }
  return parsed.data
}


const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/)
const recount = z.object({ ballsCounted: z.number().int().min(0).max(1000), confirmedBy: z.string().min(1).max(120) }).strict()

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
        if (who.kind === 'anonymous') throw new DomainError('UNAUTHORIZED', `${permission} needs one of: ${permissions[permission].join(', ')}`, { permission })
        throw new DomainError('FORBIDDEN', `${who.role} may not ${permission}`, { permission, role: who.role })
      }
    }
    await next()
  }
}

/** The person or device making the request (anonymous when authentication is off or absent). */
export function principalOf(c: AppContext): Principal {
  return c.get('principal') ?? ANONYMOUS
}

/** Refusals worth an audit record (issue 9: every refused attempt is journaled). */
const AUDITED: ReadonlySet<string> = new Set(['UNAUTHORIZED', 'FORBIDDEN', 'ACCOUNT_LOCKED', 'INVALID_SIGNATURE', 'ALREADY_PAID'])

export function createHttpApp(services: Services) {
  const { bingo, config } = services
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
    await services.db.get('SELECT 1 AS ok')
    return c.json({ ok: true, engine: services.db.engine, profile: config.profileId, version: services.version })
  })

  app.get('/api/keys', (c) => c.json(services.keys.publicInfo()))

  // ---- identities (issue 9)
  app.post('/api/auth/login', async (c) => {
    const b = await body(c, z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(256) }).strict())
    return c.json(await services.auth.login(b.username, b.password))
  })
  app.post('/api/auth/logout', async (c) => {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    if (token) await services.auth.logout(token)
    return c.json({ ok: true })
  })
  app.get('/api/auth/me', (c) => c.json(principalOf(c)))
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

  // ---- halls, series, sessions
  app.get('/api/halls', needs('hall.read'), async (c) => c.json({ halls: await services.db.all('SELECT id, name, profile_id AS "profileId", currency, playing_positions AS "playingPositions" FROM halls ORDER BY created_at') }))
  app.get('/api/halls/:hallId', needs('hall.read'), async (c) => {
    const hall = await services.db.get<Record<string, unknown>>('SELECT id, name, profile_id AS "profileId", currency, playing_positions AS "playingPositions" FROM halls WHERE id = ?', [param(c, 'hallId')])
    if (!hall) throw new DomainError('NOT_FOUND', 'hall not found')
    const session = await services.db.get<{ id: string }>("SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed' ORDER BY opened_at DESC LIMIT 1", [hall.id])
    const game = await services.db.get<{ id: string }>('SELECT id FROM games WHERE hall_id = ? ORDER BY created_at DESC LIMIT 1', [hall.id])
    const series = await services.db.all('SELECT id, code, card_count AS "cardCount", face_value_cents AS "faceValueCents", next_card_no AS "nextCardNo" FROM series WHERE hall_id = ? ORDER BY code', [hall.id])
    return c.json({ hall, openSessionId: session?.id ?? null, currentGameId: game?.id ?? null, series })
  })
  app.post('/api/halls', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ name: z.string().min(1).max(120), profileId: z.enum(['BO-2025', 'ES-CB-2010']), playingPositions: z.number().int().min(1).max(100_000), id: id.optional() }).strict())
    return c.json(await bingo.createHall(b), 201)
  })
  app.post('/api/master-sets', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ count: z.number().int().min(1).max(1_000_000), seed: z.string().min(1).max(128).optional() }).strict())
    return c.json(await bingo.createMasterSet(b), 201)
  })
  app.post('/api/halls/:hallId/series', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ code: z.string().min(1).max(8), masterSetId: id, faceValueCents: z.number().int().positive().max(100_000_000) }).strict())
    return c.json(await bingo.createSeries({ hallId: param(c, 'hallId'), ...b }), 201)
  })
  app.post('/api/halls/:hallId/sessions', needs('session.open'), async (c) => {
    const b = await body(c, z.object({ recount }).strict())
    return c.json(await bingo.openSession({ hallId: param(c, 'hallId'), recount: b.recount }), 201)
  })
  app.get('/api/sessions/:sessionId', needs('minutes.read'), async (c) => c.json(await services.minutes.sessionSummary(param(c, 'sessionId'))))
  app.post('/api/sessions/:sessionId/last-game', needs('session.close'), async (c) => {
    await bingo.announceLastGame(param(c, 'sessionId'))
    return c.json({ ok: true })
  })
  app.post('/api/sessions/:sessionId/close', needs('session.close'), async (c) => {
    const b = await body(c, z.object({ recount: recount.optional() }).strict())
    await bingo.closeSession(param(c, 'sessionId'), b.recount ?? null)
    return c.json({ ok: true })
  })
  app.get('/api/sessions/:sessionId/minutes', needs('minutes.read'), async (c) => c.json(await services.minutes.sessionMinutes(param(c, 'sessionId'))))
  app.get('/api/sessions/:sessionId/minutes.pdf', needs('minutes.read'), async (c) => {
    const pdf = await services.minutes.sessionMinutesPdf(param(c, 'sessionId'), pickLang(c.req.header('accept-language')))
    return c.body(pdf as unknown as ArrayBuffer, 200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="acta-${param(c, 'sessionId')}.pdf"` })
  })

  // ---- games
  app.post('/api/sessions/:sessionId/games', needs('game.announce'), async (c) => {
    const b = await body(c, z.object({ seriesIds: z.array(id).min(1).max(2), drawSource: z.enum(['rng', 'manual', 'blower']).optional(), deviceId: z.string().min(1).max(40).optional() }).strict())
    return c.json(await bingo.announceGame({ sessionId: param(c, 'sessionId'), ...b }), 201)
  })
  app.get('/api/games/:gameId', needs('game.read'), async (c) => c.json(await bingo.getGameState(param(c, 'gameId'))))
  app.get('/api/games/:gameId/state', needs('game.read'), async (c) => c.json(await bingo.getGameState(param(c, 'gameId'))))
  app.post('/api/games/:gameId/series', needs('game.announce'), async (c) => {
    const b = await body(c, z.object({ seriesId: id }).strict())
    return c.json(await bingo.addSeries(param(c, 'gameId'), b.seriesId))
  })
  app.post('/api/games/:gameId/sales/open', needs('game.sales'), async (c) => c.json(await bingo.openSales(param(c, 'gameId'))))
  app.post('/api/games/:gameId/sales/close', needs('game.sales'), async (c) => {
    const b = await body(c, z.object({ externalEntropy: z.string().max(1024).optional() }).strict())
    return c.json(await bingo.closeSales({ gameId: param(c, 'gameId'), externalEntropy: b.externalEntropy }))
  })
  app.post('/api/games/:gameId/sales', needs('game.sell'), async (c) => {
    const b = await body(c, z.object({ count: z.number().int().min(1).max(1000), channel: z.string().min(1).max(40).regex(/^[a-z0-9:_-]+$/).default('counter') }).strict())
    const cards = await bingo.sell({ gameId: param(c, 'gameId'), count: b.count, channel: b.channel })
    return c.json({ cards }, 201)
  })
  app.post('/api/games/:gameId/draw', needs('game.draw'), async (c) => c.json(await bingo.drawNext(param(c, 'gameId'))))
  app.post('/api/games/:gameId/balls', needs('game.draw'), async (c) => {
    const b = await body(c, z.object({ ball: z.number().int(), deviceId: z.string().max(64).optional() }).strict())
    return c.json(await bingo.enterBall(param(c, 'gameId'), b.ball, b.deviceId ?? null))
  })
  app.post('/api/games/:gameId/claims', needs('game.claim'), async (c) => {
    const b = await body(c, z.object({ kind: z.enum(['line', 'bingo']), serial: z.string().min(1).max(40) }).strict())
    const r = await bingo.claim({ gameId: param(c, 'gameId'), serial: b.serial, kind: b.kind })
    return c.json(r, r.ok ? 200 : 422)
  })
  app.post('/api/games/:gameId/claims/stop', needs('game.claim'), async (c) => c.json(await bingo.stopForClaim(param(c, 'gameId'))))
  app.post('/api/games/:gameId/claims/resume', needs('game.claim'), async (c) => c.json(await bingo.resumePlay(param(c, 'gameId'))))
  app.post('/api/games/:gameId/window/close', needs('game.window'), async (c) => c.json(await bingo.closeWindow(param(c, 'gameId'))))
  app.post('/api/games/:gameId/incidents', needs('game.incident'), async (c) => {
    const b = await body(c, z.object({
      kind: z.enum(['device-failure-before-first-ball', 'device-failure-after-first-ball', 'ball-irregularity', 'caller-error', 'unresolved-suspension', 'reader-misread']),
      note: z.string().max(2000).optional(), correctedBall: z.number().int().optional(),
    }).strict())
    return c.json(await bingo.declareIncident({ gameId: param(c, 'gameId'), ...b }))
  })
  app.post('/api/games/:gameId/resume', needs('game.incident'), async (c) => c.json(await bingo.resume(param(c, 'gameId'))))
  app.get('/api/games/:gameId/proof', needs('game.read'), async (c) => c.json(await bingo.getProof(param(c, 'gameId'))))
  app.get('/api/games/:gameId/cards/:serial', needs('game.claim'), async (c) => {
    const card = await bingo.getCard(param(c, 'gameId'), param(c, 'serial'))
    if (!card) throw new DomainError('TICKET_NOT_FOUND', 'card not sold in this game')
    return c.json(card)
  })
  app.get('/api/games/:gameId/prizes', needs('game.read'), async (c) => c.json({ prizes: await bingo.listPrizes(param(c, 'gameId')) }))
  app.post('/api/prizes/:prizeId/pay', needs('prize.pay'), async (c) => {
    const b = await body(c, z.object({ paidBy: z.string().min(1).max(120) }).strict())
    return c.json(await bingo.payPrize({ prizeId: param(c, 'prizeId'), paidBy: b.paidBy }))
  })

  // ---- journal
  app.get('/api/journal', needs('journal.read'), async (c) => {
    const from = Math.max(0, Number(c.req.query('from') ?? 0) || 0)
    const limit = Math.min(1000, Math.max(1, Number(c.req.query('limit') ?? 100) || 100))
    const rows = await services.db.all<Record<string, unknown>>('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?', [from, limit])
    return c.json({ records: rows.map((r) => ({ ...r, payload: JSON.parse(String(r.payload)) })) })
  })
  app.get('/api/journal/verify', needs('journal.read'), async (c) => c.json(await services.verifyJournal()))

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
