import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { api, startTestServer } from '../helpers/server.ts'
import { tamper as tamperWith } from '../helpers/tamper.ts'

/**
 * Issue 24 point 1 with issue 23 point 5: a kiosk card purchase reads its game once, with the game's seal, for the
 * admission and for the price the cards are sold at. A price or a seal changed in the database behind the journal
 * still refuses the purchase (ROW_TAMPERED, journaled); put back, the kiosk sells again. Over real HTTP with
 * authentication on and an enrolled kiosk; on SQLite, and on PostgreSQL with BOLILLO_TEST_DATABASE_URL.
 */
describe("a kiosk purchase prices from the game's sealed row, read once (issue 24 point 1)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const db = () => server.services.db

  const tamper = (sql: string, params: unknown[]) => tamperWith(server, sql, params)

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await paidHall(server.services)
  })
  afterAll(async () => server?.cleanup())

  async function buy() {
    const voucher = await sellVoucher(
      server.url,
      hall.hallId,
      500,
      {},
      { authorization: `Bearer ${hall.cashierToken}` },
    )
    const r = await api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: voucher.code, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      { 'accept-language': 'es', authorization: `Device ${hall.kiosk.credential}` },
    )
    return { r, voucher }
  }
  const refusals = async () =>
    (await db().all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'row.tampered' ORDER BY seq"))
      .map((r) => JSON.parse(r.payload) as { rows: Array<{ table: string; id: string }> })
      .filter((p) => p.rows.some((x) => x.table === 'games' && x.id === hall.gameId)).length
  const cardsSold = async () =>
    Number((await db().get<{ n: number }>('SELECT cards_sold AS n FROM games WHERE id = ?', [hall.gameId]))!.n)

  async function refused(times: number) {
    const sold = await cardsSold()
    const { r, voucher } = await buy()
    expect(r.status, JSON.stringify(r.body)).toBe(409)
    expect(r.body.error.code).toBe('ROW_TAMPERED')
    expect(await refusals()).toBe(times)
    // Nothing sold and the voucher keeps its credit.
    expect(await cardsSold()).toBe(sold)
    const v = await db().get<{ status: string }>('SELECT status FROM vouchers WHERE id = ?', [voucher.id])
    expect(v?.status).toBe('active')
  }

  it('sells at the true price, refuses an edited price and a rewritten or removed seal, and sells again once put back', async () => {
    expect((await buy()).r.status).toBe(201)
    expect((await buy()).r.status).toBe(201)
    await tamper('UPDATE games SET face_value_cents = ? WHERE id = ?', [50, hall.gameId])
    await refused(1)
    await tamper('UPDATE games SET face_value_cents = ? WHERE id = ?', [500, hall.gameId])
    expect((await buy()).r.status).toBe(201)
    const seal = (await db().get<{ journal_seq: number; mac: string }>(
      "SELECT journal_seq, mac FROM row_seals WHERE tbl = 'games' AND row_id = ?",
      [hall.gameId],
    ))!
    const rewritten = `${seal.mac.startsWith('x') ? 'y' : 'x'}${seal.mac.slice(1)}`
    await tamper("UPDATE row_seals SET mac = ? WHERE tbl = 'games' AND row_id = ?", [rewritten, hall.gameId])
    await refused(2)
    await tamper("DELETE FROM row_seals WHERE tbl = 'games' AND row_id = ?", [hall.gameId])
    await refused(3)
    await tamper('INSERT INTO row_seals (tbl, row_id, journal_seq, mac) VALUES (?, ?, ?, ?)', [
      'games',
      hall.gameId,
      seal.journal_seq,
      seal.mac,
    ])
    expect((await buy()).r.status).toBe(201)
    expect(await cardsSold()).toBe(4)
  })
})
