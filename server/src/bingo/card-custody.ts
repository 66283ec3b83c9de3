/**
 * The life of a sold bingo card after its game (BNG-87, BNG-88, BNG-89, BNG-92). Pure rules: which custody states
 * a card passes through, which moves are allowed, and when. Storage, roles and the journal are the service's
 * (card-custody-service.ts); the SQL is store.ts.
 *
 * States (BNG-89 design note: sold / returned / winning / voided / refunded; 004 Bingo II.1.a; 002 §6.1.7):
 * - `sold`: with the player (no custody row). A refunded card keeps `cards.status = 'refunded'` and, once handed
 *   back for its refund, is `returned` like any other.
 * - `returned`: collected by the hall after the game (BNG-88: handed back before buying for the next game; BNG-87:
 *   non-winning cards collected and removed before the next game). Only a card without prizes is `returned`.
 * - `evidence`: kept as evidence of a claim, incident or infringement, at the authority's disposal (BNG-87 (a)); a
 *   card presented altered or with a code that does not match is kept here (BNG-92: invalid for prizes). Neither
 *   paid, refunded nor destroyed while held; only the director releases it, citing the authority's decision.
 * - `winner_archive`: a card that won a line or bingo, archived by the hall for at least six months (BNG-87 (b)).
 *   A payout archives the card it pays (BNG-71: paid against delivery of the card).
 * - `destroyed`: the end. Non-winning returned cards after their game; archived winners once the archive period has
 *   passed. Never paid or refunded.
 */
import { DomainError } from '../shared/errors.ts'

export const CardCustody = {
  Sold: 'sold',
  Returned: 'returned',
  Evidence: 'evidence',
  WinnerArchive: 'winner_archive',
  Destroyed: 'destroyed',
} as const
export type CardCustody = (typeof CardCustody)[keyof typeof CardCustody]

export const CUSTODY_STATES: readonly CardCustody[] = Object.values(CardCustody)

/** Who may make a move (checked by the route's permission; kept here so the table reads in one place). */
export type CustodyAction = 'collect' | 'archive' | 'hold' | 'release' | 'destroy'

/** The facts about a card a move is decided on. */
export interface CustodyFacts {
  state: CardCustody
  /** Its game has ended (finished, or void with every card refunded). */
  gameEnded: boolean
  /** It won a line or bingo (a prize awarded or paid), in this game. */
  hasPrizes: boolean
  /** Some prize of it is awarded and not yet paid. */
  hasUnpaidPrizes: boolean
  /** When its game ended (ISO), for the archive period. */
  endedAt: string | null
}

/** The move from `from` by `action`, or the reason it is refused. */
export function nextCustody(
  facts: CustodyFacts,
  action: CustodyAction,
  at: string,
  winnerArchiveDays: number,
): { to: CardCustody } | { refused: string } {
  const { state } = facts
  if (state === CardCustody.Destroyed)
    return { refused: 'the card was destroyed: nothing more can be done with it (BNG-87)' }
  switch (action) {
    case 'collect':
      // BNG-87/88: after the game the non-winning cards are collected; a winner goes to the archive instead.
      if (state !== CardCustody.Sold) return { refused: `a ${state} card is not collected again` }
      if (!facts.gameEnded) return { refused: 'cards are collected after their game has ended (BNG-87)' }
      if (facts.hasPrizes) return { refused: 'a winning card is archived, not collected for destruction (BNG-87 (b))' }
      return { to: CardCustody.Returned }
    case 'archive':
      if (state !== CardCustody.Sold && state !== CardCustody.Returned)
        return { refused: `a ${state} card is not archived` }
      if (!facts.gameEnded) return { refused: 'a card is archived after its game has ended (BNG-87 (b))' }
      if (!facts.hasPrizes) return { refused: 'only a card that won a line or bingo is archived (BNG-87 (b))' }
      return { to: CardCustody.WinnerArchive }
    case 'hold':
      // BNG-87 (a), BNG-92: any card not destroyed may be kept as evidence, at any time.
      if (state === CardCustody.Evidence) return { refused: 'the card is already held as evidence' }
      return { to: CardCustody.Evidence }
    case 'release':
      if (state !== CardCustody.Evidence) return { refused: 'only a card held as evidence is released' }
      return {
        to:
          facts.hasPrizes && facts.gameEnded
            ? CardCustody.WinnerArchive
            : facts.gameEnded
              ? CardCustody.Returned
              : CardCustody.Sold,
      }
    case 'destroy': {
      if (state === CardCustody.Evidence)
        return { refused: "a card held as evidence is at the authority's disposal: it is released first (BNG-87 (a))" }
      if (state === CardCustody.Sold)
        return { refused: 'a card is collected or archived before it is destroyed (BNG-87)' }
      if (!facts.gameEnded) return { refused: 'cards are destroyed after their game has ended (BNG-87)' }
      if (state === CardCustody.WinnerArchive) {
        const until = archiveUntil(facts.endedAt ?? at, winnerArchiveDays)
        if (at < until)
          return {
            refused: `a winning card is archived until ${until} (at least ${winnerArchiveDays} days, BNG-87 (b))`,
          }
        if (facts.hasUnpaidPrizes) return { refused: 'the card still has an unpaid prize' }
      }
      return { to: CardCustody.Destroyed }
    }
    default: {
      const _never: never = action
      return { refused: `unknown action ${String(_never)}` }
    }
  }
}

/** The end of a winning card's archive period (BNG-87 (b)). */
export function archiveUntil(endedAt: string, days: number): string {
  return new Date(Date.parse(endedAt) + days * 86_400_000).toISOString()
}

/** Throws CARD_CUSTODY_REFUSED unless the move is allowed; returns the new state. */
export function assertCustodyMove(
  facts: CustodyFacts,
  action: CustodyAction,
  at: string,
  winnerArchiveDays: number,
): CardCustody {
  const r = nextCustody(facts, action, at, winnerArchiveDays)
  if ('refused' in r)
    throw new DomainError('CARD_CUSTODY_REFUSED', r.refused, { from: facts.state, action, rule: 'BNG-87' })
  return r.to
}

/** BNG-92: why a cashier holds a presented card. */
export const TAMPER_REASONS = ['code_mismatch', 'altered_marks', 'erasable_marks', 'damaged'] as const
export type TamperReason = (typeof TAMPER_REASONS)[number]
