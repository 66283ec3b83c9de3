import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gameOnSale, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'

/**
 * BNG-56 (issue 18) over real HTTP with authentication on: a bingo called before any line. The line is formed on
 * every card whose row was drawn and not called by another player before (004 Bingo V.1.a, 002 §6.1.5), and 004
 * distributes 67 % of the face value in every game: the line pool goes to the bingo card(s) and to any card whose
 * line is claimed in the bingo window, in equal parts, and the minutes say so.
 */
describe('BNG-56: a bingo before any line still distributes the line pool', () => {
  let s: RulesServer
  beforeAll(async () => {
    s = await startRulesServer('2026-05-05T16:00:00.000Z')
  })
  afterAll(async () => s?.server.cleanup())

  const rowsOf = async (gameId: string, serial: string) =>
    (
      (await s.call('mesa1', 'GET', `/api/games/${gameId}/cards/${serial}`)).body.rows as Array<Array<number | null>>
    ).map((r) => r.filter((n): n is number => typeof n === 'number' && n > 0))

  it('splits the line pool among the bingo card and a line claimed in the bingo window (BNG-56, BNG-53)', async () => {
    const hall = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: 'Sala Castilla',
      seed: 'bng56',
      faceValueCents: 500,
    })
    const sessionId = await openSession(s, hall.hallId)
    const g = await gameOnSale(s, sessionId, [hall.seriesId], 3, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const [one, two] = [await rowsOf(g.gameId, g.serials[0]), await rowsOf(g.gameId, g.serials[1])]
    // Card 2's top row is drawn first (nobody calls it), then every number of card 1.
    const order = [...new Set([...two[0], ...one.flat()])]
    for (const ball of order)
      expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })).status).toBe(200)
    const bingo = await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, {
      kind: 'bingo',
      serial: g.serials[0],
    })
    expect(bingo.body.ok, JSON.stringify(bingo.body)).toBe(true)
    // "¿Alguna línea más?": the line never called is heard in the bingo window.
    const line = await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, {
      kind: 'line',
      serial: g.serials[1],
    })
    expect(line.body.ok, JSON.stringify(line.body)).toBe(true)
    const closed = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(closed.body.status).toBe('finished')
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/prizes`)).body.prizes as Array<{
      kind: string
      serial: string
      amount_cents: number
    }>
    const of = (kind: string) =>
      prizes
        .filter((p) => p.kind === kind)
        .map((p) => [p.serial, Number(p.amount_cents)])
        .sort()
    // 3 cards x 5.00: line 10 % = 1.50 in two equal parts; bingo 51 % = 7.65.
    expect(of('line')).toEqual([
      [g.serials[0], 75],
      [g.serials[1], 75],
    ])
    expect(of('bingo')).toEqual([[g.serials[0], 765]])
    const minutes = (await s.call('mesa1', 'GET', `/api/sessions/${sessionId}/minutes`)).body
    const game = minutes.games.find((x: { gameId: string }) => x.gameId === g.gameId)
    expect(game.lineAtBingo).toMatch(/BNG-56/)
    expect(game.winners.filter((w: { kind: string }) => w.kind === 'line')).toHaveLength(2)
  })
})
