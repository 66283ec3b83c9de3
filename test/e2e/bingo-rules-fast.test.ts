import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import { checkExport } from '../../server/src/regulator-check/check.ts'
import { TEST_LICENCE } from '../helpers/sale-rules.ts'
import {
  hallWithSeries,
  registerBallSets,
  registerExtractor,
  secondPerson,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * BNG-98 / CFG-32 (002 §6.1.9, bingo rápido) over HTTP with authentication on, in Bolivian halls: "el jugador que
 * logre completar la cantidad de veces requerida por el Operador" wins, and "Los medios de juego y medios de acceso
 * al juego deberán estar claramente establecidos en la Licencia de Operaciones emitida por la AJ". A hall whose
 * recorded licence sets 3 of 5 pays the bingo at the ball that draws a card's 3rd pick; a hall whose licence does not
 * plays every pick, and a game asking for fewer is refused, naming the licence. Numbers chosen by the player:
 * bingo-rules-fast-chosen.test.ts.
 */
describe('fast bingo plays the terms of the hall licence (BNG-98, CFG-32)', () => {
  let s: RulesServer
  const threeOfFive = { universe: 30, picks: 5, timesRequired: 3, playerChooses: false }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-27T18:00:00Z')
  })
  afterAll(async () => s?.server.cleanup())

  /** A Bolivian hall with 30-ball sets and a fast series of 5 picks on 1..30; `fastBingo`: its licence's terms. */
  async function fastHall(code: string, fastBingo?: typeof threeOfFive) {
    const { hallId } = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: `Sala Rápida ${code}`,
      seed: `fast-hall-${code}`,
      noBallSets: true,
    })
    if (fastBingo) {
      const lic = await s.call('jefa', 'PUT', `/api/halls/${hallId}/licence`, {
        authorisationRef: `AJ-LO-RAPIDO-${code}`,
        minimumBasis: 'cards',
        playingPositions: 200,
        // CFG-21: this licence also lets the system claim for the players (the win below is heard at its ball).
        autoClaims: true,
        fastBingo,
      })
      expect(lic.status, JSON.stringify(lic.body)).toBe(200)
    }
    // The fast layout is authorised for the hall (BNG-3) before its 30-ball sets are registered (BNG-23).
    const set = await s.call('jefa', 'POST', '/api/master-sets/modality', {
      modality: 'fast',
      count: 200,
      seed: `fast-${code}`,
      params: { ballCount: 30, picks: 5 },
    })
    expect(set.status, JSON.stringify(set.body)).toBe(201)
    const series = await s.call('jefa', 'POST', `/api/halls/${hallId}/series`, {
      code,
      masterSetId: set.body.id,
      faceValueCents: 500,
      layoutAuthorisationRef: `AJ-LO-RAPIDO-${code}`,
    })
    expect(series.status, JSON.stringify(series.body)).toBe(201)
    await registerBallSets(s, hallId, { ballCount: 30 })
    await registerExtractor(s, hallId)
    const opened = await s.call(
      'mesa1',
      'POST',
      `/api/halls/${hallId}/sessions`,
      { recount: { ballsCounted: 30 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      secondPerson('jefa'),
    )
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    return { hallId, sessionId: opened.body.id as string, seriesId: series.body.id as string }
  }

  const gamesOfSession = async (sessionId: string) =>
    Number(
      (
        await s.server.services.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM games WHERE session_id = ?', [
          sessionId,
        ])
      )?.n,
    )

  const announcedPayload = async (gameId: string) =>
    JSON.parse(
      (await s.server.services.db.get<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'game.announced' AND payload LIKE ?",
        [`%${gameId}%`],
      ))!.payload,
    )

  const rowsOf = async (gameId: string, serial: string) =>
    (
      (await s.call('mesa1', 'GET', `/api/games/${gameId}/cards/${serial}`)).body.rows as Array<Array<number | null>>
    ).map((r) => r.filter((n): n is number => typeof n === 'number' && n > 0))

  it('a licence of 3 of 5: the card sold at the counter wins at the ball that draws its 3rd pick, ties share', async () => {
    const h = await fastHall('R', threeOfFive)
    const rules = (await s.call('jefa', 'GET', `/api/halls/${h.hallId}/rules`)).body
    expect(rules.licence).toMatchObject({ authorisationRef: 'AJ-LO-RAPIDO-R', fastBingo: threeOfFive })
    const g = await s.call('mesa1', 'POST', `/api/sessions/${h.sessionId}/games`, {
      seriesIds: [h.seriesId],
      drawSource: 'manual',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await announcedPayload(gameId)).fastBingo).toMatchObject({
      universe: 30,
      picks: 5,
      timesRequired: 3,
      licence: { authorisationRef: 'AJ-LO-RAPIDO-R' },
      rule: 'BNG-98',
    })
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    const sold = await api(
      s.server.url,
      'POST',
      `/api/games/${gameId}/sales`,
      { ageConfirmed: true, count: 12 },
      (await s.till(h.hallId)).headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    const serials = (sold.body.cards as Array<{ serial: string }>).map((c) => c.serial)
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/close`, {})).status).toBe(200)
    const cards = new Map<string, number[]>()
    for (const serial of serials) cards.set(serial, (await rowsOf(gameId, serial)).flat())
    const mine = cards.get(serials[0])!
    expect(mine).toHaveLength(5)
    // Card 1's first three picks are drawn: two of them win nothing, the third pays.
    const [a, b, c] = mine
    for (const ball of [a, b]) {
      const r = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
    }
    const early = await s.call('locutor', 'POST', `/api/games/${gameId}/claims`, { kind: 'bingo', serial: serials[0] })
    expect(early.body.ok).toBe(false)
    expect((await s.call('mesa1', 'GET', `/api/games/${gameId}/prizes`)).body.prizes).toEqual([])
    const third = await s.call('locutor', 'POST', `/api/games/${gameId}/balls`, { ball: c })
    expect(third.status, JSON.stringify(third.body)).toBe(200)
    // Bolivia claims for the players (CFG-21): the detector heard the bingo at this ball and opened its window.
    expect((await s.call('mesa1', 'GET', `/api/games/${gameId}`)).body.status).toBe('bingo_window')
    const closed = await s.call('mesa1', 'POST', `/api/games/${gameId}/window/close`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(closed.body.status).toBe('finished')
    // Every card holding the three numbers drawn has its 3 hits at the 3rd ball, and shares the bingo (BNG-53).
    const winners = serials.filter((x) => [a, b, c].every((n) => cards.get(x)!.includes(n))).sort()
    expect(winners).toContain(serials[0])
    const prizes = (await s.call('mesa1', 'GET', `/api/games/${gameId}/prizes`)).body.prizes as Array<{
      kind: string
      serial: string
      amount_cents: number | string
    }>
    const bingo = prizes.filter((p) => p.kind === 'bingo')
    expect(bingo.map((p) => p.serial).sort()).toEqual(winners)
    // 12 cards x 5.00 = 60.00; the bingo's 51 % (Plan de Apuestas) = 30.60, split among the winners.
    expect(bingo.reduce((sum, p) => sum + Number(p.amount_cents), 0)).toBe(3060)
    const wins = await s.server.services.db.all<{ at_ball: number | string }>(
      "SELECT at_ball FROM claims WHERE game_id = ? AND kind = 'bingo' AND status = 'verified'",
      [gameId],
    )
    expect(wins.length).toBeGreaterThan(0)
    for (const w of wins) expect(Number(w.at_ball)).toBe(3)
    // The regulator's independent checker replays the game from the control feed with the licence's 3 of 5: the
    // same winners at the same ball, no difference (issue 28's check, `timesRequired` in the feed).
    await s.server.services.regulator.tick()
    const dir = mkdtempSync(join(tmpdir(), 'bolillo-fast-feed-'))
    try {
      await s.server.services.regulator.exportTo(dir)
      const report = checkExport(dir, { publicKeyPem: s.server.services.keys.publicInfo().publicKeyPem })
      expect(report.differences).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a licence without them: every pick wins, a game asking for 3 is refused naming the licence, nothing announced', async () => {
    const h = await fastHall('S')
    const refused = await s.call('mesa1', 'POST', `/api/sessions/${h.sessionId}/games`, {
      seriesIds: [h.seriesId],
      drawSource: 'manual',
      fastBingo: { timesRequired: 3 },
    })
    expect(refused.status, JSON.stringify(refused.body)).toBe(422)
    expect(refused.body.error.code).toBe('RULE_DISABLED')
    expect(refused.body.error.details).toMatchObject({ rule: 'CFG-32', licence: TEST_LICENCE.authorisationRef })
    const chosen = await s.call('mesa1', 'POST', `/api/sessions/${h.sessionId}/games`, {
      seriesIds: [h.seriesId],
      drawSource: 'manual',
      fastBingo: { playerChooses: true },
    })
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(422)
    expect(chosen.body.error.code).toBe('RULE_DISABLED')
    expect(chosen.body.error.details).toMatchObject({ rule: 'BNG-98', licence: TEST_LICENCE.authorisationRef })
    expect(await gamesOfSession(h.sessionId)).toBe(0)
    // Asking for nothing: the default, all five picks.
    const g = await s.call('mesa1', 'POST', `/api/sessions/${h.sessionId}/games`, {
      seriesIds: [h.seriesId],
      drawSource: 'manual',
    })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    expect((await announcedPayload(g.body.gameId)).fastBingo).toMatchObject({ timesRequired: 5, licence: null })
  })

  it('a licence of 3 of 5 refuses a game asking for all 5, naming the licence', async () => {
    const h = await fastHall('T', threeOfFive)
    const r = await s.call('mesa1', 'POST', `/api/sessions/${h.sessionId}/games`, {
      seriesIds: [h.seriesId],
      drawSource: 'manual',
      fastBingo: { timesRequired: 5 },
    })
    expect(r.status, JSON.stringify(r.body)).toBe(422)
    expect(r.body.error).toMatchObject({ code: 'RULE_DISABLED', details: { licence: 'AJ-LO-RAPIDO-T' } })
    expect(await gamesOfSession(h.sessionId)).toBe(0)
  })
})
