/**
 * Counts the SQL statements a server runs (issue 23 point 5: what a paid sale costs the database, a figure that does
 * not depend on the machine's load, unlike timings). Wraps the storage port handed to createServices as its `db`
 * override, so every statement of every use case passes here, inside transactions or not, on either engine.
 */
import type { Database, Sql } from '../../server/src/db/database.ts'

export interface StatementTally {
  /** Statements run since the last reset (SAVEPOINT / RELEASE of the group commit included; BEGIN / COMMIT not). */
  total(): number
  /** Each statement's text (whitespace folded) with how many times it ran since the last reset, most run first. */
  byStatement(): Array<{ sql: string; count: number }>
  reset(): void
}

export function countingDatabase(inner: Database): { db: Database; tally: StatementTally } {
  const counts = new Map<string, number>()
  const count = (sql: string) => {
    const key = sql.replace(/\s+/g, ' ').trim()
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const over = (sql: Sql): Sql => ({
    all: (s, p) => (count(s), sql.all(s, p)),
    get: (s, p) => (count(s), sql.get(s, p)),
    run: (s, p) => (count(s), sql.run(s, p)),
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
      total: () => [...counts.values()].reduce((a, b) => a + b, 0),
      byStatement: () => [...counts.entries()].map(([sql, n]) => ({ sql, count: n })).sort((a, b) => b.count - a.count),
      reset: () => counts.clear(),
    },
  }
}
