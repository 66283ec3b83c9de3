import pg from 'pg'
import { randomBytes } from 'node:crypto'

/**
 * Vitest global set-up for the PostgreSQL passes: each test file makes databases of its own (database.ts), named
 * after this run, and the run drops them when it ends. Left behind, they filled a server with thousands of databases
 * (25 GB) whose recovery after an unclean stop outlasted CI's wait for the server. Other runs against the same
 * server (another checkout's tests) keep theirs: only this run's prefix is dropped.
 */
export default function setup(): (() => Promise<void>) | undefined {
  const adminUrl = process.env.BOLILLO_TEST_DATABASE_URL
  if (!adminUrl) return undefined
  // Read by database.ts in the workers, which inherit the environment of the process that starts them.
  const run = (process.env.BOLILLO_TEST_DATABASE_RUN ||= randomBytes(4).toString('hex'))
  return async () => {
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    try {
      const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
        `bolillo_t_${run}_%`,
      ])
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
    } finally {
      await admin.end()
    }
  }
}
