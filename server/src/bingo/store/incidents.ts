/**
 * Incidents of a game, and annulments confirmed by two people (issue 15 point 4).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'

/** What the screens show of an `incidents` row (issue 17): what happened, how the game goes on, under which rule. */
export interface IncidentNotice {
  kind: string
  outcome: string
  note: string
  rule: string
  createdAt: string
}

/** Issue 17: a game's newest incident, for the hall display and the caller console. */
export async function latestIncidentOfGame(sql: Sql, gameId: string): Promise<IncidentNotice | undefined> {
  const r = await sql.get<{ kind: string; outcome: string; note: string; rule: string; created_at: string }>(
    'SELECT kind, outcome, note, rule, created_at FROM incidents WHERE game_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    [gameId],
  )
  return r && { kind: r.kind, outcome: r.outcome, note: r.note, rule: r.rule, createdAt: r.created_at }
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

/** A `game_annulments` row as stored. */
interface AnnulmentRow {
  game_id: string
  reason: string
  requested_by_id: string
  requested_by_name: string
  confirmed_by_id: string
  confirmed_by_name: string
  created_at: string
}

/** A game annulled by two people (issue 15 point 4): the reason the hall sees, and who asked and who confirmed. */
export interface Annulment {
  gameId: string
  reason: string
  requestedBy: { id: string; name: string }
  confirmedBy: { id: string; name: string }
  createdAt: string
}

function toAnnulment(r: AnnulmentRow): Annulment {
  return {
    gameId: r.game_id,
    reason: r.reason,
    requestedBy: { id: r.requested_by_id, name: r.requested_by_name },
    confirmedBy: { id: r.confirmed_by_id, name: r.confirmed_by_name },
    createdAt: r.created_at,
  }
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

export async function annulmentOfGame(sql: Sql, gameId: string): Promise<Annulment | undefined> {
  const row = await sql.get<AnnulmentRow>('SELECT * FROM game_annulments WHERE game_id = ?', [gameId])
  return row && toAnnulment(row)
}
