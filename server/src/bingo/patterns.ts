/**
 * Prize figures beyond the line and the bingo (CFG-13, BNG-103, CFG-35). Pure rule data and matching, no I/O.
 *
 * What the texts allow (the original Spanish wins):
 * - Bolivia 2025 (002 §6.1.5) names two combinations for traditional bingo, line and bingo; §6.1.3 lets "la cantidad
 *   de números y filas" vary "en función a la Licencia de Operaciones emitida por la AJ" and §6.1.9 admits "diversos
 *   tipos de juegos de bingo ... con distintas variantes híbridas o temáticas, cuyas características ... y modalidades
 *   de juego deben estar claramente establecidos en la Licencia de Operaciones emitida por la AJ". A figure is played
 *   only as the hall's licence states it (its reference recorded), and its share of the prizes is part of the Plan de
 *   Apuestas the AJ approved (§6.1.8.3).
 * - Cantabria (004 Bingo V.1) "Se premiarán las siguientes combinaciones: a) Línea ... b) Bingo": ordinary bingo has
 *   no figure. Bingo plus (Bingo VI.4) "se premian las combinaciones que establece el plan de premios correspondiente
 *   a esta modalidad": figures only on bingo plus cards, as the approved prize plan sets them. (Derived bingo's
 *   predetermined combinations are its version's plan, modalities.ts DerivedPlan.)
 *
 * A card is its rows of numbers (card.ts); a figure is a set of positions (row, place in the row). A figure is formed
 * when every number of one of its alternatives has been called, never earlier.
 */
import { shareOf, type Cents } from '../shared/money.ts'
import { DomainError } from '../shared/errors.ts'
import type { Profile } from '../shared/profile.ts'
import type { CardLayout } from './card.ts'

export const FIGURES = ['four-corners', 'double-line', 'cross', 'frame'] as const
export type Figure = (typeof FIGURES)[number]

/** The figure's public name, as the hall display, the caller console, the receipt and the minutes print it. */
export const FIGURE_NAMES: Record<Figure, { es: string; en: string }> = {
  'four-corners': { es: 'Cuatro esquinas', en: 'Four corners' },
  'double-line': { es: 'Doble línea', en: 'Double line' },
  cross: { es: 'Cruz', en: 'Cross' },
  frame: { es: 'Marco', en: 'Frame' },
}

/** The prize kind a figure's claims and prizes are recorded under (claims.kind, prizes.kind). */
export type FigureKind = `figure:${Figure}`
export const figureKind = (figure: Figure): FigureKind => `figure:${figure}`

/** The figure of a claim or prize kind, or null for line, bingo or anything else. */
export function figureOfKind(kind: string): Figure | null {
  if (!kind.startsWith('figure:')) return null
  const f = kind.slice('figure:'.length)
  return (FIGURES as readonly string[]).includes(f) ? (f as Figure) : null
}

export const isFigure = (x: unknown): x is Figure => typeof x === 'string' && (FIGURES as readonly string[]).includes(x)

/** Whether a figure can be drawn on a card of `rows` x `perRow` numbers, and is neither a line nor the whole card. */
export function figureFits(figure: Figure, shape: { rows: number; perRow: number }): boolean {
  const { rows, perRow } = shape
  switch (figure) {
    case 'four-corners':
      return rows >= 2 && perRow >= 3
    case 'double-line':
      // With two rows, two full rows are the bingo.
      return rows >= 3
    case 'cross':
      return rows >= 3 && perRow >= 3 && rows % 2 === 1 && perRow % 2 === 1
    case 'frame':
      return rows >= 3 && perRow >= 3
  }
}

/**
 * The alternatives of a figure on a card: each one a list of the card's numbers; the figure is formed when all the
 * numbers of any alternative are called. Empty when the figure does not fit the card.
 */
export function figureAlternatives(figure: Figure, rows: readonly (readonly number[])[]): number[][] {
  const r = rows.length
  const p = r > 0 ? rows[0].length : 0
  if (!figureFits(figure, { rows: r, perRow: p }) || rows.some((row) => row.length !== p)) return []
  const first = rows[0]
  const last = rows[r - 1]
  switch (figure) {
    case 'four-corners':
      return [[first[0], first[p - 1], last[0], last[p - 1]]]
    case 'double-line': {
      const out: number[][] = []
      for (let a = 0; a < r; a++) for (let b = a + 1; b < r; b++) out.push([...rows[a], ...rows[b]])
      return out
    }
    case 'cross': {
      const mid = (r - 1) / 2
      const centre = (p - 1) / 2
      return [[...new Set([...rows[mid], ...rows.map((row) => row[centre])])]]
    }
    case 'frame':
      return [[...new Set([...first, ...last, ...rows.map((row) => row[0]), ...rows.map((row) => row[p - 1])])]]
  }
}

/** Whether the figure is formed on the card by the balls called (BNG-44 for figures: verified against the called). */
export function figureFormed(
  figure: Figure,
  rows: readonly (readonly number[])[],
  called: ReadonlySet<number>,
): boolean {
  return figureAlternatives(figure, rows).some((alt) => alt.every((n) => called.has(n)))
}

/**
 * The cards on which the figure was formed first, and the ball (1-based, in the order called) that formed it there;
 * null when no card has it. Where the system claims for the players (CFG-21), a figure formed at the same ball as a
 * line is claimed only after the line's window: it goes to the cards that formed it at that ball, never to a card that
 * formed it at a later one (which would share the pool with them).
 */
export function firstFormed(
  figure: Figure,
  cards: readonly (readonly (readonly number[])[])[],
  order: readonly number[],
): { cards: number[]; atBall: number } | null {
  const at = new Map(order.map((b, i) => [b, i + 1]))
  let best = Infinity
  let found: number[] = []
  cards.forEach((rows, i) => {
    let formed = Infinity
    for (const alt of figureAlternatives(figure, rows)) {
      let last = 0
      for (const n of alt) last = Math.max(last, at.get(n) ?? Infinity)
      formed = Math.min(formed, last)
    }
    if (formed < best) [best, found] = [formed, [i]]
    else if (formed === best && formed !== Infinity) found.push(i)
  })
  return best === Infinity ? null : { cards: found, atBall: best }
}

/**
 * The cards on which the figure is formed at ball `seq` (1-based, in the order called) and not before: where the
 * players claim, the figure's first wins recorded silently for the minutes at that ball (BNG-48), as the line's are.
 */
export function cardsFormingAt(
  figure: Figure,
  cards: readonly (readonly (readonly number[])[])[],
  order: readonly number[],
  seq: number,
): number[] {
  const at = new Map(order.slice(0, seq).map((b, i) => [b, i + 1]))
  const out: number[] = []
  cards.forEach((rows, i) => {
    let formed = Infinity
    for (const alt of figureAlternatives(figure, rows)) {
      let last = 0
      for (const n of alt) last = Math.max(last, at.get(n) ?? Infinity)
      formed = Math.min(formed, last)
    }
    if (formed === seq) out.push(i)
  })
  return out
}

/** A figure prize of the approved plan: the figure and its part of the takings (basis points of the cards sold). */
export interface FigurePrize {
  figure: Figure
  shareBp: number
}

/**
 * Checks the figure prizes of a plan against the card shape and the plan's bingo share: the figures come out of the
 * bingo's share of the prize plan (the prize percentage as a whole does not change), each figure once, and the bingo
 * keeps a positive share. Returns the problems found (empty when valid).
 */
export function figurePlanProblems(
  prizes: readonly FigurePrize[],
  shape: { rows: number; perRow: number } | null,
  bingoBp: number,
): string[] {
  const problems: string[] = []
  if (prizes.length < 1) problems.push('at least one figure')
  let sum = 0
  const seen = new Set<string>()
  for (const [i, p] of prizes.entries()) {
    if (!isFigure(p.figure)) {
      problems.push(`prize ${i + 1}: unknown figure ${String(p.figure)} (one of ${FIGURES.join(', ')})`)
      continue
    }
    if (seen.has(p.figure)) problems.push(`prize ${i + 1}: ${p.figure} twice`)
    seen.add(p.figure)
    if (shape && !figureFits(p.figure, shape))
      problems.push(`prize ${i + 1}: ${p.figure} does not fit a card of ${shape.rows} x ${shape.perRow}`)
    if (!Number.isInteger(p.shareBp) || p.shareBp <= 0 || p.shareBp > 10_000)
      problems.push(`prize ${i + 1}: shareBp must be a positive integer`)
    else sum += p.shareBp
  }
  if (sum >= bingoBp)
    problems.push(`the figures' shares (${sum}) come out of the bingo's (${bingoBp}) and must leave it a part`)
  return problems
}

/**
 * The pools of a game with figures, fixed at the close of sales: each figure's pool is its share of the takings,
 * taken out of the bingo pool, so that line + bingo + figures is exactly the plan's line + bingo, not a centavo more.
 */
export function poolsWithFigures(
  totalCents: Cents,
  bingoCents: Cents,
  prizes: readonly FigurePrize[],
): { bingoCents: Cents; figures: Array<{ figure: Figure; poolCents: Cents }> } {
  const figures = prizes.map((p) => ({ figure: p.figure, poolCents: shareOf(totalCents, p.shareBp) }))
  const taken = figures.reduce((s, f) => s + f.poolCents, 0)
  if (taken > bingoCents) throw new RangeError(`figures take ${taken}, more than the bingo pool ${bingoCents}`)
  return { bingoCents: bingoCents - taken, figures }
}

/**
 * A hall's approved figure plan: the figures its games may play and each one's share, with the reference of the
 * approval the profile names (the AJ's licence and Plan de Apuestas; the Consejería's bingo plus prize plan).
 */
export interface FigurePlan {
  authorisationRef: string
  prizes: FigurePrize[]
}

/** Whether a game on this card may play figures under the profile (CFG-13; 004 Bingo VI.4: bingo plus only). */
export function figuresAllowedOn(
  profile: Pick<Profile, 'figurePrizes'>,
  layout: Pick<CardLayout, 'ballCount' | 'columns' | 'minPerColumn'>,
): boolean {
  const where = profile.figurePrizes.layouts
  if (where === 'any') return true
  // BNG-103: bingo plus is played on 1..100 (modalities.ts bingoPlusLayout: ten columns of ten, free columns).
  if (where === 'bingo-plus') return layout.ballCount === 100 && layout.columns === 10 && layout.minPerColumn === 0
  return false
}

export function checkFigurePlan(profile: Pick<Profile, 'id' | 'figurePrizes'>, plan: FigurePlan): FigurePlan {
  if (profile.figurePrizes.layouts === 'none')
    throw new DomainError(
      'RULE_DISABLED',
      `profile ${profile.id} plays line and bingo only: no prize figures (CFG-13)`,
      {
        rule: 'CFG-13',
      },
    )
  const ref = plan.authorisationRef.trim()
  const problems = figurePlanProblems(plan.prizes, null, 10_001)
  if (ref.length < 3 || ref.length > 120)
    problems.unshift(`the reference of the approval (${profile.figurePrizes.authority}) has 3 to 120 characters`)
  if (problems.length)
    throw new DomainError('VALIDATION_FAILED', `invalid figure plan: ${problems.join('; ')} (CFG-13)`, {
      problems,
      rule: 'CFG-13',
    })
  return { authorisationRef: ref, prizes: plan.prizes.map((p) => ({ figure: p.figure, shareBp: p.shareBp })) }
}
