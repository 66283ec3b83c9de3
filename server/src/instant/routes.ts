/**
 * HTTP routes of the instant lottery (issue #7), under /api/instant. Cashier scans of instant tickets also arrive
 * through the generic POST /api/tickets/validate and /api/tickets/pay (cashdesk/routes.ts), which hand kind `I`
 * codes to the same service.
 */
import { getProfile } from '../shared/profile.ts'
import {
  forReader,
  actorOf,
  actors,
  body,
  errorBody,
  nameOf,
  needs,
  principalOf,
  secondPerson,
  type App,
  type AppContext,
} from '../http/context.ts'
import { tillOf } from '../http/till.ts'
import { pickLang } from '../http/messages.ts'
import { z } from 'zod'
import { DomainError } from '../shared/errors.ts'
import type { InstantDesign } from './design.ts'
import type { Services } from '../services.ts'
import { typedSeedRefused } from './games.ts'
import { counterCashFields, counterTill } from '../http/station.ts'

const code = z.string().min(1).max(400)
const station = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_.:-]+$/)
const person = z.string().min(1).max(120)
const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
const place = z
  .string()
  .min(1)
  .max(80)
  // A place is typed by staff in words ("Almacén central", "Sala Illimani"): letters of any language.
  .regex(/^[\p{L}\p{N}_.:@ ,-]+$/u)
const misprint = z.enum([
  'illegible',
  'printing-defect',
  'wrong-symbols',
  'contradicted-by-control-number',
  'serial-mismatch',
])

const SEED_SHUT = {
  es: (opensAt: string | null) =>
    'La semilla de un juego de raspadita solo se abre cuando el juego está cerrado y terminó su plazo de cobro: ' +
    (opensAt ? `se podrá abrir después del ${opensAt}.` : 'el juego sigue a la venta.'),
  en: (opensAt: string | null) =>
    "An instant game's seed opens only once the game is closed and its claim period has ended: " +
    (opensAt ? `it can be opened after ${opensAt}.` : 'the game is still on sale.'),
}

function gameNoOf(c: AppContext): number {
  const n = Number(c.req.param('gameNo'))
  if (!Number.isInteger(n) || n < 1 || n > 9999)
    throw new DomainError('VALIDATION_FAILED', 'game number must be 1..9999')
  return n
}

export function registerInstantRoutes(app: App, services: Services): void {
  const instant = services.instant

  app.get('/api/instant/games', needs('hall.read'), async (c) => c.json({ games: await instant.listGames() }))
  app.get('/api/instant/games/:gameNo', needs('hall.read'), async (c) => c.json(await instant.getGame(gameNoOf(c))))

  // Generation over HTTP is for small games (tests, e-instant pools); big print runs use `npx bolillo instant generate`.
  // The seed comes from the entropy source: a body that still carries one is refused by name, not ignored.
  app.post('/api/instant/games', needs('lottery.admin'), async (c) => {
    const b = await body(
      c,
      z.object({ design: z.record(z.string(), z.unknown()), seed: z.unknown().optional() }).strict(),
    )
    if (b.seed !== undefined) throw typedSeedRefused()
    const ticketCount = Number((b.design as { ticketCount?: unknown }).ticketCount)
    if (ticketCount > 1_000_000)
      throw new DomainError(
        'VALIDATION_FAILED',
        'over HTTP at most 1,000,000 tickets: use npx bolillo instant generate',
      )
    const who = principalOf(c)
    return c.json(
      await instant.generateBatch({ design: b.design as unknown as InstantDesign, by: { kind: who.kind, id: who.id } }),
      201,
    )
  })
  // INS-3: an auditor opens a batch's sealed seed to regenerate it bit for bit; journaled with who and why.
  // INS-3: the batch's generator (certification reference, build hash) checked against the running and certified builds.
  app.get('/api/instant/games/:gameNo/generator', needs('report.read'), async (c) =>
    c.json(await instant.verifyGenerator(gameNoOf(c))),
  )
  // INS-3 / RNG-27: the AJ-authorised certifiers whose signed certificates the generator runs under, the running
  // build's hash (what a certificate must name) and what the gate says of the configured certificate today.
  app.get('/api/instant/generator-certifiers', needs('report.read'), async (c) =>
    c.json(await instant.listCertifiers()),
  )
  // Recorded and withdrawn by whoever records the certified software (the director), not by who generates batches.
  app.post('/api/instant/generator-certifiers', needs('device.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          name: z.string().min(1).max(120),
          ajAuthorisationRef: z.string().min(1).max(120),
          publicKey: z.string().regex(/^[0-9a-fA-F]{64}$/),
          by: person.optional(),
        })
        .strict(),
    )
    const { by, ...input } = b
    return c.json(await instant.recordCertifier(input, nameOf(c, by)), 201)
  })
  app.post('/api/instant/generator-certifiers/:certifierId/withdraw', needs('device.admin'), async (c) => {
    const b = await body(c, z.object({ reason: z.string().min(1).max(500), by: person.optional() }).strict())
    return c.json(await instant.withdrawCertifier(c.req.param('certifierId') ?? '', b.reason, nameOf(c, b.by)))
  })
  // Issue 24 point 3: only once the game is closed and its claim period has ended; a refusal is journaled and said
  // in words (the generic ILLEGAL_TRANSITION text speaks of a bingo game).
  app.post('/api/instant/games/:gameNo/audit/seed', needs('instant.audit'), async (c) => {
    const b = await body(c, z.object({ reason: z.string().min(3).max(400) }).strict())
    const who = principalOf(c)
    try {
      return c.json(
        await instant.exportSeed({ gameNo: gameNoOf(c), reason: b.reason, by: { kind: who.kind, id: who.id } }),
      )
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'ILLEGAL_TRANSITION') throw err
      const opensAt = (err.details as { opensAt?: string | null } | undefined)?.opensAt ?? null
      const out = errorBody(c, err.code, err.message, err.details)
      out.error.message = SEED_SHUT[pickLang(c.req.header('accept-language'))](opensAt)
      return c.json(out, 409)
    }
  })
  app.post('/api/instant/games/:gameNo/close', needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ by: person.optional() }).strict())
    return c.json(await instant.closeGame({ gameNo: gameNoOf(c), by: nameOf(c, b.by) }))
  })

  // ---- inventory
  app.post('/api/instant/games/:gameNo/packs/ship', needs('lottery.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          fromPack: z.number().int().min(1),
          toPack: z.number().int().min(1),
          destination: place,
          by: person.optional(),
        })
        .strict(),
    )
    return c.json(await instant.shipPacks({ gameNo: gameNoOf(c), ...b, by: nameOf(c, b.by) }))
  })
  app.post('/api/instant/packs/activate', needs('lottery.sell'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code: code.optional(),
          gameNo: z.number().int().optional(),
          packNo: z.number().int().optional(),
          location: place,
          by: person.optional(),
        })
        .strict(),
    )
    return c.json(await instant.activatePack({ ...b, by: nameOf(c, b.by) }))
  })
  app.post('/api/instant/games/:gameNo/reports', needs('ticket.block'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          kind: z.enum(['lost', 'stolen']),
          fromSerial: z.string().max(20).optional(),
          toSerial: z.string().max(20).optional(),
          fromPack: z.number().int().optional(),
          toPack: z.number().int().optional(),
          discoveredAt: z.string().min(10).max(40),
          regulatorReportedAt: z.string().max(40).optional(),
          policeReportRef: z.string().max(120).optional(),
          remedy: z.string().max(400).optional(),
          note: z.string().max(2000).optional(),
          by: person.optional(),
        })
        .strict(),
    )
    return c.json(await instant.reportLostOrStolen({ gameNo: gameNoOf(c), ...b, by: nameOf(c, b.by) }), 201)
  })
  app.get('/api/instant/games/:gameNo/notice', needs('hall.read'), async (c) =>
    c.json(await instant.publicNotice(gameNoOf(c))),
  )

  // ---- sales
  // Issue 13: counter sales take the cash into the station's drawer (the e-instant ticket is printed, all or
  // nothing); a kiosk sells e-instant tickets only against a voucher (POST /api/kiosk/purchases).
  app.post('/api/instant/sales', needs('lottery.sell'), async (c) => {
    const b = await body(
      c,
      z.object({ code, stationId: station.optional(), hallId: id.optional(), ...counterCashFields }).strict(),
    )
    return c.json(
      await services.paidSales.counterInstantPrinted({
        code: b.code,
        hallId: b.hallId,
        cash: b.cash,
        buyerDocument: b.buyerDocument,
        ageConfirmed: b.ageConfirmed,
        ...(await counterTill(c, services, b.stationId)),
      }),
      201,
    )
  })
  app.post('/api/instant/halls/:hallId/electronic', needs('lottery.sell'), async (c) => {
    const b = await body(
      c,
      z
        .object({ gameNo: z.number().int().min(1).max(9999), stationId: station.optional(), ...counterCashFields })
        .strict(),
    )
    return c.json(
      await services.paidSales.counterInstantElectronic({
        hallId: c.req.param('hallId') ?? '',
        gameNo: b.gameNo,
        cash: b.cash,
        buyerDocument: b.buyerDocument,
        ageConfirmed: b.ageConfirmed,
        ...(await counterTill(c, services, b.stationId)),
      }),
      201,
    )
  })
  app.post('/api/instant/halls/:hallId/settings', needs('hall.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          electronicInstantAllowed: z.boolean(),
          authorisationRef: z.string().max(200).optional(),
          by: person.optional(),
        })
        .strict(),
    )
    return c.json(await instant.configureHall({ hallId: c.req.param('hallId') ?? '', ...b, by: nameOf(c, b.by) }))
  })

  // ---- cashier
  app.post('/api/instant/validate', needs('ticket.validate'), async (c) => {
    const b = await body(
      c,
      z
        .object({ code, inventoryCode: code.optional(), stationId: station.optional(), cashierId: person.optional() })
        .strict(),
    )
    return c.json(
      await instant.validate({
        ...b,
        ...(b.stationId ? actors(c, { stationId: b.stationId, cashierId: b.cashierId }) : {}),
      }),
    )
  })
  // Issue 23: an instant prize is paid only through the cash desk's one payout route, POST /api/tickets/pay.
  // Issue 13 point 7, INS-9: a misprinted printed ticket's price is refunded once, out of the till's drawer, with
  // a second person of the floor staff approving on the same screen (X-Bolillo-Second-Person).
  app.post('/api/instant/refund', needs('ticket.refund'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code,
          inventoryCode: code.optional(),
          reason: misprint,
          note: z.string().max(400).optional(),
          stationId: station.optional(),
          cashierId: person.optional(),
        })
        .strict(),
    )
    const approver = c.get('authOn') ? await secondPerson(c, 'refund.approve') : null
    const till = await tillOf(c, services, b)
    const approvedBy = approver ? { id: approver.id, name: approver.name, role: String(approver.role) } : null
    return c.json(
      await services.ticketDesk.refundMisprint({
        code: b.code,
        inventoryCode: b.inventoryCode,
        reason: b.reason,
        note: b.note,
        till,
        approvedBy,
      }),
    )
  })

  // INS-8: the operator declares a printed ticket the player has marked or crossed out not valid for prizes
  // (floor staff: instant.void; the decider is the logged-in person). Nothing is paid or refunded.
  app.post('/api/instant/void-damage', needs('instant.void'), async (c) => {
    const b = await body(
      c,
      z
        .object({
          code,
          inventoryCode: code.optional(),
          damage: z.string().min(1).max(400),
          keptAs: z.string().min(1).max(200),
        })
        .strict(),
    )
    return c.json(await instant.voidForDamage({ ...b, decidedBy: actorOf(c) }))
  })

  // ---- registers and reports
  app.get('/api/instant/games/:gameNo/register', needs('minutes.read'), async (c) =>
    c.json(forReader(c, await instant.prizeRegister(gameNoOf(c)))),
  )
  // Issue 24 point 3: by tier, for the lottery operator and auditors only (never a seller: see instant.reconcile).
  app.get('/api/instant/games/:gameNo/reconciliation', needs('instant.reconcile'), async (c) =>
    c.json(await instant.reconciliation(gameNoOf(c))),
  )
  app.get('/api/instant/games/:gameNo/reconciliation.pdf', needs('instant.reconcile'), async (c) => {
    const { renderReconciliationPdf } = await import('../../../printer/src/instant-report-pdf.ts')
    // Issue 29 point 5: an instant game is the operator's, so its report speaks the operator's profile clock.
    const zone = getProfile(services.config.profileId)?.timeZone ?? 'UTC'
    const bytes = await renderReconciliationPdf(await instant.reconciliation(gameNoOf(c)), zone)
    return c.body(bytes as unknown as ArrayBuffer, 200, {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="conciliacion-${gameNoOf(c)}.pdf"`,
    })
  })
}
