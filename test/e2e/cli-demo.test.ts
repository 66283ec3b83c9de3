import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { openSqliteConnection } from '../../server/src/db/sqlite-runtime.ts'
import { checkDemo, type DemoOutput } from '../helpers/demo-checker.ts'

const run = promisify(execFile)
/** DESIGN.md's published quicknet test vector. */
const VECTOR = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
}
const bin = join(process.cwd(), 'bin', 'bolillo.mjs')

async function bolillo(args: string[], env: Record<string, string> = {}) {
  try {
    const r = await run(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      maxBuffer: 256 * 1024 * 1024,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (err: any) {
    return { code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }
  }
}

describe('npx bolillo demo, verify-draw and verify-journal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-cli-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  let demo: DemoOutput

  it('plays a 5,000-card game whose output an independent checker verifies', async () => {
    const r = await bolillo(['demo', '--cards', '5000', '--json', '--with-cards'], { DATA_DIR: dir })
    expect(r.code, r.stderr).toBe(0)
    demo = JSON.parse(r.stdout)
    expect(demo.cardsSold).toBe(5000)
    expect(demo.cards).toHaveLength(5000)
    expect(new Set(demo.cards.map((c) => JSON.stringify(c.numbers))).size).toBe(5000) // no two equal cards (BNG-13)
    expect(checkDemo(demo)).toEqual([])
  }, 180_000)

  it('the checker is not a rubber stamp: a changed ball, winner or amount is caught', () => {
    const ballSwap = structuredClone(demo)
    ;[ballSwap.balls[0], ballSwap.balls[1]] = [ballSwap.balls[1], ballSwap.balls[0]]
    expect(checkDemo(ballSwap)).not.toEqual([])
    const extraWinner = structuredClone(demo)
    extraWinner.winners.push({
      ...extraWinner.winners[0],
      serial: extraWinner.cards.find((c) => !demo.winners.some((w) => w.serial === c.serial))!.serial,
    })
    expect(checkDemo(extraWinner)).not.toEqual([])
    const centavo = structuredClone(demo)
    centavo.winners[0].amount += 1
    expect(checkDemo(centavo)).not.toEqual([])
  })

  it('verify-draw accepts the published proof, says plainly it used the demo beacon, and rejects a tampered one', async () => {
    expect(demo.proof.version).toBe('bolillo-draw-v2')
    expect(demo.proof.beacon.scheme).toBe('demo')
    const good = join(dir, 'proof.json')
    writeFileSync(good, JSON.stringify(demo.proof))
    const ok = await bolillo(['verify-draw', good])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/^OK/)
    expect(ok.stdout).toMatch(/DEMO beacon round \d+ \(NOT public randomness\)/)
    expect(ok.stdout).toMatch(/AVISO: BALIZA DE DEMOSTRACIÓN/)
    const bad = join(dir, 'bad-proof.json')
    const tampered = structuredClone(demo.proof)
    tampered.balls[5] = tampered.balls[5] === 1 ? 2 : 1
    writeFileSync(bad, JSON.stringify(tampered))
    const ko = await bolillo(['verify-draw', bad])
    expect(ko.code).toBe(1)
    expect(ko.stdout).toMatch(/ball #6/)
  })

  it('with --beacon-file holding quicknet round 657413, prints a v2 proof that verifies; one changed character of the signature fails', async () => {
    const file = join(dir, 'rounds.jsonl')
    writeFileSync(file, JSON.stringify({ round: VECTOR.round, signature: VECTOR.signature }) + '\n')
    const r = await bolillo(['demo', '--cards', '2000', '--json', '--with-cards', '--beacon-file', file], {
      DATA_DIR: join(dir, 'beacon-file'),
    })
    expect(r.code, r.stderr).toBe(0)
    const out: DemoOutput = JSON.parse(r.stdout)
    expect(out.proof.beacon).toEqual({
      scheme: 'drand-quicknet',
      chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
      ...VECTOR,
    })
    expect(checkDemo(out)).toEqual([])
    const proofFile = join(dir, 'proof-657413.json')
    writeFileSync(proofFile, JSON.stringify(out.proof))
    const ok = await bolillo(['verify-draw', proofFile])
    expect(ok.code, ok.stdout).toBe(0)
    expect(ok.stdout).toMatch(/drand quicknet round 657413, BLS signature verified/)
    expect(ok.stdout).not.toMatch(/DEMO/)

    const forged = structuredClone(out.proof)
    forged.beacon.signature =
      VECTOR.signature.slice(0, 10) + (VECTOR.signature[10] === 'a' ? 'b' : 'a') + VECTOR.signature.slice(11)
    const forgedFile = join(dir, 'proof-forged.json')
    writeFileSync(forgedFile, JSON.stringify(forged))
    const ko = await bolillo(['verify-draw', forgedFile])
    expect(ko.code).toBe(1)
    expect(ko.stdout).toMatch(/^FAILED/)
    expect(ko.stdout).toMatch(/BLS signature of round 657413 is not valid/)
    expect(checkDemo({ ...out, proof: forged })).toContain('beacon signature does not verify')
  }, 180_000)

  it('a beacon file whose signature does not verify stops the demo before any ball, and --entropy is gone', async () => {
    const file = join(dir, 'bad-rounds.jsonl')
    writeFileSync(
      file,
      JSON.stringify({ round: VECTOR.round, signature: VECTOR.signature.replace(/^b7/, 'b8') }) + '\n',
    )
    const r = await bolillo(['demo', '--cards', '100', '--json', '--beacon-file', file], {
      DATA_DIR: join(dir, 'bad-beacon-file'),
    })
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    const entropy = await bolillo(['demo', '--cards', '100', '--entropy', 'dados'])
    expect(entropy.code).toBe(2)
    expect(entropy.stderr).toMatch(/nadie aporta entropía/)
  }, 60_000)

  it('verify-journal passes on the demo database and names the record when a row is altered', async () => {
    const ok = await bolillo(['verify-journal'], { DATA_DIR: dir })
    expect(ok.code, ok.stdout + ok.stderr).toBe(0)
    expect(ok.stdout).toMatch(/^OK: journal of \d+ records/)
    // An attacker with file access drops the append-only trigger and edits a ball record.
    const db = await openSqliteConnection(join(dir, 'bolillo.sqlite'))
    const row = db
      .prepare("SELECT seq, payload FROM journal WHERE type = 'ball.called' ORDER BY seq LIMIT 1 OFFSET 3")
      .get() as { seq: number; payload: string }
    expect(() => db.prepare('UPDATE journal SET payload = ? WHERE seq = ?').run('{}', row.seq)).toThrow(/append-only/)
    db.exec('DROP TRIGGER journal_no_update')
    const payload = JSON.parse(row.payload)
    payload.ball = payload.ball === 90 ? 89 : payload.ball + 1
    db.prepare('UPDATE journal SET payload = ? WHERE seq = ?').run(JSON.stringify(payload), row.seq)
    db.close()
    const ko = await bolillo(['verify-journal'], { DATA_DIR: dir })
    expect(ko.code).toBe(1)
    expect(ko.stdout).toContain(`FAILED at record #${row.seq}`)
  })
})
