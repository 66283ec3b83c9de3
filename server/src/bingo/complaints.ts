/**
 * The complaints book and the manual-book markers of a bingo hall (issue 18), as pure rules:
 *
 * - BNG-72 (Bolivia, 002 §6.1.4.1): the Libro de Actas has annexed a "Libro de reclamo u observaciones"; GEN-21 (4):
 *   players have the right to file complaints. A complaint names the player, says what happened and, when it
 *   concerns one, the session and game; it is numbered within the hall and answered once by the hall's management.
 *   002 §6.1.8.1: observations on errors in the calling of numbers made after the prizes were paid are not taken
 *   into account: such a complaint is still recorded (the player's right to file it stands), and the answer says so.
 * - BNG-76 (Cantabria, 004 Bingo IV.2): the minutes may be kept by computer, but a manual auxiliary book must be
 *   kept and used when the system fails, from the game in which the failure occurs until it is fixed. The system
 *   cannot record the games played on paper, so once it is back staff record the range: "system failure from game
 *   N, resumed at game M" (M > N; or not resumed in the session), with the folios of the manual book used.
 * - 004 Bingo IV.3: minutes with a complaint pending resolution are kept until it is resolved: the minutes list the
 *   session's complaints and count those still unanswered.
 *
 * Pure: no I/O, no clock.
 */
import { DomainError } from '../shared/errors.ts'

export interface ComplaintInput {
  playerName: string
  playerDocument?: string | null
  playerContact?: string | null
  text: string
  sessionId?: string | null
  gameNo?: number | null
}

export interface ManualBookInput {
  /** Order number of the game in which the system failed: from it on, the paper book was used. */
  fromGame: number
  /** Order number of the first game recorded by the system again; null when the session ended on paper. */
  resumedAtGame: number | null
  reason: string
  /** Folios of the manual auxiliary book used (e.g. "folios 12 a 14"). */
  folios: string
}

type Problem = { field: string; rule: string; message: string }

function refuse(what: string, problems: Problem[]): void {
  if (problems.length > 0)
    throw new DomainError(
      'VALIDATION_FAILED',
      `${what}: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
      { problems },
    )
}

const clean = (s: unknown): string => (typeof s === 'string' ? s.trim() : '')

/** Checks and trims a complaint (BNG-72, GEN-21). */
export function checkComplaint(input: ComplaintInput): Required<ComplaintInput> {
  const problems: Problem[] = []
  const playerName = clean(input.playerName)
  const text = clean(input.text)
  if (playerName.length < 3)
    problems.push({ field: 'playerName', rule: 'BNG-72', message: 'names the player who complains' })
  if (text.length < 10)
    problems.push({ field: 'text', rule: 'BNG-72', message: 'says what the complaint is about (10+ characters)' })
  if (input.gameNo !== undefined && input.gameNo !== null) {
    if (!Number.isInteger(input.gameNo) || input.gameNo < 1)
      problems.push({ field: 'gameNo', rule: 'BNG-72', message: 'is a game order number from 1' })
    if (!clean(input.sessionId))
      problems.push({ field: 'sessionId', rule: 'BNG-72', message: 'is needed to name a game' })
  }
  refuse('complaint', problems)
  return {
    playerName,
    text,
    playerDocument: clean(input.playerDocument) || null,
    playerContact: clean(input.playerContact) || null,
    sessionId: clean(input.sessionId) || null,
    gameNo: input.gameNo ?? null,
  }
}

/** Checks an answer to a complaint. */
export function checkAnswer(answer: string): string {
  const a = clean(answer)
  refuse(
    'answer',
    a.length < 5 ? [{ field: 'answer', rule: 'BNG-72', message: "is the management's answer (5+ characters)" }] : [],
  )
  return a
}

/** Checks a manual-book marker (BNG-76): the failure from game N, resumed at game M > N (or not resumed). */
export function checkManualBook(input: ManualBookInput): ManualBookInput {
  const problems: Problem[] = []
  const reason = clean(input.reason)
  const folios = clean(input.folios)
  if (!Number.isInteger(input.fromGame) || input.fromGame < 1)
    problems.push({
      field: 'fromGame',
      rule: 'BNG-76',
      message: 'is the order number of the game in which the system failed',
    })
  if (
    input.resumedAtGame !== null &&
    (!Number.isInteger(input.resumedAtGame) || input.resumedAtGame <= input.fromGame)
  ) {
    problems.push({
      field: 'resumedAtGame',
      rule: 'BNG-76',
      message: 'is a game after the one in which the system failed (or null: not resumed)',
    })
  }
  if (reason.length < 5) problems.push({ field: 'reason', rule: 'BNG-76', message: 'describes the failure' })
  if (!folios) problems.push({ field: 'folios', rule: 'BNG-76', message: 'names the folios of the manual book used' })
  refuse('manual book', problems)
  return { fromGame: input.fromGame, resumedAtGame: input.resumedAtGame, reason, folios }
}

/** The games of a session played on the manual book: N .. M-1 (N .. end when not resumed). */
export function manualGames(m: Pick<ManualBookInput, 'fromGame' | 'resumedAtGame'>): {
  from: number
  to: number | null
} {
  return { from: m.fromGame, to: m.resumedAtGame === null ? null : m.resumedAtGame - 1 }
}
