import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { checkExport } from '../../server/src/regulator-check/check.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { PASSWORD, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { chosenNumbersHall } from '../helpers/chosen-hall.ts'

/**
 * BNG-98 / CFG-32 (002 §6.1.9, bingo rápido): "uno o varios jugadores deben elegir y adquirir uno o más números ...
 * entre un universo de números", over HTTP with authentication on, enrolled devices and real credentials. A hall
 * whose AJ Operating Licence sets chosen numbers, 3 of 5 on 1..30: the buyer says his numbers at the counter and
 * taps them at the kiosk; each card holds, answers and prints those numbers under the series' next correlative
 * number; BNG-13 ("en ningún caso podrán venderse en la misma partida dos cartones iguales") refuses a combination
 * already sold, nothing sold and no money moved; the table and the terminals, where nobody says his numbers, are
 * refused; the draw pays at the ball that draws a card's 3rd chosen number, and the regulator's checker agrees.
 */
describe('fast bingo with numbers the player chooses (BNG-98, CFG-32, BNG-13)', () => {
  let s: RulesServer
  const chosenThreeOfFive = { universe: 30, picks: 5, timesRequired: 3, playerChooses: true }
  const es = { 'accept-language': 'es' }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-27T18:00:00Z')
  })
  afterAll(async () => s?.server.cleanup())

  /** A Bolivian hall with 30-ball sets, a fast series of 5 on 1..30, its licence's terms and an open session. */
  const fastHall = (code: string, fastBingo: typeof chosenThreeOfFive) =>
    chosenNumbersHall(s, { code, ...fastBingo, autoClaims: true, count: 200 })

  const one = async <T>(sql: string, params: unknown[]) => (await s.server.services.db.get<T>(sql, params))!
  const cardsSold = async (gameId: string) =>
    Number((await s.call('auditor', 'GET', `/api/games/${gameId}`)).body.cardsSold)
  const payments = async (hallId: string) =>
    Number((await one<{ n: number | string }>('SELECT COUNT(*) AS n FROM sale_payments WHERE hall_id = ?', [hallId])).n)
  const rowsOf = async (gameId: string, serial: string) =>
    (
      (await s.call('mesa1', 'GET', `/api/games/${gameId}/cards/${serial}`)).body.rows as Array<Array<number | null>>
    ).map((r) => r.filter((n): n is number => typeof n === 'number' && n > 0))

  it('the counter and the kiosk sell the numbers chosen; a combination sold is refused; table and terminal refused; the 3rd pick drawn pays', async () => {
    const h = await fastHall('E', chosenThreeOfFive)
    const terms = await s.call('jefa', 'PUT', `/api/halls/${h.hallId}/terminal-terms`, {
      reference: 'AJ-RND-2026-0117 (terminales de bingo)',
      terms: {
        markingMode: 'automatic',
        maxCardCents: 600,
        maxGameCents: 5000,
        maxSessionCents: 10000,
        minGameSeconds: 0,
        prizeReturnBp: { min: 6000, max: 8500 },
        terminalRangePercent: 25,
        onDisconnect: 'play-on-credit',
      },
    })
    expect(terms.status, JSON.stringify(terms.body)).toBe(200)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${h.sessionId}/games`, {
      seriesIds: [h.seriesId],
      drawSource: 'manual',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    // The game records the licence's terms when it is announced (journal) and plays them (its sealed layout).
    const announced = JSON.parse(
      (
        await one<{ payload: string }>("SELECT payload FROM journal WHERE type = 'game.announced' AND payload LIKE ?", [
          `%${gameId}%`,
        ])
      ).payload,
    )
    expect(announced.fastBingo).toMatchObject({
      universe: 30,
      picks: 5,
      timesRequired: 3,
      playerChooses: true,
      licence: { authorisationRef: 'AJ-LO-ELEGIDOS-E' },
    })
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const counter: Till = await openTill(s.server.url, s.server.services, {
      hallId: h.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    const kiosk = await s.server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'kiosk',
      name: 'Kiosco 1',
      hallId: h.hallId,
    })
    const terminal = await s.server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'terminal',
      name: 'Terminal 1',
      hallId: h.hallId,
    })
    const asKiosk = { ...es, authorization: `Device ${kiosk.credential}` }
    const vouchers = [
      await sellVoucher(s.server.url, h.hallId, 1_000, {}, counter.headers),
      await sellVoucher(s.server.url, h.hallId, 1_000, {}, counter.headers),
    ]
    const atCounter = (body: Record<string, unknown>, headers = counter.headers) =>
      api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 1, ...body }, headers)
    const atKiosk = (voucherCode: string, cards: Record<string, unknown>) =>
      api(
        s.server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode, ageConfirmed: true, cards: { gameId, count: 1, ...cards } },
        asKiosk,
      )
    const voucherStatus = async (code: string) => {
      const r = await s.call('jefa', 'POST', '/api/vouchers/check', { code })
      return r.body.status ?? r.body.voucher?.status
    }

    // The offer tells the kiosk how many numbers to choose, of what universe.
    const offer = await api(s.server.url, 'GET', `/api/kiosk/halls/${h.hallId}/offer`, undefined, asKiosk)
    expect(offer.status, JSON.stringify(offer.body)).toBe(200)
    expect(offer.body.game.chosenNumbers).toEqual({ universe: 30, picks: 5, timesRequired: 3 })
    // The game's state tells the counter's screen the same, to ask the seller for the buyer's numbers.
    expect((await s.call('cajera', 'GET', `/api/games/${gameId}`)).body.chosenNumbers).toEqual({
      universe: 30,
      picks: 5,
      timesRequired: 3,
    })

    // The counter: the cashier types the buyer's numbers (in any order); the card holds them, sorted.
    const sold = await atCounter({ picks: [[22, 3, 30, 17, 9]] })
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const counterCard = sold.body.cards[0] as { serial: string; cardNo: number; grid: number[][]; code: string }
    expect(counterCard.serial).toBe('E-00001')
    expect(counterCard.grid).toEqual([[3, 9, 17, 22, 30]])
    expect(await rowsOf(gameId, counterCard.serial)).toEqual([[3, 9, 17, 22, 30]])
    // The kiosk: the player's numbers, anywhere in 1..30 (five of the first band: no printed fast card has them).
    const k = await atKiosk(vouchers[0].code, { picks: [[5, 4, 3, 2, 1]] })
    expect(k.status, JSON.stringify(k.body)).toBe(201)
    expect(k.body.cards.map((c: { serial: string }) => c.serial)).toEqual(['E-00002'])
    expect(k.body.cards[0].grid).toEqual([[1, 2, 3, 4, 5]])
    expect(await rowsOf(gameId, 'E-00002')).toEqual([[1, 2, 3, 4, 5]])
    expect(await voucherStatus(vouchers[0].code)).not.toBe('active')
    // The sale's journal record carries the numbers sold.
    const journaled = await s.server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'cards.sold' AND payload LIKE ? ORDER BY seq",
      [`%${gameId}%`],
    )
    expect(journaled.map((r) => JSON.parse(r.payload).chosenNumbers)).toEqual([[[3, 9, 17, 22, 30]], [[1, 2, 3, 4, 5]]])
    expect(await cardsSold(gameId)).toBe(2)
    const paidBefore = await payments(h.hallId)

    // BNG-13: the same combination again, at the counter, at the kiosk, or twice in one purchase: nothing sold.
    for (const r of [
      await atCounter({ picks: [[30, 22, 17, 9, 3]] }),
      await atKiosk(vouchers[1].code, { picks: [[1, 2, 3, 4, 5]] }),
      await atCounter({
        count: 2,
        picks: [
          [6, 7, 8, 9, 10],
          [10, 9, 8, 7, 6],
        ],
      }),
    ]) {
      expect(r.status, JSON.stringify(r.body)).toBe(409)
      expect(r.body.error.code).toBe('NUMBERS_TAKEN')
      expect(r.body.error.message).toMatch(/elija otros números/)
      expect(r.body.error.details.rule).toBe('BNG-13')
    }
    expect(await voucherStatus(vouchers[1].code)).toBe('active')
    expect(await cardsSold(gameId)).toBe(2)
    expect(await payments(h.hallId)).toBe(paidBefore)

    // Bad numbers: none, a number twice, out of the universe, four instead of five; 422 with the field.
    for (const [body, field] of [
      [{}, 'picks'],
      [{ picks: [[1, 1, 2, 3, 4]] }, 'picks.0'],
      [{ picks: [[0, 6, 7, 8, 9]] }, 'picks.0'],
      [{ picks: [[31, 6, 7, 8, 9]] }, 'picks.0'],
      [{ picks: [[6, 7, 8, 9]] }, 'picks.0'],
      [{ picks: [[6, 7, 8, 9, 10]], count: 2 }, 'picks'],
    ] as const) {
      const r = await atCounter(body)
      expect(r.status, JSON.stringify(r.body)).toBe(422)
      expect(r.body.error).toMatchObject({ code: 'CHOSEN_NUMBERS_INVALID', details: { field, rule: 'BNG-98' } })
    }
    const kioskBad = await atKiosk(vouchers[1].code, { picks: [[6, 7, 8, 9, 99]] })
    expect(kioskBad.status, JSON.stringify(kioskBad.body)).toBe(422)
    expect(kioskBad.body.error.code).toBe('CHOSEN_NUMBERS_INVALID')

    // The caller's table sells printed cards, a terminal virtual ones from its range: neither sells this game.
    const table = await atCounter({ picks: [[11, 12, 13, 14, 15]] }, (await s.till(h.hallId)).headers)
    expect(table.status, JSON.stringify(table.body)).toBe(409)
    expect(table.body.error).toMatchObject({ code: 'CHOSEN_NUMBERS_CHANNEL', details: { channel: 'table' } })
    expect(table.body.error.message).toMatch(/solo en caja o en el quiosco/)
    const asTerminal = { ...es, authorization: `Device ${terminal.credential}` }
    const opened = await api(
      s.server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: (await sellVoucher(s.server.url, h.hallId, 5_000, {}, counter.headers)).code },
      asTerminal,
    )
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    const term = await api(s.server.url, 'POST', '/api/terminal/cards', { count: 1 }, asTerminal)
    expect(term.status, JSON.stringify(term.body)).toBe(409)
    expect(term.body.error).toMatchObject({ code: 'CHOSEN_NUMBERS_CHANNEL', details: { channel: 'terminal' } })
    expect(await cardsSold(gameId)).toBe(2)
    expect(await payments(h.hallId)).toBe(paidBefore)

    // BNG-21: the game's minimum participation (10 cards); eight more, none holding 3, 9 or 17.
    const more = await atCounter({ count: 8, picks: Array.from({ length: 8 }, (_, i) => [10, 11, 12, 13, 18 + i]) })
    expect(more.status, JSON.stringify(more.body)).toBe(201)
    expect(more.body.cards.map((c: { serial: string }) => c.serial).at(-1)).toBe('E-00010')

    // The draw: 3 and 9 are two of the counter card's numbers (and 3 one of the kiosk card's); 17 is its third.
    const closedSales = await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})
    expect(closedSales.status, JSON.stringify(closedSales.body)).toBe(200)
    for (const ball of [3, 9]) {
      const r = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
    }
    expect((await s.call('mesa1', 'GET', `/api/games/${gameId}`)).body.status).not.toBe('bingo_window')
    expect((await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: 17 })).status).toBe(200)
    expect((await s.call('mesa1', 'GET', `/api/games/${gameId}`)).body.status).toBe('bingo_window')
    const closed = await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})
    expect(closed.body.status, JSON.stringify(closed.body)).toBe('finished')
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${gameId}/prizes`)).body.prizes as Array<{
      kind: string
      serial: string
    }>
    expect(prizes.filter((p) => p.kind === 'bingo').map((p) => p.serial)).toEqual(['E-00001'])
    const wins = await s.server.services.db.all<{ at_ball: number | string }>(
      "SELECT at_ball FROM claims WHERE game_id = ? AND kind = 'bingo' AND status = 'verified'",
      [gameId],
    )
    expect(wins.map((w) => Number(w.at_ball))).toEqual([3])
    // The regulator's checker replays the game from the control feed: the chosen cards, 3 of 5, the same winner.
    await s.server.services.regulator.tick()
    const dir = mkdtempSync(join(tmpdir(), 'bolillo-chosen-feed-'))
    try {
      await s.server.services.regulator.exportTo(dir)
      const report = checkExport(dir, { publicKeyPem: s.server.services.keys.publicInfo().publicKeyPem })
      expect(report.differences).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a licence without chosen numbers: a game asking for them is refused naming the licence, and its cards take no numbers', async () => {
    const h = await fastHall('F', { ...chosenThreeOfFive, playerChooses: false })
    const asked = await s.call('mesa1', 'POST', `/api/sessions/${h.sessionId}/games`, {
      seriesIds: [h.seriesId],
      drawSource: 'manual',
      fastBingo: { playerChooses: true },
    })
    expect(asked.status, JSON.stringify(asked.body)).toBe(422)
    expect(asked.body.error).toMatchObject({
      code: 'RULE_DISABLED',
      details: { rule: 'BNG-98', licence: 'AJ-LO-ELEGIDOS-F' },
    })
    const g = await s.call('mesa1', 'POST', `/api/sessions/${h.sessionId}/games`, {
      seriesIds: [h.seriesId],
      drawSource: 'manual',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    // Printed cards: the counter's screen asks for a count, not for numbers.
    expect((await s.call('cajera', 'GET', `/api/games/${gameId}`)).body.chosenNumbers).toBeNull()
    const counter = await openTill(s.server.url, s.server.services, {
      hallId: h.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja F',
    })
    const r = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 1, picks: [[1, 2, 3, 4, 5]] },
      counter.headers,
    )
    expect(r.status, JSON.stringify(r.body)).toBe(422)
    expect(r.body.error).toMatchObject({ code: 'CHOSEN_NUMBERS_INVALID', details: { field: 'picks' } })
    expect(await cardsSold(gameId)).toBe(0)
    expect(await payments(h.hallId)).toBe(0)
  })
})
