import { registerTerminalRoutes } from '../terminals/routes.ts'
import { Hono } from 'hono'
import { actorOf, errorBody, needs, principalOf, readsIdentity, type AppContext, type AppEnv } from './context.ts'
import { assertSameHall, hallOfRequest, namedResources } from '../access/halls.ts'
import { documentsIn, PlayerExcluded } from '../access/players.ts'
import { PLAY_OR_PRIZE } from '../access/permissions.ts'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { DomainError, type ErrorCode } from '../shared/errors.ts'
import type { Services } from '../services.ts'
import { ANONYMOUS } from '../access/service.ts'
import { appendJournal } from '../shared/journal.ts'
import { createRateLimiter } from './rate-limit.ts'
import { clientAddress } from './client-address.ts'
import { runAs } from '../shared/request-context.ts'
import { LOGIN_REFUSED } from '../access/service.ts'
import { runtime } from '../shared/runtime.ts'
import { hasBody, parseRequestBody } from './request-body.ts'
import { registerCashdeskRoutes } from '../cashdesk/routes.ts'
import { registerEquipmentRoutes } from '../equipment/routes.ts'
import { registerInstantRoutes } from '../instant/routes.ts'
import { registerBonusRoutes } from '../bingo/bonus-routes.ts'
import { registerComplaintsRoutes } from '../bingo/complaints-routes.ts'
import { registerCustodyRoutes } from '../bingo/custody-routes.ts'
import { registerLottoRoutes } from '../lotto/routes.ts'
import { registerLotteryRoutes } from '../lottery/routes.ts'
import { registerDrawLifecycleRoutes } from '../draws/routes.ts'
import { registerPrizeRegisterRoutes } from './prize-register-routes.ts'
import { registerAccessRoutes } from '../access/routes.ts'
import { registerBingoRoutes } from '../bingo/routes.ts'
// Issue 17: the back office's reports and the instant generation's live progress.
import { registerReportsRoutes } from '../reports/routes.ts'
import { registerInstantGenerationRoutes } from '../instant/generation-routes.ts'
import { committedJournalHorizon, journalPage } from '../shared/store.ts'
import { revealDocuments } from '../shared/journal-privacy.ts'
import { ping } from '../db/health.ts'
import { registerRegulatorRoutes } from '../regulator/routes.ts'

const statusByCode: Record<ErrorCode, ContentfulStatusCode> = {
  VALIDATION_FAILED: 400,
  TYPED_SEED_REFUSED: 400,
  NOT_FOUND: 404,
  GAME_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  TICKET_NOT_FOUND: 404,
  ILLEGAL_TRANSITION: 409,
  SALES_CLOSED: 409,
  SALES_NOT_OPEN: 409,
  SERIES_EXHAUSTED: 409,
  SERIES_RULE_VIOLATED: 422,
  DUPLICATE_CARD: 409,
  NUMBERS_TAKEN: 409,
  CHOSEN_NUMBERS_INVALID: 422,
  CHOSEN_NUMBERS_CHANNEL: 409,
  MINIMUM_PARTICIPATION: 422,
  BALL_ALREADY_DRAWN: 409,
  CALLING_TOO_SOON: 409,
  BALL_OUT_OF_RANGE: 422,
  NO_BALLS_LEFT: 409,
  CLAIM_REJECTED: 422,
  CLAIM_CLOSED: 409,
  NOT_VERIFIED: 409,
  ALREADY_PAID: 409,
  INVALID_SIGNATURE: 422,
  CONFLICT: 409,
  ROW_TAMPERED: 409,
  BEACON_PENDING: 409,
  DEVICE_UNAVAILABLE: 503,
  DEVICE_NOT_CERTIFIED: 422,
  DEVICE_MARKS_MISSING: 422,
  PRINTER_MARKS_MISSING: 422,
  SOFTWARE_NOT_CERTIFIED: 422,
  DEMO_REFERENCE_REFUSED: 400,
  BALL_SET_EXHAUSTED: 409,
  BALL_SET_REQUIRED: 409,
  RESERVE_BALL_SET_REQUIRED: 409,
  LOTTO_BALL_SET_REQUIRED: 409,
  LOTTERY_BALL_SET_REQUIRED: 409,
  BALL_SET_IN_USE: 409,
  BALL_SET_RETIRED: 409,
  BALL_SET_REFERENCE_TAKEN: 409,
  IDENTITY_DOCUMENT_NOT_ACCEPTED: 422,
  PAYEE_PHONE_REQUIRED: 422,
  LAYOUT_NOT_AUTHORISED: 422,
  EQUIPMENT_CHECK_FAILED: 409,
  ENTROPY_HEALTH_FAILED: 503,
  RULE_DISABLED: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ACCOUNT_LOCKED: 423,
  RATE_LIMITED: 429,
  VOUCHER_SPENT: 409,
  VOUCHER_EXPIRED: 410,
  VOUCHER_INSUFFICIENT: 422,
  TERMINAL_CAP_EXCEEDED: 422,
  TERMINAL_GAME_TOO_SOON: 409,
  TERMINAL_BALANCE_INSUFFICIENT: 422,
  TERMINAL_SESSION_CLOSED: 409,
  TERMINAL_TERMS_DISCONNECTION: 400,
  TERMINAL_CARD_NOT_HELD: 403,
  NOT_A_WINNER: 422,
  PRIZE_PENDING: 409,
  TICKET_EXPIRED: 410,
  TICKET_VOID: 409,
  TICKET_BLOCKED: 423,
  DRAW_OUT_OF_ORDER: 409,
  POINTS_SHORT: 422,
  TICKET_ALREADY_USED: 409,
  OBJECT_TAKEN: 409,
  OTHER_TOMBOLA: 400,
  PAYEE_ID_REQUIRED: 422,
  PACK_NOT_ACTIVATED: 409,
  INVENTORY_CODE_REQUIRED: 422,
  INVENTORY_CODE_MISMATCH: 409,
  RNG_NO_MANUAL_BALL: 409,
  SECOND_PERSON_REQUIRED: 403,
  // Issue 18 (lottery helper): LOT-21 / LNS-22.
  DRAW_NOT_DUE: 409,
  ROLLOVER_UNMAPPED: 409,
  DRAW_CANCELLED: 409,
  // Issue 18 (rules): LNS-14, LNS-21, LOT-28.
  PUBLICATION_HOLD: 409,
  NOTARIAL_ACT_REQUIRED: 409,
  OUTSIDE_TERRITORY: 403,
  COMPLAINT_ANSWERED: 409,
  // Issue 13 points 5-8 (cashier)
  STATION_REQUIRED: 409,
  SHIFT_NOT_OPEN: 409,
  SHIFT_ALREADY_OPEN: 409,
  CODE_REQUIRED: 422,
  ANNUL_AFTER_PAYOUT: 409,
  NOT_REFUNDABLE: 409,
  ALREADY_REFUNDED: 409,
  AML_REVIEW_PENDING: 409,
  BUYER_ID_REQUIRED: 422,
  CASH_COUNT_REQUIRED: 422,
  DENOMINATION_UNKNOWN: 422,
  CASH_COUNT_BY_PIECE: 400,
  // Issue 18 (bingo rules)
  SERIES_LAPSED: 409,
  PRIZE_SHARES_INVALID: 422,
  PRIZES_UNPAID: 409,
  PRIZE_FORFEITED: 409,
  RESERVE_SET_REQUIRED: 409,
  CORRECTION_TOO_LATE: 409,
  BETTING_PLAN_REQUIRED: 409,
  // Issue 14
  WRONG_HALL: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  PLAYER_EXCLUDED: 403,
  PAYEE_NOT_BUYER: 403,
  // Issue 13 (money-kiosk)
  // 409 like STATION_REQUIRED: the kiosk may sell (the permission table says so), only not for cash.
  KIOSK_VOUCHER_ONLY: 409,
  AGE_NOT_CONFIRMED: 400,
  PLAYER_ID_REQUIRED: 403,
  // Issue 29: the caller says which series.
  SERIAL_AMBIGUOUS: 409,
  SHIFT_COUNT_DIFFERS: 422,
  SERIAL_NOT_A_CODE: 422,
  REGULATOR_REF_REQUIRED: 422,
  // Issue 29 point 8: lottery returns.
  RETURN_NOT_HELD: 409,
  RETURN_SELLER_REQUIRED: 422,
  RETURN_AFTER_CLOSE: 409,
  // Issue 18 (bingo sale rules)
  BET_OUT_OF_LIMITS: 422,
  BET_LIMITS_NOT_AUTHORISED: 409,
  OPERATING_LICENCE_REQUIRED: 409,
  INTERCONNECTED_NOT_AUTHORISED: 422,
  FACE_VALUE_NOT_AUTHORISED: 422,
  FACE_VALUES_NOT_RECORDED: 409,
  GAME_NOT_AUTHORISED: 409,
  HALL_FULL: 409,
  HALL_ENTRY_CLOSED: 409,
  PREVIOUS_CARDS_NOT_RETURNED: 409,
  CARD_TRANSFER_FORBIDDEN: 403,
  // Issue 18 (bingo rules): BNG-87/92, BNG-77, BNG-65
  CARD_HELD: 423,
  CARD_DESTROYED: 410,
  CARD_CUSTODY_REFUSED: 409,
  RETENTION_NOT_ELAPSED: 409,
  HALL_CLOSED: 409,
  // Issue 23 point 3
  UNSUPPORTED_MEDIA_TYPE: 415,
  // CFG-39
  IMAGE_NOT_PNG: 415,
  IMAGE_TOO_LARGE: 413,
}

/** Where a person who must change their password may still go (issue 14 point 5). */
const PASSWORD_CHANGE_PATHS: ReadonlySet<string> = new Set([
  '/api/auth/password',
  '/api/auth/logout',
  '/api/auth/me',
  '/api/me',
  '/api/health',
])

/** The username a refused login named (the body was read by the route; hono keeps it). */
function loginName(c: { req: { path: string }; get: (k: 'loginName') => string | undefined }): string | undefined {
  return c.req.path === '/api/auth/login' ? c.get('loginName') : undefined
}

/** Refusals worth an audit record (issue 9: every refused attempt is journaled). */
const AUDITED: ReadonlySet<string> = new Set([
  'UNAUTHORIZED',
  'FORBIDDEN',
  'ACCOUNT_LOCKED',
  'INVALID_SIGNATURE',
  'ALREADY_PAID',
  'TICKET_ALREADY_USED',
  'SECOND_PERSON_REQUIRED',
  'WRONG_HALL',
  'PLAYER_EXCLUDED',
  'ALREADY_REFUNDED',
  'ANNUL_AFTER_PAYOUT',
])

export function createHttpApp(services: Services) {
  const { config } = services
  const app = new Hono<AppEnv>()

  const limitBody = bodyLimit({
    maxSize: 256 * 1024,
    onError: (c) => c.json(errorBody(c, 'PAYLOAD_TOO_LARGE', 'body over 256 KiB'), 413),
  })
  // With a Content-Length the limit is checked on the header alone: hono's bodyLimit reads c.req.raw.body, which
  // makes the node adapter build a web Request and stream for every POST (a fifth of the lotto sale path's CPU).
  app.use('/api/*', async (c, next) => {
    const length = c.req.header('content-length')
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return limitBody(c, next)
    if (Number(length) > 256 * 1024) return c.json(errorBody(c, 'PAYLOAD_TOO_LARGE', 'body over 256 KiB'), 413)
    await next()
  })

  const limiter = createRateLimiter(config.rateLimitPerMinute)
  // Issue 14 point 4: a budget per client address before any credential is looked at, and a small one for
  // refused credentials, so neither guessing nor flooding costs the server a password hash or a journal row each.
  const addressLimiter = createRateLimiter(config.rateLimitPerMinute)
  const refusedCredentials = createRateLimiter(config.authFailuresPerMinute ?? 30)
  app.use('/api/*', async (c, next) => {
    const address = clientAddress(
      (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress,
      c.req.header('x-forwarded-for'),
      config.trustedProxies ?? [],
    )
    c.set('address', address)
    if (!addressLimiter.take(`ip:${address}`))
      throw new DomainError(
        'RATE_LIMITED',
        `more than ${config.rateLimitPerMinute} requests a minute from this address`,
      )
    if (!refusedCredentials.has(address))
      throw new DomainError('RATE_LIMITED', 'too many refused credentials from this address; wait a minute')
    const authOn = config.auth === 'on'
    c.set('authOn', authOn)
    c.set('admission', checkAdmission)
    const principal = authOn ? await services.auth.authenticate(c.req.header('authorization')) : ANONYMOUS
    c.set('principal', principal)
    c.set('confirmPerson', services.auth.confirmPerson)
    c.set('hallGuard', guardHalls)
    // Per person or device; anonymous callers share their address's bucket above.
    if (principal.kind !== 'anonymous' && !limiter.take(`${principal.kind}:${principal.id}`))
      throw new DomainError('RATE_LIMITED', `more than ${config.rateLimitPerMinute} requests a minute`)
    // Issue 14 point 5: a person whose password must change can only change it (or look at who they are, or leave).
    if (principal.mustChangePassword && !PASSWORD_CHANGE_PATHS.has(c.req.path))
      throw new DomainError('PASSWORD_CHANGE_REQUIRED', 'change your password first (POST /api/auth/password)')
    // Issue 23 point 3: the body is parsed once, here, and the guards and the route all read this one value: a body
    // not labelled JSON is refused (415) instead of reaching the route unseen by the hall and exclusion checks.
    const text = hasBody(c.req.method) ? await c.req.text() : ''
    c.set('requestBody', parseRequestBody(c.req.method, c.req.header('content-type'), text))
    // Issue 14 point 2: every journal record written while serving this request names its actor.
    if (!authOn) return next()
    // Issue 23 point 3: and the use cases that move money check the hall against the principal's own halls.
    return runAs(
      () => actorOf(c),
      next,
      () => {
        const who = principalOf(c)
        return { halls: who.halls ?? [], deviceHall: who.device?.hallId ?? null }
      },
    )
  })

  /**
   * Issue 14 point 8: every identity document a sale or payout presents is checked against the exclusion list. The
   * use cases that sell check the identities they resolve themselves (issue 23 point 3); this catches the rest.
   * Decided by what the route does (the permission it needs), not by a body that carries a document: exclusion bars
   * play and prizes (PLAY_OR_PRIZE, GEN-23 / GEN-27), not a complaint (GEN-21 (4)) nor the list's own upkeep.
   */
  async function checkAdmission(c: AppContext): Promise<void> {
    const permission = c.get('permission')
    if (!permission || !PLAY_OR_PRIZE.has(permission)) return
    const parsed = c.get('requestBody')
    const documents = documentsIn(parsed)
    // Issue 23 point 3: the exclusions of the hall the request touches (its device's, its resources'), never of a hall
    // its body names; the refusal is recorded in that hall's chain and locks it alone (issue 23 point 5).
    if (documents.length)
      await services.players.assertAdmitted(
        documents,
        await hallOfRequest(services.db, principalOf(c), c.req.param(), parsed),
      )
  }

  /** Issue 14 point 1: the ids in the path, the query and the JSON body, each resolved to its halls. */
  async function guardHalls(c: AppContext): Promise<void> {
    const parsed = c.get('requestBody')
    const named = namedResources({ ...c.req.query(), ...c.req.param() }, parsed)
    if (named.length) await assertSameHall(services.db, principalOf(c), named)
  }

  app.onError(async (err, c) => {
    if (err instanceof DomainError && AUDITED.has(err.code)) {
      const who = principalOf(c)
      const address = c.get('address') ?? 'local'
      // A refused credential (bad login, unknown token) spends the address's small budget; a missing one does not.
      const badCredential =
        err.code === 'UNAUTHORIZED' && !(err.details && typeof err.details === 'object' && 'permission' in err.details)
      if (badCredential) refusedCredentials.take(address)
      if (who.kind === 'anonymous') {
        // Issue 14 point 4: anonymous refusals are counted and journaled as one summary a minute, not a row each.
        const username = err.message === LOGIN_REFUSED ? loginName(c) : undefined
        services.refusals.count({
          code: err.code,
          method: c.req.method,
          route: c.req.routePath.includes('*') ? c.req.path.slice(0, 80) : c.req.routePath,
          address,
          username,
        })
      } else {
        // Issue 23 point 5: an excluded player's refusal goes to the chain of the hall it was decided in (the one its
        // player.refused record locks), and locks that hall alone; the other refusals go to the operator chain and lock
        // it alone (db/scopes.ts): a refused scan at one hall's desk neither waits for nor holds up another hall.
        const hall = err instanceof PlayerExcluded ? err.hallId : null
        await services.db
          .transaction(
            (tx) =>
              appendJournal(tx, {
                at: services.clock.now().toISOString(),
                type: 'access.refused',
                scope: hall ? `hall:${hall}` : '',
                payload: {
                  code: err.code,
                  method: c.req.method,
                  path: c.req.path,
                  principal: { kind: who.kind, id: who.id, name: who.name, role: who.role },
                  address,
                  reason: err.message,
                },
              }),
            { scopes: [hall ? `hall:${hall}` : 'operator'] },
          )
          .catch((e) => services.log.warn('could not journal a refusal', e))
      }
    }
    if (err instanceof DomainError)
      return c.json(errorBody(c, err.code, err.message, err.details), statusByCode[err.code] ?? 400)
    services.log.error('unexpected error', err)
    return c.json(errorBody(c, 'INTERNAL', 'internal error'), 500)
  })
  app.notFound((c) => c.json(errorBody(c, 'ROUTE_NOT_FOUND', `${c.req.method} ${c.req.path}`), 404))

  app.get('/api/health', async (c) => {
    await ping(services.db)
    return c.json({
      ok: true,
      engine: services.db.engine,
      runtime,
      profile: config.profileId,
      version: services.version,
    })
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
    // Issue 24 point 2: identity documents are sealed in the journal; opened for the roles that read a person's
    // identity (aml.identity: the officer, the director, the inspector), as in the AML records and the registers,
    // masked for every other reader.
    const opener = readsIdentity(c) ? services.sealer : null
    // A reader paging by `from` never passes over a record that commits late (halls' chains commit side by side).
    const upTo = await committedJournalHorizon(services.db)
    return c.json({
      records: (await journalPage(services.db, from, limit, upTo)).map((r) => ({
        ...r,
        payload: revealDocuments(r.payload, opener),
      })),
    })
  })
  app.get('/api/journal/verify', needs('journal.read'), async (c) => c.json(await services.verifyJournal()))
  // Issue 15 point 5: the signed checkpoints as JSON lines, a file a regulator keeps for `verify-journal --checkpoints`.
  app.get('/api/journal/checkpoints', needs('journal.read'), async (c) => {
    const after = Math.max(0, Number(c.req.query('after') ?? 0) || 0)
    const lines = (await services.checkpoints.list(after)).map((cp) => JSON.stringify(cp)).join('\n')
    return c.body(lines ? `${lines}\n` : '', 200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': 'inline; filename="checkpoints.jsonl"',
    })
  })

  // ---- vouchers, kiosk sales, validation and payout (issue #3)
  registerCashdeskRoutes(app, services)
  // ---- electronic bingo on hall terminals (issue 27)
  registerTerminalRoutes(app, services)
  registerEquipmentRoutes(app, services)
  // ---- instant lottery (issue #7)
  registerInstantRoutes(app, services)
  // ---- prima, pots, lucky ball, simultaneous games, other modalities (issue #8)
  registerBonusRoutes(app, services)
  registerComplaintsRoutes(app, services)
  registerCustodyRoutes(app, services)
  // ---- lotto, numbered-ticket lotteries, raffles (issue #6)
  registerLottoRoutes(app, services)
  // §7.13 (INS-5, LNS-25): the printable prize register of the lotto, lotteries and instant games.
  registerPrizeRegisterRoutes(app, services)
  registerLotteryRoutes(app, services)
  // The draw lifecycle lotto shares with lotteries and raffles, the same routes under each prefix (issue 23 point 6).
  registerDrawLifecycleRoutes(app, '/api/lotto', services.lotto)
  registerDrawLifecycleRoutes(app, '/api/lottery', services.lottery)
  // ---- back office: reports, ball-set frequencies, master sets, instant generation progress (issue 17)
  registerReportsRoutes(app, services)
  registerInstantGenerationRoutes(app, services)
  // ---- the regulator's signed control feed (issue 28)
  registerRegulatorRoutes(app, services)

  return app
}
