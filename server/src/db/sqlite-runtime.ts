/**
 * Picks the SQLite engine of the runtime, as Hono keeps one adapter per runtime: `bun:sqlite` under Bun,
 * better-sqlite3 under Node. Each engine is imported only when chosen, so Bun never loads better-sqlite3's
 * native addon (Bun cannot) and Node never asks for `bun:sqlite`.
 */
import { runtime } from '../shared/runtime.ts'
import {
  openConnection,
  sqliteDatabase,
  type SqliteConnection,
  type SqliteDatabase,
  type SqliteEngine,
  type SqliteOptions,
  type Synchronous,
} from './sqlite-shared.ts'

export { sqlOver, type SqliteConnection, type SqliteOptions } from './sqlite-shared.ts'

let chosen: Promise<SqliteEngine> | null = null

/** The engine of this runtime, loaded on first use. */
export function sqliteEngine(): Promise<SqliteEngine> {
  chosen ??= (runtime === 'bun' ? import('./sqlite-bun.ts') : import('./sqlite.ts')).then((m) => m.engine)
  return chosen
}

/** One read-write connection to a SQLite file with the shared pragmas (the lotto writer thread opens its own). */
export async function openSqliteConnection(file: string, synchronous: Synchronous = 'FULL'): Promise<SqliteConnection> {
  return openConnection(await sqliteEngine(), file, synchronous)
}

/** A read-only connection to an existing file (backup checks); no pragmas, nothing written. */
export async function openSqliteReadonly(file: string): Promise<SqliteConnection> {
  return (await sqliteEngine()).connect(file, { readonly: true })
}

/** Opens (creating if needed) a SQLite database in WAL mode with foreign keys on, on this runtime's engine. */
export async function openSqlite(file: string, options: SqliteOptions = {}): Promise<SqliteDatabase> {
  const synchronous = options.synchronous ?? 'FULL'
  return sqliteDatabase(await openSqliteConnection(file, synchronous), {
    file,
    synchronous,
    checkpoint: options.checkpoint,
  })
}
