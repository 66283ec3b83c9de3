import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hallWithSeries, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'

/**
 * Issue 26, BNG-52 / CFG-24 / CFG-28 (002 §6.1.8.3), over HTTP with authentication on: the Plan de Apuestas binds
 * the money. Every route that makes a hall fund more of its takings into pots (a new pot, a hall joining an
 * interconnected pot) or that lowers what the plan approves (a new plan version) keeps the sum of the hall's pots
 * within the plan's approved pot share, and prizes + pots + commission within 100 %. The prize pool is exactly its
 * prizes: no share of the takings is left to no prize.
 */
describe('the Plan de Apuestas binds the pots (BNG-52, CFG-24, CFG-28)', () => {
  let s: RulesServer
  let la: string
  let oruro: string
  const plan = (potsBp: number, ref = 'AJ/DE/RA/0600/2026') => ({
    authorisationRef: ref,
    shares: { poolBp: 7000, lineBp: 1500, bingoBp: 5500, primaBp: 0 },
    potsBp,
    commissionBp: 2000,
  })
  const pot = (hallIds: string[], contributionBp: number, kind = 'progressive') => ({
    name: `Pozo ${contributionBp}`,
    kind,
    contributionBp,
    condition: { prize: 'bingo', scale: [{ withinBalls: 50, shareBp: 10_000 }] },
    hallIds,
    authorisationRef: 'AJ/DE/RA/0601/2026',
  })

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    la = (await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala La Paz', seed: 'pots-plan-1' })).hallId
    oruro = (await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Oruro', seed: 'pots-plan-2' })).hallId
    expect((await s.call('jefa', 'PUT', `/api/halls/${la}/betting-plan`, plan(500))).status).toBe(200)
    expect((await s.call('jefa', 'PUT', `/api/halls/${oruro}/betting-plan`, plan(100))).status).toBe(200)
  })
  afterAll(async () => s?.server.cleanup())

  it('a plan whose pool is not its prizes is refused (pool 70 %, line + bingo 50 %)', async () => {
    const r = await s.call('jefa', 'PUT', `/api/halls/${la}/betting-plan`, {
      ...plan(500),
      shares: { poolBp: 7000, lineBp: 1000, bingoBp: 4000, primaBp: 0 },
    })
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('PRIZE_SHARES_INVALID')
  })

  it("a new pot takes no more than the plan's approved pot share, counting the hall's other pots", async () => {
    const big = await s.call('jefa', 'POST', '/api/pots', pot([la], 2000))
    expect(big.status).toBe(422)
    expect(big.body.error).toMatchObject({
      code: 'PRIZE_SHARES_INVALID',
      details: { rule: 'BNG-52', approvedPotsBp: 500 },
    })
    expect((await s.call('jefa', 'POST', '/api/pots', pot([la], 300))).status).toBe(201)
    expect((await s.call('jefa', 'POST', '/api/pots', pot([la], 300))).body.error.code).toBe('PRIZE_SHARES_INVALID')
    expect((await s.call('jefa', 'POST', '/api/pots', pot([la], 200))).status).toBe(201)
  })

  it('a hall joins an interconnected pot only within its own plan', async () => {
    const created = await s.call('jefa', 'POST', '/api/pots', pot([la], 1, 'interconnected'))
    // La Paz is at 500 of 500 already: one more basis point is refused.
    expect(created.body.error?.code).toBe('PRIZE_SHARES_INVALID')
    const newHall = (await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Potosí', seed: 'pots-plan-3' })).hallId
    expect((await s.call('jefa', 'PUT', `/api/halls/${newHall}/betting-plan`, plan(500))).status).toBe(200)
    const shared = await s.call('jefa', 'POST', '/api/pots', pot([newHall], 200, 'interconnected'))
    expect(shared.status, JSON.stringify(shared.body)).toBe(201)
    const join = await s.call('jefa', 'POST', `/api/pots/${shared.body.id}/halls`, { hallId: oruro })
    expect(join.status).toBe(422)
    expect(join.body.error.code).toBe('PRIZE_SHARES_INVALID')
  })

  it('a new plan version cannot approve less than the pots the hall already funds', async () => {
    const lower = await s.call('jefa', 'PUT', `/api/halls/${la}/betting-plan`, plan(300, 'AJ/DE/RA/0700/2026'))
    expect(lower.status).toBe(422)
    expect(lower.body.error.code).toBe('PRIZE_SHARES_INVALID')
    expect((await s.call('jefa', 'PUT', `/api/halls/${la}/betting-plan`, plan(500, 'AJ/DE/RA/0701/2026'))).status).toBe(
      200,
    )
  })

  it('a Bolivian hall without a plan funds no pot', async () => {
    const bare = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Uyuni',
      seed: 'pots-plan-4',
      noPlan: true,
    })
    const r = await s.call('jefa', 'POST', '/api/pots', pot([bare.hallId], 100))
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe('BETTING_PLAN_REQUIRED')
  })
})
