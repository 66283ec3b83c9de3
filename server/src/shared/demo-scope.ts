/**
 * Issue 24 point 4: the demo's own draws. The demo seeding journals a `demo.seeded` record naming its hall and its
 * lotto and lottery draws; the labelled demo beacon signs only those. The list is in the append-only journal, not in
 * a table a request could edit.
 */
import type { Sql } from '../db/database.ts'
import { appendJournal } from './journal.ts'
import { beaconScopeKey, type BeaconScope } from './beacon-source.ts'
import { demoSeededPayloads } from './store.ts'

export const DEMO_SEEDED = 'demo.seeded'

/** Journals that `scopes` (and the enrolled `devices`) are the demo's own, inside the seeding's transaction. */
export async function recordDemoScopes(
  tx: Sql,
  at: string,
  scopes: readonly BeaconScope[],
  devices: readonly string[] = [],
): Promise<void> {
  await appendJournal(tx, {
    at,
    type: DEMO_SEEDED,
    scope: '',
    payload: { scopes: scopes.map(beaconScopeKey), ...(devices.length ? { devices } : {}) },
  })
}

/** The devices the demo enrolled (their credentials are published in DATA_DIR/demo-credentials.json). */
export async function demoDeviceIds(db: Sql): Promise<string[]> {
  const out: string[] = []
  for (const r of await demoSeededPayloads(db))
    out.push(...((JSON.parse(r.payload) as { devices?: string[] }).devices ?? []))
  return out
}

/** Whether the demo beacon may sign for `scope`: only a scope the demo seeding named. No scope: never. */
export function createDemoScopeCheck(db: Sql): (scope: BeaconScope | undefined) => Promise<boolean> {
  let known = new Set<string>()
  return async (scope) => {
    if (!scope) return false
    const key = beaconScopeKey(scope)
    if (known.has(key)) return true
    // Read again on a miss: the demo may have been seeded since the last look (a draw asks rarely).
    const next = new Set<string>()
    for (const r of await demoSeededPayloads(db))
      for (const s of (JSON.parse(r.payload) as { scopes?: string[] }).scopes ?? []) next.add(s)
    known = next
    return known.has(key)
  }
}
