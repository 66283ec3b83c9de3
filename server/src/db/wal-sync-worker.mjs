// The WAL sync thread of one SQLite file (db/wal-sync.ts): fsyncs the file `wal` each time it is asked, on this
// thread, and answers with the request's id. Plain JavaScript so that the thread starts without the TypeScript loader.
// The file is opened for each sync: the WAL may be replaced while the server runs (its last connection closed).
//
// workerData: { wal, begun (SharedArrayBuffer: [0] the id of the last sync begun, written before the file is opened,
// so that the server knows which commits a sync asked for may still cover without waiting for its answer) }.
// Messages in: { id }; out: { id } or { id, error: { message, code } }.
import { closeSync, fsyncSync, openSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'

const { wal } = workerData
const begun = new Int32Array(workerData.begun)

parentPort.on('message', ({ id }) => {
  Atomics.store(begun, 0, id)
  let fd = -1
  try {
    try {
      fd = openSync(wal, 'r+')
    } catch (err) {
      // No WAL file: nothing was written since the last checkpoint removed it, so nothing waits for the disk.
      if (err.code !== 'ENOENT') throw err
    }
    if (fd >= 0) fsyncSync(fd)
    parentPort.postMessage({ id })
  } catch (err) {
    parentPort.postMessage({ id, error: { message: String(err?.message ?? err), code: err?.code } })
  } finally {
    if (fd >= 0) closeSync(fd)
  }
})
