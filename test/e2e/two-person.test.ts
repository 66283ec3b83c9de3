import { TEST_LICENCE, TEST_SALE_RULES, TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill } from '../helpers/till.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { equipForManualGames } from '../helpers/ball-sets.ts'

/**
 * Issue 14 point 2 and point 8 over real HTTP with authentication on: the actions a rule wants two people for take
 * the second person's own credential, never a name from the body, and journal and print both names.
 * BNG-74 incident entries (Bolivia: jefe de mesa and director de bingo), BNG-25/27 witnessed recounts, and
 * GEN-16/GEN-26 payouts of a named lotto slip to someone other than its buyer.
 */
const PASSWORD = 'correct horse battery'
const second = (username: string, password = PASSWORD) => ({
  'x-bolillo-second-person': Buffer.from(`${username}:${password}`, 'utf8').toString('base64'),
})
type Rec = { type: string; payload: any; actor?: any }
const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined

describe('two-person actions (issue 14 points 2 and 8)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const tokens = new Map<string, string>()
  const PEOPLE = [
    ['jefa', 'Marta Quispe', 'director', undefined],
    ['mesa', 'Luis Mamani', 'floor_manager', undefined],
    ['mesa2', 'Ana Choque', 'floor_manager', undefined],
    ['locutor', 'Pedro Flores', 'caller', undefined],
    ['sala', 'Elena Ruiz', 'hall_manager', undefined],
    ['cajera', 'Rosa Vargas', 'cashier', undefined],
    ['loto', 'Jorge Salas', 'lottery_operator', undefined],
    ['otra', 'Directora de Otra Sala', 'director', ['otra']],
  ] as const
  const as = (who: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${tokens.get(who)}`,
    'accept-language': 'es',
    ...extra,
  })
  const call = (who: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    api(server.url, method, path, body, as(who, extra))
  const login = async () => {
    for (const [u] of PEOPLE) tokens.set(u, (await server.services.auth.login(u, PASSWORD)).token)
  }
  /** The printed minutes' text (pdftotext), or null where poppler is not installed (CI installs it). */
  const minutesText = async (sessionId: string): Promise<string | null> => {
    const res = await fetch(`${server.url}/api/sessions/${sessionId}/minutes.pdf`, { headers: as('jefa') })
    expect(res.status).toBe(200)
    if (!hasPdftotext) {
      if (process.env.CI === 'true') throw new Error('pdftotext (poppler-utils) is required under CI=true')
      return null
    }
    const file = join(server.dataDir, `acta-${sessionId}.pdf`)
    writeFileSync(file, Buffer.from(await res.arrayBuffer()))
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
  }
  const journal = async (type: string): Promise<Rec[]> =>
    ((await call('jefa', 'GET', '/api/journal?limit=2000')).body.records as Rec[]).filter((r) => r.type === type)
  let seriesBo = ''
  let seriesEs = ''

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth, bingo } = server.services
    await bingo.createHall({
      id: 'bo',
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 200,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    await bingo.createHall({
      id: 'es',
      name: 'Sala Altamira',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 200,
    })
    await bingo.createHall({
      id: 'otra',
      name: 'Otra sala',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 300, seed: 'two people' })
    seriesBo = (await bingo.createSeries({ hallId: 'bo', code: 'A', masterSetId: set.id, faceValueCents: 500 })).id
    seriesEs = (await bingo.createSeries({ hallId: 'es', code: 'A', masterSetId: set.id, faceValueCents: 500 })).id
    for (const hall of ['bo', 'es']) await equipForManualGames(server.services, hall)
    for (const [username, displayName, role, halls] of PEOPLE)
      await auth.createUser({
        username,
        displayName,
        role,
        password: PASSWORD,
        ...(halls ? { halls: [...halls] } : {}),
      })
    await login()
  })
  afterAll(async () => server?.cleanup())

  let sessionBo = ''
  let sessionEs = ''

  it('opens a session only with the recount witnessed by a director or jefe de sala who types their own credential; the body names no one (BNG-27, BNG-25)', async () => {
    const open = (who: string, body: unknown, extra: Record<string, string> = {}) =>
      call(who, 'POST', '/api/halls/bo/sessions', body, extra)
    const refusals = [
      await open('mesa', {
        recount: { ballsCounted: 90, confirmedBy: 'Directora de Bingo' },
        checklist: { extractor: true, cctv: true, displays: true, sound: true },
      }),
      await open(
        'mesa',
        { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
        second('mesa'),
      ),
      await open(
        'mesa',
        { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
        second('mesa2'),
      ),
      await open(
        'mesa',
        { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
        second('jefa', 'not her password'),
      ),
    ]
    for (const r of refusals) {
      expect(r.status, JSON.stringify(r.body)).toBe(403)
      expect(r.body.error.code).toBe('SECOND_PERSON_REQUIRED')
      expect(r.body.error.message).toMatch(/segunda persona/)
    }
    expect((await call('jefa', 'GET', '/api/halls/bo')).body.openSessionId).toBeNull()
    // The body's name is ignored: the witness is who typed the credential.
    const ok = await open(
      'mesa',
      {
        recount: { ballsCounted: 90, confirmedBy: 'Directora de Bingo' },
        checklist: { extractor: true, cctv: true, displays: true, sound: true },
      },
      second('jefa'),
    )
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    sessionBo = ok.body.id
    const opened = (await journal('session.opened')).find((r) => r.payload.sessionId === sessionBo)!
    expect(opened.payload.recount).toEqual({ ballsCounted: 90, countedBy: 'Luis Mamani', confirmedBy: 'Marta Quispe' })
    const minutes = (await call('jefa', 'GET', `/api/sessions/${sessionBo}/minutes`)).body
    expect(minutes.openRecount).toEqual({ ballsCounted: 90, countedBy: 'Luis Mamani', confirmedBy: 'Marta Quispe' })
    const printed = await minutesText(sessionBo)
    if (printed !== null)
      for (const text of ['contado por', 'luis mamani', 'marta quispe']) expect(printed.toLowerCase()).toContain(text)

    // Cantabria (BNG-27, BNG-96): the jefe de sala witnesses the recount at the start and at the end.
    const es = await call(
      'mesa',
      'POST',
      '/api/halls/es/sessions',
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      second('sala'),
    )
    expect(es.status, JSON.stringify(es.body)).toBe(201)
    sessionEs = es.body.id
    const noWitness = await call('mesa', 'POST', `/api/sessions/${sessionEs}/close`, {
      recount: { ballsCounted: 90, confirmedBy: 'Elena Ruiz' },
    })
    expect(noWitness.body.error.code).toBe('SECOND_PERSON_REQUIRED')
  })

  it("declares an incident in a Bolivian hall only with the jefe de mesa's and the director de bingo's signatures, both journaled and in the minutes (BNG-74)", async () => {
    const { bingo } = server.services
    const game = await bingo.announceGame({ sessionId: sessionBo, seriesIds: [seriesBo], drawSource: 'rng' })
    await bingo.openSales(game.gameId)
    const declare = (
      who: string,
      confirm?: { username: string; password: string },
      extra: Record<string, string> = {},
    ) =>
      call(
        who,
        'POST',
        `/api/games/${game.gameId}/incidents`,
        { kind: 'device-failure-before-first-ball', note: 'El extractor no arranca', ...(confirm ? { confirm } : {}) },
        extra,
      )
    const cases: Array<[string, Awaited<ReturnType<typeof declare>>, string]> = [
      ['no co-signer', await declare('mesa'), 'SECOND_PERSON_REQUIRED'],
      [
        'a second floor manager',
        await declare('mesa', { username: 'mesa2', password: PASSWORD }),
        'SECOND_PERSON_REQUIRED',
      ],
      ['the jefe de sala', await declare('mesa', { username: 'sala', password: PASSWORD }), 'SECOND_PERSON_REQUIRED'],
      ['herself', await declare('mesa', { username: 'mesa', password: PASSWORD }), 'SECOND_PERSON_REQUIRED'],
      ['a wrong password', await declare('mesa', { username: 'jefa', password: 'not hers' }), 'SECOND_PERSON_REQUIRED'],
      ['a director of another hall', await declare('mesa', { username: 'otra', password: PASSWORD }), 'WRONG_HALL'],
      ['two directors, no jefe de mesa', await declare('jefa', { username: 'otra', password: PASSWORD }), 'WRONG_HALL'],
    ]
    for (const [why, r, code] of cases) {
      expect(r.status, why).toBe(403)
      expect(r.body.error.code, why).toBe(code)
    }
    expect((await call('mesa', 'GET', `/api/games/${game.gameId}`)).body.status).toBe('on_sale')
    expect((await journal('incident')).filter((r) => r.payload.gameId === game.gameId)).toHaveLength(0)

    // A locutor at his console, the jefe de mesa authorising on it, the director co-signing: three names, two signatures.
    const ok = await declare('locutor', { username: 'jefa', password: PASSWORD }, second('mesa'))
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.status).toBe('suspended')
    const rec = (await journal('incident')).find((r) => r.payload.gameId === game.gameId)!
    expect(rec.payload).toMatchObject({
      by: { name: 'Pedro Flores', role: 'caller' },
      signatureRule: 'BNG-74',
      signedBy: {
        jefeMesa: { name: 'Luis Mamani', role: 'floor_manager' },
        director: { name: 'Marta Quispe', role: 'director' },
      },
    })
    const g = (await call('jefa', 'GET', `/api/sessions/${sessionBo}/minutes`)).body.games.find(
      (x: any) => x.gameId === game.gameId,
    )
    expect(g.incidents).toEqual([
      expect.objectContaining({
        kind: 'device-failure-before-first-ball',
        declaredBy: 'Pedro Flores',
        signedBy: { jefeMesa: 'Luis Mamani', director: 'Marta Quispe' },
      }),
    ])
    const printed = await minutesText(sessionBo)
    if (printed !== null) expect(printed).toContain('Jefe de Mesa: Luis Mamani · Director de Bingo: Marta Quispe')
    // The director declaring, the jefe de mesa co-signing: the same two offices.
    const resumed = await call('jefa', 'POST', `/api/games/${game.gameId}/resume`)
    expect(resumed.status).toBe(200)
    const byDirector = await declare('jefa', { username: 'mesa2', password: PASSWORD })
    expect(byDirector.status, JSON.stringify(byDirector.body)).toBe(200)
    const last = (await journal('incident')).filter((r) => r.payload.gameId === game.gameId).at(-1)!
    expect(last.payload.signedBy).toMatchObject({
      jefeMesa: { name: 'Ana Choque' },
      director: { name: 'Marta Quispe' },
    })
  })

  it("keeps Cantabria's rule: an incident that annuls nothing needs no co-signer there (BNG-74 is Bolivian)", async () => {
    const { bingo } = server.services
    const game = await bingo.announceGame({ sessionId: sessionEs, seriesIds: [seriesEs], drawSource: 'manual' })
    await bingo.openSales(game.gameId)
    const r = await call('mesa', 'POST', `/api/games/${game.gameId}/incidents`, {
      kind: 'device-failure-before-first-ball',
      note: 'El bombo no arranca',
    })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const rec = (await journal('incident')).find((x) => x.payload.gameId === game.gameId)!
    expect(rec.payload.by).toMatchObject({ name: 'Luis Mamani' })
    expect(rec.payload.signedBy).toBeUndefined()
  })

  it("pays a named slip to its buyer; to anyone else only with a supervisor's override, journaled, else a Spanish refusal (GEN-16, GEN-24 item 12, GEN-26)", async () => {
    const { lotto } = server.services
    const created = await call('jefa', 'POST', '/api/lotto/draws', plan649())
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const drawId = created.body.drawId as string
    const slips = []
    for (let i = 0; i < 300; i++)
      slips.push(
        await lotto.sellSlip({
          drawId,
          quickPicks: 5,
          player: { name: `Jugador ${i} Prueba`, document: `${4_000_000 + i} LP` },
          channel: 'counter',
        }),
      )
    t = Date.parse('2025-03-08T19:00:00-04:00')
    await lotto.closeSales(drawId)
    // LNS-14: the draw waits the profile's 30 minutes after the participation file is published.
    t = Date.parse('2025-03-08T20:00:00-04:00')
    await login()
    await lotto.drawRng(drawId)
    await lotto.settle(drawId)
    const winners = []
    for (const s of slips) if ((await lotto.validate(s.code)).outcome === 'WIN') winners.push(s)
    expect(winners.length).toBeGreaterThanOrEqual(3)
    const [a, b, c] = winners
    // Issue 23: the floor manager with no station pays nothing, whatever station the body names, by the old lotto
    // route (gone) or the cash desk's; she pays at an enrolled station out of her own open shift.
    expect(
      (
        await call('mesa', 'POST', '/api/lotto/tickets/pay', {
          code: a.code,
          stationId: 'caja-1',
          payee: { name: 'Carlos Mamani Quispe', document: a.player.document },
        })
      ).status,
    ).toBe(404)
    const noStation = await call('mesa', 'POST', '/api/tickets/pay', {
      code: a.code,
      stationId: 'caja-1',
      payeeName: 'Carlos Mamani Quispe',
      payeeDocument: a.player.document,
    })
    expect(noStation.status, JSON.stringify(noStation.body)).toBe(409)
    expect(noStation.body.error.code).toBe('STATION_REQUIRED')
    const till = await openTill(server.url, server.services, {
      hallId: 'bo',
      username: 'mesa',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 1_000_000,
    })
    const pay = (
      code: string,
      document: string,
      extra: Record<string, string> = {},
      more: Record<string, unknown> = {},
    ) =>
      api(
        server.url,
        'POST',
        '/api/tickets/pay',
        { code, stationId: 'ignorada', payeeName: 'Carlos Mamani Quispe', payeeDocument: document, ...more },
        { ...till.headers, ...extra },
      )

    // The buyer: no override asked, whatever spacing the document is typed with.
    const own = await pay(a.code, a.player.document.replace(' ', ''))
    expect(own.status, JSON.stringify(own.body)).toBe(200)

    const refusals = [await pay(b.code, '9999999 LP')]
    for (const r of refusals) {
      expect(r.status, JSON.stringify(r.body)).toBe(403)
      expect(r.body.error.code).toBe('PAYEE_NOT_BUYER')
      expect(r.body.error.message).toMatch(/comprador/)
    }
    // A cashier or a floor manager is no supervisor for this; nor is the requester himself.
    expect(
      (await pay(b.code, '9999999 LP', second('cajera'), { payeeAuthorisation: 'carta firmada' })).body.error.code,
    ).toBe('SECOND_PERSON_REQUIRED')
    expect(
      (await pay(b.code, '9999999 LP', second('mesa2'), { payeeAuthorisation: 'carta firmada' })).body.error.code,
    ).toBe('SECOND_PERSON_REQUIRED')
    // The supervisor checks the buyer's authorisation and says which.
    expect((await pay(b.code, '9999999 LP', second('loto'))).body.error.code).toBe('VALIDATION_FAILED')
    expect((await lotto.validate(b.code)).outcome).toBe('WIN')
    const ok = await pay(b.code, '9999999 LP', second('loto'), {
      payeeAuthorisation: 'Carta de autorización firmada por el comprador, CI 4000001 LP',
    })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    const paid = (await journal('lotto.prize_paid')).filter((r) => r.payload.receipt === b.receiptNumber)
    expect(paid.length).toBeGreaterThan(0)
    expect(paid[0].payload).toMatchObject({
      payeeIsBuyer: false,
      rule: 'GEN-26',
      override: {
        by: { name: 'Jorge Salas', role: 'lottery_operator' },
        authorisation: expect.stringContaining('Carta de autorización'),
      },
    })
    expect(paid[0].payload.actor).toMatchObject({ name: 'Luis Mamani' })
    // Issue 26 (REGULATIONS.md §8, GEN-7): the payout's record names the seal code of the station that paid it.
    const seal = await server.services.db.get<{ seal_code: string }>(
      'SELECT seal_code FROM device_credentials WHERE id = ?',
      [till.station.id],
    )
    expect(seal?.seal_code).toMatch(/^AJ-PRUEBA-/)
    expect(paid[0].payload).toMatchObject({ stationId: till.station.id, sealCode: seal!.seal_code })
    // The buyer's own payout carries no override.
    expect(
      (await journal('lotto.prize_paid')).find((r) => r.payload.receipt === a.receiptNumber)!.payload.override,
    ).toBeUndefined()
    // The director may override at the cashier's generic scan as well.
    const generic = await api(
      server.url,
      'POST',
      '/api/tickets/pay',
      {
        code: c.code,
        payeeName: 'Rosa Flores Apaza',
        payeeDocument: '123 CB',
        payeeAuthorisation: 'Poder notarial 55/2025',
      },
      { ...till.headers, ...second('jefa') },
    )
    expect(generic.status, JSON.stringify(generic.body)).toBe(200)
    // Every prize paid left her own drawer, under her shift, and no other.
    const out = await server.services.db.all<{ shift_id: string; station_id: string }>(
      "SELECT shift_id, station_id FROM cash_movements WHERE kind = 'prize_payout'",
    )
    expect(out.length).toBeGreaterThanOrEqual(3)
    expect(new Set(out.map((m) => `${m.shift_id}@${m.station_id}`))).toEqual(
      new Set([`${till.shiftId}@${till.station.id}`]),
    )
  })
})
