import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sealed } from '../helpers/device-marks.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { PASSWORD } from '../helpers/bingo-rules.ts'
import { TERMINAL_TERMS } from '../helpers/terminals.ts'

/**
 * Issue 26, BNG-82 (004 Bingo II.1.b: on a missing, duplicated or defective ball, or any irregularity of the balls or
 * the mechanism, "se suspenderá la partida y se dará por finalizada, procediéndose a reintegrar a los jugadores ...
 * el importe íntegro" of their cards), over real HTTP with authentication on, real people and enrolled terminals.
 * The audit's scenario: a prize is paid while the game plays (a virtual card's line, with whatever bonus prize it
 * won, is credited to its terminal when awarded), then a duplicated ball is found, and the annulment was refused
 * (ANNUL_AFTER_PAYOUT): the game could be neither voided nor refunded. The decree orders the full refund and says
 * nothing of taking back a prize already handed over: now the game is voided, the paid prizes stand (named in the
 * annulment's record, not paid again), and every sold card is refunded in full, in one transaction. A caller's error
 * still does not annul a game that paid a prize (BNG-51, 002 §6.1.8.1).
 */
describe('a ball irregularity after a prize was paid mid-game voids and refunds the game (BNG-82)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const es = { 'accept-language': 'es' }
  let mesaToken = ''

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
    await server.services.auth.createUser({
      username: 'mesa',
      displayName: 'Luis Mamani',
      role: 'floor_manager',
      password: PASSWORD,
    })
    mesaToken = (await server.services.auth.login('mesa', PASSWORD)).token
    const director = { ...es, authorization: `Bearer ${hall.directorToken}` }
    expect(
      (await api(server.url, 'PUT', `/api/halls/${hall.hallId}/terminal-terms`, TERMINAL_TERMS, director)).status,
    ).toBe(200)
    // Only virtual cards play (BNG-21: ten of them), so the line is a terminal's and is credited when awarded.
    for (const name of ['Terminal 1', 'Terminal 2']) {
      const t = await server.services.auth.enrolDevice({ ...sealed(), kind: 'terminal', name, hallId: hall.hallId })
      const as = { ...es, authorization: `Device ${t.credential}` }
      const v = await sellVoucher(
        server.url,
        hall.hallId,
        4000,
        {},
        { ...es, authorization: `Bearer ${hall.cashierToken}` },
      )
      const o = await api(server.url, 'POST', '/api/terminal/session', { ageConfirmed: true, voucherCode: v.code }, as)
      expect(o.status, JSON.stringify(o.body)).toBe(201)
      const b = await api(server.url, 'POST', '/api/terminal/cards', { count: 5 }, as)
      expect(b.status, JSON.stringify(b.body)).toBe(201)
    }
  })
  afterAll(async () => server?.cleanup())

  const incident = (kind: string, reason: string) =>
    api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/incidents`,
      { kind, note: reason, reason, confirm: { username: 'jefa', password: PASSWORD } },
      { ...es, authorization: `Bearer ${mesaToken}` },
    )

  it('the line credited mid-game stands, every card is refunded in full, the game is void; a caller error could not', async () => {
    const { bingo } = server.services
    const db = server.services.db
    let state = await bingo.closeSales({ gameId: hall.gameId })
    for (let i = 0; i < 90 && state.status !== 'line_window'; i++) state = (await bingo.drawNext(hall.gameId)).state
    state = await bingo.closeWindow(hall.gameId)
    expect(state.status).toBe('drawing')
    await server.services.terminals.settleGame(hall.gameId)
    const paid = await db.all<{ id: string; amount_cents: number }>(
      "SELECT id, amount_cents FROM prizes WHERE game_id = ? AND status = 'paid'",
      [hall.gameId],
    )
    expect(paid.length).toBeGreaterThan(0)
    const payoutsBefore = (await db.all('SELECT id FROM payouts WHERE game_id = ?', [hall.gameId])).length

    // BNG-51: a caller's error does not annul a game that paid a prize.
    const callerError = await incident('caller-error', 'El locutor cantó 61 y salió la bola 16')
    expect(callerError.status, JSON.stringify(callerError.body)).toBe(409)
    expect(callerError.body.error.code).toBe('ANNUL_AFTER_PAYOUT')
    expect((await bingo.getGameState(hall.gameId)).status).toBe('drawing')

    // BNG-82: a duplicated ball ends the game with the full refund, the paid line standing.
    const r = await incident('ball-irregularity', 'Dos bolas con el número 17 en el juego de bolas')
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.status).toBe('void')
    const cards = await db.all<{ status: string }>('SELECT status FROM cards WHERE game_id = ?', [hall.gameId])
    expect(cards.length).toBeGreaterThanOrEqual(10)
    expect(cards.every((c) => c.status === 'refunded')).toBe(true)
    const after = await db.all<{ id: string; status: string }>('SELECT id, status FROM prizes WHERE game_id = ?', [
      hall.gameId,
    ])
    for (const p of paid) expect(after.find((a) => a.id === p.id)?.status).toBe('paid')
    expect(after.filter((a) => a.status === 'awarded')).toHaveLength(0)
    // Paid once: no payout added by the annulment.
    expect((await db.all('SELECT id FROM payouts WHERE game_id = ?', [hall.gameId])).length).toBe(payoutsBefore)
    // The annulment's record names every paid prize that stands.
    const rec = (await db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'game.void' ORDER BY seq DESC",
    ))!
    const payload = JSON.parse(rec.payload)
    expect(payload.gameId).toBe(hall.gameId)
    expect(payload.refundedCards).toBe(cards.length)
    expect(payload.paidPrizesRule).toBe('BNG-82')
    expect(
      (payload.paidPrizesStand as Array<{ prizeId: string; amountCents: number }>)
        .map((p) => [p.prizeId, p.amountCents])
        .sort(),
    ).toEqual(paid.map((p) => [p.id, Number(p.amount_cents)]).sort())
  })
})

/**
 * Issue 26, BNG-82 with pots (CFG-28): the audit's leftover asked for the case of a pot prize paid while the game
 * plays, then the game voided (bonus-service gameVoided keeps the contributions of a pot that paid). Over HTTP no path
 * pays it mid-game: a terminal is not credited a pot prize (BNG-55, paid against the winner's name and document,
 * which a terminal does not take), and the cash desk pays a card's prizes only once its game has ended (BNG-71,
 * PRIZE_PENDING). So a void after a pot prize was awarded finds it unpaid: the prize is voided, its amount returns to
 * the pot and the game's contributions are taken back with the refunded cards, and the pot is exactly as before the
 * game, owing nobody.
 */
describe('a pot prize is not paid while its game plays; the void gives the pot back exactly (BNG-82, BNG-86)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  let potId = ''
  const es = { 'accept-language': 'es' }
  let mesaToken = ''

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
    await server.services.auth.createUser({
      username: 'mesa',
      displayName: 'Luis Mamani',
      role: 'floor_manager',
      password: PASSWORD,
    })
    mesaToken = (await server.services.auth.login('mesa', PASSWORD)).token
    const director = { ...es, authorization: `Bearer ${hall.directorToken}` }
    expect(
      (await api(server.url, 'PUT', `/api/halls/${hall.hallId}/terminal-terms`, TERMINAL_TERMS, director)).status,
    ).toBe(200)
    // A line pot any line wins (within all 90 balls), funded with 5 % of each card, under its AJ authorisation.
    const pot = await api(
      server.url,
      'POST',
      '/api/pots',
      {
        name: 'Pozo de línea',
        kind: 'progressive',
        contributionBp: 500,
        condition: { prize: 'line', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
        hallIds: [hall.hallId],
        authorisationRef: 'AJ/DE/RA/0601/2026',
      },
      director,
    )
    expect(pot.status, JSON.stringify(pot.body)).toBe(201)
    potId = pot.body.id
    for (const name of ['Terminal 1', 'Terminal 2']) {
      const t = await server.services.auth.enrolDevice({ ...sealed(), kind: 'terminal', name, hallId: hall.hallId })
      const as = { ...es, authorization: `Device ${t.credential}` }
      const v = await sellVoucher(
        server.url,
        hall.hallId,
        4000,
        {},
        { ...es, authorization: `Bearer ${hall.cashierToken}` },
      )
      const o = await api(server.url, 'POST', '/api/terminal/session', { ageConfirmed: true, voucherCode: v.code }, as)
      expect(o.status).toBe(201)
      expect((await api(server.url, 'POST', '/api/terminal/cards', { count: 5 }, as)).status).toBe(201)
    }
  })
  afterAll(async () => server?.cleanup())

  it('the pot prize waits unpaid at the terminal and the cash desk; the void returns it and the contributions to the pot', async () => {
    const { bingo } = server.services
    const db = server.services.db
    const balance = async () =>
      Number(
        (await db.get<{ m: number | null }>('SELECT SUM(main_cents) AS m FROM pot_ledger WHERE pot_id = ?', [potId]))
          ?.m ?? 0,
      )
    const before = await balance()
    // The game's cards fund the pot when its sales close.
    let state = await bingo.closeSales({ gameId: hall.gameId })
    expect(await balance()).toBeGreaterThan(before)
    for (let i = 0; i < 90 && state.status !== 'line_window'; i++) state = (await bingo.drawNext(hall.gameId)).state
    state = await bingo.closeWindow(hall.gameId)
    expect(state.status).toBe('drawing')
    const won = await db.all<{ id: string; card_id: string; amount_cents: number }>(
      "SELECT id, card_id, amount_cents FROM bonus_prizes WHERE game_id = ? AND pot_id = ? AND status = 'awarded'",
      [hall.gameId, potId],
    )
    expect(won.length).toBeGreaterThan(0)

    // BNG-55: the terminal is credited no pot prize (nor the line of that card, paid with it at the desk).
    await server.services.terminals.settleGame(hall.gameId)
    // BNG-71: the cash desk pays the card only when its game has ended, identified payee or not.
    const early = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      {
        code: server.services.cashdesk.payouts.cardCode(won[0].card_id),
        payeeName: 'Ana Quispe Mamani',
        payeeDocument: '4455667 LP',
      },
      { ...es, authorization: `Bearer ${hall.cashierToken}` },
    )
    expect([early.status, early.body.error?.code]).toEqual([409, 'PRIZE_PENDING'])
    const stillAwarded = await db.all<{ status: string }>(
      'SELECT status FROM bonus_prizes WHERE game_id = ? AND pot_id = ?',
      [hall.gameId, potId],
    )
    expect(stillAwarded.map((p) => p.status)).toEqual(won.map(() => 'awarded'))

    const r = await api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/incidents`,
      {
        kind: 'ball-irregularity',
        note: 'Dos bolas con el número 17',
        reason: 'Dos bolas con el número 17',
        confirm: { username: 'jefa', password: PASSWORD },
      },
      { ...es, authorization: `Bearer ${mesaToken}` },
    )
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.status).toBe('void')
    const cards = await db.all<{ status: string }>('SELECT status FROM cards WHERE game_id = ?', [hall.gameId])
    expect(cards.every((c) => c.status === 'refunded')).toBe(true)
    const after = await db.all<{ status: string }>('SELECT status FROM bonus_prizes WHERE game_id = ? AND pot_id = ?', [
      hall.gameId,
      potId,
    ])
    expect(after.map((p) => p.status)).toEqual(won.map(() => 'void'))
    // The pot is as before the game: contributions reversed with the refunded cards, the unpaid award returned.
    expect(await balance()).toBe(before)
    const kinds = (
      await db.all<{ kind: string }>('SELECT kind FROM pot_ledger WHERE pot_id = ? AND game_id = ?', [
        potId,
        hall.gameId,
      ])
    ).map((x) => x.kind)
    expect(kinds).toEqual(expect.arrayContaining(['contribution', 'reversal', 'award_reversal']))
  })
})
