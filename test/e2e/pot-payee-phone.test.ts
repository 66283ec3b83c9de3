import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { playToTheEnd } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'

/**
 * Issue 26, CFG-22 (002 §6.1 Cartón de juego: room on the card for the player's "nombres, documento de identidad
 * (pasaporte o cedula de identidad) y teléfono de contacto ... principalmente en los Bingos con Pozos Progresivos"):
 * in a Bolivian hall a progressive pot's prize is paid against the winner's name, document and contact telephone, the
 * telephone kept sealed with the prize. Over real HTTP, authentication on, a cashier at an enrolled station.
 */
describe("a progressive pot's prize is paid against the winner's telephone too (CFG-22)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  let potId = ''
  const as = (lang: string) => ({ 'accept-language': lang, authorization: `Bearer ${hall.cashierToken}` })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
    const pot = await api(
      server.url,
      'POST',
      '/api/pots',
      {
        name: 'Pozo de línea',
        kind: 'progressive',
        contributionBp: 500,
        condition: { prize: 'line', scale: [{ withinBalls: 90, shareBp: 10_000 }] },
        hallIds: [hall.hallId],
        authorisationRef: 'AJ/DE/RA/0601/2026',
      },
      { 'accept-language': 'es', authorization: `Bearer ${hall.directorToken}` },
    )
    expect(pot.status, JSON.stringify(pot.body)).toBe(201)
    potId = pot.body.id
    const sale = await api(
      server.url,
      'POST',
      `/api/games/${hall.gameId}/sales`,
      { count: 20, ageConfirmed: true },
      as('es'),
    )
    expect(sale.status, JSON.stringify(sale.body)).toBe(201)
    await playToTheEnd(server.services, hall.gameId)
  })
  afterAll(async () => server?.cleanup())

  it('refuses the payout without the telephone (es, en), nothing paid; with it, pays and keeps it sealed', async () => {
    const db = server.services.db
    const won = (await db.get<{ id: string; card_id: string }>(
      'SELECT id, card_id FROM bonus_prizes WHERE game_id = ? AND pot_id = ?',
      [hall.gameId, potId],
    ))!
    expect(won).toBeTruthy()
    const code = server.services.cashdesk.payouts.cardCode(won.card_id)
    const pay = (extra: Record<string, string>, lang = 'es') =>
      api(
        server.url,
        'POST',
        '/api/tickets/pay',
        { code, payeeName: 'Ana Quispe Mamani', payeeDocument: '4455667 LP', ...extra },
        as(lang),
      )
    const none = await pay({})
    expect([none.status, none.body.error?.code]).toEqual([422, 'PAYEE_PHONE_REQUIRED'])
    expect(none.body.error.details).toMatchObject({ rule: 'CFG-22', field: 'payeePhone' })
    expect(none.body.error.message).toMatch(/teléfono de contacto del ganador/)
    const blank = await pay({ payeePhone: '   ' }, 'en')
    expect([blank.status, blank.body.error?.code]).toEqual([422, 'PAYEE_PHONE_REQUIRED'])
    expect(blank.body.error.message).toMatch(/contact telephone/)
    // All or nothing: neither the pot prize nor the card's line was paid, no payout written.
    expect((await db.get<{ status: string }>('SELECT status FROM bonus_prizes WHERE id = ?', [won.id]))!.status).toBe(
      'awarded',
    )
    expect((await db.all('SELECT id FROM payouts WHERE card_id = ?', [won.card_id])).length).toBe(0)

    const paid = await pay({ payeePhone: '+591 71234567' })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const row = (await db.get<{ status: string; payee_phone: string | null }>(
      'SELECT status, payee_phone FROM bonus_prizes WHERE id = ?',
      [won.id],
    ))!
    expect(row.status).toBe('paid')
    expect(row.payee_phone).toBeTruthy()
    expect(row.payee_phone).not.toMatch(/71234567/)
  })
})
