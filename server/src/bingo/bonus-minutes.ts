/**
 * The minutes fields of issue #8's journal records (minutes.ts calls this for record types it does not know):
 * prima per game (BNG-64: amount deducted, amount accumulated, balls drawn when the winning card was completed,
 * accumulated games; BNG-61 amount changes with the game number), pots (BNG-73 (5): amounts, contributions, awards,
 * payments), the lucky ball (BNG-67) and the halls of a simultaneous game (BNG-100).
 */
import type { JournalRecord } from '../shared/journal-chain.ts'

export interface MinutesPrima {
  /** On offer in this game (BNG-60). */
  active: boolean
  amountCents: number
  /** Maximum ball announced (BNG-62). */
  ballLimit: number
  fundAtStartCents: number
  /** BNG-64: amount deducted in this game. */
  deductedCents: number
  /** BNG-64: amount accumulated after this game's deduction. */
  accumulatedCents: number
  awardedCents: number
  /** Balls drawn when the bingo was verified, and when the winning card was completed (BNG-64). */
  atBall: number | null
  completedAtBall: number | null
  /** BNG-64: games accumulated when it was awarded. */
  accumulatedGames: number | null
  paidCents: number
  outcome: 'won' | 'not_won' | 'not_offered' | 'void' | null
  nextBallLimit: number | null
}

export interface MinutesJackpot {
  name: string
  /** The pot after this game's contribution. */
  amountCents: number
  potId?: string
  kind?: string
  contributedCents?: number
  awardedCents?: number
  paidCents?: number
}

/** The minutes always fill these (null when not used); optional so that older fixtures still type-check. */
export interface MinutesBonusGame {
  prima?: MinutesPrima | null
  jackpots: MinutesJackpot[]
  jackpotsPaidCents: number
  luckyBall?: { commitment: string; numbers: number[] | null } | null
  halls?: Array<{ hallId: string; fromCardNo: number; toCardNo: number; cardsSold: number; salesCents: number }> | null
}

export interface MinutesBonusSession {
  primaChanges?: Array<{ fromCents: number; toCents: number; fromGameNo: number | null; at: string }>
  totals: { prizesPaidCents: number }
}

/** Folds one record into the minutes; returns false for a record type it does not handle. */
export function applyBonusRecord(
  r: JournalRecord,
  minutes: MinutesBonusSession,
  game: (payload: unknown) => MinutesBonusGame,
): boolean {
  const pl = r.payload as Record<string, any>
  const jackpot = (g: MinutesBonusGame, potId: string, name: string, kind: string) => {
    let j = g.jackpots.find((x) => x.potId === potId)
    if (!j) {
      j = { potId, name, kind, amountCents: 0, contributedCents: 0, awardedCents: 0, paidCents: 0 }
      g.jackpots.push(j)
    }
    return j
  }
  switch (r.type) {
    case 'prima.announced':
      game(pl).prima = {
        active: Boolean(pl.active),
        amountCents: pl.amountCents,
        ballLimit: pl.ballLimit,
        fundAtStartCents: pl.fundCents,
        deductedCents: 0,
        accumulatedCents: pl.fundCents,
        awardedCents: 0,
        atBall: null,
        completedAtBall: null,
        accumulatedGames: null,
        paidCents: 0,
        outcome: null,
        nextBallLimit: null,
      }
      return true
    case 'prima.not_offered': {
      const p = game(pl).prima
      if (p) Object.assign(p, { active: false, outcome: 'not_offered' })
      return true
    }
    case 'prima.deducted': {
      const p = game(pl).prima
      if (p) Object.assign(p, { deductedCents: pl.deductedCents, accumulatedCents: pl.accumulatedCents })
      return true
    }
    case 'prima.awarded': {
      const p = game(pl).prima
      const completed = (pl.winners as Array<{ completedAtBall: number | null }>).map((w) => w.completedAtBall ?? 0)
      if (p)
        Object.assign(p, {
          awardedCents: pl.amountCents,
          atBall: pl.atBall,
          completedAtBall: completed.length ? Math.max(...completed) : null,
          accumulatedGames: pl.accumulatedGames,
          outcome: 'won',
          nextBallLimit: pl.nextBallLimit,
        })
      return true
    }
    case 'prima.not_won': {
      const p = game(pl).prima
      if (p) Object.assign(p, { atBall: pl.atBall, outcome: 'not_won', nextBallLimit: pl.nextBallLimit })
      return true
    }
    case 'prima.reversed': {
      const p = game(pl).prima
      if (p) Object.assign(p, { outcome: 'void', accumulatedCents: pl.accumulatedCents })
      return true
    }
    case 'prima.amount_changed': {
      minutes.primaChanges ??= []
      minutes.primaChanges.push({
        fromCents: pl.fromCents,
        toCents: pl.toCents,
        fromGameNo: pl.fromGameNo ?? null,
        at: r.at,
      })
      return true
    }
    case 'pot.contributed': {
      const j = jackpot(game(pl), pl.potId, pl.name, pl.kind)
      j.contributedCents =
        (j.contributedCents ?? 0) +
        (pl.contributions as Array<{ mainCents: number; reserveCents: number }>).reduce(
          (t, c) => t + c.mainCents + c.reserveCents,
          0,
        )
      j.amountCents = pl.amountCents
      return true
    }
    case 'pot.awarded': {
      const j = jackpot(game(pl), pl.potId, pl.name, pl.kind)
      j.awardedCents = (j.awardedCents ?? 0) + pl.amountCents
      return true
    }
    case 'bonus.paid': {
      const g = game(pl)
      g.jackpotsPaidCents += pl.amountCents
      minutes.totals.prizesPaidCents += pl.amountCents
      if (pl.source === 'prima') {
        if (g.prima) g.prima.paidCents += pl.amountCents
      } else if (pl.potId) {
        const j = jackpot(g, pl.potId, pl.name, pl.source)
        j.paidCents = (j.paidCents ?? 0) + pl.amountCents
      }
      return true
    }
    case 'lucky.committed':
      game(pl).luckyBall = { commitment: pl.commitment, numbers: null }
      return true
    case 'lucky.drawn': {
      const g = game(pl)
      g.luckyBall = { commitment: pl.commitment, numbers: pl.numbers }
      return true
    }
    case 'simultaneous.sales_closed':
      game(pl).halls = pl.halls
      return true
    case 'prima.configured':
    case 'pot.reversed':
    case 'simultaneous.hall_joined':
      return true
    default:
      return false
  }
}
