import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { playToTheEnd } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { plan649 } from '../helpers/lottery-plans.ts'
import { TEST_RNG_ID } from '../helpers/device-marks.ts'

/** The injected clock: a fixed day, ticking with real time (the test passes on any date). */
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2031-05-06T14:00:00.000Z') + (Date.now() - started)) }

/**
 * Issue 26 (GEN-6, BNG-30, RNG-25, RNG-33). The audit's scenario: "a BO RNG game (the default) is played on software
 * with no registered, certified RNG device". Under a profile that requires one (both shipped profiles), an RNG bingo
 * game is announced and drawn, and a lotto draw by RNG planned and drawn, only while a registered, sealed, certified
 * and active RNG device serves the hall or the operator. The test server registers the operator's RNG (TEST-RNG); the
 * director suspends it here, over real HTTP with authentication on, to watch each path refuse.
 */
describe('RNG draws need a registered, certified RNG device (GEN-6, BNG-30)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const asDirector = () => ({ 'accept-language': 'es', authorization: `Bearer ${hall.directorToken}` })
  const asCashier = () => ({ 'accept-language': 'es', authorization: `Bearer ${hall.cashierToken}` })
  const rngStatus = async (status: 'active' | 'suspended') => {
    const r = await api(
      server.url,
      'POST',
      `/api/devices/${TEST_RNG_ID}/status`,
      { status, reason: status === 'suspended' ? 'precinto roto en la inspección' : 'precinto repuesto' },
      asDirector(),
    )
    expect(r.status, JSON.stringify(r.body)).toBe(200)
  }
  const refusedNoRng = (r: { status: number; body: any }) => {
    expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([422, 'DEVICE_NOT_CERTIFIED'])
    expect(r.body.error.details).toMatchObject({
      rule: 'GEN-6',
      refused: [{ deviceId: TEST_RNG_ID, problems: ['status-suspended'] }],
    })
    expect(r.body.error.message).toMatch(/^El dispositivo no está registrado, precintado y certificado/)
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    hall = await paidHall(server.services)
  })
  afterAll(async () => server?.cleanup())

  it('the game on sale was announced with the registered RNG, journaled with its seal and certificate', async () => {
    const assigned = await server.services.db.get<{ device_id: string; seal_code: string; certificate_id: string }>(
      "SELECT device_id, seal_code, certificate_id FROM game_devices WHERE game_id = ? AND role = 'rng'",
      [hall.gameId],
    )
    expect(assigned).toEqual({ device_id: TEST_RNG_ID, seal_code: 'AJ-PRUEBA-RNG', certificate_id: 'CC-PRUEBA-RNG' })
    const rec = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'game.device_assigned' AND payload LIKE ?",
      [`%${hall.gameId}%`],
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({ role: 'rng', sealCode: 'AJ-PRUEBA-RNG', rule: 'GEN-7' })
  })

  it('draws no ball while its RNG is suspended, and goes on once it is active again', async () => {
    const sold = await api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/sales`,
      { count: 20, ageConfirmed: true },
      asCashier(),
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    await server.services.bingo.closeSales({ gameId: hall.gameId })
    await rngStatus('suspended')
    const refused = await api(server.url, 'POST', `/api/games/${hall.gameId}/draw`, {}, asDirector())
    expect([refused.status, refused.body.error?.code], JSON.stringify(refused.body)).toEqual([
      422,
      'DEVICE_NOT_CERTIFIED',
    ])
    expect(refused.body.error.details).toMatchObject({ deviceId: TEST_RNG_ID, problems: ['status-suspended'] })
    expect((await server.services.bingo.getGameState(hall.gameId)).balls).toHaveLength(0)
    await rngStatus('active')
    const drawn = await api(server.url, 'POST', `/api/games/${hall.gameId}/draw`, {}, asDirector())
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200)
    await playToTheEnd(server.services, hall.gameId)
  })

  it('announces no RNG game while no registered RNG may draw', async () => {
    const announce = () =>
      api(
        server.url,
        'POST',
        `/api/sessions/${hall.sessionId}/games`,
        { seriesIds: [hall.seriesId], drawSource: 'rng' },
        asDirector(),
      )
    await rngStatus('suspended')
    refusedNoRng(await announce())
    await rngStatus('active')
    const ok = await announce()
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })

  it('plans no lotto draw by RNG while no registered RNG may draw; the plan names the RNG that will draw it', async () => {
    const now = clock.now().getTime()
    const laPaz = (ms: number) => `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`
    const plan = plan649({
      gameCode: 'LOTORNG',
      salesStartAt: laPaz(now - 86_400_000),
      salesCloseAt: laPaz(now + 5 * 86_400_000),
      drawAt: laPaz(now + 5 * 86_400_000 + 3600_000),
      claimDeadline: laPaz(now + 70 * 86_400_000),
    })
    await rngStatus('suspended')
    refusedNoRng(await api(server.url, 'POST', '/api/lotto/draws', plan, asDirector()))
    expect((await api(server.url, 'GET', '/api/lotto/draws', undefined, asDirector())).body.draws ?? []).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ gameCode: 'LOTORNG' })]),
    )
    await rngStatus('active')
    const planned = await api(server.url, 'POST', '/api/lotto/draws', plan, asDirector())
    expect(planned.status, JSON.stringify(planned.body)).toBe(201)
    const rec = await server.services.db.get<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'lotto.draw_planned' AND payload LIKE '%LOTORNG%'",
    )
    expect(JSON.parse(rec!.payload)).toMatchObject({
      rngDevice: { id: TEST_RNG_ID, sealCode: 'AJ-PRUEBA-RNG', certificateId: 'CC-PRUEBA-RNG' },
      rule: 'GEN-6',
    })
  })
})
