import { describe, expect, it } from 'vitest'
import { screenLeaks } from './screen-text.ts'

describe('screenLeaks (issue 14 point 7)', () => {
  it('finds codes, permission names, role codes and ids, and passes plain Spanish', () => {
    expect(screenLeaks('FORBIDDEN caller may not game.window')).toEqual(['FORBIDDEN', 'game.window'])
    expect(screenLeaks('Error · BALL_ALREADY_DRAWN')).toEqual(['BALL_ALREADY_DRAWN'])
    expect(screenLeaks('Jefe de Mesa Quispe (floor_manager)')).toEqual(['floor_manager'])
    expect(screenLeaks('Sesión: ses_0123456789abcdef abierta')).toEqual(['ses_0123456789abcdef'])
    expect(screenLeaks('Caja dev_a1b2c3d4e5f60718')).toEqual(['dev_a1b2c3d4e5f60718'])
    expect(
      screenLeaks('Su rol no permite esta operación. Pedro Flores · Locutor · BNG-50 · Bs 40,00 · A-00023'),
    ).toEqual([])
  })
})
