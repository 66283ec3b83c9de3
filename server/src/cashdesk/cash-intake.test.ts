import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import { code } from '../../../test/helpers/error-code.ts'
import type { Database } from '../db/database.ts'
import { createCashIntakes, type CashIntake } from './cash-intake.ts'
import { amlReportRows, cashIntakesOfBuyer } from './store.ts'
import { splitCash, type CashPieces } from '../shared/cash-count.ts'
import { BOLIVIA_2025 } from '../shared/profile.ts'
import { countOf } from '../../../test/helpers/cash.ts'

const dbs: Database[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
})

// UIF threshold Bs 10.000, small notes share 10 %: the GEN-17 limit is Bs 1.000 (100 000 centavos).
const LIMIT = 100_000

/** The buyer's identity key as the admission list makes it: spelling, spaces and dashes do not count. */
/** CFG-2: a count by note and coin of `cents` as the Bolivian profile splits it (`smallCents` of it in small pieces). */
const counted = (cents: number, smallCents?: number) => splitCash(BOLIVIA_2025, countOf(cents, { smallCents }))

const keyOf = (document: string) => `k:${document.toUpperCase().replace(/[^0-9A-Z]/g, '')}`

async function setup() {
  const db = await openTestDatabase()
  dbs.push(db)
  let n = 0
  const intakes = createCashIntakes({
    config: { amlThresholdCents: 1_000_000, amlSmallShareBp: 1_000 },
    newId: (prefix) => `${prefix}_${++n}`,
    keyOf,
  })
  const base: CashIntake = {
    hallId: 'hall_a',
    stationId: 'dev_caja1',
    cashierId: 'u_rosa',
    source: 'voucher',
    refId: 'v_1',
    amountCents: 10_000,
    currency: 'BOB',
    cash: counted(10_000),
    buyerDocument: null,
    at: '2026-11-21T15:00:00.000Z',
  }
  const record = (over: Partial<CashIntake>) => db.transaction((tx) => intakes.record(tx, { ...base, ...over }))
  const dayOf = (document: string, hallId: string | null = 'hall_a') =>
    cashIntakesOfBuyer(db, keyOf(document), hallId, '2026-11-21T00:00:00.000Z', '2026-11-23T00:00:00.000Z')
  return { db, intakes, record, dayOf }
}

describe('cash intakes (GEN-17)', () => {
  it('knows the limit from the threshold and the share', async () => {
    const { intakes } = await setup()
    expect(intakes.limitCents()).toBe(LIMIT)
  })

  it('refuses denominations that do not add up to the amount, and writes nothing (GEN-17)', async () => {
    const { db, intakes, record, dayOf } = await setup()
    const wrong = record({ amountCents: 10_000, cash: counted(8_000, 3_000), buyerDocument: '123' })
    await expect(wrong).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'cash', rule: 'GEN-17' } })
    const over = record({ amountCents: 10_000, cash: counted(13_000, 3_000), buyerDocument: '123' })
    expect(await code(over)).toBe('VALIDATION_FAILED')
    // CFG-2 (issue 26): the split itself, stated by the caller, is not a count: refused before any hall is read.
    for (const cash of [{ smallCents: 0, otherCents: 10_000 }, { smallCents: 3_000 }, 10_000, { pieces: [1] }])
      expect(await code(db.transaction((tx) => intakes.split(tx, 'hall_a', cash as unknown as CashPieces)))).toBe(
        'CASH_COUNT_BY_PIECE',
      )
    expect(await dayOf('123')).toEqual([])
    expect(await record({ cash: counted(10_000, 5_000), buyerDocument: '123' })).toMatchObject({
      flagged: false,
      counted: true,
    })
    expect(await dayOf('123')).toMatchObject([{ small_cents: 5_000, other_cents: 5_000, counted: 1 }])
  })

  it('takes cash not counted only up to the limit, and then counts it whole as small notes (GEN-17)', async () => {
    const { record, dayOf } = await setup()
    const uncounted = record({ amountCents: LIMIT + 1, cash: null, buyerDocument: '123' })
    await expect(uncounted).rejects.toMatchObject({ code: 'CASH_COUNT_REQUIRED', details: { limitCents: LIMIT } })
    expect(await record({ amountCents: LIMIT, cash: null, buyerDocument: '123' })).toEqual({
      flagged: false,
      reportId: null,
      limitCents: LIMIT,
      counted: false,
    })
    // Ten centavos more in small coins the same day goes over: the uncounted sale counted whole.
    const next = await record({
      refId: 'v_2',
      amountCents: 10,
      cash: counted(10),
      buyerDocument: '123',
    })
    expect(next.flagged).toBe(true)
    expect(await dayOf('123')).toHaveLength(2)
  })

  it('asks for the buyer document when small notes go over the limit, and opens a record for the officer (GEN-17)', async () => {
    const { db, record } = await setup()
    const cash = counted(LIMIT + 500, LIMIT + 500)
    const anonymous = record({ amountCents: LIMIT + 500, cash })
    await expect(anonymous).rejects.toMatchObject({ code: 'BUYER_ID_REQUIRED', details: { field: 'buyerDocument' } })
    expect(await amlReportRows(db)).toEqual([])
    // The same amount mostly in large notes needs no document and opens no record.
    expect(
      (await record({ refId: 'v_2', amountCents: LIMIT + 5_000, cash: counted(LIMIT + 5_000, LIMIT) })).flagged,
    ).toBe(false)
    const named = await record({ refId: 'v_3', amountCents: LIMIT + 500, cash, buyerDocument: '4455667 LP' })
    // One intake per sale: the same sale recorded twice is refused by the database.
    expect(await code(record({ refId: 'v_3', amountCents: 100, cash: counted(100) }))).toBe('CONFLICT')
    expect(named).toMatchObject({ flagged: true, limitCents: LIMIT, counted: true })
    const reports = await amlReportRows(db)
    expect(reports).toHaveLength(1)
    expect(reports[0]).toMatchObject({ id: named.reportId, buyer_document: '4455667 LP' })
  })

  it("adds up the buyer's UTC day in the hall by identity key, whatever the spelling (GEN-17, CFG-3)", async () => {
    const { record } = await setup()
    const half = { amountCents: 60_000, cash: counted(60_000, 60_000) }
    expect((await record({ ...half, refId: 'v_1', buyerDocument: '4455667-LP' })).flagged).toBe(false)
    // Another hall's intake and the next UTC day are not this hall's day.
    expect((await record({ ...half, refId: 'v_2', hallId: 'hall_b', buyerDocument: '4455667 lp' })).flagged).toBe(false)
    expect(
      (await record({ ...half, refId: 'v_3', at: '2026-11-22T00:00:00.000Z', buyerDocument: '4455667lp' })).flagged,
    ).toBe(false)
    // The same person in the same hall that day, typed another way, as a counter sale: 120 000 > 100 000.
    const second = await record({ ...half, refId: 's_4', source: 'counter_sale', buyerDocument: ' 4455667 LP ' })
    expect(second.flagged).toBe(true)
  })
})
