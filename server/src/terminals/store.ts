/** Issue 27: the SQL of electronic bingo terminals (terms, sessions and their ledger, held cards, reserved cursors). */
import type { Sql } from '../db/database.ts'
import { touchRows } from '../shared/row-seals.ts'
import { hallTermsRead, type HallTermsColumns, type HallTermsRead } from '../bingo/types.ts'

export interface TerminalSessionRow {
  id: string
  hall_id: string
  terminal_id: string
  voucher_id: string
  currency: string
  balance_cents: number
  spent_cents: number
  won_cents: number
  status: 'open' | 'closed' | 'recovered'
  opened_at: string
  closed_at: string | null
  closed_by: string | null
  closed_station: string | null
  change_voucher_id: string | null
}

const session = (r: TerminalSessionRow | undefined): TerminalSessionRow | undefined =>
  r && {
    ...r,
    balance_cents: Number(r.balance_cents),
    spent_cents: Number(r.spent_cents),
    won_cents: Number(r.won_cents),
  }

/**
 * The hall's profile and its terminal terms in one read (a card sale asks for both, per series it sells from):
 * `profileId` undefined when there is no such hall, `terms` undefined when the hall has none.
 */
export async function hallProfileAndTerms(sql: Sql, hallId: string): Promise<HallTermsRead> {
  return hallTermsRead(
    await sql.get<HallTermsColumns>(
      'SELECT h.profile_id, h.settings, t.hall_id, t.reference, t.terms, t.set_at, t.set_by FROM halls h LEFT JOIN terminal_terms t ON t.hall_id = h.id WHERE h.id = ?',
      [hallId],
    ),
  )
}

export async function upsertTerms(
  sql: Sql,
  t: { hallId: string; reference: string; terms: string; at: string; by: string },
): Promise<void> {
  await sql.run('DELETE FROM terminal_terms WHERE hall_id = ?', [t.hallId])
  await sql.run('INSERT INTO terminal_terms (hall_id, reference, terms, set_at, set_by) VALUES (?, ?, ?, ?, ?)', [
    t.hallId,
    t.reference,
    t.terms,
    t.at,
    t.by,
  ])
}

export async function hallProfileId(sql: Sql, hallId: string): Promise<string | undefined> {
  return (await sql.get<{ profile_id: string }>('SELECT profile_id FROM halls WHERE id = ?', [hallId]))?.profile_id
}

export async function hallNameOf(sql: Sql, hallId: string): Promise<string | undefined> {
  return (await sql.get<{ name: string }>('SELECT name FROM halls WHERE id = ?', [hallId]))?.name
}

export async function openSessionOf(sql: Sql, terminalId: string) {
  return session(
    await sql.get<TerminalSessionRow>("SELECT * FROM terminal_sessions WHERE terminal_id = ? AND status = 'open'", [
      terminalId,
    ]),
  )
}

export async function sessionById(sql: Sql, id: string) {
  return session(await sql.get<TerminalSessionRow>('SELECT * FROM terminal_sessions WHERE id = ?', [id]))
}

export async function sessionByVoucher(sql: Sql, voucherId: string) {
  return session(await sql.get<TerminalSessionRow>('SELECT * FROM terminal_sessions WHERE voucher_id = ?', [voucherId]))
}

export async function insertSession(
  sql: Sql,
  s: {
    id: string
    hallId: string
    terminalId: string
    voucherId: string
    currency: string
    balanceCents: number
    at: string
  },
): Promise<void> {
  await sql.run(
    "INSERT INTO terminal_sessions (id, hall_id, terminal_id, voucher_id, currency, balance_cents, status, opened_at) VALUES (?, ?, ?, ?, ?, ?, 'open', ?)",
    [s.id, s.hallId, s.terminalId, s.voucherId, s.currency, s.balanceCents, s.at],
  )
  // Issue 24 point 1: a session's balance is sealed by the records of each transaction that changes it.
  touchRows(sql, 'terminal_sessions', [s.id])
}

/** Takes `cents` from an open session's balance; 0 rows when it is closed or holds less (the caller refuses). */
export async function debitSession(sql: Sql, id: string, cents: number): Promise<number> {
  touchRows(sql, 'terminal_sessions', [id])
  return (
    await sql.run(
      "UPDATE terminal_sessions SET balance_cents = balance_cents - ?, spent_cents = spent_cents + ? WHERE id = ? AND status = 'open' AND balance_cents >= ?",
      [cents, cents, id, cents],
    )
  ).changes
}

/** Adds a prize to an open session's balance; 0 rows when the session is no longer open. */
export async function creditSession(sql: Sql, id: string, cents: number): Promise<number> {
  touchRows(sql, 'terminal_sessions', [id])
  return (
    await sql.run(
      "UPDATE terminal_sessions SET balance_cents = balance_cents + ?, won_cents = won_cents + ? WHERE id = ? AND status = 'open'",
      [cents, cents, id],
    )
  ).changes
}

export async function closeSessionRow(
  sql: Sql,
  id: string,
  c: { status: 'closed' | 'recovered'; at: string; by: string; station: string; changeVoucherId: string | null },
): Promise<number> {
  touchRows(sql, 'terminal_sessions', [id])
  return (
    await sql.run(
      "UPDATE terminal_sessions SET status = ?, balance_cents = 0, closed_at = ?, closed_by = ?, closed_station = ?, change_voucher_id = ? WHERE id = ? AND status = 'open'",
      [c.status, c.at, c.by, c.station, c.changeVoucherId, id],
    )
  ).changes
}

export async function insertLedger(
  sql: Sql,
  l: {
    id: string
    sessionId: string
    at: string
    kind: 'opened' | 'loaded' | 'cards' | 'prize' | 'closed' | 'recovered'
    amountCents: number
    balanceCents: number
    refId: string
    gameId: string | null
  },
): Promise<void> {
  await sql.run(
    'INSERT INTO terminal_ledger (id, session_id, at, kind, amount_cents, balance_cents, ref_id, game_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [l.id, l.sessionId, l.at, l.kind, l.amountCents, l.balanceCents, l.refId, l.gameId],
  )
  touchRows(sql, 'terminal_ledger', [l.id])
}

export async function ledgerOf(sql: Sql, sessionId: string) {
  const rows = await sql.all<{
    id: string
    at: string
    kind: string
    amount_cents: number
    balance_cents: number
    ref_id: string
    game_id: string | null
  }>('SELECT * FROM terminal_ledger WHERE session_id = ? ORDER BY at, id', [sessionId])
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents), balance_cents: Number(r.balance_cents) }))
}

/** What a session has spent on cards of one game (the per-game cap). */
export async function spentInGame(sql: Sql, sessionId: string, gameId: string): Promise<number> {
  const r = await sql.get<{ s: number | null }>(
    "SELECT SUM(-amount_cents) AS s FROM terminal_ledger WHERE session_id = ? AND game_id = ? AND kind = 'cards'",
    [sessionId, gameId],
  )
  return Number(r?.s ?? 0)
}

export async function insertHeldCard(sql: Sql, c: { cardId: string; sessionId: string; gameId: string }) {
  await sql.run('INSERT INTO terminal_cards (card_id, session_id, game_id) VALUES (?, ?, ?)', [
    c.cardId,
    c.sessionId,
    c.gameId,
  ])
  touchRows(sql, 'terminal_cards', [c.cardId])
}

export async function heldCard(sql: Sql, cardId: string) {
  return sql.get<{ card_id: string; session_id: string; game_id: string; credited_at: string | null }>(
    'SELECT * FROM terminal_cards WHERE card_id = ?',
    [cardId],
  )
}

/** The cards a session holds in a game, with their numbers (for its screen). */
export async function heldCardsOf(sql: Sql, sessionId: string, gameId: string) {
  return sql.all<{ id: string; serial: string; card_no: number; numbers: string; series_code: string }>(
    `SELECT c.id, c.serial, c.card_no, c.numbers, s.code AS series_code
       FROM terminal_cards tc JOIN cards c ON c.id = tc.card_id JOIN series s ON s.id = c.series_id
      WHERE tc.session_id = ? AND tc.game_id = ? ORDER BY c.card_no`,
    [sessionId, gameId],
  )
}

/** Games in which a session holds cards that have not finished (a session with cards in play is not closed). */
export async function gamesInPlayOf(sql: Sql, sessionId: string): Promise<string[]> {
  const rows = await sql.all<{ game_id: string }>(
    `SELECT DISTINCT tc.game_id FROM terminal_cards tc JOIN games g ON g.id = tc.game_id
      WHERE tc.session_id = ? AND g.status NOT IN ('finished', 'void')`,
    [sessionId],
  )
  return rows.map((r) => r.game_id)
}

/**
 * Held cards of a game with a prize awarded and not yet paid: what its award credits to their sessions (a line while
 * the game plays on, the bingo at its end). A prize leaves this list when the payout marks it paid.
 */
export async function heldWinnersOf(sql: Sql, gameId: string) {
  return sql.all<{ card_id: string; session_id: string; terminal_id: string }>(
    `SELECT DISTINCT tc.card_id, tc.session_id, ts.terminal_id
       FROM terminal_cards tc JOIN terminal_sessions ts ON ts.id = tc.session_id JOIN prizes p ON p.card_id = tc.card_id
      WHERE tc.game_id = ? AND p.status = 'awarded'`,
    [gameId],
  )
}

/** Held cards of a session (any game) with a prize awarded and not yet paid. */
export async function heldWinnersOfSession(sql: Sql, sessionId: string) {
  return sql.all<{ card_id: string; session_id: string; terminal_id: string; game_id: string }>(
    `SELECT DISTINCT tc.card_id, tc.session_id, ts.terminal_id, tc.game_id
       FROM terminal_cards tc JOIN terminal_sessions ts ON ts.id = tc.session_id JOIN prizes p ON p.card_id = tc.card_id
      WHERE tc.session_id = ? AND p.status = 'awarded'`,
    [sessionId],
  )
}

/** When the card's latest credit was made (a card may be credited its line, then its bingo); 0 rows: not held. */
export async function markCredited(sql: Sql, cardId: string, at: string): Promise<number> {
  touchRows(sql, 'terminal_cards', [cardId])
  return (await sql.run('UPDATE terminal_cards SET credited_at = ? WHERE card_id = ?', [at, cardId])).changes
}

export async function terminalCursor(sql: Sql, seriesId: string): Promise<number | undefined> {
  const r = await sql.get<{ next_card_no: number }>(
    'SELECT next_card_no FROM terminal_series_cursors WHERE series_id = ?',
    [seriesId],
  )
  return r ? Number(r.next_card_no) : undefined
}

/** Moves the terminals' cursor of a series from `from` to `next`; false when another sale moved it first. */
export async function advanceTerminalCursor(sql: Sql, seriesId: string, from: number, next: number): Promise<boolean> {
  const moved = await sql.run(
    'UPDATE terminal_series_cursors SET next_card_no = ? WHERE series_id = ? AND next_card_no = ?',
    [next, seriesId, from],
  )
  if (moved.changes === 1) return true
  if ((await terminalCursor(sql, seriesId)) !== undefined) return false
  await sql.run('INSERT INTO terminal_series_cursors (series_id, next_card_no) VALUES (?, ?)', [seriesId, next])
  return true
}

/** The halls whose terminals hold virtual cards of the game (one, or several in a simultaneous game). */
export async function terminalHallsOfGame(sql: Sql, gameId: string): Promise<string[]> {
  const rows = await sql.all<{ hall_id: string }>(
    `SELECT DISTINCT ts.hall_id FROM terminal_cards tc JOIN terminal_sessions ts ON ts.id = tc.session_id
      WHERE tc.game_id = ? ORDER BY ts.hall_id`,
    [gameId],
  )
  return rows.map((r) => r.hall_id)
}

/**
 * When the latest other game in which the hall's terminals held virtual cards closed its sales (its start), or null:
 * the hall's own games and the simultaneous games it took part in (BNG-100).
 */
export async function previousTerminalGameStart(sql: Sql, hallId: string, gameId: string): Promise<string | null> {
  const r = await sql.get<{ at: string | null }>(
    `SELECT MAX(g.sales_closed_at) AS at FROM games g
      WHERE g.id <> ? AND g.sales_closed_at IS NOT NULL
        AND EXISTS (SELECT 1 FROM terminal_cards tc JOIN terminal_sessions ts ON ts.id = tc.session_id
                     WHERE tc.game_id = g.id AND ts.hall_id = ?)`,
    [gameId, hallId],
  )
  return r?.at ?? null
}

/** An enrolled terminal (its hall), or undefined for any other device or a revoked one. */
export async function terminalDevice(sql: Sql, id: string) {
  return sql.get<{ id: string; name: string; hall_id: string | null }>(
    "SELECT id, name, hall_id FROM device_credentials WHERE id = ? AND kind = 'terminal' AND revoked_at IS NULL",
    [id],
  )
}

/** A hall's enrolled terminals with their open session's balance, if any (the cashier's list to load credit onto). */
export async function terminalsOfHall(sql: Sql, hallId: string) {
  const rows = await sql.all<{
    id: string
    name: string
    session_id: string | null
    balance_cents: number | null
    currency: string | null
  }>(
    `SELECT d.id, d.name, ts.id AS session_id, ts.balance_cents, ts.currency
       FROM device_credentials d LEFT JOIN terminal_sessions ts ON ts.terminal_id = d.id AND ts.status = 'open'
      WHERE d.kind = 'terminal' AND d.hall_id = ? AND d.revoked_at IS NULL ORDER BY d.name, d.id`,
    [hallId],
  )
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    session: r.session_id
      ? { id: r.session_id, balanceCents: Number(r.balance_cents), currency: r.currency ?? '' }
      : null,
  }))
}

/** Adds cash loaded at a cash desk to an open session's balance; 0 rows when the session is no longer open. */
export async function loadSession(sql: Sql, id: string, cents: number): Promise<number> {
  touchRows(sql, 'terminal_sessions', [id])
  return (
    await sql.run("UPDATE terminal_sessions SET balance_cents = balance_cents + ? WHERE id = ? AND status = 'open'", [
      cents,
      id,
    ])
  ).changes
}
