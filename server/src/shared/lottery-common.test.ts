import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  addDays,
  checkPlanDates,
  checkSoftwareDraw,
  claimPeriodEnd,
  territoryCovers,
  type PlanProblem,
} from './lottery-common.ts'
import { PROFILES } from './profile.ts'

const plan = (drawAt: string, claimDeadline: string) => ({
  salesStartAt: '2025-02-01T08:00:00-04:00',
  salesCloseAt: drawAt,
  drawAt,
  claimDeadline,
})
const problemsOf = (p: ReturnType<typeof plan>) => {
  const out: PlanProblem[] = []
  checkPlanDates(p, out)
  return out
}

describe('LOT-23 / LNS-24: 60 FULL calendar days from the draw date', () => {
  it('LOT-23: a deadline at 00:00 of day 60 is refused; the last second of day 60 is the earliest accepted', () => {
    const drawAt = '2025-03-01T18:00:00-04:00'
    expect(claimPeriodEnd(drawAt, 60)).toBe('2025-04-30T23:59:59-04:00')
    expect(problemsOf(plan(drawAt, '2025-04-30T00:00:00-04:00')).map((p) => p.rule)).toEqual(['LOT-23'])
    expect(problemsOf(plan(drawAt, '2025-04-30T23:59:58-04:00')).map((p) => p.rule)).toEqual(['LOT-23'])
    expect(problemsOf(plan(drawAt, '2025-04-30T23:59:59-04:00'))).toEqual([])
    // The same instant written in another offset is the same deadline.
    expect(problemsOf(plan(drawAt, '2025-05-01T03:59:59Z'))).toEqual([])
    expect(problemsOf(plan(drawAt, '2025-05-01T03:59:58Z')).map((p) => p.rule)).toEqual(['LOT-23'])
  })

  it('LOT-23 (property): an accepted deadline always leaves at least 60 x 24 h after the end of the draw day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 86_399 }),
        fc.integer({ min: -200, max: 200 }),
        (day, second, deltaMinutes) => {
          const base =
            new Date(Date.UTC(2024, 0, 1) + day * 86_400_000 + second * 1000).toISOString().slice(0, 19) + '-04:00'
          const deadline = new Date(Date.parse(claimPeriodEnd(base, 60)) + deltaMinutes * 60_000).toISOString()
          const accepted = !problemsOf(plan(base, deadline)).some((p) => p.rule === 'LOT-23')
          const endOfDrawDay = Date.parse(`${base.slice(0, 10)}T23:59:59-04:00`)
          expect(accepted).toBe(deltaMinutes >= 0)
          if (accepted) expect(Date.parse(deadline) - endOfDrawDay).toBeGreaterThanOrEqual(60 * 86_400_000)
        },
      ),
    )
  })

  it('addDays keeps the time of day and the offset', () => {
    expect(addDays('2025-12-31T23:59:59-04:00', 60)).toBe('2026-03-01T23:59:59-04:00')
  })
})

describe('RNG-26 / LNS-7: software lotto and lottery draws behind a profile switch', () => {
  it('RNG-26: both shipped profiles draw by tómbola unless the licence names the AJ authorisation of the RNG', () => {
    for (const p of Object.values(PROFILES)) expect(p.softwareLotteryDrawAllowed, p.id).toBe(false)
    expect(() => checkSoftwareDraw('rng', { profileAllows: false, authorisationRef: null })).toThrow(/RNG-26/)
    expect(() => checkSoftwareDraw('rng', { profileAllows: false, authorisationRef: '  ' })).toThrow(/RNG-26/)
    expect(checkSoftwareDraw('rng', { profileAllows: false, authorisationRef: 'AJ-RA-2026-0012' })).toBe(
      'AJ-RA-2026-0012',
    )
    expect(checkSoftwareDraw('rng', { profileAllows: true, authorisationRef: null })).toBeNull()
    expect(checkSoftwareDraw('manual', { profileAllows: false, authorisationRef: null })).toBeNull()
  })
})

describe('LOT-28: territory of a regional lottery', () => {
  it('LOT-28: a hall is inside a territory at its own level or below, whatever the case, accents or spaces; a hall with none is inside none', () => {
    expect(territoryCovers('La Paz', 'La Paz/Murillo/El Alto')).toBe(true)
    expect(territoryCovers('la paz / murillo', 'LA PAZ/Murillo/El Alto')).toBe(true)
    expect(territoryCovers('Potosí', 'Potosi/Tomás Frías')).toBe(true)
    expect(territoryCovers('Oruro; La Paz/Murillo', 'La Paz/Murillo/Achocalla')).toBe(true)
    expect(territoryCovers('La Paz/Murillo', 'La Paz/Omasuyos')).toBe(false)
    expect(territoryCovers('La Paz', 'La Pazña')).toBe(false)
    expect(territoryCovers('La Paz', 'Oruro/Cercado')).toBe(false)
    expect(territoryCovers('La Paz', null)).toBe(false)
    expect(territoryCovers(null, null)).toBe(true)
  })
})
