/**
 * The priority transactions of this node that have not started yet (TransactionOptions.priority: a ball, a claim's
 * judgement, a window's close). Each engine enters one when it is asked for and leaves it once it has begun (SQLite:
 * its turn on the connection; PostgreSQL: its locks taken); the group commit asks before it starts a batch, and
 * between the units of a batch in progress, so that sales queued behind a draw start after it.
 */
export function priorityWaiters() {
  let waiting = 0
  // One promise for each stretch during which some wait, shared by everyone who asks.
  let stretch: { promise: Promise<void>; resolve: () => void } | null = null
  return {
    enter(): void {
      if (waiting++ === 0) {
        let resolve = () => {}
        const promise = new Promise<void>((r) => (resolve = r))
        stretch = { promise, resolve }
      }
    },
    leave(): void {
      if (--waiting === 0) {
        stretch?.resolve()
        stretch = null
      }
    },
    /** Null when none waits; otherwise resolves once none does. */
    pending(): Promise<void> | null {
      return stretch?.promise ?? null
    },
  }
}
