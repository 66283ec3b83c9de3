/**
 * Use cases of a hall's complaints book and manual-book markers (rules: complaints.ts). One transaction each, with
 * its journal record. Records about a session are journaled under the session's scope, so its minutes carry
 * them (minutes.ts); a complaint about no session is journaled under the hall's complaints scope.
 */
import { RECORD_ID_BYTES, recordId } from '../shared/record-id.ts'
import type { Database } from '../db/database.ts'
import type { Sealer } from '../shared/sealing.ts'
import { openDocumentAtRest, sealDocumentAtRest } from '../shared/document-at-rest.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal, readJournal } from '../shared/journal.ts'
import { chainOfScope } from '../shared/journal-chain.ts'
import type { Clock, EntropySource } from './types.ts'
import {
  checkAnswer,
  checkComplaint,
  checkManualBook,
  manualGames,
  type ComplaintInput,
  type ManualBookInput,
} from './complaints.ts'
import {
  answerComplaint,
  complaintByNumber,
  complaintsOfHall,
  insertComplaint,
  nextComplaintNumber,
  type Complaint,
} from './store/complaints.ts'
import { gameIdByOrder, sessionHallId } from './store/games.ts'
import { hallExists } from './store/halls.ts'

/** The logged-in person who writes in the book (actorOf(c)); never a name from a request body. */
export interface BookActor {
  kind: string
  id: string
  name: string
  role: string
}

export interface ComplaintView {
  number: number
  hallId: string
  sessionId: string | null
  gameNo: number | null
  player: { name: string; document: string | null; contact: string | null }
  text: string
  recordedAt: string
  recordedBy: { id: string; name: string; role: string }
  status: 'pending' | 'answered'
  answer: { text: string; at: string; by: { id: string; name: string; role: string } } | null
}

const scopeOf = (hallId: string, sessionId: string | null) =>
  sessionId ? `hall:${hallId}/session:${sessionId}` : `hall:${hallId}/complaints`
const who = (a: BookActor) => ({ id: a.id, name: a.name, role: a.role })

function view(sealer: Pick<Sealer, 'open'>, r: Complaint): ComplaintView {
  return {
    number: r.number,
    hallId: r.hallId,
    sessionId: r.sessionId,
    gameNo: r.gameNo,
    // Issue 24 point 2: the document is stored sealed, opened for the book's readers.
    player: { name: r.playerName, document: openDocumentAtRest(sealer, r.playerDocument), contact: r.playerContact },
    text: r.text,
    recordedAt: r.recordedAt,
    recordedBy: { id: r.recordedBy, name: r.recordedByName, role: r.recordedByRole },
    status: r.answer === null ? 'pending' : 'answered',
    answer:
      r.answer === null
        ? null
        : {
            text: r.answer,
            at: r.answeredAt!,
            by: { id: r.answeredBy!, name: r.answeredByName!, role: r.answeredByRole! },
          },
  }
}

export function createComplaintsService(deps: {
  db: Database
  clock: Clock
  entropy: EntropySource
  sealer: Pick<Sealer, 'seal' | 'open'>
}) {
  const { db } = deps
  const now = () => deps.clock.now().toISOString()
  const newId = (prefix: string) => recordId(prefix, deps.entropy.randomBytes(RECORD_ID_BYTES))

  async function assertSessionOfHall(tx: Parameters<typeof sessionHallId>[0], hallId: string, sessionId: string) {
    const hall = await sessionHallId(tx, sessionId)
    if (hall === undefined) throw new DomainError('SESSION_NOT_FOUND', `session ${sessionId} not found`)
    if (hall !== hallId)
      throw new DomainError('WRONG_HALL', `session ${sessionId} belongs to hall ${hall}`, { resource: 'sessionId' })
  }

  /**
   * Issue 23 point 5: the book is one hall's (its rows, its numbering, its records in that hall's chain, a session
   * refused unless of that hall): a write locks that hall alone, the hall whose book the route names and the hall
   * guard let the person write in, never every hall.
   */
  const inHall = (hallId: string) =>
    // A name no hall can have (refused inside: NOT_FOUND) is no scope: every chain, as before.
    chainOfScope(`hall:${hallId}`) === `hall:${hallId}` ? { scopes: [`hall:${hallId}`] } : undefined

  /** BNG-72, GEN-21 (4): a player's complaint, recorded by the staff member who took it, with the next number of the hall's book. */
  async function record(hallId: string, input: ComplaintInput, by: BookActor): Promise<ComplaintView> {
    const c = checkComplaint(input)
    if (by.kind !== 'person')
      throw new DomainError('FORBIDDEN', 'a complaint is written in the book by a person logged in, not by a device')
    return db.transaction(async (tx) => {
      if (!(await hallExists(tx, hallId))) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`)
      let gameId: string | null = null
      if (c.sessionId) {
        await assertSessionOfHall(tx, hallId, c.sessionId)
        if (c.gameNo !== null) {
          gameId = (await gameIdByOrder(tx, c.sessionId, c.gameNo)) ?? null
          if (!gameId) throw new DomainError('GAME_NOT_FOUND', `session ${c.sessionId} has no game ${c.gameNo}`)
        }
      }
      const at = now()
      const number = await nextComplaintNumber(tx, hallId)
      const id = newId('cmp')
      await insertComplaint(tx, {
        id,
        hallId,
        number,
        sessionId: c.sessionId,
        gameId,
        gameNo: c.gameNo,
        playerName: c.playerName,
        playerDocument: sealDocumentAtRest(deps.sealer, c.playerDocument),
        playerContact: c.playerContact,
        text: c.text,
        recordedAt: at,
        recordedBy: by.id,
        recordedByName: by.name,
        recordedByRole: by.role,
      })
      // The player's name and document stay in the book (complaints table), not in the journal, which cannot forget.
      await appendJournal(tx, {
        at,
        type: 'complaint.recorded',
        scope: scopeOf(hallId, c.sessionId),
        payload: {
          complaintId: id,
          hallId,
          number,
          sessionId: c.sessionId,
          gameId,
          gameNo: c.gameNo,
          text: c.text,
          by: who(by),
          rule: 'BNG-72',
        },
      })
      return view(deps.sealer, (await complaintByNumber(tx, hallId, number))!)
    }, inHall(hallId))
  }

  /** The management's answer to complaint `number`, written once (COMPLAINT_ANSWERED after). */
  async function answer(hallId: string, number: number, text: string, by: BookActor): Promise<ComplaintView> {
    const a = checkAnswer(text)
    return db.transaction(async (tx) => {
      const row = await complaintByNumber(tx, hallId, number)
      if (!row) throw new DomainError('NOT_FOUND', `hall ${hallId} has no complaint ${number}`)
      const at = now()
      if (!(await answerComplaint(tx, row.id, { answer: a, at, byId: by.id, byName: by.name, byRole: by.role }))) {
        throw new DomainError(
          'COMPLAINT_ANSWERED',
          `complaint ${number} was answered on ${row.answeredAt ?? 'an earlier date'}`,
          { rule: 'BNG-72' },
        )
      }
      await appendJournal(tx, {
        at,
        type: 'complaint.answered',
        scope: scopeOf(hallId, row.sessionId),
        payload: {
          complaintId: row.id,
          hallId,
          number,
          sessionId: row.sessionId,
          answer: a,
          by: who(by),
          rule: 'BNG-72',
        },
      })
      return view(deps.sealer, (await complaintByNumber(tx, hallId, number))!)
    }, inHall(hallId))
  }

  /** The hall's complaints book, in number order (readers: inspector, auditor; staff). */
  async function list(hallId: string, status?: 'pending' | 'answered'): Promise<ComplaintView[]> {
    const rows = (await complaintsOfHall(db, hallId)).map((r) => view(deps.sealer, r))
    return status ? rows.filter((r) => r.status === status) : rows
  }

  /** BNG-76: "system failure from game N, resumed at game M", recorded once the system is back, with the manual book's folios. */
  async function recordManualBook(hallId: string, sessionId: string, input: ManualBookInput, by: BookActor) {
    const m = checkManualBook(input)
    return db.transaction(async (tx) => {
      await assertSessionOfHall(tx, hallId, sessionId)
      const at = now()
      const games = manualGames(m)
      const rec = await appendJournal(tx, {
        at,
        type: 'manual_book.used',
        scope: scopeOf(hallId, sessionId),
        payload: { hallId, sessionId, ...m, games, by: who(by), rule: 'BNG-76' },
      })
      return { hallId, sessionId, ...m, games, recordedAt: at, recordedBy: who(by), journalSeq: rec.seq }
    }, inHall(hallId))
  }

  /** Every manual-book marker of the hall, from the journal. */
  async function manualBookEntries(hallId: string) {
    const out: Array<Record<string, unknown>> = []
    // The markers are journaled under their session's scope (the minutes read them there): every session of the hall.
    for await (const r of readJournal(db, { scopePrefix: `hall:${hallId}` })) {
      if (r.type === 'manual_book.used' && r.scope.startsWith(`hall:${hallId}/session:`)) {
        const p = r.payload as Record<string, unknown>
        out.push({
          at: r.at,
          sessionId: p.sessionId,
          fromGame: p.fromGame,
          resumedAtGame: p.resumedAtGame,
          games: p.games,
          reason: p.reason,
          folios: p.folios,
          recordedBy: p.by,
          seq: r.seq,
        })
      }
    }
    return out
  }

  return { record, answer, list, recordManualBook, manualBookEntries }
}
export type ComplaintsService = ReturnType<typeof createComplaintsService>
