import pg from 'pg'
import { join } from 'node:path'
import { openSqliteConnection } from '../../server/src/db/sqlite-runtime.ts'

/**
 * A statement on a running server's database from outside the server (a connection of its own, no store function, no
 * seal), as an insider holding the database or a copy of its file would write it. `?` placeholders on both engines.
 */
export async function tamper(
  server: { services: { config: { databaseUrl: string | null } }; dataDir: string },
  sql: string,
  params: unknown[],
): Promise<void> {
  const url = server.services.config.databaseUrl
  if (url) {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      let i = 0
      await client.query(
        sql.replace(/\?/g, () => `$${++i}`),
        params,
      )
    } finally {
      await client.end()
    }
    return
  }
  const conn = await openSqliteConnection(join(server.dataDir, 'bolillo.sqlite'))
  try {
    conn.prepare(sql).run(...params)
  } finally {
    conn.close()
  }
}
