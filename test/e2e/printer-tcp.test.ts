import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPrinter } from '../../printer/src/printers.ts'
import { cardTicket } from '../../printer/src/ticket-layout.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, sellVoucher, startFakePrinter, type HallSetup } from '../helpers/cashdesk.ts'
import { decodeEscPos, gridRows } from '../helpers/escpos-decode.ts'
import { TEST_LICENCE } from '../helpers/sale-rules.ts'

/**
 * A kiosk printing to a network ESC/POS printer (tcp://host:9100): a real TCP server on 127.0.0.1 plays the
 * printer, answers its status queries and keeps every byte. The card it receives must carry the grid numbers
 * (BNG-5), the exact signed code in the QR command (DESIGN.md "Ticket codes") and a cut.
 */
describe('printing a card on a network ESC/POS printer', () => {
  let printer: Awaited<ReturnType<typeof startFakePrinter>>
  let server: Awaited<ReturnType<typeof startTestServer>>
  let setup: HallSetup

  beforeAll(async () => {
    printer = await startFakePrinter('ok')
    server = await startTestServer({ printers: { 'kiosk-tcp': printer.url } })
    setup = await hallWithGameOnSale(server.services, { faceValueCents: 500 })
  })
  afterAll(async () => {
    await server?.cleanup()
    await printer?.close()
  })

  it('sends the grid, the QR with the exact signed code and a cut, after a status query', async () => {
    const voucher = await sellVoucher(server.url, setup.hallId, 500)
    const r = await api(server.url, 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      gameId: setup.gameId,
      count: 1,
      kioskId: 'kiosk-tcp',
      ageConfirmed: true,
    })
    expect(r.status).toBe(201)
    expect(r.body.print.target).toBe(printer.url)
    const [card] = r.body.cards
    const job = decodeEscPos(printer.received())

    // Real-time status first (DLE EOT 1, 2, 4), then the job, then GS r 1 as the printer's acknowledgement.
    expect(job.queries.slice(0, 3)).toEqual(['DLE EOT 1', 'DLE EOT 2', 'DLE EOT 4'])
    expect(job.queries.at(-1)).toBe('GS r 1')

    // The QR command carries the signed code byte for byte.
    expect(job.qr).toEqual([card.code])
    expect(card.code).toMatch(/^BLL1\.C\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/)

    // BNG-5: the printed 3 x 9 grid holds exactly the card's numbers in their cells.
    expect(card.grid.map((row: number[]) => row.length)).toEqual([9, 9, 9])
    expect(gridRows(job.lines)).toEqual(card.grid)
    expect(card.grid.map((row: number[]) => row.filter(Boolean))).toEqual(card.rows)
    const printed = job.lines.join('\n')
    for (const n of card.rows.flat().filter(Boolean)) expect(printed).toMatch(new RegExp(`│ ?${n} ?│`))

    // BNG-6 fields, and the cut after the card (no change voucher: the voucher was spent exactly).
    expect(printed).toContain(card.serial)
    expect(printed).toContain('VÁLIDO SOLO PARA LA PARTIDA N.º 1')
    expect(printed).toContain('Serie de 400 cartones')
    expect(printed).toMatch(/Valor facial\s+Bs\s5,00/)
    // GEN-5: the card names the authorisation it is issued under, the hall's licence as the server recorded it.
    expect(printed).toContain(`Autorización: ${TEST_LICENCE.authorisationRef}`)
    expect(job.cuts).toBe(1)
    expect(job.events.indexOf('qr')).toBeLessThan(job.events.indexOf('cut'))
    for (const line of job.lines) expect(line.length).toBeLessThanOrEqual(48)
  })

  it('prints a card within 32 columns on 58 mm paper', async () => {
    printer.clear()
    const p = createPrinter(printer.url, { paper: '58mm', timeoutMs: 2000, printsDir: server.dataDir })
    const rows = [
      [3, 0, 21, 0, 45, 0, 62, 0, 81],
      [0, 14, 0, 33, 47, 0, 0, 75, 88],
      [7, 0, 28, 39, 0, 56, 0, 79, 0],
    ]
    const code = server.services.cashdesk.payouts.cardCode('c_paper58mm1')
    await p.print(
      [
        cardTicket(
          {
            code,
            cardId: 'c_paper58mm1',
            hallName: 'Sala Illimani',
            sessionId: 'ses_abc',
            gameId: 'g_abc',
            gameNo: 7,
            seriesCode: 'B',
            cardNo: 9,
            serial: 'B-00009',
            cardsInSeries: 6000,
            faceValueCents: 1000,
            currency: 'BOB',
            soldAt: new Date().toISOString(),
            station: 'kiosk-tcp',
            grid: rows,
            minimumAge: 18,
            authorisationRef: null,
          },
          { paper: '58mm' },
        ),
      ],
      'test-58',
    )
    const job = decodeEscPos(printer.received())
    expect(gridRows(job.lines)).toEqual(rows)
    expect(job.qr).toEqual([code])
    for (const line of job.lines) expect(line.length).toBeLessThanOrEqual(32)
  })

  it('keeps a sale whose printer ran out of paper (PRINT_PENDING), then reports DEVICE_UNAVAILABLE before selling anything', async () => {
    printer.setMode('paper_out')
    try {
      const first = await sellVoucher(server.url, setup.hallId, 500)
      const sold = await api(server.url, 'POST', '/api/kiosk/purchases', {
        voucherCode: first.code,
        gameId: setup.gameId,
        count: 1,
        kioskId: 'kiosk-tcp',
        ageConfirmed: true,
      })
      expect(sold.status).toBe(201)
      expect(sold.body.print).toMatchObject({ printed: false, code: 'PRINT_PENDING', reason: 'paper_out' })
      const voucher = await sellVoucher(server.url, setup.hallId, 500)
      const r = await api(server.url, 'POST', '/api/kiosk/purchases', {
        voucherCode: voucher.code,
        gameId: setup.gameId,
        count: 1,
        kioskId: 'kiosk-tcp',
        ageConfirmed: true,
      })
      expect(r.status).toBe(503)
      expect(r.body.error).toMatchObject({
        code: 'DEVICE_UNAVAILABLE',
        details: { reason: 'paper_out', device: 'printer' },
      })
      expect((await api(server.url, 'POST', '/api/vouchers/check', { code: voucher.code })).body.status).toBe('active')
    } finally {
      printer.setMode('ok')
    }
  })
})
