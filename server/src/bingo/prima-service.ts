/**
 * Prima de bingo storage (BNG-57 to BNG-64): the hall's prima row, the per-game announcement, the ledger of every
 * movement and the journal records the minutes are built from. The rules are domain/prima.ts; these functions run
 * inside the bingo use cases' transactions (app/bonus.ts hooks) or in the hall's own configuration transactions.
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import {
  PRIMA_RULES_CANTABRIA, accruePrima, changePrimaAmount, initialPrimaState, primaAnnouncement, primaDeduction, reversePrima,
  settlePrima, validatePrimaAmounts, validatePrimaRules, type PrimaAnnouncement, type PrimaAward, type PrimaRules, type PrimaState,
} from './prima.ts'
import type { Profile } from '../shared/profile.ts'
import { appendJournal } from '../shared/journal.ts'

export interface PrimaRow {
  hall_id: string; amounts: string; amount_cents: number; deduction_bp: number; min_amount_cents: number; max_amount_cents: number
  step_cents: number; base_ball_limit: number; increment_per_game: number; reset_policy: 'base' | 'keep'; fund_cents: number
  ball_limit: number; cycle_games: number; unwon_games: number; amount_changeable: number; entries: number; updated_at: string
}
export interface PrimaGameRow { game_id: string; hall_id: string; active: number; amount_cents: number; ball_limit: number; fund_at_start_cents: number; deduction_cents: number | null; outcome: string | null }

/** A hall's prima as the API shows it. */
export interface PrimaView {
  hallId: string
  amountsCents: number[]
  rules: PrimaRules
  state: PrimaState
  /** What a game announced now would offer (BNG-60, BNG-62). */
  next: PrimaAnnouncement
}

export function rulesOf(r: PrimaRow): PrimaRules {
  return {
    deductionBp: Number(r.deduction_bp), minAmountCents: Number(r.min_amount_cents), maxAmountCents: Number(r.max_amount_cents), stepCents: Number(r.step_cents),
    baseBallLimit: Number(r.base_ball_limit), incrementPerGame: Number(r.increment_per_game), resetAfterAward: r.reset_policy,
  }
}

export function stateOf(r: PrimaRow): PrimaState {
  return {
    amountCents: Number(r.amount_cents), fundCents: Number(r.fund_cents), ballLimit: Number(r.ball_limit), cycleGames: Number(r.cycle_games),
    unwonGames: Number(r.unwon_games), amountChangeable: Boolean(Number(r.amount_changeable)),
  }
}

export function viewOf(r: PrimaRow): PrimaView {
  const state = stateOf(r)
  return { hallId: r.hall_id, amountsCents: JSON.parse(r.amounts), rules: rulesOf(r), state, next: primaAnnouncement(state) }
}

export async function loadPrima(tx: Sql, hallId: string): Promise<PrimaRow | undefined> {
  return tx.get<PrimaRow>('SELECT * FROM prima_halls WHERE hall_id = ?', [hallId])
}

async function saveState(tx: Sql, hallId: string, s: PrimaState, at: string): Promise<void> {
  await tx.run('UPDATE prima_halls SET amount_cents = ?, fund_cents = ?, ball_limit = ?, cycle_games = ?, unwon_games = ?, amount_changeable = ?, updated_at = ? WHERE hall_id = ?', [
    s.amountCents, s.fundCents, s.ballLimit, s.cycleGames, s.unwonGames, s.amountChangeable ? 1 : 0, at, hallId,
  ])
}

/** Appends one movement to the hall's prima ledger (entry numbers 1, 2, 3, ... per hall). */
async function ledger(tx: Sql, hallId: string, e: { kind: 'deduction' | 'award' | 'reversal' | 'payment'; gameId: string | null; amountCents: number; fundAfterCents: number; detail: unknown; at: string }): Promise<void> {
  const row = await tx.get<{ entries: number }>('SELECT entries FROM prima_halls WHERE hall_id = ?', [hallId])
  const entryNo = Number(row?.entries ?? 0) + 1
  await tx.run('INSERT INTO prima_ledger (hall_id, entry_no, kind, game_id, amount_cents, fund_after_cents, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
    hallId, entryNo, e.kind, e.gameId, e.amountCents, e.fundAfterCents, JSON.stringify(e.detail ?? {}), e.at,
  ])
  await tx.run('UPDATE prima_halls SET entries = ? WHERE hall_id = ?', [entryNo, hallId])
}

/** Journal scope for a hall-level prima record: the open session if any (so the minutes carry it, BNG-61). */
export async function hallScope(tx: Sql, hallId: string): Promise<{ scope: string; nextGameNo: number | null }> {
  const s = await tx.get<{ id: string }>("SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed' ORDER BY opened_at DESC LIMIT 1", [hallId])
  if (!s) return { scope: `hall:${hallId}`, nextGameNo: null }
  const n = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM games WHERE session_id = ?', [s.id])
  return { scope: `hall:${hallId}/session:${s.id}`, nextGameNo: Number(n?.n ?? 0) + 1 }
}

async function assertNoGameRunning(tx: Sql, hallId: string): Promise<void> {
  const running = await tx.get<{ id: string }>("SELECT id FROM games WHERE hall_id = ? AND status NOT IN ('finished', 'void')", [hallId])
  if (running) throw new DomainError('ILLEGAL_TRANSITION', `game ${running.id} is in progress: the prima is changed between games (BNG-61)`, { gameId: running.id, rule: 'BNG-61' })
}

export interface PrimaConfig {
  amountsCents: number[]
  amountCents?: number
  deductionBp?: number
  baseBallLimit?: number
  incrementPerGame?: number
  resetAfterAward?: 'base' | 'keep'
}

/**
 * Sets up or reconfigures a hall's prima (CFG-29). The amount in force may change only as BNG-61 allows; the
 * rules only before anything has been deducted in the current cycle.
 */
export async function configurePrimaTx(tx: Sql, hallId: string, profile: Profile, cfg: PrimaConfig, at: string, opts: { duringAnnouncement?: boolean } = {}): Promise<PrimaRow> {
  if (!opts.duringAnnouncement) await assertNoGameRunning(tx, hallId)
  const existing = await loadPrima(tx, hallId)
  const base = existing ? rulesOf(existing) : { ...PRIMA_RULES_CANTABRIA, deductionBp: profile.shares.primaBp || PRIMA_RULES_CANTABRIA.deductionBp, baseBallLimit: profile.prima.baseBallLimit, incrementPerGame: profile.prima.incrementPerGame }
  const rules = validatePrimaRules({
    ...base,
    deductionBp: cfg.deductionBp ?? base.deductionBp, baseBallLimit: cfg.baseBallLimit ?? base.baseBallLimit,
    incrementPerGame: cfg.incrementPerGame ?? base.incrementPerGame, resetAfterAward: cfg.resetAfterAward ?? base.resetAfterAward,
  })
  const amounts = validatePrimaAmounts(cfg.amountsCents, rules)
  const { scope, nextGameNo } = await hallScope(tx, hallId)
  if (!existing) {
    const amount = cfg.amountCents ?? amounts[0]
    if (!amounts.includes(amount)) throw new DomainError('VALIDATION_FAILED', `${amount} is not one of the hall's prima amounts`, { rule: 'BNG-61' })
    const s = initialPrimaState(amount, rules)
    await tx.run(
      `INSERT INTO prima_halls (hall_id, amounts, amount_cents, deduction_bp, min_amount_cents, max_amount_cents, step_cents, base_ball_limit, increment_per_game, reset_policy, fund_cents, ball_limit, cycle_games, unwon_games, amount_changeable, entries, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      [hallId, JSON.stringify(amounts), amount, rules.deductionBp, rules.minAmountCents, rules.maxAmountCents, rules.stepCents, rules.baseBallLimit, rules.incrementPerGame, rules.resetAfterAward, s.fundCents, s.ballLimit, s.cycleGames, s.unwonGames, 1, at],
    )
    await appendJournal(tx, { at, type: 'prima.configured', scope, payload: { hallId, amountsCents: amounts, amountCents: amount, rules, nextGameNo, rule: 'BNG-59' } })
    return (await loadPrima(tx, hallId))!
  }
  let state = stateOf(existing)
  const rulesChanged = JSON.stringify(rules) !== JSON.stringify(rulesOf(existing))
  if (rulesChanged && !(state.amountChangeable || (state.fundCents === 0 && state.cycleGames === 0))) {
    throw new DomainError('ILLEGAL_TRANSITION', 'the prima rules change only between cycles (after an award, before the next deduction)', { rule: 'BNG-59' })
  }
  const amount = cfg.amountCents ?? state.amountCents
  const from = state.amountCents
  if (amount !== from || !amounts.includes(from)) state = changePrimaAmount(state, amount, amounts, rules)
  await tx.run('UPDATE prima_halls SET amounts = ?, deduction_bp = ?, base_ball_limit = ?, increment_per_game = ?, reset_policy = ?, updated_at = ? WHERE hall_id = ?', [
    JSON.stringify(amounts), rules.deductionBp, rules.baseBallLimit, rules.incrementPerGame, rules.resetAfterAward, at, hallId,
  ])
  await saveState(tx, hallId, state, at)
  if (amount !== from) {
    // BNG-61: the change is announced and the minutes record it with the game number from which it applies.
    await appendJournal(tx, { at, type: 'prima.amount_changed', scope, payload: { hallId, fromCents: from, toCents: amount, fromGameNo: nextGameNo, rule: 'BNG-61' } })
  }
  if (rulesChanged || JSON.stringify(amounts) !== existing.amounts) {
    await appendJournal(tx, { at, type: 'prima.configured', scope, payload: { hallId, amountsCents: amounts, amountCents: amount, rules, nextGameNo, rule: 'BNG-59' } })
  }
  return (await loadPrima(tx, hallId))!
}

/** The hall's prima, created with the profile's defaults the first time a Cantabria-type hall needs it. */
export async function ensurePrima(tx: Sql, hallId: string, profile: Profile, at: string): Promise<PrimaRow | undefined> {
  const row = await loadPrima(tx, hallId)
  if (row || !profile.prima.enabled || profile.prima.amountsCents.length === 0) return row
  return configurePrimaTx(tx, hallId, profile, { amountsCents: profile.prima.amountsCents }, at, { duringAnnouncement: true })
}

/** BNG-62, BNG-63: the announcement of a game, shown on the panels until it ends. */
export async function announcePrima(tx: Sql, e: { gameId: string; hallId: string; profile: Profile; at: string; scope: string }): Promise<void> {
  const row = await ensurePrima(tx, e.hallId, e.profile, e.at)
  if (!row) return
  const a = primaAnnouncement(stateOf(row))
  await tx.run('INSERT INTO prima_games (game_id, hall_id, active, amount_cents, ball_limit, fund_at_start_cents) VALUES (?, ?, ?, ?, ?, ?)', [e.gameId, e.hallId, a.active ? 1 : 0, a.amountCents, a.ballLimit, a.fundCents])
  await appendJournal(tx, { at: e.at, type: 'prima.announced', scope: e.scope, payload: { gameId: e.gameId, hallId: e.hallId, ...a, rule: 'BNG-62' } })
}

/** A simultaneous game is played under the central's rules: the hall prima is not on offer in it. */
export async function withdrawPrima(tx: Sql, e: { gameId: string; at: string; scope: string; reason: string }): Promise<void> {
  const r = await tx.run("UPDATE prima_games SET active = 0, outcome = 'not_offered' WHERE game_id = ? AND deduction_cents IS NULL AND outcome IS NULL", [e.gameId])
  if (r.changes === 1) await appendJournal(tx, { at: e.at, type: 'prima.not_offered', scope: e.scope, payload: { gameId: e.gameId, reason: e.reason } })
}

async function gameRow(tx: Sql, gameId: string): Promise<PrimaGameRow | undefined> {
  return tx.get<PrimaGameRow>('SELECT * FROM prima_games WHERE game_id = ?', [gameId])
}

/** BNG-58, BNG-63: at close of sales the game's deduction enters the fund (also while the prima is on offer). */
export async function deductPrima(tx: Sql, e: { gameId: string; hallId: string; cardsSold: number; faceValueCents: number; at: string; scope: string }): Promise<void> {
  const g = await gameRow(tx, e.gameId)
  const row = await loadPrima(tx, e.hallId)
  if (!g || !row || g.outcome !== null || g.deduction_cents !== null) return
  const deduction = primaDeduction(e.cardsSold, e.faceValueCents, rulesOf(row))
  const state = accruePrima(stateOf(row), deduction)
  await saveState(tx, e.hallId, state, e.at)
  await tx.run('UPDATE prima_games SET deduction_cents = ? WHERE game_id = ?', [deduction, e.gameId])
  await ledger(tx, e.hallId, { kind: 'deduction', gameId: e.gameId, amountCents: deduction, fundAfterCents: state.fundCents, detail: { cardsSold: e.cardsSold, faceValueCents: e.faceValueCents, deductionBp: rulesOf(row).deductionBp }, at: e.at })
  await appendJournal(tx, { at: e.at, type: 'prima.deducted', scope: e.scope, payload: { gameId: e.gameId, hallId: e.hallId, deductedCents: deduction, accumulatedCents: state.fundCents, cycleGames: state.cycleGames, deductionBp: rulesOf(row).deductionBp, rule: 'BNG-58' } })
}

/**
 * BNG-57, BNG-62, BNG-63: settles the prima when the bingo is awarded. Returns the award (with each winner's share)
 * so that the caller records the bonus prizes.
 */
export async function settlePrimaTx(tx: Sql, e: { gameId: string; hallId: string; atBall: number; winners: Array<{ serial: string; cardId: string; completedAtBall: number | null }>; at: string; scope: string }): Promise<PrimaAward | null> {
  const g = await gameRow(tx, e.gameId)
  const row = await loadPrima(tx, e.hallId)
  if (!g || !row || g.outcome !== null) return null
  if (!g.active) {
    await tx.run("UPDATE prima_games SET outcome = 'not_offered' WHERE game_id = ?", [e.gameId])
    return null
  }
  const announced: PrimaAnnouncement = { active: true, amountCents: Number(g.amount_cents), ballLimit: Number(g.ball_limit), fundCents: Number(g.fund_at_start_cents) }
  const { state, award } = settlePrima(stateOf(row), announced, { atBall: e.atBall, winnerSerials: e.winners.map((w) => w.serial) }, rulesOf(row))
  await saveState(tx, e.hallId, state, e.at)
  await tx.run('UPDATE prima_games SET outcome = ? WHERE game_id = ?', [award ? 'won' : 'not_won', e.gameId])
  if (award) {
    await ledger(tx, e.hallId, { kind: 'award', gameId: e.gameId, amountCents: -award.amountCents, fundAfterCents: state.fundCents, detail: { atBall: award.atBall, ballLimit: award.ballLimit, accumulatedGames: award.accumulatedGames }, at: e.at })
    const bySerial = new Map(e.winners.map((w) => [w.serial, w]))
    await appendJournal(tx, {
      at: e.at, type: 'prima.awarded', scope: e.scope,
      payload: {
        gameId: e.gameId, hallId: e.hallId, amountCents: award.amountCents, atBall: award.atBall, ballLimit: award.ballLimit, accumulatedGames: award.accumulatedGames,
        winners: award.winners.map((w) => ({ ...w, cardId: bySerial.get(w.serial)?.cardId ?? null, completedAtBall: bySerial.get(w.serial)?.completedAtBall ?? null })),
        fundAfterCents: state.fundCents, nextBallLimit: state.ballLimit, nextAmountCents: state.amountCents,
        remainderRule: 'equal split per card, leftover cents one each to the lowest serials', rule: 'BNG-57',
      },
    })
  } else {
    await appendJournal(tx, { at: e.at, type: 'prima.not_won', scope: e.scope, payload: { gameId: e.gameId, hallId: e.hallId, atBall: e.atBall, ballLimit: announced.ballLimit, nextBallLimit: state.ballLimit, rule: 'BNG-62' } })
  }
  return award
}

/** A void game (BNG-86: every card refunded): its deduction leaves the fund again. */
export async function reversePrimaTx(tx: Sql, e: { gameId: string; hallId: string; at: string; scope: string }): Promise<void> {
  const g = await gameRow(tx, e.gameId)
  const row = await loadPrima(tx, e.hallId)
  if (!g || !row || g.outcome !== null) return
  await tx.run("UPDATE prima_games SET outcome = 'void' WHERE game_id = ?", [e.gameId])
  if (g.deduction_cents === null) return
  const deduction = Number(g.deduction_cents)
  const state = reversePrima(stateOf(row), deduction)
  await saveState(tx, e.hallId, state, e.at)
  await ledger(tx, e.hallId, { kind: 'reversal', gameId: e.gameId, amountCents: -deduction, fundAfterCents: state.fundCents, detail: { reason: 'game void, cards refunded' }, at: e.at })
  await appendJournal(tx, { at: e.at, type: 'prima.reversed', scope: e.scope, payload: { gameId: e.gameId, hallId: e.hallId, reversedCents: deduction, accumulatedCents: state.fundCents, rule: 'BNG-86' } })
}

/** Records the payment of a prima prize in the ledger (the fund moved at the award; this keeps who was paid). */
export async function primaPaymentTx(tx: Sql, e: { hallId: string; gameId: string; bonusPrizeId: string; amountCents: number; at: string }): Promise<void> {
  const row = await loadPrima(tx, e.hallId)
  if (!row) return
  await ledger(tx, e.hallId, { kind: 'payment', gameId: e.gameId, amountCents: 0, fundAfterCents: Number(row.fund_cents), detail: { bonusPrizeId: e.bonusPrizeId, paidCents: e.amountCents }, at: e.at })
}

export async function primaLedger(db: Sql, hallId: string): Promise<Array<{ entryNo: number; kind: string; gameId: string | null; amountCents: number; fundAfterCents: number; detail: unknown; at: string }>> {
  const rows = await db.all<{ entry_no: number; kind: string; game_id: string | null; amount_cents: number; fund_after_cents: number; detail: string; created_at: string }>('SELECT * FROM prima_ledger WHERE hall_id = ? ORDER BY entry_no', [hallId])
  return rows.map((r) => ({ entryNo: Number(r.entry_no), kind: r.kind, gameId: r.game_id, amountCents: Number(r.amount_cents), fundAfterCents: Number(r.fund_after_cents), detail: JSON.parse(r.detail), at: r.created_at }))
}
