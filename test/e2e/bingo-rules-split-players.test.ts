import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'

/**
 * Issue 26, BNG-53 / CFG-26, over HTTP with authentication on: in Bolivia (002 §6.1.8.3) a line or bingo prize is
 * split "entre los jugadores que lo obtengan": player A with two winning cards and player B with one take equal
 * parts, A's part then split between A's cards. Both routes that split a pool are driven: the bingo window's close,
 * and the line formed at the bingo (no line was called before). In Cantabria (004 Bingo III) the split stays per card.
 */
describe('prizes split among players where 002 says so (BNG-53, CFG-26)', () => {
  let s: RulesServer
  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
  })
  afterAll(async () => s?.server.cleanup())

  /** Cards at 10.00: two to one player, one to another; their numbers drawn; their three bingos called. */
  async function threeWinners(profileId: 'BO-2025' | 'ES-CB-2010', seed: string) {
    const hall = await hallWithSeries(s, { profileId, name: `Sala ${seed}`, seed, faceValueCents: 1_000 })
    if (profileId === 'BO-2025')
      expect((await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/auto-claim`, { autoClaim: false })).status).toBe(
        200,
      )
    const sessionId = await openSession(s, hall.hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [hall.seriesId],
      drawSource: 'manual',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const till = await s.till(hall.hallId)
    const sell = async (count: number, playerDocument: string) => {
      const r = await api(
        s.server.url,
        'POST',
        `/api/games/${gameId}/sales`,
        { ageConfirmed: true, count, playerDocument },
        till.headers,
      )
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      return r.body.cards.map((c: { serial: string }) => c.serial) as string[]
    }
    const a = await sell(2, profileId === 'BO-2025' ? '4567890 LP' : '12345678Z')
    const b = await sell(1, profileId === 'BO-2025' ? '7654321 CB' : '87654321X')
    // BNG-21 (Bolivia): at least 10 cards; seven more to an anonymous buyer, whose cards nobody calls.
    if (profileId === 'BO-2025') {
      const r = await api(
        s.server.url,
        'POST',
        `/api/games/${gameId}/sales`,
        { ageConfirmed: true, count: 7 },
        till.headers,
      )
      expect(r.status, JSON.stringify(r.body)).toBe(201)
    }
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})).status).toBe(200)
    const balls = new Set<number>()
    for (const serial of [...a, ...b]) {
      const card = await s.server.services.db.get<{ numbers: string }>(
        'SELECT numbers FROM cards WHERE game_id = ? AND serial = ?',
        [gameId, serial],
      )
      for (const n of (JSON.parse(card!.numbers) as number[][]).flat()) if (n > 0) balls.add(n)
    }
    for (const ball of balls) {
      const r = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
    }
    for (const serial of [...a, ...b]) {
      const c = await s.call('locutor', 'POST', `/api/games/${gameId}/claims`, { kind: 'bingo', serial })
      expect(c.body.ok, JSON.stringify(c.body)).toBe(true)
    }
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})).status).toBe(200)
    const prizes = await s.server.services.db.all<{ serial: string; kind: string; amount_cents: number }>(
      'SELECT c.serial, p.kind, p.amount_cents FROM prizes p JOIN cards c ON c.id = p.card_id WHERE p.game_id = ? ORDER BY p.kind, c.serial',
      [gameId],
    )
    const of = (kind: string, serial: string) =>
      Number(prizes.find((p) => p.kind === kind && p.serial === serial)?.amount_cents)
    return { a, b, of }
  }

  it('Bolivia: the bingo and the line formed at the bingo go half to each player, then per card', async () => {
    const { a, b, of } = await threeWinners('BO-2025', 'split-bo')
    // 10 cards x 10.00 = 100.00: bingo 51 % = 51.00 -> 25.50 to each player; A's 25.50 = 12.75 + 12.75
    // (per card it would be 17.00 each: A 34.00, B 17.00).
    expect(of('bingo', b[0])).toBe(2_550)
    expect([of('bingo', a[0]), of('bingo', a[1])]).toEqual([1_275, 1_275])
    // Line 10 % = 10.00 -> 5.00 to each player.
    expect(of('line', b[0])).toBe(500)
    expect([of('line', a[0]), of('line', a[1])]).toEqual([250, 250])
  })

  it('Cantabria: per winning card', async () => {
    const { a, b, of } = await threeWinners('ES-CB-2010', 'split-es')
    // 30.00: bingo 51 % = 15.30 -> 5.10 per card; line 10 % = 3.00 -> 1.00 per card.
    for (const serial of [...a, ...b]) {
      expect(of('bingo', serial)).toBe(510)
      expect(of('line', serial)).toBe(100)
    }
  })
})
