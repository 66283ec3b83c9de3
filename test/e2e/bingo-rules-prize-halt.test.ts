import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { winningCodes } from '../helpers/cashdesk.ts'
import {
  PASSWORD,
  gameOnSale,
  hallWithSeries,
  openSession,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * BNG-71 (004 Bingo V.3: prizes paid "a la terminación de cada partida, siempre antes de comenzar la siguiente ...
 * contra la entrega de los correspondientes cartones, que habrán de presentarse íntegros y sin manipulaciones"),
 * BNG-91 (004 Bingo II.1.a) and BNG-92 (002 §6.1.7), over real HTTP with authentication on, in a Cantabrian hall
 * (prizes paid before the next game): no hall halts for good. A winning card found altered forfeits its prize for
 * good (released or not, never paid); a winner who does not present the card is recorded as such by the jefe de mesa,
 * the next game starts, and the prize stays payable against the intact card.
 */
describe('BNG-71: no hall halts for good on an unpaid prize', () => {
  let s: RulesServer
  let cashier: Till
  let hallId: string
  let seriesId: string
  let sessionId: string
  const asCashier = (method: string, path: string, b?: unknown) => api(s.server.url, method, path, b, cashier.headers)
  const payee = { payeeName: 'Juana Flores Soto', payeeDocument: '72000111X' }
  const announce = () =>
    s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [seriesId], drawSource: 'manual' })
  /** Cantabria draws by hand (BNG-1): the balls of the first card sold, its bingo sung and verified. */
  async function playManual(gameId: string, serial: string) {
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})).status).toBe(200)
    const card = await s.server.services.db.get<{ numbers: string }>(
      'SELECT numbers FROM cards WHERE game_id = ? AND serial = ?',
      [gameId, serial],
    )
    for (const ball of (JSON.parse(card!.numbers) as number[][]).flat().filter((n) => n > 0))
      await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball })
    const claim = await s.call('locutor', 'POST', `/api/games/${gameId}/claims`, { kind: 'bingo', serial })
    expect(claim.body.ok, JSON.stringify(claim.body)).toBe(true)
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})).status).toBe(200)
  }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    ;({ hallId, seriesId } = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: 'Sala Pereda',
      seed: 'halt',
      cards: 400,
    }))
    sessionId = await openSession(s, hallId)
    cashier = await openTill(s.server.url, s.server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
    })
  })
  afterAll(async () => s?.server.cleanup())

  it('an altered winning card forfeits its prize (BNG-91/92): the next game is not halted by it, and after the director releases the card it is still not paid', async () => {
    const g = await gameOnSale(s, sessionId, [seriesId], 40, 'manual')
    await playManual(g.gameId, g.serials[0])
    const winners = await winningCodes(s.server.services, g.gameId)
    expect(winners.length).toBeGreaterThan(0)
    // Every prize unpaid: the next game waits (BNG-71).
    const halted = await announce()
    expect(halted.status).toBe(409)
    expect(halted.body.error.code).toBe('PRIZES_UNPAID')
    // Each winning card is presented burnt or over-marked, and held (BNG-92).
    for (const w of winners) {
      const held = await asCashier('POST', '/api/tickets/tampered', {
        code: w.code,
        reason: 'damaged',
        note: 'cartón quemado',
      })
      expect(held.status, JSON.stringify(held.body)).toBe(201)
    }
    const journal = await s.server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'prize.forfeited'",
    )
    expect(journal).toHaveLength(winners.length)
    expect(JSON.parse(journal[0].payload)).toMatchObject({ rule: 'BNG-92', reason: 'tampered:damaged' })
    // The hall goes on: nothing payable is left of game 1.
    const next = await announce()
    expect(next.status, JSON.stringify(next.body)).toBe(201)
    // The director releases a card on the authority's decision: its prize stays forfeited, nothing leaves the drawer.
    const w = winners[0]
    const released = await s.call('jefa', 'POST', '/api/cards/release', {
      code: w.code,
      reason: 'devuelto por la AJ',
      authorityRef: 'AJ/DJ/RES/77/2026',
    })
    expect(released.status, JSON.stringify(released.body)).toBe(200)
    const scan = await asCashier('POST', '/api/tickets/validate', { code: w.code })
    expect(scan.body.status).toBe('forfeited')
    expect(scan.body.view).toMatchObject({ verdict: 'void', amountCents: 0 })
    const pay = await asCashier('POST', '/api/tickets/pay', { code: w.code, ...payee })
    expect(pay.status).toBe(409)
    expect(pay.body.error.code).toBe('PRIZE_FORFEITED')
    expect(pay.body.error.message).toMatch(/no es válido/)
    expect(
      Number(
        (await s.server.services.db.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM cash_movements WHERE kind = 'prize_payout' AND shift_id = ?",
          [cashier.shiftId],
        ))!.n,
      ),
    ).toBe(0)
    // The game announced above is played to its end for the next test.
    expect((await s.call('mesa1', 'POST', `/api/games/${next.body.gameId}/sales/open`)).status).toBe(200)
    const sold = await api(
      s.server.url,
      'POST',
      `/api/games/${next.body.gameId}/sales`,
      { ageConfirmed: true, count: 40 },
      (await s.till(hallId)).headers,
    )
    expect(sold.status).toBe(201)
    await playManual(next.body.gameId, sold.body.cards[0].serial)
  })

  it('a winner who does not present the card: the jefe de mesa records it with a note (not the caller, cashier or a kiosk), the next game starts, and the prize is paid later against the card', async () => {
    const last = (await s.server.services.db.get<{ id: string }>(
      "SELECT id FROM games WHERE session_id = ? AND status = 'finished' ORDER BY order_no DESC LIMIT 1",
      [sessionId],
    ))!.id
    const winners = await winningCodes(s.server.services, last)
    expect((await announce()).body.error.code).toBe('PRIZES_UNPAID')
    const path = `/api/games/${last}/prizes/not-presented`
    const note = { note: 'El ganador abandonó la sala sin presentar el cartón' }
    expect((await s.call('mesa1', 'POST', path, { note: '' })).status).toBe(400)
    for (const who of ['locutor', 'cajera', 'auditor'] as const)
      expect((await s.call(who, 'POST', path, note)).status, who).toBe(403)
    const kiosk = await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId })
    expect((await api(s.server.url, 'POST', path, note, { authorization: `Device ${kiosk.credential}` })).status).toBe(
      403,
    )
    const rec = await s.call('mesa1', 'POST', path, note)
    expect(rec.status, JSON.stringify(rec.body)).toBe(200)
    expect(rec.body.prizes.length).toBeGreaterThan(0)
    expect((await s.call('mesa1', 'POST', path, note)).status).toBe(409)
    const next = await announce()
    expect(next.status, JSON.stringify(next.body)).toBe(201)
    // Still payable against the intact card, out of the drawer.
    for (const w of winners) {
      const paid = await asCashier('POST', '/api/tickets/pay', { code: w.code, ...payee })
      expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    }
    const journal = await s.server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'prize.not_presented' ORDER BY seq DESC LIMIT 1",
    )
    expect(JSON.parse(journal!.payload)).toMatchObject({
      gameId: last,
      rule: 'BNG-71',
      actor: { role: 'floor_manager' },
    })
  })
})
