/**
 * Issue 29 point 4 (back office): a date and time typed as the hall writes them, day first ("14/03/2026") and on
 * a 24-hour clock ("18:30"), whatever the browser's locale; a browser's date picker draws itself in the browser's
 * locale (mm/dd/yyyy, AM/PM in en-US), which misleads a hall that reads dd/mm/aaaa. The pair becomes the hall's
 * wall-clock value "YYYY-MM-DDTHH:MM" that admin/src/ui.tsx hallInstant reads on the hall's clock. Pure.
 */

/** "14/03/2026" (or 14-03-2026, 14.03.2026, 1/3/2026) as "2026-03-14"; null when it is not a real calendar day. */
export function readDayMonthYear(text: string): string | null {
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim())
  if (!m) return null
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const t = new Date(Date.UTC(y, mo - 1, d))
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`
}

/** "18:30", "9:05" or "18.30" on a 24-hour clock as "18:30"; null otherwise (no AM/PM: the hall's clock has none). */
export function readTime24(text: string): string | null {
  const m = /^(\d{1,2})[:.h](\d{2})$/.exec(text.trim())
  if (!m) return null
  const [h, min] = [Number(m[1]), Number(m[2])]
  if (h > 23 || min > 59) return null
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`
}

/** The pair as "YYYY-MM-DDTHH:MM"; '' when both are empty; null when either is missing or not valid. */
export function hallWallValue(date: string, time: string): string | null {
  if (!date.trim() && !time.trim()) return ''
  const d = readDayMonthYear(date)
  const t = readTime24(time)
  return d && t ? `${d}T${t}` : null
}

/** "2026-03-14T18:30" as the pair a person reads, { date: "14/03/2026", time: "18:30" }; empty parts otherwise. */
export function splitWallValue(value: string): { date: string; time: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value.trim())
  return m ? { date: `${m[3]}/${m[2]}/${m[1]}`, time: `${m[4]}:${m[5]}` } : { date: '', time: '' }
}

/** "2026-03-14" as "14/03/2026", the way a day-only field shows it; '' otherwise. */
export function dayText(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim())
  return m ? `${m[3]}/${m[2]}/${m[1]}` : ''
}
