/**
 * Record ids: `<prefix>_` and 10 characters of an unambiguous alphabet (no 0/o, 1/l), one per random byte. Ids are
 * not secrets; the randomness only keeps them unguessable and collision-free. Pure: the bytes arrive as an argument.
 */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'

export const RECORD_ID_BYTES = 10

export function recordId(prefix: string, bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += ALPHABET[b % ALPHABET.length]
  return `${prefix}_${s}`
}
