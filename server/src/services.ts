import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { createBingoService, type BingoEvent, type Clock, type EntropySource } from './app/bingo.ts'
import { readJournal } from './app/journal.ts'
import { loadSessionMinutes } from './app/minutes.ts'
import { createAuthService } from './app/auth.ts'
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import { migrate } from './db/migrate.ts'
import { openSqlite } from './db/sqlite.ts'
import { verifyChain, type JournalRecord } from './domain/journal-chain.ts'
import { loadOrCreateKeys, type OperatorKeys } from './keys.ts'
import { createLogger, type Logger } from './log.ts'

export const osEntropy: EntropySource = { name: 'os-csprng', randomBytes: (n) => randomBytes(n) }
export const systemClock: Clock = { now: () => new Date() }

export interface ServiceOverrides { clock?: Clock; entropy?: EntropySource; log?: Logger; db?: Database; keys?: OperatorKeys }

/** Composition of storage, domain services and adapters; shared by the HTTP server, the CLI and the demo. */
export async function createServices(config: Config, overrides: ServiceOverrides = {}) {
  const log = overrides.log ?? createLogger(config.logLevel)
  const db = overrides.db ?? (await openDatabase(config))
  await migrate(db)
  const listeners = new Set<(e: BingoEvent) => void>()
  const bingo = createBingoService({
    db,
    clock: overrides.clock ?? systemClock,
    entropy: overrides.entropy ?? osEntropy,
    publish: (e) => { for (const l of listeners) l(e) },
  })
  const keys = overrides.keys ?? loadOrCreateKeys(config.dataDir)
  const auth = createAuthService({ db, clock: overrides.clock ?? systemClock })
  return {
    config, db, log, bingo, keys, auth, version: '0.1.0',
    onEvent(l: (e: BingoEvent) => void) { listeners.add(l); return () => listeners.delete(l) },
    /** Recomputes the whole hash chain (DESIGN.md "Journal"). */
    async verifyJournal() {
      const records: JournalRecord[] = []
      for await (const r of readJournal(db)) records.push(r)
      return verifyChain(records)
    },
    minutes: {
      sessionMinutes: (sessionId: string) => loadSessionMinutes(db, sessionId),
      sessionSummary: (sessionId: string) => loadSessionMinutes(db, sessionId),
      sessionMinutesPdf: async (sessionId: string, lang: 'es' | 'en') => {
        // Loaded on first use: pdf-lib is only needed when someone asks for the PDF.
        const { renderMinutesPdf } = await import('../../printer/src/minutes-pdf.ts')
        return renderMinutesPdf(await loadSessionMinutes(db, sessionId), lang)
      },
    },
    async close() { await db.close() },
  }
}
export type Services = Awaited<ReturnType<typeof createServices>>

export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./db/postgres.ts')
    return openPostgres(config.databaseUrl)
  }
  return openSqlite(join(config.dataDir, 'bolillo.sqlite'), { synchronous: config.sqliteSynchronous })
}
