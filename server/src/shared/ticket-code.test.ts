import { generateKeyPairSync, verify } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DomainError } from './errors.ts'
import {
  MAX_TICKET_CODE_LENGTH,
  TicketKind,
  describePublicKey,
  encodeTicketCode,
  isValidTicketCode,
  parseTicketCode,
  privateKeyFromSeed,
  publicKeyFromPem,
  publicKeyFromRaw,
  publicKeyOf,
  publicKeyToJwk,
  publicKeyToPem,
  publicKeyToRaw,
  verifyTicketCode,
  verifyTicketCodeAsync,
} from './ticket-code.ts'

// RFC 8032 section 7.1, test 1: a known seed and its public key.
const RFC_SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex')
const RFC_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'

const privateKey = privateKeyFromSeed(RFC_SEED)
const publicKey = publicKeyOf(privateKey)
const other = generateKeyPairSync('ed25519')

const kindArb = fc.constantFrom(...Object.values(TicketKind))
const idArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
// Replacement characters: every character a code may contain, the separator, and some that may not appear.
const REPLACEMENTS = [...BASE64URL, '.', '+', '/', '=', ' ', '\n', 'é', '\u0000']

function expectCode(fn: () => unknown, code: 'INVALID_SIGNATURE' | 'VALIDATION_FAILED', message?: RegExp) {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError)
    expect((e as DomainError).code).toBe(code)
    if (message) expect((e as DomainError).message).toMatch(message)
    return
  }
  throw new Error('expected a DomainError')
}

describe('ticket code round trip', () => {
  it('encodes, parses and verifies every kind and id', () => {
    fc.assert(
      fc.property(kindArb, idArb, (kind, id) => {
        const code = encodeTicketCode({ kind, id }, privateKey)
        expect(code).toMatch(/^BLL1\.[CLTIV]\.[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{86}$/)
        expect(code.length).toBeLessThanOrEqual(MAX_TICKET_CODE_LENGTH)
        expect(verifyTicketCode(code, publicKey)).toEqual({ kind, id })
        const parsed = parseTicketCode(code)
        expect(parsed).toMatchObject({ prefix: 'BLL', version: 1, kind, id, message: `BLL1.${kind}.${id}` })
        expect(parsed.signature).toHaveLength(64)
      }),
    )
  })

  it('signs exactly the text before the last dot, so anyone can verify it with plain Ed25519', () => {
    const code = encodeTicketCode({ kind: TicketKind.lottery, id: 'E2025-00042-f3' }, privateKey)
    const cut = code.lastIndexOf('.')
    const raw = publicKeyFromRaw(publicKeyToRaw(publicKey))
    expect(verify(null, Buffer.from(code.slice(0, cut)), raw, Buffer.from(code.slice(cut + 1), 'base64url'))).toBe(true)
  })

  it('is deterministic for a given key (Ed25519) and short enough for a small QR', () => {
    const a = encodeTicketCode({ kind: TicketKind.card, id: 'g12-000345' }, privateKey)
    expect(encodeTicketCode({ kind: TicketKind.card, id: 'g12-000345' }, privateKey)).toBe(a)
    expect(encodeTicketCode({ kind: TicketKind.card, id: 'A'.repeat(20) }, privateKey)).toHaveLength(114)
    expect(MAX_TICKET_CODE_LENGTH).toBe(158)
  })
})

describe('tampering', () => {
  const code = encodeTicketCode({ kind: TicketKind.instant, id: 'R7-000123-x' }, privateKey)

  it('rejects every single-character change anywhere in a valid code (exhaustive for one code)', () => {
    let tried = 0
    for (let i = 0; i < code.length; i++) {
      for (const c of REPLACEMENTS) {
        if (c === code[i]) continue
        const changed = code.slice(0, i) + c + code.slice(i + 1)
        expectCode(() => verifyTicketCode(changed, publicKey), 'INVALID_SIGNATURE')
        tried++
      }
    }
    expect(tried).toBeGreaterThan(code.length * 60)
  })

  it('rejects a single-character change at any position of any code (property)', () => {
    fc.assert(
      fc.property(kindArb, idArb, fc.nat(), fc.constantFrom(...REPLACEMENTS), (kind, id, pos, c) => {
        const valid = encodeTicketCode({ kind, id }, privateKey)
        const i = pos % valid.length
        fc.pre(valid[i] !== c)
        expect(isValidTicketCode(valid.slice(0, i) + c + valid.slice(i + 1), publicKey)).toBe(false)
      }),
      { numRuns: 500 },
    )
  })

  it('rejects a non-canonical spelling of the same signature bytes', () => {
    // The last base64url character carries 2 bits; its low 4 bits are padding a lax decoder would ignore.
    const last = code[code.length - 1]
    const sibling = BASE64URL[BASE64URL.indexOf(last) ^ 1]
    const changed = code.slice(0, -1) + sibling
    expect(Buffer.from(changed.slice(-86), 'base64url').equals(Buffer.from(code.slice(-86), 'base64url'))).toBe(true)
    expectCode(() => parseTicketCode(changed), 'INVALID_SIGNATURE', /canonical/)
    expectCode(() => verifyTicketCode(changed, publicKey), 'INVALID_SIGNATURE')
  })

  it('rejects a code signed by another key, and accepts it when that key is also published', () => {
    const foreign = encodeTicketCode({ kind: TicketKind.card, id: 'g1-1' }, other.privateKey)
    expectCode(() => verifyTicketCode(foreign, publicKey), 'INVALID_SIGNATURE', /does not verify/)
    expect(verifyTicketCode(foreign, [publicKey, other.publicKey])).toEqual({ kind: 'C', id: 'g1-1' })
  })

  it('rejects a signature moved from one ticket to another', () => {
    const a = encodeTicketCode({ kind: TicketKind.card, id: 'g1-1' }, privateKey)
    const b = encodeTicketCode({ kind: TicketKind.voucher, id: 'g1-1' }, privateKey)
    expectCode(() => verifyTicketCode(`BLL1.V.g1-1.${a.split('.')[3]}`, publicKey), 'INVALID_SIGNATURE')
    expect(verifyTicketCode(b, publicKey)).toEqual({ kind: 'V', id: 'g1-1' })
  })
})

describe('verifying on the thread pool (the kiosk sale path)', () => {
  const code = encodeTicketCode({ kind: TicketKind.voucher, id: 'vc_ABC123' }, privateKey)

  it('answers as the synchronous check: the ticket for a good code, INVALID_SIGNATURE for any one-character change', async () => {
    await expect(verifyTicketCodeAsync(code, publicKey)).resolves.toEqual({ kind: 'V', id: 'vc_ABC123' })
    for (let i = 0; i < code.length; i += 7) {
      const changed = code.slice(0, i) + (code[i] === 'A' ? 'B' : 'A') + code.slice(i + 1)
      const rejected = await verifyTicketCodeAsync(changed, publicKey).then(
        () => null,
        (e: unknown) => e,
      )
      expect(rejected, `position ${i}`).toBeInstanceOf(DomainError)
      expect((rejected as DomainError).code).toBe('INVALID_SIGNATURE')
    }
  })

  it('tries every published key, and refuses a code of another key alone', async () => {
    const foreign = encodeTicketCode({ kind: TicketKind.card, id: 'g1-1' }, other.privateKey)
    await expect(verifyTicketCodeAsync(foreign, publicKey)).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' })
    await expect(verifyTicketCodeAsync(foreign, [publicKey, other.publicKey])).resolves.toEqual({
      kind: 'C',
      id: 'g1-1',
    })
  })
})

describe('malformed codes', () => {
  const valid = encodeTicketCode({ kind: TicketKind.lotto, id: 'L-1' }, privateKey)
  const sig = valid.split('.')[3]

  it.each([
    ['', /empty/],
    ['hello', /4 fields/],
    [`BLL1.L.L-1.${sig}.x`, /4 fields/],
    [`XYZ1.L.L-1.${sig}`, /not a Bolillo ticket code/],
    [`bll1.L.L-1.${sig}`, /not a Bolillo ticket code/],
    [`BLL2.L.L-1.${sig}`, /unsupported ticket code version "2"/],
    [`BLL1.X.L-1.${sig}`, /unknown ticket kind "X"/],
    [`BLL1.l.L-1.${sig}`, /unknown ticket kind "l"/],
    [`BLL1.L..${sig}`, /ticket id/],
    [`BLL1.L.L 1.${sig}`, /ticket id/],
    [`BLL1.L.${'a'.repeat(65)}.x`, /ticket id/],
    ['x'.repeat(10_000), /at most 158/],
  ])('parse rejects %j as VALIDATION_FAILED', (code, message) => {
    expectCode(() => parseTicketCode(code), 'VALIDATION_FAILED', message)
    expectCode(() => verifyTicketCode(code, publicKey), 'INVALID_SIGNATURE', message)
  })

  it.each([
    ['BLL1.L.L-1.', /86 base64url/],
    [`BLL1.L.L-1.${sig.slice(1)}`, /86 base64url/],
    [`BLL1.L.L-1.${sig}=`, /86 base64url/],
    [`BLL1.L.L-1.${sig.slice(0, 85)}+`, /86 base64url/],
    [`${valid}\n`, /86 base64url/],
  ])('parse rejects a bad signature field in %j as INVALID_SIGNATURE', (code, message) => {
    expectCode(() => parseTicketCode(code), 'INVALID_SIGNATURE', message)
    expectCode(() => verifyTicketCode(code, publicKey), 'INVALID_SIGNATURE', message)
  })

  it('keeps the parse error code in details.cause', () => {
    try {
      verifyTicketCode('BLL9.C.x.y', publicKey)
      expect.unreachable()
    } catch (e) {
      expect((e as DomainError).details).toEqual({ cause: 'VALIDATION_FAILED' })
    }
  })

  it('refuses to encode an unknown kind, a bad id or with a wrong key', () => {
    expectCode(() => encodeTicketCode({ kind: 'Z' as TicketKind, id: 'a' }, privateKey), 'VALIDATION_FAILED')
    expectCode(() => encodeTicketCode({ kind: TicketKind.card, id: 'a.b' }, privateKey), 'VALIDATION_FAILED')
    expectCode(() => encodeTicketCode({ kind: TicketKind.card, id: 'a' }, publicKey), 'VALIDATION_FAILED')
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
    expectCode(() => encodeTicketCode({ kind: TicketKind.card, id: 'a' }, rsa.privateKey), 'VALIDATION_FAILED')
    expectCode(() => verifyTicketCode(valid, rsa.publicKey), 'VALIDATION_FAILED')
    expectCode(() => verifyTicketCode(valid, []), 'VALIDATION_FAILED')
  })
})

describe('publishing the key', () => {
  it('derives the RFC 8032 public key from its seed', () => {
    expect(publicKeyToRaw(publicKey).toString('hex')).toBe(RFC_PUBLIC)
  })

  it('round-trips raw, base64url and PEM forms', () => {
    const raw = publicKeyToRaw(publicKey)
    expect(publicKeyFromRaw(raw).equals(publicKey)).toBe(true)
    expect(publicKeyFromRaw(raw.toString('base64url')).equals(publicKey)).toBe(true)
    expect(publicKeyFromPem(publicKeyToPem(publicKey)).equals(publicKey)).toBe(true)
    expect(publicKeyToJwk(publicKey)).toEqual({ kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') })
    expectCode(() => publicKeyFromRaw(raw.subarray(0, 31)), 'VALIDATION_FAILED')
  })

  it('describes the key for GET /api/keys', () => {
    const published = describePublicKey(publicKey)
    expect(published).toMatchObject({
      alg: 'Ed25519',
      format: 'BLL1',
      raw: Buffer.from(RFC_PUBLIC, 'hex').toString('base64url'),
    })
    expect(published.kid).toMatch(/^[0-9a-f]{16}$/)
    expect(published.pem).toContain('BEGIN PUBLIC KEY')
    expect(published.jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: published.kid })
  })
})

describe('performance', () => {
  it('verifies a thousand codes quickly', () => {
    const codes = Array.from({ length: 1000 }, (_, i) =>
      encodeTicketCode({ kind: TicketKind.card, id: `g1-${i}` }, privateKey),
    )
    const start = performance.now()
    for (const code of codes) verifyTicketCode(code, publicKey)
    // Typically ~0.1 s; the bound only catches an accidental order-of-magnitude slowdown.
    expect(performance.now() - start).toBeLessThan(3000)
  })
})
