/**
 * Prima de bingo (Cantabria, BNG-57 to BNG-64; CFG-29). Pure rules: the hall's fund, the amount in force, when the
 * prize is on offer, the ball limit and its growth, the award and its split. Storage, journal and ledger live in
 * app/prima.ts; everything here takes values and returns values.
 *
 * Interpretation choices (stated in README and in the minutes):
 * - Funding (BNG-58, BNG-63): at every close of sales the deduction `deductionBp` of face value x cards sold goes
 *   into the fund, also while the prima is on offer and after the fund has passed the amount ("continued
 *   funding"); an award takes exactly the amount in force out of the fund and the rest funds later primas.
 * - Activation (BNG-60): a game offers the prima when, at its announcement, the fund already holds the amount in
 *   force, i.e. the fund reached it during an earlier game's close of sales. It stays on offer until awarded.
 * - Ball limit (BNG-62): the first game that offers the prima has the base limit (50). Each game that offered it
 *   and ended without a bingo within the limit raises the limit by `incrementPerGame` (+1) for the next game.
 *   After the award the limit goes back to the base (`resetAfterAward: 'base'`, the regulation's silence read as
 *   a new cycle; 'keep' is configurable). A void game changes nothing and its deduction is reversed.
 * - Winning (BNG-57): the bingo verified when the number of balls drawn is at most the limit; the prima is split
 *   among every bingo winner of that game, equal parts per card, leftover cents one each to the lowest serials
 *   (the same rule as the ordinary prizes, money.ts).
 * - Accumulated games (BNG-64): the number of games whose deduction went into the fund since the previous award,
 *   the winning game included.
 * - Amount changes (BNG-60, BNG-61): the hall chooses among its own amounts, each 50 to 1,000 units in multiples of
 *   50. It may change the amount in force only when that amount has been awarded and no game of the new cycle has
 *   closed its sales yet (or before anything has been deducted at all).
 */
import { DomainError } from '../shared/errors.ts'
import { compareBytes } from './game.ts'
import { shareOf, splitEvenly, type Cents } from '../shared/money.ts'

export interface PrimaRules {
  /** BNG-58: share of face value x cards sold deducted into the fund (600 = 6 %). */
  deductionBp: number
  /** BNG-59: smallest amount a hall may choose (5,000 = 50.00). */
  minAmountCents: Cents
  /** BNG-59: largest amount (100,000 = 1,000.00). */
  maxAmountCents: Cents
  /** BNG-59: amounts are multiples of this (5,000 = 50.00). */
  stepCents: Cents
  /** BNG-62: the bingo must come with this ball or earlier (50). */
  baseBallLimit: number
  /** BNG-62: growth of the limit per game offered and not won (+1). */
  incrementPerGame: number
  /** What the limit becomes after an award (the text is silent; see the module comment). */
  resetAfterAward: 'base' | 'keep'
}

/** Cantabria, Decreto 6/2010 V.2.a: 6 %, 50 to 1,000 EUR in multiples of 50, ball 50, +1 per game. */
export const PRIMA_RULES_CANTABRIA: PrimaRules = Object.freeze({
  deductionBp: 600,
  minAmountCents: 5_000,
  maxAmountCents: 100_000,
  stepCents: 5_000,
  baseBallLimit: 50,
  incrementPerGame: 1,
  resetAfterAward: 'base',
}) as PrimaRules

/** A hall's prima between games. */
export interface PrimaState {
  /** The amount in force (BNG-59, BNG-61). */
  amountCents: Cents
  /** Money accumulated and not yet awarded (BNG-58, BNG-63). */
  fundCents: Cents
  /** The ball limit the next game that offers the prima will have (BNG-62). */
  ballLimit: number
  /** Games whose deduction went into the fund since the last award (BNG-64). */
  cycleGames: number
  /** Games that offered the prima and were not won since the last award. */
  unwonGames: number
  /** The amount in force has been awarded and the new cycle has not started (BNG-61: it may be changed now). */
  amountChangeable: boolean
}

/** What is announced at the start of a game and shown on the panels (BNG-37 (5), BNG-62, BNG-63). */
export interface PrimaAnnouncement {
  active: boolean
  amountCents: Cents
  ballLimit: number
  fundCents: Cents
}

export interface PrimaAward {
  amountCents: Cents
  /** Balls drawn when the bingo was verified. */
  atBall: number
  ballLimit: number
  accumulatedGames: number
  /** Winner shares in serial byte order; they sum to amountCents. */
  winners: Array<{ serial: string; amountCents: Cents }>
}

/** Every reason the amount is not a valid prima amount under `rules` (empty = valid). */
export function primaAmountProblems(amountCents: number, rules: PrimaRules = PRIMA_RULES_CANTABRIA): string[] {
  const out: string[] = []
  if (!Number.isSafeInteger(amountCents)) return [`${amountCents} is not a whole number of cents`]
  if (amountCents < rules.minAmountCents)
    out.push(`${amountCents} is below the minimum ${rules.minAmountCents} (BNG-59)`)
  if (amountCents > rules.maxAmountCents)
    out.push(`${amountCents} is above the maximum ${rules.maxAmountCents} (BNG-59)`)
  if (amountCents % rules.stepCents !== 0) out.push(`${amountCents} is not a multiple of ${rules.stepCents} (BNG-59)`)
  return out
}

/** Validates the hall's list of amounts (at least one, no repeats, each valid). Throws VALIDATION_FAILED. */
export function validatePrimaAmounts(
  amountsCents: readonly number[],
  rules: PrimaRules = PRIMA_RULES_CANTABRIA,
): number[] {
  if (!Array.isArray(amountsCents) || amountsCents.length === 0)
    throw new DomainError('VALIDATION_FAILED', 'a hall needs at least one prima amount (BNG-59)', { rule: 'BNG-59' })
  const problems = amountsCents.flatMap((a) => primaAmountProblems(a, rules))
  if (new Set(amountsCents).size !== amountsCents.length) problems.push('the amounts repeat')
  if (problems.length)
    throw new DomainError('VALIDATION_FAILED', `invalid prima amounts: ${problems.join('; ')}`, {
      rule: 'BNG-59',
      problems,
    })
  return [...amountsCents].sort((a, b) => a - b)
}

/** Validates the rules themselves (bp 0..10000, a limit of at least one ball, a step dividing min and max). */
export function validatePrimaRules(rules: PrimaRules): PrimaRules {
  const p: string[] = []
  if (!Number.isInteger(rules.deductionBp) || rules.deductionBp < 0 || rules.deductionBp > 10_000)
    p.push('deductionBp must be 0..10000')
  if (!Number.isInteger(rules.baseBallLimit) || rules.baseBallLimit < 1 || rules.baseBallLimit > 255)
    p.push('baseBallLimit must be 1..255')
  if (!Number.isInteger(rules.incrementPerGame) || rules.incrementPerGame < 0 || rules.incrementPerGame > 255)
    p.push('incrementPerGame must be 0..255')
  if (
    !(rules.stepCents > 0) ||
    rules.minAmountCents % rules.stepCents !== 0 ||
    rules.maxAmountCents % rules.stepCents !== 0 ||
    rules.minAmountCents > rules.maxAmountCents
  )
    p.push('min and max must be multiples of the step, min <= max')
  if (rules.resetAfterAward !== 'base' && rules.resetAfterAward !== 'keep')
    p.push("resetAfterAward must be 'base' or 'keep'")
  if (p.length) throw new DomainError('VALIDATION_FAILED', `invalid prima rules: ${p.join('; ')}`, { problems: p })
  return rules
}

/** A new prima with nothing accumulated. */
export function initialPrimaState(amountCents: Cents, rules: PrimaRules = PRIMA_RULES_CANTABRIA): PrimaState {
  const problems = primaAmountProblems(amountCents, rules)
  if (problems.length) throw new DomainError('VALIDATION_FAILED', problems.join('; '), { rule: 'BNG-59' })
  return {
    amountCents,
    fundCents: 0,
    ballLimit: rules.baseBallLimit,
    cycleGames: 0,
    unwonGames: 0,
    amountChangeable: true,
  }
}

/** BNG-60, BNG-62: what a game announced now offers. */
export function primaAnnouncement(state: PrimaState): PrimaAnnouncement {
  return {
    active: state.fundCents >= state.amountCents,
    amountCents: state.amountCents,
    ballLimit: state.ballLimit,
    fundCents: state.fundCents,
  }
}

/** BNG-58: the deduction of one game, shareOf rounds down to the cent. */
export function primaDeduction(
  cardsSold: number,
  faceValueCents: Cents,
  rules: PrimaRules = PRIMA_RULES_CANTABRIA,
): Cents {
  if (!Number.isSafeInteger(cardsSold) || cardsSold < 0) throw new RangeError(`bad card count ${cardsSold}`)
  return shareOf(cardsSold * faceValueCents, rules.deductionBp)
}

/** BNG-58, BNG-63: the game's deduction enters the fund at close of sales; the new cycle has started. */
export function accruePrima(state: PrimaState, deductionCents: Cents): PrimaState {
  if (!Number.isSafeInteger(deductionCents) || deductionCents < 0)
    throw new RangeError(`bad deduction ${deductionCents}`)
  return {
    ...state,
    fundCents: state.fundCents + deductionCents,
    cycleGames: state.cycleGames + 1,
    amountChangeable: false,
  }
}

/** A void game (BNG-86 refund): its deduction leaves the fund again; the limit is untouched. */
export function reversePrima(state: PrimaState, deductionCents: Cents): PrimaState {
  return { ...state, fundCents: state.fundCents - deductionCents, cycleGames: Math.max(0, state.cycleGames - 1) }
}

/**
 * BNG-57, BNG-62, BNG-63: settles a finished game that was announced with `announced`. `atBall` is the number of
 * balls drawn when the bingo was verified; `winnerSerials` the bingo winners. Returns the next state and the award
 * (null when the prima was not on offer or the bingo came after the limit).
 */
export function settlePrima(
  state: PrimaState,
  announced: PrimaAnnouncement,
  bingo: { atBall: number; winnerSerials: readonly string[] },
  rules: PrimaRules = PRIMA_RULES_CANTABRIA,
): { state: PrimaState; award: PrimaAward | null } {
  if (!announced.active) return { state, award: null }
  if (bingo.winnerSerials.length > 0 && bingo.atBall <= announced.ballLimit) {
    const sorted = [...bingo.winnerSerials].sort(compareBytes)
    const parts = splitEvenly(announced.amountCents, sorted.length)
    const award: PrimaAward = {
      amountCents: announced.amountCents,
      atBall: bingo.atBall,
      ballLimit: announced.ballLimit,
      accumulatedGames: state.cycleGames,
      winners: sorted.map((serial, i) => ({ serial, amountCents: parts[i] })),
    }
    return {
      award,
      state: {
        ...state,
        fundCents: state.fundCents - announced.amountCents,
        cycleGames: 0,
        unwonGames: 0,
        amountChangeable: true,
        ballLimit: rules.resetAfterAward === 'base' ? rules.baseBallLimit : announced.ballLimit,
      },
    }
  }
  // Offered and not won: one more ball for the next game (BNG-62).
  return {
    state: { ...state, ballLimit: announced.ballLimit + rules.incrementPerGame, unwonGames: state.unwonGames + 1 },
    award: null,
  }
}

/**
 * BNG-61: the hall chooses another of its amounts. Allowed when the amount in force has been awarded and the new
 * cycle has not started, or when nothing has been deducted yet.
 */
export function changePrimaAmount(
  state: PrimaState,
  amountCents: Cents,
  hallAmounts: readonly Cents[],
  rules: PrimaRules = PRIMA_RULES_CANTABRIA,
): PrimaState {
  const problems = primaAmountProblems(amountCents, rules)
  if (problems.length) throw new DomainError('VALIDATION_FAILED', problems.join('; '), { rule: 'BNG-59' })
  if (!hallAmounts.includes(amountCents))
    throw new DomainError('VALIDATION_FAILED', `${amountCents} is not one of the hall's prima amounts`, {
      rule: 'BNG-61',
      amounts: hallAmounts,
    })
  const untouched = state.fundCents === 0 && state.cycleGames === 0
  if (!state.amountChangeable && !untouched) {
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      'the prima amount in force must be awarded before another is chosen (BNG-60, BNG-61)',
      { rule: 'BNG-61' },
    )
  }
  return { ...state, amountCents }
}
