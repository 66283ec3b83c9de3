import pg from 'pg'
import { DomainError } from '../shared/errors.ts'
import type { Database, Sql, TransactionOptions } from './database.ts'
import {
  beginStatement,
  normaliseScopes,
  openTransactionOf,
  runHolding,
  savepointName,
  type TransactionConnection,
} from './scopes.ts'
import { priorityWaiters } from './priority.ts'

/**
 * PostgreSQL behind the same storage port as SQLite. `?` placeholders become `$n`. Every transaction takes
 * advisory locks first: an unscoped one the global lock exclusively, so that it is serialised with every writer on
 * every node exactly as on the single SQLite connection; a scoped one (`options.scopes`) the global lock shared and
 * one lock per scope, so that writers of different halls run side by side (each journal chain has one writer at a
 * time: db/scopes.ts).
 *
 * A query sent through this Database itself (not through the `tx` its transaction gave) from inside one of its open
 * transactions runs on that transaction's connection, as every query does on SQLite's one connection. On the pool it
 * would wait for a second connection while the first holds its hall's lock; with every other pooled connection
 * waiting on that lock, none ever comes (the paid-sales bench hung so). Routed rather than refused by default: it then
 * reads and writes exactly what it would on SQLite (the transaction's own rows, committed or rolled back with it), and
 * a caller no test reaches cannot fail a sale in service. `strayQueries: 'throw'` makes it a programming error
 * instead, to find callers that should pass the `tx` they were given.
 */
export function openPostgres(url: string, options: { max?: number; strayQueries?: 'route' | 'throw' } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? DEFAULT_POOL_SIZE })
  // An idle connection the server ends (restart, admin termination) must not crash the process: pg drops that
  // client from the pool and the next query opens a new one; a query in flight still gets its own error.
  pool.on('error', () => undefined)
  // COUNT/SUM/BIGINT come back as strings by default; our amounts are safe integers.
  pg.types.setTypeParser(20, (v) => Number(v))
  const statements = preparedStatements()
  const failed = (sql: string, err: unknown): never => {
    // 0A000 "cached plan must not change result type": another node's migration changed a table under a
    // prepared `SELECT *`. This call fails (it may be inside a transaction); the next one prepares it afresh.
    if ((err as { code?: string }).code === '0A000') statements.forget(sql)
    throw domainErrorOf(err)
  }
  const send = (client: pg.Pool | pg.PoolClient, sql: string, params: readonly unknown[]): Promise<pg.QueryResult> => {
    if (client instanceof pg.Pool)
      return client.query(statements.query(sql, params)).then(undefined, (err: unknown) => failed(sql, err))
    // A connection of its own (a transaction's): the query object is built from the text and values, with its name
    // set after, so that pg neither copies a config object property by property nor wraps the answer in promises of
    // its own. Under a lock a paid sale is some twenty of these in a row, and pg's own work per query is most of
    // the event loop's share of each round trip.
    const config = statements.query(sql, params)
    return new Promise<pg.QueryResult>((resolve, reject) => {
      const query = new pg.Query(config.text, config.values as unknown[], (err, res) =>
        err ? reject(err) : resolve(res as unknown as pg.QueryResult),
      )
      if (config.name) (query as { name?: string }).name = config.name
      void client.query(query)
    }).then(undefined, (err: unknown) => failed(sql, err))
  }
  const on = (client: pg.Pool | pg.PoolClient): Sql => ({
    async all<T>(sql: string, params: readonly unknown[] = []) {
      return (await send(client, sql, params)).rows as T[]
    },
    async get<T>(sql: string, params: readonly unknown[] = []) {
      return (await send(client, sql, params)).rows[0] as T | undefined
    },
    async run(sql: string, params: readonly unknown[] = []) {
      return { changes: (await send(client, sql, params)).rowCount ?? 0 }
    },
  })
  // Priority transactions (TransactionOptions.priority) of this node still waiting for a connection or their locks:
  // meanwhile the group commit starts no batch and ends the one in progress after its current unit, so that the draw
  // asks PostgreSQL for its locks before the sales queued behind it. The locks themselves are as without it.
  const priority = priorityWaiters({ scoped: true })
  const strayThrows = options.strayQueries === 'throw'
  const pooled = on(pool)
  // The pool, or the open transaction's connection when the caller runs inside one of this Database's transactions.
  const through = (sql: string): Sql => {
    const open = openTransactionOf(pool)
    if (!open) return pooled
    if (strayThrows)
      throw new Error(`a query through the Database inside its own open transaction (use the tx given): ${sql}`)
    return open.sql
  }
  return {
    engine: 'postgres',
    // async: a refused stray query is a rejected promise, as any failed query, not a throw at the call.
    all: async (sql, params) => through(sql).all(sql, params),
    get: async (sql, params) => through(sql).get(sql, params),
    run: async (sql, params) => through(sql).run(sql, params),
    async transaction<T>(fn: (tx: Sql) => Promise<T>, options?: TransactionOptions): Promise<T> {
      const scopes = normaliseScopes(options?.scopes)
      const savepoint = savepointName(options?.savepoint)
      // Left once its locks are taken (or it failed before): a batch of other scopes never waited for it.
      const locked = options?.priority === true ? priority.enter(scopes) : () => undefined
      try {
        const client = await pool.connect()
        const tx = on(client)
        const connection: TransactionConnection = { owner: pool, sql: tx, open: true }
        try {
          // One round trip (a simple query of two statements, three with a savepoint): the locks are taken first
          // thing in the transaction; the savepoint (the group commit's first unit) only after them.
          await client.query(savepoint ? `${beginStatement(scopes)}; SAVEPOINT ${savepoint}` : beginStatement(scopes))
          locked()
          const result = await runHolding('postgres', scopes, () => fn(tx), connection)
          connection.open = false
          await client.query('COMMIT')
          return result
        } catch (err) {
          connection.open = false
          await client.query('ROLLBACK').catch(() => undefined)
          throw err
        } finally {
          client.release()
        }
      } finally {
        locked()
      }
    },
    priorityPending: priority.pending,
    priorityWaiting: priority.waiting,
    async close() {
      await pool.end()
    },
  }
}

/** Pooled connections of a server's Database unless DATABASE_POOL_SIZE says otherwise (config.ts). */
export const DEFAULT_POOL_SIZE = 10

/** Most distinct statement texts prepared by name; the rest are sent unnamed (parsed and planned every time). */
export const MAX_PREPARED_STATEMENTS = 1000
/** A statement with more parameters than this (a long `IN (…)` list, a bulk insert) is not worth a name. */
const MAX_PREPARED_PARAMETERS = 100

function rewrite(sql: string): string {
  let i = 0
  return sql.replace(/\?/g, () => `$${++i}`)
}

/**
 * Named prepared statements. A statement with parameters goes by the extended protocol anyway; given a name, each
 * connection parses it once, and PostgreSQL plans it once it has seen it a few times (its plan cache), instead of
 * parsing and planning it on every call: under the journal's lock a paid sale is some thirty statements in a row,
 * and parsing and planning were a large part of each round trip. The name stands for the text (one name per
 * distinct text, so a text that varies, such as an `IN (…)` list of another length, is another statement); past
 * MAX_PREPARED_STATEMENTS texts, new ones go unnamed, and so do those of over MAX_PREPARED_PARAMETERS parameters,
 * so neither this map nor each session's statements grow without bound. A statement without parameters goes as a simple query, which may hold several statements
 * (`BEGIN; SELECT pg_advisory_xact_lock(…)`) and cannot be prepared. Prepared statements live in the session, so
 * a connection pooler in transaction mode must not stand between this server and PostgreSQL.
 */
export function preparedStatements() {
  const names = new Map<string, { name: string; text: string }>()
  let named = 0
  return {
    query(sql: string, params: readonly unknown[]): pg.QueryConfig {
      const values = params as unknown[]
      let known = names.get(sql)
      if (!known) {
        const text = rewrite(sql)
        if (values.length === 0 || values.length > MAX_PREPARED_PARAMETERS || names.size >= MAX_PREPARED_STATEMENTS)
          return { text, values }
        known = { name: `bolillo_${++named}`, text }
        names.set(sql, known)
      }
      return { name: known.name, text: known.text, values }
    },
    /** The next call of `sql` goes under a new name, prepared afresh on every connection. */
    forget(sql: string) {
      names.delete(sql)
    },
  }
}

function domainErrorOf(err: unknown): unknown {
  const code = (err as { code?: string }).code ?? ''
  // 23xxx: integrity constraint violations (unique, foreign key, check).
  if (code.startsWith('23')) return new DomainError('CONFLICT', `constraint violated: ${(err as Error).message}`)
  // 22xxx: data exceptions (a NUL byte in text, a number out of range): bad input, not a server fault.
  if (code.startsWith('22')) return new DomainError('VALIDATION_FAILED', 'a value is not acceptable to the database')
  return err
}

/** The socket.io PostgreSQL adapter's table for large payloads (realtime/multi-node.ts creates it on start). */
export const SOCKET_IO_ATTACHMENTS_DDL =
  'CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)'
