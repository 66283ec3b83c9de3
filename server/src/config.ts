import { isAbsolute, relative, resolve } from 'node:path'
import { readFileSync } from 'node:fs'
import { parseSignedCertificate } from './instant/generator-certificate.ts'
import { instantGeneratorBuild, type GeneratorCertification } from './instant/generator-build.ts'
import { getProfile } from './shared/profile.ts'
import { isDemoReference } from './shared/lottery-common.ts'
import type { SocketLimits } from './realtime/limits.ts'

/** Every setting the server reads, with its documented default (README "Configuration"). */
export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | null
  /** PostgreSQL: pooled connections of this node (DATABASE_POOL_SIZE, default 10). */
  databasePoolSize?: number
  profileId: string
  hallName: string
  playingPositions: number
  /** `serial`: a certified blower with automatic reader on BOLILLO_BLOWER_PORT; `sim`: the in-process simulator. */
  ballSource: 'rng' | 'manual' | 'serial' | 'sim'
  /** Blower and entropy settings (issue #5). Optional in literals; loadConfig always fills them (BLOWER_DEFAULTS). */
  blowerPort?: string | null
  blowerBaud?: number
  blowerHeartbeatMs?: number
  readerMinConfidence?: number
  entropy?: 'os' | 'hwrng'
  hwrngPath?: string
  hwrngEntropyBits?: number
  entropyFallback?: boolean
  logLevel: 'debug' | 'info' | 'warn' | 'error'
  seedDemo: boolean
  sqliteSynchronous: 'FULL' | 'NORMAL'
  /** Authentication and the permission table enforced on every route (issue 9). */
  auth: 'on' | 'off'
  /** Requests per minute per person, device or (anonymous) address. */
  rateLimitPerMinute: number
  /** Kiosk purchases worked on at once up to their commit, the rest in line (BOLILLO_SALE_CONCURRENCY, default 16). */
  saleConcurrency?: number
  // Issue 14 point 4: limits before authentication, and whose X-Forwarded-For is believed.
  /** Refused credentials (bad logins, bad tokens) per minute per client address before it is turned away. */
  authFailuresPerMinute?: number
  /** Addresses (or IPv4 CIDR blocks) of reverse proxies whose X-Forwarded-For names the client (BOLILLO_TRUSTED_PROXIES). */
  trustedProxies?: readonly string[]
  /** Credit vouchers, kiosk printing and prize payout (issue #3); defaults in TICKET_DEFAULTS. */
  voucherDays: number
  printer: string
  printers: Readonly<Record<string, string>>
  printerPaper: '80mm' | '58mm'
  printerTimeoutMs: number
  amlThresholdCents: number
  amlSmallShareBp: number
  idRequiredPrizeCents: number
  prizeClaimDays: number
  /**
   * Draw beacon (bolillo-draw-v2, DESIGN.md): drand quicknet relays tried in order (BOLILLO_BEACON_RELAYS, comma
   * separated base URLs), how long one may take, and whether a hall that reaches none may use the labelled local
   * demo beacon (BOLILLO_DEMO_BEACON; on by default only for the demo hall). Optional in literals.
   */
  beaconRelays?: readonly string[]
  beaconTimeoutMs?: number
  /** Issue 15 point 5: how often the journal head is signed besides game ends and sales closes (0: never by timer). */
  checkpointIntervalMs?: number
  /** Issue 28: how often the regulator feed derives records and closes due batches (0 or unset: only on request; loadConfig: 60 s). */
  regulatorIntervalMs?: number
  /** Issue 28 point 5: digest of the code and configuration at start and every 24 hours, journaled (default on; tests opt in). */
  selfVerification?: boolean
  /**
   * Issue 28 point 5: where the operator keeps its release register (the digests of the certified builds): a JSON
   * file, `bolillo-release-register-v1` (README). Default `<DATA_DIR>/release-register.json`.
   */
  releaseRegisterPath?: string
  /**
   * Issue 28 point 5: `required` refuses to start a build whose code digest is not in the release register (RNG-3:
   * the software holds a Certificado de Cumplimiento). A profile with `certifiedBuildsRequired` requires it too.
   */
  certifiedBuilds?: 'required' | 'off'
  demoBeacon?: boolean
  /** The sealing key from the operator's key store (BOLILLO_SEALING_KEY, hex or base64); else a key file. */
  sealingKey?: string | null
  /**
   * Issue 18, RNG-26 (lottery helper): the AJ authorisation that accepts an RNG as a lotto/lottery extraction device
   * (BOLILLO_LOTTERY_RNG_AUTHORISATION). Without it, and without the profile's softwareLotteryDrawAllowed, lotto and
   * numbered-lottery plans draw with an authorised tómbola only. Default: none, except the demo hall's labelled
   * "DEMO (sin autorización real)".
   */
  lotteryRngAuthorisation?: string | null
  /**
   * Issue 18, LNS-12 / LNS-15: the Licencia de Operaciones' selected-numbers range (BOLILLO_LOTTO_LICENCE, written
   * `REFERENCE:MIN-MAX`, e.g. `AJ-LO-2025-0007:20-60`): the least and the most balls a lotto draw may load. It is the
   * operator's installed licence record, not something a plan declares: where the profile requires it
   * (lnsLicensedRangeRequired) a lotto plan is refused without it or outside it. Default: none, except the demo
   * hall's labelled "DEMO (sin licencia real)" record of 2 to 128.
   */
  lottoLicence?: LottoLicence | null
  /**
   * LOT-12 / LOT-27: the licence's maximum issue of a numbered lottery (BOLILLO_LOTTERY_LICENCE, written
   * `REFERENCE:MAX_TICKETS`, e.g. `AJ-LO-2025-0007:300000`): the most whole tickets (numbers x series) one issue may
   * hold. The operator's installed licence record, not something a plan declares: where the profile requires it
   * (lotteryLicensedMaxRequired) no lottery is planned without it. Default: none, except the demo hall's labelled
   * "DEMO (sin licencia real)" record of 1,000,000.
   */
  lotteryLicence?: LotteryLicence | null
  /**
   * Issue 18, INS-3: the certificate of the instant ticket generator (BOLILLO_INSTANT_GENERATOR_CERT: the path of the
   * certifier's signed certificate file; GET /api/instant/generator-certifiers shows the running build's hash). Where
   * the profile requires it (instantGeneratorCertificationRequired) no batch is generated unless its signature verifies
   * under a registered certifier's key and it names the running build. Default: none, except the demo hall's labelled
   * "DEMO (sin certificación real)" for the running build.
   */
  instantGeneratorCertification?: GeneratorCertification | null
  /**
   * Issue 24 point 4: a server without the demo (BOLILLO_SEED_DEMO=false). It accepts no DEMO reference, no demo
   * beacon and no demo account, and keeps its operator and sealing keys outside DATA_DIR (keyDir). loadConfig sets
   * it; a Config literal (tests) that leaves it unset runs its own halls without these production checks.
   */
  production?: boolean
  /**
   * Where the operator key, the sealing key file and the instant code pepper live (BOLILLO_KEY_DIR). Default: the
   * demo's DATA_DIR/keys; in production it is required and must lie outside DATA_DIR, so that a copy of DATA_DIR
   * holds no key.
   */
  keyDir?: string
  /**
   * LOT-26: the secure printer's outbox (BOLILLO_PRINT_SHOP_DIR), where each lottery print run's file set with the
   * payable codes is written; no HTTP route serves it. Default `<DATA_DIR>-print-shop`; never inside DATA_DIR.
   */
  printShopDir?: string
  /**
   * Which draws the labelled demo beacon may sign: `demo`, only the demo hall's games and the demo's own lotto and
   * lottery draws (what loadConfig sets, and the default); `any`, every hall's (tests that play their own halls
   * offline).
   */
  demoBeaconScope?: 'demo' | 'any'
  /** Issue 24 point 5: socket limits other than realtime/limits.ts SOCKET_LIMITS (benchmarks of many screens on one host). */
  socketLimits?: Partial<SocketLimits>
}

/**
 * Issue 24 point 4: a tool never seeds the demo (the commands pass BOLILLO_SEED_DEMO=false), but works on a production
 * installation only when the installation's own environment says so: then it reads the keys from BOLILLO_KEY_DIR
 * and takes no DEMO reference, like the server.
 */
export function toolOptions(env: Record<string, string | undefined> = process.env): { production: boolean } {
  return { production: env.BOLILLO_SEED_DEMO === 'false' }
}

/** Whether the server answers only on this machine (HOST 127.x.x.x, ::1 or localhost). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

export { isDemoReference } from './shared/lottery-common.ts'

/** Whether `path` is `dir` or lies below it (both resolved against the working directory). */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), resolve(path))
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** LOT-12: the licence record a numbered lottery's issue is bounded by. */
export interface LotteryLicence {
  ref: string
  maxTickets: number
  /**
   * LOT-1 (002 §7, 000 §7.1.2): the public entity the AJ licensed to organise and run lotteries
   * (BOLILLO_LOTTERY_LICENCE_HOLDER); where the profile requires it, every plan's institution is this entity.
   */
  holder?: string | null
}

/** Parses `REFERENCE:MAX_TICKETS` (LOT-12); null for an empty value, an error message for a malformed one. */
export function parseLotteryLicence(raw: string | undefined): LotteryLicence | null | string {
  if (!raw?.trim()) return null
  const m = /^(.{1,120}):(\d{1,9})$/.exec(raw.trim())
  if (!m || !m[1].trim() || Number(m[2]) < 1)
    return `BOLILLO_LOTTERY_LICENCE must be REFERENCE:MAX_TICKETS, e.g. AJ-LO-2025-0007:300000 (got "${raw}")`
  return { ref: m[1].trim(), maxTickets: Number(m[2]) }
}

/** LNS-12: the licence record a lotto plan's range is checked against. */
export interface LottoLicence {
  ref: string
  rangeMin: number
  rangeMax: number
}

/** Parses `REFERENCE:MIN-MAX` (LNS-12); null for an empty value, an error message for a malformed one. */
export function parseLottoLicence(raw: string | undefined): LottoLicence | null | string {
  if (!raw?.trim()) return null
  const m = /^(.{1,120}):(\d{1,3})-(\d{1,3})$/.exec(raw.trim())
  if (!m || !m[1].trim())
    return `BOLILLO_LOTTO_LICENCE must be REFERENCE:MIN-MAX, e.g. AJ-LO-2025-0007:20-60 (got "${raw}")`
  const rangeMin = Number(m[2])
  const rangeMax = Number(m[3])
  if (rangeMin < 2 || rangeMax < rangeMin) return `BOLILLO_LOTTO_LICENCE range must be 2 <= MIN <= MAX (got "${raw}")`
  return { ref: m[1].trim(), rangeMin, rangeMax }
}

/**
 * Defaults of the voucher, printer and payout settings (README "Configuration"):
 * - BOLILLO_VOUCHER_DAYS: a credit voucher can be spent for this many days after it is issued.
 * - BOLILLO_PRINTER: `file` (raw job and PDF into DATA_DIR/prints, sealed; `npx bolillo open-print` opens one), `tcp://host:port` (ESC/POS over the network),
 *   or a device path such as `/dev/usb/lp0`, or `discard` (load and crash tests only: the job is laid out and
 *   dropped, nothing is written); BOLILLO_PRINTERS=`station=target,...` names one per kiosk or cashier.
 * - BOLILLO_PRINTER_PAPER: `80mm` (48 columns) or `58mm` (32 columns). BOLILLO_PRINTER_TIMEOUT_MS bounds a print.
 * - BOLILLO_AML_UIF_THRESHOLD_CENTS and BOLILLO_AML_SMALL_SHARE_PERCENT (GEN-17, CFG-3): a purchase paid with more
 *   small-denomination cash than this share of the UIF threshold raises a suspicious-operation record. The
 *   threshold comes from the UIF Instructivo Específico and must be set by the operator; 1 000 000 is a placeholder.
 * - BOLILLO_ID_REQUIRED_PRIZE_CENTS: prizes from this amount up are paid only against the payee's identity document.
 * - BOLILLO_PRIZE_CLAIM_DAYS: a winning card is paid for this many days after its game finished (CFG-40 analogue;
 *   the bingo texts set no period).
 */
export const TICKET_DEFAULTS = Object.freeze({
  voucherDays: 30,
  printer: 'file',
  printers: Object.freeze({}) as Readonly<Record<string, string>>,
  printerPaper: '80mm' as '80mm' | '58mm',
  printerTimeoutMs: 5000,
  amlThresholdCents: 1_000_000,
  amlSmallShareBp: 3000,
  idRequiredPrizeCents: 100_000,
  prizeClaimDays: 30,
})

/**
 * The only reader of process.env. Reports every invalid value at once. `options.production` lets a command-line
 * tool, which never seeds the demo, say whether the installation it works on is a production one (default: the
 * demo is off).
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: { production?: boolean } = {},
): Readonly<Config> {
  const errors: string[] = []
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min || n > max)
      errors.push(`${name} must be an integer in ${min}..${max} (got "${raw}")`)
    return n
  }
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (!allowed.includes(raw as T)) errors.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`)
    return raw as T
  }
  const profileId = env.BOLILLO_PROFILE || 'BO-2025'
  if (!getProfile(profileId)) errors.push(`BOLILLO_PROFILE must be BO-2025, BO-2013 or ES-CB-2010 (got "${profileId}")`)
  const databaseUrl = env.DATABASE_URL || null
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) errors.push('DATABASE_URL must be a postgres:// URL')
  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    // Issue 14 point 5: the demo hall (published passwords) listens on this machine only unless HOST says otherwise.
    host:
      env.HOST || (oneOf('BOLILLO_SEED_DEMO', 'true', ['true', 'false'] as const) === 'true' ? '127.0.0.1' : '0.0.0.0'),
    dataDir: env.DATA_DIR || './data',
    databaseUrl,
    databasePoolSize: int('DATABASE_POOL_SIZE', 10, 1, 1000),
    profileId,
    hallName: env.BOLILLO_HALL_NAME || 'Sala Demo Bolillo',
    playingPositions: int('BOLILLO_PLAYING_POSITIONS', 200, 1, 100_000),
    ballSource: oneOf('BOLILLO_BALL_SOURCE', 'rng', ['rng', 'manual', 'serial', 'sim'] as const),
    blowerPort: env.BOLILLO_BLOWER_PORT || null,
    blowerBaud: int('BOLILLO_BLOWER_BAUD', BLOWER_DEFAULTS.blowerBaud, 300, 4_000_000),
    blowerHeartbeatMs: int('BOLILLO_BLOWER_HEARTBEAT_MS', BLOWER_DEFAULTS.blowerHeartbeatMs, 100, 600_000),
    readerMinConfidence: int('BOLILLO_READER_MIN_CONFIDENCE', BLOWER_DEFAULTS.readerMinConfidence, 0, 100),
    entropy: oneOf('BOLILLO_ENTROPY', BLOWER_DEFAULTS.entropy, ['os', 'hwrng'] as const),
    hwrngPath: env.BOLILLO_HWRNG_PATH || BLOWER_DEFAULTS.hwrngPath,
    hwrngEntropyBits: num('BOLILLO_HWRNG_ENTROPY_BITS', BLOWER_DEFAULTS.hwrngEntropyBits, 0.5, 8, errors, env),
    entropyFallback: oneOf('BOLILLO_ENTROPY_FALLBACK', 'false', ['true', 'false'] as const) === 'true',
    logLevel: oneOf('BOLILLO_LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error'] as const),
    seedDemo: oneOf('BOLILLO_SEED_DEMO', 'true', ['true', 'false'] as const) === 'true',
    beaconRelays: beaconRelays(env.BOLILLO_BEACON_RELAYS, errors),
    beaconTimeoutMs: int('BOLILLO_BEACON_TIMEOUT_MS', 3000, 100, 60_000),
    checkpointIntervalMs: int('BOLILLO_CHECKPOINT_INTERVAL_MS', 5 * 60_000, 0, 24 * 3600_000),
    regulatorIntervalMs: int('BOLILLO_REGULATOR_INTERVAL_MS', 60_000, 0, 3600_000),
    selfVerification: oneOf('BOLILLO_SELF_VERIFICATION', 'true', ['true', 'false'] as const) === 'true',
    releaseRegisterPath: env.BOLILLO_RELEASE_REGISTER || undefined,
    certifiedBuilds: oneOf('BOLILLO_CERTIFIED_BUILDS', 'off', ['required', 'off'] as const),
    demoBeacon:
      oneOf('BOLILLO_DEMO_BEACON', oneOf('BOLILLO_SEED_DEMO', 'true', ['true', 'false'] as const), [
        'true',
        'false',
      ] as const) === 'true',
    sealingKey: env.BOLILLO_SEALING_KEY || null,
    lotteryRngAuthorisation:
      env.BOLILLO_LOTTERY_RNG_AUTHORISATION ||
      (oneOf('BOLILLO_SEED_DEMO', 'true', ['true', 'false'] as const) === 'true'
        ? 'DEMO (sin autorización real)'
        : null),
    lottoLicence: lottoLicenceOf(env, errors),
    lotteryLicence: lotteryLicenceOf(env, errors),
    instantGeneratorCertification: generatorCertificationOf(env, errors),
    sqliteSynchronous: oneOf('BOLILLO_SQLITE_SYNCHRONOUS', 'FULL', ['FULL', 'NORMAL'] as const),
    auth: oneOf('BOLILLO_AUTH', 'on', ['on', 'off'] as const),
    rateLimitPerMinute: int('BOLILLO_RATE_LIMIT_PER_MINUTE', 1200, 1, 10_000_000),
    saleConcurrency: int('BOLILLO_SALE_CONCURRENCY', 16, 1, 10_000),
    authFailuresPerMinute: int('BOLILLO_AUTH_FAILURES_PER_MINUTE', 30, 1, 10_000_000),
    trustedProxies: trustedProxies(env.BOLILLO_TRUSTED_PROXIES, errors),
    voucherDays: int('BOLILLO_VOUCHER_DAYS', TICKET_DEFAULTS.voucherDays, 1, 3660),
    printer: printerTarget('BOLILLO_PRINTER', env.BOLILLO_PRINTER, errors),
    printers: printerMap(env.BOLILLO_PRINTERS, errors),
    printerPaper: oneOf('BOLILLO_PRINTER_PAPER', TICKET_DEFAULTS.printerPaper, ['80mm', '58mm'] as const),
    printerTimeoutMs: int('BOLILLO_PRINTER_TIMEOUT_MS', TICKET_DEFAULTS.printerTimeoutMs, 200, 120_000),
    amlThresholdCents: int(
      'BOLILLO_AML_UIF_THRESHOLD_CENTS',
      TICKET_DEFAULTS.amlThresholdCents,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    amlSmallShareBp: int('BOLILLO_AML_SMALL_SHARE_PERCENT', TICKET_DEFAULTS.amlSmallShareBp / 100, 0, 100) * 100,
    idRequiredPrizeCents: int(
      'BOLILLO_ID_REQUIRED_PRIZE_CENTS',
      TICKET_DEFAULTS.idRequiredPrizeCents,
      0,
      Number.MAX_SAFE_INTEGER,
    ),
    prizeClaimDays: int('BOLILLO_PRIZE_CLAIM_DAYS', TICKET_DEFAULTS.prizeClaimDays, 1, 3660),
    demoBeaconScope: 'demo',
  }
  config.production = options.production ?? !config.seedDemo
  config.keyDir = env.BOLILLO_KEY_DIR || resolve(config.dataDir, 'keys')
  config.printShopDir = resolve(env.BOLILLO_PRINT_SHOP_DIR || `${resolve(config.dataDir)}-print-shop`)
  if (isInside(config.printShopDir, config.dataDir))
    errors.push(
      `BOLILLO_PRINT_SHOP_DIR=${config.printShopDir} lies inside DATA_DIR (${config.dataDir}): the lottery print runs' codes would go into every copy of DATA_DIR; set it outside DATA_DIR`,
    )
  if (config.production) errors.push(...productionErrors(env, config))
  if (config.ballSource === 'serial' && !config.blowerPort)
    errors.push('BOLILLO_BALL_SOURCE=serial needs BOLILLO_BLOWER_PORT (for example /dev/ttyUSB0)')
  if (errors.length) throw new Error(`Invalid configuration:\n  ${errors.join('\n  ')}`)
  return Object.freeze(config)
}

/**
 * Issue 24 point 4: what a server without the demo refuses to start with, each with what to set instead. The demo's
 * labelled references, its beacon and its key files in DATA_DIR serve the demo only: whoever holds a copy of
 * DATA_DIR holds those keys, and a DEMO reference is no authorisation of anything.
 */
function productionErrors(env: Record<string, string | undefined>, config: Config): string[] {
  const errors: string[] = []
  const off = 'a server without the demo (BOLILLO_SEED_DEMO=false)'
  const demoRefs: Array<[string, string]> = [
    [
      'BOLILLO_LOTTERY_RNG_AUTHORISATION',
      'the AJ authorisation of the RNG as a lotto/lottery extraction device (RNG-26), or leave it unset to draw lotteries with an authorised tómbola',
    ],
    ['BOLILLO_LOTTO_LICENCE', 'the Licencia de Operaciones as REFERENCE:MIN-MAX, e.g. AJ-LO-2025-0007:20-60 (LNS-12)'],
    [
      'BOLILLO_LOTTERY_LICENCE',
      "the licence's maximum lottery issue as REFERENCE:MAX_TICKETS, e.g. AJ-LO-2025-0007:300000 (LOT-12)",
    ],
    [
      'BOLILLO_INSTANT_GENERATOR_CERT',
      "the path of the certifier's signed certificate of the generator build, made with npx bolillo instant sign-certificate (INS-3)",
    ],
  ]
  for (const [name, what] of demoRefs) {
    if (isDemoReference(env[name]))
      errors.push(`${name} is a demo reference ("${env[name]}"), which ${off} never accepts: set it to ${what}`)
  }
  if (env.BOLILLO_DEMO_BEACON === 'true')
    errors.push(
      `BOLILLO_DEMO_BEACON=true: the demo beacon serves only the demo, and ${off} draws by the public beacon: set BOLILLO_BEACON_RELAYS to drand quicknet relays (or type each round's signature in) and unset BOLILLO_DEMO_BEACON`,
    )
  if (!env.BOLILLO_KEY_DIR) {
    errors.push(
      `BOLILLO_KEY_DIR is not set: ${off} keeps its operator key, sealing key and instant code pepper outside DATA_DIR; set BOLILLO_KEY_DIR to a directory of the server's user outside ${config.dataDir} (mode 0700, e.g. /etc/bolillo/keys); the sealing key may come from the operator's key store in BOLILLO_SEALING_KEY instead`,
    )
  } else if (isInside(env.BOLILLO_KEY_DIR, config.dataDir)) {
    errors.push(
      `BOLILLO_KEY_DIR=${env.BOLILLO_KEY_DIR} lies inside DATA_DIR (${config.dataDir}): whoever copies DATA_DIR would hold the keys; set it to a directory outside DATA_DIR`,
    )
  }
  return errors
}

/** Defaults of the blower and entropy settings (README "Configuration"). */
export const BLOWER_DEFAULTS = {
  blowerBaud: 9600,
  blowerHeartbeatMs: 3000,
  readerMinConfidence: 90,
  entropy: 'os' as 'os' | 'hwrng',
  hwrngPath: '/dev/hwrng',
  hwrngEntropyBits: 4,
  entropyFallback: false,
}

function num(
  name: string,
  fallback: number,
  min: number,
  max: number,
  errors: string[],
  env: Record<string, string | undefined>,
): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n < min || n > max)
    errors.push(`${name} must be a number in ${min}..${max} (got "${raw}")`)
  return n
}

/** A printer target: `file`, `tcp://host[:port]` or an absolute device path. */
function printerTarget(name: string, raw: string | undefined, errors: string[]): string {
  if (raw === undefined || raw === '') return TICKET_DEFAULTS.printer
  if (
    raw === 'file' ||
    raw === 'discard' ||
    /^tcp:\/\/[^/:?]+(:\d{1,5})?(\?[a-z=&0-9]*)?$/i.test(raw) ||
    raw.startsWith('/')
  )
    return raw
  errors.push(`${name} must be file, tcp://host:port or a device path such as /dev/usb/lp0 (got "${raw}")`)
  return TICKET_DEFAULTS.printer
}

/** BOLILLO_PRINTERS=`kiosk-1=tcp://10.0.0.5:9100,cashier-1=file`: one printer per station. */
function printerMap(raw: string | undefined, errors: string[]): Readonly<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const item of (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = item.indexOf('=')
    const station = item.slice(0, at)
    if (at < 1 || !/^[A-Za-z0-9_-]{1,40}$/.test(station)) {
      errors.push(`BOLILLO_PRINTERS entry "${item}" must be station=target`)
      continue
    }
    out[station] = printerTarget(`BOLILLO_PRINTERS[${station}]`, item.slice(at + 1), errors)
  }
  return Object.freeze(out)
}

/** BOLILLO_TRUSTED_PROXIES=`10.0.0.2,10.1.0.0/16,::1`: exact addresses or IPv4 CIDR blocks. */
function trustedProxies(raw: string | undefined, errors: string[]): readonly string[] {
  const list = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const p of list)
    if (!/^(\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?|[0-9a-fA-F:]+)$/.test(p))
      errors.push(`BOLILLO_TRUSTED_PROXIES: "${p}" is not an address or IPv4 CIDR block`)
  return Object.freeze(list)
}

function beaconRelays(raw: string | undefined, errors: string[]): readonly string[] {
  if (!raw) return []
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const url of list)
    if (!/^https?:\/\/[^\s]+$/.test(url)) errors.push(`BOLILLO_BEACON_RELAYS: "${url}" is not an http(s) URL`)
  return list.map((u) => u.replace(/\/+$/, ''))
}

/** BOLILLO_LOTTO_LICENCE, or the demo hall's labelled record (LNS-12). */
function lottoLicenceOf(env: Record<string, string | undefined>, errors: string[]): LottoLicence | null {
  const parsed = parseLottoLicence(env.BOLILLO_LOTTO_LICENCE)
  if (typeof parsed === 'string') {
    errors.push(parsed)
    return null
  }
  if (parsed) return parsed
  return !env.BOLILLO_SEED_DEMO || env.BOLILLO_SEED_DEMO === 'true'
    ? { ref: 'DEMO (sin licencia real)', rangeMin: 2, rangeMax: 128 }
    : null
}

/** BOLILLO_LOTTERY_LICENCE, or the demo hall's labelled record (LOT-12). */
function lotteryLicenceOf(env: Record<string, string | undefined>, errors: string[]): LotteryLicence | null {
  const parsed = parseLotteryLicence(env.BOLILLO_LOTTERY_LICENCE)
  if (typeof parsed === 'string') {
    errors.push(parsed)
    return null
  }
  const holder = env.BOLILLO_LOTTERY_LICENCE_HOLDER?.trim()
  if (parsed) return { ...parsed, holder: holder || null }
  return !env.BOLILLO_SEED_DEMO || env.BOLILLO_SEED_DEMO === 'true'
    ? { ref: 'DEMO (sin licencia real)', maxTickets: 1_000_000, holder: holder || 'Lotería de Demostración de Bolivia' }
    : null
}

/**
 * BOLILLO_INSTANT_GENERATOR_CERT: the path of the certifier's signed certificate file (INS-3, made by
 * `npx bolillo instant sign-certificate`), read once at start. A `REFERENCE:SHA256` is still read, as an unsigned
 * reference the generator's gate refuses (the demo's labelled one aside). Unset: the demo hall's labelled
 * certificate of the running build, or none without the demo.
 */
function generatorCertificationOf(
  env: Record<string, string | undefined>,
  errors: string[],
): GeneratorCertification | null {
  const raw = env.BOLILLO_INSTANT_GENERATOR_CERT?.trim()
  if (raw) {
    const typed = /^(.{1,120}):([0-9a-f]{64})$/.exec(raw)
    if (typed && typed[1].trim()) return { ref: typed[1].trim(), sha256: typed[2] }
    let doc: unknown
    try {
      doc = JSON.parse(readFileSync(raw, 'utf8'))
    } catch (err) {
      errors.push(
        `BOLILLO_INSTANT_GENERATOR_CERT=${raw}: cannot read the signed certificate file (${(err as Error).message}); it is the path of the file the certifier signed (INS-3)`,
      )
      return null
    }
    const signed = parseSignedCertificate(doc)
    if (typeof signed === 'string') {
      errors.push(`BOLILLO_INSTANT_GENERATOR_CERT=${raw}: ${signed} (INS-3)`)
      return null
    }
    return { ref: signed.statement.certificateRef, sha256: signed.statement.buildSha256, signed }
  }
  return !env.BOLILLO_SEED_DEMO || env.BOLILLO_SEED_DEMO === 'true'
    ? { ref: 'DEMO (sin certificación real)', sha256: instantGeneratorBuild().sha256 }
    : null
}
