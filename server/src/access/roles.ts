/** The roles a person holds and the kinds of enrolled device: shared by the access use cases and their store. */
export const PersonRole = {
  Director: 'director',
  FloorManager: 'floor_manager',
  Caller: 'caller',
  Cashier: 'cashier',
  Auditor: 'auditor',
  // Issue 14 point 3 (BNG-94, BNG-96, GEN-9): jefe de sala, jefe de mesa-cajero, AML officer, lottery operator, inspector.
  HallManager: 'hall_manager',
  TableCashier: 'table_cashier',
  AmlOfficer: 'aml_officer',
  LotteryOperator: 'lottery_operator',
  Inspector: 'inspector',
  // Issue 28: the regulator's account, reading the signed control feed.
  Regulator: 'regulator',
} as const
export type PersonRole = (typeof PersonRole)[keyof typeof PersonRole]
/** Issue 27: `terminal`, an electronic bingo terminal at a seat of the hall (BNG-101): plays virtual cards, holds no money. */
export const DeviceKind = {
  Kiosk: 'kiosk',
  CashierStation: 'cashier_station',
  Display: 'display',
  Terminal: 'terminal',
} as const
export type DeviceKind = (typeof DeviceKind)[keyof typeof DeviceKind]

const TABLE_ROLES = [
  PersonRole.Director,
  PersonRole.HallManager,
  PersonRole.FloorManager,
  PersonRole.TableCashier,
  PersonRole.Caller,
] as const

/**
 * CFG-7: the channel a card sale at a till goes through, from the role of the person selling (never the request):
 * the table's staff (director, jefe de sala, jefe de mesa, jefe de mesa-cajero, locutor) sell at the caller's table,
 * anyone else (a cashier, a station's own credential) at the counter. The server records it; the caller console
 * heads its sale panel with it.
 */
export function tillChannelOfRole(role: string): 'counter' | 'table' {
  return (TABLE_ROLES as readonly string[]).includes(role) ? 'table' : 'counter'
}
