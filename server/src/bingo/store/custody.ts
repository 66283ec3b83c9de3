/**
 * Card custody after the game (BNG-87, BNG-88, BNG-89, BNG-92): card-custody-service.ts.
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'
import { touchRowsWhere } from '../../shared/row-seals.ts'

/** A card with its game and `card_custody` row (CUSTODY_SELECT), as stored; the counts may come back as text. */
interface CardCustodyRow {
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
  prizes: number | string
  unpaid_prizes: number | string
}

/** A card as custody reads it: its game, its custody state (null = with the player) and how many prizes it won. */
export interface CardInCustody {
  cardId: string
  serial: string
  gameId: string
  hallId: string
  gameStatus: string
  finishedAt: string | null
  cardStatus: string
  state: string | null
  reason: string | null
  authorityRef: string | null
  changedAt: string | null
  changedBy: string | null
  /** Prizes awarded, paid or forfeited (line, bingo and bonus). */
  prizes: number
  /** Prizes awarded and not yet paid. */
  unpaidPrizes: number
}

export function toCardInCustody(r: CardCustodyRow): CardInCustody {
  return {
    cardId: r.card_id,
    serial: r.serial,
    gameId: r.game_id,
    hallId: r.hall_id,
    gameStatus: r.game_status,
    finishedAt: r.finished_at ?? null,
    cardStatus: r.card_status,
    state: r.state ?? null,
    reason: r.reason ?? null,
    authorityRef: r.authority_ref ?? null,
    changedAt: r.changed_at ?? null,
    changedBy: r.changed_by ?? null,
    prizes: Number(r.prizes),
    unpaidPrizes: Number(r.unpaid_prizes),
  }
}

const CUSTODY_SELECT = `SELECT c.id AS card_id, c.serial, c.game_id, g.hall_id, g.status AS game_status, g.finished_at, c.status AS card_status,
       k.state, k.reason, k.authority_ref, k.changed_at, k.changed_by,
       (SELECT COUNT(*) FROM prizes p WHERE p.card_id = c.id AND p.status IN ('awarded', 'paid', 'forfeited'))
         + (SELECT COUNT(*) FROM bonus_prizes b WHERE b.card_id = c.id AND b.status IN ('awarded', 'paid', 'forfeited')) AS prizes,
       (SELECT COUNT(*) FROM prizes p WHERE p.card_id = c.id AND p.status = 'awarded')
         + (SELECT COUNT(*) FROM bonus_prizes b WHERE b.card_id = c.id AND b.status = 'awarded') AS unpaid_prizes
  FROM cards c JOIN games g ON g.id = c.game_id LEFT JOIN card_custody k ON k.card_id = c.id`

/** A card with its custody state and whether it won (line, bingo or a bonus prize). */
export async function cardCustodyById(sql: Sql, cardId: string): Promise<CardInCustody | undefined> {
  const row = await sql.get<CardCustodyRow>(`${CUSTODY_SELECT} WHERE c.id = ?`, [cardId])
  return row && toCardInCustody(row)
}

/** Every card of a game with its custody state, in serial order. */
export async function cardCustodyOfGame(sql: Sql, gameId: string): Promise<CardInCustody[]> {
  return (await sql.all<CardCustodyRow>(`${CUSTODY_SELECT} WHERE c.game_id = ? ORDER BY c.serial`, [gameId])).map(
    toCardInCustody,
  )
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

/**
 * BNG-91 / BNG-92: the unpaid prizes (line, bingo, bonus) of a card found altered are forfeited, for good; what was
 * forfeited, for the journal.
 */
export async function forfeitPrizesOfCard(
  tx: Sql,
  cardId: string,
): Promise<Array<{ id: string; kind: string; amountCents: number; table: 'prizes' | 'bonus_prizes' }>> {
  // PostgreSQL returns the BIGINT amounts as text.
  const rows = [
    ...(
      await tx.all<{ id: string; kind: string; amount_cents: number | string }>(
        "SELECT id, kind, amount_cents FROM prizes WHERE card_id = ? AND status = 'awarded'",
        [cardId],
      )
    ).map((r) => ({ id: r.id, kind: r.kind, amountCents: Number(r.amount_cents), table: 'prizes' as const })),
    ...(
      await tx.all<{ id: string; kind: string; amount_cents: number | string }>(
        "SELECT id, prize_kind AS kind, amount_cents FROM bonus_prizes WHERE card_id = ? AND status = 'awarded'",
        [cardId],
      )
    ).map((r) => ({ id: r.id, kind: r.kind, amountCents: Number(r.amount_cents), table: 'bonus_prizes' as const })),
  ]
  await tx.run("UPDATE prizes SET status = 'forfeited' WHERE card_id = ? AND status = 'awarded'", [cardId])
  await tx.run("UPDATE bonus_prizes SET status = 'forfeited' WHERE card_id = ? AND status = 'awarded'", [cardId])
  await touchRowsWhere(tx, 'prizes', "card_id = ? AND status = 'forfeited'", [cardId])
  await touchRowsWhere(tx, 'bonus_prizes', "card_id = ? AND status = 'forfeited'", [cardId])
  return rows
}

/**
 * BNG-71: the awarded prizes of a finished game whose cards were not presented, marked so at `at`; the serials and
 * amounts marked. A prize already marked, paid or forfeited is left alone.
 */
export async function markPrizesNotPresented(
  tx: Sql,
  gameId: string,
  at: string,
): Promise<Array<{ serial: string; kind: string; amountCents: number }>> {
  const rows = await tx.all<{ serial: string; kind: string; amount_cents: number | string }>(
    `SELECT c.serial, p.kind, p.amount_cents FROM prizes p JOIN cards c ON c.id = p.card_id
      WHERE p.game_id = ? AND p.status = 'awarded' AND p.not_presented_at IS NULL
     UNION ALL
     SELECT c.serial, b.prize_kind AS kind, b.amount_cents FROM bonus_prizes b JOIN cards c ON c.id = b.card_id
      WHERE b.game_id = ? AND b.status = 'awarded' AND b.not_presented_at IS NULL`,
    [gameId, gameId],
  )
  await tx.run(
    "UPDATE prizes SET not_presented_at = ? WHERE game_id = ? AND status = 'awarded' AND not_presented_at IS NULL",
    [at, gameId],
  )
  await tx.run(
    "UPDATE bonus_prizes SET not_presented_at = ? WHERE game_id = ? AND status = 'awarded' AND not_presented_at IS NULL",
    [at, gameId],
  )
  return rows.map((r) => ({ serial: r.serial, kind: r.kind, amountCents: Number(r.amount_cents) }))
}
