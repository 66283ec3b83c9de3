import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSqliteConnection } from '../../server/src/db/sqlite-runtime.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import { paidHall, type PaidHall } from '../helpers/paid-hall.ts'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * Issue 23 point 5: a kiosk card purchase reads, with its game's row and in the same statement, what its other checks
 * would each read in a round trip of their own under the hall's lock: the hall's closure (BNG-65) and the game's
 * simultaneous halls (BNG-100); and its kiosk's row comes back with the voucher's hall. The checks still refuse: a
 * closure or a simultaneous hall written into the database refuses the kiosk's next card, nothing sold, the voucher
 * keeps its credit; removed, the kiosk sells again. Over HTTP with authentication on and an enrolled kiosk; on SQLite,
 * and on PostgreSQL with BOLILLO_TEST_DATABASE_URL.
 */
describe('a kiosk card sale reads its checks with its game and still refuses (issue 23 point 5)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  const db = () => server.services.db

  /** A statement on the database from outside the server (its own connection). */
  async function write(sql: string, params: unknown[]): Promise<void> {
    const url = server.services.config.databaseUrl
    if (url) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        let i = 0
        await client.query(
          sql.replace(/\?/g, () => `$${++i}`),
          params,
        )
      } finally {
        await client.end()
      }
      return
    }
    const conn = await openSqliteConnection(join(server.dataDir, 'bolillo.sqlite'))
    try {
      conn.prepare(sql).run(...params)
    } finally {
      conn.close()
    }
  }

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
  const cardsSold = async () =>
    Number((await db().get<{ n: number }>('SELECT cards_sold AS n FROM games WHERE id = ?', [hall.gameId]))!.n)

  async function refused(status: number, code: string, rule: string) {
    const sold = await cardsSold()
    const { r, voucher } = await buy()
    expect(r.status, JSON.stringify(r.body)).toBe(status)
    expect(r.body.error.code).toBe(code)
    expect(r.body.error.details?.rule).toBe(rule)
    // Spanish first: the message is not the English code.
    expect(r.body.error.message).not.toContain(code)
    expect(await cardsSold()).toBe(sold)
    const v = await db().get<{ status: string }>('SELECT status FROM vouchers WHERE id = ?', [voucher.id])
    expect(v?.status).toBe('active')
  }

  it('BNG-65: a closed hall sells no card at the kiosk; BNG-100: nor a simultaneous game', async () => {
    const first = await buy()
    expect(first.r.status, JSON.stringify(first.r.body)).toBe(201)

    await write(
      'INSERT INTO hall_closures (hall_id, closed_at, closed_by, witness, reason, prima_fund_cents) VALUES (?, ?, ?, ?, ?, ?)',
      [hall.hallId, '2025-01-01T00:00:00.000Z', 'director', 'testigo', 'cierre', 0],
    )
    await refused(409, 'HALL_CLOSED', 'BNG-65')
    await write('DELETE FROM hall_closures WHERE hall_id = ?', [hall.hallId])
    expect((await buy()).r.status).toBe(201)

    const series = (await db().get<{ series_id: string; master_set_id: string }>(
      'SELECT gs.series_id, s.master_set_id FROM game_series gs JOIN series s ON s.id = gs.series_id WHERE gs.game_id = ?',
      [hall.gameId],
    ))!
    await write(
      'INSERT INTO game_halls (game_id, hall_id, series_id, master_set_id, from_card_no, to_card_no, next_card_no, cards_sold, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        hall.gameId,
        hall.hallId,
        series.series_id,
        series.master_set_id,
        9000,
        9100,
        9000,
        0,
        '2025-01-01T00:00:00.000Z',
      ],
    )
    await refused(409, 'ILLEGAL_TRANSITION', 'BNG-100')
    await write('DELETE FROM game_halls WHERE game_id = ?', [hall.gameId])
    expect((await buy()).r.status).toBe(201)
    expect(await cardsSold()).toBe(3)
  })
})
