/**
 * Sessions and games: their rows, status changes, sales close, beacon, claim windows, and the journal positions.
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'
import { touchRows } from '../../shared/row-seals.ts'
import type { ClaimKind, GameStatus } from '../game.ts'

/** A `sessions` row as stored. */
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

/** A session as the use cases read it; the recounts are their JSON text. */
export interface Session {
  id: string
  hallId: string
  status: string
  lastGameAnnounced: boolean
  openedAt: string
  closedAt: string | null
  openRecount: string | null
  closeRecount: string | null
}

export function toSession(r: SessionRow): Session {
  return {
    id: r.id,
    hallId: r.hall_id,
    status: r.status,
    lastGameAnnounced: Number(r.last_game_announced) !== 0,
    openedAt: r.opened_at,
    closedAt: r.closed_at ?? null,
    openRecount: r.open_recount ?? null,
    closeRecount: r.close_recount ?? null,
  }
}

/** The session as the API has always answered it (its column names): what POST /halls/:hallId/sessions returns. */
export function sessionAnswer(s: Session): SessionRow {
  return {
    id: s.id,
    hall_id: s.hallId,
    status: s.status,
    last_game_announced: s.lastGameAnnounced ? 1 : 0,
    opened_at: s.openedAt,
    closed_at: s.closedAt,
    open_recount: s.openRecount,
    close_recount: s.closeRecount,
  }
}

/** A `games` row as stored (PostgreSQL returns its BIGINT columns as text). */
export interface GameRow {
  /**
   * The game's own bet limits row (CFG-7, `game_sale_limits`) and its seal where the read joined them in (a kiosk
   * sale reads its game and its limits in one statement: cashdesk `gameById`); absent where the read did not.
   */
  sl_game_id?: string | null
  sl_limits?: string | null
  sl_authorisation_ref?: string | null
  sl_set_at?: string | null
  sl_set_by?: string | null
  sl_seal_seq?: number | string | null
  sl_seal_mac?: string | null
  /** The game row's own seal where the read joined it in (cashdesk `gameWithSealsById`; gameForSale's read). */
  seal_seq?: unknown
  seal_mac?: unknown
  /**
   * Where the read joined them in (cashdesk `gameWithSealsById`, in the sale's transaction): the hall's closure row
   * (BNG-65; both null when the hall is open), the game's simultaneous halls (BNG-100) and the session's number
   * (sessionNoOf). Absent where the read did not: each is then read on its own.
   */
  hc_hall_id?: string | null
  hc_closed_at?: string | null
  game_hall_count?: number | string
  session_no?: number | string
  /**
   * BNG-9: the hall's profile and settings and its terminal terms (`tt_hall_id` null: none), where the read joined
   * them in (cashdesk `gameWithSealsById`) for the terminal-range hook; absent where it did not.
   */
  tt_profile_id?: string | null
  tt_settings?: string | null
  tt_hall_id?: string | null
  tt_reference?: string | null
  tt_terms?: string | null
  tt_set_at?: string | null
  tt_set_by?: string | null
  id: string
  session_id: string
  hall_id: string
  order_no: number
  status: GameStatus
  suspended_from: GameStatus | null
  face_value_cents: number | string
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
  line_pool_cents: number | string | null
  bingo_pool_cents: number | string | null
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
  entry_closed_at?: string | null
  seed_sealed?: string | null
  draw_order_sealed?: string | null
  closed_at_unix?: number | string | null
  beacon_round?: number | string | null
  beacon_signature?: string | null
  beacon_randomness?: string | null
  beacon_scheme?: string | null
  beacon_chain_hash?: string | null
  beacon_public_key?: string | null
  beacon_source?: string | null
  beacon_verified_at?: string | null
  closing_signed_at?: string | null
  closing_signed_by?: string | null
}

/** A game as the use cases read it. */
export interface Game {
  id: string
  sessionId: string
  hallId: string
  orderNo: number
  status: GameStatus
  suspendedFrom: GameStatus | null
  faceValueCents: number
  ballCount: number
  layout: string
  lineBp: number
  bingoBp: number
  drawSource: string
  commitment: string
  seedHex: string
  salesDigest: string | null
  externalEntropy: string | null
  drawOrder: string | null
  cardsSold: number
  linePoolCents: number | null
  bingoPoolCents: number | null
  lineClosed: boolean
  windowKind: ClaimKind | null
  isLastGame: boolean
  createdAt: string
  salesOpenedAt: string | null
  salesClosedAt: string | null
  firstBallAt: string | null
  finishedAt: string | null
  voidReason: string | null
  entropySource: string | null
  /** BNG-19 (migration 0045): when the hall's entry closed for this game. */
  entryClosedAt: string | null
  /** bolillo-draw-v2 (migration 0009): sealed seed and order, close time and the verified beacon round. */
  seedSealed: string | null
  drawOrderSealed: string | null
  closedAtUnix: number | null
  beaconRound: number | null
  beaconSignature: string | null
  beaconRandomness: string | null
  beaconScheme: string | null
  beaconChainHash: string | null
  beaconPublicKey: string | null
  beaconSource: string | null
  beaconVerifiedAt: string | null
  /** BNG-73: the Jefe de Mesa's signature of the game's closing entry. */
  closingSignedAt: string | null
  closingSignedBy: string | null
}

const numOrNull = (v: number | string | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v)

export function toGame(r: GameRow): Game {
  return {
    id: r.id,
    sessionId: r.session_id,
    hallId: r.hall_id,
    orderNo: Number(r.order_no),
    status: r.status,
    suspendedFrom: r.suspended_from ?? null,
    faceValueCents: Number(r.face_value_cents),
    ballCount: Number(r.ball_count),
    layout: r.layout,
    lineBp: Number(r.line_bp),
    bingoBp: Number(r.bingo_bp),
    drawSource: r.draw_source,
    commitment: r.commitment,
    seedHex: r.seed_hex,
    salesDigest: r.sales_digest ?? null,
    externalEntropy: r.external_entropy ?? null,
    drawOrder: r.draw_order ?? null,
    cardsSold: Number(r.cards_sold),
    linePoolCents: numOrNull(r.line_pool_cents),
    bingoPoolCents: numOrNull(r.bingo_pool_cents),
    lineClosed: Number(r.line_closed) !== 0,
    windowKind: r.window_kind ?? null,
    isLastGame: Number(r.is_last_game) !== 0,
    createdAt: r.created_at,
    salesOpenedAt: r.sales_opened_at ?? null,
    salesClosedAt: r.sales_closed_at ?? null,
    firstBallAt: r.first_ball_at ?? null,
    finishedAt: r.finished_at ?? null,
    voidReason: r.void_reason ?? null,
    entropySource: r.entropy_source ?? null,
    entryClosedAt: r.entry_closed_at ?? null,
    seedSealed: r.seed_sealed ?? null,
    drawOrderSealed: r.draw_order_sealed ?? null,
    closedAtUnix: numOrNull(r.closed_at_unix),
    beaconRound: numOrNull(r.beacon_round),
    beaconSignature: r.beacon_signature ?? null,
    beaconRandomness: r.beacon_randomness ?? null,
    beaconScheme: r.beacon_scheme ?? null,
    beaconChainHash: r.beacon_chain_hash ?? null,
    beaconPublicKey: r.beacon_public_key ?? null,
    beaconSource: r.beacon_source ?? null,
    beaconVerifiedAt: r.beacon_verified_at ?? null,
    closingSignedAt: r.closing_signed_at ?? null,
    closingSignedBy: r.closing_signed_by ?? null,
  }
}

/** A `game_series` row joined with its series' columns, as stored. */
export interface GameSeriesRow {
  game_id: string
  series_id: string
  position: number
  start_card_no: number
  end_card_no: number
  max_card_no: number
  code: string
  face_value_cents: number | string
  master_set_id: string
  card_count: number
  next_card_no: number
}

/** A series a game sells (BNG-13: position 1 or 2) with the range it sold and its series' cursor. */
export interface GameSeries {
  gameId: string
  seriesId: string
  position: number
  startCardNo: number
  endCardNo: number
  maxCardNo: number
  code: string
  faceValueCents: number
  masterSetId: string
  cardCount: number
  nextCardNo: number
}

export function toGameSeries(r: GameSeriesRow): GameSeries {
  return {
    gameId: r.game_id,
    seriesId: r.series_id,
    position: Number(r.position),
    startCardNo: Number(r.start_card_no),
    endCardNo: Number(r.end_card_no),
    maxCardNo: Number(r.max_card_no),
    code: r.code,
    faceValueCents: Number(r.face_value_cents),
    masterSetId: r.master_set_id,
    cardCount: Number(r.card_count),
    nextCardNo: Number(r.next_card_no),
  }
}

export async function sessionById(tx: Sql, sessionId: string): Promise<Session | undefined> {
  const row = await tx.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [sessionId])
  return row && toSession(row)
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

export async function gameById(tx: Sql, gameId: string): Promise<Game | undefined> {
  const game = await tx.get<GameRow>('SELECT * FROM games WHERE id = ?', [gameId])
  return game && toGame(game)
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
  touchRows(tx, 'games', [g.id])
}

export async function gameSeries(tx: Sql, gameId: string): Promise<GameSeries[]> {
  const rows = await tx.all<GameSeriesRow>(
    `SELECT gs.*, s.code, s.face_value_cents, s.master_set_id, s.card_count, s.next_card_no FROM game_series gs JOIN series s ON s.id = gs.series_id WHERE gs.game_id = ? ORDER BY gs.position`,
    [gameId],
  )
  return rows.map(toGameSeries)
}

/**
 * Issue 24 point 1: the game a sale prices from and the series it sells, each read once with its seal
 * (`seal_seq`, `seal_mac`) for the sale's price check (assertReadRowsSealed): `sealed` holds the sealed columns
 * under their own names. undefined: no such game. `read`: the game's row as the caller read it in this transaction,
 * with its seal beside it (a kiosk sale reads it once for its checks and its price), instead of reading it again.
 */
export async function gameForSale(
  tx: Sql,
  gameId: string,
  /** The game's row with its seal, read by the caller in this transaction; read here when absent or without its seal. */
  read?: GameRow & { seal_seq?: unknown; seal_mac?: unknown },
): Promise<
  | {
      game: Game
      sealed: Record<string, unknown>
      series: Array<{ series: GameSeries; sealed: Record<string, unknown> }>
    }
  | undefined
> {
  const row =
    read?.id === gameId && 'seal_seq' in read && 'seal_mac' in read
      ? read
      : await tx.get<GameRow & { seal_seq: unknown; seal_mac: unknown }>(
          `SELECT g.*, rs.journal_seq AS seal_seq, rs.mac AS seal_mac FROM games g LEFT JOIN row_seals rs ON rs.tbl = 'games' AND rs.row_id = g.id WHERE g.id = ?`,
          [gameId],
        )
  if (!row) return undefined
  const rows = await tx.all<
    GameSeriesRow & { series_hall_id: string; series_created_at: string; seal_seq: unknown; seal_mac: unknown }
  >(
    `SELECT gs.*, s.code, s.face_value_cents, s.master_set_id, s.card_count, s.next_card_no, s.hall_id AS series_hall_id, s.created_at AS series_created_at, rs.journal_seq AS seal_seq, rs.mac AS seal_mac FROM game_series gs JOIN series s ON s.id = gs.series_id LEFT JOIN row_seals rs ON rs.tbl = 'series' AND rs.row_id = s.id WHERE gs.game_id = ? ORDER BY gs.position`,
    [gameId],
  )
  return {
    game: toGame(row),
    sealed: row as unknown as Record<string, unknown>,
    series: rows.map((r) => ({
      series: toGameSeries(r),
      sealed: {
        id: r.series_id,
        hall_id: r.series_hall_id,
        code: r.code,
        master_set_id: r.master_set_id,
        card_count: r.card_count,
        face_value_cents: r.face_value_cents,
        created_at: r.series_created_at,
        seal_seq: r.seal_seq,
        seal_mac: r.seal_mac,
      },
    })),
  }
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

/** The game of a session with this order number. */
export async function gameIdByOrder(tx: Sql, sessionId: string, orderNo: number): Promise<string | undefined> {
  return (
    await tx.get<{ id: string }>('SELECT id FROM games WHERE session_id = ? AND order_no = ?', [sessionId, orderNo])
  )?.id
}

/** BNG-73: records the Jefe de Mesa's signature of a game's closing entry, once; false when already signed. */
export async function markGameClosingSigned(tx: Sql, gameId: string, at: string, by: string): Promise<boolean> {
  const r = await tx.run(
    'UPDATE games SET closing_signed_at = ?, closing_signed_by = ? WHERE id = ? AND closing_signed_at IS NULL',
    [at, by, gameId],
  )
  return r.changes === 1
}
