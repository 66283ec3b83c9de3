/**
 * The lotto line's SQL: draws (the `lotto` rows of lottery_draws), slips, winning plays, payouts and the receipt
 * counters. Every function takes the transaction or connection to run on (`Sql`) and returns plain rows.
 *
 * The sale path (sale-writer.ts, also run on the SQLite writer thread with its own connection) calls these too:
 * its functions are plain (no extra await) and their statement text is fixed, so the prepared-statement cache hits.
 */
import type { Sql } from '../db/database.ts'
import { insertRows } from '../shared/journal-batch.ts'
import { touchRows, touchRowsWhere, touchWrittenRows } from '../shared/row-seals.ts'

export type { Draw } from '../draws/store.ts'
import { toDraw, type Draw, type DrawRow } from '../draws/store.ts'

/** A `lotto_slips` row as stored (PostgreSQL returns amount_cents, a BIGINT, as text). */
export interface SlipRow {
  id: string
  game_code: string
  first_draw_no: number | string
  draw_count: number | string
  boards: string
  board_count: number | string
  quick_picks: string
  amount_cents: number | string
  player_name: string
  player_document: string
  channel: string
  status: 'active' | 'annulled' | 'excluded'
  status_reason: string | null
  status_at: string | null
  sold_at: string
}

/** A lotto slip (its receipt number is its id) as the use cases read it: draws firstDrawNo .. firstDrawNo + drawCount - 1. */
export interface Slip {
  id: string
  gameCode: string
  firstDrawNo: number
  drawCount: number
  /** The boards' JSON text. */
  boards: string
  boardCount: number
  /** The quick-pick flags' JSON text. */
  quickPicks: string
  amountCents: number
  playerName: string
  playerDocument: string
  channel: string
  status: 'active' | 'annulled' | 'excluded'
  statusReason: string | null
  statusAt: string | null
  soldAt: string
}

export function toSlip(r: SlipRow): Slip {
  return {
    id: r.id,
    gameCode: r.game_code,
    firstDrawNo: Number(r.first_draw_no),
    drawCount: Number(r.draw_count),
    boards: r.boards,
    boardCount: Number(r.board_count),
    quickPicks: r.quick_picks,
    amountCents: Number(r.amount_cents),
    playerName: r.player_name,
    playerDocument: r.player_document,
    channel: r.channel,
    status: r.status,
    statusReason: r.status_reason ?? null,
    statusAt: r.status_at ?? null,
    soldAt: r.sold_at,
  }
}

/** The columns of a `lotto_wins` row the use cases read, as stored. */
export interface WinRow {
  receipt: string
  board: number | string
  category: string
  matches: number | string
  amount_cents: number | string
  goods: string | null
  paid_at: string | null
}

/** A winning play of one slip (its receipt) in a settled draw; paidAt null while unpaid. */
export interface Win {
  receipt: string
  board: number
  category: string
  matches: number
  amountCents: number
  /** The goods' JSON text, for a prize in kind. */
  goods: string | null
  paidAt: string | null
}

export function toWin(r: WinRow): Win {
  return {
    receipt: r.receipt,
    board: Number(r.board),
    category: r.category,
    matches: Number(r.matches),
    amountCents: Number(r.amount_cents),
    goods: r.goods ?? null,
    paidAt: r.paid_at ?? null,
  }
}

/** What the sale path reads of a draw to accept a slip for it (the columns of lottery_draws it needs), as stored. */
export interface DrawWindowRow {
  draw_no: number | string
  status: string
  sales_start_at: string
  sales_close_at: string
  price_cents: number | string
}

/** A draw's sales window and price, as the sale path reads it. */
export interface DrawSalesWindow {
  drawNo: number
  status: string
  salesStartAt: string
  salesCloseAt: string
  priceCents: number
}

export function toDrawSalesWindow(r: DrawWindowRow): DrawSalesWindow {
  return {
    drawNo: Number(r.draw_no),
    status: r.status,
    salesStartAt: r.sales_start_at,
    salesCloseAt: r.sales_close_at,
    priceCents: Number(r.price_cents),
  }
}

// ------------------------------------------------------------------------------------------ draws

export async function lottoDrawById(tx: Sql, drawId: string): Promise<Draw | undefined> {
  const row = await tx.get<DrawRow>("SELECT * FROM lottery_draws WHERE id = ? AND product = 'lotto'", [drawId])
  return row ? toDraw(row) : undefined
}

/** Draw `drawNo` of a lotto game. */
export async function lottoDrawByNumber(
  tx: Sql,
  gameCode: string,
  drawNo: number,
  opts: { lock?: boolean } = {},
): Promise<Draw | undefined> {
  // `lock`: held until the transaction ends, so a ball entered meanwhile waits for it or is seen by it (LNS-20).
  const row = await tx.get<DrawRow>(
    `SELECT * FROM lottery_draws WHERE product = 'lotto' AND game_code = ? AND draw_no = ?${opts.lock ? ' FOR UPDATE' : ''}`,
    [gameCode, drawNo],
  )
  return row ? toDraw(row) : undefined
}

export async function lottoDrawIdByNumber(tx: Sql, gameCode: string, drawNo: number): Promise<string | undefined> {
  return (
    await tx.get<{ id: string }>(
      "SELECT id FROM lottery_draws WHERE product = 'lotto' AND game_code = ? AND draw_no = ?",
      [gameCode, drawNo],
    )
  )?.id
}

/** Every lotto draw, of one game (by draw number) or of all (by game, then draw number). */
export async function lottoDraws(tx: Sql, gameCode?: string): Promise<Draw[]> {
  const rows = gameCode
    ? await tx.all<DrawRow>("SELECT * FROM lottery_draws WHERE product = 'lotto' AND game_code = ? ORDER BY draw_no", [
        gameCode,
      ])
    : await tx.all<DrawRow>("SELECT * FROM lottery_draws WHERE product = 'lotto' ORDER BY game_code, draw_no")
  return rows.map(toDraw)
}

/** The plan (JSON text) of the game's highest-numbered draw, if any. */
export async function lastPlanOfGame(tx: Sql, gameCode: string): Promise<string | undefined> {
  return (
    await tx.get<{ plan: string }>(
      "SELECT plan FROM lottery_draws WHERE product = 'lotto' AND game_code = ? ORDER BY draw_no DESC LIMIT 1",
      [gameCode],
    )
  )?.plan
}

/** The game's last draw before `drawNo` that was not cancelled. */
export async function previousLottoDraw(tx: Sql, gameCode: string, drawNo: number): Promise<Draw | undefined> {
  const row = await tx.get<DrawRow>(
    "SELECT * FROM lottery_draws WHERE product = 'lotto' AND game_code = ? AND draw_no < ? AND status <> 'cancelled' ORDER BY draw_no DESC LIMIT 1",
    [gameCode, drawNo],
  )
  return row ? toDraw(row) : undefined
}

/** LNS-21: the notary's act listing the excluded and annulled plays, once, on a closed draw not yet drawn. */
export async function recordNotarialAct(tx: Sql, drawId: string, actJson: string): Promise<boolean> {
  return (
    (
      await tx.run(
        "UPDATE lottery_draws SET notarial_act = ? WHERE id = ? AND status = 'closed' AND notarial_act IS NULL",
        [actJson, drawId],
      )
    ).changes === 1
  )
}

// ------------------------------------------------------------------------------------------ receipt counters

/** Counter name of a lotto game's receipt numbers. */
export const receiptCounter = (gameCode: string) => `lotto:${gameCode}`

/** Creates the game's receipt counter at 0 unless it exists. */
export async function ensureReceiptCounter(tx: Sql, gameCode: string): Promise<void> {
  await tx.run(
    'INSERT INTO lottery_counters (name, value) SELECT ?, 0 WHERE NOT EXISTS (SELECT 1 FROM lottery_counters WHERE name = ?)',
    [receiptCounter(gameCode), receiptCounter(gameCode)],
  )
}

/** Takes `count` receipt numbers from the game's counter; returns the first. Must run inside a transaction. */
export async function reserveReceipts(tx: Sql, gameCode: string, count: number): Promise<number> {
  const name = receiptCounter(gameCode)
  // One statement (RETURNING, SQLite 3.35+ and PostgreSQL): the counter moved and its new value read together.
  const moved = await tx.get<{ value: number }>(
    'UPDATE lottery_counters SET value = value + ? WHERE name = ? RETURNING value',
    [count, name],
  )
  if (!moved) throw new Error(`receipt counter ${name} is missing`)
  return Number(moved.value) - count + 1
}

// ------------------------------------------------------------------------------------------ slips

/** The sales windows and prices of draws `min`..`max` of a game (sale path: one statement per game and batch). */
export async function drawWindows(tx: Sql, gameCode: string, min: number, max: number): Promise<DrawSalesWindow[]> {
  const rows = await tx.all<DrawWindowRow>(
    "SELECT draw_no, status, sales_start_at, sales_close_at, price_cents FROM lottery_draws WHERE product = 'lotto' AND game_code = ? AND draw_no >= ? AND draw_no <= ?",
    [gameCode, min, max],
  )
  return rows.map(toDrawSalesWindow)
}

const SLIP_COLUMNS = [
  'id',
  'game_code',
  'first_draw_no',
  'draw_count',
  'boards',
  'board_count',
  'quick_picks',
  'amount_cents',
  'player_name',
  'player_document',
  'channel',
  'status',
  'sold_at',
] as const

/** Inserts sold slips, each row in SLIP_COLUMNS order (sale path: multi-row INSERTs). */
export function insertSlips(tx: Sql, rows: readonly unknown[][]): Promise<void> {
  // Issue 24 point 1: a slip is sealed (row-seals.ts) by the records of its transaction.
  // Sealed from the values written (no read back); the columns a sale leaves out are NULL.
  touchWrittenRows(
    tx,
    'lotto_slips',
    rows.map((r) => {
      const row: Record<string, unknown> = { status_reason: null, status_at: null }
      SLIP_COLUMNS.forEach((c, i) => (row[c] = r[i]))
      return row
    }),
  )
  return insertRows(tx, 'lotto_slips', SLIP_COLUMNS, rows)
}

export async function slipById(tx: Sql, receipt: string): Promise<Slip | undefined> {
  const s = await tx.get<SlipRow>('SELECT * FROM lotto_slips WHERE id = ?', [receipt])
  return s ? toSlip(s) : undefined
}

/** The slips of a game covering draw `drawNo`: the active ones, or the annulled and excluded ones. Unordered. */
export async function slipsCoveringDraw(
  tx: Sql,
  gameCode: string,
  drawNo: number,
  status: 'active' | 'inactive',
): Promise<Slip[]> {
  const cond = status === 'active' ? "status = 'active'" : "status <> 'active'"
  const rows = await tx.all<SlipRow>(
    `SELECT * FROM lotto_slips WHERE game_code = ? AND first_draw_no <= ? AND first_draw_no + draw_count > ? AND ${cond}`,
    [gameCode, drawNo, drawNo],
  )
  return rows.map(toSlip)
}

/** Annuls an active slip; false when it is not active. */
export async function annulSlipRow(tx: Sql, receipt: string, reason: string, at: string): Promise<boolean> {
  const r = await tx.run(
    "UPDATE lotto_slips SET status = 'annulled', status_reason = ?, status_at = ? WHERE id = ? AND status = 'active'",
    [reason, at, receipt],
  )
  if (r.changes === 1) touchRows(tx, 'lotto_slips', [receipt])
  return r.changes === 1
}

/** LNS-20: the player data of an active slip, amended; false when the slip is not active. */
export async function amendSlipPlayer(tx: Sql, receipt: string, name: string, document: string): Promise<boolean> {
  const changed =
    (
      await tx.run("UPDATE lotto_slips SET player_name = ?, player_document = ? WHERE id = ? AND status = 'active'", [
        name,
        document,
        receipt,
      ])
    ).changes === 1
  if (changed) touchRows(tx, 'lotto_slips', [receipt])
  return changed
}

export async function excludeSlip(tx: Sql, receipt: string, reason: string, at: string): Promise<void> {
  await tx.run("UPDATE lotto_slips SET status = 'excluded', status_reason = ?, status_at = ? WHERE id = ?", [
    reason,
    at,
    receipt,
  ])
  touchRows(tx, 'lotto_slips', [receipt])
}

// ------------------------------------------------------------------------------------------ wins and payouts

/** Inserts winning plays, each row (draw_id, receipt, board, category, matches, amount_cents, goods). */
export function insertWins(tx: Sql, rows: readonly unknown[][]): Promise<void> {
  touchRows(
    tx,
    'lotto_wins',
    rows.map((r) => `${String(r[0])}|${String(r[1])}|${String(r[2])}`),
  )
  return insertRows(
    tx,
    'lotto_wins',
    ['draw_id', 'receipt', 'board', 'category', 'matches', 'amount_cents', 'goods'],
    rows,
  )
}

export async function winsOfSlip(tx: Sql, drawId: string, receipt: string): Promise<Win[]> {
  const rows = await tx.all<WinRow>(
    'SELECT receipt, board, category, matches, amount_cents, goods, paid_at FROM lotto_wins WHERE draw_id = ? AND receipt = ? ORDER BY board',
    [drawId, receipt],
  )
  return rows.map(toWin)
}

/** The winning plays of a draw nobody has been paid for yet. */
export async function unpaidWins(tx: Sql, drawId: string): Promise<Win[]> {
  const rows = await tx.all<WinRow>(
    'SELECT receipt, board, category, matches, amount_cents, goods, paid_at FROM lotto_wins WHERE draw_id = ? AND paid_at IS NULL ORDER BY receipt, board',
    [drawId],
  )
  return rows.map(toWin)
}

/** Marks the slip's unpaid wins in a draw paid; returns how many rows changed. */
export async function markWinsPaid(tx: Sql, drawId: string, receipt: string, at: string): Promise<number> {
  await touchRowsWhere(tx, 'lotto_wins', 'draw_id = ? AND receipt = ? AND paid_at IS NULL', [drawId, receipt])
  return (
    await tx.run('UPDATE lotto_wins SET paid_at = ? WHERE draw_id = ? AND receipt = ? AND paid_at IS NULL', [
      at,
      drawId,
      receipt,
    ])
  ).changes
}

/** Whether a payout (prize or refund) exists for the ticket. */
export async function hasPayout(tx: Sql, ticketId: string): Promise<boolean> {
  return Boolean(await tx.get('SELECT id FROM lottery_payouts WHERE ticket_id = ?', [ticketId]))
}
