/**
 * The Plan de Sorteo of a selected-numbers lottery draw (lotto; LOT-5, §7.7, CFG-41) and its validation: an
 * impossible plan is refused with every reason at once (k >= n, shares over 100 %, a claim period under 60 days,
 * a draw before the start of sales, fixed prizes over the budget...).
 *
 * Money is in minor units (centavos), shares in basis points (1 % = 100 bp).
 *
 * Pure: no clock, no I/O.
 */
import type { DrawStaff } from '../draws/types.ts'
import { DomainError } from '../shared/errors.ts'
import {
  assertNoProblems,
  checkGoodsBacking,
  checkPlanDates,
  checkPrizeSource,
  requireGoodsSource,
  requireInt,
  requireText,
  type GoodsClass,
  type PlanDates,
  type PlanProblem,
  type PrizeSource,
} from '../shared/lottery-common.ts'

/** Largest ball range supported (1..n); the packed settlement uses ceil(n / 32) 32-bit words per play. */
export const MAX_LOTTO_RANGE = 128

/**
 * How a category's prize is set (LNS-4, LNS-23):
 * - `share`: pari-mutuel, `bp` basis points of the prize pool split equally among the category's winners;
 * - `fixed`: the same amount to every winning play, paid from the draw budget;
 * - `goods`: one unit of an invoice-backed good per winning play ("indeterminate quantity", LNS-23).
 */
export type LottoPrize =
  | { type: 'share'; bp: number }
  | { type: 'fixed'; amountCents: number }
  | {
      type: 'goods'
      description: string
      unitValueCents: number
      /** LNS-23 / LOT-22: movable (invoice), registrable (invoice, or commitment + supplier certificate); real estate refused. */
      class: GoodsClass
      invoiceRef?: string | null
      commitmentRef?: string | null
      supplierCertificateRef?: string | null
      /**
       * LNS-23 / PRM-11 (002 §7.3.10): who provides the goods (the operator's own purchase, or a sponsor); prizes
       * transferred from expired prizes of business promotions are reserved for charity and health and refused.
       * Required for lotto: the prohibition can only be checked if it is stated.
       */
      source?: PrizeSource
    }

/** A prize category (LNS-4, LNS-18): a fantasy name and the number of matches that wins it. */
export interface LottoCategory {
  /** Short stable code, e.g. "C1". */
  code: string
  /** Fantasy name shown on slips and the extracto, e.g. "Premio Mayor", "Oro Mágico" (LNS-4). */
  name: string
  /** Numbers of the board that must be among the numbers drawn (LNS-3: order is ignored). */
  matches: number
  prize: LottoPrize
}

export type { DrawStaff }

/** A selected-numbers lottery draw plan (LOT-5, §7.7, CFG-41). */
export interface LottoPlan extends PlanDates {
  /** LNS-5 (1): operator name. */
  operator: string
  /** Groups the consecutive draws of one game, e.g. "LOTO649": a slip may be valid for several of them. */
  gameCode: string
  /** Name of the game, e.g. "Loto 6/49". */
  name: string
  /** LNS-5 (4): draw number and issue. */
  drawNumber: number
  issue: string
  /** LNS-12: balls 1..n, within the range the licence authorises. */
  range: number
  /** LOT-5: numbers the player selects on each board, always lower than the range. */
  picks: number
  /** LNS-1: numbers drawn, at least `picks` and always lower than the balls loaded (default `picks`). */
  drawCount: number
  /** Price of one board for one draw. */
  priceCents: number
  currency: string
  /** CFG-41: boards a slip may hold, and consecutive draws a slip may be valid for. */
  maxBoardsPerSlip: number
  maxDrawsPerSlip: number
  /** Share of gross sales that forms the pari-mutuel prize pool (basis points). */
  prizePoolBp: number
  /** Pari-mutuel money of a category nobody won: carried to the same category of the game's next draw, or kept by the operator. */
  unwonShares: 'rollover' | 'operator'
  categories: LottoCategory[]
  /**
   * LNS-4: each draw's authorisation sets its own categories, so money rolled over from the game's previous draw
   * under a category code this plan no longer has is mapped here, explicitly, to one of this plan's pari-mutuel
   * categories (old code -> new code). A code kept by this plan needs no entry. Without it such a plan is refused
   * (see {@link unreceivedCarryCodes}): rolled-over money never disappears silently.
   */
  carryMap?: Record<string, string>
  /** LOT-5: general draw budget: what the operator commits to fixed and goods prizes. */
  budgetCents: number
  /** Plays the operator expects; when given, the expected cost of fixed and goods prizes must fit the budget. */
  expectedPlays: number | null
  /** LOT-5: place of the draw (the time is `drawAt`). */
  drawPlace: string
  /** LNS-5 (3), LNS-24: place where prizes are paid. */
  paymentPlace: string
  /** LNS-5 (3): link to the draw's Reglamento Específico. */
  regulationUrl: string
  /** LOT-3: the regulator's authorisation of this draw. */
  authorisationRef: string
  /** LNS-8, RNG-26: balls from an authorised blower or tómbola (`manual`), or the bolillo-draw-v1 RNG. */
  drawMethod: 'rng' | 'manual'
  /**
   * LNS-8 / LOT-18: the AJ-authorised extraction device of a `manual` draw: its device-registry id or seal code on
   * input; the registry id once planned (draws.ts checks it exists, is sealed, certified, active and of the draw's hall).
   */
  drawDevice: string | null
  /** LNS-8: the hall where a manual draw is held, whose registered devices may draw it (none: operator-level devices only). */
  drawHallId?: string | null
  /**
   * LNS-12: the range authorised in the operating licence. Taken from the operator's licence record (configuration),
   * never from the plan's body, wherever such a record exists (draws.ts).
   */
  licensedRange: { min: number; max: number } | null
  /** LNS-12: the Licencia de Operaciones the range was checked against. */
  licenceRef?: string | null
  staff: DrawStaff
  /** LNS-6 (10): security warnings printed on every receipt. */
  securityWarnings: string[]
}

/** Input of a plan: the optional fields may be left out and take their defaults. */
export type LottoPlanInput = Omit<
  LottoPlan,
  | 'drawCount'
  | 'expectedPlays'
  | 'drawDevice'
  | 'licensedRange'
  | 'securityWarnings'
  | 'unwonShares'
  | 'maxBoardsPerSlip'
  | 'maxDrawsPerSlip'
> &
  Partial<
    Pick<
      LottoPlan,
      | 'drawCount'
      | 'expectedPlays'
      | 'drawDevice'
      | 'licensedRange'
      | 'securityWarnings'
      | 'unwonShares'
      | 'maxBoardsPerSlip'
      | 'maxDrawsPerSlip'
    >
  >

const DEFAULT_WARNINGS = [
  'Compruebe sus números y datos antes de retirar el comprobante (LNS-19).',
  'El comprobante es el único medio para cobrar; no se sustituye por otra prueba (LOT-26).',
  'Un comprobante alterado o manipulado es nulo (LOT-8).',
]

/** Fills the defaults of a plan input. Does not validate: see {@link validateLottoPlan}. */
export function normalizeLottoPlan(input: LottoPlanInput): LottoPlan {
  return {
    ...input,
    drawCount: input.drawCount ?? input.picks,
    expectedPlays: input.expectedPlays ?? null,
    drawDevice: input.drawDevice ?? null,
    licensedRange: input.licensedRange ?? null,
    securityWarnings: input.securityWarnings ?? DEFAULT_WARNINGS,
    unwonShares: input.unwonShares ?? 'rollover',
    maxBoardsPerSlip: input.maxBoardsPerSlip ?? 10,
    maxDrawsPerSlip: input.maxDrawsPerSlip ?? 1,
  }
}

/** Binomial coefficient C(n, k) as an exact bigint. */
export function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n
  let r = 1n
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i)
  return r
}

/**
 * Probability that a board of `picks` numbers has exactly `m` of the `drawCount` numbers drawn out of `range`
 * (hypergeometric): C(drawCount, m) C(range - drawCount, picks - m) / C(range, picks).
 */
export function matchProbability(range: number, picks: number, drawCount: number, m: number): number {
  const num = choose(drawCount, m) * choose(range - drawCount, picks - m)
  const den = choose(range, picks)
  return Number((num * 1_000_000_000_000n) / den) / 1e12
}

/** Value of one winner of a fixed or goods category (0 for pari-mutuel ones). */
export function fixedValueCents(prize: LottoPrize): number {
  return prize.type === 'fixed' ? prize.amountCents : prize.type === 'goods' ? prize.unitValueCents : 0
}

/**
 * Every reason the plan is impossible or breaks a rule, with the rule's ID. Empty when the plan is valid.
 *
 * @example
 * validateLottoPlan({ ...plan, picks: 49, range: 49 }) // [{ field: 'picks', rule: 'LOT-5', message: '...' }]
 */
export function validateLottoPlan(p: LottoPlan): PlanProblem[] {
  const problems: PlanProblem[] = []
  requireText(p.operator, 'operator', 'LNS-5', problems)
  requireText(p.name, 'name', 'LOT-5', problems)
  requireText(p.issue, 'issue', 'LNS-5', problems, 40)
  requireText(p.drawPlace, 'drawPlace', 'LOT-5', problems)
  requireText(p.paymentPlace, 'paymentPlace', 'LNS-5', problems)
  requireText(p.regulationUrl, 'regulationUrl', 'LNS-5', problems)
  requireText(p.authorisationRef, 'authorisationRef', 'LOT-3', problems, 120)
  requireText(p.currency, 'currency', 'LOT-5', problems, 3)
  if (typeof p.gameCode !== 'string' || !/^[A-Z0-9]{1,16}$/.test(p.gameCode)) {
    problems.push({ field: 'gameCode', rule: 'LOT-5', message: 'gameCode must be 1 to 16 capital letters or digits' })
  }
  requireInt(p.drawNumber, 'drawNumber', 'LNS-5', 1, 99_999_999, problems)
  requireInt(p.priceCents, 'priceCents', 'LOT-5', 1, 1_000_000_000, problems)
  requireInt(p.maxBoardsPerSlip, 'maxBoardsPerSlip', 'CFG-41', 1, 100, problems)
  requireInt(p.maxDrawsPerSlip, 'maxDrawsPerSlip', 'CFG-41', 1, 52, problems)
  requireInt(p.budgetCents, 'budgetCents', 'LOT-5', 0, Number.MAX_SAFE_INTEGER, problems)
  requireInt(p.prizePoolBp, 'prizePoolBp', 'LOT-5', 0, 10_000, problems)
  if (p.unwonShares !== 'rollover' && p.unwonShares !== 'operator')
    problems.push({ field: 'unwonShares', rule: 'CFG-41', message: 'unwonShares must be rollover or operator' })
  if (p.drawMethod !== 'rng' && p.drawMethod !== 'manual')
    problems.push({ field: 'drawMethod', rule: 'LNS-8', message: 'drawMethod must be rng or manual' })
  if (p.drawMethod === 'manual') requireText(p.drawDevice, 'drawDevice', 'LNS-8', problems, 120)
  for (const role of ['authority', 'director', 'moderator', 'notary'] as const)
    requireText(p.staff?.[role], `staff.${role}`, 'LOT-19', problems, 120)
  if (!Array.isArray(p.securityWarnings) || p.securityWarnings.length === 0)
    problems.push({
      field: 'securityWarnings',
      rule: 'LNS-6',
      message: 'the receipt needs at least one security warning',
    })
  checkPlanDates(p, problems)

  const rangeOk = requireInt(p.range, 'range', 'LNS-12', 2, MAX_LOTTO_RANGE, problems)
  const picksOk = requireInt(p.picks, 'picks', 'LOT-5', 1, MAX_LOTTO_RANGE, problems)
  const drawOk = requireInt(p.drawCount, 'drawCount', 'LNS-1', 1, MAX_LOTTO_RANGE, problems)
  if (rangeOk && picksOk && p.picks >= p.range) {
    problems.push({
      field: 'picks',
      rule: 'LOT-5',
      message: `the player must select fewer numbers than the range: ${p.picks} of ${p.range}`,
    })
  }
  if (rangeOk && drawOk && p.drawCount >= p.range) {
    problems.push({
      field: 'drawCount',
      rule: 'LNS-1',
      message: `fewer balls must be drawn than are loaded: ${p.drawCount} of ${p.range}`,
    })
  }
  if (picksOk && drawOk && p.drawCount < p.picks) {
    problems.push({
      field: 'drawCount',
      rule: 'LNS-1',
      message: `at least as many numbers must be drawn as the player selects (${p.picks})`,
    })
  }
  if (rangeOk && p.licensedRange) {
    if (p.range < p.licensedRange.min || p.range > p.licensedRange.max) {
      problems.push({
        field: 'range',
        rule: 'LNS-12',
        message: `the range 1..${p.range} is outside the licensed ${p.licensedRange.min}..${p.licensedRange.max}`,
      })
    }
  }

  if (!Array.isArray(p.categories) || p.categories.length === 0) {
    problems.push({ field: 'categories', rule: 'LNS-4', message: 'the plan needs at least one prize category' })
    return problems
  }
  const codes = new Set<string>()
  const matchesSeen = new Set<number>()
  let shareBp = 0
  let fixedOnce = 0
  let expectedCost = 0
  p.categories.forEach((c, i) => {
    const f = `categories[${i}]`
    if (typeof c.code !== 'string' || !/^[A-Za-z0-9]{1,8}$/.test(c.code))
      problems.push({ field: `${f}.code`, rule: 'LNS-4', message: 'category code must be 1 to 8 letters or digits' })
    else if (codes.has(c.code))
      problems.push({ field: `${f}.code`, rule: 'LNS-4', message: `category code ${c.code} appears twice` })
    else codes.add(c.code)
    requireText(c.name, `${f}.name`, 'LNS-4', problems, 80)
    if (requireInt(c.matches, `${f}.matches`, 'LNS-16', 0, MAX_LOTTO_RANGE, problems)) {
      if (picksOk && drawOk && c.matches > Math.min(p.picks, p.drawCount)) {
        problems.push({
          field: `${f}.matches`,
          rule: 'LNS-16',
          message: `${c.matches} matches is impossible with ${p.picks} numbers selected and ${p.drawCount} drawn`,
        })
      } else if (matchesSeen.has(c.matches)) {
        problems.push({
          field: `${f}.matches`,
          rule: 'LNS-18',
          message: `two categories are won with ${c.matches} matches`,
        })
      }
      matchesSeen.add(c.matches)
    }
    const prize = c.prize
    switch (prize?.type) {
      case 'share':
        if (requireInt(prize.bp, `${f}.prize.bp`, 'LNS-4', 1, 10_000, problems)) shareBp += prize.bp
        break
      case 'fixed':
        if (requireInt(prize.amountCents, `${f}.prize.amountCents`, 'LNS-4', 1, Number.MAX_SAFE_INTEGER, problems))
          fixedOnce += prize.amountCents
        break
      case 'goods':
        requireText(prize.description, `${f}.prize.description`, 'LNS-23', problems)
        // LNS-23 (002 §7.3.10): the same backing, no real estate and no expired promotional prizes as LOT-22.
        checkGoodsBacking(prize, `${f}.prize`, problems)
        checkPrizeSource(prize.source, `${f}.prize.source`, problems)
        requireGoodsSource(prize.source, `${f}.prize.source`, 'LNS-23', problems)
        if (
          requireInt(prize.unitValueCents, `${f}.prize.unitValueCents`, 'LNS-23', 1, Number.MAX_SAFE_INTEGER, problems)
        )
          fixedOnce += prize.unitValueCents
        break
      default:
        problems.push({ field: `${f}.prize`, rule: 'LNS-4', message: 'prize type must be share, fixed or goods' })
    }
    if (
      rangeOk &&
      picksOk &&
      drawOk &&
      p.picks < p.range &&
      p.drawCount < p.range &&
      Number.isInteger(c.matches) &&
      c.prize &&
      p.expectedPlays
    ) {
      expectedCost +=
        fixedValueCents(c.prize) * p.expectedPlays * matchProbability(p.range, p.picks, p.drawCount, c.matches)
    }
  })
  if (shareBp > 10_000)
    problems.push({
      field: 'categories',
      rule: 'LNS-4',
      message: `pari-mutuel shares add up to ${(shareBp / 100).toFixed(2)} % of the prize pool, over 100 %`,
    })
  if (shareBp > 0 && p.prizePoolBp === 0)
    problems.push({
      field: 'prizePoolBp',
      rule: 'LNS-4',
      message: 'pari-mutuel categories need a prize pool share of sales',
    })
  if (Number.isSafeInteger(p.budgetCents)) {
    if (fixedOnce > p.budgetCents) {
      problems.push({
        field: 'budgetCents',
        rule: 'LOT-5',
        message: `fixed and goods prizes (one winner each: ${fixedOnce}) are over the draw budget (${p.budgetCents})`,
      })
    } else if (p.expectedPlays !== null && Math.ceil(expectedCost) > p.budgetCents) {
      problems.push({
        field: 'budgetCents',
        rule: 'LOT-5',
        message: `fixed and goods prizes are expected to cost ${Math.ceil(expectedCost)} at ${p.expectedPlays} plays, over the draw budget (${p.budgetCents})`,
      })
    }
  }
  if (p.expectedPlays !== null) requireInt(p.expectedPlays, 'expectedPlays', 'LOT-5', 1, 1_000_000_000, problems)
  if (p.carryMap !== undefined) {
    if (typeof p.carryMap !== 'object' || p.carryMap === null || Array.isArray(p.carryMap))
      problems.push({
        field: 'carryMap',
        rule: 'LNS-4',
        message: "carryMap maps old category codes to this plan's codes",
      })
    else {
      const shares = new Set(p.categories.filter((c) => c.prize?.type === 'share').map((c) => c.code))
      for (const [from, to] of Object.entries(p.carryMap)) {
        if (!shares.has(to))
          problems.push({
            field: `carryMap.${from}`,
            rule: 'LNS-4',
            message: `rolled-over money of ${from} must go to a pari-mutuel category of this plan; ${String(to)} is not one`,
          })
      }
    }
  }
  return problems
}

/** Where carried money of category `code` goes under `plan`: its own code if a pari-mutuel category, else the mapped one. */
export function carryTargetOf(plan: Pick<LottoPlan, 'categories' | 'carryMap'>, code: string): string | null {
  const isShare = (c: string) => plan.categories.some((x) => x.code === c && x.prize.type === 'share')
  if (isShare(code)) return code
  const mapped = plan.carryMap?.[code]
  return mapped !== undefined && isShare(mapped) ? mapped : null
}

/**
 * LNS-4: the pari-mutuel category codes of the game's previous draw whose rolled-over money `next` could not
 * receive (no pari-mutuel category of that code and no `carryMap` entry). A previous plan that leaves unwon
 * shares to the operator rolls nothing over.
 */
export function unreceivedCarryCodes(
  previous: Pick<LottoPlan, 'categories' | 'unwonShares'>,
  next: Pick<LottoPlan, 'categories' | 'carryMap'>,
): string[] {
  if (previous.unwonShares !== 'rollover') return []
  return previous.categories
    .filter((c) => c.prize.type === 'share' && carryTargetOf(next, c.code) === null)
    .map((c) => c.code)
}

/** Normalises and validates; throws VALIDATION_FAILED with every problem in `details.problems`. */
export function parseLottoPlan(input: LottoPlanInput): LottoPlan {
  if (typeof input !== 'object' || input === null) throw new DomainError('VALIDATION_FAILED', 'a plan is an object')
  const plan = normalizeLottoPlan(input)
  assertNoProblems(validateLottoPlan(plan), 'lotto plan')
  return plan
}
