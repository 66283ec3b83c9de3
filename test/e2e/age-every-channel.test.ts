import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { paidHall, PASSWORD, type PaidHall } from '../helpers/paid-hall.ts'
import { rafflePlan } from '../helpers/lottery-plans.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * GEN-23 (1) and (5), issue 26: no minor plays any game, on any channel. The audit's scenario: "a minor buys at the
 * table; nothing asks". Over real HTTP with authentication on and enrolled devices, every way a game reaches a
 * player (the cashier's counter: cards, lotto slip, e-instant, raffle; the caller's table till; the kiosk; a hall
 * terminal's session) is refused without the age confirmation, with AGE_NOT_CONFIRMED and a Spanish message, and
 * leaves nothing sold and no cash in the drawer; with it the same request sells.
 */
describe('the player is of age on every sale channel (GEN-23)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  let table: Till
  let raffleId: string
  let terminal: { id: string; credential: string }
  const es = { 'accept-language': 'es' }
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const asKiosk = () => ({ ...es, authorization: `Device ${hall.kiosk.credential}` })
  const count = async (sql: string, args: unknown[] = []) =>
    Number((await server.services.db.get<{ n: number }>(sql, args))?.n ?? 0)
  /** What the counters hold: items of every product and the cash taken at any counter. */
  const sold = async () => ({
    cards: (await server.services.bingo.getGameState(hall.gameId)).cardsSold,
    slips: await count('SELECT COUNT(*) AS n FROM lotto_slips'),
    instant: await count('SELECT COUNT(*) AS n FROM instant_sales'),
    raffle: await count('SELECT COUNT(*) AS n FROM lottery_sales'),
    cash: await count("SELECT COALESCE(SUM(amount_cents), 0) AS n FROM cash_movements WHERE kind = 'counter_sale'"),
  })
  const refusedForAge = (r: { status: number; body: any }) => {
    expect(r.status, JSON.stringify(r.body)).toBe(400)
    expect(r.body.error.code).toBe('AGE_NOT_CONFIRMED')
    expect(r.body.error.message).toMatch(/^Antes de vender hay que confirmar que el jugador es mayor de edad/)
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
    await server.services.auth.createUser({
      username: 'locutor',
      displayName: 'Pedro Flores',
      role: 'caller',
      password: PASSWORD,
    })
    table = await openTill(server.url, server.services, {
      hallId: hall.hallId,
      username: 'locutor',
      password: PASSWORD,
      stationName: 'Mesa 1',
      floatCents: 10_000,
    })
    const raffle = await server.services.lottery.createRaffle(
      rafflePlan({
        salesStartAt: new Date(Date.now() - 3_600_000).toISOString(),
        salesCloseAt: new Date(Date.now() + 86_400_000).toISOString(),
        drawAt: new Date(Date.now() + 90_000_000).toISOString(),
        claimDeadline: new Date(Date.now() + 70 * 86_400_000).toISOString(),
        currency: 'BOB',
        gameCode: 'RIFAED',
        authorisationRef: 'AJ-RIFA-PRUEBA-1',
      } as Parameters<typeof rafflePlan>[0]),
    )
    raffleId = raffle.drawId
    terminal = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'terminal',
      name: 'Terminal 1',
      hallId: hall.hallId,
    })
  })
  afterAll(async () => server?.cleanup())

  const counterSales = () => [
    { name: 'cards', path: `/api/games/${hall.gameId}/sales`, body: { count: 2 } },
    {
      name: 'lotto slip',
      path: `/api/lotto/draws/${hall.drawId}/slips`,
      body: { quickPicks: 1, player: { name: 'Rosa Condori', document: 'CI 4812377 LP' } },
    },
    { name: 'e-instant', path: `/api/instant/halls/${hall.hallId}/electronic`, body: { gameNo: hall.gameNo } },
    { name: 'raffle', path: `/api/lottery/draws/${raffleId}/tickets`, body: { count: 1 } },
  ]

  it("refuses every counter sale at the cashier's station unless the seller confirms the player is of age", async () => {
    for (const sale of counterSales()) {
      const before = await sold()
      // Absent, false, or a truthy string: only an explicit true is the seller's tick.
      for (const ageConfirmed of [undefined, false]) {
        const body = ageConfirmed === undefined ? sale.body : { ...sale.body, ageConfirmed }
        refusedForAge(await api(server.url, 'POST', sale.path, body, asCashier()))
      }
      expect(await sold(), sale.name).toEqual(before)
      const ok = await api(server.url, 'POST', sale.path, { ...sale.body, ageConfirmed: true }, asCashier())
      expect(ok.status, `${sale.name}: ${JSON.stringify(ok.body)}`).toBe(201)
      expect((await sold()).cash, sale.name).toBeGreaterThan(before.cash)
    }
    // The sale's cash record says the age was confirmed, by the seller it names.
    const taken = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'sale.cash_taken'",
    )
    expect(taken.length).toBeGreaterThanOrEqual(4)
    for (const t of taken) expect(JSON.parse(t.payload)).toMatchObject({ ageConfirmed: true })
  })

  it("refuses cards at the caller's table till without the age confirmation (the audit's scenario)", async () => {
    const before = await sold()
    const path = `/api/games/${hall.gameId}/sales`
    refusedForAge(await api(server.url, 'POST', path, { count: 3 }, table.headers))
    const english = await api(server.url, 'POST', path, { count: 3 }, { ...table.headers, 'accept-language': 'en' })
    expect(english.body.error.message).toMatch(/^Before selling, confirm the player is of age/)
    expect(await sold()).toEqual(before)
    const ok = await api(server.url, 'POST', path, { count: 3, ageConfirmed: true }, table.headers)
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect((await sold()).cards).toBe(before.cards + 3)
  })

  it('refuses a kiosk purchase whose player did not answer the age question, and the voucher keeps its credit', async () => {
    const voucher = await sellVoucher(server.url, hall.hallId, 1000, {}, asCashier())
    const before = await sold()
    const basket = { voucherCode: voucher.code, cards: { gameId: hall.gameId, count: 1 } }
    refusedForAge(await api(server.url, 'POST', '/api/kiosk/purchases', basket, asKiosk()))
    refusedForAge(await api(server.url, 'POST', '/api/kiosk/purchases', { ...basket, ageConfirmed: false }, asKiosk()))
    expect((await sold()).cards).toBe(before.cards)
    const ok = await api(server.url, 'POST', '/api/kiosk/purchases', { ...basket, ageConfirmed: true }, asKiosk())
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })

  it('refuses a terminal session (its cards) until the player answers the age question; the voucher is not spent', async () => {
    const voucher = await sellVoucher(server.url, hall.hallId, 1000, {}, asCashier())
    const asTerminal = { ...es, authorization: `Device ${terminal.credential}` }
    refusedForAge(await api(server.url, 'POST', '/api/terminal/session', { voucherCode: voucher.code }, asTerminal))
    const check = await api(server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, asCashier())
    expect(check.body.status ?? check.body.voucher?.status).toBe('active')
    // With the answer the session goes on to the hall's own checks (this hall recorded no terminal terms).
    const on = await api(
      server.url,
      'POST',
      '/api/terminal/session',
      { voucherCode: voucher.code, ageConfirmed: true },
      asTerminal,
    )
    expect([on.status, on.body.error?.code]).toEqual([422, 'RULE_DISABLED'])
  })
})
