import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { playToTheEnd } from '../helpers/cashdesk.ts'
import { gameOnSale, hallWithSeries, openSession, startRulesServer, type RulesServer } from '../helpers/bingo-rules.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * BNG-73 (002 §6.1.5): at the end of each game a closing entry is signed by the Jefe de Mesa. Over real HTTP with
 * authentication on: the jefe logged in signs it once the game has ended, under her own name (never one from the
 * body); the caller, a cashier, the director or a kiosk cannot; the minutes and their PDF carry who signed and when.
 */
describe("BNG-73: each game's closing entry signed by the Jefe de Mesa", () => {
  let s: RulesServer
  let hallId: string
  let seriesId: string
  let sessionId: string

  beforeAll(async () => {
    s = await startRulesServer('2026-11-20T18:00:00Z')
    ;({ hallId, seriesId } = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Cierre', seed: 'closing' }))
    sessionId = await openSession(s, hallId)
  })
  afterAll(async () => s?.server.cleanup())

  it('is refused before the game ends, to anyone but a jefe, and twice; signed, the minutes name the jefe', async () => {
    const g = await gameOnSale(s, sessionId, [seriesId], 10)
    const path = `/api/games/${g.gameId}/closing/sign`
    const early = await s.call('mesa1', 'POST', path, {})
    expect(early.status).toBe(409)
    expect(early.body.error.detail).toMatch(/BNG-73/)
    await playToTheEnd(s.server.services, g.gameId)
    for (const who of ['locutor', 'cajera', 'auditor', 'jefa'] as const)
      expect((await s.call(who, 'POST', path, {})).status, who).toBe(403)
    const kiosk = await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId })
    expect((await api(s.server.url, 'POST', path, {}, { authorization: `Device ${kiosk.credential}` })).status).toBe(
      403,
    )
    // A name in the body is not a signature.
    expect((await s.call('mesa1', 'POST', path, { signedBy: 'Otra Persona' })).status).toBe(400)
    const signed = await s.call('mesa1', 'POST', path, { note: 'Partida cerrada sin incidencias' })
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    expect(signed.body.signedBy).toEqual({ name: 'Luis Mamani', role: 'floor_manager' })
    expect((await s.call('mesa2', 'POST', path, {})).status).toBe(409)
    const minutes = await s.call('auditor', 'GET', `/api/sessions/${sessionId}/minutes`)
    const game = (minutes.body.games as Array<{ gameId: string; closing: unknown }>).find((x) => x.gameId === g.gameId)!
    expect(game.closing).toMatchObject({
      signedBy: 'Luis Mamani',
      role: 'floor_manager',
      note: 'Partida cerrada sin incidencias',
    })
    const pdf = await fetch(`${s.server.url}/api/sessions/${sessionId}/minutes.pdf`, { headers: s.headers('auditor') })
    expect(pdf.status).toBe(200)
    const rec = await s.server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'game.closing_signed'",
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({
      gameId: g.gameId,
      rule: 'BNG-73',
      signedBy: { name: 'Luis Mamani' },
    })
  })
})
