import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { printedFractions } from '../helpers/lottery-print.ts'
import { lotteryPlan, rafflePlan, registerTombola, registerLotteryBallSets } from '../helpers/lottery-plans.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 18 over real HTTP, authentication on, real people, an enrolled station with an open shift:
 * LOT-4: a prize by progression ("cada diez" from the first prize) is drawn, settled and paid.
 * LOT-22: a motorcycle backed by the commitment document and the supplier's certificate is handed over against the
 * ticket: recorded in the prize register, no cash out of the drawer. Real estate, goods without backing, goods split
 * into fractions and expired prizes of business promotions (PRM-11) are refused, in Spanish.
 * PRM-2: a tómbola's winner takes any object drawn that is still there; each object is handed over once.
 */
const PASSWORD = 'correct horse battery'
const MOTO = 'Motocicleta Honda XR150 0 km'

describe('lottery prizes by progression and in goods (LOT-4, LOT-22, PRM-11)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-02-10T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const codes = new Map<number, string>()
  let drawId = ''
  let hallId = ''
  let till: Till
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  const plan = (prizes: any[], over: Record<string, unknown> = {}) =>
    lotteryPlan({
      gameCode: 'LNBMOTO',
      numbering: { from: 0, to: 99, digits: 2 },
      series: 1,
      fractions: 1,
      ticketPriceCents: 5_000,
      licensedMaxTickets: 1000,
      drawMethod: 'manual',
      drawDevice: 'AJ-T-0042',
      prizes,
      ...over,
    })
  const P1 = { code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 1_000_000 }
  const moto = {
    code: 'M1',
    name: 'Premio Motocicleta',
    rule: { type: 'exact' },
    amountCents: 1_500_000,
    kind: 'goods',
    goods: {
      description: MOTO,
      class: 'registrable',
      commitmentRef: 'Compromiso de propiedad 2025-17',
      supplierCertificateRef: 'Certificado Honda Bolivia 8841',
    },
    source: 'operator',
  }
  const G10 = {
    code: 'G10',
    name: 'Progresión de diez',
    rule: { type: 'progression', of: 'P1', step: 10 },
    amountCents: 20_000,
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await registerLotteryBallSets(server.services, 2) // LOT-18: the digit sets the numbers are read from
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    }
    auth.set('jefa', `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`)
    const hall = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      playingPositions: 200,
    })
    expect(hall.status).toBe(201)
    hallId = hall.body.id
    // LOT-18 / LNS-8: the manual draw names a registered, certified tómbola.
    await registerTombola(server.services)
  })
  afterAll(async () => server?.cleanup())

  it('LOT-22 / PRM-11 / LOT-25: refuses real estate, goods without backing, goods split into fractions and expired promotion prizes (400, in Spanish)', async () => {
    const cases: Array<[string, any[], Record<string, unknown>, string, string]> = [
      [
        'real estate',
        [P1, { ...moto, goods: { description: 'Departamento en Sopocachi', class: 'real-estate', invoiceRef: 'F-1' } }],
        {},
        'prizes[1].goods.class',
        'LOT-22',
      ],
      [
        'no backing',
        [P1, { ...moto, goods: { description: MOTO, class: 'registrable', commitmentRef: 'Compromiso 17' } }],
        {},
        'prizes[1].goods.invoiceRef',
        'LOT-22',
      ],
      [
        'movable without invoice',
        [P1, { ...moto, goods: { description: 'Televisor 55"', class: 'movable' } }],
        {},
        'prizes[1].goods.invoiceRef',
        'LOT-22',
      ],
      ['goods into fractions', [P1, moto], { fractions: 2 }, 'prizes[1].kind', 'LOT-25'],
      ['expired promotion', [{ ...P1, source: 'expired-promotion' }], {}, 'prizes[0].source', 'LOT-22'],
    ]
    for (const [what, prizes, over, field, rule] of cases) {
      const r = await call('jefa', 'POST', '/api/lottery/draws', plan(prizes, over))
      expect(r.status, what).toBe(400)
      expect(r.body.error.details.problems, what).toContainEqual(expect.objectContaining({ field, rule }))
      expect(r.body.error.message, what).not.toMatch(/VALIDATION|LOT-|prizes\[/)
    }
    expect((await call('jefa', 'GET', '/api/lottery/draws')).body.draws).toEqual([])
  })

  it('LOT-4: plans a progression prize; the print run and the plan state it', async () => {
    const created = await call('jefa', 'POST', '/api/lottery/draws', plan([P1, moto, G10]))
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    drawId = created.body.drawId
    const seller = await server.services.auth.enrolDevice({
      ...sealed(),
      kind: 'cashier_station',
      name: 'Agencia Central',
      hallId,
    })
    const run = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 0, to: 99 })
    expect(run.status).toBe(201)
    for (const x of printedFractions(server, run.body)) codes.set(Number(x.number), x.code)
    expect(
      (
        await call('jefa', 'POST', `/api/lottery/draws/${drawId}/distributions`, {
          from: 0,
          to: 99,
          sellerId: seller.id,
        })
      ).status,
    ).toBe(201)
  })

  it('LOT-4 / LOT-22: settles the progression every ten numbers from the first prize, and the motorcycle as goods with no cash liability', async () => {
    t = Date.parse('2025-03-01T18:00:00-04:00')
    auth.set('jefa', `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`)
    expect((await call('jefa', 'POST', `/api/lottery/draws/${drawId}/close`, {})).status).toBe(200)
    for (const number of [37, 52])
      expect((await call('jefa', 'POST', `/api/lottery/draws/${drawId}/numbers`, { number })).status).toBe(200)
    const settled = await call('jefa', 'POST', `/api/lottery/draws/${drawId}/settle`)
    expect(settled.status).toBe(200)
    expect(settled.body.winning).toEqual({ P1: 37, M1: 52 })
    const byCode = Object.fromEntries(settled.body.prizes.map((p: any) => [p.code, p]))
    // Every number ten, twenty... away from 37 inside 00-99, never 37 itself.
    expect(byCode.G10.numbers).toEqual([7, 17, 27, 47, 57, 67, 77, 87, 97])
    expect(byCode.G10.rule).toMatch(/progresión de 10 en 10/)
    expect(byCode.M1).toMatchObject({ numbers: [52], goods: MOTO })
    const unclaimed = await call('jefa', 'GET', `/api/lottery/draws/${drawId}/unclaimed`)
    expect(unclaimed.body.prizesInPlayCents).toBe(1_000_000 + 9 * 20_000)
  })

  it('pays the first prize and a progression in cash, hands the motorcycle over with no cash out of the drawer, each once', async () => {
    till = await openTill(server.url, server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caja 1',
      floatCents: 2_000_000,
    })
    const pay = (n: number) =>
      api(
        server.url,
        'POST',
        '/api/tickets/pay',
        { code: codes.get(n), payeeName: 'Juana Flores Quispe', payeeDocument: '3344556 LP' },
        till.headers,
      )
    const first = await pay(37)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.payout).toMatchObject({ kind: 'lottery', amountCents: 1_000_000 })
    const progression = await pay(57)
    expect(progression.body.payout).toMatchObject({
      amountCents: 20_000,
      prizes: [expect.objectContaining({ code: 'G10' })],
    })
    const goods = await pay(52)
    expect(goods.status, JSON.stringify(goods.body)).toBe(200)
    expect(goods.body.payout).toMatchObject({ amountCents: 0, goods: [`Premio Motocicleta: ${MOTO}`] })
    expect((await pay(52)).body.error.code).toBe('ALREADY_PAID')
    const lost = (await pay(38)).body.error
    expect([lost.code, lost.message]).toEqual(['NOT_A_WINNER', 'Este billete de lotería no tiene premio.'])
    // The drawer paid out the cash prizes only: the motorcycle moved no money.
    const shift = await api(server.url, 'GET', `/api/shifts/${till.shiftId}`, undefined, {
      authorization: auth.get('jefa')!,
    })
    expect(shift.body.outCents).toBe(1_020_000)
    expect(shift.body.expectedCents).toBe(2_000_000 - 1_020_000)
    const register = await call('jefa', 'GET', `/api/lottery/prize-register?drawId=${drawId}`)
    expect(register.body.entries.find((e: any) => e.goods.length)).toMatchObject({
      amountCents: 0,
      goods: [`Premio Motocicleta: ${MOTO}`],
      payee: { name: 'Juana Flores Quispe', document: '3344556 LP' },
    })
  })
})

describe('tómbola: the winner takes any object drawn that is still there (PRM-2)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-06-01T12:00:00+02:00')
  const clock = { now: () => new Date(t) }
  const codes = new Map<number, string>()
  let jefa = ''
  let till: Till
  let drawId = ''
  let raffleId = ''
  const objects = [
    { code: 'T1', name: 'Bicicleta', description: 'Bicicleta de montaña' },
    { code: 'T2', name: 'Cesta', description: 'Cesta de productos de Cantabria' },
    { code: 'T3', name: 'Jamón', description: 'Jamón ibérico' },
  ]
  const as = (headers: Record<string, string>) => (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, headers)

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await registerLotteryBallSets(server.services, 2) // LOT-18: the digit sets the numbers are read from
    for (const [username, displayName, role] of [
      ['jefa', 'Elena Ruiz', 'director'],
      ['cajera', 'Rosa Gómez', 'cashier'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    }
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    const boss = as({ authorization: jefa, 'accept-language': 'es' })
    const hall = await boss('POST', '/api/halls', {
      name: 'Sala Pereda',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    expect(hall.status).toBe(201)
    const base = rafflePlan()
    const prizes = objects.map((o, i) => ({ ...base.prizes[0], ...o, valueCents: 10_000 * (i + 1) }))
    const tombola = await boss(
      'POST',
      '/api/lottery/draws',
      rafflePlan({
        kind: 'tombola',
        gameCode: 'TOMBSJ',
        numbering: { from: 1, to: 40, digits: 2 },
        ticketPriceCents: 2_000,
        prizes,
      }),
    )
    expect(tombola.status, JSON.stringify(tombola.body)).toBe(201)
    drawId = tombola.body.drawId
    const raffle = await boss(
      'POST',
      '/api/lottery/draws',
      rafflePlan({ gameCode: 'RIFASJ2', numbering: { from: 1, to: 40, digits: 2 }, ticketPriceCents: 3_000 }),
    )
    raffleId = raffle.body.drawId
    till = await openTill(server.url, server.services, {
      hallId: hall.body.id,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caseta 1',
      floatCents: 10_000,
    })
    expect(raffle.status, JSON.stringify(raffle.body)).toBe(201)
    // Every number sold, so every object drawn has a buyer.
    const sold = await as(till.headers)('POST', `/api/lottery/draws/${drawId}/tickets`, {
      ageConfirmed: true,
      numbers: Array.from({ length: 40 }, (_, i) => i + 1),
    })
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    for (const x of sold.body.tickets) codes.set(Number(x.number), x.code)
    const soldRaffle = await as(till.headers)('POST', `/api/lottery/draws/${raffleId}/tickets`, {
      ageConfirmed: true,
      numbers: Array.from({ length: 40 }, (_, i) => i + 1),
    })
    for (const x of soldRaffle.body.tickets) codes.set(100 + Number(x.number), x.code)
  })
  afterAll(async () => server?.cleanup())

  it('hands each object over once, to the winner who chooses it; a taken object is refused (409) and a winner whose object was taken chooses another', async () => {
    t = Date.parse('2025-06-23T22:00:00+02:00')
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    await till.relogin()
    const boss = as({ authorization: jefa, 'accept-language': 'es' })
    for (const id of [drawId, raffleId]) {
      expect((await boss('POST', `/api/lottery/draws/${id}/close`, {})).status).toBe(200)
      expect((await boss('POST', `/api/lottery/draws/${id}/draw`)).status).toBe(200)
      expect((await boss('POST', `/api/lottery/draws/${id}/settle`)).status).toBe(200)
    }
    const settled = (await boss('GET', `/api/lottery/draws/${drawId}`)).body
    const winning = (settled.result ?? settled).winning as Record<string, number>
    const [w1, w2, w3] = ['T1', 'T2', 'T3'].map((c) => winning[c])
    const cashier = as(till.headers)
    const pay = (n: number, objectCode?: string) =>
      cashier('POST', '/api/tickets/pay', {
        code: codes.get(n),
        payeeName: 'Pilar Sainz Ortiz',
        payeeDocument: '72000111X',
        ...(objectCode ? { objectCode } : {}),
      })
    const before = await cashier('POST', '/api/tickets/validate', { code: codes.get(w2) })
    expect(before.body.choices.map((c: any) => c.code)).toEqual(['T1', 'T2', 'T3'])
    // The winner of the second object takes the bicycle.
    const first = await pay(w2, 'T1')
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.payout).toMatchObject({
      amountCents: 0,
      goods: ['Bicicleta: Bicicleta de montaña'],
      prizes: [expect.objectContaining({ code: 'T1' })],
    })
    // The winner drawn for the bicycle finds it gone: asked to choose among what is left, then refused the taken one.
    expect(
      (await cashier('POST', '/api/tickets/validate', { code: codes.get(w1) })).body.choices.map((c: any) => c.code),
    ).toEqual(['T2', 'T3'])
    const none = await pay(w1)
    expect(none.status).toBe(400)
    expect(none.body.error.details).toMatchObject({ field: 'objectCode', rule: 'PRM-2' })
    expect(none.body.error.message).not.toMatch(/PRM-2|objectCode/)
    const taken = await pay(w1, 'T1')
    expect(taken.status).toBe(409)
    expect(taken.body.error.details.reason).toBe('taken')
    expect((await pay(w1, 'T3')).body.payout.prizes).toEqual([expect.objectContaining({ code: 'T3' })])
    // The last winner, whose object was taken, naming nothing, gets the only one left, once.
    expect((await pay(w3)).body.payout.prizes).toEqual([expect.objectContaining({ code: 'T2' })])
    expect((await pay(w3, 'T2')).body.error.code).toBe('ALREADY_PAID')
    const register = (await boss('GET', `/api/lottery/prize-register?drawId=${drawId}`)).body.entries
    expect(register.flatMap((e: any) => e.prizes.map((p: any) => p.code)).sort()).toEqual(['T1', 'T2', 'T3'])
    // A loser chooses nothing; a raffle's prizes are fixed by the order of the draw.
    const loser = [...Array(40).keys()].map((i) => i + 1).find((n) => ![w1, w2, w3].includes(n))!
    const lost = (await pay(loser, 'T2')).body.error
    expect([lost.code, lost.message]).toEqual(['NOT_A_WINNER', 'Este boleto de rifa no tiene premio.'])
    const raffleWinning = ((await boss('GET', `/api/lottery/draws/${raffleId}`)).body.result ?? {}).winning as Record<
      string,
      number
    >
    const fixed = await pay(100 + raffleWinning.R1, 'R2')
    expect(fixed.status).toBe(400)
    expect(fixed.body.error.details.rule).toBe('PRM-2')
  })
})

describe('LOT-30: under the Cantabrian profile a numbered lottery pays cash prizes only (004 Loterías I)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const clock = { now: () => new Date(Date.parse('2025-02-10T12:00:00+01:00')) }
  let token = ''
  const post = (body: unknown) =>
    api(server.url, 'POST', '/api/lottery/draws', body, { authorization: token, 'accept-language': 'es' })
  const plan = (prizes: any[], gameCode: string) =>
    lotteryPlan({
      gameCode,
      institution: 'Gobierno de Cantabria',
      currency: 'EUR',
      numbering: { from: 0, to: 99, digits: 2 },
      series: 1,
      fractions: 1,
      ticketPriceCents: 5_000,
      licensedMaxTickets: 1000,
      prizes,
    })
  const P1 = { code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 100_000 }
  const goods = (kind: 'goods' | 'in-kind') => ({
    code: 'M1',
    name: 'Premio en bienes',
    rule: { type: 'exact' },
    amountCents: 150_000,
    kind,
    goods: { description: 'Motocicleta 125 cc', class: 'movable', invoiceRef: 'Factura 2025-88' },
    source: 'operator',
  })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', profileId: 'ES-CB-2010' }, { clock })
    await server.services.auth.createUser({
      username: 'directora',
      displayName: 'Ana Gómez',
      role: 'director',
      password: PASSWORD,
    })
    token = `Bearer ${(await server.services.auth.login('directora', PASSWORD)).token}`
  })
  afterAll(async () => server?.cleanup())

  it('refuses a prize in goods or in kind (400, in Spanish) and plans nothing; the same plan in cash is accepted', async () => {
    for (const kind of ['goods', 'in-kind'] as const) {
      const r = await post(plan([P1, goods(kind)], 'CBBIENES'))
      expect(r.status, kind).toBe(400)
      expect(r.body.error.details.problems, kind).toEqual([
        expect.objectContaining({ field: 'prizes[1].kind', rule: 'LOT-30' }),
      ])
      expect(r.body.error.message, kind).not.toMatch(/VALIDATION|LOT-|prizes\[/)
    }
    const list = await api(server.url, 'GET', '/api/lottery/draws', undefined, { authorization: token })
    expect(list.body.draws).toEqual([])
    const cash = await post(plan([P1, { ...P1, code: 'P2', name: 'Segundo Premio', amountCents: 150_000 }], 'CBMETAL'))
    expect(cash.status, JSON.stringify(cash.body)).toBe(201)
  })
})
