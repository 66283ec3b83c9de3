/**
 * Keyboard-wedge scanners type the code they read as a fast burst of keys ending in Enter. This detector tells
 * such a burst from a person typing: every key of the burst must follow the previous one within `maxGapMs`
 * (people type 150-300 ms apart, scanners 1-20 ms), the burst must be at least `minLength` characters, and it must
 * pass `accept` (a whole ticket code): a burst cut by a stall is dropped, never taken for a shorter code.
 */
export interface WedgeOptions {
  maxGapMs?: number
  minLength?: number
  accept?: (code: string) => boolean
}

/** A whole signed ticket code (server/src/domain/ticket-code.ts). */
export const TICKET_CODE_SHAPE = /^BLL1\.[CLTIV]\.[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{86}$/

/**
 * An instant ticket's hidden validation code as printed under the scratch layer and typed or read from its
 * barcode: the 4-digit game number and 20 more characters, in groups of four with or without dashes
 * (server/src/domain/instant-codes.ts).
 */
export const INSTANT_CODE_SHAPE = /^\d{4}(?:[-\s]?[0-9A-Za-z]{4}){5}$/

export function createWedgeDetector(onScan: (code: string) => void, options: WedgeOptions = {}) {
  const maxGapMs = options.maxGapMs ?? 100
  const minLength = options.minLength ?? 8
  const accept = options.accept ?? (() => true)
  let buffer = ''
  let last = -Infinity
  return {
    /** Feeds one keydown; returns true when it completed a scan (the caller may then cancel the Enter). */
    key(key: string, timeStampMs: number): boolean {
      const gap = timeStampMs - last
      last = timeStampMs
      if (key === 'Enter') {
        const code = buffer
        buffer = ''
        if (gap <= maxGapMs && code.length >= minLength && accept(code)) {
          onScan(code)
          return true
        }
        return false
      }
      if (key.length !== 1) return false
      buffer = gap <= maxGapMs ? buffer + key : key
      return false
    },
    reset() {
      buffer = ''
      last = -Infinity
    },
  }
}
