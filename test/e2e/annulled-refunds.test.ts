import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardShortCode } from '../../server/src/cashdesk/card-short-code.ts'
import { hallWithGameOnSale, nextGameOnSale, playToTheEnd } from '../helpers/cashdesk.ts'
import { cashierHall, PASSWORD, type CashierHall } from '../helpers/cashier.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 29 point 1 over real HTTP, authentication on, real people at enrolled stations: the refund of an annulled
 * game's cards (BNG-80 to BNG-83, BNG-86) goes through the cash desk's one refund use case from every place a
 * player hands a card back: the cashier (cash, receipt with names and the hall's clock), the kiosk (a new voucher
 * for exactly the face value) and the table that sold it (the caller's till lists its cards and pays out of its
 * shift). A card is refunded once; never from another hall's station; never for a game that was not annulled.
 */
describe('refunds of an annulled game at the cashier, the kiosk and the table (issue 29 point 1)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let table: Till
  let otherHall: Till
  let gameId = ''
  let kioskCodes: string[] = []
  let tableCards: Array<{ serial: string; code: string }> = []
  let counterCodes: string[] = []

  const drawer = async (shiftId: string) =>
    Number(
      (await server.services.db.get<{ n: number }>(
        'SELECT COALESCE(SUM(amount_cents), 0) AS n FROM cash_movements WHERE shift_id = ?',
        [shiftId],
      ))!.n,
    )
  const shiftOf = async (who: string) => (await h.call(who, 'GET', '/api/shifts/current')).body.shift.shiftId as string
  const asTable = (method: string, path: string, body?: unknown) => api(server.url, method, path, body, table.headers)

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    h = await cashierHall(server.url, server.services, { faceValueCents: 1000 })
    const { auth } = server.services
    await auth.createUser({ username: 'locutor', displayName: 'Pedro Flores', role: 'caller', password: PASSWORD })
    table = await openTill(server.url, server.services, {
      hallId: h.setup.hallId,
      username: 'locutor',
      password: PASSWORD,
      stationName: 'Mesa 1',
      floatCents: 20_000,
    })
    // Another hall's cashier at her own station, her shift open.
    const other = await hallWithGameOnSale(server.services, { name: 'Sala Sur', cards: 100 })
    await auth.createUser({
      username: 'cajera-sur',
      displayName: 'Ana Choque',
      role: 'cashier',
      password: PASSWORD,
      halls: [other.hallId],
    })
    otherHall = await openTill(server.url, server.services, {
      hallId: other.hallId,
      username: 'cajera-sur',
      password: PASSWORD,
      stationName: 'Caja Sur',
      floatCents: 50_000,
    })
    // The first game ends normally (its cards are not refundable); the second is sold at the kiosk, the table and
    // the counter, then annulled.
    await server.services.bingo.sell({ gameId: h.setup.gameId, count: 20, channel: 'counter' })
    await playToTheEnd(server.services, h.setup.gameId)
    gameId = await nextGameOnSale(server.services, h.setup)
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 10_000 })).status).toBe(201)
    expect((await h.call('cajera@caja1', 'POST', '/api/shifts', { floatCents: 10_000 })).status).toBe(201)
    const v = await h.call('cajero@caja2', 'POST', '/api/vouchers', {
      hallId: h.setup.hallId,
      amountCents: 2000,
      cash: countOf(2000),
    })
    const bought = await h.call('kiosk', 'POST', '/api/kiosk/purchases', {
      voucherCode: v.body.voucher.code,
      gameId,
      count: 2,
      kioskId: 'k',
      ageConfirmed: true,
    })
    expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    kioskCodes = bought.body.cards.map((c: { code: string }) => c.code)
    const sold = await asTable('POST', `/api/games/${gameId}/sales`, {
      ageConfirmed: true,
      count: 3,
      cash: countOf(3000),
    })
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    tableCards = sold.body.cards.map((c: { serial: string; code: string }) => ({ serial: c.serial, code: c.code }))
    const counter = await h.call('cajero@caja2', 'POST', `/api/games/${gameId}/sales`, {
      ageConfirmed: true,
      count: 2,
      cash: countOf(2000),
    })
    expect(counter.status, JSON.stringify(counter.body)).toBe(201)
    counterCodes = counter.body.cards.map((c: { code: string }) => c.code)
    // BNG-21: the game needs 10 cards to start; the rest are sold without a station.
    await server.services.bingo.sell({ gameId, count: 10, channel: 'counter' })
    await server.services.bingo.closeSales({ gameId })
    await server.services.bingo.drawNext(gameId)
    const annul = await h.call('mesa', 'POST', `/api/games/${gameId}/incidents`, {
      kind: 'ball-irregularity',
      note: 'bola 12 deformada',
      reason: 'La bola 12 está deformada',
      confirm: { username: 'jefa', password: PASSWORD },
    })
    expect(annul.status, JSON.stringify(annul.body)).toBe(200)
  })
  afterAll(async () => server?.cleanup())

  it('pays a card in cash once out of the cashier shift, with a receipt naming the station, the person and the hall clock; the second presentation says when, where and by whom', async () => {
    const shiftId = await shiftOf('cajero@caja2')
    const before = await drawer(shiftId)
    const code = counterCodes[0]
    const paid = await h.call('cajero@caja2', 'POST', '/api/refunds/cards', { code })
    expect(paid.status, JSON.stringify(paid.body)).toBe(201)
    expect(paid.body).toMatchObject({
      amountCents: 1000,
      method: 'cash',
      stationName: 'Caja 2',
      cashierName: 'Jorge Paz',
      timeZone: 'America/La_Paz',
      receipt: { printed: true },
    })
    expect(await drawer(shiftId)).toBe(before - 1000)
    // The receipt on screen: names, no ids, the hall's zone named.
    const svg = Buffer.from(String(paid.body.preview).split(',')[1], 'base64').toString('utf8')
    expect(svg).toContain('REEMBOLSO DE CARTÓN')
    expect(svg).toContain('Caja 2')
    expect(svg).toContain('Jorge Paz')
    expect(svg).toContain('America/La_Paz')
    expect(svg).not.toMatch(/\b(dev|u|rf|c|ses|g)_[a-z0-9]{4,}/)
    // BNG-86: once. The same cashier, another station, the kiosk: refused, the drawers unchanged.
    for (const [who, to] of [
      ['cajero@caja2', 'cash'],
      ['cajera@caja1', 'cash'],
      ['kiosk', 'voucher'],
    ] as const) {
      const again = await h.call(who, 'POST', '/api/refunds/cards', { code, to })
      expect([again.status, again.body.error?.code], who).toEqual([409, 'ALREADY_REFUNDED'])
    }
    expect(await drawer(shiftId)).toBe(before - 1000)
    // Presented again: refunded, when, at which station and by whom, in names.
    const scan = await h.call('cajera@caja1', 'POST', '/api/tickets/validate', { code })
    expect(scan.body.view).toMatchObject({
      verdict: 'void',
      refunded: true,
      amountCents: 1000,
      paid: { at: paid.body.refundedAt, stationId: 'Caja 2', cashierId: 'Jorge Paz' },
      ids: { timeZone: 'America/La_Paz' },
    })
  })

  it("refuses a refund from another hall's station (WRONG_HALL) and a card of a game that was not annulled (NOT_REFUNDABLE)", async () => {
    const before = await drawer(otherHall.shiftId)
    const wrong = await api(server.url, 'POST', '/api/refunds/cards', { code: counterCodes[1] }, otherHall.headers)
    expect([wrong.status, wrong.body.error?.code]).toEqual([403, 'WRONG_HALL'])
    expect(wrong.body.error.message).not.toMatch(/WRONG_HALL|dev_|u_/)
    expect(await drawer(otherHall.shiftId)).toBe(before)
    // Nor may that station list this hall's table.
    const list = await api(server.url, 'GET', `/api/refunds/cards?gameId=${gameId}`, undefined, otherHall.headers)
    expect([list.status, list.body.error?.code]).toEqual([403, 'WRONG_HALL'])
    const finished = (await server.services.db.get<{ id: string }>(
      'SELECT id FROM cards WHERE game_id = ? ORDER BY serial LIMIT 1',
      [h.setup.gameId],
    ))!.id
    const notVoid = await h.call('cajero@caja2', 'POST', '/api/refunds/cards', {
      code: server.services.cashdesk.payouts.cardCode(finished),
    })
    expect([notVoid.status, notVoid.body.error?.code]).toEqual([409, 'NOT_REFUNDABLE'])
    // The card refused there is still refundable at its own hall.
    const ok = await h.call('cajera@caja1', 'POST', '/api/refunds/cards', { code: counterCodes[1] })
    expect([ok.status, ok.body.amountCents]).toEqual([201, 1000])
  })

  it('credits a kiosk buyer a new voucher for exactly the face value, once, moving no cash', async () => {
    const movementsBefore = Number(
      (await server.services.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM cash_movements'))!.n,
    )
    const r = await h.call('kiosk', 'POST', '/api/refunds/cards', { code: kioskCodes[0], to: 'voucher' })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.voucher).toMatchObject({ amountCents: 1000, status: 'active' })
    expect(r.body.amountCents).toBe(1000)
    const voucher = await h.call('kiosk', 'POST', '/api/vouchers/check', { code: r.body.voucher.code })
    expect(voucher.body).toMatchObject({ amountCents: 1000, status: 'active' })
    expect(Number((await server.services.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM cash_movements'))!.n)).toBe(
      movementsBefore,
    )
    const again = await h.call('kiosk', 'POST', '/api/refunds/cards', { code: kioskCodes[0], to: 'voucher' })
    expect([again.status, again.body.error?.code]).toEqual([409, 'ALREADY_REFUNDED'])
    // The kiosk never pays cash, and a card the table sold for cash has no voucher to go back to.
    const cash = await h.call('kiosk', 'POST', '/api/refunds/cards', { code: kioskCodes[1], to: 'cash' })
    expect([cash.status, cash.body.error?.code]).toEqual([409, 'STATION_REQUIRED'])
    const tableCard = await h.call('kiosk', 'POST', '/api/refunds/cards', { code: tableCards[0].code, to: 'voucher' })
    expect([tableCard.status, tableCard.body.error?.code]).toEqual([409, 'NOT_REFUNDABLE'])
  })

  it("lists the table's cards of the annulled game and refunds each handed back out of the caller's table shift", async () => {
    const list = async () => (await asTable('GET', `/api/refunds/cards?gameId=${gameId}`)).body
    const first = await list()
    expect(first).toMatchObject({ status: 'void', refundable: true, sold: 3, refunded: 0, toHandOutCents: 3000 })
    expect(first.cards.map((c: { serial: string }) => c.serial)).toEqual(tableCards.map((c) => c.serial).sort())
    const before = await drawer(table.shiftId)
    const r = await asTable('POST', '/api/refunds/cards', { code: tableCards[1].code })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({ amountCents: 1000, stationName: 'Mesa 1', cashierName: 'Pedro Flores' })
    expect(await drawer(table.shiftId)).toBe(before - 1000)
    const after = await list()
    expect(after).toMatchObject({ sold: 3, refunded: 1, refundedCents: 1000, toHandOutCents: 2000 })
    const row = after.cards.find((c: { serial: string }) => c.serial === tableCards[1].serial)
    expect(row.refund).toMatchObject({ station: 'Mesa 1', by: 'Pedro Flores', amountCents: 1000 })
    // A caller without the table's shift (no station) lists nothing and pays nothing.
    const bare = await api(server.url, 'GET', `/api/refunds/cards?gameId=${gameId}`, undefined, {
      authorization: `Bearer ${(await server.services.auth.login('locutor', PASSWORD)).token}`,
    })
    expect(bare.body.error?.code).toBe('STATION_REQUIRED')
    // The minutes count every refund made so far: 2 at the cashiers, 1 onto a voucher, 1 at the table.
    const minutes = (await h.call('jefa', 'GET', `/api/sessions/${h.setup.sessionId}/minutes`)).body
    const g = minutes.games.find((x: { gameId: string }) => x.gameId === gameId)
    expect(g).toMatchObject({ status: 'void', refundCards: 17, refundsPaid: { cards: 4, amountCents: 4000 } })
  })

  it('refunds a card whose QR is damaged by the code printed under it; a code no card has is unknown, not a forgery (issue 29 point 4)', async () => {
    const card = tableCards[2]
    const { id } = (await server.services.db.get<{ id: string }>(
      'SELECT id FROM cards WHERE game_id = ? AND serial = ?',
      [gameId, card.serial],
    ))!
    const printed = cardShortCode((v, p) => server.services.sealer.tag(v, p), id)!
    const wrong = printed.slice(0, -1) + (printed.endsWith('Z') ? 'Y' : 'Z')
    const before = await drawer(table.shiftId)
    const unknown = await asTable('POST', '/api/refunds/cards', { code: wrong })
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'TICKET_NOT_FOUND'])
    // Typed as a person types it: lower case, spaces for the dashes.
    const r = await asTable('POST', '/api/refunds/cards', { code: printed.toLowerCase().replace(/-/g, ' ') })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({ amountCents: 1000, serial: card.serial })
    expect(await drawer(table.shiftId)).toBe(before - 1000)
    // The same paper by its QR: already refunded, nothing paid twice.
    const again = await asTable('POST', '/api/refunds/cards', { code: card.code })
    expect(again.body.error?.code).toBe('ALREADY_REFUNDED')
    expect(await drawer(table.shiftId)).toBe(before - 1000)
  })
})
