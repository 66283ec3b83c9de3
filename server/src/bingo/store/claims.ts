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

/** A `claims` row as stored (`automatic` is 0 or 1 on both engines). */
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

/** A claim as the use cases read it. `cardId` is null on a claim of a serial that was never sold. */
export interface Claim {
  id: string
  gameId: string
  cardId: string | null
  serial: string
  kind: ClaimKind
  atBall: number
  status: string
  reason: string | null
  automatic: boolean
  createdAt: string
}

export function toClaim(r: ClaimRow): Claim {
  return {
    id: r.id,
    gameId: r.game_id,
    cardId: r.card_id,
    serial: r.serial,
    kind: r.kind,
    atBall: Number(r.at_ball),
    status: r.status,
    reason: r.reason,
    automatic: Boolean(Number(r.automatic)),
    createdAt: r.created_at,
  }
}

/** A `prizes` row as stored (PostgreSQL returns its BIGINT `amount_cents` as text). */
export interface PrizeRow {
  id: string
  game_id: string
  card_id: string
  kind: ClaimKind
  amount_cents: number | string
  at_ball: number
  status: string
  awarded_at: string
  paid_at: string | null
  paid_by: string | null
  /** BNG-71 (migration 0180). */
  not_presented_at: string | null
}

/** A prize of a game's line or bingo as the use cases read it. */
export interface Prize {
  id: string
  gameId: string
  cardId: string
  kind: ClaimKind
  amountCents: number
  atBall: number
  status: string
  awardedAt: string
  paidAt: string | null
  paidBy: string | null
  notPresentedAt: string | null
}

export function toPrize(r: PrizeRow): Prize {
  return {
    id: r.id,
    gameId: r.game_id,
    cardId: r.card_id,
    kind: r.kind,
    amountCents: Number(r.amount_cents),
    atBall: Number(r.at_ball),
    status: r.status,
    awardedAt: r.awarded_at,
    paidAt: r.paid_at,
    paidBy: r.paid_by,
    notPresentedAt: r.not_presented_at ?? null,
  }
}

export type PrizeWithSerial = Prize & { serial: string }

/**
 * A prize as GET /api/games/:gameId/prizes has always answered it: its column names and its card's serial (the money
 * a number on both engines).
 */
export function prizeAnswer(p: PrizeWithSerial) {
  return {
    id: p.id,
    game_id: p.gameId,
    card_id: p.cardId,
    kind: p.kind,
    amount_cents: p.amountCents,
    at_ball: p.atBall,
    status: p.status,
    awarded_at: p.awardedAt,
    paid_at: p.paidAt,
    paid_by: p.paidBy,
    not_presented_at: p.notPresentedAt,
    serial: p.serial,
  }
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

export async function verifiedClaimsOfKind(tx: Sql, gameId: string, kind: ClaimKind): Promise<Claim[]> {
  return (
    await tx.all<ClaimRow>(
      "SELECT * FROM claims WHERE game_id = ? AND kind = ? AND status = 'verified' ORDER BY created_at",
      [gameId, kind],
    )
  ).map(toClaim)
}

export async function verifiedClaimCountFrom(tx: Sql, gameId: string, atBall: number): Promise<number> {
  const r = await tx.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM claims WHERE game_id = ? AND status = 'verified' AND at_ball >= ?",
    [gameId, atBall],
  )
  return Number(r?.n ?? 0)
}

/** Every claim of a game with the numbers of its card, oldest first. */
export async function claimsWithNumbers(sql: Sql, gameId: string): Promise<Array<Claim & { numbers: string | null }>> {
  return (
    await sql.all<ClaimRow & { numbers: string | null }>(
      'SELECT cl.*, c.numbers FROM claims cl LEFT JOIN cards c ON c.id = cl.card_id WHERE cl.game_id = ? ORDER BY cl.created_at',
      [gameId],
    )
  ).map((r) => ({ ...toClaim(r), numbers: r.numbers }))
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

/** Prizes (and bonus prizes) of a game already paid: an annulment after a payout is refused (issue 13 point 6). */
/** Line and bingo prizes of the game already paid, with the serial of the card that won each. */
export async function paidPrizesOfGame(
  tx: Sql,
  gameId: string,
): Promise<Array<{ prizeId: string; source: string; amountCents: number; serial: string }>> {
  return (
    await tx.all<{ id: string; kind: string; amount_cents: number | string; serial: string }>(
      "SELECT p.id, p.kind, p.amount_cents, c.serial FROM prizes p JOIN cards c ON c.id = p.card_id WHERE p.game_id = ? AND p.status = 'paid' ORDER BY p.id",
      [gameId],
    )
  ).map((r) => ({ prizeId: r.id, source: r.kind, amountCents: Number(r.amount_cents), serial: r.serial }))
}

/** Bonus prizes (pots, lucky ball, prima) of the game already paid, with the serial of the card that won each. */
export async function paidBonusPrizesOfGame(
  tx: Sql,
  gameId: string,
): Promise<Array<{ prizeId: string; source: string; potId: string; amountCents: number; serial: string }>> {
  return (
    await tx.all<{
      id: string
      source: string
      pot_id: string
      name: string
      amount_cents: number | string
      serial: string
    }>(
      "SELECT b.id, b.source, b.pot_id, b.amount_cents, c.serial FROM bonus_prizes b JOIN cards c ON c.id = b.card_id WHERE b.game_id = ? AND b.status = 'paid' ORDER BY b.id",
      [gameId],
    )
  ).map((r) => ({
    prizeId: r.id,
    source: r.source,
    potId: r.pot_id,
    amountCents: Number(r.amount_cents),
    serial: r.serial,
  }))
}

export async function voidAwardedPrizes(tx: Sql, gameId: string): Promise<void> {
  await touchRowsWhere(tx, 'prizes', "game_id = ? AND status = 'awarded'", [gameId])
  await tx.run("UPDATE prizes SET status = 'void' WHERE game_id = ? AND status = 'awarded'", [gameId])
}

export async function prizesOfGame(sql: Sql, gameId: string): Promise<Prize[]> {
  return (await sql.all<PrizeRow>('SELECT * FROM prizes WHERE game_id = ?', [gameId])).map(toPrize)
}

export async function prizesWithSerials(sql: Sql, gameId: string): Promise<PrizeWithSerial[]> {
  return (
    await sql.all<PrizeRow & { serial: string }>(
      'SELECT p.*, c.serial FROM prizes p JOIN cards c ON c.id = p.card_id WHERE p.game_id = ? ORDER BY p.kind DESC, c.serial',
      [gameId],
    )
  ).map((r) => ({ ...toPrize(r), serial: r.serial }))
}
