// Prima, pots, lucky ball, simultaneous games (bonus-service.ts, prima-service.ts, pots-service.ts, simultaneous-service.ts)
//
// The SQL of issue #8. Every function takes the transaction (or connection) it runs in; statement texts are kept
// as they were, since the SQLite engine caches prepared statements by text. Rows of the core bingo tables (games,
// halls) are typed by the caller, so that this section does not depend on the core section's row types.
import type { Sql } from '../db/database.ts'

type BonusPotKind = 'progressive' | 'interconnected' | 'lucky'

export interface PotRow {
  id: string; name: string; kind: BonusPotKind; currency: string; contribution_bp: number; reserve_bp: number; seed_cents: number; max_cents: number | null
  conditions: string; public_text: string; status: string; entries: number; created_at: string
}

export type PotLedgerKind = 'seed' | 'contribution' | 'award' | 'reserve_transfer' | 'payment' | 'reversal' | 'award_reversal'

export interface PotLedgerEntry { entryNo: number; kind: string; gameId: string | null; hallId: string | null; prizeId: string | null; mainCents: number; reserveCents: number; detail: unknown; at: string }

export interface LuckyDrawRow { game_id: string; commitment: string; seed_hex: string; number_count: number; numbers: string | null; created_at: string; drawn_at: string | null }

export interface PrimaRow {
  hall_id: string; amounts: string; amount_cents: number; deduction_bp: number; min_amount_cents: number; max_amount_cents: number
  step_cents: number; base_ball_limit: number; increment_per_game: number; reset_policy: 'base' | 'keep'; fund_cents: number
  ball_limit: number; cycle_games: number; unwon_games: number; amount_changeable: number; entries: number; updated_at: string
}
export interface PrimaGameRow { game_id: string; hall_id: string; active: number; amount_cents: number; ball_limit: number; fund_at_start_cents: number; deduction_cents: number | null; outcome: string | null }
export type PrimaLedgerKind = 'deduction' | 'award' | 'reversal' | 'payment'
export interface PrimaLedgerEntry { entryNo: number; kind: string; gameId: string | null; amountCents: number; fundAfterCents: number; detail: unknown; at: string }

export interface GameHallRow { game_id: string; hall_id: string; series_id: string; master_set_id: string; from_card_no: number; to_card_no: number; next_card_no: number; cards_sold: number; joined_at: string }
/** The columns of a `halls` row that a simultaneous game checks. */
export interface SimultaneousHallRow { id: string; name: string; profile_id: string; currency: string }
export interface SimultaneousSeriesRow { id: string; code: string; master_set_id: string; face_value_cents: number; card_count: number; next_card_no: number }

export type BonusPrizeSource = 'prima' | BonusPotKind
export interface BonusPrizeRow {
  id: string; game_id: string; card_id: string; hall_id: string; source: BonusPrizeSource; pot_id: string; name: string; prize_kind: 'line' | 'bingo'
  amount_cents: number; at_ball: number; completed_at_ball: number | null; accumulated_games: number | null; status: 'awarded' | 'paid' | 'void'
  awarded_at: string; paid_at: string | null; paid_by: string | null; payee_name: string | null; payee_document: string | null
}
export type BonusPrizeWithSerial = BonusPrizeRow & { serial: string }
export type BonusPrizeReceiptRow = BonusPrizeWithSerial & { card_no: number; numbers: string; code: string; currency: string; order_no: number }

// ---- pots (pots-service.ts)

export async function potBalance(tx: Sql, potId: string): Promise<{ mainCents: number; reserveCents: number }> {
  const r = await tx.get<{ m: number | string | null; r: number | string | null }>('SELECT SUM(main_cents) AS m, SUM(reserve_cents) AS r FROM pot_ledger WHERE pot_id = ?', [potId])
  return { mainCents: Number(r?.m ?? 0), reserveCents: Number(r?.r ?? 0) }
}

/** Appends one movement to a pot's ledger (entry numbers 1, 2, 3, ... per pot). */
export async function appendPotLedgerEntry(tx: Sql, potId: string, e: { kind: PotLedgerKind; gameId?: string; hallId?: string; prizeId?: string; mainCents: number; reserveCents: number; detail?: unknown; at: string }): Promise<void> {
  const row = await tx.get<{ entries: number }>('SELECT entries FROM pots WHERE id = ?', [potId])
  const entryNo = Number(row?.entries ?? 0) + 1
  await tx.run('INSERT INTO pot_ledger (pot_id, entry_no, kind, game_id, hall_id, prize_id, main_cents, reserve_cents, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
    potId, entryNo, e.kind, e.gameId ?? '', e.hallId ?? '', e.prizeId ?? '', e.mainCents, e.reserveCents, JSON.stringify(e.detail ?? {}), e.at,
  ])
  await tx.run('UPDATE pots SET entries = ? WHERE id = ?', [entryNo, potId])
}

export async function potLedgerEntries(tx: Sql, potId: string): Promise<PotLedgerEntry[]> {
  const rows = await tx.all<{ entry_no: number; kind: string; game_id: string; hall_id: string; prize_id: string; main_cents: number; reserve_cents: number; detail: string; created_at: string }>('SELECT * FROM pot_ledger WHERE pot_id = ? ORDER BY entry_no', [potId])
  return rows.map((r) => ({ entryNo: Number(r.entry_no), kind: r.kind, gameId: r.game_id || null, hallId: r.hall_id || null, prizeId: r.prize_id || null, mainCents: Number(r.main_cents), reserveCents: Number(r.reserve_cents), detail: JSON.parse(r.detail), at: r.created_at }))
}

/** A hall a new pot is created for, with its currency. */
export function potCandidateHall(tx: Sql, hallId: string): Promise<{ id: string; currency: string } | undefined> {
  return tx.get<{ id: string; currency: string }>('SELECT id, currency FROM halls WHERE id = ?', [hallId])
}

/** The currency of a hall joining an existing pot. */
export function potJoiningHall(tx: Sql, hallId: string): Promise<{ currency: string } | undefined> {
  return tx.get<{ currency: string }>('SELECT currency FROM halls WHERE id = ?', [hallId])
}

export async function insertPot(tx: Sql, p: { id: string; name: string; kind: string; currency: string; contributionBp: number; reserveBp: number; seedCents: number; maxCents: number | null; conditionJson: string; publicText: string; status: string; at: string }): Promise<void> {
  await tx.run('INSERT INTO pots (id, name, kind, currency, contribution_bp, reserve_bp, seed_cents, max_cents, conditions, public_text, status, entries, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)', [
    p.id, p.name, p.kind, p.currency, p.contributionBp, p.reserveBp, p.seedCents, p.maxCents, p.conditionJson, p.publicText, p.status, p.at,
  ])
}

export async function insertPotHall(tx: Sql, potId: string, hallId: string, at: string): Promise<void> {
  await tx.run('INSERT INTO pot_halls (pot_id, hall_id, joined_at) VALUES (?, ?, ?)', [potId, hallId, at])
}

export function potById(tx: Sql, potId: string): Promise<PotRow | undefined> {
  return tx.get<PotRow>('SELECT * FROM pots WHERE id = ?', [potId])
}

export async function hallIdsOfPot(tx: Sql, potId: string): Promise<string[]> {
  return (await tx.all<{ hall_id: string }>('SELECT hall_id FROM pot_halls WHERE pot_id = ? ORDER BY hall_id', [potId])).map((h) => h.hall_id)
}

/** Every hall that takes part in some pot. */
export async function hallIdsWithPots(tx: Sql): Promise<string[]> {
  return (await tx.all<{ hall_id: string }>('SELECT DISTINCT hall_id FROM pot_halls')).map((r) => r.hall_id)
}

/** Active pots that any of `hallIds` takes part in, with all their halls. */
export async function activePotsOfHalls(tx: Sql, hallIds: readonly string[]): Promise<Array<PotRow & { hallIds: string[] }>> {
  if (hallIds.length === 0) return []
  const rows = await tx.all<PotRow & { hall_id: string }>(
    `SELECT p.*, ph.hall_id FROM pots p JOIN pot_halls ph ON ph.pot_id = p.id WHERE p.status = 'active' AND p.id IN (SELECT pot_id FROM pot_halls WHERE hall_id IN (${hallIds.map(() => '?').join(', ')})) ORDER BY p.created_at, p.id, ph.hall_id`,
    [...hallIds],
  )
  const out = new Map<string, PotRow & { hallIds: string[] }>()
  for (const r of rows) {
    const { hall_id, ...pot } = r
    const p = out.get(pot.id) ?? { ...pot, hallIds: [] }
    p.hallIds.push(hall_id)
    out.set(pot.id, p)
  }
  return [...out.values()]
}

export function potContributionsOfGame(tx: Sql, gameId: string): Promise<Array<{ pot_id: string; hall_id: string; main_cents: number; reserve_cents: number }>> {
  return tx.all<{ pot_id: string; hall_id: string; main_cents: number; reserve_cents: number }>("SELECT pot_id, hall_id, main_cents, reserve_cents FROM pot_ledger WHERE game_id = ? AND kind = 'contribution'", [gameId])
}

/** Games that contributed to a pot since its last award in another game (the accumulated games of BNG-69). */
export async function potGamesSinceLastAward(tx: Sql, potId: string, gameId: string): Promise<number> {
  const cycle = await tx.get<{ n: number }>("SELECT COUNT(DISTINCT game_id) AS n FROM pot_ledger WHERE pot_id = ? AND kind = 'contribution' AND entry_no > COALESCE((SELECT MAX(entry_no) FROM pot_ledger WHERE pot_id = ? AND kind = 'award' AND game_id <> ?), 0)", [potId, potId, gameId])
  return Number(cycle?.n ?? 0)
}

// ---- lucky ball (pots-service.ts, bonus-service.ts)

export function luckyDrawByGame(tx: Sql, gameId: string): Promise<LuckyDrawRow | undefined> {
  return tx.get<LuckyDrawRow>('SELECT * FROM lucky_draws WHERE game_id = ?', [gameId])
}

export async function luckyNumberCount(tx: Sql, gameId: string): Promise<number | undefined> {
  const r = await tx.get<{ number_count: number }>('SELECT number_count FROM lucky_draws WHERE game_id = ?', [gameId])
  return r ? Number(r.number_count) : undefined
}

/** Raises the count of lucky numbers while they are not drawn yet. */
export async function raiseLuckyNumberCount(tx: Sql, gameId: string, count: number): Promise<void> {
  await tx.run('UPDATE lucky_draws SET number_count = ? WHERE game_id = ? AND numbers IS NULL', [count, gameId])
}

export async function insertLuckyDraw(tx: Sql, d: { gameId: string; commitment: string; seedHex: string; count: number; at: string }): Promise<void> {
  await tx.run('INSERT INTO lucky_draws (game_id, commitment, seed_hex, number_count, created_at) VALUES (?, ?, ?, ?, ?)', [d.gameId, d.commitment, d.seedHex, d.count, d.at])
}

export async function setLuckyNumbers(tx: Sql, gameId: string, numbers: number[], at: string): Promise<void> {
  await tx.run('UPDATE lucky_draws SET numbers = ?, drawn_at = ? WHERE game_id = ?', [JSON.stringify(numbers), at, gameId])
}

/** The game's drawn lucky numbers; null before close of sales or without a lucky ball. */
export async function luckyNumbersOfGame(tx: Sql, gameId: string): Promise<number[] | null> {
  const lucky = await tx.get<{ numbers: string | null }>('SELECT numbers FROM lucky_draws WHERE game_id = ?', [gameId])
  return lucky?.numbers ? JSON.parse(lucky.numbers) : null
}

export function luckyCommitmentOfGame(tx: Sql, gameId: string): Promise<{ commitment: string; numbers: string | null } | undefined> {
  return tx.get<{ commitment: string; numbers: string | null }>('SELECT commitment, numbers FROM lucky_draws WHERE game_id = ?', [gameId])
}

// ---- prima (prima-service.ts)

export function primaByHall(tx: Sql, hallId: string): Promise<PrimaRow | undefined> {
  return tx.get<PrimaRow>('SELECT * FROM prima_halls WHERE hall_id = ?', [hallId])
}

export async function updatePrimaState(tx: Sql, hallId: string, s: { amountCents: number; fundCents: number; ballLimit: number; cycleGames: number; unwonGames: number; amountChangeable: boolean }, at: string): Promise<void> {
  await tx.run('UPDATE prima_halls SET amount_cents = ?, fund_cents = ?, ball_limit = ?, cycle_games = ?, unwon_games = ?, amount_changeable = ?, updated_at = ? WHERE hall_id = ?', [
    s.amountCents, s.fundCents, s.ballLimit, s.cycleGames, s.unwonGames, s.amountChangeable ? 1 : 0, at, hallId,
  ])
}

/** Appends one movement to the hall's prima ledger (entry numbers 1, 2, 3, ... per hall). */
export async function appendPrimaLedgerEntry(tx: Sql, hallId: string, e: { kind: PrimaLedgerKind; gameId: string | null; amountCents: number; fundAfterCents: number; detail: unknown; at: string }): Promise<void> {
  const row = await tx.get<{ entries: number }>('SELECT entries FROM prima_halls WHERE hall_id = ?', [hallId])
  const entryNo = Number(row?.entries ?? 0) + 1
  await tx.run('INSERT INTO prima_ledger (hall_id, entry_no, kind, game_id, amount_cents, fund_after_cents, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
    hallId, entryNo, e.kind, e.gameId, e.amountCents, e.fundAfterCents, JSON.stringify(e.detail ?? {}), e.at,
  ])
  await tx.run('UPDATE prima_halls SET entries = ? WHERE hall_id = ?', [entryNo, hallId])
}

export async function primaLedgerEntries(tx: Sql, hallId: string): Promise<PrimaLedgerEntry[]> {
  const rows = await tx.all<{ entry_no: number; kind: string; game_id: string | null; amount_cents: number; fund_after_cents: number; detail: string; created_at: string }>('SELECT * FROM prima_ledger WHERE hall_id = ? ORDER BY entry_no', [hallId])
  return rows.map((r) => ({ entryNo: Number(r.entry_no), kind: r.kind, gameId: r.game_id, amountCents: Number(r.amount_cents), fundAfterCents: Number(r.fund_after_cents), detail: JSON.parse(r.detail), at: r.created_at }))
}

/** The hall's session not yet closed, latest first: hall-level prima records are journaled under it (BNG-61). */
export async function primaOpenSessionOfHall(tx: Sql, hallId: string): Promise<string | undefined> {
  return (await tx.get<{ id: string }>("SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed' ORDER BY opened_at DESC LIMIT 1", [hallId]))?.id
}

export async function primaGamesInSession(tx: Sql, sessionId: string): Promise<number> {
  return Number((await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM games WHERE session_id = ?', [sessionId]))?.n ?? 0)
}

/** A game of the hall not yet ended, if any (the prima changes between games, BNG-61). */
export async function primaHallGameInProgress(tx: Sql, hallId: string): Promise<string | undefined> {
  return (await tx.get<{ id: string }>("SELECT id FROM games WHERE hall_id = ? AND status NOT IN ('finished', 'void')", [hallId]))?.id
}

export async function insertPrimaHall(tx: Sql, p: {
  hallId: string; amountsJson: string; amountCents: number; deductionBp: number; minAmountCents: number; maxAmountCents: number; stepCents: number; baseBallLimit: number
  incrementPerGame: number; resetPolicy: string; fundCents: number; ballLimit: number; cycleGames: number; unwonGames: number; amountChangeable: number; at: string
}): Promise<void> {
  await tx.run(
    `INSERT INTO prima_halls (hall_id, amounts, amount_cents, deduction_bp, min_amount_cents, max_amount_cents, step_cents, base_ball_limit, increment_per_game, reset_policy, fund_cents, ball_limit, cycle_games, unwon_games, amount_changeable, entries, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    [p.hallId, p.amountsJson, p.amountCents, p.deductionBp, p.minAmountCents, p.maxAmountCents, p.stepCents, p.baseBallLimit, p.incrementPerGame, p.resetPolicy, p.fundCents, p.ballLimit, p.cycleGames, p.unwonGames, p.amountChangeable, p.at],
  )
}

export async function updatePrimaRules(tx: Sql, hallId: string, r: { amountsJson: string; deductionBp: number; baseBallLimit: number; incrementPerGame: number; resetPolicy: string }, at: string): Promise<void> {
  await tx.run('UPDATE prima_halls SET amounts = ?, deduction_bp = ?, base_ball_limit = ?, increment_per_game = ?, reset_policy = ?, updated_at = ? WHERE hall_id = ?', [
    r.amountsJson, r.deductionBp, r.baseBallLimit, r.incrementPerGame, r.resetPolicy, at, hallId,
  ])
}

export async function insertPrimaGame(tx: Sql, g: { gameId: string; hallId: string; active: boolean; amountCents: number; ballLimit: number; fundCents: number }): Promise<void> {
  await tx.run('INSERT INTO prima_games (game_id, hall_id, active, amount_cents, ball_limit, fund_at_start_cents) VALUES (?, ?, ?, ?, ?, ?)', [g.gameId, g.hallId, g.active ? 1 : 0, g.amountCents, g.ballLimit, g.fundCents])
}

/** Takes the prima off a game that has neither deducted nor settled it; true if it was on offer. */
export async function withdrawPrimaGame(tx: Sql, gameId: string): Promise<boolean> {
  const r = await tx.run("UPDATE prima_games SET active = 0, outcome = 'not_offered' WHERE game_id = ? AND deduction_cents IS NULL AND outcome IS NULL", [gameId])
  return r.changes === 1
}

export function primaGameById(tx: Sql, gameId: string): Promise<PrimaGameRow | undefined> {
  return tx.get<PrimaGameRow>('SELECT * FROM prima_games WHERE game_id = ?', [gameId])
}

export async function setPrimaGameDeduction(tx: Sql, gameId: string, deductionCents: number): Promise<void> {
  await tx.run('UPDATE prima_games SET deduction_cents = ? WHERE game_id = ?', [deductionCents, gameId])
}

export async function markPrimaGameNotOffered(tx: Sql, gameId: string): Promise<void> {
  await tx.run("UPDATE prima_games SET outcome = 'not_offered' WHERE game_id = ?", [gameId])
}

export async function setPrimaGameOutcome(tx: Sql, gameId: string, outcome: 'won' | 'not_won'): Promise<void> {
  await tx.run('UPDATE prima_games SET outcome = ? WHERE game_id = ?', [outcome, gameId])
}

export async function markPrimaGameVoid(tx: Sql, gameId: string): Promise<void> {
  await tx.run("UPDATE prima_games SET outcome = 'void' WHERE game_id = ?", [gameId])
}

// ---- simultaneous games (simultaneous-service.ts)

/** A `games` row for the bonus use cases; the caller gives the core section's row type. */
export function bonusGameById<G>(tx: Sql, gameId: string): Promise<G | undefined> {
  return tx.get<G>('SELECT * FROM games WHERE id = ?', [gameId])
}

export function gameHallsOfGame(tx: Sql, gameId: string): Promise<GameHallRow[]> {
  return tx.all<GameHallRow>('SELECT * FROM game_halls WHERE game_id = ? ORDER BY from_card_no, hall_id', [gameId])
}

export function gameHallOf(tx: Sql, gameId: string, hallId: string): Promise<GameHallRow | undefined> {
  return tx.get<GameHallRow>('SELECT * FROM game_halls WHERE game_id = ? AND hall_id = ?', [gameId, hallId])
}

/** Master set and face value of the game's first series (every joining hall must match them). */
export function simultaneousFirstSeries(tx: Sql, gameId: string): Promise<{ master_set_id: string; face_value_cents: number } | undefined> {
  return tx.get<{ master_set_id: string; face_value_cents: number }>('SELECT s.master_set_id, s.face_value_cents FROM game_series gs JOIN series s ON s.id = gs.series_id WHERE gs.game_id = ? AND gs.position = 1', [gameId])
}

export function simultaneousHallById(tx: Sql, hallId: string): Promise<SimultaneousHallRow | undefined> {
  return tx.get<SimultaneousHallRow>('SELECT * FROM halls WHERE id = ?', [hallId])
}

export function simultaneousSeriesOfHall(tx: Sql, seriesId: string, hallId: string): Promise<SimultaneousSeriesRow | undefined> {
  return tx.get<SimultaneousSeriesRow>('SELECT * FROM series WHERE id = ? AND hall_id = ?', [seriesId, hallId])
}

export function simultaneousSeriesById(tx: Sql, seriesId: string): Promise<{ id: string; code: string; card_count: number } | undefined> {
  return tx.get<{ id: string; code: string; card_count: number }>('SELECT id, code, card_count FROM series WHERE id = ?', [seriesId])
}

/** Cards the halls of a game have sold. */
export async function gameHallsCardsSold(tx: Sql, gameId: string): Promise<number> {
  const r = await tx.get<{ n: number | string | null }>('SELECT SUM(cards_sold) AS n FROM game_halls WHERE game_id = ?', [gameId])
  return Number(r?.n ?? 0)
}

/** A hall of the game whose range of the master set overlaps `from`..`to`. */
export function overlappingGameHall(tx: Sql, gameId: string, masterSetId: string, from: number, to: number): Promise<{ hall_id: string; from_card_no: number; to_card_no: number } | undefined> {
  return tx.get<{ hall_id: string; from_card_no: number; to_card_no: number }>('SELECT hall_id, from_card_no, to_card_no FROM game_halls WHERE game_id = ? AND master_set_id = ? AND NOT (to_card_no < ? OR from_card_no > ?)', [gameId, masterSetId, from, to])
}

export async function insertGameHall(tx: Sql, h: { gameId: string; hallId: string; seriesId: string; masterSetId: string; from: number; to: number; at: string }): Promise<void> {
  await tx.run('INSERT INTO game_halls (game_id, hall_id, series_id, master_set_id, from_card_no, to_card_no, next_card_no, cards_sold, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)', [h.gameId, h.hallId, h.seriesId, h.masterSetId, h.from, h.to, h.from, h.at])
}

/** Moves a hall's cursor past `count` cards sold from `from`; false if another sale moved it first. */
export async function advanceGameHallCursor(tx: Sql, gameId: string, hallId: string, from: number, count: number): Promise<boolean> {
  const moved = await tx.run('UPDATE game_halls SET next_card_no = ?, cards_sold = cards_sold + ? WHERE game_id = ? AND hall_id = ? AND next_card_no = ?', [from + count, count, gameId, hallId, from])
  return moved.changes === 1
}

/** The series cursor never goes back: it follows the highest card sold (BNG-12). */
export async function advanceSeriesCursorForHallSale(tx: Sql, seriesId: string, nextCardNo: number, at: string): Promise<void> {
  await tx.run('UPDATE series SET last_sold_at = ?, next_card_no = CASE WHEN next_card_no < ? THEN ? ELSE next_card_no END WHERE id = ?', [at, nextCardNo, nextCardNo, seriesId])
}

export async function addSimultaneousCardsSold(tx: Sql, gameId: string, count: number): Promise<void> {
  await tx.run('UPDATE games SET cards_sold = cards_sold + ? WHERE id = ?', [count, gameId])
}

/** Games not yet ended that `hallId` plays as a participating hall. */
export async function activeSimultaneousGamesOfHall(tx: Sql, hallId: string): Promise<string[]> {
  const rows = await tx.all<{ id: string }>("SELECT g.id FROM game_halls gh JOIN games g ON g.id = gh.game_id WHERE gh.hall_id = ? AND g.status NOT IN ('finished', 'void') ORDER BY g.created_at", [hallId])
  return rows.map((r) => r.id)
}

/** The halls of a simultaneous game as the game state shows them. */
export function gameHallViews(tx: Sql, gameId: string): Promise<Array<{ hall_id: string; name: string; code: string; from_card_no: number; to_card_no: number; cards_sold: number }>> {
  return tx.all<{ hall_id: string; name: string; code: string; from_card_no: number; to_card_no: number; cards_sold: number }>(
    'SELECT gh.hall_id, h.name, s.code, gh.from_card_no, gh.to_card_no, gh.cards_sold FROM game_halls gh JOIN halls h ON h.id = gh.hall_id JOIN series s ON s.id = gh.series_id WHERE gh.game_id = ? ORDER BY gh.from_card_no',
    [gameId],
  )
}

/** Verified winning cards of a game with the hall that sold each. */
export function verifiedWinnerHallsOfGame(tx: Sql, gameId: string): Promise<Array<{ card_id: string; serial: string; hall_id: string }>> {
  return tx.all<{ card_id: string; serial: string; hall_id: string }>("SELECT DISTINCT cl.card_id, cl.serial, s.hall_id FROM claims cl JOIN cards c ON c.id = cl.card_id JOIN series s ON s.id = c.series_id WHERE cl.game_id = ? AND cl.status = 'verified' ORDER BY cl.serial", [gameId])
}

/** The hall that sold a card of the game, if the card belongs to it. */
export async function simultaneousHallOfCard(tx: Sql, cardId: string, gameId: string): Promise<string | undefined> {
  return (await tx.get<{ hall_id: string }>('SELECT s.hall_id FROM cards c JOIN series s ON s.id = c.series_id WHERE c.id = ? AND c.game_id = ?', [cardId, gameId]))?.hall_id
}

// ---- bonus prizes and what the bonus use cases read of the core tables (bonus-service.ts)

/** The journal's last sequence number (0 when empty): the `seq` of the `game:changed` events. */
export async function bonusLastJournalSeq(tx: Sql): Promise<number> {
  return Number((await tx.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM journal'))?.seq ?? 0)
}

export function bonusHallProfile(tx: Sql, hallId: string): Promise<{ profile_id: string; settings: string } | undefined> {
  return tx.get<{ profile_id: string; settings: string }>('SELECT profile_id, settings FROM halls WHERE id = ?', [hallId])
}

/** A card's numbers and the hall whose series sold it. */
export function bonusCardNumbersAndHall(tx: Sql, cardId: string): Promise<{ numbers: string; hall_id: string } | undefined> {
  return tx.get<{ numbers: string; hall_id: string }>('SELECT c.numbers, s.hall_id FROM cards c JOIN series s ON s.id = c.series_id WHERE c.id = ?', [cardId])
}

export async function insertBonusPrize(tx: Sql, p: { id: string; gameId: string; cardId: string; hallId: string; source: BonusPrizeSource; potId: string; name: string; prizeKind: 'line' | 'bingo'; amountCents: number; atBall: number; completedAtBall: number | null; accumulatedGames: number | null; at: string }): Promise<void> {
  await tx.run(
    'INSERT INTO bonus_prizes (id, game_id, card_id, hall_id, source, pot_id, name, prize_kind, amount_cents, at_ball, completed_at_ball, accumulated_games, status, awarded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [p.id, p.gameId, p.cardId, p.hallId, p.source, p.potId, p.name, p.prizeKind, p.amountCents, p.atBall, p.completedAtBall, p.accumulatedGames, 'awarded', p.at],
  )
}

/** Pot prizes of a game awarded and not yet paid (a void game gives them back to their pots). */
export function unpaidPotPrizesOfGame(tx: Sql, gameId: string): Promise<Array<{ pot_id: string; prize_kind: string; amount_cents: number }>> {
  return tx.all<{ pot_id: string; prize_kind: string; amount_cents: number }>("SELECT pot_id, prize_kind, amount_cents FROM bonus_prizes WHERE game_id = ? AND status = 'awarded' AND source <> 'prima'", [gameId])
}

export async function voidBonusPrizesOfGame(tx: Sql, gameId: string): Promise<void> {
  await tx.run("UPDATE bonus_prizes SET status = 'void' WHERE game_id = ? AND status = 'awarded'", [gameId])
}

export function bonusPrizesOfGame(tx: Sql, gameId: string): Promise<BonusPrizeWithSerial[]> {
  return tx.all<BonusPrizeWithSerial>('SELECT b.*, c.serial FROM bonus_prizes b JOIN cards c ON c.id = b.card_id WHERE b.game_id = ? ORDER BY b.source, c.serial', [gameId])
}

export function bonusPrizeById(tx: Sql, prizeId: string): Promise<BonusPrizeWithSerial | undefined> {
  return tx.get<BonusPrizeWithSerial>('SELECT b.*, c.serial FROM bonus_prizes b JOIN cards c ON c.id = b.card_id WHERE b.id = ?', [prizeId])
}

/** Marks an awarded bonus prize paid; false if it was not awarded (already paid, or void). */
export async function markBonusPrizePaid(tx: Sql, prizeId: string, p: { at: string; paidBy: string; payeeName: string; payeeDocument: string }): Promise<boolean> {
  const r = await tx.run("UPDATE bonus_prizes SET status = 'paid', paid_at = ?, paid_by = ?, payee_name = ?, payee_document = ? WHERE id = ? AND status = 'awarded'", [p.at, p.paidBy, p.payeeName, p.payeeDocument, prizeId])
  return r.changes === 1
}

/** A bonus prize with its card, series, game order and currency (BNG-69 receipt). */
export function bonusPrizeReceiptRow(tx: Sql, prizeId: string): Promise<BonusPrizeReceiptRow | undefined> {
  return tx.get<BonusPrizeReceiptRow>(
    'SELECT b.*, c.serial, c.card_no, c.numbers, s.code, h.currency, g.order_no FROM bonus_prizes b JOIN cards c ON c.id = b.card_id JOIN series s ON s.id = c.series_id JOIN games g ON g.id = b.game_id JOIN halls h ON h.id = g.hall_id WHERE b.id = ?',
    [prizeId],
  )
}

/** The balls of a game in draw order, for a bonus receipt. */
export async function bonusReceiptBalls(tx: Sql, gameId: string): Promise<number[]> {
  return (await tx.all<{ ball: number }>('SELECT ball FROM balls WHERE game_id = ? ORDER BY seq', [gameId])).map((b) => Number(b.ball))
}
