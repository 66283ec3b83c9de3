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

export interface TransactionOptions {
  /**
   * The commit does not wait for the disk: the caller answers no one about this transaction's work before
   * `durable()` has resolved (the group commit of sales, db/group-commit.ts). Only the SQLite engine on a file
   * with synchronous = FULL defers anything; elsewhere a commit is as durable as it is without the option.
   */
  deferSync?: boolean
  /**
   * What the transaction writes: halls (`hall:<id>`) and operator products (`lotto`, `lottery`, `instant`), each a
   * journal chain (journal-chain.ts chainOfScope). PostgreSQL takes the global lock shared and one exclusive lock per
   * scope, so transactions of other scopes run beside it; without scopes it takes the global lock exclusively (as
   * before: it waits for everyone and everyone waits for it). The journal refuses a record of a chain not listed
   * (db/scopes.ts). SQLite has one writer and ignores the locks, but keeps the refusal.
   */
  scopes?: readonly string[]
  /**
   * A savepoint (a plain identifier) opened first thing in the transaction, after its locks. PostgreSQL sends it in
   * the same round trip as BEGIN and the locks (the group commit's first unit: one round trip fewer per batch); SQLite
   * opens it as its first statement.
   */
  savepoint?: string
  /**
   * A transaction someone is waiting on in real time (a ball, a claim's judgement, a window's close: the caller of a
   * hall in play waits on it). It starts next after the transaction in progress, ahead of every transaction queued
   * before it on this node (sales batches among them), and a group-commit batch in progress takes no further unit
   * while one waits (db/group-commit.ts). Only the order in which queued work is started changes: it never runs
   * inside another transaction, takes the same locks as without it, and is all-or-nothing as every transaction.
   */
  priority?: boolean
}

export interface Database extends Sql {
  readonly engine: 'sqlite' | 'postgres'
  /** Runs `fn` in one serialisable transaction; a throw rolls everything back. Not re-entrant: use the `tx` given. */
  transaction<T>(fn: (tx: Sql) => Promise<T>, options?: TransactionOptions): Promise<T>
  /**
   * Resolves once every transaction committed so far, those with `deferSync` included, is on disk. SQLite: one fsync
   * of the write-ahead log on a thread of its own (not on the event loop), shared by every caller waiting meanwhile.
   * Absent or at once where there is nothing to wait for.
   */
  durable?(): Promise<void>
  /**
   * SQLite only: how many writes of this connection are queued or running (a shared counter). A writer thread
   * with its own connection to the same file waits while it is above zero, so the server's writes go first.
   */
  readonly writerGate?: Int32Array
  /**
   * Null when no priority transaction (TransactionOptions.priority) of this node waits to start; otherwise a promise
   * that resolves once none does (db/priority.ts). The group commit starts no batch meanwhile, and a batch in
   * progress ends after the unit it is writing, so that a draw waits for one unit at most. `scopes`: the batch's; on
   * PostgreSQL only a draw whose scopes meet them counts (a ball waiting on hall A's lock holds up no sale of hall B).
   */
  priorityPending?(scopes?: readonly string[] | null): Promise<void> | null
  /** Whether priorityPending would wait, without a watcher (the group commit asks it between units). */
  priorityWaiting?(scopes?: readonly string[] | null): boolean
  close(): Promise<void>
}
