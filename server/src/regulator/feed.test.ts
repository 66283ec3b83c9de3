import { generateKeyPairSync } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../test/helpers/database.ts'
import type { Database } from '../db/database.ts'
import { appendJournal } from '../shared/journal.ts'
import { fromPrivateKey } from '../shared/keys.ts'
import { batchHash, BATCH_MAX_AGE_MS, BATCH_MAX_RECORDS, createRegulatorFeed } from './feed.ts'

/**
 * Issue 28 point 2: a batch closes at 500 records or 15 minutes after its first record, whichever comes first (the
 * injected clock decides); batches are chained by hash; deriving the same journal twice adds nothing.
 */
describe('regulator feed batches', () => {
  let db: Database
  afterEach(async () => db?.close())

  async function setUp() {
    db = await openTestDatabase()
    let t = Date.parse('2026-01-10T12:00:00Z')
    const clock = { now: () => new Date(t) }
    const keys = fromPrivateKey(generateKeyPairSync('ed25519').privateKey)
    const feed = createRegulatorFeed({ db, keys, clock, defaultZone: 'America/La_Paz', intervalMs: 0 })
    // Significant events of the operator: device enrolments, one control record each.
    const events = async (n: number) =>
      db.transaction(async (tx) => {
        for (let i = 0; i < n; i++)
          await appendJournal(tx, {
            at: clock.now().toISOString(),
            type: 'device.enrolled',
            scope: '',
            payload: { deviceId: `d${i}`, kind: 'kiosk', name: `K${i}` },
          })
      })
    return {
      feed,
      events,
      advance: (ms: number) => {
        t += ms
      },
      keys,
    }
  }
  const batches = (feed: ReturnType<typeof createRegulatorFeed>) =>
    feed.batchesSince(['operator'], '1970-01-01T00:00:00Z', 100)

  it('closes a batch at 500 records at once, and the rest only 15 minutes after its first record', async () => {
    const { feed, events, advance } = await setUp()
    await events(1200)
    await feed.tick()
    expect((await batches(feed)).map((b) => b.header.records)).toEqual([BATCH_MAX_RECORDS, BATCH_MAX_RECORDS])
    advance(BATCH_MAX_AGE_MS - 1000)
    await feed.tick()
    expect(await batches(feed)).toHaveLength(2)
    advance(1000)
    await feed.tick()
    const all = await batches(feed)
    expect(all.map((b) => b.header.records)).toEqual([500, 500, 200])
    expect(all.map((b) => b.header.batchId)).toEqual(['operator-b1', 'operator-b2', 'operator-b3'])
    expect(all[2].header.firstRecord).toBe('operator-r1001')
    // Each batch names the hash of the one before, and its own hash is its header's.
    expect(all[1].header.prevHash).toBe(all[0].hash)
    expect(all[2].header.prevHash).toBe(all[1].hash)
    for (const b of all) expect(batchHash(b.header)).toBe(b.hash)
    expect((await feed.state()).verified).toBe(true)
  })

  it('a record waits no longer than 15 minutes, and nothing is derived twice', async () => {
    const { feed, events, advance, keys } = await setUp()
    await events(3)
    await feed.tick()
    expect(await batches(feed)).toHaveLength(0)
    advance(BATCH_MAX_AGE_MS)
    await feed.tick()
    expect((await batches(feed)).map((b) => b.header.records)).toEqual([3])
    // A restarted feed reads the journal from its start again: the records it finds are already sent.
    const again = createRegulatorFeed({
      db,
      keys,
      clock: { now: () => new Date(Date.parse('2026-01-10T13:00:00Z')) },
      defaultZone: 'America/La_Paz',
      intervalMs: 0,
    })
    await again.tick({ force: true })
    expect((await batches(again)).map((b) => b.header.records)).toEqual([3])
  })
})
