/**
 * Issue 28 point 5 (GLI-19, AGCO): the server verifies its own critical components at start and every 24 hours: a
 * SHA-256 digest (256 bits, over the 128 the standards ask) of its code and one of its configuration, journaled as a
 * significant event (`system.self_verified`) that the control feed carries to the regulator. A digest that differs
 * from the previous one is said plainly in the record (`changed`).
 *
 * The configuration digest leaves secrets out (the sealing key): it must not let anyone test guesses of them.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
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

/** The operator's release register (`bolillo-release-register-v1`): the builds certified for this operator. */
export interface ReleaseRegister {
  schema: 'bolillo-release-register-v1'
  releases: Array<{
    version: string
    /** The code digest (`codeDigest`) of the certified build, lowercase hex. */
    codeSha256: string
    /** The Certificado de Cumplimiento (RNG-3) or the certifier's report reference. */
    certificate: string
    certifiedBy?: string
    registeredAt?: string
  }>
}

/** The server refused to start: its build is not in the release register (a clear message in both languages). */
export class ReleaseNotRegisteredError extends Error {
  constructor(
    readonly codeSha256: string,
    readonly registerPath: string,
    why: string,
  ) {
    super(
      `Arranque rechazado: esta versión del servidor (código SHA-256 ${codeSha256}) no figura en el registro de ` +
        `versiones certificadas ${registerPath} (${why}). El perfil exige versiones certificadas (RNG-3): instale una ` +
        `versión certificada o añada esta al registro una vez certificada. / Start refused: this build (code SHA-256 ` +
        `${codeSha256}) is not in the release register ${registerPath}; the profile requires certified builds.`,
    )
    this.name = 'ReleaseNotRegisteredError'
  }
}

/** Reads the register; `why` says what is wrong with it when it cannot be read. */
export function readReleaseRegister(path: string): { register: ReleaseRegister | null; why: string | null } {
  if (!existsSync(path)) return { register: null, why: 'no existe el registro / no register file' }
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as ReleaseRegister
    if (r.schema !== 'bolillo-release-register-v1' || !Array.isArray(r.releases))
      return { register: null, why: 'registro con otro formato / not a bolillo-release-register-v1 file' }
    return { register: r, why: null }
  } catch (e) {
    return { register: null, why: `registro ilegible / unreadable register: ${(e as Error).message}` }
  }
}

export function createSelfVerification(deps: {
  db: Database
  config: object
  clock: { now(): Date }
  version: string
  intervalMs?: number
  onError?: (e: unknown) => void
  /** Issue 28 point 5: the release register, and whether the profile or the configuration requires certified builds. */
  release?: { path: string; required: boolean }
  /** The code digest (tests give one; the server computes its own). */
  codeDigest?: () => { sha256: string; files: number }
}) {
  let timer: ReturnType<typeof setInterval> | null = null
  let last: {
    at: string
    codeSha256: string
    configSha256: string
    files: number
    changed: boolean
    release: { version: string; certificate: string } | null
  } | null = null
  const every = deps.intervalMs ?? 24 * 3600_000

  async function verifyNow(reason: 'start' | 'timer'): Promise<typeof last> {
    const code = (deps.codeDigest ?? codeDigest)()
    const configSha256 = configDigest(deps.config)
    const at = deps.clock.now().toISOString()
    // The release register: which certified release this build is, if any.
    let release: { version: string; certificate: string } | null = null
    if (deps.release) {
      const { register, why } = readReleaseRegister(deps.release.path)
      const entry = register?.releases.find((r) => r.codeSha256 === code.sha256) ?? null
      release = entry ? { version: entry.version, certificate: entry.certificate } : null
      if (!entry && deps.release.required) {
        const reasonText = why ?? 'versión no registrada / build not registered'
        // The refusal is itself a significant event (an integrity failure) the regulator receives.
        await deps.db.transaction(
          (tx) =>
            appendJournal(tx, {
              at,
              type: 'system.build_refused',
              scope: '',
              payload: {
                reason,
                codeSha256: code.sha256,
                register: deps.release!.path,
                why: reasonText,
                rule: 'RNG-3',
                actor: { kind: 'system', id: 'server' },
              },
            }),
          // The operator chain's record alone: a start-up or hourly check stops no hall's sales (issue 23 point 5).
          { scopes: ['operator'] },
        )
        throw new ReleaseNotRegisteredError(code.sha256, deps.release.path, reasonText)
      }
    }
    // The last journaled digest, so that a change between two runs is said in the record itself.
    const stored = last ? null : await lastSelfVerification(deps.db)
    const previous: { codeSha256?: string; configSha256?: string } | null = last ?? (stored ? JSON.parse(stored) : null)
    const changed = Boolean(previous && (previous.codeSha256 !== code.sha256 || previous.configSha256 !== configSha256))
    await deps.db.transaction(
      (tx) =>
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
            release,
            before: changed
              ? { codeSha256: previous?.codeSha256 ?? null, configSha256: previous?.configSha256 ?? null }
              : null,
            actor: { kind: 'system', id: 'server' },
          },
        }),
      { scopes: ['operator'] },
    )
    last = { at, codeSha256: code.sha256, configSha256, files: code.files, changed, release }
    return last
  }

  /**
   * Verifies again once 24 hours (the interval) have passed since the last verification on the injected clock; the
   * timer only asks often, the clock decides.
   */
  async function tick(): Promise<boolean> {
    if (last && deps.clock.now().getTime() - Date.parse(last.at) < every) return false
    await verifyNow(last ? 'timer' : 'start')
    return true
  }

  return {
    verifyNow,
    tick,
    /** Whether a build absent from the release register must not start. */
    releaseRequired: Boolean(deps.release?.required),
    last: () => last,
    start() {
      timer = setInterval(
        () => {
          tick().catch((e) => deps.onError?.(e))
        },
        Math.min(every, 60_000),
      )
      timer.unref?.()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
}
