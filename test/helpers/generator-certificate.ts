import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { rawPublicKeyHex, signGeneratorCertificate } from '../../server/src/cli/generator-certificate.ts'
import { instantGeneratorBuild, type GeneratorCertification } from '../../server/src/instant/generator-build.ts'
import type { GeneratorCertificateStatement } from '../../server/src/instant/generator-certificate.ts'

/**
 * INS-3 / RNG-27: the laboratory of the tests. Its Ed25519 key is made here, once per test process; startTestServer
 * records it as an AJ-authorised certifier, and every test server runs under its signed certificate of the running
 * generator build (instant-generator-cert.test.ts makes keys of its own for the refusals).
 */
export const TEST_CERTIFIER_KEY: KeyObject = generateKeyPairSync('ed25519').privateKey
export const TEST_CERTIFIER = {
  name: 'Laboratorio certificador de pruebas',
  ajAuthorisationRef: 'AJ-CERTIFICADOR-PRUEBAS',
  publicKey: rawPublicKeyHex(TEST_CERTIFIER_KEY),
}

/** A certificate of the running build signed by `key` (the test certifier's unless given), as the config holds it. */
export function signedGeneratorCertificate(
  statement: Partial<GeneratorCertificateStatement> = {},
  key: KeyObject = TEST_CERTIFIER_KEY,
): GeneratorCertification {
  const signed = signGeneratorCertificate(
    {
      certifier: TEST_CERTIFIER.ajAuthorisationRef,
      certificateRef: 'AJ-CERT-GEN-PRUEBAS',
      buildSha256: instantGeneratorBuild().sha256,
      // Tests move their clocks back and forth: issued long before any of them, with no end.
      issuedOn: '2000-01-01',
      validUntil: null,
      ...statement,
    },
    key,
  )
  return { ref: signed.statement.certificateRef, sha256: signed.statement.buildSha256, signed }
}

/** Records the test certifier (once: a restarted server on the same data directory has it already). */
export async function registerTestCertifier(services: {
  instant: {
    listCertifiers(): Promise<{ certifiers: Array<{ publicKey: string; status: string }> }>
    recordCertifier(input: typeof TEST_CERTIFIER, by: string): Promise<unknown>
  }
}): Promise<void> {
  const { certifiers } = await services.instant.listCertifiers()
  if (certifiers.some((c) => c.publicKey === TEST_CERTIFIER.publicKey && c.status === 'active')) return
  await services.instant.recordCertifier(TEST_CERTIFIER, 'pruebas')
}
