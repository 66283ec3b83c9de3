/**
 * Issue 27: the routes of hall terminals. The terminal is the enrolled device that asks (its credential), never a
 * name in a body: its session, cards and balance are found from it. Thin: validate, authorize, one use case.
 */
import { z } from 'zod'
import { body, nameOf, needs, param, principalOf, type App, type AppContext } from '../http/context.ts'
import { DomainError } from '../shared/errors.ts'
import { tillOf } from '../http/till.ts'
import { cashCount } from '../http/station.ts'
import type { Services } from '../services.ts'

const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)

/** The enrolled terminal making the request; with authentication off (tests that say why) the query's `terminal`. */
function terminalOf(c: AppContext): string {
  const who = principalOf(c)
  if (who.kind === 'device') return who.id
  if (!c.get('authOn')) return c.req.query('terminal') ?? 'terminal-1'
  throw new DomainError('FORBIDDEN', 'only an enrolled terminal plays at a terminal', {})
}

const termsBody = z
  .object({
    reference: z.string().min(3).max(200),
    terms: z
      .object({
        markingMode: z.enum(['automatic', 'per-ball', 'catch-up']),
        maxCardCents: cents,
        maxGameCents: cents,
        maxSessionCents: cents,
        minGameSeconds: z.number().int().min(0).max(86_400),
        prizeReturnBp: z.object({ min: z.number().int().min(0), max: z.number().int().max(10_000) }).strict(),
        terminalRangePercent: z.number().int().min(1).max(99),
        onDisconnect: z.enum(['play-on-credit']).optional(),
      })
      .strict(),
  })
  .strict()

export function registerTerminalRoutes(app: App, services: Services): void {
  const { terminals } = services
  app.get('/api/terminal/state', needs('terminal.play'), async (c) => c.json(await terminals.view(terminalOf(c))))
  app.post('/api/terminal/session', needs('terminal.play'), async (c) => {
    const b = await body(
      c,
      z.object({ voucherCode: z.string().min(1).max(400), ageConfirmed: z.boolean().optional() }).strict(),
    )
    return c.json(
      await terminals.open({ terminalId: terminalOf(c), voucherCode: b.voucherCode, ageConfirmed: b.ageConfirmed }),
      201,
    )
  })
  app.post('/api/terminal/cards', needs('terminal.play'), async (c) => {
    const b = await body(c, z.object({ count: z.number().int().min(1).max(1000), gameId: id.optional() }).strict())
    return c.json(await terminals.buy({ terminalId: terminalOf(c), count: b.count, gameId: b.gameId }), 201)
  })
  app.post('/api/terminal/claims', needs('terminal.play'), async (c) => {
    const b = await body(c, z.object({ cardId: id, kind: z.enum(['line', 'bingo']) }).strict())
    return c.json(await terminals.claim({ terminalId: terminalOf(c), ...b }))
  })
  app.post('/api/terminal/session/end', needs('terminal.play'), async (c) =>
    c.json(await terminals.end({ terminalId: terminalOf(c) })),
  )
  // A lost session's balance, at a cash desk of its hall, against the original voucher.
  app.post('/api/terminal-sessions/recover', needs('terminal.recover'), async (c) => {
    const b = await body(c, z.object({ voucherCode: z.string().min(1).max(400) }).strict())
    const till = await tillOf(c, services, {})
    return c.json(
      await terminals.recover({ voucherCode: b.voucherCode, stationId: till.stationId, cashierId: till.cashierId }),
    )
  })
  // Credit loaded by a cashier at her station: the cash into her drawer, the terminal's balance up (or a session
  // started). The hall is the terminal's; the drawer the person's open shift at the station she logged in at.
  app.get('/api/halls/:hallId/terminals', needs('terminal.load'), async (c) =>
    c.json(await terminals.terminalsOf(param(c, 'hallId'))),
  )
  app.post('/api/terminal-sessions/load', needs('terminal.load'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          terminalId: id,
          amountCents: cents.min(1),
          cash: cashCount,
          ageConfirmed: z.boolean().optional(),
          buyerDocument: z.string().max(40).optional(),
        })
        .strict(),
    )
    const till = await tillOf(c, services, {})
    return c.json(await terminals.load({ ...b, ...till }), 201)
  })
  app.get('/api/halls/:hallId/terminal-terms', needs('hall.read'), async (c) =>
    c.json(await terminals.termsOf(param(c, 'hallId'))),
  )
  app.put('/api/halls/:hallId/terminal-terms', needs('terminal.terms'), async (c) => {
    const b = await body(c, termsBody)
    return c.json(await terminals.setTerms({ hallId: param(c, 'hallId'), ...b, by: nameOf(c, 'sin autenticación') }))
  })
}
