/**
 * Issue 28 point 2: the regulator reads the signed batches of the control feed, read only. A regulator sees the
 * batches of its own halls and the operator's chain (lotto and other operator-wide products); a regulator of every
 * hall ('*') sees every chain. Its own rate limit, on top of the per-person one: the feed is read in pages.
 */
import { needs, principalOf, type App, type AppContext } from '../http/context.ts'
import { createRateLimiter } from '../http/rate-limit.ts'
import { DomainError } from '../shared/errors.ts'
import type { Services } from '../services.ts'
import { OPERATOR_CHAIN } from './derive.ts'

/** Requests a minute one regulator account may make to the feed. */
export const REGULATOR_REQUESTS_PER_MINUTE = 30

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

export function registerRegulatorRoutes(app: App, services: Services): void {
  const limiter = createRateLimiter(REGULATOR_REQUESTS_PER_MINUTE)

  async function chainsFor(c: AppContext, hallId: string | undefined): Promise<string[]> {
    const who = principalOf(c)
    const known = await services.regulator.chains()
    const mine =
      !c.get('authOn') || who.halls === '*'
        ? known
        : known.filter((ch) => ch === OPERATOR_CHAIN || (who.halls ?? []).includes(ch))
    // The hall guard has already refused a hallId outside the person's halls (access/halls.ts).
    return hallId ? mine.filter((ch) => ch === hallId) : mine
  }

  app.get('/api/regulator/batches', needs('regulator.read'), async (c) => {
    const who = principalOf(c)
    if (!limiter.take(`${who.kind}:${who.id}`))
      throw new DomainError('RATE_LIMITED', `more than ${REGULATOR_REQUESTS_PER_MINUTE} feed requests a minute`)
    const since = c.req.query('since') ?? '1970-01-01T00:00:00.000Z'
    if (!ISO.test(since) || Number.isNaN(Date.parse(since)))
      throw new DomainError('VALIDATION_FAILED', 'since is an ISO 8601 time with its offset', { field: 'since' })
    const limit = Math.min(100, Math.max(1, Number(c.req.query('limit') ?? 100) || 100))
    const chains = await chainsFor(c, c.req.query('hallId'))
    const batches = await services.regulator.batchesSince(chains, new Date(Date.parse(since)).toISOString(), limit)
    return c.json({
      operator: services.regulator.operator,
      key: services.keys.publicInfo(),
      chains,
      batches,
      next: batches.at(-1)?.header.closedAt ?? since,
    })
  })

  /**
   * Issue 28 point 3 (002 §7.3.4.2-3, §7.3.7.1): a lotto draw's close-of-sales file, signed, from the close of sales
   * on (before it, 409 ILLEGAL_TRANSITION). Two doors to the same document: the regulator's, rate-limited like the
   * feed, and a public one (GET /api/lotto/draws/:drawId/close-of-sales, `game.read`: anyone), because the decree
   * has the receipt numbers and combinations published to the players before the draw. The public one is not
   * hall-scoped: a lotto draw is the operator's, sold in every hall, and its file is one for all of them. A receipt
   * number pays nothing without the signed ticket code.
   */
  app.get('/api/regulator/lotto/:drawId/close-of-sales', needs('regulator.read'), async (c) => {
    const who = principalOf(c)
    if (!limiter.take(`${who.kind}:${who.id}`))
      throw new DomainError('RATE_LIMITED', `more than ${REGULATOR_REQUESTS_PER_MINUTE} feed requests a minute`)
    return c.json(await services.closeOfSales.document(c.req.param('drawId') ?? ''))
  })
  app.get('/api/lotto/draws/:drawId/close-of-sales', needs('game.read'), async (c) =>
    c.json(await services.closeOfSales.document(c.req.param('drawId') ?? '')),
  )

  app.get('/api/regulator/state', needs('regulator.state'), async (c) => {
    const state = await services.regulator.state()
    const chains = await chainsFor(c, undefined)
    return c.json({
      ...state,
      selfVerification: services.selfVerification.last(),
      chains: state.chains.filter((ch) => chains.includes(ch.chain)),
      pending: state.pending.filter((p) => chains.includes(p.chain)),
    })
  })
}
