import { createServer as createTcpServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, sellVoucher, startFakePrinter, type HallSetup } from '../helpers/cashdesk.ts'

/**
 * All or nothing with the printer (kiosk-sales.ts): when the kiosk printer refuses the connection, runs out of
 * paper or drops the connection in the middle of the job, the player keeps his credit and no card counts as sold;
 * the next sale continues the series without a gap (BNG-12).
 */
describe('a kiosk printer failing during a sale', () => {
  let printer: Awaited<ReturnType<typeof startFakePrinter>>
  let refusedUrl: string
  let server: Awaited<ReturnType<typeof startTestServer>>
  let setup: HallSetup

  beforeAll(async () => {
    printer = await startFakePrinter('ok')
    // A port nobody listens on: the connection is refused.
    const probe = createTcpServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    refusedUrl = `tcp://127.0.0.1:${(probe.address() as { port: number }).port}`
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    server = await startTestServer({ printers: { 'kiosk-flaky': printer.url, 'kiosk-dead': refusedUrl }, printerTimeoutMs: 1500 })
    setup = await hallWithGameOnSale(server.services)
  })
  afterAll(async () => {
    await server?.cleanup()
    await printer?.close()
  })

  /** Everything a failed sale must leave untouched. */
  async function snapshot(voucherCode: string) {
    const db = server.services.db
    const count = async (sql: string) => Number((await db.get<{ n: number }>(sql))?.n ?? 0)
    const offer = (await api(server.url, 'GET', `/api/kiosk/halls/${setup.hallId}/offer`)).body
    return {
      voucher: (await api(server.url, 'POST', '/api/vouchers/check', { code: voucherCode })).body,
      cardsSold: offer.game.cardsSold,
      nextCardNo: offer.game.series[0].nextCardNo,
      gameState: (await api(server.url, 'GET', `/api/games/${setup.gameId}`)).body.cardsSold,
      cardRows: await count('SELECT COUNT(*) AS n FROM cards'),
      vouchers: await count('SELECT COUNT(*) AS n FROM vouchers'),
      purchases: await count('SELECT COUNT(*) AS n FROM kiosk_purchases'),
      journal: await count('SELECT COUNT(*) AS n FROM journal'),
    }
  }

  async function buy(voucherCode: string, kioskId: string, count = 3) {
    return api(server.url, 'POST', '/api/kiosk/purchases', { voucherCode, gameId: setup.gameId, count, kioskId, ageConfirmed: true })
  }

  it('keeps the credit and sells nothing when the printer refuses the connection', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2_000)
    const before = await snapshot(voucher.code)
    const r = await buy(voucher.code, 'kiosk-dead')
    expect(r.status).toBe(503)
    expect(r.body.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', details: { reason: 'offline', target: refusedUrl } })
    expect(await snapshot(voucher.code)).toEqual(before)
    expect(before.voucher).toMatchObject({ status: 'active', amountCents: 2_000 })
  })

  it('rolls the sale back when the printer drops the connection in the middle of the job', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2_000)
    const before = await snapshot(voucher.code)
    printer.setMode('hang_up')
    try {
      const r = await buy(voucher.code, 'kiosk-flaky')
      expect(r.status).toBe(503)
      expect(r.body.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', details: { reason: 'connection_lost' } })
    } finally {
      printer.setMode('ok')
    }
    const after = await snapshot(voucher.code)
    expect(after).toEqual(before)
    expect(after.voucher).toMatchObject({ status: 'active', amountCents: 2_000 })
  })

  it('refuses before taking any lock when the printer reports no paper', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2_000)
    const before = await snapshot(voucher.code)
    printer.setMode('paper_out')
    try {
      const r = await buy(voucher.code, 'kiosk-flaky')
      expect(r.body.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', details: { reason: 'paper_out' } })
    } finally {
      printer.setMode('ok')
    }
    expect(await snapshot(voucher.code)).toEqual(before)
  })

  it('sells the same cards once the printer is back, with no gap in the series (BNG-12)', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2_000)
    const before = await snapshot(voucher.code)
    const r = await buy(voucher.code, 'kiosk-flaky')
    expect(r.status).toBe(201)
    expect(r.body.cards.map((c: any) => c.cardNo)).toEqual([before.nextCardNo, before.nextCardNo + 1, before.nextCardNo + 2])
    const after = await snapshot(voucher.code)
    expect(after.cardsSold).toBe(before.cardsSold + 3)
    expect(after.voucher.status).toBe('spent')
    expect(r.body.change.amountCents).toBe(500)
  })
})
