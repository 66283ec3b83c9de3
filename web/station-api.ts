/**
 * The calls of a person at an enrolled station, the same at the caller's table and at the cashier (issue 13): a
 * login bound to the station, logout, and the station's open shift (its till). Both screens' clients take them from
 * here, so the two stay one path to the server.
 */
import type { ShiftReport } from '../server/src/cashdesk/shift-guard.ts'
import { createRequest, type ApiRequest, type RequestOptions } from './http.ts'

export type { ShiftReport }

export interface LoginResult {
  token: string
  expiresAt: string
  user: { id: string; role: string; displayName: string }
}

/** The enrolled station this screen is, the person at it and the open shift (GET /api/shifts/current). */
export interface TableTill {
  station: { id: string; name: string; kind: string; hallId: string | null; timeZone?: string | null } | null
  person: { id: string; name: string; role: string } | null
  shift: {
    shiftId: string
    status: 'open' | 'closed'
    currency: string
    cashier: { id: string; name: string }
    openedAt: string
    floatCents: number
    expectedCents: number
  } | null
}

/**
 * `request` sends the person's token (or the station's credential while nobody is logged in); a login goes out with
 * the station's credential only, never an old token: the session is bound to the station.
 */
export function stationCalls(request: ApiRequest, options: RequestOptions) {
  const asDevice = createRequest({ lang: options.lang, base: options.base, device: options.device })
  return {
    login: (username: string, password: string) =>
      asDevice<LoginResult>('POST', '/api/auth/login', { username, password }),
    logout: () => request<{ ok: true }>('POST', '/api/auth/logout'),
    currentShift: () => request<TableTill>('GET', '/api/shifts/current'),
    openShift: (floatCents: number) => request<unknown>('POST', '/api/shifts', { floatCents }),
    /** The closed shift's report: the difference is counted minus expected, to the centavo. */
    closeShift: (countedCents: number, note?: string) =>
      request<ShiftReport>('POST', '/api/shifts/current/close', note ? { countedCents, note } : { countedCents }),
  }
}
