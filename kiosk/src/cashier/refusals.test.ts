import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../web/cashdesk-api.ts'
import { messages } from '../../../server/src/http/messages.ts'
import { refusalCodesOf } from '../../../test/helpers/refusal-codes.ts'
import { shownError } from './store.ts'

/** The desk's paths as the server serves them: every /api request's middleware, scan, pay, cash-out and refund. */
const DESK_PATHS = [
  { file: 'server/src/http/app.ts', use: '/api/*' },
  { file: 'server/src/cashdesk/routes.ts', route: { method: 'post', path: '/api/tickets/validate' } },
  { file: 'server/src/cashdesk/routes.ts', route: { method: 'post', path: '/api/vouchers/check' } },
  { file: 'server/src/cashdesk/routes.ts', route: { method: 'post', path: '/api/tickets/pay' } },
  { file: 'server/src/cashdesk/routes.ts', route: { method: 'post', path: '/api/vouchers/cashout' } },
  { file: 'server/src/cashdesk/shift-routes.ts', route: { method: 'post', path: '/api/refunds/cards' } },
]

describe("the cash desk's words for every refusal of its scan, pay, cash-out and refund paths (issue 23)", () => {
  // Read from the server's code once (a type-checked walk of the routes' calls: some seconds).
  const codes = refusalCodesOf(DESK_PATHS)

  it('reads the codes from the server: seal, payout, refund and shift refusals are among them', () => {
    for (const c of ['ROW_TAMPERED', 'ALREADY_PAID', 'ALREADY_REFUNDED', 'SHIFT_NOT_OPEN', 'TICKET_BLOCKED'])
      expect(codes).toContain(c)
  })

  it.each(codes)('%s: the server words it in Spanish and English, with no code or placeholder left', (code) => {
    const m = messages[code as keyof typeof messages]
    expect(m, `${code} has no words in http/messages.ts`).toBeDefined()
    expect(m.es).not.toEqual(m.en)
    for (const text of [m.es, m.en]) {
      expect(text).not.toContain(code)
      // A placeholder the refusal's details fill: none on these paths, where the details name no seller or count.
      expect(text).not.toMatch(/[{}]/)
    }
    // The screen shows the server's words as they came, in the screen's language; the code stays off screen.
    const shown = shownError(new ApiError(code, m.es, 409, 'english detail'), 'es')
    expect(shown).toEqual({ code, message: m.es })
  })

  it('says in its own words what did not come from the server as a refusal: never a status line or a stack line', () => {
    const proxy = shownError(new ApiError('HTTP_502', 'Bad Gateway', 502), 'es')
    expect(proxy.message).toMatch(/^No se pudo completar y no cambió nada/)
    const fault = shownError(new TypeError("Cannot read properties of undefined (reading 'view')"), 'es')
    expect(fault.message).not.toMatch(/TypeError|undefined/)
    expect(shownError(new TypeError('x'), 'en').message).toMatch(/^It could not be completed/)
    // The client library's own words for a lost connection are kept (web/http.ts, in the screen's language).
    expect(shownError(new ApiError('NETWORK', 'Sin conexión con el servidor.', 0), 'es').message).toBe(
      'Sin conexión con el servidor.',
    )
  })
})
