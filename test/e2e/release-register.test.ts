import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readJournal } from '../../server/src/shared/journal.ts'
import { freshPostgresUrl, testPostgresUrl } from '../helpers/database.ts'
import { startTestServer } from '../helpers/server.ts'

/**
 * Issue 28 point 5 (GLI-19, AGCO; RNG-3): where certified builds are required, the server refuses to start a build
 * whose code digest is not in the operator's release register, with a message naming the digest and the register,
 * and journals the refusal (an integrity event the regulator receives). A registered build starts; its digest is
 * verified again every 24 hours on the injected clock.
 */
describe('self-verification with a release register (issue 28 point 5)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bolillo-release-'))
  const registerPath = join(dataDir, 'registro-versiones.json')
  const build = 'c0ffee'.repeat(10) + 'c0de'
  let t = Date.parse('2026-03-02T08:00:00-04:00')
  const clock = { now: () => new Date(t) }
  let databaseUrl: string | undefined
  let server: Awaited<ReturnType<typeof startTestServer>> | null = null
  const start = async () =>
    startTestServer(
      {
        dataDir,
        ...(databaseUrl ? { databaseUrl } : {}),
        selfVerification: true,
        certifiedBuilds: 'required',
        releaseRegisterPath: registerPath,
      },
      { clock, codeDigest: () => ({ sha256: build, files: 321 }) },
    )
  const register = (codeSha256: string) =>
    writeFileSync(
      registerPath,
      JSON.stringify({
        schema: 'bolillo-release-register-v1',
        releases: [
          {
            version: '2026.03',
            codeSha256,
            certificate: 'AJ-CC-2026-0117',
            certifiedBy: 'Laboratorio certificador autorizado',
          },
        ],
      }),
    )
  afterAll(async () => {
    await server?.cleanup()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('refuses to start without a register, and with a register that does not hold this build, naming both', async () => {
    databaseUrl = testPostgresUrl ? await freshPostgresUrl() : undefined
    await expect(start()).rejects.toThrow(
      new RegExp(
        `^Arranque rechazado: esta versión del servidor \\(código SHA-256 ${build}\\) no figura en el registro`,
      ),
    )
    register('ab'.repeat(32))
    const refused = await start().then(
      () => null,
      (e: Error) => e,
    )
    expect(refused?.name).toBe('ReleaseNotRegisteredError')
    expect(refused?.message).toContain(registerPath)
    expect(refused?.message).toContain('versión no registrada')
    expect(refused?.message).toContain('Start refused')
  })

  it('a registered build starts; the refusals were journaled and reach the regulator as integrity events', async () => {
    register(build)
    server = await start()
    expect(server.services.selfVerification.last()).toMatchObject({
      codeSha256: build,
      release: { version: '2026.03', certificate: 'AJ-CC-2026-0117' },
    })
    const refusals = []
    for await (const r of readJournal(server.services.db, {}))
      if (r.type === 'system.build_refused') refusals.push(r.payload as Record<string, unknown>)
    expect(refusals.map((p) => [p.codeSha256, p.rule])).toEqual([
      [build, 'RNG-3'],
      [build, 'RNG-3'],
    ])
    await server.services.regulator.tick({ force: true })
    const out = join(dataDir, 'export')
    await server.services.regulator.exportTo(out)
    const events = readdirSync(join(out, 'operator'))
      .flatMap((f) =>
        readFileSync(join(out, 'operator', f), 'utf8')
          .trim()
          .split('\n')
          .slice(1),
      )
      .map((l) => JSON.parse(l))
      .filter((r) => r.type === 'event.significant')
    expect(events.filter((r) => r.data.event === 'system.build_refused').map((r) => r.data.kind)).toEqual([
      'integrity',
      'integrity',
    ])
  })

  it('verifies its digest again once 24 hours have passed on the clock, not before', async () => {
    const s = server!
    const count = async () => {
      let n = 0
      for await (const r of readJournal(s.services.db, {})) if (r.type === 'system.self_verified') n++
      return n
    }
    expect(await count()).toBe(1)
    t += 23 * 3600_000
    expect(await s.services.selfVerification.tick()).toBe(false)
    expect(await count()).toBe(1)
    t += 3600_000
    expect(await s.services.selfVerification.tick()).toBe(true)
    expect(await count()).toBe(2)
    expect(s.services.selfVerification.last()).toMatchObject({
      at: new Date(t).toISOString(),
      codeSha256: build,
      changed: false,
    })
    t += 3600_000
    expect(await s.services.selfVerification.tick()).toBe(false)
    t += 23 * 3600_000
    expect(await s.services.selfVerification.tick()).toBe(true)
    expect(await count()).toBe(3)
  })
})
