/**
 * The bingo line's types: what its use cases take (deps, hooks), publish (events) and answer (game state). In a
 * module of their own so that the use-case files import them without a loop through service.ts (issue 25 point 5).
 */
import type { ClaimKind, GameStatus, LineOrBingo } from './game.ts'
import type { Profile } from '../shared/profile.ts'
import type { Database, Sql } from '../db/database.ts'
import type { GameExtras } from './game-extras.ts'
import type { Game } from './store/games.ts'

export type { Game, GameRow } from './store/games.ts'
export type { Hall, HallRow } from './store/halls.ts'
import type { Sealer } from '../shared/sealing.ts'
import type { BeaconSource, BeaconValue } from '../shared/beacon-source.ts'
import type { BeaconScheme } from '../shared/beacon.ts'
import type { Clock, EntropySource } from '../shared/clock.ts'
export type { Clock, EntropySource }

export interface BingoDeps {
  db: Database
  clock: Clock
  entropy: EntropySource
  /** Called after each commit with what screens must show. */
  publish?: (event: BingoEvent) => void
  /** Rules of other modules (device registry, ball sets) run inside the use cases' transactions. */
  hooks?: readonly BingoHooks[]
  /** Randomness for record ids; defaults to `entropy`. Draw seeds always come from `entropy` (RNG-32). */
  idEntropy?: EntropySource
  /** Seals seeds and draw orders; services.ts passes the one under the operator's sealing key. */
  sealer?: Sealer
  /** bolillo-draw-v2's beacon; services.ts passes the configured relays (and the demo hall's demo beacon). */
  beacon?: BeaconSource
  /** Fetch the beacon round as soon as it is published after a close of sales, so the hall sees it before the first ball. */
  autoBeacon?: boolean
  /**
   * Issue 26 (RNG-32 point 4): the draw engine's version and build hash (equipment/software.ts), named in every ball's
   * journal record. services.ts passes the running build's.
   */
  drawEngine?: { version: string; buildSha256: string }
}

/**
 * What the caller read with the game's row in the sale's own transaction (cashdesk `gameWithSealsById`: one round
 * trip under the hall's lock instead of one per hook); a hook reads for itself what is absent.
 */
export interface JoinedSaleFacts {
  /** BNG-65: when the hall was closed for good; null while it is open. */
  hallClosedAt: string | null
  /** BNG-100: how many halls share the game (0: an ordinary game). */
  gameHalls: number
  /** BNG-9: the game's hall's profile and its terminal terms, for the terminal-range hook (absent: read there). */
  hallTerms?: HallTermsRead
}

/** A hall's profile, its settings and its terminal terms, as one read answers them (terminals/store.ts). */
export interface HallTermsRead {
  /** undefined: no such hall. */
  profileId: string | undefined
  settings: string
  /** undefined: the hall has no terms of its own. */
  terms: { hall_id: string; reference: string; terms: string; set_at: string; set_by: string } | undefined
}

/** The columns of `halls` and `terminal_terms` a read of {@link HallTermsRead} selects (terms LEFT JOINed). */
export interface HallTermsColumns {
  profile_id: string | null
  settings: string | null
  hall_id: string | null
  reference: string | null
  terms: string | null
  set_at: string | null
  set_by: string | null
}

/** {@link HallTermsRead} from its columns (undefined: no such hall; `hall_id` null: no terms of its own). */
export function hallTermsRead(r: HallTermsColumns | undefined): HallTermsRead {
  return {
    profileId: r?.profile_id ?? undefined,
    settings: r?.settings ?? '{}',
    terms:
      r?.hall_id == null
        ? undefined
        : { hall_id: r.hall_id, reference: r.reference!, terms: r.terms!, set_at: r.set_at!, set_by: r.set_by! },
  }
}

/**
 * Extension points called inside a use case's transaction, after its own checks. A hook that throws refuses the
 * action and rolls it back; a hook may append journal records with the `scope` given.
 */
export interface BingoHooks {
  sessionOpened?(
    tx: Sql,
    e: {
      sessionId: string
      hallId: string
      profile: Profile
      recount: { ballsCounted: number; confirmedBy: string }
      at: string
      scope: string
    },
  ): Promise<void>
  sessionClosing?(
    tx: Sql,
    e: {
      sessionId: string
      hallId: string
      profile: Profile
      recount: { ballsCounted: number; confirmedBy: string } | null
      at: string
      scope: string
    },
  ): Promise<void>
  gameAnnounced?(
    tx: Sql,
    e: {
      gameId: string
      sessionId: string
      hallId: string
      profile: Profile
      drawSource: string
      deviceId: string | null
      at: string
      scope: string
    },
  ): Promise<void>
  ballRecording?(
    tx: Sql,
    e: {
      gameId: string
      sessionId: string
      hallId: string
      profile: Profile
      drawSource: string
      ball: number
      seq: number
      source: string
      deviceId: string | null
      at: string
      scope: string
    },
  ): Promise<void>
  /** Issue #8 (app/bonus.ts): prima, pots, lucky ball, simultaneous games. */
  cardsSelling?(tx: Sql, e: { game: Game; count: number; channel: string; joined?: JoinedSaleFacts }): Promise<void>
  /** BNG-34: before a game's sale opens (a refusal keeps it announced). */
  salesOpening?(tx: Sql, e: { game: Game; profile: Profile; at: string; scope: string }): Promise<void>
  salesClosed?(tx: Sql, e: { game: Game; profile: Profile; at: string; scope: string }): Promise<void>
  prizeAwarded?(
    tx: Sql,
    e: {
      game: Game
      profile: Profile
      kind: LineOrBingo
      winners: Array<{ serial: string; cardId: string; atBall: number; amountCents: number }>
      balls: number[]
      at: string
      scope: string
    },
  ): Promise<void>
  gameVoided?(tx: Sql, e: { game: Game; at: string; scope: string }): Promise<void>
  /**
   * Issue 27 (BNG-9): the part of a series a sale on `channel` may take. null: the series' own cursor and limit. A
   * range with `advance` is a seller's own block (the terminals'), whose cursor the hook keeps and moves itself; the
   * series' cursor and the game's announced range (BNG-17) are left to the other sellers.
   */
  cardRange?(
    tx: Sql,
    e: {
      game: Game
      seriesId: string
      cardCount: number
      nextCardNo: number
      channel: string
      joined?: JoinedSaleFacts
    },
  ): Promise<{ from: number; to: number; advance?: (from: number, next: number) => Promise<boolean> } | null>
  gameState?(db: Sql, game: Game): Promise<Partial<GameExtras>>
  /**
   * bolillo-draw-v2: round R of a game is verified and its order fixed (DESIGN.md draw v2 point 3), inside the
   * draw's transaction. The v2 lucky ball is fixed here (bonus-service.ts).
   */
  beaconVerified?(tx: Sql, e: { game: Game; beacon: BeaconValue; at: string; scope: string }): Promise<void>
}

export type BingoEvent =
  | { type: 'game:changed'; gameId: string; hallId: string; seq: number; reason: string; ball?: number; count?: number }
  | { type: 'session:changed'; sessionId: string; hallId: string; seq: number; reason: string }

export interface SoldCard {
  id: string
  serial: string
  seriesCode: string
  cardNo: number
  rows: number[][]
}

/**
 * The beacon round of a v2 draw as the hall sees it (DESIGN.md bolillo-draw-v2 points 2, 3 and 9): from the close of
 * sales, the round awaited and when it is published; once verified, its randomness. `demo`: the local demo beacon.
 */
export interface BeaconState {
  round: number
  publishedAt: string
  status: 'awaiting' | 'verified'
  randomness?: string
  scheme: BeaconScheme
  demo: boolean
}

/** Who caused a journal record, from the authenticated request (never from a body). */
export interface Actor {
  kind: string
  id: string
  name: string
  role: string
}

export interface PublicWinner {
  kind: ClaimKind
  serial: string
  cardId: string
  rows: number[][]
  atBall: number
  amountCents: number | null
  status: 'verified' | 'awarded' | 'paid'
}

/** What every screen may see of a game. Secrets (seed, draw order) are only shown once the game has ended. */
/** The issue #8 fields (GameExtras) are always filled by the server; optional so older screens and fixtures still type-check. */
import type { SoldRange } from './announcement.ts'
import type { GameSaleLimits, PostedBets } from './sale-rules.ts'

export interface GameState extends Partial<GameExtras> {
  gameId: string
  hallId: string
  hallName: string
  sessionId: string
  orderNo: number
  status: GameStatus
  profileId: string
  currency: string
  faceValueCents: number
  ballCount: number
  cardsSold: number
  totalCents: number
  linePoolCents: number | null
  bingoPoolCents: number | null
  lineClosed: boolean
  window: ClaimKind | null
  drawSource: string
  commitment: string
  balls: number[]
  lastBall: number | null
  series: Array<{ code: string; position: number; from: number; to: number; maxCardNo: number; cardCount: number }>
  /** BNG-17 / BNG-18: from the close of sales, the card numbers sold as runs per series (null while on sale). */
  soldRanges: SoldRange[] | null
  /**
   * BNG-98 / CFG-32: in a fast bingo whose buyer chooses his numbers, how many of what universe (and how many drawn
   * make the bingo); null for printed cards. The counter's screen asks for them from this.
   */
  chosenNumbers?: { universe: number; picks: number; timesRequired: number } | null
  /**
   * BNG-40 / GEN-18: the bets the hall posts (cards per purchase and per player, face values) with the authority's
   * reference of its sale rules (null: the profile's defaults, no authorisation on record), for the hall's panels.
   */
  bets?: PostedBets
  /** CFG-7: the game's own posted limits (and per channel), within the hall's; null: the hall's apply. */
  gameBets?: GameSaleLimits | null
  winners: PublicWinner[]
  /**
   * CFG-13 / BNG-103: the prize figures this game plays beyond line and bingo, each with its public name, its pool
   * (from the close of sales; null before) and whether its prize has been awarded. Empty for line and bingo only.
   */
  figures?: Array<{
    kind: ClaimKind
    figure: string
    name: { es: string; en: string }
    shareBp: number
    poolCents: number | null
    awarded: boolean
  }>
  rejectedClaims: Array<{ serial: string; kind: ClaimKind; reason: string; atBall: number }>
  isLastGame: boolean
  voidReason: string | null
  seq: number
  /** Fixed at the close of sales (v2): the sales digest D, the close time t and the beacon round R. */
  salesDigest?: string | null
  closedAt?: string | null
  beacon?: BeaconState | null
  /** Issue 15 point 4: a game annulled by two people shows the hall their reason (the names stay in the minutes). */
  annulment?: { reason: string; at: string } | null
  /** Issue 17: the game's newest incident (what happened and how the game goes on), shown on every screen. */
  incident?: { at: string; kind: string; outcome: string; note: string; rule: string } | null
  times: {
    createdAt: string
    salesOpenedAt: string | null
    salesClosedAt: string | null
    firstBallAt: string | null
    finishedAt: string | null
  }
}
