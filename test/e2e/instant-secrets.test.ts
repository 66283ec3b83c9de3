/**
 * Issue 24 point 3: an instant game's secrets stay shut while they matter, on a server as shipped (authentication
 * on, real staff accounts, enrolled cashier stations and kiosk, the clock injected):
 * - the seed (every ticket's hidden code and prize) opens for the auditor only once the game is closed and its claim
 *   period has ended; before that the route answers 409 in words, and each refusal and the opening are journaled;
 * - no seller (cashier, cashier station, kiosk, floor staff) gets a per-pack prize figure from any instant route it
 *   may call, and the reconciliation by tier (operator and auditors only) does not move as packs are activated;
 * - INS-12: a pre-printed ticket of an activated pack is paid or refunded only once its sale was recorded, then once;
 *   the e-instant tickets a kiosk sells against a voucher keep validating and paying.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  cashierHall,
  electronicDesign,
  electronicInstant,
  PASSWORD,
  printedDesign,
  secondPersonHeader,
  type CashierHall,
} from '../helpers/cashier.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { MAX_INSTANT_PER_PURCHASE } from '../../server/src/cashdesk/paid-sales.ts'
import { printRunTickets, type PrintedTicket } from '../helpers/instant.ts'
import { startTestServer } from '../helpers/server.ts'

const DAY = 86_400_000
const G = printedDesign.gameNo

/** Every key of a JSON value, at any depth, with its value. */
function* entries(v: unknown, path = ''): Generator<[string, unknown]> {
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* entries(v[i], `${path}[${i}]`)
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      yield [`${path}.${k}`, x]
      yield* entries(x, `${path}.${k}`)
    }
}

describe('issue 24: instant secrets stay shut while they matter (auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let tickets: PrintedTicket[]
  let t = Date.parse('2026-05-04T09:00:00Z')
  const login = async (username: string) =>
    h.tokens.set(username, (await server.services.auth.login(username, PASSWORD)).token)

  /** The per-tier prize counts of each pack, and anything in an answer that gives one (or a figure only they give). */
  function perPackFindings(label: string, body: unknown): string[] {
    const packs = [1, 2, 3, 4].map((p) =>
      printedDesign.tiers.map((_, k) => tickets.filter((x) => x.pack === p && x.tier === k + 1).length),
    )
    const found: string[] = []
    for (const [path, value] of entries(body)) {
      if (
        /^(inPlay|notInPlay|unpaid|unpaidCents|expired|expiredCents|inPlayBp|packPrizes|tierCounts)$/.test(
          path.split('.').pop() ?? '',
        ) &&
        value !== null &&
        value !== undefined
      )
        found.push(`${label}: ${path} = ${JSON.stringify(value)}`)
      if (Array.isArray(value) && packs.some((c) => JSON.stringify(c) === JSON.stringify(value)))
        found.push(`${label}: ${path} is a pack's prize counts ${JSON.stringify(value)}`)
    }
    return found
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock: { now: () => new Date(t) } })
    h = await cashierHall(server.url, server.services)
    for (const [username, displayName, role] of [
      ['auditora', 'Pilar Flores', 'auditor'],
      ['operador', 'Hugo Rojas', 'lottery_operator'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      await login(username)
    }
    // The director generates the game over HTTP; the tickets are those of the print run (the secure printer's file).
    expect((await h.call('jefa', 'POST', '/api/instant/games', { design: printedDesign })).status).toBe(201)
    tickets = await printRunTickets(server.services.db, server.services.sealer, printedDesign)
    expect(
      (
        await h.call('jefa', 'POST', `/api/instant/games/${G}/packs/ship`, {
          fromPack: 1,
          toPack: 4,
          destination: h.setup.hallId,
        })
      ).status,
    ).toBe(200)
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 200_000 })).status).toBe(201)
  })
  afterAll(async () => server?.cleanup())

  it("no per-pack prize figure reaches a cashier, a station or a kiosk from any instant route; the operator's reconciliation does not move with an activation", async () => {
    const sellers = ['cajero@caja2', 'cajera', 'caja1', 'kiosk', 'mesa'] as const
    const findings: string[] = []
    // Pack 1 activated by the cashier on arrival: the answer says where and when, nothing of its prizes.
    const act = await h.call('cajero@caja2', 'POST', '/api/instant/packs/activate', {
      gameNo: G,
      packNo: 1,
      location: h.setup.hallId,
    })
    expect(act.status, JSON.stringify(act.body)).toBe(200)
    expect(Object.keys(act.body).sort()).toEqual(['activatedAt', 'gameNo', 'journalSeq', 'location', 'packNo'])
    const act2 = await h.call('kiosk', 'POST', '/api/instant/packs/activate', {
      gameNo: G,
      packNo: 2,
      location: h.setup.hallId,
    })
    expect(act2.status, JSON.stringify(act2.body)).toBe(200)
    findings.push(...perPackFindings('activate (kiosk)', act2.body))

    const [w] = tickets.filter((x) => x.pack === 1 && x.tier > 0)
    const sale = await h.call('cajero@caja2', 'POST', '/api/instant/sales', {
      ageConfirmed: true,
      code: w.serial,
      hallId: h.setup.hallId,
    })
    expect(sale.status, JSON.stringify(sale.body)).toBe(201)
    findings.push(...perPackFindings('sale', sale.body))

    for (const who of sellers) {
      for (const path of [
        '/api/instant/games',
        `/api/instant/games/${G}`,
        `/api/instant/games/${G}/notice`,
        `/api/instant/games/${G}/generator`,
      ]) {
        const r = await h.call(who, 'GET', path)
        if (r.status === 200) findings.push(...perPackFindings(`${who} GET ${path}`, r.body))
      }
      // The reconciliation by tier and its PDF: refused to every seller (the prize register, paid prizes only, is
      // public record by INS-5 and read by floor staff).
      const register = await h.call(who, 'GET', `/api/instant/games/${G}/register`)
      if (register.status === 200) findings.push(...perPackFindings(`${who} GET register`, register.body))
      for (const path of [
        `/api/instant/games/${G}/reconciliation`,
        `/api/instant/games/${G}/reconciliation.pdf`,
        `/api/instant/generations/${G}`,
      ]) {
        expect((await h.call(who, 'GET', path)).status, `${who} GET ${path}`).toBe(403)
      }
      expect(
        (await h.call(who, 'POST', `/api/instant/games/${G}/audit/seed`, { reason: 'ver los premios' })).status,
      ).toBe(403)
      for (const path of ['/api/instant/validate', '/api/tickets/validate']) {
        const r = await h.call(who, 'POST', path, { code: w.code })
        if (r.status === 200) findings.push(...perPackFindings(`${who} POST ${path}`, r.body))
      }
    }
    expect(findings).toEqual([])

    // The lottery's operator, the director and the auditor read it; while packs are being activated the prizes in
    // play by tier are withheld, so an activation changes nothing a before-and-after reading could subtract.
    for (const who of ['operador', 'jefa', 'auditora'])
      expect((await h.call(who, 'GET', `/api/instant/games/${G}/reconciliation`)).status, who).toBe(200)
    const before = (await h.call('operador', 'GET', `/api/instant/games/${G}/reconciliation`)).body
    expect(
      (
        await h.call('operador', 'POST', '/api/instant/packs/activate', {
          gameNo: G,
          packNo: 3,
          location: h.setup.hallId,
        })
      ).status,
    ).toBe(200)
    const after = (await h.call('operador', 'GET', `/api/instant/games/${G}/reconciliation`)).body
    expect(after.activated.packs).toBe(before.activated.packs + 1)
    expect(after.tiers).toEqual(before.tiers)
    expect(after.payoutShare.inPlayBp).toBeNull()
    expect(after.inPlayWithheld).toMatchObject({ until: 'closed' })
    expect(perPackFindings('operator reconciliation on sale', after.tiers)).toEqual([])
  })

  it('INS-12: an unsold ticket of an activated pack is neither paid nor refunded at any till route; once sold it is paid or refunded once', async () => {
    const [, w2] = tickets.filter((x) => x.pack === 1 && x.tier > 0)
    const [l1] = tickets.filter((x) => x.pack === 1 && x.tier === 0)
    const payee = { payeeName: 'Ana Quispe', payeeDocument: '445566 LP' }
    const movements = async () =>
      Number(
        (await server.services.db.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM cash_movements WHERE product = 'instant' AND kind IN ('prize_payout', 'refund')",
        ))!.n,
      )
    const moved = await movements()
    const scan = await h.call('cajero@caja2', 'POST', '/api/tickets/validate', { code: w2.code })
    expect(scan.body).toMatchObject({ status: 'not_activated', outcome: 'NOT_ACTIVATED' })
    for (const path of ['/api/tickets/pay']) {
      const r = await h.call('cajero@caja2', 'POST', path, { code: w2.code, inventoryCode: w2.serial, ...payee })
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(409)
      expect(r.body.error.code).toBe('PACK_NOT_ACTIVATED')
      expect(r.body.error.message).toMatch(/no vendido.*no se registró/)
      expect(r.body.error.detail).toMatch(/never sold.*INS-12/)
    }
    const refund = await h.call(
      'cajero@caja2',
      'POST',
      '/api/instant/refund',
      { code: l1.code, inventoryCode: l1.serial, reason: 'illegible' },
      secondPersonHeader('mesa'),
    )
    expect(refund.status).toBe(409)
    expect(refund.body.error.code).toBe('PACK_NOT_ACTIVATED')
    expect(await movements()).toBe(moved)

    // Sold at the till (the cash goes into the drawer): now paid once, refunded once.
    for (const x of [w2, l1])
      expect(
        (
          await h.call('cajero@caja2', 'POST', '/api/instant/sales', {
            ageConfirmed: true,
            code: x.serial,
            hallId: h.setup.hallId,
          })
        ).status,
      ).toBe(201)
    const paid = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
      code: w2.code,
      inventoryCode: w2.serial,
      ...payee,
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.amountCents).toBe(printedDesign.tiers[w2.tier - 1].amountCents)
    expect(
      (await h.call('cajero@caja2', 'POST', '/api/tickets/pay', { code: w2.code, inventoryCode: w2.serial, ...payee }))
        .body.error.code,
    ).toBe('ALREADY_PAID')
    const r1 = await h.call(
      'cajero@caja2',
      'POST',
      '/api/instant/refund',
      { code: l1.code, inventoryCode: l1.serial, reason: 'illegible' },
      secondPersonHeader('mesa'),
    )
    expect(r1.status, JSON.stringify(r1.body)).toBe(200)
    expect(
      (
        await h.call(
          'cajero@caja2',
          'POST',
          '/api/instant/refund',
          { code: l1.code, inventoryCode: l1.serial, reason: 'illegible' },
          secondPersonHeader('mesa'),
        )
      ).status,
    ).toBe(409)
    expect(await movements()).toBe(moved + 2)
  })

  it('e-instant tickets bought at the kiosk with a voucher still validate and pay at the till', async () => {
    await electronicInstant(server.services, h.setup.hallId)
    const pool = await printRunTickets(server.services.db, server.services.sealer, electronicDesign)
    // Sold in the pool's order: buy up to its first winner, at most MAX_INSTANT_PER_PURCHASE per purchase (the
    // first winner's place in a fresh pool is random: it may lie past one purchase).
    const count = pool.findIndex((x) => x.tier > 0) + 1
    expect(count).toBeGreaterThan(0)
    const sold: Array<{ validationCode: string; serial: string; prizeCents: number }> = []
    while (sold.length < count) {
      const n = Math.min(MAX_INSTANT_PER_PURCHASE, count - sold.length)
      const voucher = await sellVoucher(
        server.url,
        h.setup.hallId,
        n * electronicDesign.priceCents,
        {},
        { authorization: `Bearer ${h.tokens.get('cajero@caja2')}` },
      )
      const bought = await h.call('kiosk', 'POST', '/api/kiosk/purchases', {
        voucherCode: voucher.code,
        ageConfirmed: true,
        instant: { gameNo: electronicDesign.gameNo, count: n },
      })
      expect(bought.status, JSON.stringify(bought.body)).toBe(201)
      expect(bought.body.instant).toHaveLength(n)
      sold.push(...(bought.body.instant as typeof sold))
    }
    const winner = sold[count - 1]
    expect(winner.prizeCents).toBe(electronicDesign.tiers[pool[count - 1].tier - 1].amountCents)
    expect(
      (await h.call('cajero@caja2', 'POST', '/api/tickets/validate', { code: winner.validationCode })).body.status,
    ).toBe('winner')
    // INS-10: the e-instant paper's printed serial ("Boleto") is its inventory code.
    const paid = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
      code: winner.validationCode,
      inventoryCode: winner.serial,
      payeeName: 'Ana Quispe',
      payeeDocument: '445566 LP',
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.amountCents).toBe(winner.prizeCents)
  })

  it('the seed opens for the auditor only once the game is closed and its claim period has ended; refusals and the opening are journaled with who', async () => {
    const journal = async (type: string) =>
      (
        await server.services.db.all<{ payload: string }>('SELECT payload FROM journal WHERE type = ? ORDER BY seq', [
          type,
        ])
      ).map((r) => JSON.parse(r.payload))
    const auditorId = (await server.services.db.get<{ id: string }>(
      "SELECT id FROM users WHERE username = 'auditora'",
    ))!.id
    const ask = (reason: string, lang = 'es') =>
      h.call('auditora', 'POST', `/api/instant/games/${G}/audit/seed`, { reason }, { 'accept-language': lang })

    const onSale = await ask('auditoría en venta')
    expect(onSale.status).toBe(409)
    expect(onSale.body.error).toMatchObject({ code: 'ILLEGAL_TRANSITION', details: { opensAt: null } })
    expect(onSale.body.error.message).toMatch(
      /solo se abre cuando el juego está cerrado y terminó su plazo de cobro: el juego sigue a la venta/,
    )
    expect((await ask('auditoría en venta', 'en')).body.error.message).toMatch(
      /opens only once the game is closed and its claim period has ended: the game is still on sale/,
    )

    const closed = await h.call('jefa', 'POST', `/api/instant/games/${G}/close`, {})
    expect(closed.status).toBe(200)
    const opensAt = new Date(Date.parse(closed.body.closedAt) + printedDesign.claimDays * DAY).toISOString()
    t = Date.parse(opensAt) - 60_000
    await login('auditora')
    const inClaims = await ask('auditoría en plazo de cobro')
    expect(inClaims.status).toBe(409)
    expect(inClaims.body.error.details.opensAt).toBe(opensAt)
    expect(inClaims.body.error.message).toContain(`se podrá abrir después del ${opensAt}`)
    expect(await journal('instant.seed_export_refused')).toMatchObject([
      { gameNo: G, why: 'on-sale', reason: 'auditoría en venta', by: { kind: 'person', id: auditorId } },
      { gameNo: G, why: 'on-sale', by: { kind: 'person', id: auditorId } },
      {
        gameNo: G,
        why: 'claim-period',
        opensAt,
        reason: 'auditoría en plazo de cobro',
        by: { kind: 'person', id: auditorId },
      },
    ])
    expect(await journal('instant.seed_exported')).toEqual([])

    t = Date.parse(opensAt) + 1000
    await login('auditora')
    const opened = await ask('auditoría final del juego')
    expect(opened.status, JSON.stringify(opened.body)).toBe(200)
    expect(opened.body.seedHex).toMatch(/^[0-9a-f]{64}$/)
    expect(await journal('instant.seed_exported')).toMatchObject([
      { gameNo: G, reason: 'auditoría final del juego', by: { kind: 'person', id: auditorId } },
    ])
    // The seed is still the auditor's alone.
    await login('jefa')
    expect((await h.call('jefa', 'POST', `/api/instant/games/${G}/audit/seed`, { reason: 'curiosidad' })).status).toBe(
      403,
    )
    // Closed: the operator's reconciliation now gives the prizes in play of the activated packs.
    await login('operador')
    const rec = (await h.call('operador', 'GET', `/api/instant/games/${G}/reconciliation`)).body
    expect(rec.inPlayWithheld).toBeNull()
    expect(rec.tiers.map((x: { inPlay: number }) => x.inPlay)).toEqual(
      printedDesign.tiers.map((_, k) => tickets.filter((x) => x.pack <= 3 && x.tier === k + 1).length),
    )
  })
})
