/**
 * Issue 28 point 5 (GLI-19, AGCO): the server verifies its own critical components at start and every 24 hours: a
 * SHA-256 digest (256 bits, over the 128 the standards ask) of its code and one of its configuration, journaled as a
 * significant event (`system.self_verified`) that the control feed carries to the regulator. A digest that differs
 * from the previous one is said plainly in the record (`changed`).
 *
 * The configuration digest leaves secrets out (the sealing key): it must not let anyone test guesses of them.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from '../db/database.ts'
import { canonicalJson } from '../shared/journal-chain.ts'
import { appendJournal } from '../shared/journal.ts'
import { lastSelfVerification } from './store.ts'

/** The repository root (server/src/regulator/ is three levels below it). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
/** The code that runs: the server, the printer and device drivers, and the lockfile that pins its dependencies. */
const CODE_ROOTS = ['server/src', 'printer/src', 'hardware/src', 'web', 'package-lock.json']
const SECRET_KEYS = new Set(['sealingKey', 'databaseUrl'])

function filesUnder(path: string): string[] {
  const st = statSync(path, { throwIfNoEntry: false })
  if (!st) return []
  if (st.isFile()) return [path]
  return readdirSync(path)
    .sort()
    .flatMap((name) => (name === 'node_modules' || name.startsWith('.') ? [] : filesUnder(join(path, name))))
}

/** SHA-256 over every code file's path and content, in path order. */
export function codeDigest(root = ROOT): { sha256: string; files: number } {
  const hash = createHash('sha256')
  let files = 0
  for (const file of CODE_ROOTS.flatMap((r) => filesUnder(join(root, r))).filter((f) => !f.endsWith('.test.ts'))) {
    hash.update(relative(root, file).split('\\').join('/')).update('\0').update(readFileSync(file)).update('\0')
    files++
  }
  return { sha256: hash.digest('hex'), files }
}

/** SHA-256 of the configuration as canonical JSON, secrets and connection strings left out. */
export function configDigest(config: object): string {
  const clean = JSON.parse(JSON.stringify(config, (k, v) => (SECRET_KEYS.has(k) ? undefined : v)))
  return createHash('sha256').update(canonicalJson(clean)).digest('hex')
}

export function createSelfVerification(deps: {
  db: Database
  config: object
  clock: { now(): Date }
  version: string
  intervalMs?: number
  onError?: (e: unknown) => void
}) {
  let timer: ReturnType<typeof setInterval> | null = null
  let last: { at: string; codeSha256: string; configSha256: string; files: number; changed: boolean } | null = null

  async function verifyNow(reason: 'start' | 'timer'): Promise<typeof last> {
    const code = codeDigest()
    const configSha256 = configDigest(deps.config)
    const at = deps.clock.now().toISOString()
    // The last journaled digest, so that a change between two runs is said in the record itself.
    const stored = last ? null : await lastSelfVerification(deps.db)
    const previous: { codeSha256?: string; configSha256?: string } | null = last ?? (stored ? JSON.parse(stored) : null)
    const changed = Boolean(previous && (previous.codeSha256 !== code.sha256 || previous.configSha256 !== configSha256))
    await deps.db.transaction((tx) =>
      appendJournal(tx, {
        at,
        type: 'system.self_verified',
        scope: '',
        payload: {
          reason,
          version: deps.version,
          codeSha256: code.sha256,
          files: code.files,
          configSha256,
          changed,
          before: changed
            ? { codeSha256: previous?.codeSha256 ?? null, configSha256: previous?.configSha256 ?? null }
            : null,
          actor: { kind: 'system', id: 'server' },
        },
      }),
    )
    last = { at, codeSha256: code.sha256, configSha256, files: code.files, changed }
    return last
  }

  return {
    verifyNow,
    last: () => last,
    start() {
      const every = deps.intervalMs ?? 24 * 3600_000
      timer = setInterval(() => {
        verifyNow('timer').catch((e) => deps.onError?.(e))
      }, every)
      timer.unref?.()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
}
