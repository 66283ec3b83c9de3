/**
 * INS-3 / RNG-27 (002 §7.4.3.1: the code generation and printing system "deberá contar con la respectiva
 * certificación emitida por un Certificador autorizado por la AJ"): the certificate is a statement signed by the
 * certifier, not a reference the operator types. The certifier signs, with its Ed25519 key, the canonical form of
 * {certifier, certificate reference, build hash, issued on, valid until}; the operator records each AJ-authorised
 * certifier (name, AJ authorisation reference, public key) in a sealed, journaled registry, and a batch is generated
 * only under a certificate whose signature verifies under a registered certifier's key that is not withdrawn and
 * whose hash is the running build's. Pure: no I/O, no clock (today's date arrives as a value).
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { hexToBytes } from '@noble/curves/utils.js'

export const GENERATOR_CERTIFICATE_VERSION = 'bolillo-generator-certificate-v1'

/** What the certifier signs. Dates are calendar days `YYYY-MM-DD` (UTC); `validUntil` is the last valid day. */
export interface GeneratorCertificateStatement {
  /** The certifier's AJ authorisation reference: the registry entry whose key must verify the signature. */
  certifier: string
  certificateRef: string
  /** The generator build the certifier certified (generator-build.ts), 64 lowercase hex digits. */
  buildSha256: string
  issuedOn: string
  validUntil: string | null
}

export interface SignedGeneratorCertificate {
  statement: GeneratorCertificateStatement
  /** Ed25519 signature over {@link canonicalStatement}, 128 lowercase hex digits. */
  signature: string
}

/** A registry entry: an AJ-authorised certifier and its key (raw Ed25519 public key, 64 hex digits). */
export interface GeneratorCertifier {
  id: string
  name: string
  ajAuthorisationRef: string
  publicKey: string
  status: 'active' | 'withdrawn'
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
const HEX64 = /^[0-9a-f]{64}$/
const HEX128 = /^[0-9a-f]{128}$/

/**
 * The bytes signed: UTF-8 of a JSON object with exactly these keys in this order and no whitespace, `validUntil`
 * null when the certificate has no end. Anyone reproduces it from the statement's fields alone.
 * @example canonicalStatement(s) === '{"v":"bolillo-generator-certificate-v1","certifier":"AJ-CERT-0007",...}'
 */
export function canonicalStatement(s: GeneratorCertificateStatement): string {
  return JSON.stringify({
    v: GENERATOR_CERTIFICATE_VERSION,
    certifier: s.certifier,
    certificateRef: s.certificateRef,
    buildSha256: s.buildSha256,
    issuedOn: s.issuedOn,
    validUntil: s.validUntil ?? null,
  })
}

/** The problems of a statement's form (empty: well formed). */
export function statementFormProblems(s: Partial<GeneratorCertificateStatement>): string[] {
  const problems: string[] = []
  for (const field of ['certifier', 'certificateRef'] as const) {
    const v = s[field]
    if (typeof v !== 'string' || !v.trim() || v.length > 120 || v !== v.trim()) problems.push(field)
  }
  if (typeof s.buildSha256 !== 'string' || !HEX64.test(s.buildSha256)) problems.push('buildSha256')
  if (typeof s.issuedOn !== 'string' || !isDay(s.issuedOn)) problems.push('issuedOn')
  if (s.validUntil !== null && s.validUntil !== undefined && (typeof s.validUntil !== 'string' || !isDay(s.validUntil)))
    problems.push('validUntil')
  return problems
}

function isDay(v: string): boolean {
  return DAY.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v
}

/** Reads a certificate document (`{statement, signature}`); a string says what is wrong with it. */
export function parseSignedCertificate(doc: unknown): SignedGeneratorCertificate | string {
  const d = doc as { statement?: Partial<GeneratorCertificateStatement>; signature?: unknown } | null
  if (!d || typeof d !== 'object' || !d.statement || typeof d.statement !== 'object')
    return 'a certificate is {"statement": {...}, "signature": "<hex>"}'
  const bad = statementFormProblems(d.statement)
  if (bad.length) return `the certificate's statement has invalid fields: ${bad.join(', ')}`
  if (typeof d.signature !== 'string' || !HEX128.test(d.signature))
    return "the certificate's signature is not 128 lowercase hex digits"
  const s = d.statement as GeneratorCertificateStatement
  return {
    statement: {
      certifier: s.certifier,
      certificateRef: s.certificateRef,
      buildSha256: s.buildSha256,
      issuedOn: s.issuedOn,
      validUntil: s.validUntil ?? null,
    },
    signature: d.signature,
  }
}

/** Whether `signature` is the Ed25519 signature of the statement under `publicKeyHex` (RFC 8032, strict). */
export function verifyCertificateSignature(cert: SignedGeneratorCertificate, publicKeyHex: string): boolean {
  if (!HEX64.test(publicKeyHex) || !HEX128.test(cert.signature)) return false
  try {
    return ed25519.verify(
      hexToBytes(cert.signature),
      new TextEncoder().encode(canonicalStatement(cert.statement)),
      hexToBytes(publicKeyHex),
      { zip215: false },
    )
  } catch {
    return false
  }
}

/** A raw Ed25519 public key as the registry stores it: 64 lowercase hex digits of a valid curve point. */
export function isPublicKey(hex: string): boolean {
  if (!HEX64.test(hex)) return false
  try {
    ed25519.Point.fromHex(hex).assertValidity()
    return true
  } catch {
    return false
  }
}

export type CertificateProblem =
  | 'unregistered-certifier'
  | 'bad-signature'
  | 'certifier-withdrawn'
  | 'build-not-certified'
  | 'not-yet-valid'
  | 'expired'

/**
 * INS-3: what keeps a signed certificate from certifying the running build today. `certifiers` are the registry's
 * entries under the statement's certifier reference; the certificate counts (empty problems) only when its signature
 * verifies under the key of one that is active, its hash is `buildSha256` and `today` (UTC `YYYY-MM-DD`) lies between
 * its issue and its last valid day. `certifier` is the entry whose key verified it, if any.
 */
export function certificateProblems(
  cert: SignedGeneratorCertificate,
  certifiers: readonly GeneratorCertifier[],
  buildSha256: string,
  today: string,
): { problems: CertificateProblem[]; certifier: GeneratorCertifier | null } {
  const problems: CertificateProblem[] = []
  const named = certifiers.filter((c) => c.ajAuthorisationRef === cert.statement.certifier)
  const signers = named.filter((c) => verifyCertificateSignature(cert, c.publicKey))
  const certifier = signers.find((c) => c.status === 'active') ?? signers[0] ?? null
  if (named.length === 0) problems.push('unregistered-certifier')
  else if (!certifier) problems.push('bad-signature')
  else if (certifier.status !== 'active') problems.push('certifier-withdrawn')
  if (cert.statement.buildSha256 !== buildSha256) problems.push('build-not-certified')
  if (today < cert.statement.issuedOn) problems.push('not-yet-valid')
  if (cert.statement.validUntil !== null && today > cert.statement.validUntil) problems.push('expired')
  return { problems, certifier }
}
