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

/** The modules whose code decides a batch's tickets, in a fixed order. */
export const GENERATOR_MODULES = ['generate.ts', 'codes.ts', 'play.ts', 'design.ts'] as const

export interface GeneratorBuild {
  algorithm: string
  sha256: string
  modules: readonly string[]
}

let cached: GeneratorBuild | null = null

/** The running generator's build: SHA-256 over "name\n" + source of each module, then the stream version. */
export function instantGeneratorBuild(): GeneratorBuild {
  if (cached) return cached
  const hash = createHash('sha256')
  for (const name of GENERATOR_MODULES) {
    hash.update(`${name}\n`)
    hash.update(readFileSync(new URL(`./${name}`, import.meta.url)))
  }
  hash.update(INSTANT_STREAM_VERSION)
  cached = Object.freeze({ algorithm: INSTANT_STREAM_VERSION, sha256: hash.digest('hex'), modules: GENERATOR_MODULES })
  return cached
}

/** INS-3: the certificate the operator holds for the generator: its reference and the build hash it certifies. */
export interface GeneratorCertification {
  ref: string
  sha256: string
}

/** What a batch records of the generator that produced it. */
export interface GeneratorRecord {
  certificationRef: string | null
  certifiedSha256: string | null
  buildSha256: string
  algorithm: string
}

/**
 * INS-3: the record of a batch about to be generated. Where the profile requires a certified generator, a batch is
 * refused (DEVICE_NOT_CERTIFIED) without a certificate, or when the running build is not the certified one.
 */
export function generatorRecord(
  policy: { required: boolean; certification: GeneratorCertification | null } | undefined,
  build = instantGeneratorBuild(),
): GeneratorRecord {
  const cert = policy?.certification ?? null
  if (policy?.required && !cert) {
    throw new DomainError(
      'DEVICE_NOT_CERTIFIED',
      'the instant ticket generator has no certification on record (BOLILLO_INSTANT_GENERATOR_CERT): no batch is generated under this profile (INS-3)',
      { rule: 'INS-3', problems: ['no-certificate'], buildSha256: build.sha256 },
    )
  }
  if (policy?.required && cert && cert.sha256 !== build.sha256) {
    throw new DomainError(
      'DEVICE_NOT_CERTIFIED',
      `the running instant ticket generator (build ${build.sha256}) is not the build certified by ${cert.ref} (${cert.sha256}) (INS-3)`,
      { rule: 'INS-3', problems: ['build-not-certified'], buildSha256: build.sha256, certifiedSha256: cert.sha256 },
    )
  }
  return {
    certificationRef: cert?.ref ?? null,
    certifiedSha256: cert?.sha256 ?? null,
    buildSha256: build.sha256,
    algorithm: build.algorithm,
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
    journaled.certificationRef !== recorded.certificationRef
  )
    problems.push('record-differs-from-journal')
  if (recorded.buildSha256 !== running.sha256) problems.push('build-differs-from-running')
  if (!recorded.certificationRef) problems.push('no-certification')
  else if (recorded.certifiedSha256 !== recorded.buildSha256) problems.push('build-differs-from-certified')
  if (cert && cert.sha256 !== recorded.buildSha256) problems.push('build-differs-from-current-certificate')
  return problems
}
