/**
 * A bingo card's printed short code (issue 29 point 4): what the cashier types when the card's QR is damaged. It
 * locates the card and proves the paper is in hand as the QR does: "C", the ten letters of the card's record id,
 * then nine letters of a keyed tag of that id (45 bits under the server's sealing key, far too many to guess under
 * the rate limit), printed in groups of four, e.g. "CK7Q-M2XR-D9HF-AB3C-DE4F". The serial alone is public
 * (a winning serial is announced in the hall), so it never pays; this code is on the card only. Pure: the keyed tag
 * arrives as a function, so the cashier screen reads a typed code with the same rules.
 */
import { compactTyped, formatShortCode, SHORT_CODE_ALPHABET } from './short-code.ts'

const ID = /^c_([a-km-np-z2-9]{10})$/
const TYPED = /^C([A-KM-NP-Z2-9]{10})([2-9A-HJ-NP-Z]{9})$/
const TAG_LENGTH = 9
export const CARD_SHORT_CODE_PURPOSE = 'card-short-code'

/** `tag(value, purpose)`: the sealer's keyed HMAC as hex (shared/sealing.ts keyedTag). */
type Tagger = (value: string, purpose: string) => string

/** The short code printed on card `cardId` ("CXXX-XXXX-XXXX-XXXX-XXXX"); null for an id of another shape. */
export function cardShortCode(tag: Tagger, cardId: string): string | null {
  const m = ID.exec(cardId)
  if (!m) return null
  const hex = tag(cardId, CARD_SHORT_CODE_PURPOSE)
  let t = ''
  for (let i = 0; i < TAG_LENGTH; i++) t += SHORT_CODE_ALPHABET[parseInt(hex.slice(2 * i, 2 * i + 2), 16) & 31]
  return formatShortCode(`C${m[1].toUpperCase()}${t}`)
}

/** What a person typed, as printed ("CXXX-XXXX-…"), when it has the shape of a card's short code; else null. */
export function readCardShortCode(typed: string): string | null {
  const s = compactTyped(typed)
  return TYPED.test(s) ? formatShortCode(s) : null
}

/** The card a typed short code names, when its tag is the card's; null for a code no card has. */
export function cardIdOfShortCode(tag: Tagger, typed: string): string | null {
  const printed = readCardShortCode(typed)
  if (!printed) return null
  const cardId = `c_${printed.replace(/-/g, '').slice(1, 11).toLowerCase()}`
  return cardShortCode(tag, cardId) === printed ? cardId : null
}
