/** The SQLite engine under Node: better-sqlite3. Loaded only through sqlite-runtime.ts, never under Bun. */
import BetterSqlite3 from 'better-sqlite3'
import type { SqliteConnection, SqliteEngine } from './sqlite-shared.ts'

export const engine: SqliteEngine = {
  driver: 'better-sqlite3',
  connect(file, options = {}) {
    return new BetterSqlite3(
      file,
      options.readonly ? { readonly: true, fileMustExist: true } : {},
    ) as unknown as SqliteConnection
  },
}
