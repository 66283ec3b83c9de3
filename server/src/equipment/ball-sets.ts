/**
 * Ball sets of a hall (BNG-23 to BNG-27): the game counter of each set, its limit, the warning before it and the
 * block at it, the reserve set, journaled set changes and the recount at session start and end.
 *
 * When a game counts: at its first ball drawn from the physical set (a blower or manual game; a game switched to
 * manual after an RNG failure counts at its first manual ball). A game suspended and refunded before any ball
 * never touched the balls, so it does not wear the set; one that reached its first ball counts even if it is
 * later voided, because the balls were used.
 *
 * The limit of a set is the lowest of: the profile's `ballSetGameLimit` (BNG-24: 1,000 BO-2025, 3,000 Cantabria),
 * the operator's limit for the set, and the manufacturer's guaranteed number of games (BNG-26). Reaching
 * `warnPercent` of it journals a warning (and shows it); reaching it blocks every physical-ball game until the
 * set is changed for a reserve.
 *
 * BNG-24/25: every game drawn from physical balls (a manual drum or a blower) needs an active set with games left
 * and a reserve set in perfect condition (a reserve with games left); without them it is not announced and draws
 * no ball. There is no untracked mode: a hall that has not registered its sets plays no manual game.
 *
 * RNG games draw no physical ball, so they count no wear and need no set: the limits of BNG-24 and the reserve of
 * BNG-25 speak of physical sets (REGULATIONS.md design note under BNG-24). An RNG game switched to manual after a
 * failure (BNG-81) needs both at its first manual ball, like any manual game.
 */
import { DomainError } from '../shared/errors.ts'
import { isDemoReference } from '../shared/lottery-common.ts'
import { getProfile } from '../shared/profile.ts'
import type { Database, Sql } from '../db/database.ts'
import type { BingoHooks } from '../bingo/service.ts'
import type { Clock } from '../shared/clock.ts'
import { appendJournal } from '../shared/journal.ts'
import { hallBallCounts } from '../bingo/modalities.ts'
import {
  activateBallSet,
  activeBallSet,
  advanceBallSetCounter,
  ballSetById,
  ballSetsOfHall,
  countUsableReserves,
  gameDrawingFromBallSet,
  gameBallCount,
  hallProfileId,
  insertBallSet,
  layoutPlansOfHall,
  insertBallSetGame,
  isBallSetLabelTaken,
  isGameCounted,
  openSessionOfHall,
  retireBallSet,
  setBallSetStatus,
  type BallSetRow,
} from './store.ts'

export { BallSetStatus } from './kinds.ts'
import { BallSetStatus } from './kinds.ts'

export interface BallSet {
  id: string
  hallId: string
  label: string
  /** BNG-26: approval resolution number of the ball type. */
  approvalNo: string | null
  ballCount: number
  /** BNG-26: number of games the manufacturer guarantees. */
  guaranteedGames: number | null
  gameLimit: number
  warnPercent: number
  gamesPlayed: number
  status: BallSetStatus
  createdAt: string
  activatedAt: string | null
  retiredAt: string | null
  retiredReason: string | null
  /** Derived. */
  remaining: number
  warning: boolean
  exhausted: boolean
}

/** The game count at which the warning starts: `warnPercent` % of the limit, rounded up, at least 1. */
export function warningThreshold(gameLimit: number, warnPercent: number): number {
  return Math.max(1, Math.ceil((gameLimit * warnPercent) / 100))
}

/**
 * The limit a set may be given (BNG-24, BNG-26). Throws VALIDATION_FAILED for a requested limit above the
 * profile's or the manufacturer's number.
 */
export function effectiveGameLimit(
  profileLimit: number,
  requested: number | null | undefined,
  guaranteed: number | null | undefined,
): number {
  if (requested != null && (!Number.isInteger(requested) || requested < 1))
    throw new DomainError('VALIDATION_FAILED', 'gameLimit must be a positive integer', { field: 'gameLimit' })
  if (guaranteed != null && (!Number.isInteger(guaranteed) || guaranteed < 1))
    throw new DomainError('VALIDATION_FAILED', 'guaranteedGames must be a positive integer', {
      field: 'guaranteedGames',
    })
  if (requested != null && requested > profileLimit)
    throw new DomainError(
      'VALIDATION_FAILED',
      `a ball set is changed at most every ${profileLimit} games under this profile (BNG-24)`,
      { field: 'gameLimit', rule: 'BNG-24', max: profileLimit },
    )
  if (requested != null && guaranteed != null && requested > guaranteed)
    throw new DomainError('VALIDATION_FAILED', `the manufacturer guarantees ${guaranteed} games (BNG-26)`, {
      field: 'gameLimit',
      rule: 'BNG-26',
      max: guaranteed,
    })
  return Math.min(profileLimit, requested ?? profileLimit, guaranteed ?? profileLimit)
}

function toBallSet(r: BallSetRow): BallSet {
  const gameLimit = Number(r.game_limit)
  const gamesPlayed = Number(r.games_played)
  const warnPercent = Number(r.warn_percent)
  return {
    id: r.id,
    hallId: r.hall_id,
    label: r.label,
    approvalNo: r.approval_no,
    ballCount: Number(r.ball_count),
    guaranteedGames: r.guaranteed_games === null ? null : Number(r.guaranteed_games),
    gameLimit,
    warnPercent,
    gamesPlayed,
    status: r.status,
    createdAt: r.created_at,
    activatedAt: r.activated_at,
    retiredAt: r.retired_at,
    retiredReason: r.retired_reason,
    remaining: Math.max(0, gameLimit - gamesPlayed),
    warning: gamesPlayed >= warningThreshold(gameLimit, warnPercent),
    exhausted: gamesPlayed >= gameLimit,
  }
}

export function createBallSetService(deps: {
  db: Database
  clock: Clock
  newId: () => string
  /** Issue 24 point 4: a server without the demo (config.production) takes no DEMO approval number as one. */
  demoReferencesRefused: boolean
}) {
  const { db, clock } = deps
  const now = () => clock.now().toISOString()

  async function hallProfile(tx: Sql, hallId: string) {
    const hall = await hallProfileId(tx, hallId)
    if (!hall) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
    const profile = getProfile(hall.profile_id)
    if (!profile) throw new DomainError('VALIDATION_FAILED', `hall ${hallId} has unknown profile ${hall.profile_id}`)
    return profile
  }

  /** Ball-set records go into the open session's minutes when there is one (BNG-25), else to the hall. */
  async function scopeFor(tx: Sql, hallId: string): Promise<string> {
    const s = await openSessionOfHall(tx, hallId)
    return s ? `hall:${hallId}/session:${s.id}` : `hall:${hallId}`
  }

  async function active(tx: Sql, hallId: string): Promise<BallSet | null> {
    const r = await activeBallSet(tx, hallId)
    return r ? toBallSet(r) : null
  }
  async function load(tx: Sql, id: string): Promise<BallSet> {
    const r = await ballSetById(tx, id)
    if (!r) throw new DomainError('NOT_FOUND', `ball set ${id} not found`)
    return toBallSet(r)
  }

  /**
   * The active set for a game drawn from physical balls (manual or blower), or a refusal: BALL_SET_REQUIRED (no
   * active set), BALL_SET_EXHAUSTED (BNG-24: its limit reached), RESERVE_BALL_SET_REQUIRED (BNG-25: no reserve set
   * with games left). Never called for RNG games.
   */
  async function usableSet(tx: Sql, hallId: string, gameId: string): Promise<BallSet> {
    const set = await active(tx, hallId)
    if (!set) {
      throw new DomainError(
        'BALL_SET_REQUIRED',
        `hall ${hallId} has no active ball set: register one and a reserve before drawing balls (BNG-24, BNG-25)`,
        { hallId, rule: 'BNG-25' },
      )
    }
    // BNG-3/4, BNG-23: the drum holds the set of the game's layout (a 75-ball game is drawn from a 75-ball set).
    const ballCount = await gameBallCount(tx, gameId)
    if (ballCount !== undefined && ballCount !== set.ballCount) {
      throw new DomainError(
        'BALL_SET_REQUIRED',
        `the active ball set ${set.label} has ${set.ballCount} balls; this game is played with ${ballCount}: change sets first (BNG-23, BNG-25)`,
        { hallId, ballSetId: set.id, setBallCount: set.ballCount, ballCount, rule: 'BNG-23' },
      )
    }
    if (set.exhausted) {
      throw new DomainError(
        'BALL_SET_EXHAUSTED',
        `ball set ${set.label} has been used in ${set.gamesPlayed} of its ${set.gameLimit} games: change it for a reserve set (BNG-24)`,
        { ballSetId: set.id, gamesPlayed: set.gamesPlayed, gameLimit: set.gameLimit, rule: 'BNG-24' },
      )
    }
    // BNG-25: a complete reserve set in perfect condition is available at all times.
    if ((await countUsableReserves(tx, hallId, set.ballCount)) === 0) {
      throw new DomainError(
        'RESERVE_BALL_SET_REQUIRED',
        `hall ${hallId} has no reserve set of ${set.ballCount} balls with games left: register one before drawing balls (BNG-25)`,
        { hallId, ballSetId: set.id, ballCount: set.ballCount, rule: 'BNG-25' },
      )
    }
    // Issue 24 point 4 (BNG-26): on a server without the demo, a set whose approval number is the demo's is no
    // type-approved set (a database that once ran the demo, or a typed reference): no balls are drawn from it.
    if (deps.demoReferencesRefused && isDemoReference(set.approvalNo))
      throw new DomainError(
        'BALL_SET_REQUIRED',
        `the active ball set ${set.label} has the approval number "${set.approvalNo}", a demo one, which a server without the demo takes as none (BNG-26)`,
        { hallId, ballSetId: set.id, demo: ['approvalNo'], rule: 'BNG-26' },
      )
    return set
  }

  async function register(input: {
    hallId: string
    label: string
    approvalNo?: string | null
    ballCount?: number
    guaranteedGames?: number | null
    gameLimit?: number | null
    warnPercent?: number
    status?: 'active' | 'reserve'
  }): Promise<BallSet> {
    const label = input.label?.trim()
    if (!label || label.length > 40)
      throw new DomainError('VALIDATION_FAILED', 'label must be 1-40 characters', { field: 'label' })
    const warnPercent = input.warnPercent ?? 90
    if (!Number.isInteger(warnPercent) || warnPercent < 1 || warnPercent > 100)
      throw new DomainError('VALIDATION_FAILED', 'warnPercent must be 1..100', { field: 'warnPercent' })
    if (deps.demoReferencesRefused && isDemoReference(input.approvalNo))
      throw new DomainError(
        'DEMO_REFERENCE_REFUSED',
        `approvalNo "${input.approvalNo!.trim()}" is a demo reference: a server without the demo records only real ones (BNG-26)`,
        { field: 'approvalNo', rule: 'BNG-26' },
      )
    return db.transaction(async (tx) => {
      const profile = await hallProfile(tx, input.hallId)
      // BNG-26: type-approved balls, registered with the approval number and the manufacturer's guaranteed games.
      if (profile.ballSetTypeApproval) {
        const missing = [
          !input.approvalNo?.trim() && 'approvalNo',
          input.guaranteedGames == null && 'guaranteedGames',
        ].filter(Boolean) as string[]
        if (missing.length)
          throw new DomainError(
            'VALIDATION_FAILED',
            `under this profile a ball set is registered with its type-approval number and the games its manufacturer guarantees (BNG-26): missing ${missing.join(', ')}`,
            { field: missing[0], missing, rule: 'BNG-26' },
          )
      }
      // BNG-23 / CFG-11: a set has the balls of the profile's layout (90) or of a layout authorised for the hall (BNG-3/4).
      const ballCount = input.ballCount ?? profile.layout.ballCount
      const counts = hallBallCounts(profile, await layoutPlansOfHall(tx, input.hallId))
      if (!counts.includes(ballCount))
        throw new DomainError('VALIDATION_FAILED', `this hall plays with ${counts.join(' or ')} balls (BNG-23)`, {
          field: 'ballCount',
          allowed: counts,
          rule: 'BNG-23',
        })
      const gameLimit = effectiveGameLimit(profile.ballSetGameLimit, input.gameLimit, input.guaranteedGames)
      const hasActive = Boolean(await active(tx, input.hallId))
      const status = input.status ?? (hasActive ? BallSetStatus.Reserve : BallSetStatus.Active)
      if (status === BallSetStatus.Active && hasActive)
        throw new DomainError(
          'CONFLICT',
          'the hall already has an active ball set: register this one as reserve and change sets (BNG-25)',
          { rule: 'BNG-25' },
        )
      if (await isBallSetLabelTaken(tx, input.hallId, label))
        throw new DomainError('BALL_SET_REFERENCE_TAKEN', `ball set ${label} already exists in this hall`, {
          field: 'label',
        })
      const id = deps.newId()
      const at = now()
      await insertBallSet(tx, {
        id,
        hall_id: input.hallId,
        label,
        approval_no: input.approvalNo?.trim() || null,
        ball_count: ballCount,
        guaranteed_games: input.guaranteedGames ?? null,
        game_limit: gameLimit,
        warn_percent: warnPercent,
        status,
        created_at: at,
        activated_at: status === BallSetStatus.Active ? at : null,
      })
      const set = await load(tx, id)
      await appendJournal(tx, {
        at,
        type: 'ball_set.registered',
        scope: await scopeFor(tx, input.hallId),
        payload: { ballSet: set, profileLimit: profile.ballSetGameLimit, rule: 'BNG-24' },
      })
      return set
    })
  }

  /**
   * BNG-25: changes the active set for a reserve one, in the presence of `witnessedBy` (Bolivia: the Director del
   * Bingo); recorded in the minutes. The old set is retired, or goes back to reserve with `keepOldAsReserve` when it
   * still has games left. Refused while a game is being drawn from the physical set.
   */
  async function change(input: {
    hallId: string
    toSetId: string
    reason: string
    witnessedBy: string
    witnessRole?: string
    keepOldAsReserve?: boolean
  }): Promise<{ active: BallSet; previous: BallSet | null; reservesLeft: number }> {
    if (!input.witnessedBy?.trim())
      throw new DomainError('VALIDATION_FAILED', 'a ball-set change is witnessed (BNG-25): name the witness', {
        field: 'witnessedBy',
      })
    if (!input.reason?.trim())
      throw new DomainError('VALIDATION_FAILED', 'give the reason for the change', { field: 'reason' })
    return db.transaction(async (tx) => {
      const profile = await hallProfile(tx, input.hallId)
      // BNG-25 (Bolivia): the change is made in the presence of the Director del Bingo, who confirms it with their
      // own credential. `witnessRole` is the authenticated witness's role (absent only with authentication off).
      if (
        profile.ballSetChangeWitness === 'director' &&
        input.witnessRole !== undefined &&
        input.witnessRole !== 'director'
      ) {
        throw new DomainError(
          'SECOND_PERSON_REQUIRED',
          `a ball-set change is made in the presence of the Director del Bingo (BNG-25); ${input.witnessRole} may not witness it under this profile`,
          { field: 'secondPerson', rule: 'BNG-25', role: input.witnessRole },
        )
      }
      const inPlay = await gameDrawingFromBallSet(tx, input.hallId)
      if (inPlay)
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `game ${inPlay.id} is being drawn from the current set: change sets between games`,
          { gameId: inPlay.id },
        )
      const to = await load(tx, input.toSetId)
      if (to.hallId !== input.hallId)
        throw new DomainError('NOT_FOUND', `ball set ${input.toSetId} is not in hall ${input.hallId}`)
      if (to.status !== BallSetStatus.Reserve)
        throw new DomainError('ILLEGAL_TRANSITION', `ball set ${to.label} is ${to.status}, not in reserve`)
      if (to.exhausted)
        throw new DomainError('BALL_SET_EXHAUSTED', `ball set ${to.label} has no games left`, { ballSetId: to.id })
      const previous = await active(tx, input.hallId)
      const at = now()
      if (previous) {
        const back = input.keepOldAsReserve && !previous.exhausted
        await setBallSetStatus(
          tx,
          previous.id,
          back ? 'reserve' : 'retired',
          back ? null : at,
          back ? null : input.reason.trim().slice(0, 500),
        )
      }
      await activateBallSet(tx, to.id, at)
      const left = await countUsableReserves(tx, input.hallId)
      const fresh = await load(tx, to.id)
      await appendJournal(tx, {
        at,
        type: 'ball_set.changed',
        scope: await scopeFor(tx, input.hallId),
        payload: {
          hallId: input.hallId,
          from: previous
            ? {
                id: previous.id,
                label: previous.label,
                gamesPlayed: previous.gamesPlayed,
                gameLimit: previous.gameLimit,
                to: input.keepOldAsReserve && !previous.exhausted ? 'reserve' : 'retired',
              }
            : null,
          to: { id: fresh.id, label: fresh.label, gamesPlayed: fresh.gamesPlayed, gameLimit: fresh.gameLimit },
          reason: input.reason.trim().slice(0, 500),
          witnessedBy: input.witnessedBy.trim().slice(0, 120),
          witnessRole: input.witnessRole ?? null,
          reservesLeft: left,
          rule: 'BNG-25',
        },
      })
      return { active: fresh, previous: previous ? await load(tx, previous.id) : null, reservesLeft: left }
    })
  }

  /** Takes a set out of use for good (a ball found damaged, BNG-24). The active set is replaced with `change`. */
  async function retire(input: { setId: string; reason: string; by: string }): Promise<BallSet> {
    return db.transaction(async (tx) => {
      const set = await load(tx, input.setId)
      if (set.status !== BallSetStatus.Reserve)
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `only a reserve set is retired directly; change the active set for a reserve first (it is ${set.status})`,
        )
      const at = now()
      await retireBallSet(tx, set.id, at, input.reason.trim().slice(0, 500))
      await appendJournal(tx, {
        at,
        type: 'ball_set.retired',
        scope: await scopeFor(tx, set.hallId),
        payload: {
          ballSetId: set.id,
          label: set.label,
          gamesPlayed: set.gamesPlayed,
          reason: input.reason,
          by: input.by,
        },
      })
      return load(tx, set.id)
    })
  }

  async function list(
    hallId: string,
  ): Promise<{ sets: BallSet[]; active: BallSet | null; reservesLeft: number; warnings: string[] }> {
    const sets = (await ballSetsOfHall(db, hallId)).map(toBallSet)
    const current = sets.find((s) => s.status === BallSetStatus.Active) ?? null
    const left = sets.filter((s) => s.status === BallSetStatus.Reserve && !s.exhausted).length
    const warnings: string[] = []
    if (current?.exhausted) warnings.push('active-set-exhausted')
    else if (current?.warning) warnings.push('active-set-near-limit')
    if (sets.length > 0 && !current) warnings.push('no-active-set')
    if (sets.length > 0 && left === 0) warnings.push('no-reserve-set')
    return { sets, active: current, reservesLeft: left, warnings }
  }

  const bingoHooks: BingoHooks = {
    async sessionOpened(tx, e) {
      const set = await active(tx, e.hallId)
      if (!set) return
      if (e.recount.ballsCounted !== set.ballCount)
        throw new DomainError(
          'VALIDATION_FAILED',
          `ball set ${set.label} has ${set.ballCount} balls; the recount found ${e.recount.ballsCounted} (BNG-27)`,
          { rule: 'BNG-27' },
        )
      await appendJournal(tx, {
        at: e.at,
        type: 'ball_set.recount',
        scope: e.scope,
        payload: {
          phase: 'start',
          sessionId: e.sessionId,
          ballSetId: set.id,
          label: set.label,
          ballCount: set.ballCount,
          ...e.recount,
          gamesPlayed: set.gamesPlayed,
          gameLimit: set.gameLimit,
          reservesLeft: await countUsableReserves(tx, e.hallId),
          rule: 'BNG-27',
        },
      })
    },
    async sessionClosing(tx, e) {
      const set = await active(tx, e.hallId)
      if (!set || !e.recount) return
      if (e.recount.ballsCounted !== set.ballCount)
        throw new DomainError(
          'VALIDATION_FAILED',
          `ball set ${set.label} has ${set.ballCount} balls; the recount found ${e.recount.ballsCounted} (BNG-27)`,
          { rule: 'BNG-27' },
        )
      await appendJournal(tx, {
        at: e.at,
        type: 'ball_set.recount',
        scope: e.scope,
        payload: {
          phase: 'end',
          sessionId: e.sessionId,
          ballSetId: set.id,
          label: set.label,
          ballCount: set.ballCount,
          ...e.recount,
          gamesPlayed: set.gamesPlayed,
          gameLimit: set.gameLimit,
          rule: 'BNG-27',
        },
      })
    },
    async gameAnnounced(tx, e) {
      // Refuse early: a physical-ball game could not reach its first ball with this set. RNG games use no balls.
      if (e.drawSource !== 'rng') await usableSet(tx, e.hallId, e.gameId)
    },
    async ballRecording(tx, e) {
      // An RNG ball comes from the committed order, not from a set: it counts no wear (see the header).
      if (e.source === 'rng') return
      if (await isGameCounted(tx, e.gameId)) return
      const set = await usableSet(tx, e.hallId, e.gameId)
      const gameNo = set.gamesPlayed + 1
      if (!(await advanceBallSetCounter(tx, set.id, set.gamesPlayed, gameNo)))
        throw new DomainError('CONFLICT', `ball set ${set.label} counter moved`)
      await insertBallSetGame(tx, { gameId: e.gameId, ballSetId: set.id, gameNo, countedAt: e.at })
      const sessionScope = `hall:${e.hallId}/session:${e.sessionId}`
      await appendJournal(tx, {
        at: e.at,
        type: 'ball_set.game_counted',
        scope: e.scope,
        payload: {
          gameId: e.gameId,
          ballSetId: set.id,
          label: set.label,
          gameNo,
          gameLimit: set.gameLimit,
          rule: 'BNG-24',
        },
      })
      const threshold = warningThreshold(set.gameLimit, set.warnPercent)
      if (gameNo === set.gameLimit) {
        await appendJournal(tx, {
          at: e.at,
          type: 'ball_set.limit_reached',
          scope: sessionScope,
          payload: {
            ballSetId: set.id,
            label: set.label,
            gamesPlayed: gameNo,
            gameLimit: set.gameLimit,
            reservesLeft: await countUsableReserves(tx, e.hallId),
            rule: 'BNG-24',
          },
        })
      } else if (gameNo === threshold) {
        await appendJournal(tx, {
          at: e.at,
          type: 'ball_set.limit_warning',
          scope: sessionScope,
          payload: {
            ballSetId: set.id,
            label: set.label,
            gamesPlayed: gameNo,
            gameLimit: set.gameLimit,
            warnPercent: set.warnPercent,
            reservesLeft: await countUsableReserves(tx, e.hallId),
            rule: 'BNG-24',
          },
        })
      }
    },
  }

  return {
    register,
    change,
    retire,
    list,
    get: (id: string) => load(db, id),
    active: (hallId: string) => active(db, hallId),
    bingoHooks,
  }
}

export type BallSetService = ReturnType<typeof createBallSetService>
