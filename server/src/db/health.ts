import type { Sql } from './database.ts'

/** Proves the database answers a query (the health check); throws when it does not. */
export async function ping(db: Sql): Promise<void> {
  await db.get('SELECT 1 AS ok')
}
