/**
 * Claims and the prizes they award, and their payment.
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'
import { touchRows, touchRowsWhere } from '../../shared/row-seals.ts'
import type { ClaimKind } from '../game.ts'

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
