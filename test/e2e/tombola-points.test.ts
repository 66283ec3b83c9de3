import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readJournal } from '../../server/src/shared/journal.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { rafflePlan, registerLotteryBallSets } from '../helpers/lottery-plans.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { tamper } from '../helpers/tamper.ts'

/**
 * PRM-2 over real HTTP, authentication on, real people at enrolled stations with open shifts (both engines): a
 * tómbola "por suma de puntos hasta alcanzar una cifra determinada" (004 F.I). The one sealed draw gives the tickets it
 * extracts their tier's points; at a cash desk of the hall where the objects are on display (PRM-6), a holder presents
 * several tickets whose points reach an object's figure and takes it, in one payout through the cash desk's one door
 * (POST /api/tickets/pay) that uses every ticket presented, all or nothing.
 */
const PASSWORD = 'correct horse battery'

describe('tómbola by points: tickets whose points reach a figure take the object, once (PRM-2)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-06-01T12:00:00+02:00')
  const clock = { now: () => new Date(t) }
  const codes = new Map<number, string>()
  let raffleCode = ''
  let jefa = ''
  let till: Till
  let other: Till
  let drawId = ''
  let raffleId = ''
  let hallId = ''
  const objects = [
    { code: 'T1', name: 'Bicicleta', description: 'Bicicleta de montaña' },
    { code: 'T2', name: 'Cesta', description: 'Cesta de productos de Cantabria' },
    { code: 'T3', name: 'Jamón', description: 'Jamón ibérico' },
  ]
  const as = (headers: Record<string, string>) => (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, headers)
  const boss = () => as({ authorization: jefa, 'accept-language': 'es' })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await registerLotteryBallSets(server.services, 2)
    for (const [username, displayName, role] of [
      ['jefa', 'Elena Ruiz', 'director'],
      ['cajera', 'Rosa Gómez', 'cashier'],
      ['cajero', 'Luis Pardo', 'cashier'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    }
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    const hall = await boss()('POST', '/api/halls', {
      name: 'Sala Pereda',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    expect(hall.status).toBe(201)
    hallId = hall.body.id
    const otherHall = await boss()('POST', '/api/halls', {
      name: 'Sala Alameda',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    expect(otherHall.status).toBe(201)
    const base = rafflePlan()
    const prizes = objects.map((o, i) => ({ ...base.prizes[0], ...o, valueCents: 10_000 * (i + 1) }))
    const points = {
      basesRef: 'Bases de la tómbola de San Juan, art. 6',
      hallId,
      totalPoints: 16,
      tiers: [
        { count: 2, points: 5 },
        { count: 6, points: 1 },
      ],
      figures: { T1: 7, T2: 3, T3: 2 },
    }
    const plan = rafflePlan({
      kind: 'tombola',
      gameCode: 'TOMBPTS',
      numbering: { from: 1, to: 40, digits: 2 },
      ticketPriceCents: 2_000,
      prizes,
      points,
    } as never)
    // The tiers must add up to the points the bases approve.
    const wrong = await boss()('POST', '/api/lottery/draws', { ...plan, points: { ...points, totalPoints: 17 } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.details.problems).toContainEqual(
      expect.objectContaining({ field: 'points.tiers', rule: 'PRM-2' }),
    )
    // A director of another hall does not put objects on display in this one (PRM-6).
    await server.services.auth.createUser({
      username: 'jefe',
      displayName: 'Tomás Alonso',
      role: 'director',
      password: PASSWORD,
      halls: [otherHall.body.id],
    })
    const outsider = `Bearer ${(await server.services.auth.login('jefe', PASSWORD)).token}`
    const foreign = await as({ authorization: outsider, 'accept-language': 'es' })('POST', '/api/lottery/draws', plan)
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(403)
    expect(foreign.body.error.code).toBe('WRONG_HALL')
    const tombola = await boss()('POST', '/api/lottery/draws', plan)
    expect(tombola.status, JSON.stringify(tombola.body)).toBe(201)
    drawId = tombola.body.drawId
    expect(tombola.body.plan.points).toEqual(points)
    const raffle = await boss()(
      'POST',
      '/api/lottery/draws',
      rafflePlan({ gameCode: 'RIFAPTS', numbering: { from: 1, to: 40, digits: 2 }, ticketPriceCents: 3_000 }),
    )
    expect(raffle.status, JSON.stringify(raffle.body)).toBe(201)
    raffleId = raffle.body.drawId
    till = await openTill(server.url, server.services, {
      hallId,
      username: 'cajera',
      password: PASSWORD,
      stationName: 'Caseta 1',
      floatCents: 10_000,
    })
    other = await openTill(server.url, server.services, {
      hallId: otherHall.body.id,
      username: 'cajero',
      password: PASSWORD,
      stationName: 'Caja Alameda',
      floatCents: 10_000,
    })
    const sold = await as(till.headers)('POST', `/api/lottery/draws/${drawId}/tickets`, {
      ageConfirmed: true,
      numbers: Array.from({ length: 40 }, (_, i) => i + 1),
    })
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    for (const x of sold.body.tickets) codes.set(Number(x.number), x.code)
    expect(sold.body.tickets[0].prizes).toEqual([
      'Bicicleta: Bicicleta de montaña (7 puntos)',
      'Cesta: Cesta de productos de Cantabria (3 puntos)',
      'Jamón: Jamón ibérico (2 puntos)',
    ])
    expect((await boss()('GET', `/api/lottery/draws/${drawId}`)).body.winningTickets).toBe(8)
    const soldRaffle = await as(till.headers)('POST', `/api/lottery/draws/${raffleId}/tickets`, {
      ageConfirmed: true,
      numbers: [7, 8, 9],
    })
    expect(soldRaffle.status, JSON.stringify(soldRaffle.body)).toBe(201)
    raffleCode = soldRaffle.body.tickets[0].code
  })
  afterAll(async () => server?.cleanup())

  async function journal() {
    const out = []
    for await (const r of readJournal(server.services.db)) out.push(r)
    return out
  }

  it('the draw gives the tiers’ points; the judge says what a ticket is worth; a holder takes an object with three tickets in one payout, refused in another hall, short of points, with a used ticket, with another tómbola’s ticket, or for an object taken; nothing moves on a refusal', async () => {
    t = Date.parse('2025-06-23T22:00:00+02:00')
    jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    await till.relogin()
    await other.relogin()
    for (const id of [drawId, raffleId]) {
      expect((await boss()('POST', `/api/lottery/draws/${id}/close`, {})).status).toBe(200)
      expect((await boss()('POST', `/api/lottery/draws/${id}/draw`)).status).toBe(200)
      expect((await boss()('POST', `/api/lottery/draws/${id}/settle`)).status).toBe(200)
    }
    // The extracto lists the drawn tickets with their points, in the order drawn: 2 of 5 points, 6 of 1.
    const extracto = await boss()('GET', `/api/lottery/draws/${drawId}/extracto`)
    expect(extracto.status).toBe(200)
    const list = extracto.body.points.tickets as Array<{ number: string; points: number; order: number }>
    expect(list.map((x) => x.points)).toEqual([5, 5, 1, 1, 1, 1, 1, 1])
    expect(new Set(list.map((x) => x.number)).size).toBe(8)
    expect(extracto.body.points.figures).toEqual([
      { code: 'T1', name: 'Bicicleta', points: 7 },
      { code: 'T2', name: 'Cesta', points: 3 },
      { code: 'T3', name: 'Jamón', points: 2 },
    ])
    const fives = list.filter((x) => x.points === 5).map((x) => Number(x.number))
    const ones = list.filter((x) => x.points === 1).map((x) => Number(x.number))
    const none = [...codes.keys()].find((n) => !fives.includes(n) && !ones.includes(n))!

    const cashier = as(till.headers)
    const judge = async (n: number) => (await cashier('POST', '/api/tickets/validate', { code: codes.get(n) })).body
    const pay = (who: Till, first: number | string, more: Array<number | string>, objectCode?: string) =>
      as(who.headers)('POST', '/api/tickets/pay', {
        code: typeof first === 'number' ? codes.get(first) : first,
        codes: more.map((n) => (typeof n === 'number' ? codes.get(n) : n)),
        payeeName: 'Pilar Sainz Ortiz',
        payeeDocument: '72000111X',
        ...(objectCode ? { objectCode } : {}),
      })
    const register = async () => (await boss()('GET', `/api/lottery/prize-register?drawId=${drawId}`)).body.entries
    const paidRecords = async () => (await journal()).filter((r) => r.type === 'raffle.prize_paid')

    // The judge at the desk: what a ticket is worth in points, and the objects left with their figures.
    const five = await judge(fives[0])
    expect(five.view).toMatchObject({ verdict: 'winner', points: 5, payable: true })
    expect(five.view.choices).toEqual([
      expect.objectContaining({ code: 'T1', points: 7 }),
      expect.objectContaining({ code: 'T2', points: 3 }),
      expect.objectContaining({ code: 'T3', points: 2 }),
    ])
    expect((await judge(none)).view).toMatchObject({ verdict: 'not_winner', points: 0 })

    const three = [fives[0], ones[0], ones[1]]
    // Another hall's cashier does not hand over objects on display in this hall (PRM-6).
    const elsewhere = await pay(other, three[0], three.slice(1), 'T1')
    expect(elsewhere.status).toBe(403)
    expect(elsewhere.body.error.code).toBe('WRONG_HALL')
    // Short of points: 5 + 1 = 6 < 7.
    const short = await pay(till, fives[0], [ones[0]], 'T1')
    expect(short.status).toBe(422)
    expect(short.body.error).toMatchObject({ code: 'POINTS_SHORT', details: { points: 6, figure: 7 } })
    expect(short.body.error.message).toBe('Los boletos presentados no suman los puntos que pide ese objeto.')
    expect(await register()).toEqual([])
    expect(await paidRecords()).toEqual([])

    // 5 + 1 + 1 = 7 takes the bicycle: one payout, every ticket used, the holder named, journaled.
    const taken = await pay(till, three[0], three.slice(1), 'T1')
    expect(taken.status, JSON.stringify(taken.body)).toBe(200)
    expect(taken.body.payout).toMatchObject({
      amountCents: 0,
      points: 7,
      figure: 7,
      goods: ['Bicicleta: Bicicleta de montaña'],
      prizes: [expect.objectContaining({ code: 'T1' })],
    })
    expect(taken.body.payout.tickets.map((x: any) => Number(x.number)).sort()).toEqual([...three].sort())
    const entries = await register()
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ payee: { name: 'Pilar Sainz Ortiz' }, prizes: [{ code: 'T1' }] })
    const records = await paidRecords()
    expect(records).toHaveLength(1)
    expect(records[0].payload).toMatchObject({ payoutId: taken.body.payout.payoutId, objectCode: 'T1', points: 7 })
    expect((records[0].payload as any).tickets.map((x: any) => x.number).sort()).toEqual([...three].sort())
    for (const n of three) expect((await judge(n)).view.verdict, String(n)).toBe('paid')
    expect((await judge(ones[1])).view.points).toBe(1)

    const still = async () => {
      expect(await register()).toHaveLength(1)
      expect(await paidRecords()).toHaveLength(1)
      for (const n of [fives[1], ones[2], ones[3]]) expect((await judge(n)).view.verdict, String(n)).toBe('winner')
    }
    // A used ticket, among others or first, or one ticket presented twice: refused, nothing used.
    for (const [first, more] of [
      [fives[1], [ones[2], ones[1]]],
      [ones[0], [fives[1]]],
      [fives[1], [fives[1]]],
    ] as const) {
      const again = await pay(till, first, [...more], 'T2')
      expect(again.status, JSON.stringify(again.body)).toBe(409)
      expect(again.body.error.code).toBe('TICKET_ALREADY_USED')
      expect(again.body.error.message).toMatch(/^Uno de los boletos ya se usó/)
    }
    await still()
    // A ticket of another draw (a raffle) presented with this tómbola's.
    const mixed = await pay(till, fives[1], [raffleCode], 'T2')
    expect(mixed.status).toBe(400)
    expect(mixed.body.error.code).toBe('OTHER_TOMBOLA')
    // A forged code among them is refused as forged.
    const good = codes.get(ones[2])!
    const forged = await pay(till, fives[1], [`${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`], 'T2')
    expect(forged.status, JSON.stringify(forged.body)).toBe(422)
    expect(forged.body.error.code).toBe('INVALID_SIGNATURE')
    // The bicycle is gone.
    const twice = await pay(till, fives[1], [ones[2], ones[3]], 'T1')
    expect(twice.status).toBe(409)
    expect(twice.body.error.code).toBe('OBJECT_TAKEN')
    expect(twice.body.error.message).toBe('Ese objeto ya fue retirado: elija otro de los que quedan.')
    await still()
    expect((await judge(fives[1])).view.choices.map((c: any) => c.code)).toEqual(['T2', 'T3'])

    // 5 points reach the basket's 3: the 2 over are spent with the ticket, not carried to another payout.
    const basket = await pay(till, fives[1], [], 'T2')
    expect(basket.status, JSON.stringify(basket.body)).toBe(200)
    expect(basket.body.payout).toMatchObject({ points: 5, figure: 3 })
    expect((await judge(fives[1])).view.verdict).toBe('paid')
    expect(await register()).toHaveLength(2)

    // Two desks at once, the same ticket in both hand-overs of the last object: one hands it over, the other is
    // refused, and the ticket is used once.
    const race = await Promise.all([
      pay(till, ones[2], [ones[3]], 'T3'),
      as(till.headers)('POST', '/api/tickets/pay', {
        code: codes.get(ones[3]),
        codes: [codes.get(ones[4])],
        payeeName: 'Ana Ruiz Gómez',
        payeeDocument: '72000222Y',
        objectCode: 'T3',
      }),
    ])
    expect(race.map((r) => r.status).sort()).toEqual([200, 409])
    expect(['TICKET_ALREADY_USED', 'OBJECT_TAKEN']).toContain(race.find((r) => r.status === 409)!.body.error.code)
    expect(await register()).toHaveLength(3)
    expect((await paidRecords()).filter((r) => (r.payload as any).objectCode === 'T3')).toHaveLength(1)

    // Someone with the database deletes a ticket's use so that it counts again: its seal is still there, refused.
    await tamper(server, 'DELETE FROM tombola_ticket_uses WHERE draw_id = ? AND number = ?', [drawId, ones[0]])
    const again = await pay(till, ones[0], [ones[5]], 'T1')
    expect(again.status, JSON.stringify(again.body)).toBe(409)
    expect(again.body.error.code).toBe('ROW_TAMPERED')
    expect(await register()).toHaveLength(3)

    // The acta lists the drawn tickets and their points too; its PDF is kept for a look.
    const acta = await boss()('GET', `/api/lottery/draws/${drawId}/acta`)
    expect(acta.body.points.tickets).toEqual(list)
    const pdf = await fetch(`${server.url}/api/lottery/draws/${drawId}/acta.pdf`, { headers: { authorization: jefa } })
    expect(pdf.status).toBe(200)
    const bytes = Buffer.from(await pdf.arrayBuffer())
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    if (process.env.TOMBOLA_ACTA_OUT) writeFileSync(process.env.TOMBOLA_ACTA_OUT, bytes)
    const extractoPdf = await fetch(`${server.url}/api/lottery/draws/${drawId}/extracto.pdf`, {
      headers: { authorization: jefa },
    })
    expect(extractoPdf.status).toBe(200)
    const extractoBytes = Buffer.from(await extractoPdf.arrayBuffer())
    expect(extractoBytes.subarray(0, 5).toString()).toBe('%PDF-')
    if (process.env.TOMBOLA_ACTA_OUT) writeFileSync(`${process.env.TOMBOLA_ACTA_OUT}.extracto.pdf`, extractoBytes)
  })
})
