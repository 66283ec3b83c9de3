/**
 * The SQLite writer thread of the lotto sale path. It owns a second connection to the same database file (WAL,
 * the configured `synchronous` level, foreign keys on) and commits one batch of slips per transaction
 * (`writeSlipBatch`). Moving the commit here keeps its fsync (several milliseconds on real disks with
 * synchronous = FULL) and the Ed25519 signatures off the HTTP thread, which meanwhile parses the next requests:
 * group commit with a pipeline. Writers on the two connections are serialised by SQLite's own write lock
 * (BEGIN IMMEDIATE), and each reads the journal's last record inside its transaction, so the hash chain stays
 * whole.
 *
 * Started through worker-boot.mjs (TypeScript loader); messages: `{ type: 'batch', id, at, slips }` answered by
 * `{ id, results }` or `{ id, error }`; `{ type: 'reserve', id, gameCode, count }` (a block of receipt numbers,
 * receipts.ts) answered by `{ id, first }`; and `{ type: 'close', id }`.
 */
import { openSqliteConnection, sqlOver } from '../db/sqlite-runtime.ts'
import type { KeyObject } from 'node:crypto'
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads'
import { DomainError } from '../shared/errors.ts'
import { encodeTicketCode, TicketKind } from '../shared/ticket-code.ts'
import { writeSlipBatch, type SlipToWrite } from './sale-writer.ts'
import { runWithRowSeals } from '../shared/row-seals.ts'
import { sealLeftovers } from '../shared/row-seal-database.ts'
import { reserveReceipts } from './store.ts'

const data = workerData as {
  file: string
  synchronous: 'FULL' | 'NORMAL'
  privateKey: KeyObject
  gate: Int32Array | null
  /** Issue 24 point 1: the row-seal key (row-seals.ts); the slips of a batch are sealed in its transaction. */
  rowSealKey: Uint8Array | null
}
const rowSealKey = data.rowSealKey ? Buffer.from(data.rowSealKey) : null
const db = await openSqliteConnection(data.file, data.synchronous)
const tx = sqlOver(db)
const sign = (receipt: string) => encodeTicketCode({ kind: TicketKind.lotto, id: receipt }, data.privateKey)

/** Batches travel as JSON text: one string is far cheaper to pass between threads than a structured clone of objects. */
type Message =
  | { type: 'batch'; id: number; at: string; slips: string }
  | { type: 'reserve'; id: number; gameCode: string; count: number }
  | { type: 'close'; id: number }

// Group commit on this side too: every batch that arrived while the previous transaction was committing is
// taken off the port at once and written in ONE transaction, then each batch gets its own answer.
parentPort!.on('message', (first: Message) => {
  const messages: Message[] = [first]
  for (;;) {
    const next = receiveMessageOnPort(parentPort!)
    if (!next) break
    messages.push(next.message as Message)
  }
  void handle(messages)
})

/** Waits while the server's main connection has writes queued or running (Database.writerGate, db/sqlite-shared.ts). */
function giveWay(): void {
  const gate = data.gate
  if (!gate) return
  for (let v = Atomics.load(gate, 0); v > 0; v = Atomics.load(gate, 0)) Atomics.wait(gate, 0, v, 5)
}

async function handle(messages: Message[]): Promise<void> {
  const batches = messages.filter((m): m is Extract<Message, { type: 'batch' }> => m.type === 'batch')
  if (batches.length > 0) {
    try {
      giveWay()
      db.exec('BEGIN IMMEDIATE')
      const results: string[] = []
      for (const b of batches) {
        const write = () => writeSlipBatch(tx, JSON.parse(b.slips) as SlipToWrite[], b.at, sign)
        const now = () => new Date(b.at)
        const written = rowSealKey
          ? await runWithRowSeals(rowSealKey, now, async () => {
              const r = await write()
              await sealLeftovers(tx, now)
              return r
            })
          : await write()
        results.push(JSON.stringify(written))
      }
      db.exec('COMMIT')
      batches.forEach((b, i) => parentPort!.postMessage({ id: b.id, results: results[i] }))
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK')
      const e = err as { message?: string }
      for (const b of batches)
        parentPort!.postMessage({
          id: b.id,
          error: { code: err instanceof DomainError ? err.code : 'INTERNAL', message: e.message ?? String(err) },
        })
    }
  }
  for (const m of messages) {
    if (m.type === 'reserve') {
      try {
        giveWay()
        db.exec('BEGIN IMMEDIATE')
        const first = await reserveReceipts(tx, m.gameCode, m.count)
        db.exec('COMMIT')
        parentPort!.postMessage({ id: m.id, first })
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK')
        parentPort!.postMessage({ id: m.id, error: { code: 'INTERNAL', message: (err as Error).message } })
      }
    } else if (m.type === 'close') {
      db.close()
      parentPort!.postMessage({ id: m.id, closed: true })
    }
  }
}
