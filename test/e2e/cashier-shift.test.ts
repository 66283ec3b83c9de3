import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nextGameOnSale, playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import {
  cashierHall,
  electronicDesign,
  electronicInstant,
  PASSWORD,
  printedDesign,
  printedInstant,
  secondPersonHeader,
  type CashierHall,
} from '../helpers/cashier.ts'
import { startTestServer } from '../helpers/server.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 13 points 5 to 8 over real HTTP with authentication on, real people logged in at enrolled stations: a
 * cashier's shift (float, movements under the station's one identity, arqueo, report by product, PDF), payouts only
 * against the signed code after the prize window (the table too), annulment after a payout refused, refunds paid
 * once (BNG-86, INS-9 with a second person), and the GEN-17 hold. Each leak of the issue is refused with a 4xx.
 */
describe('cashier shifts, payouts against the code, refunds once and the AML hold (issue 13 points 5-8)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  let userId: (username: string) => Promise<string>

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    h = await cashierHall(server.url, server.services)
    userId = async (username) =>
      (await server.services.db.get<{ id: string }>('SELECT id FROM users WHERE username = ?', [username]))!.id
  })
  afterAll(async () => server?.cleanup())

  const voucher = (who: string, amountCents: number, extra: Record<string, unknown> = {}) =>
    h.call(who, 'POST', '/api/vouchers', {
      hallId: h.setup.hallId,
      amountCents,
      cash: countOf(amountCents),
      ...extra,
    })

  it('moves no cash without a person logged in at an enrolled station: a bare station credential or a person alone is refused (STATION_REQUIRED)', async () => {
    for (const who of ['caja1', 'jefa', 'cajera']) {
      const r = await voucher(who, 1000)
      expect(r.status, who).toBe(409)
      expect(r.body.error.code).toBe('STATION_REQUIRED')
      expect(r.body.error.message).toMatch(/caja registrada/)
    }
    // No shift yet at the station: refused before anything is recorded.
    const noShift = await voucher('cajera@caja1', 1000)
    expect(noShift.status).toBe(409)
    expect(noShift.body.error.code).toBe('SHIFT_NOT_OPEN')
    expect(await server.services.db.get('SELECT COUNT(*) AS n FROM cash_movements')).toMatchObject({ n: 0 })
  })

  let shiftId = ''
  it("opens a shift with the counted float; the station and the person are the logged-in ones, never the body's (one station identity)", async () => {
    const before = await h.call('cajera@caja1', 'GET', '/api/shifts/current')
    expect(before.body).toMatchObject({
      station: { id: h.devices.caja1.id, name: 'Caja 1' },
      person: { name: 'Rosa Vargas' },
      shift: null,
    })
    const open = await h.call('cajera@caja1', 'POST', '/api/shifts', { floatCents: 50_000 })
    expect(open.status).toBe(201)
    expect(open.body).toMatchObject({
      status: 'open',
      floatCents: 50_000,
      station: { id: h.devices.caja1.id, name: 'Caja 1' },
      cashier: { name: 'Rosa Vargas' },
      expectedCents: 50_000,
    })
    shiftId = open.body.shiftId
    // One open shift per station; another cashier at the same station moves no cash in it.
    const second = await h.call('cajero@caja1', 'POST', '/api/shifts', { floatCents: 1000 })
    expect(second.status).toBe(409)
    expect(second.body.error.code).toBe('SHIFT_ALREADY_OPEN')
    const other = await voucher('cajero@caja1', 1000)
    expect(other.status).toBe(409)
    expect(other.body.error.code).toBe('SHIFT_NOT_OPEN')
    // The body's station and cashier (the old "caja-1" and the free-text "Cajero") are ignored.
    const sold = await voucher('cajera@caja1', 2000, { stationId: 'caja-1', cashierId: 'Impostor' })
    expect(sold.status).toBe(201)
    const m = await server.services.db.get<{
      station_id: string
      cashier_id: string
      shift_id: string
      product: string
    }>('SELECT station_id, cashier_id, shift_id, product FROM cash_movements WHERE ref_id = ?', [sold.body.voucher.id])
    expect(m).toEqual({
      station_id: h.devices.caja1.id,
      cashier_id: await userId('cajera'),
      shift_id: shiftId,
      product: 'voucher',
    })
    const current = await h.call('cajera@caja1', 'GET', '/api/shifts/current')
    expect(current.body.shift).toMatchObject({ shiftId, inCents: 2000, expectedCents: 52_000 })
  })

  let cardCodes: string[] = []
  it("holds a voucher bought with small notes over the GEN-17 limit, and its change, until the officer has reviewed it; the buyer's ID is asked first", async () => {
    // Default threshold Bs 10.000,00: 30 % is Bs 3.000,00 of small notes.
    // Bs 3.000,10 in Bs 20 and Bs 10 notes and coins, all small (CFG-2).
    const small = countOf(300_010, { smallCents: 300_010 })
    const anonymous = await h.call('cajera@caja1', 'POST', '/api/vouchers', {
      hallId: h.setup.hallId,
      amountCents: 300_010,
      cash: small,
    })
    expect(anonymous.status).toBe(422)
    expect(anonymous.body.error).toMatchObject({ code: 'BUYER_ID_REQUIRED', details: { rule: 'GEN-17' } })
    const flagged = await h.call('cajera@caja1', 'POST', '/api/vouchers', {
      hallId: h.setup.hallId,
      amountCents: 300_010,
      cash: small,
      buyerDocument: 'CI 7788990',
    })
    expect(flagged.status).toBe(201)
    expect(flagged.body.aml.flagged).toBe(true)
    // At the kiosk it buys four cards; the change voucher is what the player would cash out in other notes.
    const bought = await h.call('kiosk', 'POST', '/api/kiosk/purchases', {
      voucherCode: flagged.body.voucher.code,
      gameId: h.setup.gameId,
      count: 4,
      kioskId: 'k',
      ageConfirmed: true,
    })
    expect(bought.status).toBe(201)
    cardCodes = bought.body.cards.map((c: any) => c.code)
    const change = bought.body.change.code
    const held = await h.call('cajera@caja1', 'POST', '/api/vouchers/cashout', { code: change })
    expect(held.status).toBe(409)
    expect(held.body.error.code).toBe('AML_REVIEW_PENDING')
    expect(held.body.error.message).toMatch(/oficial de cumplimiento/)
    // The officer reviews as herself (the body's name is not taken), then the change is cashed out.
    const report = (await h.call('oficial', 'GET', '/api/aml/reports?status=open')).body.reports.find(
      (r: any) => r.voucherId === flagged.body.voucher.id,
    )
    const review = await h.call('oficial', 'POST', `/api/aml/reports/${report.id}/review`, {
      status: 'dismissed',
      note: 'Cliente habitual, billetes de su comercio; perfil revisado',
      officer: 'Otro Nombre',
    })
    expect(review.status).toBe(200)
    expect(review.body.reviewedBy).toMatch(/Elena Ríos/)
    const cashed = await h.call('cajera@caja1', 'POST', '/api/vouchers/cashout', { code: change })
    expect(cashed.status).toBe(200)
    expect(cashed.body.paidCents).toBe(300_010 - 2000)
  })

  it("pays each winner only after the game ends, against its code, out of the shift's drawer; the table pays through the same path", async () => {
    // Mid-game (sales closed, balls drawn) a card is not paid: PRIZE_PENDING.
    const { bingo } = server.services
    await bingo.sell({ gameId: h.setup.gameId, count: 20, channel: 'counter' })
    await playToTheEnd(server.services, h.setup.gameId)
    const winners = await winningCodes(server.services, h.setup.gameId)
    expect(winners.length).toBeGreaterThan(0)
    const prizes = await bingo.listPrizes(h.setup.gameId)
    const [first, ...rest] = winners
    // BNG-85: a card bought at the kiosk with the voucher of an identified buyer (CI 7788990) pays only to that
    // buyer; whether such a card wins depends on the draw.
    const payeeOf = (code: string) =>
      cardCodes.includes(code)
        ? { payeeName: 'Pedro Choque Mamani', payeeDocument: 'CI 7788990' }
        : { payeeName: 'Juana Mamani', payeeDocument: '4455667 LP' }
    // The table: a prize id alone pays nothing (CODE_REQUIRED), nor another card's code.
    const prize = prizes.find((p) => p.cardId === first.cardId)!
    const other = cardCodes.find((c) => c !== first.code)!
    const noCode = await h.call('cajera@caja1', 'POST', `/api/prizes/${prize.id}/pay`, {})
    expect(noCode.status).toBe(422)
    expect(noCode.body.error.code).toBe('CODE_REQUIRED')
    const wrong = await h.call('cajera@caja1', 'POST', `/api/prizes/${prize.id}/pay`, { code: other })
    expect(wrong.status).toBe(422)
    const atTable = await h.call('cajera@caja1', 'POST', `/api/prizes/${prize.id}/pay`, {
      code: first.code,
      ...payeeOf(first.code),
    })
    expect(atTable.status).toBe(200)
    expect(atTable.body.payout).toMatchObject({ amountCents: first.amountCents, stationId: h.devices.caja1.id })
    for (const w of rest)
      expect(
        (await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: w.code, ...payeeOf(w.code) })).status,
      ).toBe(200)
    const again = await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: first.code, ...payeeOf(first.code) })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('ALREADY_PAID')
  })

  it('closes the shift with the counted drawer: the report lists every movement by product and the difference to the centavo, on screen and as PDF', async () => {
    const current = (await h.call('cajera@caja1', 'GET', '/api/shifts/current')).body.shift
    const expected = current.expectedCents
    const short = await h.call('cajera@caja1', 'POST', '/api/shifts/current/close', { countedCents: expected - 150 })
    // Issue 29 point 2: its own code and a message in the user's language; the difference to the centavo.
    expect(short.status).toBe(422)
    expect(short.body.error).toMatchObject({ code: 'SHIFT_COUNT_DIFFERS', details: { differenceCents: -150 } })
    expect(short.body.error.message).toMatch(/^El efectivo contado no cuadra/)
    const closed = await h.call('cajera@caja1', 'POST', '/api/shifts/current/close', {
      countedCents: expected - 150,
      note: 'faltan 1,50 en monedas',
    })
    expect(closed.status).toBe(200)
    expect(closed.body).toMatchObject({
      status: 'closed',
      expectedCents: expected,
      countedCents: expected - 150,
      differenceCents: -150,
    })
    const paid = (
      await server.services.db.all<{ amount_cents: number }>('SELECT amount_cents FROM payouts WHERE station_id = ?', [
        h.devices.caja1.id,
      ])
    ).reduce((s, p) => s + Number(p.amount_cents), 0)
    const line = (product: string, kind: string) =>
      closed.body.lines.find((l: any) => l.product === product && l.kind === kind)
    expect(line('voucher', 'voucher_sale')).toMatchObject({ count: 2, inCents: 2000 + 300_010 })
    expect(line('voucher', 'voucher_cashout')).toMatchObject({ count: 1, outCents: 298_010 })
    expect(line('card', 'prize_payout')).toMatchObject({ outCents: paid })
    expect(expected).toBe(50_000 + 2000 + 300_010 - 298_010 - paid)
    // The drawer balances against its movements: float + sum = expected.
    const sum = await server.services.db.get<{ s: number }>(
      'SELECT SUM(amount_cents) AS s FROM cash_movements WHERE shift_id = ?',
      [shiftId],
    )
    expect(50_000 + Number(sum!.s)).toBe(expected)
    // Closed: no more cash in it.
    expect((await voucher('cajera@caja1', 1000)).body.error.code).toBe('SHIFT_NOT_OPEN')
    const pdf = await fetch(`${server.url}/api/shifts/${shiftId}/report.pdf`, {
      headers: { authorization: `Bearer ${h.tokens.get('jefa')}` },
    })
    expect(pdf.status).toBe(200)
    const bytes = Buffer.from(await pdf.arrayBuffer())
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    mkdirSync(join('test-output', 'shift'), { recursive: true })
    writeFileSync(join('test-output', 'shift', 'turno.pdf'), bytes)
  })

  let gameId = ''
  it("refuses the table's mid-game payout of a line by its id or its code (PRIZE_PENDING), and an annulment after a payout (ANNUL_AFTER_PAYOUT)", async () => {
    gameId = await nextGameOnSale(server.services, h.setup)
    const { bingo } = server.services
    // Two cards bought at the kiosk with a voucher from Caja 2, the rest at the counter.
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 10_000 })).status).toBe(201)
    const v = await voucher('cajero@caja2', 1000)
    const bought = await h.call('kiosk', 'POST', '/api/kiosk/purchases', {
      voucherCode: v.body.voucher.code,
      gameId,
      count: 2,
      kioskId: 'k',
      ageConfirmed: true,
    })
    expect(bought.status).toBe(201)
    cardCodes = bought.body.cards.map((c: any) => c.code)
    await bingo.sell({ gameId, count: 30, channel: 'counter' })
    let state = await bingo.closeSales({ gameId })
    for (let i = 0; i < 90 && !state.lineClosed; i++)
      state = state.window ? await bingo.closeWindow(gameId) : (await bingo.drawNext(gameId)).state
    expect(state.status).toBe('drawing')
    const line = (await bingo.listPrizes(gameId)).find((p) => p.kind === 'line')!
    const code = server.services.cashdesk.payouts.cardCode(line.cardId)
    for (const body of [{}, { code }]) {
      const r = await h.call('cajero@caja2', 'POST', `/api/prizes/${line.id}/pay`, body)
      expect(r.status).toBe(body.code ? 409 : 422)
      expect(r.body.error.code).toBe(body.code ? 'PRIZE_PENDING' : 'CODE_REQUIRED')
    }
    // Had a prize been paid by any path, a caller's error no longer annuls the game: refused, the minutes unchanged
    // (BNG-51, 002 §6.1.8.1). A ball irregularity still would (BNG-82: annul-after-bonus-payout.test.ts).
    await server.services.db.run("UPDATE prizes SET status = 'paid', paid_at = 'x', paid_by = 'x' WHERE id = ?", [
      line.id,
    ])
    const annul = () =>
      h.call('mesa', 'POST', `/api/games/${gameId}/incidents`, {
        kind: 'caller-error',
        note: 'cantó 21 por 12',
        reason: 'El locutor cantó 21 y salió la bola 12',
        confirm: { username: 'jefa', password: PASSWORD },
      })
    const refused = await annul()
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('ANNUL_AFTER_PAYOUT')
    expect((await bingo.getGameState(gameId)).status).toBe('drawing')
    await server.services.db.run("UPDATE prizes SET status = 'awarded', paid_at = NULL, paid_by = NULL WHERE id = ?", [
      line.id,
    ])
    expect((await annul()).status).toBe(200)
    expect((await bingo.getGameState(gameId)).status).toBe('void')
    // The line card is now refund only.
    const pay = await h.call('cajero@caja2', 'POST', '/api/tickets/pay', { code })
    expect(pay.body.error.code).toBe('TICKET_VOID')
  })

  it("refunds a voided game's card once, in cash at the cashier or onto a voucher at the kiosk; the minutes count the refunds (BNG-86)", async () => {
    const counterCard = (await server.services.db.get<{ id: string }>(
      'SELECT id FROM cards WHERE game_id = ? AND serial = (SELECT MAX(serial) FROM cards WHERE game_id = ?)',
      [gameId, gameId],
    ))!.id
    const code = server.services.cashdesk.payouts.cardCode(counterCard)
    const scan = await h.call('cajero@caja2', 'POST', '/api/tickets/validate', { code })
    expect(scan.body).toMatchObject({ status: 'void', refundCents: 500, refunded: null })
    // A counter card has no voucher to go back to.
    const toVoucher = await h.call('cajero@caja2', 'POST', '/api/refunds/cards', { code, to: 'voucher' })
    expect(toVoucher.status).toBe(409)
    expect(toVoucher.body.error.code).toBe('NOT_REFUNDABLE')
    const cash = await h.call('cajero@caja2', 'POST', '/api/refunds/cards', { code })
    expect(cash.status).toBe(201)
    expect(cash.body).toMatchObject({ amountCents: 500, method: 'cash', stationId: h.devices.caja2.id })
    for (const who of ['cajero@caja2', 'kiosk']) {
      const twice = await h.call(who, 'POST', '/api/refunds/cards', { code, to: who === 'kiosk' ? 'voucher' : 'cash' })
      expect(twice.status, who).toBe(409)
      expect(twice.body.error.code, who).toBe('ALREADY_REFUNDED')
    }
    // A person at the station who does not hold its open shift pays out nothing from that drawer.
    const another = server.services.cashdesk.payouts.cardCode(
      (await server.services.db.get<{ id: string }>(
        'SELECT id FROM cards WHERE game_id = ? AND serial = (SELECT MIN(serial) FROM cards WHERE game_id = ? AND id NOT IN (SELECT ticket_id FROM refunds)) ',
        [gameId, gameId],
      ))!.id,
    )
    expect((await h.call('mesa@caja2', 'POST', '/api/refunds/cards', { code: another })).body.error.code).toBe(
      'SHIFT_NOT_OPEN',
    )
    // A kiosk buyer's card, at the kiosk: a new voucher for the price; the kiosk pays no cash.
    const kioskCash = await h.call('kiosk', 'POST', '/api/refunds/cards', { code: cardCodes[0], to: 'cash' })
    expect(kioskCash.status).toBe(409)
    expect(kioskCash.body.error.code).toBe('STATION_REQUIRED')
    const kioskVoucher = await h.call('kiosk', 'POST', '/api/refunds/cards', { code: cardCodes[0], to: 'voucher' })
    expect(kioskVoucher.status).toBe(201)
    expect(kioskVoucher.body.voucher).toMatchObject({ amountCents: 500, status: 'active' })
    // A card of a finished game is not refundable.
    const finished = (await winningCodes(server.services, h.setup.gameId))[0].code
    expect((await h.call('cajero@caja2', 'POST', '/api/refunds/cards', { code: finished })).body.error.code).toBe(
      'NOT_REFUNDABLE',
    )
    const minutes = (await h.call('jefa', 'GET', `/api/sessions/${h.setup.sessionId}/minutes`)).body
    const g = minutes.games.find((x: any) => x.gameId === gameId)
    expect(g).toMatchObject({ status: 'void', refundCards: 32, refundsPaid: { cards: 2, amountCents: 1000 } })
    const pdf = await fetch(`${server.url}/api/sessions/${h.setup.sessionId}/minutes.pdf`, {
      headers: { authorization: `Bearer ${h.tokens.get('jefa')}` },
    })
    writeFileSync(join('test-output', 'shift', 'acta.pdf'), Buffer.from(await pdf.arrayBuffer()))
  })

  it('refunds a misprinted printed instant ticket once, with a second person, out of the drawer; never an e-instant loser (INS-9)', async () => {
    const tickets = await printedInstant(server.services, h.setup.hallId)
    const loser = tickets.find((t) => t.tier === 0)!
    await server.services.instant.sellPrinted({
      code: loser.serial,
      stationId: h.devices.caja2.id,
      hallId: h.setup.hallId,
    })
    const body = {
      code: loser.code,
      inventoryCode: loser.serial,
      reason: 'printing-defect',
      note: 'zona de juego ilegible',
    }
    const alone = await h.call('cajero@caja2', 'POST', '/api/instant/refund', body)
    expect(alone.status).toBe(403)
    expect(alone.body.error.code).toBe('SECOND_PERSON_REQUIRED')
    const cashierSecond = await h.call(
      'cajero@caja2',
      'POST',
      '/api/instant/refund',
      body,
      secondPersonHeader('cajera'),
    )
    expect(cashierSecond.body.error.code).toBe('SECOND_PERSON_REQUIRED')
    const approved = await h.call('cajero@caja2', 'POST', '/api/instant/refund', body, secondPersonHeader('mesa'))
    expect(approved.status).toBe(200)
    expect(approved.body.amountCents).toBe(printedDesign.priceCents)
    const again = await h.call('cajero@caja2', 'POST', '/api/instant/refund', body, secondPersonHeader('mesa'))
    expect(again.status).toBe(409)
    const movement = await server.services.db.get<{ amount_cents: number; product: string; kind: string }>(
      'SELECT amount_cents, product, kind FROM cash_movements WHERE ref_id = ?',
      [approved.body.payoutId],
    )
    expect(movement).toMatchObject({ product: 'instant', kind: 'refund' })
    expect(Number(movement!.amount_cents)).toBe(-printedDesign.priceCents)
    const journal = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'instant.misprint_refunded'",
    )
    expect(JSON.parse(journal!.payload).approvedBy).toMatchObject({ name: 'Luis Mamani', role: 'floor_manager' })
    // An e-instant loser: its face is the server's own computation, nothing was misprinted.
    await electronicInstant(server.services, h.setup.hallId)
    const sale = await server.services.instant.sellElectronic({
      hallId: h.setup.hallId,
      gameNo: electronicDesign.gameNo,
      stationId: h.devices.kiosk.id,
    })
    const eRefund = await h.call(
      'cajero@caja2',
      'POST',
      '/api/instant/refund',
      { code: sale.validationCode, inventoryCode: sale.serial, reason: 'wrong-symbols' },
      secondPersonHeader('mesa'),
    )
    expect(eRefund.status).toBe(409)
    expect(eRefund.body.error.code).toBe('NOT_REFUNDABLE')
  })
})
