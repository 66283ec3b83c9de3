import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { gameOnSale, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'

/**
 * CFG-21 / BNG-48 over real HTTP with authentication on: the system claims for the players only where the hall's
 * recorded operating licence allows it. 002 §6.1.5: players who form a line or a bingo "deberán cantarlo en voz alta";
 * the catalogue's CFG-21: off unless the licence allows it, never in Cantabria (004 Bingo III).
 */
describe('CFG-21: automatic claims only under a licence that allows them', () => {
  let s: RulesServer
  beforeAll(async () => {
    s = await startRulesServer('2026-11-27T20:00:00.000Z')
  })
  afterAll(async () => s?.server.cleanup())

  const journal = async () => {
    const all: Array<{ seq: number; type: string; payload: any }> = []
    for (let from = 0; ;) {
      const page = (await s.call('jefa', 'GET', `/api/journal?from=${from}&limit=1000`)).body.records as typeof all
      all.push(...page)
      if (page.length < 1000) return all
      from = page[page.length - 1].seq + 1
    }
  }
  const claimsOf = (gameId: string) =>
    s.server.services.db.all<{ serial: string; kind: string; automatic: number; status: string }>(
      'SELECT serial, kind, automatic, status FROM claims WHERE game_id = ? ORDER BY created_at',
      [gameId],
    )
  const silentOf = (gameId: string) =>
    s.server.services.db.all<{ serial: string; kind: string }>(
      'SELECT c.serial, w.kind FROM silent_wins w JOIN cards c ON c.id = w.card_id WHERE w.game_id = ?',
      [gameId],
    )

  /** A manual game of 10 cards, sales closed, and the top row of the first card called: its line is formed. */
  async function lineFormed(hallId: string, seriesId: string) {
    const sessionId = await openSession(s, hallId)
    const g = await gameOnSale(s, sessionId, [seriesId], 10, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const card = (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/cards/${g.serials[0]}`)).body
    const top = (card.rows[0] as Array<number | null>).filter((n): n is number => typeof n === 'number' && n > 0)
    for (const b of top)
      expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball: b })).status).toBe(200)
    return { gameId: g.gameId, serial: g.serials[0] }
  }

  /** A Bolivian hall whose AJ Operating Licence, recorded by the director's licence route, says nothing of them. */
  async function hallUnderPlainLicence(name: string, seed: string) {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name, seed, noLicence: true })
    const licence = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/licence`, {
      authorisationRef: 'AJ/DE/LO/0077/2026',
      minimumBasis: 'cards',
      playingPositions: 200,
    })
    expect(licence.status, JSON.stringify(licence.body)).toBe(200)
    return hall
  }

  it('a BO hall whose licence does not allow them: the line is only recorded silently, and the player calls it (CFG-21, BNG-48)', async () => {
    const hall = await hallUnderPlainLicence('Sala Chacaltaya', 'cfg21-plain')
    const rules = (await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/rules`)).body
    expect(rules.licence).toMatchObject({ authorisationRef: 'AJ/DE/LO/0077/2026', autoClaims: false })
    expect(rules.autoClaim).toBe(false)
    expect((await api(s.server.url, 'GET', `/api/halls/${hall.hallId}`)).body.autoClaim).toBe(false)

    const { gameId, serial } = await lineFormed(hall.hallId, hall.seriesId)
    expect(await claimsOf(gameId)).toEqual([])
    const state = (await s.call('mesa1', 'GET', `/api/games/${gameId}`)).body
    expect(state.status).toBe('drawing')
    // Only the minutes' record of the ball at which the card first won (BNG-48).
    expect(await silentOf(gameId)).toContainEqual({ serial, kind: 'line' })

    const called = await s.call('locutor', 'POST', `/api/games/${gameId}/claims`, { kind: 'line', serial })
    expect(called.body.ok, JSON.stringify(called.body)).toBe(true)
    expect(await claimsOf(gameId)).toEqual([expect.objectContaining({ serial, kind: 'line', automatic: 0 })])
  })

  it('switching them on is refused with CFG-21, naming the licence; a new licence version that allows them turns them on', async () => {
    const hall = await hallUnderPlainLicence('Sala Huayna Potosí', 'cfg21-switch')
    const on = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/auto-claim`, { autoClaim: true })
    expect(on.status).toBe(422)
    expect(on.body.error.code).toBe('RULE_DISABLED')
    expect(on.body.error.details).toMatchObject({ rule: 'CFG-21', licence: 'AJ/DE/LO/0077/2026' })
    expect(on.body.error.message).toContain('Licencia de Operaciones AJ/DE/LO/0077/2026')
    const en = await s.call(
      'jefa',
      'PUT',
      `/api/halls/${hall.hallId}/auto-claim`,
      { autoClaim: true },
      {
        'accept-language': 'en',
      },
    )
    expect(en.body.error.message).toContain('Operating Licence AJ/DE/LO/0077/2026')
    expect((await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/rules`)).body.autoClaim).toBe(false)
    expect((await journal()).filter((r) => r.type === 'hall.auto_claim' && r.payload.hallId === hall.hallId)).toEqual(
      [],
    )

    // The AJ's new licence allows them: recorded (and journaled) with the licence, on by default from then.
    const allowed = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/licence`, {
      authorisationRef: 'AJ/DE/LO/0078/2026',
      minimumBasis: 'cards',
      playingPositions: 200,
      autoClaims: true,
    })
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200)
    expect(allowed.body.autoClaim).toBe(true)
    const plans = (await journal()).filter(
      (r) => r.type === 'hall.plan' && r.payload.kind === 'licence' && r.payload.hallId === hall.hallId,
    )
    expect(plans.map((r) => [r.payload.authorisationRef, r.payload.plan.autoClaims])).toEqual([
      ['AJ/DE/LO/0077/2026', false],
      ['AJ/DE/LO/0078/2026', true],
    ])
    // The hall may still switch them off, and back to the default.
    expect(
      (await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/auto-claim`, { autoClaim: false })).body.autoClaim,
    ).toBe(false)
    expect(
      (await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/auto-claim`, { autoClaim: null })).body.autoClaim,
    ).toBe(true)
    // A licence flag that is not true or false is bad input.
    const bad = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/licence`, {
      authorisationRef: 'AJ/DE/LO/0079/2026',
      minimumBasis: 'cards',
      playingPositions: 200,
      autoClaims: 'sí',
    })
    expect(bad.status).toBe(400)
  })

  it('a BO hall whose licence allows them: the system claims the line the moment it is formed', async () => {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Mururata', seed: 'cfg21-allowed' })
    expect((await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/rules`)).body).toMatchObject({
      licence: { autoClaims: true },
      autoClaim: true,
    })
    const { gameId, serial } = await lineFormed(hall.hallId, hall.seriesId)
    expect(await claimsOf(gameId)).toContainEqual(expect.objectContaining({ serial, kind: 'line', automatic: 1 }))
  })

  it('an ES-CB hall never: a licence flag allowing them is refused, at creation and by the licence route (004 Bingo III)', async () => {
    const created = await s.call('jefa', 'POST', '/api/halls', {
      name: 'Sala Cabárceno',
      profileId: 'ES-CB-2010',
      playingPositions: 200,
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-21', minimumBasis: 'cards', autoClaims: true },
    })
    expect(created.status).toBe(422)
    expect(created.body.error.code).toBe('RULE_DISABLED')
    expect(created.body.error.details).toMatchObject({ rule: 'CFG-21', profileId: 'ES-CB-2010' })
    expect(created.body.error.message).toContain('no permite que el sistema cante por los jugadores')

    const es = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Liébana', seed: 'cfg21-es' })
    const flag = await s.call('jefa', 'PUT', `/api/halls/${es.hallId}/licence`, {
      authorisationRef: 'CONSEJERIA-PRUEBA-21',
      minimumBasis: 'cards',
      playingPositions: 200,
      autoClaims: true,
    })
    expect(flag.status).toBe(422)
    expect(flag.body.error.details).toMatchObject({ rule: 'CFG-21' })
    const on = await s.call('jefa', 'PUT', `/api/halls/${es.hallId}/auto-claim`, { autoClaim: true })
    expect(on.status).toBe(422)
    expect(on.body.error.details).toMatchObject({ rule: 'CFG-21' })
    expect((await s.call('jefa', 'GET', `/api/halls/${es.hallId}/rules`)).body.autoClaim).toBe(false)
    const { gameId } = await lineFormed(es.hallId, es.seriesId)
    expect(await claimsOf(gameId)).toEqual([])
  })
})
