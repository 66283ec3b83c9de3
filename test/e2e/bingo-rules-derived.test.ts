import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import {
  hallWithSeries,
  secondPerson,
  registerBallSets,
  registerExtractor,
  startRulesServer,
  voidBeforeFirstBall,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * Issue 26, BNG-102 / CFG-34 (004 Bingo VI.3), over HTTP with authentication on, in a Cantabrian hall: a game played
 * on a derived version's cards pays that version's predetermined prizes, fixed when the game is announced, and not
 * the ordinary line 10 % + bingo 51 % (61 %, below the 67 % minimum): an instant version's fixed amounts whatever
 * the sales, a deferred version's shares of the sales; the prize percentage is never below the Consejería minimum.
 */
describe('derived bingo pays its version (BNG-102, CFG-34)', () => {
  let s: RulesServer
  let hallId: string

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    ;({ hallId } = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Derivada', seed: 'derived-pays' }))
  })
  afterAll(async () => s?.server.cleanup())

  /** Records the version, prints its cards, puts them on sale in a game, sells `cards` at 1.00 and closes. */
  async function derivedGame(
    plan: Record<string, unknown>,
    params: { ballCount: number; rows: number; perRow: number },
    code: string,
    cards: number,
  ) {
    // The hall's balls for this game (BNG-23): a set of the version's count, and its drum.
    ;({ hallId } = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: `Sala Derivada ${code}`,
      seed: `derived-hall-${code}`,
      noBallSets: true,
    }))
    const v = await s.call('jefa', 'PUT', `/api/halls/${hallId}/derived-plan`, plan)
    expect(v.status, JSON.stringify(v.body)).toBe(200)
    await registerBallSets(s, hallId, { ballCount: params.ballCount })
    await registerExtractor(s, hallId)
    const opened = await s.call(
      'mesa1',
      'POST',
      `/api/halls/${hallId}/sessions`,
      {
        recount: { ballsCounted: params.ballCount },
        checklist: { extractor: true, cctv: true, displays: true, sound: true },
      },
      secondPerson('jefa'),
    )
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    const sessionId = opened.body.id as string
    const set = await s.call('jefa', 'POST', '/api/master-sets/modality', {
      modality: 'derived',
      count: 200,
      seed: `derived-${code}`,
      params,
    })
    expect(set.status, JSON.stringify(set.body)).toBe(201)
    const series = await s.call('jefa', 'POST', `/api/halls/${hallId}/series`, {
      code,
      masterSetId: set.body.id,
      faceValueCents: 100,
    })
    expect(series.status, JSON.stringify(series.body)).toBe(201)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [series.body.id],
      drawSource: 'manual',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const sold = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: cards },
      (await s.till(hallId)).headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const closed = await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    const announced = await s.server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'game.announced' AND payload LIKE ?",
      [`%${gameId}%`],
    )
    return { gameId, closed: closed.body, announced: JSON.parse(announced!.payload) }
  }

  it('an instant version pays its fixed prizes whatever the sales, announced before the game', async () => {
    const g = await derivedGame(
      {
        authorisationRef: 'Res. Consejería 9/2026',
        version: 'instant',
        ballCount: 48,
        rows: 2,
        perRow: 4,
        prizePercentBp: 7000,
        prizes: [
          { name: 'Fila', combination: 'una fila completa', wins: 'line', shareBp: 1000, fixedCents: 1_000 },
          { name: 'Cartón', combination: 'los 8 números', wins: 'bingo', shareBp: 6000, stakeMultiple: 20 },
        ],
      },
      { ballCount: 48, rows: 2, perRow: 4 },
      'D',
      10,
    )
    // 10 cards x 1.00: the fixed 10.00 and 20 x 1.00 = 20.00 (not 10 % = 1.00 and 51 % = 5.10 of the ordinary game).
    expect(g.closed).toMatchObject({ linePoolCents: 1_000, bingoPoolCents: 2_000 })
    expect(g.announced.derived).toMatchObject({
      authorisationRef: 'Res. Consejería 9/2026',
      version: 'instant',
      prizePercentBp: 7000,
      prizes: [
        { wins: 'line', fixedCents: 1_000 },
        { wins: 'bingo', stakeMultiple: 20 },
      ],
    })
    expect((await s.call('mesa1', 'GET', `/api/games/${g.gameId}`)).body).toMatchObject({
      linePoolCents: 1_000,
      bingoPoolCents: 2_000,
    })
    await voidBeforeFirstBall(s, g.gameId)
  })

  it('a deferred version pays its shares of the sales (70 %, not the ordinary 61 %)', async () => {
    const g = await derivedGame(
      {
        authorisationRef: 'Res. Consejería 10/2026',
        version: 'deferred',
        ballCount: 60,
        rows: 2,
        perRow: 5,
        prizePercentBp: 7000,
        prizes: [
          { name: 'Fila', combination: 'una fila completa', wins: 'line', shareBp: 1500 },
          { name: 'Cartón', combination: 'los 10 números', wins: 'bingo', shareBp: 5500 },
        ],
        window: { games: 10 },
      },
      { ballCount: 60, rows: 2, perRow: 5 },
      'E',
      40,
    )
    // 40 cards x 1.00 = 40.00: line 15 % = 6.00, bingo 55 % = 22.00 (together 70 % >= the 67 % minimum).
    expect(g.closed).toMatchObject({ linePoolCents: 600, bingoPoolCents: 2_200 })
    expect(g.announced).toMatchObject({ lineBp: 1500, bingoBp: 5500, derived: { version: 'deferred' } })
    await voidBeforeFirstBall(s, g.gameId)
  })

  it('a version below the Consejería minimum (67 %) is never recorded, so never played', async () => {
    const low = await s.call('jefa', 'PUT', `/api/halls/${hallId}/derived-plan`, {
      authorisationRef: 'Res. Consejería 11/2026',
      version: 'deferred',
      ballCount: 48,
      rows: 2,
      perRow: 4,
      prizePercentBp: 6100,
      prizes: [
        { name: 'Fila', combination: 'una fila', wins: 'line', shareBp: 1000 },
        { name: 'Cartón', combination: 'los 8 números', wins: 'bingo', shareBp: 5100 },
      ],
      window: { games: 10 },
    })
    expect(low.status).toBe(400)
    expect(low.body.error.details).toMatchObject({ rule: 'BNG-102' })
  })
})
