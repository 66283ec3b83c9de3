/**
 * Where the sealing key comes from: configuration (env BOLILLO_SEALING_KEY, hex or base64, e.g. from the operator's
 * key store), else the file DATA_DIR/keys/sealing-aes256gcm.key (mode 0600 in a 0700 directory), created on first
 * start from the given entropy. A key file that other users can read is refused, not silently fixed.
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SEALING_KEY_BYTES, SealingError, parseSealingKey, sealingKeyFromBytes, type SealingKey } from './sealing.ts'

export const SEALING_KEY_ENV = 'BOLILLO_SEALING_KEY'
export const SEALING_KEY_FILE = 'sealing-aes256gcm.key'

export interface LoadedSealingKey {
  key: SealingKey
  source: 'configuration' | 'file' | 'created'
  /** The key file, when one was read or written. */
  file?: string
}

export function loadSealingKey(options: {
  dataDir: string
  /** The key directory (BOLILLO_KEY_DIR); default DATA_DIR/keys. */
  keyDir?: string
  env?: Record<string, string | undefined>
  /** Source of a new key's 32 bytes; default node:crypto randomBytes. */
  entropy?: (bytes: number) => Uint8Array
}): LoadedSealingKey {
  const configured = options.env?.[SEALING_KEY_ENV]
  if (configured !== undefined && configured.trim() !== '') {
    try {
      return { key: parseSealingKey(configured), source: 'configuration' }
    } catch (e) {
      throw new SealingError('BAD_KEY', `${SEALING_KEY_ENV}: ${(e as Error).message}`)
    }
  }
  const dir = options.keyDir ?? join(options.dataDir, 'keys')
  const file = join(dir, SEALING_KEY_FILE)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (process.platform !== 'win32') chmodSync(dir, 0o700)
  let text: string | null = null
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
  if (text !== null) {
    const mode = statSync(file).mode & 0o777
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
      throw new SealingError(
        'BAD_KEY',
        `sealing key file ${file} has mode ${mode.toString(8).padStart(4, '0')}: other users may read it; restrict it (chmod 600) and consider the key exposed`,
      )
    }
    try {
      return { key: parseSealingKey(text), source: 'file', file }
    } catch (e) {
      throw new SealingError('BAD_KEY', `sealing key file ${file}: ${(e as Error).message}`)
    }
  }
  const bytes = (options.entropy ?? randomBytes)(SEALING_KEY_BYTES)
  const key = sealingKeyFromBytes(bytes)
  // "wx": never overwrite a key another process wrote in the meantime.
  try {
    writeFileSync(file, `${key.bytes.toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return loadSealingKey({ ...options, entropy: undefined })
    throw e
  }
  if (process.platform !== 'win32') chmodSync(file, 0o600)
  return { key, source: 'created', file }
}
