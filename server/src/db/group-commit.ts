/**
 * Group commit on the storage port (issue 23 point 5): the units of work that arrive while one transaction is
 * running are written together by the next, each inside a savepoint of its own, and committed once. A unit that
 * throws is rolled back to its savepoint and rejected alone; the others of the batch still commit. Every caller is
 * answered only after the commit of the transaction that holds its work (with SQLite synchronous = FULL: durable),
 * so one commit (one fsync) serves the whole batch instead of one per sale. On SQLite that fsync runs on a thread of
 * its own (Database.durable, db/wal-sync.ts), and the next batch is written meanwhile.
 *
 * A batch is bounded by count and by time (`budgetMs` of work, checked between units): the write lock is never held
 * much longer than that, so a ball draw or another writer waiting behind a batch waits at most about one budget plus
 * a commit; a priority transaction (Database.priorityPending) waits for the unit being written only. What did not fit
 * goes into the next batch, at once. When idle, a unit is written alone immediately (no
 * timer delays it). A unit must do no device or network I/O: it runs under the write lock.
 *
 * Issue 23 point 5: units that name the scopes they write (`run(fn, { scopes })`: a hall, an operator product) are
 * batched with units of the same scopes only, in a lane of their own whose transactions lock just those scopes: on
 * PostgreSQL the batches of two halls are written side by side, and a batch held up in one hall holds up no other.
 */
import type { Database, Sql } from './database.ts'
import { normaliseScopes } from './scopes.ts'
import { currentActor, requestContext, type JournalActor } from '../shared/request-context.ts'
import { journalUnitRefusal, sealedUnit } from '../shared/row-seal-database.ts'
import type { JournalTip } from '../shared/row-seals.ts'

interface Unit {
  fn: (tx: Sql) => Promise<unknown>
  resolve: (v: unknown) => void
  reject: (e: unknown) => void
  actor: JournalActor | undefined
  /**
   * Runs the unit as its own request, not the batch's first caller's: what it asks of the request (the acting
   * principal's halls, currentScope; the journal's actor, currentActor) is its caller's.
   */
  asCaller: <T>(fn: () => T) => T
}

export interface GroupCommit {
  /**
   * Runs `fn` in the next batch's transaction, inside its own savepoint; resolves after that transaction commits.
   * `scopes`: what `fn` writes (TransactionOptions.scopes); a batch only holds units of the same scopes.
   */
  run<T>(fn: (tx: Sql) => Promise<T>, options?: { scopes?: readonly string[] }): Promise<T>
  /** Batches committed and units written so far. */
  stats(): { batches: number; units: number }
}

export function createGroupCommit(db: Database, options: { maxBatch?: number; budgetMs?: number } = {}): GroupCommit {
  const maxBatch = options.maxBatch ?? 256
  const budgetMs = options.budgetMs ?? 8
  let batches = 0
  let units = 0
  const lanes = new Map<string, ReturnType<typeof lane>>()

  function laneOf(scopes: readonly string[] | null) {
    const key = scopes ? scopes.join('\n') : ''
    let l = lanes.get(key)
    if (!l) lanes.set(key, (l = lane(scopes)))
    return l
  }

  function lane(scopes: readonly string[] | null) {
    let queue: Unit[] = []
    let scheduled = false
    let running = false

    const schedule = () => {
      if (scheduled || running || queue.length === 0) return
      scheduled = true
      // setImmediate: every request already read from the sockets in this turn joins the batch.
      setImmediate(() => void flush())
    }

    async function flush(): Promise<void> {
      scheduled = false
      if (running || queue.length === 0) return
      running = true
      // A draw's transaction waiting to start goes first (on PostgreSQL it may still be opening its connection).
      const first = db.priorityPending?.(scopes)
      if (first) await first
      const taken = queue
      queue = []
      const done: Array<{ unit: Unit; ok: boolean; value: unknown }> = []
      const joined = db.engine === 'postgres'
      try {
        // deferSync: the commit does not wait for the disk (SQLite FULL: no fsync on the event loop); every caller is
        // answered only after durable() below, so nothing is told of a sale before it is on disk.
        await db.transaction(
          async (tx) => {
            const started = performance.now()
            // The journal's head as the last unit that stood left it: under the batch's lock nobody else appends, so
            // the next unit continues the chain from it without reading it back. Forgotten when a unit is rolled back.
            const link: { head?: JournalTip } = {}
            // PostgreSQL: a statement is a round trip under the journal's lock. The first unit's savepoint is opened
            // with BEGIN (in its round trip), a unit's savepoint is released in the same simple query as the next
            // unit's SAVEPOINT, and the last one by the COMMIT (which releases them all).
            let unreleased = false
            let opened = joined
            for (let i = 0; i < taken.length; i++) {
              // Over the budget or the count, or a priority transaction (a ball, a claim's judgement) waits for this
              // one to end: the rest waits for the next batch (it keeps its place at the front).
              if (
                i > 0 &&
                (i >= maxBatch || performance.now() - started > budgetMs || db.priorityWaiting?.(scopes) === true)
              ) {
                queue = taken.slice(i).concat(queue)
                break
              }
              const unit = taken[i]
              if (!opened)
                await tx.run(unreleased ? 'RELEASE SAVEPOINT group_unit; SAVEPOINT group_unit' : 'SAVEPOINT group_unit')
              opened = false
              unreleased = false
              try {
                // Issue 24 point 1: the rows a unit writes are sealed by its own records.
                const value = await sealedUnit(tx, () => unit.asCaller(() => unit.fn(tx)), link)
                if (joined) unreleased = true
                else await tx.run('RELEASE SAVEPOINT group_unit')
                done.push({ unit, ok: true, value })
              } catch (err) {
                link.head = undefined
                if (joined) await tx.run('ROLLBACK TO SAVEPOINT group_unit; RELEASE SAVEPOINT group_unit')
                else {
                  await tx.run('ROLLBACK TO SAVEPOINT group_unit')
                  await tx.run('RELEASE SAVEPOINT group_unit')
                }
                // A refusal for a tampered row is on record even though the unit wrote nothing.
                await journalUnitRefusal(tx, err, unit.actor)
                done.push({ unit, ok: false, value: err })
              }
            }
          },
          { deferSync: true, ...(scopes ? { scopes } : {}), ...(joined ? { savepoint: 'group_unit' } : {}) },
        )
      } catch (err) {
        // The commit (or a savepoint) failed: nothing of this batch was written.
        for (const d of done) d.unit.reject(err)
        const answered = new Set(done.map((d) => d.unit))
        for (const u of taken) if (!answered.has(u) && !queue.includes(u)) u.reject(err)
        running = false
        schedule()
        return
      }
      batches++
      units += done.length
      // The next batch is written while this one's commit reaches the disk.
      running = false
      schedule()
      try {
        await db.durable?.()
      } catch (err) {
        // The disk did not confirm the commit (an fsync error): nobody is told the sale stands. What was committed
        // stays on record (its paper is owed and can be reprinted) and the journal says what it holds.
        for (const d of done) d.unit.reject(err)
        return
      }
      for (const d of done) (d.ok ? d.unit.resolve : d.unit.reject)(d.value)
    }

    return {
      push(unit: Unit) {
        queue.push(unit)
        schedule()
      },
    }
  }

  return {
    run<T>(fn: (tx: Sql) => Promise<T>, runOptions?: { scopes?: readonly string[] }): Promise<T> {
      const target = laneOf(normaliseScopes(runOptions?.scopes))
      return new Promise<T>((resolve, reject) => {
        target.push({
          fn,
          resolve: resolve as (v: unknown) => void,
          reject,
          actor: currentActor(),
          asCaller: requestContext(),
        })
      })
    },
    stats: () => ({ batches, units }),
  }
}
