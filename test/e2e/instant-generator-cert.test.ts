import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawPublicKeyHex } from '../../server/src/cli/generator-certificate.ts'
import type { InstantDesign } from '../../server/src/instant/design.ts'
import { instantGeneratorBuild, type GeneratorCertification } from '../../server/src/instant/generator-build.ts'
import { signedGeneratorCertificate, TEST_CERTIFIER } from '../helpers/generator-certificate.ts'
import { smallInstantDesign } from '../helpers/instant.ts'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * Issue 18, INS-3 / RNG-27 (002 §7.4.3.1) over real HTTP with authentication on: the instant ticket generator holds a
 * certification signed by an AJ-authorised certifier the operator registered; each batch records the certificate's reference and the build hash that generated it; a build the
 * certificate does not name generates nothing under BO-2025; a verification reports any mismatch between the batch's
 * record, its journal record, the running build and the certificate.
 */
const PASSWORD = 'correct horse battery'
const design = (gameNo: number): InstantDesign => smallInstantDesign({ gameNo, name: 'Raspa Certificada' })

async function people(s: Awaited<ReturnType<typeof startTestServer>>) {
  const bearer: Record<string, { authorization: string }> = {}
  for (const role of ['director', 'auditor', 'cashier'] as const) {
    await s.services.auth.createUser({ username: `u-${role}`, displayName: role, role, password: PASSWORD })
    bearer[role] = { authorization: `Bearer ${(await s.services.auth.login(`u-${role}`, PASSWORD)).token}` }
  }
  return bearer
}

describe('INS-3: the certified instant ticket generator and its build hash on every batch', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let as: Awaited<ReturnType<typeof people>>
  const running = instantGeneratorBuild()

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on', instantGeneratorCertification: signedGeneratorCertificate() })
    as = await people(server)
  })
  afterAll(async () => server?.cleanup())

  it('INS-3: a batch carries the certificate, its certifier and the build hash it was generated with, in its record and its journal record', async () => {
    const made = await api(server.url, 'POST', '/api/instant/games', { design: design(5101) }, as.director)
    expect(made.status).toBe(201)
    expect(running.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(made.body.generator).toEqual({
      certificationRef: 'AJ-CERT-GEN-PRUEBAS',
      certifiedSha256: running.sha256,
      buildSha256: running.sha256,
      algorithm: running.algorithm,
      certifier: {
        id: expect.stringMatching(/^igc_/),
        name: TEST_CERTIFIER.name,
        ajAuthorisationRef: TEST_CERTIFIER.ajAuthorisationRef,
      },
      certificateSignature: expect.stringMatching(/^[0-9a-f]{128}$/),
    })
    const check = await api(server.url, 'GET', '/api/instant/games/5101/generator', undefined, as.auditor)
    expect(check.status).toBe(200)
    expect(check.body).toMatchObject({
      ok: true,
      problems: [],
      recorded: made.body.generator,
      journaled: made.body.generator,
      running: { sha256: running.sha256 },
    })
  })

  it('INS-3: a batch record altered in the database (another build, another certificate) is reported on verification', async () => {
    const forged = {
      certificationRef: 'AJ-CERT-FALSO',
      certifiedSha256: 'ab'.repeat(32),
      buildSha256: 'ab'.repeat(32),
      algorithm: running.algorithm,
    }
    await server.services.db.run('UPDATE instant_batches SET generator = ? WHERE game_no = ?', [
      JSON.stringify(forged),
      5101,
    ])
    const check = await api(server.url, 'GET', '/api/instant/games/5101/generator', undefined, as.auditor)
    expect(check.body.ok).toBe(false)
    expect(check.body.problems).toEqual(
      expect.arrayContaining([
        'record-differs-from-journal',
        'build-differs-from-running',
        'build-differs-from-current-certificate',
      ]),
    )
  })
})

/**
 * INS-3 / RNG-27 on a server without the demo (production): only a certificate signed by a registered, active
 * certifier for the running build lets a batch be generated; each refusal is a 422 with the reason, nothing written.
 */
describe('INS-3 / RNG-27: a production generator runs only under a certificate signed by a registered certifier', () => {
  const lab = generateKeyPairSync('ed25519').privateKey
  const LAB = { name: 'Laboratorio Andino de Certificación', ajAuthorisationRef: 'AJ-CERT-LAB-0007' }
  const statement = { certifier: LAB.ajAuthorisationRef, certificateRef: 'CERT-GEN-2026-0042' }
  const keyDirs: string[] = []

  async function productionServer(certification: GeneratorCertification | null) {
    const keyDir = mkdtempSync(join(tmpdir(), 'bolillo-gen-cert-keys-'))
    keyDirs.push(keyDir)
    const s = await startTestServer({
      auth: 'on',
      production: true,
      keyDir,
      instantGeneratorCertification: certification,
    })
    const as = await people(s)
    // The laboratory's key, recorded by the director over HTTP.
    const rec = await api(
      s.url,
      'POST',
      '/api/instant/generator-certifiers',
      { ...LAB, publicKey: rawPublicKeyHex(lab) },
      as.director,
    )
    expect(rec.status).toBe(201)
    return { s, as, certifierId: rec.body.id as string }
  }
  afterAll(() => {
    for (const d of keyDirs) rmSync(d, { recursive: true, force: true })
  })

  async function refused(
    s: Awaited<ReturnType<typeof startTestServer>>,
    as: Awaited<ReturnType<typeof people>>,
    problems: string[],
  ) {
    const r = await api(
      s.url,
      'POST',
      '/api/instant/games',
      { design: design(5201) },
      {
        ...as.director,
        'accept-language': 'es',
      },
    )
    expect([r.status, r.body.error?.code]).toEqual([422, 'DEVICE_NOT_CERTIFIED'])
    expect(r.body.error.details).toMatchObject({ rule: 'INS-3', problems })
    expect(r.body.error.message).toMatch(/^No se puede generar la emisión de raspaditas/)
    expect(r.body.error.message).not.toMatch(/DEVICE_NOT_CERTIFIED|INS-3|igc_/)
    expect((await api(s.url, 'GET', '/api/instant/games', undefined, as.director)).body.games).toEqual([])
    return r
  }

  it('INS-3: a certificate signed by the registered laboratory for the running build produces a batch naming them', async () => {
    const { s, as, certifierId } = await productionServer(signedGeneratorCertificate(statement, lab))
    try {
      const made = await api(s.url, 'POST', '/api/instant/games', { design: design(5202) }, as.director)
      expect(made.status).toBe(201)
      expect(made.body.generator).toMatchObject({
        certificationRef: 'CERT-GEN-2026-0042',
        certifier: { id: certifierId, ...LAB },
      })
      const journaled = await s.services.db.get<{ payload: string }>(
        "SELECT payload FROM journal WHERE type = 'instant.batch_generated' ORDER BY seq DESC LIMIT 1",
      )
      expect(JSON.parse(journaled!.payload).generator).toMatchObject({
        certificationRef: 'CERT-GEN-2026-0042',
        certifier: { id: certifierId, name: LAB.name, ajAuthorisationRef: LAB.ajAuthorisationRef },
      })
      const listed = await api(s.url, 'GET', '/api/instant/generator-certifiers', undefined, as.auditor)
      expect(listed.body).toMatchObject({ problems: [], running: { sha256: instantGeneratorBuild().sha256 } })
    } finally {
      await s.cleanup()
    }
  })

  it('INS-3: a typed REFERENCE:SHA256 with no signature is refused', async () => {
    const { s, as } = await productionServer({ ref: 'CERT-GEN-2026-0042', sha256: instantGeneratorBuild().sha256 })
    try {
      await refused(s, as, ['unsigned-certificate'])
    } finally {
      await s.cleanup()
    }
  })

  it('INS-3: a certificate signed by a key nobody registered is refused, under a registered name or another', async () => {
    const stranger = generateKeyPairSync('ed25519').privateKey
    const { s, as } = await productionServer(signedGeneratorCertificate(statement, stranger))
    try {
      await refused(s, as, ['bad-signature'])
    } finally {
      await s.cleanup()
    }
    const other = await productionServer(
      signedGeneratorCertificate({ ...statement, certifier: 'AJ-CERT-LAB-9999' }, stranger),
    )
    try {
      await refused(other.s, other.as, ['unregistered-certifier'])
    } finally {
      await other.s.cleanup()
    }
  })

  it('INS-3: once the certifier is withdrawn its certificate is refused, and putting it back in the database does not help', async () => {
    const { s, as, certifierId } = await productionServer(signedGeneratorCertificate(statement, lab))
    try {
      const w = await api(
        s.url,
        'POST',
        `/api/instant/generator-certifiers/${certifierId}/withdraw`,
        { reason: 'autorización de la AJ revocada' },
        as.director,
      )
      expect([w.status, w.body.status]).toEqual([200, 'withdrawn'])
      await refused(s, as, ['certifier-withdrawn'])
      // The registry is sealed: the certifier put back active behind the journal certifies nothing (ROW_TAMPERED).
      await s.services.db.run("UPDATE instant_generator_certifiers SET status = 'active' WHERE id = ?", [certifierId])
      const r = await api(s.url, 'POST', '/api/instant/games', { design: design(5203) }, as.director)
      expect([r.status, r.body.error?.code]).toEqual([409, 'ROW_TAMPERED'])
      expect((await api(s.url, 'GET', '/api/instant/games', undefined, as.director)).body.games).toEqual([])
    } finally {
      await s.cleanup()
    }
  })

  it('INS-3: a certificate the laboratory signed for another build is refused', async () => {
    const { s, as } = await productionServer(
      signedGeneratorCertificate({ ...statement, buildSha256: 'cd'.repeat(32) }, lab),
    )
    try {
      await refused(s, as, ['build-not-certified'])
    } finally {
      await s.cleanup()
    }
  })
})

describe('INS-3: no batch without a certificate where the profile requires certification', () => {
  it('INS-3: BO-2025 refuses a batch (422) with no certificate; nothing is written', async () => {
    const s = await startTestServer({ auth: 'on', instantGeneratorCertification: null })
    try {
      const as = await people(s)
      const r = await api(s.url, 'POST', '/api/instant/games', { design: design(5201) }, as.director)
      expect([r.status, r.body.error?.code]).toEqual([422, 'DEVICE_NOT_CERTIFIED'])
      expect(r.body.error.details.problems).toEqual(['no-certificate'])
      expect(r.body.error.message).not.toMatch(/DEVICE_NOT_CERTIFIED|INS-3/)
      expect((await api(s.url, 'GET', '/api/instant/games', undefined, as.director)).body.games).toEqual([])
    } finally {
      await s.cleanup()
    }
  })

  it('INS-3: Cantabria requires none: the batch records no certificate, and its verification says so', async () => {
    const s = await startTestServer({ auth: 'on', profileId: 'ES-CB-2010', instantGeneratorCertification: null })
    try {
      const as = await people(s)
      const made = await api(
        s.url,
        'POST',
        '/api/instant/games',
        { design: { ...design(5301), currency: 'EUR' } },
        as.director,
      )
      expect(made.status).toBe(201)
      expect(made.body.generator).toMatchObject({ certificationRef: null, buildSha256: instantGeneratorBuild().sha256 })
      expect((await api(s.url, 'GET', '/api/instant/games/5301/generator', undefined, as.auditor)).body).toMatchObject({
        ok: false,
        problems: ['no-certification'],
      })
    } finally {
      await s.cleanup()
    }
  })
})

describe("LOT-3 / GEN-5: an instant game is generated only under the regulator's authorisation", () => {
  it('LOT-3 / GEN-3: a design without its authorisation reference is refused under both shipped profiles (Cantabria: 409 naming the Consejería); with it, the game keeps it', async () => {
    for (const profileId of ['BO-2025', 'ES-CB-2010']) {
      const s = await startTestServer({ auth: 'on', profileId })
      try {
        const as = await people(s)
        const { authorisationRef: _ref, ...bare } = {
          ...design(5401),
          currency: profileId === 'BO-2025' ? 'BOB' : 'EUR',
        }
        for (const body of [bare, { ...bare, authorisationRef: '  ' }]) {
          const r = await api(s.url, 'POST', '/api/instant/games', { design: body }, as.director)
          if (profileId === 'ES-CB-2010') {
            // GEN-3 (004 Decreto 6/2010 art. 2): the Consejería's prior authorisation of every catalogue game.
            expect([r.status, r.body.error.code, r.body.error.details.rule]).toEqual([
              409,
              'GAME_NOT_AUTHORISED',
              'GEN-3',
            ])
          } else {
            expect(r.status, profileId).toBe(400)
            expect(r.body.error.details.problems, profileId).toEqual([
              expect.objectContaining({ field: 'authorisationRef', rule: 'LOT-3' }),
            ])
          }
        }
        expect((await api(s.url, 'GET', '/api/instant/games', undefined, as.director)).body.games).toEqual([])
        expect(
          (
            await api(
              s.url,
              'POST',
              '/api/instant/games',
              { design: { ...bare, authorisationRef: 'AJ-RA-2025-0042' } },
              as.director,
            )
          ).status,
          profileId,
        ).toBe(201)
      } finally {
        await s.cleanup()
      }
    }
  })
})
