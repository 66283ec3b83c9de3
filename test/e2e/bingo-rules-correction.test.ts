import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PASSWORD,
  gameOnSale,
  hallWithSeries,
  openSession,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * BNG-83 (issue 18) over real HTTP with authentication on. Cantabria (004 Bingo III, II.1.b): the number on the
 * drawn ball always prevails and a wrong call is corrected; an error that cannot be corrected before a prize is
 * awarded and that substantially affects the game annuls it with a full refund. Bolivia (002 §6.1.8.2): a wrong
 * call that substantially affects the game annuls it; there is nothing to correct.
 */
describe('BNG-83: correcting a manually entered ball, and the annulment when it is too late', () => {
  let s: RulesServer
  beforeAll(async () => {
    s = await startRulesServer('2026-05-04T16:00:00.000Z')
  })
  /** A Cantabrian hall of its own per test (a game must end before the next one is announced). */
  const cantabrianHall = async (name: string) => {
    const es = await hallWithSeries(s, { profileId: 'ES-CB-2010', name, seed: name })
    return { es, sessionId: await openSession(s, es.hallId) }
  }
  afterAll(async () => s?.server.cleanup())

  const enter = (gameId: string, ball: number) => s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball })
  const rowsOf = async (gameId: string, serial: string) =>
    (
      (await s.call('mesa1', 'GET', `/api/games/${gameId}/cards/${serial}`)).body.rows as Array<Array<number | null>>
    ).map((r) => r.filter((n): n is number => typeof n === 'number' && n > 0))

  it('corrects a manual ball that is not the last one, and re-evaluates the card it completes (BNG-83)', async () => {
    const { es, sessionId } = await cantabrianHall('Sala Sardinero')
    const g = await gameOnSale(s, sessionId, [es.seriesId], 3, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const rows = await rowsOf(g.gameId, g.serials[0])
    const all = new Set((await Promise.all(g.serials.map((x) => rowsOf(g.gameId, x)))).flat(2))
    const free = Array.from({ length: 90 }, (_, i) => i + 1).filter((n) => !all.has(n))
    // The caller enters four numbers of the card's top row but types a free number for the second ball.
    const typed = [rows[0][0], free[0], rows[0][2], rows[0][3], free[1]]
    for (const b of typed) expect((await enter(g.gameId, b)).status).toBe(200)
    const fixed = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/balls/2/correction`, {
      ball: rows[0][1],
      note: 'cantó otro número: la bola era la ' + rows[0][1],
    })
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200)
    // Ball 2 is now the number on the ball; the last ball was left as it was.
    expect(fixed.body.balls).toEqual([rows[0][0], rows[0][1], rows[0][2], rows[0][3], free[1]])
    // The card's line needs its last number; the claim is verified against the corrected balls.
    expect((await enter(g.gameId, rows[0][4])).status).toBe(200)
    const claim = await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, {
      kind: 'line',
      serial: g.serials[0],
    })
    expect(claim.status, JSON.stringify(claim.body)).toBe(200)
    expect(claim.body.ok).toBe(true)
    const minutes = (await s.call('mesa1', 'GET', `/api/sessions/${sessionId}/minutes`)).body
    expect(JSON.stringify(minutes)).toMatch(new RegExp(`ball-corrected:${free[0]}->${rows[0][1]}`))
  })

  it('refuses a correction once a prize was verified after the wrong ball, and then annuls by two people (BNG-83)', async () => {
    const { es, sessionId } = await cantabrianHall('Sala Puertochico')
    const g = await gameOnSale(s, sessionId, [es.seriesId], 3, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    const rows = await rowsOf(g.gameId, g.serials[0])
    for (const b of rows[0]) expect((await enter(g.gameId, b)).status).toBe(200)
    // Before any award an annulment for a wrong call is refused: the call is corrected instead.
    const early = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/incidents`, {
      kind: 'caller-error',
      reason: 'cantó 61 por 16',
      confirm: { username: 'mesa2', password: PASSWORD },
    })
    expect(early.status).toBe(409)
    expect(early.body.error.details).toMatchObject({ rule: 'BNG-83' })
    expect(
      (await s.call('locutor', 'POST', `/api/games/${g.gameId}/claims`, { kind: 'line', serial: g.serials[0] })).body
        .ok,
    ).toBe(true)
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/window/close`, {})).status).toBe(200)
    const unused = Array.from({ length: 90 }, (_, i) => i + 1).find((n) => !rows[0].includes(n))!
    const late = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/balls/2/correction`, { ball: unused })
    expect(late.status).toBe(409)
    expect(late.body.error.code).toBe('CORRECTION_TOO_LATE')
    // The error could not be corrected before the line was awarded: the game is annulled and every card refunded.
    const annul = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/incidents`, {
      kind: 'caller-error',
      note: 'la bola 2 se cantó mal',
      reason: 'error no subsanable antes del premio de línea',
      confirm: { username: 'mesa2', password: PASSWORD },
    })
    expect(annul.status, JSON.stringify(annul.body)).toBe(200)
    expect(annul.body.status).toBe('void')
    expect(annul.body.voidReason).toBe('caller-error')
  })

  it('a Bolivian hall has no correction: a wrong call annuls the game (BNG-83, 002 §6.1.8.2)', async () => {
    const bo = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Illimani', seed: 'bng83-bo' })
    const session = await openSession(s, bo.hallId)
    const g = await gameOnSale(s, session, [bo.seriesId], 10, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    expect((await enter(g.gameId, 7)).status).toBe(200)
    const r = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/balls/1/correction`, { ball: 8 })
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('RULE_DISABLED')
  })
})
