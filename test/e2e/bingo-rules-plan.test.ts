import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  gameOnSale,
  hallWithSeries,
  openSession,
  startRulesServer,
  voidBeforeFirstBall,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { api } from '../helpers/server.ts'

/**
 * BNG-52 / CFG-24 / CFG-25, CFG-17 and BNG-102 over real HTTP with authentication on: a hall's Plan de Apuestas
 * (versions, authorisation reference, sum within 100 %), set by the director only; a Bolivian hall without one
 * announces no game; the licence's "10 % of positions"; a derived bingo version.
 */
describe('Plan de Apuestas, licence options and derived bingo versions of a hall (issue 18)', () => {
  let s: RulesServer
  let bo: Awaited<ReturnType<typeof hallWithSeries>>
  let sessionId = ''
  beforeAll(async () => {
    s = await startRulesServer('2026-05-04T14:00:00.000Z')
    bo = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Illimani',
      seed: 'plan',
      noPlan: true,
      playingPositions: 250,
    })
    sessionId = await openSession(s, bo.hallId)
  })
  afterAll(async () => s?.server.cleanup())

  it("a Bolivian hall without a Plan de Apuestas has no prize shares and announces no game: not Cantabria's 10/51 (BNG-52)", async () => {
    const rules = await s.call('auditor', 'GET', `/api/halls/${bo.hallId}/rules`)
    expect(rules.status).toBe(200)
    expect(rules.body).toMatchObject({ shares: null, bettingPlan: null, timeZone: 'America/La_Paz' })
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [bo.seriesId] })
    expect(g.status).toBe(409)
    expect(g.body.error.code).toBe('BETTING_PLAN_REQUIRED')
    expect(g.body.error.message).toMatch(/Plan de Apuestas/)
  })

  it('only the director sets the plan, and a plan over 100 % is refused in Spanish (BNG-52, CFG-25)', async () => {
    const plan = {
      authorisationRef: 'AJ/DE/RA/0457/2026',
      shares: { poolBp: 7000, lineBp: 1500, bingoBp: 5500, primaBp: 0 },
      potsBp: 500,
      commissionBp: 2000,
    }
    const byFloor = await s.call('mesa1', 'PUT', `/api/halls/${bo.hallId}/betting-plan`, plan)
    expect(byFloor.status).toBe(403)
    const over = await s.call('jefa', 'PUT', `/api/halls/${bo.hallId}/betting-plan`, { ...plan, commissionBp: 2600 })
    expect(over.status).toBe(422)
    expect(over.body.error.code).toBe('PRIZE_SHARES_INVALID')
    expect(over.body.error.message).toMatch(/100 %/)
    const ok = await s.call('jefa', 'PUT', `/api/halls/${bo.hallId}/betting-plan`, plan)
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({
      shares: plan.shares,
      bettingPlan: { version: 1, authorisationRef: 'AJ/DE/RA/0457/2026', potsBp: 500, commissionBp: 2000 },
    })
    // The hall's other plans on record are its sale rules (GEN-18) and its licence (GEN-1), recorded with the hall.
    expect(ok.body.plans.filter((p: { kind: string }) => p.kind === 'betting-plan')).toEqual([
      expect.objectContaining({
        kind: 'betting-plan',
        version: 1,
        authorisationRef: 'AJ/DE/RA/0457/2026',
        createdBy: expect.objectContaining({ name: 'Marta Quispe', role: 'director' }),
      }),
    ])
  })

  it('a game plays the plan in force when announced; a new version applies to the next game and both stay on record', async () => {
    const g1 = await gameOnSale(s, sessionId, [bo.seriesId], 30)
    const closed = await s.call('mesa1', 'POST', `/api/games/${g1.gameId}/sales/close`, {})
    expect(closed.status).toBe(200)
    // 30 cards x 5,00 = 150,00: line 15 % = 22,50, bingo 55 % = 82,50.
    expect(closed.body).toMatchObject({ linePoolCents: 2250, bingoPoolCents: 8250 })
    const v2 = await s.call('jefa', 'PUT', `/api/halls/${bo.hallId}/betting-plan`, {
      authorisationRef: 'AJ/DE/RA/0512/2026',
      shares: { poolBp: 6500, lineBp: 1000, bingoBp: 5500, primaBp: 0 },
      commissionBp: 2500,
    })
    expect(v2.status).toBe(200)
    expect(
      v2.body.plans
        .filter((p: { kind: string }) => p.kind === 'betting-plan')
        .map((p: { version: number }) => p.version),
    ).toEqual([1, 2])
    expect((await s.call('mesa1', 'GET', `/api/games/${g1.gameId}`)).body.linePoolCents).toBe(2250)
    const journal = (await s.call('jefa', 'GET', '/api/journal?limit=500')).body.records as Array<{
      type: string
      payload: any
    }>
    const recorded = journal.filter((r) => r.type === 'hall.plan' && r.payload.kind === 'betting-plan')
    expect(recorded.map((r) => [r.payload.version, r.payload.authorisationRef, r.payload.by.name])).toEqual([
      [1, 'AJ/DE/RA/0457/2026', 'Marta Quispe'],
      [2, 'AJ/DE/RA/0512/2026', 'Marta Quispe'],
    ])
  })

  it('the licence may choose 10 % of the playing positions instead of 10 cards (BNG-21, CFG-17)', async () => {
    // The game of the previous test is in play: annul it first.
    const current = (await s.call('mesa1', 'GET', `/api/halls/${bo.hallId}`)).body.currentGameId
    const v = await s.call('mesa1', 'POST', `/api/games/${current}/incidents`, {
      kind: 'ball-irregularity',
      reason: 'bolas de prueba',
      confirm: { username: 'jefa', password: 'correct horse battery' },
    })
    expect(v.status).toBe(200)
    const lic = await s.call('jefa', 'PUT', `/api/halls/${bo.hallId}/licence`, {
      authorisationRef: 'Licencia AJ 45/2026',
      minimumBasis: 'positions',
      playingPositions: 250,
    })
    expect(lic.status).toBe(200)
    expect(lic.body).toMatchObject({
      minimumParticipation: { basis: 'positions', positionsPercent: 10 },
      minimumCardsToStart: 25,
      // Version 1 is the licence the hall was created with (GEN-1: no sale without it).
      licence: { version: 2, minimumBasis: 'positions' },
    })
    const g = await gameOnSale(s, sessionId, [bo.seriesId], 24)
    const refused = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({ code: 'MINIMUM_PARTICIPATION', details: { minimum: 25, sold: 24 } })
    expect(
      (
        await api(
          s.server.url,
          'POST',
          `/api/games/${g.gameId}/sales`,
          { ageConfirmed: true, count: 1 },
          (await s.till(bo.hallId)).headers,
        )
      ).status,
    ).toBe(201)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
  })

  it('a Cantabrian hall records a derived bingo version; a Bolivian one may not (BNG-102, CFG-34)', async () => {
    const es = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Sardinero', seed: 'derived' })
    const deferred = {
      authorisationRef: 'Res. Consejería 7/2026',
      version: 'deferred',
      ballCount: 75,
      rows: 3,
      perRow: 5,
      prizePercentBp: 7000,
      prizes: [{ name: 'Cartón', combination: 'los 15 números', wins: 'bingo', shareBp: 7000 }],
      window: { games: 40 },
    }
    const ok = await s.call('jefa', 'PUT', `/api/halls/${es.hallId}/derived-plan`, deferred)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    // GEN-3 / BNG-10: the hall's Consejería authorisation and face values are on record too (a licence and a sale-rules
    // version); the derived one is its own.
    expect(ok.body.plans.filter((p: { kind: string }) => p.kind === 'licence')).toHaveLength(1)
    expect(ok.body.plans.filter((p: { kind: string }) => p.kind === 'sale-rules')).toHaveLength(1)
    expect(ok.body.plans.filter((p: { kind: string }) => !['licence', 'sale-rules'].includes(p.kind))).toEqual([
      expect.objectContaining({
        kind: 'derived',
        version: 1,
        plan: expect.objectContaining({ version: 'deferred', window: { games: 40 } }),
      }),
    ])
    const big = await s.call('jefa', 'PUT', `/api/halls/${es.hallId}/derived-plan`, { ...deferred, ballCount: 100 })
    expect(big.status).toBe(400)
    expect(big.body.error.details).toMatchObject({ rule: 'BNG-102' })
    const cardOf20 = await s.call('jefa', 'PUT', `/api/halls/${es.hallId}/derived-plan`, {
      ...deferred,
      rows: 4,
      perRow: 5,
    })
    expect(cardOf20.status).toBe(400)
    const inBolivia = await s.call('jefa', 'PUT', `/api/halls/${bo.hallId}/derived-plan`, deferred)
    expect(inBolivia.status).toBe(422)
    expect(inBolivia.body.error.code).toBe('RULE_DISABLED')
  })

  it('a hall created with its plan plays at once (BNG-52)', async () => {
    const other = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sajama', seed: 'plan-2' })
    const session = await openSession(s, other.hallId)
    const g = await gameOnSale(s, session, [other.seriesId], 12)
    await voidBeforeFirstBall(s, g.gameId)
  })
})
