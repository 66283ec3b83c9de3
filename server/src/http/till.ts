/**
 * Where a request's cash moves (issue 13 point 5), worked out in one place for every route that takes or pays
 * cash: with authentication on, the station is the enrolled device the person logged in at (`principal.device`)
 * and the person is the logged-in one; names and stations in a body are ignored. With authentication off (older
 * tests only) the body's station and cashier are taken as before, with no shift.
 */
import { principalOf, type AppContext } from './context.ts'
import type { Principal } from '../access/service.ts'
import { DomainError } from '../shared/errors.ts'
import type { Services } from '../services.ts'
import type { StationPerson, Till } from '../cashdesk/shifts.ts'

/** The enrolled device a request comes from (the station), when the principal carries one. */
export type WithDevice = Principal & { device?: { id: string; name: string; kind: string; hallId: string | null } }

/** The station and the person at it; STATION_REQUIRED unless a person is logged in at an enrolled station. */
export function stationPersonOf(c: AppContext): StationPerson {
  const who: WithDevice = principalOf(c)
  if (who.kind !== 'person' || !who.device) {
    throw new DomainError(
      'STATION_REQUIRED',
      who.kind === 'device'
        ? 'a station alone moves no cash: a person logs in at it and opens a shift'
        : 'cash moves only at an enrolled cashier station: log in at the station',
      { principal: who.kind },
    )
  }
  return { station: who.device, person: { id: who.id, name: who.name, role: String(who.role), halls: who.halls } }
}

/**
 * Where a request's cash moves. Authentication on: the person's open shift at the station (STATION_REQUIRED,
 * SHIFT_NOT_OPEN otherwise). Off: the claimed station and cashier, no shift.
 */
export async function tillOf(
  c: AppContext,
  services: Services,
  claimed: { stationId?: string; cashierId?: string },
): Promise<Till> {
  if (c.get('authOn')) return services.cashdesk.shifts.till(stationPersonOf(c))
  if (!claimed.stationId) throw new DomainError('VALIDATION_FAILED', 'stationId is required', { field: 'stationId' })
  return { stationId: claimed.stationId, cashierId: claimed.cashierId ?? claimed.stationId, shiftId: null }
}

/** The authenticated actor for a journal record (never a name from the body). */
export function refundActor(c: AppContext): { kind: string; id: string; name: string; role: string } {
  const who = principalOf(c)
  return { kind: who.kind, id: who.id, name: who.name, role: String(who.role) }
}
