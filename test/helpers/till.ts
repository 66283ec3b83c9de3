/**
 * Issue 13 point 2 and 5: cash moves only at an enrolled cashier station, through the open shift of the person
 * logged in there. Tests that sell or pay at a counter use this: it enrols a station in the hall, logs the person in
 * at it (a login sent with the station's `Authorization: Device ...`) and opens their shift with a counted float.
 */
import type { Services } from '../../server/src/services.ts'
import { api } from './server.ts'
import { sealed } from './device-marks.ts'

export interface Till {
  station: { id: string; credential: string; name: string }
  /** The person's session at the station: every sale or payout with it moves this shift's cash. */
  token: string
  headers: Record<string, string>
  shiftId: string
  /** Logs in again at the same station (a session ends with the clock; the shift stays open). */
  relogin(): Promise<void>
}

export async function openTill(
  url: string,
  services: Services,
  input: { hallId: string; username: string; password: string; stationName?: string; floatCents?: number },
): Promise<Till> {
  const name = input.stationName ?? 'Mesa 1'
  const station = {
    ...(await services.auth.enrolDevice({ ...sealed(), kind: 'cashier_station', name, hallId: input.hallId })),
    name,
  }
  const till: Till = { station, token: '', headers: {}, shiftId: '', relogin }
  async function relogin() {
    const r = await api(
      url,
      'POST',
      '/api/auth/login',
      { username: input.username, password: input.password },
      { authorization: `Device ${station.credential}` },
    )
    if (r.status !== 200)
      throw new Error(`login of ${input.username} at ${name}: ${r.status} ${JSON.stringify(r.body)}`)
    till.token = r.body.token
    till.headers = { authorization: `Bearer ${till.token}`, 'accept-language': 'es' }
  }
  await relogin()
  const shift = await api(url, 'POST', '/api/shifts', { floatCents: input.floatCents ?? 0 }, till.headers)
  if (shift.status !== 201) throw new Error(`shift at ${name}: ${shift.status} ${JSON.stringify(shift.body)}`)
  till.shiftId = shift.body.shiftId ?? shift.body.id
  return till
}
