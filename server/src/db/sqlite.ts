import BetterSqlite3 from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DomainError } from '../shared/errors.ts'
import type { Database, Sql } from './database.ts'

export interface SqliteOptions {
  /** `synchronous` level: FULL makes a committed sale survive power loss in WAL mode (stated in README). */
  synchronous?: 'FULL' | 'NORMAL'
}

/** One connection to a SQLite file: WAL, the given `synchronous` level, foreign keys on, a busy timeout. */
export function openSqliteConnection(file: string, synchronous: 'FULL' | 'NORMAL' = 'FULL'): BetterSqlite3.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new BetterSqlite3(file)
  db.pragma('journal_mode = WAL')
  db.pragma(`synchronous = ${synchronous}`)
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  return db
}

/** The Sql port over a connection: statements prepared once, constraint violations as CONFLICT. */
export function sqlOver(db: BetterSqlite3.Database): Sql {
  const statements = new Map<string, BetterSqlite3.Statement>()
  const prepare = (sql: string) => {
    let st = statements.get(sql)
    if (!st) {
      st = db.prepare(sql)
      statements.set(sql, st)
    }
    return st
  }
  return {
    async all<T>(sql: string, params: readonly unknown[] = []) {
      return guard(() => prepare(sql).all(...(params as unknown[])) as T[])
    },
    async get<T>(sql: string, params: readonly unknown[] = []) {
      return guard(() => prepare(sql).get(...(params as unknown[])) as T | undefined)
    },
    async run(sql: string, params: readonly unknown[] = []) {
      return guard(() => ({ changes: prepare(sql).run(...(params as unknown[])).changes }))
    },
  }
}

/** Opens (creating if needed) a SQLite database in WAL mode with foreign keys on. */
export function openSqlite(file: string, options: SqliteOptions = {}): Database {
  const db = openSqliteConnection(file, options.synchronous ?? 'FULL')
  const direct = sqlOver(db)
  // Counts this connection's writes queued or running, so that a writer thread with its own connection to the
  // same file gives way to them (see Database.writerGate) instead of making them wait in SQLite's busy handler.
  const writerGate = new Int32Array(new SharedArrayBuffer(4))
  const gated = <T>(p: () => Promise<T>): Promise<T> => {
    Atomics.add(writerGate, 0, 1)
    return p().finally(() => { if (Atomics.sub(writerGate, 0, 1) === 1) Atomics.notify(writerGate, 0) })
  }
  // better-sqlite3 is synchronous but our port is async: transactions are queued so that two of them
  // never interleave on the one connection.
  let queue: Promise<unknown> = Promise.resolve()
  return {
    engine: 'sqlite',
    ...direct,
    writerGate,
    run: (sql, params) => gated(() => direct.run(sql, params)),
    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      return gated(() => transaction(fn))
    },
    async close() {
      await queue
      db.close()
    },
  }
  function transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const run = async () => {
      db.exec('BEGIN IMMEDIATE')
      try {
        const result = await fn(direct)
        db.exec('COMMIT')
        return result
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK')
        throw err
      }
    }
    const next = queue.then(run, run)
    queue = next.catch(() => undefined)
    return next
  }
}

function guard<T>(f: () => T): T {
  try {
    return f()
  } catch (err) {
    const code = (err as { code?: string }).code ?? ''
    if (code.startsWith('SQLITE_CONSTRAINT')) {
      throw new DomainError('CONFLICT', `constraint violated: ${(err as Error).message}`)
    }
    throw err
  }
}
