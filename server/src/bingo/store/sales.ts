/**
 * Cards sold and refunded, and the sale limits of issue 18: players and their cards, seats, hall entry, cards handed back (BNG-15, BNG-19, BNG-40, BNG-93).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'
import { touchRowsWhere, touchWrittenRows } from '../../shared/row-seals.ts'

/** A `cards` row as stored (the columns the use cases read). */
export interface CardRow {
  id: string
  game_id: string
  series_id: string
  card_no: number
  serial: string
  numbers: string
  status: string
  channel: string
  sold_at: string
}

/** A sold card as the use cases read it: `numbers` is its rows as JSON text. */
export interface Card {
  id: string
  gameId: string
  seriesId: string
  cardNo: number
  serial: string
  numbers: string
  status: string
  channel: string
  soldAt: string
}

export function toCard(r: CardRow): Card {
  return {
    id: r.id,
    gameId: r.game_id,
    seriesId: r.series_id,
    cardNo: Number(r.card_no),
    serial: r.serial,
    numbers: r.numbers,
    status: r.status,
    channel: r.channel,
    soldAt: r.sold_at,
  }
}

/** Inserts sold cards, 100 to a statement. */
/** Which of these card keys are already sold in the game (BNG-13). */
export async function takenCardKeys(tx: Sql, gameId: string, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return []
  const rows = await tx.all<{ card_key: string }>(
    `SELECT card_key FROM cards WHERE game_id = ? AND card_key IN (${keys.map(() => '?').join(', ')})`,
    [gameId, ...keys],
  )
  return rows.map((r) => r.card_key)
}

export async function insertCards(
  tx: Sql,
  cards: ReadonlyArray<{
    id: string
    gameId: string
    seriesId: string
    cardNo: number
    serial: string
    masterSetId: string
    cardKey: string
    numbers: string
    status: string
    channel: string
    soldAt: string
  }>,
): Promise<void> {
  const chunk = 100
  for (let i = 0; i < cards.length; i += chunk) {
    const part = cards.slice(i, i + chunk)
    const params: unknown[] = []
    for (const c of part)
      params.push(
        c.id,
        c.gameId,
        c.seriesId,
        c.cardNo,
        c.serial,
        c.masterSetId,
        c.cardKey,
        c.numbers,
        c.status,
        c.channel,
        c.soldAt,
      )
    await tx.run(
      `INSERT INTO cards (id, game_id, series_id, card_no, serial, master_set_id, card_key, numbers, status, channel, sold_at) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      params,
    )
  }
  // Issue 24 point 1: a card (its numbers, its status) is sealed by the records of its sale's transaction.
  // Sealed from the values written, every sealed column among them (no read back).
  touchWrittenRows(
    tx,
    'cards',
    cards.map((c) => ({
      id: c.id,
      game_id: c.gameId,
      series_id: c.seriesId,
      card_no: c.cardNo,
      serial: c.serial,
      card_key: c.cardKey,
      numbers: c.numbers,
      status: c.status,
      channel: c.channel,
      sold_at: c.soldAt,
    })),
  )
}

/** Serials of the cards still sold (not refunded) in a game, in storage order. */
export async function soldSerials(tx: Sql, gameId: string): Promise<string[]> {
  return (
    await tx.all<{ serial: string }>("SELECT serial FROM cards WHERE game_id = ? AND status = 'sold'", [gameId])
  ).map((r) => r.serial)
}

export async function soldCardsBySerial(tx: Sql, gameId: string): Promise<Card[]> {
  const rows = await tx.all<CardRow>("SELECT * FROM cards WHERE game_id = ? AND status = 'sold' ORDER BY serial", [
    gameId,
  ])
  return rows.map(toCard)
}

export function soldCardRefs(tx: Sql, gameId: string): Promise<Array<{ id: string; serial: string }>> {
  return tx.all<{ id: string; serial: string }>("SELECT id, serial FROM cards WHERE game_id = ? AND status = 'sold'", [
    gameId,
  ])
}

export async function refundSoldCards(tx: Sql, gameId: string): Promise<void> {
  await touchRowsWhere(tx, 'cards', "t.game_id = ? AND t.status = 'sold'", [gameId])
  await tx.run("UPDATE cards SET status = 'refunded' WHERE game_id = ? AND status = 'sold'", [gameId])
}

/** Serials of every card the game ever sold (refunded ones included): the draw proof's sales list. */
export async function issuedSerials(sql: Sql, gameId: string): Promise<string[]> {
  return (
    await sql.all<{ serial: string }>("SELECT serial FROM cards WHERE game_id = ? AND status IN ('sold', 'refunded')", [
      gameId,
    ])
  ).map((r) => r.serial)
}

export async function cardOfGameById(tx: Sql, gameId: string, cardId: string): Promise<Card | undefined> {
  const row = await tx.get<CardRow>('SELECT * FROM cards WHERE id = ? AND game_id = ?', [cardId, gameId])
  return row && toCard(row)
}

export async function cardOfGameBySerial(tx: Sql, gameId: string, serial: string): Promise<Card | undefined> {
  const row = await tx.get<CardRow>('SELECT * FROM cards WHERE serial = ? AND game_id = ?', [serial, gameId])
  return row && toCard(row)
}

/** The game's cards with this number in their series, each with its series code (the number alone, as heard). */
export async function cardsOfGameByNumber(
  tx: Sql,
  gameId: string,
  cardNo: number,
): Promise<Array<Card & { seriesCode: string }>> {
  const rows = await tx.all<CardRow & { series_code: string }>(
    'SELECT c.*, s.code AS series_code FROM cards c JOIN series s ON s.id = c.series_id WHERE c.game_id = ? AND c.card_no = ?',
    [gameId, cardNo],
  )
  return rows.map((r) => ({ ...toCard(r), seriesCode: r.series_code }))
}

/**
 * What the admission of a card purchase reads of its game, in one statement (issue 23 point 5: one round trip, three
 * before): the cards the player already holds (CFG-16 / BNG-40; 0 with no player), the identified players holding
 * cards of it in the hall (BNG-93: the count kept by insertPlayerCards, migration 0073, one row however many cards
 * were sold) and the session's previous game (BNG-15). undefined: no such game.
 */
export async function purchaseStanding(
  sql: Sql,
  gameId: string,
  hallId: string,
  playerKey: string | null,
): Promise<{ held: number; players: number; previous: { id: string; order_no: number } | undefined } | undefined> {
  const r = await sql.get<{
    held: number | string | null
    players: number | string | null
    previous_id: string | null
    previous_order_no: number | string | null
  }>(
    `SELECT (SELECT COUNT(*) FROM player_cards WHERE game_id = g.id AND player_key = ?) AS held,
            (SELECT players FROM game_hall_players WHERE game_id = g.id AND hall_id = ?) AS players,
            p.id AS previous_id, p.order_no AS previous_order_no
       FROM games g LEFT JOIN games p ON p.session_id = g.session_id AND p.order_no = g.order_no - 1
      WHERE g.id = ?`,
    [playerKey, hallId, gameId],
  )
  if (!r) return undefined
  return {
    held: Number(r.held ?? 0),
    players: Number(r.players ?? 0),
    previous: r.previous_id === null ? undefined : { id: r.previous_id, order_no: Number(r.previous_order_no) },
  }
}

/** Records the cards of identified players; a player new to the game in that hall is counted in its seats (BNG-93). */
export async function insertPlayerCards(
  tx: Sql,
  rows: Array<{ cardId: string; gameId: string; hallId: string; playerKey: string; at: string }>,
): Promise<void> {
  const seen = new Set<string>()
  for (const r of rows) {
    const key = JSON.stringify([r.gameId, r.hallId, r.playerKey])
    if (!seen.has(key)) {
      seen.add(key)
      // A player who holds no card of the game in the hall yet takes a seat: checked and counted in one statement.
      await tx.run(
        'INSERT INTO game_hall_players (game_id, hall_id, players) SELECT ?, ?, 1 WHERE NOT EXISTS (SELECT 1 FROM player_cards WHERE game_id = ? AND player_key = ? AND hall_id = ?) ON CONFLICT (game_id, hall_id) DO UPDATE SET players = game_hall_players.players + 1',
        [r.gameId, r.hallId, r.gameId, r.playerKey, r.hallId],
      )
    }
    await tx.run(
      'INSERT INTO player_cards (card_id, game_id, hall_id, player_key, created_at) VALUES (?, ?, ?, ?, ?)',
      [r.cardId, r.gameId, r.hallId, r.playerKey, r.at],
    )
  }
}

/** The player who bought a card, when identified (BNG-85). */
export async function playerOfCard(sql: Sql, cardId: string): Promise<string | undefined> {
  return (await sql.get<{ player_key: string }>('SELECT player_key FROM player_cards WHERE card_id = ?', [cardId]))
    ?.player_key
}

/** Serials of a player's cards of a game not handed back (BNG-15). */
/** The custody reason of the cards a game's bulk collect took (card-custody-service.ts collectGame). */
export const BULK_COLLECT = 'bulk collect after the game'

export async function unreturnedCardsOfPlayer(sql: Sql, gameId: string, playerKey: string): Promise<string[]> {
  const rows = await sql.all<{ serial: string }>(
    // Handed back: at the till or table (card_returns), or collected one by one into the hall's custody (card_custody,
    // BNG-87/88). BNG-15 / BNG-88: the bulk collect after a game (reason BULK_COLLECT) says the hall took what was
    // left on the tables, not that this player handed anything back. A virtual card (sold at a terminal, channel
    // 'terminal:…') never was in the player's hands: nothing to hand back.
    "SELECT c.serial FROM player_cards pc JOIN cards c ON c.id = pc.card_id LEFT JOIN card_returns r ON r.card_id = pc.card_id LEFT JOIN card_custody k ON k.card_id = pc.card_id WHERE pc.game_id = ? AND pc.player_key = ? AND r.card_id IS NULL AND (k.card_id IS NULL OR k.reason = ?) AND c.channel NOT LIKE 'terminal:%' ORDER BY c.serial",
    [gameId, playerKey, BULK_COLLECT],
  )
  return rows.map((r) => r.serial)
}

export async function cardReturned(sql: Sql, cardId: string): Promise<boolean> {
  return (await sql.get('SELECT card_id FROM card_returns WHERE card_id = ?', [cardId])) !== undefined
}

export async function insertCardReturn(
  tx: Sql,
  r: { cardId: string; gameId: string; at: string; by: string; stationId: string | null },
): Promise<void> {
  await tx.run(
    'INSERT INTO card_returns (card_id, game_id, returned_at, returned_by, station_id) VALUES (?, ?, ?, ?, ?)',
    [r.cardId, r.gameId, r.at, r.by, r.stationId],
  )
}

/** BNG-19: marks the moment the hall's entry closed for a game (only once). */
export async function markEntryClosed(tx: Sql, gameId: string, at: string): Promise<boolean> {
  const r = await tx.run('UPDATE games SET entry_closed_at = ? WHERE id = ? AND entry_closed_at IS NULL', [at, gameId])
  return r.changes > 0
}

export async function entryClosedAt(sql: Sql, gameId: string): Promise<string | null> {
  return (
    (await sql.get<{ entry_closed_at: string | null }>('SELECT entry_closed_at FROM games WHERE id = ?', [gameId]))
      ?.entry_closed_at ?? null
  )
}

/** BNG-19: the session's game whose entry is closed and that has not ended, if any. */
export function entryClosedGameOfSession(
  sql: Sql,
  sessionId: string,
): Promise<{ id: string; entry_closed_at: string } | undefined> {
  return sql.get<{ id: string; entry_closed_at: string }>(
    "SELECT id, entry_closed_at FROM games WHERE session_id = ? AND entry_closed_at IS NOT NULL AND status NOT IN ('finished', 'void') ORDER BY order_no DESC LIMIT 1",
    [sessionId],
  )
}

/** BNG-93: players present in the hall in a session (let in minus let out). */
export async function peopleInSession(sql: Sql, sessionId: string): Promise<number> {
  const r = await sql.get<{ n: number | string | null }>(
    "SELECT SUM(CASE WHEN direction = 'in' THEN people ELSE -people END) AS n FROM hall_entries WHERE session_id = ?",
    [sessionId],
  )
  return Number(r?.n ?? 0)
}

export async function insertHallEntry(
  tx: Sql,
  e: { id: string; hallId: string; sessionId: string; direction: 'in' | 'out'; people: number; at: string; by: string },
): Promise<void> {
  await tx.run(
    'INSERT INTO hall_entries (id, hall_id, session_id, direction, people, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [e.id, e.hallId, e.sessionId, e.direction, e.people, e.at, e.by],
  )
}

export async function cardById(sql: Sql, cardId: string): Promise<Card | undefined> {
  const row = await sql.get<CardRow>(
    'SELECT id, game_id, series_id, card_no, serial, numbers, status, channel, sold_at FROM cards WHERE id = ?',
    [cardId],
  )
  return row && toCard(row)
}

/**
 * BNG-17 / BNG-18: the card numbers sold in a game as contiguous runs per series (gaps and islands: within a run,
 * card_no minus its rank is constant), in the game's series order. Refunded cards were sold: they stay in the runs.
 */
export async function soldRuns(
  sql: Sql,
  gameId: string,
): Promise<Array<{ series: string; from: number; to: number; count: number }>> {
  const rows = await sql.all<{ series: string; from_no: number; to_no: number; n: number }>(
    `SELECT s.code AS series, MIN(x.card_no) AS from_no, MAX(x.card_no) AS to_no, COUNT(*) AS n, MIN(gs.position) AS pos
       FROM (SELECT series_id, card_no,
                    card_no - ROW_NUMBER() OVER (PARTITION BY series_id ORDER BY card_no) AS island
               FROM cards WHERE game_id = ? AND status IN ('sold', 'refunded')) x
       JOIN series s ON s.id = x.series_id
       JOIN game_series gs ON gs.game_id = ? AND gs.series_id = x.series_id
      GROUP BY s.code, x.series_id, x.island
      ORDER BY pos, from_no`,
    [gameId, gameId],
  )
  return rows.map((r) => ({ series: r.series, from: Number(r.from_no), to: Number(r.to_no), count: Number(r.n) }))
}
