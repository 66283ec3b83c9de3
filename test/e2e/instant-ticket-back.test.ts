/**
 * INS-4 / INS-15 over real HTTP with authentication on, an enrolled kiosk and cashier station and a real TCP printer
 * on 127.0.0.1: the paper of an on-screen (e-instant) sale is the player's proof, so it carries what the back of a
 * pre-printed ticket carries (instant-sheet.ts drawBack): the issue number, the prize structure, how to play, the
 * security warnings, the claim period and place, and the issuer with the game's authorisation. Checked on the
 * ESC/POS bytes the printer received, for a kiosk purchase and a counter sale (the two doors of an e-instant sale).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { sellVoucher, startFakePrinter } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'

describe('the e-instant ticket prints the back of the game (INS-4, INS-15)', () => {
  const printerOf: Record<string, string> = {}
  let kioskPrinter: Awaited<ReturnType<typeof startFakePrinter>>
  let counterPrinter: Awaited<ReturnType<typeof startFakePrinter>>
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const clock = { now: () => new Date(Date.parse('2026-03-10T15:00:00-04:00')) }

  beforeAll(async () => {
    kioskPrinter = await startFakePrinter('ok')
    counterPrinter = await startFakePrinter('ok')
    server = await startTestServer({ auth: 'on', printers: printerOf }, { clock })
    hall = await paidHall(server.services)
    printerOf[hall.kiosk.id] = kioskPrinter.url
    printerOf[hall.station.id] = counterPrinter.url
  })
  afterAll(async () => {
    await server?.cleanup()
    await kioskPrinter?.close()
    await counterPrinter?.close()
  })

  /** The decoded roll as one line, spaces collapsed (pairs are padded to the paper's width, long texts wrapped). */
  const paper = (printer: typeof kioskPrinter) =>
    decodeEscPos(printer.received())
      .lines.map((l) => l.replace(/\s+/g, ' ').trim())
      .join(' ')

  function expectBack(text: string) {
    // (1) the issue number, (2) the ticket number.
    expect(text).toMatch(/Emisión N\.º 0880/)
    expect(text).toMatch(/Boleto 0880-/)
    // (3) the prize structure of the game (E_INSTANT: 4 x Bs 50, 10 x Bs 20, 20 x Bs 10 in 100 tickets).
    expect(text).toContain('Estructura de premios')
    expect(text).toContain('Bs 50,00 4 (1 en 25)')
    expect(text).toContain('Bs 20,00 10 (1 en 10)')
    expect(text).toContain('Bs 10,00 20 (1 en 5)')
    // (4) and (6): the claim period and the place of payment.
    expect(text).toMatch(/Cobro en cajas de la sala, dentro de 60 días/)
    // (7) how to play, (5) the security warnings, and the issuer with the game's authorisation.
    expect(text).toMatch(/Cómo jugar: Raspe las 9 casillas/)
    expect(text).toMatch(/Advertencias: Boleto nulo si está alterado/)
    expect(text).toMatch(/Emite: Lotería de pruebas\. Emisión N\.º 0880\. Juego autorizado: AJ-RA-2025-0042\./)
  }

  it('a kiosk purchase prints the prize structure, how to play, the warnings and the issuer', async () => {
    const voucher = await sellVoucher(
      server.url,
      hall.hallId,
      1000,
      {},
      { 'accept-language': 'es', authorization: `Bearer ${hall.cashierToken}` },
    )
    const r = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.code, ageConfirmed: true, instant: { gameNo: hall.gameNo, count: 1 } },
      { 'accept-language': 'es', authorization: `Device ${hall.kiosk.credential}` },
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.print).toMatchObject({ printed: true })
    expectBack(paper(kioskPrinter))
  })

  it('a counter sale prints the same back', async () => {
    const r = await api(
      server.url,
      'POST',
      `/api/instant/halls/${hall.hallId}/electronic`,
      { ageConfirmed: true, gameNo: hall.gameNo },
      { 'accept-language': 'es', authorization: `Bearer ${hall.cashierToken}` },
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    // The station's roll also holds the voucher sold for the kiosk: wait for the ticket itself.
    await expect.poll(() => paper(counterPrinter), { timeout: 10_000 }).toMatch(/Boleto 0880-/)
    expectBack(paper(counterPrinter))
  })
})
