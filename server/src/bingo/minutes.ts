/**
 * Session minutes (acta) derived from the journal, never kept apart from it (DESIGN.md "Journal";
 * BNG-72 to BNG-79). The model carries every field the regulation lists per game.
 */
import { DomainError } from '../shared/errors.ts'
import type { JournalRecord } from '../shared/journal-chain.ts'
import type { Sql } from '../db/database.ts'
import { readJournal } from '../shared/journal.ts'
import { sessionHallId, sessionNoOf } from './store/games.ts'
import { hallCurrency, hallProfileSettings } from './store/halls.ts'
import { hallZoneOf } from '../shared/time-zone.ts'
import { getProfile } from '../shared/profile.ts'
import { checkpointRowsBetween } from '../shared/store.ts'
import { toCheckpoint } from '../shared/checkpoint-service.ts'
import { FIGURES, FIGURE_NAMES, figureOfKind, type Figure, type FigureKind } from './patterns.ts'
import {
  applyBonusRecord,
  type MinutesBonusGame,
  type MinutesBonusSession,
  type MinutesJackpot,
} from './bonus-minutes.ts'

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
  /** Pots and prima only (BNG-73 (8)); a figure prize is never counted here. */
  jackpotsPaidCents: number
  /** CFG-13: paid for figure prizes (four corners, cross...), on their own line; the sum of `figures[].paidCents`. */
  figuresPaidCents?: number
  /** CFG-13: the game's figures, each with its pool fixed at the close of sales and what was paid for it. */
  figures?: MinutesFigure[]
  /** BNG-73 (9): the winning card numbers, with the ball count at which each won. */
  winners: Array<{ kind: 'line' | 'bingo' | FigureKind; serial: string; amountCents: number; atBall: number }>
  ballsDrawn: number
  balls: number[]
  commitment: string
  salesDigest: string | null
  /** bolillo-draw-v2: the beacon round fixed at the close and, once verified, its randomness; `demo` said plainly (point 9). */
  beacon?: {
    round: number
    closedAt: string | null
    randomness: string | null
    scheme: string | null
    demo: boolean
  } | null
  startedAt: string | null
  firstBallAt: string | null
  endedAt: string | null
  status: 'finished' | 'void' | 'in_progress'
  voidReason: string | null
  refundCents: number
  /** Issue 13 point 7 (BNG-86): the void game's cards to refund, and the refunds paid so far (count and amount). */
  refundCards?: number
  refundsPaid?: { cards: number; amountCents: number }
  /**
   * BNG-74: `declaredBy` is who declared the entry (the server for a reader fault); `signedBy` the Jefe de Mesa and
   * the Director de Bingo who signed it with their own credentials (null where the profile wants no co-signer).
   */
  incidents: Array<{
    at: string
    kind: string
    outcome: string
    rule: string
    note: string
    declaredBy?: string
    signedBy?: { jefeMesa: string; director: string } | null
    cctv?: { cameraId: string; cctvRef: string | null } | null
  }>
  /** Issue 15 point 4: who annulled the game, who confirmed it and why; null when not annulled by staff. */
  annulment?: { requestedBy: string; confirmedBy: string; reason: string } | null
  rejectedClaims: Array<{ serial: string; kind: string; atBall: number; reason: string }>
  lastGame: boolean
  /** BNG-73: the game's closing entry, signed by the Jefe de Mesa (name, role, when); null until signed. */
  closing?: { signedBy: string; role: string; at: string; note: string | null } | null
  /** BNG-56: set when no line was called before the bingo and the line pool went to the cards with a formed line. */
  lineAtBingo?: string | null
}

/** CFG-13: one figure prize of a game in the minutes, named as the hall heard it. */
export interface MinutesFigure {
  figure: Figure
  /** Spanish name ("Cuatro esquinas"), as the regulator reads it. */
  name: string
  poolCents: number
  paidCents: number
}

export const LINE_AT_BINGO_ES =
  'Bingo sin línea cantada antes: el premio de línea se reparte a partes iguales entre los cartones con línea formada al cantarse el bingo (BNG-56).'

export interface SessionMinutes {
  sessionId: string
  /** The session's number in its hall ("Sesión N.º 3"), what people read on the minutes (issue 29 point 6). */
  sessionNo?: number
  hallId: string
  hallName: string
  profileId: string
  currency: string
  openedAt: string
  closedAt: string | null
  /** BNG-27: the balls counted, who counted them (`countedBy`) and the witness who confirmed with their credential (`confirmedBy`). */
  openRecount: { ballsCounted: number; confirmedBy: string; countedBy?: string } | null
  /** BNG-41: the equipment checked at the opening, who checked and who witnessed; null when none was recorded. */
  equipmentCheck?: {
    extractor: boolean
    cctv: boolean
    displays: boolean
    sound: boolean
    reader?: boolean
    note?: string
    checkedBy: string
    witnessedBy: string
    rule?: string
  } | null
  closeRecount: { ballsCounted: number; confirmedBy: string; countedBy?: string } | null
  lastGameAnnounced: boolean
  games: MinutesGame[]
  totals: {
    cardsSold: number
    totalCents: number
    /** line + bingo + figures + jackpots, to the centavo. */
    prizesPaidCents: number
    linePaidCents?: number
    bingoPaidCents?: number
    /** CFG-13: figure prizes paid in the session, in all and per figure (FIGURES order, only those played). */
    figuresPaidCents?: number
    figures?: Array<{ figure: Figure; name: string; paidCents: number }>
    /** Pots and prima (BNG-73 (8)). */
    jackpotsPaidCents?: number
    refundCents: number
    annulledGames?: number
  }
  /** First and last journal records the minutes were derived from, so a reader can check them against the chain. */
  journal: { firstSeq: number; lastSeq: number; lastHash: string; records: number }
  remainderRule: string
  /** BNG-61: prima amount changes, with the game number from which each applies (bonus-minutes.ts). */
  primaChanges?: MinutesBonusSession['primaChanges']
  /** Ball-set changes, recounts and limit warnings (BNG-25, BNG-27), device faults and misreads, and ball corrections (BNG-83), in journal order. */
  equipment?: Array<{ at: string; type: string; details: Record<string, unknown> }>
  /** Signed journal checkpoints of the session, and the first one after its close (DESIGN.md "Journal"). */
  checkpoints?: Array<{ seq: number; hash: string; at: string; keyId: string; signature: string; reason: string }>
  /** Issue 17: the hall's IANA zone; every time in the minutes is on its wall clock. */
  timeZone?: string
  /** BNG-72, GEN-21: the complaints book's entries about this session, with their answers. */
  complaints?: MinutesComplaint[]
  /** 004 Bingo IV.3: complaints still unanswered; minutes with one pending are kept until it is resolved. */
  pendingComplaints?: number
  /** BNG-76: games played on the manual auxiliary book while the system was down ("from game N, resumed at game M"). */
  manualBook?: Array<{
    at: string
    fromGame: number
    resumedAtGame: number | null
    reason: string
    folios: string
    recordedBy: string
  }>
}

export interface MinutesComplaint {
  number: number
  at: string
  gameNo: number | null
  text: string
  recordedBy: string
  answer: string | null
  answeredAt: string | null
  answeredBy: string | null
}

export const REMAINDER_RULE_ES =
  'Reparto a partes iguales entre cartones premiados; los céntimos sobrantes, uno a cada cartón por orden ascendente de serie.'

/** Builds the minutes model from the session's journal records. */
export function minutesFromJournal(records: readonly JournalRecord[]): SessionMinutes {
  const opened = records.find((r) => r.type === 'session.opened')
  if (!opened) throw new DomainError('SESSION_NOT_FOUND', 'no session.opened record in the journal')
  const p = opened.payload as {
    sessionId: string
    hallId: string
    hallName: string
    profileId: string
    recount: SessionMinutes['openRecount']
    equipmentCheck?: SessionMinutes['equipmentCheck']
  }
  const games = new Map<string, MinutesGame>()
  const minutes: SessionMinutes = {
    sessionId: p.sessionId,
    hallId: p.hallId,
    hallName: p.hallName,
    profileId: p.profileId,
    currency: '',
    openedAt: opened.at,
    closedAt: null,
    openRecount: p.recount,
    equipmentCheck: p.equipmentCheck ?? null,
    closeRecount: null,
    lastGameAnnounced: false,
    games: [],
    totals: {
      cardsSold: 0,
      totalCents: 0,
      prizesPaidCents: 0,
      linePaidCents: 0,
      bingoPaidCents: 0,
      figuresPaidCents: 0,
      figures: [],
      jackpotsPaidCents: 0,
      refundCents: 0,
      annulledGames: 0,
    },
    journal: {
      firstSeq: records[0].seq,
      lastSeq: records[records.length - 1].seq,
      lastHash: records[records.length - 1].hash,
      records: records.length,
    },
    remainderRule: REMAINDER_RULE_ES,
    equipment: [],
    primaChanges: [],
    complaints: [],
    pendingComplaints: 0,
    manualBook: [],
  }
  const figureOf = (g: MinutesGame, figure: Figure): MinutesFigure => {
    const list = (g.figures ??= [])
    let f = list.find((x) => x.figure === figure)
    if (!f) {
      f = { figure, name: FIGURE_NAMES[figure].es, poolCents: 0, paidCents: 0 }
      list.push(f)
    }
    return f
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
          orderNo: pl.orderNo,
          gameId: pl.gameId,
          series: [],
          faceValueCents: pl.faceValueCents,
          cardsSold: 0,
          totalCents: 0,
          linePoolCents: 0,
          bingoPoolCents: 0,
          jackpots: [],
          linePaidCents: 0,
          bingoPaidCents: 0,
          jackpotsPaidCents: 0,
          figuresPaidCents: 0,
          figures: [],
          winners: [],
          ballsDrawn: 0,
          balls: [],
          commitment: pl.commitment,
          salesDigest: null,
          startedAt: null,
          firstBallAt: null,
          endedAt: null,
          status: 'in_progress',
          voidReason: null,
          refundCents: 0,
          incidents: [],
          annulment: null,
          rejectedClaims: [],
          lastGame: Boolean(pl.isLastGame),
          prima: null,
          luckyBall: null,
          halls: null,
        })
        break
      case 'sales.closed': {
        const g = game(pl)
        Object.assign(g, {
          series: (pl.ranges as Array<{ series: string; from: number; to: number }>).map((r) => ({
            code: r.series,
            from: r.from,
            to: r.to,
          })),
          cardsSold: pl.cardsSold,
          totalCents: pl.totalCents,
          linePoolCents: pl.linePoolCents,
          bingoPoolCents: pl.bingoPoolCents,
          salesDigest: pl.salesDigest,
          startedAt: r.at,
        })
        // CFG-13: each figure's pool, out of the bingo's share (bingoPoolCents is already what is left of it).
        for (const f of (pl.figurePools ?? []) as Array<{ figure: Figure; poolCents: number }>)
          figureOf(g, f.figure).poolCents = f.poolCents
        if (pl.beaconRound)
          g.beacon = {
            round: pl.beaconRound,
            closedAt: pl.closedAt ?? null,
            randomness: null,
            scheme: null,
            demo: false,
          }
        break
      }
      case 'game.beacon': {
        const g = game(pl)
        g.beacon = {
          round: pl.round,
          closedAt: g.beacon?.closedAt ?? null,
          randomness: pl.randomness,
          scheme: pl.scheme,
          demo: pl.scheme === 'demo',
        }
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
        for (const w of pl.winners as Array<{ serial: string; amountCents: number; atBall: number }>)
          g.winners.push({ kind: pl.kind, ...w })
        if (pl.lineAtBingo) g.lineAtBingo = LINE_AT_BINGO_ES
        break
      }
      case 'prize.paid': {
        const g = game(pl)
        // BNG-73 (6)/(7)/(8), CFG-13: each prize on the line of what it is; a figure is neither a line nor a pot.
        const figure = figureOfKind(pl.kind)
        if (pl.kind === 'line') g.linePaidCents += pl.amountCents
        else if (pl.kind === 'bingo') g.bingoPaidCents += pl.amountCents
        else if (figure) {
          g.figuresPaidCents = (g.figuresPaidCents ?? 0) + pl.amountCents
          figureOf(g, figure).paidCents += pl.amountCents
        } else g.jackpotsPaidCents += pl.amountCents
        minutes.totals.prizesPaidCents += pl.amountCents
        break
      }
      case 'refund.paid': {
        // Issue 13 point 7: each card refund paid at a cashier or onto a voucher, counted for the minutes.
        if (pl.product !== 'card') break
        const g = game(pl)
        const paid = (g.refundsPaid ??= { cards: 0, amountCents: 0 })
        paid.cards++
        paid.amountCents += pl.amountCents
        break
      }
      case 'game.finished':
        Object.assign(game(pl), { status: 'finished', endedAt: r.at })
        break
      case 'game.closing_signed':
        game(pl).closing = { signedBy: pl.signedBy.name, role: pl.signedBy.role, at: r.at, note: pl.note ?? null }
        break
      case 'game.void': {
        const g = game(pl)
        Object.assign(g, {
          status: 'void',
          endedAt: r.at,
          voidReason: pl.reason,
          refundCents: pl.refundCents,
          refundCards: pl.refundedCards,
          refundsPaid: g.refundsPaid ?? { cards: 0, amountCents: 0 },
        })
        if (pl.annulledBy && pl.confirmedBy)
          g.annulment = { requestedBy: pl.annulledBy.name, confirmedBy: pl.confirmedBy.name, reason: pl.annulReason }
        minutes.totals.refundCents += pl.refundCents
        minutes.totals.annulledGames = (minutes.totals.annulledGames ?? 0) + 1
        break
      }
      case 'incident':
        game(pl).incidents.push({
          at: r.at,
          kind: pl.kind,
          outcome: pl.outcome,
          rule: pl.rule,
          note: pl.note,
          declaredBy: pl.by?.name,
          signedBy: pl.signedBy ? { jefeMesa: pl.signedBy.jefeMesa.name, director: pl.signedBy.director.name } : null,
          // BNG-34 / GEN-31: the camera whose footage shows it, and the recording to review (GEN-29).
          cctv: pl.cctv?.cameraId ? { cameraId: pl.cctv.cameraId, cctvRef: pl.cctv.cctvRef ?? null } : null,
        })
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
      case 'complaint.recorded':
        // BNG-72: the complaints book is annexed to the minutes; the player's identity stays in the book.
        ;(minutes.complaints ??= []).push({
          number: pl.number,
          at: r.at,
          gameNo: pl.gameNo ?? null,
          text: pl.text,
          recordedBy: pl.by?.name ?? '',
          answer: null,
          answeredAt: null,
          answeredBy: null,
        })
        break
      case 'complaint.answered': {
        const c = (minutes.complaints ??= []).find((x) => x.number === pl.number)
        if (c) Object.assign(c, { answer: pl.answer, answeredAt: r.at, answeredBy: pl.by?.name ?? '' })
        break
      }
      case 'manual_book.used':
        ;(minutes.manualBook ??= []).push({
          at: r.at,
          fromGame: pl.fromGame,
          resumedAtGame: pl.resumedAtGame ?? null,
          reason: pl.reason,
          folios: pl.folios,
          recordedBy: pl.by?.name ?? '',
        })
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
  minutes.pendingComplaints = (minutes.complaints ?? []).filter((c) => c.answer === null).length
  const t = minutes.totals
  const figureTotals = new Map<Figure, number>()
  for (const g of minutes.games) {
    t.cardsSold += g.cardsSold
    t.totalCents += g.totalCents
    t.linePaidCents = (t.linePaidCents ?? 0) + g.linePaidCents
    t.bingoPaidCents = (t.bingoPaidCents ?? 0) + g.bingoPaidCents
    t.figuresPaidCents = (t.figuresPaidCents ?? 0) + (g.figuresPaidCents ?? 0)
    t.jackpotsPaidCents = (t.jackpotsPaidCents ?? 0) + g.jackpotsPaidCents
    for (const f of g.figures ?? []) figureTotals.set(f.figure, (figureTotals.get(f.figure) ?? 0) + f.paidCents)
  }
  t.figures = FIGURES.filter((f) => figureTotals.has(f)).map((f) => ({
    figure: f,
    name: FIGURE_NAMES[f].es,
    paidCents: figureTotals.get(f)!,
  }))
  return minutes
}

export async function loadSessionMinutes(db: Sql, sessionId: string): Promise<SessionMinutes> {
  const hallId = await sessionHallId(db, sessionId)
  if (hallId === undefined) throw new DomainError('SESSION_NOT_FOUND', `session ${sessionId} not found`)
  const records: JournalRecord[] = []
  for await (const r of readJournal(db, { scopePrefix: `hall:${hallId}/session:${sessionId}` })) records.push(r)
  const m = minutesFromJournal(records)
  m.currency = (await hallCurrency(db, hallId)) ?? ''
  // Issue 29 point 6: the session as people number it in their hall, not its record id.
  m.sessionNo = (await sessionNoOf(db, sessionId)) ?? undefined
  // Issue 17: the minutes speak the hall's wall clock.
  const hall = await hallProfileSettings(db, hallId)
  m.timeZone = hallZoneOf(hall?.settings, getProfile(hall?.profileId ?? m.profileId)?.timeZone ?? 'UTC')
  // Checkpoints are signed for the whole journal, so they are found by time: the session's, and the one covering its close.
  const signed = (await checkpointRowsBetween(db, m.openedAt, '9999-12-31T23:59:59.999Z')).map(toCheckpoint)
  const after = m.closedAt ? signed.findIndex((c) => c.at > m.closedAt!) : -1
  m.checkpoints = (m.closedAt ? signed.slice(0, after < 0 ? signed.length : after + 1) : signed).map((c) => ({
    seq: c.seq,
    hash: c.hash,
    at: c.at,
    keyId: c.keyId,
    signature: c.signature,
    reason: c.reason,
  }))
  return m
}
