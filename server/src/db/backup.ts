/**
 * The SQL of the SQLite backup commands (cli/backup.ts). They work on files rather than on the server's storage
 * port, through a read-only better-sqlite3 connection the caller opens and closes.
 */
import type BetterSqlite3 from 'better-sqlite3'
import type { JournalRow } from '../shared/store.ts'

/** Writes one consistent snapshot of `db` to the new file `target` (VACUUM INTO reads in one read transaction). */
export function vacuumInto(db: BetterSqlite3.Database, target: string): void {
  db.prepare('VACUUM INTO ?').run(target)
}

/** The whole journal of a database file, in order. */
export function allJournalRows(db: BetterSqlite3.Database): JournalRow[] {
  return db.prepare('SELECT * FROM journal ORDER BY seq').all() as JournalRow[]
}
