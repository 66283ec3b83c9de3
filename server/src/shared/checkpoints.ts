/**
 * Signed journal checkpoints (DESIGN.md "Contracts / Journal"). A hash chain alone does not stop someone with write
 * access from rewriting its whole tail with fresh hashes; a checkpoint — (seq, head hash) signed with the operator's
 * Ed25519 key and handed to someone outside (minutes, regulator) — does: the rewritten record no longer has the
 * checkpointed hash.
 *
 * Signed message: UTF-8 `"bolillo-checkpoint-v1|" + seq + "|" + hash + "|" + at`.
 * A checkpoint file is a JSON array of checkpoints, or one checkpoint per line (JSON lines).
 *
 * Pure: the time and the key arrive as arguments.
 */
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { createChainVerifier, type ChainVerification, type JournalRecord } from './journal-chain.ts'

export const CHECKPOINT_VERSION = 'bolillo-checkpoint-v1'

export interface Checkpoint {
  version: typeof CHECKPOINT_VERSION
  /** Seq of the journal's last record when signed. */
  seq: number
  /** That record's hash. */
  hash: string
  /** When it was signed, ISO 8601. */
  at: string
  /** The operator key's id (as published at GET /api/keys). */
  keyId: string
  /** Ed25519 signature, base64url. */
  signature: string
}

const HEX64 = /^[0-9a-f]{64}$/

export function checkpointMessage(seq: number, hash: string, at: string): Buffer {
  return Buffer.from(`${CHECKPOINT_VERSION}|${seq}|${hash}|${at}`, 'utf8')
}

/** Signs the journal head `{ seq, hash }` at time `at`. */
export function signCheckpoint(
  signer: { privateKey: KeyObject; keyId: string },
  head: { seq: number; hash: string },
  at: string,
): Checkpoint {
  if (!Number.isSafeInteger(head.seq) || head.seq < 1 || !HEX64.test(head.hash))
    throw new RangeError('a checkpoint needs a record seq and its 64-hex hash')
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at)))
    throw new RangeError(`bad checkpoint time ${JSON.stringify(at)}`)
  const signature = sign(null, checkpointMessage(head.seq, head.hash, at), signer.privateKey).toString('base64url')
  return { version: CHECKPOINT_VERSION, seq: head.seq, hash: head.hash, at, keyId: signer.keyId, signature }
}

/** True when `cp` is well formed and signed by `publicKey` (a KeyObject or SPKI PEM). Never throws. */
export function verifyCheckpointSignature(cp: Checkpoint, publicKey: KeyObject | string): boolean {
  try {
    if (
      cp.version !== CHECKPOINT_VERSION ||
      !Number.isSafeInteger(cp.seq) ||
      cp.seq < 1 ||
      !HEX64.test(cp.hash) ||
      typeof cp.at !== 'string'
    )
      return false
    const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey
    return verify(null, checkpointMessage(cp.seq, cp.hash, cp.at), key, Buffer.from(cp.signature, 'base64url'))
  } catch {
    return false
  }
}

/** Reads a checkpoint file: a JSON array, a single JSON object, or JSON lines. */
export function parseCheckpoints(text: string): Checkpoint[] {
  const t = text.trim()
  if (t === '') return []
  if (t.startsWith('[')) return JSON.parse(t) as Checkpoint[]
  try {
    return [JSON.parse(t) as Checkpoint]
  } catch {
    return t
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l, i) => {
        try {
          return JSON.parse(l) as Checkpoint
        } catch {
          throw new SyntaxError(`checkpoint file line ${i + 1} is not JSON`)
        }
      })
  }
}

/** A checkpoint that the journal no longer matches, or that cannot be trusted. */
export interface CheckpointProblem {
  seq: number
  at: string
  kind: 'bad-signature' | 'mismatch' | 'missing'
  /** For a mismatch: the records that differ from what was checkpointed lie in `from..seq`. */
  from?: number
  reason: string
}

export interface CheckpointReport {
  /** Chain intact and every checkpoint signed and matched. */
  ok: boolean
  chain: ChainVerification
  /** Checkpoints with a valid signature whose record matched. */
  matched: number
  problems: CheckpointProblem[]
}

/**
 * Checks `records` (in seq order, one pass) against the hash chain and against each checkpoint: its signature
 * under `publicKey`, and that record `seq` still has the checkpointed hash. For a mismatch, `from` is one past the
 * last checkpoint that still matched: the rewritten records lie between the two.
 */
export function verifyCheckpoints(
  records: Iterable<JournalRecord>,
  checkpoints: readonly Checkpoint[],
  publicKey: KeyObject | string,
): CheckpointReport {
  const problems: CheckpointProblem[] = []
  const trusted = new Map<number, Checkpoint[]>()
  for (const cp of checkpoints) {
    if (!verifyCheckpointSignature(cp, publicKey)) {
      problems.push({
        seq: Number(cp?.seq),
        at: String(cp?.at),
        kind: 'bad-signature',
        reason: `checkpoint of record ${String(cp?.seq)} at ${String(cp?.at)} is not signed by this operator key (key ${String(cp?.keyId)}); it proves nothing`,
      })
      continue
    }
    trusted.set(cp.seq, [...(trusted.get(cp.seq) ?? []), cp])
  }

  const chain = createChainVerifier()
  const matchedSeqs = new Set<number>()
  let matched = 0
  let lastSeq = 0
  const mismatches: CheckpointProblem[] = []
  for (const record of records) {
    chain.push(record)
    lastSeq = Math.max(lastSeq, record.seq)
    for (const cp of trusted.get(record.seq) ?? []) {
      if (record.hash === cp.hash) {
        matched++
        matchedSeqs.add(cp.seq)
      } else {
        mismatches.push({
          seq: cp.seq,
          at: cp.at,
          kind: 'mismatch',
          reason: `record ${cp.seq} has hash ${record.hash}, but the checkpoint signed at ${cp.at} holds ${cp.hash}`,
        })
      }
    }
  }
  for (const m of mismatches) {
    // Bound where the rewrite lies by the closest earlier checkpoint that still matched.
    const from = Math.max(0, ...[...matchedSeqs].filter((s) => s < m.seq)) + 1
    problems.push({ ...m, from, reason: `${m.reason}: records ${from}..${m.seq} were changed after the checkpoint` })
  }
  for (const [seq, cps] of trusted) {
    if (seq > lastSeq)
      for (const cp of cps)
        problems.push({
          seq,
          at: cp.at,
          kind: 'missing',
          reason: `the journal ends at record ${lastSeq}, but a checkpoint signed at ${cp.at} covers record ${seq}: records ${lastSeq + 1}..${seq} are missing`,
        })
  }
  problems.sort((a, b) => a.seq - b.seq)
  const chainResult = chain.result()
  return { ok: chainResult.ok && problems.length === 0, chain: chainResult, matched, problems }
}
