import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'

/**
 * Issue 26, BNG-58 / BNG-62 (004 Bingo V.2.a), over HTTP with authentication on, in Cantabrian halls:
 * - the prima's ball 50 and +1 ball per unwon game are the decree's: no hall changes them;
 * - its 6 % deduction changes only under a Consejería resolution, whose reference the change gives;
 * - a simultaneous game (BNG-100) is an ordinary game played in several halls: each hall's sales fund its prima.
 */
describe('the prima keeps the decree values and every game funds it (BNG-58, BNG-62)', () => {
  let s: RulesServer
  let central: { hallId: string; masterSetId: string; seriesId: string }
  let other: { hallId: string; seriesId: string }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    central = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: 'Sala Central',
      seed: 'prima-fixed',
      cards: 600,
      faceValueCents: 100,
    })
    const hall = await s.call('jefa', 'POST', '/api/halls', {
      name: 'Sala Torrelavega',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 200,
    })
    expect(hall.status, JSON.stringify(hall.body)).toBe(201)
    const series = await s.call('jefa', 'POST', `/api/halls/${hall.body.id}/series`, {
      code: 'B',
      masterSetId: central.masterSetId,
      faceValueCents: 100,
    })
    expect(series.status, JSON.stringify(series.body)).toBe(201)
    other = { hallId: hall.body.id, seriesId: series.body.id }
  })
  afterAll(async () => s?.server.cleanup())

  it('BNG-62, CFG-29: the director cannot move the ball limit (50) or its growth (+1), not even with a reference', async () => {
    const put = (b: object) =>
      s.call('jefa', 'PUT', `/api/halls/${central.hallId}/prima`, { amountsCents: [5_000], ...b })
    for (const b of [
      { baseBallLimit: 20 },
      { incrementPerGame: 0 },
      { baseBallLimit: 20, incrementPerGame: 0, resolutionRef: 'RES-CONSEJERIA-2026-7' },
    ]) {
      const r = await put(b)
      expect(r.status, JSON.stringify(b)).toBe(422)
      expect(r.body.error.code).toBe('REGULATOR_REF_REQUIRED')
    }
    const ok = await put({})
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.rules).toMatchObject({ baseBallLimit: 50, incrementPerGame: 1, deductionBp: 600 })
    expect(ok.body.next.ballLimit).toBe(50)
  })

  it('BNG-58: the 6 % deduction changes only with the Consejería resolution, which the journal keeps', async () => {
    const put = (b: object) =>
      s.call('jefa', 'PUT', `/api/halls/${other.hallId}/prima`, { amountsCents: [5_000], ...b })
    const zero = await put({ deductionBp: 0 })
    expect(zero.status).toBe(422)
    expect(zero.body.error.code).toBe('REGULATOR_REF_REQUIRED')
    expect((await put({ deductionBp: 500 })).body.error.code).toBe('REGULATOR_REF_REQUIRED')
    const resolved = await put({ deductionBp: 500, resolutionRef: 'RES-CONSEJERIA-2026-7' })
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200)
    expect(resolved.body.rules.deductionBp).toBe(500)
    const rec = await s.server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'prima.configured' AND payload LIKE ? ORDER BY seq DESC LIMIT 1",
      [`%${other.hallId}%`],
    )
    expect(JSON.parse(rec!.payload).resolutionRef).toBe('RES-CONSEJERIA-2026-7')
    // Back to the decree's 6 %: no reference needed to return to the standard.
    const back = await put({ deductionBp: 600 })
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(back.body.rules.deductionBp).toBe(600)
  })

  it('BNG-58 with BNG-100: a simultaneous game deducts 6 % of each hall’s sales into that hall’s prima fund', async () => {
    const sessionId = await openSession(s, central.hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [central.seriesId],
      drawSource: 'manual',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    for (const [hallId, seriesId, from, to] of [
      [central.hallId, central.seriesId, 1, 300],
      [other.hallId, other.seriesId, 301, 600],
    ] as const) {
      const j = await s.call('mesa1', 'POST', `/api/games/${gameId}/halls`, {
        hallId,
        seriesId,
        fromCardNo: from,
        toCardNo: to,
      })
      expect(j.status, JSON.stringify(j.body)).toBe(201)
    }
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const fundBefore = async (hallId: string) =>
      (await s.call('jefa', 'GET', `/api/halls/${hallId}/prima`)).body.prima.state.fundCents as number
    const before = [await fundBefore(central.hallId), await fundBefore(other.hallId)]
    for (const [hallId, count] of [
      [central.hallId, 40],
      [central.hallId, 40],
      [other.hallId, 30],
    ] as const) {
      const sold = await api(
        s.server.url,
        'POST',
        `/api/games/${gameId}/halls/${hallId}/sales`,
        { ageConfirmed: true, count, channel: 'counter' },
        (await s.till(hallId)).headers,
      )
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    }
    // RNG-30 (004 Bingo VI.1): a Cantabrian simultaneous game starts only with the central's camera registered.
    const cam = await s.call('jefa', 'POST', `/api/halls/${central.hallId}/cameras`, {
      id: 'CAM-PRIMA-1',
      name: 'Salida de bolas',
      streamUrl: 'http://127.0.0.1:9/stream',
      sealCode: 'AJ-CAM-PRIMA-1',
    })
    expect(cam.status, JSON.stringify(cam.body)).toBe(201)
    const closed = await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    // 80 cards x 1.00 = 80.00 -> 4.80 (6 %); 30 cards x 1.00 = 30.00 -> 1.80 (6 %).
    expect(await fundBefore(central.hallId)).toBe(before[0] + 480)
    expect(await fundBefore(other.hallId)).toBe(before[1] + 180)
    const ledger = (await s.call('jefa', 'GET', `/api/halls/${other.hallId}/prima/ledger`)).body.ledger as Array<{
      kind: string
      gameId: string
      amountCents: number
    }>
    expect(ledger.filter((l) => l.gameId === gameId)).toMatchObject([{ kind: 'deduction', amountCents: 180 }])
  })
})
