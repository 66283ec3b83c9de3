import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDocumentAtRest } from '../../server/src/shared/document-at-rest.ts'
import { cashierHall, kioskCardsBoughtBy, PASSWORD, type CashierHall } from '../helpers/cashier.ts'
import { startTestServer } from '../helpers/server.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

/**
 * GEN-21 (5) / GEN-23 for a bingo card's refund (BNG-86), as for a lotto slip's (refund-exclusion.test.ts): an
 * annulled game's card bought by a person later put on the exclusion list is refunded to him (his own stake), in
 * cash, and the hall's chain records that a person on the list was refunded; a credit voucher is refused for him
 * (one he could neither spend nor cash out). A refund voucher carries the paying voucher's buyer on, as a purchase's
 * change does. Decided in the refund's transaction from the buyer the card's sale recorded, never from the request.
 * Real HTTP, authentication on, enrolled stations and kiosk; on SQLite and PostgreSQL.
 */
describe('GEN-21 / GEN-23: an annulled card bought by an excluded player is refunded in cash, and that is on record (auth on)', () => {
  let server: Server
  let h: CashierHall
  const EXCLUDED = 'CI 4400001 LP'
  const ADMITTED = 'CI 4400002 LP'
  const cards: Record<'excluded' | 'admitted', string[]> = { excluded: [], admitted: [] }
  const marks = () =>
    server.services.db.all<{ scope: string; payload: string }>(
      "SELECT scope, payload FROM journal WHERE type = 'player.refunded_excluded' ORDER BY seq",
    )
  const expected = async () =>
    (await h.call('cajero@caja2', 'GET', '/api/shifts/current')).body.shift.expectedCents as number

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    h = await cashierHall(server.url, server.services, { faceValueCents: 500 })
    expect((await h.call('cajero@caja2', 'POST', '/api/shifts', { floatCents: 50_000 })).status).toBe(201)
    cards.excluded = await kioskCardsBoughtBy(h, EXCLUDED, h.setup.gameId, 2)
    cards.admitted = await kioskCardsBoughtBy(h, ADMITTED, h.setup.gameId, 2)
    // BNG-21: the game needs 10 cards to start; the rest are sold without a station.
    await server.services.bingo.sell({ gameId: h.setup.gameId, count: 10, channel: 'counter' })
    await server.services.bingo.closeSales({ gameId: h.setup.gameId })
    await server.services.bingo.drawNext(h.setup.gameId)
    const annul = await h.call('mesa', 'POST', `/api/games/${h.setup.gameId}/incidents`, {
      kind: 'ball-irregularity',
      note: 'bola 12 deformada',
      reason: 'La bola 12 está deformada',
      confirm: { username: 'jefa', password: PASSWORD },
    })
    expect(annul.status, JSON.stringify(annul.body)).toBe(200)
    // Excluded after he bought, before he hands the cards back.
    await server.services.players.exclude(
      { document: EXCLUDED, name: 'Jugador Excluido', kind: 'self_excluded', reason: 'autoexclusión' },
      'pruebas',
    )
  })
  afterAll(async () => server?.cleanup())

  it("refunds the excluded buyer's card in cash, out of the cashier's shift, and records in the hall's chain that a person on the list was refunded", async () => {
    const before = { expected: await expected(), marks: (await marks()).length }
    const r = await h.call('cajero@caja2', 'POST', '/api/refunds/cards', { code: cards.excluded[0] })
    expect(r.status, JSON.stringify(r.body.error)).toBe(201)
    expect(await expected()).toBe(before.expected - 500)
    const after = await marks()
    expect(after).toHaveLength(before.marks + 1)
    const mark = after.at(-1)!
    expect(mark.scope).toBe(`hall:${h.setup.hallId}`)
    expect(JSON.parse(mark.payload)).toMatchObject({ refId: r.body.refundId, amountCents: 500, rule: 'GEN-21' })
    // The record names the exclusion, never the document.
    expect(mark.payload).not.toContain('4400001')
  })

  it('refuses him a credit voucher instead (he could neither spend nor cash it), in Spanish, with nothing refunded', async () => {
    const before = { refunds: (await server.services.db.all('SELECT id FROM refunds')).length, marks: await marks() }
    const r = await h.call('cajero@caja2', 'POST', '/api/refunds/cards', { code: cards.excluded[1], to: 'voucher' })
    expect([r.status, r.body.error?.code]).toEqual([409, 'NOT_REFUNDABLE'])
    expect(r.body.error.message).not.toMatch(/NOT_REFUNDABLE|GEN-21|c_/)
    expect((await server.services.db.all('SELECT id FROM refunds')).length).toBe(before.refunds)
    expect(await marks()).toEqual(before.marks)
    // In cash it is refunded.
    const cash = await h.call('cajero@caja2', 'POST', '/api/refunds/cards', { code: cards.excluded[1] })
    expect(cash.status, JSON.stringify(cash.body.error)).toBe(201)
    expect(await marks()).toHaveLength(before.marks.length + 1)
  })

  it("refunds the other buyer's card onto a voucher that carries his document on, and records nothing of the list", async () => {
    const before = (await marks()).length
    const r = await h.call('cajero@caja2', 'POST', '/api/refunds/cards', { code: cards.admitted[0], to: 'voucher' })
    expect(r.status, JSON.stringify(r.body.error)).toBe(201)
    const row = await server.services.db.get<{ buyer_document: string | null }>(
      'SELECT buyer_document FROM vouchers WHERE id = ?',
      [r.body.voucher.id],
    )
    // Sealed at rest, and his when opened.
    expect(row!.buyer_document).not.toContain('4400002')
    expect(openDocumentAtRest(server.services.sealer, row!.buyer_document)).toBe(ADMITTED)
    // Its paper is a voucher's like any other: the short code typed when the QR is damaged is printed under it.
    const paper = Buffer.from(String(r.body.preview).split(',')[1], 'base64').toString('utf8')
    expect(r.body.voucher.shortCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/)
    expect(paper).toContain(r.body.voucher.shortCode)
    const cash = await h.call('cajero@caja2', 'POST', '/api/refunds/cards', { code: cards.admitted[1] })
    expect(cash.status, JSON.stringify(cash.body.error)).toBe(201)
    expect(await marks()).toHaveLength(before)
  })
})
