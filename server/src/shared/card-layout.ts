/**
 * The layouts of a bingo card and of the ball set it is played against (BNG-3 to BNG-5). Shared because a
 * jurisdiction profile (profile.ts) names its layout; generation and checks live in bingo/card.ts. Pure.
 */

/** Layout of a card and of the ball set it is played against. */
export interface CardLayout {
  /** Balls 1..ballCount. */
  ballCount: number
  rows: number
  columns: number
  /** Numbers in each row. */
  perRow: number
  /** Inclusive [low, high] range of each column, left to right. */
  columnRanges: ReadonlyArray<readonly [number, number]>
  /** Minimum numbers per column (1 for the 90-ball card: no empty column). */
  minPerColumn: number
}

/** BNG-5: 15 numbers, 3 rows of 5, 9 columns 1-9, 10-19, ..., 80-90, none empty. */
export const LAYOUT_90: CardLayout = Object.freeze({
  ballCount: 90,
  rows: 3,
  columns: 9,
  perRow: 5,
  columnRanges: Object.freeze([
    [1, 9],
    [10, 19],
    [20, 29],
    [30, 39],
    [40, 49],
    [50, 59],
    [60, 69],
    [70, 79],
    [80, 90],
  ] as const),
  minPerColumn: 1,
}) as CardLayout

/**
 * 75-ball layout (BNG-3 / BNG-4: the card format may vary by licence): 5 rows of 5 numbers, columns B 1-15,
 * I 16-30, N 31-45, G 46-60, O 61-75, each holding exactly 5 numbers. No free centre square: 25 numbers.
 */
export const LAYOUT_75: CardLayout = Object.freeze({
  ballCount: 75,
  rows: 5,
  columns: 5,
  perRow: 5,
  columnRanges: Object.freeze([
    [1, 15],
    [16, 30],
    [31, 45],
    [46, 60],
    [61, 75],
  ] as const),
  minPerColumn: 5,
}) as CardLayout
