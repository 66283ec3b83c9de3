import { createServer as createTcpServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, sellVoucher, startFakePrinter, type HallSetup } from '../helpers/cashdesk.ts'

/**
 * Sale first, then paper (issue 23 point 5, kiosk-sales.ts): when the kiosk printer refuses the connection, runs out
 * of paper or drops the connection in the middle of the job, the purchase stands (voucher spent, cards sold, their
 * numbers taken: BNG-12, no gap), the answer says PRINT_PENDING in Spanish, and the ticket waits for a reprint. The
 * next sale at a kiosk whose printer is still broken is refused before anything is taken.
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
    server = await startTestServer({
      printers: { 'kiosk-flaky': printer.url, 'kiosk-dead': refusedUrl },
      printerTimeoutMs: 1500,
    })
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
    return api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode,
      gameId: setup.gameId,
      count,
      kioskId,
      ageConfirmed: true,
    })
  }

  const pendingOf = async (ref: string) =>
    await server.services.db.get<{ status: string; reprints: number }>(
      'SELECT status, reprints FROM ticket_prints WHERE id = ?',
      [ref],
    )

  /** A purchase that stood although its paper did not come out. */
  async function expectPending(
    r: { status: number; body: any },
    reason: string,
    before: Awaited<ReturnType<typeof snapshot>>,
    voucherCode: string,
  ) {
    expect(r.status).toBe(201)
    expect(r.body.print).toMatchObject({ printed: false, code: 'PRINT_PENDING', ref: r.body.purchaseId, reason })
    expect(r.body.print.message).toMatch(/^Su compra está registrada.*reimpresión en caja/)
    const after = await snapshot(voucherCode)
    expect(after.voucher.status).toBe('spent')
    expect(after.cardsSold).toBe(before.cardsSold + 3)
    expect(r.body.cards.map((c: any) => c.cardNo)).toEqual([
      before.nextCardNo,
      before.nextCardNo + 1,
      before.nextCardNo + 2,
    ])
    expect(await pendingOf(r.body.purchaseId)).toEqual({ status: 'pending', reprints: 0 })
  }

  it('sells, marks the ticket for reprint, then refuses the next sale when the printer refuses the connection', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2_000)
    const before = await snapshot(voucher.code)
    await expectPending(await buy(voucher.code, 'kiosk-dead'), 'offline', before, voucher.code)
    // The kiosk's printer is now known broken: the next player keeps his credit, nothing is taken.
    const next = await sellVoucher(server.url, setup.hallId, 2_000)
    const held = await snapshot(next.code)
    const r = await buy(next.code, 'kiosk-dead')
    expect(r.status).toBe(503)
    expect(r.body.error).toMatchObject({
      code: 'DEVICE_UNAVAILABLE',
      details: { reason: 'offline', target: refusedUrl },
    })
    expect(await snapshot(next.code)).toEqual(held)
    expect(held.voucher).toMatchObject({ status: 'active', amountCents: 2_000 })
  })

  it('keeps the sale when the printer drops the connection in the middle of the job', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2_000)
    const before = await snapshot(voucher.code)
    printer.setMode('hang_up')
    try {
      await expectPending(await buy(voucher.code, 'kiosk-flaky'), 'connection_lost', before, voucher.code)
    } finally {
      printer.setMode('ok')
    }
  })

  it('sells the next cards once the printer is back, with no gap in the series (BNG-12)', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2_000)
    const before = await snapshot(voucher.code)
    const r = await buy(voucher.code, 'kiosk-flaky')
    expect(r.status).toBe(201)
    expect(r.body.print).toMatchObject({ printed: true, target: printer.url })
    expect(r.body.cards.map((c: any) => c.cardNo)).toEqual([
      before.nextCardNo,
      before.nextCardNo + 1,
      before.nextCardNo + 2,
    ])
    const after = await snapshot(voucher.code)
    expect(after.cardsSold).toBe(before.cardsSold + 3)
    expect(after.voucher.status).toBe('spent')
    expect(r.body.change.amountCents).toBe(500)
    await server.services.cashdesk.prints.flushPrinted()
    expect(await pendingOf(r.body.purchaseId)).toEqual({ status: 'printed', reprints: 0 })
  })

  it('keeps the sale when the paper runs out, then refuses the next one before taking any lock', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 2_000)
    const before = await snapshot(voucher.code)
    printer.setMode('paper_out')
    try {
      await expectPending(await buy(voucher.code, 'kiosk-flaky'), 'paper_out', before, voucher.code)
      const next = await sellVoucher(server.url, setup.hallId, 2_000)
      const held = await snapshot(next.code)
      const r = await buy(next.code, 'kiosk-flaky')
      expect(r.body.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', details: { reason: 'paper_out' } })
      expect(await snapshot(next.code)).toEqual(held)
    } finally {
      printer.setMode('ok')
    }
  })
})
