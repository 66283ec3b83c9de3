import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { rawPublicKeyHex, signGeneratorCertificate } from '../cli/generator-certificate.ts'
import { DomainError } from '../shared/errors.ts'
import {
  GENERATOR_MODULES,
  generatorBuildOf,
  generatorModuleSource,
  generatorRecord,
  instantGeneratorBuild,
} from './generator-build.ts'

/**
 * INS-3 / RNG-27 (002 §7.4.3.1): the certified build hash covers the whole generation and printing system, so an
 * edit to the seed, the pepper, the batch files, the print job or the printed sheet is another build and the gate
 * refuses it under a certificate for the shipped build.
 */
describe('INS-3: the generator build hash covers the generation and printing system', () => {
  const running = instantGeneratorBuild()
  const key = generateKeyPairSync('ed25519').privateKey
  const signed = signGeneratorCertificate(
    {
      certifier: 'AJ-CERT-LAB-1',
      certificateRef: 'AJ-CERT-GEN-PRUEBAS',
      buildSha256: running.sha256,
      issuedOn: '2026-01-01',
      validUntil: null,
    },
    key,
  )
  const certified = { required: true, certification: { ref: 'AJ-CERT-GEN-PRUEBAS', sha256: running.sha256, signed } }
  const registry = {
    certifiers: [
      {
        id: 'igc_1',
        name: 'Laboratorio',
        ajAuthorisationRef: 'AJ-CERT-LAB-1',
        publicKey: rawPublicKeyHex(key),
        status: 'active' as const,
      },
    ],
    today: '2026-06-01',
  }

  it('INS-3: the hashed modules include the seed, pepper, files, print worker and printed sheet', () => {
    expect(running.modules).toEqual([...GENERATOR_MODULES])
    for (const name of [
      'games.ts',
      '../shared/instant-pepper.ts',
      'files.ts',
      'print-worker.ts',
      '../../../printer/src/instant-sheet.ts',
    ])
      expect(GENERATOR_MODULES).toContain(name)
    // the running build is the hash of the shipped sources, computed here again from the files themselves
    expect(generatorBuildOf(GENERATOR_MODULES, generatorModuleSource).sha256).toBe(running.sha256)
    expect(generatorRecord(certified, running, registry).buildSha256).toBe(running.sha256)
  })

  it.each(GENERATOR_MODULES.map((name) => [name]))(
    'INS-3: editing %s changes the build hash and the certified gate refuses the edited build',
    (edited) => {
      const build = generatorBuildOf(GENERATOR_MODULES, (name) => {
        const text = generatorModuleSource(name).toString('utf8')
        // e.g. freshSeed() made to return a constant: any one-character change is enough
        return name === edited ? `${text}\n// edited\n` : text
      })
      expect(build.sha256).toMatch(/^[0-9a-f]{64}$/)
      expect(build.sha256).not.toBe(running.sha256)
      let err: unknown
      try {
        generatorRecord(certified, build, registry)
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(DomainError)
      expect(err).toMatchObject({ code: 'DEVICE_NOT_CERTIFIED', details: { problems: ['build-not-certified'] } })
    },
  )
})
