/**
 * Who caused what is being written (issue 14 point 2). The HTTP layer runs each authenticated request inside
 * this context; `appendJournal` and the batch journal stamp the actor on every record written meanwhile, so no
 * use case has to pass it along and none can take it from a request body. AsyncLocalStorage follows the request
 * through promises and database callbacks under Node and Bun; a worker thread does not inherit it, so the lotto
 * sale path captures the actor when a slip is queued and sends it with the slip.
 */
import { asyncSlot } from './async-slot.ts'

/** A journal record's actor: the authenticated person or device, the station, and who authorised it. */
export interface JournalActor {
  kind: string
  id: string
  name: string
  role: string
  device?: { id: string; name: string }
  authorisedBy?: { id: string; name: string; role: string }
}

/**
 * Issue 23 point 3: where the authenticated principal may act, for the use cases that check a hall themselves
 * (access/acting-hall.ts): the halls it holds ('*' every hall) and, for a person at an enrolled station or a
 * device, that device's hall (it acts in that hall only).
 */
export interface ActingScope {
  halls: '*' | readonly string[]
  deviceHall: string | null
}

interface RequestScope {
  actor: () => JournalActor
  scope?: () => ActingScope
  /** {@link oncePerRequest}'s reads, by key; made on the first one. */
  once?: Map<string, Promise<unknown>>
}

const storage = asyncSlot<RequestScope>('request')

/**
 * Runs `fn` with `actor` (read when a record is written, so a later authorisation is included) and, when given,
 * the principal's acting scope.
 */
export function runAs<T>(actor: () => JournalActor, fn: () => T, scope?: () => ActingScope): T {
  return storage.run({ actor, scope }, fn)
}

/**
 * The request being served, to run later work as its own (a group-commit unit written in a batch that another
 * request's call started): `asCaller(fn)` runs `fn` with this request's actor and scope, or with none outside one.
 */
export function requestContext(): <T>(fn: () => T) => T {
  const s = storage.get()
  return (fn) => storage.run(s, fn)
}

/** The actor of the request being served, if any. */
export function currentActor(): JournalActor | undefined {
  return storage.get()?.actor()
}

/** Where the principal of the request being served may act; undefined outside an authenticated request. */
export function currentScope(): ActingScope | undefined {
  return storage.get()?.scope?.()
}

/** A journal payload with the current actor added, unless it names one already. */
export function withActor<T>(payload: T, actor: JournalActor | undefined = currentActor()): T {
  if (!actor || !payload || typeof payload !== 'object' || Array.isArray(payload) || 'actor' in (payload as object))
    return payload
  return { ...payload, actor }
}

/**
 * Issue 23 point 5: a read of what never changes on a row (a voucher's hall and buyer) shared by the steps of one
 * request that each need it (the hall guard, then the sale's pre-transaction step), instead of one statement each.
 * Outside a request it simply reads. A read that finds nothing or fails is not kept, so a row written later in the
 * same request is read afresh. Never for values a transaction may change: those are read in it.
 */
export function oncePerRequest<T>(key: string, read: () => Promise<T | undefined>): Promise<T | undefined> {
  const s = storage.get()
  if (!s) return read()
  const once = (s.once ??= new Map())
  const kept = once.get(key) as Promise<T | undefined> | undefined
  if (kept) return kept
  const p = read().then(
    (v) => {
      if (v === undefined) once.delete(key)
      return v
    },
    (err: unknown) => {
      once.delete(key)
      throw err
    },
  )
  once.set(key, p)
  return p
}
