import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import type { Database } from '../db/database.ts'
import { canonicalJson, chainOfScope, hashRecord, verifyChain } from './journal-chain.ts'
import { appendJournalBatch, hashRecordText } from './journal-batch.ts'
import { appendJournal, readJournal } from './journal.ts'
import { slipSoldPayloadText } from '../lotto/sale-writer.ts'

describe('batched journal appends (DESIGN.md "Journal")', () => {
  let db: Database
  beforeAll(async () => {
    db = await openTestDatabase()
  })
  afterAll(async () => {
    await db?.close()
  })

  it('hashes a record from its payload text exactly as hashRecord does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), fc.string({ minLength: 1 }), fc.nat(), (payload, scope, type, seq) => {
        const v = JSON.parse(JSON.stringify(payload)) as unknown
        const r = {
          seq: seq + 1,
          chain: chainOfScope(scope),
          chainSeq: seq + 2,
          at: '2025-03-01T20:00:00.000Z',
          type,
          scope,
          prevHash: 'a'.repeat(64),
        }
        expect(hashRecordText(r, canonicalJson(v))).toBe(hashRecord({ ...r, payload: v }))
      }),
    )
  })

  it('writes the canonical JSON of a slip sale by hand, identical to canonicalJson', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.string(),
        fc.string(),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (receipt, boards, quickPicks, channel, a, b, amountCents) => {
          const p = { receipt, drawNos: [a, b] as [number, number], boards, quickPicks, amountCents, channel }
          expect(slipSoldPayloadText(p)).toBe(canonicalJson(p))
        },
      ),
    )
  })

  it('continues the chain of single appends, and the whole chain verifies', async () => {
    await db.transaction((tx) =>
      appendJournal(tx, { at: '2025-03-01T20:00:00.000Z', type: 'test.one', scope: 'x', payload: { a: 1 } }),
    )
    await db.transaction((tx) =>
      appendJournalBatch(tx, [
        { at: '2025-03-01T20:00:01.000Z', type: 'test.batch', scope: 'x', payload: { b: [1, 2], a: 'é' } },
        {
          at: '2025-03-01T20:00:01.000Z',
          type: 'test.batch',
          scope: 'x',
          payload: { receipt: 'R', drawNos: [1, 1], boards: '1-2', quickPicks: '0', amountCents: 5, channel: 'c' },
          payloadText: slipSoldPayloadText({
            receipt: 'R',
            drawNos: [1, 1],
            boards: '1-2',
            quickPicks: '0',
            amountCents: 5,
            channel: 'c',
          }),
        },
      ]),
    )
    await db.transaction((tx) =>
      appendJournal(tx, { at: '2025-03-01T20:00:02.000Z', type: 'test.two', scope: 'x', payload: null }),
    )
    const records = []
    for await (const r of readJournal(db)) records.push(r)
    expect(records.map((r) => r.type)).toEqual(['test.one', 'test.batch', 'test.batch', 'test.two'])
    expect(records[1].payload).toEqual({ a: 'é', b: [1, 2] })
    expect(verifyChain(records)).toMatchObject({ ok: true, count: 4 })
  })
})
