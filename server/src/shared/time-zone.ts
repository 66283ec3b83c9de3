/**
 * A hall's (or a lottery's) time zone: every time a person reads, on a screen, a ticket, a receipt, the minutes,
 * an extracto or a report, is the wall-clock time of that zone, never the server's UTC. Stored times stay ISO 8601
 * instants; only what is shown changes. Pure: Intl only, no clock.
 */

/** True when `tz` is an IANA time zone this runtime knows ("America/La_Paz", "Europe/Madrid", "UTC"). */
export function isTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz.length === 0 || tz.length > 64) return false
  // A name's validity does not change while the process runs; building a formatter to learn it costs more than a
  // sale's other steps on the hall's zone (issue 23 point 5), so each name is asked once.
  const known = zoneNames.get(tz)
  if (known !== undefined) return known
  let valid: boolean
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz })
    valid = true
  } catch {
    valid = false
  }
  if (zoneNames.size >= 1000) zoneNames.clear()
  zoneNames.set(tz, valid)
  return valid
}
const zoneNames = new Map<string, boolean>()

interface WallClock {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

/** The wall-clock fields of instant `t` (ms) in `tz`. */
export function wallClock(t: number, tz: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(t))
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  }
}

/** Minutes east of UTC that `tz` shows at instant `t` (La Paz: -240; Madrid: 60 or 120). */
export function zoneOffsetMinutes(t: number, tz: string): number {
  const w = wallClock(t, tz)
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  return Math.round((asUtc - Math.floor(t / 1000) * 1000) / 60_000)
}

const p2 = (n: number) => String(n).padStart(2, '0')

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const m = Math.abs(minutes)
  return `${sign}${p2(Math.floor(m / 60))}:${p2(m % 60)}`
}

/**
 * Instant `t` written as ISO 8601 with the zone's own offset, as a plan's times are written:
 * `isoInZone(Date.parse('2025-03-09T00:00:00Z'), 'America/La_Paz')` is "2025-03-08T20:00:00-04:00".
 */
export function isoInZone(t: number, tz: string): string {
  const w = wallClock(t, tz)
  return `${w.year}-${p2(w.month)}-${p2(w.day)}T${p2(w.hour)}:${p2(w.minute)}:${p2(w.second)}${offsetText(zoneOffsetMinutes(t, tz))}`
}

/** How a time is shown. `date-time` "24/11/2026 18:47", `time` "18:47", `seconds` "24/11/2026 18:47:05". */
export type StampStyle = 'date-time' | 'time' | 'seconds' | 'date'

/**
 * `iso` as the wall-clock time of `tz`; "—" when absent, the text itself when it is not a time. With `zoneName`,
 * the zone's short name follows ("18:47 (GMT-4)") so a printed document says which clock it speaks.
 */
export function formatInZone(
  iso: string | null | undefined,
  tz: string,
  style: StampStyle = 'date-time',
  zoneName = false,
): string {
  if (!iso) return '—'
  const t = Date.parse(iso)
  if (!Number.isFinite(t)) return iso
  const w = wallClock(t, tz)
  const date = `${p2(w.day)}/${p2(w.month)}/${w.year}`
  const time = `${p2(w.hour)}:${p2(w.minute)}`
  const text =
    style === 'time'
      ? time
      : style === 'date'
        ? date
        : style === 'seconds'
          ? `${date} ${time}:${p2(w.second)}`
          : `${date} ${time}`
  return zoneName && style !== 'date' ? `${text} (${zoneLabel(t, tz)})` : text
}

/** "hora de La Paz, UTC-04:00": the zone's city and offset at instant `t`, for a document's footnote. */
export function zoneLabel(t: number, tz: string): string {
  const city = tz.includes('/') ? tz.slice(tz.lastIndexOf('/') + 1).replace(/_/g, ' ') : tz
  return `${city}, UTC${offsetText(zoneOffsetMinutes(t, tz))}`
}

/** A hall's zone from its settings document (`timeZone`, issue 17), else `fallback` (its profile's zone). */
export function hallZoneOf(settingsJson: string | null | undefined, fallback: string): string {
  // Read per sale (the ticket's printed time): the settings document is parsed once per distinct text.
  const key = settingsJson || '{}'
  let own = hallZones.get(key)
  if (own === undefined) {
    try {
      const z = (JSON.parse(key) as { timeZone?: unknown } | null)?.timeZone
      own = isTimeZone(z) ? z : null
    } catch {
      own = null
    }
    if (hallZones.size >= 1000) hallZones.clear()
    hallZones.set(key, own)
  }
  return own ?? fallback
}
const hallZones = new Map<string, string | null>()
