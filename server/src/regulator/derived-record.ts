/**
 * The shape of a control record before it is numbered and batched (bolillo-control-v1, SCHEMA.md): its own module so
 * derive.ts and derive-products.ts both read it without importing each other.
 */

export type ControlType =
  | 'bingo.game'
  | 'bingo.cards'
  | 'lotto.draw'
  | 'lotto.plays'
  | 'lottery.draw'
  | 'instant.game'
  | 'totals.daily'
  | 'totals.monthly'
  | 'event.significant'

/** A control record before it is numbered and put into a batch. */
export interface DerivedRecord {
  /** Unique per fact, so that deriving the same journal twice adds nothing (restart, second node). */
  sourceKey: string
  chain: string
  hall: string | null
  type: ControlType
  /** UTC instant of the fact; the envelope writes it on the hall's wall clock with its zone. */
  at: string
  data: Record<string, unknown>
  part?: number
  parts?: number
  /** The source key of an earlier record this one brings up to date (its `replaces`; the original stays). */
  replacesKey?: string
}
