import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface OperatorKeys {
  privateKey: KeyObject
  publicKey: KeyObject
  /** What `GET /api/keys` publishes so anyone can check a ticket offline. */
  publicInfo(): { algorithm: 'Ed25519'; keyId: string; publicKeyPem: string; publicKeyRaw: string }
}

/** Loads the operator's Ed25519 signing key from DATA_DIR/keys, creating it on first start. */
export function loadOrCreateKeys(dataDir: string): OperatorKeys {
  return loadOrCreateKeysIn(join(dataDir, 'keys'))
}

export const OPERATOR_KEY_FILE = 'operator-ed25519.pem'

/** Loads the operator's Ed25519 signing key from the key directory `dir` (BOLILLO_KEY_DIR), creating it on first start. */
export function loadOrCreateKeysIn(dir: string): OperatorKeys {
  const file = join(dir, OPERATOR_KEY_FILE)
  let privateKey: KeyObject
  if (existsSync(file)) {
    privateKey = createPrivateKey(readFileSync(file))
  } else {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    privateKey = generateKeyPairSync('ed25519').privateKey
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 })
  }
  return fromPrivateKey(privateKey)
}

export function fromPrivateKey(privateKey: KeyObject): OperatorKeys {
  const publicKey = createPublicKey(privateKey)
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string }
  const pem = String(publicKey.export({ type: 'spki', format: 'pem' }))
  return {
    privateKey,
    publicKey,
    publicInfo: () => ({ algorithm: 'Ed25519', keyId: jwk.x.slice(0, 8), publicKeyPem: pem, publicKeyRaw: jwk.x }),
  }
}
