/**
 * A hall's calling times (CFG-20, BNG-42 step 7, BNG-50, BNG-80): the least time between two balls, the least time the
 * "¿alguna línea/bingo más?" window stays open, and the least time a game suspended before its first ball waits before
 * its cards are refunded. The texts fix no number (profile.ts `callingTimes`): the hall records them, under its
 * authority's reference where the profile names one. Pure: checks a record and says how long is left to wait.
 */
import { DomainError } from '../shared/errors.ts'
import type { Profile } from '../shared/profile.ts'

export interface CallingTimes {
  /** Reference of the authority's approval (AJ resolution); null where the profile names no authority and none given. */
  authorisationRef: string | null
  /** BNG-42 step 7: seconds at least between two balls of a game ("ritmo adecuado"). */
  minBallIntervalSeconds: number
  /** BNG-50: seconds at least between the first verified claim and the order that closes the window. */
  claimWindowSeconds: number
  /** BNG-80: minutes at least a game stays suspended before it is refunded as unresolved. */
  suspensionMinutes: number
}

/** Checks a new record against the profile: the ranges, and the authority's reference where the profile asks it. */
export function checkCallingTimes(profile: Pick<Profile, 'callingTimes'>, input: CallingTimes): CallingTimes {
  const ref = input.authorisationRef?.trim() || null
  const authority = profile.callingTimes.authority
  if (authority && !ref)
    throw new DomainError(
      'REGULATOR_REF_REQUIRED',
      `the hall's calling times need the reference of ${authority.name}'s approval (${authority.rule})`,
      { rule: 'CFG-20', authority: authority.name, field: 'authorisationRef' },
    )
  const problems: string[] = []
  if (ref !== null && (ref.length < 3 || ref.length > 120)) problems.push('the reference has 3 to 120 characters')
  const within = (name: string, v: number, max: number) => {
    if (!Number.isInteger(v) || v < 0 || v > max) problems.push(`${name} must be a whole number 0..${max}`)
  }
  within('minBallIntervalSeconds', input.minBallIntervalSeconds, 120)
  within('claimWindowSeconds', input.claimWindowSeconds, 600)
  within('suspensionMinutes', input.suspensionMinutes, 240)
  if (problems.length)
    throw new DomainError('VALIDATION_FAILED', `invalid calling times: ${problems.join('; ')}`, {
      problems,
      rule: 'CFG-20',
    })
  return {
    authorisationRef: ref,
    minBallIntervalSeconds: input.minBallIntervalSeconds,
    claimWindowSeconds: input.claimWindowSeconds,
    suspensionMinutes: input.suspensionMinutes,
  }
}

/** Whole seconds still to wait from `since` until `minSeconds` have passed at `now` (0: no wait). */
export function secondsToWait(since: string | null | undefined, now: string, minSeconds: number): number {
  if (!since || minSeconds <= 0) return 0
  const left = Date.parse(since) + minSeconds * 1000 - Date.parse(now)
  return left > 0 ? Math.ceil(left / 1000) : 0
}
