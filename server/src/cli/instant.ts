/**
 * `npx bolillo instant ...`: generate an instant-ticket batch into the database (DATA_DIR or DATABASE_URL) and
 * write its print files; check a directory of print files against its manifest.
 */
import { getProfile } from '../shared/profile.ts'
import { createHash, verify as verifySignature } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { isInside } from '../shared/print-files.ts'
import { Worker } from 'node:worker_threads'
import { loadConfig, toolOptions } from '../config.ts'
import type { Database } from '../db/database.ts'
import { migrate } from '../db/migrate.ts'
import { openSqlite } from '../db/sqlite-runtime.ts'
import { DomainError } from '../shared/errors.ts'
import { checkDesign, type InstantDesign } from '../instant/design.ts'
import { publicKeyId } from '../shared/ticket-code.ts'
import { createInstantService } from '../instant/service.ts'
import { writeManifest, type FileEntry } from '../instant/files.ts'
import type { PrintWorkerInput } from '../instant/print-worker.ts'
import { loadOrCreateInstantPepper } from '../shared/instant-pepper.ts'
import { loadOrCreateKeysIn } from '../shared/keys.ts'
import { assertProductionStart } from '../shared/production.ts'
import { rowSealKeyOf, withRowSeals } from '../shared/row-seal-database.ts'
import { createSealer, parseSealingKey } from '../shared/sealing.ts'
import { loadSealingKey } from '../shared/sealing-key-file.ts'
import { selectEntropy } from '../../../hardware/src/select.ts'
import { SEED_BYTES, seedCommitment } from '../instant/codes.ts'
import { sealContext } from '../instant/context.ts'
import { typedSeedRefused } from '../instant/games.ts'
import { messages } from '../http/messages.ts'
import { certificateUsage, certifierKey, signCertificate } from './generator-certificate.ts'

type PrintResult = { files: FileEntry[]; placementSha256: string; tierCounts: number[] }

export const instantUsage = `  npx bolillo instant generate --design <diseño.json> --out <dir>
                 [--sheets none|all|<desde>-<hasta>] [--no-db] [--json]
                                            genera una emisión de raspaditas: la guarda en la base (DATA_DIR o
                                            DATABASE_URL) y escribe los ficheros de imprenta y el manifiesto
                                            (--sheets: PDF de los paquetes indicados; por defecto todos si hay
                                            10.000 boletos o menos). La semilla (256 bits) la toma el servidor
                                            de su fuente de entropía y la guarda sellada; nadie la escribe ni la
                                            ve (la abre un auditor autorizado). --out no puede estar en DATA_DIR.
  npx bolillo instant verify <dir>          comprueba los ficheros de imprenta contra manifest.json y su firma
`

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

/** Progress on stderr: a bar with rate and time left, redrawn in place on a terminal, a line every 5 s otherwise. */
function progressBar(label: string) {
  const start = performance.now()
  let last = 0
  const tty = process.stderr.isTTY === true
  const fmt = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`
  return {
    update(done: number, total: number, force = false) {
      const t = performance.now()
      if (!force && t - last < (tty ? 200 : 5000)) return
      last = t
      const elapsed = (t - start) / 1000
      const rate = done / Math.max(elapsed, 1e-3)
      const left = rate > 0 ? (total - done) / rate : 0
      const width = 30
      const filled = Math.round((done / total) * width)
      const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${((done / total) * 100).toFixed(1).padStart(5)}%  ${done.toLocaleString('en')}/${total.toLocaleString('en')}  ${Math.round(rate).toLocaleString('en')} tickets/s  ETA ${fmt(left)}`
      process.stderr.write(tty ? `\r${line}` : `${line}\n`)
    },
    done() {
      if (tty) process.stderr.write('\n')
    },
  }
}

/** Packs that get PDF sheets: [from, to] or null. By default all of a small game (10,000 tickets or fewer), none of a big one. */
function parseSheets(spec: string | undefined, ticketCount: number, packCount: number): [number, number] | null {
  if (spec === undefined) return ticketCount <= 10_000 ? [1, packCount] : null
  if (spec === 'none') return null
  if (spec === 'all') return [1, packCount]
  const m = /^(\d+)(?:-(\d+))?$/.exec(spec)
  if (!m) throw new DomainError('VALIDATION_FAILED', '--sheets must be none, all, N or N-M (pack numbers)')
  const a = Number(m[1])
  const b = Number(m[2] ?? m[1])
  if (a < 1 || b < a || b > packCount)
    throw new DomainError('VALIDATION_FAILED', `--sheets packs must be within 1..${packCount}`)
  return [a, b]
}

/** Runs the print-file worker; resolves with its result. */
function printWorker(input: PrintWorkerInput, onProgress: (done: number) => void): Promise<PrintResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../shared/worker-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('../instant/print-worker.ts', import.meta.url).href, input },
    })
    let result: PrintResult | null = null
    worker.on('message', (m: { type: 'progress'; done: number } | { type: 'done'; result: PrintResult }) => {
      if (m.type === 'progress') onProgress(m.done)
      else result = m.result
    })
    worker.on('error', reject)
    worker.on('exit', (code) =>
      result && code === 0 ? resolve(result) : reject(new Error(`print worker exited with code ${code}`)),
    )
  })
}

async function openDb(dataDir: string, databaseUrl: string | null, synchronous: 'FULL' | 'NORMAL'): Promise<Database> {
  if (databaseUrl) {
    const { openPostgres } = await import('../db/postgres.ts')
    return openPostgres(databaseUrl)
  }
  return openSqlite(join(dataDir, 'bolillo.sqlite'), { synchronous })
}

async function generate(args: string[]): Promise<number> {
  if (args.some((a) => a === '--seed' || a.startsWith('--seed='))) throw typedSeedRefused()
  const designFile = option(args, '--design')
  const out = option(args, '--out')
  if (!designFile || !out) {
    process.stderr.write(instantUsage)
    return 2
  }
  const design = JSON.parse(readFileSync(designFile, 'utf8')) as InstantDesign
  const checked = checkDesign(design)
  const json = args.includes('--json')
  const noDb = args.includes('--no-db')
  const config = loadConfig({ ...process.env, BOLILLO_SEED_DEMO: 'false', BOLILLO_LOG_LEVEL: 'warn' }, toolOptions())
  // INS-3 / RNG-27: without the database there is no registry of certifiers to verify the certificate against, so
  // where the profile requires a certified generator the print files come only from a batch generated into it.
  if (noDb && getProfile(config.profileId)?.instantGeneratorCertificationRequired)
    throw new DomainError(
      'DEVICE_NOT_CERTIFIED',
      `--no-db: under ${config.profileId} a batch is generated only under a certificate verified against the registry of certifiers in the database (INS-3); leave --no-db out`,
      { rule: 'INS-3', problems: ['no-certifier-registry'] },
    )
  // The print files hold the prize file (secure printer, restricted audit): never under DATA_DIR, whose backups and
  // copies must carry only sealed prize data (DESIGN.md "Sealed secrets").
  if (isInside(resolve(out), resolve(config.dataDir)))
    throw new DomainError(
      'VALIDATION_FAILED',
      `--out ${out} is inside DATA_DIR (${config.dataDir}): write the print files elsewhere`,
    )
  assertProductionStart(config)
  const keys = loadOrCreateKeysIn(config.keyDir!)
  const sealer = createSealer(
    config.sealingKey
      ? parseSealingKey(config.sealingKey)
      : loadSealingKey({ dataDir: config.dataDir, keyDir: config.keyDir }).key,
  )
  // The health-tested source of draw seeds (BOLILLO_ENTROPY, RNG-32), as the server uses.
  const entropy = selectEntropy(config, {
    onFailure: (reason) => process.stderr.write(`entropy source failed its health tests: ${reason}\n`),
  })
  const sheets = parseSheets(option(args, '--sheets'), design.ticketCount, checked.packCount)
  const operatorKeyId = publicKeyId(keys.publicKey)
  const bar = progressBar(`instant ${String(design.gameNo).padStart(4, '0')}`)
  const t0 = performance.now()
  let stored = 0
  let printed = 0
  const progress = () => bar.update(noDb ? printed : Math.min(stored, printed), design.ticketCount)
  // The print files come from a worker thread, the database rows from this one: both derive the batch from the
  // design and the seed (handed to the worker in memory), on two cores; their placement digests must agree.
  let seed: Uint8Array | null = null
  let printing: Promise<PrintResult> | null = null
  const startPrinting = (s: Uint8Array) => {
    seed = s
    printing = printWorker(
      {
        outDir: out,
        design,
        seed: s,
        sheets,
        operatorKeyPem: String(keys.privateKey.export({ type: 'pkcs8', format: 'pem' })),
        operatorKeyId,
      },
      (done) => {
        printed = done
        progress()
      },
    )
    printing.catch(() => undefined)
  }
  let summary: Record<string, unknown> & { placementSha256?: string }
  if (noDb) {
    // No database to keep the sealed seed: the manifest carries it, sealed (only the sealing key opens it).
    const s = Buffer.from(entropy.randomBytes(SEED_BYTES))
    if (s.length !== SEED_BYTES)
      throw new DomainError('ENTROPY_HEALTH_FAILED', `the entropy source gave ${s.length} bytes`)
    startPrinting(s)
    const commitment = seedCommitment(s)
    summary = {
      gameNo: design.gameNo,
      ticketCount: design.ticketCount,
      database: null,
      seedCommitment: commitment,
      sealedSeed: sealer.seal(s, sealContext('seed', design.gameNo, commitment)),
      sealingKeyId: sealer.keyId,
    }
  } else {
    const raw = await openDb(config.dataDir, config.databaseUrl, config.sqliteSynchronous)
    // Issue 24 point 1, INS-3: the rows this command reads (the registry of certifiers) are checked against their
    // seals and the rows it writes are sealed, as in the server: a certifier put back active behind the journal is
    // refused here too (ROW_TAMPERED), not trusted because the command opened the database itself.
    const db = withRowSeals(raw, rowSealKeyOf(sealer), () => new Date())
    try {
      await migrate(raw)
      const service = createInstantService({
        db,
        keys,
        sealer,
        pepper: loadOrCreateInstantPepper(config.dataDir, config.keyDir),
        clock: { now: () => new Date() },
        entropy: { name: entropy.name, randomBytes: (n) => entropy.randomBytes(n) },
        // INS-3: the same generator certification rule as the server's.
        generator: {
          required: getProfile(config.profileId)?.instantGeneratorCertificationRequired ?? false,
          certification: config.instantGeneratorCertification ?? null,
          demoAccepted: !(config.production ?? false),
        },
        designAuthorisationRequired: getProfile(config.profileId)?.instantDesignAuthorisationRequired ?? false,
      })
      const result = await service.generateBatch({
        design,
        onSeed: startPrinting,
        onProgress: (done) => {
          stored = done
          progress()
        },
        by: { kind: 'cli', id: process.env.USER ?? 'cli' },
      })
      summary = { ...result, database: db.engine }
    } catch (err) {
      await (printing as Promise<PrintResult> | null)?.catch(() => undefined)
      throw err
    } finally {
      await raw.close()
      ;(entropy as { close?(): void }).close?.()
    }
  }
  if (!printing || !seed) throw new Error('the batch seed was never fixed')
  const print = await (printing as Promise<PrintResult>)
  if (summary.placementSha256 !== undefined && summary.placementSha256 !== print.placementSha256) {
    throw new Error(
      `the print files (placement ${print.placementSha256}) and the database (placement ${summary.placementSha256}) disagree: do not print`,
    )
  }
  bar.update(design.ticketCount, design.ticketCount, true)
  bar.done()
  const { manifestPath } = writeManifest({
    outDir: out,
    checked,
    seed: seed as Uint8Array,
    files: print.files,
    placementSha256: print.placementSha256,
    tierCounts: print.tierCounts,
    operatorKey: keys.privateKey,
    operatorKeyId,
    extra: {
      database: summary.database,
      batchId: summary.batchId ?? null,
      ...(summary.sealedSeed ? { sealedSeed: summary.sealedSeed, sealingKeyId: summary.sealingKeyId } : {}),
    },
  })
  const seconds = (performance.now() - t0) / 1000
  const usage = process.resourceUsage()
  const peakRssMb = Math.round(usage.maxRSS / 1024)
  const cpuSeconds = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000) / 1000
  const report = {
    ...summary,
    seconds: Math.round(seconds * 1000) / 1000,
    ticketsPerSecond: Math.round(design.ticketCount / seconds),
    cpuSeconds,
    peakRssMb,
    manifest: manifestPath,
  }
  if (json) process.stdout.write(JSON.stringify(report) + '\n')
  else {
    process.stdout.write(
      `Emisión ${design.gameNo} "${design.name}": ${design.ticketCount.toLocaleString('es')} boletos en ${checked.packCount.toLocaleString('es')} paquetes, ` +
        `${seconds.toFixed(1)} s (${report.ticketsPerSecond.toLocaleString('es')} boletos/s), memoria máx. ${peakRssMb} MB\n`,
    )
    process.stdout.write(
      `Fondo de premios ${checked.prizeFundCents} (${(checked.payoutShareBp / 100).toFixed(2)} % de las ventas). Manifiesto: ${manifestPath}\n`,
    )
  }
  return 0
}

/** Recomputes the SHA-256 of every file named in a manifest and checks the manifest's signature. */
function verifyDir(dir: string): number {
  const text = readFileSync(join(dir, 'manifest.json'), 'utf8')
  const manifest = JSON.parse(text) as {
    files: Array<{ name: string; sha256: string; bytes: number }>
    operatorKeyId: string
  }
  const errors: string[] = []
  for (const f of manifest.files) {
    const path = join(dir, f.name)
    if (!existsSync(path)) {
      errors.push(`${f.name}: missing`)
      continue
    }
    const hash = createHash('sha256').update(readFileSync(path)).digest('hex')
    if (hash !== f.sha256) errors.push(`${f.name}: SHA-256 ${hash} differs from the manifest`)
  }
  const config = loadConfig({ ...process.env, BOLILLO_SEED_DEMO: 'false' }, toolOptions())
  assertProductionStart(config)
  const keys = loadOrCreateKeysIn(config.keyDir!)
  const sigPath = join(dir, 'manifest.sig')
  if (!existsSync(sigPath)) errors.push('manifest.sig: missing')
  else if (
    !verifySignature(
      null,
      Buffer.from(text, 'utf8'),
      keys.publicKey,
      Buffer.from(readFileSync(sigPath, 'utf8').trim(), 'base64url'),
    )
  ) {
    errors.push(
      `manifest.sig: does not verify with this operator key (${publicKeyId(keys.publicKey)}; manifest names ${manifest.operatorKeyId})`,
    )
  }
  if (errors.length) {
    process.stdout.write(`FAILED:\n  ${errors.join('\n  ')}\n`)
    return 1
  }
  process.stdout.write(`OK: ${manifest.files.length} files match manifest.json, signature verifies\n`)
  return 0
}

export async function runInstantCli(args: string[]): Promise<number> {
  const [sub, ...rest] = args
  try {
    if (sub === 'generate') return await generate(rest)
    if (sub === 'verify' && rest[0]) return verifyDir(rest[0])
    if (sub === 'certifier-key') return certifierKey(rest)
    if (sub === 'sign-certificate') return signCertificate(rest)
  } catch (err) {
    if (err instanceof DomainError) {
      // Spanish first, as on the screens, then the detail.
      process.stderr.write(
        err.code === 'TYPED_SEED_REFUSED'
          ? `${messages.TYPED_SEED_REFUSED.es}\n${messages.TYPED_SEED_REFUSED.en}\n`
          : // A row that does not match its seal: what it means, then which rows of which tables.
            err.code === 'ROW_TAMPERED'
            ? `${messages.ROW_TAMPERED.es}\n${messages.ROW_TAMPERED.en}\n${err.message}\n`
            : `${err.message}\n`,
      )
      return err.code === 'TYPED_SEED_REFUSED' ? 2 : 1
    }
    throw err
  }
  process.stderr.write(instantUsage + certificateUsage)
  return 2
}
