import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import { insertCashMovement } from '../cashdesk/store.ts'
import type { Database } from '../db/database.ts'
import { appendJournal, readJournal } from './journal.ts'
import { sealedUnit, sealLegacyRows, withRowSeals } from './row-seal-database.ts'
import { createGroupCommit } from '../db/group-commit.ts'
import { DomainError } from './errors.ts'
import { verifyChain } from './journal-chain.ts'
import { assertRowsSealed, collectJournalSeals, rowMac, verifySealedRows } from './row-seals.ts'

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
    const records = []
    for await (const r of readJournal(raw)) records.push(r)
    expect(verifyChain(records).ok).toBe(true)
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1))
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
