import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { lotteryPlan, plan649 } from '../helpers/lottery-plans.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 18 (rules), over real HTTP with authentication on, real people and enrolled devices:
 * - LNS-12 / LNS-15: a lotto plan's range is bounded by the operator's licence record (configuration), never by what
 *   the plan says of itself; without a record BO-2025 plans no lotto draw.
 * - LNS-8 / LOT-18: a manual lotto or lottery draw names a registered, sealed, certified device of its hall; each ball
 *   is checked against the registry as it is entered.
 * - LNS-14: the draw waits the profile's hold (30 min) after the participation file is published at the close.
 * - LNS-21: with excluded or annulled plays, the notary's act that lists them is recorded before the draw.
 * - LOT-28: a regional lottery's fractions go only to sellers of halls inside its territory.
 */
const PASSWORD = 'correct horse battery'
const LICENCE = { ref: 'AJ-LO-2025-0007', rangeMin: 20, rangeMax: 60 }

describe('lotto and lottery rules of issue 18: licence range, extraction device, publication hold, notarial act, territory', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  let till: Till
  async function login() {
    for (const username of ['jefa', 'mesa', 'cajera', 'auditor'])
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    if (till) await till.relogin()
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', lottoLicence: LICENCE }, { clock })
    const people = [
      ['jefa', 'Marta Quispe', 'director'],
      ['mesa', 'Luis Mamani', 'floor_manager'],
      ['cajera', 'Rosa Vargas', 'cashier'],
      ['auditor', 'Carlos Rojas', 'auditor'],
    ] as const
    for (const [username, displayName, role] of people)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    for (const [id, name] of [
      ['lapaz', 'Sala La Paz'],
      ['oruro', 'Sala Oruro'],
      ['potosi', 'Sala Potosí'],
    ])
      await server.services.bingo.createHall({
        id,
        name,
        profileId: 'BO-2025',
        saleRules: TEST_SALE_RULES,
        licence: TEST_LICENCE,
        playingPositions: 100,
      })
    await login()
    till = await openTill(server.url, server.services, {
      hallId: 'lapaz',
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja La Paz',
      floatCents: 10_000,
    })
    // The device registry: tómbolas of each hall, one without its certificate, one of the operator (no hall).
    const devices = [
      {
        id: 'tombola-lp',
        kind: 'blower',
        name: 'Tómbola La Paz',
        hallId: 'lapaz',
        sealCode: 'AJ-T-0101',
        certificateId: 'AJ-CERT-0101',
      },
      {
        id: 'tombola-or',
        kind: 'blower',
        name: 'Tómbola Oruro',
        hallId: 'oruro',
        sealCode: 'AJ-T-0202',
        certificateId: 'AJ-CERT-0202',
      },
      { id: 'tombola-sc', kind: 'blower', name: 'Tómbola sin certificado', hallId: 'lapaz', sealCode: 'AJ-T-0303' },
      {
        id: 'impresora-1',
        kind: 'printer',
        name: 'Impresora',
        hallId: 'lapaz',
        sealCode: 'AJ-P-0001',
        certificateId: 'AJ-CERT-P1',
      },
    ]
    for (const d of devices) expect((await call('jefa', 'POST', '/api/devices', d)).status, d.id).toBe(201)
  })
  afterAll(async () => server?.cleanup())

  it("LNS-12: the range comes from the licence record: a plan within it is accepted with the record's range, one outside it is refused whatever it declares", async () => {
    const ok = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'LNSOK', licensedRange: { min: 2, max: 128 } }),
    )
    expect(ok.status).toBe(201)
    expect(ok.body.plan).toMatchObject({
      range: 49,
      licensedRange: { min: 20, max: 60 },
      licenceRef: 'AJ-LO-2025-0007',
    })
    for (const range of [70, 10]) {
      const out = await call(
        'jefa',
        'POST',
        '/api/lotto/draws',
        plan649({ gameCode: `LNS${range}`, range, licensedRange: { min: 2, max: 128 } }),
      )
      expect(out.status, String(range)).toBe(400)
      expect(out.body.error.details.problems).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: 'range', rule: 'LNS-12' })]),
      )
    }
  })

  it('LNS-23 / LOT-22: a goods prize is refused as real estate by its declared class (400, in Spanish), and a motorcycle backed by commitment and certificate is planned', async () => {
    const withGoods = (gameCode: string, prize: Record<string, unknown>) => {
      const p = plan649({ gameCode })
      return {
        ...p,
        categories: [
          ...p.categories.slice(0, 3),
          { code: 'C3', name: 'Premio en bienes', matches: 3, prize: { type: 'goods', unitValueCents: 100, ...prize } },
        ],
      }
    }
    const land = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      withGoods('LNSLOT', { description: 'Lote en Quillacollo', class: 'real-estate', invoiceRef: 'F-9' }),
    )
    expect(land.status, JSON.stringify(land.body)).toBe(400)
    expect(land.body.error.message).toBe('Los datos enviados no son válidos.')
    expect(land.body.error.details.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'categories[3].prize.class', rule: 'LOT-22' })]),
    )
    // A goods prize with no class declared is not planned either: the class decides, not the words.
    const unclassed = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      withGoods('LNSNOC', { description: 'Terreno', invoiceRef: 'F-12' }),
    )
    expect(unclassed.status).toBe(400)
    const moto = await call(
      'jefa',
      'POST',
      '/api/lotto/draws',
      withGoods('LNSMOT', {
        description: 'Motocicleta 150 cc',
        class: 'registrable',
        commitmentRef: 'DC-2026-14',
        supplierCertificateRef: 'CERT-881',
        source: 'operator',
      }),
    )
    expect(moto.status, JSON.stringify(moto.body)).toBe(201)
    expect(moto.body.plan.categories[3].prize).toMatchObject({ class: 'registrable', commitmentRef: 'DC-2026-14' })
  })

  it('LNS-12: under BO-2025 no lotto draw is planned without a licence record', async () => {
    const bare = await startTestServer({ lottoLicence: null })
    try {
      const r = await api(bare.url, 'POST', '/api/lotto/draws', plan649({ licensedRange: { min: 2, max: 128 } }))
      expect(r.status).toBe(400)
      expect(r.body.error.details.problems).toEqual([
        expect.objectContaining({ field: 'licensedRange', rule: 'LNS-12' }),
      ])
      expect((await api(bare.url, 'GET', '/api/lotto/draws')).body.draws).toEqual([])
    } finally {
      await bare.cleanup()
    }
  })

  let manualId = ''

  it("LNS-8 / LOT-18: a manual draw names a registered, certified tómbola of its hall; free text, an uncertified device, another hall's or a printer is refused", async () => {
    const plan = (drawDevice: string, drawHallId?: string) =>
      plan649({ gameCode: 'LNSMAN', drawMethod: 'manual', drawDevice, ...(drawHallId ? { drawHallId } : {}) })
    const refused: Array<[string, string | undefined, string]> = [
      ['Tómbola N.º 5 de la sala', 'lapaz', 'not-registered'],
      ['AJ-T-0303', 'lapaz', 'no-certificate'],
      ['AJ-T-0202', 'lapaz', 'other-hall'],
      ['tombola-lp', undefined, 'other-hall'],
      ['AJ-P-0001', 'lapaz', 'kind-printer'],
    ]
    for (const [device, hall, problem] of refused) {
      const r = await call('jefa', 'POST', '/api/lotto/draws', plan(device, hall))
      expect([r.status, r.body.error?.code], device).toEqual([422, 'DEVICE_NOT_CERTIFIED'])
      expect(r.body.error.details.problems, device).toContain(problem)
      expect(r.body.error.message).not.toMatch(/DEVICE_NOT_CERTIFIED|blower/)
    }
    const lottery = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({ gameCode: 'LTRMAN', drawMethod: 'manual', drawDevice: 'Tómbola AJ-T-0042' }),
    )
    expect([lottery.status, lottery.body.error?.code]).toEqual([422, 'DEVICE_NOT_CERTIFIED'])
    const ok = await call('jefa', 'POST', '/api/lotto/draws', plan('AJ-T-0101', 'lapaz'))
    expect(ok.status).toBe(201)
    expect(ok.body.plan).toMatchObject({ drawDevice: 'tombola-lp', drawHallId: 'lapaz' })
    manualId = ok.body.drawId
  })

  it('LNS-14 / LNS-21 / LNS-9: the balls wait the publication hold, then the notarial act of the annulled plays, then a registered ball set and reserve set of the range (registered only by the operator or director); both are named in the draw and its journal', async () => {
    const sell = (name: string) =>
      api(
        server.url,
        'POST',
        `/api/lotto/draws/${manualId}/slips`,
        { ageConfirmed: true, quickPicks: 1, player: { name, document: '4455667 LP' } },
        till.headers,
      )
    const kept = await sell('Ana Quispe')
    expect(kept.status).toBe(201)
    const annulled = await sell('Pedro Choque')
    expect(
      (
        await call('jefa', 'POST', `/api/lotto/slips/${annulled.body.receiptNumber}/annul`, {
          reason: 'Registro con datos erróneos',
        })
      ).status,
    ).toBe(200)
    const act = { notary: 'Dra. Ana Rojas, Notaría de Fe Pública N.º 12', actNumber: 'AN-2025-0311' }
    expect((await call('jefa', 'POST', `/api/lotto/draws/${manualId}/notarial-act`, act)).status).toBe(409)

    t = Date.parse('2025-03-08T19:00:00-04:00')
    await login()
    const closed = await call('jefa', 'POST', `/api/lotto/draws/${manualId}/close`, {})
    expect(closed.status).toBe(200)
    const view = await call('auditor', 'GET', `/api/lotto/draws/${manualId}`)
    expect(view.body.drawableFrom).toBe(new Date(Date.parse(closed.body.closedAt) + 30 * 60_000).toISOString())
    expect(view.body.notarialAct).toBeNull()

    t = Date.parse('2025-03-08T19:20:00-04:00')
    await login()
    const held = await call('jefa', 'POST', `/api/lotto/draws/${manualId}/balls`, { ball: 1 })
    expect([held.status, held.body.error?.code]).toEqual([409, 'PUBLICATION_HOLD'])
    expect(held.body.error.message).toMatch(/plazo de publicación/)

    t = Date.parse('2025-03-08T19:31:00-04:00')
    await login()
    const noAct = await call('jefa', 'POST', `/api/lotto/draws/${manualId}/balls`, { ball: 1 })
    expect([noAct.status, noAct.body.error?.code]).toEqual([409, 'NOTARIAL_ACT_REQUIRED'])
    for (const who of ['cajera', 'auditor'])
      expect((await call(who, 'POST', `/api/lotto/draws/${manualId}/notarial-act`, act)).status, who).toBe(403)
    const noNumber = await call('jefa', 'POST', `/api/lotto/draws/${manualId}/notarial-act`, {
      ...act,
      actNumber: '   ',
    })
    expect(noNumber.status).toBe(400)
    const recorded = await call('jefa', 'POST', `/api/lotto/draws/${manualId}/notarial-act`, act)
    expect(recorded.status).toBe(201)
    const excluded = Buffer.from(
      await (
        await fetch(`${server.url}/api/lotto/draws/${manualId}/excluded`, {
          headers: { authorization: auth.get('auditor')! },
        })
      ).arrayBuffer(),
    )
    expect(excluded.toString('utf8')).toContain(annulled.body.receiptNumber)
    expect(recorded.body.notarialAct).toMatchObject({
      ...act,
      excluded: 1,
      excludedSha256: createHash('sha256').update(excluded).digest('hex'),
    })
    expect(
      (await call('jefa', 'POST', `/api/lotto/draws/${manualId}/notarial-act`, { ...act, actNumber: 'AN-2025-0999' }))
        .status,
    ).toBe(409)

    // LNS-8: the registry is read at every ball: a suspended tómbola, or another hall's, draws nothing.
    expect(
      (await call('jefa', 'POST', '/api/devices/tombola-lp/status', { status: 'suspended', reason: 'Precinto roto' }))
        .status,
    ).toBe(200)
    const suspended = await call('jefa', 'POST', `/api/lotto/draws/${manualId}/balls`, { ball: 1 })
    expect([suspended.status, suspended.body.error?.details?.problems]).toEqual([422, ['status-suspended']])
    expect(
      (
        await call('jefa', 'POST', '/api/devices/tombola-lp/status', {
          status: 'active',
          reason: 'Precinto repuesto por la AJ',
        })
      ).status,
    ).toBe(200)
    const otherHall = await call('jefa', 'POST', `/api/lotto/draws/${manualId}/balls`, {
      ball: 1,
      deviceId: 'AJ-T-0202',
    })
    expect([otherHall.status, otherHall.body.error?.code]).toEqual([422, 'DEVICE_NOT_CERTIFIED'])

    // LNS-9 / LNS-16: no registered ball set of the plan's range (49), or no reserve set of it: no ball is drawn.
    const noSet = await call('jefa', 'POST', `/api/lotto/draws/${manualId}/balls`, { ball: 1 })
    expect([noSet.status, noSet.body.error?.code]).toEqual([409, 'LOTTO_BALL_SET_REQUIRED'])
    expect(noSet.body.error.message).toMatch(/juego de bolas registrado/)
    const set = (reference: string, ballCount: number) => ({ reference, ballCount, sealRef: `AJ-PREC-${reference}` })
    // Only the lottery operator or the director registers sets: a floor manager who may draw, a cashier, an auditor
    // may not, nor mark the reserve.
    for (const who of ['mesa', 'cajera', 'auditor'])
      expect((await call(who, 'POST', '/api/lotto/ball-sets', set('JB-49-X', 49))).status, who).toBe(403)
    const other = await call('jefa', 'POST', '/api/lotto/ball-sets', set('JB-40-A', 40))
    expect(other.status).toBe(201)
    const main = await call('jefa', 'POST', '/api/lotto/ball-sets', set('JB-49-A', 49))
    expect(main.body).toMatchObject({ reference: 'JB-49-A', ballCount: 49, sealRef: 'AJ-PREC-JB-49-A', role: 'main' })
    expect((await call('jefa', 'POST', '/api/lotto/ball-sets', set('JB-49-A', 49))).status).toBe(409)
    expect((await call('jefa', 'POST', '/api/lotto/ball-sets', { ...set('JB-49-B', 49), sealRef: ' ' })).status).toBe(
      400,
    )
    // A 40-ball reserve does not stand in for the 49-ball range.
    expect((await call('jefa', 'POST', `/api/lotto/ball-sets/${other.body.id}/reserve`)).status).toBe(200)
    const noReserve = await call('jefa', 'POST', `/api/lotto/draws/${manualId}/balls`, { ball: 1 })
    expect([noReserve.status, noReserve.body.error?.code]).toEqual([409, 'LOTTO_BALL_SET_REQUIRED'])
    expect((await call('jefa', 'GET', `/api/lotto/draws/${manualId}`)).body.balls).toEqual([])
    const reserve = await call('jefa', 'POST', '/api/lotto/ball-sets', set('JB-49-R', 49))
    for (const who of ['mesa', 'cajera'])
      expect((await call(who, 'POST', `/api/lotto/ball-sets/${reserve.body.id}/reserve`)).status, who).toBe(403)
    const marked = await call('jefa', 'POST', `/api/lotto/ball-sets/${reserve.body.id}/reserve`)
    expect([marked.status, marked.body.role]).toEqual([200, 'reserve'])

    for (const ball of [1, 2, 3, 4, 5, 6])
      expect((await call('jefa', 'POST', `/api/lotto/draws/${manualId}/balls`, { ball })).status).toBe(200)
    const drawnView = (await call('auditor', 'GET', `/api/lotto/draws/${manualId}`)).body
    expect(drawnView).toMatchObject({ status: 'drawn', ballSetId: main.body.id, reserveSetId: reserve.body.id })

    const journal = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{
      type: string
      payload: any
    }>
    expect(journal.find((r) => r.type === 'lotto.notarial_act_recorded')!.payload).toMatchObject({
      drawId: manualId,
      ...act,
      rule: 'LNS-21',
      actor: { kind: 'person', role: 'director' },
    })
    expect(
      journal
        .filter((r) => r.type === 'lotto.ball_drawn' && r.payload.drawId === manualId)
        .map((r) => r.payload.device),
    ).toEqual(Array(6).fill('tombola-lp'))
    // Every ball and the result name the set drawn with and the reserve on hand, by reference and seal.
    const named = {
      ballSet: { id: main.body.id, reference: 'JB-49-A', sealRef: 'AJ-PREC-JB-49-A' },
      reserveSet: { id: reserve.body.id, reference: 'JB-49-R', sealRef: 'AJ-PREC-JB-49-R' },
    }
    const balls = journal.filter((r) => r.type === 'lotto.ball_drawn' && r.payload.drawId === manualId)
    for (const r of balls) expect(r.payload).toMatchObject(named)
    expect(journal.find((r) => r.type === 'lotto.drawn' && r.payload.drawId === manualId)!.payload).toMatchObject(named)
    expect(
      journal.find((r) => r.type === 'lotto.reserve_set_marked' && r.payload.ballSetId === reserve.body.id)!.payload,
    ).toMatchObject({ reference: 'JB-49-R', ballCount: 49, actor: { role: 'director' }, rule: 'LNS-9' })

    // §8 / GEN-7 (issue 26): the slip judged at the desk is journaled with the station, its seal and the cashier, the
    // outcome and the ticket's kind; never the player's document.
    const scan = await api(server.url, 'POST', '/api/tickets/validate', { code: kept.body.code }, till.headers)
    expect(scan.status).toBe(200)
    const scans = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records.filter(
      (r: { type: string }) => r.type === 'lotto.ticket_validated',
    )
    expect(scans).toHaveLength(1)
    expect(scans[0].payload).toMatchObject({
      ticketId: kept.body.receiptNumber,
      kind: 'lotto',
      drawIds: [manualId],
      outcome: scan.body.outcome,
      stationId: till.station.id,
      sealCode: expect.stringMatching(/^AJ-PRUEBA-/),
      actor: { kind: 'person', role: 'cashier' },
      rule: '§8',
    })
    expect(JSON.stringify(scans[0])).not.toMatch(/4455667|Ana Quispe/)
  })

  it('LOT-28: a regional lottery of La Paz reaches sellers of halls in La Paz only; a hall outside it, or with no territory on record, is refused (403)', async () => {
    t = Date.parse('2025-02-10T12:00:00-04:00')
    await login()
    for (const who of ['cajera', 'mesa'])
      expect(
        (await call(who, 'PUT', '/api/halls/lapaz/territory', { territory: 'La Paz/Murillo/El Alto' })).status,
        who,
      ).toBe(403)
    expect(
      (await call('jefa', 'PUT', '/api/halls/lapaz/territory', { territory: 'La Paz / Murillo / El Alto' })).body,
    ).toEqual({ hallId: 'lapaz', territory: 'La Paz/Murillo/El Alto' })
    expect((await call('jefa', 'PUT', '/api/halls/oruro/territory', { territory: 'Oruro/Cercado' })).status).toBe(200)
    const sellers: Record<string, string> = {}
    for (const hallId of ['lapaz', 'oruro', 'potosi'])
      sellers[hallId] = (
        await server.services.auth.enrolDevice({
          ...sealed(),
          kind: 'cashier_station',
          name: `Agencia ${hallId}`,
          hallId,
        })
      ).id
    const created = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      lotteryPlan({
        kind: 'regional',
        territory: 'La Paz',
        gameCode: 'LTRREG',
        numbering: { from: 0, to: 99, digits: 2 },
        series: 1,
        fractions: 1,
        licensedMaxTickets: 1000,
        prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 100_000 }],
      }),
    )
    expect(created.status).toBe(201)
    const drawId = created.body.drawId
    expect((await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 0, to: 9 })).status).toBe(201)
    const inside = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
      from: 0,
      to: 3,
      sellerId: sellers.lapaz,
    })
    expect(inside.status).toBe(201)
    for (const hallId of ['oruro', 'potosi']) {
      const r = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
        from: 4,
        to: 5,
        sellerId: sellers[hallId],
      })
      expect([r.status, r.body.error?.code], hallId).toEqual([403, 'OUTSIDE_TERRITORY'])
      expect(r.body.error.message).toMatch(/territorio autorizado/)
    }
    // Nothing half-written: the refused block is still undistributed, and goes to the La Paz seller.
    expect(
      (
        await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
          from: 4,
          to: 5,
          sellerId: sellers.lapaz,
        })
      ).status,
    ).toBe(201)
    const journal = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{
      type: string
      payload: any
    }>
    expect(journal.find((r) => r.type === 'hall.territory_set' && r.payload.hallId === 'lapaz')!.payload).toMatchObject(
      { territory: 'La Paz/Murillo/El Alto', rule: 'LOT-28', actor: { kind: 'person', role: 'director' } },
    )
  })
  it('LOT-13: a traditional lottery is national: a plan that names a territory is refused (400, in Spanish) and nothing is planned; the same plan without it is accepted', async () => {
    await login()
    const body = (over: Record<string, unknown>) =>
      lotteryPlan({
        gameCode: 'LTRNAC',
        numbering: { from: 0, to: 99, digits: 2 },
        series: 1,
        fractions: 1,
        licensedMaxTickets: 1000,
        prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 100_000 }],
        ...over,
      })
    const before = (await call('jefa', 'GET', '/api/lottery/draws')).body.draws.length
    const refused = await call('jefa', 'POST', '/api/lottery/draws', body({ kind: 'traditional', territory: 'La Paz' }))
    expect([refused.status, refused.body.error?.code]).toEqual([400, 'VALIDATION_FAILED'])
    expect(refused.body.error.details.problems).toEqual([
      expect.objectContaining({ field: 'territory', rule: 'LOT-13' }),
    ])
    expect(refused.body.error.message).not.toMatch(/VALIDATION|LOT-/)
    expect((await call('jefa', 'GET', '/api/lottery/draws')).body.draws.length).toBe(before)
    const national = await call('jefa', 'POST', '/api/lottery/draws', body({ kind: 'traditional', territory: null }))
    expect(national.status, JSON.stringify(national.body)).toBe(201)
    expect(national.body.plan.territory).toBeNull()
  })
})

describe('INS-16 / RNG-26: a lotto draw by software is sold and drawn only while its authorisation stands', () => {
  let first: Awaited<ReturnType<typeof startTestServer>> | null = null
  let second: Awaited<ReturnType<typeof startTestServer>> | null = null
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  afterAll(async () => {
    await second?.cleanup()
  })

  it('INS-16: once the RNG authorisation is withdrawn from the licence, its draw sells no slip and is not drawn (422); a tómbola draw still sells', async () => {
    first = await startTestServer({ auth: 'on' }, { clock })
    await first.services.auth.createUser({
      username: 'jefa',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
    })
    await first.services.auth.createUser({
      username: 'cajera',
      displayName: 'Rosa Vargas',
      role: 'cashier',
      password: PASSWORD,
    })
    await first.services.bingo.createHall({
      id: 'lapaz',
      name: 'Sala La Paz',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
    })
    await first.services.devices.register({
      id: 'tombola-op',
      kind: 'blower',
      name: 'Tómbola del operador',
      sealCode: 'AJ-T-0404',
      certificateId: 'AJ-CERT-0404',
    })
    const jefa = { authorization: `Bearer ${(await first.services.auth.login('jefa', PASSWORD)).token}` }
    const rng = await api(first.url, 'POST', '/api/lotto/draws', plan649({ gameCode: 'ELEC' }), jefa)
    expect(rng.status).toBe(201)
    const manual = await api(
      first.url,
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'TOMB', drawMethod: 'manual', drawDevice: 'AJ-T-0404' }),
      jefa,
    )
    expect(manual.status).toBe(201)
    const till1 = await openTill(first.url, first.services, {
      hallId: 'lapaz',
      username: 'cajera',
      password: PASSWORD,
      floatCents: 0,
    })
    const slip = { quickPicks: 1, player: { name: 'Ana Quispe', document: '4455667 LP' }, ageConfirmed: true }
    expect(
      (await api(first.url, 'POST', `/api/lotto/draws/${rng.body.drawId}/slips`, slip, till1.headers)).status,
    ).toBe(201)
    const { dataDir } = first
    const databaseUrl = first.services.config.databaseUrl
    await first.close()

    // The same operator restarted with no AJ authorisation of the RNG (BOLILLO_LOTTERY_RNG_AUTHORISATION unset).
    second = await startTestServer({ auth: 'on', dataDir, databaseUrl, lotteryRngAuthorisation: null }, { clock })
    const till2 = await openTill(second.url, second.services, {
      hallId: 'lapaz',
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 2',
      floatCents: 0,
    })
    const sold = await api(second.url, 'POST', `/api/lotto/draws/${rng.body.drawId}/slips`, slip, till2.headers)
    expect([sold.status, sold.body.error?.code]).toEqual([422, 'RULE_DISABLED'])
    expect(sold.body.error.detail).toMatch(/RNG-26/)
    expect(
      (await api(second.url, 'POST', `/api/lotto/draws/${manual.body.drawId}/slips`, slip, till2.headers)).status,
    ).toBe(201)
    t = Date.parse('2025-03-08T19:00:00-04:00')
    const jefa2 = { authorization: `Bearer ${(await second.services.auth.login('jefa', PASSWORD)).token}` }
    expect((await api(second.url, 'POST', `/api/lotto/draws/${rng.body.drawId}/close`, {}, jefa2)).status).toBe(200)
    t = Date.parse('2025-03-08T20:00:00-04:00')
    const jefa3 = { authorization: `Bearer ${(await second.services.auth.login('jefa', PASSWORD)).token}` }
    const drawn = await api(second.url, 'POST', `/api/lotto/draws/${rng.body.drawId}/draw`, undefined, jefa3)
    expect([drawn.status, drawn.body.error?.code]).toEqual([422, 'RULE_DISABLED'])
    expect((await api(second.url, 'GET', `/api/lotto/draws/${rng.body.drawId}`, undefined, jefa3)).body.status).toBe(
      'closed',
    )
  })
})
