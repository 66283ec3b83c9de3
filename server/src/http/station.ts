/**
 * Issue 13: which station's drawer takes the cash of a counter sale, and who sold. The station is the enrolled
 * device the request proves (a cashier station's own credential, or the station a person logged in at:
 * `principalOf(c).device`), never a name from the body. A kiosk has no drawer: it sells only against a voucher.
 */
import { DomainError } from '../shared/errors.ts'
import { principalOf, type AppContext } from './context.ts'

export function counterStation(c: AppContext, claimed?: string): { stationId: string; soldBy: string } {
  const who = principalOf(c)
  const kioskOnly = () => new DomainError('KIOSK_VOUCHER_ONLY', 'a kiosk sells only against a credit voucher (POST /api/kiosk/purchases)', { rule: 'GEN-14' })
  if (who.kind === 'device') {
    if (who.role === 'kiosk') throw kioskOnly()
    return { stationId: who.id, soldBy: who.id }
  }
  // A person whose session was opened at an enrolled station carries it as `device`.
  const device = who.device
  if (who.kind === 'person' && device) {
    if (device.kind === 'kiosk') throw kioskOnly()
    return { stationId: device.id, soldBy: who.id }
  }
  // Authentication off (tests that say why): nothing is proven, the body names the drawer.
  if (!c.get('authOn')) return { stationId: claimed ?? 'counter', soldBy: who.id }
  throw new DomainError('STATION_REQUIRED', 'a counter sale takes cash into a station\'s drawer: log in at an enrolled station', { role: who.role })
}

/** The kiosk making a voucher purchase: the enrolled kiosk itself (with authentication off, the body's name). */
export function kioskStation(c: AppContext, claimed: string): string {
  const who = principalOf(c)
  if (who.kind === 'device') return who.id
  if (who.device) return who.device.id
  return claimed
}
