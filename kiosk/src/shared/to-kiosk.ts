/**
 * Issue 13 point 1: lotto slips and on-screen scratch tickets are sold by the one kiosk (/kiosk/), paid by a credit
 * voucher like cards. The old /lotto/ and /instant/ addresses open it on their section, keeping the hall, the
 * kiosk, the language and the device credential they were given.
 */
export function kioskAddress(search: string, section: 'boletos' | 'raspaditas'): string {
  const from = new URLSearchParams(search)
  const to = new URLSearchParams()
  for (const key of ['hall', 'kiosk', 'lang', 'device']) {
    const v = from.get(key)
    if (v) to.set(key, v)
  }
  to.set('section', section)
  return `/kiosk/?${to.toString()}`
}
