/**
 * The scopes a transaction writes (DESIGN.md "Journal": on PostgreSQL one journal chain per scope, so writers of
 * different halls never wait on one lock). A scoped transaction holds the global lock shared and one exclusive lock
 * per scope; an unscoped one holds the global lock exclusively, and so every scope. The engines record here what the
 * running transaction holds, so that the journal refuses a record for a chain the transaction did not lock.
 */
import { asyncSlot } from '../shared/async-slot.ts'
import { chainOfScope } from '../shared/journal-chain.ts'
import type { Sql } from './database.ts'

/** The global advisory lock every PostgreSQL transaction takes (exclusive when unscoped, shared when scoped). */
export const GLOBAL_LOCK = 4242
/** First key of the two-key advisory locks of halls' scopes (the second is the scope's hash). */
export const SCOPE_LOCK_CLASS = 4243
/**
 * First key of the locks of operator products' scopes (`lotto`, `lottery`, `instant`) and of the operator chain's
 * (`operator`): a class of their own, so that a hall's key and a product's never collide and the order below is one
 * total order over every lock.
 */
export const PRODUCT_LOCK_CLASS = 4244

interface Held {
  engine: 'sqlite' | 'postgres'
  /** Null: unscoped (every scope). */
  scopes: readonly string[] | null
  /** PostgreSQL: the transaction's own connection, while it is open (see {@link TransactionConnection}). */
  connection?: TransactionConnection
}

/**
 * The connection a PostgreSQL transaction runs on, found from the async context by the Database that opened it
 * (`owner`), so that a query sent through that Database rather than through the `tx` it gave runs here and not on
 * another pooled connection (db/postgres.ts). `open` turns false before COMMIT or ROLLBACK is sent: work the body
 * left running (a promise not awaited, a timer) that queries later goes to the pool as any query outside.
 */
export interface TransactionConnection {
  readonly owner: object
  readonly sql: Sql
  open: boolean
}
// Found from the async context, not from the `tx` object (use cases re-wrap it; SQLite passes one object to all).
const held = asyncSlot<Held>('held')

/**
 * Distinct and sorted. Each scope is a journal chain's name (`hall:<id>`, `lotto`, ..., `operator`; chainOfScope).
 * `operator` locks the operator chain alone, as a product's lock does (its class, its key): a writer of that chain
 * and of no row that only the global lock's exclusive side guards (the timer's checkpoint) names it, so that it
 * neither waits for the halls' open transactions nor makes them wait. An unscoped transaction still holds every
 * scope, `operator` among them, so the chain has one writer at a time either way.
 */
export function normaliseScopes(scopes: readonly string[] | undefined): readonly string[] | null {
  if (!scopes || scopes.length === 0) return null
  for (const s of scopes)
    if (typeof s !== 'string' || chainOfScope(s) !== s)
      throw new TypeError(
        `${JSON.stringify(s)} is not a transaction scope (a hall:<id>, an operator product or the operator chain)`,
      )
  return [...new Set(scopes)].sort()
}

/** Throws when the running transaction is scoped and did not lock `chain`: a programming error, not bad input. */
export function assertChainHeld(chain: string): void {
  const scopes = heldScopes()
  if (scopes && !scopes.includes(chain))
    throw new Error(`journal chain ${chain} is not locked by this transaction (it holds ${scopes.join(', ')})`)
}

/**
 * The advisory lock key of a scope: a 32-bit FNV-1a hash of its text. Two scopes that collide only share a lock
 * (they serialise; nothing goes wrong).
 */
export function scopeLockKey(scope: string): number {
  let h = 0x811c9dc5
  for (const byte of Buffer.from(scope, 'utf8')) {
    h ^= byte
    h = Math.imul(h, 0x01000193)
  }
  return h | 0
}

/**
 * The advisory locks of `scopes` in the one order every transaction takes them: halls before operator products, each
 * class sorted by key. One total order: no two transactions wait for each other (no deadlock), whatever order their
 * use cases named the scopes in. Halls first: a counter slip of hall A waits for hall A's lock before it takes
 * `lotto`, so that another hall's lotto sale does not queue behind a slip that itself waits for hall A.
 */
export function scopeLocks(scopes: readonly string[]): Array<[number, number]> {
  const keys = (cls: number, of: readonly string[]) =>
    [...new Set(of.map(scopeLockKey))].sort((a, b) => a - b).map((k): [number, number] => [cls, k])
  const halls = scopes.filter((s) => s.startsWith('hall:'))
  return [
    ...keys(SCOPE_LOCK_CLASS, halls),
    ...keys(
      PRODUCT_LOCK_CLASS,
      scopes.filter((s) => !s.startsWith('hall:')),
    ),
  ]
}

/** The first statement of a transaction on PostgreSQL: BEGIN and its locks, in one round trip. */
export function beginStatement(scopes: readonly string[] | null): string {
  if (!scopes) return `BEGIN; SELECT pg_advisory_xact_lock(${GLOBAL_LOCK})`
  // PostgreSQL evaluates a target list left to right: the locks are taken in scopeLocks' order.
  return `BEGIN; SELECT pg_advisory_xact_lock_shared(${GLOBAL_LOCK}), ${scopeLocks(scopes)
    .map(([c, k]) => `pg_advisory_xact_lock(${c}, ${k})`)
    .join(', ')}`
}

/** A transaction's first savepoint (TransactionOptions.savepoint): a plain identifier, since it is sent as text. */
export function savepointName(name: string | undefined): string | null {
  if (name === undefined) return null
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new TypeError(`${JSON.stringify(name)} is not a savepoint name`)
  return name
}

/** Runs a transaction's body (called by an engine once its locks are taken) with what it holds. */
export function runHolding<T>(
  engine: Held['engine'],
  scopes: readonly string[] | null,
  fn: () => Promise<T>,
  connection?: TransactionConnection,
): Promise<T> {
  return held.run(connection ? { engine, scopes, connection } : { engine, scopes }, fn)
}

/** The open transaction of `owner` (a Database) that the running code is inside, if any. */
export function openTransactionOf(owner: object): TransactionConnection | null {
  const connection = held.get()?.connection
  return connection && connection.owner === owner && connection.open ? connection : null
}

/** The scopes the running transaction locked, or null when it is unscoped (it excludes every writer) or outside one. */
export function heldScopes(): readonly string[] | null {
  return held.get()?.scopes ?? null
}

/** The engine of the running transaction (SQLite outside one: the lotto writer thread runs its own). */
export function transactionEngine(): Held['engine'] {
  return held.get()?.engine ?? 'sqlite'
}

/**
 * Thrown inside a scoped transaction that finds, under its locks, that it would write rows beyond its scopes (a
 * condition that changes only under the global lock's exclusive side, read before the transaction, no longer holds):
 * {@link narrowOrAll} runs it again unscoped. Not an error of the request.
 */
export class ScopesTooNarrow extends Error {
  constructor() {
    super('the transaction reaches beyond its scopes: run again with every scope')
  }
}

/**
 * Inside a scoped transaction that did not lock `chain`: throws {@link ScopesTooNarrow}, so that its `narrowOrAll`
 * runs it again with every chain. Nothing in an unscoped transaction (it holds every chain) or outside one.
 */
export function requireChain(chain: string): void {
  const held = heldScopes()
  if (held && !held.includes(chain)) throw new ScopesTooNarrow()
}

/** Runs `run` with `scopes`, and again with every scope (undefined) when it throws {@link ScopesTooNarrow}. */
export async function narrowOrAll<T>(
  scopes: readonly string[] | undefined,
  run: (scopes: readonly string[] | undefined) => Promise<T>,
): Promise<T> {
  if (!scopes?.length) return run(undefined)
  try {
    return await run(scopes)
  } catch (err) {
    if (!(err instanceof ScopesTooNarrow)) throw err
    return run(undefined)
  }
}
