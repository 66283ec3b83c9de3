import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { lotteryPlan } from '../helpers/lottery-plans.ts'
import { sealed } from '../helpers/device-marks.ts'

/**
 * Issue 29 point 8: a return of unsold lottery fractions names the seller who hands them back and reaches only what
 * that seller holds (LOT-12). The back office once returned all 50 fractions of "Caja 1" with a default range and no
 * seller; the server now refuses a range not held by the seller named, a range out with sellers when none is named,
 * and any return after the close of sales, each with a message in the person's language that names the seller
 * and the counts.
 */
const PASSWORD = 'correct horse battery'

describe('lottery returns name their seller and reach only what it holds (issue 29 point 8, LOT-12)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let t = Date.parse('2025-02-10T12:00:00-04:00')
  const clock = { now: () => new Date(t) }
  let director = ''
  let drawId = ''
  const caja1 = { id: '', name: 'Caja 1' }
  const kiosco = { id: '', name: 'Kiosco 1' }
  const call = (method: string, path: string, body?: unknown, lang = 'es') =>
    api(server.url, method, path, body, { authorization: director, 'accept-language': lang })
  const heldBy = async (name: string) =>
    (await call('GET', `/api/lottery/draws/${drawId}/register`)).body.sellers.find((s: any) => s.sellerName === name)

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' }, { clock })
    await server.services.auth.createUser({
      username: 'jefa',
      displayName: 'Marta Quispe',
      role: 'director',
      password: PASSWORD,
    })
    director = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    const hall = await call('POST', '/api/halls', {
      name: 'Sala Illimani',
      profileId: 'BO-2025',
      playingPositions: 200,
    })
    expect(hall.status).toBe(201)
    for (const [seller, kind] of [
      [caja1, 'cashier_station'],
      [kiosco, 'kiosk'],
    ] as const)
      seller.id = (
        await server.services.auth.enrolDevice({ ...sealed(), kind, name: seller.name, hallId: hall.body.id })
      ).id
    const created = await call(
      'POST',
      '/api/lottery/draws',
      lotteryPlan({
        numbering: { from: 0, to: 9_999, digits: 4 },
        series: 1,
        fractions: 10,
        licensedMaxTickets: 10_000,
      }),
    )
    expect(created.status).toBe(201)
    drawId = created.body.drawId
    expect((await call('POST', `/api/lottery/draws/${drawId}/print-runs`, { from: 0, to: 9 })).status).toBe(201)
    for (const [seller, from, to] of [
      [kiosco, 0, 4],
      [caja1, 5, 9],
    ] as const)
      expect(
        (await call('POST', `/api/lottery/draws/${drawId}/distributions`, { from, to, sellerId: seller.id })).status,
      ).toBe(201)
  })
  afterAll(() => server?.cleanup())

  it('refuses a range that reaches fractions the seller named does not hold, and returns nothing of it', async () => {
    const all = await call('POST', `/api/lottery/draws/${drawId}/returns`, { from: 0, to: 9, sellerId: caja1.id })
    expect(all.status).toBe(409)
    expect(all.body.error).toMatchObject({
      code: 'RETURN_NOT_HELD',
      details: { seller: 'Caja 1', held: 50, wanted: 100 },
    })
    expect(all.body.error.message).toBe(
      'Caja 1 no tiene todo ese rango: de 100 fracciones tiene 50 sin devolver. Solo se devuelven fracciones entregadas a ese vendedor y aún no devueltas: revise el rango en el registro de distribución.',
    )
    const en = await call('POST', `/api/lottery/draws/${drawId}/returns`, { from: 4, to: 5, sellerId: caja1.id }, 'en')
    expect(en.body.error.message).toMatch(/^Caja 1 does not hold all of that range: of 20 fractions it holds 10 /)
    expect((await heldBy('Caja 1')).returned).toBe(0)
    expect((await heldBy('Kiosco 1')).returned).toBe(0)
  })

  it('refuses a range out with sellers when no seller is named', async () => {
    const r = await call('POST', `/api/lottery/draws/${drawId}/returns`, { from: 5, to: 9 })
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('RETURN_SELLER_REQUIRED')
    expect(r.body.error.message).toBe(
      'Ese rango tiene 50 fracciones entregadas a vendedores: elija el vendedor que las devuelve.',
    )
    // The operator's own stock (never printed or never distributed) is returned without a seller, as before.
    expect((await call('POST', `/api/lottery/draws/${drawId}/returns`, { from: 100, to: 199 })).status).toBe(201)
  })

  it("returns exactly the seller's range once, and the register shows what each seller still holds", async () => {
    const r = await call('POST', `/api/lottery/draws/${drawId}/returns`, { from: 5, to: 6, sellerId: caja1.id })
    expect(r.status).toBe(201)
    expect(r.body.fractionsReturned).toBe(20)
    const again = await call('POST', `/api/lottery/draws/${drawId}/returns`, { from: 6, to: 6, sellerId: caja1.id })
    expect(again.status).toBe(409)
    expect(again.body.error.details).toMatchObject({ held: 0, wanted: 10 })
    const caja = await heldBy('Caja 1')
    expect(caja).toMatchObject({ distributed: 50, returned: 20, sold: 30 })
    expect(caja.held).toEqual([{ series: 1, from: 7, to: 9, each: 10, fractions: 30 }])
    expect((await heldBy('Kiosco 1')).held).toEqual([{ series: 1, from: 0, to: 4, each: 10, fractions: 50 }])
    // The journal names the seller by name.
    const journal = await call('GET', '/api/journal?limit=200')
    const entry = journal.body.records.find((e: any) => e.type === 'lottery.fractions_returned' && e.payload.sellerId)
    expect(entry.payload).toMatchObject({ sellerName: 'Caja 1', fractions: 20 })
  })

  it('refuses any return after the close of sales, in words', async () => {
    t = Date.parse('2025-03-01T12:00:01-04:00')
    director = `Bearer ${(await server.services.auth.login('jefa', PASSWORD)).token}`
    expect((await call('POST', `/api/lottery/draws/${drawId}/close`, {})).status).toBe(200)
    const r = await call('POST', `/api/lottery/draws/${drawId}/returns`, { from: 7, to: 7, sellerId: caja1.id })
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe('RETURN_AFTER_CLOSE')
    expect(r.body.error.message).toMatch(/^La venta de este sorteo ya está cerrada/)
    expect((await heldBy('Caja 1')).returned).toBe(20)
  })
})
