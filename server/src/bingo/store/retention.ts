/**
 * Retention of a session's records (BNG-77, CFG-37): retention-service.ts.
 *
 * The bingo line's SQL, and only its SQL (test/structure.test.ts): named functions that take a transaction or
 * connection (`Sql`) first and return plain rows, written once for SQLite and PostgreSQL alike (`?` placeholders).
 * Rules, checks and journal records stay in the use cases that call these.
 */
import type { Sql } from '../../db/database.ts'

/** What a purge of a session's records depends on: when it closed, pending complaints, cards held as evidence. */
export interface SessionRetentionFacts {
  hallId: string
  status: string
  closedAt: string | null
  pendingComplaints: number
  heldCards: number
  /** A purge of the session is on record (records_purges). */
  purged: boolean
}

export async function sessionRetentionFacts(sql: Sql, sessionId: string): Promise<SessionRetentionFacts | undefined> {
  // PostgreSQL returns COUNT(*) as text.
  const r = await sql.get<{
    hall_id: string
    status: string
    closed_at: string | null
    pending_complaints: number | string
    held_cards: number | string
    purged: number | string
  }>(
    `SELECT s.hall_id, s.status, s.closed_at,
       (SELECT COUNT(*) FROM complaints k WHERE k.session_id = s.id AND k.answered_at IS NULL) AS pending_complaints,
       (SELECT COUNT(*) FROM card_custody cc JOIN games g ON g.id = cc.game_id WHERE g.session_id = s.id AND cc.state = 'evidence') AS held_cards,
       (SELECT COUNT(*) FROM records_purges p WHERE p.session_id = s.id) AS purged
     FROM sessions s WHERE s.id = ?`,
    [sessionId],
  )
  return (
    r && {
      hallId: r.hall_id,
      status: r.status,
      closedAt: r.closed_at,
      pendingComplaints: Number(r.pending_complaints),
      heldCards: Number(r.held_cards),
      purged: Number(r.purged) > 0,
    }
  )
}

/** Deletes a session's non-winning cards (no prize, bonus prize or payout), with their custody, seat and return rows; returns how many. */
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
    // Every sale records its buyer's seat (BNG-93, named or not) and a card handed back its return (BNG-15).
    await tx.run(`DELETE FROM player_cards WHERE card_id IN (${marks})`, chunk)
    await tx.run(`DELETE FROM card_returns WHERE card_id IN (${marks})`, chunk)
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
