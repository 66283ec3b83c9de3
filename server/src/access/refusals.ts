/**
 * Anonymous refusals journaled in aggregate (issue 14 point 4): a flood of bad logins or unauthenticated calls
 * must not write one undeletable journal row each. They are counted in memory by code, method and route and
 * written as one `access.refused.summary` record per interval (and at shutdown). Refusals of a named person or
 * device are still journaled one by one by the caller: they are few (rate-limited per principal) and named.
 */
import type { Database } from '../db/database.ts'
import { appendJournal } from '../shared/journal.ts'

export interface RefusalLog {
  count(entry: { code: string; method: string; route: string; address: string; username?: string }): void
  flush(): Promise<void>
  stop(): Promise<void>
}

/** At most this many distinct addresses and usernames are listed in one summary (the rest are counted). */
const LISTED = 50

export function createRefusalLog(deps: {
  db: Database
  now: () => Date
  intervalMs?: number
  onError?: (e: unknown) => void
}): RefusalLog {
  let from: string | null = null
  let counts = new Map<string, number>()
  let addresses = new Map<string, number>()
  let usernames = new Map<string, number>()
  const bump = (m: Map<string, number>, k: string) => {
    if (m.has(k) || m.size < LISTED) m.set(k, (m.get(k) ?? 0) + 1)
  }
  const timer = setInterval(() => {
    flush().catch(deps.onError)
  }, deps.intervalMs ?? 60_000)
  timer.unref?.()

  async function flush() {
    if (!from) return
    const payload = {
      from,
      to: deps.now().toISOString(),
      total: [...counts.values()].reduce((a, b) => a + b, 0),
      byKind: Object.fromEntries(counts),
      addresses: Object.fromEntries(addresses),
      usernames: Object.fromEntries(usernames),
    }
    from = null
    counts = new Map()
    addresses = new Map()
    usernames = new Map()
    // Issue 23 point 5: one record of the operator chain and no row: it locks that chain alone (db/scopes.ts).
    await deps.db.transaction(
      (tx) => appendJournal(tx, { at: payload.to, type: 'access.refused.summary', scope: '', payload }),
      { scopes: ['operator'] },
    )
  }

  return {
    count(e) {
      from ??= deps.now().toISOString()
      const named = `${e.code} ${e.method} ${e.route}`
      const key = counts.has(named) || counts.size < 4 * LISTED ? named : 'other'
      counts.set(key, (counts.get(key) ?? 0) + 1)
      bump(addresses, e.address)
      if (e.username) bump(usernames, e.username)
    },
    flush,
    async stop() {
      clearInterval(timer)
      await flush().catch(deps.onError)
    },
  }
}
