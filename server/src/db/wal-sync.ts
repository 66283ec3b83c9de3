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
  /**
   * An fsync of the WAL file begun after this call. Callers share one: a sync asked for and not yet begun serves every
   * caller until it begins (the thread marks each sync as begun in shared memory, so a caller needs no answer from it
   * to know), and a caller that finds it begun asks for the next, which the thread starts as soon as the running one
   * ends. Before, the next sync was asked for only once the running one's answer had reached the event loop: a commit
   * made during a sync waited for two turns of a busy loop (30 ms and more each under the sales bench) besides the
   * disk, and a ball waited for them too.
   */
  sync(): Promise<void>
  /** The id of the last sync the thread has begun (0: none, or no thread); ids count up from 1. */
  begun(): number
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

/**
 * Syncs on the pool, shared: callers that arrive while one runs (begun perhaps before their commit) share the next,
 * so there are at most two in flight whatever the load.
 */
function poolSyncer(wal: string): () => Promise<void> {
  let running: Promise<void> | null = null
  let next: Promise<void> | null = null
  const start = (): Promise<void> => {
    const p = syncOnPool(wal).finally(() => {
      running = null
    })
    running = p
    return p
  }
  return () => {
    if (!running) return start()
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null
        return start()
      })
    return next
  }
}

export function startWalSync(wal: string): WalSync {
  const pending = new Map<number, { resolve(): void; reject(e: unknown): void }>()
  let nextId = 1
  // [0]: the id of the last sync the thread has begun (written by the thread before it opens the file).
  const begun = new Int32Array(new SharedArrayBuffer(4))
  let last: { id: number; promise: Promise<void> } | null = null
  const onPool = poolSyncer(wal)
  let worker: Worker | null = null
  // The thread died: the syncs it was asked for are made on the pool instead (their commits still wait for the disk).
  const fail = () => {
    worker = null
    last = null
    for (const p of pending.values()) syncOnPool(wal).then(p.resolve, p.reject)
    pending.clear()
  }
  try {
    const w = new Worker(new URL('./wal-sync-worker.mjs', import.meta.url), {
      workerData: { wal, begun: begun.buffer },
    })
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
      if (!w) return onPool()
      // Asked for and not begun (ids compared modulo 2^32, as they wrap): it begins after this call.
      if (last && ((last.id - Atomics.load(begun, 0)) | 0) > 0) return last.promise
      const id = nextId
      nextId = (nextId + 1) | 0 || 1
      const promise = new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject })
      })
      last = { id, promise }
      w.ref()
      w.postMessage({ id })
      return promise
    },
    begun: () => Atomics.load(begun, 0),
    async close() {
      const w = worker
      worker = null
      if (w) await w.terminate()
    },
  }
}
