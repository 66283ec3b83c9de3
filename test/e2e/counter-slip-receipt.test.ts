import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { openPrintFile } from '../../printer/src/printers.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'

/**
 * LNS-2 / LNS-6, issue 26. The audit: the counter sold a lotto slip and printed nothing, and the code told the
 * counter to print the receipt PDF, which is a copy without the QR stamped "not valid for payment". Now the counter
 * prints the receipt on its own printer after the commit, as the kiosk does: its QR is the slip's bearer code, and
 * the paper the player takes is the one the prize is paid against. Authentication on, an enrolled cashier station.
 */
describe('a lotto slip sold at a counter prints its payable receipt (LNS-2)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const asCashier = () => ({ 'accept-language': 'es', authorization: `Bearer ${hall.cashierToken}` })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
  })
  afterAll(async () => server?.cleanup())

  it("prints the receipt with every number, the player and the QR of the slip's bearer code at the station", async () => {
    const sold = await api(
      server.url,
      'POST',
      `/api/lotto/draws/${hall.drawId}/slips`,
      {
        boards: [[3, 9, 17, 25, 33, 41]],
        player: { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' },
        ageConfirmed: true,
      },
      asCashier(),
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    expect(sold.body.print.printed, JSON.stringify(sold.body.print)).toBe(true)
    const escpos = (sold.body.print.files as string[]).find((f) => f.includes('.escpos'))!
    const job = decodeEscPos(openPrintFile(server.services.sealer, escpos))
    const text = job.lines.join('\n')
    expect(text).toContain(sold.body.receiptNumber)
    expect(text).toContain('Rosa Condori Mamani')
    expect(text).toMatch(/03\s+09\s+17\s+25\s+33\s+41/)
    expect(text).not.toMatch(/COPIA/)
    // The QR is the slip's own bearer code: the cashier's scanner reads it as this slip.
    expect(job.qr).toHaveLength(1)
    expect(job.qr[0]).toMatch(/^BLL1\.L\./)
    const scanned = await api(server.url, 'POST', '/api/tickets/validate', { code: job.qr[0] }, asCashier())
    expect(scanned.status, JSON.stringify(scanned.body)).toBe(200)
    expect(JSON.stringify(scanned.body)).toContain(sold.body.receiptNumber)
    // The paper owed is recorded with the sale (reprinted on request if the printer had failed).
    const owed = await server.services.db.get<{ items: string }>('SELECT items FROM ticket_prints WHERE id = ?', [
      sold.body.payment.saleId,
    ])
    expect(JSON.parse(owed!.items)).toEqual({ slips: [sold.body.receiptNumber] })
  })
})
