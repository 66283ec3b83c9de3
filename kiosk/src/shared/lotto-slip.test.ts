import { describe, expect, it } from 'vitest'
import { canAddBoard, missing, planTime, slipRequest, slipTotalCents, toggleNumber, type Board } from './lotto-slip.ts'

const rules = { range: 49, picks: 6, priceCents: 500, maxBoardsPerSlip: 3, maxDrawsPerSlip: 2 }

describe('lotto slip on the touch screen (LNS-2, LNS-21)', () => {
  it('toggles numbers, keeps them ascending and never takes more than the picks', () => {
    let b: number[] = []
    for (const n of [45, 3, 19, 11, 38, 27, 7]) b = toggleNumber(b, n, rules)
    expect(b).toEqual([3, 11, 19, 27, 38, 45])
    expect(toggleNumber(b, 19, rules)).toEqual([3, 11, 27, 38, 45])
    expect(toggleNumber([], 50, rules)).toEqual([])
  })
  it('prices boards x draws and builds the request with quick picks counted apart', () => {
    const boards: Board[] = [{ kind: 'chosen', numbers: [1, 2, 3, 4, 5, 6] }, { kind: 'quick' }]
    expect(slipTotalCents(boards, 2, rules)).toBe(2000)
    expect(slipRequest(boards, 2, { name: ' Ana Quispe ', document: '123 LP' }, 'kiosk:1')).toEqual({
      boards: [[1, 2, 3, 4, 5, 6]],
      quickPicks: 1,
      draws: 2,
      player: { name: 'Ana Quispe', document: '123 LP' },
      channel: 'kiosk:1',
    })
    expect(canAddBoard([...boards, { kind: 'quick' }], rules)).toBe(false)
  })
  it('shows the draw time as the plan writes it', () => {
    expect(planTime('2025-03-08T20:00:00-04:00')).toBe('08/03/2025 20:00')
  })
  it('says what is missing: a board being filled, any board, or the player data (LNS-6)', () => {
    expect(missing([], [], { name: 'A B', document: '1' })).toBe('boards')
    expect(missing([{ kind: 'quick' }], [4], { name: 'A B', document: '1' })).toBe('pending')
    expect(missing([{ kind: 'quick' }], [], { name: 'Ana', document: '1' })).toBe('player')
    expect(missing([{ kind: 'quick' }], [], { name: 'Ana Quispe', document: '1' })).toBeNull()
  })
})
