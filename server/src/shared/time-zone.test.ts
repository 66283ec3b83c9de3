import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatInZone, hallZoneOf, isTimeZone, isoInZone, zoneLabel, zoneOffsetMinutes } from './time-zone.ts'

describe('hall time zone', () => {
  it('shows a lotto receipt\'s UTC instants at La Paz wall-clock time (issue 17: "Sorteo 19:26" beside "Emitido 22:47")', () => {
    expect(formatInZone('2025-03-09T00:00:00.000Z', 'America/La_Paz')).toBe('08/03/2025 20:00')
    expect(formatInZone('2025-03-09T02:47:00.000Z', 'America/La_Paz', 'time')).toBe('22:47')
    expect(formatInZone('2025-03-09T02:47:00.000Z', 'America/La_Paz', 'time', true)).toBe('22:47 (La Paz, UTC-04:00)')
  })

  it("follows Madrid's summer time", () => {
    expect(zoneOffsetMinutes(Date.parse('2025-01-15T12:00:00Z'), 'Europe/Madrid')).toBe(60)
    expect(zoneOffsetMinutes(Date.parse('2025-07-15T12:00:00Z'), 'Europe/Madrid')).toBe(120)
    expect(isoInZone(Date.parse('2025-07-15T12:00:00Z'), 'Europe/Madrid')).toBe('2025-07-15T14:00:00+02:00')
    expect(zoneLabel(Date.parse('2025-01-15T12:00:00Z'), 'Europe/Madrid')).toBe('Madrid, UTC+01:00')
  })

  it("writes an instant with its zone's offset that parses back to the same second", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2000-01-01T00:00:00Z') / 1000, max: Date.parse('2060-01-01T00:00:00Z') / 1000 }),
        fc.constantFrom('America/La_Paz', 'Europe/Madrid', 'UTC', 'America/Santiago'),
        (s, tz) => {
          expect(Date.parse(isoInZone(s * 1000, tz))).toBe(s * 1000)
        },
      ),
    )
  })

  it('knows a zone from a typo, and shows a non-time as itself', () => {
    expect(isTimeZone('America/La_Paz')).toBe(true)
    expect(isTimeZone('America/LaPaz')).toBe(false)
    expect(isTimeZone('')).toBe(false)
    expect(formatInZone(null, 'UTC')).toBe('—')
    expect(formatInZone('pronto', 'UTC')).toBe('pronto')
  })

  // The zone worked out from a settings text is remembered per process (read on every sale): the hall's own zone
  // only, never the fallback it was first asked with (each profile's zone stays its own), and asked twice the same.
  it("takes a hall's zone from its settings, else each caller's fallback, the same when asked again", () => {
    for (let i = 0; i < 2; i++) {
      expect(hallZoneOf('{"timeZone":"America/Lima"}', 'America/La_Paz')).toBe('America/Lima')
      expect(hallZoneOf('{"timeZone":"America/LaPaz"}', 'America/La_Paz')).toBe('America/La_Paz')
      expect(hallZoneOf('{"timeZone":"America/LaPaz"}', 'America/Asuncion')).toBe('America/Asuncion')
      expect(hallZoneOf(null, 'America/Asuncion')).toBe('America/Asuncion')
      expect(hallZoneOf('{}', 'America/La_Paz')).toBe('America/La_Paz')
      expect(hallZoneOf('no es JSON', 'UTC')).toBe('UTC')
      expect(hallZoneOf('null', 'UTC')).toBe('UTC')
      expect(isTimeZone('America/LaPaz')).toBe(false)
      expect(isTimeZone('America/La_Paz')).toBe(true)
    }
  })
})
