import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../helpers/server.ts'
import { cashierHall, printedInstant, secondPersonHeader, type CashierHall } from '../helpers/cashier.ts'

/**
 * Issue 18, INS-8 (002 §7.4.5.2): a printed instant ticket whose marks or crossings-out, made by the player, prevent
 * identifying its number or the symbols of its play boxes is not valid for prizes, under the operator's full
 * responsibility. The operator decides (floor staff, the logged-in person, never the cashier alone); nothing is
 * paid and, unlike a misprint (INS-9), nothing is refunded; the ticket is then refused at every till.
 */
describe("INS-8: void of an instant ticket for the player's damage (auth on)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let tickets: Awaited<ReturnType<typeof printedInstant>>

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    h = await cashierHall(server.url, server.services)
    tickets = await printedInstant(server.services, h.setup.hallId)
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 50_000 })).status).toBe(201)
  })
  afterAll(async () => server?.cleanup())

  it('INS-8: a winning ticket the player crossed out is voided by floor staff, never by the cashier; no prize, no refund, refused at the till', async () => {
    const winner = tickets.find((t) => t.tier > 0)!
    // Sold at the till (INS-12: only a sold ticket is settled, voided ones included).
    await server.services.instant.sellPrinted({
      code: winner.serial,
      stationId: h.devices.caja2.id,
      hallId: h.setup.hallId,
    })
    const body = {
      code: winner.code,
      inventoryCode: winner.serial,
      damage: 'número del billete tachado con bolígrafo',
      keptAs: 'sobre de evidencias N.º 12, caja fuerte',
    }
    const cashier = await h.call('cajero@caja2', 'POST', '/api/instant/void-damage', body)
    expect(cashier.status).toBe(403)
    expect((await h.call('mesa', 'POST', '/api/instant/void-damage', { ...body, damage: ' ' })).status).toBe(400)
    const voided = await h.call('mesa', 'POST', '/api/instant/void-damage', body)
    expect(voided.status).toBe(200)
    expect(voided.body).toMatchObject({
      outcome: 'VOID',
      paidCents: 0,
      refundCents: 0,
      decidedBy: { kind: 'person', name: 'Luis Mamani', role: 'floor_manager' },
    })
    expect((await h.call('mesa', 'POST', '/api/instant/void-damage', body)).status).toBe(409)

    const scan = await h.call('cajero@caja2', 'POST', '/api/tickets/validate', { code: winner.code })
    expect(scan.body).toMatchObject({ status: 'void', outcome: 'VOID', refundCents: 0 })
    expect(scan.body.reason).toMatch(/INS-8/)
    // §8 / GEN-7: the validation's journal record names the station and its seal code, as a lotto slip's does.
    const sealOfCaja2 = await server.services.db.get<{ seal_code: string }>(
      'SELECT seal_code FROM device_credentials WHERE id = ?',
      [h.devices.caja2.id],
    )
    expect(sealOfCaja2!.seal_code).toBeTruthy()
    const scanned = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'instant.ticket_validated' ORDER BY seq DESC LIMIT 1",
    )
    expect(JSON.parse(scanned!.payload)).toMatchObject({
      serial: winner.serial,
      outcome: 'VOID',
      stationId: h.devices.caja2.id,
      sealCode: sealOfCaja2!.seal_code,
    })
    const pay = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
      code: winner.code,
      inventoryCode: winner.serial,
      payeeName: 'Ana Quispe',
      payeeDocument: '445566 LP',
    })
    expect(pay.status).toBe(409)
    expect(pay.body.error.code).toBe('TICKET_VOID')
    // Not a misprint: a refund of the price is refused too, even with a second person.
    const refund = await h.call(
      'cajero@caja2',
      'POST',
      '/api/instant/refund',
      { code: winner.code, inventoryCode: winner.serial, reason: 'illegible' },
      secondPersonHeader('mesa'),
    )
    expect(refund.status).toBe(409)
    const moved = await server.services.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM cash_movements WHERE product = 'instant'",
    )
    expect(Number(moved!.n)).toBe(0)
    const journal = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'instant.ticket_voided'",
    )
    expect(JSON.parse(journal!.payload)).toMatchObject({
      serial: winner.serial,
      cause: 'player-damage',
      paidCents: 0,
      refundCents: 0,
      rule: 'INS-8',
      decidedBy: { role: 'floor_manager' },
    })
  })
})
