import BetterSqlite3 from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DomainError } from '../domain/errors.ts'
import type { Database, Sql } from './database.ts'

export interface SqliteOptions {
  /** `synchronous` level: FULL makes a committed sale survive power loss in WAL mode (stated in README). */
  synchronous?: 'FULL' | 'NORMAL'
}

/** Opens (creating if needed) a SQLite database in WAL mode with foreign keys on. */
export function openSqlite(file: string, options: SqliteOptions = {}): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new BetterSqlite3(file)
  db.pragma('journal_mode = WAL')
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`)
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  const statements = new Map<string, BetterSqlite3.Statement>()
  const prepare = (sql: string) => {
    let st = statements.get(sql)
    if (!st) {
      st = db.prepare(sql)
      statements.set(sql, st)
    }
    return st
  }
  const direct: Sql = {
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
  // better-sqlite3 is synchronous but our port is async: transactions are queued so that two of them
  // never interleave on the one connection.
  let queue: Promise<unknown> = Promise.resolve()
  return {
    engine: 'sqlite',
    ...direct,
    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
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
    },
    async close() {
      await queue
      db.close()
    },
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
