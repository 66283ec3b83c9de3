/**
 * Instant-lottery batch generation at state-lottery scale (issue #7): 10,000,000 tickets generated from a seed, stored
 * in SQLite (one lean row per ticket, large transactions) and written as print data (the per-ticket CSV, the pack
 * list, the restricted prize file and the manifest with their SHA-256). PDF sheets are not rendered here: at about
 * 10 ms a ticket they are a print-shop job for chosen packs (`--sheets`), not part of generation throughput.
 *
 * The generation runs in a child process (`bolillo instant generate ... --json`) so that its peak resident memory
 * is its own (process.resourceUsage().maxRSS, reported by the child).
 *
 * - instant.generate: tickets per second, wall clock of the child process from spawn to exit (startup included).
 * - instant.generate.seconds: that wall-clock time.
 * - instant.generate.cpu_seconds: CPU time (user + system) of the child: on a shared machine, the wall clock also
 *   counts time the child waited for a core.
 * - instant.generate.peak_rss_mb: the child's peak resident set size.
 *
 * Targets: 10,000,000 tickets in <= 30 s with <= 512 MB resident. BENCH_INSTANT_TICKETS overrides the count.
 *
 * Then validation on that same database (issue 15: the prize file is sealed; a ticket's tier is opened from its
 * prize tag inside the use case), in this process, through InstantService.validate (one transaction with its
 * journal record, as the cashier route runs it), on tickets of 100 packs spread over the batch, shipped and
 * activated first:
 * - instant.validate.warm: validations per second, one after another, on one service whose batch keys are open;
 *   instant.validate.warm.p99_ms: their 99th percentile.
 * - instant.validate.cold: the first validation of a fresh service (design checked and batch keys unsealed on the
 *   way), as validations per second; instant.validate.cold.p99_ms: their 99th percentile.
 * BENCH_INSTANT_VALIDATIONS sets how many warm validations (default 5000; cold ones are a tenth).
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openSqlite } from '../server/src/db/sqlite-runtime.ts'
import { createCodeBatch, deriveKey } from '../server/src/instant/codes.ts'
import { instantGeneratorBuild } from '../server/src/instant/generator-build.ts'
import { loadOrCreateInstantPepper } from '../server/src/shared/instant-pepper.ts'
import { createInstantService } from '../server/src/instant/service.ts'
import { sealContext } from '../server/src/instant/context.ts'
import { loadOrCreateKeys } from '../server/src/shared/keys.ts'
import { createSealer } from '../server/src/shared/sealing.ts'
import { loadSealingKey } from '../server/src/shared/sealing-key-file.ts'
import { mean, p99 } from './stats.ts'

interface BenchResult {
  name: string
  value: number
  unit: string
}

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * A design of the shape a state lottery prints: 1 in ~6 wins, pack rules on, 100-ticket books. (Not named bench...:
 * bench/run.ts runs every exported bench* function as a benchmark.)
 */
export function designOfBench(ticketCount: number) {
  // A tier rarer than one ticket in the batch is left out: at a smoke-test size (a few thousand tickets) a single
  // top prize would exceed the declared payout share, and the design would be refused.
  const n = (per10m: number) => Math.round((per10m * ticketCount) / 10_000_000)
  return {
    gameNo: 9001,
    name: 'Raspa Millonaria (bench)',
    currency: 'BOB',
    priceCents: 1000,
    ticketCount,
    packSize: 100,
    playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
    tiers: [
      { amountCents: 100_000_000, count: n(2) },
      { amountCents: 1_000_000, count: n(50) },
      { amountCents: 100_000, count: n(1000) },
      { amountCents: 10_000, count: n(20_000) },
      { amountCents: 5000, count: n(100_000) },
      { amountCents: 2000, count: n(500_000) },
      { amountCents: 1000, count: n(1_000_000) },
    ].filter((t) => t.count > 0),
    payoutShareBp: { min: 2500, max: 7000 },
    packRules: {
      lowTiers: { maxAmountCents: 2000, minPerPack: 8 },
      topTiers: { minAmountCents: 1_000_000, maxPerPack: 1, notFirstOrLast: true },
    },
    claimDays: 90,
    // INS-10: a design fixes the last moment of sale; far ahead, so the bench sells and pays on any date.
    salesEndAt: '2099-12-31T23:59:59-04:00',
    back: { issuer: 'Lotería Nacional (bench)', paymentPlace: 'cajas autorizadas' },
    // LOT-3 / GEN-5: the shipped profile generates a game only under the reference of the regulator's authorisation.
    authorisationRef: 'BENCH (sin autorización real)',
  }
}

export async function benchInstant(emit: (r: BenchResult) => void): Promise<void> {
  const tickets = Number(process.env.BENCH_INSTANT_TICKETS ?? 10_000_000)
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-bench-instant-'))
  try {
    const designFile = join(dir, 'design.json')
    writeFileSync(designFile, JSON.stringify(designOfBench(tickets)))
    // INS-3: the shipped profile generates a batch only under a certificate signed by a registered certifier; a
    // typed reference counts only as the demo's label on a tool run without BOLILLO_SEED_DEMO=false, as here.
    const cert = `DEMO (banco de pruebas, sin certificación real):${instantGeneratorBuild().sha256}`
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: join(dir, 'data'),
      BOLILLO_LOG_LEVEL: 'warn',
      BOLILLO_INSTANT_GENERATOR_CERT: cert,
    }
    delete env.DATABASE_URL
    process.stderr.write(
      `[bench instant] generating ${tickets.toLocaleString('en')} tickets into SQLite + print CSV in a child process\n`,
    )
    const t0 = performance.now()
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'server/src/cli/main.ts'),
          'instant',
          'generate',
          '--design',
          designFile,
          '--out',
          join(dir, 'out'),
          '--sheets',
          'none',
          '--json',
        ],
        { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] },
      )
      let stdout = ''
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString()
      })
      child.on('error', reject)
      child.on('exit', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`instant generate exited with ${code}`)),
      )
    })
    const wall = (performance.now() - t0) / 1000
    const report = JSON.parse(out.trim().split('\n').pop()!) as {
      seconds: number
      cpuSeconds: number
      peakRssMb: number
      ticketCount: number
    }
    if (report.ticketCount !== tickets) throw new Error(`generated ${report.ticketCount} tickets, expected ${tickets}`)
    process.stderr.write(
      `[bench instant] ${wall.toFixed(1)} s wall (generation ${report.seconds.toFixed(1)} s), ${report.cpuSeconds.toFixed(1)} s CPU, peak RSS ${report.peakRssMb} MB\n`,
    )
    emit({ name: 'instant.generate', value: Math.round(tickets / wall), unit: 'tickets/s' })
    emit({ name: 'instant.generate.seconds', value: Math.round(wall * 100) / 100, unit: 's' })
    emit({ name: 'instant.generate.cpu_seconds', value: report.cpuSeconds, unit: 's' })
    emit({ name: 'instant.generate.peak_rss_mb', value: report.peakRssMb, unit: 'MB' })
    await benchValidation(join(dir, 'data'), designOfBench(tickets), emit)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Validation through the service on the batch just generated into `dataDir` (see the header). */
async function benchValidation(
  dataDir: string,
  design: ReturnType<typeof designOfBench>,
  emit: (r: BenchResult) => void,
): Promise<void> {
  const warmCount = Number(process.env.BENCH_INSTANT_VALIDATIONS ?? 5000)
  const coldCount = Math.max(20, Math.round(warmCount / 10))
  const db = await openSqlite(join(dataDir, 'bolillo.sqlite'), { synchronous: 'NORMAL' })
  try {
    const deps = {
      db,
      clock: { now: () => new Date() },
      entropy: { name: 'os-csprng', randomBytes: (n: number) => randomBytes(n) },
      keys: loadOrCreateKeys(dataDir),
      sealer: createSealer(loadSealingKey({ dataDir }).key),
      pepper: loadOrCreateInstantPepper(dataDir),
    }
    const admin = createInstantService(deps)
    // The bench plays the secure printer: the codes under the scratch layer come from the print run's seed, opened
    // here with the sealing key (the audit route opens it only after the game's claim period, issue 24).
    const row = await db.get<{ seed_sealed: string; seed_commitment: string }>(
      'SELECT seed_sealed, seed_commitment FROM instant_batches WHERE game_no = ?',
      [design.gameNo],
    )
    const seed = deps.sealer.open(row!.seed_sealed, sealContext('seed', design.gameNo, row!.seed_commitment))
    const codeBatch = createCodeBatch(deriveKey(seed, design.gameNo, 'code'), design.gameNo)
    const packCount = design.ticketCount / design.packSize
    const codes: string[] = []
    for (let i = 0; i < 100; i++) {
      const packNo = 1 + Math.floor((i * packCount) / 100)
      await admin.shipPacks({
        gameNo: design.gameNo,
        fromPack: packNo,
        toPack: packNo,
        destination: 'bench',
        by: 'bench',
      })
      await admin.activatePack({ gameNo: design.gameNo, packNo, location: 'bench', by: 'bench' })
      codes.push(...codeBatch.codes((packNo - 1) * design.packSize, design.packSize))
    }
    const code = (i: number) => codes[(i * 7919) % codes.length]

    const warm = createInstantService(deps)
    await warm.validate({ code: code(0) })
    const warmMs: number[] = []
    const w0 = performance.now()
    for (let i = 1; i <= warmCount; i++) {
      const t = performance.now()
      await warm.validate({ code: code(i), stationId: 'bench', cashierId: 'bench' })
      warmMs.push(performance.now() - t)
    }
    const warmSeconds = (performance.now() - w0) / 1000

    const coldMs: number[] = []
    for (let i = 0; i < coldCount; i++) {
      const t = performance.now()
      await createInstantService(deps).validate({
        code: code(warmCount + 1 + i),
        stationId: 'bench',
        cashierId: 'bench',
      })
      coldMs.push(performance.now() - t)
    }
    process.stderr.write(
      `[bench instant] validation on ${design.ticketCount.toLocaleString('en')} tickets: warm ${warmCount} in ${warmSeconds.toFixed(2)} s (p99 ${p99(warmMs).toFixed(3)} ms), cold ${coldCount} mean ${mean(coldMs).toFixed(3)} ms (p99 ${p99(coldMs).toFixed(3)} ms)\n`,
    )
    emit({ name: 'instant.validate.warm', value: Math.round(warmCount / warmSeconds), unit: 'validations/s' })
    emit({ name: 'instant.validate.warm.p99_ms', value: Math.round(p99(warmMs) * 1000) / 1000, unit: 'ms' })
    emit({ name: 'instant.validate.cold', value: Math.round(1000 / mean(coldMs)), unit: 'validations/s' })
    emit({ name: 'instant.validate.cold.p99_ms', value: Math.round(p99(coldMs) * 1000) / 1000, unit: 'ms' })
  } finally {
    await db.close()
  }
}
