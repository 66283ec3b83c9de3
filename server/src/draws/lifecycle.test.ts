import { describe, expect, it } from 'vitest'
import { roundTime } from '../shared/beacon.ts'
import { closeFacts } from '../shared/lottery-draw-v2.ts'
import { drawHasBegun } from './lifecycle.ts'

/**
 * LNS-20 (002 §7.3.6 "antes del sorteo"): when a lotto draw has begun, for the draw by software too (the manual
 * path is driven over HTTP in test/e2e/lottery-rules.test.ts).
 */
describe('drawHasBegun (LNS-20)', () => {
  const closedAt = '2025-03-08T20:00:00.000Z'
  const facts = closeFacts(closedAt)
  const published = roundTime(facts.beaconRound) * 1000
  const closed = {
    status: 'closed' as const,
    balls: null,
    beacon: null,
    beaconRound: facts.beaconRound,
    closedAt: closedAt,
  }

  it('an open draw, or a closed one waiting for its beacon round, has not begun: the close of sales comes before the draw (002 §7.3.4.2)', () => {
    expect(drawHasBegun({ ...closed, status: 'open', closedAt: null, beaconRound: null }, 'rng', closedAt)).toBe(false)
    expect(drawHasBegun(closed, 'rng', new Date(published - 1000).toISOString())).toBe(false)
    expect(drawHasBegun(closed, 'manual', new Date(published + 3_600_000).toISOString())).toBe(false)
  })

  it('an RNG draw has begun once beacon round R is published or recorded: its result then exists', () => {
    expect(drawHasBegun(closed, 'rng', new Date(published).toISOString())).toBe(true)
    expect(drawHasBegun({ ...closed, beacon: '{}' }, 'rng', closedAt)).toBe(true)
  })

  it('a manual draw has begun at its first ball; a drawn, settled or cancelled draw has', () => {
    expect(drawHasBegun({ ...closed, balls: '[7]' }, 'manual', closedAt)).toBe(true)
    expect(drawHasBegun({ ...closed, balls: '[]' }, 'manual', closedAt)).toBe(false)
    for (const status of ['drawn', 'settled', 'cancelled'] as const)
      expect(drawHasBegun({ ...closed, status }, 'manual', closedAt), status).toBe(true)
  })
})
