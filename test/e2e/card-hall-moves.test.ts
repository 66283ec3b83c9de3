import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countOf } from '../helpers/cash.ts'
import { hallWithGameOnSale, type HallSetup } from '../helpers/cashdesk.ts'
import { PASSWORD, secondPersonHeader } from '../helpers/cashier.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { openTill, type Till } from '../helpers/till.ts'
import { cardShortCode } from '../../server/src/cashdesk/card-short-code.ts'
import { runAs } from '../../server/src/shared/request-context.ts'

/**
 * LST-4 / LST-5 and issue 23 point 3: a lost or stolen card's block stops its prize, so only someone of the card's
 * hall blocks or unblocks it, decided by the use case from the card (its game's hall), whatever the request carries.
 * The printed short code (the letters under a damaged QR, "CXXX-XXXX-…") names no id the request guard can read, so
 * it reaches the use case as it is: there a manager of another hall is refused. Over real HTTP, authentication on,
 * enrolled stations, people with passwords; on SQLite and on PostgreSQL (BOLILLO_TEST_DATABASE_URL).
 */
describe('a card is blocked, unblocked and taken into custody only by someone of its hall (LST-4, LST-5, BNG-87; auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let north: HallSetup
  let south: HallSetup
  let tillNorth: Till
  let card: { id: string; code: string; serial: string }
  let shortCode = ''
  const headersOf = async (username: string) => {
    const token = (await api(server.url, 'POST', '/api/auth/login', { username, password: PASSWORD })).body.token
    return { authorization: `Bearer ${token}`, 'accept-language': 'es' }
  }
  const blocked = async () =>
    Number(
      (await server.services.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM blocked_tickets WHERE ticket_id = ?', [
        card.id,
      ]))!.n,
    )

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    north = await hallWithGameOnSale(server.services, { name: 'Sala Norte' })
    south = await hallWithGameOnSale(server.services, { name: 'Sala Sur' })
    const people = [
      ['cajera-norte', 'Rosa Vargas', 'cashier', north],
      ['encargado-norte', 'Luis Mamani', 'hall_manager', north],
      ['testigo-norte', 'Ana Choque', 'hall_manager', north],
      ['encargado-sur', 'Jorge Paz', 'hall_manager', south],
      ['testigo-sur', 'Elena Ríos', 'hall_manager', south],
      ['directora-norte', 'Marta Quispe', 'director', north],
      ['director-sur', 'Pedro Flores', 'director', south],
    ] as const
    for (const [username, displayName, role, hall] of people)
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD, halls: [hall.hallId] })
    tillNorth = await openTill(server.url, server.services, {
      hallId: north.hallId,
      username: 'cajera-norte',
      password: PASSWORD,
      stationName: 'Caja Norte',
    })
    const sold = await api(
      server.url,
      'POST',
      `/api/games/${north.gameId}/sales`,
      { count: 1, cash: countOf(500), ageConfirmed: true },
      tillNorth.headers,
    )
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    card = sold.body.cards[0]
    shortCode = cardShortCode((v, p) => server.services.sealer.tag(v, p), card.id)!
    expect(shortCode).toMatch(/^C[A-Z2-9]{3}-/)
  }, 60_000)
  afterAll(async () => server?.cleanup())

  it("refuses another hall's manager who blocks by the printed short code (WRONG_HALL, in Spanish, nothing blocked); the card's own hall blocks it", async () => {
    const south = await headersOf('encargado-sur')
    const refused = await api(
      server.url,
      'POST',
      '/api/tickets/block',
      { code: shortCode, reason: 'stolen', reportRef: 'Denuncia 1' },
      south,
    )
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe('WRONG_HALL')
    expect(refused.body.error.message).not.toMatch(/hall|card/i)
    expect(await blocked()).toBe(0)
    // The signed code, which the request guard does read, is refused too.
    const bySigned = await api(server.url, 'POST', '/api/tickets/block', { code: card.code, reason: 'lost' }, south)
    expect(bySigned.status).toBe(403)
    expect(await blocked()).toBe(0)
    const own = await api(
      server.url,
      'POST',
      '/api/tickets/block',
      { code: shortCode, reason: 'stolen', reportRef: 'Denuncia 1' },
      await headersOf('encargado-norte'),
    )
    expect(own.status, JSON.stringify(own.body)).toBe(201)
    expect(await blocked()).toBe(1)
  })

  it("refuses another hall's director (with a witness of hers) who unblocks it by the short code; the card stays blocked until its hall unblocks it", async () => {
    const refused = await api(
      server.url,
      'POST',
      '/api/tickets/unblock',
      { code: shortCode, reason: 'el jugador encontró el cartón' },
      { ...(await headersOf('director-sur')), ...secondPersonHeader('testigo-sur') },
    )
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe('WRONG_HALL')
    expect(await blocked()).toBe(1)
    const own = await api(
      server.url,
      'POST',
      '/api/tickets/unblock',
      { code: shortCode, reason: 'el jugador encontró el cartón' },
      { ...(await headersOf('directora-norte')), ...secondPersonHeader('testigo-norte') },
    )
    expect(own.status, JSON.stringify(own.body)).toBe(200)
    expect(await blocked()).toBe(0)
    expect(south.hallId).not.toBe(north.hallId)
  })

  it("BNG-87 / BNG-92: card custody is the card's hall's too: another hall's manager neither holds it as evidence nor marks it tampered, over HTTP or in the use case itself", async () => {
    const southManager = await headersOf('encargado-sur')
    const custodyOf = async () => (await server.services.custody.custodyOf(card.id)) as { state?: string }
    const before = await custodyOf()
    const held = await api(
      server.url,
      'POST',
      '/api/cards/hold',
      { code: card.code, reason: 'reclamo en sala' },
      southManager,
    )
    expect(held.status).toBe(403)
    expect(held.body.error.code).toBe('WRONG_HALL')
    // The request guard reads a signed code; the use case decides on its own, from the card's game, whatever reached it.
    const asSouth = <T>(f: () => Promise<T>) =>
      runAs(
        () => ({ kind: 'person', id: 'u-sur', name: 'Jorge Paz', role: 'hall_manager' }),
        f,
        () => ({ halls: [south.hallId], deviceHall: null }),
      )
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'OK',
        (e: { code?: string }) => e.code,
      )
    expect(
      await codeOf(
        asSouth(() =>
          server.services.custody.move({ cardId: card.id, action: 'hold', reason: 'reclamo en sala', by: 'Jorge Paz' }),
        ),
      ),
    ).toBe('WRONG_HALL')
    expect(
      await codeOf(
        asSouth(() =>
          server.services.custody.markTampered({
            cardId: card.id,
            reason: 'altered_marks',
            note: null,
            by: 'Jorge Paz',
            stationId: null,
          }),
        ),
      ),
    ).toBe('WRONG_HALL')
    expect(await custodyOf()).toEqual(before)
    // The card's own hall holds it.
    const own = await api(
      server.url,
      'POST',
      '/api/cards/hold',
      { code: card.code, reason: 'reclamo en sala' },
      await headersOf('encargado-norte'),
    )
    expect(own.status, JSON.stringify(own.body)).toBe(200)
    expect(await custodyOf()).not.toEqual(before)
  })
})
