import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, connect, startTestServer } from '../helpers/server.ts'

/** Prima, pots and the other modalities over real HTTP, with the state a hall display receives (BNG-37, BNG-55). */
describe('prima, pots and modalities over HTTP', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let socket: Socket
  beforeAll(async () => {
    server = await startTestServer()
    socket = await connect(server.url)
  })
  afterAll(async () => {
    socket?.close()
    await server?.cleanup()
  })

  it('configures a Cantabria prima, refusing amounts outside 50..1,000 in multiples of 50, and shows it on the display', async () => {
    const hall = (
      await api(server.url, 'POST', '/api/halls', {
        name: 'Sala Pereda',
        profileId: 'ES-CB-2010',
        licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
        saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
        playingPositions: 100,
      })
    ).body
    const bad = await api(server.url, 'PUT', `/api/halls/${hall.id}/prima`, { amountsCents: [5_000, 7_500] })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.rule).toBe('BNG-59')
    const ok = await api(server.url, 'PUT', `/api/halls/${hall.id}/prima`, {
      amountsCents: [5_000, 100_000],
      amountCents: 100_000,
    })
    expect(ok.status).toBe(200)
    expect(ok.body.next).toEqual({ active: false, amountCents: 100_000, ballLimit: 50, fundCents: 0 })
    expect((await api(server.url, 'GET', `/api/halls/${hall.id}/prima`)).body.prima.state).toMatchObject({
      amountCents: 100_000,
      ballLimit: 50,
    })

    // BNG-68: no seed money tops up a Cantabrian prize; the bola loca is funded from the games alone.
    const seeded = await api(server.url, 'POST', '/api/pots', {
      name: 'Bola loca',
      kind: 'lucky',
      contributionBp: 100,
      seedCents: 1_000,
      condition: { luckyPrizes: ['bingo'], numbers: 1 },
      hallIds: [hall.id],
    })
    expect(seeded.body.error).toMatchObject({ code: 'RULE_DISABLED', details: { rule: 'BNG-68' } })
    const pot = await api(server.url, 'POST', '/api/pots', {
      name: 'Bola loca',
      kind: 'lucky',
      contributionBp: 100,
      condition: { luckyPrizes: ['bingo'], numbers: 1 },
      hallIds: [hall.id],
    })
    expect(pot.status).toBe(201)
    const set = (
      await api(server.url, 'POST', '/api/master-sets/modality', { modality: 'bingo-75', count: 100, seed: 'http-75' })
    ).body
    expect(set.layout.ballCount).toBe(75)
    // BNG-4: the 75-ball format under the Consejería's express authorisation; a drum with 75-ball sets (BNG-23/25).
    const series = (
      await api(server.url, 'POST', `/api/halls/${hall.id}/series`, {
        code: 'A',
        masterSetId: set.id,
        faceValueCents: 300,
        layoutAuthorisationRef: 'CONSEJERIA-RES-75',
      })
    ).body
    for (const [label, status] of [
      ['Juego 75 A', 'active'],
      ['Juego 75 B', 'reserve'],
    ]) {
      expect(
        (
          await api(server.url, 'POST', `/api/halls/${hall.id}/ball-sets`, {
            label,
            status,
            ballCount: 75,
            approvalNo: 'HOM-75',
            guaranteedGames: 3000,
          })
        ).status,
      ).toBe(201)
    }
    // BNG-31: a type-approved drum.
    expect(
      (
        await api(server.url, 'POST', '/api/devices', {
          id: 'BOMBO-75',
          kind: 'blower',
          name: 'Bombo',
          hallId: hall.id,
          sealCode: 'PRE-75',
          certificateId: 'CC-75',
          typeApprovalNo: 'HOM-B-75',
        })
      ).status,
    ).toBe(201)
    const session = (
      await api(server.url, 'POST', `/api/halls/${hall.id}/sessions`, {
        recount: { ballsCounted: 75, confirmedBy: 'jefe' },
        checklist: { extractor: true, cctv: true, displays: true, sound: true },
      })
    ).body
    const watched = await socket.emitWithAck('hall:watch', { hallId: hall.id })
    expect(watched.ok).toBe(true)
    const statePushed = new Promise<any>((resolve) =>
      socket.on('game:state', (s: any) => {
        if (s.status === 'announced') resolve(s)
      }),
    )
    const game = (
      await api(server.url, 'POST', `/api/sessions/${session.id}/games`, {
        seriesIds: [series.id],
        drawSource: 'manual',
      })
    ).body
    expect(game).toMatchObject({
      ballCount: 75,
      primaActive: false,
      primaAmountCents: 100_000,
      primaBallLimit: 50,
      luckyBall: { numbers: null },
    })
    const shown = await statePushed
    expect(shown).toMatchObject({
      gameId: game.gameId,
      primaBallLimit: 50,
      pots: [{ name: 'Bola loca', amountCents: 0, conditions: expect.stringMatching(/^Bola loca/) }],
    })
    expect((await api(server.url, 'GET', `/api/pots?hallId=${hall.id}`)).body.pots).toHaveLength(1)
    // A one-hall game refuses hall sales; the lucky proof waits for the end of the game; unknown ids are 404.
    expect(
      (
        await api(server.url, 'POST', `/api/games/${game.gameId}/halls/${hall.id}/sales`, {
          ageConfirmed: true,
          count: 1,
        })
      ).status,
    ).toBe(409)
    expect((await api(server.url, 'GET', `/api/games/${game.gameId}/lucky-proof`)).status).toBe(409)
    // Issue 23: no bonus prize is paid by its id (only with its card, at the cash desk); its receipt is unknown.
    expect(
      (
        await api(server.url, 'POST', '/api/bonus-prizes/bz_none/pay', {
          paidBy: 'x',
          payee: { name: 'A', document: 'B' },
        })
      ).body.error.code,
    ).toBe('ROUTE_NOT_FOUND')
    expect((await api(server.url, 'GET', '/api/bonus-prizes/bz_none/receipt')).status).toBe(404)
    expect((await api(server.url, 'GET', '/api/pots/%00')).status).toBe(404)
  })
})
