import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BOLIVIA_2013, BOLIVIA_2025 } from '../../server/src/shared/profile.ts'
import {
  TEST_PLAN,
  hallWithSeries,
  openSession,
  registerBallSets,
  registerExtractor,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { api } from '../helpers/server.ts'
import { TEST_LICENCE } from '../helpers/sale-rules.ts'

/**
 * Issue 26, CFG-1: a hall still licensed under the Bolivian 2013 text (RR 01-00002-13, "000") plays its rules where
 * they differ from 2025, over real HTTP with authentication on and real people:
 * - BNG-22 (000 §6.1.4): below the minimum of 10 cards only on a day whose start the hall posted it;
 * - GEN-18 (000 §1.2.1.1 "si los hay"): it sells with no bet limits on record, where a 2025 hall is refused;
 * - BNG-1 (000 §6.1.2): no draw by software, only physical balls;
 * - BNG-85 (000 §6.1.7.2): cards may be handed to another player.
 */
describe('the Bolivian 2013 profile for halls licensed under it (CFG-1)', () => {
  let s: RulesServer
  let hall: { hallId: string; seriesId: string }
  let sessionId = ''

  beforeAll(async () => {
    s = await startRulesServer('2026-06-10T13:00:00.000Z')
    const h = await s.call('jefa', 'POST', '/api/halls', {
      name: 'Sala Potosí (2013)',
      profileId: 'BO-2013',
      playingPositions: 200,
      bettingPlan: TEST_PLAN,
      // GEN-1 holds under 000 too (§6.1.4: "la resolución que concedió licencia de operaciones para el salón").
      licence: TEST_LICENCE,
    })
    expect(h.status, JSON.stringify(h.body)).toBe(201)
    const set = await s.call('jefa', 'POST', '/api/master-sets', { count: 300, seed: 'bo-2013' })
    const series = await s.call('jefa', 'POST', `/api/halls/${h.body.id}/series`, {
      code: 'A',
      masterSetId: set.body.id,
      faceValueCents: 500,
    })
    expect(series.status, JSON.stringify(series.body)).toBe(201)
    hall = { hallId: h.body.id, seriesId: series.body.id }
    await registerBallSets(s, hall.hallId)
    await registerExtractor(s, hall.hallId)
    sessionId = await openSession(s, hall.hallId)
  })
  afterAll(async () => s?.server.cleanup())

  const announce = (drawSource: 'rng' | 'manual') =>
    s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [hall.seriesId], drawSource })
  const sell = async (gameId: string, hallId: string, count: number) =>
    api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count },
      (await s.till(hallId)).headers,
    )

  it('differs from 2025 only where the 2013 text does, each difference with its paragraph', () => {
    expect(BOLIVIA_2013.cardTransferAllowed).toBe(true)
    expect(BOLIVIA_2025.cardTransferAllowed).toBe(false)
    expect(BOLIVIA_2013.betLimitsAuthority).toBeNull()
    expect(BOLIVIA_2013.softwareDrawAllowed).toBe(false)
    expect(BOLIVIA_2013.minimumParticipation).toMatchObject({ cards: 10, belowIfPosted: true })
    expect(BOLIVIA_2025.minimumParticipation?.belowIfPosted).toBeFalsy()
    // Shared with 2025: the prize shares from the Plan de Apuestas, the Director's co-signature, the currency.
    expect([BOLIVIA_2013.shares, BOLIVIA_2013.incidentCosign, BOLIVIA_2013.currency]).toEqual([null, 'director', 'BOB'])
  })

  it('draws no game by software (000 §6.1.2); a manual game is announced', async () => {
    const rng = await announce('rng')
    expect(rng.status).toBe(422)
    expect(rng.body.error.code).toBe('RULE_DISABLED')
  })

  it('sells with no bet limits on record (000 §1.2.1.1 "si los hay"), where a 2025 hall without them is refused', async () => {
    const g = await announce('manual')
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.body.gameId}/sales/open`)).status).toBe(200)
    const sold = await sell(g.body.gameId, hall.hallId, 3)
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    expect((await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/rules`)).body.bets.authorisationRef).toBeNull()

    const bo25 = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala 2025',
      seed: 'bo-2025',
      noSaleRules: true,
    })
    const s25 = await openSession(s, bo25.hallId)
    const g25 = await s.call('mesa1', 'POST', `/api/sessions/${s25}/games`, { seriesIds: [bo25.seriesId] })
    expect((await s.call('mesa1', 'POST', `/api/games/${g25.body.gameId}/sales/open`)).status).toBe(200)
    expect((await sell(g25.body.gameId, bo25.hallId, 3)).body.error.code).toBe('BET_LIMITS_NOT_AUTHORISED')
  })

  it('closes below 10 cards only after the director posted it at the start of the day, and only that day (000 §6.1.4)', async () => {
    const gameId = (await s.call('auditor', 'GET', `/api/halls/${hall.hallId}`)).body.currentGameId as string
    const close = () => s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})
    const early = await close()
    expect(early.status, JSON.stringify(early.body)).toBe(422)
    expect(early.body.error.code).toBe('MINIMUM_PARTICIPATION')

    const notice = { notice: 'Hoy las partidas pueden comenzar con menos de 10 cartones vendidos.' }
    for (const who of ['mesa1', 'locutor', 'cajera'] as const)
      expect((await s.call(who, 'POST', `/api/halls/${hall.hallId}/reduced-minimum`, notice)).status, who).toBe(403)
    // A 2025 hall has no such exception (removed in 002).
    const other = (await s.call('jefa', 'GET', '/api/halls')).body.halls.find(
      (h: { profileId: string }) => h.profileId === 'BO-2025',
    )
    const in2025 = await s.call('jefa', 'POST', `/api/halls/${other.id}/reduced-minimum`, notice)
    expect([in2025.status, in2025.body.error.code]).toEqual([422, 'RULE_DISABLED'])

    const posted = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/reduced-minimum`, notice)
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    // 13:00 UTC is 09:00 in La Paz: the hall's day is 10 June.
    expect(posted.body.day).toBe('2026-06-10')
    const rec = await s.server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'hall.reduced_minimum_posted'",
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({ day: '2026-06-10', rule: 'BNG-22', by: { name: 'Marta Quispe' } })

    // The next day the notice no longer counts: a new game of 3 cards waits for the minimum again.
    await s.at('2026-06-11T13:00:00.000Z')
    const next = await close()
    expect(next.body.error?.code).toBe('MINIMUM_PARTICIPATION')
    await s.at('2026-06-10T14:00:00.000Z')
    const closed = await close()
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
  })
})
