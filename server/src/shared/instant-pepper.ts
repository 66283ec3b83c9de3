import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const INSTANT_PEPPER_FILE = 'instant-code-pepper.hex'

/**
 * The instant-lottery code pepper: 32 random bytes under DATA_DIR/keys, created on first use, that key the tags of
 * validation codes stored in the database (domain/instant-codes.ts `codeTag`). Back it up with the operator key:
 * without it no instant ticket generated here can be validated. Never stored in the database.
 */
export function loadOrCreateInstantPepper(dataDir: string, keyDir = join(dataDir, 'keys')): Buffer {
  const dir = keyDir
  const file = join(dir, INSTANT_PEPPER_FILE)
  if (existsSync(file)) {
    const hex = readFileSync(file, 'utf8').trim()
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} must hold 64 hex characters`)
    return Buffer.from(hex, 'hex')
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const pepper = randomBytes(32)
  writeFileSync(file, pepper.toString('hex') + '\n', { mode: 0o600 })
  return pepper
}
