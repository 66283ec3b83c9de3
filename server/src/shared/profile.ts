/**
 * Jurisdiction profiles: the defaults and rule switches that differ between regulatory texts.
 * Rules read these fields; no code tests a jurisdiction's name (DESIGN.md, CFG-1).
 */
import type { CardLayout } from '../bingo/card.ts'
import { LAYOUT_90 } from '../bingo/card.ts'

export interface PrizeShares {
  /** Whole prize pool, basis points of cards sold x face value (BNG-56: 6700 in Cantabria). */
  poolBp: number
  /** Line prize (BNG-56: 1000). */
  lineBp: number
  /** Bingo prize (BNG-56: 5100). */
  bingoBp: number
  /** Prima fund deduction (BNG-58: 600); 0 where the profile has no prima. */
  primaBp: number
}

export interface Profile {
  id: string
  name: string
  currency: string
  locale: 'es' | 'en'
  layout: CardLayout
  shares: PrizeShares
  /**
   * BNG-21 / CFG-17: a game needs at least `cards` cards, or `positionsPercent` % of the hall's playing
   * positions, whichever `basis` the licence chose. null = no minimum (Cantabria sets none).
   */
  minimumParticipation: { basis: 'cards' | 'positions'; cards: number; positionsPercent: number } | null
  /** BNG-24 / CFG-19: games per ball set before it must be replaced. */
  ballSetGameLimit: number
  /** BNG-27: recount of balls at session start only, or at start and end. */
  ballRecount: 'start' | 'start-and-end'
  /** BNG-1 / RNG-25: draws by certified software allowed. */
  softwareDrawAllowed: boolean
  /**
   * BNG-48 / CFG-21: the system registers claims for the cards it sold as soon as they win (electronic cards,
   * BNG-101). Off where staff may not learn of a winner before the player calls it; the server then only
   * records, silently, the ball at which each card first won.
   */
  autoClaimSoldCards: boolean
  /** BNG-83: what a caller's wrong announcement leads to. */
  callerError: 'annul' | 'ball-prevails'
  /** BNG-85 / CFG-23: cards may be handed to another player when one leaves. */
  cardTransferAllowed: boolean
  /** BNG-12: the correlative cursor of a series carries over from any earlier game, or only from the same or previous day. */
  seriesCursorCarry: 'any-previous-game' | 'same-or-previous-day'
  /** IANA time zone of a hall that sets none of its own (hall setting `timeZone`): days of BNG-12 are its days. */
  timeZone: string
  /** BNG-57..64: prima de bingo. */
  prima: { enabled: boolean; baseBallLimit: number; incrementPerGame: number; amountsCents: number[] }
  /** CFG-5. */
  minimumAge: number
  /** BNG-77 / BNG-87: minutes and winning cards kept at least this many days. */
  retentionDays: number
  /** CFG-26: equal split among winning cards, leftover centavos to the lowest serials (see money.ts). */
  splitBasis: 'card'
  /** INS-15/16: on-screen electronic instant lottery sale. */
  electronicInstantAllowed: boolean
}

const CANTABRIA_SHARES: PrizeShares = { poolBp: 6700, lineBp: 1000, bingoBp: 5100, primaBp: 600 }

/** Bolivia, RR 01-00003-25 (2025). Prize percentages come from the operator's Plan de Apuestas (BNG-52); the
 * shipped defaults mirror Cantabria's until the licence sets them. */
export const BOLIVIA_2025: Profile = Object.freeze({
  id: 'BO-2025',
  name: 'Bolivia — RR 01-00003-25 (2025)',
  currency: 'BOB',
  locale: 'es',
  layout: LAYOUT_90,
  shares: { ...CANTABRIA_SHARES, primaBp: 0 },
  minimumParticipation: { basis: 'cards', cards: 10, positionsPercent: 10 },
  ballSetGameLimit: 1000,
  ballRecount: 'start',
  softwareDrawAllowed: true,
  autoClaimSoldCards: true,
  callerError: 'annul',
  cardTransferAllowed: false,
  seriesCursorCarry: 'any-previous-game',
  timeZone: 'America/La_Paz',
  prima: { enabled: false, baseBallLimit: 50, incrementPerGame: 1, amountsCents: [] },
  minimumAge: 18,
  retentionDays: 183,
  splitBasis: 'card',
  electronicInstantAllowed: false,
}) as Profile

/** Cantabria, Decreto 6/2010 and amendments. */
export const CANTABRIA_2010: Profile = Object.freeze({
  id: 'ES-CB-2010',
  name: 'Cantabria — Decreto 6/2010',
  currency: 'EUR',
  locale: 'es',
  layout: LAYOUT_90,
  shares: CANTABRIA_SHARES,
  minimumParticipation: null,
  ballSetGameLimit: 3000,
  ballRecount: 'start-and-end',
  softwareDrawAllowed: false,
  autoClaimSoldCards: false,
  callerError: 'ball-prevails',
  cardTransferAllowed: true,
  seriesCursorCarry: 'same-or-previous-day',
  timeZone: 'Europe/Madrid',
  prima: { enabled: true, baseBallLimit: 50, incrementPerGame: 1, amountsCents: [5000, 10000, 50000, 100000] },
  minimumAge: 18,
  retentionDays: 183,
  splitBasis: 'card',
  electronicInstantAllowed: false,
}) as Profile

export const PROFILES: Readonly<Record<string, Profile>> = Object.freeze({
  [BOLIVIA_2025.id]: BOLIVIA_2025,
  [CANTABRIA_2010.id]: CANTABRIA_2010,
})

export function getProfile(id: string): Profile | undefined {
  return PROFILES[id]
}

/** BNG-21: the smallest number of cards that lets a game close its sales. */
export function minimumCardsToStart(profile: Profile, playingPositions: number): number {
  const rule = profile.minimumParticipation
  if (!rule) return 1
  if (rule.basis === 'cards') return Math.max(1, rule.cards)
  return Math.max(1, Math.ceil((playingPositions * rule.positionsPercent) / 100))
}
