/**
 * `GET /api/me` (issue 14 point 7): who is asking and what they may do, so a screen shows only the actions of the
 * role logged in. The permission list comes from the same table `needs()` checks (permissions.ts); a screen that
 * hides a button still gets a refusal from the server if it sends the request anyway.
 */
import { isAllowed, permissions, type Permission, type Role } from './permissions.ts'
import type { Principal } from './service.ts'
import { roleLabel } from './role-labels.ts'

export interface Me {
  kind: Principal['kind']
  /** The person's display name or the device's name; never shown as an id. */
  name: string
  role: string
  /** The role as people call it, in the request's language. */
  roleLabel: string
  /** The enrolled station this request comes through (the device itself, or the station a person logged in at). */
  station: { name: string; kind: string; hallId: string | null } | null
  /** Halls this principal acts in, by name: 'all' for a director of every hall; null when not known. */
  halls: Array<{ id: string; name: string }> | 'all' | null
  /**
   * The hall's clock every time on this principal's screens is shown in (issue 29 "one clock"): the zone of the
   * station's hall, else of the first hall they act in; null when no hall is known.
   */
  timeZone: string | null
  /** Whether the server checks permissions at all: with authentication off every action is open. */
  authOn: boolean
  permissions: Permission[]
}

/** Every permission `role` holds; with authentication off, all of them (needs() lets everything through then). */
export function permissionsOf(role: string, authOn: boolean): Permission[] {
  const all = Object.keys(permissions) as Permission[]
  return authOn ? all.filter((p) => isAllowed(p, role as Role)) : all
}

export function describePrincipal(
  who: Principal,
  authOn: boolean,
  lang: 'es' | 'en',
  hallNames: ReadonlyMap<string, string> = new Map(),
  hallZones: ReadonlyMap<string, string> = new Map(),
): Me {
  const station = who.device
    ? { name: who.device.name, kind: who.device.kind, hallId: who.device.hallId ?? null }
    : null
  // Issue 14 point 1: the halls a person or device acts in, named as the screens show them.
  const named = (ids: readonly string[]) => ids.map((id) => ({ id, name: hallNames.get(id) ?? id }))
  const halls =
    who.halls === '*'
      ? ('all' as const)
      : who.halls
        ? named(who.halls)
        : station?.hallId
          ? named([station.hallId])
          : null
  const zoneHall = station?.hallId ?? (Array.isArray(halls) ? halls[0]?.id : [...hallZones.keys()][0])
  return {
    kind: who.kind,
    name: who.kind === 'anonymous' ? roleLabel('public', lang) : who.name,
    role: who.role,
    roleLabel: roleLabel(who.role, lang),
    station,
    halls,
    timeZone: (zoneHall && hallZones.get(zoneHall)) || null,
    authOn,
    permissions: permissionsOf(who.role, authOn),
  }
}
