import { generateKeyPairSync, verify } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { rawPublicKeyHex, signGeneratorCertificate } from '../cli/generator-certificate.ts'
import { DomainError } from '../shared/errors.ts'
import { generatorRecord, instantGeneratorBuild } from './generator-build.ts'
import {
  canonicalStatement,
  certificateProblems,
  isPublicKey,
  parseSignedCertificate,
  verifyCertificateSignature,
  type GeneratorCertificateStatement,
  type GeneratorCertifier,
} from './generator-certificate.ts'

/**
 * INS-3 / RNG-27 (002 §7.4.3.1): the generator's certificate is the certifier's Ed25519 signature over a canonical
 * statement; it counts only under the key of a registered, active certifier, for the running build, within its dates.
 */
const lab = generateKeyPairSync('ed25519').privateKey
const other = generateKeyPairSync('ed25519').privateKey
const HASH = 'ab'.repeat(32)
const statement: GeneratorCertificateStatement = {
  certifier: 'AJ-CERT-LAB-0007',
  certificateRef: 'CERT-GEN-2026-0042',
  buildSha256: HASH,
  issuedOn: '2026-03-01',
  validUntil: '2027-02-28',
}
const certifier = (over: Partial<GeneratorCertifier> = {}): GeneratorCertifier => ({
  id: 'igc_lab',
  name: 'Laboratorio Andino de Certificación',
  ajAuthorisationRef: 'AJ-CERT-LAB-0007',
  publicKey: rawPublicKeyHex(lab),
  status: 'active',
  ...over,
})

describe('INS-3: the canonical statement a certifier signs', () => {
  it('INS-3: is one JSON line with the version and the fields in a fixed order, whatever order they came in', () => {
    const shuffled = {
      validUntil: '2027-02-28',
      issuedOn: '2026-03-01',
      buildSha256: HASH,
      certificateRef: 'CERT-GEN-2026-0042',
      certifier: 'AJ-CERT-LAB-0007',
    }
    expect(canonicalStatement(shuffled)).toBe(
      `{"v":"bolillo-generator-certificate-v1","certifier":"AJ-CERT-LAB-0007","certificateRef":"CERT-GEN-2026-0042","buildSha256":"${HASH}","issuedOn":"2026-03-01","validUntil":"2027-02-28"}`,
    )
    expect(canonicalStatement({ ...statement, validUntil: null })).toMatch(/"validUntil":null}$/)
  })

  it('INS-3: the laboratory signs those bytes: node:crypto verifies them, and a changed field no longer verifies', () => {
    const cert = signGeneratorCertificate(statement, lab)
    expect(verify(null, Buffer.from(canonicalStatement(statement)), lab, Buffer.from(cert.signature, 'hex'))).toBe(true)
    expect(verifyCertificateSignature(cert, rawPublicKeyHex(lab))).toBe(true)
    expect(verifyCertificateSignature(cert, rawPublicKeyHex(other))).toBe(false)
    for (const changed of [
      { certificateRef: 'CERT-GEN-2026-0043' },
      { buildSha256: 'cd'.repeat(32) },
      { validUntil: '2099-12-31' },
      { validUntil: null },
      { certifier: 'AJ-CERT-LAB-0008' },
    ])
      expect(
        verifyCertificateSignature({ ...cert, statement: { ...statement, ...changed } }, rawPublicKeyHex(lab)),
      ).toBe(false)
  })

  it('INS-3: a document with a malformed field, date or signature is refused by name', () => {
    const cert = signGeneratorCertificate(statement, lab)
    expect(parseSignedCertificate(JSON.parse(JSON.stringify(cert)))).toEqual(cert)
    expect(
      parseSignedCertificate({ statement: { ...statement, issuedOn: '2026-02-30' }, signature: cert.signature }),
    ).toMatch(/issuedOn/)
    expect(
      parseSignedCertificate({ statement: { ...statement, buildSha256: 'AB'.repeat(32) }, signature: cert.signature }),
    ).toMatch(/buildSha256/)
    expect(parseSignedCertificate({ statement, signature: 'zz' })).toMatch(/signature/)
    expect(parseSignedCertificate('AJ-CERT:' + HASH)).toMatch(/statement/)
    expect(isPublicKey(rawPublicKeyHex(lab))).toBe(true)
    expect(isPublicKey('02' + '00'.repeat(31))).toBe(false)
  })
})

describe('INS-3 / RNG-27: what keeps a signed certificate from counting', () => {
  const cert = signGeneratorCertificate(statement, lab)

  it('INS-3: counts under the registered, active certifier, for its build, between its issue and its last day', () => {
    for (const today of ['2026-03-01', '2026-09-15', '2027-02-28'])
      expect(certificateProblems(cert, [certifier()], HASH, today)).toEqual({ problems: [], certifier: certifier() })
  })

  it('INS-3: refuses a wrong key, an unregistered certifier, a withdrawn one, another build and the dates outside', () => {
    const signedByOther = signGeneratorCertificate(statement, other)
    expect(certificateProblems(signedByOther, [certifier()], HASH, '2026-06-01').problems).toEqual(['bad-signature'])
    expect(
      certificateProblems(cert, [certifier({ ajAuthorisationRef: 'AJ-CERT-LAB-0001' })], HASH, '2026-06-01').problems,
    ).toEqual(['unregistered-certifier'])
    expect(certificateProblems(cert, [], HASH, '2026-06-01').problems).toEqual(['unregistered-certifier'])
    expect(certificateProblems(cert, [certifier({ status: 'withdrawn' })], HASH, '2026-06-01').problems).toEqual([
      'certifier-withdrawn',
    ])
    expect(certificateProblems(cert, [certifier()], 'cd'.repeat(32), '2026-06-01').problems).toEqual([
      'build-not-certified',
    ])
    expect(certificateProblems(cert, [certifier()], HASH, '2027-03-01').problems).toEqual(['expired'])
    expect(certificateProblems(cert, [certifier()], HASH, '2026-02-28').problems).toEqual(['not-yet-valid'])
    // A new key recorded beside a withdrawn one: the certificate counts under the entry whose key signed it.
    const rotated = [
      certifier({ status: 'withdrawn' }),
      certifier({ id: 'igc_new', publicKey: rawPublicKeyHex(other) }),
    ]
    expect(certificateProblems(cert, rotated, HASH, '2026-06-01').problems).toEqual(['certifier-withdrawn'])
    expect(certificateProblems(signedByOther, rotated, HASH, '2026-06-01')).toMatchObject({
      problems: [],
      certifier: { id: 'igc_new' },
    })
  })

  it('INS-3: the gate refuses a typed REFERENCE:SHA256 (no signature), and takes the demo label only where the demo runs', () => {
    const running = instantGeneratorBuild()
    const refusal = (policy: Parameters<typeof generatorRecord>[0]) => {
      try {
        generatorRecord(policy, running, { certifiers: [certifier()], today: '2026-06-01' })
      } catch (err) {
        expect(err).toBeInstanceOf(DomainError)
        return (err as DomainError).details
      }
      return null
    }
    expect(
      refusal({
        required: true,
        certification: { ref: 'AJ-CERT-GEN-2025-0042', sha256: running.sha256 },
        demoAccepted: true,
      }),
    ).toMatchObject({ rule: 'INS-3', problems: ['unsigned-certificate'] })
    const demo = { ref: 'DEMO (sin certificación real)', sha256: running.sha256 }
    expect(refusal({ required: true, certification: demo, demoAccepted: true })).toBeNull()
    expect(refusal({ required: true, certification: demo, demoAccepted: false })).toMatchObject({
      problems: ['unsigned-certificate'],
    })
    // Where no certificate is required, an unverified one is not recorded as the batch's certificate.
    expect(
      generatorRecord({ required: false, certification: { ref: 'AJ-X', sha256: running.sha256 } }, running),
    ).toMatchObject({ certificationRef: null, certifier: null })
    const signed = signGeneratorCertificate({ ...statement, buildSha256: running.sha256 }, lab)
    expect(
      generatorRecord(
        { required: true, certification: { ref: statement.certificateRef, sha256: running.sha256, signed } },
        running,
        { certifiers: [certifier()], today: '2026-06-01' },
      ),
    ).toMatchObject({
      certificationRef: 'CERT-GEN-2026-0042',
      certifiedSha256: running.sha256,
      certifier: { id: 'igc_lab', ajAuthorisationRef: 'AJ-CERT-LAB-0007' },
      certificateSignature: signed.signature,
    })
  })
})
