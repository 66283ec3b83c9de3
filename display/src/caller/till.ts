/**
 * Issue 13: the table's cash. A sale at the table takes cash only through the open shift of the person logged in
 * at the console, and only when the console is an enrolled cashier station ("Mesa 1"). Pure: what the sales
 * panel shows follows from who is at the console and what GET /api/shifts/current answered.
 */
import type { TableTill } from '../../../web/api.ts'
import type { Me } from '../../../web/me.ts'
import { tillChannelOfRole } from '../../../server/src/access/roles.ts'

/**
 * - `free`: authentication off, nothing is proven and the table sells as before;
 * - `no-station`: the console is no enrolled cashier station, or nobody is logged in at it;
 * - `other`: the station's drawer is open in someone else's shift;
 * - `closed`: the person is at the station with no shift open;
 * - `open`: the person's own shift is open: the table sells.
 */
export type TillState = 'free' | 'no-station' | 'other' | 'closed' | 'open'

export function tillState(me: Me | null, till: TableTill | null): TillState {
  if (me && !me.authOn) return 'free'
  if (!me || me.kind !== 'person' || !till?.station || till.station.kind !== 'cashier_station' || !till.person)
    return 'no-station'
  if (!till.shift) return 'closed'
  return till.shift.cashier.id === till.person.id ? 'open' : 'other'
}

/** "12,50", "12.5" or "1 200" typed by a person, in centavos (NaN when it is not an amount). */
export function parseAmount(text: string): number {
  const t = text.trim().replace(/\s/g, '')
  if (!/^\d+([.,]\d{1,2})?$/.test(t)) return Number.NaN
  const [whole, frac = ''] = t.split(/[.,]/)
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'))
}

/**
 * CFG-7: whether this console sells at a cash desk: the channel the server records the sale on follows the role of
 * the person at the till (as http/station.ts decides), so a cashier at "Caja 1" sells on the counter channel and
 * the panel names the cash desk ("Venta en caja", "Abrir caja"), not a table's.
 */
export function sellsAtDesk(me: Me | null): boolean {
  return Boolean(me?.authOn && me.kind === 'person' && tillChannelOfRole(me.role) === 'counter')
}
