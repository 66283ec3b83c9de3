import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InstantDesign } from '../../server/src/instant/design.ts'
import { instantGeneratorBuild } from '../../server/src/instant/generator-build.ts'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * Issue 18, INS-3 (002 §7.4.3.1) over real HTTP with authentication on: the instant ticket generator holds a
 * certification; each batch records the certificate's reference and the build hash that generated it; a build the
 * certificate does not name generates nothing under BO-2025; a verification reports any mismatch between the batch's
 * record, its journal record, the running build and the certificate.
 */
const PASSWORD = 'correct horse battery'
const design = (gameNo: number): InstantDesign => ({
  gameNo,
  name: 'Raspa Certificada',
  currency: 'BOB',
  priceCents: 1000,
  ticketCount: 600,
  packSize: 50,
  playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
  tiers: [
    { amountCents: 100_000, count: 1 },
    { amountCents: 7500, count: 12 },
    { amountCents: 2500, count: 60 },
    { amountCents: 1500, count: 90 },
  ],
  payoutShareBp: { min: 3000, max: 9000 },
  packRules: { lowTiers: { maxAmountCents: 2500, minPerPack: 5 } },
  claimDays: 60,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  authorisationRef: 'AJ-RA-2025-0042',
  back: { issuer: 'Lotería de pruebas', paymentPlace: 'cajas de la sala' },
})

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
    server = await startTestServer({
      auth: 'on',
      instantGeneratorCertification: { ref: 'AJ-CERT-GEN-2025-0042', sha256: running.sha256 },
    })
    as = await people(server)
  })
  afterAll(async () => server?.cleanup())

  it('INS-3: a batch carries the certification reference and the build hash it was generated with, in its record and its journal record', async () => {
    const made = await api(server.url, 'POST', '/api/instant/games', { design: design(5101) }, as.director)
    expect(made.status).toBe(201)
    expect(running.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(made.body.generator).toEqual({
      certificationRef: 'AJ-CERT-GEN-2025-0042',
      certifiedSha256: running.sha256,
      buildSha256: running.sha256,
      algorithm: running.algorithm,
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

describe('INS-3: no batch from an uncertified generator where the profile requires certification', () => {
  it('INS-3: BO-2025 refuses a batch (422) with no certificate, or with one that names another build; nothing is written', async () => {
    for (const certification of [null, { ref: 'AJ-CERT-GEN-2024-0001', sha256: 'cd'.repeat(32) }]) {
      const s = await startTestServer({ auth: 'on', instantGeneratorCertification: certification })
      try {
        const as = await people(s)
        const r = await api(s.url, 'POST', '/api/instant/games', { design: design(5201) }, as.director)
        expect([r.status, r.body.error?.code]).toEqual([422, 'DEVICE_NOT_CERTIFIED'])
        expect(r.body.error.details.problems).toEqual([certification ? 'build-not-certified' : 'no-certificate'])
        expect(r.body.error.message).not.toMatch(/DEVICE_NOT_CERTIFIED|INS-3/)
        expect((await api(s.url, 'GET', '/api/instant/games', undefined, as.director)).body.games).toEqual([])
      } finally {
        await s.cleanup()
      }
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
