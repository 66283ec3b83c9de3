/**
 * A card serial as a caller hears it and types it: "A-00041", "a41", "A 41", or the number alone "41". Pure: the
 * lookup against the game's cards is findCard's (context.ts).
 */
export interface TypedSerial {
  seriesCode: string | null
  cardNo: number
}

/** The series code (letters, then optional digits, before a dash or space) and the card number; null if neither. */
export function parseTypedSerial(text: string): TypedSerial | null {
  const s = text.trim().toUpperCase().replace(/\s+/g, ' ')
  const bare = /^0*(\d{1,9})$/.exec(s)
  if (bare) return { seriesCode: null, cardNo: Number(bare[1]) }
  // With a separator the code may hold digits ("B2-41"); without one it is letters only ("A41", "AB41").
  const sep = /^([A-Z][A-Z0-9]{0,9})\s*[- ]\s*0*(\d{1,9})$/.exec(s) ?? /^([A-Z]{1,10})0*(\d{1,9})$/.exec(s)
  if (sep) return { seriesCode: sep[1]!, cardNo: Number(sep[2]) }
  return null
}
