/**
 * The operator's ball sets for manual lotto and lottery draws (LNS-9, LOT-18). Unlike the bingo registry (equipment/,
 * per hall, bingo ball counts) a lotto or lottery draw may have no hall, so these sets are the operator's:
 *
 * - a lotto set ('range') holds the balls 1..n of a plan's range (002 §7.3.3.1: "números consecutivos en el rango
 *   establecido");
 * - a lottery set ('digits') holds the digit balls 0-9 of each of its drums. 002 §7.1.2.1 leaves the extraction means
 *   to the operator ("tómbolas, balotas o baloterías ... que asegure la extracción aleatoria") and a ticket number of
 *   five digits is not drawn from a drum of 100 000 balls: it is read one digit per drum, so a lottery draw needs a
 *   digit set of as many drums as its number has digits. 002 §7.1 asks no reserve set of a lottery (only §7.3.3.1 of
 *   lotto), so a lottery draw names the reserve on hand when there is one, and needs one only to swap.
 *
 * Each set has its reference and seal or certificate reference; one set of each fit is the reserve, kept ready to
 * replace the one in use ("de manera inmediata ... a fin de no interrumpir", §7.3.3.1). A worn set is retired with a
 * reason and no new draw takes it; one a draw is being drawn with (or holds as its reserve) is not retired under it:
 * it is swapped for the reserve first, with the reason journaled, and the balls drawn so far stand.
 *
 * Who: the same permission that registers sets (lottery.admin, route level). The sets are the operator's, so a person
 * of some halls only does not register, mark, or retire them; a swap is done by a person of the draw's hall (or, for
 * a draw held in no hall, of the operator: every hall).
 */
import type { Database, Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { isDemoReference, type SoftwareDrawPolicy } from '../shared/lottery-common.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Actor } from '../shared/lottery-draw-v2.ts'
import { currentScope } from '../shared/request-context.ts'
import { assertActsInHall } from '../access/acting-hall.ts'
import {
  ballSetById,
  ballSetReferenceTaken,
  ballSets,
  ballSetsOfFit,
  fitOf,
  insertBallSet,
  markReserveSet,
  openDrawDrawingWith,
  openDrawUsingSet,
  recordDrawBallSets,
  recordDrawReserveSet,
  retireBallSet,
  swapDrawBallSet,
  unmarkReserveSet,
  type BallSet,
  type BallSetFit,
  type BallSetKind,
  type Draw,
} from './store.ts'

/** The widest lotto range a set may carry (the plan's own bound is checked by plan.ts, LNS-12). */
const MAX_BALLS = 99
/** The most digit drums a lottery set equips (a lottery number has at most 9 digits, rules.ts). */
const MAX_DRUMS = 9

export type { BallSet, BallSetFit, BallSetKind }

/** How a line asks for its draw's sets: what fits, whether a reserve must be on hand, which error and rule. */
export interface DrawSetNeeds {
  fit: BallSetFit
  requireReserve: boolean
  code: 'LOTTO_BALL_SET_REQUIRED' | 'LOTTERY_BALL_SET_REQUIRED'
  rule: string
}

const describeFit = (fit: BallSetFit) =>
  fit.kind === 'range' ? `${fit.ballCount} balls` : `digit balls 0-9 for ${fit.drums} drums`
const ref = (s: BallSet) => ({ id: s.id, reference: s.reference, sealRef: s.sealRef })
const journalScope = (kind: BallSetKind) => (kind === 'digits' ? 'lottery:ball-sets' : 'lotto:ball-sets')

/** The operator's registry is changed only by a person who acts for the whole operator (every hall). */
function assertOperatorWide(what: string): void {
  const scope = currentScope()
  if (scope && (scope.halls !== '*' || scope.deviceHall))
    throw new DomainError('WRONG_HALL', `${what}: the operator's ball sets are changed by staff of every hall`, {
      resource: 'ball-set',
    })
}

export function createBallSetRegistry(ctx: {
  db: Database
  now: () => string
  newId: (prefix: string) => string
  /** Issue 24 point 4: softwareDraw.demoReferencesRefused is the server's config.production. */
  deps: { softwareDraw: Pick<SoftwareDrawPolicy, 'demoReferencesRefused'> }
}) {
  const { db, now, newId } = ctx
  const demoRefused = ctx.deps.softwareDraw.demoReferencesRefused ?? false

  async function registerBallSet(
    input: { reference: string; kind?: BallSetKind; ballCount?: number; drums?: number; sealRef: string },
    actor: Actor | null,
  ): Promise<BallSet> {
    assertOperatorWide('registering a ball set')
    const kind = input.kind ?? 'range'
    const reference = input.reference?.trim() ?? ''
    const sealRef = input.sealRef?.trim() ?? ''
    const rule = kind === 'digits' ? 'LOT-18' : 'LNS-9'
    const sizeOk =
      kind === 'digits'
        ? Number.isInteger(input.drums) && input.drums! >= 1 && input.drums! <= MAX_DRUMS
        : Number.isInteger(input.ballCount) && input.ballCount! >= 2 && input.ballCount! <= MAX_BALLS
    const problems = [
      ...(reference ? [] : [{ field: 'reference', rule, message: 'the set needs its reference' }]),
      ...(sealRef ? [] : [{ field: 'sealRef', rule, message: 'the seal or certificate reference is required' }]),
      ...(sizeOk
        ? []
        : kind === 'digits'
          ? [{ field: 'drums', rule, message: `drums must be a whole number from 1 to ${MAX_DRUMS}` }]
          : [{ field: 'ballCount', rule, message: `ballCount must be a whole number from 2 to ${MAX_BALLS}` }]),
    ]
    if (problems.length)
      throw new DomainError('VALIDATION_FAILED', `a ball set names its reference, size and seal (${rule})`, {
        rule,
        problems,
      })
    if (demoRefused && isDemoReference(sealRef))
      throw new DomainError(
        'DEMO_REFERENCE_REFUSED',
        `sealRef "${sealRef}" is a demo reference: a server without the demo records only real ones (${rule})`,
        { field: 'sealRef', rule },
      )
    const id = newId(kind === 'digits' ? 'dbs' : 'lbs')
    const ballCount = kind === 'digits' ? 10 : input.ballCount!
    const drums = kind === 'digits' ? input.drums! : null
    await db.transaction(async (tx) => {
      if (await ballSetReferenceTaken(tx, reference))
        throw new DomainError('BALL_SET_REFERENCE_TAKEN', `a ball set ${reference} is already registered`, {
          rule,
          field: 'reference',
        })
      const at = now()
      await insertBallSet(tx, { id, reference, kind, ballCount, drums, sealRef, at, by: actor?.id ?? null })
      await appendJournal(tx, {
        at,
        type: kind === 'digits' ? 'lottery.ball_set_registered' : 'lotto.ball_set_registered',
        scope: journalScope(kind),
        payload: { ballSetId: id, reference, kind, ballCount, drums, sealRef, actor, rule },
      })
    })
    return (await ballSetById(db, id))!
  }

  /** LNS-9: marks a set as its fit's reserve; the fit's previous reserve may draw again. */
  async function markReserve(id: string, actor: Actor | null): Promise<BallSet> {
    assertOperatorWide('marking a reserve set')
    await db.transaction(async (tx) => {
      const set = await ballSetById(tx, id)
      if (!set) throw new DomainError('NOT_FOUND', `ball set ${id} not found`)
      if (set.retiredAt) throw new DomainError('BALL_SET_RETIRED', `ball set ${set.reference} is retired`)
      // The set in a drum is not also the set ready to replace it.
      const drawing = await openDrawDrawingWith(tx, id)
      if (drawing)
        throw new DomainError('BALL_SET_IN_USE', `ball set ${set.reference} is being drawn with in draw ${drawing}`, {
          rule: 'LNS-9',
          drawId: drawing,
        })
      const at = now()
      await markReserveSet(tx, set, at)
      await appendJournal(tx, {
        at,
        type: set.kind === 'digits' ? 'lottery.reserve_set_marked' : 'lotto.reserve_set_marked',
        scope: journalScope(set.kind),
        payload: {
          ballSetId: id,
          reference: set.reference,
          ballCount: set.ballCount,
          drums: set.drums,
          actor,
          rule: 'LNS-9',
        },
      })
    })
    return (await ballSetById(db, id))!
  }

  /**
   * LNS-9: a set taken out of service (worn, a ball damaged), with the reason; no new draw takes it. Refused while a
   * draw is being drawn with it or holds it as its reserve: swap it out of that draw first.
   */
  async function retire(id: string, reason: string, actor: Actor | null): Promise<BallSet> {
    assertOperatorWide('retiring a ball set')
    const why = reason?.trim() ?? ''
    if (!why)
      throw new DomainError('VALIDATION_FAILED', 'say why the set is retired', {
        rule: 'LNS-9',
        problems: [{ field: 'reason', rule: 'LNS-9', message: 'the reason is required' }],
      })
    await db.transaction(async (tx) => {
      const set = await ballSetById(tx, id)
      if (!set) throw new DomainError('NOT_FOUND', `ball set ${id} not found`)
      if (set.retiredAt) throw new DomainError('BALL_SET_RETIRED', `ball set ${set.reference} is retired already`)
      const drawId = await openDrawUsingSet(tx, id)
      if (drawId)
        throw new DomainError('BALL_SET_IN_USE', `ball set ${set.reference} is in use by draw ${drawId}`, {
          rule: 'LNS-9',
          drawId,
        })
      const at = now()
      if (!(await retireBallSet(tx, id, at, actor?.id ?? null, why)))
        throw new DomainError('BALL_SET_RETIRED', `ball set ${set.reference} is retired already`)
      await appendJournal(tx, {
        at,
        type: set.kind === 'digits' ? 'lottery.ball_set_retired' : 'lotto.ball_set_retired',
        scope: journalScope(set.kind),
        payload: { ballSetId: id, reference: set.reference, wasReserve: set.role === 'reserve', reason: why, actor },
      })
    })
    return (await ballSetById(db, id))!
  }

  /**
   * The ball set and reserve set of a manual draw: the set fixed at its first ball (or swapped in since), else the
   * fit's current set; the reserve fixed on the draw, else the fit's current reserve. Fixed on the draw row at the
   * first ball; named in every value's journal entry.
   */
  async function drawSets(tx: Sql, row: Draw, needs: DrawSetNeeds) {
    let main = row.ballSetId ? await ballSetById(tx, row.ballSetId) : undefined
    let reserve: BallSet | null | undefined = row.reserveSetId ? await ballSetById(tx, row.reserveSetId) : undefined
    const current = await ballSetsOfFit(tx, needs.fit, main?.id ?? null)
    if (!main) main = current.main ?? undefined
    if (!reserve) reserve = current.reserve
    if (!main || (needs.requireReserve && !reserve))
      throw new DomainError(
        needs.code,
        `no registered ${main ? 'reserve set' : 'ball set'} of ${describeFit(needs.fit)}: register it before drawing (${needs.rule})`,
        { rule: needs.rule, fit: needs.fit, ballSet: main?.id ?? null, reserveSet: reserve?.id ?? null },
      )
    // Issue 24 point 4: on a server without the demo, a set sealed under a demo reference is no authorised set.
    const demoSet = demoRefused ? [main, reserve].find((b) => b && isDemoReference(b.sealRef)) : undefined
    if (demoSet)
      throw new DomainError(
        needs.code,
        `ball set ${demoSet.reference} has the seal reference "${demoSet.sealRef}", a demo one, which a server without the demo takes as none (${needs.rule})`,
        { rule: needs.rule, fit: needs.fit, ballSet: demoSet.id, demo: ['sealRef'] },
      )
    if (!row.ballSetId) await recordDrawBallSets(tx, row.id, main.id, reserve?.id ?? null)
    else if (!row.reserveSetId && reserve) await recordDrawReserveSet(tx, row.id, reserve.id)
    return {
      main,
      reserve: reserve ?? null,
      journal: { ballSet: ref(main), reserveSet: reserve ? ref(reserve) : null },
    }
  }

  /**
   * LNS-9: mid-draw, the set in use is replaced by the draw's reserve set (a ball damaged, lost, unreadable). The
   * values drawn so far stand; the reserve now draws and the fit's next reserve on hand, if any, becomes the draw's
   * reserve (lotto asks for one before its next ball). Journaled with who, when, why and which set replaced which.
   */
  async function swapToReserve(
    tx: Sql,
    row: Draw,
    input: { reason: string; hallId: string | null; journalType: string; scope: string; needs: DrawSetNeeds },
    actor: Actor | null,
  ) {
    const reason = input.reason?.trim() ?? ''
    if (!reason)
      throw new DomainError('VALIDATION_FAILED', 'say why the set is replaced', {
        rule: 'LNS-9',
        problems: [{ field: 'reason', rule: 'LNS-9', message: 'the reason is required' }],
      })
    if (input.hallId) await assertActsInHall(tx, input.hallId, { resource: 'draw' })
    else assertOperatorWide('swapping the ball set of an operator draw')
    if (row.status !== 'closed' || !row.ballSetId)
      throw new DomainError('ILLEGAL_TRANSITION', 'only a draw being drawn by hand swaps its ball set')
    const replaced = (await ballSetById(tx, row.ballSetId))!
    const incoming = row.reserveSetId ? await ballSetById(tx, row.reserveSetId) : undefined
    const reserve =
      incoming && !incoming.retiredAt ? incoming : (await ballSetsOfFit(tx, input.needs.fit, replaced.id)).reserve
    if (!reserve)
      throw new DomainError(input.needs.code, `no reserve set of ${describeFit(input.needs.fit)} to swap in`, {
        rule: 'LNS-9',
        fit: input.needs.fit,
      })
    if (reserve.id === replaced.id || fitOf(reserve).kind !== input.needs.fit.kind)
      throw new DomainError('VALIDATION_FAILED', 'the reserve set does not fit this draw', { rule: 'LNS-9' })
    await unmarkReserveSet(tx, reserve.id)
    const next = (await ballSetsOfFit(tx, input.needs.fit, reserve.id)).reserve
    const nextReserve = next && next.id !== replaced.id ? next : null
    if (!(await swapDrawBallSet(tx, row.id, replaced.id, reserve.id, nextReserve?.id ?? null)))
      throw new DomainError('CONFLICT', 'the draw changed at the same time; try again')
    const at = now()
    const drawn = row.balls ? (JSON.parse(row.balls) as number[]) : []
    await appendJournal(tx, {
      at,
      type: input.journalType,
      scope: input.scope,
      payload: {
        drawId: row.id,
        replaced: ref(replaced),
        by: ref(reserve),
        reserveSet: nextReserve ? ref(nextReserve) : null,
        valuesDrawn: drawn.length,
        reason,
        actor,
        rule: 'LNS-9',
      },
    })
  }

  return {
    registerBallSet,
    markReserve,
    retire,
    listBallSets: (kind?: BallSetKind) => ballSets(db, kind),
    drawSets,
    swapToReserve,
  }
}
