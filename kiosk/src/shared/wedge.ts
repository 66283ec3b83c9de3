/**
 * Keyboard-wedge scanners type the code they read as a fast burst of keys ending in Enter. This detector tells
 * such a burst from a person typing: every key of the burst must follow the previous one within `maxGapMs`
 * (people type 100-300 ms apart, scanners 1-20 ms), and the burst must be at least `minLength` characters.
 */
export interface WedgeOptions { maxGapMs?: number; minLength?: number }

export function createWedgeDetector(onScan: (code: string) => void, options: WedgeOptions = {}) {
  const maxGapMs = options.maxGapMs ?? 60
  const minLength = options.minLength ?? 8
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
        if (gap <= maxGapMs && code.length >= minLength) {
          onScan(code)
          return true
        }
        return false
      }
      if (key.length !== 1) return false
      buffer = gap <= maxGapMs ? buffer + key : key
      return false
    },
    reset() { buffer = ''; last = -Infinity },
  }
}
