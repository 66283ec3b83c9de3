/**
 * The bingo line's SQL, and only its SQL: named functions that take a transaction or connection (`Sql`) first
 * and return plain rows. The statements are written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../db/database.ts'
import { touchRows, touchRowsWhere } from '../shared/row-seals.ts'
import type { ClaimKind, GameStatus } from './game.ts'

// Halls, series, sessions, games, cards, balls, claims, prizes (service.ts and its topics)

export interface HallRow {
  id: string
  name: string
  profile_id: string
  currency: string
  playing_positions: number
  settings: string
  created_at: string
}
export interface SeriesRow {
  id: string
  hall_id: string
  code: string
  master_set_id: string
  card_count: number
  face_value_cents: number
  next_card_no: number
  last_sold_at: string | null
}
export interface SessionRow {
  id: string
  hall_id: string
  status: string
  last_game_announced: number
  opened_at: string
  closed_at: string | null
  open_recount: string | null
  close_recount: string | null
}
export interface GameRow {
  id: string
  session_id: string
  hall_id: string
  order_no: number
  status: GameStatus
  suspended_from: GameStatus | null
  face_value_cents: number
  ball_count: number
  layout: string
  line_bp: number
  bingo_bp: number
  draw_source: string
  commitment: string
  seed_hex: string
  sales_digest: string | null
  external_entropy: string | null
  draw_order: string | null
  cards_sold: number
  line_pool_cents: number | null
  bingo_pool_cents: number | null
  line_closed: number
  window_kind: ClaimKind | null
  is_last_game: number
  created_at: string
  sales_opened_at: string | null
  sales_closed_at: string | null
  first_ball_at: string | null
  finished_at: string | null
  void_reason: string | null
  entropy_source?: string | null
  /** BNG-19 (migration 0045): when the hall's entry closed for this game. */
  entry_closed_at?: string | null
  /** bolillo-draw-v2 (migration 0009): sealed seed and order, close time and the verified beacon round. */
  seed_sealed?: string | null
  draw_order_sealed?: string | null
  closed_at_unix?: number | null
  beacon_round?: number | null
  beacon_signature?: string | null
  beacon_randomness?: string | null
  beacon_scheme?: string | null
  beacon_chain_hash?: string | null
  beacon_public_key?: string | null
  beacon_source?: string | null
  beacon_verified_at?: string | null
}
export interface GameSeriesRow {
  game_id: string
  series_id: string
  position: number
  start_card_no: number
  end_card_no: number
  max_card_no: number
  code: string
  face_value_cents: number
  master_set_id: string
  card_count: number
  next_card_no: number
}
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
export interface ClaimRow {
  id: string
  game_id: string
  card_id: string | null
  serial: string
  kind: ClaimKind
  at_ball: number
  status: string
  reason: string | null
  automatic: number
  created_at: string
}
export interface PrizeRow {
  id: string
  game_id: string
  card_id: string
  kind: ClaimKind
  amount_cents: number
  at_ball: number
  status: string
  awarded_at: string
  paid_at: string | null
  paid_by: string | null
}
/** A hall as the API lists it (camelCase columns). */
export interface HallSummary {
  id: string
  name: string
  profileId: string
  currency: string
  playingPositions: number
  settings?: string
}
/** A series as a hall's page lists it (camelCase columns). */
export interface HallSeriesSummary {
  id: string
  code: string
  cardCount: number
  faceValueCents: number
  nextCardNo: number
}

// ---- halls

export function hallById(sql: Sql, hallId: string): Promise<HallRow | undefined> {
  return sql.get<HallRow>('SELECT * FROM halls WHERE id = ?', [hallId])
}

export async function hallExists(sql: Sql, hallId: string): Promise<boolean> {
  return (await sql.get('SELECT id FROM halls WHERE id = ?', [hallId])) !== undefined
}

/** Issue 17: a hall's profile and settings, for the zone its minutes print. */
export function hallProfileSettings(
  sql: Sql,
  hallId: string,
): Promise<{ profile_id: string; settings: string } | undefined> {
  return sql.get<{ profile_id: string; settings: string }>('SELECT profile_id, settings FROM halls WHERE id = ?', [
    hallId,
  ])
}

export async function hallCurrency(sql: Sql, hallId: string): Promise<string | undefined> {
  return (await sql.get<{ currency: string }>('SELECT currency FROM halls WHERE id = ?', [hallId]))?.currency
}

export async function insertHall(
  tx: Sql,
  h: {
    id: string
    name: string
    profileId: string
    currency: string
    playingPositions: number
    settings: string
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO halls (id, name, profile_id, currency, playing_positions, settings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [h.id, h.name, h.profileId, h.currency, h.playingPositions, h.settings, h.at],
  )
}

export function hallSummaries(sql: Sql): Promise<HallSummary[]> {
  return sql.all<HallSummary>(
    'SELECT id, name, profile_id AS "profileId", currency, playing_positions AS "playingPositions", settings FROM halls ORDER BY created_at',
  )
}

export function hallSummary(sql: Sql, hallId: string): Promise<HallSummary | undefined> {
  return sql.get<HallSummary>(
    'SELECT id, name, profile_id AS "profileId", currency, playing_positions AS "playingPositions", settings FROM halls WHERE id = ?',
    [hallId],
  )
}

/** Issue 17: replaces a hall's settings document (time zone, shares, instant sales). */
export async function updateHallSettings(tx: Sql, hallId: string, settingsJson: string): Promise<void> {
  await tx.run('UPDATE halls SET settings = ? WHERE id = ?', [settingsJson, hallId])
}

export function seriesSummariesOfHall(sql: Sql, hallId: string): Promise<HallSeriesSummary[]> {
  return sql.all<HallSeriesSummary>(
    'SELECT id, code, card_count AS "cardCount", face_value_cents AS "faceValueCents", next_card_no AS "nextCardNo" FROM series WHERE hall_id = ? ORDER BY code',
    [hallId],
  )
}

/** The newest session of a hall that is not closed. */
export async function latestOpenSessionIdOfHall(sql: Sql, hallId: string): Promise<string | undefined> {
  return (
    await sql.get<{ id: string }>(
      "SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed' ORDER BY opened_at DESC LIMIT 1",
      [hallId],
    )
  )?.id
}

/** The hall's newest game, whatever its status. */
export async function latestGameIdOfHall(sql: Sql, hallId: string): Promise<string | undefined> {
  return (
    await sql.get<{ id: string }>('SELECT id FROM games WHERE hall_id = ? ORDER BY created_at DESC LIMIT 1', [hallId])
  )?.id
}

// ---- master sets

export async function insertMasterSet(
  tx: Sql,
  s: { id: string; seed: string; cardCount: number; layout: string; at: string },
): Promise<void> {
  await tx.run('INSERT INTO master_sets (id, seed, card_count, layout, created_at) VALUES (?, ?, ?, ?, ?)', [
    s.id,
    s.seed,
    s.cardCount,
    s.layout,
    s.at,
  ])
}

/** Inserts a master set's cards, 200 to a statement. */
export async function insertMasterCards(
  tx: Sql,
  setId: string,
  cards: ReadonlyArray<{ cardNo: number; numbers: string; cardKey: string }>,
): Promise<void> {
  const chunk = 200
  for (let i = 0; i < cards.length; i += chunk) {
    const part = cards.slice(i, i + chunk)
    const params: unknown[] = []
    for (const c of part) params.push(setId, c.cardNo, c.numbers, c.cardKey)
    await tx.run(
      `INSERT INTO master_cards (set_id, card_no, numbers, card_key) VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')}`,
      params,
    )
  }
}

export async function masterSetCardCount(tx: Sql, setId: string): Promise<number | undefined> {
  return (await tx.get<{ card_count: number }>('SELECT card_count FROM master_sets WHERE id = ?', [setId]))?.card_count
}

/** The set's card layout as stored (JSON text). */
export async function masterSetLayout(tx: Sql, setId: string): Promise<string | undefined> {
  return (await tx.get<{ layout: string }>('SELECT layout FROM master_sets WHERE id = ?', [setId]))?.layout
}

export function masterCardsInRange(
  tx: Sql,
  setId: string,
  from: number,
  to: number,
): Promise<Array<{ card_no: number; numbers: string; card_key: string }>> {
  return tx.all<{ card_no: number; numbers: string; card_key: string }>(
    'SELECT card_no, numbers, card_key FROM master_cards WHERE set_id = ? AND card_no >= ? AND card_no <= ? ORDER BY card_no',
    [setId, from, to],
  )
}

// ---- series

export async function insertSeries(
  tx: Sql,
  s: {
    id: string
    hallId: string
    code: string
    masterSetId: string
    cardCount: number
    faceValueCents: number
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO series (id, hall_id, code, master_set_id, card_count, face_value_cents, next_card_no, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)',
    [s.id, s.hallId, s.code, s.masterSetId, s.cardCount, s.faceValueCents, s.at],
  )
}

export function seriesById(tx: Sql, seriesId: string): Promise<SeriesRow | undefined> {
  return tx.get<SeriesRow>('SELECT * FROM series WHERE id = ?', [seriesId])
}

export function seriesOfHall(tx: Sql, seriesId: string, hallId: string): Promise<SeriesRow | undefined> {
  return tx.get<SeriesRow>('SELECT * FROM series WHERE id = ? AND hall_id = ?', [seriesId, hallId])
}

export async function seriesCode(sql: Sql, seriesId: string): Promise<string | undefined> {
  return (await sql.get<{ code: string }>('SELECT code FROM series WHERE id = ?', [seriesId]))?.code
}

/** Moves the cursor from `from` to `to` only if it still stands at `from`; returns whether it moved. */
export async function advanceSeriesCursor(
  tx: Sql,
  seriesId: string,
  from: number,
  to: number,
  at: string,
): Promise<boolean> {
  const moved = await tx.run('UPDATE series SET next_card_no = ?, last_sold_at = ? WHERE id = ? AND next_card_no = ?', [
    to,
    at,
    seriesId,
    from,
  ])
  return moved.changes === 1
}

// ---- sessions

export function sessionById(tx: Sql, sessionId: string): Promise<SessionRow | undefined> {
  return tx.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [sessionId])
}

export async function sessionHallId(sql: Sql, sessionId: string): Promise<string | undefined> {
  return (await sql.get<{ hall_id: string }>('SELECT hall_id FROM sessions WHERE id = ?', [sessionId]))?.hall_id
}

/**
 * The number a person reads for a session: its place among the hall's sessions in the order they were opened
 * ("Sesión N.º 3"), instead of its record id (issue 29 point 6). Sessions are only ever added, so it does not change.
 */
export async function sessionNoOf(tx: Sql, sessionId: string): Promise<number | null> {
  const row = await tx.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM sessions s, sessions me
      WHERE me.id = ? AND s.hall_id = me.hall_id AND (s.opened_at < me.opened_at OR (s.opened_at = me.opened_at AND s.id <= me.id))`,
    [sessionId],
  )
  return row && Number(row.n) > 0 ? Number(row.n) : null
}

export async function openSessionIdOfHall(tx: Sql, hallId: string): Promise<string | undefined> {
  return (await tx.get<{ id: string }>("SELECT id FROM sessions WHERE hall_id = ? AND status <> 'closed'", [hallId]))
    ?.id
}

export async function insertSession(
  tx: Sql,
  s: { id: string; hallId: string; at: string; openRecount: string },
): Promise<void> {
  await tx.run('INSERT INTO sessions (id, hall_id, status, opened_at, open_recount) VALUES (?, ?, ?, ?, ?)', [
    s.id,
    s.hallId,
    'open',
    s.at,
    s.openRecount,
  ])
}

export async function markLastGameAnnounced(tx: Sql, sessionId: string): Promise<void> {
  await tx.run("UPDATE sessions SET status = 'last_game', last_game_announced = 1 WHERE id = ?", [sessionId])
}

export async function markSessionClosed(
  tx: Sql,
  sessionId: string,
  at: string,
  closeRecount: string | null,
): Promise<void> {
  await tx.run("UPDATE sessions SET status = 'closed', closed_at = ?, close_recount = ? WHERE id = ?", [
    at,
    closeRecount,
    sessionId,
  ])
}

// ---- games

/** A game with its money columns as numbers (PostgreSQL returns BIGINT as text). */
export async function gameById(tx: Sql, gameId: string): Promise<GameRow | undefined> {
  const game = await tx.get<GameRow>('SELECT * FROM games WHERE id = ?', [gameId])
  if (!game) return undefined
  return {
    ...game,
    face_value_cents: Number(game.face_value_cents),
    line_pool_cents: game.line_pool_cents === null ? null : Number(game.line_pool_cents),
    bingo_pool_cents: game.bingo_pool_cents === null ? null : Number(game.bingo_pool_cents),
  }
}

/** A game of the session that has neither finished nor been voided. */
export function unfinishedGameOfSession(
  tx: Sql,
  sessionId: string,
): Promise<{ id: string; status: string } | undefined> {
  return tx.get<{ id: string; status: string }>(
    "SELECT id, status FROM games WHERE session_id = ? AND status NOT IN ('finished', 'void')",
    [sessionId],
  )
}

/** How many games the session has, and whether one of them was announced as the last. */
export async function sessionGameCount(tx: Sql, sessionId: string): Promise<{ count: number; lastAnnounced: boolean }> {
  const r = await tx.get<{ n: number; last: number }>(
    'SELECT COUNT(*) AS n, MAX(is_last_game) AS last FROM games WHERE session_id = ?',
    [sessionId],
  )
  return { count: Number(r?.n ?? 0), lastAnnounced: Number(r?.last ?? 0) === 1 }
}

/** Of the given games, those finished or voided. */
export async function endedGameIds(tx: Sql, gameIds: readonly string[]): Promise<string[]> {
  return (
    await tx.all<{ id: string }>(
      `SELECT id FROM games WHERE status IN ('finished', 'void') AND id IN (${gameIds.map(() => '?').join(', ')})`,
      gameIds,
    )
  ).map((r) => r.id)
}

export async function insertGame(
  tx: Sql,
  g: {
    id: string
    sessionId: string
    hallId: string
    orderNo: number
    faceValueCents: number
    ballCount: number
    layout: string
    lineBp: number
    bingoBp: number
    drawSource: string
    commitment: string
    seedSealed: string
    isLastGame: number
    at: string
    entropySource: string
  },
): Promise<void> {
  // seed_hex is NOT NULL from v1 and stays empty: the seed is only ever stored sealed (DESIGN.md "Sealed secrets").
  await tx.run(
    `INSERT INTO games (id, session_id, hall_id, order_no, status, face_value_cents, ball_count, layout, line_bp, bingo_bp, draw_source, commitment, seed_hex, seed_sealed, is_last_game, created_at, entropy_source)
         VALUES (?, ?, ?, ?, 'announced', ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?)`,
    [
      g.id,
      g.sessionId,
      g.hallId,
      g.orderNo,
      g.faceValueCents,
      g.ballCount,
      g.layout,
      g.lineBp,
      g.bingoBp,
      g.drawSource,
      g.commitment,
      g.seedSealed,
      g.isLastGame,
      g.at,
      g.entropySource,
    ],
  )
}

export function gameSeries(tx: Sql, gameId: string): Promise<GameSeriesRow[]> {
  return tx.all<GameSeriesRow>(
    `SELECT gs.*, s.code, s.face_value_cents, s.master_set_id, s.card_count, s.next_card_no FROM game_series gs JOIN series s ON s.id = gs.series_id WHERE gs.game_id = ? ORDER BY gs.position`,
    [gameId],
  )
}

/** The game's first series: sold from `startCardNo`, nothing sold yet. */
export async function insertFirstGameSeries(
  tx: Sql,
  gameId: string,
  seriesId: string,
  startCardNo: number,
  maxCardNo: number,
): Promise<void> {
  await tx.run(
    'INSERT INTO game_series (game_id, series_id, position, start_card_no, end_card_no, max_card_no) VALUES (?, ?, 1, ?, ?, ?)',
    [gameId, seriesId, startCardNo, startCardNo - 1, maxCardNo],
  )
}

/** The game's second series (BNG-13): sold from card 1 up to `maxCardNo`. */
export async function insertSecondGameSeries(
  tx: Sql,
  gameId: string,
  seriesId: string,
  maxCardNo: number,
): Promise<void> {
  await tx.run(
    'INSERT INTO game_series (game_id, series_id, position, start_card_no, end_card_no, max_card_no) VALUES (?, ?, 2, 1, 0, ?)',
    [gameId, seriesId, maxCardNo],
  )
}

export async function setGameSeriesEnd(tx: Sql, gameId: string, seriesId: string, endCardNo: number): Promise<void> {
  await tx.run('UPDATE game_series SET end_card_no = ? WHERE game_id = ? AND series_id = ?', [
    endCardNo,
    gameId,
    seriesId,
  ])
}

export async function setGameStatus(tx: Sql, gameId: string, status: GameStatus): Promise<void> {
  await tx.run('UPDATE games SET status = ? WHERE id = ?', [status, gameId])
}

export async function setGameStatusSalesOpened(tx: Sql, gameId: string, status: GameStatus, at: string): Promise<void> {
  await tx.run('UPDATE games SET status = ?, sales_opened_at = ? WHERE id = ?', [status, at, gameId])
}

export async function addCardsSold(tx: Sql, gameId: string, count: number): Promise<void> {
  await tx.run('UPDATE games SET cards_sold = cards_sold + ? WHERE id = ?', [count, gameId])
}

/** v2 close: the digest, the close time and the beacon round are fixed; no order exists until the beacon is verified. */
export async function markSalesClosed(
  tx: Sql,
  gameId: string,
  c: {
    at: string
    closedAtUnix: number
    beaconRound: number
    salesDigest: string
    cardsSold: number
    linePoolCents: number
    bingoPoolCents: number
  },
): Promise<void> {
  await tx.run(
    "UPDATE games SET status = 'sales_closed', sales_closed_at = ?, closed_at_unix = ?, beacon_round = ?, sales_digest = ?, external_entropy = NULL, draw_order = NULL, cards_sold = ?, line_pool_cents = ?, bingo_pool_cents = ? WHERE id = ?",
    [c.at, c.closedAtUnix, c.beaconRound, c.salesDigest, c.cardsSold, c.linePoolCents, c.bingoPoolCents, gameId],
  )
}

/** Stores the verified beacon round and the sealed draw order, once: false when another request stored it first. */
export async function setGameBeacon(
  tx: Sql,
  gameId: string,
  b: {
    round: number
    signature: string
    randomness: string
    scheme: string
    chainHash: string
    publicKey: string | null
    source: string
    drawOrderSealed: string
    at: string
  },
): Promise<boolean> {
  const r = await tx.run(
    'UPDATE games SET beacon_signature = ?, beacon_randomness = ?, beacon_scheme = ?, beacon_chain_hash = ?, beacon_public_key = ?, beacon_source = ?, draw_order_sealed = ?, beacon_verified_at = ? WHERE id = ? AND beacon_round = ? AND beacon_randomness IS NULL',
    [b.signature, b.randomness, b.scheme, b.chainHash, b.publicKey, b.source, b.drawOrderSealed, b.at, gameId, b.round],
  )
  return r.changes === 1
}

export async function markFirstBall(tx: Sql, gameId: string, at: string): Promise<void> {
  await tx.run("UPDATE games SET status = 'drawing', first_ball_at = ? WHERE id = ?", [at, gameId])
}

export async function openClaimWindow(tx: Sql, gameId: string, status: GameStatus, kind: ClaimKind): Promise<void> {
  await tx.run('UPDATE games SET status = ?, window_kind = ? WHERE id = ?', [status, kind, gameId])
}

export async function closeClaimWindow(
  tx: Sql,
  gameId: string,
  c: { status: GameStatus; lineClosed: number; finishedAt: string | null },
): Promise<void> {
  await tx.run('UPDATE games SET status = ?, window_kind = NULL, line_closed = ?, finished_at = ? WHERE id = ?', [
    c.status,
    c.lineClosed,
    c.finishedAt,
    gameId,
  ])
}

export async function markGameVoid(tx: Sql, gameId: string, reason: string, at: string): Promise<void> {
  await tx.run("UPDATE games SET status = 'void', void_reason = ?, finished_at = ?, window_kind = NULL WHERE id = ?", [
    reason,
    at,
    gameId,
  ])
}

export async function markGameSuspended(tx: Sql, gameId: string, from: GameStatus): Promise<void> {
  await tx.run("UPDATE games SET status = 'suspended', suspended_from = ? WHERE id = ?", [from, gameId])
}

export async function markGameResumed(tx: Sql, gameId: string, status: GameStatus): Promise<void> {
  await tx.run('UPDATE games SET status = ?, suspended_from = NULL WHERE id = ?', [status, gameId])
}

export async function switchGameToManual(tx: Sql, gameId: string): Promise<void> {
  await tx.run("UPDATE games SET draw_source = 'manual' WHERE id = ?", [gameId])
}

// ---- cards

/** Inserts sold cards, 100 to a statement. */
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
}

/** Serials of the cards still sold (not refunded) in a game, in storage order. */
export async function soldSerials(tx: Sql, gameId: string): Promise<string[]> {
  return (
    await tx.all<{ serial: string }>("SELECT serial FROM cards WHERE game_id = ? AND status = 'sold'", [gameId])
  ).map((r) => r.serial)
}

export function soldCardsBySerial(tx: Sql, gameId: string): Promise<CardRow[]> {
  return tx.all<CardRow>("SELECT * FROM cards WHERE game_id = ? AND status = 'sold' ORDER BY serial", [gameId])
}

export function soldCardRefs(tx: Sql, gameId: string): Promise<Array<{ id: string; serial: string }>> {
  return tx.all<{ id: string; serial: string }>("SELECT id, serial FROM cards WHERE game_id = ? AND status = 'sold'", [
    gameId,
  ])
}

export async function refundSoldCards(tx: Sql, gameId: string): Promise<void> {
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

export function cardOfGameById(tx: Sql, gameId: string, cardId: string): Promise<CardRow | undefined> {
  return tx.get<CardRow>('SELECT * FROM cards WHERE id = ? AND game_id = ?', [cardId, gameId])
}

export function cardOfGameBySerial(tx: Sql, gameId: string, serial: string): Promise<CardRow | undefined> {
  return tx.get<CardRow>('SELECT * FROM cards WHERE serial = ? AND game_id = ?', [serial, gameId])
}

/** The game's cards with this number in their series, each with its series code (the number alone, as heard). */
export function cardsOfGameByNumber(
  tx: Sql,
  gameId: string,
  cardNo: number,
): Promise<Array<CardRow & { series_code: string }>> {
  return tx.all<CardRow & { series_code: string }>(
    'SELECT c.*, s.code AS series_code FROM cards c JOIN series s ON s.id = c.series_id WHERE c.game_id = ? AND c.card_no = ?',
    [gameId, cardNo],
  )
}

export async function cardSerial(tx: Sql, cardId: string): Promise<string | undefined> {
  return (await tx.get<{ serial: string }>('SELECT serial FROM cards WHERE id = ?', [cardId]))?.serial
}

// ---- balls

export async function calledBalls(tx: Sql, gameId: string): Promise<number[]> {
  return (await tx.all<{ ball: number }>('SELECT ball FROM balls WHERE game_id = ? ORDER BY seq', [gameId])).map((r) =>
    Number(r.ball),
  )
}

export function calledBallsWithSource(sql: Sql, gameId: string): Promise<Array<{ ball: number; source: string }>> {
  return sql.all<{ ball: number; source: string }>('SELECT ball, source FROM balls WHERE game_id = ? ORDER BY seq', [
    gameId,
  ])
}

/** The last ball called in a game, with where it came from (rng, manual, blower). */
export async function lastBall(
  tx: Sql,
  gameId: string,
): Promise<{ seq: number; ball: number; source: string } | undefined> {
  const r = await tx.get<{ seq: number; ball: number; source: string }>(
    'SELECT seq, ball, source FROM balls WHERE game_id = ? ORDER BY seq DESC LIMIT 1',
    [gameId],
  )
  return r && { seq: Number(r.seq), ball: Number(r.ball), source: r.source }
}

export async function ballAt(
  tx: Sql,
  gameId: string,
  seq: number,
): Promise<{ seq: number; ball: number; source: string } | undefined> {
  const r = await tx.get<{ seq: number; ball: number; source: string }>(
    'SELECT seq, ball, source FROM balls WHERE game_id = ? AND seq = ?',
    [gameId, seq],
  )
  return r && { seq: Number(r.seq), ball: Number(r.ball), source: r.source }
}

export async function isBallCalled(tx: Sql, gameId: string, ball: number): Promise<boolean> {
  return (await tx.get('SELECT 1 AS x FROM balls WHERE game_id = ? AND ball = ?', [gameId, ball])) !== undefined
}

export async function insertBall(
  tx: Sql,
  b: { gameId: string; seq: number; ball: number; source: string; deviceId: string | null; at: string },
): Promise<void> {
  await tx.run('INSERT INTO balls (game_id, seq, ball, source, device_id, called_at) VALUES (?, ?, ?, ?, ?, ?)', [
    b.gameId,
    b.seq,
    b.ball,
    b.source,
    b.deviceId,
    b.at,
  ])
}

export async function replaceBall(tx: Sql, gameId: string, seq: number, ball: number): Promise<void> {
  await tx.run('UPDATE balls SET ball = ? WHERE game_id = ? AND seq = ?', [ball, gameId, seq])
}

// ---- silent wins (BNG-48: undeclared winners, kept for the minutes)

export async function insertSilentWin(
  tx: Sql,
  gameId: string,
  cardId: string,
  kind: ClaimKind,
  atBall: number,
): Promise<void> {
  await tx.run('INSERT INTO silent_wins (game_id, card_id, kind, at_ball) VALUES (?, ?, ?, ?)', [
    gameId,
    cardId,
    kind,
    atBall,
  ])
}

export async function deleteSilentWinsAt(tx: Sql, gameId: string, atBall: number): Promise<void> {
  await tx.run('DELETE FROM silent_wins WHERE game_id = ? AND at_ball = ?', [gameId, atBall])
}

/** BNG-83: a corrected ball re-evaluates every later ball: their recorded first wins go. */
export async function deleteSilentWinsFrom(tx: Sql, gameId: string, atBall: number): Promise<void> {
  await tx.run('DELETE FROM silent_wins WHERE game_id = ? AND at_ball >= ?', [gameId, atBall])
}

export async function silentWinsOfGame(
  sql: Sql,
  gameId: string,
): Promise<Array<{ serial: string; kind: ClaimKind; atBall: number }>> {
  const rows = await sql.all<{ serial: string; kind: ClaimKind; at_ball: number }>(
    'SELECT c.serial, s.kind, s.at_ball FROM silent_wins s JOIN cards c ON c.id = s.card_id WHERE s.game_id = ? ORDER BY s.at_ball, c.serial',
    [gameId],
  )
  return rows.map((r) => ({ serial: r.serial, kind: r.kind, atBall: Number(r.at_ball) }))
}

// ---- claims

export async function verifiedClaimIdOfCard(
  tx: Sql,
  gameId: string,
  cardId: string,
  kind: ClaimKind,
): Promise<string | undefined> {
  return (
    await tx.get<{ id: string }>(
      "SELECT id FROM claims WHERE game_id = ? AND card_id = ? AND kind = ? AND status = 'verified'",
      [gameId, cardId, kind],
    )
  )?.id
}

export async function insertClaim(
  tx: Sql,
  c: {
    id: string
    gameId: string
    cardId: string
    serial: string
    kind: ClaimKind
    atBall: number
    status: 'verified' | 'rejected'
    reason: string | null
    automatic: number
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO claims (id, game_id, card_id, serial, kind, at_ball, status, reason, automatic, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [c.id, c.gameId, c.cardId, c.serial, c.kind, c.atBall, c.status, c.reason, c.automatic, c.at],
  )
}

export function verifiedClaimsOfKind(tx: Sql, gameId: string, kind: ClaimKind): Promise<ClaimRow[]> {
  return tx.all<ClaimRow>(
    "SELECT * FROM claims WHERE game_id = ? AND kind = ? AND status = 'verified' ORDER BY created_at",
    [gameId, kind],
  )
}

export async function verifiedClaimCountFrom(tx: Sql, gameId: string, atBall: number): Promise<number> {
  const r = await tx.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM claims WHERE game_id = ? AND status = 'verified' AND at_ball >= ?",
    [gameId, atBall],
  )
  return Number(r?.n ?? 0)
}

/** Every claim of a game with the numbers of its card, oldest first. */
export function claimsWithNumbers(sql: Sql, gameId: string): Promise<Array<ClaimRow & { numbers: string | null }>> {
  return sql.all<ClaimRow & { numbers: string | null }>(
    'SELECT cl.*, c.numbers FROM claims cl LEFT JOIN cards c ON c.id = cl.card_id WHERE cl.game_id = ? ORDER BY cl.created_at',
    [gameId],
  )
}

// ---- prizes

export async function insertPrize(
  tx: Sql,
  p: { id: string; gameId: string; cardId: string; kind: ClaimKind; amountCents: number; atBall: number; at: string },
): Promise<void> {
  await tx.run(
    'INSERT INTO prizes (id, game_id, card_id, kind, amount_cents, at_ball, status, awarded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [p.id, p.gameId, p.cardId, p.kind, p.amountCents, p.atBall, 'awarded', p.at],
  )
  touchRows(tx, 'prizes', [p.id])
}

export function prizeById(tx: Sql, prizeId: string): Promise<PrizeRow | undefined> {
  return tx.get<PrizeRow>('SELECT * FROM prizes WHERE id = ?', [prizeId])
}

/** Marks an awarded prize paid; false when it was not awarded (already paid or void). */
export async function markPrizePaid(tx: Sql, prizeId: string, at: string, paidBy: string): Promise<boolean> {
  const r = await tx.run(
    "UPDATE prizes SET status = 'paid', paid_at = ?, paid_by = ? WHERE id = ? AND status = 'awarded'",
    [at, paidBy, prizeId],
  )
  touchRows(tx, 'prizes', [prizeId])
  return r.changes === 1
}

export async function awardedPrizeIds(sql: Sql, gameId: string): Promise<string[]> {
  return (
    await sql.all<{ id: string }>("SELECT id FROM prizes WHERE game_id = ? AND status = 'awarded'", [gameId])
  ).map((r) => r.id)
}

/** Prizes (and bonus prizes) of a game already paid: an annulment after a payout is refused (issue 13 point 6). */
export async function paidPrizeCount(tx: Sql, gameId: string): Promise<number> {
  const a = await tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM prizes WHERE game_id = ? AND status = 'paid'", [
    gameId,
  ])
  const b = await tx.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM bonus_prizes WHERE game_id = ? AND status = 'paid'",
    [gameId],
  )
  return Number(a?.n ?? 0) + Number(b?.n ?? 0)
}

export async function voidAwardedPrizes(tx: Sql, gameId: string): Promise<void> {
  await touchRowsWhere(tx, 'prizes', "game_id = ? AND status = 'awarded'", [gameId])
  await tx.run("UPDATE prizes SET status = 'void' WHERE game_id = ? AND status = 'awarded'", [gameId])
}

export function prizesOfGame(sql: Sql, gameId: string): Promise<PrizeRow[]> {
  return sql.all<PrizeRow>('SELECT * FROM prizes WHERE game_id = ?', [gameId])
}

export function prizesWithSerials(sql: Sql, gameId: string): Promise<Array<PrizeRow & { serial: string }>> {
  return sql.all<PrizeRow & { serial: string }>(
    'SELECT p.*, c.serial FROM prizes p JOIN cards c ON c.id = p.card_id WHERE p.game_id = ? ORDER BY p.kind DESC, c.serial',
    [gameId],
  )
}

// ---- incidents

/** Issue 17: a game's newest incident, for the hall display and the caller console. */
export function latestIncidentOfGame(
  sql: Sql,
  gameId: string,
): Promise<{ kind: string; outcome: string; note: string; rule: string; created_at: string } | undefined> {
  return sql.get<{ kind: string; outcome: string; note: string; rule: string; created_at: string }>(
    'SELECT kind, outcome, note, rule, created_at FROM incidents WHERE game_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    [gameId],
  )
}

export async function insertIncident(
  tx: Sql,
  i: {
    id: string
    sessionId: string
    gameId: string
    kind: string
    outcome: string
    note: string
    rule: string
    at: string
    cameraId?: string | null
    cctvRef?: string | null
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO incidents (id, session_id, game_id, kind, outcome, note, rule, created_at, camera_id, cctv_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [i.id, i.sessionId, i.gameId, i.kind, i.outcome, i.note, i.rule, i.at, i.cameraId ?? null, i.cctvRef ?? null],
  )
}

// ---- journal positions

/** The journal's last sequence number (0 when empty). */
export async function lastJournalSeq(tx: Sql): Promise<number> {
  const r = await tx.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM journal')
  return Number(r?.seq ?? 0)
}

/** The last sequence number of one scope's records (0 when none). */
export async function lastJournalSeqOfScope(sql: Sql, scope: string): Promise<number> {
  const r = await sql.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM journal WHERE scope = ?', [scope])
  return Number(r?.seq ?? 0)
}

// Prima, pots, lucky ball, simultaneous games (bonus-service.ts, prima-service.ts, pots-service.ts, simultaneous-service.ts)
//
// The SQL of issue #8. Every function takes the transaction (or connection) it runs in; statement texts are kept
// as they were, since the SQLite engine caches prepared statements by text. Rows of the core bingo tables (games,
// halls) are typed by the caller, so that this section does not depend on the core section's row types.

type BonusPotKind = 'progressive' | 'interconnected' | 'lucky'

export interface PotRow {
  id: string
  name: string
  kind: BonusPotKind
  currency: string
  contribution_bp: number
  reserve_bp: number
  seed_cents: number
  max_cents: number | null
  conditions: string
  public_text: string
  status: string
  entries: number
  created_at: string
  /** RNG-20 / RNG-21 (migration 0055). */
  authorisation_ref?: string | null
  commission_bp?: number
}

export type PotLedgerKind =
  'seed' | 'contribution' | 'award' | 'reserve_transfer' | 'payment' | 'reversal' | 'award_reversal'

export interface PotLedgerEntry {
  entryNo: number
  kind: string
  gameId: string | null
  hallId: string | null
  prizeId: string | null
  mainCents: number
  reserveCents: number
  detail: unknown
  at: string
}

export interface LuckyDrawRow {
  game_id: string
  commitment: string
  seed_hex: string
  number_count: number
  numbers: string | null
  created_at: string
  drawn_at: string | null
  /** Issue 15: the sealed seed (older rows have it in `seed_hex`), the derivation used and, for v2, the beacon round (JSON). */
  seed_sealed?: string | null
  version?: string | null
  beacon?: string | null
}

export interface PrimaRow {
  hall_id: string
  amounts: string
  amount_cents: number
  deduction_bp: number
  min_amount_cents: number
  max_amount_cents: number
  step_cents: number
  base_ball_limit: number
  increment_per_game: number
  reset_policy: 'base' | 'keep'
  fund_cents: number
  ball_limit: number
  cycle_games: number
  unwon_games: number
  amount_changeable: number
  entries: number
  updated_at: string
}
export interface PrimaGameRow {
  game_id: string
  hall_id: string
  active: number
  amount_cents: number
  ball_limit: number
  fund_at_start_cents: number
  deduction_cents: number | null
  outcome: string | null
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

export interface GameHallRow {
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
/** The columns of a `halls` row that a simultaneous game checks. */
export interface SimultaneousHallRow {
  id: string
  name: string
  profile_id: string
  currency: string
}
export interface SimultaneousSeriesRow {
  id: string
  code: string
  master_set_id: string
  face_value_cents: number
  card_count: number
  next_card_no: number
}

export type BonusPrizeSource = 'prima' | BonusPotKind
export interface BonusPrizeRow {
  id: string
  game_id: string
  card_id: string
  hall_id: string
  source: BonusPrizeSource
  pot_id: string
  name: string
  prize_kind: 'line' | 'bingo'
  amount_cents: number
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
export type BonusPrizeWithSerial = BonusPrizeRow & { serial: string }
export type BonusPrizeReceiptRow = BonusPrizeWithSerial & {
  card_no: number
  numbers: string
  code: string
  currency: string
  order_no: number
  hall_name: string
}

// ---- pots (pots-service.ts)

export async function potBalance(tx: Sql, potId: string): Promise<{ mainCents: number; reserveCents: number }> {
  const r = await tx.get<{ m: number | string | null; r: number | string | null }>(
    'SELECT SUM(main_cents) AS m, SUM(reserve_cents) AS r FROM pot_ledger WHERE pot_id = ?',
    [potId],
  )
  return { mainCents: Number(r?.m ?? 0), reserveCents: Number(r?.r ?? 0) }
}

/** Appends one movement to a pot's ledger (entry numbers 1, 2, 3, ... per pot). */
export async function appendPotLedgerEntry(
  tx: Sql,
  potId: string,
  e: {
    kind: PotLedgerKind
    gameId?: string
    hallId?: string
    prizeId?: string
    mainCents: number
    reserveCents: number
    detail?: unknown
    at: string
  },
): Promise<void> {
  const row = await tx.get<{ entries: number }>('SELECT entries FROM pots WHERE id = ?', [potId])
  const entryNo = Number(row?.entries ?? 0) + 1
  await tx.run(
    'INSERT INTO pot_ledger (pot_id, entry_no, kind, game_id, hall_id, prize_id, main_cents, reserve_cents, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      potId,
      entryNo,
      e.kind,
      e.gameId ?? '',
      e.hallId ?? '',
      e.prizeId ?? '',
      e.mainCents,
      e.reserveCents,
      JSON.stringify(e.detail ?? {}),
      e.at,
    ],
  )
  await tx.run('UPDATE pots SET entries = ? WHERE id = ?', [entryNo, potId])
}

export async function potLedgerEntries(tx: Sql, potId: string): Promise<PotLedgerEntry[]> {
  const rows = await tx.all<{
    entry_no: number
    kind: string
    game_id: string
    hall_id: string
    prize_id: string
    main_cents: number
    reserve_cents: number
    detail: string
    created_at: string
  }>('SELECT * FROM pot_ledger WHERE pot_id = ? ORDER BY entry_no', [potId])
  return rows.map((r) => ({
    entryNo: Number(r.entry_no),
    kind: r.kind,
    gameId: r.game_id || null,
    hallId: r.hall_id || null,
    prizeId: r.prize_id || null,
    mainCents: Number(r.main_cents),
    reserveCents: Number(r.reserve_cents),
    detail: JSON.parse(r.detail),
    at: r.created_at,
  }))
}

/** A hall a new pot is created for, with its currency. */
export function potCandidateHall(
  tx: Sql,
  hallId: string,
): Promise<{ id: string; currency: string; profile_id: string } | undefined> {
  return tx.get<{ id: string; currency: string; profile_id: string }>(
    'SELECT id, currency, profile_id FROM halls WHERE id = ?',
    [hallId],
  )
}

/** The currency of a hall joining an existing pot. */
export function potJoiningHall(tx: Sql, hallId: string): Promise<{ currency: string; profile_id: string } | undefined> {
  return tx.get<{ currency: string; profile_id: string }>('SELECT currency, profile_id FROM halls WHERE id = ?', [
    hallId,
  ])
}

export async function insertPot(
  tx: Sql,
  p: {
    id: string
    name: string
    kind: string
    currency: string
    contributionBp: number
    reserveBp: number
    seedCents: number
    maxCents: number | null
    conditionJson: string
    publicText: string
    status: string
    at: string
    authorisationRef: string | null
    commissionBp: number
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO pots (id, name, kind, currency, contribution_bp, reserve_bp, seed_cents, max_cents, conditions, public_text, status, entries, created_at, authorisation_ref, commission_bp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)',
    [
      p.id,
      p.name,
      p.kind,
      p.currency,
      p.contributionBp,
      p.reserveBp,
      p.seedCents,
      p.maxCents,
      p.conditionJson,
      p.publicText,
      p.status,
      p.at,
      p.authorisationRef,
      p.commissionBp,
    ],
  )
}

export async function insertPotHall(tx: Sql, potId: string, hallId: string, at: string): Promise<void> {
  await tx.run('INSERT INTO pot_halls (pot_id, hall_id, joined_at) VALUES (?, ?, ?)', [potId, hallId, at])
}

export function potById(tx: Sql, potId: string): Promise<PotRow | undefined> {
  return tx.get<PotRow>('SELECT * FROM pots WHERE id = ?', [potId])
}

export async function hallIdsOfPot(tx: Sql, potId: string): Promise<string[]> {
  return (
    await tx.all<{ hall_id: string }>('SELECT hall_id FROM pot_halls WHERE pot_id = ? ORDER BY hall_id', [potId])
  ).map((h) => h.hall_id)
}

/** Every hall that takes part in some pot. */
export async function hallIdsWithPots(tx: Sql): Promise<string[]> {
  return (await tx.all<{ hall_id: string }>('SELECT DISTINCT hall_id FROM pot_halls')).map((r) => r.hall_id)
}

/** Active pots that any of `hallIds` takes part in, with all their halls. */
export async function activePotsOfHalls(
  tx: Sql,
  hallIds: readonly string[],
): Promise<Array<PotRow & { hallIds: string[] }>> {
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

export function potContributionsOfGame(
  tx: Sql,
  gameId: string,
): Promise<Array<{ pot_id: string; hall_id: string; main_cents: number; reserve_cents: number }>> {
  return tx.all<{ pot_id: string; hall_id: string; main_cents: number; reserve_cents: number }>(
    "SELECT pot_id, hall_id, main_cents, reserve_cents FROM pot_ledger WHERE game_id = ? AND kind = 'contribution'",
    [gameId],
  )
}

/** Games that contributed to a pot since its last award in another game (the accumulated games of BNG-69). */
export async function potGamesSinceLastAward(tx: Sql, potId: string, gameId: string): Promise<number> {
  const cycle = await tx.get<{ n: number }>(
    "SELECT COUNT(DISTINCT game_id) AS n FROM pot_ledger WHERE pot_id = ? AND kind = 'contribution' AND entry_no > COALESCE((SELECT MAX(entry_no) FROM pot_ledger WHERE pot_id = ? AND kind = 'award' AND game_id <> ?), 0)",
    [potId, potId, gameId],
  )
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

/** A new lucky-ball draw: its seed only sealed (`seed_hex` is left empty). */
export async function insertLuckyDraw(
  tx: Sql,
  d: { gameId: string; commitment: string; seedSealed: string; count: number; at: string },
): Promise<void> {
  await tx.run(
    "INSERT INTO lucky_draws (game_id, commitment, seed_hex, seed_sealed, number_count, created_at) VALUES (?, ?, '', ?, ?, ?)",
    [d.gameId, d.commitment, d.seedSealed, d.count, d.at],
  )
}

export async function setLuckyNumbers(
  tx: Sql,
  gameId: string,
  numbers: number[],
  at: string,
  version: string,
  beacon: string | null = null,
): Promise<void> {
  await tx.run('UPDATE lucky_draws SET numbers = ?, drawn_at = ?, version = ?, beacon = ? WHERE game_id = ?', [
    JSON.stringify(numbers),
    at,
    version,
    beacon,
    gameId,
  ])
}

/** The game's drawn lucky numbers; null before close of sales or without a lucky ball. */
export async function luckyNumbersOfGame(tx: Sql, gameId: string): Promise<number[] | null> {
  const lucky = await tx.get<{ numbers: string | null }>('SELECT numbers FROM lucky_draws WHERE game_id = ?', [gameId])
  return lucky?.numbers ? JSON.parse(lucky.numbers) : null
}

export function luckyCommitmentOfGame(
  tx: Sql,
  gameId: string,
): Promise<{ commitment: string; numbers: string | null } | undefined> {
  return tx.get<{ commitment: string; numbers: string | null }>(
    'SELECT commitment, numbers FROM lucky_draws WHERE game_id = ?',
    [gameId],
  )
}

// ---- prima (prima-service.ts)

export function primaByHall(tx: Sql, hallId: string): Promise<PrimaRow | undefined> {
  return tx.get<PrimaRow>('SELECT * FROM prima_halls WHERE hall_id = ?', [hallId])
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
}

export async function insertPrimaGame(
  tx: Sql,
  g: { gameId: string; hallId: string; active: boolean; amountCents: number; ballLimit: number; fundCents: number },
): Promise<void> {
  await tx.run(
    'INSERT INTO prima_games (game_id, hall_id, active, amount_cents, ball_limit, fund_at_start_cents) VALUES (?, ?, ?, ?, ?, ?)',
    [g.gameId, g.hallId, g.active ? 1 : 0, g.amountCents, g.ballLimit, g.fundCents],
  )
}

/** Takes the prima off a game that has neither deducted nor settled it; true if it was on offer. */
export async function withdrawPrimaGame(tx: Sql, gameId: string): Promise<boolean> {
  const r = await tx.run(
    "UPDATE prima_games SET active = 0, outcome = 'not_offered' WHERE game_id = ? AND deduction_cents IS NULL AND outcome IS NULL",
    [gameId],
  )
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
export function simultaneousFirstSeries(
  tx: Sql,
  gameId: string,
): Promise<{ master_set_id: string; face_value_cents: number } | undefined> {
  return tx.get<{ master_set_id: string; face_value_cents: number }>(
    'SELECT s.master_set_id, s.face_value_cents FROM game_series gs JOIN series s ON s.id = gs.series_id WHERE gs.game_id = ? AND gs.position = 1',
    [gameId],
  )
}

export function simultaneousHallById(tx: Sql, hallId: string): Promise<SimultaneousHallRow | undefined> {
  return tx.get<SimultaneousHallRow>('SELECT * FROM halls WHERE id = ?', [hallId])
}

export function simultaneousSeriesOfHall(
  tx: Sql,
  seriesId: string,
  hallId: string,
): Promise<SimultaneousSeriesRow | undefined> {
  return tx.get<SimultaneousSeriesRow>('SELECT * FROM series WHERE id = ? AND hall_id = ?', [seriesId, hallId])
}

export function simultaneousSeriesById(
  tx: Sql,
  seriesId: string,
): Promise<{ id: string; code: string; card_count: number } | undefined> {
  return tx.get<{ id: string; code: string; card_count: number }>(
    'SELECT id, code, card_count FROM series WHERE id = ?',
    [seriesId],
  )
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
export function overlappingGameHall(
  tx: Sql,
  gameId: string,
  masterSetId: string,
  from: number,
  to: number,
): Promise<{ hall_id: string; from_card_no: number; to_card_no: number } | undefined> {
  return tx.get<{ hall_id: string; from_card_no: number; to_card_no: number }>(
    'SELECT hall_id, from_card_no, to_card_no FROM game_halls WHERE game_id = ? AND master_set_id = ? AND NOT (to_card_no < ? OR from_card_no > ?)',
    [gameId, masterSetId, from, to],
  )
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
export function gameHallViews(
  tx: Sql,
  gameId: string,
): Promise<
  Array<{ hall_id: string; name: string; code: string; from_card_no: number; to_card_no: number; cards_sold: number }>
> {
  return tx.all<{
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
}

/** Verified winning cards of a game with the hall that sold each. */
export function verifiedWinnerHallsOfGame(
  tx: Sql,
  gameId: string,
): Promise<Array<{ card_id: string; serial: string; hall_id: string }>> {
  return tx.all<{ card_id: string; serial: string; hall_id: string }>(
    "SELECT DISTINCT cl.card_id, cl.serial, s.hall_id FROM claims cl JOIN cards c ON c.id = cl.card_id JOIN series s ON s.id = c.series_id WHERE cl.game_id = ? AND cl.status = 'verified' ORDER BY cl.serial",
    [gameId],
  )
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

// ---- bonus prizes and what the bonus use cases read of the core tables (bonus-service.ts)

/** The journal's last sequence number (0 when empty): the `seq` of the `game:changed` events. */
export async function bonusLastJournalSeq(tx: Sql): Promise<number> {
  return Number((await tx.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM journal'))?.seq ?? 0)
}

export function bonusHallProfile(
  tx: Sql,
  hallId: string,
): Promise<{ profile_id: string; settings: string } | undefined> {
  return tx.get<{ profile_id: string; settings: string }>('SELECT profile_id, settings FROM halls WHERE id = ?', [
    hallId,
  ])
}

/** A card's numbers and the hall whose series sold it. */
export function bonusCardNumbersAndHall(
  tx: Sql,
  cardId: string,
): Promise<{ numbers: string; hall_id: string } | undefined> {
  return tx.get<{ numbers: string; hall_id: string }>(
    'SELECT c.numbers, s.hall_id FROM cards c JOIN series s ON s.id = c.series_id WHERE c.id = ?',
    [cardId],
  )
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
export function unpaidPotPrizesOfGame(
  tx: Sql,
  gameId: string,
): Promise<Array<{ pot_id: string; prize_kind: string; amount_cents: number }>> {
  return tx.all<{ pot_id: string; prize_kind: string; amount_cents: number }>(
    "SELECT pot_id, prize_kind, amount_cents FROM bonus_prizes WHERE game_id = ? AND status = 'awarded' AND source <> 'prima'",
    [gameId],
  )
}

export async function voidBonusPrizesOfGame(tx: Sql, gameId: string): Promise<void> {
  await touchRowsWhere(tx, 'bonus_prizes', "game_id = ? AND status = 'awarded'", [gameId])
  await tx.run("UPDATE bonus_prizes SET status = 'void' WHERE game_id = ? AND status = 'awarded'", [gameId])
}

export function bonusPrizesOfGame(tx: Sql, gameId: string): Promise<BonusPrizeWithSerial[]> {
  return tx.all<BonusPrizeWithSerial>(
    'SELECT b.*, c.serial FROM bonus_prizes b JOIN cards c ON c.id = b.card_id WHERE b.game_id = ? ORDER BY b.source, c.serial',
    [gameId],
  )
}

export function bonusPrizeById(tx: Sql, prizeId: string): Promise<BonusPrizeWithSerial | undefined> {
  return tx.get<BonusPrizeWithSerial>(
    'SELECT b.*, c.serial FROM bonus_prizes b JOIN cards c ON c.id = b.card_id WHERE b.id = ?',
    [prizeId],
  )
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
    paymentMethod?: 'cash' | 'cheque'
    chequeNumber?: string | null
    stationId?: string | null
  },
): Promise<boolean> {
  const r = await tx.run(
    "UPDATE bonus_prizes SET status = 'paid', paid_at = ?, paid_by = ?, payee_name = ?, payee_document = ?, payment_method = ?, cheque_number = ?, station_id = ? WHERE id = ? AND status = 'awarded'",
    [
      p.at,
      p.paidBy,
      p.payeeName,
      p.payeeDocument,
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
export function bonusPrizeReceiptRow(tx: Sql, prizeId: string): Promise<BonusPrizeReceiptRow | undefined> {
  return tx.get<BonusPrizeReceiptRow>(
    'SELECT b.*, c.serial, c.card_no, c.numbers, s.code, h.currency, h.name AS hall_name, g.order_no FROM bonus_prizes b JOIN cards c ON c.id = b.card_id JOIN series s ON s.id = c.series_id JOIN games g ON g.id = b.game_id JOIN halls h ON h.id = g.hall_id WHERE b.id = ?',
    [prizeId],
  )
}

/** The balls of a game in draw order, for a bonus receipt. */
export async function bonusReceiptBalls(tx: Sql, gameId: string): Promise<number[]> {
  return (await tx.all<{ ball: number }>('SELECT ball FROM balls WHERE game_id = ? ORDER BY seq', [gameId])).map((b) =>
    Number(b.ball),
  )
}

// ---- annulments by two people (incidents.ts; issue 15 point 4)

export interface AnnulmentRow {
  game_id: string
  reason: string
  requested_by_id: string
  requested_by_name: string
  confirmed_by_id: string
  confirmed_by_name: string
  created_at: string
}

export async function insertAnnulment(
  tx: Sql,
  a: {
    gameId: string
    reason: string
    requestedBy: { id: string; name: string }
    confirmedBy: { id: string; name: string }
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO game_annulments (game_id, reason, requested_by_id, requested_by_name, confirmed_by_id, confirmed_by_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [a.gameId, a.reason, a.requestedBy.id, a.requestedBy.name, a.confirmedBy.id, a.confirmedBy.name, a.at],
  )
}

export function annulmentOfGame(sql: Sql, gameId: string): Promise<AnnulmentRow | undefined> {
  return sql.get<AnnulmentRow>('SELECT * FROM game_annulments WHERE game_id = ?', [gameId])
}

// ---------------------------------------------------------------- hall plans (issue 18: BNG-52, CFG-17, CFG-34)

export interface HallPlanRow {
  id: string
  hall_id: string
  kind: string
  version: number
  authorisation_ref: string | null
  body: string
  created_at: string
  created_by: string
}

export async function latestHallPlanVersion(sql: Sql, hallId: string, kind: string): Promise<number> {
  const r = await sql.get<{ v: number | null }>(
    'SELECT MAX(version) AS v FROM hall_plans WHERE hall_id = ? AND kind = ?',
    [hallId, kind],
  )
  return Number(r?.v ?? 0)
}

export async function insertHallPlan(
  tx: Sql,
  p: {
    id: string
    hallId: string
    kind: string
    version: number
    authorisationRef: string | null
    body: string
    at: string
    createdBy: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO hall_plans (id, hall_id, kind, version, authorisation_ref, body, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [p.id, p.hallId, p.kind, p.version, p.authorisationRef, p.body, p.at, p.createdBy],
  )
}

export function hallPlans(sql: Sql, hallId: string): Promise<HallPlanRow[]> {
  return sql.all<HallPlanRow>('SELECT * FROM hall_plans WHERE hall_id = ? ORDER BY kind, version', [hallId])
}

export async function setHallSettings(tx: Sql, hallId: string, settings: string): Promise<void> {
  await tx.run('UPDATE halls SET settings = ? WHERE id = ?', [settings, hallId])
}

export async function setHallPlayingPositions(tx: Sql, hallId: string, positions: number): Promise<void> {
  await tx.run('UPDATE halls SET playing_positions = ? WHERE id = ?', [positions, hallId])
}

/** BNG-71: prizes (ordinary and bonus) awarded in a hall's finished games and not yet paid. */
export async function unpaidPrizesOfHall(
  sql: Sql,
  hallId: string,
): Promise<{ count: number; amountCents: number; gameIds: string[] }> {
  const rows = await sql.all<{ game_id: string; amount_cents: number }>(
    `SELECT p.game_id, p.amount_cents FROM prizes p JOIN games g ON g.id = p.game_id WHERE g.hall_id = ? AND g.status = 'finished' AND p.status = 'awarded'
     UNION ALL
     SELECT b.game_id, b.amount_cents FROM bonus_prizes b JOIN games g ON g.id = b.game_id WHERE b.hall_id = ? AND g.status = 'finished' AND b.status = 'awarded'`,
    [hallId, hallId],
  )
  return {
    count: rows.length,
    amountCents: rows.reduce((t, r) => t + Number(r.amount_cents), 0),
    gameIds: [...new Set(rows.map((r) => r.game_id))],
  }
}

// ------------------------------------------------------------------------------------------ complaints book (BNG-72, GEN-21)

export interface ComplaintRow {
  id: string
  hall_id: string
  number: number
  session_id: string | null
  game_id: string | null
  game_no: number | null
  player_name: string
  player_document: string | null
  player_contact: string | null
  text: string
  recorded_at: string
  recorded_by: string
  recorded_by_name: string
  recorded_by_role: string
  answer: string | null
  answered_at: string | null
  answered_by: string | null
  answered_by_name: string | null
  answered_by_role: string | null
}

const toComplaint = (r: ComplaintRow): ComplaintRow => ({
  ...r,
  number: Number(r.number),
  game_no: r.game_no === null ? null : Number(r.game_no),
})

/** The next number of the hall's complaints book (1 for the first). */
export async function nextComplaintNumber(tx: Sql, hallId: string): Promise<number> {
  const row = await tx.get<{ n: number | null }>('SELECT MAX(number) AS n FROM complaints WHERE hall_id = ?', [hallId])
  return Number(row?.n ?? 0) + 1
}

export async function insertComplaint(
  tx: Sql,
  c: Omit<ComplaintRow, 'answer' | 'answered_at' | 'answered_by' | 'answered_by_name' | 'answered_by_role'>,
): Promise<void> {
  await tx.run(
    `INSERT INTO complaints (id, hall_id, number, session_id, game_id, game_no, player_name, player_document, player_contact, text, recorded_at, recorded_by, recorded_by_name, recorded_by_role)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      c.id,
      c.hall_id,
      c.number,
      c.session_id,
      c.game_id,
      c.game_no,
      c.player_name,
      c.player_document,
      c.player_contact,
      c.text,
      c.recorded_at,
      c.recorded_by,
      c.recorded_by_name,
      c.recorded_by_role,
    ],
  )
}

export async function complaintByNumber(tx: Sql, hallId: string, number: number): Promise<ComplaintRow | undefined> {
  const row = await tx.get<ComplaintRow>('SELECT * FROM complaints WHERE hall_id = ? AND number = ?', [hallId, number])
  return row ? toComplaint(row) : undefined
}

/** Writes the answer once; false when it was already answered. */
export async function answerComplaint(
  tx: Sql,
  id: string,
  a: { answer: string; at: string; byId: string; byName: string; byRole: string },
): Promise<boolean> {
  return (
    (
      await tx.run(
        'UPDATE complaints SET answer = ?, answered_at = ?, answered_by = ?, answered_by_name = ?, answered_by_role = ? WHERE id = ? AND answer IS NULL',
        [a.answer, a.at, a.byId, a.byName, a.byRole, id],
      )
    ).changes === 1
  )
}

export async function complaintsOfHall(tx: Sql, hallId: string): Promise<ComplaintRow[]> {
  return (await tx.all<ComplaintRow>('SELECT * FROM complaints WHERE hall_id = ? ORDER BY number', [hallId])).map(
    toComplaint,
  )
}

/** The game of a session with this order number. */
export async function gameIdByOrder(tx: Sql, sessionId: string, orderNo: number): Promise<string | undefined> {
  return (
    await tx.get<{ id: string }>('SELECT id FROM games WHERE session_id = ? AND order_no = ?', [sessionId, orderNo])
  )?.id
}

// ---- issue 18: sale limits, players and seats, hall entry, cards handed back (BNG-15, BNG-19, BNG-40, BNG-93)

/** Cards an identified player holds in a game (CFG-16). */
export async function playerCardCount(sql: Sql, gameId: string, playerKey: string): Promise<number> {
  const r = await sql.get<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM player_cards WHERE game_id = ? AND player_key = ?',
    [gameId, playerKey],
  )
  return Number(r?.n ?? 0)
}

/**
 * Distinct identified players holding cards of a game in a hall (BNG-93): the count kept by insertPlayerCards
 * (migration 0073), one row read, however many cards the game has sold.
 */
export async function playersOfGame(sql: Sql, gameId: string, hallId: string): Promise<number> {
  const r = await sql.get<{ n: number | string }>(
    'SELECT players AS n FROM game_hall_players WHERE game_id = ? AND hall_id = ?',
    [gameId, hallId],
  )
  return Number(r?.n ?? 0)
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
      const held = await tx.get(
        'SELECT 1 AS held FROM player_cards WHERE game_id = ? AND player_key = ? AND hall_id = ? LIMIT 1',
        [r.gameId, r.playerKey, r.hallId],
      )
      if (!held) {
        await tx.run(
          'INSERT INTO game_hall_players (game_id, hall_id, players) VALUES (?, ?, 1) ON CONFLICT (game_id, hall_id) DO UPDATE SET players = game_hall_players.players + 1',
          [r.gameId, r.hallId],
        )
      }
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

/** The game played just before `gameId` in its session (BNG-15), or undefined for the first. */
export async function previousGameOfSession(
  sql: Sql,
  gameId: string,
): Promise<{ id: string; order_no: number } | undefined> {
  return sql.get<{ id: string; order_no: number }>(
    'SELECT p.id, p.order_no FROM games g JOIN games p ON p.session_id = g.session_id AND p.order_no = g.order_no - 1 WHERE g.id = ?',
    [gameId],
  )
}

/** Serials of a player's cards of a game not handed back (BNG-15). */
export async function unreturnedCardsOfPlayer(sql: Sql, gameId: string, playerKey: string): Promise<string[]> {
  const rows = await sql.all<{ serial: string }>(
    // Handed back: at the till or table (card_returns), or collected into the hall's custody (card_custody, BNG-87/88).
    'SELECT c.serial FROM player_cards pc JOIN cards c ON c.id = pc.card_id LEFT JOIN card_returns r ON r.card_id = pc.card_id LEFT JOIN card_custody k ON k.card_id = pc.card_id WHERE pc.game_id = ? AND pc.player_key = ? AND r.card_id IS NULL AND k.card_id IS NULL ORDER BY c.serial',
    [gameId, playerKey],
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

export function cardById(sql: Sql, cardId: string): Promise<CardRow | undefined> {
  return sql.get<CardRow>(
    'SELECT id, game_id, series_id, card_no, serial, numbers, status, channel, sold_at FROM cards WHERE id = ?',
    [cardId],
  )
}

// Card custody after the game (BNG-87/88/89/92): card-custody-service.ts

export interface CardCustodyRow {
  card_id: string
  serial: string
  game_id: string
  hall_id: string
  game_status: string
  finished_at: string | null
  card_status: string
  state: string | null
  reason: string | null
  authority_ref: string | null
  changed_at: string | null
  changed_by: string | null
  prizes: number
  unpaid_prizes: number
}

const CUSTODY_SELECT = `SELECT c.id AS card_id, c.serial, c.game_id, g.hall_id, g.status AS game_status, g.finished_at, c.status AS card_status,
       k.state, k.reason, k.authority_ref, k.changed_at, k.changed_by,
       (SELECT COUNT(*) FROM prizes p WHERE p.card_id = c.id AND p.status IN ('awarded', 'paid'))
         + (SELECT COUNT(*) FROM bonus_prizes b WHERE b.card_id = c.id AND b.status IN ('awarded', 'paid')) AS prizes,
       (SELECT COUNT(*) FROM prizes p WHERE p.card_id = c.id AND p.status = 'awarded')
         + (SELECT COUNT(*) FROM bonus_prizes b WHERE b.card_id = c.id AND b.status = 'awarded') AS unpaid_prizes
  FROM cards c JOIN games g ON g.id = c.game_id LEFT JOIN card_custody k ON k.card_id = c.id`

/** A card with its custody state and whether it won (line, bingo or a bonus prize). */
export function cardCustodyById(sql: Sql, cardId: string): Promise<CardCustodyRow | undefined> {
  return sql.get<CardCustodyRow>(`${CUSTODY_SELECT} WHERE c.id = ?`, [cardId])
}

/** Every card of a game with its custody state, in serial order. */
export function cardCustodyOfGame(sql: Sql, gameId: string): Promise<CardCustodyRow[]> {
  return sql.all<CardCustodyRow>(`${CUSTODY_SELECT} WHERE c.game_id = ? ORDER BY c.serial`, [gameId])
}

/** The custody state of one card (no row = with the player). */
export async function cardCustodyState(
  sql: Sql,
  cardId: string,
): Promise<{ state: string; reason: string | null; changed_at: string; changed_by: string } | undefined> {
  return sql.get<{ state: string; reason: string | null; changed_at: string; changed_by: string }>(
    'SELECT state, reason, changed_at, changed_by FROM card_custody WHERE card_id = ?',
    [cardId],
  )
}

/** Sets a card's custody state, moving it only from the state read (`from`, null = no row); false when it changed meanwhile. */
export async function setCardCustody(
  tx: Sql,
  k: {
    cardId: string
    gameId: string
    hallId: string
    from: string | null
    state: string
    reason: string | null
    authorityRef: string | null
    at: string
    by: string
  },
): Promise<boolean> {
  if (k.from === null) {
    const exists = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM card_custody WHERE card_id = ?', [k.cardId])
    if (Number(exists?.n ?? 0) > 0) return false
    await tx.run(
      'INSERT INTO card_custody (card_id, game_id, hall_id, state, reason, authority_ref, changed_at, changed_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [k.cardId, k.gameId, k.hallId, k.state, k.reason, k.authorityRef, k.at, k.by],
    )
    return true
  }
  const r = await tx.run(
    'UPDATE card_custody SET state = ?, reason = ?, authority_ref = ?, changed_at = ?, changed_by = ? WHERE card_id = ? AND state = ?',
    [k.state, k.reason, k.authorityRef, k.at, k.by, k.cardId, k.from],
  )
  return r.changes === 1
}

// Retention (BNG-77 / CFG-37): retention-service.ts

/** What a purge of a session's records depends on: when it closed, pending complaints, cards held as evidence. */
export async function sessionRetentionFacts(
  sql: Sql,
  sessionId: string,
): Promise<
  | {
      hall_id: string
      status: string
      closed_at: string | null
      pending_complaints: number
      held_cards: number
      purged: number
    }
  | undefined
> {
  return sql.get(
    `SELECT s.hall_id, s.status, s.closed_at,
       (SELECT COUNT(*) FROM complaints k WHERE k.session_id = s.id AND k.answered_at IS NULL) AS pending_complaints,
       (SELECT COUNT(*) FROM card_custody cc JOIN games g ON g.id = cc.game_id WHERE g.session_id = s.id AND cc.state = 'evidence') AS held_cards,
       (SELECT COUNT(*) FROM records_purges p WHERE p.session_id = s.id) AS purged
     FROM sessions s WHERE s.id = ?`,
    [sessionId],
  )
}

/** Deletes a session's non-winning cards (no prize, bonus prize or payout), with their custody rows; returns how many. */
export async function purgeNonWinningCardsOfSession(tx: Sql, sessionId: string): Promise<number> {
  const ids = (
    await tx.all<{ id: string }>(
      `SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id WHERE g.session_id = ?
       AND NOT EXISTS (SELECT 1 FROM prizes p WHERE p.card_id = c.id)
       AND NOT EXISTS (SELECT 1 FROM bonus_prizes b WHERE b.card_id = c.id)
       AND NOT EXISTS (SELECT 1 FROM payouts po WHERE po.card_id = c.id)`,
      [sessionId],
    )
  ).map((r) => r.id)
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500)
    const marks = chunk.map(() => '?').join(', ')
    await tx.run(`DELETE FROM card_custody WHERE card_id IN (${marks})`, chunk)
    await tx.run(`DELETE FROM cards WHERE id IN (${marks})`, chunk)
  }
  return ids.length
}

export async function insertRecordsPurge(
  tx: Sql,
  p: {
    sessionId: string
    hallId: string
    at: string
    by: string
    witness: string
    cardsPurged: number
    retentionDays: number
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO records_purges (session_id, hall_id, purged_at, purged_by, witness, cards_purged, retention_days) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [p.sessionId, p.hallId, p.at, p.by, p.witness, p.cardsPurged, p.retentionDays],
  )
}

// Hall closure (BNG-65): hall-closure-service.ts

export async function hallClosure(
  sql: Sql,
  hallId: string,
): Promise<
  { closed_at: string; closed_by: string; prima_fund_cents: number; prima_recipient: string | null } | undefined
> {
  return sql.get(
    'SELECT closed_at, closed_by, prima_fund_cents, prima_recipient FROM hall_closures WHERE hall_id = ?',
    [hallId],
  )
}

export async function insertHallClosure(
  tx: Sql,
  c: {
    hallId: string
    at: string
    by: string
    witness: string
    reason: string
    primaFundCents: number
    primaRecipient: string | null
    handoverRef: string | null
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO hall_closures (hall_id, closed_at, closed_by, witness, reason, prima_fund_cents, prima_recipient, handover_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [c.hallId, c.at, c.by, c.witness, c.reason, c.primaFundCents, c.primaRecipient, c.handoverRef],
  )
}
