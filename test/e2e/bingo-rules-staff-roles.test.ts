import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PASSWORD,
  hallWithSeries,
  openSession,
  secondPerson,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { api } from '../helpers/server.ts'

/**
 * Issue 26, staff roles as the decrees name them, over HTTP with authentication on:
 * - BNG-27 (002 §6.1.5): in Bolivia the session's ball recount is witnessed by the Director de Bingo, not by a jefe
 *   de sala; in Cantabria (004 names nobody) a jefe de sala may witness it. Both the opening and the closing recount.
 * - BNG-16 / BNG-97: the close of sales is the jefe de mesa's cut-off: the locutor does not close sales alone.
 */
describe('staff roles of the recount and the close of sales (BNG-27, BNG-97)', () => {
  let s: RulesServer
  const checklist = { extractor: true, cctv: true, displays: true, sound: true }
  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    await s.server.services.auth.createUser({
      username: 'sala',
      displayName: 'Jorge Limachi',
      role: 'hall_manager',
      password: PASSWORD,
    })
  })
  afterAll(async () => s?.server.cleanup())

  const openWith = (hallId: string, witness: 'sala' | 'jefa') =>
    s.call(
      'mesa1',
      'POST',
      `/api/halls/${hallId}/sessions`,
      { recount: { ballsCounted: 90 }, checklist },
      secondPerson(witness as never),
    )

  it('BNG-27: a Bolivian recount witnessed by a jefe de sala is refused; by the director it opens the session', async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'roles-bo' })
    const bySala = await openWith(bo.hallId, 'sala')
    expect(bySala.status).toBe(403)
    expect(bySala.body.error).toMatchObject({ code: 'SECOND_PERSON_REQUIRED', details: { rule: 'BNG-27' } })
    const byDirector = await openWith(bo.hallId, 'jefa')
    expect(byDirector.status, JSON.stringify(byDirector.body)).toBe(201)
    expect(byDirector.body.openRecount ?? byDirector.body.recount ?? {}).not.toHaveProperty('confirmedByRole')
  })

  it('BNG-27: in Cantabria a jefe de sala witnesses the opening and the closing recount', async () => {
    const es = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Pereda', seed: 'roles-es' })
    const opened = await openWith(es.hallId, 'sala')
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    const closed = await s.call(
      'mesa1',
      'POST',
      `/api/sessions/${opened.body.id}/close`,
      { recount: { ballsCounted: 90 } },
      secondPerson('sala' as never),
    )
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
  })

  it('BNG-97: the locutor does not close sales alone; with the jefe de mesa beside him he does', async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sajama', seed: 'roles-close' })
    const sessionId = await openSession(s, bo.hallId)
    const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [bo.seriesId] })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await s.call('locutor', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const sold = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 12 },
      (await s.till(bo.hallId)).headers,
    )
    expect(sold.status).toBe(201)
    const alone = await s.call('locutor', 'POST', `/api/games/${gameId}/sales/close`, {})
    expect(alone.status).toBe(403)
    expect(alone.body.error.code).toBe('SECOND_PERSON_REQUIRED')
    expect((await s.call('mesa1', 'GET', `/api/games/${gameId}`)).body.status).toBe('on_sale')
    const withMesa = await s.call('locutor', 'POST', `/api/games/${gameId}/sales/close`, {}, secondPerson('mesa1'))
    expect(withMesa.status, JSON.stringify(withMesa.body)).toBe(200)
  })
})
