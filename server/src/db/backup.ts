/**
 * The SQL of the SQLite backup commands (cli/backup.ts). They work on files rather than on the server's storage
 * port, through a read-only connection the caller opens and closes (better-sqlite3 or bun:sqlite).
 */
import type { SqliteConnection } from './sqlite-shared.ts'
import type { JournalRow } from '../shared/store.ts'

/** Writes one consistent snapshot of `db` to the new file `target` (VACUUM INTO reads in one read transaction). */
export function vacuumInto(db: SqliteConnection, target: string): void {
  db.prepare('VACUUM INTO ?').run(target)
}

/** The whole journal of a database file, in order. */
export function allJournalRows(db: SqliteConnection): JournalRow[] {
  return db.prepare('SELECT * FROM journal ORDER BY seq').all() as JournalRow[]
}

export function pageCount(db: SqliteConnection): number {
  return Number((db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count)
}

export function integrityCheck(db: SqliteConnection): string {
  return (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check
}
