/** The SQLite engine under Bun: its built-in `bun:sqlite`. Loaded only through sqlite-runtime.ts, only under Bun. */
import { Database } from 'bun:sqlite'
import type { SqliteConnection, SqliteEngine } from './sqlite-shared.ts'

export const engine: SqliteEngine = {
  driver: 'bun:sqlite',
  connect(file, options = {}) {
    // `strict: false` keeps positional `?` binding as better-sqlite3 does it; `create` only for read-write.
    const db = new Database(file, options.readonly ? { readonly: true } : { create: true, readwrite: true })
    // bun:sqlite's close() leaves the connection open (sqlite3_close_v2) until every statement it prepared has been
    // finalized, which the garbage collector does whenever it likes. A connection left open keeps the file's shared
    // WAL index mapped: the next connection of the process reuses it instead of rebuilding it from the WAL, and after
    // a server was killed between writing its commit to the WAL and to the index, that reader misses the commit (the
    // Bun run of test/e2e/crash.test.ts read one ball fewer than the restarted server showed). So every statement is
    // kept (the Sql port prepares each text once) and finalized at close, as better-sqlite3 does.
    const statements = new Set<{ finalize(): void }>()
    return {
      exec: (sql: string) => db.exec(sql),
      prepare(sql: string) {
        const st = db.prepare(sql)
        statements.add(st)
        return st
      },
      get inTransaction() {
        return db.inTransaction
      },
      close() {
        for (const st of statements) st.finalize()
        statements.clear()
        db.close()
      },
    } satisfies SqliteConnection
  },
}
