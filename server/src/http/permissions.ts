/**
 * Who may do what (BNG-94 to BNG-97). Every route names the roles it needs here. Enforcement (login,
 * enrolled devices) is switched on by BOLILLO_AUTH; until then the table documents and is tested.
 */
export const Role = {
  Director: 'director',
  FloorManager: 'floor_manager',
  Caller: 'caller',
  Cashier: 'cashier',
  Auditor: 'auditor',
  Kiosk: 'kiosk',
  Display: 'display',
  Public: 'public',
} as const
export type Role = (typeof Role)[keyof typeof Role]

const staff = [Role.Director, Role.FloorManager] as const
const table = [...staff, Role.Caller] as const

export const permissions = {
  'hall.read': [Role.Public],
  'hall.admin': [Role.Director],
  'session.open': staff,
  'session.close': staff,
  'game.announce': staff,
  'game.sales': table,
  'game.sell': [...table, Role.Cashier, Role.Kiosk],
  'game.draw': table,
  'game.claim': table,
  'game.window': staff,
  'game.incident': staff,
  'game.read': [Role.Public],
  'prize.pay': [...staff, Role.Cashier],
  'minutes.read': [...staff, Role.Auditor],
  'journal.read': [...staff, Role.Auditor],
} as const satisfies Record<string, readonly Role[]>
export type Permission = keyof typeof permissions
