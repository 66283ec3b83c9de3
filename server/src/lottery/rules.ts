/**
 * Numbered-ticket lotteries (lotería tradicional, popular, regional: LOT-4, LOT-11 to LOT-29, §7.6, §7.8, CFG-39)
 * and raffles, tombolas and promotional draws (rifas, tómbolas, combinaciones aleatorias: PRM-1 to PRM-10,
 * CFG-44): plans, their validation, ticket numbering and the prize rules.
 *
 * ## Lottery prizes
 *
 * The winning number of each `exact` prize is drawn among all issued numbers (a draw among M = to - from + 1
 * tickets: value v of the bolillo-draw-v1 order is the v-th number of the sorted, zero-padded list, that is
 * `from + v - 1`). The first exact prize of the plan takes the first value drawn, the second the second, and so on.
 * Derived prizes follow from an exact prize `of`:
 * - `approximation` (distance d): the numbers `of - d .. of - 1` and `of + 1 .. of + d` inside the range;
 * - `ending` (d digits, terminación): every other number whose last d digits are those of `of`;
 * - `beginning` (d digits, comienzo): every other number whose first d digits (of the zero-padded number) are those of `of`;
 * - `progression` (step s, progresión, LOT-4): every other number of the range that differs from `of` by a whole
 *   multiple of s (s = 1000 gives the "cada mil" numbers 04217, 05217, 06217... up and down the range). Decree 002
 *   names progressions without defining them; the authorised plan states its step.
 * A number collects every prize whose rule it meets; a derived prize never goes to the number of its own source
 * prize. Amounts are per whole ticket of one series; each fraction gets amount / fractions (the plan must make
 * that exact: LOT-25, prizes are indivisible). Every series of a winning number wins.
 *
 * Pure: no clock, no I/O.
 */
import { DomainError } from '../shared/errors.ts'
import {
  assertNoProblems,
  checkGoodsBacking,
  checkPlanDates,
  checkPrizeSource,
  isIsoTime,
  requireGoodsSource,
  requireInt,
  requireText,
  type GoodsClass,
  type PlanDates,
  type PlanProblem,
  type PrizeSource,
} from '../shared/lottery-common.ts'
import type { DrawStaff } from '../draws/types.ts'

export type LotteryPrizeRule =
  | { type: 'exact' }
  | { type: 'approximation'; of: string; distance: number }
  | { type: 'ending'; of: string; digits: number }
  | { type: 'beginning'; of: string; digits: number }
  | { type: 'progression'; of: string; step: number }

/**
 * LOT-22: a prize in goods or in kind, backed by the supplier's invoice; a registrable movable good (vehicle,
 * motorcycle...) may instead be backed by a commitment document establishing ownership plus the supplier's original
 * certificate. Real estate may not be offered, and no prize may come from expired prizes of business promotions
 * (those go to charity and health only: LOT-22, PRM-11).
 */
export interface LotteryGoods {
  description: string
  /** `movable` (invoice), `registrable` (vehicle...: invoice, or commitment + supplier certificate), `real-estate` (refused). */
  class: GoodsClass
  invoiceRef?: string | null
  commitmentRef?: string | null
  supplierCertificateRef?: string | null
}

export type { PrizeSource } from '../shared/lottery-common.ts'

export interface LotteryPrize {
  code: string
  name: string
  rule: LotteryPrizeRule
  /** Per whole ticket of one series (all its fractions together); for goods, their market value (budget, LOT-4). */
  amountCents: number
  /** LOT-22: cash (default), goods or in kind. Goods are handed over, not paid out of a drawer. */
  kind?: 'cash' | 'goods' | 'in-kind'
  goods?: LotteryGoods | null
  source?: PrizeSource
}

export interface Numbering {
  from: number
  to: number
  /** Printed width: numbers are zero-padded to this many digits (e.g. 5 for 00000-99999). */
  digits: number
}

/** A traditional, popular or regional lottery draw plan (LOT-4, §7.6, CFG-39). */
export interface LotteryPlan extends PlanDates {
  kind: 'traditional' | 'popular' | 'regional'
  /** LOT-15 (2): institution (the public entity, LOT-1). */
  institution: string
  /** LOT-15 (3): name of the lottery. */
  name: string
  gameCode: string
  drawNumber: number
  /** LOT-15 (7): the issue ("emisión"). */
  issue: string
  numbering: Numbering
  /** Each number is printed once per series. */
  series: number
  /** Fractions of a whole ticket (LOT-16 (1)). */
  fractions: number
  /** LOT-15 (5): public price of a whole ticket; a fraction costs ticketPriceCents / fractions. */
  ticketPriceCents: number
  currency: string
  /**
   * LOT-12 / LOT-27: the most tickets the licence allows in one issue. Where the operator's licence record is
   * installed (BOLILLO_LOTTERY_LICENCE) the planned value is the record's; a plan may only declare less.
   */
  licensedMaxTickets: number
  /** LOT-12: the licence record the maximum was taken from (null: the plan's own value, where no record is required). */
  licenceRef?: string | null
  prizes: LotteryPrize[]
  budgetCents: number
  drawPlace: string
  paymentPlace: string
  regulationUrl: string
  authorisationRef: string
  drawMethod: 'rng' | 'manual'
  /** LOT-18: the AJ-authorised extraction device of a manual draw: registry id or seal code on input, registry id once planned. */
  drawDevice: string | null
  /** LOT-18: the hall where a manual draw is held, whose registered devices may draw it (none: operator-level devices only). */
  drawHallId?: string | null
  /** LOT-28 / CFG-9: where a regional (or limited popular) lottery may be sold; null = national. */
  territory: string | null
  staff: DrawStaff
  /** LOT-15 (1): security keys and marks printed on the front (e.g. "holograma, microtexto, tinta UV"). */
  securityMarks: string
  /** LOT-16 (4): security warnings printed on the back. */
  securityWarnings: string[]
}

export type LotteryPlanInput = Omit<
  LotteryPlan,
  'drawDevice' | 'territory' | 'securityWarnings' | 'licensedMaxTickets'
> &
  Partial<Pick<LotteryPlan, 'drawDevice' | 'territory' | 'securityWarnings' | 'licensedMaxTickets'>>

/** A raffle, tombola or promotional draw (PRM-1 to PRM-10, CFG-44). */
export interface RafflePlan extends PlanDates {
  kind: 'raffle' | 'tombola' | 'promotional'
  organiser: string
  name: string
  gameCode: string
  drawNumber: number
  /** PRM-5 (raffles and tombolas); promotional draws are `promotional`. */
  classification: 'benefica' | 'utilidad-publica' | 'interes-particular' | 'promotional'
  /** PRM-4: run by a non-profit organisation, or profits entirely for popular festivities. */
  nonProfit: boolean
  numbering: Numbering
  /** PRM-1: a single fixed price; 0 for a promotional draw (PRM-7). */
  ticketPriceCents: number
  currency: string
  /** In the order they are drawn for: the first ticket drawn wins prizes[0]. */
  prizes: RafflePrize[]
  /** Needed unless exempt (PRM-4). */
  authorisationRef: string | null
  /** PRM-8: the prior communication filed for a promotional draw. */
  communicationRef: string | null
  /** PRM-9: one draw on one date, or successive draws ({@link RafflePlan.draws}). */
  successive: boolean
  /**
   * PRM-9 (004 G.II "De tracto sucesivo. Consiste en la celebración de un sorteo de forma sucesiva en varias
   * fechas"): the dates of the successive draws, in order, each with the codes of the prizes drawn on it (every
   * prize in one draw). The first is `drawAt`. Null for a single draw.
   */
  draws?: SuccessiveDraw[] | null
  /**
   * PRM-9: whether a ticket that won in one draw stays in play for the later ones. 004 says nothing of it; the
   * promoter's bases, filed with the prior communication (PRM-8), decide, so the plan must state it.
   */
  winnersStayIn?: boolean | null
  /** Set by the server on each draw of a successive plan: which of them this draw is, and the first (which sells). */
  round?: SuccessiveRound | null
  /**
   * PRM-1 / PRM-2: the draw is among the tickets sold (default; every prize goes to a buyer), or among every
   * issued number, a prize whose number was not sold being declared void ("desierto") and kept by the organiser.
   */
  drawAmong: 'sold' | 'issued'
  drawPlace: string
  paymentPlace: string
  drawMethod: 'rng' | 'manual'
  drawDevice: string | null
  staff: DrawStaff
  /**
   * PRM-2, the tómbola "por suma de puntos hasta alcanzar una cifra determinada" (004 F.I): the draw gives points to
   * tickets, and a holder takes an object whose figure the points of the tickets presented reach. Null or absent:
   * the instant tómbola (the winner takes any object drawn).
   */
  points?: TombolaPoints | null
}

/**
 * PRM-2: the points of a tómbola as its bases approve them (their reference recorded, as `authorisationRef` is).
 * The draw extracts as many tickets among those in play as the tiers count, in order: the first `tiers[0].count`
 * tickets drawn are worth `tiers[0].points` each, the next `tiers[1].count` the next tier's, and so on.
 */
export interface TombolaPoints {
  /** Where the bases approve the points (the article or resolution of the bases). */
  basesRef: string
  /** PRM-6: the hall where the objects are on display and handed over: only its cash desks hand them over. */
  hallId: string
  /** The points the draw gives out in all, as the bases approve: the tiers add up to exactly this. */
  totalPoints: number
  tiers: Array<{ count: number; points: number }>
  /** Each object's figure in points (prize code -> points): a holder whose tickets reach it may take that object. */
  figures: Record<string, number>
}

/** PRM-2: one ticket the draw gave points to, in the order drawn; `tier` is its tier's index in the plan. */
export interface PointsAward {
  number: number
  points: number
  tier: number
  order: number
}

/** How many tickets a points tómbola draws: the tiers' counts added up. */
export function pointsTicketCount(points: Pick<TombolaPoints, 'tiers'>): number {
  return points.tiers.reduce((s, t) => s + t.count, 0)
}

/**
 * PRM-2: the points each ticket drawn gets, the tiers taken in order over the numbers in the order drawn. Throws if
 * the draw gave fewer or more numbers than the tiers count, or a number twice (a drawn ticket is drawn once).
 */
export function pointsAwarded(points: Pick<TombolaPoints, 'tiers'>, drawn: readonly number[]): PointsAward[] {
  if (drawn.length !== pointsTicketCount(points))
    throw new DomainError(
      'VALIDATION_FAILED',
      `the tiers give points to ${pointsTicketCount(points)} tickets, ${drawn.length} drawn`,
    )
  if (new Set(drawn).size !== drawn.length)
    throw new DomainError('VALIDATION_FAILED', 'a ticket was drawn twice: each gets the points of one tier')
  const out: PointsAward[] = []
  let i = 0
  points.tiers.forEach((t, tier) => {
    for (let k = 0; k < t.count; k++, i++) out.push({ number: drawn[i], points: t.points, tier, order: i + 1 })
  })
  return out
}

/** Every problem of a tómbola's points (PRM-2); none when the plan has none. */
function checkTombolaPoints(p: RafflePlan, problems: PlanProblem[]): void {
  const x = p.points
  if (x == null) return
  if (p.kind !== 'tombola') {
    problems.push({ field: 'points', rule: 'PRM-2', message: 'only a tombola gives points' })
    return
  }
  if (p.successive)
    problems.push({ field: 'points', rule: 'PRM-2', message: 'a tombola with points is one simultaneous draw' })
  requireText(x.basesRef, 'points.basesRef', 'PRM-2', problems, 120)
  requireText(x.hallId, 'points.hallId', 'PRM-6', problems, 120)
  const totalOk = requireInt(x.totalPoints, 'points.totalPoints', 'PRM-2', 1, 1_000_000_000, problems)
  if (!Array.isArray(x.tiers) || x.tiers.length === 0) {
    problems.push({ field: 'points.tiers', rule: 'PRM-2', message: 'the points need at least one tier' })
    return
  }
  let sum = 0
  let count = 0
  let tiersOk = true
  x.tiers.forEach((t, i) => {
    const c = requireInt(t?.count, `points.tiers[${i}].count`, 'PRM-2', 1, 1_000_000, problems)
    const v = requireInt(t?.points, `points.tiers[${i}].points`, 'PRM-2', 1, 1_000_000, problems)
    if (c && v) {
      sum += t.count * t.points
      count += t.count
    } else tiersOk = false
  })
  if (tiersOk && totalOk && sum !== x.totalPoints)
    problems.push({
      field: 'points.tiers',
      rule: 'PRM-2',
      message: `the tiers give ${sum} points; the bases approve ${x.totalPoints}`,
    })
  if (tiersOk && p.numbering && Number.isInteger(p.numbering.from) && Number.isInteger(p.numbering.to))
    if (count > numberCount(p.numbering))
      problems.push({ field: 'points.tiers', rule: 'PRM-2', message: 'more tickets with points than tickets' })
  const figures = x.figures && typeof x.figures === 'object' ? x.figures : {}
  for (const prize of Array.isArray(p.prizes) ? p.prizes : [])
    requireInt(figures[prize?.code], `points.figures.${prize?.code}`, 'PRM-2', 1, 1_000_000_000, problems)
  for (const code of Object.keys(figures))
    if (!(Array.isArray(p.prizes) && p.prizes.some((prize) => prize?.code === code)))
      problems.push({ field: `points.figures.${code}`, rule: 'PRM-2', message: `no object ${code} in the plan` })
}

/** PRM-9: one draw of a successive plan: its date and the prizes drawn on it. */
export interface SuccessiveDraw {
  drawAt: string
  prizeCodes: string[]
  /** Set by the server: "name: description" of each prize, for the ticket (each draw's plan keeps only its own). */
  prizeNames?: string[]
}

/** PRM-9: where a draw stands in its successive plan; the tickets are those sold for the first draw. */
export interface SuccessiveRound {
  index: number
  of: number
  /** The first draw of the plan, whose tickets take part in every draw; null on the first itself. */
  firstDrawId: string | null
}

export interface RafflePrize {
  code: string
  name: string
  description: string
  /** PRM-1: goods or services, not cash, in raffles and tombolas; promotional draws may give cash (PRM-10). */
  kind: 'goods' | 'service' | 'cash'
  valueCents: number
  /** PRM-6 / PRM-10: when and where the prize was deposited for the public to examine (a bank, for cash). */
  depositedAt: string
  depositPlace: string
  invoiceRef: string
  /** PRM-10: a cash prize is deposited in a bank: the deposit slip or certificate of the bank. */
  bankDepositRef?: string | null
  /** PRM-11 / LOT-22: expired prizes of business promotions may not be offered. */
  source?: PrizeSource
}

export type RafflePlanInput = Omit<
  RafflePlan,
  'authorisationRef' | 'communicationRef' | 'drawDevice' | 'successive' | 'drawAmong' | 'round'
> &
  Partial<Pick<RafflePlan, 'authorisationRef' | 'communicationRef' | 'drawDevice' | 'successive' | 'drawAmong'>>

/** PRM-4: raffles and tombolas of non-profit organisers with prizes up to 1,500 EUR need no authorisation. */
export const PRM4_EXEMPT_MAX_CENTS = 150_000

/** How many numbers the numbering covers. */
export function numberCount(n: Numbering): number {
  return n.to - n.from + 1
}

/** A number as printed: zero-padded to the plan's width. */
export function formatNumber(n: number, numbering: Numbering): string {
  return String(n).padStart(numbering.digits, '0')
}

/** Serial of a whole ticket (number and series), as used in the participation list and the sales digest: "04217-01". */
export function ticketSerial(number: number, series: number, numbering: Numbering): string {
  return `${formatNumber(number, numbering)}-${String(series).padStart(2, '0')}`
}

/** Id in the signed code of one fraction: `<drawId>.<number>-<series>-<fraction>` with "-" separators. */
export function fractionTicketId(
  drawId: string,
  number: number,
  series: number,
  fraction: number,
  numbering: Numbering,
): string {
  return `${drawId}-${ticketSerial(number, series, numbering)}-${String(fraction).padStart(2, '0')}`
}

/** Inverse of {@link fractionTicketId}; null when the id is not one. */
export function parseFractionTicketId(
  id: string,
): { drawId: string; number: number; series: number; fraction: number; numberText: string } | null {
  const m = /^(.+)-(\d{1,9})-(\d{2,})-(\d{2,})$/.exec(id)
  if (!m) return null
  return { drawId: m[1], number: Number(m[2]), series: Number(m[3]), fraction: Number(m[4]), numberText: m[2] }
}

/** Id in the signed code of a raffle ticket: `<drawId>-<number>`. */
export function raffleTicketId(drawId: string, number: number, numbering: Numbering): string {
  return `${drawId}-${formatNumber(number, numbering)}`
}

export function parseRaffleTicketId(id: string): { drawId: string; number: number; numberText: string } | null {
  const m = /^(.+)-(\d{1,9})$/.exec(id)
  return m ? { drawId: m[1], number: Number(m[2]), numberText: m[2] } : null
}

function checkNumbering(n: Numbering, problems: PlanProblem[], rule: string): boolean {
  if (typeof n !== 'object' || n === null) {
    problems.push({ field: 'numbering', rule, message: 'numbering { from, to, digits } is required' })
    return false
  }
  const ok =
    requireInt(n.from, 'numbering.from', rule, 0, 999_999_999, problems) &&
    requireInt(n.to, 'numbering.to', rule, 0, 999_999_999, problems) &&
    requireInt(n.digits, 'numbering.digits', rule, 1, 9, problems)
  if (!ok) return false
  if (n.to < n.from) {
    problems.push({ field: 'numbering.to', rule, message: 'the numbering ends before it starts' })
    return false
  }
  if (String(n.to).length > n.digits) {
    problems.push({ field: 'numbering.digits', rule, message: `${n.to} does not fit in ${n.digits} digits` })
    return false
  }
  if (numberCount(n) > 16_777_216) {
    problems.push({ field: 'numbering', rule, message: 'at most 16,777,216 numbers in one issue' })
    return false
  }
  return true
}

function checkStaff(staff: DrawStaff | undefined, problems: PlanProblem[]): void {
  for (const role of ['authority', 'director', 'moderator', 'notary'] as const)
    requireText(staff?.[role], `staff.${role}`, 'LOT-19', problems, 120)
}

/**
 * Most numbers a prize rule can give a prize to, over every possible winning number (the budget is checked
 * against this worst case).
 */
export function maxWinningNumbers(rule: LotteryPrizeRule, n: Numbering): number {
  const count = numberCount(n)
  switch (rule.type) {
    case 'exact':
      return 1
    case 'approximation':
      return Math.min(2 * rule.distance, count - 1)
    case 'ending':
      return Math.min(Math.ceil(count / 10 ** rule.digits), count) - 1
    case 'beginning':
      return Math.min(10 ** (n.digits - rule.digits), count) - 1
    // Every other number of the range that is a whole number of steps away, at most (count - 1) / step of them.
    case 'progression':
      return Math.floor((count - 1) / rule.step)
  }
}

/** LOT-16 (5): how many whole tickets will win at most (every series of every winning number). */
export function winningTicketCount(plan: Pick<LotteryPlan, 'prizes' | 'numbering' | 'series'>): number {
  return plan.prizes.reduce((s, p) => s + maxWinningNumbers(p.rule, plan.numbering) * plan.series, 0)
}

/** Worst-case cost of the prize structure: every prize's amount x series x most numbers it can reach. */
export function lotteryLiabilityCents(plan: Pick<LotteryPlan, 'prizes' | 'numbering' | 'series'>): number {
  return plan.prizes.reduce((s, p) => s + p.amountCents * plan.series * maxWinningNumbers(p.rule, plan.numbering), 0)
}

export function normalizeLotteryPlan(input: LotteryPlanInput): LotteryPlan {
  return {
    ...input,
    // LOT-12: none declared and no licence record: 0, refused as missing.
    licensedMaxTickets: input.licensedMaxTickets ?? 0,
    drawDevice: input.drawDevice ?? null,
    territory: input.territory ?? null,
    securityWarnings: input.securityWarnings ?? [
      'Billete alterado, enmendado o raspado en la zona "NO RASPAR" es nulo (LOT-8).',
      'El premio se paga solo contra entrega del billete o fracción; no se sustituye por otra prueba (LOT-26).',
      'Los números denunciados como extraviados o robados no se pagan, reembolsan ni canjean (LST-4, LST-5).',
    ],
  }
}

/** What the operator's profile decides of a lottery plan (shared/profile.ts). */
export interface LotteryProfileRules {
  /** LOT-22 / LOT-30: the prize kinds allowed; unset, all three. */
  prizeKinds?: readonly ('cash' | 'goods' | 'in-kind')[]
}

/** Every problem of a lottery plan (LOT-4, LOT-12, LOT-13, LOT-15, LOT-16, LOT-23, LOT-25, CFG-39). Empty when valid. */
export function validateLotteryPlan(p: LotteryPlan, profile: LotteryProfileRules = {}): PlanProblem[] {
  const problems: PlanProblem[] = []
  if (!['traditional', 'popular', 'regional'].includes(p.kind))
    problems.push({ field: 'kind', rule: 'LOT-4', message: 'kind must be traditional, popular or regional' })
  requireText(p.institution, 'institution', 'LOT-15', problems)
  requireText(p.name, 'name', 'LOT-4', problems)
  requireText(p.issue, 'issue', 'LOT-15', problems, 40)
  requireText(p.drawPlace, 'drawPlace', 'LOT-4', problems)
  requireText(p.paymentPlace, 'paymentPlace', 'LOT-16', problems)
  requireText(p.regulationUrl, 'regulationUrl', 'LOT-6', problems)
  requireText(p.authorisationRef, 'authorisationRef', 'LOT-3', problems, 120)
  requireText(p.securityMarks, 'securityMarks', 'LOT-15', problems)
  requireText(p.currency, 'currency', 'LOT-4', problems, 3)
  if (p.kind === 'regional') requireText(p.territory, 'territory', 'LOT-28', problems, 120)
  // LOT-13 (002 §7.1.1): a traditional lottery's sale and distribution are national; a territory would restrict its
  // distribution (issue.ts distribute). Only a popular or regional lottery is limited (LOT-28).
  if (p.kind === 'traditional' && typeof p.territory === 'string' && p.territory.trim())
    problems.push({
      field: 'territory',
      rule: 'LOT-13',
      message: 'a traditional lottery is sold nationally: it carries no territory (plan it as popular or regional)',
    })
  if (typeof p.gameCode !== 'string' || !/^[A-Z0-9]{1,16}$/.test(p.gameCode))
    problems.push({ field: 'gameCode', rule: 'LOT-4', message: 'gameCode must be 1 to 16 capital letters or digits' })
  requireInt(p.drawNumber, 'drawNumber', 'LOT-15', 1, 99_999_999, problems)
  if (p.drawMethod !== 'rng' && p.drawMethod !== 'manual')
    problems.push({ field: 'drawMethod', rule: 'LOT-18', message: 'drawMethod must be rng or manual' })
  if (p.drawMethod === 'manual') requireText(p.drawDevice, 'drawDevice', 'LOT-18', problems, 120)
  if (!Array.isArray(p.securityWarnings) || p.securityWarnings.length === 0)
    problems.push({
      field: 'securityWarnings',
      rule: 'LOT-16',
      message: 'the back needs at least one security warning',
    })
  checkStaff(p.staff, problems)
  checkPlanDates(p, problems)
  const numberingOk = checkNumbering(p.numbering, problems, 'LOT-12')
  const seriesOk = requireInt(p.series, 'series', 'LOT-4', 1, 99, problems)
  const fractionsOk = requireInt(p.fractions, 'fractions', 'LOT-16', 1, 99, problems)
  requireInt(p.budgetCents, 'budgetCents', 'LOT-4', 0, Number.MAX_SAFE_INTEGER, problems)
  requireInt(p.licensedMaxTickets, 'licensedMaxTickets', 'LOT-12', 1, Number.MAX_SAFE_INTEGER, problems)
  if (
    requireInt(p.ticketPriceCents, 'ticketPriceCents', 'LOT-15', 1, 1_000_000_000, problems) &&
    fractionsOk &&
    p.ticketPriceCents % p.fractions !== 0
  ) {
    problems.push({
      field: 'ticketPriceCents',
      rule: 'LOT-15',
      message: `the ticket price does not divide into ${p.fractions} equal fractions`,
    })
  }
  if (
    numberingOk &&
    seriesOk &&
    Number.isSafeInteger(p.licensedMaxTickets) &&
    numberCount(p.numbering) * p.series > p.licensedMaxTickets
  ) {
    problems.push({
      field: 'series',
      rule: 'LOT-12',
      message: `${numberCount(p.numbering) * p.series} tickets exceed the licensed maximum of ${p.licensedMaxTickets}`,
    })
  }
  if (!Array.isArray(p.prizes) || p.prizes.length === 0) {
    problems.push({ field: 'prizes', rule: 'LOT-4', message: 'the plan needs a prize structure' })
    return problems
  }
  const codes = new Map<string, LotteryPrize>()
  let exact = 0
  p.prizes.forEach((prize, i) => {
    const f = `prizes[${i}]`
    if (typeof prize.code !== 'string' || !/^[A-Za-z0-9]{1,8}$/.test(prize.code))
      problems.push({ field: `${f}.code`, rule: 'LOT-4', message: 'prize code must be 1 to 8 letters or digits' })
    else if (codes.has(prize.code))
      problems.push({ field: `${f}.code`, rule: 'LOT-4', message: `prize code ${prize.code} appears twice` })
    else codes.set(prize.code, prize)
    requireText(prize.name, `${f}.name`, 'LOT-4', problems, 80)
    if (
      requireInt(prize.amountCents, `${f}.amountCents`, 'LOT-4', 1, Number.MAX_SAFE_INTEGER, problems) &&
      fractionsOk &&
      prize.amountCents % p.fractions !== 0
    ) {
      problems.push({
        field: `${f}.amountCents`,
        rule: 'LOT-25',
        message: `the prize does not divide into ${p.fractions} equal fractions`,
      })
    }
    const rule = prize.rule
    switch (rule?.type) {
      case 'exact':
        exact++
        break
      case 'approximation':
      case 'ending':
      case 'beginning':
      case 'progression': {
        const source = p.prizes.find((x) => x.code === rule.of)
        if (!source || source.rule?.type !== 'exact')
          problems.push({
            field: `${f}.rule.of`,
            rule: 'LOT-4',
            message: `${rule.type} prizes derive from an exact prize; ${JSON.stringify(rule.of)} is not one`,
          })
        if (rule.type === 'approximation') requireInt(rule.distance, `${f}.rule.distance`, 'LOT-4', 1, 1000, problems)
        else if (rule.type === 'progression') {
          if (
            requireInt(rule.step, `${f}.rule.step`, 'LOT-4', 2, 999_999_999, problems) &&
            numberingOk &&
            rule.step > p.numbering.to - p.numbering.from
          ) {
            problems.push({
              field: `${f}.rule.step`,
              rule: 'LOT-4',
              message: `a progression of step ${rule.step} reaches no other number of the range`,
            })
          }
        } else if (
          numberingOk &&
          requireInt(rule.digits, `${f}.rule.digits`, 'LOT-4', 1, 9, problems) &&
          rule.digits >= p.numbering.digits
        ) {
          problems.push({
            field: `${f}.rule.digits`,
            rule: 'LOT-4',
            message: `a ${rule.type} of ${rule.digits} digits is the whole number`,
          })
        }
        break
      }
      default:
        problems.push({
          field: `${f}.rule`,
          rule: 'LOT-4',
          message: 'prize rule must be exact, approximation, ending, beginning or progression',
        })
    }
    checkLotteryPrizeKind(prize, f, p.fractions, problems)
    // LOT-30 (004 Loterías I, "se conceden premios en metálico"): where the profile allows cash only, no goods.
    const kind = prize.kind ?? 'cash'
    if (profile.prizeKinds && ['cash', 'goods', 'in-kind'].includes(kind) && !profile.prizeKinds.includes(kind))
      problems.push({
        field: `${f}.kind`,
        rule: 'LOT-30',
        message: `this profile's lotteries pay ${profile.prizeKinds.join(', ')} prizes only, not ${kind}`,
      })
  })
  if (exact === 0)
    problems.push({
      field: 'prizes',
      rule: 'LOT-11',
      message: 'at least one prize must be won by the exact number drawn',
    })
  if (numberingOk && exact > numberCount(p.numbering))
    problems.push({ field: 'prizes', rule: 'LOT-11', message: 'more exact prizes than numbers issued' })
  if (numberingOk && seriesOk && problems.length === 0 && lotteryLiabilityCents(p) > p.budgetCents) {
    problems.push({
      field: 'budgetCents',
      rule: 'LOT-4',
      message: `the prize structure can cost up to ${lotteryLiabilityCents(p)}, over the draw budget (${p.budgetCents})`,
    })
  }
  return problems
}

/** LOT-22: what is handed over for a prize in goods or in kind; null for a cash prize. */
export function lotteryPrizeGoods(p: Pick<LotteryPrize, 'kind' | 'goods' | 'name'>): string | null {
  return (p.kind ?? 'cash') === 'cash' ? null : (p.goods?.description ?? p.name)
}

/** PRM-2 / PRM-10: what a raffle prize pays in cash, and the goods line of the register (null for cash). */
export function rafflePrizeWon(p: RafflePrize): { prize: WonPrize; goods: string | null } {
  return {
    prize: { code: p.code, name: p.name, amountCents: p.kind === 'cash' ? p.valueCents : 0 },
    goods: p.kind === 'cash' ? null : `${p.name}: ${p.description}`,
  }
}

/** LOT-22 / PRM-11: what a prize is and where it comes from. */
function checkLotteryPrizeKind(prize: LotteryPrize, f: string, fractions: number, problems: PlanProblem[]): void {
  checkPrizeSource(prize.source, `${f}.source`, problems)
  const kind = prize.kind ?? 'cash'
  if (!['cash', 'goods', 'in-kind'].includes(kind)) {
    problems.push({ field: `${f}.kind`, rule: 'LOT-22', message: 'prize kind must be cash, goods or in-kind' })
    return
  }
  if (kind === 'cash') {
    if (prize.goods) problems.push({ field: `${f}.goods`, rule: 'LOT-22', message: 'a cash prize has no goods' })
    return
  }
  const g = prize.goods
  if (!g || typeof g !== 'object') {
    problems.push({
      field: `${f}.goods`,
      rule: 'LOT-22',
      message: 'a prize in goods or in kind needs its description and backing documents',
    })
    return
  }
  requireText(g.description, `${f}.goods.description`, 'LOT-22', problems)
  checkGoodsBacking(g, `${f}.goods`, problems)
  requireGoodsSource(prize.source, `${f}.source`, 'LOT-22', problems)
  // A good cannot be split among the fractions of a ticket (LOT-25: prizes are indivisible), so a plan with goods
  // sells whole tickets only.
  if (Number.isInteger(fractions) && fractions > 1)
    problems.push({
      field: `${f}.kind`,
      rule: 'LOT-25',
      message: `a prize in goods cannot be split into ${fractions} fractions; sell whole tickets (fractions 1)`,
    })
}

export function parseLotteryPlan(input: LotteryPlanInput, profile: LotteryProfileRules = {}): LotteryPlan {
  const plan = normalizeLotteryPlan(input)
  assertNoProblems(validateLotteryPlan(plan, profile), 'lottery plan')
  return plan
}

export function normalizeRafflePlan(input: RafflePlanInput): RafflePlan {
  return {
    ...input,
    authorisationRef: input.authorisationRef ?? null,
    communicationRef: input.communicationRef ?? null,
    drawDevice: input.drawDevice ?? null,
    successive: input.successive ?? false,
    draws: input.draws ?? null,
    winnersStayIn: input.winnersStayIn ?? null,
    round: null,
    points: input.points ?? null,
    drawAmong: input.drawAmong ?? 'sold',
  }
}

/**
 * PRM-9: a successive plan's draws, each a plan of its own: its date, its prizes (in the order they are drawn),
 * and its place in the plan. Sales, the claim deadline and everything else are the plan's.
 */
export function successiveDrawPlans(p: RafflePlan): RafflePlan[] {
  if (!p.successive || !p.draws) return [p]
  const n = p.draws.length
  const named = (code: string) => p.prizes.find((x) => x.code === code)!
  const draws = p.draws.map((d) => ({
    ...d,
    prizeNames: d.prizeCodes.map((c) => `${named(c).name}: ${named(c).description}`),
  }))
  return p.draws.map((d, i) => ({
    ...p,
    draws,
    drawNumber: p.drawNumber + i,
    drawAt: d.drawAt,
    prizes: d.prizeCodes.map(named),
    round: { index: i + 1, of: n, firstDrawId: null },
  }))
}

/** PRM-9: every problem of a successive plan's draws (none for a single draw). */
function checkSuccessiveDraws(p: RafflePlan, problems: PlanProblem[]): void {
  if (!p.successive) {
    if (p.draws != null && p.draws.length > 0)
      problems.push({ field: 'draws', rule: 'PRM-9', message: 'a single draw (successive false) lists no draws' })
    return
  }
  // 004 G.II classes only the combinación aleatoria as "de tracto único" or "de tracto sucesivo"; a rifa is "un
  // sorteo" and a tómbola "el sorteo simultáneo de varios objetos" (004 F.I): neither is drawn on several dates.
  if (p.kind !== 'promotional')
    problems.push({
      field: 'successive',
      rule: 'PRM-9',
      message:
        'only a promotional draw (combinación aleatoria) is held on several dates; a raffle or tombola is one draw',
    })
  if (typeof p.winnersStayIn !== 'boolean')
    problems.push({
      field: 'winnersStayIn',
      rule: 'PRM-9',
      message: 'the bases must say whether a ticket that has won stays in play for the later draws',
    })
  else if (!p.winnersStayIn && p.drawAmong === 'issued')
    problems.push({
      field: 'winnersStayIn',
      rule: 'PRM-9',
      message: 'a draw among every issued number keeps every number in each draw: winnersStayIn must be true',
    })
  if (!Array.isArray(p.draws) || p.draws.length < 2) {
    problems.push({ field: 'draws', rule: 'PRM-9', message: 'successive draws need at least two dated draws' })
    return
  }
  const codes = new Map<string, number>()
  let prev = Number.NEGATIVE_INFINITY
  p.draws.forEach((d, i) => {
    const f = `draws[${i}]`
    const at = isIsoTime(d?.drawAt) ? Date.parse(d.drawAt) : NaN
    if (!Number.isFinite(at))
      problems.push({ field: `${f}.drawAt`, rule: 'PRM-9', message: 'each draw needs an ISO 8601 time with an offset' })
    else if (at <= prev)
      problems.push({
        field: `${f}.drawAt`,
        rule: 'PRM-9',
        message: 'the draws must be in date order, one after another',
      })
    if (Number.isFinite(at)) prev = at
    if (!Array.isArray(d?.prizeCodes) || d.prizeCodes.length === 0)
      problems.push({ field: `${f}.prizeCodes`, rule: 'PRM-9', message: 'each draw gives at least one prize' })
    for (const code of Array.isArray(d?.prizeCodes) ? d.prizeCodes : []) {
      if (!p.prizes.some((x) => x.code === code))
        problems.push({ field: `${f}.prizeCodes`, rule: 'PRM-9', message: `no prize ${code} in the plan` })
      else if (codes.has(code))
        problems.push({
          field: `${f}.prizeCodes`,
          rule: 'PRM-9',
          message: `prize ${code} is tied to more than one draw`,
        })
      codes.set(code, i)
    }
  })
  for (const x of p.prizes)
    if (!codes.has(x.code))
      problems.push({ field: 'draws', rule: 'PRM-9', message: `prize ${x.code} is tied to no draw` })
  if (p.draws[0]?.drawAt !== p.drawAt)
    problems.push({ field: 'draws[0].drawAt', rule: 'PRM-9', message: "the first draw is the plan's drawAt" })
  // Every draw's prizes are claimed within the claim period after it (LOT-23): the deadline counts from the last.
  const last = p.draws[p.draws.length - 1]?.drawAt
  if (typeof last === 'string' && Number.isFinite(Date.parse(last))) {
    const dates: PlanProblem[] = []
    checkPlanDates({ ...p, drawAt: last }, dates)
    for (const d of dates) if (d.field === 'claimDeadline') problems.push({ ...d, rule: 'PRM-9' })
  }
}

/** Whether a raffle or tombola is exempt from authorisation (PRM-4). */
export function isPrm4Exempt(p: Pick<RafflePlan, 'kind' | 'nonProfit' | 'prizes' | 'currency'>): boolean {
  const total = p.prizes.reduce((s, x) => s + x.valueCents, 0)
  return p.kind !== 'promotional' && p.nonProfit && p.currency === 'EUR' && total <= PRM4_EXEMPT_MAX_CENTS
}

/** Every problem of a raffle, tombola or promotional draw plan (PRM-1 to PRM-10, CFG-44). */
export function validateRafflePlan(p: RafflePlan): PlanProblem[] {
  const problems: PlanProblem[] = []
  if (!['raffle', 'tombola', 'promotional'].includes(p.kind))
    problems.push({ field: 'kind', rule: 'PRM-1', message: 'kind must be raffle, tombola or promotional' })
  requireText(p.organiser, 'organiser', 'CFG-44', problems)
  requireText(p.name, 'name', 'CFG-44', problems)
  requireText(p.drawPlace, 'drawPlace', 'CFG-44', problems)
  requireText(p.paymentPlace, 'paymentPlace', 'CFG-44', problems)
  requireText(p.currency, 'currency', 'CFG-44', problems, 3)
  if (typeof p.gameCode !== 'string' || !/^[A-Z0-9]{1,16}$/.test(p.gameCode))
    problems.push({ field: 'gameCode', rule: 'CFG-44', message: 'gameCode must be 1 to 16 capital letters or digits' })
  requireInt(p.drawNumber, 'drawNumber', 'CFG-44', 1, 99_999_999, problems)
  if (p.drawMethod !== 'rng' && p.drawMethod !== 'manual')
    problems.push({ field: 'drawMethod', rule: 'CFG-44', message: 'drawMethod must be rng or manual' })
  if (p.drawMethod === 'manual') requireText(p.drawDevice, 'drawDevice', 'CFG-44', problems, 120)
  if (p.drawAmong !== 'sold' && p.drawAmong !== 'issued')
    problems.push({ field: 'drawAmong', rule: 'PRM-1', message: 'drawAmong must be sold or issued' })
  // PRM-1 / PRM-2: a raffle or tómbola is drawn among the BUYERS of its tickets; drawing among every issued number would
  // let an unsold winning number leave the organiser the prize. Only a free promotional draw (PRM-7, PRM-8), whose
  // numbers are all handed out, may draw among every issued number.
  else if (p.drawAmong === 'issued' && p.kind !== 'promotional')
    problems.push({
      field: 'drawAmong',
      rule: 'PRM-1',
      message: `a ${p.kind} is drawn among the tickets sold, not among every issued number`,
    })
  const classes = p.kind === 'promotional' ? ['promotional'] : ['benefica', 'utilidad-publica', 'interes-particular']
  if (!classes.includes(p.classification))
    problems.push({
      field: 'classification',
      rule: 'PRM-5',
      message: `classification must be one of ${classes.join(', ')}`,
    })
  checkStaff(p.staff, problems)
  checkPlanDates(p, problems)
  const numberingOk = checkNumbering(p.numbering, problems, 'PRM-1')
  const priceOk = requireInt(p.ticketPriceCents, 'ticketPriceCents', 'PRM-1', 0, 1_000_000_000, problems)
  if (p.kind === 'promotional') {
    // PRM-7 / PRM-8: free participation, no surcharge; an individual prior communication for each activity.
    if (priceOk && p.ticketPriceCents !== 0)
      problems.push({
        field: 'ticketPriceCents',
        rule: 'PRM-8',
        message: 'a promotional draw is free: participation may cost nothing',
      })
    requireText(p.communicationRef, 'communicationRef', 'PRM-8', problems, 120)
  } else if (priceOk && p.ticketPriceCents === 0) {
    problems.push({
      field: 'ticketPriceCents',
      rule: 'PRM-1',
      message: 'raffle and tombola tickets have a single fixed price',
    })
  }
  if (!Array.isArray(p.prizes) || p.prizes.length === 0) {
    problems.push({ field: 'prizes', rule: 'PRM-1', message: 'the plan needs at least one prize' })
    return problems
  }
  const codes = new Set<string>()
  let total = 0
  p.prizes.forEach((prize, i) => {
    const f = `prizes[${i}]`
    if (typeof prize.code !== 'string' || !/^[A-Za-z0-9]{1,8}$/.test(prize.code) || codes.has(prize.code))
      problems.push({
        field: `${f}.code`,
        rule: 'PRM-1',
        message: 'prize codes are 1 to 8 letters or digits, each once',
      })
    codes.add(prize.code)
    requireText(prize.name, `${f}.name`, 'PRM-1', problems, 80)
    requireText(prize.description, `${f}.description`, 'PRM-1', problems)
    requireText(prize.depositPlace, `${f}.depositPlace`, 'PRM-6', problems)
    requireText(prize.invoiceRef, `${f}.invoiceRef`, 'PRM-6', problems, 120)
    if (requireInt(prize.valueCents, `${f}.valueCents`, 'PRM-3', 1, Number.MAX_SAFE_INTEGER, problems))
      total += prize.valueCents
    if (!['goods', 'service', 'cash'].includes(prize.kind))
      problems.push({ field: `${f}.kind`, rule: 'PRM-1', message: 'prize kind must be goods, service or cash' })
    if (prize.kind === 'cash' && p.kind !== 'promotional')
      problems.push({
        field: `${f}.kind`,
        rule: 'PRM-1',
        message: 'raffles and tombolas give goods or services, not cash',
      })
    // PRM-10: cash prizes are deposited in a bank; the place alone ("en el banco") proves nothing, the bank's slip does.
    if (prize.kind === 'cash') requireText(prize.bankDepositRef, `${f}.bankDepositRef`, 'PRM-10', problems, 120)
    // PRM-11: a prize in goods or a service states who provides it (operator or sponsor); a cash prize may be silent,
    // but never from expired prizes of business promotions either.
    if (prize.kind === 'goods' || prize.kind === 'service')
      requireGoodsSource(prize.source, `${f}.source`, null, problems)
    else if (prize.source === 'expired-promotion')
      problems.push({
        field: `${f}.source`,
        rule: 'PRM-11',
        message:
          'expired prizes of business promotions are reserved for charity and health; they may not be offered as prizes',
      })
    // PRM-10: before the draw the prize is drawn in (PRM-9: its own draw of a successive plan).
    const ownDraw =
      p.successive && Array.isArray(p.draws) ? p.draws.find((d) => d?.prizeCodes?.includes(prize.code)) : null
    const deadline = p.kind === 'promotional' ? (ownDraw?.drawAt ?? p.drawAt) : p.salesStartAt
    if (typeof prize.depositedAt !== 'string' || !Number.isFinite(Date.parse(prize.depositedAt))) {
      problems.push({
        field: `${f}.depositedAt`,
        rule: p.kind === 'promotional' ? 'PRM-10' : 'PRM-6',
        message: 'the date the prize was deposited is required',
      })
    } else if (Number.isFinite(Date.parse(deadline)) && Date.parse(prize.depositedAt) > Date.parse(deadline)) {
      problems.push({
        field: `${f}.depositedAt`,
        rule: p.kind === 'promotional' ? 'PRM-10' : 'PRM-6',
        message:
          p.kind === 'promotional'
            ? 'prizes must be acquired and deposited before the draw'
            : 'prizes must be owned and on public view before ticket sales start',
      })
    }
  })
  if (numberingOk && p.prizes.length > numberCount(p.numbering))
    problems.push({ field: 'prizes', rule: 'PRM-1', message: 'more prizes than tickets' })
  if (p.kind !== 'promotional' && numberingOk && priceOk && numberCount(p.numbering) * p.ticketPriceCents < total) {
    problems.push({
      field: 'ticketPriceCents',
      rule: 'PRM-3',
      message: `the tickets issued are worth ${numberCount(p.numbering) * p.ticketPriceCents}, less than the prizes (${total})`,
    })
  }
  if (p.kind !== 'promotional' && !isPrm4Exempt(p))
    requireText(p.authorisationRef, 'authorisationRef', 'PRM-4', problems, 120)
  checkSuccessiveDraws(p, problems)
  checkTombolaPoints(p, problems)
  return problems
}

export function parseRafflePlan(input: RafflePlanInput): RafflePlan {
  const plan = normalizeRafflePlan(input)
  assertNoProblems(validateRafflePlan(plan), 'raffle plan')
  return plan
}

/** A prize a number has won. */
export interface WonPrize {
  code: string
  name: string
  /** Per whole ticket of one series; 0 for a prize in goods (LOT-22), which is handed over, not paid. */
  amountCents: number
  /** LOT-22: what is handed over, for a prize in goods or in kind. */
  goods?: string
}

/**
 * The prizes a number wins (see the module comment), given the winning number of each exact prize.
 *
 * @example
 * lotteryPrizesFor(plan, { P1: 4217 }, 4218) // [{ code: 'A1', name: 'Aproximación', amountCents: ... }]
 */
export function lotteryPrizesFor(
  plan: Pick<LotteryPlan, 'prizes' | 'numbering'>,
  winning: Readonly<Record<string, number>>,
  number: number,
): WonPrize[] {
  const out: WonPrize[] = []
  const width = plan.numbering.digits
  for (const p of plan.prizes) {
    const r = p.rule
    let won = false
    if (r.type === 'exact') won = winning[p.code] === number
    else {
      const source = winning[r.of]
      if (source === undefined || source === number) continue
      if (r.type === 'approximation') won = Math.abs(number - source) <= r.distance
      else if (r.type === 'ending') won = number % 10 ** r.digits === source % 10 ** r.digits
      else if (r.type === 'progression') won = Math.abs(number - source) % r.step === 0
      else won = Math.floor(number / 10 ** (width - r.digits)) === Math.floor(source / 10 ** (width - r.digits))
    }
    if (!won) continue
    const goods = lotteryPrizeGoods(p)
    out.push(
      goods === null
        ? { code: p.code, name: p.name, amountCents: p.amountCents }
        : { code: p.code, name: p.name, amountCents: 0, goods },
    )
  }
  return out
}

/**
 * Every number that wins something, with its prizes, by enumerating the rules (never the whole range unless a
 * rule reaches it). Ascending by number.
 */
export function lotteryWinningNumbers(
  plan: Pick<LotteryPlan, 'prizes' | 'numbering'>,
  winning: Readonly<Record<string, number>>,
): Array<{ number: number; prizes: WonPrize[] }> {
  const { from, to, digits } = plan.numbering
  const candidates = new Set<number>()
  for (const p of plan.prizes) {
    const r = p.rule
    if (r.type === 'exact') {
      if (winning[p.code] !== undefined) candidates.add(winning[p.code])
      continue
    }
    const s = winning[r.of]
    if (s === undefined) continue
    if (r.type === 'approximation')
      for (let d = 1; d <= r.distance; d++) {
        candidates.add(s - d)
        candidates.add(s + d)
      }
    else if (r.type === 'ending') {
      const m = 10 ** r.digits
      for (let x = from + (((((s % m) - from) % m) + m) % m); x <= to; x += m) candidates.add(x)
    } else if (r.type === 'progression') {
      for (let x = from + ((((s - from) % r.step) + r.step) % r.step); x <= to; x += r.step) candidates.add(x)
    } else {
      const m = 10 ** (digits - r.digits)
      const start = Math.floor(s / m) * m
      for (let x = start; x < start + m; x++) candidates.add(x)
    }
  }
  return [...candidates]
    .filter((x) => x >= from && x <= to)
    .sort((a, b) => a - b)
    .map((number) => ({ number, prizes: lotteryPrizesFor(plan, winning, number) }))
    .filter((x) => x.prizes.length > 0)
}

/** Assigns the exact prizes their winning numbers from the values drawn (1-based positions in the numbering). */
export function exactWinners(
  plan: Pick<LotteryPlan, 'prizes' | 'numbering'>,
  values: readonly number[],
): Record<string, number> {
  const exact = plan.prizes.filter((p) => p.rule.type === 'exact')
  if (values.length < exact.length)
    throw new DomainError('VALIDATION_FAILED', `${exact.length} numbers are needed, ${values.length} given`)
  const out: Record<string, number> = {}
  exact.forEach((p, i) => {
    out[p.code] = plan.numbering.from + values[i] - 1
  })
  return out
}
