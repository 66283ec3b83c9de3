/**
 * The cash desk's SQL, and only that: vouchers, cash movements, AML records, kiosk purchases, card payouts, blocked
 * tickets, and what the cashier reads of halls, games, series, cards and prizes. Each function takes the caller's
 * transaction or connection first and returns plain objects.
 */
import type { Database, Sql } from '../db/database.ts'
import type { GameRow } from '../bingo/service.ts'
import { SEALED_TABLES, touchRows, touchSpentVoucher, touchWrittenRows } from '../shared/row-seals.ts'

/** A `vouchers` row as stored (PostgreSQL returns its BIGINT columns as text). */
interface VoucherRow {
  id: string
  hall_id: string
  currency: string
  amount_cents: number | string
  status: 'active' | 'spent'
  origin: 'cashier' | 'change'
  parent_id: string | null
  station_id: string
  issued_by: string
  issued_at: string
  expires_at: string
  small_cents: number | string
  other_cents: number | string
  buyer_document: string | null
  short_code: string | null
  spent_at: string | null
  spent_station: string | null
  spent_for: 'purchase' | 'cashout' | null
  spent_ref: string | null
}

/** A credit voucher as the use cases read it. */
export interface Voucher {
  id: string
  hallId: string
  currency: string
  amountCents: number
  status: 'active' | 'spent'
  origin: 'cashier' | 'change'
  parentId: string | null
  stationId: string
  issuedBy: string
  issuedAt: string
  expiresAt: string
  smallCents: number
  otherCents: number
  buyerDocument: string | null
  /** null as read (issue 24 point 2: only its keyed hash is kept); set in memory by the issuing sale. */
  shortCode: string | null
  spentAt: string | null
  spentStation: string | null
  spentFor: 'purchase' | 'cashout' | null
  spentRef: string | null
}

/** A `cash_movements` row as stored (PostgreSQL returns its BIGINT as text). */
interface CashMovementRow {
  id: string
  hall_id: string
  at: string
  kind: string
  amount_cents: number | string
  currency: string
  ref_id: string
  cashier_id: string
  station_id: string
  shift_id: string | null
  product: string | null
}

/** A movement of cash into (positive) or out of (negative) a drawer, as the use cases read it. */
export interface CashMovement {
  id: string
  hallId: string
  at: string
  kind: string
  amountCents: number
  currency: string
  refId: string
  cashierId: string
  stationId: string
  shiftId: string | null
  product: string | null
}

/** The one mapping of a `cash_movements` row. */
function toCashMovement(r: CashMovementRow): CashMovement {
  return {
    id: r.id,
    hallId: r.hall_id,
    at: r.at,
    kind: r.kind,
    amountCents: Number(r.amount_cents),
    currency: r.currency,
    refId: r.ref_id,
    cashierId: r.cashier_id,
    stationId: r.station_id,
    shiftId: r.shift_id ?? null,
    product: r.product ?? null,
  }
}

/** A card with its game, series and hall, as stored (PostgreSQL may return BIGINT columns as text). */
interface CardJoinRow {
  id: string
  serial: string
  card_no: number | string
  numbers: string
  card_status: string
  game_id: string
  series_code: string
  order_no: number | string
  game_status: string
  finished_at: string | null
  void_reason: string | null
  session_id: string
  hall_id: string
  face_value_cents: number | string
  hall_name: string
  currency: string
  layout: string
  /** The hall whose series the card is from: the game's, or in a simultaneous game the hall that sold it (BNG-100). */
  card_hall_id: string
  card_hall_name: string
}

/** A card with its game, series and hall, as the payout and refund use cases read it. */
export interface CardJoin {
  id: string
  serial: string
  cardNo: number
  numbers: string
  cardStatus: string
  gameId: string
  seriesCode: string
  orderNo: number
  gameStatus: string
  finishedAt: string | null
  voidReason: string | null
  sessionId: string
  hallId: string
  faceValueCents: number
  hallName: string
  currency: string
  layout: string
  /** The hall whose series the card is from: the game's, or in a simultaneous game the hall that sold it (BNG-100). */
  cardHallId: string
  /** That hall's name: the hall the card was sold in (BNG-100: not the host's in an interconnected game). */
  cardHallName: string
}

/** The one mapping of a card joined to its game, series and hall. */
function toCardJoin(r: CardJoinRow): CardJoin {
  return {
    id: r.id,
    serial: r.serial,
    cardNo: Number(r.card_no),
    numbers: r.numbers,
    cardStatus: r.card_status,
    gameId: r.game_id,
    seriesCode: r.series_code,
    orderNo: Number(r.order_no),
    gameStatus: r.game_status,
    finishedAt: r.finished_at,
    voidReason: r.void_reason,
    sessionId: r.session_id,
    hallId: r.hall_id,
    faceValueCents: Number(r.face_value_cents),
    hallName: r.hall_name,
    currency: r.currency,
    layout: r.layout,
    cardHallId: r.card_hall_id,
    cardHallName: r.card_hall_name,
  }
}
export interface PrizeRow {
  id: string
  kind: string
  amount_cents: number
  status: string
  paid_at: string | null
  paid_by: string | null
}
export interface PayoutRow {
  id: string
  card_id: string
  game_id: string
  hall_id: string
  amount_cents: number
  currency: string
  prize_ids: string
  station_id: string
  cashier_id: string
  payee_name: string | null
  payee_document: string | null
  paid_at: string
  /** BNG-70 (migration 0056): null on payouts made before it, which were all in cash. */
  payment_method: 'cash' | 'cheque' | 'terminal' | null
  cheque_number: string | null
}
/** A card's prima, pot or lucky-ball prize as the cash desk reads it (`kind` is its source). */
export interface BonusLineRow extends PrizeRow {
  name: string
  accumulated_games: number | null
}

export interface PrizeRegisterJoin {
  prize_id: string
  kind: string
  amount_cents: number
  paid_at: string
  paid_by: string | null
  card_id: string
  serial: string
  game_id: string
  order_no: number
  session_id: string
  hall_id: string
  hall_name: string
  currency: string
  payout_id: string | null
  station_id: string | null
  cashier_id: string | null
  payee_name: string | null
  payee_document: string | null
  /** The payout's prize ids (JSON): a prize is that payout's when its id is among them. */
  prize_ids: string | null
  /** A bonus prize's own record of its payee (paid before issue 23 by its id); null for line and bingo prizes. */
  own_payee_name: string | null
  own_payee_document: string | null
}

export interface SeriesOfGameRow {
  code: string
  position: number
  card_count: number
  next_card_no: number
  max_card_no: number
}

/** The one mapping of a `vouchers` row (PostgreSQL returns BIGINT columns as strings). */
function toVoucher(r: VoucherRow): Voucher {
  return {
    id: r.id,
    hallId: r.hall_id,
    currency: r.currency,
    amountCents: Number(r.amount_cents),
    status: r.status,
    origin: r.origin,
    parentId: r.parent_id,
    stationId: r.station_id,
    issuedBy: r.issued_by,
    issuedAt: r.issued_at,
    expiresAt: r.expires_at,
    smallCents: Number(r.small_cents),
    otherCents: Number(r.other_cents),
    buyerDocument: r.buyer_document,
    shortCode: r.short_code ?? null,
    spentAt: r.spent_at,
    spentStation: r.spent_station,
    spentFor: r.spent_for,
    spentRef: r.spent_ref,
  }
}

// ------------------------------------------------------------------------------------------------ halls, games, series

export async function hallById(
  tx: Sql,
  hallId: string,
): Promise<{ id: string; name: string; currency: string; profile_id: string; settings: string } | undefined> {
  return tx.get<{ id: string; name: string; currency: string; profile_id: string; settings: string }>(
    'SELECT id, name, currency, profile_id, settings FROM halls WHERE id = ?',
    [hallId],
  )
}

/** The hall of an enrolled station, if it has one. */
export async function hallOfStation(tx: Sql, stationId: string): Promise<string | null | undefined> {
  const station = await tx.get<{ hall_id: string | null }>('SELECT hall_id FROM device_credentials WHERE id = ?', [
    stationId,
  ])
  return station?.hall_id
}

/**
 * Issue 29 point 6: the name a person reads for a station (an enrolled device's name, "Caja 1"), never its id. A
 * station id that names no enrolled device (a legacy or test label such as "caja-1") is shown as it is.
 */
export async function stationNameOf(tx: Sql, stationId: string): Promise<string> {
  const row = await tx.get<{ name: string }>(
    'SELECT name FROM device_credentials WHERE id = ? UNION ALL SELECT name FROM devices WHERE id = ?',
    [stationId, stationId],
  )
  return row?.name ?? stationId
}

/** A person's full name for paper and screens (issue 29 point 6); a name already (not a user id) is kept. */
export async function personNameOf(tx: Sql, userId: string): Promise<string> {
  const row = await tx.get<{ display_name: string }>('SELECT display_name FROM users WHERE id = ?', [userId])
  return row?.display_name ?? userId
}

/**
 * The receipt number printed on a prize payout: its place among the hall's payouts in the order they were paid
 * (issue 29 point 6), so a cashier and a player read "N.º 12", not a record id. Payouts are only ever added.
 */
export async function payoutNoOf(tx: Sql, payoutId: string): Promise<number | null> {
  const row = await tx.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM payouts p, payouts me
      WHERE me.id = ? AND p.hall_id = me.hall_id AND (p.paid_at < me.paid_at OR (p.paid_at = me.paid_at AND p.id <= me.id))`,
    [payoutId],
  )
  return row && Number(row.n) > 0 ? Number(row.n) : null
}

export { sessionNoOf } from '../bingo/store/games.ts'

/**
 * What a cash movement's reference column says to a person (issue 29 point 6): the cards' serials of a sale, the
 * slip's receipt number, the instant ticket's serial, the payout's receipt number, the refunded card's serial. A
 * voucher has no public name (its short code is its bearer secret), so its movement names none.
 */
export async function movementRefLabel(tx: Sql, m: { id: string; kind: string; refId: string }): Promise<string> {
  if (m.kind === 'prize_payout') {
    const no = await payoutNoOf(tx, m.refId)
    return no ? `N.º ${no}` : ''
  }
  if (m.kind === 'refund') {
    const r = await tx.get<{ serial: string | null }>(
      'SELECT c.serial FROM refunds r LEFT JOIN cards c ON c.id = r.ticket_id WHERE r.id = ?',
      [m.refId],
    )
    return r?.serial ?? ''
  }
  if (m.kind.startsWith('voucher')) return ''
  const items = await tx.all<{ product: string; ref_id: string; serial: string | null }>(
    `SELECT sp.product, sp.ref_id, c.serial FROM sale_payments sp LEFT JOIN cards c ON sp.product = 'card' AND c.id = sp.ref_id
      WHERE sp.payment_ref = ? ORDER BY c.serial, sp.ref_id`,
    [m.id],
  )
  const names = items.map((i) => (i.product === 'card' ? (i.serial ?? '') : i.ref_id)).filter(Boolean)
  if (names.length <= 2) return names.join(', ')
  return `${names[0]} … ${names.at(-1)} (${names.length})`
}

/** The newest game of the hall in a session that is not closed. */
export async function currentGameOfHall(tx: Sql, hallId: string): Promise<GameRow | undefined> {
  return tx.get<GameRow>(
    "SELECT g.* FROM games g JOIN sessions s ON s.id = g.session_id WHERE g.hall_id = ? AND s.status <> 'closed' ORDER BY g.created_at DESC LIMIT 1",
    [hallId],
  )
}

/**
 * A game's row with its own seal (`seal_seq`, `seal_mac`) and its own bet limits (CFG-7) with theirs: a card sale's
 * admission and its price check (bingo sellWithin `gameRow`) read all from one statement.
 */
export async function gameById(tx: Sql, gameId: string): Promise<GameRow | undefined> {
  return tx.get<GameRow>(
    `SELECT g.*, gs.journal_seq AS seal_seq, gs.mac AS seal_mac,
            l.game_id AS sl_game_id, l.limits AS sl_limits, l.authorisation_ref AS sl_authorisation_ref,
            l.set_at AS sl_set_at, l.set_by AS sl_set_by, s.journal_seq AS sl_seal_seq, s.mac AS sl_seal_mac
       FROM games g
       LEFT JOIN row_seals gs ON gs.tbl = 'games' AND gs.row_id = g.id
       LEFT JOIN game_sale_limits l ON l.game_id = g.id
       LEFT JOIN row_seals s ON s.tbl = 'game_sale_limits' AND s.row_id = g.id
      WHERE g.id = ?`,
    [gameId],
  )
}

/**
 * {@link gameById} with the game row's own seal beside it (`seal_seq`, `seal_mac`): a kiosk card sale reads its game
 * once for its checks, its admission and the price check of the sale itself (bingo gameForSale). In the same
 * statement (issue 23 point 5: each is a round trip under the hall's lock on PostgreSQL), what the sale's other
 * checks and its paper would each read on their own: the hall's closure (BNG-65), whether the game is simultaneous
 * (BNG-100) and the session's number among the hall's (issue 29 point 6).
 */
export async function gameWithSealsById(tx: Sql, gameId: string): Promise<GameRow | undefined> {
  return tx.get<GameRow>(
    `SELECT g.*, l.game_id AS sl_game_id, l.limits AS sl_limits, l.authorisation_ref AS sl_authorisation_ref,
            l.set_at AS sl_set_at, l.set_by AS sl_set_by, s.journal_seq AS sl_seal_seq, s.mac AS sl_seal_mac,
            rg.journal_seq AS seal_seq, rg.mac AS seal_mac,
            hc.hall_id AS hc_hall_id, hc.closed_at AS hc_closed_at,
            th.profile_id AS tt_profile_id, th.settings AS tt_settings, tt.hall_id AS tt_hall_id,
            tt.reference AS tt_reference, tt.terms AS tt_terms, tt.set_at AS tt_set_at, tt.set_by AS tt_set_by,
            (SELECT COUNT(*) FROM game_halls gh WHERE gh.game_id = g.id) AS game_hall_count,
            (SELECT COUNT(*) FROM sessions sa, sessions me
              WHERE me.id = g.session_id AND sa.hall_id = me.hall_id
                AND (sa.opened_at < me.opened_at OR (sa.opened_at = me.opened_at AND sa.id <= me.id))) AS session_no
       FROM games g
       LEFT JOIN game_sale_limits l ON l.game_id = g.id
       LEFT JOIN row_seals s ON s.tbl = 'game_sale_limits' AND s.row_id = g.id
       LEFT JOIN row_seals rg ON rg.tbl = 'games' AND rg.row_id = g.id
       LEFT JOIN hall_closures hc ON hc.hall_id = g.hall_id
       LEFT JOIN halls th ON th.id = g.hall_id
       LEFT JOIN terminal_terms tt ON tt.hall_id = g.hall_id
      WHERE g.id = ?`,
    [gameId],
  )
}

export async function seriesOfGame(tx: Sql, gameId: string): Promise<SeriesOfGameRow[]> {
  return tx.all<SeriesOfGameRow>(
    'SELECT s.code, gs.position, s.card_count, s.next_card_no, gs.max_card_no FROM game_series gs JOIN series s ON s.id = gs.series_id WHERE gs.game_id = ? ORDER BY gs.position',
    [gameId],
  )
}

// ------------------------------------------------------------------------------------------------ vouchers

export async function voucherById(tx: Sql, voucherId: string): Promise<Voucher | undefined> {
  const row = await tx.get<VoucherRow>('SELECT * FROM vouchers WHERE id = ?', [voucherId])
  return row && toVoucher(row)
}

/**
 * A voucher with its seal beside it (`seal`: the sealed columns under their own names, `seal_seq`, `seal_mac`), for
 * the check of the voucher about to be spent without a second read (issue 24 point 1); and `journalSeq`, the
 * journal's latest record that sealed it as spent (null: none), found in the same statement through the partial
 * index of migration 0590 (one probe, never a scan of the hall's records), against a row put back from a copy.
 */
export async function voucherWithSealById(
  tx: Sql,
  voucherId: string,
): Promise<{ voucher: Voucher; sealed: Record<string, unknown>; journalSeq: number | null } | undefined> {
  const row = await tx.get<VoucherRow & { seal_seq: unknown; seal_mac: unknown; spent_journal_seq: unknown }>(
    `SELECT v.*, rs.journal_seq AS seal_seq, rs.mac AS seal_mac, (SELECT MAX(j.seq) FROM journal j WHERE j.voucher_id = v.id) AS spent_journal_seq FROM vouchers v LEFT JOIN row_seals rs ON rs.tbl = 'vouchers' AND rs.row_id = v.id WHERE v.id = ?`,
    [voucherId],
  )
  return (
    row && {
      voucher: toVoucher(row),
      sealed: row as unknown as Record<string, unknown>,
      journalSeq:
        row.spent_journal_seq === null || row.spent_journal_seq === undefined ? null : Number(row.spent_journal_seq),
    }
  )
}

export async function insertVoucher(
  tx: Sql,
  v: {
    id: string
    hallId: string
    currency: string
    amountCents: number
    origin: 'cashier' | 'change'
    parentId: string | null
    stationId: string
    issuedBy: string
    issuedAt: string
    expiresAt: string
    smallCents: number
    otherCents: number
    buyerDocument: string | null
    shortCodeHash: string
  },
): Promise<void> {
  // Issue 24 point 2: the short code itself is never stored, only its keyed hash.
  await tx.run(
    'INSERT INTO vouchers (id, hall_id, currency, amount_cents, status, origin, parent_id, station_id, issued_by, issued_at, expires_at, small_cents, other_cents, buyer_document, short_code_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      v.id,
      v.hallId,
      v.currency,
      v.amountCents,
      'active',
      v.origin,
      v.parentId,
      v.stationId,
      v.issuedBy,
      v.issuedAt,
      v.expiresAt,
      v.smallCents,
      v.otherCents,
      v.buyerDocument,
      v.shortCodeHash,
    ],
  )
  touchRows(tx, 'vouchers', [v.id])
}

/** Issue 13: the voucher typed at a kiosk by its short code, found by the code's keyed hash (issue 24 point 2). */
export async function voucherIdByShortCodeHash(tx: Sql, shortCodeHash: string): Promise<string | undefined> {
  return (await tx.get<{ id: string }>('SELECT id FROM vouchers WHERE short_code_hash = ?', [shortCodeHash]))?.id
}

/** Vouchers written before issue 24 with their short code in clear (hashed once at startup). */
export function vouchersWithClearShortCode(tx: Sql, limit: number): Promise<Array<{ id: string; short_code: string }>> {
  return tx.all<{ id: string; short_code: string }>(
    'SELECT id, short_code FROM vouchers WHERE short_code IS NOT NULL ORDER BY id LIMIT ?',
    [limit],
  )
}

export async function replaceShortCodeByHash(tx: Sql, id: string, shortCodeHash: string): Promise<void> {
  await tx.run('UPDATE vouchers SET short_code_hash = ?, short_code = NULL WHERE id = ?', [shortCodeHash, id])
}

/** SQLite: freed bytes overwritten from now on in this connection, so emptied values do not linger in the file. */
export async function eraseFreedBytes(db: Database): Promise<void> {
  if (db.engine === 'sqlite') await db.run('PRAGMA secure_delete = ON')
}

/** SQLite: the WAL copied into the database file and emptied (it may hold pages written before an erase). */
export async function checkpointWal(db: Database): Promise<void> {
  if (db.engine === 'sqlite') await db.run('PRAGMA wal_checkpoint(TRUNCATE)')
}

/** Issue 13: the payment an item (card, slip, instant ticket) was sold against, in the sale's transaction. */
export async function insertSalePayment(
  tx: Sql,
  p: {
    id: string
    hallId: string
    stationId: string
    soldBy: string
    product: 'card' | 'slip' | 'instant' | 'raffle'
    refId: string
    amountCents: number
    currency: string
    paidBy: 'voucher' | 'cash' | 'terminal'
    paymentRef: string
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO sale_payments (id, hall_id, station_id, sold_by, product, ref_id, amount_cents, currency, paid_by, payment_ref, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      p.id,
      p.hallId,
      p.stationId,
      p.soldBy,
      p.product,
      p.refId,
      p.amountCents,
      p.currency,
      p.paidBy,
      p.paymentRef,
      p.at,
    ],
  )
  // Sealed from the values just written (no read back): every sealed column is in the INSERT.
  touchWrittenRows(tx, 'sale_payments', [
    {
      id: p.id,
      hall_id: p.hallId,
      station_id: p.stationId,
      sold_by: p.soldBy,
      product: p.product,
      ref_id: p.refId,
      amount_cents: p.amountCents,
      currency: p.currency,
      paid_by: p.paidBy,
      payment_ref: p.paymentRef,
      at: p.at,
    },
  ])
}

/** Issue 13: the payments recorded against one voucher or cash movement. */
export async function salePaymentsOf(
  tx: Sql,
  paymentRef: string,
): Promise<Array<{ product: string; ref_id: string; amount_cents: number; paid_by: string }>> {
  return (
    await tx.all<{ product: string; ref_id: string; amount_cents: number; paid_by: string }>(
      'SELECT product, ref_id, amount_cents, paid_by FROM sale_payments WHERE payment_ref = ? ORDER BY product, ref_id',
      [paymentRef],
    )
  ).map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }))
}

const VOUCHER_SEALED_COLUMNS = SEALED_TABLES.vouchers.join(', ')

/** Active to spent; the number of rows changed (0: spent at the same moment elsewhere). */
export async function markVoucherSpentRow(
  tx: Sql,
  voucherId: string,
  spend: { at: string; station: string; for: 'purchase' | 'cashout'; ref: string },
): Promise<number> {
  // RETURNING the sealed columns as stored: the row is sealed from them, without a read of its own.
  const rows = await tx.all(
    `UPDATE vouchers SET status = 'spent', spent_at = ?, spent_station = ?, spent_for = ?, spent_ref = ? WHERE id = ? AND status = 'active' RETURNING ${VOUCHER_SEALED_COLUMNS}`,
    [spend.at, spend.station, spend.for, spend.ref, voucherId],
  )
  if (rows.length > 0) {
    touchWrittenRows(tx, 'vouchers', rows)
    // GEN-13: the record sealing the spent row names the voucher (journal.voucher_id), for the next spend's check.
    touchSpentVoucher(tx, voucherId)
  } else touchRows(tx, 'vouchers', [voucherId])
  return rows.length
}

// ------------------------------------------------------------------------------------------------ cash intakes (GEN-17)

/** A cash intake at a drawer with its denominations (null when not counted) and the buyer when recorded. */
export async function insertCashIntake(
  tx: Sql,
  i: {
    id: string
    hallId: string
    stationId: string
    cashierId: string
    source: 'voucher' | 'counter_sale'
    refId: string
    amountCents: number
    currency: string
    smallCents: number | null
    otherCents: number | null
    buyerDocument: string | null
    buyerKey: string | null
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO cash_intakes (id, hall_id, station_id, cashier_id, source, ref_id, amount_cents, currency, counted, small_cents, other_cents, buyer_document, buyer_key, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      i.id,
      i.hallId,
      i.stationId,
      i.cashierId,
      i.source,
      i.refId,
      i.amountCents,
      i.currency,
      i.smallCents === null ? 0 : 1,
      i.smallCents,
      i.otherCents,
      i.buyerDocument,
      i.buyerKey,
      i.at,
    ],
  )
  touchRows(tx, 'cash_intakes', [i.id])
}

/**
 * Small-denomination cash of one person (their identity key) in a hall in [from, to): voucher sales and counter
 * sales alike; an intake whose notes were not counted counts whole (GEN-17 is never under-counted).
 */
export async function smallCashOfBuyer(
  tx: Sql,
  buyerKey: string,
  hallId: string,
  from: string,
  to: string,
): Promise<number> {
  const r = await tx.get<{ s: number | null }>(
    'SELECT SUM(COALESCE(small_cents, amount_cents)) AS s FROM cash_intakes WHERE buyer_key = ? AND hall_id = ? AND at >= ? AND at < ?',
    [buyerKey, hallId, from, to],
  )
  return Number(r?.s ?? 0)
}

export interface CashIntakeRow {
  id: string
  hall_id: string
  station_id: string
  cashier_id: string
  source: 'voucher' | 'counter_sale'
  ref_id: string
  amount_cents: number
  currency: string
  counted: number
  small_cents: number | null
  other_cents: number | null
  buyer_document: string | null
  buyer_key: string | null
  at: string
}

/** One person's cash intakes (their identity key) in [from, to), in a hall or in all, in time order. */
export async function cashIntakesOfBuyer(
  tx: Sql,
  buyerKey: string,
  hallId: string | null,
  from: string,
  to: string,
): Promise<CashIntakeRow[]> {
  return hallId
    ? tx.all<CashIntakeRow>(
        'SELECT * FROM cash_intakes WHERE buyer_key = ? AND hall_id = ? AND at >= ? AND at < ? ORDER BY at, id',
        [buyerKey, hallId, from, to],
      )
    : tx.all<CashIntakeRow>('SELECT * FROM cash_intakes WHERE buyer_key = ? AND at >= ? AND at < ? ORDER BY at, id', [
        buyerKey,
        from,
        to,
      ])
}

// ------------------------------------------------------------------------------------------------ cash movements

export async function insertCashMovement(
  tx: Sql,
  m: {
    id: string
    hallId: string
    stationId: string
    cashierId: string
    kind: string
    amountCents: number
    currency: string
    refId: string
    at: string
    shiftId?: string | null
    product?: string | null
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO cash_movements (id, hall_id, station_id, cashier_id, kind, amount_cents, currency, ref_id, at, shift_id, product) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      m.id,
      m.hallId,
      m.stationId,
      m.cashierId,
      m.kind,
      m.amountCents,
      m.currency,
      m.refId,
      m.at,
      m.shiftId ?? null,
      m.product ?? null,
    ],
  )
  touchRows(tx, 'cash_movements', [m.id])
}

/** A station's movements in [from, to), in time order. */
export async function cashMovementsOfStation(
  tx: Sql,
  stationId: string,
  from: string,
  to: string,
): Promise<CashMovement[]> {
  const rows = await tx.all<CashMovementRow>(
    'SELECT * FROM cash_movements WHERE station_id = ? AND at >= ? AND at < ? ORDER BY at, id',
    [stationId, from, to],
  )
  return rows.map(toCashMovement)
}

// ------------------------------------------------------------------------------------------------ AML records (GEN-17)

export async function insertAmlReport(
  tx: Sql,
  r: {
    id: string
    hallId: string
    stationId: string
    cashierId: string
    voucherId: string
    buyerDocument: string | null
    buyerKey: string | null
    intakeId: string
    amountCents: number
    smallCents: number
    windowSmallCents: number
    limitCents: number
    thresholdCents: number
    shareBp: number
    createdAt: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO aml_reports (id, hall_id, station_id, cashier_id, voucher_id, buyer_document, buyer_key, intake_id, amount_cents, small_cents, window_small_cents, limit_cents, threshold_cents, share_bp, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      r.id,
      r.hallId,
      r.stationId,
      r.cashierId,
      r.voucherId,
      r.buyerDocument,
      r.buyerKey,
      r.intakeId,
      r.amountCents,
      r.smallCents,
      r.windowSmallCents,
      r.limitCents,
      r.thresholdCents,
      r.shareBp,
      'open',
      r.createdAt,
    ],
  )
  touchRows(tx, 'aml_reports', [r.id])
}

/** An AML record with the intake it was opened on (a voucher or a counter sale). */
const AML_SELECT =
  'SELECT r.*, i.source AS intake_source, i.ref_id AS intake_ref FROM aml_reports r LEFT JOIN cash_intakes i ON i.id = r.intake_id'

/** AML records, newest first, optionally of one status. */
export async function amlReportRows(tx: Sql, status?: string): Promise<Array<Record<string, unknown>>> {
  return status
    ? tx.all(`${AML_SELECT} WHERE r.status = ? ORDER BY r.created_at DESC`, [status])
    : tx.all(`${AML_SELECT} ORDER BY r.created_at DESC`)
}

export async function amlReportRow(tx: Sql, id: string): Promise<Record<string, unknown> | undefined> {
  return tx.get(`${AML_SELECT} WHERE r.id = ?`, [id])
}

/** Open to reviewed; the number of rows changed (0: reviewed already, or no such record). */
export async function reviewAmlReportRow(
  tx: Sql,
  id: string,
  review: { status: string; at: string; officer: string; note: string },
): Promise<number> {
  const changes = (
    await tx.run(
      "UPDATE aml_reports SET status = ?, reviewed_at = ?, reviewed_by = ?, review_note = ? WHERE id = ? AND status = 'open'",
      [review.status, review.at, review.officer, review.note, id],
    )
  ).changes
  if (changes > 0) touchRows(tx, 'aml_reports', [id])
  return changes
}

// ------------------------------------------------------------------------------------------------ kiosk purchases

export async function insertKioskPurchase(
  tx: Sql,
  p: {
    id: string
    kioskId: string
    hallId: string
    gameId: string
    voucherId: string
    changeVoucherId: string | null
    cardCount: number
    amountCents: number
    cardIds: string[]
    createdAt: string
  },
): Promise<void> {
  const cardIds = JSON.stringify(p.cardIds)
  await tx.run(
    'INSERT INTO kiosk_purchases (id, kiosk_id, hall_id, game_id, voucher_id, change_voucher_id, card_count, amount_cents, card_ids, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      p.id,
      p.kioskId,
      p.hallId,
      p.gameId,
      p.voucherId,
      p.changeVoucherId,
      p.cardCount,
      p.amountCents,
      cardIds,
      p.createdAt,
    ],
  )
  touchWrittenRows(tx, 'kiosk_purchases', [
    {
      id: p.id,
      kiosk_id: p.kioskId,
      hall_id: p.hallId,
      game_id: p.gameId,
      voucher_id: p.voucherId,
      change_voucher_id: p.changeVoucherId,
      card_count: p.cardCount,
      amount_cents: p.amountCents,
      card_ids: cardIds,
      created_at: p.createdAt,
    },
  ])
}

// ------------------------------------------------------------------------------------------------ cards, prizes, payouts

/** A sold card with its series, game and hall. */
export async function cardJoin(tx: Sql, cardId: string): Promise<CardJoin | undefined> {
  const r = await tx.get<CardJoinRow>(
    `SELECT c.id, c.serial, c.card_no, c.numbers, c.status AS card_status, c.game_id, s.code AS series_code, g.order_no, g.status AS game_status,
              g.finished_at, g.void_reason, g.session_id, g.hall_id, g.face_value_cents, g.layout, h.name AS hall_name, h.currency, s.hall_id AS card_hall_id,
              ch.name AS card_hall_name
       FROM cards c JOIN games g ON g.id = c.game_id JOIN series s ON s.id = c.series_id JOIN halls h ON h.id = g.hall_id
       JOIN halls ch ON ch.id = s.hall_id WHERE c.id = ?`,
    [cardId],
  )
  return r && toCardJoin(r)
}

export async function cardIdBySerial(tx: Sql, gameId: string, serial: string): Promise<string | undefined> {
  return (await tx.get<{ id: string }>('SELECT id FROM cards WHERE game_id = ? AND serial = ?', [gameId, serial]))?.id
}

export async function cardWithHall(
  tx: Sql,
  cardId: string,
): Promise<{ id: string; serial: string; hall_id: string } | undefined> {
  return tx.get<{ id: string; serial: string; hall_id: string }>(
    'SELECT c.id, c.serial, g.hall_id FROM cards c JOIN games g ON g.id = c.game_id WHERE c.id = ?',
    [cardId],
  )
}

export async function blockedTicket(
  tx: Sql,
  kind: string,
  ticketId: string,
): Promise<{ reason: string; note: string; created_at: string } | undefined> {
  return tx.get<{ reason: string; note: string; created_at: string }>(
    'SELECT reason, note, created_at FROM blocked_tickets WHERE kind = ? AND ticket_id = ?',
    [kind, ticketId],
  )
}

export async function insertBlockedTicket(
  tx: Sql,
  b: { kind: string; ticketId: string; reason: string; note: string; reportedBy: string; createdAt: string },
): Promise<void> {
  await tx.run(
    'INSERT INTO blocked_tickets (kind, ticket_id, reason, note, reported_by, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [b.kind, b.ticketId, b.reason, b.note, b.reportedBy, b.createdAt],
  )
}

/** A card's prizes awarded, paid or forfeited (BNG-91/92), the bingo before the line. */
export async function prizesOfCard(tx: Sql, cardId: string): Promise<PrizeRow[]> {
  return (
    await tx.all<PrizeRow>(
      "SELECT id, kind, amount_cents, status, paid_at, paid_by FROM prizes WHERE card_id = ? AND status IN ('awarded', 'paid', 'forfeited') ORDER BY kind DESC, id",
      [cardId],
    )
  ).map((p) => ({ ...p, amount_cents: Number(p.amount_cents) }))
}

/** A card's prima, pot and lucky-ball prizes awarded, paid or forfeited (void ones are the game's refund's business). */
export async function bonusPrizesOfCard(tx: Sql, cardId: string): Promise<BonusLineRow[]> {
  return (
    await tx.all<BonusLineRow>(
      "SELECT id, source AS kind, name, amount_cents, status, paid_at, paid_by, accumulated_games FROM bonus_prizes WHERE card_id = ? AND status IN ('awarded', 'paid', 'forfeited') ORDER BY source, id",
      [cardId],
    )
  ).map((p) => ({
    ...p,
    amount_cents: Number(p.amount_cents),
    accumulated_games: p.accumulated_games === null ? null : Number(p.accumulated_games),
  }))
}

/** A bingo prize's card and game (the table pays it only against that card's code). */
export async function prizeCardRow(
  tx: Sql,
  prizeId: string,
): Promise<{ id: string; card_id: string; game_id: string; status: string } | undefined> {
  return tx.get<{ id: string; card_id: string; game_id: string; status: string }>(
    'SELECT id, card_id, game_id, status FROM prizes WHERE id = ?',
    [prizeId],
  )
}

/** Line, bingo and bonus prizes by id (a payout's), line and bingo first. */
export async function prizesByIds(
  tx: Sql,
  ids: string[],
): Promise<Array<{ id: string; kind: string; amount_cents: number; name: string | null }>> {
  if (ids.length === 0) return []
  const marks = ids.map(() => '?').join(', ')
  const ordinary = await tx.all<{ id: string; kind: string; amount_cents: number; name: string | null }>(
    `SELECT id, kind, amount_cents, NULL AS name FROM prizes WHERE id IN (${marks}) ORDER BY kind DESC, id`,
    ids,
  )
  const bonus = await tx.all<{ id: string; kind: string; amount_cents: number; name: string | null }>(
    `SELECT id, source AS kind, amount_cents, name FROM bonus_prizes WHERE id IN (${marks}) ORDER BY source, id`,
    ids,
  )
  return [...ordinary, ...bonus]
}

/** Awarded prizes of the card among `ids` to paid; the number changed (fewer than ids: paid elsewhere meanwhile). */
export async function markPrizesPaid(
  tx: Sql,
  cardId: string,
  ids: string[],
  at: string,
  paidBy: string,
): Promise<number> {
  const changed = (
    await tx.run(
      `UPDATE prizes SET status = 'paid', paid_at = ?, paid_by = ? WHERE card_id = ? AND status = 'awarded' AND id IN (${ids.map(() => '?').join(', ')})`,
      [at, paidBy, cardId, ...ids],
    )
  ).changes
  touchRows(tx, 'prizes', ids)
  return changed
}

/** The card's latest payout (a virtual card credited its line in play and its bingo at the end has two, issue 27). */
export async function payoutOfCard(tx: Sql, cardId: string): Promise<PayoutRow | undefined> {
  return tx.get<PayoutRow>('SELECT * FROM payouts WHERE card_id = ? ORDER BY paid_at DESC, id DESC LIMIT 1', [cardId])
}

export async function insertPayout(
  tx: Sql,
  p: {
    id: string
    cardId: string
    gameId: string
    hallId: string
    amountCents: number
    currency: string
    prizeIds: string[]
    stationId: string
    cashierId: string
    payeeName: string | null
    payeeDocument: string | null
    paidAt: string
    paymentMethod: 'cash' | 'cheque' | 'terminal'
    chequeNumber: string | null
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO payouts (id, card_id, game_id, hall_id, amount_cents, currency, prize_ids, station_id, cashier_id, payee_name, payee_document, paid_at, payment_method, cheque_number) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      p.id,
      p.cardId,
      p.gameId,
      p.hallId,
      p.amountCents,
      p.currency,
      JSON.stringify(p.prizeIds),
      p.stationId,
      p.cashierId,
      p.payeeName,
      p.payeeDocument,
      p.paidAt,
      p.paymentMethod,
      p.chequeNumber,
    ],
  )
  touchRows(tx, 'payouts', [p.id])
}

/** A payout with its card's serial, game number, session and hall name. */
export async function payoutJoin(
  tx: Sql,
  payoutId: string,
): Promise<(PayoutRow & { serial: string; order_no: number; session_id: string; hall_name: string }) | undefined> {
  return tx.get<PayoutRow & { serial: string; order_no: number; session_id: string; hall_name: string }>(
    'SELECT po.*, c.serial, g.order_no, g.session_id, h.name AS hall_name FROM payouts po JOIN cards c ON c.id = po.card_id JOIN games g ON g.id = po.game_id JOIN halls h ON h.id = po.hall_id WHERE po.id = ?',
    [payoutId],
  )
}

/**
 * Every paid prize matching the filter, line and bingo prizes and bonus prizes (prima, pots, lucky ball) alike, with
 * its card, game, hall and the card's payout, in the order paid.
 */
export async function paidPrizeRows(
  tx: Sql,
  filter: { hallId?: string; sessionId?: string; gameId?: string; from?: string; to?: string },
): Promise<PrizeRegisterJoin[]> {
  const where: string[] = ["p.status = 'paid'"]
  const params: unknown[] = []
  if (filter.hallId) {
    where.push('g.hall_id = ?')
    params.push(filter.hallId)
  }
  if (filter.sessionId) {
    where.push('g.session_id = ?')
    params.push(filter.sessionId)
  }
  if (filter.gameId) {
    where.push('g.id = ?')
    params.push(filter.gameId)
  }
  if (filter.from) {
    where.push('p.paid_at >= ?')
    params.push(filter.from)
  }
  if (filter.to) {
    where.push('p.paid_at < ?')
    params.push(filter.to)
  }
  const common = `c.id AS card_id, c.serial AS serial, g.id AS game_id, g.order_no, g.session_id, g.hall_id,
              h.name AS hall_name, h.currency, po.id AS payout_id, po.station_id, po.cashier_id, po.payee_name, po.payee_document, po.prize_ids`
  const joins =
    'JOIN cards c ON c.id = p.card_id JOIN games g ON g.id = p.game_id JOIN halls h ON h.id = g.hall_id LEFT JOIN payouts po ON po.card_id = p.card_id'
  return tx.all<PrizeRegisterJoin>(
    `SELECT p.id AS prize_id, p.kind AS kind, p.amount_cents AS amount_cents, p.paid_at AS paid_at, p.paid_by AS paid_by, ${common}, NULL AS own_payee_name, NULL AS own_payee_document
       FROM prizes p ${joins} WHERE ${where.join(' AND ')}
     UNION ALL
     SELECT p.id AS prize_id, p.source AS kind, p.amount_cents AS amount_cents, p.paid_at AS paid_at, p.paid_by AS paid_by, ${common}, p.payee_name AS own_payee_name, p.payee_document AS own_payee_document
       FROM bonus_prizes p ${joins} WHERE ${where.join(' AND ')}
     ORDER BY paid_at, serial, kind DESC`,
    [...params, ...params],
  )
}

// ------------------------------------------------------------------------------------------------ shifts (issue 13 point 5)

/** A `cashier_shifts` row as stored (PostgreSQL returns its BIGINT columns as text). */
interface ShiftRow {
  id: string
  hall_id: string
  station_id: string
  station_name: string
  cashier_id: string
  cashier_name: string
  currency: string
  float_cents: number | string
  status: 'open' | 'closed'
  opened_at: string
  closed_at: string | null
  expected_cents: number | string | null
  counted_cents: number | string | null
  difference_cents: number | string | null
  close_note: string | null
}

/** A person's drawer at one station, as the use cases read it. */
export interface Shift {
  id: string
  hallId: string
  stationId: string
  stationName: string
  cashierId: string
  cashierName: string
  currency: string
  floatCents: number
  status: 'open' | 'closed'
  openedAt: string
  closedAt: string | null
  /** Set by the close (arqueo); null while open. */
  expectedCents: number | null
  countedCents: number | null
  differenceCents: number | null
  closeNote: string | null
}

/** The one mapping of a `cashier_shifts` row. */
function toShift(r: ShiftRow): Shift {
  const n = (x: number | string | null) => (x === null || x === undefined ? null : Number(x))
  return {
    id: r.id,
    hallId: r.hall_id,
    stationId: r.station_id,
    stationName: r.station_name,
    cashierId: r.cashier_id,
    cashierName: r.cashier_name,
    currency: r.currency,
    floatCents: Number(r.float_cents),
    status: r.status,
    openedAt: r.opened_at,
    closedAt: r.closed_at,
    expectedCents: n(r.expected_cents),
    countedCents: n(r.counted_cents),
    differenceCents: n(r.difference_cents),
    closeNote: r.close_note,
  }
}

export async function insertShift(
  tx: Sql,
  s: {
    id: string
    hallId: string
    stationId: string
    stationName: string
    cashierId: string
    cashierName: string
    currency: string
    floatCents: number
    openedAt: string
  },
): Promise<void> {
  await tx.run(
    "INSERT INTO cashier_shifts (id, hall_id, station_id, station_name, cashier_id, cashier_name, currency, float_cents, status, opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)",
    [s.id, s.hallId, s.stationId, s.stationName, s.cashierId, s.cashierName, s.currency, s.floatCents, s.openedAt],
  )
  touchRows(tx, 'cashier_shifts', [s.id])
}

export async function shiftById(tx: Sql, id: string): Promise<Shift | undefined> {
  const r = await tx.get<ShiftRow>('SELECT * FROM cashier_shifts WHERE id = ?', [id])
  return r && toShift(r)
}

/**
 * The shift's row, locked until the transaction ends (PostgreSQL `FOR UPDATE`; a SQLite transaction already holds
 * the one write lock): a movement into the shift and its close take it first, so they never interleave.
 */
export async function lockShift(tx: Sql, id: string): Promise<Shift | undefined> {
  const r = await tx.get<ShiftRow>('SELECT * FROM cashier_shifts WHERE id = ? FOR UPDATE', [id])
  return r && toShift(r)
}

/** The station's open shift, if any (at most one: partial UNIQUE index). */
export async function openShiftOfStation(tx: Sql, stationId: string): Promise<Shift | undefined> {
  const r = await tx.get<ShiftRow>("SELECT * FROM cashier_shifts WHERE station_id = ? AND status = 'open'", [stationId])
  return r && toShift(r)
}

/** Shifts of a station (or of every station), newest first. */
export async function shiftsOf(
  tx: Sql,
  filter: { stationId?: string; hallId?: string; limit: number },
): Promise<Shift[]> {
  const where: string[] = []
  const params: unknown[] = []
  if (filter.stationId) {
    where.push('station_id = ?')
    params.push(filter.stationId)
  }
  if (filter.hallId) {
    where.push('hall_id = ?')
    params.push(filter.hallId)
  }
  const rows = await tx.all<ShiftRow>(
    `SELECT * FROM cashier_shifts ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY opened_at DESC, id DESC LIMIT ${Math.max(1, Math.min(500, filter.limit))}`,
    params,
  )
  return rows.map(toShift)
}

/** Open to closed with the count; the number of rows changed (0: closed meanwhile). */
export async function closeShiftRow(
  tx: Sql,
  id: string,
  c: { at: string; expectedCents: number; countedCents: number; differenceCents: number; note: string | null },
): Promise<number> {
  const changed = (
    await tx.run(
      "UPDATE cashier_shifts SET status = 'closed', closed_at = ?, expected_cents = ?, counted_cents = ?, difference_cents = ?, close_note = ? WHERE id = ? AND status = 'open'",
      [c.at, c.expectedCents, c.countedCents, c.differenceCents, c.note, id],
    )
  ).changes
  touchRows(tx, 'cashier_shifts', [id])
  return changed
}

export async function cashMovementsOfShift(tx: Sql, shiftId: string): Promise<CashMovement[]> {
  const rows = await tx.all<CashMovementRow>('SELECT * FROM cash_movements WHERE shift_id = ? ORDER BY at, id', [
    shiftId,
  ])
  return rows.map(toCashMovement)
}

export async function sumOfShift(tx: Sql, shiftId: string): Promise<number> {
  const r = await tx.get<{ s: number | null }>('SELECT SUM(amount_cents) AS s FROM cash_movements WHERE shift_id = ?', [
    shiftId,
  ])
  return Number(r?.s ?? 0)
}

/** An enrolled device's kind, name and hall (the station identity of a drawer). */
export async function deviceRow(
  tx: Sql,
  id: string,
): Promise<{ id: string; kind: string; name: string; hallId: string | null; revokedAt: string | null } | undefined> {
  const r = await tx.get<{ id: string; kind: string; name: string; hall_id: string | null; revoked_at: string | null }>(
    'SELECT id, kind, name, hall_id, revoked_at FROM device_credentials WHERE id = ?',
    [id],
  )
  return r && { id: r.id, kind: r.kind, name: r.name, hallId: r.hall_id, revokedAt: r.revoked_at }
}

// ------------------------------------------------------------------------------------------------ refunds (issue 13 point 7)

export interface RefundRow {
  id: string
  product: string
  ticket_id: string
  hall_id: string | null
  game_ref: string
  amount_cents: number
  currency: string
  method: 'cash' | 'voucher'
  voucher_id: string | null
  station_id: string
  cashier_id: string
  shift_id: string | null
  approved_by: string | null
  approved_by_name: string | null
  reason: string
  refunded_at: string
}

export async function refundOfTicket(tx: Sql, product: string, ticketId: string): Promise<RefundRow | undefined> {
  const r = await tx.get<RefundRow>('SELECT * FROM refunds WHERE product = ? AND ticket_id = ?', [product, ticketId])
  return r && { ...r, amount_cents: Number(r.amount_cents) }
}

/**
 * The journal's records of type `types` under `scope` whose payload's `field` is one of `ids` (a card's refund, its
 * prizes paid): the journal remembers a settlement whose row was deleted from the tables. Read through the scope's
 * index (one game's records), never the whole journal.
 */
export async function journaledSettlements(
  tx: Sql,
  scope: string,
  types: readonly string[],
  field: string,
  ids: readonly string[],
): Promise<Array<{ seq: number; type: string; payload: Record<string, unknown> }>> {
  if (ids.length === 0) return []
  const wanted = new Set(ids)
  const rows = await tx.all<{ seq: number; type: string; payload: string }>(
    `SELECT seq, type, payload FROM journal WHERE scope = ? AND type IN (${types.map(() => '?').join(', ')}) ORDER BY seq`,
    [scope, ...types],
  )
  const out: Array<{ seq: number; type: string; payload: Record<string, unknown> }> = []
  for (const r of rows) {
    const payload = JSON.parse(r.payload) as Record<string, unknown>
    if (wanted.has(String(payload[field]))) out.push({ seq: Number(r.seq), type: r.type, payload })
  }
  return out
}

export async function insertRefund(
  tx: Sql,
  r: {
    id: string
    product: string
    ticketId: string
    hallId: string | null
    gameRef: string
    amountCents: number
    currency: string
    method: 'cash' | 'voucher'
    voucherId: string | null
    stationId: string
    cashierId: string
    shiftId: string | null
    approvedBy: string | null
    approvedByName: string | null
    reason: string
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO refunds (id, product, ticket_id, hall_id, game_ref, amount_cents, currency, method, voucher_id, station_id, cashier_id, shift_id, approved_by, approved_by_name, reason, refunded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      r.id,
      r.product,
      r.ticketId,
      r.hallId,
      r.gameRef,
      r.amountCents,
      r.currency,
      r.method,
      r.voucherId,
      r.stationId,
      r.cashierId,
      r.shiftId,
      r.approvedBy,
      r.approvedByName,
      r.reason,
      r.at,
    ],
  )
  touchRows(tx, 'refunds', [r.id])
}

/** Refunds of one game (bingo game id, lotto draw id, instant game number) for the minutes. */
export async function refundsOfGame(tx: Sql, product: string, gameRef: string): Promise<{ n: number; cents: number }> {
  const r = await tx.get<{ n: number; s: number | null }>(
    'SELECT COUNT(*) AS n, SUM(amount_cents) AS s FROM refunds WHERE product = ? AND game_ref = ?',
    [product, gameRef],
  )
  return { n: Number(r?.n ?? 0), cents: Number(r?.s ?? 0) }
}

/** A game as its table refunds read it: number, state, hall, price. */
export async function gameForRefunds(
  tx: Sql,
  gameId: string,
): Promise<
  { id: string; orderNo: number; status: string; hallId: string; faceValueCents: number; currency: string } | undefined
> {
  const r = await tx.get<{
    id: string
    order_no: number
    status: string
    hall_id: string
    face_value_cents: number
    currency: string
  }>(
    'SELECT g.id, g.order_no, g.status, g.hall_id, g.face_value_cents, h.currency FROM games g JOIN halls h ON h.id = g.hall_id WHERE g.id = ?',
    [gameId],
  )
  return (
    r && {
      id: r.id,
      orderNo: Number(r.order_no),
      status: r.status,
      hallId: r.hall_id,
      faceValueCents: Number(r.face_value_cents),
      currency: r.currency,
    }
  )
}

/** Issue 29 point 1: the cards of a game sold for cash at one station (the table's till), with their refund if any. */
export async function stationCardsOfGame(
  tx: Sql,
  gameId: string,
  stationId: string,
): Promise<
  Array<{
    cardId: string
    serial: string
    amountCents: number
    refund: { at: string; stationId: string; cashierId: string; method: string; amountCents: number } | null
  }>
> {
  const rows = await tx.all<{
    id: string
    serial: string
    amount_cents: number
    refunded_at: string | null
    station_id: string | null
    cashier_id: string | null
    method: string | null
    refund_cents: number | null
  }>(
    `SELECT c.id, c.serial, sp.amount_cents, r.refunded_at, r.station_id, r.cashier_id, r.method, r.amount_cents AS refund_cents
       FROM sale_payments sp JOIN cards c ON c.id = sp.ref_id
       LEFT JOIN refunds r ON r.product = 'card' AND r.ticket_id = c.id
      WHERE sp.product = 'card' AND sp.station_id = ? AND c.game_id = ?
      ORDER BY c.serial`,
    [stationId, gameId],
  )
  return rows.map((r) => ({
    cardId: r.id,
    serial: r.serial,
    amountCents: Number(r.amount_cents),
    refund:
      r.refunded_at === null
        ? null
        : {
            at: r.refunded_at,
            stationId: r.station_id ?? '',
            cashierId: r.cashier_id ?? '',
            method: r.method ?? 'cash',
            amountCents: Number(r.refund_cents ?? 0),
          },
  }))
}

/** Whether a card was bought at a kiosk with a voucher (its refund may go onto a new voucher). */
export async function kioskPurchaseOfCard(
  tx: Sql,
  gameId: string,
  cardId: string,
): Promise<{ id: string; kiosk_id: string; voucher_id: string } | undefined> {
  const rows = await tx.all<{ id: string; kiosk_id: string; voucher_id: string; card_ids: string }>(
    'SELECT id, kiosk_id, voucher_id, card_ids FROM kiosk_purchases WHERE game_id = ?',
    [gameId],
  )
  const hit = rows.find((r) => (JSON.parse(r.card_ids) as string[]).includes(cardId))
  return hit && { id: hit.id, kiosk_id: hit.kiosk_id, voucher_id: hit.voucher_id }
}

// ------------------------------------------------------------------------------------------------ AML hold (issue 13 point 8)

/** Open GEN-17 records on any of the given vouchers. */
export async function openAmlReportsOn(
  tx: Sql,
  voucherIds: string[],
): Promise<Array<{ id: string; voucher_id: string }>> {
  if (voucherIds.length === 0) return []
  return tx.all<{ id: string; voucher_id: string }>(
    `SELECT id, voucher_id FROM aml_reports WHERE status = 'open' AND voucher_id IN (${voucherIds.map(() => '?').join(', ')})`,
    voucherIds,
  )
}

/** Issue 14 point 6: lifts a block; false when the ticket was not blocked. */
export async function deleteBlockedTicket(tx: Sql, kind: string, ticketId: string): Promise<boolean> {
  return (await tx.run('DELETE FROM blocked_tickets WHERE kind = ? AND ticket_id = ?', [kind, ticketId])).changes === 1
}

/** Issue 18 (CFG-16): the voucher a change voucher was given from, to find the player's chain. */
export async function voucherParent(sql: Sql, voucherId: string): Promise<string | null | undefined> {
  return (await sql.get<{ parent_id: string | null }>('SELECT parent_id FROM vouchers WHERE id = ?', [voucherId]))
    ?.parent_id
}

/**
 * Issue 18 (BNG-85): the stored key of the person who bought a card, when the sale identified him by his document
 * (bingo/purchases.ts records `doc:<key>`); undefined for an anonymous buyer (a voucher chain's key) or none.
 */
export async function buyerKeyOfCard(sql: Sql, cardId: string): Promise<string | undefined> {
  const key = (await sql.get<{ player_key: string }>('SELECT player_key FROM player_cards WHERE card_id = ?', [cardId]))
    ?.player_key
  return key?.startsWith('doc:') ? key.slice(4) : undefined
}

// ---------------------------------------------------------------------------------------------- ticket prints

/** Issue 23 point 5: the paper a sale owes, until it is out (cashdesk/ticket-prints.ts). */
export interface TicketPrintRow {
  id: string
  hall_id: string
  station_id: string
  voucher_id: string | null
  status: string
  reprints: number
  items: string
  docs_sealed: string | null
  created_at: string
  updated_at: string
}

export async function insertTicketPrint(
  tx: Sql,
  p: {
    id: string
    hallId: string
    stationId: string
    voucherId: string | null
    items: string
    docsSealed: string
    at: string
  },
): Promise<void> {
  await tx.run(
    'INSERT INTO ticket_prints (id, hall_id, station_id, voucher_id, status, reprints, items, docs_sealed, failure, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, NULL, ?, ?)',
    [p.id, p.hallId, p.stationId, p.voucherId, 'printing', p.items, p.docsSealed, p.at, p.at],
  )
}

export async function ticketPrintById(tx: Sql, id: string): Promise<TicketPrintRow | undefined> {
  return tx.get<TicketPrintRow>('SELECT * FROM ticket_prints WHERE id = ?', [id])
}

/** The sales a voucher paid that owe (or owed) paper, newest first. */
export async function ticketPrintsOfVoucher(tx: Sql, voucherId: string): Promise<TicketPrintRow[]> {
  return tx.all<TicketPrintRow>('SELECT * FROM ticket_prints WHERE voucher_id = ? ORDER BY created_at DESC', [
    voucherId,
  ])
}

/** Moves a row from one status to another (and records why, or drops its sealed job); false if it had moved. */
export async function setTicketPrintStatus(
  tx: Sql,
  u: { id: string; from: string; to: string; at: string; failure?: string; dropDocs?: boolean },
): Promise<boolean> {
  const r =
    u.failure !== undefined
      ? await tx.run('UPDATE ticket_prints SET status = ?, failure = ?, updated_at = ? WHERE id = ? AND status = ?', [
          u.to,
          u.failure,
          u.at,
          u.id,
          u.from,
        ])
      : u.dropDocs
        ? await tx.run(
            'UPDATE ticket_prints SET status = ?, docs_sealed = NULL, updated_at = ? WHERE id = ? AND status = ?',
            [u.to, u.at, u.id, u.from],
          )
        : await tx.run('UPDATE ticket_prints SET status = ?, updated_at = ? WHERE id = ? AND status = ?', [
            u.to,
            u.at,
            u.id,
            u.from,
          ])
  return r.changes === 1
}

/** Counts one more reprint and takes the row for it; false when another station took it first. */
export async function claimTicketReprint(
  tx: Sql,
  c: { id: string; from: string; reprints: number; at: string },
): Promise<boolean> {
  const r = await tx.run(
    'UPDATE ticket_prints SET status = ?, reprints = ?, updated_at = ? WHERE id = ? AND status = ? AND reprints = ?',
    ['reprinting', c.reprints + 1, c.at, c.id, c.from, c.reprints],
  )
  return r.changes === 1
}

/** The printed sales, marked so and their sealed jobs dropped (a first print only). */
/** The hall of each of these sale print rows (a row's hall never changes). */
export async function hallsOfTicketPrints(
  db: Sql,
  ids: readonly string[],
): Promise<Array<{ id: string; hall_id: string }>> {
  if (ids.length === 0) return []
  return db.all<{ id: string; hall_id: string }>(
    `SELECT id, hall_id FROM ticket_prints WHERE id IN (${ids.map(() => '?').join(', ')})`,
    [...ids],
  )
}

export async function markTicketsPrinted(tx: Sql, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return
  await tx.run(
    `UPDATE ticket_prints SET status = 'printed', docs_sealed = NULL, updated_at = ? WHERE status = 'printing' AND id IN (${ids.map(() => '?').join(', ')})`,
    [at, ...ids],
  )
}

/** A hall's sales whose paper is not out (waiting for a reprint, or mid-print). */
export async function unprintedOfHall(tx: Sql, hallId: string): Promise<TicketPrintRow[]> {
  return tx.all<TicketPrintRow>(
    "SELECT * FROM ticket_prints WHERE hall_id = ? AND status IN ('pending', 'printing', 'reprinting') ORDER BY created_at",
    [hallId],
  )
}

/** Issue 29: a game's hall and number, for the cashier's lookup of a card by its serial. */
export async function gameOfLookup(
  tx: Sql,
  gameId: string,
): Promise<{ id: string; hallId: string; orderNo: number; status: string } | undefined> {
  const r = await tx.get<{ id: string; hall_id: string; order_no: number; status: string }>(
    'SELECT id, hall_id, order_no, status FROM games WHERE id = ?',
    [gameId],
  )
  return r && { id: r.id, hallId: r.hall_id, orderNo: Number(r.order_no), status: r.status }
}

export interface CardGameRow {
  gameId: string
  gameNo: number
  status: string
  sessionNo: number
  sessionOpenedAt: string
  createdAt: string
  finishedAt: string | null
  /** A simultaneous game (BNG-100) hosted by another hall that this hall takes part in: the host's name; else null. */
  hostHallName: string | null
}

/**
 * Issue 29: the hall's newest games that sold cards, newest first, each with its session's number in its hall (as
 * the paper prints it), for the cashier to choose the game of a card found by serial. The simultaneous games the
 * hall takes part in (BNG-100, hosted by another hall) are among them: their cards sold here are found here.
 */
export async function cardGamesOfHall(tx: Sql, hallId: string, limit: number): Promise<CardGameRow[]> {
  const rows = await tx.all<{
    id: string
    order_no: number
    status: string
    opened_at: string
    created_at: string
    finished_at: string | null
    session_no: number
    host_hall_name: string | null
  }>(
    `SELECT g.id, g.order_no, g.status, s.opened_at, g.created_at, g.finished_at,
            (SELECT COUNT(*) FROM sessions s2 WHERE s2.hall_id = s.hall_id
               AND (s2.opened_at < s.opened_at OR (s2.opened_at = s.opened_at AND s2.id <= s.id))) AS session_no,
            CASE WHEN g.hall_id = ? THEN NULL ELSE h.name END AS host_hall_name
       FROM games g JOIN sessions s ON s.id = g.session_id JOIN halls h ON h.id = g.hall_id
      WHERE (g.hall_id = ? OR EXISTS (SELECT 1 FROM game_halls gh WHERE gh.game_id = g.id AND gh.hall_id = ?))
        AND EXISTS (SELECT 1 FROM cards c WHERE c.game_id = g.id)
      ORDER BY s.opened_at DESC, s.id DESC, g.order_no DESC
      LIMIT ?`,
    [hallId, hallId, hallId, limit],
  )
  return rows.map((r) => ({
    gameId: r.id,
    gameNo: Number(r.order_no),
    status: r.status,
    sessionNo: Number(r.session_no),
    sessionOpenedAt: r.opened_at,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    hostHallName: r.host_hall_name ?? null,
  }))
}

/** BNG-100: the halls that take part in a simultaneous game besides its host (none for a hall's own game). */
export async function joinedHallsOfGame(tx: Sql, gameId: string): Promise<string[]> {
  return (await tx.all<{ hall_id: string }>('SELECT hall_id FROM game_halls WHERE game_id = ?', [gameId])).map(
    (r) => r.hall_id,
  )
}
