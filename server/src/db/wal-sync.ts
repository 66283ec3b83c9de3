/**
 * The fsync behind `Database.durable()` on SQLite (issue 23 point 5), on a thread of its own (wal-sync-worker.mjs).
 * It ran on libuv's thread pool (open, fsync, close: three jobs), which is also where each kiosk purchase verifies its
 * voucher and signs its cards ahead: under load every sync queued behind a hundred Ed25519 jobs, and every paid sale,
 * answered only after its batch's sync, waited for them (tens of milliseconds on the bench, most of a sync's time).
 * Should the thread fail to start or die, syncs go back to the thread pool: slower under load, never skipped.
 */
import { open } from 'node:fs/promises'
import { Worker } from 'node:worker_threads'

export interface WalSync {
  /** One fsync of the WAL file, begun after this call. */
  sync(): Promise<void>
  close(): Promise<void>
}

/** The same sync on libuv's thread pool (where the thread cannot run). */
async function syncOnPool(wal: string): Promise<void> {
  const handle = await open(wal, 'r+').catch((err: NodeJS.ErrnoException) => {
    // No WAL file: nothing was written since the last checkpoint removed it, so nothing waits for the disk.
    if (err.code === 'ENOENT') return null
    throw err
  })
  if (!handle) return
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

export function startWalSync(wal: string): WalSync {
  const pending = new Map<number, { resolve(): void; reject(e: unknown): void }>()
  let nextId = 1
  let worker: Worker | null = null
  // The thread died: the syncs it was asked for are made on the pool instead (their commits still wait for the disk).
  const fail = () => {
    worker = null
    for (const p of pending.values()) syncOnPool(wal).then(p.resolve, p.reject)
    pending.clear()
  }
  try {
    const w = new Worker(new URL('./wal-sync-worker.mjs', import.meta.url), { workerData: { wal } })
    // Only a sync in flight keeps the process alive (ref'd while one is pending, below).
    w.unref()
    w.on('message', (m: { id: number; error?: { message: string; code?: string } }) => {
      const p = pending.get(m.id)
      if (!p) return
      pending.delete(m.id)
      if (pending.size === 0) w.unref()
      if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }))
      else p.resolve()
    })
    w.on('error', fail)
    w.on('exit', fail)
    worker = w
  } catch {
    worker = null
  }
  return {
    sync() {
      const w = worker
      if (!w) return syncOnPool(wal)
      return new Promise<void>((resolve, reject) => {
        const id = nextId++
        pending.set(id, { resolve, reject })
        w.ref()
        w.postMessage({ id })
      })
    },
    async close() {
      const w = worker
      worker = null
      if (w) await w.terminate()
    },
  }
}
