import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatInZone } from '../../server/src/shared/time-zone.ts'
import { rafflePlan } from '../helpers/lottery-plans.ts'
import { TEST_ES_SALE_RULES } from '../helpers/sale-rules.ts'
import { api, startTestServer } from '../helpers/server.ts'

const PASSWORD = 'correct horse battery'

/**
 * Issue 29: the back office's raffle form reads the times typed in it on the clock of the hall it plans in (its
 * fields name that zone), and the list of draws shows each raffle or tómbola on its own hall's clock: a 12:00 draw
 * planned for a hall in Madrid is listed at 12:00 (Madrid), not at 06:00 on the operator profile's clock (La Paz).
 * A plan that names no zone takes its hall's: a points tómbola's hall (PRM-6), else the hall of the person planning it.
 * Over real HTTP, authentication on (an operator under the Bolivian profile with a Cantabrian hall).
 */
describe('a raffle or tómbola is listed on its own hall’s clock (issue 29)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const clock = { now: () => new Date(Date.parse('2025-06-01T12:00:00+02:00')) }
  const tokens: Record<string, string> = {}
  let hallId = ''
  const as = (who: string) => (method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: tokens[who]!, 'accept-language': 'es' })
  /** The draw as the admin's list reads it, and its draw time on the clock the list names. */
  const listed = async (drawId: string) => {
    const draws = (await as('jefa')('GET', '/api/lottery/draws?product=raffle')).body.draws as Array<{
      drawId: string
      timeZone: string | null
      plan: { drawAt: string }
    }>
    const d = draws.find((x) => x.drawId === drawId)!
    return { timeZone: d.timeZone, shown: formatInZone(d.plan.drawAt, d.timeZone ?? 'UTC', 'date-time') }
  }
  // 12:00 in Madrid on 23 June (CEST, UTC+02:00): 06:00 in La Paz.
  const noonInMadrid = {
    salesCloseAt: '2025-06-23T11:00:00+02:00',
    drawAt: '2025-06-23T12:00:00+02:00',
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    expect(server.services.config.profileId).toBe('BO-2025')
    await server.services.auth.createUser({
      username: 'jefa',
      displayName: 'Elena Ruiz',
      role: 'director',
      password: PASSWORD,
    })
    tokens.jefa = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    const hall = await as('jefa')('POST', '/api/halls', {
      name: 'Sala Pereda',
      profileId: 'ES-CB-2010',
      licence: { authorisationRef: 'CONSEJERIA-PRUEBA-1', minimumBasis: 'cards' as const },
      saleRules: TEST_ES_SALE_RULES,
      playingPositions: 100,
    })
    expect(hall.status, JSON.stringify(hall.body)).toBe(201)
    hallId = hall.body.id
    await server.services.auth.createUser({
      username: 'jefe',
      displayName: 'Tomás Alonso',
      role: 'director',
      password: PASSWORD,
      halls: [hallId],
    })
    tokens.jefe = `Bearer ${(await server.services.auth.login('jefe', PASSWORD)).token}`
  })
  afterAll(async () => server?.cleanup())

  it("a raffle planned by the director of a Madrid hall is listed at 12:00 on Madrid's clock, not 06:00 La Paz", async () => {
    const made = await as('jefe')('POST', '/api/lottery/draws', rafflePlan({ gameCode: 'RIFAMAD', ...noonInMadrid }))
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(await listed(made.body.drawId)).toEqual({ timeZone: 'Europe/Madrid', shown: '23/06/2025 12:00' })
  })

  it('a points tómbola is listed on the clock of the hall its objects are on display in (PRM-6), whoever plans it', async () => {
    const base = rafflePlan()
    const prizes = ['T1', 'T2'].map((code, i) => ({ ...base.prizes[0]!, code, valueCents: 10_000 * (i + 1) }))
    const made = await as('jefa')(
      'POST',
      '/api/lottery/draws',
      rafflePlan({
        kind: 'tombola',
        gameCode: 'TOMBMAD',
        numbering: { from: 1, to: 40, digits: 2 },
        ticketPriceCents: 2_000,
        prizes,
        points: {
          basesRef: 'Bases de la tómbola de San Juan, art. 6',
          hallId,
          totalPoints: 10,
          tiers: [
            { count: 2, points: 4 },
            { count: 2, points: 1 },
          ],
          figures: { T1: 5, T2: 3 },
        },
        ...noonInMadrid,
      } as never),
    )
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(await listed(made.body.drawId)).toEqual({ timeZone: 'Europe/Madrid', shown: '23/06/2025 12:00' })
  })

  it("a raffle of the operator's (someone of every hall, in no hall) stays on the profile's clock; a zone named is kept", async () => {
    const operator = await as('jefa')(
      'POST',
      '/api/lottery/draws',
      rafflePlan({ gameCode: 'RIFAOPE', ...noonInMadrid }),
    )
    expect(operator.status, JSON.stringify(operator.body)).toBe(201)
    expect(await listed(operator.body.drawId)).toEqual({ timeZone: 'America/La_Paz', shown: '23/06/2025 06:00' })
    const named = await as('jefa')(
      'POST',
      '/api/lottery/draws',
      rafflePlan({ gameCode: 'RIFANOM', ...noonInMadrid, timeZone: 'Europe/Madrid' } as never),
    )
    expect(named.status, JSON.stringify(named.body)).toBe(201)
    expect(await listed(named.body.drawId)).toEqual({ timeZone: 'Europe/Madrid', shown: '23/06/2025 12:00' })
  })
})
