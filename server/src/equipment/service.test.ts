import { TEST_LICENCE, TEST_SALE_RULES, TEST_ES_SALE_RULES } from '../../../test/helpers/sale-rules.ts'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import { testConfig } from '../../../test/helpers/server.ts'
import { registerTestCertifier } from '../../../test/helpers/generator-certificate.ts'
import type { Database } from '../db/database.ts'
import { createServices, type Services } from '../services.ts'
import { effectiveGameLimit, warningThreshold } from './ball-sets.ts'
import { seedDemoHall } from '../demo.ts'
import { deviceProblems } from './devices.ts'
import { code } from '../../../test/helpers/error-code.ts'
import { registerTestPrinterAndSoftware, registerTestRng } from '../../../test/helpers/device-marks.ts'

const open: Array<Services> = []
const dbs: Database[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
  dbs.splice(0)
})

/** `withRng`: the operator's registered RNG (issue 26, GEN-6), which every RNG game of both profiles needs. */
async function services(overrides: Parameters<typeof testConfig>[0] = {}, entropyName = 'test-source', withRng = true) {
  const db = await openTestDatabase()
  dbs.push(db)
  const s = await createServices(testConfig(overrides), {
    db,
    entropy: { name: entropyName, randomBytes: (n) => new Uint8Array(randomBytes(n)) },
    clock: { now: () => new Date('2026-11-21T20:00:00Z') },
  })
  if (withRng) {
    await registerTestRng(s)
    await registerTestPrinterAndSoftware(s)
  }
  // INS-3 / RNG-27: the demo's seed generates an instant game, under the test laboratory's signed certificate.
  await registerTestCertifier(s)
  open.push(s)
  return s
}

async function hallWithGame(s: Services, profileId = 'BO-2025') {
  const hall = await s.bingo.createHall({
    name: 'Sala',
    profileId,
    playingPositions: 100,
    ...(profileId === 'BO-2025'
      ? { shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 } }
      : { saleRules: TEST_ES_SALE_RULES }), // BNG-10: the face values the Consejería set
  })
  const set = await s.bingo.createMasterSet({ count: 300, seed: 'equip' })
  const series = await s.bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
  return { hall, series }
}

/** A certified drum (BNG-30) for the hall's manual games. */
async function drumOf(s: Services, hallId: string, id = 'BOMBO-1'): Promise<void> {
  await s.devices.register({
    id,
    kind: 'blower',
    name: 'Bombo',
    hallId,
    sealCode: `AJ-${id}`,
    certificateId: 'CC-1',
    typeApprovalNo: 'HOM-B-1',
  })
}

/** The drum and an active and a reserve set (BNG-24/25/30): what a hall needs before its first manual game. */
async function ballSetsOf(s: Services, hallId: string): Promise<void> {
  await drumOf(s, hallId)
  await s.ballSets.register({ hallId, label: 'A', approvalNo: 'HOM-1', guaranteedGames: 3000 })
  await s.ballSets.register({ hallId, label: 'B', approvalNo: 'HOM-1', guaranteedGames: 3000 })
}

/** Announces a manual game, sells and closes sales; returns its id. */
async function manualGame(s: Services, sessionId: string, seriesId: string): Promise<string> {
  const g = await s.bingo.announceGame({ sessionId, seriesIds: [seriesId], drawSource: 'manual' })
  await s.bingo.openSales(g.gameId)
  await s.bingo.sell({ gameId: g.gameId, count: 10, channel: 'test' })
  await s.bingo.closeSales({ gameId: g.gameId })
  return g.gameId
}

describe('device rules (GEN-7, BNG-30)', () => {
  const now = new Date('2026-06-01T00:00:00Z')
  it('names every reason a device may not take part in play', () => {
    expect(
      deviceProblems({ sealCode: 'AJ-1', certificateId: 'C-1', certificateExpiresAt: null, status: 'active' }, now),
    ).toEqual([])
    expect(
      deviceProblems({ sealCode: ' ', certificateId: null, certificateExpiresAt: null, status: 'active' }, now),
    ).toEqual(['no-seal-code', 'no-certificate'])
    expect(
      deviceProblems(
        { sealCode: 'AJ-1', certificateId: 'C-1', certificateExpiresAt: '2026-05-31T23:59:59Z', status: 'suspended' },
        now,
      ),
    ).toEqual(['certificate-expired', 'status-suspended'])
  })
})

describe('ball-set limits (BNG-24, BNG-26)', () => {
  it('takes the lowest of the profile, the operator and the manufacturer, and refuses more', () => {
    expect(effectiveGameLimit(1000, null, null)).toBe(1000)
    expect(effectiveGameLimit(3000, null, 2500)).toBe(2500)
    expect(effectiveGameLimit(3000, 900, 2500)).toBe(900)
    expect(() => effectiveGameLimit(1000, 1001, null)).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: expect.objectContaining({ rule: 'BNG-24' }) }),
    )
    expect(() => effectiveGameLimit(3000, 2600, 2500)).toThrowError(
      expect.objectContaining({ details: expect.objectContaining({ rule: 'BNG-26' }) }),
    )
  })
  it('warns at 90 % by default', () => {
    expect(warningThreshold(1000, 90)).toBe(900)
    expect(warningThreshold(3000, 90)).toBe(2700)
    expect(warningThreshold(3, 60)).toBe(2)
    expect(warningThreshold(1, 90)).toBe(1)
  })
})

describe('ball sets in play', () => {
  it('uses the profile limit: 1,000 games in Bolivia, 3,000 in Cantabria', async () => {
    const s = await services()
    const bo = await s.bingo.createHall({
      name: 'BO',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const es = await s.bingo.createHall({
      name: 'ES',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    expect((await s.ballSets.register({ hallId: bo.id, label: 'A' })).gameLimit).toBe(1000)
    expect(
      (await s.ballSets.register({ hallId: es.id, label: 'A', approvalNo: 'HOM-1', guaranteedGames: 5000 })).gameLimit,
    ).toBe(3000)
    expect(
      (await s.ballSets.register({ hallId: es.id, label: 'B', approvalNo: 'HOM-1', guaranteedGames: 1200 })).gameLimit,
    ).toBe(1200)
    expect(
      await code(
        s.ballSets.register({
          hallId: es.id,
          label: 'C',
          approvalNo: 'HOM-1',
          guaranteedGames: 1200,
          status: 'active',
        }),
      ),
    ).toBe('CONFLICT')
  })

  it('BNG-26: in Cantabria a set is registered with its approval number and the games its manufacturer guarantees', async () => {
    const s = await services()
    const es = await s.bingo.createHall({
      name: 'ES',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    const bo = await s.bingo.createHall({
      name: 'BO',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    await expect(s.ballSets.register({ hallId: es.id, label: 'A', guaranteedGames: 2000 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'approvalNo', rule: 'BNG-26' },
    })
    await expect(s.ballSets.register({ hallId: es.id, label: 'A', approvalNo: 'HOM-1' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'guaranteedGames', rule: 'BNG-26' },
    })
    expect((await s.ballSets.list(es.id)).sets).toEqual([])
    expect(
      (await s.ballSets.register({ hallId: es.id, label: 'A', approvalNo: 'HOM-1', guaranteedGames: 2000 })).gameLimit,
    ).toBe(2000)
    // Bolivia asks for neither.
    expect((await s.ballSets.register({ hallId: bo.id, label: 'A' })).approvalNo).toBeNull()
  })

  it('counts a game at its first ball, warns before the limit, blocks at it and unblocks after a witnessed change', async () => {
    const s = await services()
    const { hall, series } = await hallWithGame(s)
    await drumOf(s, hall.id)
    const a = await s.ballSets.register({ hallId: hall.id, label: 'A', gameLimit: 2, warnPercent: 50 })
    const b = await s.ballSets.register({ hallId: hall.id, label: 'B' })
    expect(b.status).toBe('reserve')
    const session = await s.bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })

    // A game refunded before its first ball does not wear the set.
    const g0 = await manualGame(s, session.id, series.id)
    await s.bingo.declareIncident({ gameId: g0, kind: 'device-failure-before-first-ball' })
    await s.bingo.declareIncident({ gameId: g0, kind: 'unresolved-suspension' })
    expect((await s.ballSets.get(a.id)).gamesPlayed).toBe(0)

    const g1 = await manualGame(s, session.id, series.id)
    await s.bingo.enterBall(g1, 17)
    await s.bingo.enterBall(g1, 18)
    expect(await s.ballSets.get(a.id)).toMatchObject({ gamesPlayed: 1, warning: true, exhausted: false })
    // Mid-game the set cannot be changed.
    expect(
      await code(s.ballSets.change({ hallId: hall.id, toSetId: b.id, reason: 'x', witnessedBy: 'Director' })),
    ).toBe('ILLEGAL_TRANSITION')
    await s.bingo.declareIncident({ gameId: g1, kind: 'ball-irregularity' })

    const g2 = await manualGame(s, session.id, series.id)
    await s.bingo.enterBall(g2, 5)
    expect(await s.ballSets.get(a.id)).toMatchObject({ gamesPlayed: 2, exhausted: true })
    await s.bingo.declareIncident({ gameId: g2, kind: 'ball-irregularity' })

    expect(
      await code(s.bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'manual' })),
    ).toBe('BALL_SET_EXHAUSTED')
    // RNG games do not use the balls.
    const rng = await s.bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'rng' })
    await s.bingo.declareIncident({ gameId: rng.gameId, kind: 'device-failure-before-first-ball' })
    await s.bingo.declareIncident({ gameId: rng.gameId, kind: 'unresolved-suspension' })

    expect(await code(s.ballSets.change({ hallId: hall.id, toSetId: b.id, reason: 'límite', witnessedBy: '' }))).toBe(
      'VALIDATION_FAILED',
    )
    const changed = await s.ballSets.change({
      hallId: hall.id,
      toSetId: b.id,
      reason: 'límite',
      witnessedBy: 'Director del Bingo',
    })
    expect(changed).toMatchObject({ active: { id: b.id }, previous: { id: a.id, status: 'retired' }, reservesLeft: 0 })
    expect((await s.ballSets.list(hall.id)).warnings).toEqual(['no-reserve-set'])
    // BNG-25: no manual game while the hall has no reserve set.
    expect(
      await code(s.bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'manual' })),
    ).toBe('RESERVE_BALL_SET_REQUIRED')
    await s.ballSets.register({ hallId: hall.id, label: 'C' })
    const g3 = await manualGame(s, session.id, series.id)
    await s.bingo.enterBall(g3, 1)
    expect((await s.ballSets.get(b.id)).gamesPlayed).toBe(1)

    const minutes = await s.minutes.sessionMinutes(session.id)
    expect(minutes.equipment!.map((e) => e.type)).toEqual([
      'ball_set.recount',
      'ball_set.limit_warning',
      'ball_set.limit_reached',
      'ball_set.changed',
    ])
  })

  it('records the recount of the active set at the start and the end of the session (BNG-27)', async () => {
    const s = await services()
    const { hall } = await hallWithGame(s, 'ES-CB-2010')
    await s.ballSets.register({ hallId: hall.id, label: 'A', approvalNo: 'HOM-1', guaranteedGames: 3000 })
    const session = await s.bingo.openSession({
      hallId: hall.id,
      recount: { ballsCounted: 90, confirmedBy: 'Jefe de Mesa' },
    })
    await s.bingo.closeSession(session.id, { ballsCounted: 90, confirmedBy: 'Jefe de Mesa' })
    const recounts = (await s.minutes.sessionMinutes(session.id)).equipment!.filter(
      (e) => e.type === 'ball_set.recount',
    )
    expect(recounts.map((r) => r.details.phase)).toEqual(['start', 'end'])
    expect(recounts[1].details).toMatchObject({
      label: 'A',
      ballsCounted: 90,
      confirmedBy: 'Jefe de Mesa',
      rule: 'BNG-27',
    })
  })

  it('BNG-24/25: a hall plays no manual or blower game without an active set and a reserve; RNG games need neither', async () => {
    const s = await services()
    const { hall, series } = await hallWithGame(s)
    const session = await s.bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
    await s.devices.register({
      id: 'BLW-1',
      kind: 'blower',
      name: 'B',
      hallId: hall.id,
      sealCode: 'AJ-1',
      certificateId: 'C-1',
    })
    expect(
      await code(s.bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'manual' })),
    ).toBe('BALL_SET_REQUIRED')
    expect(
      await code(
        s.bingo.announceGame({
          sessionId: session.id,
          seriesIds: [series.id],
          drawSource: 'blower',
          deviceId: 'BLW-1',
        }),
      ),
    ).toBe('BALL_SET_REQUIRED')
    const a = await s.ballSets.register({ hallId: hall.id, label: 'A' })
    expect(
      await code(s.bingo.announceGame({ sessionId: session.id, seriesIds: [series.id], drawSource: 'manual' })),
    ).toBe('RESERVE_BALL_SET_REQUIRED')
    expect(
      await code(
        s.bingo.announceGame({
          sessionId: session.id,
          seriesIds: [series.id],
          drawSource: 'blower',
          deviceId: 'BLW-1',
        }),
      ),
    ).toBe('RESERVE_BALL_SET_REQUIRED')
    // An RNG game draws no physical ball: no set needed, and it counts no wear.
    const rng = await s.bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await s.bingo.openSales(rng.gameId)
    await s.bingo.sell({ gameId: rng.gameId, count: 10, channel: 'test' })
    await s.bingo.closeSales({ gameId: rng.gameId })
    await s.bingo.drawNext(rng.gameId)
    expect((await s.ballSets.get(a.id)).gamesPlayed).toBe(0)
    await s.bingo.declareIncident({ gameId: rng.gameId, kind: 'ball-irregularity' })
    // With a reserve, the manual game is announced and its first ball counts against the active set.
    await s.ballSets.register({ hallId: hall.id, label: 'B' })
    const g = await manualGame(s, session.id, series.id)
    expect((await s.bingo.enterBall(g, 3)).balls).toEqual([3])
    expect((await s.ballSets.get(a.id)).gamesPlayed).toBe(1)
  })

  it('BNG-25: a reserve set retired after a manual game was announced stops its first ball', async () => {
    const s = await services()
    const { hall, series } = await hallWithGame(s)
    await drumOf(s, hall.id)
    await s.ballSets.register({ hallId: hall.id, label: 'A' })
    const b = await s.ballSets.register({ hallId: hall.id, label: 'B' })
    const session = await s.bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
    const g = await manualGame(s, session.id, series.id)
    await s.ballSets.retire({ setId: b.id, reason: 'bola 7 astillada', by: 'Director' })
    expect(await code(s.bingo.enterBall(g, 3))).toBe('RESERVE_BALL_SET_REQUIRED')
    expect((await s.bingo.getGameState(g)).balls).toEqual([])
  })
})

describe('device registry', () => {
  it('journals registration and changes, and refuses a blower whose HELLO shows another seal', async () => {
    const s = await services({}, 'test-source', false)
    const { hall } = await hallWithGame(s)
    const d = await s.devices.register({
      id: 'BLW-9',
      kind: 'blower',
      name: 'Neumática',
      hallId: hall.id,
      sealCode: 'AJ-9',
      certificateId: 'C-9',
    })
    expect(d.status).toBe('active')
    expect(await code(s.devices.register({ id: 'BLW-10', kind: 'blower', name: 'x', sealCode: 'AJ-9' }))).toBe(
      'CONFLICT',
    )
    const wrong = await s.devices.bringOnline({
      deviceId: 'BLW-9',
      sealCode: 'AJ-8',
      firmware: '1.0',
      port: '/dev/ttyUSB0',
    })
    expect(wrong.ok).toBe(false)
    if (!wrong.ok) expect(wrong.error.details).toMatchObject({ problems: ['seal-mismatch'] })
    expect(
      (await s.devices.bringOnline({ deviceId: 'BLW-9', sealCode: 'AJ-9', firmware: '1.0', port: '/dev/ttyUSB0' })).ok,
    ).toBe(true)
    await s.devices.update('BLW-9', { certificateId: 'C-10' }, 'Director')
    await s.devices.setStatus('BLW-9', 'retired', 'fin de vida', 'Director')
    expect(await code(s.devices.setStatus('BLW-9', 'active', 'x', 'Director'))).toBe('ILLEGAL_TRANSITION')
    const types = (
      await s.db.all<{ type: string }>("SELECT type FROM journal WHERE type LIKE 'device.%' ORDER BY seq")
    ).map((r) => r.type)
    expect(types).toEqual([
      'device.registered',
      'device.refused',
      'device.updated',
      'device.online',
      'device.updated',
      'device.status_changed',
    ])
  })

  it('refuses a ball typed with an unregistered device id', async () => {
    const s = await services()
    const { hall, series } = await hallWithGame(s)
    await ballSetsOf(s, hall.id)
    const session = await s.bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
    const g = await manualGame(s, session.id, series.id)
    expect(await code(s.bingo.enterBall(g, 7, 'NOT-REGISTERED'))).toBe('DEVICE_NOT_CERTIFIED')
    expect((await s.bingo.enterBall(g, 7)).balls).toEqual([7])
  })
})

describe('reader misread corrected after the ball was recorded (BNG-83)', () => {
  it('keeps both values in the journal and shows the ball that prevails in the minutes', async () => {
    const s = await services()
    const { hall, series } = await hallWithGame(s)
    await ballSetsOf(s, hall.id)
    const session = await s.bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
    const g = await manualGame(s, session.id, series.id)
    await s.bingo.enterBall(g, 8)
    await s.bingo.enterBall(g, 31)
    expect(await code(s.bingo.declareIncident({ gameId: g, kind: 'reader-misread' }))).toBe('VALIDATION_FAILED')
    const state = await s.bingo.declareIncident({
      gameId: g,
      kind: 'reader-misread',
      correctedBall: 13,
      note: 'el lector leyó 31',
    })
    expect(state.balls).toEqual([8, 13])
    const corrected = await s.db.get<{ payload: string }>("SELECT payload FROM journal WHERE type = 'ball.corrected'")
    expect(JSON.parse(corrected!.payload)).toMatchObject({
      seq: 2,
      from: 31,
      to: 13,
      kind: 'reader-misread',
      rule: 'BNG-83',
    })
    const minutes = await s.minutes.sessionMinutes(session.id)
    expect(minutes.games[0].balls).toEqual([8, 13])
    expect(minutes.games[0].incidents[0]).toMatchObject({
      kind: 'reader-misread',
      outcome: 'ball-corrected:31->13',
      rule: 'BNG-83',
    })
  })
})

describe('entropy source in the proof (RNG-32)', () => {
  it('states the source that produced each game seed', async () => {
    const s = await services({}, 'hwrng:/dev/test')
    const { hall, series } = await hallWithGame(s)
    const session = await s.bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefe' } })
    const g = await s.bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await s.bingo.declareIncident({ gameId: g.gameId, kind: 'device-failure-before-first-ball' })
    await s.bingo.declareIncident({ gameId: g.gameId, kind: 'unresolved-suspension' })
    expect((await s.bingo.getProof(g.gameId)).entropySource).toBe('hwrng:/dev/test')
    const announced = await s.db.get<{ payload: string }>("SELECT payload FROM journal WHERE type = 'game.announced'")
    expect(JSON.parse(announced!.payload).entropySource).toBe('hwrng:/dev/test')
  })
})

describe('demo hall with the simulated blower (BOLILLO_BALL_SOURCE=sim)', () => {
  it('registers the simulator, brings it online and draws the demo game from it', async () => {
    const s = await services({ ballSource: 'sim', blowerHeartbeatMs: 2000 })
    const demo = await seedDemoHall(s, { cards: 20 })
    expect((await s.bingo.getGameState(demo.gameId)).drawSource).toBe('blower')
    await s.bingo.closeSales({ gameId: demo.gameId })
    const r = await s.blowers.release(demo.gameId)
    expect(r.outcome).toBe('ball')
    expect(r.state.balls).toEqual([(r as { ball: number }).ball])
    expect(s.equipment.simulator?.released).toEqual(r.state.balls)
    expect((await s.ballSets.list(demo.hallId)).active).toMatchObject({ label: 'Demo 1', gamesPlayed: 1 })
  })
})

describe("CFG-20: the hall's rhythm is checked before a connected blower lets a ball out", () => {
  it('refuses a release before the interval without asking the machine, and releases after it', async () => {
    let t = Date.parse('2026-11-21T20:00:00Z')
    const db = await openTestDatabase()
    dbs.push(db)
    const s = await createServices(testConfig({ ballSource: 'sim', blowerHeartbeatMs: 2000 }), {
      db,
      entropy: { name: 'test-source', randomBytes: (n) => new Uint8Array(randomBytes(n)) },
      clock: { now: () => new Date(t) },
    })
    await registerTestRng(s)
    await registerTestCertifier(s)
    open.push(s)
    const demo = await seedDemoHall(s, { cards: 20 })
    await s.bingo.setCallingTimes({
      hallId: demo.hallId,
      times: {
        authorisationRef: 'AJ-RA-RITMO-1',
        minBallIntervalSeconds: 6,
        claimWindowSeconds: 0,
        suspensionMinutes: 0,
      },
      by: { kind: 'user', id: 'u_jefa', name: 'Marta Quispe', role: 'director' },
    })
    await s.bingo.closeSales({ gameId: demo.gameId })
    const first = await s.blowers.release(demo.gameId)
    expect(first.outcome).toBe('ball')
    t += 2000
    await expect(s.blowers.release(demo.gameId)).rejects.toMatchObject({
      code: 'CALLING_TOO_SOON',
      details: { step: 'ball', waitSeconds: 4 },
    })
    // The machine was not asked: one ball out, one ball recorded.
    expect(s.equipment.simulator?.released).toHaveLength(1)
    expect((await s.bingo.getGameState(demo.gameId)).balls).toHaveLength(1)
    t += 4000
    expect((await s.blowers.release(demo.gameId)).outcome).toBe('ball')
    expect(s.equipment.simulator?.released).toHaveLength(2)
  })
})
