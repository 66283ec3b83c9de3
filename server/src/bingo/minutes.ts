/**
 * Session minutes (acta) derived from the journal, never kept apart from it (DESIGN.md "Journal";
 * BNG-72 to BNG-79). The model carries every field the regulation lists per game.
 */
import { DomainError } from '../shared/errors.ts'
import type { JournalRecord } from '../shared/journal-chain.ts'
import type { Sql } from '../db/database.ts'
import { readJournal } from '../shared/journal.ts'
import { hallCurrency, sessionHallId } from './store.ts'
import { checkpointRowsBetween } from '../shared/store.ts'
import { toCheckpoint } from '../shared/checkpoint-service.ts'
import { applyBonusRecord, type MinutesBonusGame, type MinutesBonusSession, type MinutesJackpot } from './bonus-minutes.ts'

export interface MinutesGame extends MinutesBonusGame {
  orderNo: number
  gameId: string
  /** BNG-73 (2): series in play with the ranges sold. */
  series: Array<{ code: string; from: number; to: number }>
  faceValueCents: number
  cardsSold: number
  totalCents: number
  linePoolCents: number
  bingoPoolCents: number
  /** Progressive pots / prima (BNG-73 (5), BNG-64): filled by the jackpot modules; empty otherwise. */
  jackpots: MinutesJackpot[]
  linePaidCents: number
  bingoPaidCents: number
  jackpotsPaidCents: number
  /** BNG-73 (9): the winning card numbers, with the ball count at which each won. */
  winners: Array<{ kind: 'line' | 'bingo'; serial: string; amountCents: number; atBall: number }>
  ballsDrawn: number
  balls: number[]
  commitment: string
  salesDigest: string | null
  /** bolillo-draw-v2: the beacon round fixed at the close and, once verified, its randomness; `demo` said plainly (point 9). */
  beacon?: { round: number; closedAt: string | null; randomness: string | null; scheme: string | null; demo: boolean } | null
  startedAt: string | null
  firstBallAt: string | null
  endedAt: string | null
  status: 'finished' | 'void' | 'in_progress'
  voidReason: string | null
  refundCents: number
  incidents: Array<{ at: string; kind: string; outcome: string; rule: string; note: string }>
  /** Issue 15 point 4: who annulled the game, who confirmed it and why; null when not annulled by staff. */
  annulment?: { requestedBy: string; confirmedBy: string; reason: string } | null
  rejectedClaims: Array<{ serial: string; kind: string; atBall: number; reason: string }>
  lastGame: boolean
}

export interface SessionMinutes {
  sessionId: string
  hallId: string
  hallName: string
  profileId: string
  currency: string
  openedAt: string
  closedAt: string | null
  openRecount: { ballsCounted: number; confirmedBy: string } | null
  closeRecount: { ballsCounted: number; confirmedBy: string } | null
  lastGameAnnounced: boolean
  games: MinutesGame[]
  totals: { cardsSold: number; totalCents: number; prizesPaidCents: number; refundCents: number; annulledGames?: number }
  /** First and last journal records the minutes were derived from, so a reader can check them against the chain. */
  journal: { firstSeq: number; lastSeq: number; lastHash: string; records: number }
  remainderRule: string
  /** BNG-61: prima amount changes, with the game number from which each applies (bonus-minutes.ts). */
  primaChanges?: MinutesBonusSession['primaChanges']
  /** Ball-set changes, recounts and limit warnings (BNG-25, BNG-27), device faults and misreads, and ball corrections (BNG-83), in journal order. */
  equipment?: Array<{ at: string; type: string; details: Record<string, unknown> }>
  /** Signed journal checkpoints of the session, and the first one after its close (DESIGN.md "Journal"). */
  checkpoints?: Array<{ seq: number; hash: string; at: string; keyId: string; signature: string; reason: string }>
}

export const REMAINDER_RULE_ES = 'Reparto a partes iguales entre cartones premiados; los céntimos sobrantes, uno a cada cartón por orden ascendente de serie.'

/** Builds the minutes model from the session's journal records. */
export function minutesFromJournal(records: readonly JournalRecord[]): SessionMinutes {
  const opened = records.find((r) => r.type === 'session.opened')
  if (!opened) throw new DomainError('SESSION_NOT_FOUND', 'no session.opened record in the journal')
  const p = opened.payload as { sessionId: string; hallId: string; hallName: string; profileId: string; recount: SessionMinutes['openRecount'] }
  const games = new Map<string, MinutesGame>()
  const minutes: SessionMinutes = {
    sessionId: p.sessionId, hallId: p.hallId, hallName: p.hallName, profileId: p.profileId, currency: '',
    openedAt: opened.at, closedAt: null, openRecount: p.recount, closeRecount: null, lastGameAnnounced: false, games: [],
    totals: { cardsSold: 0, totalCents: 0, prizesPaidCents: 0, refundCents: 0, annulledGames: 0 },
    journal: { firstSeq: records[0].seq, lastSeq: records[records.length - 1].seq, lastHash: records[records.length - 1].hash, records: records.length },
    remainderRule: REMAINDER_RULE_ES,
    equipment: [],
    primaChanges: [],
  }
  const game = (payload: unknown) => {
    const g = games.get((payload as { gameId: string }).gameId)
    if (!g) throw new DomainError('VALIDATION_FAILED', 'journal record for a game that was never announced')
    return g
  }
  for (const r of records) {
    const pl = r.payload as Record<string, any>
    switch (r.type) {
      case 'game.announced':
        games.set(pl.gameId, {
          orderNo: pl.orderNo, gameId: pl.gameId, series: [], faceValueCents: pl.faceValueCents, cardsSold: 0, totalCents: 0,
          linePoolCents: 0, bingoPoolCents: 0, jackpots: [], linePaidCents: 0, bingoPaidCents: 0, jackpotsPaidCents: 0, winners: [],
          ballsDrawn: 0, balls: [], commitment: pl.commitment, salesDigest: null, startedAt: null, firstBallAt: null, endedAt: null,
          status: 'in_progress', voidReason: null, refundCents: 0, incidents: [], annulment: null, rejectedClaims: [], lastGame: Boolean(pl.isLastGame),
          prima: null, luckyBall: null, halls: null,
        })
        break
      case 'sales.closed': {
        const g = game(pl)
        Object.assign(g, { series: (pl.ranges as Array<{ series: string; from: number; to: number }>).map((r) => ({ code: r.series, from: r.from, to: r.to })), cardsSold: pl.cardsSold, totalCents: pl.totalCents, linePoolCents: pl.linePoolCents, bingoPoolCents: pl.bingoPoolCents, salesDigest: pl.salesDigest, startedAt: r.at })
        if (pl.beaconRound) g.beacon = { round: pl.beaconRound, closedAt: pl.closedAt ?? null, randomness: null, scheme: null, demo: false }
        break
      }
      case 'game.beacon': {
        const g = game(pl)
        g.beacon = { round: pl.round, closedAt: g.beacon?.closedAt ?? null, randomness: pl.randomness, scheme: pl.scheme, demo: pl.scheme === 'demo' }
        break
      }
      case 'ball.called': {
        const g = game(pl)
        g.balls.push(pl.ball)
        g.ballsDrawn = g.balls.length
        g.firstBallAt ??= r.at
        break
      }
      case 'claim.rejected':
        game(pl).rejectedClaims.push({ serial: pl.serial, kind: pl.kind, atBall: pl.atBall, reason: pl.reason })
        break
      case 'prize.awarded': {
        const g = game(pl)
        for (const w of pl.winners as Array<{ serial: string; amountCents: number; atBall: number }>) g.winners.push({ kind: pl.kind, ...w })
        break
      }
      case 'prize.paid': {
        const g = game(pl)
        if (pl.kind === 'line') g.linePaidCents += pl.amountCents
        else if (pl.kind === 'bingo') g.bingoPaidCents += pl.amountCents
        else g.jackpotsPaidCents += pl.amountCents
        minutes.totals.prizesPaidCents += pl.amountCents
        break
      }
      case 'game.finished':
        Object.assign(game(pl), { status: 'finished', endedAt: r.at })
        break
      case 'game.void': {
        const g = game(pl)
        Object.assign(g, { status: 'void', endedAt: r.at, voidReason: pl.reason, refundCents: pl.refundCents })
        if (pl.annulledBy && pl.confirmedBy) g.annulment = { requestedBy: pl.annulledBy.name, confirmedBy: pl.confirmedBy.name, reason: pl.annulReason }
        minutes.totals.refundCents += pl.refundCents
        minutes.totals.annulledGames = (minutes.totals.annulledGames ?? 0) + 1
        break
      }
      case 'incident':
        game(pl).incidents.push({ at: r.at, kind: pl.kind, outcome: pl.outcome, rule: pl.rule, note: pl.note })
        break
      case 'ball.corrected': {
        // BNG-83: the number on the ball prevails; the minutes show it, and the incident keeps both values.
        const g = game(pl)
        if (Number.isInteger(pl.seq) && pl.seq >= 1 && pl.seq <= g.balls.length) g.balls[pl.seq - 1] = pl.to
        // Both values (called and prevailing) stay in the minutes' equipment entries.
        ;(minutes.equipment ??= []).push({ at: r.at, type: r.type, details: pl })
        break
      }
      case 'ball_set.changed':
      case 'ball_set.recount':
      case 'ball_set.limit_warning':
      case 'ball_set.limit_reached':
      case 'device.fault':
      case 'device.misread':
        // BNG-25: ball-set changes are recorded in the minutes book; device trouble too.
        ;(minutes.equipment ??= []).push({ at: r.at, type: r.type, details: pl })
        break
      case 'session.last_game':
        minutes.lastGameAnnounced = true
        break
      case 'session.closed':
        minutes.closedAt = r.at
        minutes.closeRecount = pl.recount ?? null
        break
      default:
        // Prima, pots, lucky ball, simultaneous halls (issue #8).
        applyBonusRecord(r, minutes, game)
        break
    }
  }
  minutes.games = [...games.values()].sort((a, b) => a.orderNo - b.orderNo)
  for (const g of minutes.games) {
    minutes.totals.cardsSold += g.cardsSold
    minutes.totals.totalCents += g.totalCents
  }
  return minutes
}

export async function loadSessionMinutes(db: Sql, sessionId: string): Promise<SessionMinutes> {
  const hallId = await sessionHallId(db, sessionId)
  if (hallId === undefined) throw new DomainError('SESSION_NOT_FOUND', `session ${sessionId} not found`)
  const records: JournalRecord[] = []
  for await (const r of readJournal(db, { scopePrefix: `hall:${hallId}/session:${sessionId}` })) records.push(r)
  const m = minutesFromJournal(records)
  m.currency = (await hallCurrency(db, hallId)) ?? ''
  // Checkpoints are signed for the whole journal, so they are found by time: the session's, and the one covering its close.
  const signed = (await checkpointRowsBetween(db, m.openedAt, '9999-12-31T23:59:59.999Z')).map(toCheckpoint)
  const after = m.closedAt ? signed.findIndex((c) => c.at > m.closedAt!) : -1
  m.checkpoints = (m.closedAt ? signed.slice(0, after < 0 ? signed.length : after + 1) : signed)
    .map((c) => ({ seq: c.seq, hash: c.hash, at: c.at, keyId: c.keyId, signature: c.signature, reason: c.reason }))
  return m
}
