/**
 * Bonus prizes (prima and pots) and what the bonus use cases read of the core tables (bonus-service.ts).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 *
 * Statement texts are kept as they were, since the SQLite engine caches prepared statements by text. Rows of the
 * core bingo tables (games, halls) are typed by the caller.
 */
import type { Sql } from '../../db/database.ts'
import type { Hall } from './halls.ts'
import { touchRows, touchRowsWhere } from '../../shared/row-seals.ts'
import type { BonusPotKind } from './pots.ts'

export type BonusPrizeSource = 'prima' | BonusPotKind

/** A `bonus_prizes` row as stored (PostgreSQL returns its BIGINT `amount_cents` as text). */
export interface BonusPrizeRow {
  id: string
  game_id: string
  card_id: string
  hall_id: string
  source: BonusPrizeSource
  pot_id: string
  name: string
  prize_kind: 'line' | 'bingo'
  amount_cents: number | string
  at_ball: number
  completed_at_ball: number | null
  accumulated_games: number | null
  status: 'awarded' | 'paid' | 'void'
  awarded_at: string
  paid_at: string | null
  paid_by: string | null
  payee_name: string | null
  payee_document: string | null
  /** BNG-70 (migration 0050): null on prizes paid before it. */
  payment_method?: 'cash' | 'cheque' | null
  cheque_number?: string | null
  station_id?: string | null
}

/**
 * A prima or pot prize as the use cases read it. `potId` is '' on a prima prize; `payeeDocument` is stored sealed
 * (issue 24 point 2) and opened only where a receipt shows it.
 */
export interface BonusPrize {
  id: string
  gameId: string
  cardId: string
  hallId: string
  source: BonusPrizeSource
  potId: string
  name: string
  prizeKind: 'line' | 'bingo'
  amountCents: number
  atBall: number
  completedAtBall: number | null
  accumulatedGames: number | null
  status: 'awarded' | 'paid' | 'void'
  awardedAt: string
  paidAt: string | null
  paidBy: string | null
  payeeName: string | null
  payeeDocument: string | null
  paymentMethod: 'cash' | 'cheque' | null
  chequeNumber: string | null
  stationId: string | null
}

const numberOrNull = (v: number | string | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v)

export function toBonusPrize(r: BonusPrizeRow): BonusPrize {
  return {
    id: r.id,
    gameId: r.game_id,
    cardId: r.card_id,
    hallId: r.hall_id,
    source: r.source,
    potId: r.pot_id,
    name: r.name,
    prizeKind: r.prize_kind,
    amountCents: Number(r.amount_cents),
    atBall: Number(r.at_ball),
    completedAtBall: numberOrNull(r.completed_at_ball),
    accumulatedGames: numberOrNull(r.accumulated_games),
    status: r.status,
    awardedAt: r.awarded_at,
    paidAt: r.paid_at,
    paidBy: r.paid_by,
    payeeName: r.payee_name,
    payeeDocument: r.payee_document,
    paymentMethod: r.payment_method ?? null,
    chequeNumber: r.cheque_number ?? null,
    stationId: r.station_id ?? null,
  }
}

export type BonusPrizeWithSerial = BonusPrize & { serial: string }

/** A bonus prize with its card, series, game and hall, for its receipt (BNG-69). */
export type BonusPrizeReceiptFacts = BonusPrizeWithSerial & {
  cardNo: number
  numbers: string
  seriesCode: string
  currency: string
  orderNo: number
  hallName: string
}

/** The journal's last sequence number (0 when empty): the `seq` of the `game:changed` events. */
export async function bonusLastJournalSeq(tx: Sql): Promise<number> {
  return Number((await tx.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM journal'))?.seq ?? 0)
}

export function bonusHallProfile(tx: Sql, hallId: string): Promise<Pick<Hall, 'profileId' | 'settings'> | undefined> {
  return tx.get<Pick<Hall, 'profileId' | 'settings'>>(
    'SELECT profile_id AS "profileId", settings FROM halls WHERE id = ?',
    [hallId],
  )
}

/** A card's numbers and the hall whose series sold it. */
export async function bonusCardNumbersAndHall(
  tx: Sql,
  cardId: string,
): Promise<{ numbers: string; hallId: string } | undefined> {
  const row = await tx.get<{ numbers: string; hall_id: string }>(
    'SELECT c.numbers, s.hall_id FROM cards c JOIN series s ON s.id = c.series_id WHERE c.id = ?',
    [cardId],
  )
  return row && { numbers: row.numbers, hallId: row.hall_id }
}

export async function insertBonusPrize(
  tx: Sql,
  p: {
    id: string
    gameId: string
    cardId: string
    hallId: string
    source: BonusPrizeSource
    potId: string
    name: string
    prizeKind: 'line' | 'bingo'
    amountCents: number
    atBall: number
    completedAtBall: number | null
    accumulatedGames: number | null
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO bonus_prizes (id, game_id, card_id, hall_id, source, pot_id, name, prize_kind, amount_cents, at_ball, completed_at_ball, accumulated_games, status, awarded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      p.id,
      p.gameId,
      p.cardId,
      p.hallId,
      p.source,
      p.potId,
      p.name,
      p.prizeKind,
      p.amountCents,
      p.atBall,
      p.completedAtBall,
      p.accumulatedGames,
      'awarded',
      p.at,
    ],
  )
  touchRows(tx, 'bonus_prizes', [p.id])
}

/** Pot prizes of a game awarded and not yet paid (a void game gives them back to their pots). */
export async function unpaidPotPrizesOfGame(
  tx: Sql,
  gameId: string,
): Promise<Array<{ potId: string; prizeKind: string; amountCents: number }>> {
  return (
    await tx.all<{ pot_id: string; prize_kind: string; amount_cents: number | string }>(
      "SELECT pot_id, prize_kind, amount_cents FROM bonus_prizes WHERE game_id = ? AND status = 'awarded' AND source <> 'prima'",
      [gameId],
    )
  ).map((r) => ({ potId: r.pot_id, prizeKind: r.prize_kind, amountCents: Number(r.amount_cents) }))
}

export async function voidBonusPrizesOfGame(tx: Sql, gameId: string): Promise<void> {
  await touchRowsWhere(tx, 'bonus_prizes', "game_id = ? AND status = 'awarded'", [gameId])
  await tx.run("UPDATE bonus_prizes SET status = 'void' WHERE game_id = ? AND status = 'awarded'", [gameId])
}

export async function bonusPrizesOfGame(tx: Sql, gameId: string): Promise<BonusPrizeWithSerial[]> {
  return (
    await tx.all<BonusPrizeRow & { serial: string }>(
      'SELECT b.*, c.serial FROM bonus_prizes b JOIN cards c ON c.id = b.card_id WHERE b.game_id = ? ORDER BY b.source, c.serial',
      [gameId],
    )
  ).map((r) => ({ ...toBonusPrize(r), serial: r.serial }))
}

export async function bonusPrizeById(tx: Sql, prizeId: string): Promise<BonusPrizeWithSerial | undefined> {
  const row = await tx.get<BonusPrizeRow & { serial: string }>(
    'SELECT b.*, c.serial FROM bonus_prizes b JOIN cards c ON c.id = b.card_id WHERE b.id = ?',
    [prizeId],
  )
  return row && { ...toBonusPrize(row), serial: row.serial }
}

/** Marks an awarded bonus prize paid; false if it was not awarded (already paid, or void). */
export async function markBonusPrizePaid(
  tx: Sql,
  prizeId: string,
  p: {
    at: string
    paidBy: string
    payeeName: string
    payeeDocument: string
    /** CFG-22: the pot winner's contact telephone, sealed; null where not asked. */
    payeePhone?: string | null
    paymentMethod?: 'cash' | 'cheque'
    chequeNumber?: string | null
    stationId?: string | null
  },
): Promise<boolean> {
  const r = await tx.run(
    "UPDATE bonus_prizes SET status = 'paid', paid_at = ?, paid_by = ?, payee_name = ?, payee_document = ?, payee_phone = ?, payment_method = ?, cheque_number = ?, station_id = ? WHERE id = ? AND status = 'awarded'",
    [
      p.at,
      p.paidBy,
      p.payeeName,
      p.payeeDocument,
      p.payeePhone ?? null,
      p.paymentMethod ?? 'cash',
      p.chequeNumber ?? null,
      p.stationId ?? null,
      prizeId,
    ],
  )
  touchRows(tx, 'bonus_prizes', [prizeId])
  return r.changes === 1
}

/** A bonus prize with its card, series, game order and currency (BNG-69 receipt). */
export async function bonusPrizeReceiptFacts(tx: Sql, prizeId: string): Promise<BonusPrizeReceiptFacts | undefined> {
  const r = await tx.get<
    BonusPrizeRow & {
      serial: string
      card_no: number
      numbers: string
      code: string
      currency: string
      order_no: number
      hall_name: string
    }
  >(
    'SELECT b.*, c.serial, c.card_no, c.numbers, s.code, h.currency, h.name AS hall_name, g.order_no FROM bonus_prizes b JOIN cards c ON c.id = b.card_id JOIN series s ON s.id = c.series_id JOIN games g ON g.id = b.game_id JOIN halls h ON h.id = g.hall_id WHERE b.id = ?',
    [prizeId],
  )
  return (
    r && {
      ...toBonusPrize(r),
      serial: r.serial,
      cardNo: Number(r.card_no),
      numbers: r.numbers,
      seriesCode: r.code,
      currency: r.currency,
      orderNo: Number(r.order_no),
      hallName: r.hall_name,
    }
  )
}

/** The balls of a game in draw order, for a bonus receipt. */
export async function bonusReceiptBalls(tx: Sql, gameId: string): Promise<number[]> {
  return (await tx.all<{ ball: number }>('SELECT ball FROM balls WHERE game_id = ? ORDER BY seq', [gameId])).map((b) =>
    Number(b.ball),
  )
}
