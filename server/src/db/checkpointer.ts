/**
 * Checkpoints a SQLite file's WAL off the event loop (issue 23 point 5). SQLite's automatic checkpoint runs inside
 * the COMMIT that takes the WAL past 1,000 pages, on the connection that commits: on the server's main connection
 * that is the event loop, and the checkpoint copies pages and fsyncs the database file (tens of milliseconds that every
 * sale and ball waiting meanwhile pays). The main connection turns it off (`wal_autocheckpoint = 0`) and this thread
 * (checkpoint-worker.mjs, its own connection) checkpoints PASSIVE instead: it never blocks a reader or a writer, and
 * copies only committed frames after syncing the WAL, so what survives a crash is what survived before.
 */
import { Worker } from 'node:worker_threads'

export interface Checkpointer {
  /** Checkpoints run so far (PASSIVE ones; the last TRUNCATE at stop is not counted). */
  count(): number
  /** Raises the stop flag; resolves once the thread has run its last checkpoint, closed its connection and exited. */
  stop(): Promise<void>
}

export interface CheckpointerOptions {
  /** WAL frames not yet copied into the database that start a checkpoint at once. */
  thresholdPages?: number
  /** A WAL holding any uncopied frame is checkpointed this long after the last checkpoint. */
  intervalMs?: number
  /** How often the thread looks at the WAL index. */
  pollMs?: number
}

/**
 * Starts the checkpoint thread of `file` (which must exist, in WAL mode). `onFailure` is called if the thread cannot
 * start or dies: the caller turns automatic checkpoints back on so that the WAL stays bounded.
 */
export function startCheckpointer(
  file: string,
  onFailure: (err: unknown) => void,
  options: CheckpointerOptions = {},
): Checkpointer {
  const control = new Int32Array(new SharedArrayBuffer(8))
  const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
    workerData: {
      file,
      control,
      thresholdPages: options.thresholdPages ?? 1000,
      intervalMs: options.intervalMs ?? 1000,
      pollMs: options.pollMs ?? 50,
    },
  })
  // An idle database must not keep the process alive; close() stops the thread.
  worker.unref()
  let failed = false
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => resolve())
  })
  worker.on('error', (err) => {
    if (failed) return
    failed = true
    onFailure(err)
  })
  return {
    count: () => Atomics.load(control, 1),
    async stop() {
      // Referenced while it finishes: the process waits for its last checkpoint and the closing of its connection.
      worker.ref()
      Atomics.store(control, 0, 1)
      Atomics.notify(control, 0)
      await exited
    },
  }
}
