import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { openSqliteConnection } from '../db/sqlite-runtime.ts'
import { signedGeneratorCertificate, TEST_CERTIFIER } from '../../../test/helpers/generator-certificate.ts'
import { smallInstantDesign } from '../../../test/helpers/instant.ts'
import { startTestServer } from '../../../test/helpers/server.ts'
import { runInstantCli } from './instant.ts'

/**
 * INS-3 / RNG-27: `instant generate` reads the registry of certifiers as the server does, each row against its seal.
 * A certifier withdrawn through the server and put back active behind the journal (an UPDATE in the database file)
 * certifies nothing: the command refuses, naming the row, and generates nothing.
 */
describe('INS-3: instant generate checks the seals of the certifier registry it reads', () => {
  const root = mkdtempSync(join(tmpdir(), 'bolillo-cli-seals-'))
  const dataDir = join(root, 'data')
  const keyDir = join(root, 'keys')
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  /** `instant generate` of a small design on the data directory, as the operator runs it: its exit code and stderr. */
  async function generate(gameNo: number) {
    const certFile = join(root, 'certificado.json')
    writeFileSync(certFile, JSON.stringify(signedGeneratorCertificate().signed))
    const design = join(root, `design-${gameNo}.json`)
    writeFileSync(design, JSON.stringify(smallInstantDesign({ gameNo })))
    const out = join(root, `print-${gameNo}`)
    vi.stubEnv('DATA_DIR', dataDir)
    vi.stubEnv('BOLILLO_KEY_DIR', keyDir)
    vi.stubEnv('DATABASE_URL', '')
    vi.stubEnv('BOLILLO_PROFILE', 'BO-2025')
    vi.stubEnv('BOLILLO_INSTANT_GENERATOR_CERT', certFile)
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    try {
      const code = await runInstantCli(['generate', '--design', design, '--out', out, '--json'])
      return { code, said: err.mock.calls.map((c) => String(c[0])).join(''), out }
    } finally {
      err.mockRestore()
      stdout.mockRestore()
      vi.unstubAllEnvs()
    }
  }

  it('INS-3: a withdrawn certifier put back active in the database file is refused with ROW_TAMPERED; no batch, no print file', async () => {
    // SQLite: the command opens the data directory's database file, as the operator's does.
    const server = await startTestServer({ dataDir, keyDir, databaseUrl: null })
    const certifier = (await server.services.instant.listCertifiers()).certifiers.find(
      (c) => c.publicKey === TEST_CERTIFIER.publicKey,
    )!
    await server.close()
    // Under the registry as the server left it, the command generates (its rows read and written under seals)...
    const fine = await generate(5901)
    expect(fine.code, fine.said).toBe(0)
    expect(existsSync(join(fine.out, 'manifest.json'))).toBe(true)
    // ...and with the certifier withdrawn through the server, then put back active behind the journal, it refuses.
    const again = await startTestServer({ dataDir, keyDir, databaseUrl: null })
    await again.services.instant.withdrawCertifier(certifier.id, 'authorisation revoked by the AJ', 'pruebas')
    await again.close()
    const file = await openSqliteConnection(join(dataDir, 'bolillo.sqlite'))
    file
      .prepare(
        "UPDATE instant_generator_certifiers SET status = 'active', withdrawn_at = NULL, withdrawn_reason = NULL",
      )
      .run()
    file.close()

    const { code, said, out } = await generate(5902)
    expect(code, said).toBe(1)
    // In Spanish first, then which row of which table does not match its seal.
    expect(said).toMatch(/^Los datos de este valor no coinciden con su sello/)
    expect(said).toContain(`instant_generator_certifiers ${certifier.id}`)
    expect(existsSync(join(out, 'manifest.json'))).toBe(false)
    const after = await openSqliteConnection(join(dataDir, 'bolillo.sqlite'))
    expect(after.prepare('SELECT COUNT(*) AS n FROM instant_batches WHERE game_no = 5902').get()).toEqual({ n: 0 })
    after.close()
  }, 120_000)
})
