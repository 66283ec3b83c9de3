import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * Issue 18, RNG-20 / RNG-21 over real HTTP with authentication on: in a Bolivian hall a progressive pot, an
 * interconnected bonus or a lucky-ball prize is created only with the reference of the AJ's prior authorisation; the
 * operator's commission approved in the Plan de Apuestas is a parameter of the pot, shown in its public conditions,
 * kept in its record and journal. A Cantabrian hall (regulated bola loca, authorised with the hall) needs no reference.
 */
const PASSWORD = 'correct horse battery'

describe('pots and lucky ball under the AJ authorisation, with the approved commission (RNG-20, RNG-21)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })
  const halls: Record<string, string> = {}
  const lucky = (hallId: string, extra: Record<string, unknown> = {}) => ({
    name: 'Bola de la suerte',
    kind: 'lucky',
    contributionBp: 100,
    condition: { luckyPrizes: ['bingo'], numbers: 1 },
    hallIds: [hallId],
    ...extra,
  })
  const progressive = (hallId: string, extra: Record<string, unknown> = {}) => ({
    name: 'Pozo Illimani',
    kind: 'progressive',
    contributionBp: 200,
    reserveBp: 2_500,
    condition: { prize: 'bingo', scale: [{ withinBalls: 45, shareBp: 10_000 }] },
    hallIds: [hallId],
    ...extra,
  })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    for (const [username, displayName, role] of [
      ['jefa', 'Marta Quispe', 'director'],
      ['mesa', 'Luis Mamani', 'floor_manager'],
      ['cajera', 'Rosa Vargas', 'cashier'],
    ] as const) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD })
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    }
    for (const [key, name, profileId] of [
      ['bo', 'Sala Illimani', 'BO-2025'],
      ['cb', 'Sala Pereda', 'ES-CB-2010'],
    ]) {
      // BNG-52: a Bolivian hall's pots take their share under its Plan de Apuestas.
      const plan =
        profileId === 'BO-2025'
          ? {
              bettingPlan: {
                authorisationRef: 'AJ-RA-PRUEBA-1',
                shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
                potsBp: 1000,
                commissionBp: 0,
              },
            }
          : {}
      const h = await call('jefa', 'POST', '/api/halls', { name, profileId, playingPositions: 100, ...plan })
      expect(h.status).toBe(201)
      halls[key] = h.body.id
    }
  })
  afterAll(async () => server?.cleanup())

  it('RNG-20: a Bolivian pot or lucky ball without the AJ authorisation reference is refused (400), nothing is created', async () => {
    for (const body of [lucky(halls.bo), progressive(halls.bo), lucky(halls.bo, { authorisationRef: '   ' })]) {
      const r = await call('jefa', 'POST', '/api/pots', body)
      expect(r.status, body.kind).toBe(400)
      expect(r.body.error.details.problems).toEqual([
        expect.objectContaining({ field: 'authorisationRef', rule: 'RNG-20' }),
      ])
    }
    expect((await call('jefa', 'GET', `/api/pots?hallId=${halls.bo}`)).body.pots).toEqual([])
    for (const who of ['mesa', 'cajera'])
      expect(
        (await call(who, 'POST', '/api/pots', lucky(halls.bo, { authorisationRef: 'AJ-RA-2025-0077' }))).status,
        who,
      ).toBe(403)
  })

  it('RNG-20 / RNG-21: with the reference and the approved commission the pot is created; both are in its record, its conditions and the journal', async () => {
    const made = await call(
      'jefa',
      'POST',
      '/api/pots',
      progressive(halls.bo, { authorisationRef: 'AJ-RA-2025-0077', commissionBp: 1_000 }),
    )
    expect(made.status).toBe(201)
    const pot = await call('jefa', 'GET', `/api/pots/${made.body.id}`)
    expect(pot.body).toMatchObject({ authorisationRef: 'AJ-RA-2025-0077', commissionBp: 1_000 })
    expect(pot.body.conditions).toMatch(/comisión del operador del 10 %/)
    const journal = (await call('jefa', 'GET', '/api/journal?limit=1000')).body.records as Array<{
      type: string
      payload: any
    }>
    expect(journal.find((r) => r.type === 'pot.created' && r.payload.potId === made.body.id)!.payload).toMatchObject({
      authorisationRef: 'AJ-RA-2025-0077',
      commissionBp: 1_000,
    })
    const whole = await call(
      'jefa',
      'POST',
      '/api/pots',
      lucky(halls.bo, { authorisationRef: 'AJ-RA-2025-0078', commissionBp: 10_000 }),
    )
    expect(whole.status).toBe(400)
    expect(JSON.stringify(whole.body.error.details)).toMatch(/commissionBp/)
  })

  it('RNG-20: a Cantabrian bola loca needs no separate reference', async () => {
    const r = await call('jefa', 'POST', '/api/pots', lucky(halls.cb))
    expect(r.status).toBe(201)
    expect((await call('jefa', 'GET', `/api/pots/${r.body.id}`)).body).toMatchObject({
      authorisationRef: null,
      commissionBp: 0,
    })
  })

  it("BNG-66 / CFG-30: a Cantabrian interconnected pot without the Consejería's reference is refused (422), nothing is created; with it, it is created and joined", async () => {
    const second = await call('jefa', 'POST', '/api/halls', {
      name: 'Sala Sardinero',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const }, // GEN-3: the Consejería's authorisation
      saleRules: TEST_ES_SALE_RULES, // BNG-10: the face values the Consejería set
      playingPositions: 100,
    })
    expect(second.status).toBe(201)
    const interconnected = (extra: Record<string, unknown> = {}) => ({
      name: 'Bingo interconectado',
      kind: 'interconnected',
      contributionBp: 150,
      condition: { prize: 'bingo', scale: [{ withinBalls: 40, shareBp: 10_000 }] },
      hallIds: [halls.cb, second.body.id],
      ...extra,
    })
    for (const body of [interconnected(), interconnected({ authorisationRef: '  ' })]) {
      const r = await call('jefa', 'POST', '/api/pots', body)
      expect(r.status, JSON.stringify(r.body)).toBe(422)
      expect(r.body.error.code).toBe('INTERCONNECTED_NOT_AUTHORISED')
      expect(r.body.error.message).toMatch(
        /^El bingo interconectado necesita la referencia de la resolución de la Consejería/,
      )
      expect(r.body.error.details).toMatchObject({ field: 'authorisationRef', rule: 'BNG-66' })
    }
    const before = (await call('jefa', 'GET', `/api/pots?hallId=${halls.cb}`)).body.pots as Array<{ kind: string }>
    expect(before.filter((p) => p.kind === 'interconnected')).toEqual([])
    const made = await call(
      'jefa',
      'POST',
      '/api/pots',
      interconnected({ authorisationRef: 'Resolución Consejería 2026/114', hallIds: [halls.cb] }),
    )
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect((await call('jefa', 'GET', `/api/pots/${made.body.id}`)).body).toMatchObject({
      authorisationRef: 'Resolución Consejería 2026/114',
    })
    const joined = await call('jefa', 'POST', `/api/pots/${made.body.id}/halls`, { hallId: second.body.id })
    expect(joined.status, JSON.stringify(joined.body)).toBeLessThan(300)
  })
})
