import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDecipheriv, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  SealingError,
  openSealed,
  openSealedText,
  parseSealingKey,
  seal,
  sealedKeyId,
  sealingKeyFromBytes,
} from './sealing.ts'
import { SEALING_KEY_ENV, SEALING_KEY_FILE, loadSealingKey } from './sealing-key-file.ts'

const key = sealingKeyFromBytes(Buffer.alloc(32, 1))
const otherKey = sealingKeyFromBytes(Buffer.alloc(32, 2))
const secret = Buffer.from('aa'.repeat(32), 'hex')

function codeOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    if (e instanceof SealingError) return e.code
    throw e
  }
  return 'NO ERROR'
}

describe('seal and open', () => {
  it('round-trips bytes and text, and the sealed form shows neither', () => {
    const sealed = seal(key, secret, 'draw-seed|game:1')
    expect(sealed).toMatch(/^bolillo-sealed-v1\.[0-9a-f]{16}\./)
    expect(sealed).not.toContain('aa'.repeat(8))
    expect(Buffer.from(sealed.split('.')[3], 'base64url')).not.toEqual(secret)
    expect(openSealed(key, sealed, 'draw-seed|game:1')).toEqual(secret)
    expect(openSealedText(key, seal(key, 'línea 1-90', 'x'), 'x')).toBe('línea 1-90')
    // Fresh IVs: sealing twice gives different text.
    expect(seal(key, secret, 'c')).not.toBe(seal(key, secret, 'c'))
  })

  it('never repeats an IV: the pooled IVs are each handed out once, across refills of the pool', () => {
    // AES-GCM leaks under a repeated IV; the IVs come from a 4 KiB pool of the CSPRNG (341 IVs a refill).
    const ivs = new Set<string>()
    for (let i = 0; i < 3000; i++) {
      const sealed = seal(key, secret, 'c')
      ivs.add(sealed.split('.')[2])
      if (i % 500 === 0) expect(openSealed(key, sealed, 'c')).toEqual(secret)
    }
    expect(ivs.size).toBe(3000)
  })

  it('is standard AES-256-GCM with version, key id and context as additional data', () => {
    const sealed = seal(key, secret, 'ctx')
    const [, id, iv, body, tag] = sealed.split('.')
    const d = createDecipheriv('aes-256-gcm', Buffer.alloc(32, 1), Buffer.from(iv, 'base64url'))
    d.setAAD(Buffer.from(`bolillo-sealed-v1|${id}|ctx`))
    d.setAuthTag(Buffer.from(tag, 'base64url'))
    expect(Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()])).toEqual(secret)
  })

  it('detects any altered part and a different context', () => {
    const sealed = seal(key, secret, 'draw-seed|game:1')
    const parts = sealed.split('.')
    for (const i of [2, 3, 4]) {
      const bytes = Buffer.from(parts[i], 'base64url')
      bytes[bytes.length - 1] ^= 1
      const altered = [...parts]
      altered[i] = bytes.toString('base64url')
      expect(
        codeOf(() => openSealed(key, altered.join('.'), 'draw-seed|game:1')),
        `part ${i}`,
      ).toBe('TAMPERED')
    }
    expect(codeOf(() => openSealed(key, sealed, 'draw-seed|game:2'))).toBe('TAMPERED')
    expect(codeOf(() => openSealed(key, sealed.replace('v1', 'v2'), 'draw-seed|game:1'))).toBe('MALFORMED')
    expect(codeOf(() => openSealed(key, 'aa'.repeat(32), 'x'))).toBe('MALFORMED')
  })

  it('refuses a value sealed under another key by naming both keys', () => {
    const sealed = seal(otherKey, secret, 'c')
    expect(sealedKeyId(sealed)).toBe(otherKey.id)
    expect(() => openSealed(key, sealed, 'c')).toThrow(
      `sealed under key ${otherKey.id}, but the sealing key in use is ${key.id}`,
    )
    // Forging the key id does not help: the id is authenticated and the key still differs.
    expect(codeOf(() => openSealed(key, sealed.replace(otherKey.id, key.id), 'c'))).toBe('TAMPERED')
  })

  it('parses keys from hex and base64, and refuses others', () => {
    const hex = '0f'.repeat(32)
    expect(parseSealingKey(hex).id).toBe(parseSealingKey(Buffer.from(hex, 'hex').toString('base64')).id)
    expect(parseSealingKey(Buffer.from(hex, 'hex').toString('base64url')).bytes).toEqual(Buffer.from(hex, 'hex'))
    expect(codeOf(() => parseSealingKey('0f'.repeat(31)))).toBe('BAD_KEY')
    expect(codeOf(() => parseSealingKey('password'))).toBe('BAD_KEY')
  })
})

describe.skipIf(process.platform === 'win32')('sealing key file', () => {
  it('creates DATA_DIR/keys/… with mode 0600 in a 0700 directory, and reads the same key back', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sealing-'))
    const created = loadSealingKey({ dataDir, entropy: (n) => Buffer.alloc(n, 7) })
    expect(created.source).toBe('created')
    expect(created.key.bytes).toEqual(Buffer.alloc(32, 7))
    const file = join(dataDir, 'keys', SEALING_KEY_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(dataDir, 'keys')).mode & 0o777).toBe(0o700)
    expect(readFileSync(file, 'utf8').trim()).toBe('07'.repeat(32))
    const again = loadSealingKey({
      dataDir,
      entropy: () => {
        throw new Error('must not make a new key')
      },
    })
    expect(again).toEqual({ key: created.key, source: 'file', file })
  })

  it('tightens an existing keys directory but refuses a key file others can read', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sealing-'))
    mkdirSync(join(dataDir, 'keys'), { mode: 0o755 })
    chmodSync(join(dataDir, 'keys'), 0o755)
    const file = join(dataDir, 'keys', SEALING_KEY_FILE)
    writeFileSync(file, '01'.repeat(32))
    chmodSync(file, 0o644)
    expect(() => loadSealingKey({ dataDir })).toThrow(/mode 0644/)
    expect(statSync(join(dataDir, 'keys')).mode & 0o777).toBe(0o700)
    chmodSync(file, 0o600)
    expect(loadSealingKey({ dataDir }).key.id).toBe(key.id)
  })

  it('takes the key from configuration first, and writes no file', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sealing-'))
    const r = loadSealingKey({ dataDir, env: { [SEALING_KEY_ENV]: Buffer.alloc(32, 2).toString('base64') } })
    expect(r).toEqual({ key: otherKey, source: 'configuration' })
    expect(() => statSync(join(dataDir, 'keys', SEALING_KEY_FILE))).toThrow()
    expect(() => loadSealingKey({ dataDir, env: { [SEALING_KEY_ENV]: 'short' } })).toThrow(SEALING_KEY_ENV)
  })
})

describe('keyed tags (issue 24 point 2)', () => {
  it('are deterministic per key and purpose, differ across keys and purposes, and do not contain the value', async () => {
    const { keyedTag, sealingKeyFromBytes } = await import('./sealing.ts')
    const k1 = sealingKeyFromBytes(Buffer.alloc(32, 1))
    const k2 = sealingKeyFromBytes(Buffer.alloc(32, 2))
    const t = keyedTag(k1, '7KQM2XRD9HFA', 'voucher-short-code')
    expect(t).toMatch(/^[0-9a-f]{64}$/)
    expect(keyedTag(k1, '7KQM2XRD9HFA', 'voucher-short-code')).toBe(t)
    expect(keyedTag(k2, '7KQM2XRD9HFA', 'voucher-short-code')).not.toBe(t)
    expect(keyedTag(k1, '7KQM2XRD9HFA', 'identity-document')).not.toBe(t)
    expect(keyedTag(k1, '7KQM2XRD9HFB', 'voucher-short-code')).not.toBe(t)
  })

  // The subkey is derived once per key (a sale tags every card it sells): the tags stored before (vouchers' short
  // code hashes, identity keys at rest) must stay what they were, whichever key was used first.
  it('are the HMAC under the derived subkey, the same from the first call on and across keys used in turn', async () => {
    const { keyedTag, sealingKeyFromBytes } = await import('./sealing.ts')
    const direct = (bytes: Buffer, value: string, purpose: string) =>
      createHmac('sha256', createHmac('sha256', bytes).update('bolillo-tag-key-v1').digest())
        .update(`${purpose}|${value}`, 'utf8')
        .digest('hex')
    const b1 = Buffer.alloc(32, 7)
    const b2 = Buffer.alloc(32, 8)
    for (let i = 0; i < 2; i++) {
      expect(keyedTag(sealingKeyFromBytes(b1), 'c_abcdefghij', 'card-short-code')).toBe(
        direct(b1, 'c_abcdefghij', 'card-short-code'),
      )
      expect(keyedTag(sealingKeyFromBytes(b2), 'c_abcdefghij', 'card-short-code')).toBe(
        direct(b2, 'c_abcdefghij', 'card-short-code'),
      )
    }
  })
})
