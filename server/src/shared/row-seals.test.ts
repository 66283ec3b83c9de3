import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import { insertCashMovement, insertSalePayment, insertVoucher, markVoucherSpentRow } from '../cashdesk/store.ts'
import type { Database, Sql } from '../db/database.ts'
import { annulSlipRow, insertSlips } from '../lotto/store.ts'
import { appendJournal, readJournal } from './journal.ts'
import { sealedUnit, sealLegacyRows, withRowSeals } from './row-seal-database.ts'
import { createGroupCommit } from '../db/group-commit.ts'
import { DomainError } from './errors.ts'
import { verifyChain, type JournalRecord } from './journal-chain.ts'
import {
  assertRowsSealed,
  collectJournalSeals,
  keyColumnsOf,
  rowMac,
  SEALED_TABLES,
  type SealedTable,
  verifySealedRows,
} from './row-seals.ts'

/** Issue 24 point 1: the row-seal mechanism on its own, on SQLite (and PostgreSQL with BOLILLO_TEST_DATABASE_URL). */
const row = {
  id: 'cm1',
  hall_id: 'h1',
  station_id: 's1',
  cashier_id: 'u1',
  kind: 'voucher_sale',
  amount_cents: 1000,
  currency: 'BOB',
  ref_id: 'v1',
  at: '2026-11-24T10:00:00.000Z',
  shift_id: null,
  product: 'voucher',
}

/** A Bs 5 cashier voucher of hall h1 issued at `at`, as the cash desk's store inserts it. */
const voucherRow = (id: string, at: string) => ({
  id,
  hallId: 'h1',
  currency: 'BOB',
  amountCents: 500,
  origin: 'cashier' as const,
  parentId: null,
  stationId: 's1',
  issuedBy: 'u1',
  issuedAt: at,
  expiresAt: '2026-12-24T10:00:00.000Z',
  smallCents: 500,
  otherCents: 0,
  buyerDocument: null,
  shortCodeHash: `hash-${id}`,
})

describe('row seals', () => {
  it('a MAC covers every value column, the table, the journal record and the key; a BIGINT read as text is the same value', () => {
    const key = randomBytes(32)
    const mac = rowMac(key, 'cash_movements', row, 7)
    expect(rowMac(key, 'cash_movements', { ...row, amount_cents: '1000' }, 7)).toBe(mac)
    expect(rowMac(key, 'cash_movements', { ...row, amount_cents: 1001 }, 7)).not.toBe(mac)
    expect(rowMac(key, 'cash_movements', { ...row, shift_id: 'x' }, 7)).not.toBe(mac)
    expect(rowMac(key, 'cash_movements', row, 8)).not.toBe(mac)
    expect(rowMac(key, 'sale_payments', row, 7)).not.toBe(mac)
    expect(rowMac(randomBytes(32), 'cash_movements', row, 7)).not.toBe(mac)
  })

  let raw: Database | null = null
  afterEach(async () => {
    await raw?.close()
    raw = null
  })

  it('seals a row under the record of its transaction, refuses it once edited (journaling the refusal), and verify lists it', async () => {
    raw = await openTestDatabase()
    const key = randomBytes(32)
    const now = () => new Date('2026-11-24T10:00:00.000Z')
    const db = withRowSeals(raw, key, now)
    await sealLegacyRows(db)
    await db.transaction(async (tx) => {
      await insertCashMovement(tx, {
        id: 'cm1',
        hallId: 'h1',
        stationId: 's1',
        cashierId: 'u1',
        kind: 'voucher_sale',
        amountCents: 1000,
        currency: 'BOB',
        refId: 'v1',
        at: row.at,
        product: 'voucher',
      })
      await appendJournal(tx, { at: row.at, type: 'test.moved', scope: '', payload: { id: 'cm1' } })
    })
    const records = []
    for await (const r of readJournal(raw)) records.push(r)
    const moved = records.find((r) => r.type === 'test.moved')!
    expect((moved.payload as { rowSeals: Record<string, string> }).rowSeals['cash_movements:cm1']).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    )
    const seals = new Map<string, { seq: number; mac: string }>()
    for (const r of records) collectJournalSeals(seals, r)
    expect(await verifySealedRows(raw, key, seals)).toEqual({ checked: 1, problems: [] })
    await db.transaction((tx) => assertRowsSealed(tx, 'cash_movements', ['cm1']))

    await raw.run('UPDATE cash_movements SET amount_cents = 100000 WHERE id = ?', ['cm1'])
    await expect(db.transaction((tx) => assertRowsSealed(tx, 'cash_movements', ['cm1']))).rejects.toMatchObject({
      code: 'ROW_TAMPERED',
    })
    const refusal = await raw.get<{ payload: string }>("SELECT payload FROM journal WHERE type = 'row.tampered'")
    expect(JSON.parse(refusal!.payload).rows).toEqual([expect.objectContaining({ table: 'cash_movements', id: 'cm1' })])
    expect((await verifySealedRows(raw, key, seals)).problems).toEqual([
      expect.objectContaining({ table: 'cash_movements', id: 'cm1' }),
    ])
    // Under another key nothing matches: a restore needs the installation's key.
    await raw.run('UPDATE cash_movements SET amount_cents = 1000 WHERE id = ?', ['cm1'])
    expect((await verifySealedRows(raw, key, seals)).problems).toEqual([])
    expect((await verifySealedRows(raw, randomBytes(32), seals)).problems).toHaveLength(1)
    // A verification that read the journal up to a record before this row's seal (the server wrote on meanwhile):
    // the row's journal record is the next verification's, but its MAC is still checked.
    expect((await verifySealedRows(raw, key, new Map(), moved.seq - 1)).problems).toEqual([])
    expect((await verifySealedRows(raw, key, new Map(), moved.seq)).problems).toHaveLength(1)
    await raw.run('UPDATE cash_movements SET amount_cents = 100000 WHERE id = ?', ['cm1'])
    expect((await verifySealedRows(raw, key, new Map(), moved.seq - 1)).problems).toEqual([
      expect.objectContaining({ table: 'cash_movements', id: 'cm1' }),
    ])
  })
})

describe('the journal head a transaction remembers (issue 23 point 5)', () => {
  let raw: Database | null = null
  afterEach(async () => {
    await raw?.close()
    raw = null
  })

  it('continues the chain after a nested body appended and after a group-commit unit rolled back its records', async () => {
    raw = await openTestDatabase()
    const now = () => new Date('2026-11-24T10:00:00.000Z')
    const db = withRowSeals(raw, randomBytes(32), now)
    await sealLegacyRows(db)
    const entry = (type: string) => ({ at: now().toISOString(), type, scope: 'test', payload: {} })
    // A body that appended, then a body nested in it (a group-commit unit) that appended too: the outer body's next
    // record must follow the nested one, not the one it wrote itself.
    await db.transaction(async (tx) => {
      await appendJournal(tx, entry('outer.first'))
      await sealedUnit(tx, () => appendJournal(tx, entry('nested')))
      await appendJournal(tx, entry('outer.after'))
    })
    // Units of one batch: the second appends two records and is refused, rolled back to its savepoint.
    const group = createGroupCommit(db, { budgetMs: 60_000 })
    const settled = await Promise.allSettled(
      [false, true, false].map((refuse, i) =>
        group.run(async (tx) => {
          await appendJournal(tx, entry(`unit.${i}.a`))
          await appendJournal(tx, entry(`unit.${i}.b`))
          if (refuse) throw new DomainError('VOUCHER_SPENT', 'refused after its records')
        }),
      ),
    )
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    const records: JournalRecord[] = []
    for await (const r of readJournal(raw)) records.push(r)
    expect(verifyChain(records).ok).toBe(true)
    // The chain has no gap; seq only grows (a PostgreSQL sequence leaves the rolled-back unit's numbers unused).
    expect(records.map((r) => r.chainSeq)).toEqual(records.map((_, i) => i + 1))
    expect(records.every((r, i) => i === 0 || r.seq > records[i - 1].seq)).toBe(true)
    expect(records.filter((r) => r.scope === 'test').map((r) => r.type)).toEqual([
      'outer.first',
      'nested',
      'outer.after',
      'unit.0.a',
      'unit.0.b',
      'unit.2.a',
      'unit.2.b',
    ])
  })
})

describe('rows sealed from the values written, not read back (issue 23 point 5)', () => {
  let raw: Database | null = null
  afterEach(async () => {
    await raw?.close()
    raw = null
  })

  /** The statements a transaction ran, by a wrapper around the `tx` the store functions are given. */
  function recording(tx: Sql, into: string[]): Sql {
    return {
      all: (sql, params) => (into.push(sql), tx.all(sql, params)),
      get: (sql, params) => (into.push(sql), tx.get(sql, params)),
      run: (sql, params) => (into.push(sql), tx.run(sql, params)),
    }
  }

  it('the seal of each row equals the MAC of the row as stored, on this engine; verification finds a row edited behind the journal', async () => {
    raw = await openTestDatabase()
    const key = randomBytes(32)
    const at = '2026-11-24T10:00:00.000Z'
    const db = withRowSeals(raw, key, () => new Date(at))
    await sealLegacyRows(db)
    await raw.run(
      'INSERT INTO halls (id, name, profile_id, currency, playing_positions, settings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ['h1', 'Sala', 'bo-asfi', 'BOB', 100, '{}', at],
    )
    // Text a driver could plausibly change (accents composed and decomposed, an emoji, quotes, a backslash, a tab,
    // an empty string), the largest safe integer in a BIGINT column, numbers bound to TEXT columns, NULLs; and one
    // name with a lone surrogate, which UTF-8 cannot hold (stored as U+FFFD): that row is read back to be sealed.
    const odd = 'Se\u00f1ora \u00d1and\u00fa / Jose\u0301 \u{1F3B1} "q" \\ \t end'
    const lone = 'Rosa \ud800 Condori'
    const statements: string[] = []
    await db.transaction(async (bare) => {
      const tx = recording(bare, statements)
      await insertVoucher(tx, voucherRow('v1', at))
      await appendJournal(tx, { at, type: 'test.issued', scope: '', payload: {} })
      statements.length = 0
      expect(await markVoucherSpentRow(tx, 'v1', { at, station: 'k1', for: 'purchase', ref: 'kp1' })).toBe(1)
      await insertSalePayment(tx, {
        id: 'sp1',
        hallId: 'h1',
        stationId: 'k1',
        soldBy: odd,
        product: 'slip',
        refId: '',
        amountCents: Number.MAX_SAFE_INTEGER,
        currency: 'BOB',
        paidBy: 'voucher',
        paymentRef: 'v1',
        at,
      })
      const slip = (id: string, name: string, quickPicks: unknown = '1') => [
        id,
        'LOTTO',
        7,
        1,
        '[[1,2,3,4,5,6]]',
        1,
        quickPicks,
        500,
        name,
        '',
        'kiosk',
        'active',
        at,
      ]
      // A number bound to a TEXT column (quick_picks): SQLite stores "1.0", PostgreSQL "1"; that row is read back too.
      await insertSlips(tx, [slip('R-1', odd), slip('R-2', lone), slip('R-3', 'Ana', 1)])
      await appendJournal(tx, { at, type: 'test.sold', scope: '', payload: {} })
    })
    // No row was read back to seal it but the two whose values do not survive the round trip, in one statement.
    // (Taking the next journal seq from the PostgreSQL sequence reads no row.)
    const readBack = statements.filter((s) => /^SELECT/i.test(s) && !/nextval\('journal_seq'\)/.test(s))
    expect(readBack).toHaveLength(1)
    expect(readBack[0]).toMatch(/FROM lotto_slips t WHERE t\.id IN \(\?, \?\)/)

    const records = []
    for await (const r of readJournal(raw)) records.push(r)
    const sold = records.find((r) => r.type === 'test.sold')!
    const rowSeals = (sold.payload as { rowSeals: Record<string, string> }).rowSeals
    expect(Object.keys(rowSeals).sort()).toEqual([
      'lotto_slips:R-1',
      'lotto_slips:R-2',
      'lotto_slips:R-3',
      'sale_payments:sp1',
      'vouchers:v1',
    ])
    // Each seal in the journal is the MAC of the row as the engine gives it back.
    const stored = async (table: SealedTable, id: string) =>
      (await raw!.get<Record<string, unknown>>(
        `SELECT ${SEALED_TABLES[table].join(', ')} FROM ${table} WHERE ${keyColumnsOf(table)[0]} = ?`,
        [id],
      ))!
    for (const [table, id] of [
      ['vouchers', 'v1'],
      ['sale_payments', 'sp1'],
      ['lotto_slips', 'R-1'],
      ['lotto_slips', 'R-2'],
      ['lotto_slips', 'R-3'],
    ] as const)
      expect(rowSeals[`${table}:${id}`], `${table}:${id}`).toBe(rowMac(key, table, await stored(table, id), sold.seq))
    // The engine holds U+FFFD where the surrogate was (SQLite one for each byte of its WTF-8 form, PostgreSQL one).
    expect((await stored('lotto_slips', 'R-2')).player_name).toMatch(/^Rosa \ufffd+ Condori$/)
    expect((await stored('lotto_slips', 'R-1')).player_name).toBe(odd)

    const seals = new Map<string, { seq: number; mac: string }>()
    for (const r of records) collectJournalSeals(seals, r)
    expect(await verifySealedRows(raw, key, seals)).toEqual({ checked: 5, problems: [] })
    await db.transaction((tx) => assertRowsSealed(tx, 'sale_payments', ['sp1']))

    // Edited behind the journal: a name recomposed (NFC), a price, a spend undone.
    await raw.run('UPDATE lotto_slips SET player_name = ? WHERE id = ?', [odd.normalize('NFC'), 'R-1'])
    await raw.run('UPDATE sale_payments SET amount_cents = 1 WHERE id = ?', ['sp1'])
    await raw.run("UPDATE vouchers SET status = 'active' WHERE id = ?", ['v1'])
    expect((await verifySealedRows(raw, key, seals)).problems.map((p) => `${p.table}:${p.id}`).sort()).toEqual([
      'lotto_slips:R-1',
      'sale_payments:sp1',
      'vouchers:v1',
    ])
    await expect(db.transaction((tx) => assertRowsSealed(tx, 'vouchers', ['v1']))).rejects.toMatchObject({
      code: 'ROW_TAMPERED',
    })
  })

  it('a row written with its values and changed again in the same transaction is sealed as it ends up, read back', async () => {
    raw = await openTestDatabase()
    const key = randomBytes(32)
    const at = '2026-11-24T10:00:00.000Z'
    const db = withRowSeals(raw, key, () => new Date(at))
    await sealLegacyRows(db)
    await db.transaction(async (tx) => {
      await insertSlips(tx, [['R-9', 'LOTTO', 7, 1, '[[1,2,3,4,5,6]]', 1, 0, 500, 'Ana', '', 'kiosk', 'active', at]])
      // A store function that changes the row after its INSERT touches it again, without values.
      expect(await annulSlipRow(tx, 'R-9', 'a test', at)).toBe(true)
      await appendJournal(tx, { at, type: 'test.annulled', scope: '', payload: {} })
    })
    const seals = new Map<string, { seq: number; mac: string }>()
    for await (const r of readJournal(raw)) collectJournalSeals(seals, r)
    expect(await verifySealedRows(raw, key, seals)).toEqual({ checked: 1, problems: [] })
  })
})

describe('the journal record that seals a spent voucher names it (GEN-13, migration 0590)', () => {
  let raw: Database | null = null
  afterEach(async () => {
    await raw?.close()
    raw = null
  })
  const at = '2026-11-24T10:00:00.000Z'
  const spend = (tx: Sql, id: string) => markVoucherSpentRow(tx, id, { at, station: 'k1', for: 'purchase', ref: 'kp1' })
  const named = async () =>
    (await raw!.all<{ type: string; voucher_id: string | null }>('SELECT type, voucher_id FROM journal ORDER BY seq'))
      .filter((r) => r.type.startsWith('test.') || r.type === 'rows.sealed')
      .map((r) => [r.type, r.voucher_id])

  it('by the record that seals the spend (its own or the rows.sealed at the end), once; two spends waiting for one record are refused', async () => {
    raw = await openTestDatabase()
    const db = withRowSeals(raw, randomBytes(32), () => new Date(at))
    await sealLegacyRows(db)
    await raw.run(
      'INSERT INTO halls (id, name, profile_id, currency, playing_positions, settings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ['h1', 'Sala', 'bo-asfi', 'BOB', 100, '{}', at],
    )
    await db.transaction(async (tx) => {
      for (const id of ['v1', 'v2', 'v3', 'v4']) await insertVoucher(tx, voucherRow(id, at))
      await appendJournal(tx, { at, type: 'test.issued', scope: '', payload: {} })
    })
    await db.transaction(async (tx) => {
      expect(await spend(tx, 'v1')).toBe(1)
      await appendJournal(tx, { at, type: 'test.spent', scope: '', payload: {} })
      await appendJournal(tx, { at, type: 'test.after', scope: '', payload: {} })
    })
    // No record of its own: the transaction's closing rows.sealed seals the spend, and names it.
    await db.transaction(async (tx) => {
      expect(await spend(tx, 'v2')).toBe(1)
    })
    await expect(
      db.transaction(async (tx) => {
        await spend(tx, 'v3')
        await spend(tx, 'v4')
      }),
    ).rejects.toThrow(/not yet journaled/)
    expect(await named()).toEqual([
      ['test.issued', null],
      ['test.spent', 'v1'],
      ['test.after', null],
      ['rows.sealed', 'v2'],
    ])
  })
})
