import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSqliteConnection } from '../../server/src/db/sqlite-runtime.ts'
import { playToTheEnd, winningCodes } from '../helpers/cashdesk.ts'
import { cashierHall, type CashierHall } from '../helpers/cashier.ts'
import { startTestServer } from '../helpers/server.ts'
import { countOf } from '../helpers/cash.ts'
import { tamper as tamperWith } from '../helpers/tamper.ts'

/**
 * Issue 24 point 1, state that proves itself, over real HTTP with authentication on and enrolled stations: every row
 * the cash desk pays from is sealed (HMAC under a key outside the database) and bound to the journal. A value changed
 * by a bare SQL UPDATE on the database (another connection, as someone with the database would) is refused where the
 * row is loaded to be paid or spent (ROW_TAMPERED, journaled), and `verify-journal` (CLI and HTTP) names the row.
 * Runs on SQLite, and on PostgreSQL with BOLILLO_TEST_DATABASE_URL.
 */
const run = promisify(execFile)
const bin = join(process.cwd(), 'bin', 'bolillo.mjs')

describe('rows that carry value are sealed and bound to the journal (issue 24 point 1)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let h: CashierHall
  const db = () => server.services.db

  const tamper = (sql: string, params: unknown[]) => tamperWith(server, sql, params)

  const verifyHttp = async () => {
    const r = await h.call('jefa', 'GET', '/api/journal/verify')
    expect(r.status).toBe(200)
    return r.body as {
      ok: boolean
      rows: { checked: number; problems: Array<{ table: string; id: string; what: string }> }
    }
  }
  async function verifyCli(): Promise<{ code: number; stdout: string }> {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      DATA_DIR: server.dataDir,
      BOLILLO_AUTH: 'on',
    }
    if (server.services.config.databaseUrl) env.DATABASE_URL = server.services.config.databaseUrl
    try {
      const r = await run(process.execPath, [bin, 'verify-journal'], { env, maxBuffer: 64 * 1024 * 1024 })
      return { code: 0, stdout: r.stdout }
    } catch (err: any) {
      return { code: err.code as number, stdout: String(err.stdout) }
    }
  }
  const refusalsOf = async (table: string, id: string) =>
    (await db().all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'row.tampered' ORDER BY seq"))
      .map((r) => JSON.parse(r.payload) as { rows: Array<{ table: string; id: string }>; actor?: unknown })
      .filter((p) => p.rows.some((x) => x.table === table && x.id === id))
  const sell = async (amountCents: number) => {
    const r = await h.call('cajera@caja1', 'POST', '/api/vouchers', {
      hallId: h.setup.hallId,
      amountCents,
      cash: countOf(amountCents),
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r.body.voucher as { id: string; code: string }
  }

  let cashoutVoucher = { id: '', code: '' }
  let kioskVoucher = { id: '', code: '' }
  let winner = { cardId: '', code: '', amountCents: 0, numbers: '' }
  let payoutId = ''

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', checkpointIntervalMs: 0 })
    h = await cashierHall(server.url, server.services, { faceValueCents: 500 })
    expect((await h.call('cajera@caja1', 'POST', '/api/shifts', { floatCents: 100_000 })).status).toBe(201)
    // Value of every kind: vouchers, a kiosk purchase with change, counter sales, prizes awarded, a payout.
    cashoutVoucher = await sell(1000)
    kioskVoucher = await sell(1000)
    const spent = await sell(2000)
    expect(
      (
        await h.call('kiosk', 'POST', '/api/kiosk/purchases', {
          voucherCode: spent.code,
          gameId: h.setup.gameId,
          count: 2,
          ageConfirmed: true,
        })
      ).status,
    ).toBe(201)
    expect(
      (await h.call('cajera@caja1', 'POST', `/api/games/${h.setup.gameId}/sales`, { ageConfirmed: true, count: 40 }))
        .status,
    ).toBe(201)
    await playToTheEnd(server.services, h.setup.gameId)
    const winners = await winningCodes(server.services, h.setup.gameId)
    expect(winners.length).toBeGreaterThanOrEqual(1)
    winner = {
      ...winners[0],
      numbers: (await db().get<{ numbers: string }>('SELECT numbers FROM cards WHERE id = ?', [winners[0].cardId]))!
        .numbers,
    }
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it('an untouched database verifies: every value row is sealed and matches the journal (HTTP and CLI)', async () => {
    const v = await verifyHttp()
    expect(v.ok, JSON.stringify(v.rows.problems)).toBe(true)
    expect(v.rows.problems).toEqual([])
    // Three cashier vouchers, a change voucher, sale payments, cash movements, the shift, prizes.
    expect(v.rows.checked).toBeGreaterThanOrEqual(10)
    const seals = await db().get<{ n: number }>("SELECT COUNT(*) AS n FROM row_seals WHERE tbl = 'vouchers'")
    expect(Number(seals!.n)).toBe(4)
    const cli = await verifyCli()
    expect(cli.stdout).toMatch(/^OK: journal of \d+ records verifies \(hash chain intact\); \d+ sealed rows match it/)
    expect(cli.code).toBe(0)
  })

  it('a prize whose amount was raised in the database is not paid (ROW_TAMPERED, journaled); put back, it is paid once', async () => {
    const before = await db().all<{ id: string; amount_cents: number }>(
      "SELECT id, amount_cents FROM prizes WHERE card_id = ? AND status = 'awarded'",
      [winner.cardId],
    )
    expect(before.length).toBeGreaterThan(0)
    await tamper('UPDATE prizes SET amount_cents = amount_cents * 100 WHERE card_id = ?', [winner.cardId])
    const refused = await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: winner.code })
    expect(refused.status, JSON.stringify(refused.body)).toBe(409)
    expect(refused.body.error.code).toBe('ROW_TAMPERED')
    expect(refused.body.error.message).toMatch(/no coinciden con su sello/)
    expect(await refusalsOf('prizes', before[0].id)).toHaveLength(1)
    // Nothing was paid or moved.
    expect(
      Number(
        (await db().get<{ n: number }>("SELECT COUNT(*) AS n FROM cash_movements WHERE kind = 'prize_payout'"))!.n,
      ),
    ).toBe(0)
    expect((await verifyHttp()).rows.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'prizes', id: before[0].id })]),
    )
    // The amounts the server wrote match their seals again: the same path pays them.
    for (const p of before)
      await tamper('UPDATE prizes SET amount_cents = ? WHERE id = ?', [Number(p.amount_cents), p.id])
    const paid = await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: winner.code })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.payout.amountCents).toBe(winner.amountCents)
    payoutId = paid.body.payout.payoutId
    expect((await verifyHttp()).ok).toBe(true)
  })

  it('a bingo card whose status was changed in the database is refused at the payout (ROW_TAMPERED, journaled) and listed by verify-journal; put back, it is the paid card again', async () => {
    const card = await db().get<{ status: string }>('SELECT status FROM cards WHERE id = ?', [winner.cardId])
    expect(card!.status).toBe('sold')
    expect(
      await db().get("SELECT 1 AS sealed FROM row_seals WHERE tbl = 'cards' AND row_id = ?", [winner.cardId]),
    ).toBeTruthy()
    for (const status of ['refunded', 'winner', 'paid']) {
      await tamper('UPDATE cards SET status = ? WHERE id = ?', [status, winner.cardId])
      const refused = await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: winner.code })
      expect(refused.status, JSON.stringify(refused.body)).toBe(409)
      expect(refused.body.error.code).toBe('ROW_TAMPERED')
      expect((await verifyHttp()).rows.problems).toEqual(
        expect.arrayContaining([expect.objectContaining({ table: 'cards', id: winner.cardId })]),
      )
    }
    expect((await refusalsOf('cards', winner.cardId)).length).toBe(3)
    // Its numbers edited to match the balls drawn: the same.
    await tamper('UPDATE cards SET status = ?, numbers = ? WHERE id = ?', ['sold', '[]', winner.cardId])
    expect((await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: winner.code })).body.error.code).toBe(
      'ROW_TAMPERED',
    )
    const numbers = (await verifyHttp()).rows.problems.find((p) => p.table === 'cards' && p.id === winner.cardId)
    expect(numbers?.what).toMatch(/do not match the seal/)
    // Put back as the server wrote it: no problem left, and the card is the one paid already.
    await tamper('UPDATE cards SET numbers = ? WHERE id = ?', [winner.numbers, winner.cardId])
    expect((await verifyHttp()).ok).toBe(true)
    expect((await h.call('cajera@caja1', 'POST', '/api/tickets/pay', { code: winner.code })).body.error.code).toBe(
      'ALREADY_PAID',
    )
  })

  it("a Bs 10 voucher edited to Bs 2.500 is refused at the cashier's cash-out and at a kiosk purchase, journaled, and reported by verify-journal", async () => {
    await tamper('UPDATE vouchers SET amount_cents = ? WHERE id = ?', [250_000, cashoutVoucher.id])
    await tamper('UPDATE vouchers SET amount_cents = ? WHERE id = ?', [250_000, kioskVoucher.id])
    const cashout = await h.call('cajera@caja1', 'POST', '/api/vouchers/cashout', { code: cashoutVoucher.code })
    expect(cashout.status, JSON.stringify(cashout.body)).toBe(409)
    expect(cashout.body.error.code).toBe('ROW_TAMPERED')
    const kiosk = await h.call('kiosk', 'POST', '/api/kiosk/purchases', {
      voucherCode: kioskVoucher.code,
      gameId: h.setup.gameId,
      count: 1,
      ageConfirmed: true,
    })
    expect(kiosk.status, JSON.stringify(kiosk.body)).toBe(409)
    expect(kiosk.body.error.code).toBe('ROW_TAMPERED')
    // Both refusals are in the journal, named by the person and the kiosk that tried; nothing was spent or paid.
    const [byCashier] = await refusalsOf('vouchers', cashoutVoucher.id)
    expect(byCashier.actor).toMatchObject({ kind: 'person' })
    expect(await refusalsOf('vouchers', kioskVoucher.id)).toHaveLength(1)
    const rows = await db().all<{ status: string }>('SELECT status FROM vouchers WHERE id IN (?, ?)', [
      cashoutVoucher.id,
      kioskVoucher.id,
    ])
    expect(rows.map((r) => r.status)).toEqual(['active', 'active'])
    expect(
      await db().get('SELECT id FROM cash_movements WHERE ref_id = ? AND kind = ?', [
        cashoutVoucher.id,
        'voucher_cashout',
      ]),
    ).toBeUndefined()

    const v = await verifyHttp()
    expect(v.ok).toBe(false)
    for (const id of [cashoutVoucher.id, kioskVoucher.id]) {
      expect(v.rows.problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ table: 'vouchers', id, what: expect.stringMatching(/do not match the seal/) }),
          // The balance recomputed from the journal: issued for Bs 10.
          expect.objectContaining({
            table: 'vouchers',
            id,
            what: expect.stringMatching(
              /amount_cents is 250000 but journal record #\d+ \(voucher.issued\) issued it for 1000/,
            ),
          }),
        ]),
      )
    }
    const cli = await verifyCli()
    expect(cli.code).toBe(1)
    expect(cli.stdout).toContain(`FAILED row vouchers ${cashoutVoucher.id}:`)
    expect(cli.stdout).toContain(`FAILED row vouchers ${kioskVoucher.id}:`)
  })

  it("an edited payout amount and a shift's cash movement are reported; the shift does not close on an edited movement", async () => {
    await tamper('UPDATE payouts SET amount_cents = amount_cents + 100000 WHERE id = ?', [payoutId])
    const movement = (await db().get<{ id: string }>(
      "SELECT id FROM cash_movements WHERE kind = 'voucher_sale' ORDER BY at, id LIMIT 1",
    ))!
    await tamper('UPDATE cash_movements SET amount_cents = amount_cents - 500 WHERE id = ?', [movement.id])
    const close = await h.call('cajera@caja1', 'POST', '/api/shifts/current/close', { countedCents: 0, note: 'arqueo' })
    expect(close.status, JSON.stringify(close.body)).toBe(409)
    expect(close.body.error.code).toBe('ROW_TAMPERED')
    expect(await refusalsOf('cash_movements', movement.id)).toHaveLength(1)
    const v = await verifyHttp()
    expect(v.ok).toBe(false)
    expect(v.rows.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ table: 'payouts', id: payoutId }),
        expect.objectContaining({ table: 'cash_movements', id: movement.id }),
      ]),
    )
    const cli = await verifyCli()
    expect(cli.stdout).toContain(`FAILED row payouts ${payoutId}:`)
    expect(cli.stdout).toContain(`FAILED row cash_movements ${movement.id}:`)
  })

  it('a row put back with its older seal (a spent voucher made active again from a copy) is reported as replayed', async () => {
    const v = await sell(1500)
    const copy = (await db().get<Record<string, unknown>>(
      'SELECT status, spent_at, spent_station, spent_for, spent_ref FROM vouchers WHERE id = ?',
      [v.id],
    ))!
    const seal = (await db().get<{ journal_seq: number; mac: string }>(
      "SELECT journal_seq, mac FROM row_seals WHERE tbl = 'vouchers' AND row_id = ?",
      [v.id],
    ))!
    expect((await h.call('cajera@caja1', 'POST', '/api/vouchers/cashout', { code: v.code })).status).toBe(200)
    await tamper(
      'UPDATE vouchers SET status = ?, spent_at = ?, spent_station = ?, spent_for = ?, spent_ref = ? WHERE id = ?',
      [copy.status, copy.spent_at, copy.spent_station, copy.spent_for, copy.spent_ref, v.id],
    )
    await tamper("UPDATE row_seals SET journal_seq = ?, mac = ? WHERE tbl = 'vouchers' AND row_id = ?", [
      Number(seal.journal_seq),
      seal.mac,
      v.id,
    ])
    const problems = (await verifyHttp()).rows.problems.filter((p) => p.id === v.id)
    expect(problems).toEqual([
      expect.objectContaining({ table: 'vouchers', what: expect.stringMatching(/put back from an older copy/) }),
    ])
  })
})

describe('a restart does not re-seal what was changed while the server was down (issue 24 point 1)', () => {
  it('a voucher whose seal and the legacy marker were deleted and whose amount was raised is reported after a restart, and not cashed out', async () => {
    const first = await startTestServer({ auth: 'on', checkpointIntervalMs: 0 })
    const dataDir = first.dataDir
    const databaseUrl = first.services.config.databaseUrl
    const h = await cashierHall(first.url, first.services)
    expect((await h.call('cajera@caja1', 'POST', '/api/shifts', { floatCents: 10_000 })).status).toBe(201)
    const sold = await h.call('cajera@caja1', 'POST', '/api/vouchers', {
      hallId: h.setup.hallId,
      amountCents: 1000,
      cash: countOf(1000),
    })
    expect(sold.status).toBe(201)
    const voucher = sold.body.voucher as { id: string; code: string }
    await first.close()
    // While it is down: the voucher's seal and the once-only marker removed, the amount raised (its own connection).
    const statements: Array<[string, unknown[]]> = [
      ["DELETE FROM row_seals WHERE tbl = 'vouchers' AND row_id = ?", [voucher.id]],
      ["DELETE FROM row_seals WHERE tbl = '*'", []],
      ['UPDATE vouchers SET amount_cents = ? WHERE id = ?', [250_000, voucher.id]],
    ]
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      for (const [sql, params] of statements) {
        let i = 0
        await client.query(
          sql.replace(/\?/g, () => `$${++i}`),
          params,
        )
      }
      await client.end()
    } else {
      const conn = await openSqliteConnection(join(dataDir, 'bolillo.sqlite'))
      for (const [sql, params] of statements) conn.prepare(sql).run(...params)
      conn.close()
    }
    const second = await startTestServer({ auth: 'on', checkpointIntervalMs: 0, dataDir, databaseUrl })
    try {
      // The start-up pass ran once already (its record is in the journal): it seals nothing this time.
      expect(
        await second.services.db.get("SELECT row_id FROM row_seals WHERE tbl = 'vouchers' AND row_id = ?", [
          voucher.id,
        ]),
      ).toBeUndefined()
      const v = await second.services.verifyJournal()
      expect(v.ok).toBe(false)
      expect(v.rows.problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ table: 'vouchers', id: voucher.id, what: expect.stringMatching(/^unsealed/) }),
          expect.objectContaining({
            table: 'vouchers',
            id: voucher.id,
            what: expect.stringMatching(/issued it for 1000/),
          }),
        ]),
      )
      const shiftId = (await second.services.db.get<{ id: string }>(
        "SELECT id FROM cashier_shifts WHERE status = 'open'",
      ))!.id
      const station = (await second.services.db.get<{ station_id: string; cashier_id: string }>(
        'SELECT station_id, cashier_id FROM cashier_shifts WHERE id = ?',
        [shiftId],
      ))!
      await expect(
        second.services.cashdesk.vouchers.cashOut({
          code: voucher.code,
          stationId: station.station_id,
          cashierId: station.cashier_id,
          shiftId,
        }),
      ).rejects.toMatchObject({ code: 'ROW_TAMPERED' })
    } finally {
      await second.cleanup()
    }
  }, 60_000)
})
