/**
 * SQL of access: people (users), session and device tokens (auth_tokens) and enrolled devices' credentials
 * (device_credentials). Secrets arrive here already hashed.
 */
import type { Database, Sql } from '../db/database.ts'
import type { DeviceKind, PersonRole } from './roles.ts'
import { touchRows } from '../shared/row-seals.ts'
import { oncePerRequest } from '../shared/request-context.ts'

export interface UserRow {
  id: string
  username: string
  role: string
  display_name: string
  password_hash: string
  failed_attempts: number
  locked_until: string | null
  disabled: number
  all_halls: number
  lock_count: number
  must_change_password: number
  demo: number
}
export interface TokenRow {
  user_id: string | null
  device_id: string | null
  expires_at: string
  revoked_at: string | null
}
export interface DeviceCredentialRow {
  id: string
  kind: DeviceKind
  name: string
  hall_id: string | null
  revoked_at: string | null
  seal_code: string | null
  type_approval_no: string | null
}

// People

export async function insertUser(
  tx: Sql,
  u: {
    id: string
    username: string
    displayName: string
    role: PersonRole
    passwordHash: string
    createdAt: string
    allHalls: boolean
    hallIds: readonly string[]
    demo?: boolean
    mustChangePassword?: boolean
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO users (id, username, display_name, role, password_hash, created_at, all_halls, demo, must_change_password) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      u.id,
      u.username,
      u.displayName,
      u.role,
      u.passwordHash,
      u.createdAt,
      u.allHalls ? 1 : 0,
      u.demo ? 1 : 0,
      u.mustChangePassword ? 1 : 0,
    ],
  )
  for (const hallId of u.hallIds)
    await tx.run('INSERT INTO user_halls (user_id, hall_id) VALUES (?, ?)', [u.id, hallId])
}

/** The halls a person works in (issue 14 point 1). */
export async function hallsOfUser(db: Sql, userId: string): Promise<string[]> {
  return (
    await db.all<{ hall_id: string }>('SELECT hall_id FROM user_halls WHERE user_id = ? ORDER BY hall_id', [userId])
  ).map((r) => r.hall_id)
}

export async function setUserHalls(
  tx: Sql,
  userId: string,
  allHalls: boolean,
  hallIds: readonly string[],
): Promise<void> {
  await tx.run('UPDATE users SET all_halls = ? WHERE id = ?', [allHalls ? 1 : 0, userId])
  await tx.run('DELETE FROM user_halls WHERE user_id = ?', [userId])
  for (const hallId of hallIds)
    await tx.run('INSERT INTO user_halls (user_id, hall_id) VALUES (?, ?)', [userId, hallId])
}

/** The ids among `hallIds` that name no hall. */
export async function missingHalls(db: Sql, hallIds: readonly string[]): Promise<string[]> {
  const missing: string[] = []
  for (const id of hallIds) if (!(await db.get('SELECT id FROM halls WHERE id = ?', [id]))) missing.push(id)
  return missing
}

export function listUsers(db: Sql): Promise<
  Array<{
    id: string
    username: string
    display_name: string
    role: string
    disabled: number
    all_halls: number
    locked_until: string | null
    must_change_password: number
    created_at: string
  }>
> {
  return db.all(
    'SELECT id, username, display_name, role, disabled, all_halls, locked_until, must_change_password, created_at FROM users ORDER BY username',
  )
}

export function countDirectors(db: Sql): Promise<{ n: number } | undefined> {
  return db.get<{ n: number }>("SELECT COUNT(*) AS n FROM users WHERE role = 'director' AND disabled = 0")
}

export async function setUserDisabled(tx: Sql, userId: string, disabled: boolean): Promise<boolean> {
  return (await tx.run('UPDATE users SET disabled = ? WHERE id = ?', [disabled ? 1 : 0, userId])).changes === 1
}

export async function setPassword(tx: Sql, userId: string, passwordHash: string, mustChange: boolean): Promise<void> {
  // Issue 24 point 4: a demo account stays one whatever password it is given (not transferable out of the demo).
  await tx.run('UPDATE users SET password_hash = ?, must_change_password = ? WHERE id = ?', [
    passwordHash,
    mustChange ? 1 : 0,
    userId,
  ])
}

/** Demo accounts must choose their own password once the server runs outside the demo (issue 14 point 5). */
export function demoUsers(
  db: Sql,
): Promise<Array<{ id: string; password_hash: string; must_change_password: number }>> {
  return db.all('SELECT id, password_hash, must_change_password FROM users WHERE demo = 1')
}

export async function setMustChangePassword(tx: Sql, userId: string): Promise<void> {
  await tx.run('UPDATE users SET must_change_password = 1 WHERE id = ?', [userId])
}

/** Ends a person's sessions, all or all but the one whose hash is `exceptHash`; how many it ended. */
export async function revokeTokensOfUser(tx: Sql, userId: string, at: string, exceptHash?: string): Promise<number> {
  if (exceptHash)
    return (
      await tx.run(
        'UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND token_hash <> ?',
        [at, userId, exceptHash],
      )
    ).changes
  return (await tx.run('UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', [at, userId]))
    .changes
}

/**
 * Takes one login attempt for an account that is neither disabled nor locked, atomically (issue 14 point 4): the
 * count goes up before the password is checked, so concurrent guesses each see the ones before. Undefined when
 * the account is unknown, disabled or locked.
 */
export async function takeLoginAttempt(tx: Sql, username: string, now: string): Promise<UserRow | undefined> {
  const r = await tx.run(
    'UPDATE users SET failed_attempts = failed_attempts + 1 WHERE username = ? AND disabled = 0 AND (locked_until IS NULL OR locked_until <= ?)',
    [username, now],
  )
  if (r.changes !== 1) return undefined
  return tx.get<UserRow>('SELECT * FROM users WHERE username = ?', [username])
}

/** Locks an account that is not locked yet; false when it already was (another attempt locked it first). */
export async function lockUser(tx: Sql, userId: string, until: string, now: string): Promise<boolean> {
  const r = await tx.run(
    'UPDATE users SET locked_until = ?, failed_attempts = 0, lock_count = lock_count + 1 WHERE id = ? AND (locked_until IS NULL OR locked_until <= ?)',
    [until, userId, now],
  )
  return r.changes === 1
}

/** A director lifts a lock (and its growing delay). */
export async function unlockUser(tx: Sql, userId: string): Promise<boolean> {
  return (
    (await tx.run('UPDATE users SET locked_until = NULL, failed_attempts = 0, lock_count = 0 WHERE id = ?', [userId]))
      .changes === 1
  )
}

export function userByUsername(db: Sql, username: string): Promise<UserRow | undefined> {
  return db.get<UserRow>('SELECT * FROM users WHERE username = ?', [username])
}

export function userById(
  db: Sql,
  id: string,
): Promise<
  | {
      id: string
      username: string
      role: PersonRole
      display_name: string
      disabled: number
      all_halls: number
      must_change_password: number
      demo: number
    }
  | undefined
> {
  return db.get(
    'SELECT id, username, role, display_name, disabled, all_halls, must_change_password, demo FROM users WHERE id = ?',
    [id],
  )
}

/** Records the failure count and, when it locks the account, until when. */
export async function setLoginFailures(
  tx: Sql,
  userId: string,
  failures: number,
  lockedUntil: string | null,
): Promise<void> {
  await tx.run('UPDATE users SET failed_attempts = ?, locked_until = ? WHERE id = ?', [failures, lockedUntil, userId])
}

export async function clearLoginFailures(db: Sql, userId: string): Promise<void> {
  await db.run('UPDATE users SET failed_attempts = 0, locked_until = NULL, lock_count = 0 WHERE id = ?', [userId])
}

// Tokens (sessions of people, and of devices)

export async function insertToken(
  db: Sql,
  t: { tokenHash: string; userId: string | null; deviceId: string | null; createdAt: string; expiresAt: string },
): Promise<void> {
  await db.run(
    'INSERT INTO auth_tokens (token_hash, user_id, device_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    [t.tokenHash, t.userId, t.deviceId, t.createdAt, t.expiresAt],
  )
}

export function tokenByHash(db: Sql, tokenHash: string): Promise<TokenRow | undefined> {
  return db.get<TokenRow>('SELECT user_id, device_id, expires_at, revoked_at FROM auth_tokens WHERE token_hash = ?', [
    tokenHash,
  ])
}

export async function revokeToken(db: Sql, tokenHash: string, at: string): Promise<void> {
  await db.run('UPDATE auth_tokens SET revoked_at = ? WHERE token_hash = ?', [at, tokenHash])
}

export async function revokeTokensOfDevice(tx: Sql, deviceId: string, at: string): Promise<void> {
  await tx.run('UPDATE auth_tokens SET revoked_at = ? WHERE device_id = ? AND revoked_at IS NULL', [at, deviceId])
}

// Device credentials

export async function insertDeviceCredential(
  tx: Sql,
  d: {
    id: string
    kind: DeviceKind
    name: string
    hallId: string | null
    secretHash: string
    createdAt: string
    sealCode: string | null
    typeApprovalNo: string | null
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO device_credentials (id, kind, name, hall_id, secret_hash, created_at, seal_code, type_approval_no) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [d.id, d.kind, d.name, d.hallId, d.secretHash, d.createdAt, d.sealCode, d.typeApprovalNo],
  )
}

/** Issue 26 (GEN-7): whether another enrolled device already carries this seal code. */
export async function isDeviceSealTaken(tx: Sql, sealCode: string, exceptId?: string): Promise<boolean> {
  const r = await tx.get<{ id: string }>('SELECT id FROM device_credentials WHERE seal_code = ? AND id <> ?', [
    sealCode,
    exceptId ?? '',
  ])
  return Boolean(r)
}

/** Issue 26: records a device's seal code and type-approval number (a device enrolled before, or a new seal). */
export async function setDeviceMarks(
  tx: Sql,
  deviceId: string,
  marks: { sealCode: string | null; typeApprovalNo: string | null },
): Promise<void> {
  await tx.run('UPDATE device_credentials SET seal_code = ?, type_approval_no = ? WHERE id = ?', [
    marks.sealCode,
    marks.typeApprovalNo,
    deviceId,
  ])
}

export interface DeviceMarksRow {
  id: string
  kind: DeviceKind
  name: string
  hall_id: string | null
  seal_code: string | null
  type_approval_no: string | null
  hall_profile_id: string | null
  /** Issue 26 (GEN-4, BNG-9): the printer it prints on (equipment registry); null: none registered. */
  printer_id: string | null
  printer_seal_code: string | null
  printer_type_approval_no: string | null
  printer_issuing_authorisation: string | null
  printer_status: string | null
  /** Issue 26: its name, and whether it is the device's own (serves it) or a shared one of the hall or operator. */
  printer_name: string | null
  printer_serves_device_id: string | null
  printer_hall_id: string | null
  /**
   * Issue 24 point 1: the rest of the printer's sealed columns and its seal (row_seals), read in the same statement
   * so that the sale checks the row it decides on without reading it again.
   */
  printer_kind?: string | null
  printer_manufacturer?: string | null
  printer_model?: string | null
  printer_serial_no?: string | null
  printer_certificate_id?: string | null
  printer_certificate_expires_at?: string | null
  printer_parent_id?: string | null
  printer_created_at?: string | null
  printer_seal_seq?: number | string | null
  /** The hall asked for beside the device (`withHall`), its `halls` columns; absent where not asked for. */
  vh_id?: string | null
  vh_name?: string | null
  vh_profile_id?: string | null
  vh_currency?: string | null
  vh_playing_positions?: number | string | null
  vh_settings?: string | null
  vh_created_at?: string | null
  printer_seal_mac?: string | null
}

/**
 * Issue 26: an enrolled device's marks and its hall's profile, for the check where it sells or pays, with the printer
 * it prints on: the registered printer that serves it by name, or else the shared printer of its hall, or else the
 * operator's (no hall). A retired printer is no printer; a suspended one is found, and refused by the check.
 */
export function deviceMarksById(
  db: Sql,
  deviceId: string,
  options?: {
    /**
     * A hall whose row comes back beside the device's (`vh_*` columns; `vh_id` null: no such hall): a kiosk sale
     * reads its kiosk and its voucher's hall in one round trip (issue 23 point 5).
     */
    withHall?: string
  },
): Promise<DeviceMarksRow | undefined> {
  const withHall = options?.withHall
  return db.get<DeviceMarksRow>(
    `SELECT d.id, d.kind, d.name, d.hall_id, d.seal_code, d.type_approval_no, h.profile_id AS hall_profile_id,
            p.id AS printer_id, p.seal_code AS printer_seal_code, p.type_approval_no AS printer_type_approval_no,
            p.issuing_authorisation AS printer_issuing_authorisation, p.status AS printer_status,
            p.name AS printer_name, p.serves_device_id AS printer_serves_device_id, p.hall_id AS printer_hall_id,
            p.kind AS printer_kind, p.manufacturer AS printer_manufacturer, p.model AS printer_model,
            p.serial_no AS printer_serial_no, p.certificate_id AS printer_certificate_id,
            p.certificate_expires_at AS printer_certificate_expires_at, p.parent_id AS printer_parent_id,
            p.created_at AS printer_created_at, ps.journal_seq AS printer_seal_seq, ps.mac AS printer_seal_mac${
              withHall === undefined
                ? ''
                : `,
            vh.id AS vh_id, vh.name AS vh_name, vh.profile_id AS vh_profile_id, vh.currency AS vh_currency,
            vh.playing_positions AS vh_playing_positions, vh.settings AS vh_settings, vh.created_at AS vh_created_at`
            }
       FROM device_credentials d LEFT JOIN halls h ON h.id = d.hall_id
       LEFT JOIN devices p ON p.id = (
         SELECT x.id FROM devices x
          WHERE x.kind = 'printer' AND x.status <> 'retired'
            AND (x.serves_device_id = d.id
                 OR (x.serves_device_id IS NULL AND (x.hall_id = d.hall_id OR x.hall_id IS NULL)))
          ORDER BY CASE WHEN x.serves_device_id = d.id THEN 0 WHEN x.hall_id IS NOT NULL THEN 1 ELSE 2 END, x.id
          LIMIT 1)
       LEFT JOIN row_seals ps ON ps.tbl = 'devices' AND ps.row_id = p.id${
         withHall === undefined
           ? ''
           : `
       LEFT JOIN halls vh ON vh.id = ?`
       }
      WHERE d.id = ?`,
    withHall === undefined ? [deviceId] : [withHall, deviceId],
  )
}

/** The profile of a hall (undefined: no such hall). */
export function hallProfileId(db: Sql, hallId: string): Promise<{ profile_id: string } | undefined> {
  return db.get<{ profile_id: string }>('SELECT profile_id FROM halls WHERE id = ?', [hallId])
}

/** Revokes an active credential; false when there is none with this id. */
export async function revokeDeviceCredential(tx: Sql, deviceId: string, at: string): Promise<boolean> {
  const r = await tx.run('UPDATE device_credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [
    at,
    deviceId,
  ])
  return r.changes === 1
}

/** A new secret for an enrolled device (re-enrolment): the old one stops matching, a revoked device is live again. */
export async function replaceDeviceSecret(tx: Sql, deviceId: string, secretHash: string): Promise<void> {
  await tx.run('UPDATE device_credentials SET secret_hash = ?, revoked_at = NULL WHERE id = ?', [secretHash, deviceId])
}

/** A device's credential row and its secret's hash, read once per request that presents the credential. */
export function deviceWithSecretById(
  db: Sql,
  deviceId: string,
): Promise<(DeviceCredentialRow & { secret_hash: string }) | undefined> {
  return db.get<DeviceCredentialRow & { secret_hash: string }>(
    'SELECT id, kind, name, hall_id, revoked_at, seal_code, type_approval_no, secret_hash FROM device_credentials WHERE id = ?',
    [deviceId],
  )
}

/**
 * Issue 29 point 7: records that devices presented their credentials, each at most once a minute (a write per request
 * would be too many): `at` is written unless the device's time is already `notBefore` or later. Issue 23 point 5: the
 * devices seen together are written together. PostgreSQL: plain statements: a time of last sight is no journal
 * record, so it takes none of the journal's locks, and the server's fsync is not ours. SQLite: one transaction, its
 * sync left to the WAL's own thread (nobody is answered on a time of last sight).
 */
export async function touchDevices(
  db: Database,
  seen: ReadonlyArray<{ deviceId: string; at: string; notBefore: string }>,
): Promise<void> {
  const write = async (sql: Sql) => {
    for (const s of seen)
      await sql.run(
        'UPDATE device_credentials SET last_seen_at = ? WHERE id = ? AND (last_seen_at IS NULL OR last_seen_at < ?)',
        [s.at, s.deviceId, s.notBefore],
      )
  }
  if (db.engine === 'postgres') await write(db)
  else await db.transaction(write, { deferSync: true })
}

export interface EnrolledDeviceRow {
  id: string
  kind: string
  name: string
  hall_id: string | null
  hall_name: string | null
  hall_settings: string | null
  hall_profile_id: string | null
  created_at: string
  revoked_at: string | null
  last_seen_at: string | null
  seal_code: string | null
  type_approval_no: string | null
}

/** The enrolled devices of the halls given ('*': every hall, and devices bound to none), by hall and name. */
export function enrolledDevices(db: Sql, halls: '*' | readonly string[]): Promise<EnrolledDeviceRow[]> {
  const where = halls === '*' ? '' : `WHERE d.hall_id IN (${halls.map(() => '?').join(', ') || 'NULL'})`
  return db.all<EnrolledDeviceRow>(
    `SELECT d.id, d.kind, d.name, d.hall_id, h.name AS hall_name, h.settings AS hall_settings,
            h.profile_id AS hall_profile_id, d.created_at, d.revoked_at, d.last_seen_at,
            d.seal_code, d.type_approval_no
       FROM device_credentials d LEFT JOIN halls h ON h.id = d.hall_id ${where}
      ORDER BY h.name, d.revoked_at IS NOT NULL, d.name, d.created_at`,
    halls === '*' ? [] : [...halls],
  )
}

export function deviceCredentialById(db: Sql, deviceId: string): Promise<DeviceCredentialRow | undefined> {
  return db.get<DeviceCredentialRow>(
    'SELECT id, kind, name, hall_id, revoked_at, seal_code, type_approval_no FROM device_credentials WHERE id = ?',
    [deviceId],
  )
}

// Halls of the things a request touches (issue 14 point 1): one function per kind of resource, each answering the
// halls it belongs to (a simultaneous game belongs to every hall it is played in), or [] when it does not exist.

const list = async (db: Sql, sql: string, params: readonly unknown[]): Promise<string[]> => [
  ...new Set(
    (await db.all<{ hall_id: string | null }>(sql, params))
      .map((r) => r.hall_id)
      .filter((h): h is string => Boolean(h)),
  ),
]

export const hallsOfGame = (db: Sql, gameId: string) =>
  list(db, 'SELECT hall_id FROM games WHERE id = ? UNION SELECT hall_id FROM game_halls WHERE game_id = ?', [
    gameId,
    gameId,
  ])
export const hallsOfSession = (db: Sql, sessionId: string) =>
  list(db, 'SELECT hall_id FROM sessions WHERE id = ?', [sessionId])
export const hallsOfSeries = (db: Sql, seriesId: string) =>
  list(db, 'SELECT hall_id FROM series WHERE id = ?', [seriesId])
export const hallsOfPrize = (db: Sql, prizeId: string) =>
  list(
    db,
    'SELECT g.hall_id FROM prizes p JOIN games g ON g.id = p.game_id WHERE p.id = ? UNION SELECT hall_id FROM bonus_prizes WHERE id = ?',
    [prizeId, prizeId],
  )
export const hallsOfPayout = (db: Sql, payoutId: string) =>
  list(db, 'SELECT hall_id FROM payouts WHERE id = ?', [payoutId])
export const hallsOfAmlReport = (db: Sql, reportId: string) =>
  list(db, 'SELECT hall_id FROM aml_reports WHERE id = ?', [reportId])
export const hallsOfBallSet = (db: Sql, setId: string) =>
  list(db, 'SELECT hall_id FROM ball_sets WHERE id = ?', [setId])
export const hallsOfPot = (db: Sql, potId: string) =>
  list(db, 'SELECT hall_id FROM pot_halls WHERE pot_id = ?', [potId])
/** An enrolled device (credential) or a registered gaming device (equipment) of that id. */
export const hallsOfDevice = (db: Sql, deviceId: string) =>
  list(db, 'SELECT hall_id FROM device_credentials WHERE id = ? UNION SELECT hall_id FROM devices WHERE id = ?', [
    deviceId,
    deviceId,
  ])
/** A station's hall: the enrolled device of that id. */
export const hallsOfStation = (db: Sql, stationId: string) =>
  list(db, 'SELECT hall_id FROM device_credentials WHERE id = ?', [stationId])
/** A cashier's shift (issue 13 point 5): its report lists a hall's drawer. */
export const hallsOfShift = (db: Sql, shiftId: string) =>
  list(db, 'SELECT hall_id FROM cashier_shifts WHERE id = ?', [shiftId])
export const hallsOfCard = (db: Sql, cardId: string) =>
  list(db, 'SELECT g.hall_id FROM cards c JOIN games g ON g.id = c.game_id WHERE c.id = ?', [cardId])
export const hallsOfVoucher = async (db: Sql, voucherId: string): Promise<string[]> => {
  const facts = await voucherFactsById(db, voucherId)
  return facts?.hallId ? [facts.hallId] : []
}
/** What never changes on a voucher once issued: its hall and its buyer's document (as stored, sealed at rest). */
export interface VoucherFacts {
  hallId: string
  buyerDocument: string | null
}
/**
 * A voucher's {@link VoucherFacts}, read once per request (issue 23 point 5): a kiosk purchase's hall guard and its
 * pre-transaction step (the scopes it locks, the buyer the exclusion check asks about) share one statement. The
 * voucher's balance and status are never taken from here: the sale reads and checks them in its transaction.
 */
export function voucherFactsById(db: Sql, voucherId: string): Promise<VoucherFacts | undefined> {
  return oncePerRequest(`voucher-facts:${voucherId}`, async () => {
    const r = await db.get<{ hall_id: string; buyer_document: string | null }>(
      'SELECT hall_id, buyer_document FROM vouchers WHERE id = ?',
      [voucherId],
    )
    return r && { hallId: r.hall_id, buyerDocument: r.buyer_document }
  })
}
/** A person's halls; '*' for someone of every hall. */
export async function hallsOfPerson(db: Sql, userId: string): Promise<'*' | string[]> {
  const u = await db.get<{ all_halls: number }>('SELECT all_halls FROM users WHERE id = ?', [userId])
  if (!u) return []
  return Number(u.all_halls) === 1 ? '*' : hallsOfUser(db, userId)
}

// Player exclusions (issue 14 point 8; GEN-23, GEN-25, GEN-27)

export interface ExclusionRow {
  id: string
  document: string
  document_key: string | null
  name: string
  kind: string
  reason: string
  hall_id: string | null
  until_at: string | null
  /** CFG-4: the international list the person was entered from (migration 0380); null: the hall's own entry. */
  list_source?: string | null
  created_by: string
  created_at: string
  lifted_at: string | null
}

export async function insertExclusion(
  tx: Sql,
  e: {
    id: string
    document: string
    documentKey: string
    name: string
    kind: string
    reason: string
    hallId: string | null
    untilAt: string | null
    listSource: string | null
    createdBy: string
    createdAt: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO player_exclusions (id, document, document_key, name, kind, reason, hall_id, until_at, list_source, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      e.id,
      e.document,
      e.documentKey,
      e.name,
      e.kind,
      e.reason,
      e.hallId,
      e.untilAt,
      e.listSource,
      e.createdBy,
      e.createdAt,
    ],
  )
  touchRows(tx, 'player_exclusions', [e.id])
}

/** The exclusions in force for a person (their identity key, shared/identity.ts) at `now` (in a hall, or in every hall). */
export function exclusionsInForce(db: Sql, documentKey: string, now: string): Promise<ExclusionRow[]> {
  return db.all<ExclusionRow>(
    'SELECT * FROM player_exclusions WHERE document_key = ? AND lifted_at IS NULL AND (until_at IS NULL OR until_at > ?) ORDER BY created_at',
    [documentKey, now],
  )
}

/**
 * Issue 24 points 2 and 6: where a person's document, name or key still sits in clear at rest (rows written before
 * the documents were sealed), what the start-up pass converts. A column holds a sealed value once it starts with
 * `sealedPrefix`; a stored key is 64 lowercase hex digits. Each entry: table, the clear columns read, the rows.
 */
export const CLEAR_IDENTITY_TABLES = {
  // Unsealed by row seals (no seal to renew), or the document outside the row's seal.
  player_exclusions: { id: 'id', documents: ['document', 'name'], key: 'document_key' },
  complaints: { id: 'id', documents: ['player_document'], key: null },
  payouts: { id: 'id', documents: ['payee_document'], key: null },
  bonus_prizes: { id: 'id', documents: ['payee_document'], key: null },
  // Row-sealed tables whose seal covers the document: the pass renews the row's seal (identity-at-rest.ts).
  vouchers: { id: 'id', documents: ['buyer_document'], key: null },
  lotto_slips: { id: 'id', documents: ['player_document'], key: null },
  lottery_payouts: { id: 'id', documents: ['payee_document'], key: null },
  instant_payouts: { id: 'id', documents: ['payee_document'], key: null },
  // GEN-17's intakes and records (sealed rows since the AML pass): the seal covers the document and the key.
  cash_intakes: { id: 'id', documents: ['buyer_document'], key: 'buyer_key' },
  aml_reports: { id: 'id', documents: ['buyer_document'], key: 'buyer_key' },
} as const
export type ClearIdentityTable = keyof typeof CLEAR_IDENTITY_TABLES

/** Rows of `table` with a document in clear, or a key that is not a stored key (all of them: a one-time pass). */
export function rowsWithClearIdentity(
  tx: Sql,
  table: ClearIdentityTable,
  sealedPrefix: string,
  extraColumns: readonly string[] = [],
): Promise<Array<Record<string, string | null>>> {
  const t = CLEAR_IDENTITY_TABLES[table]
  const clear = t.documents.map((c) => `(${c} IS NOT NULL AND ${c} <> '' AND ${c} NOT LIKE '${sealedPrefix}%')`)
  // A key is 64 characters; a person's key in clear is shorter or in upper case (checked again by the caller).
  const key = t.key
    ? [`(${t.key} IS NOT NULL AND LENGTH(${t.key}) <> 64)`, `(${t.key} IS NULL AND ${t.documents[0]} IS NOT NULL)`]
    : []
  return tx.all(
    `SELECT ${[...new Set([t.id, ...extraColumns, ...t.documents, ...(t.key ? [t.key] : [])])].join(', ')} FROM ${table} WHERE ${[...clear, ...key].join(' OR ')} ORDER BY ${t.id}`,
  )
}

/** Writes a row's converted columns (sealed documents, stored key). */
export async function setIdentityColumns(
  tx: Sql,
  table: ClearIdentityTable,
  id: string,
  values: Record<string, string | null>,
): Promise<void> {
  const cols = Object.keys(values)
  await tx.run(
    `UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE ${CLEAR_IDENTITY_TABLES[table].id} = ?`,
    [...cols.map((c) => values[c]), id],
  )
}

/** Cards whose player is stored by a document's key in clear (`doc:<key>`), not by a stored key. */
export function playerCardsWithClearKey(tx: Sql): Promise<Array<{ card_id: string; player_key: string }>> {
  return tx.all(
    "SELECT card_id, player_key FROM player_cards WHERE player_key LIKE 'doc:%' AND LENGTH(player_key) <> 68",
  )
}

export async function setPlayerCardKey(tx: Sql, cardId: string, playerKey: string): Promise<void> {
  await tx.run('UPDATE player_cards SET player_key = ? WHERE card_id = ?', [playerKey, cardId])
}

/** SQLite: freed bytes overwritten from now on in this connection, so emptied values do not linger in the file. */
export async function eraseFreedPages(db: Sql & { engine: string }): Promise<void> {
  if (db.engine === 'sqlite') await db.run('PRAGMA secure_delete = ON')
}

/** SQLite: the WAL copied into the database file and emptied (it may hold pages written before an erase). */
export async function truncateWal(db: Sql & { engine: string }): Promise<void> {
  if (db.engine === 'sqlite') await db.run('PRAGMA wal_checkpoint(TRUNCATE)')
}

export function listExclusions(db: Sql): Promise<ExclusionRow[]> {
  return db.all<ExclusionRow>('SELECT * FROM player_exclusions ORDER BY created_at DESC LIMIT 1000')
}

export async function liftExclusion(tx: Sql, id: string, by: string, at: string): Promise<boolean> {
  const lifted =
    (
      await tx.run('UPDATE player_exclusions SET lifted_at = ?, lifted_by = ? WHERE id = ? AND lifted_at IS NULL', [
        at,
        by,
        id,
      ])
    ).changes === 1
  if (lifted) touchRows(tx, 'player_exclusions', [id])
  return lifted
}
