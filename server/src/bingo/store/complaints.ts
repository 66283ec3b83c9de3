/**
 * The complaints book of a hall (BNG-72, GEN-21).
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'

/** A `complaints` row as stored. */
interface ComplaintRow {
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

/**
 * An entry of a hall's complaints book as the use cases read it. `playerDocument` is stored sealed (issue 24 point 2);
 * the answer's fields are null until the management answers.
 */
export interface Complaint {
  id: string
  hallId: string
  number: number
  sessionId: string | null
  gameId: string | null
  gameNo: number | null
  playerName: string
  playerDocument: string | null
  playerContact: string | null
  text: string
  recordedAt: string
  recordedBy: string
  recordedByName: string
  recordedByRole: string
  answer: string | null
  answeredAt: string | null
  answeredBy: string | null
  answeredByName: string | null
  answeredByRole: string | null
}

function toComplaint(r: ComplaintRow): Complaint {
  return {
    id: r.id,
    hallId: r.hall_id,
    number: Number(r.number),
    sessionId: r.session_id,
    gameId: r.game_id,
    gameNo: r.game_no === null ? null : Number(r.game_no),
    playerName: r.player_name,
    playerDocument: r.player_document,
    playerContact: r.player_contact,
    text: r.text,
    recordedAt: r.recorded_at,
    recordedBy: r.recorded_by,
    recordedByName: r.recorded_by_name,
    recordedByRole: r.recorded_by_role,
    answer: r.answer,
    answeredAt: r.answered_at,
    answeredBy: r.answered_by,
    answeredByName: r.answered_by_name,
    answeredByRole: r.answered_by_role,
  }
}

/** The next number of the hall's complaints book (1 for the first). */
export async function nextComplaintNumber(tx: Sql, hallId: string): Promise<number> {
  const row = await tx.get<{ n: number | null }>('SELECT MAX(number) AS n FROM complaints WHERE hall_id = ?', [hallId])
  return Number(row?.n ?? 0) + 1
}

export async function insertComplaint(
  tx: Sql,
  c: Omit<Complaint, 'answer' | 'answeredAt' | 'answeredBy' | 'answeredByName' | 'answeredByRole'>,
): Promise<void> {
  await tx.run(
    `INSERT INTO complaints (id, hall_id, number, session_id, game_id, game_no, player_name, player_document, player_contact, text, recorded_at, recorded_by, recorded_by_name, recorded_by_role)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      c.id,
      c.hallId,
      c.number,
      c.sessionId,
      c.gameId,
      c.gameNo,
      c.playerName,
      c.playerDocument,
      c.playerContact,
      c.text,
      c.recordedAt,
      c.recordedBy,
      c.recordedByName,
      c.recordedByRole,
    ],
  )
}

export async function complaintByNumber(tx: Sql, hallId: string, number: number): Promise<Complaint | undefined> {
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

export async function complaintsOfHall(tx: Sql, hallId: string): Promise<Complaint[]> {
  return (await tx.all<ComplaintRow>('SELECT * FROM complaints WHERE hall_id = ? ORDER BY number', [hallId])).map(
    toComplaint,
  )
}
