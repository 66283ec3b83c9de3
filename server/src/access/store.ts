/**
 * SQL of access: people (users), session and device tokens (auth_tokens) and enrolled devices' credentials
 * (device_credentials). Secrets arrive here already hashed.
 */
import type { Sql } from '../db/database.ts'
import type { DeviceKind, PersonRole } from './service.ts'

export interface UserRow { id: string; role: string; display_name: string; password_hash: string; failed_attempts: number; locked_until: string | null; disabled: number }
export interface TokenRow { user_id: string | null; device_id: string | null; expires_at: string; revoked_at: string | null }
export interface DeviceCredentialRow { id: string; kind: DeviceKind; name: string; hall_id: string | null; revoked_at: string | null }

// People

export async function insertUser(tx: Sql, u: { id: string; username: string; displayName: string; role: PersonRole; passwordHash: string; createdAt: string }): Promise<void> {
  await tx.run('INSERT INTO users (id, username, display_name, role, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)', [u.id, u.username, u.displayName, u.role, u.passwordHash, u.createdAt])
}

export function userByUsername(db: Sql, username: string): Promise<UserRow | undefined> {
  return db.get<UserRow>('SELECT * FROM users WHERE username = ?', [username])
}

export function userById(db: Sql, id: string): Promise<{ id: string; role: PersonRole; display_name: string; disabled: number } | undefined> {
  return db.get<{ id: string; role: PersonRole; display_name: string; disabled: number }>('SELECT id, role, display_name, disabled FROM users WHERE id = ?', [id])
}

/** Records the failure count and, when it locks the account, until when. */
export async function setLoginFailures(tx: Sql, userId: string, failures: number, lockedUntil: string | null): Promise<void> {
  await tx.run('UPDATE users SET failed_attempts = ?, locked_until = ? WHERE id = ?', [failures, lockedUntil, userId])
}

export async function clearLoginFailures(db: Sql, userId: string): Promise<void> {
  await db.run('UPDATE users SET failed_attempts = 0, locked_until = NULL WHERE id = ?', [userId])
}

// Tokens (sessions of people, and of devices)

export async function insertToken(db: Sql, t: { tokenHash: string; userId: string | null; deviceId: string | null; createdAt: string; expiresAt: string }): Promise<void> {
  await db.run('INSERT INTO auth_tokens (token_hash, user_id, device_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [t.tokenHash, t.userId, t.deviceId, t.createdAt, t.expiresAt])
}

export function tokenByHash(db: Sql, tokenHash: string): Promise<TokenRow | undefined> {
  return db.get<TokenRow>('SELECT user_id, device_id, expires_at, revoked_at FROM auth_tokens WHERE token_hash = ?', [tokenHash])
}

export async function revokeToken(db: Sql, tokenHash: string, at: string): Promise<void> {
  await db.run('UPDATE auth_tokens SET revoked_at = ? WHERE token_hash = ?', [at, tokenHash])
}

export async function revokeTokensOfDevice(tx: Sql, deviceId: string, at: string): Promise<void> {
  await tx.run('UPDATE auth_tokens SET revoked_at = ? WHERE device_id = ? AND revoked_at IS NULL', [at, deviceId])
}

// Device credentials

export async function insertDeviceCredential(tx: Sql, d: { id: string; kind: DeviceKind; name: string; hallId: string | null; secretHash: string; createdAt: string }): Promise<void> {
  await tx.run('INSERT INTO device_credentials (id, kind, name, hall_id, secret_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)', [d.id, d.kind, d.name, d.hallId, d.secretHash, d.createdAt])
}

/** Revokes an active credential; false when there is none with this id. */
export async function revokeDeviceCredential(tx: Sql, deviceId: string, at: string): Promise<boolean> {
  const r = await tx.run('UPDATE device_credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, deviceId])
  return r.changes === 1
}

export function deviceSecretHash(db: Sql, deviceId: string): Promise<{ secret_hash: string } | undefined> {
  return db.get<{ secret_hash: string }>('SELECT secret_hash FROM device_credentials WHERE id = ?', [deviceId])
}

export function deviceCredentialById(db: Sql, deviceId: string): Promise<DeviceCredentialRow | undefined> {
  return db.get<DeviceCredentialRow>('SELECT id, kind, name, hall_id, revoked_at FROM device_credentials WHERE id = ?', [deviceId])
}
