import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { equipForManualGames } from '../helpers/ball-sets.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { sealed } from '../helpers/device-marks.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 27 with BNG-100 (bingo simultáneo, the interconnected game of a central and its joined halls), over real HTTP
 * and real socket.io clients with authentication on: an enrolled terminal in the central hall and one in a joined
 * hall buy virtual cards of the one game from their sessions' balances, each from its own hall's range; both terminal
 * sockets (authenticated as their devices) see every ball of the central draw through their own hall; both claim with
 * the button; the line, won at the same ball by both terminals and a paper card of the joined hall, is split by the
 * ordinary rule across halls; the prizes are credited to the balances once. A terminal of a hall that does not take
 * part sees no such game and cannot buy into it. The balls come from a manual drum, so the test knows who wins.
 */
describe('hall terminals in an interconnected game across halls (issue 27, BNG-100, BNG-101)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let central: string
  let alto: string
  let outside: string
  let gameId: string
  let extractorId: string
  let sessionId: string
  const series: Record<string, string> = {}
  const devices: Record<string, { id: string; credential: string }> = {}
  const sockets: Socket[] = []
  const es = { 'accept-language': 'es' }
  const as = (t: { credential: string }) => ({ ...es, authorization: `Device ${t.credential}` })
  const terms = {
    markingMode: 'automatic' as const,
    maxCardCents: 600,
    maxGameCents: 5000,
    maxSessionCents: 20_000,
    minGameSeconds: 0,
    prizeReturnBp: { min: 6000, max: 8500 },
    terminalRangePercent: 25,
    onDisconnect: 'play-on-credit' as const,
  }
  const shares = { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 }

  /** A terminal's screen feed: a socket authenticated as the enrolled device, watching its own hall. */
  async function feed(t: { credential: string }, hallId: string) {
    const socket = io(server.url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: { authorization: `Device ${t.credential}` },
    })
    sockets.push(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    const balls: number[] = []
    socket.on('ball:drawn', (e: { gameId: string; ball: number; count: number }) => {
      if (e.gameId === gameId) balls[e.count - 1] = e.ball
    })
    const ack = await socket.emitWithAck('hall:watch', { hallId })
    expect(ack.ok, JSON.stringify(ack)).toBe(true)
    return { balls, gameId: (ack.data as { gameId: string | null }).gameId }
  }

  async function openSession(t: { id: string; credential: string }, hallId: string, amountCents: number) {
    const desk = devices[`desk-${hallId}`]
    const { voucher } = await server.services.cashdesk.vouchers.sell({
      hallId,
      amountCents,
      cash: countOf(amountCents),
      stationId: desk.id,
      cashierId: 'cajera',
    })
    const r = await api(
      server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: voucher.code },
      as(t),
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r.body.session.id as string
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    const { bingo, bonus, auth, terminals } = server.services
    const set = await bingo.createMasterSet({ count: 400, seed: 'terminals-interconnected' })
    for (const [name, code] of [
      ['Central La Paz', 'A'],
      ['Sala El Alto', 'B'],
      ['Sala Oruro', 'C'],
    ]) {
      const h = await bingo.createHall({
        name,
        profileId: 'BO-2025',
        playingPositions: 100,
        shares,
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
      })
      series[h.id] = (await bingo.createSeries({ hallId: h.id, code, masterSetId: set.id, faceValueCents: 500 })).id
      // The players claim with the button in every hall (CFG-21).
      await bingo.setAutoClaim({
        hallId: h.id,
        autoClaim: false,
        by: { kind: 'system', id: 't', name: 't', role: 'system' },
      })
      await terminals.setTerms({ hallId: h.id, reference: 'AJ-RND-2026-0117 (terminales)', terms, by: 'test' })
      devices[`desk-${h.id}`] = await auth.enrolDevice({
        ...sealed(),
        kind: 'cashier_station',
        name: `Caja ${code}`,
        hallId: h.id,
      })
      devices[`terminal-${h.id}`] = await auth.enrolDevice({
        ...sealed(),
        kind: 'terminal',
        name: `Terminal ${code}`,
        hallId: h.id,
      })
      if (code === 'A') central = h.id
      else if (code === 'B') alto = h.id
      else outside = h.id
    }
    ;({ extractorId } = await equipForManualGames(server.services, central))
    const session = await bingo.openSession({ hallId: central, recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
    sessionId = session.id
    gameId = (
      await bingo.announceGame({
        sessionId: session.id,
        seriesIds: [series[central]],
        drawSource: 'manual',
        deviceId: extractorId,
      })
    ).gameId
    // The central plays cards 1-200 of the master set, El Alto 201-400; Oruro does not take part.
    await bonus.joinGame({ gameId, hallId: central, seriesId: series[central], fromCardNo: 1, toCardNo: 200 })
    await bonus.joinGame({ gameId, hallId: alto, seriesId: series[alto], fromCardNo: 201, toCardNo: 400 })
    await bingo.openSales(gameId)
  }, 120_000)
  afterAll(async () => {
    for (const s of sockets) s.close()
    await server?.cleanup()
  })

  it('buys, sees the balls, claims and is credited in both halls; the line is shared across halls (BNG-56)', async () => {
    const { bingo, bonus, db } = server.services
    const tA = devices[`terminal-${central}`]
    const tB = devices[`terminal-${alto}`]
    const tC = devices[`terminal-${outside}`]
    const sessionA = await openSession(tA, central, 3000)
    const sessionB = await openSession(tB, alto, 2000)
    await openSession(tC, outside, 1000)

    // Each terminal's screen follows the one game through its own hall.
    const feedA = await feed(tA, central)
    const feedB = await feed(tB, alto)
    expect([feedA.gameId, feedB.gameId]).toEqual([gameId, gameId])

    // Virtual cards of the one game, each terminal from its own hall's range, paid from its balance.
    const boughtA = await api(server.url, 'POST', '/api/terminal/cards', { count: 2 }, as(tA))
    expect(boughtA.status, JSON.stringify(boughtA.body)).toBe(201)
    const boughtB = await api(server.url, 'POST', '/api/terminal/cards', { count: 2 }, as(tB))
    expect(boughtB.status, JSON.stringify(boughtB.body)).toBe(201)
    expect([boughtA.body.game.gameId, boughtB.body.game.gameId]).toEqual([gameId, gameId])
    expect([boughtA.body.session.balanceCents, boughtB.body.session.balanceCents]).toEqual([2000, 1000])
    type Card = { id: string; serial: string; cardNo: number; rows: number[][] }
    const [cardA] = boughtA.body.game.cards as Card[]
    const [cardB] = boughtB.body.game.cards as Card[]
    for (const c of boughtA.body.game.cards as Card[]) expect(c.cardNo).toBeLessThanOrEqual(200)
    for (const c of boughtB.body.game.cards as Card[]) expect(c.cardNo).toBeGreaterThan(200)
    // Paid into each hall's own sales: the payments and the hall's count name the hall that sold.
    const payments = await db.all<{ hall_id: string; payment_ref: string }>(
      "SELECT hall_id, payment_ref FROM sale_payments WHERE paid_by = 'terminal' ORDER BY hall_id",
    )
    expect(payments.map((p) => [p.hall_id, p.payment_ref]).sort()).toEqual(
      [
        [central, sessionA],
        [central, sessionA],
        [alto, sessionB],
        [alto, sessionB],
      ].sort(),
    )

    // A terminal of a hall that does not play the game sees no game, buys nothing, and its balance stays whole.
    const stranger = await api(server.url, 'GET', '/api/terminal/state', undefined, as(tC))
    expect(stranger.body.game).toBeNull()
    const refused = await api(server.url, 'POST', '/api/terminal/cards', { count: 1 }, as(tC))
    expect([refused.status, refused.body.error.code]).toEqual([409, 'SALES_NOT_OPEN'])
    // Nor through the sale path itself, were a game named to it: the selling hall is the session's (BNG-100).
    let charged = false
    await expect(
      server.services.paidSales.terminalCards({
        terminalId: tC.id,
        hallId: outside,
        gameId,
        count: 1,
        voucherId: 'none',
        pay: async () => {
          charged = true
          return { paymentRef: 'x', currency: 'BOB' }
        },
        hold: async () => {},
      }),
    ).rejects.toMatchObject({ code: 'WRONG_HALL' })
    expect(charged).toBe(false)
    expect((await api(server.url, 'GET', '/api/terminal/state', undefined, as(tC))).body.session.balanceCents).toBe(
      1000,
    )

    // Paper cards of both halls (BNG-21: the game needs ten), sold from each hall's range into the one game.
    const paperB = await bonus.sellInHall({ gameId, hallId: alto, count: 4, channel: 'counter' })
    await bonus.sellInHall({ gameId, hallId: central, count: 4, channel: 'counter' })
    const closed = await bingo.closeSales({ gameId })
    expect(closed.cardsSold).toBe(12)

    // The line: the first rows of a terminal card of each hall and of a paper card of El Alto.
    const line = [...new Set([...cardA.rows[0], ...cardB.rows[0], ...paperB[0].rows[0]].filter((n) => n > 0))]
    for (const n of line) await bingo.enterBall(gameId, n, extractorId)
    // Every ball reached both terminals' sockets, in order.
    await expect.poll(() => feedA.balls.length, { timeout: 10_000 }).toBe(line.length)
    await expect.poll(() => feedB.balls.length, { timeout: 10_000 }).toBe(line.length)
    expect(feedA.balls).toEqual(line)
    expect(feedB.balls).toEqual(line)
    // Each terminal's state shows the game's balls and its line card first, nothing missing.
    for (const [t, card] of [
      [tA, cardA],
      [tB, cardB],
    ] as const) {
      const s = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t))
      expect(s.body.game.balls).toEqual(line)
      expect(s.body.game.cards[0]).toMatchObject({ id: card.id, target: 'line', missing: [] })
    }
    // A terminal cannot claim the other hall's terminal card, nor the paper card.
    for (const cardId of [cardB.id, paperB[0].id]) {
      const r = await api(server.url, 'POST', '/api/terminal/claims', { cardId, kind: 'line' }, as(tA))
      expect([r.status, r.body.error.code]).toEqual([403, 'TERMINAL_CARD_NOT_HELD'])
    }
    for (const [t, card] of [
      [tA, cardA],
      [tB, cardB],
    ] as const) {
      const r = await api(server.url, 'POST', '/api/terminal/claims', { cardId: card.id, kind: 'line' }, as(t))
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.ok).toBe(true)
    }
    // The paper card's line is called at El Alto's table and verified by the central.
    expect((await bingo.claim({ gameId, serial: paperB[0].serial, kind: 'line' })).ok).toBe(true)
    await bingo.closeWindow(gameId)
    const state = await bingo.getGameState(gameId)
    const linePrizes = (await bingo.listPrizes(gameId)).filter((p) => p.kind === 'line')
    expect(linePrizes.map((p) => p.cardId).sort()).toEqual([cardA.id, cardB.id, paperB[0].id].sort())
    // One pool of the whole game's sales (12 cards of both halls), split three ways with no centavo lost.
    const amounts = linePrizes.map((p) => p.amountCents)
    expect(amounts.reduce((a, b) => a + b, 0)).toBe(Number(state.linePoolCents))
    expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1)
    // Credited at its award, with the bingo still to play: the central's terminal sees its share of the line at once.
    expect(state.status).toBe('drawing')
    const lineOfA = linePrizes.filter((p) => p.cardId === cardA.id).reduce((s, p) => s + Number(p.amountCents), 0)
    expect((await api(server.url, 'GET', '/api/terminal/state', undefined, as(tA))).body.session.wonCents).toBe(lineOfA)

    // The bingo: the rest of El Alto's terminal card, claimed with its button.
    const rest = cardB.rows.flat().filter((n) => n > 0 && !line.includes(n))
    for (const n of rest) await bingo.enterBall(gameId, n, extractorId)
    await expect.poll(() => feedB.balls.length, { timeout: 10_000 }).toBe(line.length + rest.length)
    expect(feedA.balls).toEqual([...line, ...rest])
    const claimed = await api(server.url, 'POST', '/api/terminal/claims', { cardId: cardB.id, kind: 'bingo' }, as(tB))
    expect(claimed.body.ok, JSON.stringify(claimed.body)).toBe(true)
    expect((await bingo.closeWindow(gameId)).status).toBe('finished')

    // Credited to each session once, the amounts the game awarded to its cards.
    const prizes = await bingo.listPrizes(gameId)
    const wonBy = (ids: string[]) => prizes.filter((p) => ids.includes(p.cardId)).reduce((s, p) => s + p.amountCents, 0)
    const idsA = (boughtA.body.game.cards as Card[]).map((c) => c.id)
    const idsB = (boughtB.body.game.cards as Card[]).map((c) => c.id)
    expect(wonBy(idsB)).toBeGreaterThan(Number(state.bingoPoolCents) - 1)
    for (const [t, ids, start] of [
      [tA, idsA, 2000],
      [tB, idsB, 1000],
    ] as const) {
      const s = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t))
      expect(s.body.session.wonCents).toBe(wonBy(ids))
      expect(s.body.session.balanceCents).toBe(start + wonBy(ids))
      const again = await api(server.url, 'GET', '/api/terminal/state', undefined, as(t))
      expect(again.body.session.balanceCents).toBe(start + wonBy(ids))
    }
    // Each credit is one payout of the card at its award, made to the terminal's session (no drawer, no shift):
    // El Alto's card won the line (credited in play) and the bingo (at the end), two payouts.
    const payouts = await db.all<{ card_id: string; payment_method: string; hall_id: string }>(
      'SELECT card_id, payment_method, hall_id FROM payouts WHERE game_id = ? AND card_id IN (?, ?)',
      [gameId, cardA.id, cardB.id],
    )
    // BNG-100: each payout records the hall that sold the card, not the central hall of the game.
    expect(new Set(payouts.filter((p) => p.card_id === cardB.id).map((p) => p.hall_id))).toEqual(new Set([alto]))
    expect(payouts.filter((p) => p.card_id === cardA.id).map((p) => p.hall_id)).toEqual([central])
    expect(payouts.map((p) => [p.card_id, p.payment_method]).sort()).toEqual(
      [
        [cardA.id, 'terminal'],
        [cardB.id, 'terminal'],
        [cardB.id, 'terminal'],
      ].sort(),
    )
    const v = await server.services.verifyJournal()
    expect(v.ok, JSON.stringify(v)).toBe(true)
  }, 120_000)

  it("paces the next interconnected game by the minimum duration of a joined hall's terms (BNG-101, CFG-33)", async () => {
    const { bingo, bonus, terminals } = server.services
    // El Alto's authority asks for 180 s between games with virtual cards; the central's asks for none.
    await terminals.setTerms({
      hallId: alto,
      reference: 'AJ-RND-2026-0118 (terminales)',
      terms: { ...terms, minGameSeconds: 180 },
      by: 'test',
    })
    const next = await bingo.announceGame({
      sessionId,
      seriesIds: [series[central]],
      drawSource: 'manual',
      deviceId: extractorId,
    })
    await bonus.joinGame({
      gameId: next.gameId,
      hallId: central,
      seriesId: series[central],
      fromCardNo: 50,
      toCardNo: 200,
    })
    await bonus.joinGame({ gameId: next.gameId, hallId: alto, seriesId: series[alto], fromCardNo: 250, toCardNo: 400 })
    await bingo.openSales(next.gameId)
    gameId = next.gameId
    await bonus.sellInHall({ gameId, hallId: central, count: 9, channel: 'counter' })
    const bought = await api(server.url, 'POST', '/api/terminal/cards', { count: 1 }, as(devices[`terminal-${alto}`]))
    expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    expect(bought.body.game.gameId).toBe(gameId)
    // The previous game in which El Alto's terminals held cards started moments ago: this one waits.
    await expect(bingo.closeSales({ gameId })).rejects.toMatchObject({
      code: 'TERMINAL_GAME_TOO_SOON',
      details: expect.objectContaining({ hallId: alto, minGameSeconds: 180 }),
    })
    expect((await bingo.getGameState(gameId)).status).toBe('on_sale')
  }, 60_000)

  it("offers the hall's own game and an interconnected one at once; the player chooses which to buy for (BNG-100)", async () => {
    const { bingo } = server.services
    const tA = devices[`terminal-${central}`]
    const tB = devices[`terminal-${alto}`]
    // The interconnected game is still on sale (the previous test held its start); El Alto opens its own game too.
    const { extractorId: altoDrum } = await equipForManualGames(server.services, alto)
    const altoSession = await bingo.openSession({ hallId: alto, recount: { ballsCounted: 90, confirmedBy: 'Jefe' } })
    const own = (
      await bingo.announceGame({
        sessionId: altoSession.id,
        seriesIds: [series[alto]],
        drawSource: 'manual',
        deviceId: altoDrum,
      })
    ).gameId
    await bingo.openSales(own)
    // The terminal's screen, a real socket.io client of its hall, is told of the new game on sale.
    const watcher = await feed(tB, alto)
    expect([gameId, own]).toContain(watcher.gameId)

    const state = await api(server.url, 'GET', '/api/terminal/state', undefined, as(tB))
    const offered = (state.body.games as Array<{ gameId: string; kind: string; hallCount: number; onSale: boolean }>)
      .map((g) => [g.gameId, g.kind, g.hallCount, g.onSale])
      .sort()
    expect(offered).toEqual(
      [
        [own, 'hall', 1, true],
        [gameId, 'interconnected', 2, true],
      ].sort(),
    )
    const balance = state.body.session.balanceCents as number
    const forOwn = await api(server.url, 'POST', '/api/terminal/cards', { count: 1, gameId: own }, as(tB))
    expect(forOwn.status, JSON.stringify(forOwn.body)).toBe(201)
    expect(forOwn.body.game.gameId).toBe(own)
    expect(forOwn.body.game.cards).toHaveLength(1)
    const forShared = await api(server.url, 'POST', '/api/terminal/cards', { count: 1, gameId }, as(tB))
    expect(forShared.status, JSON.stringify(forShared.body)).toBe(201)
    expect(forShared.body.game.gameId).toBe(gameId)
    expect(forShared.body.session.balanceCents).toBe(balance - 1000)
    const held = await server.services.db.all<{ game_id: string }>(
      'SELECT tc.game_id FROM terminal_cards tc JOIN terminal_sessions ts ON ts.id = tc.session_id WHERE ts.terminal_id = ? AND tc.game_id IN (?, ?)',
      [tB.id, own, gameId],
    )
    expect(held.map((h) => h.game_id).sort()).toEqual([own, gameId, gameId].sort())

    // The central's terminal is offered only the interconnected game, and cannot buy into El Alto's own.
    const central_ = await api(server.url, 'GET', '/api/terminal/state', undefined, as(tA))
    expect((central_.body.games as Array<{ gameId: string }>).map((g) => g.gameId)).not.toContain(own)
    const foreign = await api(server.url, 'POST', '/api/terminal/cards', { count: 1, gameId: own }, as(tA))
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'WRONG_HALL'])
    const unknown = await api(server.url, 'POST', '/api/terminal/cards', { count: 1, gameId: 'g_nope' }, as(tB))
    expect([unknown.status, unknown.body.error.code]).toEqual([403, 'WRONG_HALL'])
  }, 60_000)
})
