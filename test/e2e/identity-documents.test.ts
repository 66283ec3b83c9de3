import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { countOf } from '../helpers/cash.ts'

/**
 * Issue 26, CFG-5 (002 §1.2.2.2: minimum age "and identity documents accepted"): the profile lists the kinds of
 * identity document a player's identity is taken from (Bolivia: cédula de identidad or passport, 002 §6.1), and every
 * place a document is typed refuses any other kind: the buyer at a cash intake (a voucher, a counter sale of cards or
 * of an e-instant ticket) and the payee at the cash desk. Over real HTTP, authentication on, a real cashier at an
 * enrolled station.
 */
describe('only the identity documents the profile accepts are taken (CFG-5)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const as = (lang: string) => ({ 'accept-language': lang, authorization: `Bearer ${hall.cashierToken}` })
  const voucher = (buyerDocument: string, lang = 'es') =>
    api(
      server.url,
      'POST',
      '/api/vouchers',
      { hallId: hall.hallId, amountCents: 1000, cash: countOf(1000), buyerDocument },
      as(lang),
    )
  const cards = (body: Record<string, unknown>) =>
    api(server.url, 'POST', `/api/games/${hall.gameId}/sales`, { count: 1, ageConfirmed: true, ...body }, as('es'))
  const eInstant = (body: Record<string, unknown>) =>
    api(
      server.url,
      'POST',
      `/api/instant/halls/${hall.hallId}/electronic`,
      { gameNo: hall.gameNo, ageConfirmed: true, ...body },
      as('es'),
    )
  const refused = (r: { status: number; body: any }, field: string) => {
    expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([422, 'IDENTITY_DOCUMENT_NOT_ACCEPTED'])
    expect(r.body.error.details).toMatchObject({ field, rule: 'CFG-5', accepted: ['ci', 'passport'] })
    expect(r.body.error.message).toMatch(/^La sala no acepta ese documento como identificación del jugador/)
  }
  const count = async (table: string) =>
    Number((await server.services.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n)

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
  })
  afterAll(async () => server?.cleanup())

  it('a voucher is sold to a buyer named by CI or passport only; a driving licence or a tax number is refused, in es and en', async () => {
    const before = await count('vouchers')
    refused(await voucher('Licencia de conducir 4455667'), 'buyerDocument')
    refused(await voucher('NIT 1020304050'), 'buyerDocument')
    refused(await voucher('ABCDEF'), 'buyerDocument')
    const en = await voucher('Brevet 4455667', 'en')
    expect([en.status, en.body.error?.code]).toEqual([422, 'IDENTITY_DOCUMENT_NOT_ACCEPTED'])
    expect(en.body.error.message).toMatch(/^The hall does not accept that document/)
    expect(await count('vouchers')).toBe(before)
    for (const doc of ['4455667 LP', 'CI 7654321-1A', 'Pasaporte A1234567'])
      expect((await voucher(doc)).status, doc).toBe(201)
    expect(await count('vouchers')).toBe(before + 3)
  })

  it('a counter sale of cards or of an e-instant ticket names its player by CI or passport only, whichever field names them', async () => {
    const sold = async () => (await server.services.bingo.getGameState(hall.gameId)).cardsSold
    const before = await sold()
    refused(await cards({ playerDocument: 'Licencia 4455667' }), 'buyerDocument')
    refused(await cards({ buyerDocument: 'NIT 1020304050' }), 'buyerDocument')
    refused(await eInstant({ buyerDocument: 'Carnet universitario 2020' }), 'buyerDocument')
    expect(await sold()).toBe(before)
    expect((await cards({ buyerDocument: 'Pasaporte AB123456' })).status).toBe(201)
    const e = await eInstant({ buyerDocument: '3344556 CB' })
    expect(e.status, JSON.stringify(e.body)).toBe(201)
    expect(await sold()).toBe(before + 1)
  })

  it("the cash desk takes a payee's document of an accepted kind only", async () => {
    // A winning ticket: the payee's document is judged where a prize is paid (in the payout's transaction).
    let e = await eInstant({})
    for (let i = 0; i < 40 && e.status === 201 && !(e.body.prizeCents > 0); i++) e = await eInstant({})
    expect(e.status, JSON.stringify(e.body)).toBe(201)
    expect(e.body.prizeCents).toBeGreaterThan(0)
    const code = e.body.qr as string
    const pay = (payeeDocument: string) =>
      api(
        server.url,
        'POST',
        '/api/tickets/pay',
        // INS-10: the paper's QR and its printed serial, the ticket's inventory code.
        { code, inventoryCode: e.body.serial, payeeName: 'Ana Quispe', payeeDocument },
        as('es'),
      )
    refused(await pay('Licencia 4455667'), 'payeeDocument')
    refused(await pay('RUT 12345678-5'), 'payeeDocument')
    // An accepted document reaches the ticket's own judgement: this one won, and is paid to the passport's holder.
    const paid = await pay('Pasaporte A1234567')
    expect(paid.body.error?.code, JSON.stringify(paid.body)).not.toBe('IDENTITY_DOCUMENT_NOT_ACCEPTED')
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
  })
})
