/**
 * The hall prima, its games and its ledger (prima-service.ts).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 *
 * Statement texts are kept as they were, since the SQLite engine caches prepared statements by text. Rows of the
 * core bingo tables (games, halls) are typed by the caller.
 */
import type { Sql } from '../../db/database.ts'
import { touchRows } from '../../shared/row-seals.ts'

/** A `prima_halls` row as stored (PostgreSQL returns its BIGINT columns as text). */
interface PrimaRow {
  hall_id: string
  amounts: string
  amount_cents: number | string
  deduction_bp: number
  min_amount_cents: number | string
  max_amount_cents: number | string
  step_cents: number | string
  base_ball_limit: number
  increment_per_game: number
  reset_policy: 'base' | 'keep'
  fund_cents: number | string
  ball_limit: number
  cycle_games: number
  unwon_games: number
  amount_changeable: number
  entries: number
  updated_at: string
}

/** A hall's prima (BNG-59..61) as the use cases read it: `amounts` is the offered amounts as JSON. */
export interface Prima {
  hallId: string
  amounts: string
  amountCents: number
  deductionBp: number
  minAmountCents: number
  maxAmountCents: number
  stepCents: number
  baseBallLimit: number
  incrementPerGame: number
  resetPolicy: 'base' | 'keep'
  fundCents: number
  ballLimit: number
  cycleGames: number
  unwonGames: number
  amountChangeable: boolean
  entries: number
  updatedAt: string
}

export function toPrima(r: PrimaRow): Prima {
  return {
    hallId: r.hall_id,
    amounts: r.amounts,
    amountCents: Number(r.amount_cents),
    deductionBp: Number(r.deduction_bp),
    minAmountCents: Number(r.min_amount_cents),
    maxAmountCents: Number(r.max_amount_cents),
    stepCents: Number(r.step_cents),
    baseBallLimit: Number(r.base_ball_limit),
    incrementPerGame: Number(r.increment_per_game),
    resetPolicy: r.reset_policy,
    fundCents: Number(r.fund_cents),
    ballLimit: Number(r.ball_limit),
    cycleGames: Number(r.cycle_games),
    unwonGames: Number(r.unwon_games),
    amountChangeable: Boolean(Number(r.amount_changeable)),
    entries: Number(r.entries),
    updatedAt: r.updated_at,
  }
}

/** A `prima_games` row as stored (PostgreSQL returns its BIGINT columns as text). */
interface PrimaGameRow {
  game_id: string
  hall_id: string
  active: number
  amount_cents: number | string
  ball_limit: number
  fund_at_start_cents: number | string
  deduction_cents: number | string | null
  outcome: string | null
}

/**
 * The prima as a game offered it (BNG-59): whether it was on offer, its amount and ball limit, the fund at the start;
 * the game's deduction once its sales closed and its outcome once decided (null until then).
 */
export interface PrimaGame {
  gameId: string
  hallId: string
  active: boolean
  amountCents: number
  ballLimit: number
  fundAtStartCents: number
  deductionCents: number | null
  outcome: string | null
}

function toPrimaGame(r: PrimaGameRow): PrimaGame {
  return {
    gameId: r.game_id,
    hallId: r.hall_id,
    active: Boolean(Number(r.active)),
    amountCents: Number(r.amount_cents),
    ballLimit: Number(r.ball_limit),
    fundAtStartCents: Number(r.fund_at_start_cents),
    deductionCents: r.deduction_cents === null ? null : Number(r.deduction_cents),
    outcome: r.outcome,
  }
}

export type PrimaLedgerKind = 'deduction' | 'award' | 'reversal' | 'payment'

export interface PrimaLedgerEntry {
  entryNo: number
  kind: string
  gameId: string | null
  amountCents: number
  fundAfterCents: number
  detail: unknown
  at: string
}

export async function primaByHall(tx: Sql, hallId: string): Promise<Prima | undefined> {
  const row = await tx.get<PrimaRow>('SELECT * FROM prima_halls WHERE hall_id = ?', [hallId])
  return row && toPrima(row)
}

export async function updatePrimaState(
  tx: Sql,
  hallId: string,
  s: {
    amountCents: number
    fundCents: number
    ballLimit: number
    cycleGames: number
    unwonGames: number
    amountChangeable: boolean
  },
  at: string,
): Promise<void> {
  await tx.run(
    'UPDATE prima_halls SET amount_cents = ?, fund_cents = ?, ball_limit = ?, cycle_games = ?, unwon_games = ?, amount_changeable = ?, updated_at = ? WHERE hall_id = ?',
    [s.amountCents, s.fundCents, s.ballLimit, s.cycleGames, s.unwonGames, s.amountChangeable ? 1 : 0, at, hallId],
  )
  touchRows(tx, 'prima_halls', [hallId])
}

/** Appends one movement to the hall's prima ledger (entry numbers 1, 2, 3, ... per hall). */
export async function appendPrimaLedgerEntry(
  tx: Sql,
  hallId: string,
  e: {
    kind: PrimaLedgerKind
    gameId: string | null
    amountCents: number
    fundAfterCents: number
    detail: unknown
    at: string
  },
): Promise<void> {
  const row = await tx.get<{ entries: number }>('SELECT entries FROM prima_halls WHERE hall_id = ?', [hallId])
  const entryNo = Number(row?.entries ?? 0) + 1
  await tx.run(
    'INSERT INTO prima_ledger (hall_id, entry_no, kind, game_id, amount_cents, fund_after_cents, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [hallId, entryNo, e.kind, e.gameId, e.amountCents, e.fundAfterCents, JSON.stringify(e.detail ?? {}), e.at],
  )
  await tx.run('UPDATE prima_halls SET entries = ? WHERE hall_id = ?', [entryNo, hallId])
  touchRows(tx, 'prima_ledger', [`${hallId}|${entryNo}`])
  touchRows(tx, 'prima_halls', [hallId])
}

export async function primaLedgerEntries(tx: Sql, hallId: string): Promise<PrimaLedgerEntry[]> {
  const rows = await tx.all<{
    entry_no: number
    kind: string
    game_id: string | null
    amount_cents: number
    fund_after_cents: number
    detail: string
    created_at: string
  }>('SELECT * FROM prima_ledger WHERE hall_id = ? ORDER BY entry_no', [hallId])
  return rows.map((r) => ({
    entryNo: Number(r.entry_no),
    kind: r.kind,
    gameId: r.game_id,
    amountCents: Number(r.amount_cents),
    fundAfterCents: Number(r.fund_after_cents),
    detail: JSON.parse(r.detail),
    at: r.created_at,
  }))
}

/** The hall's session not yet closed, latest first: hall-level prima records are journaled under it (BNG-61). */
export async function primaOpenSessionOfHall(tx: Sql, hallId: string): Promise<string | undefined> {
  return (
    await tx.get<{ id: string }>(
      "SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed' ORDER BY opened_at DESC LIMIT 1",
      [hallId],
    )
  )?.id
}

export async function primaGamesInSession(tx: Sql, sessionId: string): Promise<number> {
  return Number(
    (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM games WHERE session_id = ?', [sessionId]))?.n ?? 0,
  )
}

/** A game of the hall not yet ended, if any (the prima changes between games, BNG-61). */
export async function primaHallGameInProgress(tx: Sql, hallId: string): Promise<string | undefined> {
  return (
    await tx.get<{ id: string }>("SELECT id FROM games WHERE hall_id = ? AND status NOT IN ('finished', 'void')", [
      hallId,
    ])
  )?.id
}

export async function insertPrimaHall(
  tx: Sql,
  p: {
    hallId: string
    amountsJson: string
    amountCents: number
    deductionBp: number
    minAmountCents: number
    maxAmountCents: number
    stepCents: number
    baseBallLimit: number
    incrementPerGame: number
    resetPolicy: string
    fundCents: number
    ballLimit: number
    cycleGames: number
    unwonGames: number
    amountChangeable: number
    at: string
  },
): Promise<void> {
  await tx.run(
    `INSERT INTO prima_halls (hall_id, amounts, amount_cents, deduction_bp, min_amount_cents, max_amount_cents, step_cents, base_ball_limit, increment_per_game, reset_policy, fund_cents, ball_limit, cycle_games, unwon_games, amount_changeable, entries, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    [
      p.hallId,
      p.amountsJson,
      p.amountCents,
      p.deductionBp,
      p.minAmountCents,
      p.maxAmountCents,
      p.stepCents,
      p.baseBallLimit,
      p.incrementPerGame,
      p.resetPolicy,
      p.fundCents,
      p.ballLimit,
      p.cycleGames,
      p.unwonGames,
      p.amountChangeable,
      p.at,
    ],
  )
  touchRows(tx, 'prima_halls', [p.hallId])
}

export async function updatePrimaRules(
  tx: Sql,
  hallId: string,
  r: { amountsJson: string; deductionBp: number; baseBallLimit: number; incrementPerGame: number; resetPolicy: string },
  at: string,
): Promise<void> {
  await tx.run(
    'UPDATE prima_halls SET amounts = ?, deduction_bp = ?, base_ball_limit = ?, increment_per_game = ?, reset_policy = ?, updated_at = ? WHERE hall_id = ?',
    [r.amountsJson, r.deductionBp, r.baseBallLimit, r.incrementPerGame, r.resetPolicy, at, hallId],
  )
  touchRows(tx, 'prima_halls', [hallId])
}

export async function insertPrimaGame(
  tx: Sql,
  g: { gameId: string; hallId: string; active: boolean; amountCents: number; ballLimit: number; fundCents: number },
): Promise<void> {
  await tx.run(
    'INSERT INTO prima_games (game_id, hall_id, active, amount_cents, ball_limit, fund_at_start_cents) VALUES (?, ?, ?, ?, ?, ?)',
    [g.gameId, g.hallId, g.active ? 1 : 0, g.amountCents, g.ballLimit, g.fundCents],
  )
  touchRows(tx, 'prima_games', [g.gameId])
}

/** Takes the prima off a game that has neither deducted nor settled it; true if it was on offer. */
export async function withdrawPrimaGame(tx: Sql, gameId: string): Promise<boolean> {
  const r = await tx.run(
    "UPDATE prima_games SET active = 0, outcome = 'not_offered' WHERE game_id = ? AND deduction_cents IS NULL AND outcome IS NULL",
    [gameId],
  )
  if (r.changes === 1) touchRows(tx, 'prima_games', [gameId])
  return r.changes === 1
}

export async function primaGameById(tx: Sql, gameId: string): Promise<PrimaGame | undefined> {
  const row = await tx.get<PrimaGameRow>('SELECT * FROM prima_games WHERE game_id = ?', [gameId])
  return row && toPrimaGame(row)
}

export async function setPrimaGameDeduction(tx: Sql, gameId: string, deductionCents: number): Promise<void> {
  await tx.run('UPDATE prima_games SET deduction_cents = ? WHERE game_id = ?', [deductionCents, gameId])
  touchRows(tx, 'prima_games', [gameId])
}

export async function markPrimaGameNotOffered(tx: Sql, gameId: string): Promise<void> {
  await tx.run("UPDATE prima_games SET outcome = 'not_offered' WHERE game_id = ?", [gameId])
  touchRows(tx, 'prima_games', [gameId])
}

export async function setPrimaGameOutcome(tx: Sql, gameId: string, outcome: 'won' | 'not_won'): Promise<void> {
  await tx.run('UPDATE prima_games SET outcome = ? WHERE game_id = ?', [outcome, gameId])
  touchRows(tx, 'prima_games', [gameId])
}

export async function markPrimaGameVoid(tx: Sql, gameId: string): Promise<void> {
  await tx.run("UPDATE prima_games SET outcome = 'void' WHERE game_id = ?", [gameId])
  touchRows(tx, 'prima_games', [gameId])
}
