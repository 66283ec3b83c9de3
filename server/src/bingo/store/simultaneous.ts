/**
 * Simultaneous games: the halls that play one game and their cursors (simultaneous-service.ts).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 *
 * Statement texts are kept as they were, since the SQLite engine caches prepared statements by text. Rows of the
 * core bingo tables (games, halls) are typed by the caller.
 */
import type { Sql } from '../../db/database.ts'
import { type Game, type GameRow, toGame } from './games.ts'
import { type Hall, type HallRow, toHall } from './halls.ts'
import { type Series, type SeriesRow, toSeries } from './series.ts'

/** A `game_halls` row as stored. */
interface GameHallRow {
  game_id: string
  hall_id: string
  series_id: string
  master_set_id: string
  from_card_no: number
  to_card_no: number
  next_card_no: number
  cards_sold: number
  joined_at: string
}

/** A hall that plays a simultaneous game (BNG-100): its range of the master set, its cursor and its sales. */
export interface GameHall {
  gameId: string
  hallId: string
  seriesId: string
  masterSetId: string
  fromCardNo: number
  toCardNo: number
  nextCardNo: number
  cardsSold: number
  joinedAt: string
}

function toGameHall(r: GameHallRow): GameHall {
  return {
    gameId: r.game_id,
    hallId: r.hall_id,
    seriesId: r.series_id,
    masterSetId: r.master_set_id,
    fromCardNo: Number(r.from_card_no),
    toCardNo: Number(r.to_card_no),
    nextCardNo: Number(r.next_card_no),
    cardsSold: Number(r.cards_sold),
    joinedAt: r.joined_at,
  }
}

/** A game for the bonus use cases. */
export async function bonusGameById(tx: Sql, gameId: string): Promise<Game | undefined> {
  const row = await tx.get<GameRow>('SELECT * FROM games WHERE id = ?', [gameId])
  return row && toGame(row)
}

export async function gameHallsOfGame(tx: Sql, gameId: string): Promise<GameHall[]> {
  return (
    await tx.all<GameHallRow>('SELECT * FROM game_halls WHERE game_id = ? ORDER BY from_card_no, hall_id', [gameId])
  ).map(toGameHall)
}

export async function gameHallOf(tx: Sql, gameId: string, hallId: string): Promise<GameHall | undefined> {
  const row = await tx.get<GameHallRow>('SELECT * FROM game_halls WHERE game_id = ? AND hall_id = ?', [gameId, hallId])
  return row && toGameHall(row)
}

/** Master set and face value of the game's first series (every joining hall must match them). */
export async function simultaneousFirstSeries(
  tx: Sql,
  gameId: string,
): Promise<Pick<Series, 'masterSetId' | 'faceValueCents'> | undefined> {
  const row = await tx.get<{ master_set_id: string; face_value_cents: number | string }>(
    'SELECT s.master_set_id, s.face_value_cents FROM game_series gs JOIN series s ON s.id = gs.series_id WHERE gs.game_id = ? AND gs.position = 1',
    [gameId],
  )
  return row && { masterSetId: row.master_set_id, faceValueCents: Number(row.face_value_cents) }
}

export async function simultaneousHallById(tx: Sql, hallId: string): Promise<Hall | undefined> {
  const row = await tx.get<HallRow>('SELECT * FROM halls WHERE id = ?', [hallId])
  return row && toHall(row)
}

export async function simultaneousSeriesOfHall(tx: Sql, seriesId: string, hallId: string): Promise<Series | undefined> {
  const row = await tx.get<SeriesRow>('SELECT * FROM series WHERE id = ? AND hall_id = ?', [seriesId, hallId])
  return row && toSeries(row)
}

export async function simultaneousSeriesById(
  tx: Sql,
  seriesId: string,
): Promise<Pick<Series, 'id' | 'code' | 'cardCount'> | undefined> {
  const r = await tx.get<{ id: string; code: string; card_count: number }>(
    'SELECT id, code, card_count FROM series WHERE id = ?',
    [seriesId],
  )
  return r && { id: r.id, code: r.code, cardCount: Number(r.card_count) }
}

/** Cards the halls of a game have sold. */
export async function gameHallsCardsSold(tx: Sql, gameId: string): Promise<number> {
  const r = await tx.get<{ n: number | string | null }>(
    'SELECT SUM(cards_sold) AS n FROM game_halls WHERE game_id = ?',
    [gameId],
  )
  return Number(r?.n ?? 0)
}

/** A hall of the game whose range of the master set overlaps `from`..`to`. */
export async function overlappingGameHall(
  tx: Sql,
  gameId: string,
  masterSetId: string,
  from: number,
  to: number,
): Promise<Pick<GameHall, 'hallId' | 'fromCardNo' | 'toCardNo'> | undefined> {
  const r = await tx.get<{ hall_id: string; from_card_no: number; to_card_no: number }>(
    'SELECT hall_id, from_card_no, to_card_no FROM game_halls WHERE game_id = ? AND master_set_id = ? AND NOT (to_card_no < ? OR from_card_no > ?)',
    [gameId, masterSetId, from, to],
  )
  return r && { hallId: r.hall_id, fromCardNo: Number(r.from_card_no), toCardNo: Number(r.to_card_no) }
}

export async function insertGameHall(
  tx: Sql,
  h: { gameId: string; hallId: string; seriesId: string; masterSetId: string; from: number; to: number; at: string },
): Promise<void> {
  await tx.run(
    'INSERT INTO game_halls (game_id, hall_id, series_id, master_set_id, from_card_no, to_card_no, next_card_no, cards_sold, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)',
    [h.gameId, h.hallId, h.seriesId, h.masterSetId, h.from, h.to, h.from, h.at],
  )
}

/** Moves a hall's cursor past `count` cards sold from `from`; false if another sale moved it first. */
export async function advanceGameHallCursor(
  tx: Sql,
  gameId: string,
  hallId: string,
  from: number,
  count: number,
): Promise<boolean> {
  const moved = await tx.run(
    'UPDATE game_halls SET next_card_no = ?, cards_sold = cards_sold + ? WHERE game_id = ? AND hall_id = ? AND next_card_no = ?',
    [from + count, count, gameId, hallId, from],
  )
  return moved.changes === 1
}

/** The series cursor never goes back: it follows the highest card sold (BNG-12). */
export async function advanceSeriesCursorForHallSale(
  tx: Sql,
  seriesId: string,
  nextCardNo: number,
  at: string,
): Promise<void> {
  await tx.run(
    'UPDATE series SET last_sold_at = ?, next_card_no = CASE WHEN next_card_no < ? THEN ? ELSE next_card_no END WHERE id = ?',
    [at, nextCardNo, nextCardNo, seriesId],
  )
}

export async function addSimultaneousCardsSold(tx: Sql, gameId: string, count: number): Promise<void> {
  await tx.run('UPDATE games SET cards_sold = cards_sold + ? WHERE id = ?', [count, gameId])
}

/** Games not yet ended that `hallId` plays as a participating hall. */
export async function activeSimultaneousGamesOfHall(tx: Sql, hallId: string): Promise<string[]> {
  const rows = await tx.all<{ id: string }>(
    "SELECT g.id FROM game_halls gh JOIN games g ON g.id = gh.game_id WHERE gh.hall_id = ? AND g.status NOT IN ('finished', 'void') ORDER BY g.created_at",
    [hallId],
  )
  return rows.map((r) => r.id)
}

/** The halls of a simultaneous game as the game state shows them. */
export async function gameHallViews(
  tx: Sql,
  gameId: string,
): Promise<
  Array<{ hallId: string; name: string; seriesCode: string; fromCardNo: number; toCardNo: number; cardsSold: number }>
> {
  const rows = await tx.all<{
    hall_id: string
    name: string
    code: string
    from_card_no: number
    to_card_no: number
    cards_sold: number
  }>(
    'SELECT gh.hall_id, h.name, s.code, gh.from_card_no, gh.to_card_no, gh.cards_sold FROM game_halls gh JOIN halls h ON h.id = gh.hall_id JOIN series s ON s.id = gh.series_id WHERE gh.game_id = ? ORDER BY gh.from_card_no',
    [gameId],
  )
  return rows.map((r) => ({
    hallId: r.hall_id,
    name: r.name,
    seriesCode: r.code,
    fromCardNo: Number(r.from_card_no),
    toCardNo: Number(r.to_card_no),
    cardsSold: Number(r.cards_sold),
  }))
}

/** Verified winning cards of a game with the hall that sold each. */
export async function verifiedWinnerHallsOfGame(
  tx: Sql,
  gameId: string,
): Promise<Array<{ cardId: string; serial: string; hallId: string }>> {
  const rows = await tx.all<{ card_id: string; serial: string; hall_id: string }>(
    "SELECT DISTINCT cl.card_id, cl.serial, s.hall_id FROM claims cl JOIN cards c ON c.id = cl.card_id JOIN series s ON s.id = c.series_id WHERE cl.game_id = ? AND cl.status = 'verified' ORDER BY cl.serial",
    [gameId],
  )
  return rows.map((r) => ({ cardId: r.card_id, serial: r.serial, hallId: r.hall_id }))
}

/** The hall that sold a card of the game, if the card belongs to it. */
export async function simultaneousHallOfCard(tx: Sql, cardId: string, gameId: string): Promise<string | undefined> {
  return (
    await tx.get<{ hall_id: string }>(
      'SELECT s.hall_id FROM cards c JOIN series s ON s.id = c.series_id WHERE c.id = ? AND c.game_id = ?',
      [cardId, gameId],
    )
  )?.hall_id
}
