/**
 * Issue 14 point 1: people and devices act only within their own halls (DESIGN.md "Money and people"). Rather
 * than every use case taking the principal, the permission gate (http/context.ts `needs`) asks this guard, which
 * finds every resource a request names (path parameters, and the JSON body's ids and signed codes), resolves each
 * to its halls with one store function per kind of resource, and refuses with WRONG_HALL when the principal holds
 * none of them. Lotto draws, numbered lotteries and instant games belong to the operator, not to a hall. The use
 * cases that move money check again from what they resolve (acting-hall.ts, issue 23 point 3): this guard only
 * sees what a request names.
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { parseTicketCode } from '../shared/ticket-code.ts'
import { holdsHall, type Principal } from './service.ts'
import {
  hallsOfAmlReport,
  hallsOfBallSet,
  hallsOfCard,
  hallsOfDevice,
  hallsOfGame,
  hallsOfPayout,
  hallsOfPerson,
  hallsOfPot,
  hallsOfPrize,
  hallsOfSeries,
  hallsOfSession,
  hallsOfShift,
  hallsOfStation,
  hallsOfVoucher,
} from './store.ts'

type Resolver = (db: Sql, id: string) => Promise<'*' | string[]>

/** Path parameters and body fields that name a hall's resource, and how to find its halls. */
const RESOLVERS: Record<string, Resolver> = {
  hallId: async (_db, id) => [id],
  gameId: hallsOfGame,
  sessionId: hallsOfSession,
  seriesId: hallsOfSeries,
  seriesIds: hallsOfSeries,
  prizeId: hallsOfPrize,
  payoutId: hallsOfPayout,
  reportId: hallsOfAmlReport,
  setId: hallsOfBallSet,
  potId: hallsOfPot,
  deviceId: hallsOfDevice,
  stationId: hallsOfStation,
  userId: hallsOfPerson,
  shiftId: hallsOfShift,
}

/** A signed code's resource: bingo cards (C) and credit vouchers (V) belong to a hall. */
async function hallsOfCode(db: Sql, code: string): Promise<string[]> {
  let parsed: ReturnType<typeof parseTicketCode>
  try {
    // Trimmed as every use case trims it (issue 23 point 3): " BLL1.C..." used to name no hall here and be paid there.
    parsed = parseTicketCode(code.trim())
  } catch {
    return [] // not a signed code of ours: the use case refuses it
  }
  if (parsed.kind === 'C') return hallsOfCard(db, parsed.id)
  if (parsed.kind === 'V') return hallsOfVoucher(db, parsed.id)
  return []
}

/** The ids a request names: its path parameters and the known fields of its JSON body. */
export function namedResources(params: Record<string, string>, body: unknown): Array<{ key: string; id: string }> {
  const out: Array<{ key: string; id: string }> = []
  for (const [key, id] of Object.entries(params)) if (RESOLVERS[key] && id) out.push({ key, id })
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      const ids =
        typeof value === 'string'
          ? [value]
          : Array.isArray(value)
            ? value.filter((v): v is string => typeof v === 'string')
            : []
      if (RESOLVERS[key] || key === 'code' || key === 'voucherCode' || key === 'inventoryCode')
        for (const id of ids.slice(0, 10)) out.push({ key, id: id.slice(0, 400) })
    }
  }
  return out
}

/** Refuses with WRONG_HALL when the request names something of a hall the principal does not hold. */
export async function assertSameHall(
  db: Sql,
  who: Principal,
  resources: Array<{ key: string; id: string }>,
): Promise<void> {
  if (who.halls === '*' && !whoDeviceHall(who)) return
  for (const { key, id } of resources) {
    const halls = RESOLVERS[key] ? await RESOLVERS[key](db, id) : await hallsOfCode(db, id)
    if (halls === '*') {
      if (who.halls !== '*')
        throw new DomainError(
          'WRONG_HALL',
          `${key} ${id} works in every hall; only someone of every hall may act on it`,
          { resource: key },
        )
      continue
    }
    // Unknown resources are the use case's to refuse (404); a resource of several halls needs one of them.
    if (halls.length && !halls.some((h) => holdsHall(who, h) && deviceAllows(who, h))) {
      throw new DomainError('WRONG_HALL', `${key} ${id} belongs to hall ${halls.join(', ')}`, { resource: key })
    }
  }
}

/** A person working at an enrolled station acts in that station's hall only. */
function whoDeviceHall(who: Principal): string | null {
  return (who as Principal & { device?: { hallId: string | null } }).device?.hallId ?? null
}
function deviceAllows(who: Principal, hallId: string): boolean {
  const h = whoDeviceHall(who)
  return !h || h === hallId
}

/**
 * Issue 23 point 3, "the hall of a request is the hall of the entities it resolves": the hall a request acts in, for
 * the permission gate's checks that record under a hall (an excluded player's refusal, GEN-23 / GEN-27). The enrolled
 * device it comes from (a station, a kiosk); else the one hall of the resources it names and the guard resolved (a
 * game, a card's or voucher's code, a station, the route's own hall); else the principal's only hall. Never a
 * `hallId` of the body: that is what the request says, not what it touches. Null when none of these names one hall.
 */
export async function hallOfRequest(
  db: Sql,
  who: Principal,
  params: Record<string, string>,
  body: unknown,
): Promise<string | null> {
  const device = whoDeviceHall(who)
  if (device) return device
  const { hallId: _said, ...rest } =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
  const halls = new Set<string>()
  for (const { key, id } of namedResources(params, rest)) {
    const of = RESOLVERS[key] ? await RESOLVERS[key](db, id) : await hallsOfCode(db, id)
    if (of !== '*') for (const h of of) halls.add(h)
  }
  if (halls.size === 1) return [...halls][0]
  if (halls.size === 0 && who.halls !== '*' && who.halls?.length === 1) return who.halls[0]
  return null
}
