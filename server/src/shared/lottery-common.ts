/**
 * What the lotto (LNS-), numbered-ticket lottery (LOT-) and raffle (PRM-) plans share: dates and the claim
 * period (LOT-23, LOT-24, LNS-24), the list of problems an impossible plan is refused with, and the validation
 * outcomes a cashier sees when a ticket is scanned (REGULATIONS.md §8).
 *
 * Pure: times arrive as ISO 8601 strings; nothing here reads a clock.
 */
import { isTimeZone } from './time-zone.ts'
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

/**
 * LOT-23 / LNS-24: the last second of the `days`-th calendar day after the draw date, in the draw time's own offset:
 * the earliest claim deadline that leaves `days` full days to claim.
 */
export function claimPeriodEnd(drawAt: string, days: number): string {
  const m = ISO_TIME.exec(drawAt)
  if (!m) throw new DomainError('VALIDATION_FAILED', `not an ISO time with offset: ${JSON.stringify(drawAt)}`)
  const at2359 = `${drawAt.slice(0, 10)}T23:59:59${m[6]}`
  return addDays(at2359, days)
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
  /**
   * Issue 17: the IANA zone whose wall clock receipts, tickets, the extracto and the minutes print (the draw's hall
   * or the operator's); the operator's profile zone when absent.
   */
  timeZone?: string | null
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
      problems.push({
        field: f,
        rule: 'LOT-4',
        message: `${f} must be an ISO 8601 time with an offset, e.g. 2025-03-01T20:00:00-04:00`,
      })
      ok = false
    }
  }
  if (!ok) return
  if (p.timeZone !== undefined && p.timeZone !== null && !isTimeZone(p.timeZone)) {
    problems.push({
      field: 'timeZone',
      rule: 'LOT-4',
      message: `timeZone must be an IANA time zone such as America/La_Paz or Europe/Madrid, got ${JSON.stringify(p.timeZone)}`,
    })
  }
  const t = (f: (typeof fields)[number]) => Date.parse(p[f])
  if (t('drawAt') < t('salesStartAt'))
    problems.push({ field: 'drawAt', rule: 'LOT-4', message: 'the draw is before the start of sales' })
  if (t('salesCloseAt') <= t('salesStartAt'))
    problems.push({ field: 'salesCloseAt', rule: 'LOT-4', message: 'sales close before they start' })
  if (t('salesCloseAt') > t('drawAt'))
    problems.push({ field: 'salesCloseAt', rule: 'LNS-13', message: 'sales must close before the draw' })
  // LOT-23 / LNS-24: 60 FULL calendar days after the draw date, so the deadline is no earlier than the last second of
  // the 60th day (in the plan's own offset); a deadline at 00:00 of day 60 would give 59 days and a few hours.
  const end = claimPeriodEnd(p.drawAt, minClaimDays)
  if (Date.parse(p.claimDeadline) < Date.parse(end)) {
    const days = calendarDay(p.claimDeadline) - calendarDay(p.drawAt)
    problems.push({
      field: 'claimDeadline',
      rule: 'LOT-23',
      message: `the claim period ends ${p.claimDeadline}, ${days} calendar days from the draw date; ${minClaimDays} full days end no earlier than ${end}`,
    })
  }
}

/** Pushes a problem when a text field is missing or blank. */
export function requireText(value: unknown, field: string, rule: string, problems: PlanProblem[], max = 500): void {
  if (typeof value !== 'string' || value.trim().length === 0)
    problems.push({ field, rule, message: `${field} is required` })
  else if (value.length > max) problems.push({ field, rule, message: `${field} is longer than ${max} characters` })
}

/**
 * LOT-22 / LNS-23 (002 §7.1.5 and §7.3.10, the same words for numbered lotteries and selected-numbers lotto): a
 * prize in goods is backed by its invoice; "bienes muebles sujetos a registro (vehículos, motocicletas, etc.)" may
 * instead be backed by "un documento de compromiso ... más una certificación original del proveedor"; "no podrán
 * ofertarse premios consistentes en bienes inmuebles". The plan declares which class the good is, and the class
 * decides: real estate is refused as declared, never guessed from the words of its description.
 */
export type GoodsClass = 'movable' | 'registrable' | 'real-estate'

/** LOT-22 / PRM-11: where a prize comes from; `expired-promotion` (prizes of business promotions not claimed) is refused. */
export type PrizeSource = 'operator' | 'sponsor' | 'expired-promotion'

/** The class and backing documents of a goods prize (LOT-22, LNS-23), with the problems under `f`. */
export function checkGoodsBacking(
  g: {
    class?: unknown
    invoiceRef?: unknown
    commitmentRef?: unknown
    supplierCertificateRef?: unknown
  },
  f: string,
  problems: PlanProblem[],
): void {
  if (g.class === 'real-estate')
    problems.push({ field: `${f}.class`, rule: 'LOT-22', message: 'real estate may not be offered as a prize' })
  else if (g.class !== 'movable' && g.class !== 'registrable')
    problems.push({ field: `${f}.class`, rule: 'LOT-22', message: 'goods class must be movable or registrable' })
  const text = (x: unknown) => typeof x === 'string' && x.trim().length > 0 && x.length <= 120
  const invoiced = text(g.invoiceRef)
  const committed = text(g.commitmentRef) && text(g.supplierCertificateRef)
  if (g.class === 'movable' && !invoiced)
    problems.push({
      field: `${f}.invoiceRef`,
      rule: 'LOT-22',
      message: 'goods and in-kind prizes are backed by an invoice',
    })
  if (g.class === 'registrable' && !invoiced && !committed) {
    problems.push({
      field: `${f}.invoiceRef`,
      rule: 'LOT-22',
      message:
        "a registrable good is backed by an invoice, or by a commitment document with the supplier's original certificate",
    })
  }
}

/** LOT-22 / PRM-11: a prize's declared source; expired prizes of business promotions go to charity and health only. */
export function checkPrizeSource(source: unknown, field: string, problems: PlanProblem[]): void {
  if (
    source !== undefined &&
    source !== null &&
    !['operator', 'sponsor', 'expired-promotion'].includes(source as string)
  )
    problems.push({ field, rule: 'LOT-22', message: 'source must be operator, sponsor or expired-promotion' })
  if (source === 'expired-promotion')
    problems.push({
      field,
      rule: 'LOT-22',
      message:
        'expired prizes of business promotions are reserved for charity and health; they may not be offered as prizes (PRM-11)',
    })
}

/**
 * PRM-11 / LOT-22 / LNS-23: a prize in goods (or in kind) of any line (lotto, numbered lottery, raffle) states who
 * provides it, the operator or a sponsor, so that no prize comes from the expired prizes of business promotions
 * (reserved for charity and health). `line` names the line's own rule in the message.
 */
export function requireGoodsSource(source: unknown, field: string, line: string | null, problems: PlanProblem[]): void {
  if (source === 'operator' || source === 'sponsor') return
  const own = line ? ` (${line})` : ''
  problems.push({
    field,
    rule: 'PRM-11',
    message:
      source === 'expired-promotion'
        ? `expired prizes of business promotions are reserved for charity and health; they may not be offered as prizes${own}`
        : `a goods prize states where it comes from: operator or sponsor${own}`,
  })
}

/** LST-1 / LST-2 / LST-5: the last day a report to the AJ is on time: the next business day (Monday to Friday). */
export function nextBusinessDay(iso: string): string {
  const d = new Date(Date.parse(iso.slice(0, 10) + 'T00:00:00Z'))
  do d.setUTCDate(d.getUTCDate() + 1)
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6)
  return d.toISOString().slice(0, 10)
}

/** Pushes a problem unless `value` is an integer in [min, max]. Returns whether it was. */
export function requireInt(
  value: unknown,
  field: string,
  rule: string,
  min: number,
  max: number,
  problems: PlanProblem[],
): value is number {
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
    problems.push({
      field,
      rule,
      message: `${field} must be an integer in ${min}..${max}, got ${JSON.stringify(value)}`,
    })
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

/** RNG-26: whether software (RNG) lotto and lottery draws may be planned, and under which licence reference. */
export interface SoftwareDrawPolicy {
  /** The profile allows them without a reference (softwareLotteryDrawAllowed). */
  profileAllows: boolean
  /** The AJ authorisation that accepts an RNG as an extraction device "u otro similar" (configuration), or null. */
  authorisationRef: string | null
  /** Issue 24 point 4: a server without the demo, which sells and draws nothing under a demo reference. */
  demoReferencesRefused?: boolean
  /**
   * Issue 26 (GEN-6, RNG-25; profile rngDeviceRequired): an RNG draw is planned and drawn only while a registered,
   * sealed and certified RNG device serves its hall or the operator (equipment registry, kind rng).
   */
  rngDeviceRequired?: boolean
  /** Issue 26: that device also carries a type-approval number (profile drawDeviceTypeApproval). */
  rngTypeApproval?: boolean
}

/**
 * GEN-3 (profile `catalogueGameAuthority`): where the profile names the authority whose prior authorisation every
 * catalogue game needs, a game (`game`: its line) is planned only with that authorisation's reference.
 */
export function assertCatalogueGameAuthorised(
  authority: { name: string; rule: string } | null | undefined,
  authorisationRef: string | null | undefined,
  game: 'lotto' | 'lottery' | 'raffle' | 'tombola' | 'instant',
): void {
  if (!authority || (typeof authorisationRef === 'string' && authorisationRef.trim())) return
  throw new DomainError(
    'GAME_NOT_AUTHORISED',
    `a ${game} game needs the reference of the prior authorisation of ${authority.name}: without it it is neither planned nor sold (${authority.rule})`,
    { field: 'authorisationRef', game, authority: authority.name, rule: 'GEN-3' },
  )
}

/** A reference that says it is the demo's, not a real authorisation, licence or certificate (issue 24 point 4). */
export function isDemoReference(ref: string | null | undefined): boolean {
  return typeof ref === 'string' && /^\s*DEMO\b/i.test(ref)
}

/**
 * Issue 24 point 4: outside the demo, a plan stored under the demo's authorisation or licence (a data directory
 * that ran the demo) is neither sold nor drawn: a DEMO reference authorises nothing.
 */
export function checkDemoReferences(
  plan: { authorisationRef?: string | null; licenceRef?: string | null },
  policy: SoftwareDrawPolicy,
): void {
  if (!policy.demoReferencesRefused) return
  for (const ref of [plan.authorisationRef, plan.licenceRef]) {
    if (isDemoReference(ref))
      throw new DomainError(
        'RULE_DISABLED',
        `this draw was planned under a demo reference ("${ref}"): a server without the demo sells and draws only under real authorisations`,
        { rule: 'LOT-3' },
      )
  }
}

/**
 * RNG-26 / LNS-7 / LOT-18: a draw plan with `drawMethod: 'rng'` is refused unless the profile allows software draws or
 * the licence names the AJ authorisation of the RNG; returns the reference the draw is planned under.
 */
export function checkSoftwareDraw(drawMethod: string, policy: SoftwareDrawPolicy): string | null {
  if (drawMethod !== 'rng') return null
  if (policy.authorisationRef?.trim()) return policy.authorisationRef.trim()
  if (policy.profileAllows) return null
  throw new DomainError(
    'RULE_DISABLED',
    'a software (RNG) lottery draw needs the AJ authorisation of the RNG as an extraction device in this profile: draw with an authorised tómbola (drawMethod manual), or set BOLILLO_LOTTERY_RNG_AUTHORISATION (RNG-26, LOT-18, LNS-8)',
    { rule: 'RNG-26' },
  )
}

/** The calendar day (days since 1970-01-01) of instant `nowIso` in the UTC offset written in `ref`. */
function dayInOffsetOf(nowIso: string, ref: string): number {
  const m = ISO_TIME.exec(ref)
  if (!m) throw new DomainError('VALIDATION_FAILED', `not an ISO time with offset: ${JSON.stringify(ref)}`)
  const off = m[6] === 'Z' ? 0 : (m[6][0] === '-' ? -1 : 1) * (Number(m[6].slice(1, 3)) * 60 + Number(m[6].slice(4, 6)))
  return Math.floor((Date.parse(nowIso) + off * 60_000) / 86_400_000)
}

/**
 * When a line's sales may close before the plan's close time: lotto with a recorded reason (LNS-13: staff close a
 * draw's sales early and say why); a numbered lottery or a raffle never: its tickets are out with sellers and
 * buyers until the planned close, and a ticket regularly held takes part in the draw (LOT-14, PRM-1).
 */
export type EarlyClose = 'with_reason' | 'refused'

/**
 * The close-of-sales time rule of every line (LNS-13): from the plan's close time on (the server's clock), a close is
 * accepted; earlier only where the line allows it and a reason is given. Answers the recorded reason of an early
 * close (null when the close is on time), or refuses.
 */
export function checkCloseOfSales(
  at: string,
  salesCloseAt: string,
  earlyClose: EarlyClose,
  reason?: string | null,
): { early: boolean; reason: string | null } {
  if (Date.parse(at) >= Date.parse(salesCloseAt)) return { early: false, reason: null }
  const given = reason?.trim() ?? ''
  if (earlyClose === 'refused' || !given)
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      earlyClose === 'refused'
        ? `sales close at ${salesCloseAt}`
        : `sales close at ${salesCloseAt}; closing earlier needs a recorded reason (LNS-13)`,
      { rule: 'LNS-13', salesCloseAt },
    )
  return { early: true, reason: reason! }
}

/**
 * LOT-21 / LNS-22: a draw takes place on the date its plan sets (in the plan's own offset), or on the date of an
 * authorised postponement, which changes the plan's drawAt. Drawing on any other day is refused.
 */
export function assertDrawDate(drawAt: string, nowIso: string): void {
  const today = dayInOffsetOf(nowIso, drawAt)
  const due = calendarDay(drawAt)
  if (today !== due) {
    throw new DomainError(
      'DRAW_NOT_DUE',
      `the draw takes place on ${drawAt.slice(0, 10)}${today < due ? '' : ', which has passed: an authorised postponement sets a new date'} (LOT-21, LNS-22)`,
      { rule: 'LOT-21', drawAt },
    )
  }
}

/**
 * LOT-21 / LNS-22: the dates of a plan after an authorised postponement: the new draw date must be a real time after
 * now and not before the close of sales, and the claim deadline moves so that the 60 full days still run from the
 * new draw date (LOT-23); an AJ authorisation reference and a reason are required.
 */
export function postponedDates(
  plan: PlanDates,
  input: { drawAt: string; authorisationRef: string; reason: string },
  nowIso: string,
  minClaimDays = MIN_CLAIM_DAYS,
): { drawAt: string; claimDeadline: string } {
  const problems: PlanProblem[] = []
  if (!input.authorisationRef?.trim())
    problems.push({
      field: 'authorisationRef',
      rule: 'LOT-21',
      message: 'a postponement needs the AJ authorisation reference',
    })
  if (!input.reason?.trim())
    problems.push({ field: 'reason', rule: 'LOT-21', message: 'a postponement states its justified reason' })
  if (!isIsoTime(input.drawAt))
    problems.push({ field: 'drawAt', rule: 'LOT-21', message: 'drawAt must be an ISO 8601 time with an offset' })
  else {
    if (Date.parse(input.drawAt) <= Date.parse(nowIso))
      problems.push({ field: 'drawAt', rule: 'LOT-21', message: 'the new draw date is in the past' })
    if (Date.parse(input.drawAt) < Date.parse(plan.salesCloseAt))
      problems.push({ field: 'drawAt', rule: 'LNS-13', message: 'the new draw date is before the close of sales' })
  }
  assertNoProblems(problems, 'postponement')
  const end = claimPeriodEnd(input.drawAt, minClaimDays)
  return {
    drawAt: input.drawAt,
    claimDeadline: Date.parse(plan.claimDeadline) >= Date.parse(end) ? plan.claimDeadline : end,
  }
}

/** LOT-28: a territory name compared without case, accents or extra spaces. */
function territoryKey(t: string): string {
  return t
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split('/')
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
    .join('/')
}

/**
 * LOT-28 (002 §7.2): whether a hall at `hallTerritory` ("Departamento/Municipio/Ciudad") lies inside a lottery's
 * authorised `territory` (one or more places separated by ";", each as wide or narrow as the authorisation says).
 * A lottery with no territory is national; a hall with no territory on record is inside none.
 *
 * @example
 * territoryCovers('La Paz', 'La Paz/Murillo/El Alto') // true
 * territoryCovers('La Paz/Murillo', 'Oruro/Cercado') // false
 */
export function territoryCovers(
  territory: string | null | undefined,
  hallTerritory: string | null | undefined,
): boolean {
  if (!territory?.trim()) return true
  if (!hallTerritory?.trim()) return false
  const hall = territoryKey(hallTerritory)
  return territory
    .split(';')
    .map(territoryKey)
    .filter(Boolean)
    .some((t) => hall === t || hall.startsWith(`${t}/`))
}
