import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyProof } from '../../server/src/shared/draw-proof-v2.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'

/**
 * Issue 15 point 4, over real HTTP with authentication on: no staff lever over an RNG draw (BNG-81 is for blower
 * games), and an annulment needs two people and a reason (BNG-97), named in the journal and the minutes.
 */
const PASSWORD = 'correct horse battery'

describe('no staff lever over an RNG draw, and annulments by two people (issue 15 point 4)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const tokens = new Map<string, string>()
  let sessionId = ''
  let seriesId = ''
  let cashDesk: Till

  const as = (user: string) => ({ authorization: `Bearer ${tokens.get(user)}`, 'accept-language': 'es' })
  const call = (user: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    api(server.url, method, path, body, { ...as(user), ...extra })

  async function gameInPlay(user: string, cards: number): Promise<string> {
    const g = await call(user, 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [seriesId] })
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    const gameId = g.body.gameId as string
    expect((await call(user, 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    // Issue 13: cards are sold at a cash desk, the cash taken into the drawer of the cashier's open shift there.
    // At most 50 cards a purchase, the hall's default maximum bet (BNG-40 / GEN-18).
    for (let left = cards; left > 0; left -= 50) {
      const sold = await api(
        server.url,
        'POST',
        `/api/games/${gameId}/sales`,
        { ageConfirmed: true, count: Math.min(50, left) },
        cashDesk.headers,
      )
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    }
    expect((await call(user, 'POST', `/api/games/${gameId}/sales/close`, {})).status).toBe(200)
    return gameId
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    const { auth } = server.services
    const people = [
      ['jefa', 'Marta Quispe', 'director'],
      ['mesa1', 'Luis Mamani', 'floor_manager'],
      ['mesa2', 'Ana Choque', 'floor_manager'],
      ['locutor', 'Pedro Flores', 'caller'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const
    for (const [username, displayName, role] of people) {
      await auth.createUser({ username, displayName, role, password: PASSWORD })
      tokens.set(username, (await auth.login(username, PASSWORD)).token)
    }
    const hall = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 200,
      bettingPlan: {
        authorisationRef: 'AJ-RA-PRUEBA-1',
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      },
    })
    cashDesk = await openTill(server.url, server.services, {
      hallId: hall.body.id,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
    })
    const set = await call('jefa', 'POST', '/api/master-sets', { count: 600, seed: 'levers' })
    const series = await call('jefa', 'POST', `/api/halls/${hall.body.id}/series`, {
      code: 'A',
      masterSetId: set.body.id,
      faceValueCents: 500,
    })
    seriesId = series.body.id
    // BNG-27: the jefe de mesa counts the balls, the director witnesses it with her own credential.
    const session = await call(
      'mesa1',
      'POST',
      `/api/halls/${hall.body.id}/sessions`,
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      { 'x-bolillo-second-person': Buffer.from(`jefa:${PASSWORD}`).toString('base64') },
    )
    sessionId = session.body.id
  })
  afterAll(async () => server?.cleanup())

  it('refuses the review\'s attack: after "device failure" at ball 1 a floor manager cannot type chosen balls, and the game keeps its committed order', async () => {
    const gameId = await gameInPlay('mesa1', 60)
    const first = await call('mesa1', 'POST', `/api/games/${gameId}/draw`)
    expect(first.status).toBe(200)
    // BNG-74: a Bolivian incident entry is co-signed by the director.
    const failure = await call('mesa1', 'POST', `/api/games/${gameId}/incidents`, {
      kind: 'device-failure-after-first-ball',
      note: 'la pantalla se colgó',
      confirm: { username: 'jefa', password: PASSWORD },
    })
    expect(failure.status).toBe(200)
    expect(failure.body).toMatchObject({ drawSource: 'rng', status: 'drawing' })
    // Every ball a chosen card could still need is refused, for every staff role that may draw.
    const chosen = Array.from({ length: 90 }, (_, i) => i + 1).filter((b) => b !== first.body.ball)
    for (const user of ['mesa1', 'jefa', 'locutor']) {
      for (const ball of chosen.slice(0, 5)) {
        const r = await call(user, 'POST', `/api/games/${gameId}/balls`, { ball })
        expect(r.status).toBe(409)
        expect(r.body.error.code).toBe('RNG_NO_MANUAL_BALL')
        expect(r.body.error.message).toMatch(/generador aleatorio.*orden de extracción comprometido/)
      }
    }
    // Play on to the end: every ball after the incident is the committed order's.
    for (let i = 0; i < 200; i++) {
      const s = (await call('mesa1', 'GET', `/api/games/${gameId}`)).body
      if (s.status === 'finished') break
      const r = s.window
        ? await call('mesa1', 'POST', `/api/games/${gameId}/window/close`)
        : await call('mesa1', 'POST', `/api/games/${gameId}/draw`)
      expect(r.status).toBe(200)
    }
    const proof = (await call('mesa1', 'GET', `/api/games/${gameId}/proof`)).body
    expect(proof.drawSources).toEqual(['rng'])
    expect(proof.balls[0]).toBe(first.body.ball)
    const verified = verifyProof(proof)
    expect(verified.ok, JSON.stringify(verified)).toBe(true)
    const journal = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{
      type: string
      payload: any
    }>
    const incident = journal.find((r) => r.type === 'incident' && r.payload.gameId === gameId)!
    expect(incident.payload).toMatchObject({
      kind: 'device-failure-after-first-ball',
      outcome: 'resume-committed-order',
      by: { name: 'Luis Mamani', role: 'floor_manager' },
    })
  })

  it('annuls a game in play only with a reason and a different floor manager or director who confirms with a password', async () => {
    const gameId = await gameInPlay('mesa1', 40)
    expect((await call('mesa1', 'POST', `/api/games/${gameId}/draw`)).status).toBe(200)
    const annul = (extra: Record<string, unknown>) =>
      call('mesa1', 'POST', `/api/games/${gameId}/incidents`, {
        kind: 'ball-irregularity',
        note: 'bola 33 deformada',
        ...extra,
      })
    const reason = 'La bola 33 está deformada'
    const refusals = [
      await annul({}),
      await annul({ reason }),
      await annul({ reason, confirm: { username: 'mesa1', password: PASSWORD } }),
      await annul({ reason, confirm: { username: 'locutor', password: PASSWORD } }),
      await annul({ reason, confirm: { username: 'cajera', password: PASSWORD } }),
      await annul({ reason, confirm: { username: 'mesa2', password: 'not her password' } }),
      await annul({ reason, confirm: { username: 'nadie', password: PASSWORD } }),
      await annul({ reason: 'mal', confirm: { username: 'mesa2', password: PASSWORD } }),
    ]
    for (const r of refusals) {
      expect(r.status).toBe(403)
      expect(r.body.error.code).toBe('SECOND_PERSON_REQUIRED')
      expect(r.body.error.message).toMatch(/segunda persona/)
    }
    // Nothing changed: still in play, no refund, no void record.
    const still = (await call('mesa1', 'GET', `/api/games/${gameId}`)).body
    expect(still.status).toBe('drawing')
    const before = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{
      type: string
      payload: any
    }>
    expect(before.some((r) => r.type === 'game.void' && r.payload.gameId === gameId)).toBe(false)
    // A body cannot name the requester: the principal is the requester.
    expect(
      (await annul({ reason, requestedBy: 'Ana Choque', confirm: { username: 'mesa2', password: PASSWORD } })).status,
    ).toBe(400)

    const ok = await annul({ reason, confirm: { username: 'jefa', password: PASSWORD } })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ status: 'void', voidReason: 'ball-irregularity', annulment: { reason } })
    const records = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{
      type: string
      at: string
      payload: any
    }>
    const voided = records.find((r) => r.type === 'game.void' && r.payload.gameId === gameId)!
    // The hall is shown the reason and when the annulment was recorded (game_annulments, issue 25 point 5).
    expect(ok.body.annulment).toEqual({ reason, at: voided.at })
    expect(voided.payload).toMatchObject({
      annulledBy: { name: 'Luis Mamani', role: 'floor_manager' },
      confirmedBy: { name: 'Marta Quispe', role: 'director' },
      annulReason: reason,
      refundedCards: 40,
    })
    // The refused attempts were journaled with who tried.
    expect(
      records.filter((r) => r.type === 'access.refused' && r.payload.code === 'SECOND_PERSON_REQUIRED').length,
    ).toBeGreaterThanOrEqual(refusals.length)

    const minutes = (await call('jefa', 'GET', `/api/sessions/${sessionId}/minutes`)).body
    const g = minutes.games.find((x: { gameId: string }) => x.gameId === gameId)
    expect(g.annulment).toEqual({ requestedBy: 'Luis Mamani', confirmedBy: 'Marta Quispe', reason })
    expect(minutes.totals.annulledGames).toBe(1)

    // The same person twice, in another game; two floor managers may annul elsewhere, but a Bolivian entry also
    // wants the director's signature (BNG-74); the director confirming gives both.
    const other = await gameInPlay('mesa2', 10)
    const same = await call('mesa2', 'POST', `/api/games/${other}/incidents`, {
      kind: 'caller-error',
      reason: 'Cantó 61 por 16',
      confirm: { username: 'mesa2', password: PASSWORD },
    })
    expect(same.body.error.code).toBe('SECOND_PERSON_REQUIRED')
    const floorPair = await call('mesa2', 'POST', `/api/games/${other}/incidents`, {
      kind: 'caller-error',
      reason: 'Cantó 61 por 16',
      confirm: { username: 'mesa1', password: PASSWORD },
    })
    expect(floorPair.body.error.code).toBe('SECOND_PERSON_REQUIRED')
    const pair = await call('mesa2', 'POST', `/api/games/${other}/incidents`, {
      kind: 'caller-error',
      reason: 'Cantó 61 por 16',
      confirm: { username: 'jefa', password: PASSWORD },
    })
    expect(pair.body).toMatchObject({ status: 'void', annulment: { reason: 'Cantó 61 por 16' } })
    const after = (await call('jefa', 'GET', `/api/sessions/${sessionId}/minutes`)).body
    expect(after.totals.annulledGames).toBe(2)
  })
})
