import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lotteryPlan, plan649, rafflePlan } from '../helpers/lottery-plans.ts'
import { smallInstantDesign } from '../helpers/instant.ts'
import { api, startTestServer } from '../helpers/server.ts'

const PASSWORD = 'correct horse battery'

/**
 * GEN-3 (004 Decreto 6/2010 art. 2.1: the catalogue's games "quedan legalizados, si bien sujetos a autorización
 * administrativa previa"; art. 2.2: run "sin la correspondiente autorización" they are prohibited), over real HTTP
 * with authentication on, under the Cantabrian profile: a lotto draw, a numbered lottery, a raffle or tómbola that the
 * text does not exempt, and an instant game are planned only with the Consejería's authorisation reference (409
 * GAME_NOT_AUTHORISED, naming the Consejería in Spanish and English), nothing planned and so nothing to sell; a
 * non-profit raffle of prizes up to 1.500 € is exempt (PRM-4, 004 Rifas I).
 */
describe("a Cantabrian operator plans each catalogue game only under the Consejería's authorisation (GEN-3)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let token = ''
  const clock = { now: () => new Date(Date.parse('2025-02-10T12:00:00+01:00')) }
  const post = (path: string, body: unknown, lang = 'es') =>
    api(server.url, 'POST', path, body, { authorization: token, 'accept-language': lang })
  const list = async (path: string, key: string) =>
    ((await api(server.url, 'GET', path, undefined, { authorization: token })).body[key] ?? []) as unknown[]
  const refused = (r: { status: number; body: any }, what: string) => {
    expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(409)
    expect(r.body.error.code, what).toBe('GAME_NOT_AUTHORISED')
    expect(r.body.error.details, what).toMatchObject({ field: 'authorisationRef', rule: 'GEN-3' })
    expect(r.body.error.message, what).toMatch(
      /autorización administrativa previa de Consejería competente en materia de juego \(Gobierno de Cantabria\)/,
    )
  }
  const REF = 'Resolución Consejería 2025/77'
  const lotto = (authorisationRef?: string) => ({
    ...plan649({ currency: 'EUR', authorisationRef: '' }),
    authorisationRef,
  })
  const lottery = (authorisationRef?: string) => ({
    ...lotteryPlan({
      gameCode: 'CBLOT',
      institution: 'Gobierno de Cantabria',
      currency: 'EUR',
      numbering: { from: 0, to: 99, digits: 2 },
      series: 1,
      fractions: 1,
      ticketPriceCents: 5_000,
      licensedMaxTickets: 1000,
      prizes: [{ code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 100_000 }],
    }),
    authorisationRef,
  })
  const raffle = (kind: 'raffle' | 'tombola', authorisationRef?: string) =>
    rafflePlan({ kind, gameCode: kind === 'raffle' ? 'RIFACB' : 'TOMBCB', nonProfit: false, authorisationRef })
  const instant = (authorisationRef?: string) =>
    smallInstantDesign({
      gameNo: 7701,
      name: 'Rasca Cántabro',
      currency: 'EUR',
      salesEndAt: '2099-12-31T23:59:59+01:00',
      authorisationRef,
      back: { issuer: 'Loterías de Cantabria', paymentPlace: 'cajas de la sala' },
    })

  beforeAll(async () => {
    server = await startTestServer(
      { auth: 'on', profileId: 'ES-CB-2010', instantGeneratorCertification: null },
      { clock },
    )
    await server.services.auth.createUser({
      username: 'directora',
      displayName: 'Ana Gómez',
      role: 'director',
      password: PASSWORD,
    })
    token = `Bearer ${(await server.services.auth.login('directora', PASSWORD)).token}`
  })
  afterAll(async () => server?.cleanup())

  it('refuses every game without the reference (blank too), in Spanish and English; nothing is planned', async () => {
    for (const ref of ['', '   ']) {
      refused(await post('/api/lotto/draws', lotto(ref)), 'lotto')
      refused(await post('/api/lottery/draws', lottery(ref)), 'lottery')
      refused(await post('/api/lottery/draws', raffle('raffle', ref)), 'raffle')
      refused(await post('/api/lottery/draws', raffle('tombola', ref)), 'tombola')
      refused(await post('/api/instant/games', { design: instant(ref) }), 'instant')
    }
    const en = await post('/api/lottery/draws', raffle('tombola'), 'en')
    expect(en.body.error.message).toMatch(
      /prior administrative authorisation of Consejería competente en materia de juego/,
    )
    expect(await list('/api/lotto/draws', 'draws')).toEqual([])
    expect(await list('/api/lottery/draws', 'draws')).toEqual([])
    expect(await list('/api/instant/games', 'games')).toEqual([])
  })

  it("plans each game with the Consejería's reference; a non-profit raffle up to 1.500 € needs none (PRM-4)", async () => {
    for (const [what, r] of [
      ['lotto', await post('/api/lotto/draws', lotto(REF))],
      ['lottery', await post('/api/lottery/draws', lottery(REF))],
      ['raffle', await post('/api/lottery/draws', raffle('raffle', REF))],
      ['tombola', await post('/api/lottery/draws', raffle('tombola', REF))],
      ['instant', await post('/api/instant/games', { design: instant(REF) })],
      ['exempt raffle', await post('/api/lottery/draws', rafflePlan({ gameCode: 'RIFAPS' }))],
    ] as const)
      expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(201)
  })

  it('a lotto draw is a lottery of 004 E: its categories pay cash only (LOT-30), a category in goods is refused', async () => {
    const base = lotto(REF)
    const goods = {
      ...base,
      drawNumber: 102,
      categories: [
        ...base.categories.slice(0, 3),
        {
          code: 'C3',
          name: 'Premio en bienes',
          matches: 3,
          prize: {
            type: 'goods',
            unitValueCents: 10_000,
            description: 'Televisor 55 pulgadas',
            class: 'movable',
            invoiceRef: 'Factura 2025-91',
            source: 'sponsor',
          },
        },
      ],
    }
    const before = (await list('/api/lotto/draws', 'draws')).length
    const r = await post('/api/lotto/draws', goods)
    expect(r.status, JSON.stringify(r.body)).toBe(400)
    expect(r.body.error.details.problems).toEqual([
      expect.objectContaining({ field: 'categories[3].prize', rule: 'LOT-30' }),
    ])
    expect(await list('/api/lotto/draws', 'draws')).toHaveLength(before)
  })
})
