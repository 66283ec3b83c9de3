/**
 * LNS-9: the operator's lotto ball sets. Unlike the bingo registry (equipment/, per hall, bingo ball counts) a lotto
 * draw may have no hall, so its sets are the operator's: each with its reference, its ball count (1..n, the plan's
 * range) and its seal or certificate reference; one set of each range is marked as the reserve set, kept ready
 * to replace the one in use. A manual draw is refused without both (draws.ts enterBall, LNS-16).
 */
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Actor } from '../shared/lottery-draw-v2.ts'
import type { LottoContext } from './context.ts'
import {
  insertLottoBallSet,
  lottoBallSetById,
  lottoBallSetReferenceTaken,
  lottoBallSets,
  markLottoReserveSet,
  type LottoBallSet,
} from './store.ts'

/** The widest lotto range a set may carry (the plan's own bound is checked by plan.ts, LNS-12). */
const MAX_BALLS = 99

export function createBallSetUseCases(ctx: LottoContext) {
  const { db, now, newId } = ctx

  async function registerBallSet(
    input: { reference: string; ballCount: number; sealRef: string },
    actor: Actor | null,
  ): Promise<LottoBallSet> {
    const reference = input.reference?.trim() ?? ''
    const sealRef = input.sealRef?.trim() ?? ''
    const problems = [
      ...(reference ? [] : [{ field: 'reference', rule: 'LNS-9', message: 'the set needs its reference' }]),
      ...(sealRef
        ? []
        : [{ field: 'sealRef', rule: 'LNS-9', message: 'the seal or certificate reference is required' }]),
      ...(Number.isInteger(input.ballCount) && input.ballCount >= 2 && input.ballCount <= MAX_BALLS
        ? []
        : [{ field: 'ballCount', rule: 'LNS-9', message: `ballCount must be a whole number from 2 to ${MAX_BALLS}` }]),
    ]
    if (problems.length)
      throw new DomainError('VALIDATION_FAILED', 'a lotto ball set names its reference, range and seal (LNS-9)', {
        rule: 'LNS-9',
        problems,
      })
    const id = newId('lbs')
    await db.transaction(async (tx) => {
      if (await lottoBallSetReferenceTaken(tx, reference))
        throw new DomainError('CONFLICT', `a lotto ball set ${reference} is already registered`, { rule: 'LNS-9' })
      const at = now()
      await insertLottoBallSet(tx, { id, reference, ballCount: input.ballCount, sealRef, at, by: actor?.id ?? null })
      await appendJournal(tx, {
        at,
        type: 'lotto.ball_set_registered',
        scope: 'lotto:ball-sets',
        payload: { ballSetId: id, reference, ballCount: input.ballCount, sealRef, actor, rule: 'LNS-9' },
      })
    })
    return (await lottoBallSetById(db, id))!
  }

  /** LNS-9: marks a set as its range's reserve; the range's previous reserve may draw again. */
  async function markReserve(id: string, actor: Actor | null): Promise<LottoBallSet> {
    await db.transaction(async (tx) => {
      const set = await lottoBallSetById(tx, id)
      if (!set) throw new DomainError('NOT_FOUND', `lotto ball set ${id} not found`)
      const at = now()
      await markLottoReserveSet(tx, id, set.ballCount, at)
      await appendJournal(tx, {
        at,
        type: 'lotto.reserve_set_marked',
        scope: 'lotto:ball-sets',
        payload: { ballSetId: id, reference: set.reference, ballCount: set.ballCount, actor, rule: 'LNS-9' },
      })
    })
    return (await lottoBallSetById(db, id))!
  }

  return { registerBallSet, markReserve, listBallSets: () => lottoBallSets(db) }
}
