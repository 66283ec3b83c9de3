import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { lotteryPlan, registerTombola } from '../helpers/lottery-plans.ts'
import { parseLotteryLicence } from '../../server/src/config.ts'

/**
 * LOT-12 / LOT-27 (002 §7.1.1, §7.2) over real HTTP with authentication on: a numbered lottery's issue never
 * exceeds the maximum of the operator's licence record (BOLILLO_LOTTERY_LICENCE), whatever the plan declares of
 * itself; under BO-2025 no lottery is planned without the record.
 */
const PASSWORD = 'correct horse battery'

async function withDirector(server: Awaited<ReturnType<typeof startTestServer>>) {
  await server.services.auth.createUser({
    username: 'jefa',
    displayName: 'Marta Quispe',
    role: 'director',
    password: PASSWORD,
  })
  const token = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
  return (body: unknown) => api<any>(server.url, 'POST', '/api/lottery/draws', body, { authorization: token })
}

describe('the licence record bounds a lottery issue (LOT-12, LOT-27)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let plan: (body: unknown) => ReturnType<typeof api<any>>
  let tombola = ''

  beforeAll(async () => {
    server = await startTestServer({
      auth: 'on',
      lotteryLicence: {
        ref: 'AJ-LO-2025-0007',
        maxTickets: 50_000,
        holder: 'Lotería Nacional de Beneficencia y Salubridad',
      },
    })
    plan = await withDirector(server)
    tombola = await registerTombola(server.services)
  })
  afterAll(async () => server?.cleanup())

  const manual = () => ({ drawMethod: 'manual' as const, drawDevice: tombola })

  it('LOT-12: a plan that declares a larger maximum than the licence is still bound by the licence (400)', async () => {
    // 100,000 numbers x 2 series = 200,000 tickets; the plan says its licence allows 10 million.
    const r = await plan(lotteryPlan({ ...manual(), licensedMaxTickets: 10_000_000 }))
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe('VALIDATION_FAILED')
    const p = r.body.error.details.problems.find((x: any) => x.rule === 'LOT-12')
    expect(p.message).toMatch(/exceed the licensed maximum of 50000/)
  })

  it('LOT-27: a popular lottery is bound the same way', async () => {
    const r = await plan(
      lotteryPlan({
        ...manual(),
        kind: 'popular',
        series: 1,
        numbering: { from: 0, to: 99_999, digits: 5 },
        licensedMaxTickets: 500_000,
      }),
    )
    expect(r.status).toBe(400)
    expect(r.body.error.details.problems.map((x: any) => x.rule)).toContain('LOT-12')
  })

  it("LOT-12: within the licence, the plan is stored with the record's maximum and reference, not its own", async () => {
    const body = lotteryPlan({ ...manual(), gameCode: 'LNBLIC', numbering: { from: 0, to: 9_999, digits: 4 } })
    delete (body as { licensedMaxTickets?: number }).licensedMaxTickets
    body.prizes = body.prizes.map((p) =>
      p.rule.type === 'ending' && p.rule.digits === 3 ? { ...p, rule: { ...p.rule, digits: 2 } } : p,
    )
    const r = await plan(body)
    expect(r.status).toBe(201)
    expect(r.body.plan).toMatchObject({ licensedMaxTickets: 50_000, licenceRef: 'AJ-LO-2025-0007' })
    expect(r.body.ticketsIssued).toBe(20_000)
    // The body cannot name a licence of its own.
    const forged = await plan({ ...body, gameCode: 'LNBLIC2', licenceRef: 'AJ-LO-FALSA' })
    expect(forged.status).toBe(400)
  })

  it('parses BOLILLO_LOTTERY_LICENCE as REFERENCE:MAX_TICKETS', () => {
    expect(parseLotteryLicence('AJ-LO-2025-0007:300000')).toEqual({ ref: 'AJ-LO-2025-0007', maxTickets: 300_000 })
    expect(parseLotteryLicence('')).toBeNull()
    expect(parseLotteryLicence('AJ-LO-2025-0007')).toMatch(/REFERENCE:MAX_TICKETS/)
    expect(parseLotteryLicence('AJ:0')).toMatch(/REFERENCE:MAX_TICKETS/)
  })
})

describe('BO-2025 plans no lottery without the licence record (LOT-12)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  afterAll(async () => server?.cleanup())

  it('refuses every lottery plan, whatever maximum it declares (400)', async () => {
    server = await startTestServer({ auth: 'on', lotteryLicence: null })
    const plan = await withDirector(server)
    const r = await plan(
      lotteryPlan({
        drawMethod: 'manual',
        drawDevice: await registerTombola(server.services),
        licensedMaxTickets: 300_000,
      }),
    )
    expect(r.status).toBe(400)
    expect(r.body.error.detail).toMatch(/licence record/)
    expect(r.body.error.details.problems[0]).toMatchObject({ rule: 'LOT-12', field: 'licensedMaxTickets' })
  })
})

describe('BO-2025 plans a numbered lottery only in the name of the licensed public entity (LOT-1)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  afterAll(async () => server?.cleanup())

  it('refuses a plan naming another institution, and any plan where the licence record names no entity (400, in Spanish)', async () => {
    server = await startTestServer({
      auth: 'on',
      lotteryLicence: {
        ref: 'AJ-LO-2025-0007',
        maxTickets: 50_000,
        holder: 'Lotería Nacional de Beneficencia y Salubridad',
      },
    })
    const plan = await withDirector(server)
    const tombola = await registerTombola(server.services)
    const body = (over: Record<string, unknown>) =>
      lotteryPlan({
        drawMethod: 'manual',
        drawDevice: tombola,
        numbering: { from: 0, to: 9_999, digits: 4 },
        prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 100_000 }],
        ...over,
      })
    // A private company (or any entity other than the licensed one) cannot plan under the licence.
    const other = await plan(body({ gameCode: 'PRIV', institution: 'Sorteos Privados S.R.L.' }))
    expect([other.status, other.body.error?.code]).toEqual([400, 'VALIDATION_FAILED'])
    expect(other.body.error.details.problems).toEqual([
      expect.objectContaining({ field: 'institution', rule: 'LOT-1' }),
    ])
    expect(other.body.error.message).not.toMatch(/VALIDATION|LOT-/)
    // The licensed entity, however its name is spaced or capitalised, plans.
    const own = await plan(body({ gameCode: 'LNB', institution: '  lotería nacional de  Beneficencia y Salubridad ' }))
    expect(own.status, JSON.stringify(own.body)).toBe(201)
    await server.cleanup()
    // A licence record that names no entity: nothing is planned, the licensed entity's name included.
    server = await startTestServer({ auth: 'on', lotteryLicence: { ref: 'AJ-LO-2025-0007', maxTickets: 50_000 } })
    const again = await withDirector(server)
    const bare = await again(
      lotteryPlan({
        drawMethod: 'manual',
        drawDevice: await registerTombola(server.services),
        numbering: { from: 0, to: 9_999, digits: 4 },
        prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 100_000 }],
      }),
    )
    expect(bare.status).toBe(400)
    expect(bare.body.error.details.problems).toEqual([expect.objectContaining({ field: 'institution', rule: 'LOT-1' })])
  })
})
