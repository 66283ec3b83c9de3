/**
 * The engine-neutral half of the SQLite storage: connection set-up (pragmas), the statement cache, the mapping of
 * constraint violations to CONFLICT, the writer gate and the transaction queue. The two drivers, better-sqlite3
 * under Node (sqlite.ts) and `bun:sqlite` under Bun (sqlite-bun.ts), only open a file; sqlite-runtime.ts picks one.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DomainError } from '../shared/errors.ts'
import type { Database, Sql, TransactionOptions } from './database.ts'
import { startCheckpointer, type Checkpointer, type CheckpointerOptions } from './checkpointer.ts'
import { startWalSync, type WalSync } from './wal-sync.ts'
import { normaliseScopes, runHolding, savepointName } from './scopes.ts'
import { priorityWaiters } from './priority.ts'

export type Synchronous = 'FULL' | 'NORMAL'

export interface SqliteOptions {
  /** `synchronous` level: FULL makes a committed sale survive power loss in WAL mode (stated in README). */
  synchronous?: Synchronous
  /**
   * The WAL checkpoint thread's settings (db/checkpointer.ts): the main connection never checkpoints on its own, a
   * thread with its own connection does. Defaults: 1,000 pages or 1 s.
   */
  checkpoint?: CheckpointerOptions
}

/** The part of a driver's statement we use; both drivers' statements have it as they are. */
export interface SqliteStatement {
  all(...params: unknown[]): unknown[]
  /** better-sqlite3 answers `undefined` when there is no row, bun:sqlite `null`. */
  get(...params: unknown[]): unknown
  run(...params: unknown[]): { changes: number }
}

/** The part of a driver's connection we use; both drivers' connection objects have it as they are. */
export interface SqliteConnection {
  exec(sql: string): unknown
  prepare(sql: string): SqliteStatement
  readonly inTransaction: boolean
  close(): void
}

export type SqliteDriver = 'better-sqlite3' | 'bun:sqlite'

/** What an engine module exports: its name and how it opens a file. */
export interface SqliteEngine {
  readonly driver: SqliteDriver
  connect(file: string, options?: { readonly?: boolean }): SqliteConnection
}

/**
 * Every connection's settings, in order: WAL, the `synchronous` level, foreign keys on, a busy timeout, and temporary
 * storage in memory. The last is for the group commit (group-commit.ts): each unit of a batch runs in a savepoint,
 * and SQLite keeps the original of every page a savepoint changes in a statement journal, which past 64 KiB spills
 * to a temporary file: a batch of paid sales wrote some sixty pages a sale to that file (4 KiB writes on the event
 * loop, with the write lock held). In memory the same journal costs a copy. It serves only ROLLBACK TO within the
 * open transaction, never recovery (the WAL does that), so durability is as before; what it holds is bounded by the
 * pages one batch changes.
 */
export function connectionPragmas(synchronous: Synchronous): string[] {
  return [
    'journal_mode = WAL',
    `synchronous = ${synchronous}`,
    'foreign_keys = ON',
    'busy_timeout = 5000',
    'temp_store = MEMORY',
  ]
}

/** Opens one read-write connection to `file` (creating its folder) with {@link connectionPragmas}. */
export function openConnection(
  engine: SqliteEngine,
  file: string,
  synchronous: Synchronous = 'FULL',
): SqliteConnection {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = engine.connect(file)
  for (const pragma of connectionPragmas(synchronous)) db.exec(`PRAGMA ${pragma}`)
  return db
}

const FOR_UPDATE = /\s+FOR\s+UPDATE\s*$/i

/** The Sql port over a connection: statements prepared once, constraint violations as CONFLICT, row locks implied. */
export function sqlOver(db: SqliteConnection): Sql {
  const statements = new Map<string, SqliteStatement>()
  const prepare = (sql: string) => {
    let st = statements.get(sql)
    if (!st) {
      // A row lock (`SELECT ... FOR UPDATE`, PostgreSQL) is implied here: a SQLite transaction is BEGIN IMMEDIATE and
      // holds the database's one write lock, so the clause SQLite does not know is dropped.
      st = db.prepare(sql.replace(FOR_UPDATE, ''))
      statements.set(sql, st)
    }
    return st
  }
  return {
    async all<T>(sql: string, params: readonly unknown[] = []) {
      return guard(() => prepare(sql).all(...params) as T[])
    },
    async get<T>(sql: string, params: readonly unknown[] = []) {
      return guard(() => (prepare(sql).get(...params) ?? undefined) as T | undefined)
    },
    async run(sql: string, params: readonly unknown[] = []) {
      return guard(() => ({ changes: prepare(sql).run(...params).changes }))
    },
  }
}

/** The Database port over a SQLite file, with its WAL threads' counters (checkpoints run, syncs begun) for tests. */
export type SqliteDatabase = Database & { checkpoints?(): number; walSyncs?(): number }

/**
 * The Database port over a connection opened with {@link openConnection}. `file` and `synchronous` (what the
 * connection was opened with) let a transaction with `deferSync` commit at synchronous = NORMAL and be made durable
 * afterwards by `durable()`: an fsync of the WAL file on a thread of its own (wal-sync.ts). In WAL mode NORMAL never corrupts the
 * database (the WAL is synced before each checkpoint), it only leaves the last commits to the next sync; the group
 * commit answers a sale only after that sync, so a FULL server's answered sales are on disk exactly as before, while
 * the event loop goes on parsing and writing the next batch during the fsync instead of sleeping in it.
 */
export function sqliteDatabase(
  db: SqliteConnection,
  options: { file?: string; synchronous?: Synchronous; checkpoint?: CheckpointerOptions } = {},
): SqliteDatabase {
  const direct = sqlOver(db)
  let closed = false
  // Issue 23 point 5: the automatic checkpoint ran inside the COMMIT that passed 1,000 WAL pages, on the event loop,
  // fsyncing the database file (the 50-137 ms commit spikes of paid sales). A thread checkpoints instead; should it
  // fail to start or die, automatic checkpoints come back on so that the WAL stays bounded.
  let checkpointer: Checkpointer | null = null
  if (options.file && options.file !== ':memory:') {
    db.exec('PRAGMA wal_autocheckpoint = 0')
    checkpointer = startCheckpointer(
      options.file,
      () => {
        if (!closed) db.exec('PRAGMA wal_autocheckpoint = 1000')
      },
      options.checkpoint,
    )
  }
  const wal =
    options.file && options.file !== ':memory:' && options.synchronous === 'FULL' ? `${options.file}-wal` : null
  const walSync = wal ? startWalSync(wal) : null
  const durable = walSyncer(walSync)
  // Counts this connection's writes queued or running, so that a writer thread with its own connection to the
  // same file gives way to them (see Database.writerGate) instead of making them wait in SQLite's busy handler.
  const writerGate = new Int32Array(new SharedArrayBuffer(4))
  const gated = <T>(p: () => Promise<T>): Promise<T> => {
    Atomics.add(writerGate, 0, 1)
    return p().finally(() => {
      if (Atomics.sub(writerGate, 0, 1) === 1) Atomics.notify(writerGate, 0)
    })
  }
  // Both drivers are synchronous but our port is async: transactions are queued so that two of them never interleave
  // on the one connection. A priority transaction (a ball, a claim's judgement) is started next after the one in
  // progress, ahead of those queued before it (sales batches); among themselves each kind keeps its order.
  const urgent: Array<() => void> = []
  const queued: Array<() => void> = []
  let busy = false
  const drained: Array<() => void> = []
  const priority = priorityWaiters()
  const pump = () => {
    if (busy) return
    const start = urgent.shift() ?? queued.shift()
    if (!start) {
      for (const d of drained.splice(0)) d()
      return
    }
    busy = true
    start()
  }
  // The turn is awaited in the caller's own async context, so the transaction's body runs in it (its actor, its seals).
  const enqueue = async <T>(run: () => Promise<T>, first: boolean): Promise<T> => {
    await new Promise<void>((turn) => {
      if (first) {
        // It stops counting as waiting when its turn comes.
        const leave = priority.enter()
        urgent.push(() => {
          leave()
          turn()
        })
      } else queued.push(turn)
      pump()
    })
    try {
      return await run()
    } finally {
      busy = false
      pump()
    }
  }
  return {
    engine: 'sqlite',
    ...direct,
    writerGate,
    run: (sql, params) => gated(() => direct.run(sql, params)),
    async transaction<T>(fn: (tx: Sql) => Promise<T>, options?: TransactionOptions): Promise<T> {
      const scopes = normaliseScopes(options?.scopes)
      const savepoint = savepointName(options?.savepoint)
      // Issue 23 point 5: no transaction fsyncs on the event loop. Every commit of a FULL file leaves its sync to the
      // WAL's thread (durable()), and one that did not ask to defer it is answered only after that sync: as durable
      // as before for its caller, while the loop serves the next requests during the disk's few milliseconds (a
      // ball's commit held every sale of the server up for its fsync) and one sync serves every commit before it.
      //
      // A priority transaction (a ball, a claim's judgement) is the exception: it commits at FULL, its fsync inside
      // the COMMIT (some 0.5 ms on this server's disk for the WAL frames of one ball). The sync's answer from the
      // thread is read only at the next turn of the event loop, and under a sales peak a turn is tens of milliseconds
      // (every sale answered, parsed and begun meanwhile): most of a ball's time was that wait, not the disk.
      const priority = options?.priority === true
      const inline = wal !== null && priority && options?.deferSync !== true
      const onThread = wal !== null && !inline
      const result = await gated(() => enqueue(() => transaction(fn, onThread, scopes, savepoint), priority))
      if (onThread && options?.deferSync !== true) await durable()
      return result
    },
    priorityPending: priority.pending,
    priorityWaiting: priority.waiting,
    durable,
    ...(checkpointer ? { checkpoints: () => checkpointer.count() } : {}),
    ...(walSync ? { walSyncs: () => walSync.begun() } : {}),
    async close() {
      if (busy || urgent.length > 0 || queued.length > 0) await new Promise<void>((resolve) => drained.push(resolve))
      // The thread's last checkpoint (TRUNCATE) runs while this connection is idle, then it closes its own.
      await checkpointer?.stop()
      await walSync?.close()
      closed = true
      db.close()
    },
  }
  /** One transaction on the connection, run by the queue when its turn comes. */
  async function transaction<T>(
    fn: (tx: Sql) => Promise<T>,
    deferSync: boolean,
    scopes: readonly string[] | null,
    savepoint: string | null,
  ): Promise<T> {
    // The level applies to the commits that follow it; it is set back before any other transaction begins.
    if (deferSync) db.exec('PRAGMA synchronous = NORMAL')
    try {
      db.exec('BEGIN IMMEDIATE')
      try {
        if (savepoint) db.exec(`SAVEPOINT ${savepoint}`)
        // One writer holds every lock; the scopes only tell the journal which chains this transaction may append to.
        const result = await runHolding('sqlite', scopes, () => fn(direct))
        db.exec('COMMIT')
        return result
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK')
        throw err
      }
    } finally {
      if (deferSync) db.exec('PRAGMA synchronous = FULL')
    }
  }
}

/** `durable()` of a SQLite file: an fsync of its WAL begun after the call, shared between callers (wal-sync.ts). */
function walSyncer(walSync: WalSync | null): () => Promise<void> {
  if (!walSync) return () => Promise.resolve()
  return () => walSync.sync()
}

/** Both drivers name SQLite's extended result code in `err.code` (SQLITE_CONSTRAINT_UNIQUE, ..._TRIGGER, ...). */
function guard<T>(f: () => T): T {
  try {
    return f()
  } catch (err) {
    const code = (err as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) {
      throw new DomainError('CONFLICT', `constraint violated: ${(err as Error).message}`)
    }
    throw err
  }
}
