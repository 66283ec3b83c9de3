import { describe, expect, it } from 'vitest'
import { deviceCredential, tabToken } from './credentials.ts'

function memory() {
  const m = new Map<string, string>()
  return {
    entries: m,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  }
}
const broken = {
  getItem: (): string | null => {
    throw new Error('denied')
  },
  setItem: () => {
    throw new Error('denied')
  },
  removeItem: () => {
    throw new Error('denied')
  },
}

describe('deviceCredential', () => {
  it('keeps ?device= for the next loads', () => {
    const storage = memory()
    expect(deviceCredential('?device=kiosk-1.s3cret&lang=en', storage)).toBe('kiosk-1.s3cret')
    expect(deviceCredential('?lang=en', storage)).toBe('kiosk-1.s3cret')
    expect(deviceCredential('?device=kiosk-2.other', storage)).toBe('kiosk-2.other')
    expect(deviceCredential('', storage)).toBe('kiosk-2.other')
  })

  it('has none before enrolment, and lasts one load without storage', () => {
    expect(deviceCredential('', memory())).toBeNull()
    expect(deviceCredential('?device=kiosk-1.s3cret', broken)).toBe('kiosk-1.s3cret')
  })
})

describe('tabToken', () => {
  it("keeps each screen's token under its own key, and forgets it on logout", () => {
    const storage = memory()
    const admin = tabToken('admin', storage)
    const cashier = tabToken('cashier', storage)
    expect(admin.get()).toBeNull()
    admin.set('t-admin')
    // A login at the back office does not log the same tab in at the cashier.
    expect(cashier.get()).toBeNull()
    cashier.set('t-cashier')
    expect([admin.get(), tabToken('admin', storage).get(), cashier.get()]).toEqual(['t-admin', 't-admin', 't-cashier'])
    // The keys the screens used before they shared this module: a tab logged in before the update stays logged in.
    expect([...storage.entries.keys()]).toEqual(['bolillo.admin.token', 'bolillo.cashier.token'])
    admin.set(null)
    expect(admin.get()).toBeNull()
    expect(cashier.get()).toBe('t-cashier')
  })

  it('has no token, and throws nothing, without storage (private mode)', () => {
    const caller = tabToken('caller', broken)
    expect(() => caller.set('t')).not.toThrow()
    expect(caller.get()).toBeNull()
  })
})
