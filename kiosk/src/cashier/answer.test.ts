import { describe, expect, it } from 'vitest'
import { invalidFromError } from './answer.ts'

describe('a refused scan the cashier shows as an answer', () => {
  it('turns the instant service refusals of a bad code into NO VÁLIDO', () => {
    expect(invalidFromError('0777-ABCD-EFGH-JKMN-PQRS-TVWX', 'INVALID_SIGNATURE', 'x')).toMatchObject({
      product: 'instant',
      verdict: 'invalid',
      invalid: 'counterfeit',
    })
    expect(invalidFromError('0777-ABCD-EFGH-JKMN-PQRS-TVWX', 'VALIDATION_FAILED', 'check characters')).toMatchObject({
      invalid: 'mistyped',
    })
    expect(invalidFromError('x', 'DEVICE_UNAVAILABLE', 'x')).toBeNull()
  })
})
