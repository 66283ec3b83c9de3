import { describe, expect, it } from 'vitest'
import { kioskAddress } from './to-kiosk.ts'

describe('the lotto and instant screens open the one kiosk', () => {
  it('keeps hall, kiosk, language and device credential, and names the section', () => {
    expect(kioskAddress('?hall=h1&kiosk=k7&lang=en&device=dev_1.secret&draw=d9&game=880', 'boletos')).toBe(
      '/kiosk/?hall=h1&kiosk=k7&lang=en&device=dev_1.secret&section=boletos',
    )
    expect(kioskAddress('', 'raspaditas')).toBe('/kiosk/?section=raspaditas')
  })
})
