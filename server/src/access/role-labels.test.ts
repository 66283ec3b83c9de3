import { describe, expect, it } from 'vitest'
import { ALL_ROLES } from './permissions.ts'
import { PersonRole } from './service.ts'
import { roleLabel, roleLabels } from './role-labels.ts'

describe('role labels (issue 14 point 7: screens name roles in words, BNG-94/BNG-96)', () => {
  it('names every role of the permission table and every person role, in Spanish and English, never as its code', () => {
    for (const role of new Set<string>([...ALL_ROLES, ...Object.values(PersonRole)])) {
      const label = roleLabels[role]
      expect(label, `no label for role ${role}`).toBeDefined()
      for (const text of [label.es, label.en]) {
        expect(text.trim()).not.toBe('')
        expect(text).not.toContain(role.includes('_') ? role : `(${role})`)
        expect(text).not.toMatch(/_/)
      }
    }
  })
  it('calls the caller "Locutor" in Spanish (BNG-94) and falls back to a word for an unknown role', () => {
    expect(roleLabel('caller', 'es')).toBe('Locutor')
    expect(roleLabel('floor_manager', 'es')).toBe('Jefe de Mesa')
    expect(roleLabel('no_such_role', 'es')).toBe('Personal')
  })
})
