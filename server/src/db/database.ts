/**
 * The storage port. Callers speak plain SQL with `?` placeholders and standard types (TEXT, INTEGER/BIGINT),
 * through an async interface, so that a PostgreSQL engine can implement the same port (it rewrites `?` to `$n`).
 * Everything that changes money or fairness runs inside `transaction`, which is all-or-nothing.
 */
export interface Sql {
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>
  get<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T | undefined>
  run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>
}

export interface Database extends Sql {
  readonly engine: 'sqlite' | 'postgres'
  /** Runs `fn` in one serialisable transaction; a throw rolls everything back. Not re-entrant: use the `tx` given. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>
  close(): Promise<void>
}
