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
import type { OperatorKeys } from './keys.ts'
import {
  checkpointRows,
  checkpointRowsBetween,
  insertCheckpoint,
  lastCheckpointRow,
  chainHeads,
  lastJournalLink,
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
  let queue: Promise<unknown> = Promise.resolve()
  let timer: ReturnType<typeof setInterval> | null = null
  let closed = false

  /** Signs the current head now (serialised: one checkpoint at a time). Null when there is nothing new to sign. */
  function checkpoint(
    reason: CheckpointReason,
    scope: string | (() => Promise<string>) = '',
  ): Promise<StoredCheckpoint | null> {
    const run = queue.then(async () =>
      closed ? null : signNow(reason, typeof scope === 'string' ? scope : await scope()),
    )
    queue = run.catch((e) => deps.log?.warn('could not sign a journal checkpoint', e))
    return run
  }

  async function signNow(reason: CheckpointReason, scope: string): Promise<StoredCheckpoint | null> {
    if (closed) return null
    // Unscoped: the global lock held exclusively, so every chain's head is read at one instant and none moves.
    return db.transaction(async (tx) => {
      const head = await lastJournalLink(tx)
      if (!head) return null
      const last = await lastCheckpointRow(tx)
      // The timer adds nothing when the only record since the last checkpoint is that checkpoint's own record.
      if (last && Number(head.seq) <= Number(last.seq) + (reason === 'timer' ? 1 : 0)) return null
      const cp = signCheckpoint(
        { privateKey: keys.privateKey, keyId: keys.publicInfo().keyId },
        { seq: Number(head.seq), hash: head.hash },
        deps.clock.now().toISOString(),
        // Issue 23 point 5: every chain's head, so that the checkpoint joins the chains.
        await chainHeads(tx),
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
    })
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
      await queue
      closed = true
    },
    /** Waits for the checkpoints asked for so far. */
    settled: () => queue.then(() => undefined),
    async list(after = 0, limit = 10_000): Promise<StoredCheckpoint[]> {
      await queue
      return (await checkpointRows(db, after, limit)).map(toCheckpoint)
    },
    async between(from: string, to: string): Promise<StoredCheckpoint[]> {
      await queue
      return (await checkpointRowsBetween(db, from, to)).map(toCheckpoint)
    },
  }
}

export type Checkpointer = ReturnType<typeof createCheckpointer>
