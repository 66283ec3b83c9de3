import { randomBytes } from 'node:crypto'
import pg from 'pg'

/**
 * Runs `body` against a fresh database on the PostgreSQL server of BOLILLO_BENCH_DATABASE_URL (default: the local
 * `bolillo` role), dropped afterwards. Without a server the figure is skipped with a note; a server named on purpose
 * (as .ci/run does) that does not answer is a failure, not a figure quietly missing.
 */
export async function withBenchDatabase(label: string, body: (url: string) => Promise<void>): Promise<void> {
  const adminUrl = process.env.BOLILLO_BENCH_DATABASE_URL || 'postgres://bolillo:bolillo@127.0.0.1:5432/postgres'
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 })
  try {
    await admin.connect()
  } catch (err) {
    await admin.end().catch(() => undefined)
    if (process.env.BOLILLO_BENCH_DATABASE_URL) throw err
    process.stderr.write(
      `[bench] ${label} skipped: no PostgreSQL at ${adminUrl.replace(/:[^:@/]*@/, ':***@')} (${err instanceof Error ? err.message : String(err)}); set BOLILLO_BENCH_DATABASE_URL\n`,
    )
    return
  }
  const name = `bolillo_bench_${randomBytes(4).toString('hex')}`
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  try {
    await body(url.toString())
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined)
    await admin.end()
  }
}
