/**
 * INS-3 (002 §7.4.3.1: the code generation and printing system "deberá contar con una certificación emitida por un
 * Certificador autorizado por la AJ"): what identifies the instant ticket generator that a certifier certified. The
 * build hash is the SHA-256 of the generator's own source modules (placement, codes, symbols, design checks) and its
 * stream version, so any change to how tickets, prizes or codes are produced gives another hash; each batch records
 * the hash it was generated with and the certification reference it ran under (games.ts).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { DomainError } from '../shared/errors.ts'
import { INSTANT_STREAM_VERSION } from './codes.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import {
  certificateProblems,
  type GeneratorCertifier,
  type SignedGeneratorCertificate,
} from './generator-certificate.ts'

/**
 * The modules whose code decides a batch's tickets or how they reach the sheet, in a fixed order, as paths from this
 * folder. INS-3 certifies the "generation and printing system": besides placement, codes, symbols and design checks,
 * the seed (games.ts: freshSeed and its sealing), the pepper that hides the validation codes (shared/instant-pepper.ts), the batch
 * files (files.ts), the print job (print-worker.ts) and the printed sheet (printer/src/instant-sheet.ts). A change to
 * any of them is another build, which the certificate no longer names.
 */
export const GENERATOR_MODULES = [
  'generate.ts',
  'codes.ts',
  'play.ts',
  'design.ts',
  'games.ts',
  '../shared/instant-pepper.ts',
  'files.ts',
  'print-worker.ts',
  '../../../printer/src/instant-sheet.ts',
] as const

export interface GeneratorBuild {
  algorithm: string
  sha256: string
  modules: readonly string[]
}

let cached: GeneratorBuild | null = null

/** SHA-256 over "name\n" + source of each module, in order, then the stream version. */
export function generatorBuildOf(
  modules: readonly string[],
  source: (name: string) => string | Buffer,
  algorithm = INSTANT_STREAM_VERSION,
): GeneratorBuild {
  const hash = createHash('sha256')
  for (const name of modules) {
    hash.update(`${name}\n`)
    hash.update(source(name))
  }
  hash.update(algorithm)
  return Object.freeze({ algorithm, sha256: hash.digest('hex'), modules: Object.freeze([...modules]) })
}

/** The source of a generator module as shipped, by its path from this folder. */
export function generatorModuleSource(name: string): Buffer {
  return readFileSync(new URL(`./${name}`, import.meta.url))
}

/** The running generator's build. */
export function instantGeneratorBuild(): GeneratorBuild {
  if (cached) return cached
  cached = generatorBuildOf(GENERATOR_MODULES, generatorModuleSource)
  return cached
}

/**
 * INS-3: the certificate the operator holds for the generator: its reference and the build hash it certifies, and the
 * certifier's signed statement of both. Without `signed` it is a typed reference, which certifies nothing, except the
 * demo hall's labelled one on a server that runs the demo.
 */
export interface GeneratorCertification {
  ref: string
  sha256: string
  signed?: SignedGeneratorCertificate | null
}

/** What a batch records of the generator that produced it. */
export interface GeneratorRecord {
  certificationRef: string | null
  certifiedSha256: string | null
  buildSha256: string
  algorithm: string
  /** INS-3: the registered certifier whose key verified the certificate (null: none, or the demo's label). */
  certifier?: { id: string; name: string; ajAuthorisationRef: string } | null
  /** The certificate's signature as the gate verified it, so that anyone can check the batch's certificate again. */
  certificateSignature?: string | null
}

/** Whether the profile requires a certified generator, the operator's certificate, and whether a demo label counts. */
export interface GeneratorPolicy {
  required: boolean
  certification: GeneratorCertification | null
  /** Issue 24 point 4: only a server running the demo takes the demo's labelled, unsigned certificate. */
  demoAccepted?: boolean
}

/**
 * INS-3: the record of a batch about to be generated. The certificate counts only when the certifier's signature
 * verifies under the key of a registered, active certifier (`certifiers`: the registry's entries under the
 * statement's certifier reference), its hash is the running build's and `today` (UTC `YYYY-MM-DD`) is within its
 * validity; a typed `REFERENCE:SHA256` counts for nothing (the demo's labelled one aside, where the demo runs). Where
 * the profile requires a certified generator anything else is refused (DEVICE_NOT_CERTIFIED, the reasons in
 * `details.problems`); elsewhere the batch records no certificate.
 */
export function generatorRecord(
  policy: GeneratorPolicy | undefined,
  build = instantGeneratorBuild(),
  registry: { certifiers: readonly GeneratorCertifier[]; today: string } = { certifiers: [], today: '' },
): GeneratorRecord {
  const cert = policy?.certification ?? null
  const problems: string[] = []
  let certifier: GeneratorCertifier | null = null
  if (!cert) problems.push('no-certificate')
  else if (cert.signed) {
    const judged = certificateProblems(cert.signed, registry.certifiers, build.sha256, registry.today)
    problems.push(...judged.problems)
    certifier = judged.certifier
  } else if (!(policy?.demoAccepted && isDemoReference(cert.ref))) problems.push('unsigned-certificate')
  else if (cert.sha256 !== build.sha256) problems.push('build-not-certified')
  if (policy?.required && problems.length) {
    throw new DomainError(
      'DEVICE_NOT_CERTIFIED',
      cert
        ? `the instant ticket generator (build ${build.sha256}) is not certified by "${cert.ref}": ${problems.join(', ')} (INS-3)`
        : 'the instant ticket generator has no certificate on record (BOLILLO_INSTANT_GENERATOR_CERT): no batch is generated under this profile (INS-3)',
      {
        rule: 'INS-3',
        problems,
        buildSha256: build.sha256,
        ...(cert ? { certifiedSha256: cert.sha256, certificateRef: cert.ref } : {}),
        ...(cert?.signed ? { certifier: cert.signed.statement.certifier } : {}),
      },
    )
  }
  const valid = cert && problems.length === 0 ? cert : null
  return {
    certificationRef: valid?.ref ?? null,
    certifiedSha256: valid?.sha256 ?? null,
    buildSha256: build.sha256,
    algorithm: build.algorithm,
    certifier:
      valid && certifier
        ? { id: certifier.id, name: certifier.name, ajAuthorisationRef: certifier.ajAuthorisationRef }
        : null,
    certificateSignature: valid?.signed?.signature ?? null,
  }
}

/**
 * INS-3: what a verification of a batch's generator finds: the build it recorded against the running build, the
 * certified build and the record journaled when it was generated. Empty `problems` when all agree.
 */
export function generatorProblems(
  recorded: GeneratorRecord | null,
  journaled: GeneratorRecord | null,
  running: GeneratorBuild,
  cert: GeneratorCertification | null,
): string[] {
  if (!recorded) return ['no-generator-record']
  const problems: string[] = []
  if (
    !journaled ||
    journaled.buildSha256 !== recorded.buildSha256 ||
    journaled.certificationRef !== recorded.certificationRef ||
    (journaled.certifier?.id ?? null) !== (recorded.certifier?.id ?? null) ||
    (journaled.certificateSignature ?? null) !== (recorded.certificateSignature ?? null)
  )
    problems.push('record-differs-from-journal')
  if (recorded.buildSha256 !== running.sha256) problems.push('build-differs-from-running')
  if (!recorded.certificationRef) problems.push('no-certification')
  else if (recorded.certifiedSha256 !== recorded.buildSha256) problems.push('build-differs-from-certified')
  if (cert && cert.sha256 !== recorded.buildSha256) problems.push('build-differs-from-current-certificate')
  return problems
}
