import { generateKeyPairSync } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import type { Database } from '../db/database.ts'
import { createCheckpointer } from './checkpoint-service.ts'
import { verifyCheckpoints } from './checkpoints.ts'
import { appendJournal, readJournal } from './journal.ts'
import { fromPrivateKey } from './keys.ts'

const dbs: Database[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
})

describe('journal checkpointer (DESIGN.md "Journal", issue 15 point 5)', () => {
  it('signs the head on a timer, adds nothing while the journal is idle, and stops on stop()', async () => {
    const db = await openTestDatabase()
    dbs.push(db)
    const keys = fromPrivateKey(generateKeyPairSync('ed25519').privateKey)
    let t = Date.parse('2026-02-01T20:00:00Z')
    const cp = createCheckpointer({ db, keys, clock: { now: () => new Date((t += 1000)) }, intervalMs: 20 })
    const add = (n: number) =>
      db.transaction(async (tx) => {
        for (let i = 0; i < n; i++)
          await appendJournal(tx, {
            at: new Date((t += 1000)).toISOString(),
            type: 'test.event',
            scope: '',
            payload: { i },
          })
      })
    expect(await cp.checkpoint('timer')).toBeNull()
    await add(3)
    cp.start()
    await new Promise((r) => setTimeout(r, 120))
    // One checkpoint of record 3; its own journal record (4) is not signed again while nothing else happens.
    expect((await cp.list()).map((c) => [c.seq, c.reason])).toEqual([[3, 'timer']])
    await add(2)
    await new Promise((r) => setTimeout(r, 120))
    expect((await cp.list()).map((c) => c.seq)).toEqual([3, 6])
    // A game end signs at once, even right after a timer checkpoint.
    expect((await cp.checkpoint('game-ended'))?.seq).toBe(7)
    await cp.stop()
    await add(1)
    await new Promise((r) => setTimeout(r, 80))
    expect((await cp.list()).map((c) => c.seq)).toEqual([3, 6, 7])
    const records = []
    for await (const r of readJournal(db)) records.push(r)
    expect(verifyCheckpoints(records, await cp.list(), keys.publicKey)).toMatchObject({ ok: true, matched: 3 })
  })
})
