/**
 * DATA_DIR is readable by the server's user only (DESIGN.md "Sealed secrets"): the directory 0700, its files
 * 0600. The process umask makes every file and directory created later (database, WAL, prints, backups, logs,
 * keys) owner-only as well, whatever mode the creating code asks for.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

export function secureDataDir(dataDir: string): void {
  if (process.platform === 'win32') return
  process.umask(0o077)
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  tighten(dataDir)
}

/** Removes group and other bits from `path` and everything below it (a DATA_DIR made by an older version). */
function tighten(path: string): void {
  const st = lstatSync(path)
  if (st.isSymbolicLink()) return
  if ((st.mode & 0o077) !== 0) chmodSync(path, st.mode & 0o700)
  if (st.isDirectory()) for (const name of readdirSync(path)) tighten(join(path, name))
}
