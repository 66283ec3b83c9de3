/**
 * The priority transactions of this node that have not started yet (TransactionOptions.priority: a ball, a claim's
 * judgement, a window's close). Each engine enters one when it is asked for and leaves it once it has begun (SQLite:
 * its turn on the connection; PostgreSQL: its locks taken); the group commit asks before it starts a batch, and
 * between the units of a batch in progress, so that sales queued behind a draw start after it.
 *
 * Scopes (db/scopes.ts): on PostgreSQL a batch that locks other scopes than a waiting draw neither delays it nor is
 * delayed by it, so the group commit only gives way to a draw whose scopes meet its own (an unscoped one meets every
 * scope): a ball of hall A waiting on hall A's lock must not hold up hall B's sales. On SQLite one connection serves
 * every transaction, so every draw meets every batch (`scoped: false`).
 */
export function priorityWaiters(options: { scoped: boolean } = { scoped: false }) {
  const waiting = new Map<number, readonly string[] | null>()
  let nextId = 0
  // Those who asked to be told when no meeting draw waits any more.
  let watchers: Array<{ scopes: readonly string[] | null; resolve: () => void; promise: Promise<void> }> = []
  const meets = (a: readonly string[] | null, b: readonly string[] | null) =>
    !options.scoped || a === null || b === null || a.some((s) => b.includes(s))
  const blocking = (scopes: readonly string[] | null) => {
    for (const w of waiting.values()) if (meets(w, scopes)) return true
    return false
  }
  return {
    /** A priority transaction asked for; returns its leave(). */
    enter(scopes: readonly string[] | null = null): () => void {
      const id = nextId++
      waiting.set(id, scopes)
      return () => {
        if (!waiting.delete(id)) return
        const still = watchers.filter((w) => blocking(w.scopes))
        for (const w of watchers) if (!still.includes(w)) w.resolve()
        watchers = still
      }
    },
    /** Whether a priority transaction meeting `scopes` waits (asks only: no watcher is left behind). */
    waiting(scopes: readonly string[] | null = null): boolean {
      return blocking(scopes)
    },
    /** Null when no priority transaction meeting `scopes` waits; otherwise resolves once none does. */
    pending(scopes: readonly string[] | null = null): Promise<void> | null {
      if (!blocking(scopes)) return null
      let resolve = () => {}
      const promise = new Promise<void>((r) => (resolve = r))
      watchers.push({ scopes, resolve, promise })
      return promise
    },
  }
}
