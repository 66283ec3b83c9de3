import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSqliteConnection } from '../../server/src/db/sqlite-runtime.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { rafflePlan } from '../helpers/lottery-plans.ts'
import { publicKeyFromRaw, verifyTicketCode } from '../../server/src/shared/ticket-code.ts'

/**
 * Issue 13, points 1 and 2, over real HTTP with authentication on: nothing of value without a recorded payment.
 * Each leak of the issue is refused with a 4xx, a code and a Spanish message, and leaves nothing sold; the paid
 * paths (one kiosk voucher for a card, a lotto slip and an e-instant ticket; cash at a cashier's station) record
 * their payment in the same transaction as the items.
 */
describe('no card, slip or instant ticket without a recorded payment (issue 13)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const es = { 'accept-language': 'es' }
  const asKiosk = () => ({ ...es, authorization: `Device ${hall.kiosk.credential}` })
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const asDirector = () => ({ ...es, authorization: `Bearer ${hall.directorToken}` })
  const cardsSold = async () => (await server.services.bingo.getGameState(hall.gameId)).cardsSold
  const count = async (sql: string, args: unknown[] = []) =>
    Number((await server.services.db.get<{ n: number }>(sql, args))?.n ?? 0)
  const slipsSold = () => count('SELECT COUNT(*) AS n FROM lotto_slips')
  const instantSold = () => count("SELECT COUNT(*) AS n FROM instant_sales WHERE channel = 'electronic'")
  const player = { name: 'Rosa Condori Mamani', document: 'CI 4812377 LP' }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
    // paidHall opened the cashier's shift at her station: a second one there is refused.
    expect((await api(server.url, 'POST', '/api/shifts', { floatCents: 0 }, asCashier())).body.error.code).toBe(
      'SHIFT_ALREADY_OPEN',
    )
  })
  afterAll(async () => server?.cleanup())

  // ---- the leaks of the issue, each refused

  it('refuses cards to a kiosk credential on the counter route: no voucher, no card (KIOSK_VOUCHER_ONLY)', async () => {
    const before = await cardsSold()
    const r = await api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/sales`,
      { ageConfirmed: true, count: 3 },
      asKiosk(),
    )
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe('KIOSK_VOUCHER_ONLY')
    expect(r.body.error.message).toMatch(/^Un kiosco solo vende contra un vale de crédito/)
    expect(await cardsSold()).toBe(before)
  })

  it('refuses lotto slips sold directly by a kiosk (KIOSK_VOUCHER_ONLY)', async () => {
    const before = await slipsSold()
    const r = await api(
      server.url,
      'POST',
      `/api/lotto/draws/${hall.drawId}/slips`,
      { ageConfirmed: true, quickPicks: 1, player },
      asKiosk(),
    )
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe('KIOSK_VOUCHER_ONLY')
    expect(r.body.error.message).toContain('vale de crédito')
    expect(await slipsSold()).toBe(before)
  })

  it('refuses e-instant tickets sold directly by a kiosk (KIOSK_VOUCHER_ONLY)', async () => {
    const before = await instantSold()
    const r = await api(
      server.url,
      'POST',
      `/api/instant/halls/${hall.hallId}/electronic`,
      { ageConfirmed: true, gameNo: hall.gameNo },
      asKiosk(),
    )
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe('KIOSK_VOUCHER_ONLY')
    expect(r.body.error.message).toContain('raspaditas')
    expect(await instantSold()).toBe(before)
  })

  it('refuses a counter sale by a person at no enrolled station: no drawer to take the cash (STATION_REQUIRED)', async () => {
    const before = { cards: await cardsSold(), slips: await slipsSold(), instant: await instantSold() }
    const cards = await api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/sales`,
      { ageConfirmed: true, count: 1 },
      asDirector(),
    )
    const slip = await api(
      server.url,
      'POST',
      `/api/lotto/draws/${hall.drawId}/slips`,
      { ageConfirmed: true, quickPicks: 1, player },
      asDirector(),
    )
    const ticket = await api(
      server.url,
      'POST',
      `/api/instant/halls/${hall.hallId}/electronic`,
      { ageConfirmed: true, gameNo: hall.gameNo },
      asDirector(),
    )
    for (const r of [cards, slip, ticket]) {
      expect(r.status).toBe(409)
      expect(r.body.error.code).toBe('STATION_REQUIRED')
      expect(r.body.error.message).toMatch(/^El dinero se mueve solo en una caja registrada/)
    }
    expect({ cards: await cardsSold(), slips: await slipsSold(), instant: await instantSold() }).toEqual(before)
  })

  it('refuses a station named in the body: the drawer is the one the request proves', async () => {
    const r = await api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/sales`,
      { ageConfirmed: true, count: 1, stationId: hall.station.id },
      asDirector(),
    )
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe('STATION_REQUIRED')
  })

  it('refuses a kiosk purchase without a voucher, or with a voucher that does not cover it, and sells nothing', async () => {
    const before = { cards: await cardsSold(), slips: await slipsSold(), instant: await instantSold() }
    const none = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      asKiosk(),
    )
    expect(none.status).toBe(400)
    expect(none.body.error.code).toBe('VALIDATION_FAILED')
    expect(none.body.error.message).toBe('Los datos enviados no son válidos.')
    const small = await sellVoucher(server.url, hall.hallId, 1000, {}, asCashier())
    // Bs 10: a card (Bs 5) and a slip (Bs 5) fit, the e-instant ticket (Bs 10) does not: all or nothing.
    const over = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      {
        voucherCode: small.code,
        ageConfirmed: true,
        cards: { gameId: hall.gameId, count: 1 },
        slips: [{ drawId: hall.drawId, quickPicks: 1, player }],
        instant: { gameNo: hall.gameNo, count: 1 },
      },
      asKiosk(),
    )
    expect(over.status).toBe(422)
    expect(over.body.error.code).toBe('VOUCHER_INSUFFICIENT')
    expect(over.body.error.message).toBe('El saldo del vale no alcanza para esa compra.')
    expect({ cards: await cardsSold(), slips: await slipsSold(), instant: await instantSold() }).toEqual(before)
    expect((await api(server.url, 'POST', '/api/vouchers/check', { code: small.code }, asKiosk())).body.status).toBe(
      'active',
    )
  })

  // Issue 24 point 1 / issue 23 point 5: the kiosk reads its game once, with its seal, and the sale checks the price it
  // sells at against that seal: a face value edited behind the journal sells nothing (BNG-10).
  it("refuses a kiosk card whose game's face value was edited in the database (ROW_TAMPERED); the voucher keeps its credit; put back, it sells", async () => {
    const tamper = async (cents: number) => {
      const sql = 'UPDATE games SET face_value_cents = ? WHERE id = ?'
      const url = server.services.config.databaseUrl
      if (url) {
        const client = new pg.Client({ connectionString: url })
        await client.connect()
        try {
          await client.query(sql.replace('?', '$1').replace('?', '$2'), [cents, hall.gameId])
        } finally {
          await client.end()
        }
        return
      }
      const conn = await openSqliteConnection(join(server.dataDir, 'bolillo.sqlite'))
      try {
        conn.prepare(sql).run(cents, hall.gameId)
      } finally {
        conn.close()
      }
    }
    const buy = (code: string) =>
      api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: code, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
        asKiosk(),
      )
    // A sale at the true price first: the game's row has matched its seal once (the check's memo).
    expect((await buy((await sellVoucher(server.url, hall.hallId, 500, {}, asCashier())).code)).status).toBe(201)
    const before = await cardsSold()
    const voucher = await sellVoucher(server.url, hall.hallId, 500, {}, asCashier())
    await tamper(50)
    try {
      const r = await buy(voucher.code)
      expect(r.status, JSON.stringify(r.body)).toBe(409)
      expect(r.body.error.code).toBe('ROW_TAMPERED')
      expect(await cardsSold()).toBe(before)
      expect(
        (await api(server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, asKiosk())).body.status,
      ).toBe('active')
    } finally {
      await tamper(500)
    }
    expect((await buy(voucher.code)).status).toBe(201)
    expect(await cardsSold()).toBe(before + 1)
  })

  // ---- the paid paths

  it('one voucher buys a card, a lotto slip and an e-instant ticket at the kiosk, each paid by that voucher (GEN-13, LNS-6)', async () => {
    const voucher = await sellVoucher(server.url, hall.hallId, 5000, {}, asCashier())
    const r = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      {
        voucherCode: voucher.code,
        ageConfirmed: true,
        cards: { gameId: hall.gameId, count: 1 },
        slips: [{ drawId: hall.drawId, boards: [[3, 11, 19, 27, 35, 43]], quickPicks: 1, player }],
        instant: { gameNo: hall.gameNo, count: 1 },
      },
      asKiosk(),
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.kioskId).toBe(hall.kiosk.id)
    expect(r.body.cards).toHaveLength(1)
    expect(r.body.slips).toHaveLength(1)
    expect(r.body.slips[0].boards.map((b: { quickPick: boolean }) => b.quickPick)).toEqual([false, true])
    expect(r.body.instant).toHaveLength(1)
    // Card Bs 5 + slip of 2 boards Bs 10 + ticket Bs 10 = Bs 25; change Bs 25 on a new voucher.
    expect(r.body.amountCents).toBe(2500)
    expect(r.body.change.amountCents).toBe(2500)
    const payments = await server.services.db.all<{
      product: string
      paid_by: string
      payment_ref: string
      station_id: string
      amount_cents: number
    }>(
      'SELECT product, paid_by, payment_ref, station_id, amount_cents FROM sale_payments WHERE payment_ref = ? ORDER BY product',
      [voucher.id],
    )
    expect(payments.map((p) => [p.product, p.paid_by, p.station_id, Number(p.amount_cents)])).toEqual([
      ['card', 'voucher', hall.kiosk.id, 500],
      ['instant', 'voucher', hall.kiosk.id, 1000],
      ['slip', 'voucher', hall.kiosk.id, 1000],
    ])
    // The voucher is spent; the change voucher can be typed by its short code.
    expect((await api(server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, asKiosk())).body.status).toBe(
      'spent',
    )
    const typed = await api(
      server.url,
      'POST',
      '/api/vouchers/check',
      { code: r.body.change.shortCode.toLowerCase().replace(/-/g, ' ') },
      asKiosk(),
    )
    expect(typed.body).toMatchObject({ id: r.body.change.id, amountCents: 2500, status: 'active' })
  })

  it('signs each card of a kiosk purchase ahead of its transaction: every printed code verifies with the published key and names the card written, and a refused purchase writes none of the ids it drew (issue 23 point 5)', async () => {
    const publicKey = publicKeyFromRaw(
      (await api(server.url, 'GET', '/api/keys', undefined, asKiosk())).body.publicKeyRaw as string,
    )
    const voucher = await sellVoucher(server.url, hall.hallId, 1500, {}, asCashier())
    const r = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId: hall.gameId, count: 3 } },
      asKiosk(),
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    const cards = r.body.cards as Array<{ id: string; serial: string; code: string }>
    expect(new Set(cards.map((c) => c.id)).size).toBe(3)
    for (const c of cards) {
      expect(verifyTicketCode(c.code, publicKey)).toEqual({ kind: 'C', id: c.id })
      const row = await server.services.db.get<{ serial: string; game_id: string }>(
        'SELECT serial, game_id FROM cards WHERE id = ?',
        [c.id],
      )
      expect(row).toEqual({ serial: c.serial, game_id: hall.gameId })
    }
    // Refused in its transaction (the voucher covers 3 cards, not 4): the ids drawn for it name no card.
    const before = await cardsSold()
    const cardRows = () => count('SELECT COUNT(*) AS n FROM cards')
    const rowsBefore = await cardRows()
    const short = await sellVoucher(server.url, hall.hallId, 1500, {}, asCashier())
    const refused = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: short.code, ageConfirmed: true, cards: { gameId: hall.gameId, count: 4 } },
      asKiosk(),
    )
    expect(refused.body.error?.code).toBe('VOUCHER_INSUFFICIENT')
    expect(await cardsSold()).toBe(before)
    expect(await cardRows()).toBe(rowsBefore)
  })

  it('buys with a voucher typed by its short code, and refuses a short code nobody holds (TICKET_NOT_FOUND)', async () => {
    const voucher = await sellVoucher(server.url, hall.hallId, 500, {}, asCashier())
    expect(voucher.shortCode).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/)
    const r = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.shortCode, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      asKiosk(),
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.change).toBeNull()
    const unknown = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: '2222-3333-4444', ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      asKiosk(),
    )
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('TICKET_NOT_FOUND')
  })

  it('refuses a voucher whose signed code was altered (INVALID_SIGNATURE), sells nothing and leaves the voucher its credit', async () => {
    const voucher = await sellVoucher(server.url, hall.hallId, 500, {}, asCashier())
    const before = await cardsSold()
    // One character inside the signature, not its last (whose low bits may be padding): a different signature.
    const at = voucher.code.length - 10
    const altered = voucher.code.slice(0, at) + (voucher.code[at] === 'A' ? 'Q' : 'A') + voucher.code.slice(at + 1)
    const r = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: altered, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      asKiosk(),
    )
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('INVALID_SIGNATURE')
    expect(r.body.error.message).toBe('Código no válido: la firma no coincide.')
    expect(await cardsSold()).toBe(before)
    expect((await api(server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, asKiosk())).body.status).toBe(
      'active',
    )
  })

  it("counts each kiosk player once in the game's seats, however many purchases arrive together (BNG-93)", async () => {
    // The seat check reads a kept count (migration 0073); it must stay the number of distinct players holding cards.
    const seats = () =>
      count('SELECT players AS n FROM game_hall_players WHERE game_id = ? AND hall_id = ?', [hall.gameId, hall.hallId])
    const distinct = () =>
      count('SELECT COUNT(DISTINCT player_key) AS n FROM player_cards WHERE game_id = ? AND hall_id = ?', [
        hall.gameId,
        hall.hallId,
      ])
    const start = await seats()
    expect(start).toBe(await distinct())
    const vouchers = await Promise.all(
      Array.from({ length: 4 }, () => sellVoucher(server.url, hall.hallId, 1000, {}, asCashier())),
    )
    const buy = (voucherCode: string) =>
      api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
        asKiosk(),
      )
    // Four new players at once (four voucher chains), in one group-commit batch or several.
    const first = await Promise.all(vouchers.map((v) => buy(v.code)))
    for (const r of first) expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(await seats()).toBe(start + 4)
    // The same four again, each with the change of his first purchase: no new seat.
    const again = await Promise.all(first.map((r) => buy(r.body.change.code as string)))
    for (const r of again) expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(await seats()).toBe(start + 4)
    expect(await distinct()).toBe(start + 4)
  })

  it("a cashier logged in at her station sells at the counter with the cash taken into that station's drawer", async () => {
    const cards = await api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/sales`,
      { ageConfirmed: true, count: 2 },
      asCashier(),
    )
    expect(cards.status, JSON.stringify(cards.body)).toBe(201)
    expect(cards.body).toMatchObject({ amountCents: 1000, stationId: hall.station.id })
    expect(cards.body.print.files.length).toBeGreaterThan(0)
    const slip = await api(
      server.url,
      'POST',
      `/api/lotto/draws/${hall.drawId}/slips`,
      { ageConfirmed: true, quickPicks: 1, player },
      asCashier(),
    )
    expect(slip.status, JSON.stringify(slip.body)).toBe(201)
    expect(slip.body.payment).toMatchObject({ stationId: hall.station.id, amountCents: 500, paidBy: 'cash' })
    const ticket = await api(
      server.url,
      'POST',
      `/api/instant/halls/${hall.hallId}/electronic`,
      { ageConfirmed: true, gameNo: hall.gameNo },
      asCashier(),
    )
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(201)
    expect(ticket.body.receipt.printed).toBe(true)
    const moves = await server.services.db.all<{ kind: string; amount_cents: number; cashier_id: string }>(
      "SELECT kind, amount_cents, cashier_id FROM cash_movements WHERE station_id = ? AND kind = 'counter_sale' ORDER BY at, id",
      [hall.station.id],
    )
    expect(moves.map((m) => Number(m.amount_cents)).sort()).toEqual([1000, 1000, 500].sort())
    // Every item sold at the counter names its cash movement.
    expect(
      await count("SELECT COUNT(*) AS n FROM sale_payments WHERE paid_by = 'cash' AND station_id = ?", [
        hall.station.id,
      ]),
    ).toBe(4)
  })

  it('sells raffle tickets only at a counter with the cash in the open shift: not at a kiosk, not in the back office (PRM-1)', async () => {
    const window = {
      salesStartAt: new Date(Date.now() - 3_600_000).toISOString(),
      salesCloseAt: new Date(Date.now() + 86_400_000).toISOString(),
      drawAt: new Date(Date.now() + 90_000_000).toISOString(),
      claimDeadline: new Date(Date.now() + 70 * 86_400_000).toISOString(),
    }
    // A raffle priced in euros is not sold for a Bolivian drawer's bolivianos.
    const euros = await server.services.lottery.createRaffle(rafflePlan({ ...window, gameCode: 'RIFAEU' }))
    const wrong = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${euros.drawId}/tickets`,
      { ageConfirmed: true, count: 1 },
      asCashier(),
    )
    expect([wrong.status, wrong.body.error.details.field]).toEqual([400, 'currency'])
    const raffle = await server.services.lottery.createRaffle(
      rafflePlan({ ...window, currency: 'BOB', gameCode: 'RIFABO', authorisationRef: 'AJ-RIFA-PRUEBA-1' } as Parameters<
        typeof rafflePlan
      >[0]),
    )
    const sold = () => count('SELECT COUNT(*) AS n FROM lottery_sales WHERE draw_id = ?', [raffle.drawId])
    const kiosk = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${raffle.drawId}/tickets`,
      { ageConfirmed: true, count: 2 },
      asKiosk(),
    )
    expect([kiosk.status, kiosk.body.error.code]).toEqual([409, 'KIOSK_VOUCHER_ONLY'])
    // The director at the back office, at no station: there is no drawer for the cash.
    const office = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${raffle.drawId}/tickets`,
      { ageConfirmed: true, count: 2 },
      asDirector(),
    )
    expect([office.status, office.body.error.code]).toEqual([409, 'STATION_REQUIRED'])
    expect(office.body.error.message).toMatch(/caja registrada/)
    expect(await sold()).toBe(0)
    const counter = await api(
      server.url,
      'POST',
      `/api/lottery/draws/${raffle.drawId}/tickets`,
      { ageConfirmed: true, count: 2, buyerName: 'Peña Illimani' },
      asCashier(),
    )
    expect(counter.status, JSON.stringify(counter.body)).toBe(201)
    expect(counter.body.payment).toMatchObject({
      stationId: hall.station.id,
      paidBy: 'cash',
      amountCents: 2 * counter.body.priceCents,
    })
    expect(await sold()).toBe(2)
    const move = await server.services.db.get<{ amount_cents: number; product: string; shift_id: string | null }>(
      'SELECT amount_cents, product, shift_id FROM cash_movements WHERE id = (SELECT payment_ref FROM sale_payments WHERE product = ? LIMIT 1)',
      ['raffle'],
    )
    expect(move).toMatchObject({ product: 'raffle', amount_cents: counter.body.amountCents })
    expect(move?.shift_id).toBeTruthy()
  })

  it('no item in the database lacks a payment record', async () => {
    const cards = await count(
      'SELECT COUNT(*) AS n FROM cards c WHERE NOT EXISTS (SELECT 1 FROM sale_payments p WHERE p.product = ? AND p.ref_id = c.id)',
      ['card'],
    )
    const slips = await count(
      'SELECT COUNT(*) AS n FROM lotto_slips s WHERE NOT EXISTS (SELECT 1 FROM sale_payments p WHERE p.product = ? AND p.ref_id = s.id)',
      ['slip'],
    )
    expect({ cards, slips }).toEqual({ cards: 0, slips: 0 })
  })
})
