import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DomainError } from '../shared/errors.ts'
import { BOLIVIA_2025, CANTABRIA_2010, minimumCardsToStart } from '../shared/profile.ts'
import { checkBettingPlan, checkLicenceTerms, effectiveShares, hallProfile, type BettingPlan } from './betting-plan.ts'

const code = (f: () => unknown) => {
  try {
    f()
    return 'OK'
  } catch (err) {
    return err instanceof DomainError ? err.code : 'THROWN'
  }
}
const plan = (over: Partial<BettingPlan> = {}): BettingPlan => ({
  authorisationRef: 'AJ/DE/RA/123/2026',
  shares: { poolBp: 7000, lineBp: 1500, bingoBp: 5500, primaBp: 0 },
  potsBp: 500,
  commissionBp: 2000,
  ...over,
})

describe('Plan de Apuestas (BNG-52, CFG-24, CFG-25)', () => {
  it("gives a Bolivian hall no shares until its plan sets them: never Cantabria's 10/51 (BNG-52)", () => {
    expect(BOLIVIA_2025.shares).toBeNull()
    expect(effectiveShares(BOLIVIA_2025, {})).toBeNull()
    expect(hallProfile(BOLIVIA_2025, '{"shares":{}}').shares).toBeNull()
    expect(hallProfile(BOLIVIA_2025, JSON.stringify({ shares: plan().shares })).shares).toEqual(plan().shares)
    // Cantabria keeps the decree's 67 = 10 + 51 + 6 (BNG-56, BNG-58).
    expect(effectiveShares(CANTABRIA_2010, {})).toEqual({ poolBp: 6700, lineBp: 1000, bingoBp: 5100, primaBp: 600 })
  })

  it('accepts a plan within 100 % and refuses one over it, or without its authorisation reference', () => {
    expect(checkBettingPlan(BOLIVIA_2025, plan()).commissionBp).toBe(2000)
    expect(code(() => checkBettingPlan(BOLIVIA_2025, plan({ commissionBp: 2600 })))).toBe('PRIZE_SHARES_INVALID') // 70 + 5 + 26 = 101 %
    expect(code(() => checkBettingPlan(BOLIVIA_2025, plan({ authorisationRef: ' ' })))).toBe('PRIZE_SHARES_INVALID')
    expect(
      code(() =>
        checkBettingPlan(BOLIVIA_2025, plan({ shares: { poolBp: 6000, lineBp: 1500, bingoBp: 5500, primaBp: 0 } })),
      ),
    ).toBe('PRIZE_SHARES_INVALID')
    expect(
      code(() =>
        checkBettingPlan(BOLIVIA_2025, plan({ shares: { poolBp: 7000, lineBp: 1000, bingoBp: 5100, primaBp: 600 } })),
      ),
    ).toBe('PRIZE_SHARES_INVALID') // no prima in Bolivia
    expect(
      checkBettingPlan(CANTABRIA_2010, plan({ shares: { poolBp: 6700, lineBp: 1000, bingoBp: 5100, primaBp: 600 } }))
        .shares.primaBp,
    ).toBe(600)
  })

  it('never accepts shares that leave more than 100 % or a pool other than its prizes (property, issue 26: BNG-52)', () => {
    const bp = fc.integer({ min: 0, max: 10_000 })
    fc.assert(
      fc.property(bp, bp, bp, bp, bp, bp, (poolBp, lineBp, bingoBp, primaBp, potsBp, commissionBp) => {
        const p = plan({ shares: { poolBp, lineBp, bingoBp, primaBp }, potsBp, commissionBp })
        const ok = code(() => checkBettingPlan(CANTABRIA_2010, p)) === 'OK'
        if (ok) {
          expect(poolBp + potsBp + commissionBp).toBeLessThanOrEqual(10_000)
          expect(lineBp + bingoBp + primaBp).toBe(poolBp)
        } else {
          expect(
            poolBp + potsBp + commissionBp > 10_000 || lineBp + bingoBp + primaBp !== poolBp || bingoBp === 0,
          ).toBe(true)
        }
      }),
    )
  })
})

describe('licence options (BNG-21, CFG-17)', () => {
  it('lets the licence choose 10 % of the playing positions instead of 10 cards', () => {
    const terms = checkLicenceTerms(BOLIVIA_2025, {
      authorisationRef: 'Licencia AJ 45/2026',
      minimumBasis: 'positions',
      playingPositions: 250,
    })
    const profile = hallProfile(
      BOLIVIA_2025,
      JSON.stringify({
        licence: { version: 1, authorisationRef: terms.authorisationRef, minimumBasis: terms.minimumBasis },
      }),
    )
    expect(minimumCardsToStart(profile, 250)).toBe(25)
    expect(minimumCardsToStart(hallProfile(BOLIVIA_2025, '{}'), 250)).toBe(10)
  })
  it('has nothing to choose in Cantabria, which sets no minimum', () => {
    expect(
      code(() =>
        checkLicenceTerms(CANTABRIA_2010, {
          authorisationRef: 'Licencia 1',
          minimumBasis: 'positions',
          playingPositions: 100,
        }),
      ),
    ).toBe('RULE_DISABLED')
  })
})
