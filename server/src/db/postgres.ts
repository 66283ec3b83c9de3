import pg from 'pg'
import { DomainError } from '../shared/errors.ts'
import type { Database, Sql } from './database.ts'

/**
 * PostgreSQL behind the same storage port as SQLite. `?` placeholders become `$n`. Every transaction takes
 * one advisory lock first, so that writers on several server nodes are serialised exactly as they are on the
 * single SQLite connection (the journal's hash chain needs one writer at a time).
 */
export function openPostgres(url: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 })
  // An idle connection the server ends (restart, admin termination) must not crash the process: pg drops that
  // client from the pool and the next query opens a new one; a query in flight still gets its own error.
  pool.on('error', () => undefined)
  // COUNT/SUM/BIGINT come back as strings by default; our amounts are safe integers.
  pg.types.setTypeParser(20, (v) => Number(v))
  const rewrite = (sql: string) => {
    let i = 0
    return sql.replace(/\?/g, () => `$${++i}`)
  }
  const on = (client: pg.Pool | pg.PoolClient): Sql => ({
    async all<T>(sql: string, params: readonly unknown[] = []) {
      return guard(async () => (await client.query(rewrite(sql), params as unknown[])).rows as T[])
    },
    async get<T>(sql: string, params: readonly unknown[] = []) {
      return guard(async () => (await client.query(rewrite(sql), params as unknown[])).rows[0] as T | undefined)
    },
    async run(sql: string, params: readonly unknown[] = []) {
      return guard(async () => ({ changes: (await client.query(rewrite(sql), params as unknown[])).rowCount ?? 0 }))
    },
  })
  return {
    engine: 'postgres',
    ...on(pool),
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect()
      try {
        // One round trip (a simple query of two statements): the lock is taken first thing in the transaction.
        await client.query('BEGIN; SELECT pg_advisory_xact_lock(4242)')
        const result = await fn(on(client))
        await client.query('COMMIT')
        return result
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw err
      } finally {
        client.release()
      }
    },
    async close() {
      await pool.end()
    },
  }
}

async function guard<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f()
  } catch (err) {
    const code = (err as { code?: string }).code ?? ''
    // 23xxx: integrity constraint violations (unique, foreign key, check).
    if (code.startsWith('23')) throw new DomainError('CONFLICT', `constraint violated: ${(err as Error).message}`)
    // 22xxx: data exceptions (a NUL byte in text, a number out of range): bad input, not a server fault.
    if (code.startsWith('22')) throw new DomainError('VALIDATION_FAILED', 'a value is not acceptable to the database')
    throw err
  }
}

/** The socket.io PostgreSQL adapter's table for large payloads (realtime/multi-node.ts creates it on start). */
export const SOCKET_IO_ATTACHMENTS_DDL =
  'CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)'
