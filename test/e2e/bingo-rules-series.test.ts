import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  gameOnSale,
  hallWithSeries,
  openSession,
  startRulesServer,
  voidBeforeFirstBall,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * BNG-12 (issue 18) over real HTTP with authentication on: a Cantabrian series continues from the card after the
 * last one sold when that sale was the same day or the previous day of the hall's calendar (Europe/Madrid, the
 * profile's zone: halls set no zone of their own yet); older, it has lapsed and a new series starts at card 1.
 */
describe("BNG-12: correlative sale of a series across days, in the hall's time zone", () => {
  let s: RulesServer
  let hall: Awaited<ReturnType<typeof hallWithSeries>>
  let sessionId = ''
  beforeAll(async () => {
    // 00:30 in Madrid on 11 March (23:30 UTC on 10 March).
    s = await startRulesServer('2026-03-10T23:30:00.000Z')
    hall = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Sardinero', seed: 'bng12' })
    sessionId = await openSession(s, hall.hallId)
  })
  afterAll(async () => s?.server.cleanup())

  it('continues the series the next local day, 25 hours and three UTC dates later (BNG-12)', async () => {
    const first = await gameOnSale(s, sessionId, [hall.seriesId], 5, 'manual')
    expect(first.serials).toEqual(['A-00001', 'A-00002', 'A-00003', 'A-00004', 'A-00005'])
    await voidBeforeFirstBall(s, first.gameId)
    // 01:30 in Madrid on 12 March (00:30 UTC): the next local day, though three UTC dates on (a UTC count reset
    // the series to card 1 here, and every sale then failed on the sold card 1).
    await s.at('2026-03-12T00:30:00.000Z')
    const next = await gameOnSale(s, sessionId, [hall.seriesId], 3, 'manual')
    expect(next.serials).toEqual(['A-00006', 'A-00007', 'A-00008'])
    await voidBeforeFirstBall(s, next.gameId)
  })

  it('refuses a series idle two local days instead of resetting it to card 1, and a new series starts at 1 (BNG-12)', async () => {
    // Last sale 01:30 Madrid on the 12th; now 00:05 Madrid on the 14th (23:05 UTC on the 13th, under 48 h later).
    await s.at('2026-03-13T23:05:00.000Z')
    const refused = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [hall.seriesId],
      drawSource: 'manual',
    })
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('SERIES_LAPSED')
    expect(refused.body.error.message).toMatch(/serie nueva, desde el cartón número 1/)
    expect(refused.body.error.details).toMatchObject({ lastSaleDay: '2026-03-12', today: '2026-03-14', rule: 'BNG-12' })
    // The series is not stuck half-way: its cursor did not move and a new series sells from card 1.
    const overview = (await s.call('jefa', 'GET', `/api/halls/${hall.hallId}`)).body
    expect(overview.series.find((x: { code: string }) => x.code === 'A')).toMatchObject({ nextCardNo: 9 })
    const b = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/series`, {
      code: 'B',
      masterSetId: hall.masterSetId,
      faceValueCents: 500,
    })
    expect(b.status).toBe(201)
    const game = await gameOnSale(s, sessionId, [b.body.id], 4, 'manual')
    expect(game.serials).toEqual(['B-00001', 'B-00002', 'B-00003', 'B-00004'])
  })

  it('a Bolivian series carries its cursor from any earlier game, days later (BNG-12, 002 §6.1.5)', async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'bng12-bo' })
    const session = await openSession(s, bo.hallId)
    const g1 = await gameOnSale(s, session, [bo.seriesId], 10)
    await voidBeforeFirstBall(s, g1.gameId)
    await s.at('2026-03-20T15:00:00.000Z')
    const g2 = await gameOnSale(s, session, [bo.seriesId], 10)
    expect(g2.serials[0]).toBe('A-00011')
  })
})
