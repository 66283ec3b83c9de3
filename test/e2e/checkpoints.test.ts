import { TEST_LICENCE, TEST_SALE_RULES } from '../helpers/sale-rules.ts'
import { execFile } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { openSqliteConnection } from '../../server/src/db/sqlite-runtime.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashRecord } from '../../server/src/shared/journal-chain.ts'
import { parseCheckpoints, verifyCheckpointSignature } from '../../server/src/shared/checkpoints.ts'
import { api, startTestServer } from '../helpers/server.ts'

/**
 * Issue 15 point 5 (DESIGN.md "Journal"): a real server signs checkpoints at every sales close and game end; a
 * regulator saves them from the API; someone with write access rewrites the journal's tail with fresh hashes so
 * that the chain alone still verifies; `npx bolillo verify-journal --checkpoints F` fails and names the range.
 */
const run = promisify(execFile)
const bin = join(process.cwd(), 'bin', 'bolillo.mjs')
async function bolillo(args: string[], env: Record<string, string>) {
  try {
    const r = await run(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (err: any) {
    return { code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }
  }
}

describe('signed journal checkpoints catch a rewritten tail (issue 15 point 5)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let auditor = ''
  let sessionId = ''
  let closed = false

  beforeAll(async () => {
    // The SQLite file is what the attacker rewrites, so this test always runs on SQLite.
    server = await startTestServer({ auth: 'on', databaseUrl: null, checkpointIntervalMs: 0 })
    const { auth, bingo } = server.services
    await auth.createUser({
      username: 'auditora',
      displayName: 'Auditora',
      role: 'auditor',
      password: 'correct horse battery',
    })
    auditor = `Bearer ${(await auth.login('auditora', 'correct horse battery')).token}`
    const hall = await bingo.createHall({
      name: 'Sala Sajama',
      profileId: 'BO-2025',
      saleRules: TEST_SALE_RULES,
      licence: TEST_LICENCE,
      playingPositions: 100,
      shares: { poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 },
    })
    const set = await bingo.createMasterSet({ count: 200, seed: 'checkpoints' })
    const series = await bingo.createSeries({ hallId: hall.id, code: 'A', masterSetId: set.id, faceValueCents: 500 })
    const session = await bingo.openSession({ hallId: hall.id, recount: { ballsCounted: 90, confirmedBy: 'jefa' } })
    sessionId = session.id
    const g = await bingo.announceGame({ sessionId: session.id, seriesIds: [series.id] })
    await bingo.openSales(g.gameId)
    for (let i = 0; i < 40; i++) await bingo.sell({ gameId: g.gameId, count: 1, channel: 'counter' })
    await bingo.closeSales({ gameId: g.gameId })
    for (let i = 0; i < 300; i++) {
      const s = await bingo.getGameState(g.gameId)
      if (s.status === 'finished') break
      if (s.window) await bingo.closeWindow(g.gameId)
      else await bingo.drawNext(g.gameId)
    }
  })
  afterAll(async () => {
    if (!closed) await server?.cleanup()
    else rmSync(server.dataDir, { recursive: true, force: true })
  })

  it('signs, journals and serves checkpoints as JSON lines, and prints them in the minutes', async () => {
    expect((await api(server.url, 'GET', '/api/journal/checkpoints')).status).toBe(401)
    const res = await fetch(`${server.url}/api/journal/checkpoints`, { headers: { authorization: auditor } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/ndjson/)
    const cps = parseCheckpoints(await res.text())
    expect(cps.map((c) => (c as { reason?: string }).reason)).toEqual(['sales-closed', 'game-ended'])
    for (const cp of cps) expect(verifyCheckpointSignature(cp, server.services.keys.publicKey)).toBe(true)
    const journal = (await api(server.url, 'GET', '/api/journal?limit=1000', undefined, { authorization: auditor }))
      .body.records as Array<{ seq: number; type: string; hash: string; payload: any }>
    for (const cp of cps) {
      expect(journal.find((r) => r.seq === cp.seq)!.hash).toBe(cp.hash)
      // Each checkpoint is journaled right after the head it signs.
      expect(journal.find((r) => r.seq === cp.seq + 1)).toMatchObject({
        type: 'journal.checkpoint',
        payload: { seq: cp.seq, hash: cp.hash, signature: cp.signature },
      })
    }
    const minutes = (
      await api(server.url, 'GET', `/api/sessions/${sessionId}/minutes`, undefined, { authorization: auditor })
    ).body
    expect(minutes.checkpoints.map((c: { seq: number }) => c.seq)).toEqual(cps.map((c) => c.seq))
  })

  it('fails verify-journal --checkpoints, naming the range, when the last 100 records are rewritten with fresh hashes', async () => {
    const file = join(server.dataDir, 'regulator-checkpoints.jsonl')
    const res = await fetch(`${server.url}/api/journal/checkpoints`, { headers: { authorization: auditor } })
    writeFileSync(file, await res.text())
    const held = parseCheckpoints(
      await (await fetch(`${server.url}/api/journal/checkpoints`, { headers: { authorization: auditor } })).text(),
    )
    await server.close()
    closed = true
    const env = { DATA_DIR: server.dataDir, BOLILLO_AUTH: 'on' }
    expect((await bolillo(['verify-journal', '--checkpoints', file], env)).code).toBe(0)

    // The attacker: write access to the SQLite file, the append-only triggers dropped, the tail rewritten.
    const db = await openSqliteConnection(join(server.dataDir, 'bolillo.sqlite'))
    db.exec('DROP TRIGGER journal_no_update')
    const rows = db.prepare('SELECT * FROM journal ORDER BY seq').all() as Array<{
      seq: number
      chain: string | null
      chain_seq: number | null
      at: string
      type: string
      scope: string
      payload: string
      prev_hash: string
      hash: string
    }>
    expect(rows.length).toBeGreaterThan(110)
    const from = rows.length - 100
    const update = db.prepare('UPDATE journal SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?')
    // Issue 23 point 5: each chain rewritten from its own last record before the tail.
    const heads = new Map<string, string>()
    for (const row of rows.slice(0, from)) heads.set(row.chain ?? 'operator', row.hash)
    let changed = 0
    let firstChanged = 0
    for (const row of rows.slice(from)) {
      const payload = JSON.parse(row.payload)
      // Swap the balls of the tail's calls: a different game, told by a chain that still verifies.
      if (row.type === 'ball.called') {
        payload.ball = payload.ball === 90 ? 1 : payload.ball + 1
        changed++
        firstChanged ||= Number(row.seq)
      }
      const chain = row.chain ?? 'operator'
      const prevHash = heads.get(chain) ?? '0'.repeat(64)
      const linked = row.chain === null ? {} : { chain: row.chain, chainSeq: Number(row.chain_seq) }
      const hash = hashRecord({
        seq: Number(row.seq),
        ...linked,
        at: row.at,
        type: row.type,
        scope: row.scope,
        payload,
        prevHash,
      })
      update.run(JSON.stringify(payload), prevHash, hash, row.seq)
      heads.set(chain, hash)
    }
    db.close()
    expect(changed).toBeGreaterThan(0)

    const chainOnly = await bolillo(['verify-journal'], env)
    expect(chainOnly.code, chainOnly.stdout + chainOnly.stderr).toBe(0)
    const withCheckpoints = await bolillo(['verify-journal', '--checkpoints', file], env)
    expect(withCheckpoints.code).toBe(1)
    const m = /FAILED checkpoint of record #(\d+): .*records (\d+)\.\.(\d+) were changed/.exec(withCheckpoints.stdout)
    expect(m, withCheckpoints.stdout).not.toBeNull()
    const [, seq, lo, hi] = m!.map(Number)
    expect(hi).toBe(seq)
    expect(held.some((c) => c.seq === seq)).toBe(true)
    // The named range holds the first record whose content was changed (before it, the recomputed hashes are the same).
    expect(lo).toBeLessThanOrEqual(firstChanged)
    expect(hi).toBeGreaterThanOrEqual(firstChanged)
  })
})
