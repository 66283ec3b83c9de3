import { getProfile } from './domain/profile.ts'

/** Every setting the server reads, with its documented default (README "Configuration"). */
export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | null
  profileId: string
  hallName: string
  playingPositions: number
  ballSource: 'rng' | 'manual'
  logLevel: 'debug' | 'info' | 'warn' | 'error'
  seedDemo: boolean
  sqliteSynchronous: 'FULL' | 'NORMAL'
}

/** The only reader of process.env. Reports every invalid value at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const errors: string[] = []
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min || n > max) errors.push(`${name} must be an integer in ${min}..${max} (got "${raw}")`)
    return n
  }
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (!allowed.includes(raw as T)) errors.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`)
    return raw as T
  }
  const profileId = env.BOLILLO_PROFILE || 'BO-2025'
  if (!getProfile(profileId)) errors.push(`BOLILLO_PROFILE must be BO-2025 or ES-CB-2010 (got "${profileId}")`)
  const databaseUrl = env.DATABASE_URL || null
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) errors.push('DATABASE_URL must be a postgres:// URL')
  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: env.DATA_DIR || './data',
    databaseUrl,
    profileId,
    hallName: env.BOLILLO_HALL_NAME || 'Sala Demo Bolillo',
    playingPositions: int('BOLILLO_PLAYING_POSITIONS', 200, 1, 100_000),
    ballSource: oneOf('BOLILLO_BALL_SOURCE', 'rng', ['rng', 'manual'] as const),
    logLevel: oneOf('BOLILLO_LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error'] as const),
    seedDemo: oneOf('BOLILLO_SEED_DEMO', 'true', ['true', 'false'] as const) === 'true',
    sqliteSynchronous: oneOf('BOLILLO_SQLITE_SYNCHRONOUS', 'FULL', ['FULL', 'NORMAL'] as const),
  }
  if (errors.length) throw new Error(`Invalid configuration:\n  ${errors.join('\n  ')}`)
  return Object.freeze(config)
}
