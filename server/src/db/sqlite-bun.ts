/** The SQLite engine under Bun: its built-in `bun:sqlite`. Loaded only through sqlite-runtime.ts, only under Bun. */
import { Database } from 'bun:sqlite'
import type { SqliteConnection, SqliteEngine } from './sqlite-shared.ts'

export const engine: SqliteEngine = {
  driver: 'bun:sqlite',
  connect(file, options = {}) {
    // `strict: false` keeps positional `?` binding as better-sqlite3 does it; `create` only for read-write.
    return new Database(
      file,
      options.readonly ? { readonly: true } : { create: true, readwrite: true },
    ) as unknown as SqliteConnection
  },
}
