/**
 * Who caused what is being written (issue 14 point 2). The HTTP layer runs each authenticated request inside
 * this context; `appendJournal` and the batch journal stamp the actor on every record written meanwhile, so no
 * use case has to pass it along and none can take it from a request body. AsyncLocalStorage follows the request
 * through promises and database callbacks under Node and Bun; a worker thread does not inherit it, so the lotto
 * sale path captures the actor when a slip is queued and sends it with the slip.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** A journal record's actor: the authenticated person or device, the station, and who authorised it. */
export interface JournalActor {
  kind: string
  id: string
  name: string
  role: string
  device?: { id: string; name: string }
  authorisedBy?: { id: string; name: string; role: string }
}

const storage = new AsyncLocalStorage<() => JournalActor>()

/** Runs `fn` with `actor` (read when a record is written, so a later authorisation is included). */
export function runAs<T>(actor: () => JournalActor, fn: () => T): T {
  return storage.run(actor, fn)
}

/** The actor of the request being served, if any. */
export function currentActor(): JournalActor | undefined {
  return storage.getStore()?.()
}

/** A journal payload with the current actor added, unless it names one already. */
export function withActor<T>(payload: T, actor: JournalActor | undefined = currentActor()): T {
  if (!actor || !payload || typeof payload !== 'object' || Array.isArray(payload) || 'actor' in (payload as object)) return payload
  return { ...payload, actor }
}
