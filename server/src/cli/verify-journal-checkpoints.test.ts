import Database from 'better-sqlite3'
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { hashRecord, type JournalRecord } from '../shared/journal-chain.ts'
import { loadOrCreateKeys } from '../shared/keys.ts'
import { signCheckpoint } from '../shared/checkpoints.ts'

const run = promisify(execFile)

async function bolillo(args: string[], env: Record<string, string>) {
  try {
    const r = await run(process.execPath, [join(process.cwd(), 'bin', 'bolillo.mjs'), ...args], {
      env: { ...process.env, ...env },
    })
    return { code: 0, stdout: r.stdout }
  } catch (err: any) {
    return { code: err.code as number, stdout: `${err.stdout}${err.stderr}` }
  }
}

interface Row {
  seq: number
  chain: string | null
  chain_seq: number | null
  at: string
  type: string
  scope: string
  payload: string
  prev_hash: string
  hash: string
}

describe('npx bolillo verify-journal --checkpoints', () => {
  it('passes with a held checkpoint and catches a tail rewritten with fresh hashes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolillo-checkpoints-'))
    expect((await bolillo(['demo', '--cards', '12'], { DATA_DIR: dir })).code).toBe(0)
    const db = new Database(join(dir, 'bolillo.sqlite'))
    const rows = db.prepare('SELECT * FROM journal ORDER BY seq').all() as Row[]
    const last = rows[rows.length - 1]
    const keys = loadOrCreateKeys(dir)
    const cp = signCheckpoint(
      { privateKey: keys.privateKey, keyId: keys.publicInfo().keyId },
      { seq: last.seq, hash: last.hash },
      '2025-03-01T21:00:00.000Z',
    )
    const file = join(dir, 'checkpoints.jsonl')
    writeFileSync(file, JSON.stringify(cp) + '\n')

    const ok = await bolillo(['verify-journal', '--checkpoints', file], { DATA_DIR: dir })
    expect(ok.stdout).toMatch(/^OK: journal of \d+ records verifies and matches all 1 checkpoints/)

    // Someone with file access rewrites the last 100 records and recomputes every hash after them, chain by chain.
    db.exec('DROP TRIGGER IF EXISTS journal_no_update')
    const from = Math.max(1, rows.length - 99)
    const heads = new Map<string, string>()
    for (const row of rows.slice(0, from - 1)) heads.set(row.chain ?? 'operator', row.hash)
    let prevHash = ''
    const update = db.prepare('UPDATE journal SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?')
    for (const row of rows.slice(from - 1)) {
      const payload = { ...JSON.parse(row.payload), rewritten: true }
      const chain = row.chain ?? 'operator'
      const rec: Omit<JournalRecord, 'hash'> = {
        seq: row.seq,
        ...(row.chain === null ? {} : { chain: row.chain, chainSeq: Number(row.chain_seq) }),
        at: row.at,
        type: row.type,
        scope: row.scope,
        payload,
        prevHash: heads.get(chain) ?? '0'.repeat(64),
      }
      prevHash = hashRecord(rec)
      heads.set(chain, prevHash)
      update.run(JSON.stringify(payload), rec.prevHash, prevHash, row.seq)
    }
    db.close()

    const chainOnly = await bolillo(['verify-journal'], { DATA_DIR: dir })
    expect(chainOnly.stdout).toMatch(/^OK/)
    const ko = await bolillo(['verify-journal', '--checkpoints', file], { DATA_DIR: dir })
    expect(ko.code).toBe(1)
    expect(ko.stdout).toContain(`FAILED checkpoint of record #${last.seq}: record ${last.seq} has hash ${prevHash}`)
  })
})
