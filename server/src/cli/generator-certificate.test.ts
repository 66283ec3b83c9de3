import { generateKeyPairSync } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../config.ts'
import { verifyCertificateSignature } from '../instant/generator-certificate.ts'
import { runInstantCli } from './instant.ts'

/**
 * INS-3 / RNG-27: the laboratory's commands. `instant certifier-key` prints the public key the operator registers;
 * `instant sign-certificate` writes the signed certificate that BOLILLO_INSTANT_GENERATOR_CERT names.
 */
describe('INS-3: the laboratory signs the generator certificate the server configures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-lab-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const keyFile = join(dir, 'lab-ed25519.pem')
  writeFileSync(keyFile, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string)

  it('INS-3: certifier-key prints the raw public key, and sign-certificate a document that verifies under it and loads', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    let publicKey = ''
    try {
      expect(await runInstantCli(['certifier-key', '--key', keyFile])).toBe(0)
      publicKey = String(out.mock.calls[0]?.[0]).trim()
    } finally {
      out.mockRestore()
    }
    expect(publicKey).toMatch(/^[0-9a-f]{64}$/)
    const certFile = join(dir, 'certificado.json')
    const args = ['--key', keyFile, '--certifier', 'AJ-CERT-LAB-0007', '--certificate', 'CERT-GEN-2026-0042']
    const build = 'ab'.repeat(32)
    expect(
      await runInstantCli([
        'sign-certificate',
        ...args,
        '--build',
        build,
        '--issued',
        '2026-03-01',
        '--valid-until',
        '2027-02-28',
        '--out',
        certFile,
      ]),
    ).toBe(0)
    const config = loadConfig({ BOLILLO_INSTANT_GENERATOR_CERT: certFile })
    const cert = config.instantGeneratorCertification!
    expect(cert).toMatchObject({
      ref: 'CERT-GEN-2026-0042',
      sha256: build,
      signed: { statement: { certifier: 'AJ-CERT-LAB-0007', issuedOn: '2026-03-01', validUntil: '2027-02-28' } },
    })
    expect(verifyCertificateSignature(cert.signed!, publicKey)).toBe(true)
    // A statement the laboratory cannot sign (no build hash) is refused in one line, nothing written.
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      expect(await runInstantCli(['sign-certificate', ...args, '--issued', '2026-03-01'])).toBe(2)
      expect(String(err.mock.calls[0]?.[0])).toMatch(/buildSha256/)
    } finally {
      err.mockRestore()
    }
  })

  it('INS-3: a certificate file that is not a signed certificate stops the start, naming the variable', () => {
    const bad = join(dir, 'typed.json')
    writeFileSync(bad, JSON.stringify({ statement: { certificateRef: 'CERT-1' }, signature: '00' }))
    expect(() => loadConfig({ BOLILLO_INSTANT_GENERATOR_CERT: bad })).toThrow(
      /BOLILLO_INSTANT_GENERATOR_CERT=.*invalid fields: certifier, buildSha256, issuedOn/,
    )
    expect(() => loadConfig({ BOLILLO_INSTANT_GENERATOR_CERT: join(dir, 'missing.json') })).toThrow(
      /BOLILLO_INSTANT_GENERATOR_CERT=.*cannot read the signed certificate file/,
    )
  })

  it('INS-3: instant generate --no-db (no registry to verify the certificate against) is refused under BO-2025, no file written', async () => {
    const design = join(dir, 'design.json')
    writeFileSync(
      design,
      JSON.stringify({
        gameNo: 5901,
        name: 'Raspa sin base',
        currency: 'BOB',
        priceCents: 1000,
        ticketCount: 600,
        packSize: 50,
        playStyle: { type: 'match-three', decoyAmountsCents: [300, 700] },
        tiers: [
          { amountCents: 100_000, count: 1 },
          { amountCents: 7500, count: 12 },
          { amountCents: 2500, count: 60 },
        ],
        payoutShareBp: { min: 1000, max: 9000 },
        claimDays: 60,
        salesEndAt: '2099-12-31T23:59:59-04:00',
        authorisationRef: 'AJ-RA-2025-0042',
        back: { issuer: 'Lotería de pruebas', paymentPlace: 'cajas de la sala' },
      }),
    )
    const out = join(dir, 'print')
    vi.stubEnv('DATA_DIR', join(dir, 'data'))
    vi.stubEnv('BOLILLO_PROFILE', 'BO-2025')
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      expect(await runInstantCli(['generate', '--design', design, '--out', out, '--no-db'])).toBe(1)
      expect(String(err.mock.calls[0]?.[0])).toMatch(/--no-db: under BO-2025 .*registry of certifiers/)
    } finally {
      err.mockRestore()
      vi.unstubAllEnvs()
    }
    expect(existsSync(out)).toBe(false)
  })
})
