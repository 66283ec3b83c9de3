import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import {
  PASSWORD,
  gameOnSale,
  hallWithSeries,
  openSession,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * Issue 26, GEN-31 (every draw event, ball drawn, claim, verification, payout, carries its time and the ID of the CCTV
 * camera, so that the footage can be matched to it), over real HTTP with authentication on and an enrolled cash desk.
 * The audit's scenario: only incidents named a camera; the footage of a disputed claim could not be found from the
 * ball, claim and payout records. Now each of them names the hall's ball-exit camera (BNG-34), as set by the director.
 */
describe("the draw's records name the hall's ball-exit camera (GEN-31)", () => {
  let s: RulesServer
  let cashier: Till
  let hall: { hallId: string; seriesId: string }
  let sessionId = ''
  const records = async (gameId: string) =>
    (
      await s.server.services.db.all<{ type: string; payload: string }>(
        'SELECT type, payload FROM journal WHERE payload LIKE ? ORDER BY seq',
        [`%${gameId}%`],
      )
    ).map((r) => ({ type: r.type, payload: JSON.parse(r.payload) as Record<string, unknown> }))

  beforeAll(async () => {
    s = await startRulesServer('2026-11-25T20:00:00.000Z')
    hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sucre', seed: 'gen31' })
    sessionId = await openSession(s, hall.hallId)
    cashier = await openTill(s.server.url, s.server.services, {
      hallId: hall.hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 500_000,
    })
  })
  afterAll(async () => s?.server.cleanup())

  it('ball, claim, award and payout records carry the camera the director set, from the moment it is set', async () => {
    const set = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/cctv`, { ballCameraId: 'CAM-BOLAS-01' })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    const g = await gameOnSale(s, sessionId, [hall.seriesId], 20, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const card = (await s.server.services.db.get<{ id: string; numbers: string }>(
      'SELECT id, numbers FROM cards WHERE game_id = ? AND serial = ?',
      [g.gameId, g.serials[0]],
    ))!
    const rows = JSON.parse(card.numbers) as number[][]
    for (const ball of rows[0].filter((n) => n > 0))
      expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })).status).toBe(200)
    const line = await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, {
      kind: 'line',
      serial: g.serials[0],
    })
    expect(line.body.ok, JSON.stringify(line.body)).toBe(true)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})).status).toBe(200)
    for (const ball of rows
      .slice(1)
      .flat()
      .filter((n) => n > 0))
      expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })).status).toBe(200)
    const bingo = await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, {
      kind: 'bingo',
      serial: g.serials[0],
    })
    expect(bingo.body.ok, JSON.stringify(bingo.body)).toBe(true)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})).status).toBe(200)
    const paid = await api(
      s.server.url,
      'POST',
      '/api/tickets/pay',
      {
        code: s.server.services.cashdesk.payouts.cardCode(card.id),
        payeeName: 'Juana Mamani',
        payeeDocument: '4455667',
        payment: { method: 'cash' },
      },
      cashier.headers,
    )
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)

    const recs = await records(g.gameId)
    const ofType = (t: string) => recs.filter((r) => r.type === t)
    expect(ofType('ball.called')).toHaveLength(15)
    expect(ofType('claim.verified')).toHaveLength(2)
    expect(ofType('prize.awarded')).toHaveLength(2)
    expect(ofType('prize.paid')).toHaveLength(2)
    for (const t of ['ball.called', 'claim.verified', 'prize.awarded', 'prize.paid'])
      for (const r of ofType(t)) expect(r.payload.cameraId, `${t} ${JSON.stringify(r.payload)}`).toBe('CAM-BOLAS-01')
  })

  it('a camera changed by the director is the one the next records name, and only the director changes it', async () => {
    expect(
      (await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/cctv`, { ballCameraId: 'CAM-BOLAS-02' })).status,
    ).toBe(200)
    const g = await gameOnSale(s, sessionId, [hall.seriesId], 20, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball: 7 })).status).toBe(200)
    const [ball] = (await records(g.gameId)).filter((r) => r.type === 'ball.called')
    expect(ball.payload.cameraId).toBe('CAM-BOLAS-02')
    // Who may not set it: a floor manager, a caller, a cashier.
    for (const who of ['mesa1', 'locutor', 'cajera'] as const)
      expect((await s.call(who, 'PUT', `/api/halls/${hall.hallId}/cctv`, { ballCameraId: 'CAM-X' })).status, who).toBe(
        403,
      )
  })
})
