/**
 * SQL of equipment: the device registry (devices, game_devices), ball sets (ball_sets, ball_set_games) and the
 * reads of halls, sessions and games that their rules need. Rows come out as stored (snake_case); devices.ts and
 * ball-sets.ts map them.
 */
import type { Sql } from '../db/database.ts'
import type { BallSetStatus, DeviceKind, DevicePatch, DeviceStatus } from './kinds.ts'
import { touchRows } from '../shared/row-seals.ts'

// Devices (devices.ts)

export interface DeviceRow {
  id: string
  hall_id: string | null
  kind: DeviceKind
  name: string
  manufacturer: string | null
  model: string | null
  serial_no: string | null
  seal_code: string | null
  certificate_id: string | null
  certificate_expires_at: string | null
  type_approval_no: string | null
  parent_id: string | null
  serves_device_id?: string | null
  issuing_authorisation?: string | null
  status: DeviceStatus
  firmware: string | null
  last_seen_at: string | null
  created_at: string
  updated_at: string
}

export function deviceById(tx: Sql, id: string): Promise<DeviceRow | undefined> {
  return tx.get<DeviceRow>('SELECT * FROM devices WHERE id = ?', [id])
}

/** A device by its regulator's seal code (GEN-7), unique where set. */
export function deviceBySealCode(tx: Sql, sealCode: string): Promise<DeviceRow | undefined> {
  return tx.get<DeviceRow>('SELECT * FROM devices WHERE seal_code = ?', [sealCode])
}

export async function isDeviceRegistered(tx: Sql, id: string): Promise<boolean> {
  return Boolean(await tx.get('SELECT id FROM devices WHERE id = ?', [id]))
}

/** The parts of a device (a reader built into a blower) that are not retired. */
export function activePartsOf(tx: Sql, parentId: string): Promise<DeviceRow[]> {
  return tx.all<DeviceRow>("SELECT * FROM devices WHERE parent_id = ? AND status <> 'retired'", [parentId])
}

/** Whether some device carries this seal code; with `exceptId`, some device other than that one. */
export async function isSealCodeTaken(tx: Sql, sealCode: string, exceptId?: string): Promise<boolean> {
  return Boolean(
    exceptId === undefined
      ? await tx.get('SELECT id FROM devices WHERE seal_code = ?', [sealCode])
      : await tx.get('SELECT id FROM devices WHERE seal_code = ? AND id <> ?', [sealCode, exceptId]),
  )
}

export function listDevices(db: Sql, filter: { hallId?: string; kind?: DeviceKind }): Promise<DeviceRow[]> {
  const where: string[] = []
  const params: unknown[] = []
  if (filter.hallId) {
    where.push('(hall_id = ? OR hall_id IS NULL)')
    params.push(filter.hallId)
  }
  if (filter.kind) {
    where.push('kind = ?')
    params.push(filter.kind)
  }
  return db.all<DeviceRow>(
    `SELECT * FROM devices${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY kind, id`,
    params,
  )
}

/** A new device, active. */
export async function insertDevice(tx: Sql, d: Omit<DeviceRow, 'status' | 'last_seen_at'>): Promise<void> {
  await tx.run(
    `INSERT INTO devices (id, hall_id, kind, name, manufacturer, model, serial_no, seal_code, certificate_id, certificate_expires_at, type_approval_no, parent_id, serves_device_id, issuing_authorisation, status, firmware, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)`,
    [
      d.id,
      d.hall_id,
      d.kind,
      d.name,
      d.manufacturer,
      d.model,
      d.serial_no,
      d.seal_code,
      d.certificate_id,
      d.certificate_expires_at,
      d.type_approval_no,
      d.parent_id,
      d.serves_device_id ?? null,
      d.issuing_authorisation ?? null,
      d.firmware,
      d.created_at,
      d.updated_at,
    ],
  )
  touchRows(tx, 'devices', [d.id])
}

/** The column behind each field a device's record may change, in the order an update applies them. */
const PATCH_COLUMNS: Record<keyof DevicePatch, string> = {
  name: 'name',
  hallId: 'hall_id',
  manufacturer: 'manufacturer',
  model: 'model',
  serialNo: 'serial_no',
  sealCode: 'seal_code',
  certificateId: 'certificate_id',
  certificateExpiresAt: 'certificate_expires_at',
  typeApprovalNo: 'type_approval_no',
  parentId: 'parent_id',
  firmware: 'firmware',
  servesDeviceId: 'serves_device_id',
  issuingAuthorisation: 'issuing_authorisation',
}
export const DEVICE_PATCH_FIELDS = Object.keys(PATCH_COLUMNS) as Array<keyof DevicePatch>

export async function setDeviceField(tx: Sql, id: string, field: keyof DevicePatch, value: unknown): Promise<void> {
  await tx.run(`UPDATE devices SET ${PATCH_COLUMNS[field]} = ? WHERE id = ?`, [value, id])
  touchRows(tx, 'devices', [id])
}

export async function touchDevice(tx: Sql, id: string, at: string): Promise<void> {
  await tx.run('UPDATE devices SET updated_at = ? WHERE id = ?', [at, id])
}

export async function setDeviceStatus(tx: Sql, id: string, status: DeviceStatus, at: string): Promise<void> {
  await tx.run('UPDATE devices SET status = ?, updated_at = ? WHERE id = ?', [status, at, id])
  touchRows(tx, 'devices', [id])
}

/** A device's HELLO: when it was last seen and the firmware it reports. */
export async function markDeviceSeen(tx: Sql, id: string, at: string, firmware: string): Promise<void> {
  await tx.run('UPDATE devices SET last_seen_at = ?, firmware = ? WHERE id = ?', [at, firmware, id])
}

/** Records which device a game was announced with, and its seal and certificate at that moment. */
export async function insertGameDevice(
  tx: Sql,
  g: {
    gameId: string
    deviceId: string
    role: string
    sealCode: string | null
    certificateId: string | null
    typeApprovalNo: string | null
    assignedAt: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO game_devices (game_id, device_id, role, seal_code, certificate_id, type_approval_no, assigned_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [g.gameId, g.deviceId, g.role, g.sealCode, g.certificateId, g.typeApprovalNo, g.assignedAt],
  )
}

/** The device a game was announced with in `role` (the extractor of a manual game), if any. */
export function deviceOfGame(tx: Sql, gameId: string, role: string): Promise<{ device_id: string } | undefined> {
  return tx.get<{ device_id: string }>('SELECT device_id FROM game_devices WHERE game_id = ? AND role = ?', [
    gameId,
    role,
  ])
}

/**
 * Issue 26 (GEN-6): the RNG devices that may serve a draw of `hallId` (null: an operator draw): the hall's own first,
 * then the operator's (registered to no hall), by id.
 */
export function rngDevicesFor(tx: Sql, hallId: string | null): Promise<DeviceRow[]> {
  return tx.all<DeviceRow>(
    `SELECT * FROM devices WHERE kind = 'rng' AND (hall_id IS NULL OR hall_id = ?)
      ORDER BY CASE WHEN hall_id IS NULL THEN 1 ELSE 0 END, id`,
    [hallId ?? ''],
  )
}

/** The active extractors (kind blower: drum or pneumatic, BNG-30) registered for a hall. */
export function activeExtractorsOfHall(tx: Sql, hallId: string): Promise<Array<{ id: string }>> {
  return tx.all<{ id: string }>(
    "SELECT id FROM devices WHERE hall_id = ? AND kind = 'blower' AND status = 'active' ORDER BY id",
    [hallId],
  )
}

/** The blower a game was announced with, if any. */
export function blowerOfGame(tx: Sql, gameId: string): Promise<{ device_id: string; seal_code: string } | undefined> {
  return tx.get<{ device_id: string; seal_code: string }>(
    "SELECT device_id, seal_code FROM game_devices WHERE game_id = ? AND role = 'blower'",
    [gameId],
  )
}

export async function isHallRegistered(tx: Sql, hallId: string): Promise<boolean> {
  return Boolean(await tx.get('SELECT id FROM halls WHERE id = ?', [hallId]))
}

// Games drawn by a blower (blowers.ts)

/** A game and the blower it was announced with (`device_id` null when there is none). */
export interface BlowerGameRow {
  id: string
  hall_id: string
  session_id: string
  status: string
  draw_source: string
  device_id: string
}

/** The newest unfinished blower game announced with this device. */
export function unfinishedGameOfBlower(db: Sql, deviceId: string): Promise<BlowerGameRow | undefined> {
  return db.get<BlowerGameRow>(
    `SELECT g.id, g.hall_id, g.session_id, g.status, g.draw_source, d.device_id FROM games g JOIN game_devices d ON d.game_id = g.id AND d.role = 'blower'
       WHERE d.device_id = ? AND g.draw_source = 'blower' AND g.status NOT IN ('finished', 'void') ORDER BY g.created_at DESC LIMIT 1`,
    [deviceId],
  )
}

export function gameWithBlower(db: Sql, gameId: string): Promise<BlowerGameRow | undefined> {
  return db.get<BlowerGameRow>(
    `SELECT g.id, g.hall_id, g.session_id, g.status, g.draw_source, d.device_id FROM games g LEFT JOIN game_devices d ON d.game_id = g.id AND d.role = 'blower' WHERE g.id = ?`,
    [gameId],
  )
}

// Ball sets (ball-sets.ts)

export interface BallSetRow {
  id: string
  hall_id: string
  label: string
  approval_no: string | null
  ball_count: number
  guaranteed_games: number | null
  game_limit: number
  warn_percent: number
  games_played: number
  status: BallSetStatus
  created_at: string
  activated_at: string | null
  retired_at: string | null
  retired_reason: string | null
}

export function hallProfileId(tx: Sql, hallId: string): Promise<{ id: string; profile_id: string } | undefined> {
  return tx.get<{ id: string; profile_id: string }>('SELECT id, profile_id FROM halls WHERE id = ?', [hallId])
}

/** The newest session of a hall that is not closed. */
export function openSessionOfHall(tx: Sql, hallId: string): Promise<{ id: string } | undefined> {
  return tx.get<{ id: string }>(
    "SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed' ORDER BY opened_at DESC LIMIT 1",
    [hallId],
  )
}

export function activeBallSet(tx: Sql, hallId: string): Promise<BallSetRow | undefined> {
  return tx.get<BallSetRow>("SELECT * FROM ball_sets WHERE hall_id = ? AND status = 'active'", [hallId])
}

export function ballSetById(tx: Sql, id: string): Promise<BallSetRow | undefined> {
  return tx.get<BallSetRow>('SELECT * FROM ball_sets WHERE id = ?', [id])
}

export function ballSetsOfHall(db: Sql, hallId: string): Promise<BallSetRow[]> {
  return db.all<BallSetRow>('SELECT * FROM ball_sets WHERE hall_id = ? ORDER BY created_at, label', [hallId])
}

/** Reserve sets of a hall with games left; with `ballCount`, only those of that many balls. */
export async function countUsableReserves(tx: Sql, hallId: string, ballCount?: number): Promise<number> {
  const row =
    ballCount === undefined
      ? await tx.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM ball_sets WHERE hall_id = ? AND status = 'reserve' AND games_played < game_limit",
          [hallId],
        )
      : await tx.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM ball_sets WHERE hall_id = ? AND status = 'reserve' AND games_played < game_limit AND ball_count = ?",
          [hallId, ballCount],
        )
  return Number(row?.n ?? 0)
}

/** The layout plans of a hall (BNG-3/4: `layout` and `derived`), for the ball counts its sets may have. */
export function layoutPlansOfHall(tx: Sql, hallId: string): Promise<Array<{ kind: string; body: string }>> {
  return tx.all<{ kind: string; body: string }>(
    "SELECT kind, body FROM hall_plans WHERE hall_id = ? AND kind IN ('layout', 'derived') ORDER BY kind, version",
    [hallId],
  )
}

/** The number of balls a game is played with. */
export async function gameBallCount(tx: Sql, gameId: string): Promise<number | undefined> {
  const r = await tx.get<{ ball_count: number }>('SELECT ball_count FROM games WHERE id = ?', [gameId])
  return r ? Number(r.ball_count) : undefined
}

export async function isBallSetLabelTaken(tx: Sql, hallId: string, label: string): Promise<boolean> {
  return Boolean(await tx.get('SELECT id FROM ball_sets WHERE hall_id = ? AND label = ?', [hallId, label]))
}

/** A new set, no games played yet. */
export async function insertBallSet(
  tx: Sql,
  s: Omit<BallSetRow, 'games_played' | 'retired_at' | 'retired_reason'>,
): Promise<void> {
  await tx.run(
    `INSERT INTO ball_sets (id, hall_id, label, approval_no, ball_count, guaranteed_games, game_limit, warn_percent, games_played, status, created_at, activated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
    [
      s.id,
      s.hall_id,
      s.label,
      s.approval_no,
      s.ball_count,
      s.guaranteed_games,
      s.game_limit,
      s.warn_percent,
      s.status,
      s.created_at,
      s.activated_at,
    ],
  )
}

/** A game of the hall being drawn from its current set right now, if any. */
export function gameDrawingFromBallSet(tx: Sql, hallId: string): Promise<{ id: string } | undefined> {
  return tx.get<{ id: string }>(
    `SELECT g.id FROM games g JOIN ball_set_games b ON b.game_id = g.id WHERE g.hall_id = ? AND g.status IN ('drawing', 'line_window', 'bingo_window')`,
    [hallId],
  )
}

/** Takes the active set out of use: back to reserve (retiredAt and reason null) or retired. */
export async function setBallSetStatus(
  tx: Sql,
  id: string,
  status: 'reserve' | 'retired',
  retiredAt: string | null,
  retiredReason: string | null,
): Promise<void> {
  await tx.run('UPDATE ball_sets SET status = ?, retired_at = ?, retired_reason = ? WHERE id = ?', [
    status,
    retiredAt,
    retiredReason,
    id,
  ])
}

export async function activateBallSet(tx: Sql, id: string, at: string): Promise<void> {
  await tx.run("UPDATE ball_sets SET status = 'active', activated_at = ? WHERE id = ?", [at, id])
}

export async function retireBallSet(tx: Sql, id: string, at: string, reason: string): Promise<void> {
  await tx.run("UPDATE ball_sets SET status = 'retired', retired_at = ?, retired_reason = ? WHERE id = ?", [
    at,
    reason,
    id,
  ])
}

export async function isGameCounted(tx: Sql, gameId: string): Promise<boolean> {
  return Boolean(await tx.get('SELECT game_id FROM ball_set_games WHERE game_id = ?', [gameId]))
}

/** Moves a set's game counter from `from` to `to`; false when another writer moved it first. */
export async function advanceBallSetCounter(tx: Sql, id: string, from: number, to: number): Promise<boolean> {
  const moved = await tx.run('UPDATE ball_sets SET games_played = ? WHERE id = ? AND games_played = ?', [to, id, from])
  return moved.changes === 1
}

export async function insertBallSetGame(
  tx: Sql,
  g: { gameId: string; ballSetId: string; gameNo: number; countedAt: string },
): Promise<void> {
  await tx.run('INSERT INTO ball_set_games (game_id, ball_set_id, game_no, counted_at) VALUES (?, ?, ?, ?)', [
    g.gameId,
    g.ballSetId,
    g.gameNo,
    g.countedAt,
  ])
}

/** Issue 26 (GEN-4, BNG-9): the hall of an enrolled device (kiosk, station, terminal) a printer serves; undefined: none. */
export function enrolledDeviceHall(
  tx: Sql,
  deviceId: string,
): Promise<{ id: string; kind: string; hall_id: string | null } | undefined> {
  return tx.get<{ id: string; kind: string; hall_id: string | null }>(
    'SELECT id, kind, hall_id FROM device_credentials WHERE id = ?',
    [deviceId],
  )
}

// Certified software (software.ts)

export interface CertifiedSoftwareRow {
  id: string
  component: string
  jurisdiction: string
  version: string
  build_sha256: string
  certificate_ref: string
  laboratory: string
  demo: number
  status: 'active' | 'withdrawn'
  recorded_by: string
  recorded_at: string
  withdrawn_at: string | null
  withdrawn_reason: string | null
}

export async function insertCertifiedSoftware(
  tx: Sql,
  r: Omit<CertifiedSoftwareRow, 'status' | 'withdrawn_at' | 'withdrawn_reason'>,
): Promise<void> {
  await tx.run(
    `INSERT INTO certified_software (id, component, jurisdiction, version, build_sha256, certificate_ref, laboratory, demo, status, recorded_by, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
    [
      r.id,
      r.component,
      r.jurisdiction,
      r.version,
      r.build_sha256,
      r.certificate_ref,
      r.laboratory,
      r.demo,
      r.recorded_by,
      r.recorded_at,
    ],
  )
  touchRows(tx, 'certified_software', [r.id])
}

export function certifiedSoftwareById(tx: Sql, id: string): Promise<CertifiedSoftwareRow | undefined> {
  return tx.get<CertifiedSoftwareRow>('SELECT * FROM certified_software WHERE id = ?', [id])
}

export function listCertifiedSoftware(db: Sql): Promise<CertifiedSoftwareRow[]> {
  return db.all<CertifiedSoftwareRow>(
    'SELECT * FROM certified_software ORDER BY jurisdiction, component, recorded_at, id',
  )
}

/** The active record certifying `buildSha256` of `component` in `jurisdiction` (the newest first). */
/** Every active record of a build for a jurisdiction, the newest first. */
export function activeCertificatesFor(
  tx: Sql,
  component: string,
  jurisdiction: string,
  buildSha256: string,
): Promise<CertifiedSoftwareRow[]> {
  return tx.all<CertifiedSoftwareRow>(
    `SELECT * FROM certified_software WHERE component = ? AND jurisdiction = ? AND build_sha256 = ? AND status = 'active'
      ORDER BY recorded_at DESC, id`,
    [component, jurisdiction, buildSha256],
  )
}

export async function withdrawCertifiedSoftware(tx: Sql, id: string, at: string, reason: string): Promise<void> {
  await tx.run(
    "UPDATE certified_software SET status = 'withdrawn', withdrawn_at = ?, withdrawn_reason = ? WHERE id = ?",
    [at, reason, id],
  )
  touchRows(tx, 'certified_software', [id])
}

/** Whether a pot is in play in the hall (RNG-3: its award software then runs in the hall's games). */
export async function hallHasActivePot(tx: Sql, hallId: string): Promise<boolean> {
  return Boolean(
    await tx.get(
      "SELECT p.id FROM pots p JOIN pot_halls ph ON ph.pot_id = p.id WHERE ph.hall_id = ? AND p.status = 'active' LIMIT 1",
      [hallId],
    ),
  )
}

export async function isDerivedGame(tx: Sql, gameId: string): Promise<boolean> {
  return Boolean(await tx.get('SELECT game_id FROM derived_games WHERE game_id = ?', [gameId]))
}

export interface GameSoftwareRow {
  game_id: string
  component: string
  version: string
  build_sha256: string
  certified_software_id: string | null
  certificate_ref: string | null
  assigned_at: string
}

export async function insertGameSoftware(tx: Sql, r: GameSoftwareRow): Promise<void> {
  await tx.run(
    `INSERT INTO game_software (game_id, component, version, build_sha256, certified_software_id, certificate_ref, assigned_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [r.game_id, r.component, r.version, r.build_sha256, r.certified_software_id, r.certificate_ref, r.assigned_at],
  )
  touchRows(tx, 'game_software', [`${r.game_id}|${r.component}`])
}

export function softwareOfGame(db: Sql, gameId: string): Promise<GameSoftwareRow[]> {
  return db.all<GameSoftwareRow>('SELECT * FROM game_software WHERE game_id = ? ORDER BY component', [gameId])
}

// Cameras (cameras.ts): the central's ball-exit camera of simultaneous games (RNG-30)

export interface HallCameraRow {
  id: string
  hall_id: string
  name: string
  stream_url: string
  seal_code: string
  status: DeviceStatus
  created_at: string
  updated_at: string
}

export async function insertHallCamera(
  tx: Sql,
  c: { id: string; hallId: string; name: string; streamUrl: string; sealCode: string; at: string },
): Promise<void> {
  await tx.run(
    'INSERT INTO hall_cameras (id, hall_id, name, stream_url, seal_code, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [c.id, c.hallId, c.name, c.streamUrl, c.sealCode, 'active', c.at, c.at],
  )
}

export function hallCameraById(tx: Sql, id: string): Promise<HallCameraRow | undefined> {
  return tx.get<HallCameraRow>('SELECT * FROM hall_cameras WHERE id = ?', [id])
}

export function hallCameraBySeal(tx: Sql, sealCode: string): Promise<HallCameraRow | undefined> {
  return tx.get<HallCameraRow>('SELECT * FROM hall_cameras WHERE seal_code = ?', [sealCode])
}

/** A hall's active cameras, oldest first (the first is the one the halls see). */
export function activeHallCameras(tx: Sql, hallId: string): Promise<HallCameraRow[]> {
  return tx.all<HallCameraRow>(
    "SELECT * FROM hall_cameras WHERE hall_id = ? AND status = 'active' ORDER BY created_at, id",
    [hallId],
  )
}

export async function setHallCameraStatus(tx: Sql, id: string, status: DeviceStatus, at: string): Promise<boolean> {
  return (await tx.run('UPDATE hall_cameras SET status = ?, updated_at = ? WHERE id = ?', [status, at, id])).changes > 0
}
