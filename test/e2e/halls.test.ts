import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill } from '../helpers/till.ts'
import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { sealed } from '../helpers/device-marks.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 14 point 1, over real HTTP with authentication on: people and devices of hall A act on hall A only
 * (DESIGN.md "Money and people"). Every cross-hall action is refused with WRONG_HALL and changes nothing.
 */
const PASSWORD = 'correct horse battery'

describe('hall scoping of people and devices (issue 14 point 1)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const auth = new Map<string, string>()
  const ids = {
    hallA: 'sala-a',
    hallB: 'sala-b',
    sessionB: '',
    gameA: '',
    gameB: '',
    seriesA: '',
    seriesB: '',
    voucherB: '',
    shiftB: '',
  }
  const as = (who: string) => ({ authorization: auth.get(who)!, 'accept-language': 'es' })
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, as(who))

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    const { bingo, auth: access } = server.services
    for (const id of [ids.hallA, ids.hallB])
      await bingo.createHall({
        id,
        name: `Sala ${id}`,
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 200,
        shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
      })
    const set = await bingo.createMasterSet({ count: 600, seed: 'halls' })
    for (const [hall, key] of [
      [ids.hallA, 'A'],
      [ids.hallB, 'B'],
    ] as const) {
      const series = await bingo.createSeries({ hallId: hall, code: 'A', masterSetId: set.id, faceValueCents: 500 })
      ids[`series${key}`] = series.id
      const session = await bingo.openSession({ hallId: hall, recount: { ballsCounted: 90, confirmedBy: 'setup' } })
      if (key === 'B') ids.sessionB = session.id
      const game = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'rng' })
      await bingo.openSales(game.gameId)
      ids[`game${key}`] = game.gameId
    }
    const people = [
      ['jefa', 'Marta Quispe', 'director', '*'],
      ['dir-a', 'Directora A', 'director', [ids.hallA]],
      ['jefe-a', 'Luis Mamani', 'floor_manager', [ids.hallA]],
      ['cajera-a', 'Rosa Vargas', 'cashier', [ids.hallA]],
      ['cajera-b', 'Ana Choque', 'cashier', [ids.hallB]],
      ['dir-b', 'Directora B', 'director', [ids.hallB]],
    ] as const
    for (const [username, displayName, role, halls] of people) {
      await access.createUser({ username, displayName, role, password: PASSWORD, halls })
      auth.set(username, `Bearer ${(await access.login(username, PASSWORD)).token}`)
    }
    for (const [name, kind, hallId] of [
      ['kiosco-a', 'kiosk', ids.hallA],
      ['caja-a', 'cashier_station', ids.hallA],
    ] as const) {
      auth.set(name, `Device ${(await access.enrolDevice({ ...sealed(), kind, name, hallId })).credential}`)
    }
    // The cashiers work logged in at a station of their hall, each with her shift open (issue 13 point 5).
    for (const [username, hallId] of [
      ['cajera-a', ids.hallA],
      ['cajera-b', ids.hallB],
    ] as const) {
      const till = await openTill(server.url, server.services, {
        hallId,
        username,
        password: PASSWORD,
        stationName: `Caja de ${username}`,
      })
      auth.set(username, `Bearer ${till.token}`)
      if (hallId === ids.hallB) ids.shiftB = till.shiftId
    }
    const v = await call('cajera-b', 'POST', '/api/vouchers', {
      hallId: ids.hallB,
      amountCents: 2000,
      cash: countOf(2000),
      stationId: 'caja-b',
      cashierId: 'x',
    })
    expect(v.status).toBe(201)
    ids.voucherB = v.body.voucher.code
  })
  afterAll(async () => server?.cleanup())

  it('refuses every cross-hall action of a person or device of hall A on hall B, and allows the same in hall A', async () => {
    const cross: Array<[string, string, string, unknown?]> = [
      [
        'jefe-a',
        'POST',
        `/api/halls/${ids.hallB}/sessions`,
        {
          recount: { ballsCounted: 90, confirmedBy: 'x' },
          checklist: { extractor: true, cctv: true, displays: true, sound: true },
        },
      ],
      ['jefe-a', 'POST', `/api/sessions/${ids.sessionB}/games`, { seriesIds: [ids.seriesB] }],
      ['jefe-a', 'POST', `/api/games/${ids.gameB}/sales/close`, {}],
      ['jefe-a', 'POST', `/api/games/${ids.gameB}/draw`],
      ['jefe-a', 'GET', `/api/sessions/${ids.sessionB}/minutes`],
      ['cajera-a', 'POST', `/api/games/${ids.gameB}/sales`, { ageConfirmed: true, count: 1 }],
      ['caja-a', 'POST', `/api/games/${ids.gameB}/sales`, { ageConfirmed: true, count: 1 }],
      [
        'cajera-a',
        'POST',
        '/api/vouchers',
        {
          hallId: ids.hallB,
          amountCents: 1000,
          cash: countOf(1000),
          stationId: 's',
          cashierId: 'x',
        },
      ],
      ['cajera-a', 'POST', '/api/vouchers/cashout', { code: ids.voucherB, stationId: 's', cashierId: 'x' }],
      [
        'kiosco-a',
        'POST',
        '/api/kiosk/purchases',
        { voucherCode: ids.voucherB, gameId: ids.gameA, count: 1, kioskId: 'k', ageConfirmed: true },
      ],
      ['dir-a', 'POST', `/api/halls/${ids.hallB}/series`, { code: 'Z', masterSetId: 'x', faceValueCents: 100 }],
      ['dir-a', 'POST', '/api/auth/devices', { kind: 'kiosk', name: 'Kiosco intruso', hallId: ids.hallB }],
      [
        'dir-a',
        'POST',
        '/api/auth/users',
        { username: 'nuevo', displayName: 'Nuevo', role: 'cashier', password: PASSWORD, halls: [ids.hallB] },
      ],
      ['dir-a', 'GET', `/api/prize-register?hallId=${ids.hallB}`],
      // Another hall's drawer: its shift report, and its list of shifts (issue 13 point 5).
      ['cajera-a', 'GET', `/api/shifts/${ids.shiftB}`],
      ['dir-a', 'GET', `/api/shifts/${ids.shiftB}/report.pdf`],
      ['dir-a', 'GET', `/api/shifts?hallId=${ids.hallB}`],
    ]
    const before = await server.services.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM cards')
    for (const [who, method, path, body] of cross) {
      const r = await call(who, method, path, body)
      expect([r.status, r.body?.error?.code], `${who} ${method} ${path}`).toEqual([403, 'WRONG_HALL'])
      // In the user's language, never the code.
      expect(r.body.error.message).toMatch(/otra sala/)
    }
    expect(await server.services.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM cards')).toEqual(before)
    // The same people act in their own hall.
    expect(
      (await call('cajera-a', 'POST', `/api/games/${ids.gameA}/sales`, { ageConfirmed: true, count: 1 })).status,
    ).toBe(201)
    // A station's own credential, with nobody logged in at it, moves no cash (issue 13 point 5).
    const alone = await call('caja-a', 'POST', `/api/games/${ids.gameA}/sales`, { ageConfirmed: true, count: 1 })
    expect([alone.status, alone.body.error.code]).toEqual([409, 'STATION_REQUIRED'])
    // Past the hall check (one card is below the minimum participation, BNG-15).
    expect((await call('jefe-a', 'POST', `/api/games/${ids.gameA}/sales/close`, {})).body.error.code).toBe(
      'MINIMUM_PARTICIPATION',
    )
    // Her own hall's shifts only, with no hall named.
    const mine = await call('cajera-a', 'GET', '/api/shifts')
    expect(mine.body.shifts.map((x: { hall_id?: string; hallId?: string }) => x.hall_id ?? x.hallId)).toEqual([
      ids.hallA,
    ])
    // A one-hall person's report is her hall's, with no hall named (issue 17 reports, issue 14 point 1).
    const ownReport = await call('jefe-a', 'GET', '/api/reports/sales')
    expect(ownReport.status, JSON.stringify(ownReport.body)).toBe(200)
    expect(ownReport.body).toEqual((await call('jefe-a', 'GET', `/api/reports/sales?hallId=${ids.hallA}`)).body)
    // A second person of another hall cannot witness, confirm or authorise here: the recount witness of hall A.
    const witness = (username: string) => ({
      'x-bolillo-second-person': Buffer.from(`${username}:${PASSWORD}`).toString('base64'),
    })
    const foreign = await api(
      server.url,
      'POST',
      `/api/halls/${ids.hallA}/sessions`,
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      { ...as('jefe-a'), ...witness('dir-b') },
    )
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'WRONG_HALL'])
    const ownWitness = await api(
      server.url,
      'POST',
      `/api/halls/${ids.hallA}/sessions`,
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      { ...as('jefe-a'), ...witness('dir-a') },
    )
    expect(ownWitness.body.error?.code).not.toBe('WRONG_HALL')
    // A director of every hall acts in both.
    expect((await call('jefa', 'GET', `/api/sessions/${ids.sessionB}/minutes`)).status).toBe(200)
  })

  it('enrols a device only to a hall that exists, and a person logs in only at a station of their hall', async () => {
    const nowhere = await call('jefa', 'POST', '/api/auth/devices', {
      kind: 'kiosk',
      name: 'Kiosco fantasma',
      hallId: 'no-such-hall',
    })
    expect([nowhere.status, nowhere.body.error.code]).toEqual([404, 'NOT_FOUND'])
    const noHall = await call('jefa', 'POST', '/api/auth/devices', { kind: 'kiosk', name: 'Kiosco sin sala' })
    expect(noHall.status).toBe(400)
    const stationB = await call('jefa', 'POST', '/api/auth/devices', {
      ...sealed(),
      kind: 'cashier_station',
      name: 'Caja B',
      hallId: ids.hallB,
    })
    expect(stationB.status).toBe(201)
    const atB = await api(
      server.url,
      'POST',
      '/api/auth/login',
      { username: 'cajera-a', password: PASSWORD },
      { authorization: `Device ${stationB.body.credential}` },
    )
    expect([atB.status, atB.body.error.code]).toEqual([403, 'WRONG_HALL'])
    const own = await api(
      server.url,
      'POST',
      '/api/auth/login',
      { username: 'cajera-b', password: PASSWORD },
      { authorization: `Device ${stationB.body.credential}` },
    )
    expect(own.status).toBe(200)
  })

  it('journals the refusal with the named person and their address', async () => {
    const rows = await server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'access.refused'",
    )
    const wrongHall = rows.map((r) => JSON.parse(r.payload)).filter((p) => p.code === 'WRONG_HALL')
    expect(wrongHall.length).toBeGreaterThanOrEqual(15)
    expect(wrongHall[0]).toMatchObject({
      principal: { kind: 'person', name: 'Luis Mamani', role: 'floor_manager' },
      address: expect.any(String),
    })
  })
})
