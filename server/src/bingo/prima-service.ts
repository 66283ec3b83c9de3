/**
 * Prima de bingo (BNG-57 to BNG-64): the hall's prima row, the per-game announcement, the ledger of every movement
 * and the journal records the minutes are built from. The rules are prima.ts and the SQL store.ts; these steps run
 * inside the bingo use cases' transactions (bonus-service.ts hooks) or in the hall's own configuration transactions.
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import {
  PRIMA_RULES_CANTABRIA,
  accruePrima,
  changePrimaAmount,
  initialPrimaState,
  primaAnnouncement,
  primaDeduction,
  reversePrima,
  settlePrima,
  validatePrimaAmounts,
  validatePrimaRules,
  type PrimaAnnouncement,
  type PrimaAward,
  type PrimaRules,
  type PrimaState,
} from './prima.ts'
import type { Profile } from '../shared/profile.ts'
import { appendJournal } from '../shared/journal.ts'
import { assertRowsSealedWhere } from '../shared/row-seals.ts'
import {
  appendPrimaLedgerEntry,
  insertPrimaGame,
  insertPrimaHall,
  markPrimaGameNotOffered,
  markPrimaGameVoid,
  primaByHall as unsealedPrimaByHall,
  primaGameById as unsealedPrimaGameById,
  primaGamesInSession,
  primaHallGameInProgress,
  primaOpenSessionOfHall,
  setPrimaGameDeduction,
  setPrimaGameOutcome,
  updatePrimaRules,
  updatePrimaState,
  withdrawPrimaGame,
  type Prima,
  type PrimaGame,
} from './store/prima.ts'
import { primaLedgerAmountOf } from './store/prima-simultaneous.ts'

/**
 * Issue 24 point 1: the prima is read to announce, fund, award, reverse or hand over only as the server wrote it. A
 * hall's prima row or a game's announcement edited behind the journal refuses the step (ROW_TAMPERED, journaled by
 * the transaction) rather than be offered, awarded and sealed again with the next movement.
 */
export async function primaByHall(tx: Sql, hallId: string): Promise<Prima | undefined> {
  await assertRowsSealedWhere(tx, 'prima_halls', 't.hall_id = ?', [hallId])
  return unsealedPrimaByHall(tx, hallId)
}
async function primaGameById(tx: Sql, gameId: string): Promise<PrimaGame | undefined> {
  await assertRowsSealedWhere(tx, 'prima_games', 't.game_id = ?', [gameId])
  return unsealedPrimaGameById(tx, gameId)
}

/** A hall's prima as the API shows it. */
export interface PrimaView {
  hallId: string
  amountsCents: number[]
  rules: PrimaRules
  state: PrimaState
  /** What a game announced now would offer (BNG-60, BNG-62). */
  next: PrimaAnnouncement
}

export function rulesOf(r: Prima): PrimaRules {
  return {
    deductionBp: r.deductionBp,
    minAmountCents: r.minAmountCents,
    maxAmountCents: r.maxAmountCents,
    stepCents: r.stepCents,
    baseBallLimit: r.baseBallLimit,
    incrementPerGame: r.incrementPerGame,
    resetAfterAward: r.resetPolicy,
  }
}

export function stateOf(r: Prima): PrimaState {
  return {
    amountCents: r.amountCents,
    fundCents: r.fundCents,
    ballLimit: r.ballLimit,
    cycleGames: r.cycleGames,
    unwonGames: r.unwonGames,
    amountChangeable: r.amountChangeable,
  }
}

export function viewOf(r: Prima): PrimaView {
  const state = stateOf(r)
  return {
    hallId: r.hallId,
    amountsCents: JSON.parse(r.amounts),
    rules: rulesOf(r),
    state,
    next: primaAnnouncement(state),
  }
}

/** Journal scope for a hall-level prima record: the open session if any (so the minutes carry it, BNG-61). */
export async function hallScope(tx: Sql, hallId: string): Promise<{ scope: string; nextGameNo: number | null }> {
  const sessionId = await primaOpenSessionOfHall(tx, hallId)
  if (sessionId === undefined) return { scope: `hall:${hallId}`, nextGameNo: null }
  return { scope: `hall:${hallId}/session:${sessionId}`, nextGameNo: (await primaGamesInSession(tx, sessionId)) + 1 }
}

async function assertNoGameRunning(tx: Sql, hallId: string): Promise<void> {
  const running = await primaHallGameInProgress(tx, hallId)
  if (running !== undefined)
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      `game ${running} is in progress: the prima is changed between games (BNG-61)`,
      { gameId: running, rule: 'BNG-61' },
    )
}

export interface PrimaConfig {
  amountsCents: number[]
  amountCents?: number
  deductionBp?: number
  baseBallLimit?: number
  incrementPerGame?: number
  resetAfterAward?: 'base' | 'keep'
  /**
   * BNG-58 / BNG-59 (004 Bingo V.2.a): the reference of the Consejería's resolution under which the deduction differs
   * from the profile's 6 %. Required for any other deduction; recorded in the journal.
   */
  resolutionRef?: string
}

/**
 * BNG-58, BNG-62 (004 Bingo V.2.a): the values the decree fixes. "Se otorgará cuando se cante bingo con la bola
 * quincuagésima o inferior ... se procederá a incrementar el límite de extracción en una bola por cada una de las
 * partidas sucesivas": ball 50 and +1 per game, with no power for anyone to change them, so a hall may not. "El
 * porcentaje de detracción ... así como su máximo y su mínimo podrá ser modificado por resolución de la Consejería":
 * the 6 % changes only under a Consejería resolution, whose reference the request gives.
 */
function assertDecreeValues(profile: Profile, rules: PrimaRules, cfg: PrimaConfig, current: PrimaRules | null): void {
  const fixed = { baseBallLimit: profile.prima.baseBallLimit, incrementPerGame: profile.prima.incrementPerGame }
  for (const k of ['baseBallLimit', 'incrementPerGame'] as const)
    if (rules[k] !== fixed[k])
      throw new DomainError(
        'REGULATOR_REF_REQUIRED',
        `${k} is fixed by the decree at ${fixed[k]} (BNG-62, 004 Bingo V.2.a); no hall may change it`,
        { rule: 'BNG-62', field: k, fixed: fixed[k] },
      )
  const standard = profile.shares?.primaBp || PRIMA_RULES_CANTABRIA.deductionBp
  const changing = rules.deductionBp !== (current?.deductionBp ?? standard)
  if (changing && rules.deductionBp !== standard && !cfg.resolutionRef?.trim())
    throw new DomainError(
      'REGULATOR_REF_REQUIRED',
      `the prima deduction is ${standard} bp unless a Consejería resolution says otherwise: give its reference (BNG-58)`,
      { rule: 'BNG-58', field: 'deductionBp', standard },
    )
}

/**
 * Sets up or reconfigures a hall's prima (CFG-29). The amount in force may change only as BNG-61 allows; the
 * rules only before anything has been deducted in the current cycle.
 */
export async function configurePrimaTx(
  tx: Sql,
  hallId: string,
  profile: Profile,
  cfg: PrimaConfig,
  at: string,
  opts: { duringAnnouncement?: boolean } = {},
): Promise<Prima> {
  if (!opts.duringAnnouncement) await assertNoGameRunning(tx, hallId)
  const existing = await primaByHall(tx, hallId)
  const base = existing
    ? rulesOf(existing)
    : {
        ...PRIMA_RULES_CANTABRIA,
        deductionBp: profile.shares?.primaBp || PRIMA_RULES_CANTABRIA.deductionBp,
        baseBallLimit: profile.prima.baseBallLimit,
        incrementPerGame: profile.prima.incrementPerGame,
      }
  const rules = validatePrimaRules({
    ...base,
    deductionBp: cfg.deductionBp ?? base.deductionBp,
    // BNG-62: the decree's values, whatever an older row holds.
    baseBallLimit: cfg.baseBallLimit ?? profile.prima.baseBallLimit,
    incrementPerGame: cfg.incrementPerGame ?? profile.prima.incrementPerGame,
    resetAfterAward: cfg.resetAfterAward ?? base.resetAfterAward,
  })
  assertDecreeValues(profile, rules, cfg, existing ? rulesOf(existing) : null)
  const resolutionRef = cfg.resolutionRef?.trim() || null
  const amounts = validatePrimaAmounts(cfg.amountsCents, rules)
  const { scope, nextGameNo } = await hallScope(tx, hallId)
  if (!existing) {
    const amount = cfg.amountCents ?? amounts[0]
    if (!amounts.includes(amount))
      throw new DomainError('VALIDATION_FAILED', `${amount} is not one of the hall's prima amounts`, { rule: 'BNG-61' })
    const s = initialPrimaState(amount, rules)
    await insertPrimaHall(tx, {
      hallId,
      amountsJson: JSON.stringify(amounts),
      amountCents: amount,
      deductionBp: rules.deductionBp,
      minAmountCents: rules.minAmountCents,
      maxAmountCents: rules.maxAmountCents,
      stepCents: rules.stepCents,
      baseBallLimit: rules.baseBallLimit,
      incrementPerGame: rules.incrementPerGame,
      resetPolicy: rules.resetAfterAward,
      fundCents: s.fundCents,
      ballLimit: s.ballLimit,
      cycleGames: s.cycleGames,
      unwonGames: s.unwonGames,
      amountChangeable: 1,
      at,
    })
    await appendJournal(tx, {
      at,
      type: 'prima.configured',
      scope,
      payload: { hallId, amountsCents: amounts, amountCents: amount, rules, resolutionRef, nextGameNo, rule: 'BNG-59' },
    })
    return (await primaByHall(tx, hallId))!
  }
  let state = stateOf(existing)
  const rulesChanged = JSON.stringify(rules) !== JSON.stringify(rulesOf(existing))
  if (rulesChanged && !(state.amountChangeable || (state.fundCents === 0 && state.cycleGames === 0))) {
    throw new DomainError(
      'ILLEGAL_TRANSITION',
      'the prima rules change only between cycles (after an award, before the next deduction)',
      { rule: 'BNG-59' },
    )
  }
  const amount = cfg.amountCents ?? state.amountCents
  const from = state.amountCents
  if (amount !== from || !amounts.includes(from)) state = changePrimaAmount(state, amount, amounts, rules)
  await updatePrimaRules(
    tx,
    hallId,
    {
      amountsJson: JSON.stringify(amounts),
      deductionBp: rules.deductionBp,
      baseBallLimit: rules.baseBallLimit,
      incrementPerGame: rules.incrementPerGame,
      resetPolicy: rules.resetAfterAward,
    },
    at,
  )
  await updatePrimaState(tx, hallId, state, at)
  if (amount !== from) {
    // BNG-61: the change is announced and the minutes record it with the game number from which it applies.
    await appendJournal(tx, {
      at,
      type: 'prima.amount_changed',
      scope,
      payload: { hallId, fromCents: from, toCents: amount, fromGameNo: nextGameNo, rule: 'BNG-61' },
    })
  }
  if (rulesChanged || JSON.stringify(amounts) !== existing.amounts) {
    await appendJournal(tx, {
      at,
      type: 'prima.configured',
      scope,
      payload: { hallId, amountsCents: amounts, amountCents: amount, rules, resolutionRef, nextGameNo, rule: 'BNG-59' },
    })
  }
  return (await primaByHall(tx, hallId))!
}

/** The hall's prima, created with the profile's defaults the first time a Cantabria-type hall needs it. */
export async function ensurePrima(tx: Sql, hallId: string, profile: Profile, at: string): Promise<Prima | undefined> {
  const row = await primaByHall(tx, hallId)
  if (row || !profile.prima.enabled || profile.prima.amountsCents.length === 0) return row
  return configurePrimaTx(tx, hallId, profile, { amountsCents: profile.prima.amountsCents }, at, {
    duringAnnouncement: true,
  })
}

/** BNG-62, BNG-63: the announcement of a game, shown on the panels until it ends. */
export async function announcePrima(
  tx: Sql,
  e: { gameId: string; hallId: string; profile: Profile; at: string; scope: string },
): Promise<void> {
  const row = await ensurePrima(tx, e.hallId, e.profile, e.at)
  if (!row) return
  const a = primaAnnouncement(stateOf(row))
  await insertPrimaGame(tx, {
    gameId: e.gameId,
    hallId: e.hallId,
    active: a.active,
    amountCents: a.amountCents,
    ballLimit: a.ballLimit,
    fundCents: a.fundCents,
  })
  await appendJournal(tx, {
    at: e.at,
    type: 'prima.announced',
    scope: e.scope,
    payload: { gameId: e.gameId, hallId: e.hallId, ...a, rule: 'BNG-62' },
  })
}

/** A simultaneous game is played under the central's rules: the hall prima is not on offer in it. */
export async function withdrawPrima(
  tx: Sql,
  e: { gameId: string; at: string; scope: string; reason: string },
): Promise<void> {
  if (await withdrawPrimaGame(tx, e.gameId))
    await appendJournal(tx, {
      at: e.at,
      type: 'prima.not_offered',
      scope: e.scope,
      payload: { gameId: e.gameId, reason: e.reason },
    })
}

/** BNG-58, BNG-63: at close of sales the game's deduction enters the fund (also while the prima is on offer). */
export async function deductPrima(
  tx: Sql,
  e: { gameId: string; hallId: string; cardsSold: number; faceValueCents: number; at: string; scope: string },
): Promise<void> {
  const g = await primaGameById(tx, e.gameId)
  const row = await primaByHall(tx, e.hallId)
  if (!g || !row || g.outcome !== null || g.deductionCents !== null) return
  const deduction = primaDeduction(e.cardsSold, e.faceValueCents, rulesOf(row))
  const state = accruePrima(stateOf(row), deduction)
  await updatePrimaState(tx, e.hallId, state, e.at)
  await setPrimaGameDeduction(tx, e.gameId, deduction)
  await appendPrimaLedgerEntry(tx, e.hallId, {
    kind: 'deduction',
    gameId: e.gameId,
    amountCents: deduction,
    fundAfterCents: state.fundCents,
    detail: { cardsSold: e.cardsSold, faceValueCents: e.faceValueCents, deductionBp: rulesOf(row).deductionBp },
    at: e.at,
  })
  await appendJournal(tx, {
    at: e.at,
    type: 'prima.deducted',
    scope: e.scope,
    payload: {
      gameId: e.gameId,
      hallId: e.hallId,
      deductedCents: deduction,
      accumulatedCents: state.fundCents,
      cycleGames: state.cycleGames,
      deductionBp: rulesOf(row).deductionBp,
      rule: 'BNG-58',
    },
  })
}

/**
 * BNG-58 with BNG-100: a simultaneous game is an ordinary bingo game played in several halls at once (004 Bingo
 * VI.1, "conforme a las normas generales que rigen el Bingo Ordinario"), so 6 % of the face value of every card each
 * hall sold goes into that hall's own prima fund at the close of sales, as in any game of the hall. The game does not
 * offer a hall's prima (withdrawPrima): the halls play the central's prizes. Once per (hall, game), by the ledger.
 */
export async function deductSimultaneousPrima(
  tx: Sql,
  e: {
    gameId: string
    centralHallId: string
    faceValueCents: number
    halls: Array<{ hallId: string; cardsSold: number; profile: Profile }>
    at: string
    scope: string
  },
): Promise<void> {
  for (const h of e.halls) {
    const row = await ensurePrima(tx, h.hallId, h.profile, e.at)
    if (!row) continue
    if ((await primaLedgerAmountOf(tx, h.hallId, e.gameId, 'deduction')) !== undefined) continue
    const rules = rulesOf(row)
    const deduction = primaDeduction(h.cardsSold, e.faceValueCents, rules)
    const state = accruePrima(stateOf(row), deduction)
    await updatePrimaState(tx, h.hallId, state, e.at)
    await appendPrimaLedgerEntry(tx, h.hallId, {
      kind: 'deduction',
      gameId: e.gameId,
      amountCents: deduction,
      fundAfterCents: state.fundCents,
      detail: {
        cardsSold: h.cardsSold,
        faceValueCents: e.faceValueCents,
        deductionBp: rules.deductionBp,
        simultaneous: true,
      },
      at: e.at,
    })
    const scope = h.hallId === e.centralHallId ? e.scope : (await hallScope(tx, h.hallId)).scope
    await appendJournal(tx, {
      at: e.at,
      type: 'prima.deducted',
      scope,
      payload: {
        gameId: e.gameId,
        hallId: h.hallId,
        deductedCents: deduction,
        accumulatedCents: state.fundCents,
        cycleGames: state.cycleGames,
        deductionBp: rules.deductionBp,
        simultaneous: true,
        rule: 'BNG-58',
      },
    })
  }
}

/** A void simultaneous game (BNG-86): each hall's deduction leaves its fund again, once. */
export async function reverseSimultaneousPrima(
  tx: Sql,
  e: { gameId: string; hallIds: string[]; at: string; scope: string },
): Promise<void> {
  for (const hallId of e.hallIds) {
    const deduction = await primaLedgerAmountOf(tx, hallId, e.gameId, 'deduction')
    const row = await primaByHall(tx, hallId)
    if (deduction === undefined || !row) continue
    if ((await primaLedgerAmountOf(tx, hallId, e.gameId, 'reversal')) !== undefined) continue
    const state = reversePrima(stateOf(row), deduction)
    await updatePrimaState(tx, hallId, state, e.at)
    await appendPrimaLedgerEntry(tx, hallId, {
      kind: 'reversal',
      gameId: e.gameId,
      amountCents: -deduction,
      fundAfterCents: state.fundCents,
      detail: { reason: 'simultaneous game void, cards refunded' },
      at: e.at,
    })
    await appendJournal(tx, {
      at: e.at,
      type: 'prima.reversed',
      scope: (await hallScope(tx, hallId)).scope,
      payload: {
        gameId: e.gameId,
        hallId,
        reversedCents: deduction,
        accumulatedCents: state.fundCents,
        rule: 'BNG-86',
      },
    })
  }
}

/**
 * BNG-57, BNG-62, BNG-63: settles the prima when the bingo is awarded. Returns the award (with each winner's share)
 * so that the caller records the bonus prizes.
 */
export async function settlePrimaTx(
  tx: Sql,
  e: {
    gameId: string
    hallId: string
    atBall: number
    winners: Array<{ serial: string; cardId: string; completedAtBall: number | null }>
    at: string
    scope: string
  },
): Promise<PrimaAward | null> {
  const g = await primaGameById(tx, e.gameId)
  const row = await primaByHall(tx, e.hallId)
  if (!g || !row || g.outcome !== null) return null
  if (!g.active) {
    await markPrimaGameNotOffered(tx, e.gameId)
    return null
  }
  const announced: PrimaAnnouncement = {
    active: true,
    amountCents: g.amountCents,
    ballLimit: g.ballLimit,
    fundCents: g.fundAtStartCents,
  }
  const { state, award } = settlePrima(
    stateOf(row),
    announced,
    { atBall: e.atBall, winnerSerials: e.winners.map((w) => w.serial) },
    rulesOf(row),
  )
  // The fund a prima is awarded from is the ledger's: every movement of it must be as the server wrote it.
  if (award) await assertRowsSealedWhere(tx, 'prima_ledger', 't.hall_id = ?', [e.hallId])
  await updatePrimaState(tx, e.hallId, state, e.at)
  await setPrimaGameOutcome(tx, e.gameId, award ? 'won' : 'not_won')
  if (award) {
    await appendPrimaLedgerEntry(tx, e.hallId, {
      kind: 'award',
      gameId: e.gameId,
      amountCents: -award.amountCents,
      fundAfterCents: state.fundCents,
      detail: { atBall: award.atBall, ballLimit: award.ballLimit, accumulatedGames: award.accumulatedGames },
      at: e.at,
    })
    const bySerial = new Map(e.winners.map((w) => [w.serial, w]))
    await appendJournal(tx, {
      at: e.at,
      type: 'prima.awarded',
      scope: e.scope,
      payload: {
        gameId: e.gameId,
        hallId: e.hallId,
        amountCents: award.amountCents,
        atBall: award.atBall,
        ballLimit: award.ballLimit,
        accumulatedGames: award.accumulatedGames,
        winners: award.winners.map((w) => ({
          ...w,
          cardId: bySerial.get(w.serial)?.cardId ?? null,
          completedAtBall: bySerial.get(w.serial)?.completedAtBall ?? null,
        })),
        fundAfterCents: state.fundCents,
        nextBallLimit: state.ballLimit,
        nextAmountCents: state.amountCents,
        remainderRule: 'equal split per card, leftover cents one each to the lowest serials',
        rule: 'BNG-57',
      },
    })
  } else {
    await appendJournal(tx, {
      at: e.at,
      type: 'prima.not_won',
      scope: e.scope,
      payload: {
        gameId: e.gameId,
        hallId: e.hallId,
        atBall: e.atBall,
        ballLimit: announced.ballLimit,
        nextBallLimit: state.ballLimit,
        rule: 'BNG-62',
      },
    })
  }
  return award
}

/** A void game (BNG-86: every card refunded): its deduction leaves the fund again. */
export async function reversePrimaTx(
  tx: Sql,
  e: { gameId: string; hallId: string; at: string; scope: string },
): Promise<void> {
  const g = await primaGameById(tx, e.gameId)
  const row = await primaByHall(tx, e.hallId)
  if (!g || !row || g.outcome !== null) return
  await markPrimaGameVoid(tx, e.gameId)
  if (g.deductionCents === null) return
  const deduction = g.deductionCents
  const state = reversePrima(stateOf(row), deduction)
  await updatePrimaState(tx, e.hallId, state, e.at)
  await appendPrimaLedgerEntry(tx, e.hallId, {
    kind: 'reversal',
    gameId: e.gameId,
    amountCents: -deduction,
    fundAfterCents: state.fundCents,
    detail: { reason: 'game void, cards refunded' },
    at: e.at,
  })
  await appendJournal(tx, {
    at: e.at,
    type: 'prima.reversed',
    scope: e.scope,
    payload: {
      gameId: e.gameId,
      hallId: e.hallId,
      reversedCents: deduction,
      accumulatedCents: state.fundCents,
      rule: 'BNG-86',
    },
  })
}

/** Records the payment of a prima prize in the ledger (the fund moved at the award; this keeps who was paid). */
export async function primaPaymentTx(
  tx: Sql,
  e: { hallId: string; gameId: string; bonusPrizeId: string; amountCents: number; at: string },
): Promise<void> {
  const row = await primaByHall(tx, e.hallId)
  if (!row) return
  await appendPrimaLedgerEntry(tx, e.hallId, {
    kind: 'payment',
    gameId: e.gameId,
    amountCents: 0,
    fundAfterCents: row.fundCents,
    detail: { bonusPrizeId: e.bonusPrizeId, paidCents: e.amountCents },
    at: e.at,
  })
}
