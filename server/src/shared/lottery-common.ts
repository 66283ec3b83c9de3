/**
 * What the lotto (LNS-), numbered-ticket lottery (LOT-) and raffle (PRM-) plans share: dates and the claim
 * period (LOT-23, LOT-24, LNS-24), the list of problems an impossible plan is refused with, and the validation
 * outcomes a cashier sees when a ticket is scanned (REGULATIONS.md §8).
 *
 * Pure: times arrive as ISO 8601 strings; nothing here reads a clock.
 */
import { DomainError } from './errors.ts'

/** LOT-23 / LNS-24: prizes may be claimed for at least 60 calendar days from the draw date (CFG-40). */
export const MIN_CLAIM_DAYS = 60
/** LOT-24 / LNS-24: unclaimed prizes go to charity and health within 10 days after prescription. */
export const CHARITY_DAYS = 10

/** One reason a plan is refused: the field, the rule it breaks, and an English sentence. */
export interface PlanProblem {
  field: string
  rule: string
  message: string
}

/** ISO 8601 date-time with seconds optional and an explicit offset (`Z` or `±hh:mm`). */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** True for an ISO 8601 date-time with an explicit offset that names a real instant. */
export function isIsoTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIME.test(value) && Number.isFinite(Date.parse(value))
}

/**
 * The calendar date written in an ISO time (its own offset, not UTC), as days since 1970-01-01. "60 calendar days
 * from the draw date" is counted on the dates the plan states, whatever the time of day.
 */
export function calendarDay(iso: string): number {
  const m = ISO_TIME.exec(iso)
  if (!m) throw new DomainError('VALIDATION_FAILED', `not an ISO time with offset: ${JSON.stringify(iso)}`)
  return Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000)
}

/** The ISO time `days` calendar days after `iso`, same time of day and offset (no DST in a fixed offset). */
export function addDays(iso: string, days: number): string {
  const m = ISO_TIME.exec(iso)
  if (!m) throw new DomainError('VALIDATION_FAILED', `not an ISO time with offset: ${JSON.stringify(iso)}`)
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + days * 86_400_000)
  const ymd = `${date.getUTCFullYear().toString().padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`
  return ymd + iso.slice(10)
}

/** Last moment a prize can be paid: the plan's claim deadline (prescription date). */
export function isClaimExpired(claimDeadline: string, nowIso: string): boolean {
  return Date.parse(nowIso) > Date.parse(claimDeadline)
}

/** LOT-24: the day by which unclaimed prizes must have been handed to charity and health purposes. */
export function charityDueBy(claimDeadline: string): string {
  return addDays(claimDeadline, CHARITY_DAYS)
}

/** Common fields of every plan that carry dates. */
export interface PlanDates {
  salesStartAt: string
  salesCloseAt: string
  drawAt: string
  claimDeadline: string
}

/**
 * Checks the order of a plan's dates and the claim period: sales start before they close, close no later than
 * the draw (LNS-13: sales are closed before the draw), and the prescription date is at least 60 calendar days
 * after the draw date (LOT-23, LNS-24).
 */
export function checkPlanDates(p: PlanDates, problems: PlanProblem[], minClaimDays = MIN_CLAIM_DAYS): void {
  const fields = ['salesStartAt', 'salesCloseAt', 'drawAt', 'claimDeadline'] as const
  let ok = true
  for (const f of fields) {
    if (!isIsoTime(p[f])) {
      problems.push({ field: f, rule: 'LOT-4', message: `${f} must be an ISO 8601 time with an offset, e.g. 2025-03-01T20:00:00-04:00` })
      ok = false
    }
  }
  if (!ok) return
  const t = (f: (typeof fields)[number]) => Date.parse(p[f])
  if (t('drawAt') < t('salesStartAt')) problems.push({ field: 'drawAt', rule: 'LOT-4', message: 'the draw is before the start of sales' })
  if (t('salesCloseAt') <= t('salesStartAt')) problems.push({ field: 'salesCloseAt', rule: 'LOT-4', message: 'sales close before they start' })
  if (t('salesCloseAt') > t('drawAt')) problems.push({ field: 'salesCloseAt', rule: 'LNS-13', message: 'sales must close before the draw' })
  const days = calendarDay(p.claimDeadline) - calendarDay(p.drawAt)
  if (days < minClaimDays) {
    problems.push({ field: 'claimDeadline', rule: 'LOT-23', message: `the claim period is ${days} calendar days from the draw date; at least ${minClaimDays} are required` })
  }
}

/** Pushes a problem when a text field is missing or blank. */
export function requireText(value: unknown, field: string, rule: string, problems: PlanProblem[], max = 500): void {
  if (typeof value !== 'string' || value.trim().length === 0) problems.push({ field, rule, message: `${field} is required` })
  else if (value.length > max) problems.push({ field, rule, message: `${field} is longer than ${max} characters` })
}

/** Pushes a problem unless `value` is an integer in [min, max]. Returns whether it was. */
export function requireInt(value: unknown, field: string, rule: string, min: number, max: number, problems: PlanProblem[]): value is number {
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
    problems.push({ field, rule, message: `${field} must be an integer in ${min}..${max}, got ${JSON.stringify(value)}` })
    return false
  }
  return true
}

/**
 * Throws VALIDATION_FAILED listing every problem, so that an impossible plan is refused with all its reasons at
 * once; `details.problems` holds `{ field, rule, message }` for each.
 */
export function assertNoProblems(problems: readonly PlanProblem[], what: string): void {
  if (problems.length === 0) return
  const summary = problems.map((p) => `${p.message} (${p.rule})`).join('; ')
  throw new DomainError('VALIDATION_FAILED', `${what} refused: ${summary}`, { problems })
}

/**
 * What a cashier's scan answers (REGULATIONS.md §8). `PENDING` is a valid ticket whose draw has not been settled
 * yet; the other names are the regulation's.
 */
export const ValidationOutcome = {
  Win: 'WIN',
  NoWin: 'NO_WIN',
  RefundOnly: 'REFUND_ONLY',
  Void: 'VOID',
  AlreadyPaid: 'ALREADY_PAID',
  Expired: 'EXPIRED',
  ReportedLostStolen: 'REPORTED_LOST_STOLEN',
  Pending: 'PENDING',
} as const
export type ValidationOutcome = (typeof ValidationOutcome)[keyof typeof ValidationOutcome]

/** Legend LOT-15 (11, 12) and LNS-5 (10) require on tickets and slips. */
export const AJ_LEGEND = 'Actividad Autorizada y Fiscalizada por la Autoridad de Juegos'
