/**
 * A voucher's short code (issue 13): what a player types at a kiosk whose scanner cannot read the QR. Twelve
 * characters of a 32-letter alphabet without the look-alikes 0/O and 1/I (60 random bits: far too many to guess
 * under the rate limit), printed in groups of four, e.g. "7KQM-2XRD-9HFA". Pure: the random bytes arrive as an
 * argument.
 */
export const SHORT_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ'
export const SHORT_CODE_LENGTH = 12

/** The short code made of 12 random bytes (each byte's low 5 bits pick a letter: 32 divides 256, so no bias). */
export function shortCodeFromBytes(bytes: Uint8Array): string {
  if (bytes.length < SHORT_CODE_LENGTH) throw new Error(`a short code needs ${SHORT_CODE_LENGTH} random bytes`)
  let out = ''
  for (let i = 0; i < SHORT_CODE_LENGTH; i++) out += SHORT_CODE_ALPHABET[bytes[i] & 31]
  return out
}

/** What a person typed, upper case, without the spaces, dashes and dots typed between groups. */
export function compactTyped(typed: string): string {
  return typed.toUpperCase().replace(/[\s\-.·]/g, '')
}

/** What a player typed, as stored: upper case, without spaces or dashes. Null when it cannot be a short code. */
export function normalizeShortCode(typed: string): string | null {
  const s = compactTyped(typed)
  if (s.length !== SHORT_CODE_LENGTH) return null
  for (const ch of s) if (!SHORT_CODE_ALPHABET.includes(ch)) return null
  return s
}

/** "7KQM2XRD9HFA" as printed: "7KQM-2XRD-9HFA". */
export function formatShortCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, '$1-')
}
