import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { openPrintFile } from '../../printer/src/printers.ts'
import { decodeEscPos } from '../helpers/escpos-decode.ts'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSqliteConnection } from '../../server/src/db/sqlite-runtime.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { nextGameOnSale, playToTheEnd, sellVoucher } from '../helpers/cashdesk.ts'
import type { PaidHall } from '../helpers/paid-hall.ts'
import { asTerminal, paidHallWithTerminals, TERMINAL_TERMS as terms } from '../helpers/terminals.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { sealed } from '../helpers/device-marks.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 27 (BNG-101, BNG-9), over real HTTP with authentication on and enrolled terminals: a terminal session is a
 * cash-desk account opened by a voucher; virtual cards are real cards of the game, from the range reserved for
 * terminals, bought from the balance within the caps; a prize is credited once; the change voucher is cashed at the
 * cashier; a lost session is recovered against its voucher. Each refusal leaves the money where it was.
 */
describe('electronic bingo on hall terminals (issue 27)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  let t1: { id: string; credential: string }
  let t2: { id: string; credential: string }
  const es = { 'accept-language': 'es' }
  const asKiosk = () => ({ ...es, authorization: `Device ${hall.kiosk.credential}` })
  const asCashier = () => ({ ...es, authorization: `Bearer ${hall.cashierToken}` })
  const asDirector = () => ({ ...es, authorization: `Bearer ${hall.directorToken}` })
  const as = asTerminal

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    ;({
      hall,
      terminals: [t1, t2],
    } = await paidHallWithTerminals(server.services))
  })
  afterAll(async () => server?.cleanup())

  it('refuses a session until the hall records the authority terms, and the voucher keeps its credit (BNG-101)', async () => {
    const voucher = await sellVoucher(server.url, hall.hallId, 1000, {}, asCashier())
    const r = await api(
      server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: voucher.code },
      as(t1),
    )
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('RULE_DISABLED')
    const check = await api(server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, asCashier())
    expect(check.body.status ?? check.body.voucher?.status).toBe('active')
  })

  it("refuses another hall's voucher at a terminal (WRONG_HALL), and leaves that voucher its credit", async () => {
    const other = await server.services.bingo.createHall({
      name: 'Sala Sajama',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 50,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const desk = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'cashier_station',
      name: 'Caja B',
      hallId: other.id,
    })
    const foreign = (
      await server.services.cashdesk.vouchers.sell({
        hallId: other.id,
        amountCents: 1000,
        cash: countOf(1000),
        stationId: desk.id,
        cashierId: 'cajero B',
      })
    ).voucher
    const r = await api(
      server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: foreign.code },
      as(t1),
    )
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe('WRONG_HALL')
    const check = await server.services.cashdesk.vouchers.check(foreign.code)
    expect(check.status).toBe('active')
  })

  it('lets only the director record the terms; a terminal or a cashier cannot (FORBIDDEN)', async () => {
    for (const who of [as(t1), asCashier(), asKiosk()]) {
      const r = await api(server.url, 'PUT', `/api/halls/${hall.hallId}/terminal-terms`, terms, who)
      expect(r.status).toBe(403)
    }
    // Issue 27: the hall's profile (Bolivia) leaves a terminal's disconnection to the authority: terms that do not
    // state it are refused, in the user's language, and nothing is recorded.
    const { onDisconnect: _omitted, ...silent } = terms.terms
    const incomplete = await api(
      server.url,
      'PUT',
      `/api/halls/${hall.hallId}/terminal-terms`,
      { ...terms, terms: silent },
      asDirector(),
    )
    // Its own code and words (not the generic "Los datos enviados no son válidos"), saying what to choose.
    expect([incomplete.status, incomplete.body.error.code]).toEqual([400, 'TERMINAL_TERMS_DISCONNECTION'])
    expect(incomplete.body.error.message).toMatch(/^Los términos deben decir qué pasa con los cartones de un terminal/)
    expect(incomplete.body.error.message).toContain('BNG-101')
    expect(incomplete.body.error.details.field).toBe('terms.onDisconnect')
    expect(
      (await api(server.url, 'GET', `/api/halls/${hall.hallId}/terminal-terms`, undefined, asDirector())).body,
    ).toMatchObject({ refused: 'terms_missing', disconnection: { mode: null } })
    const r = await api(server.url, 'PUT', `/api/halls/${hall.hallId}/terminal-terms`, terms, asDirector())
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.reference).toBe(terms.reference)
    expect(r.body.terms.onDisconnect).toBe('play-on-credit')
    expect(r.body.terms.terminalRangePercent).toBe(25)
  })

  it("answers the terms with the hall's own switch of the system's claims, not the profile's alone (BNG-101, CFG-33)", async () => {
    const answer = async () =>
      (await api(server.url, 'GET', `/api/halls/${hall.hallId}/terminal-terms`, undefined, asDirector())).body
    // Bolivia's profile lets the system claim for virtual cards: on where the hall has not switched it off.
    expect((await answer()).autoClaim).toBe(true)
    const off = await api(server.url, 'PUT', `/api/halls/${hall.hallId}/auto-claim`, { autoClaim: false }, asDirector())
    expect(off.status, JSON.stringify(off.body)).toBe(200)
    expect(await answer()).toMatchObject({ allowed: true, autoClaim: false, reference: terms.reference })
    const back = await api(server.url, 'PUT', `/api/halls/${hall.hallId}/auto-claim`, { autoClaim: null }, asDirector())
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect((await answer()).autoClaim).toBe(true)
  })

  it('opens a session with a voucher (spent into the balance once), buys virtual cards from the reserved range', async () => {
    const voucher = await sellVoucher(server.url, hall.hallId, 3000, {}, asCashier())
    const opened = await api(
      server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: voucher.code },
      as(t1),
    )
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    expect(opened.body.session.balanceCents).toBe(3000)
    // The same voucher at the other terminal, or at a kiosk: spent.
    const again = await api(
      server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: voucher.code },
      as(t2),
    )
    expect(again.body.error.code).toBe('VOUCHER_SPENT')
    const kiosk = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      asKiosk(),
    )
    expect(kiosk.body.error.code).toBe('VOUCHER_SPENT')

    const paperBefore = (await server.services.bingo.getGameState(hall.gameId)).cardsSold
    const bought = await api(server.url, 'POST', '/api/terminal/cards', { count: 2 }, as(t1))
    expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    expect(bought.body.session.balanceCents).toBe(2000)
    const cards = bought.body.game.cards as Array<{ id: string; cardNo: number; missing: number[] }>
    expect(cards).toHaveLength(2)
    // BNG-9: series A has 400 cards, the top 25 % (301..400) is the terminals'.
    for (const c of cards) expect(c.cardNo).toBeGreaterThanOrEqual(301)
    // Counted in the game like paper (pool, display, digest at the close).
    expect((await server.services.bingo.getGameState(hall.gameId)).cardsSold).toBe(paperBefore + 2)
    const paid = await server.services.db.all<{ paid_by: string; amount_cents: number; payment_ref: string }>(
      'SELECT paid_by, amount_cents, payment_ref FROM sale_payments WHERE ref_id IN (?, ?)',
      cards.map((c) => c.id),
    )
    expect(paid.map((p) => [p.paid_by, Number(p.amount_cents), p.payment_ref])).toEqual([
      ['terminal', 500, opened.body.session.id],
      ['terminal', 500, opened.body.session.id],
    ])
    // A kiosk's paper card stays below the reserved range.
    const paper = await sellVoucher(server.url, hall.hallId, 500, {}, asCashier())
    const k = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: paper.code, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      asKiosk(),
    )
    expect(k.status, JSON.stringify(k.body)).toBe(201)
    expect(k.body.cards[0].cardNo).toBeLessThan(301)
  })

  // BNG-9: the kiosk's sale reads the hall's terms with the game's row (one read under the hall's lock): the terms it
  // obeys are the ones recorded now, not the profile's nor an earlier record.
  it("keeps a kiosk's paper below the range the hall's terms reserve now, as they change (BNG-9)", async () => {
    const buy = async (count: number) => {
      const paper = await sellVoucher(server.url, hall.hallId, 500 * count, {}, asCashier())
      return api(
        server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: paper.code, ageConfirmed: true, cards: { gameId: hall.gameId, count } },
        asKiosk(),
      )
    }
    const setRange = async (terminalRangePercent: number) => {
      const r = await api(
        server.url,
        'PUT',
        `/api/halls/${hall.hallId}/terminal-terms`,
        { ...terms, terms: { ...terms.terms, terminalRangePercent } },
        asDirector(),
      )
      expect(r.status, JSON.stringify(r.body)).toBe(200)
    }
    // 99 %: of series A's 400 cards, 5..400 are the terminals'; paper has 1..4 at most, fewer than five cards.
    await setRange(99)
    const before = (await server.services.bingo.getGameState(hall.gameId)).cardsSold
    const refused = await buy(5)
    expect([refused.status, refused.body.error.code]).toEqual([409, 'SERIES_EXHAUSTED'])
    expect((await server.services.bingo.getGameState(hall.gameId)).cardsSold).toBe(before)
    // Back to 25 %: the same purchase is sold, below 301.
    await setRange(25)
    const sold = await buy(5)
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    for (const c of sold.body.cards as Array<{ cardNo: number }>) expect(c.cardNo).toBeLessThan(301)
  })

  it('enforces the per-game cap and the balance, and sells nothing when it refuses', async () => {
    const before = (await server.services.bingo.getGameState(hall.gameId)).cardsSold
    // 1000 spent in this game, cap 2500: three more cards (1500) would exceed it.
    const over = await api(server.url, 'POST', '/api/terminal/cards', { count: 4 }, as(t1))
    expect(over.status).toBe(422)
    expect(over.body.error.code).toBe('TERMINAL_CAP_EXCEEDED')
    expect(over.body.error.details.cap).toBe('game')
    expect(over.body.error.details.maxCards).toBe(3)
    const voucher = await sellVoucher(server.url, hall.hallId, 700, {}, asCashier())
    expect(
      (
        await api(
          server.url,
          'POST',
          '/api/terminal/session',
          { ageConfirmed: true, voucherCode: voucher.code },
          as(t2),
        )
      ).status,
    ).toBe(201)
    const poor = await api(server.url, 'POST', '/api/terminal/cards', { count: 2 }, as(t2))
    expect(poor.status).toBe(422)
    expect(poor.body.error.code).toBe('TERMINAL_BALANCE_INSUFFICIENT')
    expect((await server.services.bingo.getGameState(hall.gameId)).cardsSold).toBe(before)
    const state = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t2))
    expect(state.body.session.balanceCents).toBe(700)
    expect((await api(server.url, 'POST', '/api/terminal/cards', { count: 1 }, as(t2))).status).toBe(201)
  })

  it('refuses a claim for a card the session does not hold (TERMINAL_CARD_NOT_HELD)', async () => {
    const t2state = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t2))
    const foreign = t2state.body.game.cards[0].id
    const r = await api(server.url, 'POST', '/api/terminal/claims', { cardId: foreign, kind: 'line' }, as(t1))
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe('TERMINAL_CARD_NOT_HELD')
    // A person's session cannot play as a terminal either.
    expect((await api(server.url, 'GET', '/api/terminal/state', undefined, asCashier())).status).toBe(403)
  })

  it('refuses ending a session while its cards are in play; after the game its prizes are credited once', async () => {
    const early = await api(server.url, 'POST', '/api/terminal/session/end', undefined, as(t1))
    expect(early.status).toBe(409)
    // More paper, sold at the counter for cash (BNG-21: the game needs 10 cards).
    await server.services.paidSales.counterCards({
      stationId: hall.station.id,
      soldBy: 'cajera',
      gameId: hall.gameId,
      count: 8,
      ageConfirmed: true,
    })
    await playToTheEnd(server.services, hall.gameId)
    // No card after the close of sales: the terminal's balance stays as it was.
    const late = await api(server.url, 'POST', '/api/terminal/cards', { count: 1 }, as(t2))
    expect(late.status).toBe(409)
    expect(['SALES_CLOSED', 'ILLEGAL_TRANSITION']).toContain(late.body.error.code)
    const prizes = await server.services.bingo.listPrizes(hall.gameId)
    for (const t of [t1, t2]) {
      const s = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t))
      const held = await server.services.db.all<{ card_id: string }>(
        'SELECT card_id FROM terminal_cards WHERE session_id = ?',
        [s.body.session.id],
      )
      const won = prizes.filter((p) => held.some((h) => h.card_id === p.cardId)).reduce((n, p) => n + p.amountCents, 0)
      expect(s.body.session.wonCents).toBe(won)
      // Credited again on a second read: never twice.
      const again = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t))
      expect(again.body.session.balanceCents).toBe(s.body.session.balanceCents)
      // A credited card is paid: the cash desk does not pay it a second time.
      for (const h of held.filter((x) => prizes.some((p) => p.cardId === x.card_id))) {
        const r = await api(
          server.url,
          'POST',
          '/api/tickets/pay',
          { code: server.services.cashdesk.payouts.cardCode(h.card_id) },
          asCashier(),
        )
        expect(r.status).toBeGreaterThanOrEqual(400)
      }
    }
  })

  it('ends a session with a change voucher that the cashier cashes out for the whole balance', async () => {
    const before = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t1))
    const balance = before.body.session.balanceCents as number
    const ended = await api(server.url, 'POST', '/api/terminal/session/end', undefined, as(t1))
    expect(ended.status, JSON.stringify(ended.body)).toBe(200)
    expect(ended.body.change.amountCents).toBe(balance)
    expect(ended.body.print.printed).toBe(true)
    // The change voucher's paper names the terminal it came from, never an internal id (issue 29 point 6).
    const dir = join(server.dataDir, 'prints')
    const file = readdirSync(dir).find(
      (f) => f.includes(`terminal-${ended.body.sessionId}`) && f.endsWith('.escpos.sealed'),
    )
    const lines = decodeEscPos(openPrintFile(server.services.sealer, join(dir, file!))).lines.map((l) => l.trim())
    expect(lines).toContain('VALE DE CAMBIO')
    expect(lines.some((l) => /Terminal\s+Terminal 1$/.test(l))).toBe(true)
    expect(lines.join('\n')).not.toMatch(/\b(?:dev|ts|v|u)_[a-z0-9]{6,}/)
    const cashed = await api(server.url, 'POST', '/api/vouchers/cashout', { code: ended.body.change.code }, asCashier())
    expect(cashed.status, JSON.stringify(cashed.body)).toBe(200)
    expect(cashed.body.paidCents).toBe(balance)
    const after = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t1))
    expect(after.body.session).toBeNull()
    expect((await api(server.url, 'POST', '/api/terminal/cards', { count: 1 }, as(t1))).body.error.code).toBe(
      'TERMINAL_SESSION_CLOSED',
    )
  })

  it("recovers a lost session's balance at the cashier against the original voucher, once", async () => {
    const voucher = await sellVoucher(server.url, hall.hallId, 1200, {}, asCashier())
    const t3 = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'terminal',
      name: 'Terminal 3',
      hallId: hall.hallId,
    })
    expect(
      (
        await api(
          server.url,
          'POST',
          '/api/terminal/session',
          { ageConfirmed: true, voucherCode: voucher.code },
          as(t3),
        )
      ).status,
    ).toBe(201)
    // The terminal cannot recover sessions; the cashier can.
    const byTerminal = await api(
      server.url,
      'POST',
      '/api/terminal-sessions/recover',
      { voucherCode: voucher.code },
      as(t3),
    )
    expect(byTerminal.status).toBe(403)
    const r = await api(
      server.url,
      'POST',
      '/api/terminal-sessions/recover',
      { voucherCode: voucher.code },
      asCashier(),
    )
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.status).toBe('recovered')
    expect(r.body.change.amountCents).toBe(1200)
    const twice = await api(
      server.url,
      'POST',
      '/api/terminal-sessions/recover',
      { voucherCode: voucher.code },
      asCashier(),
    )
    expect(twice.body.error.code).toBe('TERMINAL_SESSION_CLOSED')
    expect((await api(server.url, 'GET', '/api/terminal/state', undefined, as(t3))).body.session).toBeNull()
  })

  it('credits the whole line and bingo pools to the terminals when only virtual cards play (BNG-56 split, once)', async () => {
    const gameId = await nextGameOnSale(server.services, hall)
    const sessions: string[] = []
    for (const t of [t1, t2]) {
      await api(server.url, 'POST', '/api/terminal/session/end', undefined, as(t))
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
      expect(b.body.game.gameId).toBe(gameId)
    }
    await playToTheEnd(server.services, gameId)
    const state = await server.services.bingo.getGameState(gameId)
    const pools = Number(state.linePoolCents) + Number(state.bingoPoolCents)
    expect(pools).toBeGreaterThan(0)
    let won = 0
    let balances = 0
    for (const t of [t1, t2]) {
      const s = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t))
      won += s.body.session.wonCents
      balances += s.body.session.balanceCents
    }
    // Every centavo of both pools reached a terminal balance, none twice (each session spent 2500 of 4000).
    expect(won).toBe(pools)
    expect(balances).toBe(2 * 1500 + pools)
    const methods = await server.services.db.all<{ payment_method: string }>(
      'SELECT payment_method FROM payouts WHERE game_id = ?',
      [gameId],
    )
    expect(methods.length).toBeGreaterThan(0)
    expect(methods.every((m) => m.payment_method === 'terminal')).toBe(true)
  })

  it("paces games with virtual cards by the terms' minimum game duration; a paper-only game is not held (BNG-101, CFG-33)", async () => {
    const paced = { ...terms, terms: { ...terms.terms, minGameSeconds: 180 } }
    expect((await api(server.url, 'PUT', `/api/halls/${hall.hallId}/terminal-terms`, paced, asDirector())).status).toBe(
      200,
    )
    const close = (gameId: string, lang = 'es') =>
      api(server.url, 'POST', `/api/games/${gameId}/sales/close`, {}, { ...asDirector(), 'accept-language': lang })

    // A paper-only game closes whenever the caller is ready.
    const paperOnly = await nextGameOnSale(server.services, hall)
    await server.services.bingo.sell({ gameId: paperOnly, count: 10, channel: 'cashier' })
    const paperClosed = await close(paperOnly)
    expect(paperClosed.status, JSON.stringify(paperClosed.body)).toBe(200)
    await playToTheEnd(server.services, paperOnly)

    // The previous game with virtual cards started moments ago: this one waits for the rest of the 180 seconds.
    const gameId = await nextGameOnSale(server.services, hall)
    await server.services.bingo.sell({ gameId, count: 10, channel: 'cashier' })
    const bought = await api(server.url, 'POST', '/api/terminal/cards', { count: 1 }, as(t1))
    expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    expect(bought.body.game.gameId).toBe(gameId)
    const early = await close(gameId)
    expect(early.status).toBe(409)
    expect(early.body.error.code).toBe('TERMINAL_GAME_TOO_SOON')
    const { waitSeconds, minGameSeconds } = early.body.error.details
    expect(minGameSeconds).toBe(180)
    expect(waitSeconds).toBeGreaterThan(0)
    expect(waitSeconds).toBeLessThanOrEqual(180)
    expect(early.body.error.message).toContain(`al menos 180 segundos`)
    expect(early.body.error.message).toContain(`Espere ${waitSeconds} segundos`)
    expect((await close(gameId, 'en')).body.error.message).toMatch(
      /at least 180 seconds \(BNG-101\)\. Wait \d+ seconds/,
    )
    // Refused whole: the game is still on sale and nothing was journaled as closed.
    expect((await server.services.bingo.getGameState(gameId)).status).toBe('on_sale')
    expect(
      await server.services.db.get("SELECT 1 AS one FROM journal WHERE type = 'sales.closed' AND payload LIKE ?", [
        `%${gameId}%`,
      ]),
    ).toBeUndefined()

    // Terms without a minimum (the authority's new record): it starts.
    expect((await api(server.url, 'PUT', `/api/halls/${hall.hallId}/terminal-terms`, terms, asDirector())).status).toBe(
      200,
    )
    expect((await close(gameId)).status).toBe(200)
    // BNG-17 / BNG-18: the jefe announces the blocks really sold: the paper run and the terminals' own run.
    const state = await server.services.bingo.getGameState(gameId)
    expect(state.soldRanges).toHaveLength(2)
    const [paperRun, terminalRun] = state.soldRanges!
    expect(paperRun).toMatchObject({ series: 'A', count: 10, to: paperRun.from + 9 })
    expect(terminalRun).toMatchObject({ series: 'A', count: 1 })
    expect(terminalRun.from).toBeGreaterThanOrEqual(301)
    const closedRecord = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'sales.closed' AND payload LIKE ?",
      [`%${gameId}%`],
    )
    expect(JSON.parse(closedRecord!.payload).soldRanges).toEqual(state.soldRanges)
    await playToTheEnd(server.services, gameId)
  })

  it('journals every movement of a session and the journal chain still verifies', async () => {
    const types = (
      await server.services.db.all<{ type: string }>("SELECT type FROM journal WHERE type LIKE 'terminal.%'")
    ).map((r) => r.type)
    for (const t of [
      'terminal.terms_set',
      'terminal.session_opened',
      'terminal.cards_bought',
      'terminal.session_closed',
      'terminal.session_recovered',
    ])
      expect(types).toContain(t)
    const v = await server.services.verifyJournal()
    expect(v.ok, JSON.stringify(v)).toBe(true)
  })

  it('a session balance edited in the database buys no card and is paid back as no change voucher (ROW_TAMPERED); verify-journal lists it (issue 24 point 1)', async () => {
    await nextGameOnSale(server.services, hall)
    const s = (await api(server.url, 'GET', '/api/terminal/state', undefined, as(t1))).body.session
    expect(s.status).toBe('open')
    // As someone with the database would: a bare UPDATE on its own connection, no store function, no seal.
    const sql = 'UPDATE terminal_sessions SET balance_cents = ? WHERE id = ?'
    const params = [500_000, s.id]
    const url = server.services.config.databaseUrl
    if (url) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(sql.replace('?', '$1').replace('?', '$2'), params).finally(() => client.end())
    } else {
      const conn = await openSqliteConnection(join(server.dataDir, 'bolillo.sqlite'))
      try {
        conn.prepare(sql).run(...params)
      } finally {
        conn.close()
      }
    }
    const buy = await api(server.url, 'POST', '/api/terminal/cards', { count: 1 }, as(t1))
    expect([buy.status, buy.body.error?.code]).toEqual([409, 'ROW_TAMPERED'])
    const end = await api(server.url, 'POST', '/api/terminal/session/end', undefined, as(t1))
    expect([end.status, end.body.error?.code]).toEqual([409, 'ROW_TAMPERED'])
    // No change voucher was issued from it, and the refusals are journaled.
    const changes = await server.services.db.all<{ id: string }>(
      "SELECT id FROM vouchers WHERE origin = 'change' AND amount_cents = 500000",
    )
    expect(changes).toEqual([])
    const refusals = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'row.tampered'",
    )
    expect(refusals.filter((r) => r.payload.includes(s.id)).length).toBeGreaterThanOrEqual(2)
    const v = await api(server.url, 'GET', '/api/journal/verify', undefined, asDirector())
    expect(v.body.ok).toBe(false)
    expect(v.body.rows.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'terminal_sessions', id: s.id })]),
    )
  })
})
