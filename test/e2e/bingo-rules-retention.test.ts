import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import {
  gameOnSale,
  hallWithSeries,
  openSession,
  secondPerson,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * Issue 18, BNG-77 / CFG-37, over real HTTP with authentication on: a closed session's records are purged only
 * after the profile's retentionDays (183 in BO-2025) from the minutes' date, never while a complaint about the
 * session is pending, by the director with a second person; the winning cards, the journal and the minutes stay.
 */
describe('records retention (BNG-77, CFG-37)', () => {
  let s: RulesServer
  let hallId: string
  let sessionId: string
  let gameId: string
  const cardsOf = async () =>
    Number(
      (await s.server.services.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM cards WHERE game_id = ?', [gameId]))!.n,
    )
  const purge = (who: 'jefa' | 'mesa1', extra: Record<string, string> = secondPerson('mesa2')) =>
    s.call(who, 'POST', `/api/sessions/${sessionId}/purge`, { reason: 'depuración semestral' }, extra)

  beforeAll(async () => {
    s = await startRulesServer('2026-01-10T18:00:00Z')
    let seriesId: string
    ;({ hallId, seriesId } = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Archivo', seed: 'retention' }))
    sessionId = await openSession(s, hallId)
    ;({ gameId } = await gameOnSale(s, sessionId, [seriesId], 30))
    await playToTheEnd(s.server.services, gameId)
  })
  afterAll(async () => s?.server.cleanup())

  it('BNG-77: refuses to purge an open session, a closed one younger than retentionDays, or one with a complaint pending; then purges only the non-winning cards', async () => {
    const complaint = await s.call('mesa1', 'POST', `/api/halls/${hallId}/complaints`, {
      playerName: 'Juana Flores',
      text: 'El cartón ganador no se mostró en la pantalla de la sala.',
      sessionId,
    })
    expect(complaint.status, JSON.stringify(complaint.body)).toBe(201)
    const open = await purge('jefa')
    expect(open.status).toBe(409)
    expect(open.body.error.code).toBe('RETENTION_NOT_ELAPSED')
    const closed = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)

    const sold = await cardsOf()
    const young = await purge('jefa')
    expect(young.status).toBe(409)
    expect(young.body.error).toMatchObject({
      code: 'RETENTION_NOT_ELAPSED',
      message: expect.stringMatching(/plazo de conservación/),
    })
    // Only the director, and only with a second person present.
    expect((await purge('mesa1')).status).toBe(403)
    await s.at('2026-07-13T18:00:00Z') // 184 days after the close
    expect((await purge('jefa', {})).body.error.code).toBe('SECOND_PERSON_REQUIRED')
    // A complaint about the session is pending: kept until it is resolved.
    const pending = await purge('jefa')
    expect(pending.body.error.code).toBe('RETENTION_NOT_ELAPSED')
    expect(pending.body.error.details).toMatchObject({ pendingComplaints: 1 })
    expect(await cardsOf()).toBe(sold)

    await s.at('2026-07-09T18:00:00Z') // 180 days: answered, but still inside the period
    expect(
      (
        await s.call('jefa', 'POST', `/api/halls/${hallId}/complaints/${complaint.body.number}/answer`, {
          answer: 'Revisado el registro: se mostró en el panel lateral.',
        })
      ).status,
    ).toBe(200)
    expect((await purge('jefa')).body.error.code).toBe('RETENTION_NOT_ELAPSED')
    expect(await cardsOf()).toBe(sold)

    await s.at('2026-07-13T18:00:00Z')
    const done = await purge('jefa')
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    const winners = await winningCodes(s.server.services, gameId)
    expect(done.body).toMatchObject({ cardsPurged: sold - winners.length, retentionDays: 183 })
    expect(await cardsOf()).toBe(winners.length)
    const rec = JSON.parse(
      (await s.server.services.db.get<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'records.purged'",
      ))!.payload,
    )
    expect(rec).toMatchObject({
      sessionId,
      by: 'Marta Quispe',
      witness: 'Ana Choque',
      retentionDays: 183,
      rule: 'BNG-77',
    })
    // The minutes stay (derived from the journal); a second purge is refused.
    expect((await s.call('jefa', 'GET', `/api/sessions/${sessionId}/minutes`)).status).toBe(200)
    expect((await purge('jefa')).status).toBe(409)
  })
})
