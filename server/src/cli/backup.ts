import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { openSqliteReadonly } from '../db/sqlite-runtime.ts'
import { allJournalRows, integrityCheck, pageCount, vacuumInto } from '../db/backup.ts'
import { toRecord } from '../shared/journal.ts'
import { verifyChain } from '../shared/journal-chain.ts'

/**
 * Consistent copy of a live SQLite database with `VACUUM INTO`: it reads one snapshot inside a single read
 * transaction (WAL lets the server keep writing), so the copy is one point in time. (The page-by-page backup
 * API restarts whenever another connection writes, and never finishes under steady sales.) Then an integrity
 * and journal-chain check of the copy.
 */
export async function backupSqlite(
  dataDir: string,
  target: string,
): Promise<{ pages: number; journalRecords: number }> {
  const source = join(dataDir, 'bolillo.sqlite')
  if (!existsSync(source)) throw new Error(`no database at ${source}`)
  mkdirSync(dirname(target), { recursive: true })
  const db = await openSqliteReadonly(source)
  try {
    if (existsSync(target)) throw new Error(`${target} already exists`)
    vacuumInto(db, target)
    const check = await checkDatabaseFile(target)
    const copy = await openSqliteReadonly(target)
    const pages = pageCount(copy)
    copy.close()
    return { pages, journalRecords: check.journalRecords }
  } finally {
    db.close()
  }
}

/** Integrity check plus journal verification of a database file; throws if either fails. */
export async function checkDatabaseFile(file: string): Promise<{ journalRecords: number }> {
  const db = await openSqliteReadonly(file)
  try {
    const integrity = integrityCheck(db)
    if (integrity !== 'ok') throw new Error(`integrity check failed: ${integrity}`)
    const chain = verifyChain(allJournalRows(db).map(toRecord))
    if (!chain.ok) throw new Error(`journal does not verify at record #${chain.badSeq}: ${chain.reason}`)
    return { journalRecords: chain.count }
  } finally {
    db.close()
  }
}

/** Restores a backup into DATA_DIR (the server must be stopped). Refuses to overwrite without `force`. */
export async function restoreSqlite(
  backup: string,
  dataDir: string,
  force: boolean,
): Promise<{ journalRecords: number }> {
  const check = await checkDatabaseFile(backup)
  const target = join(dataDir, 'bolillo.sqlite')
  if (existsSync(target) && !force) throw new Error(`${target} exists: stop the server and pass --force to replace it`)
  mkdirSync(dataDir, { recursive: true })
  for (const suffix of ['-wal', '-shm']) rmSync(target + suffix, { force: true })
  copyFileSync(backup, target)
  return check
}
