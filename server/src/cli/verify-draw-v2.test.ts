import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { QUICKNET_KEY, createDemoBeacon, demoSecretKeyFrom, drawRoundFor, roundTime } from '../shared/beacon.ts'
import { buildDrawProofV2 } from '../shared/draw-proof-v2.ts'

const VECTOR = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
}
const dir = mkdtempSync(join(tmpdir(), 'verify-draw-v2-'))
const base = { seed: new Uint8Array(32).fill(4), gameId: 'g-1', serials: ['A1', 'A2'], ballCount: 90, calledCount: 30 }

function verifyDraw(proof: unknown): Promise<{ code: number; stdout: string }> {
  const file = join(dir, `p-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(file, JSON.stringify(proof))
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/src/cli/main.ts', 'verify-draw', file],
      { encoding: 'utf8' },
      (err, stdout) => {
        resolve({ code: err ? Number(err.code) : 0, stdout })
      },
    )
  })
}

describe('npx bolillo verify-draw with v2 proofs', () => {
  it('accepts a quicknet proof offline and rejects a forged signature', async () => {
    const proof = buildDrawProofV2({
      ...base,
      closedAt: roundTime(VECTOR.round - 2),
      beaconKey: QUICKNET_KEY,
      beacon: VECTOR,
    })
    const ok = await verifyDraw(proof)
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/^OK: the 30 balls of game g-1 .*drand quicknet round 657413/)
    expect(ok.stdout).not.toMatch(/DEMO/)
    const ko = await verifyDraw({
      ...proof,
      beacon: { ...proof.beacon, signature: proof.beacon.signature.replace(/7b$/, '7c') },
    })
    expect(ko.code).toBe(1)
    expect(ko.stdout).toMatch(/^FAILED/)
    expect(ko.stdout).toMatch(/BLS signature of round 657413 is not valid/)
    expect(ko.stdout).toMatch(/firma BLS/)
  })

  it('says plainly that a demo beacon is not public', async () => {
    const demo = createDemoBeacon(demoSecretKeyFrom(new Uint8Array(48).fill(1)))
    const closedAt = 1_760_000_000
    const proof = buildDrawProofV2({
      ...base,
      closedAt,
      beaconKey: demo.key,
      beacon: demo.sign(drawRoundFor(closedAt)),
    })
    const r = await verifyDraw(proof)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/DEMO beacon round \d+ \(NOT public randomness\)/)
    expect(r.stdout).toMatch(/AVISO: BALIZA DE DEMOSTRACIÓN/)
  })
})
