/**
 * Issue 23 point 3: the hall check of a use case that moves money, decided from what the use case resolved (the
 * voucher's hall, the card's game's hall) against where the money moves (the station's or kiosk's enrolment) and
 * who acts (the request's authenticated principal, request-context.ts), never against a field of the body. The
 * permission gate's guard (access/halls.ts) looks at what a request names; this looks at what it touches, so a
 * request the guard cannot read (a short code, a body shape it does not know) is still refused.
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { currentScope } from '../shared/request-context.ts'
import { hallsOfStation } from './store.ts'

/**
 * Refuses with WRONG_HALL unless `hallId` (the hall of the thing the use case touches) is the hall of the station
 * where it happens (when that station is enrolled in a hall) and a hall the acting principal holds (and, at an
 * enrolled device, that device's hall). Outside an authenticated request (authentication off, the command line)
 * only the station is compared.
 */
export async function assertActsInHall(
  sql: Sql,
  hallId: string,
  at: { stationId?: string | null; resource: string },
): Promise<void> {
  const stationHalls = at.stationId ? await hallsOfStation(sql, at.stationId) : []
  assertActsInHallOf(hallId, { ...at, stationHalls })
}

/**
 * {@link assertActsInHall} with the station's hall already read in the caller's transaction (`stationHalls`: the
 * halls of the enrolled device `stationId`, none when it is no enrolled device or of no hall), for a sale that reads
 * its kiosk's row once for every check it takes part in (issue 23 point 5).
 */
export function assertActsInHallOf(
  hallId: string,
  at: { stationId?: string | null; stationHalls: readonly string[]; resource: string },
): void {
  const refuse = (why: string, extra: Record<string, unknown> = {}) =>
    new DomainError('WRONG_HALL', `${at.resource} of hall ${hallId}: ${why}`, {
      resource: at.resource,
      hallId,
      ...extra,
    })
  const stationHalls = at.stationHalls
  if (stationHalls.length && !stationHalls.includes(hallId))
    throw refuse(`station ${at.stationId} is of hall ${stationHalls.join(', ')}`, { stationHall: stationHalls[0] })
  const scope = currentScope()
  if (!scope) return
  if (scope.halls !== '*' && !scope.halls.includes(hallId))
    throw refuse('the acting person or device does not work in that hall')
  if (scope.deviceHall && scope.deviceHall !== hallId)
    throw refuse(`the request comes from a device of hall ${scope.deviceHall}`, { stationHall: scope.deviceHall })
}

/**
 * The read-side twin: a report of something that belongs to a hall (a shift, its PDF) is for those who hold that
 * hall, decided from the thing read, whatever the request's query says. Outside an authenticated request it passes.
 */
export function assertReadsHall(hallId: string, resource: string): void {
  const scope = currentScope()
  if (!scope || scope.halls === '*' || scope.halls.includes(hallId)) return
  throw new DomainError('WRONG_HALL', `${resource} of hall ${hallId}: the reader does not work in that hall`, {
    resource,
    hallId,
  })
}

/**
 * Issue 23 point 3 for a hall's configuration (its rules, a game's limits, its equipment): the acting principal
 * holds the hall of the thing changed, as stored. `null` is the operator's (a device of no hall, a certified build):
 * only someone of every hall changes it. A person at an enrolled station acts in that station's hall only. Outside
 * an authenticated request (authentication off, the command line) it passes.
 */
export function assertHoldsHall(hallId: string | null, resource: string): void {
  const scope = currentScope()
  if (!scope) return
  if (hallId === null) {
    if (scope.halls === '*' && !scope.deviceHall) return
    throw new DomainError('WRONG_HALL', `${resource} is the operator's: only someone of every hall changes it`, {
      resource,
    })
  }
  // A hall's thing: the money path's check, with no station of its own to compare.
  assertActsInHallOf(hallId, { stationHalls: [], resource })
}
