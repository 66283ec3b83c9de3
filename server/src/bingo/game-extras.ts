/**
 * What the game state shows beyond the ordinary line and bingo (issue #8): the prima (BNG-37 (5), BNG-62, BNG-63),
 * the pots in play with their public conditions (BNG-55, RNG-17, RNG-23), the lucky ball (BNG-67), the halls of a
 * simultaneous game (BNG-100) and the bonus winners. Filled by app/bonus.ts through the bingo hooks; a bingo
 * service without those hooks shows NO_EXTRAS.
 */
export interface PotView {
  id: string
  name: string
  kind: 'progressive' | 'interconnected' | 'lucky'
  /** The main pot now (the sum of its ledger). */
  amountCents: number
  /** RNG-17: its increment, what the latest game's sales added to the main pot; null before the first. */
  incrementCents: number | null
  reserveCents: number
  /** Share of the card price that funds it (BNG-55). */
  contributionBp: number
  /** Public conditions, in words (BNG-55: shown at all times). */
  conditions: string
  condition: unknown
  hallIds: string[]
}

export interface BonusWinnerView {
  id: string
  source: 'prima' | 'progressive' | 'interconnected' | 'lucky'
  name: string
  prizeKind: 'line' | 'bingo'
  serial: string
  cardId: string
  hallId: string
  amountCents: number
  atBall: number
  status: 'awarded' | 'paid' | 'void'
}

export interface GameExtras {
  /** The prima is on offer in this game (BNG-60). */
  primaActive: boolean
  /** The prima amount in force, announced at the start of the game (BNG-62); null where the hall has no prima. */
  primaAmountCents: number | null
  /** Maximum ball for the prima in this game (BNG-37 (5), BNG-62). */
  primaBallLimit: number | null
  /** The hall's prima fund when the game was announced. */
  primaFundCents: number | null
  pots: PotView[]
  /** Lucky ball: commitment from the announcement; numbers from close of sales (before the first ball). */
  luckyBall: { commitment: string; numbers: number[] | null } | null
  /** Halls of a simultaneous game with their card ranges and sales; null for a one-hall game. */
  halls: Array<{
    hallId: string
    hallName: string
    seriesCode: string
    fromCardNo: number
    toCardNo: number
    cardsSold: number
  }> | null
  /** Hall that sold each winning card (simultaneous games). */
  winnerHalls: Array<{ cardId: string; serial: string; hallId: string }>
  bonusWinners: BonusWinnerView[]
  /**
   * Issue 26 (RNG-32 point 4): the software the game was announced with (equipment/software.ts): each component's
   * version and build hash, and the certificate it runs under (null where the hall's profile asks none).
   */
  software: Array<{ component: string; version: string; buildSha256: string; certificateRef: string | null }>
}

export const NO_EXTRAS: GameExtras = Object.freeze({
  primaActive: false,
  primaAmountCents: null,
  primaBallLimit: null,
  primaFundCents: null,
  pots: [],
  luckyBall: null,
  halls: null,
  winnerHalls: [],
  bonusWinners: [],
  software: [],
}) as GameExtras
