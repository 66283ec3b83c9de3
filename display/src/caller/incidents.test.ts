import { describe, expect, it } from 'vitest'
import { INCIDENT_KINDS, incidentRule, isIncidentAvailable } from './incidents.ts'

describe('incident rules (BNG-80 to BNG-84)', () => {
  it('has a paragraph to read aloud and an outcome for every kind, in both languages', () => {
    for (const kind of INCIDENT_KINDS) {
      for (const profile of ['BO-2025', 'ES-CB-2010']) {
        const r = incidentRule(kind, profile)
        expect(r.rule).toMatch(/^BNG-8[0-3]$/)
        expect(r.paragraph.es.length).toBeGreaterThan(40)
        expect(r.paragraph.en.length).toBeGreaterThan(40)
        expect(r.outcome.es).not.toBe('')
      }
    }
  })

  it('annuls on a caller error where the profile says so, and lets the ball prevail elsewhere (BNG-83)', () => {
    expect(incidentRule('caller-error', 'BO-2025').voids).toBe(true)
    expect(incidentRule('caller-error', 'ES-CB-2010').voids).toBe(false)
    expect(incidentRule('caller-error', 'ES-CB-2010').outcome.es).toMatch(/prevalece/)
  })

  it('offers a suspension only before the first ball, and manual play only after it (BNG-80, BNG-81)', () => {
    const before = { status: 'sales_closed' as const, balls: [], profileId: 'BO-2025' }
    const after = { status: 'drawing' as const, balls: [4], profileId: 'BO-2025' }
    expect(isIncidentAvailable('device-failure-before-first-ball', before)).toBe(true)
    expect(isIncidentAvailable('device-failure-before-first-ball', after)).toBe(false)
    expect(isIncidentAvailable('device-failure-after-first-ball', before)).toBe(false)
    expect(isIncidentAvailable('device-failure-after-first-ball', after)).toBe(true)
    expect(isIncidentAvailable('unresolved-suspension', after)).toBe(false)
    expect(isIncidentAvailable('unresolved-suspension', { ...before, status: 'suspended' })).toBe(true)
  })

  it('tells the table that an RNG game resumes its committed order after a failure, and a blower game goes manual (BNG-81, issue 15)', () => {
    expect(incidentRule('device-failure-after-first-ball', 'BO-2025', 'rng').outcome.es).toMatch(
      /orden de extracción comprometido/,
    )
    expect(incidentRule('device-failure-after-first-ball', 'BO-2025', 'blower').outcome.es).toMatch(/a mano/)
  })

  it('offers nothing once the game has finished', () => {
    const done = { status: 'finished' as const, balls: [1, 2, 3], profileId: 'ES-CB-2010' }
    for (const kind of INCIDENT_KINDS) expect(isIncidentAvailable(kind, done)).toBe(false)
  })
})
