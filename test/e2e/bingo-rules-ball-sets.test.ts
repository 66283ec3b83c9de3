import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../helpers/server.ts'
import {
  gameOnSale,
  hallWithSeries,
  openSession,
  PASSWORD,
  registerBallSets,
  registerExtractor,
  secondPerson,
  startRulesServer,
  voidBeforeFirstBall,
  type RulesServer,
} from '../helpers/bingo-rules.ts'

/**
 * Issue 18 over real HTTP with authentication on: the balls a hall draws by hand (BNG-23 to BNG-26) and the card
 * layouts it may play (BNG-3 / BNG-4).
 */
describe('ball sets of manual games and card layouts (BNG-3/4, BNG-23 to BNG-26)', () => {
  let s: RulesServer
  beforeAll(async () => {
    s = await startRulesServer('2026-11-21T20:00:00.000Z')
    // A jefe de sala (hall manager): may witness a ball-set change, but is not the Director del Bingo.
    await s.server.services.auth.createUser({
      username: 'sala',
      displayName: 'Jorge Limachi',
      role: 'hall_manager',
      password: PASSWORD,
    })
  })
  afterAll(async () => s?.server.cleanup())

  it('BNG-24/25: no manual game without an active set and a reserve set; the first ball counts against the active set, an RNG game counts nothing', async () => {
    const hall = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Illimani',
      seed: 'bng25',
      noBallSets: true,
    })
    const sessionId = await openSession(s, hall.hallId)
    await registerExtractor(s, hall.hallId)
    const announce = () =>
      s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [hall.seriesId], drawSource: 'manual' })
    const none = await announce()
    expect(none.status).toBe(409)
    expect(none.body.error).toMatchObject({ code: 'BALL_SET_REQUIRED', details: { rule: 'BNG-25' } })
    expect(none.body.error.message).toMatch(/juego de bolas activo/)
    // Only the director registers sets: a jefe de mesa cannot conjure a reserve.
    expect(
      (await s.call('mesa1', 'POST', `/api/halls/${hall.hallId}/ball-sets`, { label: 'Falso', status: 'reserve' }))
        .status,
    ).toBe(403)
    const active = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/ball-sets`, {
      label: 'Juego 1',
      status: 'active',
    })
    expect(active.status).toBe(201)
    const noReserve = await announce()
    expect(noReserve.status).toBe(409)
    expect(noReserve.body.error).toMatchObject({ code: 'RESERVE_BALL_SET_REQUIRED', details: { rule: 'BNG-25' } })
    expect(noReserve.body.error.message).toMatch(/reserva/)
    expect(noReserve.body.error.message).not.toMatch(/RESERVE_BALL_SET_REQUIRED/)
    // Nothing half-written: the refused announcements left no game behind.
    expect((await s.call('jefa', 'GET', `/api/sessions/${sessionId}/minutes`)).body.games).toEqual([])

    // An RNG game draws no physical ball: it is announced without sets and wears none.
    const rng = await gameOnSale(s, sessionId, [hall.seriesId], 10, 'rng')
    await voidBeforeFirstBall(s, rng.gameId)

    expect(
      (await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/ball-sets`, { label: 'Juego 2', status: 'reserve' }))
        .status,
    ).toBe(201)
    // A second set under a label the hall already has is refused for what it is, not as a concurrent write.
    const twice = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/ball-sets`, {
      label: 'Juego 2',
      status: 'reserve',
    })
    expect([twice.status, twice.body.error?.code]).toEqual([409, 'BALL_SET_REFERENCE_TAKEN'])
    expect(twice.body.error.message).toMatch(/Ya hay un juego de bolas registrado con esa referencia/)
    const g = await gameOnSale(s, sessionId, [hall.seriesId], 10, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball: 17 })).status).toBe(200)
    expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball: 18 })).status).toBe(200)
    const sets = (await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/ball-sets`)).body
    expect(sets.active).toMatchObject({ id: active.body.id, gamesPlayed: 1 })
    expect(sets.reservesLeft).toBe(1)
  })

  it('BNG-25: in Bolivia a set change is witnessed by the Director del Bingo, not a jefe de sala, and goes into the minutes', async () => {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Sajama', seed: 'bng25-change' })
    const sessionId = await openSession(s, hall.hallId)
    const sets = (await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/ball-sets`)).body
    const reserve = sets.sets.find((x: { status: string }) => x.status === 'reserve')
    const byHallManager = await s.call(
      'mesa1',
      'POST',
      `/api/halls/${hall.hallId}/ball-sets/change`,
      { toSetId: reserve.id, reason: 'bola 7 astillada' },
      { 'x-bolillo-second-person': Buffer.from(`sala:${PASSWORD}`).toString('base64') },
    )
    expect(byHallManager.status).toBe(403)
    expect(byHallManager.body.error).toMatchObject({ code: 'SECOND_PERSON_REQUIRED', details: { rule: 'BNG-25' } })
    expect((await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/ball-sets`)).body.active.id).toBe(sets.active.id)
    const byDirector = await s.call(
      'mesa1',
      'POST',
      `/api/halls/${hall.hallId}/ball-sets/change`,
      { toSetId: reserve.id, reason: 'bola 7 astillada' },
      secondPerson('jefa'),
    )
    expect(byDirector.status, JSON.stringify(byDirector.body)).toBe(200)
    expect(byDirector.body.active.id).toBe(reserve.id)
    const minutes = (await s.call('jefa', 'GET', `/api/sessions/${sessionId}/minutes`)).body
    expect(minutes.equipment.find((e: { type: string }) => e.type === 'ball_set.changed').details).toMatchObject({
      witnessedBy: 'Marta Quispe',
      witnessRole: 'director',
      reason: 'bola 7 astillada',
      rule: 'BNG-25',
    })
  })

  it('BNG-25/26: in Cantabria a jefe de sala may witness a change; a set is registered only with its approval number and guaranteed games', async () => {
    const hall = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: 'Sala Sardinero',
      seed: 'bng26',
      noBallSets: true,
    })
    const noApproval = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/ball-sets`, {
      label: 'Juego 1',
      guaranteedGames: 2000,
    })
    expect(noApproval.status).toBe(400)
    expect(noApproval.body.error.details).toMatchObject({ field: 'approvalNo', rule: 'BNG-26' })
    const noGuarantee = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/ball-sets`, {
      label: 'Juego 1',
      approvalNo: 'HOM-1',
    })
    expect(noGuarantee.body.error.details).toMatchObject({ field: 'guaranteedGames', rule: 'BNG-26' })
    expect((await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/ball-sets`)).body.sets).toEqual([])
    const { reserveId } = await registerBallSets(s, hall.hallId)
    const change = await api(
      s.server.url,
      'POST',
      `/api/halls/${hall.hallId}/ball-sets/change`,
      { toSetId: reserveId, reason: 'revisión' },
      { ...s.headers('mesa1'), 'x-bolillo-second-person': Buffer.from(`sala:${PASSWORD}`).toString('base64') },
    )
    expect(change.status, JSON.stringify(change.body)).toBe(200)
    expect(change.body.active.id).toBe(reserveId)
  })

  it('BNG-30/31 (CFG-8): a manual game is drawn from a registered, sealed and certified extractor, type-approved in Cantabria; a suspended drum stops it', async () => {
    const es = await hallWithSeries(s, {
      profileId: 'ES-CB-2010',
      name: 'Sala Comillas',
      seed: 'bng31',
      noBallSets: true,
    })
    await registerBallSets(s, es.hallId)
    const sessionId = await openSession(s, es.hallId)
    const announce = () =>
      s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, { seriesIds: [es.seriesId], drawSource: 'manual' })
    const noDrum = await announce()
    expect(noDrum.status).toBe(422)
    expect(noDrum.body.error).toMatchObject({
      code: 'DEVICE_NOT_CERTIFIED',
      details: { problems: ['no-extractor'], rule: 'BNG-30' },
    })
    // Sealed and certified, but not type-approved: not enough under BNG-31.
    expect(
      (
        await s.call('jefa', 'POST', '/api/devices', {
          id: 'BOMBO-ES',
          kind: 'blower',
          name: 'Bombo',
          hallId: es.hallId,
          sealCode: 'PRE-ES-1',
          certificateId: 'CC-ES-1',
        })
      ).status,
    ).toBe(201)
    const unapproved = await announce()
    expect(unapproved.body.error).toMatchObject({
      code: 'DEVICE_NOT_CERTIFIED',
      details: { problems: ['no-type-approval'] },
    })
    // A jefe de mesa cannot fill the number in; the director records it.
    expect((await s.call('mesa1', 'PATCH', '/api/devices/BOMBO-ES', { typeApprovalNo: 'HOM-ES-77' })).status).toBe(403)
    expect((await s.call('jefa', 'PATCH', '/api/devices/BOMBO-ES', { typeApprovalNo: 'HOM-ES-77' })).status).toBe(200)
    const g = await gameOnSale(s, sessionId, [es.seriesId], 3, 'manual')
    const records = await s.server.services.db.all<{ payload: string }>(
      "SELECT payload FROM journal WHERE type = 'game.device_assigned'",
    )
    const assigned = records.map((r) => JSON.parse(r.payload)).find((p) => p.gameId === g.gameId)
    expect(assigned).toMatchObject({
      deviceId: 'BOMBO-ES',
      role: 'extractor',
      sealCode: 'PRE-ES-1',
      certificateId: 'CC-ES-1',
      typeApprovalNo: 'HOM-ES-77',
      rule: 'BNG-30',
    })
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball: 5 })).status).toBe(200)
    expect(
      (await s.call('jefa', 'POST', '/api/devices/BOMBO-ES/status', { status: 'suspended', reason: 'precinto roto' }))
        .status,
    ).toBe(200)
    const stopped = await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball: 6 })
    expect(stopped.body.error).toMatchObject({
      code: 'DEVICE_NOT_CERTIFIED',
      details: { problems: ['status-suspended'] },
    })
  })

  it('BNG-3/4: a 75-ball layout goes on sale in a hall only under its authorisation reference; its sets and recount have 75 balls', async () => {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Tunari', seed: 'bng3' })
    const set75 = await s.call('jefa', 'POST', '/api/master-sets/modality', {
      modality: 'bingo-75',
      count: 100,
      seed: 'bng3-75',
    })
    expect(set75.status).toBe(201)
    // A 75-ball set is refused while the hall has no 75-ball layout.
    expect(
      (await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/ball-sets`, { label: 'Juego 75', ballCount: 75 })).body
        .error,
    ).toMatchObject({ code: 'VALIDATION_FAILED', details: { rule: 'BNG-23', allowed: [90] } })
    const refused = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/series`, {
      code: 'B',
      masterSetId: set75.body.id,
      faceValueCents: 300,
    })
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({
      code: 'LAYOUT_NOT_AUTHORISED',
      details: { field: 'layoutAuthorisationRef', ballCount: 75 },
    })
    expect(refused.body.error.message).toMatch(/licencia o autorización/)
    const series75 = await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/series`, {
      code: 'B',
      masterSetId: set75.body.id,
      faceValueCents: 300,
      layoutAuthorisationRef: 'AJ-LIC-0075',
    })
    expect(series75.status, JSON.stringify(series75.body)).toBe(201)
    const rules = (await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/rules`)).body
    expect(rules.plans).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'layout',
          authorisationRef: 'AJ-LIC-0075',
          createdBy: expect.objectContaining({ name: 'Marta Quispe' }),
        }),
      ]),
    )
    // Another series of the same layout needs no new reference; the layout is authorised in this hall only.
    expect(
      (
        await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/series`, {
          code: 'C',
          masterSetId: set75.body.id,
          faceValueCents: 300,
        })
      ).status,
    ).toBe(201)
    const other = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Huayna',
      seed: 'bng3-other',
      noBallSets: true,
    })
    expect(
      (
        await s.call('jefa', 'POST', `/api/halls/${other.hallId}/series`, {
          code: 'B',
          masterSetId: set75.body.id,
          faceValueCents: 300,
        })
      ).body.error.code,
    ).toBe('LAYOUT_NOT_AUTHORISED')

    // The drum holds the 90-ball set: a 75-ball manual game waits for a change to a 75-ball set.
    const sessionId = await openSession(s, hall.hallId)
    const wrongSet = await s.call('mesa1', 'POST', `/api/sessions/${sessionId}/games`, {
      seriesIds: [series75.body.id],
      drawSource: 'manual',
    })
    expect(wrongSet.status).toBe(409)
    expect(wrongSet.body.error).toMatchObject({
      code: 'BALL_SET_REQUIRED',
      details: { setBallCount: 90, ballCount: 75, rule: 'BNG-23' },
    })
    const sets75 = await registerBallSets(s, hall.hallId, { ballCount: 75, bothReserve: true })
    // The change is witnessed and recorded (BNG-25); the 90-ball set goes back to reserve.
    expect(
      (
        await s.call(
          'mesa1',
          'POST',
          `/api/halls/${hall.hallId}/ball-sets/change`,
          { toSetId: sets75.activeId, reason: 'partidas de 75 bolas', keepOldAsReserve: true },
          secondPerson('jefa'),
        )
      ).status,
    ).toBe(200)
    const g = await gameOnSale(s, sessionId, [series75.body.id], 10, 'manual')
    expect((await s.call('mesa1', 'POST', `/api/games/${g.gameId}/sales/close`, {})).status).toBe(200)
    expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball: 76 })).body.error.code).toBe(
      'BALL_OUT_OF_RANGE',
    )
    expect((await s.call('locutor', 'POST', `/api/games/${g.gameId}/balls`, { ball: 75 })).status).toBe(200)
    expect((await s.call('jefa', 'GET', `/api/halls/${hall.hallId}/ball-sets`)).body.active).toMatchObject({
      id: sets75.activeId,
      ballCount: 75,
      gamesPlayed: 1,
    })
  })

  it('BNG-27 with BNG-3/4: the session recount is of the active set, 75 balls in a 75-ball hall', async () => {
    const hall = await hallWithSeries(s, {
      profileId: 'BO-2025',
      name: 'Sala Potosí',
      seed: 'bng27-75',
      noBallSets: true,
    })
    const set75 = await s.call('jefa', 'POST', '/api/master-sets/modality', {
      modality: 'bingo-75',
      count: 60,
      seed: 'bng27-75',
    })
    expect(
      (
        await s.call('jefa', 'POST', `/api/halls/${hall.hallId}/series`, {
          code: 'B',
          masterSetId: set75.body.id,
          faceValueCents: 300,
          layoutAuthorisationRef: 'AJ-LIC-0075',
        })
      ).status,
    ).toBe(201)
    await registerBallSets(s, hall.hallId, { ballCount: 75 })
    const wrong = await s.call(
      'mesa1',
      'POST',
      `/api/halls/${hall.hallId}/sessions`,
      { recount: { ballsCounted: 90 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      secondPerson('jefa'),
    )
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.details).toMatchObject({ rule: 'BNG-27' })
    const ok = await s.call(
      'mesa1',
      'POST',
      `/api/halls/${hall.hallId}/sessions`,
      { recount: { ballsCounted: 75 }, checklist: { extractor: true, cctv: true, displays: true, sound: true } },
      secondPerson('jefa'),
    )
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })
  it("BNG-34 / GEN-29/31: each incident names the CCTV camera (the hall's ball-exit camera by default) and the recording, in the journal and the minutes", async () => {
    const hall = await hallWithSeries(s, { profileId: 'BO-2025', name: 'Sala Oruro', seed: 'bng34' })
    expect(
      (await s.call('mesa1', 'PUT', `/api/halls/${hall.hallId}/cctv`, { ballCameraId: 'CAM-BOMBO-1' })).status,
    ).toBe(403)
    expect(
      (await s.call('jefa', 'PUT', `/api/halls/${hall.hallId}/cctv`, { ballCameraId: 'CAM-BOMBO-1' })).status,
    ).toBe(200)
    const sessionId = await openSession(s, hall.hallId)
    const g = await gameOnSale(s, sessionId, [hall.seriesId], 10, 'manual')
    const director = { username: 'jefa', password: PASSWORD }
    const suspended = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/incidents`, {
      kind: 'device-failure-before-first-ball',
      note: 'el bombo no gira',
      confirm: director,
    })
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200)
    // A bad reference is refused whole: no entry, the game stays suspended.
    const bad = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/incidents`, {
      kind: 'unresolved-suspension',
      reason: 'avería sin resolver',
      confirm: director,
      cameraId: 'CAM\n2',
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details).toMatchObject({ field: 'cameraId' })
    expect((await s.call('mesa1', 'GET', `/api/games/${g.gameId}`)).body.status).toBe('suspended')
    const voided = await s.call('mesa1', 'POST', `/api/games/${g.gameId}/incidents`, {
      kind: 'unresolved-suspension',
      reason: 'avería sin resolver',
      confirm: director,
      cameraId: 'CAM-SALA-2',
      cctvRef: 'NVR1 2026-11-21 20:05',
    })
    expect(voided.status, JSON.stringify(voided.body)).toBe(200)
    const minutes = (await s.call('jefa', 'GET', `/api/sessions/${sessionId}/minutes`)).body
    const incidents = minutes.games.find((x: { gameId: string }) => x.gameId === g.gameId).incidents
    expect(incidents.map((i: { cctv: unknown }) => i.cctv)).toEqual([
      { cameraId: 'CAM-BOMBO-1', cctvRef: null },
      { cameraId: 'CAM-SALA-2', cctvRef: 'NVR1 2026-11-21 20:05' },
    ])
    const rows = await s.server.services.db.all<{ camera_id: string; cctv_ref: string | null }>(
      'SELECT camera_id, cctv_ref FROM incidents WHERE game_id = ? ORDER BY created_at, kind',
      [g.gameId],
    )
    expect(rows.map((r) => r.camera_id).sort()).toEqual(['CAM-BOMBO-1', 'CAM-SALA-2'])
  })
  it('BNG-41: a session opens only after the check of the equipment, every item working; the check goes into the journal and the minutes', async () => {
    const hall = await hallWithSeries(s, { profileId: 'ES-CB-2010', name: 'Sala Laredo', seed: 'bng41' })
    const open = (body: unknown) =>
      s.call('mesa1', 'POST', `/api/halls/${hall.hallId}/sessions`, body, secondPerson('jefa'))
    const recount = { ballsCounted: 90 }
    expect((await open({ recount })).status).toBe(400)
    const failed = await open({ recount, checklist: { extractor: true, cctv: false, displays: true, sound: true } })
    expect(failed.status).toBe(409)
    expect(failed.body.error).toMatchObject({
      code: 'EQUIPMENT_CHECK_FAILED',
      details: { failed: ['cctv'], rule: 'BNG-41' },
    })
    expect(failed.body.error.message).toMatch(/no funciona/)
    expect((await s.call('jefa', 'GET', `/api/halls/${hall.hallId}`)).body.openSessionId).toBeNull()
    const ok = await open({
      recount,
      checklist: { extractor: true, cctv: true, displays: true, sound: true, note: 'monitor 3 sustituido' },
    })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    const minutes = (await s.call('jefa', 'GET', `/api/sessions/${ok.body.id}/minutes`)).body
    expect(minutes.equipmentCheck).toEqual({
      extractor: true,
      cctv: true,
      displays: true,
      sound: true,
      note: 'monitor 3 sustituido',
      checkedBy: 'Luis Mamani',
      witnessedBy: 'Marta Quispe',
      rule: 'BNG-41',
    })
  })
})
