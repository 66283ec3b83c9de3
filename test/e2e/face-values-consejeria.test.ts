import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import {
  PASSWORD,
  openSession,
  registerBallSets,
  registerExtractor,
  startRulesServer,
  type RulesServer,
} from '../helpers/bingo-rules.ts'
import { api } from '../helpers/server.ts'
import { TERMINAL_TERMS } from '../helpers/terminals.ts'
import { openTill, type Till } from '../helpers/till.ts'

/**
 * BNG-10 / CFG-15 (004 Bingo II.1.a, as amended by Decreto 84/2013: "El valor facial de los cartones de bingo será
 * determinado por la Consejería competente en materia de juego"), over real HTTP with authentication on. The audit's
 * scenario: an ES hall with no list of face values sold at any value. Now, while the hall has no face values on record
 * with the Consejería's reference, no series is created, no game announced and no card sold at the counter, the
 * caller's table, a kiosk, a hall terminal or a simultaneous game's joined hall (409 FACE_VALUES_NOT_RECORDED, naming
 * the Consejería in Spanish and English); with the list [5,00 €] a series at 5,00 € sells and one at 7,00 € is refused.
 */
describe('a Cantabrian hall plays only the face values the Consejería set (BNG-10, CFG-15)', () => {
  let s: RulesServer
  let hallId = ''
  let joinedId = ''
  let masterSetId = ''
  let series500 = ''
  let joinedSeries = ''
  let gameId = ''
  let simultaneousId = ''
  let counter: Till
  let joinedCounter: Till
  let kiosk = ''
  let terminal = ''
  const es = { 'accept-language': 'es' }
  const limitsOnly = {
    authorisationRef: 'Consejería — límites de la sala 2026/3',
    minCardsPerPurchase: 1,
    maxCardsPerPurchase: 50,
    maxCardsPerPlayer: 50,
    faceValuesCents: null,
  }
  const withFaces = (faceValuesCents: number[]) => ({
    ...limitsOnly,
    authorisationRef: 'Resolución Consejería 2026/211 (valores faciales)',
    faceValuesCents,
  })
  const setRules = async (id: string, rules: object) => {
    const r = await s.call('jefa', 'PUT', `/api/halls/${id}/sale-rules`, rules)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
  }
  const createSeries = (id: string, code: string, faceValueCents: number, lang = 'es') =>
    s.call(
      'jefa',
      'POST',
      `/api/halls/${id}/series`,
      { code, masterSetId, faceValueCents },
      { 'accept-language': lang },
    )
  const cardsSold = async () => {
    let n = 0
    for (const id of [gameId, simultaneousId])
      n += (await s.call('auditor', 'GET', `/api/games/${id}`)).body.cardsSold as number
    return n
  }
  const refused = (r: { status: number; body: any }, what: string) => {
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(409)
    expect(r.body.error.code, what).toBe('FACE_VALUES_NOT_RECORDED')
    expect(r.body.error.message, what).toMatch(/valores faciales de cartón que fijó la Consejería/)
  }
  const sales = {
    counter: () =>
      api(s.server.url, 'POST', `/api/games/${gameId}/sales`, { ageConfirmed: true, count: 2 }, counter.headers),
    table: async () =>
      api(
        s.server.url,
        'POST',
        `/api/games/${gameId}/sales`,
        { ageConfirmed: true, count: 2 },
        (await s.till(hallId)).headers,
      ),
    kiosk: async () => {
      const voucher = await sellVoucher(s.server.url, hallId, 1_000, {}, counter.headers)
      const r = await api(
        s.server.url,
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId, count: 2 } },
        { ...es, authorization: `Device ${kiosk}` },
      )
      const check = await api(s.server.url, 'POST', '/api/vouchers/check', { code: voucher.code }, counter.headers)
      expect(check.body.status ?? check.body.voucher?.status, 'the kiosk voucher keeps its credit').toBe(
        r.status === 201 ? 'spent' : 'active',
      )
      return r
    },
    terminal: () =>
      api(s.server.url, 'POST', '/api/terminal/cards', { count: 1 }, { ...es, authorization: `Device ${terminal}` }),
    simultaneous: () =>
      api(
        s.server.url,
        'POST',
        `/api/games/${simultaneousId}/halls/${joinedId}/sales`,
        { ageConfirmed: true, count: 2, channel: 'counter' },
        joinedCounter.headers,
      ),
  }

  beforeAll(async () => {
    s = await startRulesServer('2026-11-25T17:00:00.000Z')
    masterSetId = (await s.call('jefa', 'POST', '/api/master-sets', { count: 600, seed: 'face-values-cb' })).body.id
    const halls: string[] = []
    for (const name of ['Sala Pereda', 'Sala Torrelavega']) {
      const h = await s.call('jefa', 'POST', '/api/halls', {
        name,
        profileId: 'ES-CB-2010',
        playingPositions: 200,
        licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3
      })
      expect(h.status, JSON.stringify(h.body)).toBe(201)
      halls.push(h.body.id)
    }
    ;[hallId, joinedId] = halls
    for (const id of halls) {
      await registerBallSets(s, id)
      await registerExtractor(s, id)
    }
    counter = await openTill(s.server.url, s.server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 100_000,
    })
    joinedCounter = await openTill(s.server.url, s.server.services, {
      hallId: joinedId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja Torrelavega',
      floatCents: 100_000,
    })
    kiosk = (await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco 1', hallId }))
      .credential
    // BNG-101: the hall's terminals play under the Consejería's terms.
    await s.server.services.terminals.setTerms({
      hallId,
      ...TERMINAL_TERMS,
      reference: 'Orden Consejería 2026/44 (bingo electrónico)',
      by: 'test',
    })
    terminal = (await s.server.services.auth.enrolDevice({ ...sealed(), kind: 'terminal', name: 'Terminal 1', hallId }))
      .credential
  })
  afterAll(async () => s?.server.cleanup())

  it('creates no series while the hall has no face values on record; the message names the Consejería (es, en)', async () => {
    expect((await s.call('auditor', 'GET', `/api/halls/${hallId}/rules`)).body.bets.faceValuesCents).toBeNull()
    refused(await createSeries(hallId, 'A', 500), 'series')
    const en = await createSeries(hallId, 'A', 500, 'en')
    expect([en.status, en.body.error.code]).toEqual([409, 'FACE_VALUES_NOT_RECORDED'])
    expect(en.body.error.message).toMatch(/card face values on record as set by the Consejería/)
  })

  it('announces no game and sells no card in any channel once the list is withdrawn; nothing sold', async () => {
    for (const id of [hallId, joinedId]) await setRules(id, withFaces([500, 700]))
    const a = await createSeries(hallId, 'A', 500)
    expect(a.status, JSON.stringify(a.body)).toBe(201)
    series500 = a.body.id
    const b = await createSeries(joinedId, 'B', 500)
    expect(b.status, JSON.stringify(b.body)).toBe(201)
    joinedSeries = b.body.id
    const sessionId = await openSession(s, hallId)
    const announce = () =>
      s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
        seriesIds: [series500],
        drawSource: 'manual', // BNG-1: no software draws in Cantabria
      })
    // A version of the sale rules with limits but without the Consejería's face values: no game is announced.
    await setRules(hallId, limitsOnly)
    refused(await announce(), 'announce')
    await setRules(hallId, withFaces([500, 700]))
    const g = await announce()
    expect(g.status, JSON.stringify(g.body)).toBe(201)
    gameId = g.body.gameId
    expect((await s.call('mesa1', 'POST', `/api/games/${gameId}/sales/open`)).status).toBe(200)
    // BNG-100: Torrelavega's own game, simultaneous, its range sold through the hall-range path.
    const joinedSession = await openSession(s, joinedId)
    const g2 = await s.call('mesa1', 'POST', `/api/sessions/${joinedSession}/games`, {
      seriesIds: [joinedSeries],
      drawSource: 'manual',
    })
    expect(g2.status, JSON.stringify(g2.body)).toBe(201)
    simultaneousId = g2.body.gameId
    const j = await s.call('mesa1', 'POST', `/api/games/${simultaneousId}/halls`, {
      hallId: joinedId,
      seriesId: joinedSeries,
      fromCardNo: 1,
      toCardNo: 300,
    })
    expect(j.status, JSON.stringify(j.body)).toBe(201)
    expect((await s.call('mesa1', 'POST', `/api/games/${simultaneousId}/sales/open`)).status).toBe(200)
    const voucher = await sellVoucher(s.server.url, hallId, 3_000, {}, counter.headers)
    const session = await api(
      s.server.url,
      'POST',
      '/api/terminal/session',
      { ageConfirmed: true, voucherCode: voucher.code },
      { ...es, authorization: `Device ${terminal}` },
    )
    expect(session.status, JSON.stringify(session.body)).toBe(201)

    // The list withdrawn again while the game is on sale: nothing is sold, in any channel.
    for (const id of [hallId, joinedId]) await setRules(id, limitsOnly)
    for (const [channel, sell] of Object.entries(sales)) refused(await sell(), channel)
    expect(await cardsSold()).toBe(0)
  })

  it('with the list [5,00 €] recorded again, the game at 5,00 € sells in every channel and 7,00 € is refused', async () => {
    for (const id of [hallId, joinedId]) await setRules(id, withFaces([500]))
    for (const [channel, sell] of Object.entries(sales)) {
      const r = await sell()
      expect(r.status, `${channel}: ${JSON.stringify(r.body)}`).toBe(201)
    }
    expect(await cardsSold()).toBe(9)
    const at700 = await createSeries(hallId, 'C', 700)
    expect([at700.status, at700.body.error.code]).toEqual([422, 'FACE_VALUE_NOT_AUTHORISED'])
    const rules = (await s.call('auditor', 'GET', `/api/halls/${hallId}/rules`)).body.bets
    expect(rules).toMatchObject({
      faceValuesCents: [500],
      authorisationRef: 'Resolución Consejería 2026/211 (valores faciales)',
    })
  })
})
