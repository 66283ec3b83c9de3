/**
 * BNG-77 / CFG-37: records are kept for the hall's retention period (the profile's `retentionDays`: 183, "seis
 * meses desde la fecha de su emisión", 004 Bingo IV.3; winning cards "no inferior a seis meses", 004 II.1.a) and,
 * while a claim about them is pending, until it is resolved. This is the only path that removes records: a closed
 * session's non-winning cards, once the period from the session's close (the minutes' date) has passed, with no
 * complaint pending and no card held as evidence. Winning cards, prizes, payouts and the journal (from which the
 * minutes are derived, append-only) stay. The director purges, a second person witnesses; both are journaled.
 */
import type { Database } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { retentionDaysOfHall } from './card-custody-service.ts'
import { insertRecordsPurge, purgeNonWinningCardsOfSession, sessionRetentionFacts } from './store/retention.ts'

const DAY_MS = 86_400_000

/** The first moment a session closed at `closedAt` may be purged (BNG-77). */
export function retentionEndsAt(closedAt: string, retentionDays: number): string {
  return new Date(Date.parse(closedAt) + retentionDays * DAY_MS).toISOString()
}

export function createRetentionService(deps: { db: Database; clock: { now(): Date } }) {
  const { db } = deps

  async function purgeSession(input: {
    sessionId: string
    by: string
    witness: string
    reason: string
  }): Promise<{ sessionId: string; cardsPurged: number; retentionDays: number; retainedUntil: string }> {
    return db.transaction(async (tx) => {
      const s = await sessionRetentionFacts(tx, input.sessionId)
      if (!s) throw new DomainError('SESSION_NOT_FOUND', `session ${input.sessionId} not found`)
      const at = deps.clock.now().toISOString()
      const retentionDays = await retentionDaysOfHall(tx, s.hallId)
      const refuse = (why: string, extra: Record<string, unknown> = {}) =>
        new DomainError('RETENTION_NOT_ELAPSED', why, {
          sessionId: input.sessionId,
          retentionDays,
          rule: 'BNG-77',
          ...extra,
        })
      if (s.purged) throw new DomainError('ILLEGAL_TRANSITION', `session ${input.sessionId} was already purged`)
      if (s.status !== 'closed' || !s.closedAt) throw refuse('the session is still open: its minutes are not closed')
      const retainedUntil = retentionEndsAt(s.closedAt, retentionDays)
      if (at < retainedUntil)
        throw refuse(`the session's records are kept until ${retainedUntil} (${retentionDays} days from its minutes)`, {
          retainedUntil,
        })
      if (s.pendingComplaints > 0)
        throw refuse(
          `${s.pendingComplaints} complaint(s) of the session are pending: its records are kept until they are resolved`,
          { pendingComplaints: s.pendingComplaints },
        )
      if (s.heldCards > 0)
        throw refuse(`${s.heldCards} card(s) of the session are held as evidence for the authority (BNG-87 (a))`, {
          heldCards: s.heldCards,
        })
      const cardsPurged = await purgeNonWinningCardsOfSession(tx, input.sessionId)
      await insertRecordsPurge(tx, {
        sessionId: input.sessionId,
        hallId: s.hallId,
        at,
        by: input.by,
        witness: input.witness,
        cardsPurged,
        retentionDays,
      })
      await appendJournal(tx, {
        at,
        type: 'records.purged',
        scope: `hall:${s.hallId}/session:${input.sessionId}`,
        payload: {
          sessionId: input.sessionId,
          closedAt: s.closedAt,
          retentionDays,
          retainedUntil,
          cardsPurged,
          kept: 'winning cards, prizes, payouts, journal and minutes',
          by: input.by,
          witness: input.witness,
          reason: input.reason,
          rule: 'BNG-77',
        },
      })
      return { sessionId: input.sessionId, cardsPurged, retentionDays, retainedUntil }
    })
  }

  return { purgeSession }
}
