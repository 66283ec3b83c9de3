/**
 * Who may do what (BNG-94 to BNG-97, issue 9). Every HTTP route and socket event names one permission; this
 * table says which roles hold it. People: director, floor manager (jefe de mesa), caller, cashier, auditor.
 * Enrolled devices: kiosk, cashier station, display (read only). `public` means anyone, even unauthenticated.
 */
export const Role = {
  Director: 'director',
  FloorManager: 'floor_manager',
  Caller: 'caller',
  Cashier: 'cashier',
  Auditor: 'auditor',
  Kiosk: 'kiosk',
  CashierStation: 'cashier_station',
  Display: 'display',
  Public: 'public',
} as const
export type Role = (typeof Role)[keyof typeof Role]

export const ALL_ROLES: readonly Role[] = Object.values(Role)

const staff = [Role.Director, Role.FloorManager] as const
const table = [...staff, Role.Caller] as const
const cash = [Role.Cashier, Role.CashierStation] as const

export const permissions = {
  /** Hall list, game state, proofs, public keys: what the hall display and any player may see. */
  'hall.read': [Role.Public],
  'game.read': [Role.Public],
  'hall.admin': [Role.Director],
  'users.admin': [Role.Director],
  'session.open': staff,
  'session.close': staff,
  'game.announce': staff,
  'game.sales': table,
  'game.sell': [...table, ...cash, Role.Kiosk],
  'game.draw': table,
  'game.claim': table,
  'game.window': staff,
  'game.incident': staff,
  /** Issue 15 point 4: the second person who confirms an annulment (checked on that person, not the caller). */
  'game.annul.confirm': staff,
  'prize.pay': [...staff, ...cash],
  'ticket.validate': [...staff, ...cash, Role.Kiosk, Role.Auditor],
  'ticket.pay': [...staff, ...cash],
  'voucher.sell': [...staff, ...cash],
  'voucher.redeem': [Role.Kiosk, ...cash, ...staff],
  /** §8 lost/stolen reports (LST-4, LST-5). */
  'ticket.block': [...staff, ...cash],
  /** GEN-17 records: the responsible officer (director) and auditors; never the cashier who served the player. */
  'aml.review': [Role.Director, Role.Auditor],
  'device.admin': [Role.Director],
  'minutes.read': [...staff, Role.Auditor],
  'journal.read': [...staff, Role.Auditor],
  'report.read': [...staff, Role.Auditor, ...cash],
  'lottery.admin': [Role.Director],
  /** INS-3: opening an instant batch's sealed seed for an audit. Not the director who runs the sale. */
  'instant.audit': [Role.Auditor],
  'lottery.sell': [Role.Kiosk, ...cash, ...staff],
  'lottery.draw': staff,
} as const satisfies Record<string, readonly Role[]>
export type Permission = keyof typeof permissions

/** Socket events (client -> server). All are reads: a display can only watch. */
export const socketPermissions = {
  'game:watch': 'game.read',
  'hall:watch': 'hall.read',
} as const satisfies Record<string, Permission>

export function isAllowed(permission: Permission, role: Role): boolean {
  const roles = permissions[permission] as readonly Role[]
  return roles.includes(Role.Public) || roles.includes(role)
}
