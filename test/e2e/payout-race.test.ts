import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, playToTheEnd, sellVoucher, winningCodes } from '../helpers/cashdesk.ts'

/**
 * §8 ALREADY PAID under load: fifty cashier stations scan the same winning card at the same moment over real
 * HTTP. Exactly one payout happens; the forty-nine others are refused with 409 ALREADY_PAID, and the books show
 * one payment: prizes paid once, one payout row, one cash movement, one prize.paid record per prize.
 */
describe('fifty simultaneous payouts of one winning card', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let winner: { cardId: string; serial: string; amountCents: number; code: string }

  beforeAll(async () => {
    server = await startTestServer()
    const setup = await hallWithGameOnSale(server.services)
    const voucher = await sellVoucher(server.url, setup.hallId, 10_000)
    const r = await api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      gameId: setup.gameId,
      count: 20,
      kioskId: 'kiosk-1',
      ageConfirmed: true,
    })
    expect(r.status).toBe(201)
    await playToTheEnd(server.services, setup.gameId)
    ;[winner] = await winningCodes(server.services, setup.gameId)
  })
  afterAll(async () => {
    await server?.cleanup()
  })

  it('pays once and refuses the other 49 with ALREADY_PAID', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api(server.url, 'POST', '/api/tickets/pay', {
          code: winner.code,
          stationId: `caja-${i + 1}`,
          cashierId: `cajero-${i + 1}`,
          payeeName: 'Rosa Condori',
          payeeDocument: `CI ${7000000 + i}`,
        }),
      ),
    )
    const ok = attempts.filter((a) => a.status === 200)
    const refused = attempts.filter((a) => a.status === 409)
    expect(ok).toHaveLength(1)
    expect(refused).toHaveLength(49)
    for (const r of refused) expect(r.body.error.code).toBe('ALREADY_PAID')
    expect(ok[0].body.payout.amountCents).toBe(winner.amountCents)

    const db = server.services.db
    const n = async (sql: string, params: unknown[]) => Number((await db.get<{ n: number }>(sql, params))?.n ?? 0)
    expect(await n('SELECT COUNT(*) AS n FROM payouts WHERE card_id = ?', [winner.cardId])).toBe(1)
    expect(
      await n("SELECT COUNT(*) AS n FROM cash_movements WHERE kind = 'prize_payout' AND ref_id = ?", [
        ok[0].body.payout.payoutId,
      ]),
    ).toBe(1)
    expect(await n("SELECT COUNT(*) AS n FROM prizes WHERE card_id = ? AND status <> 'paid'", [winner.cardId])).toBe(0)
    const paidRecords = (
      await db.all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'prize.paid'")
    ).map((r) => JSON.parse(r.payload))
    expect(paidRecords.filter((p) => p.serial === winner.serial)).toHaveLength(ok[0].body.payout.prizes.length)
    expect(new Set(paidRecords.map((p) => p.payoutId))).toEqual(new Set([ok[0].body.payout.payoutId]))

    const after = await api(server.url, 'POST', '/api/tickets/validate', { code: winner.code })
    expect(after.body).toMatchObject({
      status: 'paid',
      stationId: ok[0].body.payout.stationId,
      payoutId: ok[0].body.payout.payoutId,
    })
  })
})
