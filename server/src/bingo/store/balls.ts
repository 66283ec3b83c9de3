/**
 * Balls called, and the silent wins kept for the minutes (BNG-48, BNG-83).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'
import type { ClaimKind } from '../game.ts'

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

/** CFG-20: when the game's newest ball was called (undefined: none yet). */
export async function lastBallCalledAt(tx: Sql, gameId: string): Promise<string | undefined> {
  const r = await tx.get<{ called_at: string }>(
    'SELECT called_at FROM balls WHERE game_id = ? ORDER BY seq DESC LIMIT 1',
    [gameId],
  )
  return r?.called_at
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
