/**
 * Group commit for lotto sales. Every slip still gets its own receipt number, signature, row and journal record,
 * and its HTTP answer is sent only after the transaction holding it has committed (durable with SQLite
 * synchronous = FULL); but the slips that arrive while one batch is committing are written together by the
 * next one. Under load a batch holds the few milliseconds' worth of arrivals; when idle a slip is written alone
 * at once (no timer delays it).
 *
 * Two writers implement the same contract:
 * - the SQLite writer thread (sale-worker.ts), for a file database: the fsync and the signatures leave the
 *   HTTP thread;
 * - an inline writer on the storage port (`db.transaction`), for PostgreSQL (whose commit does not block Node)
 *   and for databases opened elsewhere.
 */
import type { KeyObject } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import type { Database } from '../db/database.ts'
import { DomainError, type ErrorCode } from '../shared/errors.ts'
import { encodeTicketCode, TicketKind } from '../shared/ticket-code.ts'
import { writeSlipBatch, type SlipToWrite, type SlipWriteResult } from './sale-writer.ts'
import { currentActor } from '../shared/request-context.ts'

const LOTTO_SCOPES = { scopes: ['lotto'] } as const

export interface SlipWriter {
  readonly kind: 'worker' | 'inline'
  /** Batches worth sending before the previous ones are answered (the writer thread merges what queues up). */
  readonly maxInFlight: number
  write(slips: SlipToWrite[], at: string): Promise<SlipWriteResult[]>
  /** Writer thread only: takes `count` receipt numbers from the game's counter in a transaction of its own. */
  reserve?(gameCode: string, count: number): Promise<number>
  close(): Promise<void>
}

/**
 * Writes each batch in one transaction of the storage port. Issue 23 point 5: a batch writes the draws' counters,
 * slips and records of the `lotto` chain alone (no hall's row, no money), so it locks `lotto` alone: a hall's open
 * transaction does not hold the online sales up.
 */
export function createInlineSlipWriter(db: Database, privateKey: KeyObject): SlipWriter {
  const sign = (receipt: string) => encodeTicketCode({ kind: TicketKind.lotto, id: receipt }, privateKey)
  return {
    kind: 'inline',
    maxInFlight: 1,
    write: (slips, at) => db.transaction((tx) => writeSlipBatch(tx, slips, at, sign), LOTTO_SCOPES),
    async close() {},
  }
}

/** Writes each batch on a writer thread with its own connection to the SQLite file. Started on first use. */
export function createWorkerSlipWriter(options: {
  file: string
  synchronous: 'FULL' | 'NORMAL'
  privateKey: KeyObject
  gate?: Int32Array
  rowSealKey?: Buffer
}): SlipWriter {
  let worker: Worker | null = null
  let nextId = 1
  const pending = new Map<number, { resolve: (r: SlipWriteResult[]) => void; reject: (e: Error) => void }>()
  const start = () => {
    const w = new Worker(new URL('../shared/worker-boot.mjs', import.meta.url), {
      workerData: {
        entry: new URL('./sale-worker.ts', import.meta.url).href,
        file: options.file,
        synchronous: options.synchronous,
        privateKey: options.privateKey,
        gate: options.gate ?? null,
        rowSealKey: options.rowSealKey ?? null,
      },
    })
    w.on(
      'message',
      (m: {
        id: number
        results?: string
        first?: number
        error?: { code: string; message: string }
        closed?: boolean
      }) => {
        const p = pending.get(m.id)
        if (!p) return
        pending.delete(m.id)
        if (pending.size === 0) w.unref()
        if (m.results) p.resolve(JSON.parse(m.results) as SlipWriteResult[])
        else if (m.first !== undefined) (p.resolve as unknown as (n: number) => void)(m.first)
        else if (m.error)
          p.reject(
            m.error.code === 'INTERNAL'
              ? new Error(m.error.message)
              : new DomainError(m.error.code as ErrorCode, m.error.message),
          )
        else p.resolve([])
      },
    )
    w.on('error', (err) => {
      for (const p of pending.values()) p.reject(err)
      pending.clear()
      worker = null
    })
    w.on('exit', () => {
      worker = null
    })
    return w
  }
  const call = <T>(msg: Record<string, unknown>) =>
    new Promise<T>((resolve, reject) => {
      worker ??= start()
      const id = nextId++
      // A write in flight keeps the process alive; an idle thread must not (the HTTP server does that).
      if (pending.size === 0) worker.ref()
      pending.set(id, { resolve: resolve as (r: SlipWriteResult[]) => void, reject })
      worker.postMessage({ ...msg, id })
    })
  return {
    kind: 'worker',
    maxInFlight: 64,
    write: (slips, at) => call<SlipWriteResult[]>({ type: 'batch', at, slips: JSON.stringify(slips) }),
    reserve: (gameCode, count) => call<number>({ type: 'reserve', gameCode, count }),
    async close() {
      if (!worker) return
      const w = worker
      await call({ type: 'close' }).catch(() => undefined)
      await w.terminate()
      worker = null
    },
  }
}

/**
 * The group-commit queue in front of a writer: at most one batch in flight, at most `maxBatch` slips in it.
 * `submit` resolves with the slip's receipt once its batch committed, or rejects with the slip's own refusal.
 */
export function createSlipQueue(
  writer: SlipWriter,
  options: { now: () => string; maxBatch?: number; maxInFlight?: number },
) {
  const maxBatch = options.maxBatch ?? 256
  // The writer thread takes every batch queued on its port into its next transaction, so batches are handed over
  // as they form (one per event-loop turn) and never wait here for the previous commit; the inline writer gets
  // one batch at a time, and what arrives meanwhile forms the next.
  const maxInFlight = options.maxInFlight ?? writer.maxInFlight
  const queue: Array<{
    slip: SlipToWrite
    resolve: (r: Extract<SlipWriteResult, { ok: true }> & { soldAt: string }) => void
    reject: (e: Error) => void
  }> = []
  let inFlight = 0
  let scheduled = false
  let batches = 0
  let written = 0

  const schedule = () => {
    if (inFlight >= maxInFlight || scheduled || queue.length === 0) return
    scheduled = true
    // setImmediate: every request already read from the sockets in this turn joins the batch.
    setImmediate(flush)
  }

  async function flush() {
    scheduled = false
    if (inFlight >= maxInFlight || queue.length === 0) return
    inFlight++
    const batch = queue.splice(0, maxBatch)
    const at = options.now()
    try {
      const results = await writer.write(
        batch.map((b) => b.slip),
        at,
      )
      batches++
      batch.forEach((b, i) => {
        const r = results[i]
        if (r.ok) {
          written++
          b.resolve({ ...r, soldAt: at })
        } else b.reject(new DomainError(r.code, r.message))
      })
    } catch (err) {
      for (const b of batch) b.reject(err as Error)
    } finally {
      inFlight--
      schedule()
    }
  }

  return {
    submit(slip: SlipToWrite) {
      // Issue 14 point 2: the seller is taken here, on the request's thread, and travels with the slip.
      const actor = slip.actor ?? currentActor()
      return new Promise<Extract<SlipWriteResult, { ok: true }> & { soldAt: string }>((resolve, reject) => {
        queue.push({ slip: actor ? { ...slip, actor } : slip, resolve, reject })
        schedule()
      })
    },
    /** Batches committed and slips written so far (the bench reports the mean batch size). */
    stats: () => ({ batches, written, queued: queue.length }),
    /** Waits until nothing is queued or in flight. */
    async drain() {
      while (inFlight > 0 || queue.length > 0 || scheduled) await new Promise((r) => setTimeout(r, 2))
    },
  }
}
