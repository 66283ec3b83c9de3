import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { nextRecord, verifyChain, type JournalRecord } from './journal-chain.ts'
import { fromPrivateKey } from './keys.ts'
import {
  parseCheckpoints,
  signCheckpoint,
  verifyCheckpointSignature,
  verifyCheckpoints,
  type Checkpoint,
} from './checkpoints.ts'

const operator = fromPrivateKey(generateKeyPairSync('ed25519').privateKey)
const signer = { privateKey: operator.privateKey, keyId: operator.publicInfo().keyId }
const stranger = fromPrivateKey(generateKeyPairSync('ed25519').privateKey)

function at(i: number): string {
  return new Date(Date.UTC(2025, 2, 1, 20, 0, i)).toISOString()
}

function buildChain(
  n: number,
  payloadOf = (i: number): unknown => ({ ticket: `B-${i}`, amount: 500 }),
): JournalRecord[] {
  const records: JournalRecord[] = []
  for (let i = 1; i <= n; i++)
    records.push(
      nextRecord(records[i - 2] ?? null, {
        at: at(i),
        type: 'ticket.sold',
        scope: 'hall:1/session:1/game:1',
        payload: payloadOf(i),
      }),
    )
  return records
}

/** Rewrites records from..end with new payloads and recomputed hashes: the chain alone still verifies. */
function rewriteTail(records: JournalRecord[], from: number): JournalRecord[] {
  const out = records.slice(0, from - 1)
  for (const r of records.slice(from - 1)) {
    out.push(
      nextRecord(out[out.length - 1] ?? null, {
        at: r.at,
        type: r.type,
        scope: r.scope,
        payload: { ticket: (r.payload as { ticket: string }).ticket, amount: 1 },
      }),
    )
  }
  return out
}

describe('journal checkpoints', () => {
  const records = buildChain(500)
  const head = records[499]
  const mid = records[249]
  const cpHead = signCheckpoint(signer, head, '2025-03-01T20:10:00.000Z')
  const cpMid = signCheckpoint(signer, mid, '2025-03-01T20:05:00.000Z')

  it('signs (seq, head hash) with the operator key', () => {
    expect(cpHead).toMatchObject({ version: 'bolillo-checkpoint-v1', seq: 500, hash: head.hash, keyId: signer.keyId })
    expect(verifyCheckpointSignature(cpHead, operator.publicKey)).toBe(true)
    expect(verifyCheckpointSignature(cpHead, operator.publicInfo().publicKeyPem)).toBe(true)
    expect(verifyCheckpointSignature(cpHead, stranger.publicKey)).toBe(false)
    expect(verifyCheckpointSignature({ ...cpHead, seq: 499 }, operator.publicKey)).toBe(false)
    expect(verifyCheckpointSignature({ ...cpHead, at: '2025-03-01T20:10:01.000Z' }, operator.publicKey)).toBe(false)
  })

  it('passes an untouched journal', () => {
    const r = verifyCheckpoints(records, [cpMid, cpHead], operator.publicKey)
    expect(r).toMatchObject({ ok: true, matched: 2, problems: [] })
    expect(r.chain).toMatchObject({ ok: true, lastSeq: 500 })
  })

  it('catches the last 100 records rewritten with fresh hashes, which the chain alone does not', () => {
    const forged = rewriteTail(records, 401)
    expect(forged[499].hash).not.toBe(head.hash)
    expect(verifyChain(forged)).toMatchObject({ ok: true, lastSeq: 500 })
    const r = verifyCheckpoints(forged, [cpMid, cpHead], operator.publicKey)
    expect(r.ok).toBe(false)
    expect(r.chain.ok).toBe(true)
    expect(r.matched).toBe(1)
    expect(r.problems).toEqual([expect.objectContaining({ kind: 'mismatch', seq: 500, from: 251 })])
    expect(r.problems[0].reason).toMatch(/records 251\.\.500 were changed after the checkpoint/)
    // A checkpoint inside the rewritten tail narrows it further.
    const cp450 = signCheckpoint(signer, records[449], '2025-03-01T20:08:00.000Z')
    const cp390 = signCheckpoint(signer, records[389], '2025-03-01T20:07:00.000Z')
    const narrower = verifyCheckpoints(forged, [cp390, cp450, cpHead], operator.publicKey)
    expect(narrower.problems.map((p) => [p.seq, p.from])).toEqual([
      [450, 391],
      [500, 391],
    ])
  })

  it('reports a truncated journal, and does not trust checkpoints signed by another key', () => {
    const cut = verifyCheckpoints(records.slice(0, 480), [cpHead], operator.publicKey)
    expect(cut.problems).toEqual([
      expect.objectContaining({
        kind: 'missing',
        seq: 500,
        reason: expect.stringContaining('records 481..500 are missing'),
      }),
    ])
    const fake = signCheckpoint(
      { privateKey: stranger.privateKey, keyId: 'x' },
      rewriteTail(records, 401)[499],
      '2025-03-01T20:11:00.000Z',
    )
    const r = verifyCheckpoints(rewriteTail(records, 401), [fake], operator.publicKey)
    expect(r.ok).toBe(false)
    expect(r.problems.map((p) => p.kind)).toEqual(['bad-signature'])
  })

  it('reads checkpoint files as a JSON array, one object or JSON lines', () => {
    const list: Checkpoint[] = [cpMid, cpHead]
    expect(parseCheckpoints(JSON.stringify(list))).toEqual(list)
    expect(parseCheckpoints(JSON.stringify(cpHead, null, 2))).toEqual([cpHead])
    expect(parseCheckpoints(list.map((c) => JSON.stringify(c)).join('\n') + '\n')).toEqual(list)
    expect(() => parseCheckpoints('{"seq":1}\nnot json')).toThrow(/line 2/)
  })
})
