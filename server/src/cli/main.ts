import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, toolOptions } from '../config.ts'
import { formatProofVerification, verifyProof } from '../shared/draw-proof-v2.ts'
import { verifyLuckyProof } from '../bingo/pots.ts'
import { createServices } from '../services.ts'
import { runDemoGame } from './demo-game.ts'
import { beaconFileClock, fileBeaconSource, readBeaconFile } from './beacon-file.ts'
import { backupSqlite, restoreSqlite } from './backup.ts'

const usage = `Bolillo — uso:
  npx bolillo start                         arranca el servidor (igual que npm start)
  npx bolillo demo [--cards N] [--json] [--with-cards] [--beacon-file F]
                                            juega una partida completa por RNG y la imprime; con F (líneas JSON
                                            {"round","signature"} de rondas publicadas de drand quicknet) usa la
                                            primera ronda de F como faro, sin red; sin F, el faro de demostración
  npx bolillo verify-draw <proof.json>      comprueba la prueba de una partida (bolillo-draw-v2 o v1), sin red
  npx bolillo verify-journal [--checkpoints F [--public-key PEM]]
                                            recalcula la cadena de hashes del diario (DATA_DIR) y, con F,
                                            comprueba los puntos de control firmados que alguien conserva
  npx bolillo verify-lucky <proof.json>     comprueba la bola loca (GET /api/games/:id/lucky-proof)
  npx bolillo instant generate|verify ...   raspaditas: genera una emisión (npx bolillo instant, issue #7)
  npx bolillo create-director --username U --name "N" [--password-stdin]
                                            crea un director de todas las salas (DATA_DIR o DATABASE_URL); sin
                                            --password-stdin genera una contraseña que se muestra una vez y debe
                                            cambiarse en el primer acceso
  npx bolillo open-print <fichero.sealed> [--out F]
                                            abre una impresión guardada por la impresora de archivo
                                            (DATA_DIR/prints, sellada con la clave de sellado) y escribe el
                                            trabajo ESC/POS o el PDF en F (por defecto, en la salida estándar)
  npx bolillo regulator-export --out DIR    escribe los lotes firmados del canal de control del regulador
                                            (DATA_DIR o DATABASE_URL) en DIR, con la clave pública y un manifiesto
  npx bolillo regulator-check DIR [--key PEM] [--json]
                                            comprobador independiente: firmas, cadena de lotes, premios y totales
  npx bolillo backup <fichero>              copia coherente de la base SQLite en marcha (DATA_DIR)
  npx bolillo restore <fichero> [--force]   restaura una copia en DATA_DIR (con el servidor parado)
  npx bolillo rng-report [--games N] [--out fichero.bin] [--words-per-game W] [--json]
                                            sortea N partidas (defecto 10000) con el motor bolillo-draw-v1 y
                                            semillas de la fuente configurada (BOLILLO_ENTROPY); frecuencias por
                                            bola y posición con chi-cuadrado y p; --out escribe el flujo HMAC
                                            (W uint32 por partida, defecto 96) para: dieharder -a -g 201 -f fichero.bin
`

function flag(args: string[], name: string): boolean {
  return args.includes(name)
}
function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

/** Issue 23 point 5: the chains checked and where each ends (what a checkpoint someone holds must match). */
function chainsText(result: { ok: boolean; chains?: Array<{ chain: string; seq: number }> }): string {
  if (!result.ok || !result.chains) return ''
  return `; ${result.chains.length} chains: ${result.chains.map((c) => `${c.chain} #${c.seq}`).join(', ')}`
}

/** `verify-journal --checkpoints F`: the chain plus every signed checkpoint in F (DESIGN.md "Journal"). */
async function verifyJournalCheckpoints(
  services: Awaited<ReturnType<typeof createServices>>,
  file: string,
  publicKeyFile: string | undefined,
): Promise<number> {
  const { readJournal } = await import('../shared/journal.ts')
  const { parseCheckpoints, verifyCheckpoints } = await import('../shared/checkpoints.ts')
  const checkpoints = parseCheckpoints(readFileSync(file, 'utf8'))
  const records = []
  for await (const r of readJournal(services.db)) records.push(r)
  const publicKey = publicKeyFile ? readFileSync(publicKeyFile, 'utf8') : services.keys.publicKey
  const report = verifyCheckpoints(records, checkpoints, publicKey)
  if (report.ok) {
    process.stdout.write(
      `OK: journal of ${records.length} records verifies and matches all ${report.matched} checkpoints${chainsText(report.chain)}\n`,
    )
    return 0
  }
  if (!report.chain.ok) process.stdout.write(`FAILED at record #${report.chain.badSeq}: ${report.chain.reason}\n`)
  for (const p of report.problems) process.stdout.write(`FAILED checkpoint of record #${p.seq}: ${p.reason}\n`)
  return 1
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv
  switch (command) {
    case 'start':
      await import('../main.ts')
      return -1
    case 'demo': {
      const cards = Number(option(args, '--cards') ?? 200)
      if (!Number.isInteger(cards) || cards < 1 || cards > 1_000_000) {
        process.stderr.write('--cards debe ser un entero entre 1 y 1000000\n')
        return 2
      }
      if (flag(args, '--entropy')) {
        process.stderr.write(
          '--entropy ya no existe: nadie aporta entropía al sorteo (bolillo-draw-v2); use --beacon-file F con rondas publicadas del faro\n',
        )
        return 2
      }
      const env = { ...process.env }
      // Issue 24 point 4: the demo's hall and beacon never go into a production installation's data.
      if (toolOptions(env).production) {
        process.stderr.write(
          'npx bolillo demo no se ejecuta en una instalación sin demo (BOLILLO_SEED_DEMO=false): use otro DATA_DIR sin esa variable\n',
        )
        return 2
      }
      const dataDir = env.DATA_DIR || mkdtempSync(join(tmpdir(), 'bolillo-demo-'))
      // Without a beacon file the demo plays offline with the labelled demo beacon (DESIGN.md point 9).
      // A demo of its own (never a production installation): its hall is the demo's, drawn by the demo beacon.
      const config = loadConfig(
        {
          BOLILLO_DEMO_BEACON: 'true',
          ...env,
          DATA_DIR: dataDir,
          BOLILLO_SEED_DEMO: 'false',
          BOLILLO_LOG_LEVEL: 'warn',
        },
        { production: false },
      )
      const beaconFile = option(args, '--beacon-file')
      let fromFile: { clock: ReturnType<typeof beaconFileClock>; beacon: ReturnType<typeof fileBeaconSource> } | null =
        null
      if (beaconFile) {
        const rounds = readBeaconFile(beaconFile)
        fromFile = { clock: beaconFileClock(rounds[0].round), beacon: fileBeaconSource(rounds, beaconFile) }
      }
      const services = await createServices(config, fromFile ? { clock: fromFile.clock, beacon: fromFile.beacon } : {})
      try {
        const result = await runDemoGame(services, {
          cards,
          withCards: flag(args, '--with-cards'),
          afterClose: () => fromFile?.clock.publish(),
        })
        if (flag(args, '--json')) process.stdout.write(JSON.stringify({ ...result, dataDir }) + '\n')
        else {
          process.stdout.write(`Partida ${result.gameId}: ${result.cardsSold} cartones, ${result.balls.length} bolas\n`)
          for (const w of result.winners)
            process.stdout.write(
              `  ${w.kind === 'line' ? 'Línea' : 'Bingo'} ${w.serial} en la bola ${w.atBall}: ${w.amount}\n`,
            )
          // The demo pays nothing: a prize is paid only at the cash desk (issue 23 point 2).
          if (result.winners.length > 0)
            process.stdout.write('  Premios adjudicados, sin pagar: en la demostración no hay caja ni dinero.\n')
          process.stdout.write(`Datos en ${dataDir}\n`)
        }
      } finally {
        await services.close()
      }
      return 0
    }
    case 'verify-draw': {
      const file = args[0]
      if (!file) {
        process.stderr.write(usage)
        return 2
      }
      const proof = JSON.parse(readFileSync(file, 'utf8'))
      const result = verifyProof(proof)
      process.stdout.write(formatProofVerification(result, proof))
      return result.ok ? 0 : 1
    }
    case 'verify-lucky': {
      // BNG-67 / RNG-28: the lucky ball comes from its own committed seed, independent of the game's draw.
      const file = args[0]
      if (!file) {
        process.stderr.write('uso: npx bolillo verify-lucky <lucky-proof.json>\n')
        return 2
      }
      const proof = JSON.parse(readFileSync(file, 'utf8'))
      const r = verifyLuckyProof(proof)
      process.stdout.write(
        r.ok
          ? `OK: lucky ball ${proof.numbers?.join(', ')} of game ${proof.gameId} follows from its committed seed\n`
          : `FAILED: ${r.errors.join('\n        ')}\n`,
      )
      return r.ok ? 0 : 1
    }
    case 'backup': {
      const target = args[0]
      if (!target) {
        process.stderr.write('uso: npx bolillo backup <fichero.sqlite>\n')
        return 2
      }
      const config = loadConfig({ ...process.env, BOLILLO_SEED_DEMO: 'false' }, toolOptions())
      if (config.databaseUrl) {
        process.stderr.write('PostgreSQL: use pg_dump --format=custom; this command copies the SQLite store\n')
        return 2
      }
      const r = await backupSqlite(config.dataDir, target)
      process.stdout.write(
        `OK: backup of ${r.pages} pages written to ${target}; integrity ok, journal of ${r.journalRecords} records verifies\n`,
      )
      return 0
    }
    case 'open-print': {
      // Issue 24 point 2: the file printer keeps its jobs sealed; whoever holds the sealing key opens one here.
      const file = args[0]
      if (!file) {
        process.stderr.write('uso: npx bolillo open-print <fichero.sealed> [--out F]\n')
        return 2
      }
      const config = loadConfig({ ...process.env, BOLILLO_SEED_DEMO: 'false' }, toolOptions())
      const { openPrintFile } = await import('../../../printer/src/printers.ts')
      const { createSealer, parseSealingKey } = await import('../shared/sealing.ts')
      const { loadSealingKey, SEALING_KEY_FILE } = await import('../shared/sealing-key-file.ts')
      const keyDir = config.keyDir ?? join(config.dataDir, 'keys')
      if (!config.sealingKey && !existsSync(join(keyDir, SEALING_KEY_FILE))) {
        process.stderr.write(`no sealing key in ${keyDir} nor in BOLILLO_SEALING_KEY\n`)
        return 2
      }
      const key = config.sealingKey
        ? parseSealingKey(config.sealingKey)
        : loadSealingKey({ dataDir: config.dataDir, keyDir }).key
      const clear = openPrintFile(createSealer(key), file)
      const out = option(args, '--out')
      if (out) writeFileSync(out, clear, { mode: 0o600 })
      else process.stdout.write(clear)
      return 0
    }
    case 'restore': {
      const source = args[0]
      if (!source) {
        process.stderr.write('uso: npx bolillo restore <fichero.sqlite> [--force]\n')
        return 2
      }
      const config = loadConfig({ ...process.env, BOLILLO_SEED_DEMO: 'false' }, toolOptions())
      const r = await restoreSqlite(source, config.dataDir, flag(args, '--force'))
      process.stdout.write(
        `OK: restored ${source} into ${config.dataDir}; journal of ${r.journalRecords} records verifies\n`,
      )
      return 0
    }
    case 'create-director': {
      // Issue 14 point 5: the first director of a production install (and any later one), on the server's machine.
      const { createDirectorCli } = await import('./create-director.ts')
      return createDirectorCli(args)
    }
    case 'instant': {
      const { runInstantCli } = await import('./instant.ts')
      return runInstantCli(args)
    }
    case 'verify-journal': {
      const config = loadConfig(
        { ...process.env, BOLILLO_SEED_DEMO: 'false', BOLILLO_LOG_LEVEL: 'warn' },
        toolOptions(),
      )
      const services = await createServices(config)
      try {
        const checkpointFile = option(args, '--checkpoints')
        if (checkpointFile)
          return await verifyJournalCheckpoints(services, checkpointFile, option(args, '--public-key'))
        const result = await services.verifyJournal()
        if (result.ok) {
          process.stdout.write(
            `OK: journal of ${result.count} records verifies (hash chain intact); ${result.rows.checked} sealed rows match it${chainsText(result)}\n`,
          )
          return 0
        }
        if (result.badSeq > 0)
          process.stdout.write(
            `FAILED at record #${result.badSeq}: ${result.reason} (${result.count} records checked before it)\n`,
          )
        // Issue 24 point 1: every value row that differs from the journal, by table and id.
        for (const p of result.rows.problems) process.stdout.write(`FAILED row ${p.table} ${p.id}: ${p.what}\n`)
        return 1
      } finally {
        await services.close()
      }
    }
    case 'regulator-export': {
      const out = option(args, '--out')
      if (!out) {
        process.stderr.write('uso / usage: npx bolillo regulator-export --out DIR\n')
        return 2
      }
      const config = loadConfig(
        { ...process.env, BOLILLO_SEED_DEMO: 'false', BOLILLO_LOG_LEVEL: 'warn', BOLILLO_REGULATOR_INTERVAL_MS: '0' },
        toolOptions(),
      )
      const services = await createServices(config)
      try {
        const r = await services.regulator.exportTo(out)
        process.stdout.write(
          `${r.files} lotes de ${r.chains} cadenas escritos en ${out} / ${r.files} batches of ${r.chains} chains written to ${out}\n`,
        )
        return 0
      } finally {
        await services.close()
      }
    }
    case 'regulator-check': {
      // Loaded on its own: the checker shares no code with the server's use cases (eslint.config.js).
      const { runRegulatorCheck } = await import('../regulator-check/cli.ts')
      return runRegulatorCheck(args)
    }
    case 'rng-report': {
      const { runRngReport, formatRngReport } = await import('./rng-report.ts')
      const { selectEntropy } = await import('../../../hardware/src/select.ts')
      const games = Number(option(args, '--games') ?? 10_000)
      const wordsPerGame = Number(option(args, '--words-per-game') ?? 96)
      if (
        !Number.isInteger(games) ||
        games < 1 ||
        games > 100_000_000 ||
        !Number.isInteger(wordsPerGame) ||
        wordsPerGame < 1
      ) {
        process.stderr.write('--games y --words-per-game deben ser enteros positivos\n')
        return 2
      }
      const config = loadConfig({ ...process.env, BOLILLO_SEED_DEMO: 'false' }, toolOptions())
      const entropy = selectEntropy(config)
      const report = runRngReport({
        games,
        entropy,
        out: option(args, '--out') ?? null,
        wordsPerGame,
        onProgress: (n) => process.stderr.write(`  ${n} partidas\r`),
      })
      process.stderr.write('\n')
      process.stdout.write(flag(args, '--json') ? JSON.stringify(report) + '\n' : formatRngReport(report))
      return 0
    }
    default:
      process.stdout.write(usage)
      return command ? 2 : 0
  }
}

main(process.argv.slice(2)).then(
  // exitCode, not exit(): stdout to a pipe is asynchronous and exit() would cut the JSON short.
  (code) => {
    if (code >= 0) process.exitCode = code
  },
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  },
)
