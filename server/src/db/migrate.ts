import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from './database.ts'

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations')

/** Applies every pending numbered migration (`NNNN_name.sql`), each in its own transaction. */
export async function migrate(db: Database): Promise<string[]> {
  await db.run(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  )
  const applied = new Set(
    (await db.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
  )
  // `NNNN_name.sql` runs everywhere; `NNNN_name.<engine>.sql` only on that engine (trigger syntax differs).
  const files = readdirSync(migrationsDir)
    .filter((f) => /^\d{4}_[^.]+(\.(sqlite|postgres))?\.sql$/.test(f))
    .filter((f) => !/\.(sqlite|postgres)\.sql$/.test(f) || f.endsWith(`.${db.engine}.sql`))
    .sort()
  const done: string[] = []
  for (const file of files) {
    const version = Number(file.slice(0, 4))
    if (applied.has(version)) continue
    const sql = readFileSync(join(migrationsDir, file), 'utf8')
    await db.transaction(async (tx) => {
      // Another node may have applied it meanwhile (transactions are serialised on both engines).
      if (await tx.get('SELECT version FROM schema_migrations WHERE version = ?', [version])) return
      for (const statement of splitStatements(sql)) await tx.run(statement)
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        version,
        file,
        new Date().toISOString(),
      ])
    })
    done.push(file)
  }
  return done
}

/** Splits a migration on `;` at line ends, keeping trigger bodies (BEGIN ... END;) whole. */
export function splitStatements(sql: string): string[] {
  const out: string[] = []
  let current = ''
  let depth = 0
  for (const line of sql.split('\n')) {
    const trimmed = line.replace(/--.*$/, '').trim()
    if (!trimmed) continue
    current += line + '\n'
    depth += (trimmed.match(/\bBEGIN\b/gi) ?? []).length - (trimmed.match(/\bEND\b\s*;?/gi) ?? []).length
    if (depth === 0 && trimmed.endsWith(';')) {
      out.push(current.trim().replace(/;$/, ''))
      current = ''
    }
  }
  if (current.trim()) out.push(current.trim())
  return out
}
