/**
 * INS-10 (002 §7.4.6.1) on a server as shipped (authentication on, staff accounts, enrolled cashier stations and
 * kiosk, the clock injected): an instant game's claim period always ends. The design fixes its last moment of sale
 * (salesEndAt); a game nobody closes stops selling then, and its prizes expire claimDays later. Driven through
 * every route that reaches a sale or a prize: the counter sale of a pre-printed ticket, the kiosk's on-screen sale,
 * validation and payment at a cash desk.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cashierHall, electronicDesign, PASSWORD, printedDesign, type CashierHall } from '../helpers/cashier.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { printRunTickets, type PrintedTicket } from '../helpers/instant.ts'
import { startTestServer } from '../helpers/server.ts'
import type { InstantDesign } from '../../server/src/instant/design.ts'

const DAY = 86_400_000
const T0 = Date.parse('2026-05-04T09:00:00-04:00')
/** Sales end two days after T0 (La Paz wall clock); prizes are claimed for 10 days after that. */
const SALES_END = '2026-05-06T23:59:59-04:00'
const printed: InstantDesign = { ...printedDesign, gameNo: 7701, claimDays: 10, salesEndAt: SALES_END }
const screen: InstantDesign = { ...electronicDesign, gameNo: 7702, claimDays: 10, salesEndAt: SALES_END }

describe('INS-10: an instant game never closed still ends its sales and its claim period', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let tickets: PrintedTicket[]
  let t = T0
  const relogin = async () => {
    for (const u of ['jefa', 'cajero']) h.tokens.set(u, (await server.services.auth.login(u, PASSWORD)).token)
    const r = await h.call('caja2', 'POST', '/api/auth/login', { username: 'cajero', password: PASSWORD })
    expect(r.status).toBe(200)
    h.tokens.set('cajero@caja2', r.body.token)
  }
  const winners = () => tickets.filter((x) => x.tier > 0)
  // INS-10: the cashier scans both codes of the ticket presented.
  const pay = (x: PrintedTicket) =>
    h.call('cajero@caja2', 'POST', '/api/tickets/pay', {
      code: x.code,
      inventoryCode: x.serial,
      payeeName: 'Ana Quispe',
      payeeDocument: '445566 LP',
    })
  const kioskBuy = async () => {
    const voucher = await sellVoucher(
      server.url,
      h.setup.hallId,
      screen.priceCents,
      {},
      { authorization: `Bearer ${h.tokens.get('cajero@caja2')}` },
    )
    return h.call('kiosk', 'POST', '/api/kiosk/purchases', {
      voucherCode: voucher.code,
      ageConfirmed: true,
      instant: { gameNo: screen.gameNo, count: 1 },
    })
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock: { now: () => new Date(t) } })
    h = await cashierHall(server.url, server.services)
    expect((await h.call('jefa', 'POST', '/api/instant/games', { design: printed })).status).toBe(201)
    tickets = await printRunTickets(server.services.db, server.services.sealer, printed)
    expect(
      (
        await h.call('jefa', 'POST', `/api/instant/games/${printed.gameNo}/packs/ship`, {
          fromPack: 1,
          toPack: 4,
          destination: h.setup.hallId,
        })
      ).status,
    ).toBe(200)
    for (const packNo of [1, 2])
      expect(
        (
          await h.call('cajero@caja2', 'POST', '/api/instant/packs/activate', {
            gameNo: printed.gameNo,
            packNo,
            location: h.setup.hallId,
          })
        ).status,
      ).toBe(200)
    expect((await h.call('jefa', 'POST', '/api/instant/games', { design: screen })).status).toBe(201)
    await server.services.instant.configureHall({
      hallId: h.setup.hallId,
      electronicInstantAllowed: true,
      authorisationRef: 'AJ-RA-2025-0042',
      by: 'jefa',
    })
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 2_000_000 })).status).toBe(201)
  })
  afterAll(async () => server?.cleanup())

  it('refuses a design without its last moment of sale (400), or with one without its offset', async () => {
    const { salesEndAt: _, ...without } = { ...printed, gameNo: 7703 }
    const r = await h.call('jefa', 'POST', '/api/instant/games', { design: without })
    expect(r.status).toBe(400)
    expect(JSON.stringify(r.body.error)).toMatch(/salesEndAt/)
    const local = await h.call('jefa', 'POST', '/api/instant/games', {
      design: { ...printed, gameNo: 7704, salesEndAt: '2026-05-06T23:59:59' },
    })
    expect(local.status).toBe(400)
  })

  it('before the end of sales: sold at the counter and at the kiosk; the claim deadline is known while on sale', async () => {
    const [w, w1] = winners().filter((x) => x.pack === 1)
    for (const x of [w, w1]) {
      const sale = await h.call('cajero@caja2', 'POST', '/api/instant/sales', {
        ageConfirmed: true,
        code: x.serial,
        hallId: h.setup.hallId,
      })
      expect(sale.status, JSON.stringify(sale.body)).toBe(201)
    }
    const v = await h.call('cajero@caja2', 'POST', '/api/tickets/validate', { code: w.code })
    expect(v.body.status).toBe('winner')
    expect(JSON.stringify(v.body)).toContain(new Date(Date.parse(SALES_END) + 10 * DAY).toISOString())
    expect((await kioskBuy()).status).toBe(201)
  })

  it('after the end of sales (never closed): no counter or kiosk sale (409), prizes still paid within the claim period', async () => {
    t = Date.parse(SALES_END) + 60_000
    await relogin()
    const [, w1, w2] = winners().filter((x) => x.pack === 1)
    const late = await h.call('cajero@caja2', 'POST', '/api/instant/sales', {
      ageConfirmed: true,
      code: w2.serial,
      hallId: h.setup.hallId,
    })
    expect(late.status).toBe(409)
    expect(late.body.error.code).toBe('SALES_CLOSED')
    const kiosk = await kioskBuy()
    expect(kiosk.status).toBe(409)
    expect(kiosk.body.error.code).toBe('SALES_CLOSED')
    expect((await pay(w1)).status).toBe(200)
  })

  it('after the claim period (claimDays after the end of sales): the sold winner is refused as expired at validation and payment', async () => {
    t = Date.parse(SALES_END) + 10 * DAY + 60_000
    await relogin()
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 2_000_000 })).status).toBeLessThan(500)
    const [w] = winners().filter((x) => x.pack === 1)
    const v = await h.call('cajero@caja2', 'POST', '/api/tickets/validate', { code: w.code })
    expect(v.body.status).not.toBe('winner')
    const paid = await pay(w)
    expect(paid.status).toBe(410)
    expect(paid.body.error.code).toBe('TICKET_EXPIRED')
  })

  it('INS-5 / §7.13: the printable prize register lists the prize paid with its ticket, the payee and a signature box', async () => {
    const [, w1] = winners().filter((x) => x.pack === 1)
    const r = await fetch(`${server.url}/api/instant/games/${printed.gameNo}/prize-register.pdf`, {
      headers: { authorization: `Bearer ${h.tokens.get('jefa')}` },
    })
    expect(r.status).toBe(200)
    const dir = join(process.cwd(), 'test-output', 'screenshots')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, 'instant-prize-register.pdf')
    writeFileSync(file, Buffer.from(await r.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    expect(text).toContain('LIBRO DE REGISTRO DE PREMIOS OTORGADOS')
    expect(text).toContain(w1.serial)
    expect(text).toContain('Ana Quispe')
    expect(text).toContain('445566 LP')
    expect(text).toContain(`Juego N.º ${printed.gameNo}`)
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', file, join(dir, 'instant-prize-register')])
  })
})
