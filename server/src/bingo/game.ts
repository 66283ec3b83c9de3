/**
 * The bingo game lifecycle as the regulation tells it (BNG-41 to BNG-51, BNG-80 to BNG-86). Pure rules:
 * which action is legal in which state, claim verification against the called balls, prize amounts.
 */
import { DomainError } from '../shared/errors.ts'
import { shareOf, splitEvenly, type Cents } from '../shared/money.ts'
import type { FigureKind } from './patterns.ts'
import type { CardLayout } from './card.ts'

export const GameStatus = {
  Announced: 'announced',
  OnSale: 'on_sale',
  SalesClosed: 'sales_closed',
  Drawing: 'drawing',
  /** BNG-46: a player has called; play stops while the card is checked. */
  Checking: 'checking',
  LineWindow: 'line_window',
  BingoWindow: 'bingo_window',
  Finished: 'finished',
  Suspended: 'suspended',
  Void: 'void',
} as const
export type GameStatus = (typeof GameStatus)[keyof typeof GameStatus]

export const GameAction = {
  AddSeries: 'add_series',
  OpenSales: 'open_sales',
  Sell: 'sell',
  CloseSales: 'close_sales',
  Draw: 'draw',
  Claim: 'claim',
  CloseWindow: 'close_window',
  Suspend: 'suspend',
  Resume: 'resume',
  Annul: 'annul',
  SwitchToManual: 'switch_to_manual',
  CorrectBall: 'correct_ball',
  StopForClaim: 'stop_for_claim',
  ResumePlay: 'resume_play',
} as const
export type GameAction = (typeof GameAction)[keyof typeof GameAction]

const S = GameStatus
const A = GameAction

/** Where each action is legal. Anything else is an illegal transition. */
const legal: Record<GameAction, readonly GameStatus[]> = {
  [A.AddSeries]: [S.Announced, S.OnSale],
  [A.OpenSales]: [S.Announced],
  [A.Sell]: [S.OnSale],
  // BNG-16: the start announcement is the sales cut-off; it comes before any ball.
  [A.CloseSales]: [S.OnSale],
  // BNG-75: no ball before the game's data are recorded and announced, i.e. after close of sales.
  [A.Draw]: [S.SalesClosed, S.Drawing],
  // Claims stop the game (BNG-46); more claims are heard during the "¿alguna línea/bingo más?" window (BNG-50).
  [A.Claim]: [S.Drawing, S.Checking, S.LineWindow, S.BingoWindow],
  // BNG-46: the caller stops the game when a player calls; BNG-49: play resumes if the claim fails.
  [A.StopForClaim]: [S.Drawing],
  [A.ResumePlay]: [S.Checking],
  [A.CloseWindow]: [S.LineWindow, S.BingoWindow],
  // BNG-80: a suspension is only possible before the first ball.
  [A.Suspend]: [S.Announced, S.OnSale, S.SalesClosed],
  [A.Resume]: [S.Suspended],
  // BNG-80/82/83: annulment with refund is possible until the game has finished.
  [A.Annul]: [S.Announced, S.OnSale, S.SalesClosed, S.Drawing, S.Checking, S.LineWindow, S.BingoWindow, S.Suspended],
  // BNG-81: after the first ball a device failure lets the caller continue by hand.
  [A.SwitchToManual]: [S.Drawing, S.Checking, S.LineWindow],
  [A.CorrectBall]: [S.Drawing],
}

export function isLegal(action: GameAction, status: GameStatus): boolean {
  return legal[action].includes(status)
}

export function assertLegal(action: GameAction, status: GameStatus, gameId: string): void {
  if (!isLegal(action, status)) {
    const code =
      action === A.Sell && status !== S.Suspended && status !== S.Announced
        ? 'SALES_CLOSED'
        : action === A.Sell && status === S.Announced
          ? 'SALES_NOT_OPEN'
          : 'ILLEGAL_TRANSITION'
    throw new DomainError(code, `cannot ${action} game ${gameId} while it is ${status}`, { action, status })
  }
}

/** The regulated prizes the bonus prizes (prima, pots, lucky ball) follow: line and bingo, never a figure. */
export type LineOrBingo = 'line' | 'bingo'
/** Line, bingo, or a prize figure of the game (patterns.ts, CFG-13). */
export type ClaimKind = 'line' | 'bingo' | FigureKind

/**
 * The layout a game plays (games.layout): its cards' format, and for a fast bingo whose licence sets it, the number
 * of a card's numbers whose drawing wins (BNG-98 / CFG-32; absent: all of them, the bingo of every other card).
 */
export type GameLayout = CardLayout & { timesRequired?: number }

/** BNG-98 / CFG-32: how many of a card's numbers drawn make its bingo in a game of this layout (undefined: all). */
export function timesRequiredOf(layoutJson: string): number | undefined {
  const t = (JSON.parse(layoutJson) as GameLayout).timesRequired
  return Number.isInteger(t) && t! >= 1 ? t : undefined
}

/**
 * BNG-44 bingo, or BNG-98 / CFG-32 fast bingo won with `timesRequired` of the card's numbers drawn (all of them when
 * undefined). A card without numbers never wins.
 */
export function hitsComplete(
  rows: readonly (readonly number[])[],
  called: ReadonlySet<number>,
  timesRequired?: number,
): boolean {
  let numbers = 0
  let hits = 0
  for (const row of rows)
    for (const x of row) {
      numbers++
      if (called.has(x)) hits++
    }
  return numbers > 0 && hits >= Math.min(numbers, timesRequired ?? numbers)
}

/**
 * Verifies a claim against the balls called so far (BNG-44, BNG-45): a line needs one full row
 * (numbers only: blank cells never count) and the line must still be open; a bingo needs every number, or in a fast
 * bingo the `timesRequired` its hall's licence sets (BNG-98, CFG-32).
 */
export function verifyClaim(
  rows: readonly (readonly number[])[],
  called: ReadonlySet<number>,
  kind: ClaimKind,
  lineClosed: boolean,
  timesRequired?: number,
): { ok: true; rowsComplete: number[] } | { ok: false; reason: string } {
  const rowsComplete = rows.flatMap((row, i) => (row.every((n) => called.has(n)) ? [i] : []))
  if (kind === 'line') {
    if (lineClosed) return { ok: false, reason: 'line_already_awarded' }
    return rowsComplete.length > 0 ? { ok: true, rowsComplete } : { ok: false, reason: 'no_complete_row' }
  }
  return hitsComplete(rows, called, timesRequired)
    ? { ok: true, rowsComplete }
    : { ok: false, reason: 'card_not_complete' }
}

/** Prize pools announced at close of sales: shares of cards sold x face value (BNG-56). */
export function prizePools(
  cardsSold: number,
  faceValueCents: Cents,
  lineBp: number,
  bingoBp: number,
): { totalCents: Cents; lineCents: Cents; bingoCents: Cents } {
  const totalCents = cardsSold * faceValueCents
  return { totalCents, lineCents: shareOf(totalCents, lineBp), bingoCents: shareOf(totalCents, bingoBp) }
}

/**
 * Equal split among the winning cards of one prize (BNG-2, BNG-53, BNG-56). Winners are ordered by serial
 * ascending (byte order) and the leftover centavos go one each to the first of them, so the amounts always
 * sum to the pool.
 */
export function splitPrize<T extends { serial: string }>(
  poolCents: Cents,
  winners: readonly T[],
): Array<T & { amountCents: Cents }> {
  if (winners.length === 0) return []
  const sorted = [...winners].sort((a, b) => compareBytes(a.serial, b.serial))
  const parts = splitEvenly(poolCents, sorted.length)
  return sorted.map((w, i) => ({ ...w, amountCents: parts[i] }))
}

/**
 * BNG-53 (002 §6.1.8.3, "entre los jugadores"): equal parts among the winning players, each player's part then in
 * equal parts among their winning cards. `playerKey` null = a card of no identified buyer, its own player. Players
 * are ordered by their lowest serial and cards by serial; leftover centavos go one each to the first, so the amounts
 * always sum to the pool.
 */
export function splitPrizeByPlayer<T extends { serial: string; playerKey: string | null }>(
  poolCents: Cents,
  winners: readonly T[],
): Array<T & { amountCents: Cents }> {
  if (winners.length === 0) return []
  const sorted = [...winners].sort((a, b) => compareBytes(a.serial, b.serial))
  const groups = new Map<string, T[]>()
  for (const w of sorted) {
    const key = w.playerKey === null ? `card:${w.serial}` : `player:${w.playerKey}`
    groups.set(key, [...(groups.get(key) ?? []), w])
  }
  const parts = splitEvenly(poolCents, groups.size)
  return [...groups.values()].flatMap((cards, i) => splitPrize(parts[i], cards))
}

/** Byte-order comparison of UTF-8 strings (the order the draw proof uses). */
export function compareBytes(a: string, b: string): number {
  const ea = new TextEncoder().encode(a)
  const eb = new TextEncoder().encode(b)
  const n = Math.min(ea.length, eb.length)
  for (let i = 0; i < n; i++) if (ea[i] !== eb[i]) return ea[i] - eb[i]
  return ea.length - eb.length
}

/**
 * BNG-13: a second series in the same game must (1) have the first series' face value, (2) start at card 1,
 * and (3) be sold only below the first series' starting card number. Returns the highest card number the
 * second series may sell in this game.
 */
export function secondSeriesLimit(
  first: { faceValueCents: Cents; startCardNo: number; masterSetId: string },
  second: { faceValueCents: Cents; nextCardNo: number; cardCount: number; masterSetId: string },
): number {
  if (second.faceValueCents !== first.faceValueCents) {
    throw new DomainError(
      'SERIES_RULE_VIOLATED',
      'a second series must have the same face value as the first (BNG-13.1)',
      { rule: 'BNG-13.1' },
    )
  }
  if (second.nextCardNo !== 1) {
    throw new DomainError('SERIES_RULE_VIOLATED', 'a second series must start at card number 1 (BNG-13.2)', {
      rule: 'BNG-13.2',
    })
  }
  const limit = Math.min(second.cardCount, first.startCardNo - 1)
  if (limit < 1) {
    throw new DomainError(
      'SERIES_RULE_VIOLATED',
      'the first series started at card 1, so a second series would repeat its cards (BNG-13.3)',
      { rule: 'BNG-13.3' },
    )
  }
  return limit
}
