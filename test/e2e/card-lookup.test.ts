import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hallWithGameOnSale, nextGameOnSale, playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { cashierHall, PASSWORD, type CashierHall } from '../helpers/cashier.ts'
import { startTestServer, api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 29: the cashier finds a card by its serial within a chosen game, typed as heard ("41", "a 41", "A-00041"),
 * and sees its state: waiting for its game, winner of what, paid (where and by whom, in names), annulled and
 * refunded or not. Over real HTTP, authentication on, people logged in at enrolled stations. The answer never pays
 * (BNG-71: the serial is public) and carries no id a code could be made from; a kiosk credential cannot look; a
 * station of another hall cannot look into this hall's games, whatever the body says.
 */
describe('a card found by its serial within a game at the cashier (issue 29)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let otherHall: Till
  let finished = ''
  let annulled = ''
  let onSale = ''
  let winner: { serial: string; code: string; amountCents: number }
  let voidCards: Array<{ serial: string; code: string }> = []
  let pendingSerial = ''

  const lookup = (who: string, gameId: string, serial: string, extra: Record<string, unknown> = {}) =>
    h.call(who, 'POST', '/api/tickets/lookup', { gameId, serial, ...extra })
  /** The card number as a caller says it: "A-00041" -> "41". */
  const heard = (serial: string) => String(Number(serial.split('-')[1]))

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    h = await cashierHall(server.url, server.services, { faceValueCents: 1000 })
    await server.services.bingo.sell({ gameId: h.setup.gameId, count: 20, channel: 'counter' })
    await playToTheEnd(server.services, h.setup.gameId)
    finished = h.setup.gameId
    const w = (await winningCodes(server.services, finished))[0]
    winner = { serial: w.serial, code: w.code, amountCents: w.amountCents }
    // The second game sells at the counter and is annulled after its first ball.
    annulled = await nextGameOnSale(server.services, h.setup)
    expect((await h.call('cajera@caja1', 'POST', '/api/shifts', { floatCents: 50_000 })).status).toBe(201)
    const sold = await h.call('cajera@caja1', 'POST', `/api/games/${annulled}/sales`, {
      ageConfirmed: true,
      count: 2,
      cash: countOf(2000),
    })
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    voidCards = sold.body.cards.map((c: { serial: string; code: string }) => ({ serial: c.serial, code: c.code }))
    await server.services.bingo.sell({ gameId: annulled, count: 10, channel: 'counter' })
    await server.services.bingo.closeSales({ gameId: annulled })
    await server.services.bingo.drawNext(annulled)
    const annul = await h.call('mesa', 'POST', `/api/games/${annulled}/incidents`, {
      kind: 'ball-irregularity',
      note: 'bola 12 deformada',
      reason: 'La bola 12 está deformada',
      confirm: { username: 'jefa', password: PASSWORD },
    })
    expect(annul.status, JSON.stringify(annul.body)).toBe(200)
    onSale = await nextGameOnSale(server.services, h.setup)
    pendingSerial = (await server.services.bingo.sell({ gameId: onSale, count: 1, channel: 'counter' }))[0].serial
    const other = await hallWithGameOnSale(server.services, { name: 'Sala Sur', cards: 100 })
    await server.services.auth.createUser({
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
    })
  }, 60_000)
  afterAll(async () => server?.cleanup())

  it("lists the station's hall's games that sold cards, newest first, with the session's number", async () => {
    const r = await h.call('cajera@caja1', 'GET', '/api/tickets/lookup/games')
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.games.map((g: { gameId: string }) => g.gameId)).toEqual([onSale, annulled, finished])
    expect(r.body.games[0]).toMatchObject({ gameNo: 3, status: 'on_sale', sessionNo: 1 })
    expect(r.body.games[1]).toMatchObject({ gameNo: 2, status: 'void' })
    // Another hall's station lists its own hall's games, whatever the query names.
    const south = await api(server.url, 'GET', `/api/tickets/lookup/games?hallId=${h.setup.hallId}`, undefined, {
      ...otherHall.headers,
    })
    expect(south.status).toBe(403)
    expect(south.body.error.code).toBe('WRONG_HALL')
  })

  it('finds a winning card by the number as heard, shows its prizes, and never makes it payable (BNG-71)', async () => {
    for (const typed of [heard(winner.serial), `a ${heard(winner.serial)}`, winner.serial]) {
      const r = await lookup('cajera@caja1', finished, typed)
      expect(r.status, `${typed}: ${JSON.stringify(r.body)}`).toBe(200)
      expect(r.body.view).toMatchObject({ product: 'card', verdict: 'winner', payable: false })
      expect(r.body.view.ids.serial).toBe(winner.serial)
      expect(r.body.view.amountCents).toBe(winner.amountCents)
      expect(r.body.view.prizes.length).toBeGreaterThan(0)
      // Nothing in the answer to make a code from: no card id, no printed code, no signed code.
      expect(JSON.stringify(r.body)).not.toMatch(/\bc_[a-z0-9]{6,}|BLL1\.|"C[A-Z0-9]{3}-/)
    }
    // The serial typed at the pay route is still refused: the look opened no other door.
    const pay = await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: winner.serial })
    expect(pay.status).toBeGreaterThanOrEqual(400)
    const paidRows = await server.services.db.all('SELECT id FROM payouts')
    expect(paidRows).toEqual([])
    // Each look is journaled with who looked, as a scan is (§8).
    const looks = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'ticket.looked_up'",
    )
    expect(looks.length).toBe(3)
    expect(JSON.parse(looks[0].payload)).toMatchObject({ serial: winner.serial, status: 'winner' })
  })

  it('shows a paid card as paid, at which station and by whom, in names', async () => {
    const paid = await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: winner.code })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const r = await lookup('cajero@caja2', finished, winner.serial)
    expect(r.status).toBe(200)
    expect(r.body.view).toMatchObject({ verdict: 'paid', payable: false })
    expect(r.body.view.paid).toMatchObject({ stationId: 'Caja 1', cashierId: 'Rosa Vargas' })
  })

  it('shows an annulled card with its refund, then refunded once it was; a card of a game on sale waits', async () => {
    const [a, b] = voidCards
    const before = await lookup('cajera@caja1', annulled, heard(a.serial))
    expect(before.body.view).toMatchObject({ verdict: 'void', refunded: false, refundCents: 1000, payable: false })
    const refund = await h.call('cajera@caja1', 'POST', '/api/refunds/cards', { code: a.code, to: 'cash' })
    expect(refund.status).toBe(201)
    const after = await lookup('cajera@caja1', annulled, a.serial)
    expect(after.body.view).toMatchObject({ verdict: 'void', refunded: true })
    expect(after.body.view.paid).toMatchObject({ stationId: 'Caja 1', cashierId: 'Rosa Vargas' })
    expect((await lookup('cajera@caja1', annulled, b.serial)).body.view).toMatchObject({ refunded: false })
    const pending = await lookup('cajera@caja1', onSale, pendingSerial)
    expect(pending.body.view).toMatchObject({ verdict: 'pending', pendingDraws: [3] })
  })

  it('says in Spanish that a game sold no such card, and refuses a kiosk and another hall (WRONG_HALL)', async () => {
    const none = await lookup('cajera@caja1', finished, '599')
    expect(none.status).toBe(404)
    expect(none.body.error.code).toBe('TICKET_NOT_FOUND')
    expect(none.body.error.message).toMatch(/[áéíóúñ]|cart[oó]n|c[oó]digo/i)
    const kiosk = await lookup('kiosk', finished, winner.serial)
    expect(kiosk.status).toBe(403)
    expect(kiosk.body.error.code).toBe('FORBIDDEN')
    // A station of the south hall, naming this hall's station in the body: refused from the game's hall.
    const south = await api(
      server.url,
      'POST',
      '/api/tickets/lookup',
      { gameId: finished, serial: winner.serial, stationId: h.devices.caja1.id },
      otherHall.headers,
    )
    expect(south.status).toBe(403)
    expect(south.body.error.code).toBe('WRONG_HALL')
  })
})
