import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sealed } from '../helpers/device-marks.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { playToTheEnd, sellVoucher } from '../helpers/cashdesk.ts'
import type { PaidHall } from '../helpers/paid-hall.ts'
import { asTerminal, paidHallWithTerminals, TERMINAL_TERMS as terms } from '../helpers/terminals.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 27 (BNG-101): a virtual card's prize is credited to its terminal session the moment it is awarded (the line
 * while the game plays on, not at its end), through the cash desk's one payout path (payment_method = terminal,
 * no drawer moves), and at most once however many credits race for it. Authentication on, enrolled terminals.
 */
describe('terminal prizes credited when awarded (issue 27)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  let terminals: Array<{ id: string; credential: string }>
  const sessions: string[] = []
  const es = { 'accept-language': 'es' }
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const as = asTerminal
  const won = async () =>
    Number(
      (
        await server.services.db.get<{ s: number | null }>(
          `SELECT SUM(won_cents) AS s FROM terminal_sessions WHERE id IN (${sessions.map(() => '?').join(', ')})`,
          sessions,
        )
      )?.s ?? 0,
    )
  const drawerCents = async () =>
    Number(
      (
        await server.services.db.get<{ s: number | null }>(
          'SELECT SUM(amount_cents) AS s FROM cash_movements WHERE station_id = ?',
          [hall.station.id],
        )
      )?.s ?? 0,
    )

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    ;({ hall, terminals } = await paidHallWithTerminals(server.services))
    const director = { ...es, authorization: `Bearer ${hall.directorToken}` }
    expect((await api(server.url, 'PUT', `/api/halls/${hall.hallId}/terminal-terms`, terms, director)).status).toBe(200)
    // Only virtual cards play (BNG-21: ten of them), so every prize of the game is a terminal's.
    for (const t of terminals) {
      const v = await sellVoucher(server.url, hall.hallId, 4000, {}, asCashier())
      const o = await api(
        server.url,
        'POST',
        '/api/terminal/session',
        { ageConfirmed: true, voucherCode: v.code },
        as(t),
      )
      expect(o.status, JSON.stringify(o.body)).toBe(201)
      sessions.push(o.body.session.id)
      const b = await api(server.url, 'POST', '/api/terminal/cards', { count: 5 }, as(t))
      expect(b.status, JSON.stringify(b.body)).toBe(201)
    }
  })
  afterAll(async () => server?.cleanup())

  it('credits the line as soon as its window closes, with the game still in play, once under racing credits', async () => {
    const { bingo } = server.services
    let state = await bingo.closeSales({ gameId: hall.gameId })
    for (let i = 0; i < 90 && state.status !== 'line_window'; i++) state = (await bingo.drawNext(hall.gameId)).state
    expect(state.status).toBe('line_window')
    // The terminals claimed automatically (the profile's terms); nothing is credited before the split is final.
    expect(await won()).toBe(0)
    const drawerBefore = await drawerCents()
    state = await bingo.closeWindow(hall.gameId)
    expect(state.status).toBe('drawing')
    // Racing the award's own credit: the hall's listener, six more credits and six terminal reads at once.
    await Promise.all([
      ...Array.from({ length: 6 }, () => server.services.terminals.settleGame(hall.gameId)),
      ...Array.from({ length: 6 }, (_, i) =>
        api(server.url, 'GET', '/api/terminal/state', undefined, as(terminals[i % 2])),
      ),
    ])
    const linePool = Number(state.linePoolCents)
    expect(linePool).toBeGreaterThan(0)
    // Credited while the bingo is still to be played, exactly the line pool, not a centavo twice.
    expect((await bingo.getGameState(hall.gameId)).status).toBe('drawing')
    expect(await won()).toBe(linePool)
    const payouts = await server.services.db.all<{ card_id: string; payment_method: string; amount_cents: number }>(
      'SELECT card_id, payment_method, amount_cents FROM payouts WHERE game_id = ?',
      [hall.gameId],
    )
    const linePrizes = (await bingo.listPrizes(hall.gameId)).filter((p) => p.kind === 'line')
    expect(payouts).toHaveLength(linePrizes.length)
    expect(payouts.every((p) => p.payment_method === 'terminal')).toBe(true)
    // Each session's ledger holds one prize entry per credited card, journaled once per payout.
    const ledger = await server.services.db.all<{ ref_id: string }>(
      "SELECT ref_id FROM terminal_ledger WHERE kind = 'prize' AND session_id IN (?, ?)",
      sessions,
    )
    expect(ledger).toHaveLength(payouts.length)
    expect(
      (await server.services.db.all("SELECT seq FROM journal WHERE type = 'terminal.prize_credited'")).length,
    ).toBe(payouts.length)
    // Out of no drawer: the cash desk's drawer did not move.
    expect(await drawerCents()).toBe(drawerBefore)
    // The cash desk cannot pay a credited line again while the game plays, nor after.
    for (const p of linePrizes) {
      const r = await api(
        server.url,
        'POST',
        '/api/tickets/pay',
        { code: server.services.cashdesk.payouts.cardCode(p.cardId) },
        asCashier(),
      )
      expect(r.status).toBeGreaterThanOrEqual(400)
    }
  })

  it('credits the bingo at the end, a card that won both is paid by two payouts, every prize once', async () => {
    await playToTheEnd(server.services, hall.gameId)
    const state = await server.services.bingo.getGameState(hall.gameId)
    const pools = Number(state.linePoolCents) + Number(state.bingoPoolCents)
    await Promise.all(Array.from({ length: 4 }, () => server.services.terminals.settleGame(hall.gameId)))
    for (const t of terminals) await api(server.url, 'GET', '/api/terminal/state', undefined, as(t))
    expect(await won()).toBe(pools)
    const prizes = await server.services.bingo.listPrizes(hall.gameId)
    expect(prizes.every((p) => p.status === 'paid')).toBe(true)
    const payouts = await server.services.db.all<{ card_id: string; prize_ids: string; amount_cents: number }>(
      'SELECT card_id, prize_ids, amount_cents FROM payouts WHERE game_id = ?',
      [hall.gameId],
    )
    // Every prize in exactly one payout; the payouts add up to the pools.
    const paidIds = payouts.flatMap((p) => JSON.parse(p.prize_ids) as string[]).sort()
    expect(paidIds).toEqual(prizes.map((p) => p.id).sort())
    expect(payouts.reduce((n, p) => n + Number(p.amount_cents), 0)).toBe(pools)
    // One payout per card and award: a card's line (in play) and its bingo (at the end) are two payments.
    for (const cardId of new Set(prizes.map((p) => p.cardId))) {
      const awards = new Set(prizes.filter((p) => p.cardId === cardId).map((p) => p.awardedAt))
      expect(payouts.filter((p) => p.card_id === cardId)).toHaveLength(awards.size)
    }
    const balances = await server.services.db.all<{ balance_cents: number }>(
      `SELECT balance_cents FROM terminal_sessions WHERE id IN (?, ?)`,
      sessions,
    )
    expect(balances.reduce((n, b) => n + Number(b.balance_cents), 0)).toBe(2 * 1500 + pools)
    const v = await server.services.verifyJournal()
    expect(v.ok, JSON.stringify(v)).toBe(true)
  })

  it('a cash load is refused to the terminal itself, to a person at no station, for another hall and for a non-terminal; nothing moves', async () => {
    const load = (terminalId: string, headers: Record<string, string>) =>
      api(
        server.url,
        'POST',
        '/api/terminal-sessions/load',
        { terminalId, amountCents: 1000, cash: countOf(1000), ageConfirmed: true },
        headers,
      )
    const other = await server.services.bingo.createHall({
      name: 'Sala Sajama',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 50,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const foreign = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'terminal',
      name: 'Terminal S',
      hallId: other.id,
    })
    const balances = async () =>
      (await server.services.db.all<{ b: number }>('SELECT balance_cents AS b FROM terminal_sessions ORDER BY id')).map(
        (r) => Number(r.b),
      )
    const [drawer, before] = [await drawerCents(), await balances()]
    const director = { ...es, authorization: `Bearer ${hall.directorToken}` }
    const cases: Array<[string, Record<string, string>, number, string]> = [
      [terminals[0].id, as(terminals[0]), 403, 'FORBIDDEN'],
      [terminals[0].id, director, 409, 'STATION_REQUIRED'],
      [foreign.id, asCashier(), 403, 'WRONG_HALL'],
      [hall.kiosk.id, asCashier(), 404, 'NOT_FOUND'],
    ]
    for (const [terminalId, headers, status, code] of cases) {
      const r = await load(terminalId, headers)
      expect([r.status, r.body.error?.code], `${terminalId} ${code}`).toEqual([status, code])
      expect(r.body.error.message).toBeTruthy()
    }
    expect(await drawerCents()).toBe(drawer)
    expect(await balances()).toEqual(before)
    // The cashier of the hall at her station loads onto its open session: the drawer and the balance move together.
    const ok = await load(terminals[0].id, asCashier())
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    expect(ok.body.started).toBe(false)
    expect(await drawerCents()).toBe(drawer + 1000)
    expect(
      (await api(server.url, 'GET', '/api/terminal/state', undefined, as(terminals[0]))).body.session.balanceCents,
    ).toBe(ok.body.balanceCents)
  })
})
