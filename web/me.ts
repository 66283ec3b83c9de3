/**
 * Who is using this screen and what their role may do (`GET /api/me`, issue 14 point 7). Screens show an action
 * only when `can` says so; the server still refuses anything the role may not do.
 */
import type { Me } from '../server/src/access/me.ts'
import type { Permission } from '../server/src/access/permissions.ts'
import type { ApiRequest } from './http.ts'

export type { Me, Permission }

export function fetchMe(request: ApiRequest): Promise<Me> {
  return request<Me>('GET', '/api/me')
}

/** Whether the principal holds `permission` (false until /api/me has answered: nothing is offered before). */
export function can(me: Me | null, permission: Permission): boolean {
  return me !== null && me.permissions.includes(permission)
}

/** The line a screen's header shows: "Pedro Flores · Locutor · Mesa 1" (names, never ids or role codes). */
export function whoLine(me: Me): string {
  return [me.name, me.roleLabel, me.station && me.station.name !== me.name ? me.station.name : null]
    .filter(Boolean)
    .join(' · ')
}
