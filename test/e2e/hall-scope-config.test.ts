import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, type HallSetup } from '../helpers/cashdesk.ts'
import { sealed } from '../helpers/device-marks.ts'
import { runAs } from '../../server/src/shared/request-context.ts'
import { printedDesign } from '../helpers/cashier.ts'
import { lotteryPlan, plan649, registerLotteryBallSets, registerLottoBallSets } from '../helpers/lottery-plans.ts'

/** The injected clock: a fixed day, ticking with real time (the test passes on any date). */
const started = Date.now()
const clock = { now: () => new Date(Date.parse('2031-05-06T14:00:00.000Z') + (Date.now() - started)) }

/**
 * Issue 23 point 3 for a hall's configuration, over real HTTP with authentication on and real credentials: a
 * director of one hall does not set another hall's game limits (CFG-7) or figure plan (CFG-13), register a camera
 * in it (RNG-30), record a printer serving its kiosk (GEN-4, BNG-9) or a certified build that counts in every hall
 * (RNG-32). The use case decides from what it touches (the game's hall, the hall, the device's and the served
 * device's halls as stored): refused with WRONG_HALL (403), nothing written; her own hall's is accepted. Where the
 * permission gate's guard already sees the hall in the path, the use case is also called directly in her scope, so
 * the check holds for a caller the guard does not stand before.
 */
const PASSWORD = 'correct horse battery'

describe("a hall's configuration is changed only by people of that hall (issue 23 point 3)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let north: HallSetup
  let south: HallSetup
  let kioskNorth: { id: string; credential: string }
  let kioskSouth: { id: string; credential: string }
  const tokens = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: `Bearer ${tokens.get(who)}`, 'accept-language': 'es' })
  const n = async (sql: string, args: unknown[] = []) =>
    Number((await server.services.db.get<{ n: number }>(sql, args))?.n ?? 0)
  /** The journal's records other than the refusals themselves (a 403 is journaled as access.refused). */
  const journal = () => n("SELECT COUNT(*) AS n FROM journal WHERE type NOT LIKE 'access.refused%'")
  const refused = (r: { status: number; body: any }) =>
    expect([r.status, r.body?.error?.code], JSON.stringify(r.body)).toEqual([403, 'WRONG_HALL'])
  /** The use case called in the scope of the director of Sala Norte, past the permission gate. */
  const asNorthDirector = <T>(fn: () => Promise<T>) =>
    runAs(
      () => ({ kind: 'person', id: 'dir-norte', name: 'Directora Norte', role: 'director' }),
      fn,
      () => ({ halls: [north.hallId], deviceHall: null }),
    )
  const codeOf = async (p: Promise<unknown>) =>
    p.then(
      () => 'accepted',
      (e: { code?: string }) => e.code,
    )

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    const { auth } = server.services
    north = await hallWithGameOnSale(server.services, { name: 'Sala Norte', cards: 60 })
    south = await hallWithGameOnSale(server.services, { name: 'Sala Sur', cards: 60 })
    for (const [username, displayName, halls] of [
      ['dir-norte', 'Directora Norte', [north.hallId]],
      ['jefa', 'Marta Quispe', '*'],
    ] as const) {
      await auth.createUser({ username, displayName, role: 'director', password: PASSWORD, halls })
      tokens.set(username, (await auth.login(username, PASSWORD)).token)
    }
    kioskNorth = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco Norte', hallId: north.hallId })
    kioskSouth = await auth.enrolDevice({ ...sealed(), kind: 'kiosk', name: 'Kiosco Sur', hallId: south.hallId })
  })
  afterAll(async () => server?.cleanup())

  it("a game's own bet limits (CFG-7): another hall's game is refused, nothing recorded; her own hall's game takes them", async () => {
    const limits = {
      limits: {
        minCardsPerPurchase: 1,
        maxCardsPerPurchase: 2,
        maxCardsPerPlayer: 4,
        authorisationRef: 'AJ/LIM-2031-4',
      },
    }
    const before = await journal()
    refused(await call('dir-norte', 'PUT', `/api/games/${south.gameId}/sale-limits`, limits))
    expect(
      await codeOf(
        asNorthDirector(() =>
          server.services.bingo.setGameSaleLimits({
            gameId: south.gameId,
            limits: { ...limits.limits, channels: {} },
            by: { kind: 'person', id: 'dir-norte', name: 'Directora Norte', role: 'director' },
          }),
        ),
      ),
    ).toBe('WRONG_HALL')
    expect(await n('SELECT COUNT(*) AS n FROM game_sale_limits WHERE game_id = ?', [south.gameId])).toBe(0)
    expect(await journal()).toBe(before)
    const ok = await call('dir-norte', 'PUT', `/api/games/${north.gameId}/sale-limits`, limits)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(await n('SELECT COUNT(*) AS n FROM game_sale_limits WHERE game_id = ?', [north.gameId])).toBe(1)
  })

  it("a hall's figure plan (CFG-13): another hall's is refused, nothing recorded; her own hall's is set", async () => {
    const plan = { authorisationRef: 'AJ/LIC/FIG-2031-1', prizes: [{ figure: 'four-corners', shareBp: 500 }] }
    const before = await journal()
    refused(await call('dir-norte', 'PUT', `/api/halls/${south.hallId}/figure-plan`, plan))
    expect(
      await codeOf(
        asNorthDirector(() =>
          server.services.bingo.setFigurePlan({
            hallId: south.hallId,
            plan: plan as never,
            by: { kind: 'person', id: 'dir-norte', name: 'Directora Norte', role: 'director' },
          }),
        ),
      ),
    ).toBe('WRONG_HALL')
    expect(await journal()).toBe(before)
    const ok = await call('dir-norte', 'PUT', `/api/halls/${north.hallId}/figure-plan`, plan)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(await journal()).toBeGreaterThan(before)
  })

  it("a ball-exit camera (RNG-30): another hall's is refused, none registered; her own hall's is registered", async () => {
    const cam = (id: string) => ({
      id,
      name: 'Salida de bolas',
      streamUrl: 'http://10.0.0.9/cam',
      sealCode: `AJ-${id}`,
    })
    const before = await journal()
    refused(await call('dir-norte', 'POST', `/api/halls/${south.hallId}/cameras`, cam('CAM-S1')))
    expect(
      await codeOf(
        asNorthDirector(() => server.services.cameras.register({ ...cam('CAM-S2'), hallId: south.hallId }, null)),
      ),
    ).toBe('WRONG_HALL')
    expect(await n('SELECT COUNT(*) AS n FROM hall_cameras WHERE hall_id = ?', [south.hallId])).toBe(0)
    expect(await journal()).toBe(before)
    const ok = await call('dir-norte', 'POST', `/api/halls/${north.hallId}/cameras`, cam('CAM-N1'))
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })

  it("a printer for a device (GEN-4, BNG-9): one serving another hall's kiosk is refused however it is recorded; one for her own hall's kiosk is", async () => {
    const printer = (id: string, extra: Record<string, unknown>) => ({ id, kind: 'printer', name: id, ...extra })
    const devices = () => n('SELECT COUNT(*) AS n FROM devices')
    const before = { devices: await devices(), journal: await journal() }
    // A printer of no hall names no hall the gate could see: the served kiosk's hall, as stored, decides.
    refused(await call('dir-norte', 'POST', '/api/devices', printer('IMP-X1', { servesDeviceId: kioskSouth.id })))
    // Of her hall, serving the other hall's kiosk; of the other hall.
    refused(
      await call(
        'dir-norte',
        'POST',
        '/api/devices',
        printer('IMP-X2', { hallId: north.hallId, servesDeviceId: kioskSouth.id }),
      ),
    )
    refused(await call('dir-norte', 'POST', '/api/devices', printer('IMP-X3', { hallId: south.hallId })))
    // A device of no hall is the operator's.
    refused(await call('dir-norte', 'POST', '/api/devices', printer('IMP-X4', {})))
    expect(await devices()).toBe(before.devices)
    expect(await journal()).toBe(before.journal)

    const own = await call(
      'dir-norte',
      'POST',
      '/api/devices',
      printer('IMP-N1', { hallId: north.hallId, servesDeviceId: kioskNorth.id }),
    )
    expect(own.status, JSON.stringify(own.body)).toBe(201)
    // Repointed at the other hall's kiosk, or moved to the other hall: refused, the record unchanged.
    const j = await journal()
    refused(await call('dir-norte', 'PATCH', '/api/devices/IMP-N1', { servesDeviceId: kioskSouth.id }))
    refused(await call('dir-norte', 'PATCH', '/api/devices/IMP-N1', { hallId: null, servesDeviceId: kioskSouth.id }))
    const row = await server.services.db.get<{ hall_id: string; serves_device_id: string }>(
      'SELECT hall_id, serves_device_id FROM devices WHERE id = ?',
      ['IMP-N1'],
    )
    expect(row).toEqual({ hall_id: north.hallId, serves_device_id: kioskNorth.id })
    expect(await journal()).toBe(j)
    // The director of every hall records one for the southern kiosk; the northern director cannot touch it.
    const south1 = await call(
      'jefa',
      'POST',
      '/api/devices',
      printer('IMP-S1', { hallId: south.hallId, servesDeviceId: kioskSouth.id }),
    )
    expect(south1.status, JSON.stringify(south1.body)).toBe(201)
    refused(await call('dir-norte', 'PATCH', '/api/devices/IMP-S1', { name: 'mía' }))
    expect(
      await codeOf(asNorthDirector(() => server.services.devices.update('IMP-S1', { name: 'mía' }, 'dir-norte'))),
    ).toBe('WRONG_HALL')
    const renamed = await call('dir-norte', 'PATCH', '/api/devices/IMP-N1', { name: 'Impresora Norte' })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
  })

  it('a certified build (RNG-32) counts in every hall: a director of one hall neither records nor withdraws one; the director of every hall does', async () => {
    const record = {
      component: 'draw-engine',
      jurisdiction: 'BO-2025',
      version: '9.9.9',
      buildSha256: 'a'.repeat(64),
      certificateRef: 'GLI-BO-2031-77',
      laboratory: 'GLI Europe',
    }
    const rows = () => n('SELECT COUNT(*) AS n FROM certified_software')
    const before = { rows: await rows(), journal: await journal() }
    refused(await call('dir-norte', 'POST', '/api/software', record))
    expect(await rows()).toBe(before.rows)
    expect(await journal()).toBe(before.journal)
    const ok = await call('jefa', 'POST', '/api/software', record)
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    refused(await call('dir-norte', 'POST', `/api/software/${ok.body.id}/withdraw`, { reason: 'caducado' }))
    expect(
      await n("SELECT COUNT(*) AS n FROM certified_software WHERE id = ? AND status = 'active'", [ok.body.id]),
    ).toBe(1)
    const w = await call('jefa', 'POST', `/api/software/${ok.body.id}/withdraw`, { reason: 'caducado' })
    expect(w.status, JSON.stringify(w.body)).toBe(200)
  })

  it("a device's status (GEN-7): another hall's tómbola is not suspended; her own hall's is, and brought back", async () => {
    const status = (id: string) =>
      server.services.db.get<{ status: string }>('SELECT status FROM devices WHERE id = ?', [id]).then((r) => r?.status)
    // Two registered tómbolas, one per hall (the draws below use them).
    for (const [id, hallId, sealCode] of [
      ['TOMBOLA-N', north.hallId, 'AJ-T-N01'],
      ['TOMBOLA-S', south.hallId, 'AJ-T-S01'],
    ] as const) {
      const r = await call('jefa', 'POST', '/api/devices', {
        id,
        kind: 'blower',
        name: `Tómbola ${id}`,
        hallId,
        sealCode,
        certificateId: `AJ-CERT-${sealCode}`,
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
    }
    const before = await journal()
    refused(
      await call('dir-norte', 'POST', `/api/devices/TOMBOLA-S/status`, {
        status: 'suspended',
        reason: 'revisión',
      }),
    )
    // The use case itself, past the permission gate: the device's hall as stored decides.
    expect(
      await codeOf(
        asNorthDirector(() => server.services.devices.setStatus('TOMBOLA-S', 'suspended' as never, 'x', 'dir-norte')),
      ),
    ).toBe('WRONG_HALL')
    expect(await status('TOMBOLA-S')).toBe('active')
    expect(await journal()).toBe(before)
    const own = await call('dir-norte', 'POST', '/api/devices/TOMBOLA-N/status', {
      status: 'suspended',
      reason: 'revisión del sello',
    })
    expect(own.status, JSON.stringify(own.body)).toBe(200)
    expect(await status('TOMBOLA-N')).toBe('suspended')
    const back = await call('dir-norte', 'POST', '/api/devices/TOMBOLA-N/status', {
      status: 'active',
      reason: 'sello verificado',
    })
    expect(back.status, JSON.stringify(back.body)).toBe(200)
  })

  it('a lotto or lottery draw held in a hall (LOT-18, LNS-8): planned only by someone who holds that hall, whatever the plan says', async () => {
    const dates = {
      salesStartAt: '2031-05-07T08:00:00-04:00',
      salesCloseAt: '2031-05-14T19:00:00-04:00',
      drawAt: '2031-05-14T20:00:00-04:00',
      claimDeadline: '2031-07-13T23:59:59-04:00',
    }
    await registerLottoBallSets(server.services)
    await registerLotteryBallSets(server.services, 5)
    const draws = () => n('SELECT COUNT(*) AS n FROM lottery_draws')
    const before = { draws: await draws(), journal: await journal() }
    const lotto = (hallId: string, device: string, gameCode: string) =>
      plan649({ gameCode, drawMethod: 'manual', drawDevice: device, drawHallId: hallId, ...dates })
    const lottery = (hallId: string, device: string, gameCode: string) =>
      lotteryPlan({ gameCode, drawMethod: 'manual', drawDevice: device, drawHallId: hallId, ...dates })
    expect(
      await codeOf(asNorthDirector(() => server.services.lotto.createDraw(lotto(south.hallId, 'AJ-T-S01', 'SURLOTO')))),
    ).toBe('WRONG_HALL')
    expect(
      await codeOf(
        asNorthDirector(() => server.services.lottery.createLottery(lottery(south.hallId, 'AJ-T-S01', 'SURLOTE'))),
      ),
    ).toBe('WRONG_HALL')
    expect(await draws()).toBe(before.draws)
    expect(await journal()).toBe(before.journal)
    // Her own hall's draw, with her hall's tómbola, is planned.
    expect(
      await codeOf(asNorthDirector(() => server.services.lotto.createDraw(lotto(north.hallId, 'AJ-T-N01', 'NORLOTO')))),
    ).toBe('accepted')
    expect(
      await codeOf(
        asNorthDirector(() => server.services.lottery.createLottery(lottery(north.hallId, 'AJ-T-N01', 'NORLOTE'))),
      ),
    ).toBe('accepted')
    expect(await draws()).toBe(before.draws + 2)
  })

  it("a hall's on-screen instant switch (INS-15): another hall's is not switched; her own hall's is", async () => {
    const settings = { electronicInstantAllowed: true, authorisationRef: 'AJ-RA-2031-7' }
    const switchedOn = (hallId: string) =>
      n("SELECT COUNT(*) AS n FROM journal WHERE type = 'instant.hall_configured' AND scope = ?", [`hall:${hallId}`])
    const before = { south: await switchedOn(south.hallId), journal: await journal() }
    refused(await call('dir-norte', 'POST', `/api/instant/halls/${south.hallId}/settings`, settings))
    expect(
      await codeOf(
        asNorthDirector(() =>
          server.services.instant.configureHall({ hallId: south.hallId, ...settings, by: 'Directora Norte' }),
        ),
      ),
    ).toBe('WRONG_HALL')
    expect([await switchedOn(south.hallId), await journal()]).toEqual([before.south, before.journal])
    const ok = await call('dir-norte', 'POST', `/api/instant/halls/${north.hallId}/settings`, settings)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(await switchedOn(north.hallId)).toBe(1)
  })

  it('an instant pack (INS-5) is activated only by someone of the hall it was shipped to, whatever place the body names', async () => {
    const design = { ...printedDesign, gameNo: 5591 }
    await server.services.instant.generateBatch({ design })
    const ship = (packNo: number, destination: string) =>
      server.services.instant.shipPacks({
        gameNo: design.gameNo,
        fromPack: packNo,
        toPack: packNo,
        destination,
        by: 'almacen',
      })
    await ship(1, south.hallId) // to the hall
    await ship(2, kioskSouth.id) // to one of its stations
    await ship(3, 'Almacén central') // to a place of no hall
    await ship(4, north.hallId)
    const status = async (packNo: number) =>
      (
        await server.services.db.get<{ status: string }>(
          'SELECT p.status FROM instant_packs p JOIN instant_batches b ON b.id = p.batch_id WHERE b.game_no = ? AND p.pack_no = ?',
          [design.gameNo, packNo],
        )
      )?.status
    const activate = (packNo: number, location: string) => ({ gameNo: design.gameNo, packNo, location })
    const before = await journal()
    refused(await call('dir-norte', 'POST', '/api/instant/packs/activate', activate(1, south.hallId)))
    refused(await call('dir-norte', 'POST', '/api/instant/packs/activate', activate(2, kioskSouth.id)))
    // A kiosk of the other hall with its own credential, as a cashier's device would.
    const fromKiosk = await api(server.url, 'POST', '/api/instant/packs/activate', activate(1, south.hallId), {
      authorization: `Device ${kioskNorth.credential}`,
      'accept-language': 'es',
    })
    refused(fromKiosk)
    expect(
      await codeOf(
        asNorthDirector(() =>
          server.services.instant.activatePack({ ...activate(1, south.hallId), by: 'Directora Norte' }),
        ),
      ),
    ).toBe('WRONG_HALL')
    expect([await status(1), await status(2), await journal()]).toEqual(['shipped', 'shipped', before])
    for (const [packNo, location] of [
      [4, north.hallId],
      [3, 'Almacén central'],
    ] as const) {
      const ok = await call('dir-norte', 'POST', '/api/instant/packs/activate', activate(packNo, location))
      expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    }
    const own = await api(server.url, 'POST', '/api/instant/packs/activate', activate(1, south.hallId), {
      authorization: `Device ${kioskSouth.credential}`,
    })
    expect(own.status, JSON.stringify(own.body)).toBe(200)
    expect([await status(1), await status(2), await status(3), await status(4)]).toEqual([
      'activated',
      'shipped',
      'activated',
      'activated',
    ])
  })
})
