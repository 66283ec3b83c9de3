/**
 * Bingo modalities built from the one configurable card model (card.ts CardLayout). A master set is generated for
 * a layout; a series printed from it, and every game sold from that series, plays with that layout's ball count
 * (announceGame takes the layout from the master set). Pure.
 *
 * | modality            | rule                  | layout                                                           |
 * | ------------------- | --------------------- | ---------------------------------------------------------------- |
 * | ordinary-90         | BNG-5                 | LAYOUT_90: 3 x 9, 15 numbers, balls 1..90                        |
 * | bingo-75            | BNG-3/4 (licence)     | LAYOUT_75: 5 x 5, 25 numbers, balls 1..75, columns B I N G O      |
 * | bingo-plus          | BNG-103, CFG-35       | balls 1..100, 10 columns of ten, cards of 5 to 20 numbers         |
 * | derived             | BNG-102, CFG-34       | balls 6..100 (the brief's range; Cantabria says at most 90), cards of 6 to 20 numbers |
 * | fast                | BNG-98, CFG-32        | one row of `picks` numbers from a universe 1..U: the bingo is completing them all |
 * | electronic          | BNG-101, CFG-33       | any layout above, virtual cards sold at terminals and marked by the system (profile.autoClaimSoldCards) |
 *
 * Lines are rows: a one-row card (fast bingo) completes its line and its bingo with the same ball; give such halls a
 * line share of 0 if the licence has no line prize.
 */
import { LAYOUT_75, LAYOUT_90, countCards, validateLayout, type CardLayout } from './card.ts'
import { DomainError } from '../shared/errors.ts'

export const Modality = {
  Ordinary90: 'ordinary-90',
  Bingo75: 'bingo-75',
  BingoPlus: 'bingo-plus',
  Derived: 'derived',
  Fast: 'fast',
} as const
export type Modality = (typeof Modality)[keyof typeof Modality]

export interface ModalityParams {
  /** Balls 1..ballCount (derived: 6..100; fast: the universe). */
  ballCount?: number
  rows?: number
  /** Numbers per row. */
  perRow?: number
  /** Columns the ball range is cut into (derived); defaults to ceil(ballCount / 10), at least perRow. */
  columns?: number
  /** Fast bingo: how many numbers a card holds. */
  picks?: number
}

/** Cuts 1..ballCount into `columns` consecutive ranges as equal as possible (the first ones one larger). */
export function evenColumns(ballCount: number, columns: number): Array<[number, number]> {
  if (!Number.isInteger(columns) || columns < 1 || columns > ballCount) throw new DomainError('VALIDATION_FAILED', `cannot cut ${ballCount} balls into ${columns} columns`)
  const base = Math.floor(ballCount / columns)
  const extra = ballCount % columns
  const out: Array<[number, number]> = []
  let lo = 1
  for (let c = 0; c < columns; c++) {
    const size = base + (c < extra ? 1 : 0)
    out.push([lo, lo + size - 1])
    lo += size
  }
  return out
}

function checked(layout: CardLayout, what: string, cardsMin: number, cardsMax: number): CardLayout {
  const problems = validateLayout(layout)
  const n = layout.rows * layout.perRow
  if (n < cardsMin || n > cardsMax) problems.push(`${what} cards hold ${cardsMin} to ${cardsMax} numbers, this one ${n}`)
  if (layout.rows > 5) problems.push('at most 5 rows')
  if (problems.length) throw new DomainError('VALIDATION_FAILED', `invalid ${what} layout: ${problems.join('; ')}`, { problems })
  if (!(countCards(layout) > 0)) throw new DomainError('VALIDATION_FAILED', `the ${what} layout admits no card`)
  return Object.freeze({ ...layout, columnRanges: Object.freeze(layout.columnRanges.map((r) => Object.freeze([r[0], r[1]] as const))) }) as CardLayout
}

/** BNG-103: bingo plus on 1..100 with cards of 5 to 20 numbers (`rows` x `perRow`), columns 1-10, 11-20, ..., 91-100. */
export function bingoPlusLayout(p: { rows: number; perRow: number }): CardLayout {
  return checked({ ballCount: 100, rows: p.rows, columns: 10, perRow: p.perRow, columnRanges: evenColumns(100, 10), minPerColumn: 0 }, 'bingo plus', 5, 20)
}

/** BNG-102: derived bingo on 6..100 numbers with cards of 6 to 20 numbers. */
export function derivedLayout(p: { ballCount: number; rows: number; perRow: number; columns?: number }): CardLayout {
  if (!Number.isInteger(p.ballCount) || p.ballCount < 6 || p.ballCount > 100) throw new DomainError('VALIDATION_FAILED', 'derived bingo is played on 6 to 100 numbers (BNG-102)', { rule: 'BNG-102' })
  const columns = p.columns ?? Math.min(p.ballCount, Math.max(p.perRow, Math.ceil(p.ballCount / 10)))
  return checked({ ballCount: p.ballCount, rows: p.rows, columns, perRow: p.perRow, columnRanges: evenColumns(p.ballCount, columns), minPerColumn: 0 }, 'derived bingo', 6, 20)
}

/** BNG-98: fast bingo, one row of `picks` numbers (one per band of the universe 1..ballCount). */
export function fastBingoLayout(p: { ballCount: number; picks: number }): CardLayout {
  if (!Number.isInteger(p.ballCount) || p.ballCount < 2 || p.ballCount > 255) throw new DomainError('VALIDATION_FAILED', 'fast bingo universe must be 2..255 numbers')
  return checked({ ballCount: p.ballCount, rows: 1, columns: p.picks, perRow: p.picks, columnRanges: evenColumns(p.ballCount, p.picks), minPerColumn: 1 }, 'fast bingo', 1, 20)
}

/** The layout of a modality with its parameters (defaults: bingo plus 4 x 5 = 20 numbers; derived 2 x 4 on 48). */
export function layoutForModality(modality: Modality, p: ModalityParams = {}): CardLayout {
  switch (modality) {
    case Modality.Ordinary90: return LAYOUT_90
    case Modality.Bingo75: return LAYOUT_75
    case Modality.BingoPlus: return bingoPlusLayout({ rows: p.rows ?? 4, perRow: p.perRow ?? 5 })
    case Modality.Derived: return derivedLayout({ ballCount: p.ballCount ?? 48, rows: p.rows ?? 2, perRow: p.perRow ?? 4, columns: p.columns })
    case Modality.Fast: return fastBingoLayout({ ballCount: p.ballCount ?? 30, picks: p.picks ?? 5 })
    default: {
      const _never: never = modality
      throw new DomainError('VALIDATION_FAILED', `unknown modality ${String(_never)}`)
    }
  }
}
