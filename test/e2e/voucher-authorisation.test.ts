import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hallWithGameOnSale, startFakePrinter } from '../helpers/cashdesk.ts'
import { countOf } from '../helpers/cash.ts'
import { sealed } from '../helpers/device-marks.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import { TEST_LICENCE } from '../helpers/sale-rules.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { asTerminal, TERMINAL_TERMS } from '../helpers/terminals.ts'
import { openTill, type Till } from '../helpers/till.ts'

const PASSWORD = 'correct horse battery'

/**
 * GEN-5 (002 §1.1.s: every means of access "requiere autorización de la AJ"): every paper a hall prints that gives
 * access to play or carries value names the authorisation it is issued under, under the hall's name, from the
 * hall's record: the change voucher a bingo terminal prints when its session ends, the one the cashier prints when
 * she recovers a lost session, the voucher a kiosk prints for a refunded card and the receipt of a card refunded in
 * cash. Authentication on, enrolled devices, every station printing to a real TCP ESC/POS printer whose bytes are
 * decoded; two halls under different references each print their own.
 */
describe('the hall authorisation on the vouchers of terminals and refunds, decoded from a TCP printer (GEN-5)', () => {
  let printer: Awaited<ReturnType<typeof startFakePrinter>>
  let server: Awaited<ReturnType<typeof startTestServer>>

  interface Hall {
    ref: string
    hallId: string
    gameId: string
    kiosk: { id: string; credential: string }
    terminal: { id: string; credential: string }
    till: Till
  }
  const halls: Hall[] = []

  /** A hall whose licence is recorded under `ref`, with a kiosk, a terminal under its terms and a cashier's till. */
  async function hallUnder(ref: string, name: string, cashier: string): Promise<Hall> {
    const { services } = server
    const setup = await hallWithGameOnSale(services, { name, licenceRef: ref, faceValueCents: 500 })
    await services.terminals.setTerms({ hallId: setup.hallId, ...TERMINAL_TERMS, by: 'test' })
    const enrol = (kind: 'kiosk' | 'terminal', deviceName: string) =>
      services.auth.enrolDevice({ ...sealed(), kind, name: deviceName, hallId: setup.hallId })
    const kiosk = await enrol('kiosk', 'Kiosco 1')
    const terminal = await enrol('terminal', 'Terminal 1')
    await services.auth.createUser({
      username: cashier,
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
      halls: [setup.hallId],
    })
    const till = await openTill(server.url, services, {
      hallId: setup.hallId,
      username: cashier,
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 20_000,
    })
    return { ref, hallId: setup.hallId, gameId: setup.gameId, kiosk, terminal, till }
  }

  /** The text lines of what reached the printer since `printer.clear()`, trimmed. */
  const printed = () => decodeEscPos(printer.received()).lines.map((l) => l.trim())

  /** A voucher sold at the hall's cashier (it prints there too). */
  async function voucherOf(h: Hall, amountCents: number): Promise<string> {
    const r = await api(
      server.url,
      'POST',
      '/api/vouchers',
      { hallId: h.hallId, amountCents, cash: countOf(amountCents) },
      h.till.headers,
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r.body.voucher.code
  }

  /** The hall's name, then its authorisation, and no other hall's. */
  function expectHead(lines: string[], h: Hall, name: string) {
    const at = lines.indexOf(name)
    expect(at, lines.join('\n')).toBeGreaterThanOrEqual(0)
    expect(lines[at + 1]).toBe(`Autorización: ${h.ref}`)
    for (const other of halls.filter((o) => o.ref !== h.ref)) expect(lines.join('\n')).not.toContain(other.ref)
  }

  beforeAll(async () => {
    printer = await startFakePrinter('ok')
    // Every station of the server prints on the one network printer.
    server = await startTestServer({ auth: 'on', printer: printer.url })
    halls.push(await hallUnder(TEST_LICENCE.authorisationRef, 'Sala Illimani', 'cajera-illimani'))
    halls.push(await hallUnder('AJ-LO-2026-0042', 'Sala Sajama', 'cajera-sajama'))
  })
  afterAll(async () => {
    await server?.cleanup()
    await printer?.close()
  })

  it("prints the hall's authorisation on the change voucher of a terminal's session, ended at the terminal", async () => {
    for (const [h, name] of [
      [halls[0], 'Sala Illimani'],
      [halls[1], 'Sala Sajama'],
    ] as const) {
      const code = await voucherOf(h, 1500)
      const opened = await api(
        server.url,
        'POST',
        '/api/terminal/session',
        { ageConfirmed: true, voucherCode: code },
        asTerminal(h.terminal),
      )
      expect(opened.status, JSON.stringify(opened.body)).toBe(201)
      printer.clear()
      const ended = await api(server.url, 'POST', '/api/terminal/session/end', undefined, asTerminal(h.terminal))
      expect(ended.status, JSON.stringify(ended.body)).toBe(200)
      expect(ended.body.print.printed).toBe(true)
      const lines = printed()
      expect(lines).toContain('VALE DE CAMBIO')
      expectHead(lines, h, name)
    }
  })

  it('prints it on the change voucher of a lost session recovered at the cashier', async () => {
    const h = halls[1]
    const code = await voucherOf(h, 1200)
    const opened = await api(
      server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: code },
      asTerminal(h.terminal),
    )
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    printer.clear()
    const r = await api(server.url, 'POST', '/api/terminal-sessions/recover', { voucherCode: code }, h.till.headers)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.change.amountCents).toBe(1200)
    const lines = printed()
    expect(lines).toContain('VALE DE CAMBIO')
    expectHead(lines, h, 'Sala Sajama')
  })

  it("prints it on a refunded card's voucher at the kiosk and on its cash receipt at the cashier", async () => {
    for (const [h, name] of [
      [halls[0], 'Sala Illimani'],
      [halls[1], 'Sala Sajama'],
    ] as const) {
      const code = await voucherOf(h, 500)
      const kiosk = { 'accept-language': 'es', authorization: `Device ${h.kiosk.credential}` }
      const bought = await api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: code, gameId: h.gameId, count: 1, ageConfirmed: true },
        kiosk,
      )
      expect(bought.status, JSON.stringify(bought.body)).toBe(201)
      const counter = await api(
        server.url,
        'POST',
        `/api/games/${h.gameId}/sales`,
        { count: 1, ageConfirmed: true, cash: countOf(500) },
        h.till.headers,
      )
      expect(counter.status, JSON.stringify(counter.body)).toBe(201)
      // BNG-86: the game is annulled; its cards are refunded at full price.
      await server.services.bingo.declareIncident({ gameId: h.gameId, kind: 'ball-irregularity', note: 'bola rota' })

      printer.clear()
      const toVoucher = await api(
        server.url,
        'POST',
        '/api/refunds/cards',
        { code: bought.body.cards[0].code, to: 'voucher' },
        kiosk,
      )
      expect(toVoucher.status, JSON.stringify(toVoucher.body)).toBe(201)
      expect(toVoucher.body.voucher.amountCents).toBe(500)
      let lines = printed()
      expect(lines).toContain('VALE DE CAMBIO')
      expectHead(lines, h, name)

      printer.clear()
      const inCash = await api(
        server.url,
        'POST',
        '/api/refunds/cards',
        { code: counter.body.cards[0].code },
        h.till.headers,
      )
      expect(inCash.status, JSON.stringify(inCash.body)).toBe(201)
      expect(inCash.body.receipt.printed).toBe(true)
      lines = printed()
      expect(lines).toContain('REEMBOLSO DE CARTÓN')
      expectHead(lines, h, name)
    }
  })
})
