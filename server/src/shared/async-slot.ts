/**
 * What follows a request or a transaction through its promises (the request's actor, the transaction's row seals, the
 * locks it holds), kept in ONE AsyncLocalStorage. On Node 20 every enabled AsyncLocalStorage adds a hook call to every
 * promise created: three of them cost a paid sale's event loop about 420 ns per awaited call against 190 ns for one
 * (hundreds of awaits a sale). Each slot is independent, as separate storages were: running a slot keeps the others'
 * values of the calling context.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

type Frame = Readonly<Record<symbol, unknown>>

const storage = new AsyncLocalStorage<Frame>()
const EMPTY: Frame = Object.freeze({})

export interface AsyncSlot<T> {
  /** Runs `fn` with this slot set to `value` (undefined: unset), the other slots as the caller has them. */
  run<R>(value: T | undefined, fn: () => R): R
  /** The slot's value in the running context, if set. */
  get(): T | undefined
}

/** A new slot; `name` only labels its key for debugging. */
export function asyncSlot<T>(name: string): AsyncSlot<T> {
  const key = Symbol(name)
  return {
    run(value, fn) {
      const outer = storage.getStore() ?? EMPTY
      return storage.run({ ...outer, [key]: value }, fn)
    },
    get() {
      return storage.getStore()?.[key] as T | undefined
    },
  }
}
