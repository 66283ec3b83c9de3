/**
 * Signed journal checkpoints (DESIGN.md "Contracts / Journal"). A hash chain alone does not stop someone with write
 * access from rewriting its whole tail with fresh hashes; a checkpoint — (seq, head hash) signed with the operator's
 * Ed25519 key and handed to someone outside (minutes, regulator) — does: the rewritten record no longer has the
 * checkpointed hash.
 *
 * Signed message: UTF-8 `"bolillo-checkpoint-v1|" + seq + "|" + hash + "|" + at`. Since the journal is one chain
 * per scope (issue 23 point 5), a checkpoint also signs every chain's head and so joins the chains:
 * `"bolillo-checkpoint-v2|" + seq + "|" + hash + "|" + at + "|" + canonicalJson(chains)`, `chains` being
 * `[{ chain, seq, hash }]` sorted by chain (`seq` the head's position in its chain).
 * A checkpoint file is a JSON array of checkpoints, or one checkpoint per line (JSON lines).
 *
 * Pure: the time and the key arrive as arguments.
 */
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import {
  canonicalJson,
  chainOf,
  chainSeqOf,
  createChainVerifier,
  type ChainHead,
  type ChainVerification,
  type JournalRecord,
} from './journal-chain.ts'

export const CHECKPOINT_VERSION = 'bolillo-checkpoint-v1'
export const CHAINS_CHECKPOINT_VERSION = 'bolillo-checkpoint-v2'

export interface Checkpoint {
  version: typeof CHECKPOINT_VERSION | typeof CHAINS_CHECKPOINT_VERSION
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
  /** v2: every chain's head when signed, sorted by chain. */
  chains?: ChainHead[]
}

const HEX64 = /^[0-9a-f]{64}$/

export function checkpointMessage(seq: number, hash: string, at: string, chains?: readonly ChainHead[]): Buffer {
  if (chains === undefined) return Buffer.from(`${CHECKPOINT_VERSION}|${seq}|${hash}|${at}`, 'utf8')
  const heads = chains.map((c) => ({ chain: c.chain, seq: c.seq, hash: c.hash }))
  return Buffer.from(`${CHAINS_CHECKPOINT_VERSION}|${seq}|${hash}|${at}|${canonicalJson(heads)}`, 'utf8')
}

/** Signs the journal head `{ seq, hash }` at time `at`, with every chain's head when given (v2). */
export function signCheckpoint(
  signer: { privateKey: KeyObject; keyId: string },
  head: { seq: number; hash: string },
  at: string,
  chains?: readonly ChainHead[],
): Checkpoint {
  if (!Number.isSafeInteger(head.seq) || head.seq < 1 || !HEX64.test(head.hash))
    throw new RangeError('a checkpoint needs a record seq and its 64-hex hash')
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at)))
    throw new RangeError(`bad checkpoint time ${JSON.stringify(at)}`)
  if (chains && !chainsWellFormed(chains))
    throw new RangeError('a chain head needs a name, a position and a 64-hex hash')
  const sorted = chains && [...chains].sort((a, b) => (a.chain < b.chain ? -1 : a.chain > b.chain ? 1 : 0))
  const signature = sign(null, checkpointMessage(head.seq, head.hash, at, sorted), signer.privateKey).toString(
    'base64url',
  )
  const base = { seq: head.seq, hash: head.hash, at, keyId: signer.keyId, signature }
  return sorted
    ? {
        version: CHAINS_CHECKPOINT_VERSION,
        ...base,
        chains: sorted.map((c) => ({ chain: c.chain, seq: c.seq, hash: c.hash })),
      }
    : { version: CHECKPOINT_VERSION, ...base }
}

function chainsWellFormed(chains: unknown): chains is ChainHead[] {
  return (
    Array.isArray(chains) &&
    chains.every(
      (c: Partial<ChainHead>) =>
        typeof c?.chain === 'string' &&
        c.chain.length > 0 &&
        Number.isSafeInteger(c.seq) &&
        (c.seq ?? 0) >= 1 &&
        typeof c.hash === 'string' &&
        HEX64.test(c.hash),
    )
  )
}

/** True when `cp` is well formed and signed by `publicKey` (a KeyObject or SPKI PEM). Never throws. */
export function verifyCheckpointSignature(cp: Checkpoint, publicKey: KeyObject | string): boolean {
  try {
    const v2 = cp.version === CHAINS_CHECKPOINT_VERSION
    if (
      (cp.version !== CHECKPOINT_VERSION && !v2) ||
      (v2 && !chainsWellFormed(cp.chains)) ||
      !Number.isSafeInteger(cp.seq) ||
      cp.seq < 1 ||
      !HEX64.test(cp.hash) ||
      typeof cp.at !== 'string'
    )
      return false
    const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey
    return verify(
      null,
      checkpointMessage(cp.seq, cp.hash, cp.at, v2 ? cp.chains : undefined),
      key,
      Buffer.from(cp.signature, 'base64url'),
    )
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

  // v2: each chain head a checkpoint signed, by `chain#position`; what each chain's records reached.
  const heads = new Map<string, Array<{ cp: Checkpoint; head: ChainHead }>>()
  for (const cps of trusted.values())
    for (const cp of cps)
      for (const head of cp.chains ?? []) {
        const k = `${head.chain}#${head.seq}`
        heads.set(k, [...(heads.get(k) ?? []), { cp, head }])
      }
  const reached = new Map<string, number>()
  const matchedHeads = new Map<string, number[]>()
  const chainMismatches: Array<{ problem: CheckpointProblem; chain: string; at: number }> = []

  const chain = createChainVerifier()
  const matchedSeqs = new Set<number>()
  let matched = 0
  let lastSeq = 0
  const mismatches: CheckpointProblem[] = []
  for (const record of records) {
    chain.push(record)
    lastSeq = Math.max(lastSeq, record.seq)
    const name = chainOf(record)
    const at = chainSeqOf(record)
    reached.set(name, Math.max(reached.get(name) ?? 0, at))
    for (const { cp, head } of heads.get(`${name}#${at}`) ?? []) {
      if (record.hash === head.hash) matchedHeads.set(name, [...(matchedHeads.get(name) ?? []), at])
      else
        chainMismatches.push({
          chain: name,
          at,
          problem: {
            seq: record.seq,
            at: cp.at,
            kind: 'mismatch',
            reason: `record ${record.seq} (chain ${name} #${at}) has hash ${record.hash}, but the checkpoint signed at ${cp.at} holds ${head.hash} for that chain's head`,
          },
        })
    }
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
  for (const m of chainMismatches) {
    const from = Math.max(0, ...(matchedHeads.get(m.chain) ?? []).filter((s) => s < m.at)) + 1
    problems.push({
      ...m.problem,
      reason: `${m.problem.reason}: records #${from}..#${m.at} of chain ${m.chain} were changed after the checkpoint`,
    })
  }
  for (const [k, list] of heads) {
    const [name, pos] = [k.slice(0, k.lastIndexOf('#')), Number(k.slice(k.lastIndexOf('#') + 1))]
    const end = reached.get(name) ?? 0
    if (pos > end)
      for (const { cp } of list)
        problems.push({
          seq: cp.seq,
          at: cp.at,
          kind: 'missing',
          reason: `chain ${name} ends at #${end}, but a checkpoint signed at ${cp.at} covers its record #${pos}: records #${end + 1}..#${pos} of chain ${name} are missing`,
        })
  }
  problems.sort((a, b) => a.seq - b.seq)
  const chainResult = chain.result()
  return { ok: chainResult.ok && problems.length === 0, chain: chainResult, matched, problems }
}
