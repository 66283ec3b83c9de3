/**
 * LNS-6 (7) over real HTTP with authentication on, an enrolled kiosk and a real TCP printer on 127.0.0.1: the
 * thermal lotto receipt (and the e-instant ticket sold beside it) prints its date and time of issue on the hall's
 * wall clock, never the server's. A slip sold at 21:30 in La Paz is 01:30 UTC the next day: on a UTC server the
 * paper printed "Emitido" with the next day's date, after the printed draw date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { sellVoucher, startFakePrinter } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'

/** 21:30 in La Paz (UTC-4, no summer time) on the day the test runs: 01:30 UTC of the next day. */
function laPazEvening(): number {
  const laPazNow = new Date(Date.now() - 4 * 3_600_000)
  return Date.UTC(laPazNow.getUTCFullYear(), laPazNow.getUTCMonth(), laPazNow.getUTCDate(), 21 + 4, 30)
}

describe('the thermal lotto receipt prints the hall’s time of issue (LNS-6)', () => {
  const printerOf: Record<string, string> = {}
  let printer: Awaited<ReturnType<typeof startFakePrinter>>
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const t = laPazEvening()
  const previousTz = process.env.TZ

  beforeAll(async () => {
    // The server runs in UTC, as in a container.
    process.env.TZ = 'UTC'
    printer = await startFakePrinter('ok')
    server = await startTestServer({ auth: 'on', printers: printerOf }, { clock: { now: () => new Date(t) } })
    hall = await paidHall(server.services)
    printerOf[hall.kiosk.id] = printer.url
  })
  afterAll(async () => {
    process.env.TZ = previousTz
    await server?.cleanup()
    await printer?.close()
  })

  it('prints "Emitido" and the e-instant "Vendido" on the La Paz date and time, not the next day in UTC', async () => {
    const voucher = await sellVoucher(
      server.url,
      hall.hallId,
      5000,
      {},
      {
        'accept-language': 'es',
        authorization: `Bearer ${hall.cashierToken}`,
      },
    )
    const r = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      {
        voucherCode: voucher.code,
        ageConfirmed: true,
        slips: [
          { drawId: hall.drawId, quickPicks: 1, player: { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' } },
        ],
        instant: { gameNo: hall.gameNo, count: 1 },
      },
      { 'accept-language': 'es', authorization: `Device ${hall.kiosk.credential}` },
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.print).toMatchObject({ printed: true })
    const lines = decodeEscPos(printer.received()).lines.join('\n')
    const d = new Date(t - 4 * 3_600_000)
    const laPazDate = `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`
    const emitted = /Emitido\s+(.+)/.exec(lines)?.[1] ?? ''
    expect(emitted).toContain(laPazDate)
    expect(emitted).toContain('21:30')
    const sold = /Vendido\s+(.+)/.exec(lines)?.[1] ?? ''
    expect(sold).toContain(laPazDate)
    expect(sold).toContain('21:30')
  })
})
