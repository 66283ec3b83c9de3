/**
 * LST-1 / LST-5 (002 §7.5.1.1, §7.5.2) for pre-printed instant games, on a server as shipped (authentication on, staff
 * accounts, an enrolled cash desk, the clock injected): a range lost or stolen is reported with the day the AJ was
 * informed, as a lottery's is (lottery/issue.ts reportLostStolen); a theft with the police or prosecutor complaint.
 * A report later than the next business day is recorded as late; the range is blocked either way (LST-4, LST-5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cashierHall, PASSWORD, printedDesign, type CashierHall } from '../helpers/cashier.ts'
import { printRunTickets, type PrintedTicket } from '../helpers/instant.ts'
import { startTestServer } from '../helpers/server.ts'
import type { InstantDesign } from '../../server/src/instant/design.ts'

const T0 = Date.parse('2026-05-08T09:00:00-04:00')
const printed: InstantDesign = { ...printedDesign, gameNo: 7711, salesEndAt: '2026-06-30T23:59:59-04:00' }

describe('an instant range lost or stolen is reported with the day the AJ was informed (LST-1, LST-5)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let tickets: PrintedTicket[]
  const report = (body: Record<string, unknown>) =>
    h.call('mesa', 'POST', `/api/instant/games/${printed.gameNo}/reports`, body, { 'accept-language': 'es' })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock: { now: () => new Date(T0) } })
    h = await cashierHall(server.url, server.services)
    expect((await h.call('jefa', 'POST', '/api/instant/games', { design: printed })).status).toBe(201)
    tickets = await printRunTickets(server.services.db, server.services.sealer, printed)
    expect(
      (
        await h.call('jefa', 'POST', `/api/instant/games/${printed.gameNo}/packs/ship`, {
          fromPack: 1,
          toPack: 3,
          destination: h.setup.hallId,
        })
      ).status,
    ).toBe(200)
    for (const packNo of [1, 2, 3])
      expect(
        (
          await h.call('cajero@caja2', 'POST', '/api/instant/packs/activate', {
            gameNo: printed.gameNo,
            packNo,
            location: h.setup.hallId,
          })
        ).status,
      ).toBe(200)
    const r = await h.call('caja2', 'POST', '/api/auth/login', { username: 'cajero', password: PASSWORD })
    expect(r.status).toBe(200)
    h.tokens.set('cajero@caja2', r.body.token)
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 2_000_000 })).status).toBe(201)
    // A winner of packs 2 and 3 sold at the counter: their holders will present them.
    for (const pack of [2, 3]) {
      const sale = await h.call('cajero@caja2', 'POST', '/api/instant/sales', {
        ageConfirmed: true,
        code: winnerOf(pack).serial,
        hallId: h.setup.hallId,
      })
      expect(sale.status, JSON.stringify(sale.body)).toBe(201)
    }
  })
  const winnerOf = (pack: number) => tickets.find((t) => t.pack === pack && t.tier > 0)!
  const pay = (pack: number) =>
    h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
      code: winnerOf(pack).code,
      inventoryCode: winnerOf(pack).serial,
      payeeName: 'Ana Quispe',
      payeeDocument: '445566 LP',
    })
  afterAll(async () => server?.cleanup())

  it('LST-5: a theft without the day the AJ was informed, or with a day before its discovery, is refused (400, in Spanish) and blocks nothing', async () => {
    const theft = {
      kind: 'stolen',
      fromPack: 2,
      toPack: 2,
      discoveredAt: '2026-05-01T10:00:00-04:00',
      policeReportRef: 'FELCC-2026-0412',
    }
    const none = await report(theft)
    expect(none.status, JSON.stringify(none.body)).toBe(400)
    expect(none.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Los datos enviados no son válidos.',
      details: { field: 'regulatorReportedAt', rule: 'LST-5' },
    })
    const before = await report({ ...theft, regulatorReportedAt: '2026-04-30' })
    expect(before.status).toBe(400)
    expect(before.body.error.details).toMatchObject({ field: 'regulatorReportedAt', rule: 'LST-5' })
    // Nothing was blocked: a winner of pack 2 still validates as a winner.
    expect(
      (await h.call('cajero@caja2', 'POST', '/api/tickets/validate', { code: winnerOf(2).code })).body.status,
    ).toBe('winner')
  })

  it('LST-5: a theft found on a Friday and reported to the AJ on the Monday is on time; its tickets are not paid', async () => {
    const r = await report({
      kind: 'stolen',
      fromPack: 2,
      toPack: 2,
      discoveredAt: '2026-05-01T10:00:00-04:00',
      regulatorReportedAt: '2026-05-04',
      policeReportRef: 'FELCC-2026-0412',
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({ kind: 'stolen', lateReport: false })
    const paid = await pay(2)
    expect(paid.status).toBe(423)
    expect(paid.body.error.code).toBe('TICKET_BLOCKED')
  })

  it('LST-1: a loss reported to the AJ three days after it was found is recorded as late (report and journal), and blocked all the same', async () => {
    const r = await report({
      kind: 'lost',
      fromPack: 3,
      toPack: 3,
      discoveredAt: '2026-05-04T08:00:00-04:00',
      regulatorReportedAt: '2026-05-07',
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.lateReport).toBe(true)
    const rec = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'instant.range_reported' ORDER BY seq DESC LIMIT 1",
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({
      kind: 'lost',
      regulatorReportedAt: '2026-05-07',
      lateReport: true,
    })
    const paid = await pay(3)
    expect(paid.status).toBe(423)
    expect(paid.body.error.code).toBe('TICKET_BLOCKED')
  })
})
