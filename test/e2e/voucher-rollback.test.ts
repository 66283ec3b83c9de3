import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { sellVoucher } from '../helpers/cashdesk.ts'
import type { PaidHall } from '../helpers/paid-hall.ts'
import { asTerminal, paidHallWithTerminal } from '../helpers/terminals.ts'
import { tamper as tamperWith } from '../helpers/tamper.ts'

/**
 * GEN-13 (every voucher's value leaves the house once) and issue 24 point 1: an insider who holds a copy of the
 * database file puts a spent voucher back (its row as the copy had it, `active`, with the seal it had then: the two
 * match). Whichever way the voucher was spent (a kiosk purchase, a terminal's session, a cash-out), every route that
 * reaches its balance again refuses it, and the check of its code at the cash desk or the kiosk reports it so, ROW_TAMPERED, journaled, from the journal's record of the spend
 * (journal.voucher_id, migration 0590), and the books stay as they were. Authentication on, the cashier logged in at
 * her enrolled station, an enrolled kiosk and terminal; over real HTTP, on SQLite and on PostgreSQL.
 */
describe('a spent voucher put back from a copy of the file is refused on every route (GEN-13, issue 24)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: PaidHall
  let terminal: { id: string; credential: string }
  const db = () => server.services.db
  type Row = Record<string, unknown>
  const asCashier = () => ({ 'accept-language': 'es', authorization: `Bearer ${hall.cashierToken}` })
  const asKiosk = () => ({ 'accept-language': 'es', authorization: `Device ${hall.kiosk.credential}` })
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await db().get<{ n: number }>(sql, params))?.n ?? 0)

  const tamper = (sql: string, params: unknown[]) => tamperWith(server, sql, params)

  /** The insider's copy of a voucher's row and of its seal. */
  const copyOf = async (voucherId: string) => ({
    row: (await db().get<Row>('SELECT * FROM vouchers WHERE id = ?', [voucherId]))!,
    seal: (await db().get<Row>("SELECT journal_seq, mac FROM row_seals WHERE tbl = 'vouchers' AND row_id = ?", [
      voucherId,
    ]))!,
  })
  /** The copy written back over the voucher's row and seal. */
  async function putBack(copy: Awaited<ReturnType<typeof copyOf>>): Promise<void> {
    const cols = Object.keys(copy.row).filter((c) => c !== 'id')
    await tamper(`UPDATE vouchers SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`, [
      ...cols.map((c) => copy.row[c]),
      copy.row.id,
    ])
    await tamper("UPDATE row_seals SET journal_seq = ?, mac = ? WHERE tbl = 'vouchers' AND row_id = ?", [
      Number(copy.seal.journal_seq),
      copy.seal.mac,
      copy.row.id,
    ])
  }

  /** Everything a spend moves: drawers, the shift's totals, vouchers, cards, payments, purchases, terminal sessions. */
  async function books() {
    const shift = (await api(server.url, 'GET', '/api/shifts/current', undefined, asCashier())).body.shift
    return {
      movements: await db().all<Row>('SELECT id, kind, amount_cents FROM cash_movements ORDER BY id'),
      shift: { in: shift.inCents, out: shift.outCents, expected: shift.expectedCents },
      vouchers: await db().all<Row>('SELECT id, status, amount_cents, spent_for, spent_ref FROM vouchers ORDER BY id'),
      cards: await count('SELECT COUNT(*) AS n FROM cards WHERE game_id = ?', [hall.gameId]),
      payments: await count('SELECT COUNT(*) AS n FROM sale_payments'),
      purchases: await count('SELECT COUNT(*) AS n FROM kiosk_purchases'),
      sessions: await db().all<Row>('SELECT id, status, balance_cents FROM terminal_sessions ORDER BY id'),
      ledger: await count('SELECT COUNT(*) AS n FROM terminal_ledger'),
    }
  }

  const cashOut = (code: string) => api(server.url, 'POST', '/api/vouchers/cashout', { code }, asCashier())
  const buyCard = (code: string) =>
    api(
      server.url,
      'POST',
      '/api/kiosk/purchases',
      { voucherCode: code, ageConfirmed: true, cards: { gameId: hall.gameId, count: 1 } },
      asKiosk(),
    )
  const openSession = (code: string) =>
    api(server.url, 'POST', '/api/terminal/session', { voucherCode: code, ageConfirmed: true }, asTerminal(terminal))
  const endSession = () => api(server.url, 'POST', '/api/terminal/session/end', {}, asTerminal(terminal))

  // The check of a scanned code answers what a spend would (the cashier's screen and the kiosk's show it before any
  // money moves): the same loader, so a put-back voucher is not shown as active.
  const checkAt = (who: () => Record<string, string>) => (code: string) =>
    api(server.url, 'POST', '/api/vouchers/check', { code }, who())
  const routes = [
    ['the cash desk (cash-out)', cashOut],
    ['the kiosk (a purchase)', buyCard],
    ['the terminal (a session opened with it)', openSession],
    ["the cash desk's check of its code", checkAt(asCashier)],
    ["the kiosk's check of its code", checkAt(asKiosk)],
  ] as const

  /**
   * The voucher put back (again) from the copy is tried once on `route`: refused ROW_TAMPERED, in Spanish and naming
   * no table or record; the refusal journaled, naming the voucher; nothing in the books moved.
   */
  async function refusedAt(
    route: (code: string) => Promise<{ status: number; body: any }>,
    spent: { code: string; id: string; copy: Awaited<ReturnType<typeof copyOf>> },
  ): Promise<void> {
    await putBack(spent.copy)
    expect((await db().get<Row>('SELECT status FROM vouchers WHERE id = ?', [spent.id]))!.status).toBe('active')
    const before = await books()
    const refusalsBefore = await count("SELECT COUNT(*) AS n FROM journal WHERE type = 'row.tampered'")
    const r = await route(spent.code)
    // Had it gone through at the terminal, the session is ended so the next attempt meets the same terminal.
    if (route === openSession && r.status === 201) await endSession()
    expect(r.status, JSON.stringify(r.body)).toBe(409)
    expect(r.body.error.code).toBe('ROW_TAMPERED')
    expect(r.body.error.message).toMatch(/^Los datos de este valor no coinciden con su sello/)
    expect(r.body.error.message).not.toMatch(/vouchers|journal record|v_/)
    expect(await books()).toEqual(before)
    const refusals = (
      await db().all<{ payload: string }>("SELECT payload FROM journal WHERE type = 'row.tampered' ORDER BY seq")
    )
      .slice(refusalsBefore)
      .map((x) => JSON.parse(x.payload) as { rows: Array<{ table: string; id: string; what: string }> })
    expect(refusals).toEqual([
      expect.objectContaining({
        rows: [expect.objectContaining({ table: 'vouchers', id: spent.id, what: expect.stringMatching(/older copy/) })],
      }),
    ])
  }

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    ;({ hall, terminal } = await paidHallWithTerminal(server.services, 'Terminal 1'))
  }, 120_000)
  afterAll(async () => server?.cleanup())

  it('an untampered voucher and its change vouchers: two kiosk purchases, a terminal session and a cash-out, each once', async () => {
    const first = await sellVoucher(server.url, hall.hallId, 2000, {}, asCashier())
    const a = await buyCard(first.code)
    expect(a.status, JSON.stringify(a.body)).toBe(201)
    expect(a.body.change.amountCents).toBe(1500)
    const b = await buyCard(a.body.change.code)
    expect(b.status, JSON.stringify(b.body)).toBe(201)
    expect(b.body.change.amountCents).toBe(1000)
    const opened = await openSession(b.body.change.code)
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    const ended = await endSession()
    expect(ended.status, JSON.stringify(ended.body)).toBe(200)
    expect(ended.body.change.amountCents).toBe(1000)
    const outBefore = (await books()).shift.out
    const paid = await cashOut(ended.body.change.code)
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.paidCents).toBe(1000)
    expect((await books()).shift.out - outBefore).toBe(1000)
    // Spent is spent, honestly: a second use of any of them is VOUCHER_SPENT, not a tampered row.
    for (const code of [first.code, a.body.change.code, b.body.change.code, ended.body.change.code]) {
      const again = await cashOut(code)
      expect([again.status, again.body.error.code]).toEqual([409, 'VOUCHER_SPENT'])
      // And its check shows it spent (the sealed loader refuses only a row the journal did not leave as it is).
      const checked = await checkAt(asCashier)(code)
      expect([checked.status, checked.body.status]).toEqual([200, 'spent'])
    }
    // Each spend's record names its voucher once, and that record sealed the voucher's row as it stands.
    for (const id of [first.id, a.body.change.id, b.body.change.id, ended.body.change.id]) {
      const named = await db().all<{ seq: number }>('SELECT seq FROM journal WHERE voucher_id = ?', [id])
      expect(named).toHaveLength(1)
      const seal = await db().get<{ journal_seq: number }>(
        "SELECT journal_seq FROM row_seals WHERE tbl = 'vouchers' AND row_id = ?",
        [id],
      )
      expect(Number(seal!.journal_seq)).toBe(Number(named[0].seq))
    }
    // The column is outside the hashed content: the journal and every row still verify.
    const verdict = await server.services.verifyJournal()
    expect(verdict.ok, JSON.stringify(verdict)).toBe(true)
  })

  /** How each voucher is spent before the insider puts it back: at the kiosk, at the terminal, at the cash desk. */
  const spends = {
    'spent at the kiosk': async (code: string) => {
      const bought = await buyCard(code)
      expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    },
    // The session ended and its change cashed out: without the check, the terminal would take the voucher again.
    'spent on a terminal session': async (code: string) => {
      const opened = await openSession(code)
      expect(opened.status, JSON.stringify(opened.body)).toBe(201)
      const ended = await endSession()
      expect(ended.status, JSON.stringify(ended.body)).toBe(200)
      expect((await cashOut(ended.body.change.code)).status).toBe(200)
    },
    'cashed out': async (code: string) => {
      const paid = await cashOut(code)
      expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    },
  }

  for (const [how, spend] of Object.entries(spends))
    describe(`a voucher ${how}, then put back active from a copy of its row and seal`, () => {
      let spent: { code: string; id: string; copy: Awaited<ReturnType<typeof copyOf>> }
      beforeAll(async () => {
        const v = await sellVoucher(server.url, hall.hallId, 500, {}, asCashier())
        const copy = await copyOf(v.id)
        await spend(v.code)
        spent = { code: v.code, id: v.id, copy }
      })
      for (const [where, route] of routes) it(`is refused at ${where}`, () => refusedAt(route, spent))
    })

  it('verify-journal reports the voucher put back, offline, as before', async () => {
    const verdict = await server.services.verifyJournal()
    expect(verdict.ok).toBe(false)
    const rows = (verdict as { rows?: { problems: Array<{ table: string; what: string }> } }).rows?.problems ?? []
    expect(rows.filter((p) => p.table === 'vouchers' && /older copy/.test(p.what))).toHaveLength(3)
  })

  it("a voucher's name written outside the server onto a record that does not seal it: the honest voucher is refused (fails closed) and verify-journal names the record", async () => {
    const honest = await sellVoucher(server.url, hall.hallId, 500, {}, asCashier())
    const other = await sellVoucher(server.url, hall.hallId, 500, {}, asCashier())
    const { seq } = (await db().get<{ seq: number }>(
      "SELECT MAX(seq) AS seq FROM journal WHERE type = 'voucher.issued' AND payload LIKE ?",
      [`%${other.id}%`],
    ))!
    // The journal is append-only: the insider lifts its guard, writes the name, and puts the guard back.
    if (server.services.config.databaseUrl) {
      await tamper('ALTER TABLE journal DISABLE TRIGGER journal_no_update', [])
      await tamper('UPDATE journal SET voucher_id = ? WHERE seq = ?', [honest.id, Number(seq)])
      await tamper('ALTER TABLE journal ENABLE TRIGGER journal_no_update', [])
    } else {
      await tamper('DROP TRIGGER journal_no_update', [])
      await tamper('UPDATE journal SET voucher_id = ? WHERE seq = ?', [honest.id, Number(seq)])
      await tamper(
        "CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END",
        [],
      )
    }
    const before = await books()
    const r = await cashOut(honest.code)
    expect([r.status, r.body.error?.code]).toEqual([409, 'ROW_TAMPERED'])
    expect(await books()).toEqual(before)
    const verdict = await server.services.verifyJournal()
    const problems = (verdict as { rows?: { problems: Array<{ table: string; id: string; what: string }> } }).rows
      ?.problems
    expect(problems).toContainEqual(
      expect.objectContaining({ table: 'journal', id: String(seq), what: expect.stringContaining(honest.id) }),
    )
  })
})
