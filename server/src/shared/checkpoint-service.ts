/**
 * Signs journal checkpoints (DESIGN.md "Journal", issue 15 point 5): at every game's end, every sales close and on
 * a timer. Each checkpoint (seq and hash of the journal head, Ed25519 with the operator key) is stored, journaled
 * in the same transaction, served at GET /api/journal/checkpoints and printed in the minutes, so someone outside
 * holds it and `npx bolillo verify-journal --checkpoints F` catches a rewritten tail.
 */
import type { Database } from '../db/database.ts'
import type { Logger } from '../log.ts'
import { signCheckpoint, type Checkpoint } from './checkpoints.ts'
import { appendJournal } from './journal.ts'
import { chainOfScope } from './journal-chain.ts'
import type { OperatorKeys } from './keys.ts'
import {
  checkpointRows,
  checkpointRowsBetween,
  insertCheckpoint,
  lastCheckpointRow,
  journalHeads,
  type CheckpointRow,
} from './store.ts'

export type CheckpointReason = 'game-ended' | 'sales-closed' | 'timer' | 'session-closed'

export interface StoredCheckpoint extends Checkpoint {
  reason: CheckpointReason
}

export const DEFAULT_CHECKPOINT_INTERVAL_MS = 5 * 60_000

export function toCheckpoint(r: CheckpointRow): StoredCheckpoint {
  const base = {
    seq: Number(r.seq),
    hash: r.hash,
    at: r.at,
    keyId: r.key_id,
    signature: r.signature,
    reason: r.reason as CheckpointReason,
  }
  // Signed before chains: the journal's head alone.
  if (r.chains === null || r.chains === undefined) return { version: 'bolillo-checkpoint-v1', ...base }
  return { version: 'bolillo-checkpoint-v2', ...base, chains: JSON.parse(r.chains) as StoredCheckpoint['chains'] }
}

export function createCheckpointer(deps: {
  db: Database
  keys: OperatorKeys
  clock: { now(): Date }
  log?: Logger
  intervalMs?: number
}) {
  const { db, keys } = deps
  const intervalMs = deps.intervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS
  // One queue per journal chain a checkpoint's record goes to: checkpoints of one chain one at a time, while one
  // waiting for its hall's lock does not hold up another hall's (issue 23 point 5).
  const queues = new Map<string, Promise<unknown>>()
  const inFlight = new Set<Promise<unknown>>()
  const all = async () => {
    while (inFlight.size) await Promise.all([...inFlight])
  }
  let timer: ReturnType<typeof setInterval> | null = null
  let closed = false

  /** Signs the current heads now (one at a time per chain). Null when there is nothing new to sign. */
  function checkpoint(
    reason: CheckpointReason,
    scope: string | (() => Promise<string>) = '',
  ): Promise<StoredCheckpoint | null> {
    const run = (typeof scope === 'string' ? Promise.resolve(scope) : scope()).then((s) => {
      const chain = chainOfScope(s)
      const signed = (queues.get(chain) ?? Promise.resolve()).then(() => (closed ? null : signNow(reason, s)))
      queues.set(
        chain,
        signed.catch(() => undefined),
      )
      return signed
    })
    const done = run.catch((e) => deps.log?.warn('could not sign a journal checkpoint', e))
    inFlight.add(done)
    void done.then(() => inFlight.delete(done))
    return run
  }

  async function signNow(reason: CheckpointReason, scope: string): Promise<StoredCheckpoint | null> {
    if (closed) return null
    // Issue 23 point 5: the checkpoint locks only the chain its own record goes to (a game's hall, with the global
    // lock shared), so the end of one hall's game neither waits for another hall's open transaction nor makes every
    // later writer queue behind it for the exclusive lock. The heads of the other chains are read without their locks,
    // in one statement (one snapshot): each is a committed record, and a chain only grows, so the record a signed head
    // names stays that chain's record at that position for good, which is all verifyCheckpoints checks. The timer's
    // record goes to the operator chain and locks that chain alone (db/scopes.ts `operator`): it writes no other row
    // than its checkpoint's, which two checkpoints of one head store once (insertCheckpoint).
    const scopes = [chainOfScope(scope)]
    return db.transaction(
      async (tx) => {
        const { last: head, chains } = await journalHeads(tx)
        if (!head) return null
        const last = await lastCheckpointRow(tx)
        // The timer adds nothing when the only record since the last checkpoint is that checkpoint's own record.
        if (last && Number(head.seq) <= Number(last.seq) + (reason === 'timer' ? 1 : 0)) return null
        const cp = signCheckpoint(
          { privateKey: keys.privateKey, keyId: keys.publicInfo().keyId },
          { seq: Number(head.seq), hash: head.hash },
          deps.clock.now().toISOString(),
          // Issue 23 point 5: every chain's head, so that the checkpoint joins the chains.
          chains,
        )
        if (
          !(await insertCheckpoint(tx, {
            seq: cp.seq,
            hash: cp.hash,
            at: cp.at,
            key_id: cp.keyId,
            signature: cp.signature,
            reason,
            chains: JSON.stringify(cp.chains),
          }))
        )
          return null
        await appendJournal(tx, {
          at: cp.at,
          type: 'journal.checkpoint',
          scope,
          payload: { ...cp, reason, actor: { kind: 'system', id: 'server' } },
        })
        return { ...cp, reason }
      },
      { scopes },
    )
  }

  return {
    checkpoint,
    /** Starts the timer (unref'd: it never keeps the process alive). */
    start() {
      if (timer || intervalMs <= 0) return
      timer = setInterval(() => {
        void checkpoint('timer')
      }, intervalMs)
      timer.unref?.()
    },
    /** Stops the timer and waits for a checkpoint being signed. */
    async stop() {
      if (timer) clearInterval(timer)
      timer = null
      await all()
      closed = true
    },
    /** Waits for the checkpoints asked for so far. */
    settled: all,
    async list(after = 0, limit = 10_000): Promise<StoredCheckpoint[]> {
      await all()
      return (await checkpointRows(db, after, limit)).map(toCheckpoint)
    },
    async between(from: string, to: string): Promise<StoredCheckpoint[]> {
      await all()
      return (await checkpointRowsBetween(db, from, to)).map(toCheckpoint)
    },
  }
}

export type Checkpointer = ReturnType<typeof createCheckpointer>
