import { describe, expect, it } from 'vitest'
import type { TableTill } from '../../../web/api.ts'
import type { Me } from '../../../web/me.ts'
import { parseAmount, sellsAtDesk, tillState } from './till.ts'

const person: Me = {
  kind: 'person',
  name: 'Pedro Flores',
  role: 'caller',
  roleLabel: 'Locutor',
  station: { name: 'Mesa 1', kind: 'cashier_station', hallId: 'h' },
  halls: null,
  timeZone: 'America/La_Paz',
  authOn: true,
  permissions: ['game.sell', 'shift.open', 'shift.current'],
}
const station = { id: 'dev_1', name: 'Mesa 1', kind: 'cashier_station', hallId: 'h' }
const pedro = { id: 'u_pedro', name: 'Pedro Flores', role: 'caller' }
const shiftOf = (id: string, name: string): NonNullable<TableTill['shift']> => ({
  shiftId: 'sh_1',
  status: 'open',
  currency: 'BOB',
  cashier: { id, name },
  openedAt: '2025-01-01T10:00:00Z',
  floatCents: 0,
  expectedCents: 0,
})

describe('the table till (issue 13)', () => {
  it('sells freely only with authentication off', () => {
    expect(tillState({ ...person, authOn: false, kind: 'anonymous' }, null)).toBe('free')
  })
  it('has no station when the console is not an enrolled cashier station or nobody is logged in at it', () => {
    expect(tillState(null, null)).toBe('no-station')
    expect(tillState(person, { station: null, person: null, shift: null })).toBe('no-station')
    expect(tillState(person, null)).toBe('no-station')
    expect(tillState({ ...person, kind: 'device' }, { station, person: null, shift: null })).toBe('no-station')
    expect(tillState(person, { station: { ...station, kind: 'kiosk' }, person: pedro, shift: null })).toBe('no-station')
  })
  it("is closed at the station until the person opens a shift, open in his own, refused in another's", () => {
    expect(tillState(person, { station, person: pedro, shift: null })).toBe('closed')
    expect(tillState(person, { station, person: pedro, shift: shiftOf('u_pedro', 'Pedro Flores') })).toBe('open')
    expect(tillState(person, { station, person: pedro, shift: shiftOf('u_rosa', 'Rosa Vargas') })).toBe('other')
  })
  it('reads an amount typed with a comma or a point, in centavos', () => {
    expect(parseAmount('100')).toBe(10_000)
    expect(parseAmount('12,5')).toBe(1_250)
    expect(parseAmount(' 3.05 ')).toBe(305)
    expect(parseAmount('1 200')).toBe(120_000)
    expect(parseAmount('1,234')).toBeNaN()
    expect(parseAmount('')).toBeNaN()
    expect(parseAmount('-5')).toBeNaN()
  })
})

describe('CFG-7: the sale panel names the station the server records the sale at', () => {
  it('a cashier at a cash desk sells at the desk; the table staff at the table; nothing proven, the table', () => {
    expect(sellsAtDesk({ ...person, role: 'cashier', station: { ...person.station!, name: 'Caja 1' } })).toBe(true)
    for (const role of ['caller', 'floor_manager', 'table_cashier', 'hall_manager', 'director'])
      expect(sellsAtDesk({ ...person, role })).toBe(false)
    expect(sellsAtDesk({ ...person, role: 'cashier', authOn: false })).toBe(false)
    expect(sellsAtDesk(null)).toBe(false)
  })
})
