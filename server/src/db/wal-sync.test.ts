import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runtime } from '../shared/runtime.ts'
import type { Database } from './database.ts'
import { openSqlite } from './sqlite-runtime.ts'

/**
 * Issue 23 point 5: a paid sale is answered after its batch's WAL sync (durable()). That sync ran on libuv's thread
 * pool, behind the Ed25519 jobs of every kiosk purchase being admitted meanwhile; it runs on a thread of its own.
 */
describe('durable() of a SQLite file', () => {
  let dir: string
  let db: Database
  const release: Array<() => void> = []

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bolillo-walsync-'))
    db = await openSqlite(join(dir, 'w.sqlite'), { synchronous: 'FULL' })
    await db.run('CREATE TABLE sold (id INTEGER PRIMARY KEY)')
  })
  afterEach(async () => {
    for (const r of release.splice(0)) r()
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('commits a plain transaction without an fsync on the event loop, answering after the WAL sync thread', async () => {
    // The sync thread started (the first commit), so that what follows measures a commit, not the thread's start.
    await db.transaction((tx) => tx.run('INSERT INTO sold (id) VALUES (0)'))
    const order: string[] = []
    const committed = db
      .transaction((tx) => tx.run('INSERT INTO sold (id) VALUES (1)'))
      .then(() => order.push('transaction answered'))
    // Committed with an fsync on the loop, it would be answered within this turn's microtasks, before the next turn.
    setImmediate(() => order.push('next turn of the loop'))
    await committed
    expect(order).toEqual(['next turn of the loop', 'transaction answered'])
    expect(await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM sold')).toEqual({ n: 2 })
  })

  it('commits a priority transaction (a ball) at FULL, its fsync in the COMMIT: answered within the turn, no thread sync', async () => {
    await db.transaction((tx) => tx.run('INSERT INTO sold (id) VALUES (0)'))
    const syncs = (db as Database & { walSyncs?(): number }).walSyncs!
    const before = syncs()
    const order: string[] = []
    let level: number | undefined
    const committed = db
      .transaction(
        async (tx) => {
          level = (await tx.get<{ synchronous: number }>('PRAGMA synchronous'))?.synchronous
          await tx.run('INSERT INTO sold (id) VALUES (1)')
        },
        { priority: true },
      )
      .then(() => order.push('transaction answered'))
    setImmediate(() => order.push('next turn of the loop'))
    await committed
    await new Promise((r) => setImmediate(r))
    // 2: FULL, so SQLite syncs the WAL inside the COMMIT (with it every commit before it); 1 would be NORMAL.
    expect(level).toBe(2)
    expect(order).toEqual(['transaction answered', 'next turn of the loop'])
    expect(syncs()).toBe(before)
    // A plain transaction after it still leaves its sync to the thread.
    await db.transaction((tx) => tx.run('INSERT INTO sold (id) VALUES (2)'))
    expect(syncs()).not.toBe(before)
    expect(await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM sold')).toEqual({ n: 3 })
  })

  // A FIFO opened for reading holds a pool thread until someone opens it for writing: every thread of the pool is
  // held that way (no CPU spent), and a file status asked afterwards waits in the pool's queue behind them.
  it.skipIf(process.platform !== 'linux' || runtime === 'bun')(
    'makes a deferred commit durable while every thread of the pool is busy, before a pool job queued earlier',
    async () => {
      // The server's first sale: the sync thread has started (loading its module reads files through the pool).
      await db.transaction((tx) => tx.run('INSERT INTO sold (id) VALUES (0)'), { deferSync: true })
      await db.durable!()
      const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4)
      const fifos = Array.from({ length: threads }, (_, i) => join(dir, `held-${i}`))
      execFileSync('mkfifo', fifos)
      const held: Array<Promise<FileHandle>> = fifos.map((f) => open(f, 'r'))
      let released = false
      const releaseAll = () => {
        if (released) return
        released = true
        for (const f of fifos) closeSync(openSync(f, constants.O_RDWR | constants.O_NONBLOCK))
      }
      release.push(releaseAll)

      const order: string[] = []
      const poolJob = stat(join(dir, 'w.sqlite')).then(() => order.push('pool job'))
      await db.transaction((tx) => tx.run('INSERT INTO sold (id) VALUES (1)'), { deferSync: true })
      // Had the sync gone to the pool it would wait there (behind the pool job) until the FIFOs are released.
      const durable = db.durable!().then(() => order.push('durable'))
      // Not a time limit on the sync: should it be stuck in the pool, the pool is let go after a while so that the
      // order below (pool job first) says so instead of a hung test.
      let guard: ReturnType<typeof setTimeout> | undefined
      await Promise.race([durable, poolJob, new Promise((r) => (guard = setTimeout(r, 10_000)))])
      clearTimeout(guard)
      releaseAll()
      await Promise.all([durable, poolJob])
      for (const h of await Promise.all(held)) await h.close()
      expect(order).toEqual(['durable', 'pool job'])
    },
  )
})

describe('the WAL sync thread', () => {
  /** Blocks this thread (no turn of the event loop) until `done()` or 5 s; true if done. */
  function spinUntil(done: () => boolean): boolean {
    const until = Date.now() + 5000
    while (Date.now() < until) if (done()) return true
    return false
  }

  it('begins the next sync without waiting for the running one to be answered on the event loop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolillo-walsync-thread-'))
    const { startWalSync } = await import('./wal-sync.ts')
    const wal = join(dir, 'w.sqlite-wal')
    closeSync(openSync(wal, 'w'))
    const sync = startWalSync(wal)
    try {
      // The thread has started and answered once.
      await sync.sync()
      const first = sync.begun()
      expect(first).toBeGreaterThan(0)
      const a = sync.sync()
      // Asked for and not begun yet: a second caller shares it (it begins after both calls).
      if (sync.begun() === first) expect(sync.sync()).toBe(a)
      // The loop is held: the first sync's answer cannot be read. A commit made now needs a sync begun after it, and
      // it must begin anyway (before, it was asked for only once the running sync's answer reached the loop: a busy
      // server's commits waited two turns of its loop besides the disk).
      expect(spinUntil(() => sync.begun() !== first)).toBe(true)
      const b = sync.sync()
      expect(b).not.toBe(a)
      expect(spinUntil(() => ((sync.begun() - first) | 0) >= 2)).toBe(true)
      await Promise.all([a, b])
    } finally {
      await sync.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
