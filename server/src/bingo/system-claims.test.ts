import { describe, expect, it } from 'vitest'
import { BOLIVIA_2025, CANTABRIA_2010 } from '../shared/profile.ts'
import { autoClaimsOf, hallProfile, type HallRuleSettings } from './betting-plan.ts'
import { claimedBySystem } from './system-claims.ts'

const licence = (autoClaims?: boolean): HallRuleSettings['licence'] => ({
  version: 1,
  authorisationRef: 'AJ/DE/LO/0077/2026',
  minimumBasis: 'cards',
  ...(autoClaims === undefined ? {} : { autoClaims }),
})
const paper = { channel: 'table' }
const virtual = { channel: 'terminal:t1' }

describe('CFG-21: the system claims for a paper card only under a licence that allows it (002 §6.1.5)', () => {
  it('is off in every shipped profile by default', () => {
    expect(BOLIVIA_2025.autoClaimSoldCards).toBe(false)
    expect(CANTABRIA_2010.autoClaimSoldCards).toBe(false)
  })

  it('a Bolivian hall: its licence allows them, and the hall has not switched them off', () => {
    expect(autoClaimsOf(BOLIVIA_2025, {})).toBe(false)
    expect(autoClaimsOf(BOLIVIA_2025, { licence: licence() })).toBe(false)
    expect(autoClaimsOf(BOLIVIA_2025, { licence: licence(false) })).toBe(false)
    expect(autoClaimsOf(BOLIVIA_2025, { licence: licence(false), autoClaim: true })).toBe(false)
    expect(autoClaimsOf(BOLIVIA_2025, { licence: licence(true) })).toBe(true)
    expect(autoClaimsOf(BOLIVIA_2025, { licence: licence(true), autoClaim: false })).toBe(false)
  })

  it('Cantabria never (004 Bingo III, BNG-48), whatever its settings say', () => {
    expect(autoClaimsOf(CANTABRIA_2010, { licence: licence(true), autoClaim: true })).toBe(false)
  })

  it('virtual cards follow the electronic-bingo rules (BNG-101), not the licence; the hall switch off stops them', () => {
    const plain = hallProfile(BOLIVIA_2025, JSON.stringify({ licence: licence(false) }))
    expect(claimedBySystem(plain, paper)).toBe(false)
    expect(claimedBySystem(plain, virtual)).toBe(true)
    const off = hallProfile(BOLIVIA_2025, JSON.stringify({ licence: licence(true), autoClaim: false }))
    expect(claimedBySystem(off, paper)).toBe(false)
    expect(claimedBySystem(off, virtual)).toBe(false)
    const es = hallProfile(CANTABRIA_2010, JSON.stringify({ licence: licence(false) }))
    expect(claimedBySystem(es, virtual)).toBe(false)
  })
})
