import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { lotteryPlan, plan649 } from '../helpers/lottery-plans.ts'

/**
 * Issue 18, lotto and lottery rules over real HTTP with authentication on, real people and enrolled devices.
 * LNS-20: player data amended before the draw, justified and validated, numbers unchanged.
 * RNG-26 / LNS-7: this server runs the shipped BO-2025 profile with no AJ authorisation of an RNG: software draws refused.
 */
const PASSWORD = 'correct horse battery'

describe('lotto and lottery rules of issue 18 (auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-03-01T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) => api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  async function login() {
    for (const username of ['jefa', 'mesa', 'cajera', 'auditor']) auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', lotteryRngAuthorisation: null }, { clock })
    const people = [['jefa', 'Marta Quispe', 'director'], ['mesa', 'Luis Mamani', 'floor_manager'], ['cajera', 'Rosa Vargas', 'cashier'], ['auditor', 'Carlos Rojas', 'auditor']] as const
    for (const [username, displayName, role] of people) await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
    await login()
    auth.set('kiosco', `Device ${(await server.services.auth.enrolDevice({ kind: 'kiosk', name: 'Kiosco 1' })).credential}`)
  })
  afterAll(async () => server?.cleanup())

  it('RNG-26 / LNS-8 / LOT-18: without the AJ authorisation of an RNG, lotto and lottery plans drawn by software are refused (422); a tómbola plan is accepted', async () => {
    const lotto = await call('jefa', 'POST', '/api/lotto/draws', plan649({ gameCode: 'LOTRNG', drawMethod: 'rng' }))
    expect(lotto.status).toBe(422)
    expect(lotto.body.error.code).toBe('RULE_DISABLED')
    expect(lotto.body.error.detail).toMatch(/RNG-26/)
    expect(lotto.body.error.message).not.toMatch(/RULE_DISABLED|rng/)
    const lottery = await call('jefa', 'POST', '/api/lottery/draws', lotteryPlan({ gameCode: 'LTRRNG', drawMethod: 'rng' }))
    expect(lottery.status).toBe(422)
    expect(lottery.body.error.detail).toMatch(/RNG-26/)
    const manual = await call('jefa', 'POST', '/api/lottery/draws', lotteryPlan({ gameCode: 'LTRTOMB', drawMethod: 'manual', drawDevice: 'Tómbola AJ-T-0042' }))
    expect(manual.status).toBe(201)
  })

  describe('LNS-20: amendment of player data before the draw', () => {
    let drawId = ''
    let receipt = ''
    let boards: number[][] = []

    beforeAll(async () => {
      const created = await call('jefa', 'POST', '/api/lotto/draws', plan649({ gameCode: 'LOTAMEND', drawMethod: 'manual', drawDevice: 'Tómbola AJ-T-0007' }))
      expect(created.status).toBe(201)
      drawId = created.body.drawId
      const slip = await server.services.lotto.sellSlip({ drawId, boards: [[3, 11, 19, 27, 38, 45]], player: { name: 'Ana Quispe', document: '445566 LP' }, channel: 'counter' })
      receipt = slip.receiptNumber
      boards = slip.boards.map((b) => b.numbers)
    })

    it('LNS-20: a floor manager amends the player data with the supporting document; the numbers stay; the journal names the validator', async () => {
      const amended = await call('mesa', 'POST', `/api/lotto/slips/${receipt}/player`, { name: 'Ana Quispe Mamani', document: '4455667 LP', evidenceRef: 'Fotocopia CI 4455667 LP', reason: 'Número de documento mal escrito' })
      expect(amended.status).toBe(200)
      const view = await call('cajera', 'GET', `/api/lotto/slips/${receipt}`)
      expect(view.body.player).toEqual({ name: 'Ana Quispe Mamani', document: '4455667 LP' })
      expect(view.body.boards.map((b: any) => b.numbers)).toEqual(boards)
      const journal = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{ type: string; payload: any }>
      const rec = journal.find((r) => r.type === 'lotto.player_amended')!
      expect(rec.payload).toMatchObject({ receipt, before: { document: '445566 LP' }, after: { document: '4455667 LP' }, evidenceRef: 'Fotocopia CI 4455667 LP', rule: 'LNS-20', validatedBy: { kind: 'person', role: 'floor_manager' } })
    })

    it('LNS-20: refused without its supporting document (400), to a kiosk or a cashier (403), and after the draw (409)', async () => {
      const bare = await call('mesa', 'POST', `/api/lotto/slips/${receipt}/player`, { name: 'Otra Persona', document: '1 LP', evidenceRef: ' ', reason: 'x' })
      expect(bare.status).toBe(400)
      for (const who of ['kiosco', 'cajera', 'auditor']) {
        expect((await call(who, 'POST', `/api/lotto/slips/${receipt}/player`, { name: 'Otra Persona', document: '1 LP', evidenceRef: 'doc', reason: 'x' })).status, who).toBe(403)
      }
      t = Date.parse('2025-03-08T20:00:00-04:00')
      await login()
      expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/close`, {})).status).toBe(200)
      // Between the close and the draw an amendment is still possible: the data are not in the sales digest.
      expect((await call('mesa', 'POST', `/api/lotto/slips/${receipt}/player`, { name: 'Ana Quispe Mamani', document: '4455667 LP', evidenceRef: 'CI original', reason: 'confirmación' })).status).toBe(200)
      for (const ball of [1, 2, 3, 4, 5, 6]) expect((await call('jefa', 'POST', `/api/lotto/draws/${drawId}/balls`, { ball })).status).toBe(200)
      const late = await call('mesa', 'POST', `/api/lotto/slips/${receipt}/player`, { name: 'Otra Persona', document: '1 LP', evidenceRef: 'doc', reason: 'x' })
      expect(late.status).toBe(409)
      expect(late.body.error.detail).toMatch(/LNS-20/)
    })
  })
})
