import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { lotteryPlan, plan649, registerTombola } from '../helpers/lottery-plans.ts'

/**
 * Issue 26, over real HTTP with authentication on and real people:
 * - LOT-18 (002 §7.1.2.1): a numbered lottery's manual draw reads its number one digit per drum, from a registered
 *   set of digit balls 0-9 for as many drums as the number has digits; without one no number is entered, and the
 *   draw and each number's journal record name the set.
 * - LNS-9 (002 §7.3.3.1, "reemplazo ... de manera inmediata"): a set is retired with a reason and no new draw takes
 *   it; one a draw is being drawn with, or holds as its reserve, is not retired under it; mid-draw it is swapped for
 *   the reserve with the reason, journaled with who, when and which set replaced which, the numbers drawn standing.
 *   Only lottery.admin (director, lottery operator) of the draw's hall, or of the whole operator, does either.
 */
const PASSWORD = 'correct horse battery'

type Rec = { type: string; at: string; payload: Record<string, any> }

describe('LOT-18 / LNS-9: the digit ball sets of a manual lottery draw, retired and swapped for the reserve', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-02-10T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  const people = ['jefa', 'mesa', 'cajera']
  async function login() {
    for (const u of people) auth.set(u, `Bearer ${(await server.services.auth.login(u, PASSWORD)).token}`)
  }
  const journal = async () => (await call('jefa', 'GET', '/api/journal?limit=2000')).body.records as Rec[]
  const digitSet = (reference: string, drums: number) => ({ reference, drums, sealRef: `AJ-PREC-${reference}` })
  let hallId = ''
  let hallDraw = ''
  let operatorDraw = ''
  let jefaId = ''
  const sets: Record<string, { id: string; reference: string; sealRef: string }> = {}
  const ref = (name: string) => ({ id: sets[name].id, reference: sets[name].reference, sealRef: sets[name].sealRef })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await registerTombola(server.services) // the operator's tómbola AJ-T-0042, in no hall
    const jefa = await server.services.auth.createUser({
      username: 'jefa',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
    })
    jefaId = jefa.id
    for (const [username, displayName, role] of [
      ['mesa', 'Luis Mamani', 'floor_manager'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    await login()
    const lapaz = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala La Paz',
      profileId: 'BO-2025',
      playingPositions: 100,
    })
    const oruro = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Oruro',
      profileId: 'BO-2025',
      playingPositions: 100,
    })
    hallId = lapaz.body.id
    // A director of the Oruro hall only: lottery.admin, but neither the La Paz hall nor the whole operator.
    await server.services.auth.createUser({
      username: 'jefa-oruro',
      displayName: 'Ana Choque',
      role: 'director',
      password: PASSWORD,
      halls: [oruro.body.id],
    })
    people.push('jefa-oruro')
    await login()
    await server.services.devices.register({
      id: 'tombola-lp',
      kind: 'blower',
      name: 'Tómbola La Paz',
      hallId,
      sealCode: 'AJ-T-0101',
      certificateId: 'AJ-CERT-0101',
    })
    const plan = (gameCode: string, extra: Record<string, unknown>, prizes: number) =>
      lotteryPlan({
        gameCode,
        numbering: { from: 0, to: 99, digits: 2 },
        series: 1,
        fractions: 1,
        licensedMaxTickets: 1000,
        budgetCents: 1_000_000,
        drawMethod: 'manual',
        prizes: Array.from({ length: prizes }, (_, i) => ({
          code: `P${i + 1}`,
          name: `Premio ${i + 1}`,
          rule: { type: 'exact' as const },
          amountCents: 10_000,
        })),
        ...extra,
      })
    const a = await call(
      'jefa',
      'POST',
      '/api/lottery/draws',
      plan('LTRLP', { drawDevice: 'AJ-T-0101', drawHallId: hallId }, 3),
    )
    expect(a.status, JSON.stringify(a.body)).toBe(201)
    hallDraw = a.body.drawId
    const b = await call('jefa', 'POST', '/api/lottery/draws', plan('LTROP', { drawDevice: 'AJ-T-0042' }, 1))
    expect(b.status, JSON.stringify(b.body)).toBe(201)
    operatorDraw = b.body.drawId
    t = Date.parse('2025-03-01T18:00:00-04:00')
    await login()
    for (const id of [hallDraw, operatorDraw])
      expect((await call('jefa', 'POST', `/api/lottery/draws/${id}/close`, {})).status).toBe(200)
  })
  afterAll(async () => server?.cleanup())

  it("LOT-18: no number is entered without a registered digit set for the draw's drums (a lotto set or one of other drums does not do); registered only by lottery.admin of the whole operator; the draw and each number name the set", async () => {
    const none = await call('jefa', 'POST', `/api/lottery/draws/${hallDraw}/numbers`, { number: 7 })
    expect([none.status, none.body.error?.code]).toEqual([409, 'LOTTERY_BALL_SET_REQUIRED'])
    expect(none.body.error.message).toMatch(/juego de bolillos de dígitos/)

    // A floor manager who may draw, a cashier: not theirs to register. A director of one hall only: not the operator's.
    for (const who of ['mesa', 'cajera'])
      expect((await call(who, 'POST', '/api/lottery/ball-sets', digitSet('JD-X', 2))).status, who).toBe(403)
    const oneHall = await call('jefa-oruro', 'POST', '/api/lottery/ball-sets', digitSet('JD-X', 2))
    expect([oneHall.status, oneHall.body.error?.code]).toEqual([403, 'WRONG_HALL'])
    expect((await call('jefa', 'POST', '/api/lottery/ball-sets', { ...digitSet('JD-X', 2), drums: 0 })).status).toBe(
      400,
    )

    // Ten lotto balls 1..10 are not the digits 0-9; three drums are not two.
    expect(
      (
        await call('jefa', 'POST', '/api/lotto/ball-sets', {
          reference: 'JB-10',
          ballCount: 10,
          sealRef: 'AJ-PREC-JB-10',
        })
      ).status,
    ).toBe(201)
    const three = await call('jefa', 'POST', '/api/lottery/ball-sets', digitSet('JD-3', 3))
    expect(three.body).toMatchObject({ kind: 'digits', ballCount: 10, drums: 3, role: 'main', retiredAt: null })
    const still = await call('jefa', 'POST', `/api/lottery/draws/${hallDraw}/numbers`, { number: 7 })
    expect([still.status, still.body.error?.code]).toEqual([409, 'LOTTERY_BALL_SET_REQUIRED'])

    const a = await call('jefa', 'POST', '/api/lottery/ball-sets', digitSet('JD-2-A', 2))
    expect(a.status).toBe(201)
    sets.A = a.body
    // The same reference again: its own code and words, not "another operation changed this at the same time".
    const twice = await call('jefa', 'POST', '/api/lottery/ball-sets', digitSet('JD-2-A', 2))
    expect([twice.status, twice.body.error?.code]).toEqual([409, 'BALL_SET_REFERENCE_TAKEN'])
    expect(twice.body.error.message).toMatch(/Ya hay un juego de bolas registrado con esa referencia/)
    const twiceEn = await api(
      server.url,
      'POST',
      '/api/lotto/ball-sets',
      { reference: 'JB-10', ballCount: 10, sealRef: 'X' },
      {
        authorization: auth.get('jefa')!,
        'accept-language': 'en',
      },
    )
    expect([twiceEn.status, twiceEn.body.error?.code]).toEqual([409, 'BALL_SET_REFERENCE_TAKEN'])
    expect(twiceEn.body.error.message).toMatch(/already registered/)
    const first = await call('jefa', 'POST', `/api/lottery/draws/${hallDraw}/numbers`, { number: 7 })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    // 002 §7.1 asks no reserve of a lottery: none on hand yet, and the draw goes on.
    expect(first.body).toMatchObject({ drawn: [7], ballSetId: sets.A.id, reserveSetId: null })
    expect((await call('jefa', 'GET', '/api/lottery/ball-sets')).body.ballSets.map((s: any) => s.reference)).toEqual([
      'JD-2-A',
      'JD-3',
    ])
    const rec = (await journal()).find((r) => r.type === 'lottery.number_drawn' && r.payload.drawId === hallDraw)!
    expect(rec.payload).toMatchObject({ number: 7, device: 'tombola-lp', ballSet: ref('A'), reserveSet: null })
  })

  it('LNS-9: a set in use (drawing, or the reserve on hand) is not retired; the swap to the reserve is refused without permission, from another hall, without a reason; once swapped the numbers drawn stand, the journal says who, when, why and which set replaced which, and a retired set is never drawn with again', async () => {
    const inUse = await call('jefa', 'POST', `/api/lottery/ball-sets/${sets.A.id}/retire`, { reason: 'Desgaste' })
    expect([inUse.status, inUse.body.error?.code]).toEqual([409, 'BALL_SET_IN_USE'])
    expect(inUse.body.error.message).toMatch(/cámbielo por el de reserva/)
    // No reserve on hand: nothing to swap in.
    const noReserve = await call('jefa', 'POST', `/api/lottery/draws/${hallDraw}/ball-set-swap`, {
      reason: 'Bolillo roto',
    })
    expect([noReserve.status, noReserve.body.error?.code]).toEqual([409, 'LOTTERY_BALL_SET_REQUIRED'])

    // The set in the drums is not also the reserve that replaces it.
    const markInUse = await call('jefa', 'POST', `/api/lottery/ball-sets/${sets.A.id}/reserve`)
    expect([markInUse.status, markInUse.body.error?.code]).toEqual([409, 'BALL_SET_IN_USE'])
    const r = await call('jefa', 'POST', '/api/lottery/ball-sets', digitSet('JD-2-R', 2))
    sets.R = r.body
    for (const who of ['mesa', 'cajera'])
      expect((await call(who, 'POST', `/api/lottery/ball-sets/${sets.R.id}/reserve`)).status, who).toBe(403)
    expect((await call('jefa-oruro', 'POST', `/api/lottery/ball-sets/${sets.R.id}/reserve`)).status).toBe(403)
    expect((await call('jefa', 'POST', `/api/lottery/ball-sets/${sets.R.id}/reserve`)).body.role).toBe('reserve')
    // The reserve on hand is named on the draw from its next number, and is not retired under it either.
    const second = await call('jefa', 'POST', `/api/lottery/draws/${hallDraw}/numbers`, { number: 8 })
    expect(second.body).toMatchObject({ drawn: [7, 8], ballSetId: sets.A.id, reserveSetId: sets.R.id })
    const reserveInUse = await call('jefa', 'POST', `/api/lottery/ball-sets/${sets.R.id}/retire`, {
      reason: 'Desgaste',
    })
    expect([reserveInUse.status, reserveInUse.body.error?.code]).toEqual([409, 'BALL_SET_IN_USE'])
    // Nor by people without lottery.admin, or of one hall only.
    for (const who of ['mesa', 'cajera'])
      expect((await call(who, 'POST', `/api/lottery/ball-sets/${sets.A.id}/retire`, { reason: 'x' })).status, who).toBe(
        403,
      )
    const retireOneHall = await call('jefa-oruro', 'POST', `/api/lottery/ball-sets/${sets.A.id}/retire`, {
      reason: 'x',
    })
    expect([retireOneHall.status, retireOneHall.body.error?.code]).toEqual([403, 'WRONG_HALL'])

    // The swap: not the floor manager or the cashier; not a director of another hall; not without a reason.
    const swap = (who: string, body: unknown) => call(who, 'POST', `/api/lottery/draws/${hallDraw}/ball-set-swap`, body)
    for (const who of ['mesa', 'cajera']) expect((await swap(who, { reason: 'Bolillo roto' })).status, who).toBe(403)
    const otherHall = await swap('jefa-oruro', { reason: 'Bolillo roto' })
    expect([otherHall.status, otherHall.body.error?.code]).toEqual([403, 'WRONG_HALL'])
    expect((await swap('jefa', { reason: '' })).status).toBe(400)
    expect((await call('jefa', 'GET', `/api/lottery/draws/${hallDraw}`)).body).toMatchObject({
      drawn: [7, 8],
      ballSetId: sets.A.id,
    })

    const reason = 'El bolillo 3 del segundo bombo está astillado'
    const swapAt = new Date(t).toISOString()
    const swapped = await swap('jefa', { reason })
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200)
    expect(swapped.body).toMatchObject({ drawn: [7, 8], ballSetId: sets.R.id, reserveSetId: null, status: 'closed' })
    const third = await call('jefa', 'POST', `/api/lottery/draws/${hallDraw}/numbers`, { number: 9 })
    expect(third.body).toMatchObject({ status: 'drawn', drawn: [7, 8, 9], ballSetId: sets.R.id })

    const records = await journal()
    const swapRec = records.find((x) => x.type === 'lottery.ball_set_swapped' && x.payload.drawId === hallDraw)!
    expect(swapRec.at).toBe(swapAt)
    expect(swapRec.payload).toMatchObject({
      replaced: ref('A'),
      by: ref('R'),
      valuesDrawn: 2,
      reason,
      actor: { id: jefaId, role: 'director' },
      rule: 'LNS-9',
    })
    const numbers = records.filter((x) => x.type === 'lottery.number_drawn' && x.payload.drawId === hallDraw)
    expect(numbers.map((x) => [x.payload.number, x.payload.ballSet.reference])).toEqual([
      [7, 'JD-2-A'],
      [8, 'JD-2-A'],
      [9, 'JD-2-R'],
    ])
    expect(records.find((x) => x.type === 'lottery.drawn' && x.payload.drawId === hallDraw)!.payload).toMatchObject({
      numbers: [7, 8, 9],
      ballSet: ref('R'),
    })

    // The draw is over: both sets may be retired now, with their reasons; a retired set is not made the reserve.
    const retired = await call('jefa', 'POST', `/api/lottery/ball-sets/${sets.A.id}/retire`, { reason })
    expect(retired.status).toBe(200)
    expect(retired.body).toMatchObject({ retiredBy: jefaId, retireReason: reason })
    expect(
      (await call('jefa', 'POST', `/api/lottery/ball-sets/${sets.A.id}/retire`, { reason })).body.error?.code,
    ).toBe('BALL_SET_RETIRED')
    expect((await call('jefa', 'POST', `/api/lottery/ball-sets/${sets.A.id}/reserve`)).body.error?.code).toBe(
      'BALL_SET_RETIRED',
    )
    expect(
      (await call('jefa', 'POST', `/api/lottery/ball-sets/${sets.R.id}/retire`, { reason: 'Revisión' })).status,
    ).toBe(200)
    expect(
      (await journal()).find((x) => x.type === 'lottery.ball_set_retired' && x.payload.ballSetId === sets.A.id)!
        .payload,
    ).toMatchObject({ reference: 'JD-2-A', reason, actor: { id: jefaId } })

    // A new draw does not take a retired set: with both two-drum sets retired it has none, until one is registered.
    const none = await call('jefa', 'POST', `/api/lottery/draws/${operatorDraw}/numbers`, { number: 42 })
    expect([none.status, none.body.error?.code]).toEqual([409, 'LOTTERY_BALL_SET_REQUIRED'])
    const c = await call('jefa', 'POST', '/api/lottery/ball-sets', digitSet('JD-2-C', 2))
    const drawn = await call('jefa', 'POST', `/api/lottery/draws/${operatorDraw}/numbers`, { number: 42 })
    expect(drawn.body).toMatchObject({ status: 'drawn', ballSetId: c.body.id })
  })

  it("LNS-9: the swap of a draw held in no hall is the whole operator's: a director of one hall is refused", async () => {
    t = Date.parse('2025-02-10T12:00:00-04:00')
    await login()
    const plan = lotteryPlan({
      gameCode: 'LTROP2',
      numbering: { from: 0, to: 99, digits: 2 },
      series: 1,
      fractions: 1,
      licensedMaxTickets: 1000,
      drawMethod: 'manual',
      drawDevice: 'AJ-T-0042',
      prizes: [
        { code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 10_000 },
        { code: 'P2', name: 'Segundo Premio', rule: { type: 'exact' }, amountCents: 5_000 },
      ],
    })
    const id = (await call('jefa', 'POST', '/api/lottery/draws', plan)).body.drawId
    t = Date.parse('2025-03-01T18:00:00-04:00')
    await login()
    expect((await call('jefa', 'POST', `/api/lottery/draws/${id}/close`, {})).status).toBe(200)
    const r2 = await call('jefa', 'POST', '/api/lottery/ball-sets', digitSet('JD-2-R2', 2))
    await call('jefa', 'POST', `/api/lottery/ball-sets/${r2.body.id}/reserve`)
    expect((await call('jefa', 'POST', `/api/lottery/draws/${id}/numbers`, { number: 1 })).status).toBe(200)
    const refused = await call('jefa-oruro', 'POST', `/api/lottery/draws/${id}/ball-set-swap`, {
      reason: 'Bolillo roto',
    })
    expect([refused.status, refused.body.error?.code]).toEqual([403, 'WRONG_HALL'])
    const ok = await call('jefa', 'POST', `/api/lottery/draws/${id}/ball-set-swap`, { reason: 'Bolillo roto' })
    expect(ok.body).toMatchObject({ drawn: [1], ballSetId: r2.body.id })
  })
})

describe('LNS-9: a lotto draw swaps its ball set for the reserve mid-draw, and takes no further ball until a new reserve is on hand', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  let token = ''
  const call = (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: `Bearer ${token}`, 'accept-language': 'es' })
  const login = async () => {
    token = (await server.services.auth.login('jefa', PASSWORD)).token
  }
  const set = async (reference: string, reserve = false) => {
    const r = await call('POST', '/api/lotto/ball-sets', { reference, ballCount: 49, sealRef: `AJ-PREC-${reference}` })
    expect(r.status).toBe(201)
    if (reserve) expect((await call('POST', `/api/lotto/ball-sets/${r.body.id}/reserve`)).status).toBe(200)
    return r.body.id as string
  }

  beforeAll(async () => {
    server = await startTestServer(
      { auth: 'on', lottoLicence: { ref: 'AJ-LO-2025-0007', rangeMin: 20, rangeMax: 60 } },
      { clock },
    )
    await registerTombola(server.services)
    await server.services.auth.createUser({
      username: 'jefa',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
    })
    await login()
  })
  afterAll(async () => server?.cleanup())

  it('LNS-9: the balls drawn stand, the reserve draws on, and the next ball waits for a new reserve set (002 §7.3.3.1)', async () => {
    const created = await call(
      'POST',
      '/api/lotto/draws',
      plan649({ gameCode: 'LSWAP', drawMethod: 'manual', drawDevice: 'AJ-T-0042' }),
    )
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const drawId = created.body.drawId
    const main = await set('JB-49-A')
    const reserve = await set('JB-49-R', true)
    t = Date.parse('2025-03-08T19:00:00-04:00')
    await login()
    expect((await call('POST', `/api/lotto/draws/${drawId}/close`, {})).status).toBe(200)
    t = Date.parse('2025-03-08T19:31:00-04:00')
    await login()
    const first = await call('POST', `/api/lotto/draws/${drawId}/balls`, { ball: 12 })
    expect(first.body).toMatchObject({ balls: [12], ballSetId: main, reserveSetId: reserve })

    const swapped = await call('POST', `/api/lotto/draws/${drawId}/ball-set-swap`, { reason: 'La bola 33 no se lee' })
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200)
    expect(swapped.body).toMatchObject({ balls: [12], ballSetId: reserve, reserveSetId: null })
    const noReserve = await call('POST', `/api/lotto/draws/${drawId}/balls`, { ball: 7 })
    expect([noReserve.status, noReserve.body.error?.code]).toEqual([409, 'LOTTO_BALL_SET_REQUIRED'])
    // The replaced set comes back after a check: it is the new reserve on hand.
    expect((await call('POST', `/api/lotto/ball-sets/${main}/reserve`)).status).toBe(200)
    const next = await call('POST', `/api/lotto/draws/${drawId}/balls`, { ball: 7 })
    expect(next.body).toMatchObject({ balls: [12, 7], ballSetId: reserve, reserveSetId: main })

    const records = (await call('GET', '/api/journal?limit=1000')).body.records as Rec[]
    expect(records.find((r) => r.type === 'lotto.ball_set_swapped')!.payload).toMatchObject({
      drawId,
      replaced: { id: main, reference: 'JB-49-A' },
      by: { id: reserve, reference: 'JB-49-R' },
      valuesDrawn: 1,
      reason: 'La bola 33 no se lee',
      actor: { role: 'director' },
    })
    const balls = records.filter((r) => r.type === 'lotto.ball_drawn' && r.payload.drawId === drawId)
    expect(balls.map((r) => [r.payload.ball, r.payload.ballSet.reference, r.payload.reserveSet.reference])).toEqual([
      [12, 'JB-49-A', 'JB-49-R'],
      [7, 'JB-49-R', 'JB-49-A'],
    ])
  })
})
