/**
 * Issue 27: electronic bingo on hall terminals (BNG-101, BNG-9, CFG-33), the pure rules: the terms a hall records,
 * the range of each series reserved for terminals, what a purchase may spend, and how a terminal ranks its cards.
 * No I/O: the service reads the rows and the screen reuses the ranking.
 */
import { TERMINAL_DISCONNECTIONS, type ElectronicBingoRules, type TerminalTerms } from '../shared/profile.ts'

export type { TerminalTerms } from '../shared/profile.ts'

/** Why a terms record is refused, or null. */
export function termsProblem(t: TerminalTerms): string | null {
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 0
  if (!['automatic', 'per-ball', 'catch-up'].includes(t.markingMode)) return 'markingMode'
  if (!whole(t.maxCardCents) || t.maxCardCents < 1) return 'maxCardCents'
  if (!whole(t.maxGameCents) || t.maxGameCents < t.maxCardCents) return 'maxGameCents'
  if (!whole(t.maxSessionCents) || t.maxSessionCents < t.maxGameCents) return 'maxSessionCents'
  if (!whole(t.minGameSeconds) || t.minGameSeconds > 24 * 3600) return 'minGameSeconds'
  const r = t.prizeReturnBp
  if (!whole(r.min) || !whole(r.max) || r.min > r.max || r.max > 10_000) return 'prizeReturnBp'
  if (!Number.isInteger(t.terminalRangePercent) || t.terminalRangePercent < 1 || t.terminalRangePercent > 99)
    return 'terminalRangePercent'
  if (t.onDisconnect !== undefined && !TERMINAL_DISCONNECTIONS.includes(t.onDisconnect)) return 'onDisconnect'
  return null
}

/**
 * Issue 27: a hall's record must say what a terminal's disconnection does where the profile leaves it to the
 * authority (Cantabria: 004 Bingo VI.2, the operation the Consejería sets). 'onDisconnect' when it does not.
 */
export function termsProblemFor(rules: ElectronicBingoRules, t: TerminalTerms): string | null {
  const problem = termsProblem(t)
  if (problem) return problem
  if (rules.disconnection.mode === null && t.onDisconnect === undefined) return 'onDisconnect'
  return null
}

/** What a terminal's disconnection does under the profile and a hall's record (the text's own rule first). */
function withDisconnection(rules: ElectronicBingoRules, t: TerminalTerms): TerminalTerms {
  return { ...t, onDisconnect: rules.disconnection.mode ?? t.onDisconnect }
}

/**
 * The terms' minimum game duration (CFG-33: "operating rules set by the Consejería"; Aragón's cycle of one game every
 * three minutes): a game holding virtual cards may not start (close its sales) sooner than `minGameSeconds` after the
 * hall's previous game with virtual cards started. Whole seconds still to wait, 0 when it may start now. A manual
 * caller cannot stretch a game once its balls flow, so the pace is held where staff decide it: at the start.
 */
export function secondsUntilNextGame(previousStartAt: string | null, at: string, minGameSeconds: number): number {
  if (!previousStartAt || minGameSeconds <= 0) return 0
  const waitMs = Date.parse(previousStartAt) + minGameSeconds * 1000 - Date.parse(at)
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0
}

/**
 * The terms a hall's terminals play under: the profile's own where the text fixes them, otherwise the hall's record
 * of the authority's (with its reference). `null` with the reason when no terminal may sell.
 */
export function effectiveTerms(
  rules: ElectronicBingoRules,
  record: { reference: string; terms: TerminalTerms } | null,
): { terms: TerminalTerms; reference: string | null } | { refused: 'not_allowed' | 'terms_missing' } {
  if (!rules.allowed) return { refused: 'not_allowed' }
  // A record from before the disconnection rule (or one that omits it where the authority sets it) is incomplete.
  const complete = record && termsProblemFor(rules, record.terms) !== 'onDisconnect'
  if (rules.authority) {
    if (!record || !record.reference.trim() || !complete) return { refused: 'terms_missing' }
    return { terms: withDisconnection(rules, record.terms), reference: record.reference }
  }
  if (record && complete) return { terms: withDisconnection(rules, record.terms), reference: record.reference }
  return rules.terms ? { terms: withDisconnection(rules, rules.terms), reference: null } : { refused: 'terms_missing' }
}

/** BNG-9: the first card number of a series reserved for terminals (the top `percent` % of its numbers). */
export function reservedFrom(cardCount: number, percent: number): number {
  const reserved = Math.floor((cardCount * percent) / 100)
  return cardCount - reserved + 1
}

export interface SpendInput {
  balanceCents: number
  faceValueCents: number
  count: number
  /** What this session already spent on the game, and in all. */
  spentInGameCents: number
  spentInSessionCents: number
  terms: Pick<TerminalTerms, 'maxCardCents' | 'maxGameCents' | 'maxSessionCents'>
}

export type SpendVerdict =
  | { ok: true; costCents: number }
  | {
      ok: false
      code: 'TERMINAL_CAP_EXCEEDED' | 'TERMINAL_BALANCE_INSUFFICIENT' | 'VALIDATION_FAILED'
      cap?: 'card' | 'game' | 'session'
      limitCents?: number
      costCents: number
      maxCards: number
    }

/** Whether `count` cards may be bought: the caps first (per card, game, session), then the balance. */
export function spendVerdict(s: SpendInput): SpendVerdict {
  const costCents = s.count * s.faceValueCents
  const byBalance = Math.floor(s.balanceCents / s.faceValueCents)
  const byGame = Math.floor((s.terms.maxGameCents - s.spentInGameCents) / s.faceValueCents)
  const bySession = Math.floor((s.terms.maxSessionCents - s.spentInSessionCents) / s.faceValueCents)
  const maxCards = Math.max(0, Math.min(byBalance, byGame, bySession))
  if (!Number.isInteger(s.count) || s.count < 1) return { ok: false, code: 'VALIDATION_FAILED', costCents, maxCards }
  if (s.faceValueCents > s.terms.maxCardCents)
    return {
      ok: false,
      code: 'TERMINAL_CAP_EXCEEDED',
      cap: 'card',
      limitCents: s.terms.maxCardCents,
      costCents,
      maxCards,
    }
  if (s.spentInGameCents + costCents > s.terms.maxGameCents)
    return {
      ok: false,
      code: 'TERMINAL_CAP_EXCEEDED',
      cap: 'game',
      limitCents: s.terms.maxGameCents,
      costCents,
      maxCards,
    }
  if (s.spentInSessionCents + costCents > s.terms.maxSessionCents)
    return {
      ok: false,
      code: 'TERMINAL_CAP_EXCEEDED',
      cap: 'session',
      limitCents: s.terms.maxSessionCents,
      costCents,
      maxCards,
    }
  if (costCents > s.balanceCents) return { ok: false, code: 'TERMINAL_BALANCE_INSUFFICIENT', costCents, maxCards }
  return { ok: true, costCents }
}

/** A card as a terminal ranks it: the numbers still needed for the next prize (line while open, else bingo). */
export interface RankedCard<C> {
  card: C
  target: 'line' | 'bingo'
  missing: number[]
}

/** BNG-44: the fewest numbers a card still needs for a line (any row) or the bingo (all), given the called balls. */
export function missingFor(rows: number[][], called: ReadonlySet<number>, target: 'line' | 'bingo'): number[] {
  const need = (row: number[]) => row.filter((n) => n > 0 && !called.has(n))
  if (target === 'bingo') return rows.flatMap(need)
  let best: number[] | null = null
  for (const r of rows) {
    const m = need(r)
    if (!best || m.length < best.length) best = m
  }
  return best ?? []
}

/** Best card first: fewest numbers missing, then card order (stable). */
export function rankCards<C extends { rows: number[][] }>(
  cards: readonly C[],
  called: ReadonlySet<number>,
  lineClosed: boolean,
): Array<RankedCard<C>> {
  const target = lineClosed ? 'bingo' : 'line'
  return cards
    .map((card, i) => ({ card, target, missing: missingFor(card.rows, called, target), i }) as const)
    .sort((a, b) => a.missing.length - b.missing.length || a.i - b.i)
    .map(({ card, target: t, missing }) => ({ card, target: t, missing }))
}
