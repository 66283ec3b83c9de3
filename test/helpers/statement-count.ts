/**
 * Counts the SQL statements a server runs (issue 23 point 5: what a paid sale costs the database, a figure that does
 * not depend on the machine's load, unlike timings). Wraps the storage port handed to createServices as its `db`
 * override, so every statement of every use case passes here, inside transactions or not, on either engine.
 */
import type { Database, Sql } from '../../server/src/db/database.ts'

export interface StatementTally {
  /** Statements run since the last reset (SAVEPOINT / RELEASE of the group commit included; BEGIN / COMMIT not). */
  total(): number
  /**
   * Each statement's text (whitespace folded) with how many times it ran since the last reset, most run first, and
   * the time (ms) spent in the call before it returned its promise: on SQLite, whose drivers are synchronous, the
   * statement's whole cost on the event loop; on PostgreSQL only the sending.
   */
  byStatement(): Array<{ sql: string; count: number; ms: number }>
  reset(): void
}

export function countingDatabase(inner: Database): { db: Database; tally: StatementTally } {
  const counts = new Map<string, { count: number; ms: number }>()
  const count = <T>(sql: string, call: () => T): T => {
    const started = performance.now()
    const result = call()
    const key = sql.replace(/\s+/g, ' ').trim()
    const c = counts.get(key) ?? { count: 0, ms: 0 }
    c.count++
    c.ms += performance.now() - started
    counts.set(key, c)
    return result
  }
  const over = (sql: Sql): Sql => ({
    all: (s, p) => count(s, () => sql.all(s, p)),
    get: (s, p) => count(s, () => sql.get(s, p)),
    run: (s, p) => count(s, () => sql.run(s, p)),
  })
  const direct = over(inner)
  const db: Database = {
    ...inner,
    ...direct,
    engine: inner.engine,
    transaction: (fn, options) => inner.transaction((tx) => fn(over(tx)), options),
    ...(inner.durable ? { durable: () => inner.durable!() } : {}),
    close: () => inner.close(),
  }
  return {
    db,
    tally: {
      total: () => [...counts.values()].reduce((a, b) => a + b.count, 0),
      byStatement: () =>
        [...counts.entries()].map(([sql, c]) => ({ sql, count: c.count, ms: c.ms })).sort((a, b) => b.count - a.count),
      reset: () => counts.clear(),
    },
  }
}
