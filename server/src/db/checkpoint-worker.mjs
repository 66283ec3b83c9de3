// The WAL checkpointer of one SQLite file (db/checkpointer.ts): a thread with its own connection that runs
// `PRAGMA wal_checkpoint(PASSIVE)` whenever the WAL holds `thresholdPages` frames not yet copied into the database,
// or `intervalMs` after the last checkpoint when it holds any, and `wal_checkpoint(TRUNCATE)` when told to stop. The
// server's main connection runs with `wal_autocheckpoint = 0`: the checkpoint (copying pages and fsyncing the
// database file) no longer runs inside a COMMIT on the event loop. Plain JavaScript so that the thread starts without
// the TypeScript loader (one per open database); under Bun it uses `bun:sqlite`, under Node better-sqlite3.
//
// workerData: { file, control (Int32Array over a SharedArrayBuffer: [0] stop flag, [1] checkpoints done),
// thresholdPages, intervalMs, pollMs }.
import { closeSync, openSync, readSync } from 'node:fs'
import { endianness } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'

const { file, control, thresholdPages, intervalMs, pollMs } = workerData
const STOP = 0
const DONE = 1

const db = process.versions.bun
  ? new (await import('bun:sqlite')).Database(file, { create: false, readwrite: true })
  : new (await import('better-sqlite3')).default(file, { fileMustExist: true })
// FULL: a checkpoint syncs the WAL before copying it and the database file after, as the automatic one did.
db.exec('PRAGMA synchronous = FULL')
db.exec('PRAGMA busy_timeout = 1000')
db.exec('PRAGMA wal_autocheckpoint = 0')
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)')
const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)')

// Frames in the WAL not yet backfilled, read from the WAL index (the -shm file, https://www.sqlite.org/walformat.html:
// mxFrame at byte 16 of the header, nBackfill at byte 96, native byte order). An unlocked read: it only decides when
// to checkpoint, never what. null when the index cannot be read (then the timer alone decides).
const little = endianness() === 'LE'
const header = Buffer.alloc(100)
let shm = -1
function pendingFrames() {
  try {
    if (shm < 0) shm = openSync(`${file}-shm`, 'r')
    if (readSync(shm, header, 0, 100, 0) < 100) return null
    const mxFrame = little ? header.readUInt32LE(16) : header.readUInt32BE(16)
    const backfilled = little ? header.readUInt32LE(96) : header.readUInt32BE(96)
    return mxFrame - backfilled
  } catch {
    return null
  }
}

let last = performance.now()
while (Atomics.load(control, STOP) === 0) {
  // Sleeps until the next poll, or at once when close() raises the stop flag.
  Atomics.wait(control, STOP, 0, pollMs)
  if (Atomics.load(control, STOP) !== 0) break
  const frames = pendingFrames()
  const due = performance.now() - last >= intervalMs
  if ((frames !== null && frames >= thresholdPages) || (due && (frames === null || frames > 0))) {
    try {
      passive.get()
      Atomics.add(control, DONE, 1)
    } catch {
      // A failed checkpoint loses nothing (the WAL keeps every commit); the next one retries.
    }
    last = performance.now()
  }
}
try {
  truncate.get()
} catch {
  // Busy (another connection still reading or writing): the last connection to close checkpoints the rest.
}
if (shm >= 0) closeSync(shm)
passive.finalize?.()
truncate.finalize?.()
db.close()
parentPort?.postMessage('closed')
