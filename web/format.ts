/**
 * Pure formatting for the hall display and the caller console: state words, money, the draw commitment,
 * the board's shape and a winning card's 3 x 9 grid. No DOM here, so everything is unit-tested.
 */
import type { GameState } from '../server/src/bingo/service.ts'
import { cardFromRows, LAYOUT_75, LAYOUT_90, type CardLayout } from '../server/src/bingo/card.ts'
import type { GameStatus } from '../server/src/bingo/game.ts'
import { formatMoney } from '../server/src/shared/money.ts'
import { FIGURE_NAMES, figureOfKind } from '../server/src/bingo/patterns.ts'
import { text, type Lang, type TextKey } from './i18n.ts'

/** The game's state as the big word the hall reads (EN VENTA, EN JUEGO, LÍNEA, ...). */
export function stateWord(status: GameStatus, lang: Lang): string {
  return text(lang, `st_${status}` as TextKey)
}

/** The game's big word, and while a figure's window is open the figure's name instead of LÍNEA (CFG-13). */
export function gameWord(state: Pick<GameState, 'status' | 'window'>, lang: Lang): string {
  const figure = state.window ? figureOfKind(state.window) : null
  return figure ? FIGURE_NAMES[figure][lang].toUpperCase() : stateWord(state.status, lang)
}

/** BNG-50: the "¿alguna línea más?" / "¿algún bingo más?" question while a claim window is open, else null. */
export function windowQuestion(window: GameState['window'], lang: Lang): string | null {
  if (window === 'line') return text(lang, 'anyMoreLine')
  if (window === 'bingo') return text(lang, 'anyMoreBingo')
  const figure = window ? figureOfKind(window) : null
  // CFG-13: a figure's window asks for more cards with that figure.
  if (figure) return text(lang, 'anyMoreFigure').replace('{figure}', FIGURE_NAMES[figure][lang].toUpperCase())
  return null
}

/** The prize's name as screens show it: LÍNEA, BINGO, or the figure's name (CFG-13), upper case. */
export function prizeKindWord(kind: string, lang: Lang): string {
  if (kind === 'line') return text(lang, 'winnerLine')
  if (kind === 'bingo') return text(lang, 'winnerBingo')
  const figure = figureOfKind(kind)
  return figure ? FIGURE_NAMES[figure][lang].toUpperCase() : kind
}

/** The pool of a prize kind: the line's, the bingo's or the figure's (null before the close of sales). */
export function poolOfKind(state: Pick<GameState, 'linePoolCents' | 'bingoPoolCents' | 'figures'>, kind: string) {
  if (kind === 'line') return state.linePoolCents
  if (kind === 'bingo') return state.bingoPoolCents
  return state.figures?.find((f) => f.kind === kind)?.poolCents ?? null
}

/** Money for people, in the hall's currency: formatMoney from the domain, with the screen's language. */
export function money(amountCents: number, currency: string, lang: Lang): string {
  return formatMoney(amountCents, currency, lang)
}

/**
 * Short form of the draw commitment (a 64-hex SHA-256) that people can compare by eye: the first and last
 * eight characters in groups of four, e.g. "3f9a 12bc … 9e01 77de".
 */
export function shortCommitment(hex: string): string {
  const clean = hex.trim().toLowerCase()
  if (clean.length <= 20) return clean
  const group = (s: string) => s.replace(/(.{4})(?=.)/g, '$1 ')
  return `${group(clean.slice(0, 8))} … ${group(clean.slice(-8))}`
}

/** The beacon's randomness as the hall reads it: its first 16 hex characters, in groups of four, then "…". */
export function shortRandomness(hex: string): string {
  return `${hex
    .trim()
    .toLowerCase()
    .slice(0, 16)
    .replace(/(.{4})(?=.)/g, '$1 ')}…`
}

/**
 * The beacon line of a game after its close (bolillo-draw-v2): the round awaited, or the round with its randomness
 * once verified, and whether it is the labelled demo beacon. Null before the close and for v1 games.
 */
export function beaconInfo(
  state: Pick<GameState, 'beacon'>,
  lang: Lang,
): { label: string; value: string; note: string; demo: boolean; verified: boolean } | null {
  const b = state.beacon
  if (!b) return null
  if (b.status !== 'verified' || !b.randomness) {
    return {
      label: text(lang, 'beaconRound'),
      value: String(b.round),
      note: text(lang, 'beaconAwaiting'),
      demo: b.demo,
      verified: false,
    }
  }
  return {
    label: `${text(lang, 'beaconRound')} ${b.round}`,
    value: shortRandomness(b.randomness),
    note: b.demo ? text(lang, 'beaconDemo') : text(lang, 'beaconPublic'),
    demo: b.demo,
    verified: true,
  }
}

/** "Esperando la ronda N del faro público…" */
export function beaconWaiting(round: number, lang: Lang): string {
  return text(lang, 'beaconWaiting').replace('{round}', String(round))
}

/** The full commitment in groups of eight, so it wraps cleanly on a small line. */
export function groupedCommitment(hex: string): string {
  return hex
    .trim()
    .toLowerCase()
    .replace(/(.{8})(?=.)/g, '$1 ')
}

/**
 * The board of balls 1..ballCount as rows: 9 rows of 10 for 90 balls (1-10, 11-20, ... 81-90), 5 rows of 15 for
 * 75 balls (the B-I-N-G-O columns read across), otherwise rows of 10.
 */
export function boardRows(ballCount: number): number[][] {
  const perRow = ballCount === 75 ? 15 : 10
  const rows: number[][] = []
  for (let start = 1; start <= ballCount; start += perRow) {
    rows.push(Array.from({ length: Math.min(perRow, ballCount - start + 1) }, (_, i) => start + i))
  }
  return rows
}

function layoutFor(ballCount: number): CardLayout {
  return ballCount === 75 ? LAYOUT_75 : LAYOUT_90
}

/**
 * BNG-98 / CFG-32: a card of one row (bingo rápido, and the numbers a player chose: chosenNumbersLayout, whose one
 * row is as wide as the universe) is drawn as its numbers only, in their order, never as a row with a cell for each
 * number of the universe (blank cells for 40 to 90 numbers the card does not hold).
 */
export function isNumbersCard(rows: readonly (readonly number[])[]): boolean {
  return rows.length === 1
}

/**
 * A card's full grid (rows x columns, 0 for a blank cell) from its rows of numbers as the server sends them
 * (PublicWinner.rows, GET /cards/:serial). Numbers go to their column by the layout's ranges (BNG-5). If the rows
 * do not fit the layout, they are shown left-aligned rather than not at all.
 */
export function cardGrid(rows: readonly (readonly number[])[], ballCount: number): number[][] {
  if (isNumbersCard(rows)) return [rows[0].filter((n) => n > 0)]
  try {
    return cardFromRows(rows, layoutFor(ballCount)).grid
  } catch {
    const width = Math.max(0, ...rows.map((r) => r.length))
    return rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? 0))
  }
}

/** Indices of the rows whose every number has been called (a line), for highlighting. */
export function completeRows(rows: readonly (readonly number[])[], called: ReadonlySet<number>): number[] {
  return rows.flatMap((row, i) => (row.length > 0 && row.every((n) => called.has(n)) ? [i] : []))
}

/** How many of a card's numbers have been called. */
export function markedCount(rows: readonly (readonly number[])[], called: ReadonlySet<number>): number {
  let n = 0
  for (const row of rows) for (const x of row) if (called.has(x)) n++
  return n
}

/** A claim's rejection reason (verifyClaim's codes) in words; unknown codes are shown as they come. */
export function claimReason(reason: string | undefined | null, lang: Lang): string {
  if (!reason) return ''
  // An unknown code has no entry in the table: text() gives undefined for it at run time.
  return (text(lang, `r_${reason}` as TextKey) as string | undefined) ?? reason
}

/** The last `n` balls before the current one, most recent first. */
export function previousBalls(balls: readonly number[], n = 5): number[] {
  return balls.slice(Math.max(0, balls.length - 1 - n), Math.max(0, balls.length - 1)).reverse()
}

/** The prize fields beyond line and bingo, ready to show (BNG-37 (4)(5), BNG-55, BNG-63, BNG-67). */
export interface ExtraPrizes {
  /** Prima de bingo: amount, maximum ball, and whether it is on offer in this game. */
  prima: { amountCents: number; maxBall: number | null; active: boolean } | null
  /** Pots with their public conditions and the share of the card price that funds them (BNG-55). */
  jackpots: Array<{
    name: string
    amountCents: number
    /** RNG-17: what the latest game added to the pot; null before the first (or from an older server). */
    incrementCents: number | null
    condition: string | null
    contributionBp: number | null
  }>
  /** Lucky-ball numbers, once fixed at close of sales (BNG-67). */
  luckyNumbers: number[] | null
}

/**
 * Reads the optional issue #8 fields of the state (primaActive, primaAmountCents, primaBallLimit, pots,
 * luckyBall). Older servers and fixtures leave them out; anything malformed is ignored rather than shown wrong.
 */
export function extraPrizes(
  state: Partial<Pick<GameState, 'primaActive' | 'primaAmountCents' | 'primaBallLimit' | 'pots' | 'luckyBall'>>,
): ExtraPrizes {
  const prima =
    typeof state.primaAmountCents === 'number'
      ? {
          amountCents: state.primaAmountCents,
          maxBall: typeof state.primaBallLimit === 'number' ? state.primaBallLimit : null,
          active: state.primaActive === true,
        }
      : null
  const jackpots: ExtraPrizes['jackpots'] = []
  for (const p of Array.isArray(state.pots) ? state.pots : []) {
    if (p && typeof p.amountCents === 'number') {
      jackpots.push({
        name: typeof p.name === 'string' ? p.name : '',
        amountCents: p.amountCents,
        incrementCents: typeof p.incrementCents === 'number' ? p.incrementCents : null,
        condition: typeof p.conditions === 'string' && p.conditions ? p.conditions : null,
        contributionBp: typeof p.contributionBp === 'number' ? p.contributionBp : null,
      })
    }
  }
  const numbers = state.luckyBall?.numbers
  return { prima, jackpots, luckyNumbers: Array.isArray(numbers) && numbers.length > 0 ? numbers : null }
}

/** Bonus prizes (prima, pots, lucky ball) won by one card with one prize kind, for the winner panel. */
export function bonusesOf(
  state: Pick<GameState, 'bonusWinners'>,
  cardId: string,
  kind: string,
): Array<{ name: string; amountCents: number }> {
  return (state.bonusWinners ?? [])
    .filter((b) => b.cardId === cardId && b.prizeKind === kind && b.status !== 'void')
    .map((b) => ({ name: b.name, amountCents: b.amountCents }))
}

/**
 * The verified winners the hall should see now (BNG-35, BNG-46: the card-matrix shown to everyone): those of the
 * open "any more?" window, or the bingo winners once the game has finished. Nothing while play goes on.
 */
export function winnersOnShow(state: Pick<GameState, 'window' | 'status' | 'winners'>): GameState['winners'] {
  if (state.window) return state.winners.filter((w) => w.kind === state.window)
  if (state.status === 'finished') return state.winners.filter((w) => w.kind === 'bingo')
  return []
}
