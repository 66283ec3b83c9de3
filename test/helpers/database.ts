import pg from 'pg'
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '../../server/src/db/database.ts'
import { migrate } from '../../server/src/db/migrate.ts'
import { openPostgres } from '../../server/src/db/postgres.ts'
import { openSqlite } from '../../server/src/db/sqlite-runtime.ts'

/**
 * The storage suites run against both engines: SQLite by default, PostgreSQL when
 * BOLILLO_TEST_DATABASE_URL names a server (.ci/run starts Debian's postgresql and runs them again).
 * Each call gets a database of its own.
 */
export const testPostgresUrl = process.env.BOLILLO_TEST_DATABASE_URL || null

export async function freshPostgresUrl(adminUrl = testPostgresUrl!): Promise<string> {
  // The run's prefix lets postgres-cleanup.ts drop exactly this run's databases when it ends.
  const run = process.env.BOLILLO_TEST_DATABASE_RUN ?? 'x'
  const name = `bolillo_t_${run}_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

export async function openTestDatabase(): Promise<Database> {
  const db = testPostgresUrl
    ? openPostgres(await freshPostgresUrl())
    : await openSqlite(join(mkdtempSync(join(tmpdir(), 'bolillo-db-')), 'db.sqlite'), { synchronous: 'NORMAL' })
  await migrate(db)
  return db
}
