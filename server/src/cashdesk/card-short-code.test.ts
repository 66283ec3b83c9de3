import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { cardIdOfShortCode, cardShortCode, readCardShortCode } from './card-short-code.ts'
import { readTyped } from './ticket-answer.ts'

/** A keyed tag as the sealer makes it (hex HMAC), under a test key. */
const tagger = (key: string) => (value: string, purpose: string) =>
  createHmac('sha256', key).update(`${purpose}|${value}`).digest('hex')
const tag = tagger('hall key')

describe("a card's printed short code (issue 29 point 4)", () => {
  it('is printed in five groups of four, starts with C, and finds its card typed in lower case with spaces', () => {
    const code = cardShortCode(tag, 'c_k7qm2xrd9h')!
    expect(code).toMatch(/^CK7Q-M2XR-D9H[2-9A-HJ-NP-Z]-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/)
    expect(cardIdOfShortCode(tag, code)).toBe('c_k7qm2xrd9h')
    expect(cardIdOfShortCode(tag, code.toLowerCase().replace(/-/g, ' '))).toBe('c_k7qm2xrd9h')
  })

  it('refuses a code with one letter of its tag changed, and one made under another key', () => {
    const code = cardShortCode(tag, 'c_k7qm2xrd9h')!
    const wrong = code.slice(0, -1) + (code.endsWith('Z') ? 'Y' : 'Z')
    expect(readCardShortCode(wrong)).toBe(wrong)
    expect(cardIdOfShortCode(tag, wrong)).toBeNull()
    expect(cardIdOfShortCode(tag, cardShortCode(tagger('another hall'), 'c_k7qm2xrd9h')!)).toBeNull()
    // Another card's id with this card's tag does not pass either.
    expect(cardIdOfShortCode(tag, 'CK7QM2XRD9J' + code.replace(/-/g, '').slice(11))).toBeNull()
  })

  it('is told apart from a voucher short code, an instant validation code and a serial at the cash desk', () => {
    const code = cardShortCode(tag, 'c_abcdefgh23')!
    expect(readTyped(code.toLowerCase())).toEqual({ kind: 'card_short', code })
    expect(readTyped('7KQM-2XRD-9HFA').kind).toBe('voucher_short')
    expect(readTyped('0880-ABCD-EFGH-JKLM-NPQR-STUV').kind).toBe('instant')
    expect(readTyped('A-00041').kind).toBe('other')
    expect(cardShortCode(tag, 'v_abcdefgh23')).toBeNull()
  })
})
