import { randomBytes } from 'node:crypto'
import { pooledRandomBytes } from './shared/random-pool.ts'
import { readFileSync } from 'node:fs'
import { createMjpegRelay } from '../../hardware/src/mjpeg-relay.ts'
import { join } from 'node:path'
import { createBingoService, type BingoEvent } from './bingo/service.ts'
import type { Clock, EntropySource } from './shared/clock.ts'
import { appendJournal, readJournal } from './shared/journal.ts'
import { secureDataDir } from './shared/data-dir.ts'
import { createSealer, parseSealingKey, type Sealer } from './shared/sealing.ts'
import { loadSealingKey } from './shared/sealing-key-file.ts'
import { hashClearShortCodes } from './cashdesk/vouchers.ts'
import { createBeaconSource, loadOrCreateDemoBeacon, type BeaconSource } from './shared/beacon-source.ts'
import { loadSessionMinutes } from './bingo/minutes.ts'
import { gameScope } from './bingo/context.ts'
import { gameById } from './bingo/store/games.ts'
import { createCheckpointer } from './shared/checkpoint-service.ts'
import { createAuthService, type PasswordHashing } from './access/service.ts'
import { createRefusalLog } from './access/refusals.ts'
import { createPlayerAdmission } from './access/players.ts'
import { sealIdentitiesAtRest } from './access/identity-at-rest.ts'
import { createCashdesk } from './cashdesk/service.ts'
import { createPaidSales } from './cashdesk/paid-sales.ts'
import { createTicketDesk } from './cashdesk/ticket-desk.ts'
import { createCardLookup } from './cashdesk/card-lookup.ts'
import { hallById as cashdeskHallById, hallOfStation, personNameOf, stationNameOf } from './cashdesk/store.ts'
import { createPrinterPool, type PrinterPool } from '../../printer/src/printers.ts'
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import { migrate } from './db/migrate.ts'
import { openSqlite } from './db/sqlite-runtime.ts'
import { OPERATOR_CHAIN, verifyChain, type JournalRecord } from './shared/journal-chain.ts'
import { rowSealKeyOf, sealLegacyRows, withRowSeals } from './shared/row-seal-database.ts'
import { collectJournalSeals, verifySealedRows } from './shared/row-seals.ts'
import { recomputeBalances, rowsVerdict, voucherRefProblems } from './shared/row-verify.ts'
import { loadOrCreateKeysIn, type OperatorKeys } from './shared/keys.ts'
import { assertProductionStart } from './shared/production.ts'
import { createDemoScopeCheck, demoDeviceIds } from './shared/demo-scope.ts'
import { createLogger, type Logger } from './log.ts'
import { createEquipment } from './equipment/service.ts'
import { softwareBuild } from './equipment/software.ts'
import { createInstantService } from './instant/service.ts'
import { loadOrCreateInstantPepper } from './shared/instant-pepper.ts'
import { createBonusService } from './bingo/bonus-service.ts'
import { createComplaintsService } from './bingo/complaints-service.ts'
import { createCardCustodyService } from './bingo/card-custody-service.ts'
import { createRetentionService } from './bingo/retention-service.ts'
import { createHallClosureService, hallClosureHooks } from './bingo/hall-closure-service.ts'
import { demoReferenceHooks } from './bingo/demo-references.ts'
import { createLottoService } from './lotto/service.ts'
import { getProfile } from './shared/profile.ts'
import { createLotteryService } from './lottery/service.ts'
import { createCloseOfSalesPublisher } from './regulator/close-of-sales.ts'
import { createRegulatorFeed } from './regulator/feed.ts'
import { createSelfVerification } from './regulator/self-check.ts'
import { createTerminalService, terminalHooks } from './terminals/service.ts'

export const osEntropy: EntropySource = { name: 'os-csprng', randomBytes: (n) => randomBytes(n) }

/** The OS CSPRNG for record ids, pooled (shared/random-pool.ts): ids only, never seeds. */
export function pooledIdEntropy(): EntropySource {
  return { name: 'os-csprng', randomBytes: pooledRandomBytes() }
}
const idEntropy = pooledIdEntropy()
export const systemClock: Clock = { now: () => new Date() }

export interface ServiceOverrides {
  clock?: Clock
  /** Issue 28 point 5: the build's code digest as the self-verification sees it (tests stand in for a build). */
  codeDigest?: () => { sha256: string; files: number }
  entropy?: EntropySource
  log?: Logger
  db?: Database
  keys?: OperatorKeys
  printers?: PrinterPool
  sealer?: Sealer
  beacon?: BeaconSource
  /** The scrypt cost of new password hashes; tests lower it (test/helpers/server.ts), the shipped server never does. */
  passwordHashing?: PasswordHashing
}

/** Composition of storage, domain services and adapters; shared by the HTTP server, the CLI and the demo. */
export async function createServices(config: Config, overrides: ServiceOverrides = {}) {
  const log = overrides.log ?? createLogger(config.logLevel)
  // Issue 24 point 4: a server without the demo takes no DEMO reference, no demo beacon and no key from DATA_DIR.
  assertProductionStart(config)
  const keyDir = config.keyDir ?? join(config.dataDir, 'keys')
  // Before anything is written: DATA_DIR and all it holds are the server user's alone (DESIGN.md "Sealed secrets").
  secureDataDir(config.dataDir)
  const rawDb = overrides.db ?? (await openDatabase(config))
  await migrate(rawDb)
  // Seeds, draw orders and prize files are sealed under a key kept out of the database.
  const sealer =
    overrides.sealer ??
    createSealer(
      config.sealingKey ? parseSealingKey(config.sealingKey) : loadSealingKey({ dataDir: config.dataDir, keyDir }).key,
    )
  // Issue 24 point 1: every row that carries value is sealed under a key derived from the sealing key, bound to the
  // journal record that wrote it; rows from before the seals are sealed once, here (README "Sealed rows").
  const rowSealKey = rowSealKeyOf(sealer)
  const db = withRowSeals(rawDb, rowSealKey, () => (overrides.clock ?? systemClock).now())
  const legacySealed = await sealLegacyRows(db)
  if (legacySealed > 0)
    log.warn(
      `${legacySealed} value row(s) written before row seals were sealed once (journal record rows.legacy_sealed)`,
    )
  // Issue 24 point 2: short codes stored in clear by an older version are hashed once, under a key SQL cannot see.
  const rehashed = await hashClearShortCodes(db, sealer)
  if (rehashed > 0) log.info(`${rehashed} voucher short code(s) replaced by their keyed hash`)
  // bolillo-draw-v2's public randomness: quicknet relays, staff-typed signatures, or the labelled demo beacon.
  const beacon =
    overrides.beacon ??
    createBeaconSource({
      relays: config.beaconRelays ?? [],
      timeoutMs: config.beaconTimeoutMs,
      demo:
        !config.production && (config.demoBeacon ?? true)
          ? loadOrCreateDemoBeacon(config.dataDir, (n) => (overrides.entropy ?? osEntropy).randomBytes(n))
          : null,
      // Issue 24 point 4: the demo beacon signs the demo's own hall and draws only (tests of their own halls: any).
      demoScope: config.demoBeaconScope === 'any' ? undefined : createDemoScopeCheck(db),
      onRefused: (r) => {
        const at = (overrides.clock ?? systemClock).now().toISOString()
        // Issue 23 point 5: one record of the operator chain and no row: that chain's lock alone (db/scopes.ts).
        db.transaction(
          (tx) =>
            appendJournal(tx, {
              at,
              type: 'beacon.refused',
              scope: '',
              payload: { ...r, actor: { kind: r.source === 'relay' ? 'relay' : 'staff' } },
            }),
          { scopes: [OPERATOR_CHAIN] },
        ).catch((e) => log.warn('could not journal a refused beacon value', e))
      },
      onRelayFailure: (f) => log.warn(`beacon relay ${f.relay} failed for round ${f.round}: ${f.reason}`),
    })
  const listeners = new Set<(e: BingoEvent) => void>()
  // Issue #5: seed entropy source (BOLILLO_ENTROPY), device registry, ball sets, blower (BOLILLO_BALL_SOURCE).
  const equipment = createEquipment({ config, db, log, clock: overrides.clock ?? systemClock })
  // Issue #8: prima, pots, lucky ball (its own seeds from the OS CSPRNG, RNG-28), simultaneous games.
  const bonus = createBonusService({
    db,
    clock: overrides.clock ?? systemClock,
    entropy: overrides.entropy ?? osEntropy,
    sealer,
    demoReferencesRefused: config.production ?? false,
    publish: (e) => {
      for (const l of listeners) l(e)
    },
  })
  const bingo = createBingoService({
    db,
    clock: overrides.clock ?? systemClock,
    entropy: overrides.entropy ?? equipment.entropy,
    idEntropy: overrides.entropy ?? idEntropy,
    // Issue 18, BNG-65: a closed hall opens no session, announces no game, sells no card.
    // Issue 24 point 4: outside the demo, no game or card under a hall's demo Plan de Apuestas.
    hooks: [
      hallClosureHooks,
      ...(config.production ? [demoReferenceHooks] : []),
      ...equipment.hooks,
      // Issue 26 (RNG-30): a simultaneous game starts only with the central's camera where the profile requires it.
      // BNG-34: on a production server, no sale opens without the hall's ball-exit camera where the profile requires
      // it (a demo or test server has no camera to register; its halls play without the image).
      ...(config.production ? [{ salesOpening: equipment.cameras.salesOpening }] : []),
      {
        async salesClosed(tx, e) {
          if ((await bonus.gameHallsWithin(tx, e.game.id)).length > 0)
            await equipment.cameras.simultaneousStarting(tx, e)
        },
      },
      bonus.hooks,
      // Issue 27 (BNG-9): the range of each series reserved for the hall's terminals.
      terminalHooks,
    ],
    publish: (e) => {
      for (const l of listeners) l(e)
    },
    sealer,
    beacon,
    autoBeacon: true,
    // Issue 26 (RNG-32 point 4): every ball's journal record names the draw engine's version and build hash.
    drawEngine: softwareBuild('draw-engine'),
  })
  const blowers = await equipment.startBlowers(bingo)
  const videoRelay = createMjpegRelay()
  const keys = overrides.keys ?? loadOrCreateKeysIn(keyDir)
  const auth = createAuthService({
    db,
    clock: overrides.clock ?? systemClock,
    options: {
      demoAccountsDisabled: config.production ?? false,
      demoReferencesRefused: config.production ?? false,
      passwordHashing: overrides.passwordHashing,
    },
  })
  // Issue 24 point 4: the demo's enrolled devices (credentials published in DATA_DIR) are revoked outside the demo.
  if (config.production) {
    const revoked = await auth.revokeDemoDevices([
      ...(await demoDeviceIds(db)),
      ...demoCredentialFileDevices(config.dataDir),
    ])
    if (revoked > 0) log.warn(`${revoked} demo device(s) revoked: the server runs without the demo`)
  }
  // Issue 14 point 4: anonymous refusals, journaled as one summary a minute.
  // Issue 14 point 8: the exclusion list checked wherever a player's document is presented.
  // Issue 24 point 6: one key per person, in the profile's country (CFG-5); rows from before the keys are keyed now.
  const identityCountry = getProfile(config.profileId)?.identityCountry ?? null
  // Issue 24 point 2: documents, names and keys written in clear by an older version are sealed and keyed once.
  const atRest = await sealIdentitiesAtRest(db, sealer, identityCountry, () =>
    (overrides.clock ?? systemClock).now().toISOString(),
  )
  const convertedTotal = Object.values(atRest.converted).reduce((a, b) => a + b, 0)
  if (convertedTotal > 0) log.info(`${convertedTotal} identity document(s) or key(s) stored sealed at rest`)
  if (atRest.tampered.length > 0)
    log.warn(
      `${atRest.tampered.length} row(s) left as found: they no longer match their seal (npx bolillo verify-journal lists them)`,
    )
  const players = createPlayerAdmission({
    db,
    clock: overrides.clock ?? systemClock,
    country: identityCountry,
    sealer,
    internationalLists: getProfile(config.profileId)?.internationalLists ?? null,
  })
  const refusals = createRefusalLog({
    db,
    now: () => (overrides.clock ?? systemClock).now(),
    onError: (e) => log.warn('could not journal refusals', e),
  })
  // Issue #3: vouchers, kiosk sales with printing, validation and payout at the cashier.
  const cashdesk = createCashdesk({
    db,
    clock: overrides.clock ?? systemClock,
    bingo,
    bonus,
    keys,
    config,
    printers: overrides.printers ?? createPrinterPool(config, sealer),
    sealer,
    onError: (e) => log.warn('could not record a printed ticket', e),
    publish: (e) => {
      for (const l of listeners) l(e)
    },
    admission: players,
  })
  // Issue #7: instant lottery (raspadita): batches, packs, sales, validation, payout, reconciliation.
  // Batch seeds from the health-tested source of draw seeds (RNG-27, RNG-32), sealed with the prize file.
  const instant = createInstantService({
    db,
    clock: overrides.clock ?? systemClock,
    entropy: overrides.entropy ?? equipment.entropy,
    idEntropy: overrides.entropy ?? idEntropy,
    keys,
    sealer,
    pepper: loadOrCreateInstantPepper(config.dataDir, keyDir),
    printers: cashdesk.printers,
    // Issue 18, INS-3: batches only from the certified generator build where the profile requires it.
    generator: {
      required: getProfile(config.profileId)?.instantGeneratorCertificationRequired ?? false,
      certification: config.instantGeneratorCertification ?? null,
      // Issue 24 point 4: the demo's labelled, unsigned certificate counts only on a server running the demo.
      demoAccepted: !(config.production ?? false),
    },
    designAuthorisationRequired: getProfile(config.profileId)?.instantDesignAuthorisationRequired ?? false,
    gameAuthority: getProfile(config.profileId)?.catalogueGameAuthority ?? null,
    demoReferencesRefused: config.production ?? false,
  })
  // Issue #6: lotto; sales are group-committed on a writer thread when the database is the SQLite file.
  // Issue 15: lotto and lottery seeds from the health-tested source (RNG-32), sealed; draws by bolillo-draw-v2.
  const seedEntropy = overrides.entropy ?? equipment.entropy
  // Issue 18, RNG-26: software lotto/lottery draws only where the profile or the licence's AJ authorisation allows them.
  // Issue 24 point 4: a server without the demo sells and draws nothing planned under a DEMO reference.
  const softwareDraw = {
    profileAllows: getProfile(config.profileId)?.softwareLotteryDrawAllowed ?? false,
    authorisationRef: config.lotteryRngAuthorisation ?? null,
    demoReferencesRefused: config.production ?? false,
    // Issue 26 (GEN-6): RNG draws only by a registered, certified RNG device where the profile requires one.
    rngDeviceRequired: getProfile(config.profileId)?.rngDeviceRequired ?? false,
    rngTypeApproval: getProfile(config.profileId)?.drawDeviceTypeApproval ?? false,
  }
  const lotto = createLottoService({
    db,
    clock: overrides.clock ?? systemClock,
    entropy: overrides.entropy ?? osEntropy,
    seedEntropy,
    sealer,
    beacon,
    keys,
    dataDir: config.dataDir,
    softwareDraw,
    // Issue 18, LNS-12 / LNS-14: the licence record a plan's range is checked against, and the publication hold.
    licence: config.lottoLicence ?? null,
    licensedRangeRequired: getProfile(config.profileId)?.lnsLicensedRangeRequired ?? false,
    gameAuthority: getProfile(config.profileId)?.catalogueGameAuthority ?? null,
    prizeKinds: getProfile(config.profileId)?.lotteryPrizeKinds,
    publicationHoldMinutes: getProfile(config.profileId)?.lnsPublicationHoldMinutes ?? 0,
    sqliteFile: overrides.db || config.databaseUrl ? null : join(config.dataDir, 'bolillo.sqlite'),
    sqliteSynchronous: config.sqliteSynchronous,
    timeZone: getProfile(config.profileId)?.timeZone,
  })
  // Issue 13 (money-kiosk): every card, slip and instant ticket sold against a recorded payment.
  const lottery = createLotteryService({
    db,
    clock: overrides.clock ?? systemClock,
    entropy: overrides.entropy ?? osEntropy,
    seedEntropy,
    sealer,
    beacon,
    keys,
    dataDir: config.dataDir,
    printShopDir: config.printShopDir,
    softwareDraw,
    timeZone: getProfile(config.profileId)?.timeZone,
    // LOT-12 / LOT-27: the licence record an issue is bounded by, never the plan's own maximum.
    licence: config.lotteryLicence ?? null,
    licenceRequired: getProfile(config.profileId)?.lotteryLicensedMaxRequired ?? false,
    prizeKinds: getProfile(config.profileId)?.lotteryPrizeKinds,
    publicEntityRequired: getProfile(config.profileId)?.lotteryPublicEntityRequired ?? false,
    gameAuthority: getProfile(config.profileId)?.catalogueGameAuthority ?? null,
  })
  const paidSales = createPaidSales({
    db,
    clock: overrides.clock ?? systemClock,
    keys,
    bingo,
    bonus,
    lotto,
    lottery,
    instant,
    vouchers: cashdesk.vouchers,
    kiosk: cashdesk.kiosk,
    printers: cashdesk.printers,
    prints: cashdesk.prints,
    salesCommit: cashdesk.salesCommit,
    admission: players,
    sealer,
    demoReferencesRefused: config.production ?? false,
    saleConcurrency: config.saleConcurrency,
  })
  // Issue 27 (BNG-101): electronic bingo on hall terminals; a virtual card's prize is credited when it is awarded.
  const terminals = createTerminalService({
    db,
    clock: overrides.clock ?? systemClock,
    bingo,
    bonus,
    vouchers: cashdesk.vouchers,
    payouts: cashdesk.payouts,
    paidSales,
    prints: cashdesk.prints,
    printers: cashdesk.printers,
    admission: players,
    demoReferencesRefused: config.production ?? false,
    onError: (e) => log.warn('terminal prize credit failed', e),
  })
  listeners.add((e) => {
    // The line at the close of its "any more?" window (the split is final then), the bingo at the game's end.
    if (e.type === 'game:changed' && (e.reason === 'line_awarded' || e.reason === 'finished'))
      terminals.settleGame(e.gameId).catch((err) => log.warn('terminal prize credit failed', err))
  })
  // Issue 23: every payout and misprint refund of a presented ticket, whatever its line, through the cash desk.
  const ticketDesk = createTicketDesk({
    cashdesk,
    instant,
    lotto,
    lottery,
    names: { station: (id) => stationNameOf(db, id), person: (id) => personNameOf(db, id) },
    stationProfile: async (sql, id) => {
      const hallId = await hallOfStation(sql, id)
      const hall = hallId ? await cashdeskHallById(sql, hallId) : undefined
      return hall ? getProfile(hall.profile_id) : undefined
    },
    stationTimeZone: async (id) => {
      const hallId = await hallOfStation(db, id)
      return hallId ? (await cashdesk.vouchers.hallFor(db, hallId)).timeZone : undefined
    },
    stationHall: async (id, sql = db) => (await hallOfStation(sql, id)) ?? undefined,
    admission: players,
  })
  // Issue 29: a card found by its serial within a game, to see its state; never paid from there (BNG-71).
  const cardLookup = createCardLookup({
    db,
    clock: overrides.clock ?? systemClock,
    payouts: cashdesk.payouts,
    names: { station: (id) => stationNameOf(db, id), person: (id) => personNameOf(db, id) },
  })
  // Issue 15 point 5: signed journal checkpoints at every game's end, every sales close and on a timer.
  const checkpoints = createCheckpointer({
    db,
    keys,
    clock: overrides.clock ?? systemClock,
    log,
    intervalMs: config.checkpointIntervalMs,
  })
  listeners.add((e) => {
    const reason =
      e.type === 'game:changed'
        ? e.reason === 'finished' || e.reason === 'void'
          ? 'game-ended'
          : e.reason === 'sales_closed'
            ? 'sales-closed'
            : null
        : e.reason === 'closed'
          ? 'session-closed'
          : null
    if (!reason) return
    // Journaled under the game's (or session's) scope, so the session's minutes carry it.
    const scope =
      e.type === 'game:changed'
        ? async () => {
            const g = await gameById(db, e.gameId)
            return g ? gameScope(g) : ''
          }
        : `hall:${e.hallId}/session:${e.sessionId}`
    checkpoints
      .checkpoint(reason, scope)
      .then((cp) => {
        // The checkpoint's own record moves the game's journal head after the state was broadcast: the screens get
        // the state again (on every node), or a display would stay one record behind the end-of-game checkpoint.
        if (cp && e.type === 'game:changed') for (const l of listeners) l({ ...e, reason: 'checkpoint' })
      })
      .catch((err) => log.warn('could not sign a journal checkpoint', err))
  })
  checkpoints.start()
  // Issue 28 point 3: each lotto draw's close-of-sales file, signed, published from the close on.
  const closeOfSales = createCloseOfSalesPublisher({
    db,
    keys,
    participationFile: (drawId, which) => lotto.participationFile(drawId, which),
  })
  // Issue 28: the regulator's control feed, derived from the journal and closed into signed batches on a timer.
  const regulator = createRegulatorFeed({
    db,
    keys,
    clock: overrides.clock ?? systemClock,
    log,
    defaultZone: getProfile(config.profileId)?.timeZone ?? 'UTC',
    intervalMs: config.regulatorIntervalMs ?? 0,
    proofOf: (gameId) => bingo.getProof(gameId),
    sealer,
    profileId: config.profileId,
    closeOfSales,
  })
  regulator.start()
  // Issue 28 point 5: the digest of the code and the configuration, journaled at start and every 24 hours.
  // The server runs it (server.ts); the command-line tools, which open the same database, do not.
  const selfVerification = createSelfVerification({
    db,
    config,
    clock: overrides.clock ?? systemClock,
    version: '0.1.0',
    onError: (e) => log.warn('self-verification failed', e),
    release: {
      path: config.releaseRegisterPath ?? join(config.dataDir, 'release-register.json'),
      required: config.certifiedBuilds === 'required' || Boolean(getProfile(config.profileId)?.certifiedBuildsRequired),
    },
    codeDigest: overrides.codeDigest,
  })
  return {
    regulator,
    closeOfSales,
    selfVerification,
    config,
    db,
    log,
    bingo,
    keys,
    auth,
    refusals,
    players,
    cashdesk,
    version: '0.1.0',
    sealer,
    beacon,
    checkpoints,
    // Issue 17: the demo plans its lotto and lottery draws around "now" as the server sees it.
    clock: overrides.clock ?? systemClock,
    instant,
    bonus,
    // Issue 18, BNG-72 / GEN-21 / BNG-76: the hall's complaints book and manual-book markers.
    complaints: createComplaintsService({
      db,
      clock: overrides.clock ?? systemClock,
      entropy: overrides.entropy ?? osEntropy,
      sealer,
    }),
    // Issue 18, BNG-87/88/89/92: where each sold card is after its game (returned, evidence, archive, destroyed).
    custody: createCardCustodyService({
      db,
      clock: overrides.clock ?? systemClock,
      prizeClaimDays: config.prizeClaimDays,
    }),
    // Issue 18, BNG-77 / CFG-37: the only path that removes records, after the retention period.
    retention: createRetentionService({ db, clock: overrides.clock ?? systemClock }),
    // Issue 18, BNG-65: closing a hall for good, its prima fund handed over.
    hallClosure: createHallClosureService({ db, clock: overrides.clock ?? systemClock }),
    lotto,
    lottery,
    paidSales,
    ticketDesk,
    cardLookup,
    terminals,
    equipment,
    devices: equipment.devices,
    cameras: equipment.cameras,
    /** Issue 26 (RNG-30): the central camera's image, relayed to the halls' displays (never inside a transaction). */
    videoRelay,
    ballSets: equipment.ballSets,
    software: equipment.software,
    blowers,
    onEvent(l: (e: BingoEvent) => void) {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    /** Recomputes the whole hash chain (DESIGN.md "Journal"). */
    async verifyJournal() {
      const records: JournalRecord[] = []
      const journalSeals = new Map<string, { seq: number; mac: string }>()
      for await (const r of readJournal(db)) {
        records.push(r)
        collectJournalSeals(journalSeals, r)
      }
      const chain = verifyChain(records)
      // Issue 24 point 1: the tables the server pays from agree with the journal, row by row and in their sums.
      const rows = await verifySealedRows(db, rowSealKey, journalSeals, records.at(-1)?.seq ?? 0)
      rows.problems.push(...(await recomputeBalances(db, records)))
      rows.problems.push(...(await voucherRefProblems(db, records)))
      return rowsVerdict(chain, rows)
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
    async close() {
      await refusals.stop()
      await checkpoints.stop()
      await regulator.stop()
      selfVerification.stop()
      await lotto.close()
      videoRelay.close()
      await equipment.close()
      await db.close()
    },
  }
}
export type Services = Awaited<ReturnType<typeof createServices>>

/** Device ids in DATA_DIR/demo-credentials.json (a demo data directory from before the demo journaled them). */
function demoCredentialFileDevices(dataDir: string): string[] {
  try {
    const creds = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as {
      devices?: Array<{ credential?: string }>
    }
    return (creds.devices ?? []).map((d) => String(d.credential ?? '').split('.')[0]).filter(Boolean)
  } catch {
    return []
  }
}

export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./db/postgres.ts')
    return openPostgres(config.databaseUrl, { max: config.databasePoolSize })
  }
  return openSqlite(join(config.dataDir, 'bolillo.sqlite'), { synchronous: config.sqliteSynchronous })
}
