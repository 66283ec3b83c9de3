import { openPrintFile } from '../../printer/src/printers.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { playManualBingo, primaHall } from '../helpers/prima-hall.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import { PASSWORD, gameOnSale, hallWithSeries, openSession, type RulesServer } from '../helpers/bingo-rules.ts'

/**
 * Issue 18, over real HTTP with authentication on, in a Cantabrian hall (004 Bingo V.2.a and V.3):
 * - BNG-69: a prima paid prints its detailed receipt (accumulated games, amount) and a duplicate marked DUPLICADO
 *   with the ball extraction order and the winning card's series, to attach to the card.
 * - BNG-70: paid in cash out of the paying station's drawer, or by a cheque on the company's account with the
 *   player's consent: its number recorded, no cash moved. The Bolivian profile pays no cheques.
 * - CFG-27: the cheque is the card's payment, for its line and bingo as for its bonus prizes (one door, payouts.pay).
 * - Issue 23: a bonus prize is paid only with its card at the cash desk (POST /api/tickets/pay), with the same rules as
 *   the line and the bingo (game ended, not blocked, the card's hall), and it is in the prize register.
 */
describe('prima receipt, duplicate and cheque (BNG-69, BNG-70)', () => {
  let s: RulesServer
  // Issue 24 point 2: the file printer keeps its jobs sealed; opened here with the server's sealing key.
  const openPrint = (file: string) => openPrintFile(s.server.services.sealer, file)
  let cashier: Till
  let seriesId: string
  let sessionId: string
  const db = () => s.server.services.db
  const asCashier = (method: string, path: string, b?: unknown) => api(s.server.url, method, path, b, cashier.headers)

  beforeAll(async () => {
    const h = await primaHall('prima-receipt')
    ;({ s, seriesId, sessionId, cashier } = h)
    expect(h.prima.status, JSON.stringify(h.prima.body)).toBe(200)
  })
  afterAll(async () => s?.server.cleanup())

  /** A manual game: `cards` sold, then the first card's numbers drawn and its bingo claimed; ordinary prizes paid. */
  const manualBingo = (cards: number) => playManualBingo({ s, seriesId, sessionId }, cards)

  async function primaPrize(): Promise<{ id: string; serial: string; gameId: string; balls: number[]; code: string }> {
    // The card keeps its bingo and its prima: one door pays a card whole, at the desk, below.
    const g = await playManualBingo({ s, seriesId, sessionId }, 20, { tablePays: false })
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/bonus-prizes`)).body.prizes as Array<{
      id: string
      source: string
      serial: string
      cardId: string
      amountCents: number
    }>
    const prima = prizes.find((p) => p.source === 'prima')
    expect(prima, JSON.stringify(prizes)).toBeDefined()
    return {
      id: prima!.id,
      serial: prima!.serial,
      gameId: g.gameId,
      balls: g.balls,
      code: s.server.services.cashdesk.payouts.cardCode(prima!.cardId),
    }
  }

  it("BNG-69/70, issue 23: pays the prima with its card at the cash desk, in cash out of the drawer, and prints the receipt and its DUPLICADO with the extraction order and the card's series", async () => {
    // 20 cards x 50.00 = 1,000.00; 6 % = 60.00 >= 50.00: the next game offers the prima (BNG-60).
    await manualBingo(20)
    const prima = await primaPrize()
    // Issue 23: the by-id route is gone; a prize is paid only against its card's signed code.
    expect(
      (
        await asCashier('POST', `/api/bonus-prizes/${prima.id}/pay`, {
          payee: { name: 'Ana Ruiz', document: '12345678Z' },
          payment: { method: 'cash' },
        })
      ).status,
    ).toBe(404)
    // BNG-55: a prima winner is identified.
    const anonymous = await asCashier('POST', '/api/tickets/pay', { code: prima.code })
    expect(anonymous.body.error.code).toBe('PAYEE_ID_REQUIRED')
    const paid = await asCashier('POST', '/api/tickets/pay', {
      code: prima.code,
      payeeName: 'Ana Ruiz',
      payeeDocument: '12345678Z',
      payment: { method: 'cash' },
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    // One door: the card is paid whole, its line and bingo with its prima in one payout.
    const kinds = paid.body.payout.prizes as Array<{ id: string; kind: string; amountCents: number }>
    expect(kinds.map((p) => p.kind).sort()).toEqual(['bingo', 'line', 'prima'])
    expect(kinds.find((p) => p.kind === 'prima')).toMatchObject({ id: prima.id, amountCents: 5_000 })
    const total = kinds.reduce((sum, p) => sum + p.amountCents, 0)
    expect(paid.body.payout).toMatchObject({ amountCents: total, payment: { method: 'cash' } })
    const receipt = await asCashier('GET', `/api/bonus-prizes/${prima.id}/receipt`)
    expect(receipt.body).toMatchObject({
      status: 'paid',
      amountCents: 5_000,
      accumulatedGames: 2,
      payment: { method: 'cash' },
      paidBy: 'Rosa Vargas',
      // Issue 24 point 2: a cashier reads the winner's document masked (aml.identity reads it opened).
      payee: { name: 'Ana Ruiz', document: '••••••78Z' },
    })
    // Cash left the cashier's drawer, under her shift, once.
    const out = await db().all<{ amount_cents: number; shift_id: string }>(
      "SELECT amount_cents, shift_id FROM cash_movements WHERE kind = 'prize_payout' AND ref_id = ?",
      [paid.body.payout.payoutId],
    )
    expect(out.map((m) => [Number(m.amount_cents), m.shift_id])).toEqual([[-total, cashier.shiftId]])
    // Issue 23, BNG-72: the prima is in the prize register (Registro de premios), with its payee.
    const register = await s.call('jefa', 'GET', `/api/prize-register?gameId=${prima.gameId}`)
    const row = (
      register.body.rows as Array<{
        prizes: Array<{ id: string; kind: string }>
        payeeName: string | null
        payoutId: string | null
      }>
    ).find((r) => r.prizes.some((p) => p.id === prima.id))
    expect(row?.prizes).toContainEqual(expect.objectContaining({ id: prima.id, kind: 'prima', amountCents: 5_000 }))
    expect(row, JSON.stringify(register.body)).toMatchObject({
      payeeName: 'Ana Ruiz',
      payeeDocument: '12345678Z',
      payoutId: paid.body.payout.payoutId,
    })
    // BNG-64 / BNG-78: the minutes count the prima paid once (its bonus record, not again as a line or bingo).
    const minutes = (await s.call('jefa', 'GET', `/api/sessions/${sessionId}/minutes`)).body
    expect(minutes.games.find((g: { gameId: string }) => g.gameId === prima.gameId)).toMatchObject({
      jackpotsPaidCents: 5_000,
      prima: { paidCents: 5_000 },
    })

    const [bonusPrint] = paid.body.bonusReceipts
    expect(bonusPrint.printed, JSON.stringify(bonusPrint)).toBe(true)
    const job = decodeEscPos(openPrint(bonusPrint.print.files.find((f: string) => f.endsWith('.escpos.sealed'))))
    expect(job.cuts).toBe(2) // two pieces of paper: the player's receipt and the duplicate
    const text = job.lines.join('\n')
    expect(text).toMatch(/ORIGINAL/)
    expect(text.match(/DUPLICADO/g)).toHaveLength(1)
    expect(text).toMatch(/Partidas acumuladas\s+2/)
    expect(text).toMatch(/Efectivo/)
    const duplicate = text.slice(text.indexOf('DUPLICADO'))
    expect(duplicate).toContain(prima.serial)
    expect(duplicate).toMatch(/Serie\s+A/)
    expect(duplicate).toContain('ORDEN DE SALIDA DE LAS BOLAS')
    expect(duplicate).toContain(
      prima.balls
        .map((b, i) => `${i + 1}:${b}`)
        .slice(0, 3)
        .join(' '),
    )
    // The player's copy carries no extraction order: only the duplicate goes with the card.
    expect(text.slice(0, text.indexOf('DUPLICADO'))).not.toContain('ORDEN DE SALIDA')
    // The payout receipt lists the prima by name.
    const payoutText = decodeEscPos(
      openPrint(paid.body.receipt.print.files.find((f: string) => f.endsWith('.escpos.sealed'))),
    ).lines.join('\n')
    expect(payoutText).toMatch(/Prima de bingo/)
    // Paid once.
    expect(
      (
        await asCashier('POST', '/api/tickets/pay', {
          code: prima.code,
          payeeName: 'Ana Ruiz',
          payeeDocument: '12345678Z',
        })
      ).body.error.code,
    ).toBe('ALREADY_PAID')
  })

  it("BNG-70: pays by cheque only with its number and the player's consent; no cash moves; the receipt says cheque and its number", async () => {
    // The fund kept 10.00 after the award and the winning game added 60.00: this game offers it again.
    const prima = await primaPrize()
    const payee = { payeeName: 'Juan Pérez', payeeDocument: '87654321X' }
    const noNumber = await asCashier('POST', '/api/tickets/pay', {
      code: prima.code,
      ...payee,
      payment: { method: 'cheque', chequeNumber: ' ', playerConsent: true },
    })
    expect(noNumber.status).toBe(400)
    const noConsent = await asCashier('POST', '/api/tickets/pay', {
      code: prima.code,
      ...payee,
      payment: { method: 'cheque', chequeNumber: '0004521', playerConsent: false },
    })
    expect(noConsent.status).toBe(400)
    expect(noConsent.body.error.message).toMatch(/[a-záéíóú]/)
    const paid = await asCashier('POST', '/api/tickets/pay', {
      code: prima.code,
      ...payee,
      payment: { method: 'cheque', chequeNumber: '0004521', playerConsent: true },
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.payment).toEqual({ method: 'cheque', chequeNumber: '0004521' })
    expect((await asCashier('GET', `/api/bonus-prizes/${prima.id}/receipt`)).body.payment).toEqual({
      method: 'cheque',
      chequeNumber: '0004521',
    })
    expect(
      Number(
        (await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM cash_movements WHERE ref_id IN (?, ?)', [
          prima.id,
          paid.body.payout.payoutId,
        ]))!.n,
      ),
    ).toBe(0)
    const rec = JSON.parse(
      (await db().get<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'bonus.paid' ORDER BY seq DESC LIMIT 1",
      ))!.payload,
    )
    expect(rec).toMatchObject({
      prizeId: prima.id,
      payment: 'cheque',
      chequeNumber: '0004521',
      rule: 'BNG-70',
      payoutId: paid.body.payout.payoutId,
      actor: { name: 'Rosa Vargas' },
    })
    const text = decodeEscPos(
      openPrint(paid.body.bonusReceipts[0].print.files.find((f: string) => f.endsWith('.escpos.sealed'))),
    ).lines.join('\n')
    expect(text).toContain('Cheque N.º 0004521')
    expect(text).not.toMatch(/Efectivo/)
    expect(
      decodeEscPos(
        openPrint(paid.body.receipt.print.files.find((f: string) => f.endsWith('.escpos.sealed'))),
      ).lines.join('\n'),
    ).toContain('Cheque N.º 0004521')
  })

  it('issue 23: a bonus prize is not paid mid-game (BNG-71), nor once its card is reported stolen (LST-5); it stays awarded', async () => {
    // A Bolivian hall's progressive pot won with the line: awarded when the line's window closes, while the game goes on.
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sajama', seed: 'pot-line' })
    const pot = await s.call('jefa', 'POST', '/api/pots', {
      name: 'Pozo Sajama',
      authorisationRef: 'AJ-RA-2025-0778',
      kind: 'progressive',
      contributionBp: 1000,
      seedCents: 10_000,
      condition: { prize: 'line', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
      hallIds: [bo.hallId],
    })
    expect(pot.status, JSON.stringify(pot.body)).toBe(201)
    const session = await openSession(s, bo.hallId)
    const g = await gameOnSale(s, session, [bo.seriesId], 20, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const card = await db().get<{ id: string; numbers: string }>(
      'SELECT id, numbers FROM cards WHERE game_id = ? AND serial = ?',
      [g.gameId, g.serials[0]],
    )
    for (const ball of (JSON.parse(card!.numbers) as number[][])[0].filter((n) => n > 0))
      expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })).status).toBe(200)
    expect(
      (await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, { kind: 'line', serial: g.serials[0] })).body
        .ok,
    ).toBe(true)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})).status).toBe(200)
    const won = (
      (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/bonus-prizes`)).body.prizes as Array<{
        id: string
        cardId: string
        status: string
      }>
    ).find((p) => p.cardId === card!.id)
    expect(won, 'the line won the pot').toMatchObject({ status: 'awarded' })
    const till = await openTill(s.server.url, s.server.services, {
      hallId: bo.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja Sajama',
    })
    const code = s.server.services.cashdesk.payouts.cardCode(card!.id)
    const pay = () =>
      api(
        s.server.url,
        'POST',
        '/api/tickets/pay',
        { code, payeeName: 'Ana Ruiz', payeeDocument: '12345678 LP' },
        till.headers,
      )
    // The game is still being drawn: its prizes, the pot's included, are paid at its end.
    const early = await pay()
    expect(early.status, JSON.stringify(early.body)).toBe(409)
    expect(early.body.error.code).toBe('PRIZE_PENDING')
    // Reported stolen: the pot is not paid to whoever presents the card.
    expect((await s.call('mesa1', 'POST', '/api/tickets/block', { code, reason: 'stolen' })).status).toBe(201)
    const stolen = await pay()
    expect(stolen.status, JSON.stringify(stolen.body)).toBe(423)
    expect(stolen.body.error.code).toBe('TICKET_BLOCKED')
    expect(
      (await db().get<{ status: string }>('SELECT status FROM bonus_prizes WHERE id = ?', [won!.id]))!.status,
    ).toBe('awarded')
    expect(
      Number(
        (await db().get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM cash_movements WHERE kind = 'prize_payout' AND shift_id = ?",
          [till.shiftId],
        ))!.n,
      ),
    ).toBe(0)
  })

  /** A manual game whose first card wins the bingo, its window closed; nothing paid yet. */
  async function unpaidBingo(): Promise<{ gameId: string; card: { id: string; numbers: string } }> {
    const g = await gameOnSale(s, sessionId, [seriesId], 20, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const card = await db().get<{ id: string; numbers: string }>(
      'SELECT id, numbers FROM cards WHERE game_id = ? AND serial = ?',
      [g.gameId, g.serials[0]],
    )
    for (const ball of (JSON.parse(card!.numbers) as number[][]).flat().filter((n) => n > 0))
      expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })).status).toBe(200)
    expect(
      (await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, { kind: 'bingo', serial: g.serials[0] })).body
        .ok,
    ).toBe(true)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})).status).toBe(200)
    return { gameId: g.gameId, card: card! }
  }

  it("CFG-27 / BNG-70: a card's bingo prize, not only a bonus prize, is paid by cheque where the profile allows it, at the cash desk and at the table; no cash moves", async () => {
    // At the cash desk.
    const { card } = await unpaidBingo()
    const paid = await asCashier('POST', '/api/tickets/pay', {
      code: s.server.services.cashdesk.payouts.cardCode(card!.id),
      payeeName: 'Juan Pérez',
      payeeDocument: '87654321X',
      payment: { method: 'cheque', chequeNumber: '0004522', playerConsent: true },
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.payment).toEqual({ method: 'cheque', chequeNumber: '0004522' })
    const bingo = (paid.body.payout.prizes as Array<{ id: string; kind: string }>).find((p) => p.kind === 'bingo')
    expect(bingo, JSON.stringify(paid.body.payout)).toBeDefined()
    expect((await db().get<{ status: string }>('SELECT status FROM prizes WHERE id = ?', [bingo!.id]))!.status).toBe(
      'paid',
    )
    expect(
      Number(
        (await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM cash_movements WHERE ref_id = ?', [
          paid.body.payout.payoutId,
        ]))!.n,
      ),
    ).toBe(0)
    // At the table, where Cantabria pays before the next game (BNG-71): the same payout, by cheque.
    const next = await unpaidBingo()
    const prize = (
      (await s.call('mesa1', 'GET', `/api/games/${next.gameId}/prizes`)).body.prizes as Array<{
        id: string
        card_id: string
        kind: string
      }>
    ).find((p) => p.card_id === next.card.id && p.kind === 'bingo')
    expect(prize).toBeDefined()
    const atTable = await asCashier('POST', `/api/prizes/${prize!.id}/pay`, {
      code: s.server.services.cashdesk.payouts.cardCode(next.card.id),
      payeeName: 'Juan Pérez',
      payeeDocument: '87654321X',
      payment: { method: 'cheque', chequeNumber: '0004523', playerConsent: true },
    })
    expect(atTable.status, JSON.stringify(atTable.body)).toBe(200)
    expect(atTable.body.payout.payment).toEqual({ method: 'cheque', chequeNumber: '0004523' })
    expect(
      Number(
        (await db().get<{ n: number }>('SELECT COUNT(*) AS n FROM cash_movements WHERE ref_id = ?', [
          atTable.body.payout.payoutId,
        ]))!.n,
      ),
    ).toBe(0)
  })

  it('BNG-70: a Bolivian hall pays no cheque (profile prizeChequeAllowed false)', async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'prima-bo' })
    // A bonus prize of a Bolivian hall: a progressive pot won in its first game (BNG-55 allows them there).
    const pot = await s.call('jefa', 'POST', '/api/pots', {
      name: 'Pozo Illimani',
      authorisationRef: 'AJ-RA-2025-0777',
      kind: 'progressive',
      contributionBp: 1000,
      seedCents: 10_000,
      condition: { prize: 'bingo', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
      hallIds: [bo.hallId],
    })
    expect(pot.status, JSON.stringify(pot.body)).toBe(201)
    const session = await openSession(s, bo.hallId)
    const g = await gameOnSale(s, session, [bo.seriesId], 20)
    const { playToTheEnd } = await import('../helpers/cashdesk.ts')
    await playToTheEnd(s.server.services, g.gameId)
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/bonus-prizes`)).body.prizes as Array<{
      id: string
      cardId: string
    }>
    expect(prizes.length).toBeGreaterThan(0)
    const till = await openTill(s.server.url, s.server.services, {
      hallId: bo.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja BO',
    })
    const code = s.server.services.cashdesk.payouts.cardCode(prizes[0].cardId)
    const r = await api(
      s.server.url,
      'POST',
      '/api/tickets/pay',
      {
        code,
        payeeName: 'Rosa Condori',
        payeeDocument: 'CI 1234567',
        // CFG-22: a Bolivian progressive pot's winner leaves a telephone too; the refusal here is the cheque's.
        payeePhone: '71234567',
        payment: { method: 'cheque', chequeNumber: '77', playerConsent: true },
      },
      till.headers,
    )
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('RULE_DISABLED')
    expect(
      (await s.server.services.db.get<{ status: string }>('SELECT status FROM bonus_prizes WHERE id = ?', [
        prizes[0].id,
      ]))!.status,
    ).toBe('awarded')
    // Issue 23: a station of another hall does not pay it (the card's hall decides, not the request).
    const other = await api(
      s.server.url,
      'POST',
      '/api/tickets/pay',
      { code, payeeName: 'Rosa Condori', payeeDocument: 'CI 1234567' },
      cashier.headers,
    )
    expect(other.status, JSON.stringify(other.body)).toBe(403)
    expect(other.body.error.code).toBe('WRONG_HALL')
    // In cash at its own hall's station it is paid with the card's line and bingo, and the pot's payment is in its ledger.
    const cash = await api(
      s.server.url,
      'POST',
      '/api/tickets/pay',
      { code, payeeName: 'Rosa Condori', payeeDocument: 'CI 1234567', payeePhone: '71234567' },
      till.headers,
    )
    expect(cash.status, JSON.stringify(cash.body)).toBe(200)
    expect(cash.body.payout.prizes.map((p: { kind: string }) => p.kind)).toContain('progressive')
    const potPaid = cash.body.payout.prizes.find((p: { kind: string }) => p.kind === 'progressive')
    expect(potPaid.id).toBe(prizes[0].id)
    expect((await s.call('jefa', 'GET', `/api/pots/${pot.body.id}`)).body.ledger.at(-1)).toMatchObject({
      kind: 'payment',
      // Issue 24 point 2: the ledger names the winner; the document is kept sealed on the prize, not in the ledger.
      detail: { payee: { name: 'Rosa Condori' } },
    })
    expect(JSON.stringify((await s.call('jefa', 'GET', `/api/pots/${pot.body.id}`)).body.ledger)).not.toContain(
      '1234567',
    )
    const moved = await db().all<{ amount_cents: number; shift_id: string }>(
      'SELECT amount_cents, shift_id FROM cash_movements WHERE ref_id = ?',
      [cash.body.payout.payoutId],
    )
    expect(moved.map((m) => [Number(m.amount_cents), m.shift_id])).toEqual([
      [-cash.body.payout.amountCents, till.shiftId],
    ])
  })
})
