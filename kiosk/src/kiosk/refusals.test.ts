import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../web/cashdesk-api.ts'
import { refusalCodesOf } from '../../../test/helpers/refusal-codes.ts'
import { DESK_PROBLEMS, problemOf } from './refusals.ts'
import { TEXTS } from './texts.ts'

/** The kiosk's sale path as the server serves it: every /api request's middleware, a voucher read, a purchase. */
const SALE_PATH = [
  { file: 'server/src/http/app.ts', use: '/api/*' },
  { file: 'server/src/cashdesk/routes.ts', route: { method: 'post', path: '/api/vouchers/check' } },
  { file: 'server/src/cashdesk/routes.ts', route: { method: 'post', path: '/api/kiosk/purchases' } },
]

describe("the kiosk's words for every refusal of its sale path (issue 23, issue 24 point 1)", () => {
  // Read from the server's code once (a type-checked walk of the routes' calls: some seconds).
  const codes = refusalCodesOf(SALE_PATH)

  it('reads the codes from the server: the voucher, seal, exclusion and sale refusals are among them', () => {
    for (const c of ['VOUCHER_SPENT', 'ROW_TAMPERED', 'PLAYER_EXCLUDED', 'SERIES_EXHAUSTED', 'SALES_CLOSED'])
      expect(codes).toContain(c)
  })

  it.each(codes)('%s: a problem of its own, in Spanish and English, never the code', (code) => {
    const refusal = new ApiError(code, 'server words', 409, 'english detail', { field: 'count' })
    const problem = problemOf(refusal)
    expect(problem, `${code} falls to the generic "No se pudo completar"`).not.toBe('other')
    for (const lang of ['es', 'en'] as const) {
      const [title, body] = TEXTS[lang].problems[problem]
      expect(title.length).toBeGreaterThan(3)
      expect(body.length).toBeGreaterThan(10)
      expect(`${title} ${body}`).not.toContain(code)
    }
    // Spanish first: not the English words under a Spanish key.
    expect(TEXTS.es.problems[problem]).not.toEqual(TEXTS.en.problems[problem])
  })

  it('sends a voucher that fails its seal (ROW_TAMPERED) to the cash desk, with no promise that it keeps its balance', () => {
    const problem = problemOf(new ApiError('ROW_TAMPERED', 'x', 409), 'voucher')
    expect(problem).toBe('not_usable')
    expect(DESK_PROBLEMS.has(problem)).toBe(true)
    expect(TEXTS.es.problems.not_usable.join(' ')).toMatch(/no se puede usar aquí.*caja/i)
  })

  it('reads a validation refusal of a voucher read as the code typed, and of a basket as the purchase to check', () => {
    expect(problemOf(new ApiError('VALIDATION_FAILED', 'x', 400), 'voucher')).toBe('voucher_invalid')
    expect(problemOf(new ApiError('VALIDATION_FAILED', 'x', 400, '', { field: 'voucherCode' }))).toBe('voucher_invalid')
    expect(problemOf(new ApiError('VALIDATION_FAILED', 'x', 400, '', { field: 'count' }))).toBe('basket_invalid')
  })
})
