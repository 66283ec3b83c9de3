import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import {
  PASSWORD,
  gameOnSale,
  hallWithSeries,
  openSession,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * CFG-20 / BNG-42 step 7 / BNG-50 / BNG-80 (issue 26) over real HTTP with authentication on and a clock the test moves.
 * The texts name the calling rhythm ("ritmo adecuado"), the "¿alguna línea más?" time ("plazo de tiempo prudencial")
 * and the suspension ("plazo prudencial, a juicio del Jefe de Sala") without a number (002 §6.1.5; 004 Bingo III,
 * II.1.b): a hall records its own, with the AJ's reference in Bolivia, and the server holds every path to them.
 */
describe('CFG-20: the hall calling times', () => {
  let s: RulesServer
  let t = Date.parse('2026-05-05T16:00:00.000Z')
  /** Moves the clock `seconds` on. */
  const wait = async (seconds: number) => {
    t += seconds * 1000
    await s.at(new Date(t).toISOString())
  }
  beforeAll(async () => {
    s = await startRulesServer(new Date(t).toISOString())
  })
  afterAll(async () => s?.server.cleanup())

  const times = { minBallIntervalSeconds: 5, claimWindowSeconds: 20, suspensionMinutes: 10 }

  async function boHall(name: string, seed: string) {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name, seed })
    const set = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/calling-times`, {
      ...times,
      authorisationRef: 'AJ-RA-RITMO-1',
    })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    return hall
  }

  it('a Bolivian hall records its times only with the AJ reference, and only the staff who set the rules (CFG-20, CFG-46)', async () => {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'ct-ref' })
    const none = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/calling-times`, times)
    expect(none.status).toBe(422)
    expect(none.body.error.code).toBe('REGULATOR_REF_REQUIRED')
    expect(none.body.error.message).toMatch(/referencia de su resolución/)
    const blank = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/calling-times`, {
      ...times,
      authorisationRef: '   ',
    })
    expect(blank.body.error.code).toBe('REGULATOR_REF_REQUIRED')
    // The caller draws the balls: the rhythm he must keep is not his to set.
    const caller = await s.call('locutor', 'PUT', `/api/halls/${hall.hallId}/calling-times`, {
      ...times,
      minBallIntervalSeconds: 0,
      authorisationRef: 'AJ-RA-RITMO-1',
    })
    expect(caller.status).toBe(403)
    // Nor the jefe de mesa, who closes the window and declares a suspension unresolved: the director sets the times.
    const floor = await s.call('mesa1', 'PUT', `/api/halls/${hall.hallId}/calling-times`, {
      ...times,
      claimWindowSeconds: 0,
      authorisationRef: 'AJ-RA-RITMO-1',
    })
    expect(floor.status).toBe(403)
    const rules = await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/rules`)
    expect(rules.body.callingTimes).toBeNull()
    expect(rules.body.callingTimesAuthority.authority.name).toMatch(/AJ/)
    const ok = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/calling-times`, {
      ...times,
      authorisationRef: 'AJ-RA-RITMO-1',
    })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.callingTimes).toMatchObject({ ...times, authorisationRef: 'AJ-RA-RITMO-1', version: 1 })
    expect(ok.body.plans.some((p: { kind: string }) => p.kind === 'calling-times')).toBe(true)
  })

  for (const mode of ['rng', 'manual', 'blower'] as const) {
    it(`refuses a ball drawn before the hall's interval, and takes it after (${mode}, BNG-42, CFG-20)`, async () => {
      const hall = await boHall(`Sala ritmo ${mode}`, `ct-${mode}`)
      const sessionId = await openSession(s, hall.hallId)
      let gameId: string
      const deviceId = mode === 'blower' ? `BOMBO-${hall.hallId}`.slice(0, 40) : undefined
      if (mode === 'blower') {
        const g = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
          seriesIds: [hall.seriesId],
          drawSource: 'blower',
          deviceId,
        })
        expect(g.status, JSON.stringify(g.body)).toBe(201)
        gameId = g.body.gameId
        expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
        const till = await s.till(hall.hallId)
        const sold = await api(
          s.server.url,
          'POST',
          `/api/games/${gameId}/sales`,
          { ageConfirmed: true, count: 12 },
          till.headers,
        )
        expect(sold.status, JSON.stringify(sold.body)).toBe(201)
      } else gameId = (await gameOnSale(s, sessionId, [hall.seriesId], 12, mode)).gameId
      expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})).status).toBe(200)
      const draw = (ball: number) =>
        mode === 'rng'
          ? s.call('locutor', 'POST', `/api/games/${gameId}/draw`)
          : s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball, deviceId })
      const first = await draw(7)
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      const soon = await draw(8)
      expect(soon.status).toBe(409)
      expect(soon.body.error.code).toBe('CALLING_TOO_SOON')
      expect(soon.body.error.message).toBe(
        'Demasiado pronto para la siguiente bola: el ritmo de la sala deja al menos 5 segundos entre bolas para que todos marquen. Espere 5 segundos.',
      )
      expect(soon.body.error.details).toMatchObject({ step: 'ball', waitSeconds: 5, minSeconds: 5, rule: 'CFG-20' })
      await wait(4)
      const stillSoon = await s.call(
        'locutor',
        'POST',
        mode === 'rng' ? `/api/games/${gameId}/draw` : `/api/games/${gameId}/balls`,
        mode === 'rng' ? undefined : { ball: 8, deviceId },
        { 'accept-language': 'en' },
      )
      expect(stillSoon.status).toBe(409)
      expect(stillSoon.body.error.message).toMatch(/Wait 1 second\.$/)
      await wait(1)
      const second = await draw(8)
      expect(second.status, JSON.stringify(second.body)).toBe(200)
      const state = (await s.call('mesa1', 'GET', `/api/games/${gameId}`)).body
      expect(state.balls).toHaveLength(2)
    })
  }

  it('a Cantabrian hall keeps the "¿alguna línea más?" window and a suspension open their least time (BNG-50, BNG-80)', async () => {
    const hall = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Cantabria', seed: 'ct-es' })
    // 004 leaves the times to the hall's staff: recorded without a Consejería reference.
    const set = await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/calling-times`, {
      minBallIntervalSeconds: 3,
      claimWindowSeconds: 20,
      suspensionMinutes: 10,
    })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body.callingTimes.authorisationRef).toBeNull()
    const sessionId = await openSession(s, hall.hallId)

    // BNG-80: suspended before the first ball, refunded as unresolved no sooner than 10 minutes later.
    const director = { username: 'jefa', password: PASSWORD }
    const g1 = await gameOnSale(s, sessionId, [hall.seriesId], 3, 'manual')
    const sus = await s.call('mesa1', 'POST', `/api/games/${g1.gameId}/incidents`, {
      kind: 'device-failure-before-first-ball',
      note: 'el bombo no arranca',
      confirm: director,
    })
    expect(sus.status, JSON.stringify(sus.body)).toBe(200)
    const unresolved = () =>
      s.call('mesa1', 'POST', `/api/games/${g1.gameId}/incidents`, {
        kind: 'unresolved-suspension',
        reason: 'avería sin resolver',
        confirm: director,
      })
    await wait(9 * 60)
    const early = await unresolved()
    expect(early.status).toBe(409)
    expect(early.body.error.code).toBe('CALLING_TOO_SOON')
    expect(early.body.error.message).toMatch(/al menos 10 minutos\. Espere 60 segundos\.$/)
    expect((await s.call('mesa1', 'GET', `/api/games/${g1.gameId}`)).body.status).toBe('suspended')
    await wait(60)
    const done = await unresolved()
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body.status).toBe('void')

    // BNG-50: the window opens at the verified line and is not closed before 20 seconds.
    const g = await gameOnSale(s, sessionId, [hall.seriesId], 3, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const rows = (
      (await s.call('mesa1', 'GET', `/api/games/${g.gameId}/cards/${g.serials[0]}`)).body.rows as Array<
        Array<number | null>
      >
    ).map((r) => r.filter((n): n is number => typeof n === 'number' && n > 0))
    for (const ball of rows[0]) {
      const r = await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      await wait(3)
    }
    const line = await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, {
      kind: 'line',
      serial: g.serials[0],
    })
    expect(line.body.ok, JSON.stringify(line.body)).toBe(true)
    const close = () => s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})
    await wait(19)
    const tooEarly = await close()
    expect(tooEarly.status).toBe(409)
    expect(tooEarly.body.error.code).toBe('CALLING_TOO_SOON')
    expect(tooEarly.body.error.message).toBe(
      'Aún no puede cerrarse la jugada: después de «¿alguna línea/bingo más?» la sala espera al menos 20 segundos. Espere 1 segundo.',
    )
    expect((await s.call('mesa1', 'GET', `/api/games/${g.gameId}`)).body.status).toBe('line_window')
    await wait(1)
    const closed = await close()
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(closed.body.status).toBe('drawing')
  })
})
