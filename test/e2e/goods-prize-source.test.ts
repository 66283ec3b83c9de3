import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { lotteryPlan, plan649, rafflePlan, registerTombola } from '../helpers/lottery-plans.ts'

/**
 * PRM-11 (LOT-22, LNS-23) over real HTTP with authentication on: a goods prize of every line (a numbered lottery,
 * a raffle, a lotto category) states who provides it, the operator or a sponsor; without it the plan is refused
 * (400, in Spanish, naming the prize's source), with it the same plan is accepted.
 */
const PASSWORD = 'correct horse battery'

describe('PRM-11: every goods prize states its source (lottery, raffle, lotto; auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const clock = { now: () => new Date('2025-02-10T12:00:00-04:00') }
  let auth = ''
  const post = (path: string, body: unknown) =>
    api(server.url, 'POST', path, body, { authorization: auth, 'accept-language': 'es' })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await server.services.auth.createUser({
      username: 'jefa',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
    })
    auth = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    await registerTombola(server.services)
  })
  afterAll(async () => server?.cleanup())

  /** Refused naming the source under PRM-11, in Spanish, with no code on the message; nothing planned. */
  async function refusedWithoutSource(path: string, body: unknown, field: string) {
    const r = await post(path, body)
    expect(r.status, JSON.stringify(r.body)).toBe(400)
    expect(r.body.error.details.problems).toContainEqual(expect.objectContaining({ field, rule: 'PRM-11' }))
    expect(r.body.error.details.problems.every((p: { field: string }) => p.field === field)).toBe(true)
    expect(r.body.error.message).not.toMatch(/VALIDATION|PRM-|prizes\[|categories\[|operator|sponsor/)
  }

  it('a numbered lottery: a motorcycle with no source is refused; the same from a sponsor is planned', async () => {
    const moto = {
      code: 'M1',
      name: 'Premio Motocicleta',
      rule: { type: 'exact' },
      amountCents: 1_500_000,
      kind: 'goods',
      goods: { description: 'Motocicleta 125 cc', class: 'movable', invoiceRef: 'Factura 2025-88' },
    } as const
    const plan = (prize: Record<string, unknown>) =>
      lotteryPlan({
        gameCode: 'LNBFUENTE',
        numbering: { from: 0, to: 99, digits: 2 },
        series: 1,
        fractions: 1,
        ticketPriceCents: 5_000,
        licensedMaxTickets: 1000,
        drawMethod: 'manual',
        drawDevice: 'AJ-T-0042',
        prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 100_000 }, prize as any],
      })
    await refusedWithoutSource('/api/lottery/draws', plan(moto), 'prizes[1].source')
    await refusedWithoutSource(
      '/api/lottery/draws',
      plan({ ...moto, kind: 'in-kind', source: 'expired-promotion' }),
      'prizes[1].source',
    )
    const ok = await post('/api/lottery/draws', plan({ ...moto, source: 'sponsor' }))
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })

  it('a raffle: a goods prize with no source is refused; the same from the operator is planned', async () => {
    const base = rafflePlan({ gameCode: 'RIFAFUENTE' })
    const { source: _omitted, ...noSource } = base.prizes[1]!
    await refusedWithoutSource(
      '/api/lottery/draws',
      { ...base, prizes: [base.prizes[0], noSource] },
      'prizes[1].source',
    )
    const ok = await post('/api/lottery/draws', {
      ...base,
      prizes: [base.prizes[0], { ...noSource, source: 'operator' }],
    })
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })

  it('a lotto category in goods: no source is refused; from a sponsor it is planned', async () => {
    const base = plan649({ drawNumber: 7 })
    const withGoods = (prize: Record<string, unknown>) => ({
      ...base,
      categories: [
        ...base.categories.slice(0, 3),
        { code: 'C3', name: 'Premio en bienes', matches: 3, prize: { type: 'goods', unitValueCents: 100, ...prize } },
      ],
    })
    const goods = { description: 'Televisor 55 pulgadas', class: 'movable', invoiceRef: 'Factura 2025-91' }
    await refusedWithoutSource('/api/lotto/draws', withGoods(goods), 'categories[3].prize.source')
    const ok = await post('/api/lotto/draws', withGoods({ ...goods, source: 'sponsor' }))
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
  })
})
