/**
 * Bingo card model, generation and checks (BNG-5, BNG-13, BNG-44, CFG-12). Pure: no I/O, no clock; randomness
 * arrives as an `Rng`.
 *
 * Generation is exactly uniform over every valid card of a layout (up to a 2^-32 rounding of the shape choice):
 * a dynamic programme over the columns counts, for every "numbers still owed per row" state, how many valid cards
 * can complete it, and the generator picks each column's set of rows with probability proportional to that count
 * times the ways of choosing the column's numbers. So every valid shape occurs (three-number columns, 90 in the
 * last column, ...) with its true frequency, and no backtracking is ever needed.
 */
import { ErrorCode, fail } from '../shared/errors.ts'
import { createSeededRng, type Rng } from '../shared/rng.ts'

// The layouts are shared (a jurisdiction profile names its layout); this module plays them.
export { LAYOUT_75, LAYOUT_90, type CardLayout } from '../shared/card-layout.ts'
import { LAYOUT_90, type CardLayout } from '../shared/card-layout.ts'

/** A card as a rows x columns grid, row-major; 0 marks a blank cell. */
export interface Card {
  grid: number[][]
}

/**
 * Identifies the generation algorithm. A master set is regenerated bit for bit from (seed, count, layout) only by
 * the same algorithm: record this next to a master set's seed, and bump it if the sampling below ever changes.
 */
export const CARD_GENERATOR_VERSION = 'bolillo-cards-v1'

/** Called balls: a set of numbers, or a bitmap indexed by ball number (non-zero = called). */
export type CalledBalls = ReadonlySet<number> | Uint8Array

// ---------------------------------------------------------------------------------------------------------------
// Generation plan: a per-layout table built once (cached by layout object).

/** 2^32: the shape choice compares one uniform 32-bit word against cumulative thresholds. */
const TWO32 = 4294967296
/** Subsets of a column's offsets are tabulated (one draw per column) when there are at most this many. */
const MAX_SUBSET_TABLE = 4096
/** Guard on the size of the dynamic programme (states x row subsets x columns). */
const MAX_PLAN_WORK = 30_000_000

interface Plan {
  rows: number
  columns: number
  perRow: number
  /** Numbers per card (rows * perRow). */
  cells: number
  ballCount: number
  colLo: Int32Array
  colSize: Int32Array
  /** Column of each ball number, -1 if it belongs to none. */
  colOf: Int16Array
  states: number
  startState: number
  /** Number of distinct valid cards (a double: exact below 2^53). */
  total: number
  /** Candidates of (column j, state s) are off[j*states+s] .. off[j*states+s+1]-1. */
  off: Int32Array
  candMask: Int32Array
  candK: Int32Array
  candNext: Int32Array
  /** Cumulative thresholds in [0, 2^32]; the last candidate of each list has 2^32. */
  candThresh: Float64Array
  /**
   * For column j and k numbers, at key j*(rows+1)+k: all k-subsets of the column's offsets 0..size-1, each sorted
   * ascending, k entries per subset, from subStart[key]; subCount[key] subsets (0 = not tabulated: use Floyd);
   * subReject[key] = 2^32 mod subCount[key] (Lemire's rejection threshold).
   */
  subsets: Uint16Array
  subStart: Int32Array
  subCount: Int32Array
  subReject: Float64Array
  /** Scratch: write cursor of each row, chosen offsets of one column. */
  cursor: Int32Array
  pick: Int32Array
}

const plans = new WeakMap<CardLayout, Plan>()
/** Layouts often arrive as fresh objects (parsed from storage): also cache by content. */
const plansByContent = new Map<string, Plan>()

function planFor(layout: CardLayout): Plan {
  let plan = plans.get(layout)
  if (!plan) {
    const { ballCount, rows, columns, perRow, minPerColumn, columnRanges } = layout
    const key = JSON.stringify([ballCount, rows, columns, perRow, minPerColumn, columnRanges])
    plan = plansByContent.get(key)
    if (!plan) {
      plan = buildPlan(layout)
      if (plansByContent.size >= 64) plansByContent.clear()
      plansByContent.set(key, plan)
    }
    plans.set(layout, plan)
  }
  return plan
}

/** Structural problems of a layout (empty = usable). */
export function validateLayout(layout: CardLayout): string[] {
  const v: string[] = []
  const isPosInt = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 1
  if (!isPosInt(layout.ballCount) || layout.ballCount > 65535)
    v.push(`ballCount ${layout.ballCount} must be an integer 1..65535`)
  if (!isPosInt(layout.rows) || layout.rows > 16) v.push(`rows ${layout.rows} must be an integer 1..16`)
  if (!isPosInt(layout.columns)) v.push(`columns ${layout.columns} must be a positive integer`)
  if (!isPosInt(layout.perRow) || layout.perRow > layout.columns)
    v.push(`perRow ${layout.perRow} must be an integer 1..columns`)
  if (!Number.isInteger(layout.minPerColumn) || layout.minPerColumn < 0 || layout.minPerColumn > layout.rows) {
    v.push(`minPerColumn ${layout.minPerColumn} must be an integer 0..rows`)
  }
  const ranges = layout.columnRanges
  if (!Array.isArray(ranges) || ranges.length !== layout.columns) {
    v.push(`columnRanges must list ${layout.columns} ranges`)
    return v
  }
  let prevHigh = 0
  ranges.forEach(([lo, hi], j) => {
    if (!isPosInt(lo) || !isPosInt(hi) || lo > hi || hi > layout.ballCount) {
      v.push(`column ${j + 1} range ${lo}-${hi} must satisfy 1 <= low <= high <= ${layout.ballCount}`)
    } else if (lo <= prevHigh) {
      v.push(`column ${j + 1} range ${lo}-${hi} must start above the previous column's ${prevHigh}`)
    } else {
      prevHigh = hi
    }
  })
  return v
}

function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0
  let r = 1
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i
  return Math.round(r)
}

function buildPlan(layout: CardLayout): Plan {
  const problems = validateLayout(layout)
  if (problems.length > 0) fail(ErrorCode.ValidationFailed, `invalid card layout: ${problems.join('; ')}`, problems)
  const { rows, columns, perRow, ballCount, minPerColumn } = layout
  const radix = perRow + 1
  const states = radix ** rows
  const nSub = 1 << rows
  if (states * nSub * columns > MAX_PLAN_WORK) {
    fail(ErrorCode.ValidationFailed, `card layout too large for the generator (${rows} rows of ${perRow})`)
  }
  const colLo = new Int32Array(columns)
  const colSize = new Int32Array(columns)
  const colOf = new Int16Array(ballCount + 1).fill(-1)
  layout.columnRanges.forEach(([lo, hi], j) => {
    colLo[j] = lo
    colSize[j] = hi - lo + 1
    for (let x = lo; x <= hi; x++) colOf[x] = j
  })
  const pow = new Int32Array(rows)
  for (let r = 0, p = 1; r < rows; r++, p *= radix) pow[r] = p
  const pop = new Int32Array(nSub)
  const delta = new Int32Array(nSub)
  for (let S = 1; S < nSub; S++) {
    const r = 31 - Math.clz32(S & -S)
    pop[S] = pop[S & (S - 1)] + 1
    delta[S] = delta[S & (S - 1)] + pow[r]
  }
  // avail[s]: rows that still owe at least one number in state s.
  const avail = new Int32Array(states)
  for (let s = 0; s < states; s++) {
    let m = 0
    for (let r = 0; r < rows; r++) if (Math.floor(s / pow[r]) % radix > 0) m |= 1 << r
    avail[s] = m
  }
  // W[j*states+s]: number of ways to fill columns j..end from state s.
  const W = new Float64Array((columns + 1) * states)
  W[columns * states] = 1
  // Ways to choose a column's numbers: C(size, k) for an allowed count k, else 0.
  const ways = new Float64Array(columns * (rows + 1))
  for (let j = 0; j < columns; j++) {
    for (let k = minPerColumn; k <= Math.min(rows, colSize[j]); k++) ways[j * (rows + 1) + k] = binomial(colSize[j], k)
  }
  const weightOf = (j: number, k: number): number => ways[j * (rows + 1) + k]
  for (let j = columns - 1; j >= 0; j--) {
    const next = (j + 1) * states
    for (let s = 0; s < states; s++) {
      const a = avail[s]
      let sum = 0
      for (let S = 0; S < nSub; S++) {
        if ((S & a) !== S) continue
        const w = weightOf(j, pop[S])
        if (w > 0) sum += w * W[next + s - delta[S]]
      }
      W[j * states + s] = sum
    }
  }
  let startState = 0
  for (let r = 0; r < rows; r++) startState += perRow * pow[r]
  const total = W[startState]
  if (!(total > 0)) fail(ErrorCode.ValidationFailed, 'card layout admits no valid card')

  // Forward pass over reachable states only: candidate row subsets with their cumulative thresholds.
  const off = new Int32Array(columns * states + 1)
  const mask: number[] = [],
    kk: number[] = [],
    nxt: number[] = [],
    thr: number[] = []
  let reach = new Uint8Array(states)
  reach[startState] = 1
  for (let j = 0; j < columns; j++) {
    const nextReach = new Uint8Array(states)
    const next = (j + 1) * states
    for (let s = 0; s < states; s++) {
      off[j * states + s] = mask.length
      const here = W[j * states + s]
      if (!reach[s] || !(here > 0)) continue
      const a = avail[s]
      let cum = 0
      const first = mask.length
      for (let S = 0; S < nSub; S++) {
        if ((S & a) !== S) continue
        const w = weightOf(j, pop[S]) * W[next + s - delta[S]]
        if (!(w > 0)) continue
        cum += w
        const prev = mask.length > first ? thr[thr.length - 1] : 0
        // Every possible shape keeps a non-empty interval, however rare.
        thr.push(Math.min(TWO32, Math.max(prev + 1, Math.round((cum / here) * TWO32))))
        mask.push(S)
        kk.push(pop[S])
        nxt.push(s - delta[S])
        nextReach[s - delta[S]] = 1
      }
      thr[thr.length - 1] = TWO32
    }
    reach = nextReach
  }
  off[columns * states] = mask.length

  // Subset tables: one uniform draw picks a column's k numbers at once.
  const keys = columns * (rows + 1)
  const subStart = new Int32Array(keys),
    subCount = new Int32Array(keys),
    subReject = new Float64Array(keys)
  const subs: number[] = []
  for (let j = 0; j < columns; j++) {
    for (let k = 1; k <= Math.min(rows, colSize[j]); k++) {
      const cnt = binomial(colSize[j], k)
      if (cnt > MAX_SUBSET_TABLE || !kk.includes(k)) continue
      const key = j * (rows + 1) + k
      subStart[key] = subs.length
      subCount[key] = cnt
      subReject[key] = TWO32 % cnt
      const comb = Array.from({ length: k }, (_, i) => i)
      for (;;) {
        subs.push(...comb)
        let i = k - 1
        while (i >= 0 && comb[i] === colSize[j] - k + i) i--
        if (i < 0) break
        comb[i]++
        for (let m = i + 1; m < k; m++) comb[m] = comb[m - 1] + 1
      }
    }
  }
  return {
    rows,
    columns,
    perRow,
    cells: rows * perRow,
    ballCount,
    colLo,
    colSize,
    colOf,
    states,
    startState,
    total,
    off,
    candMask: Int32Array.from(mask),
    candK: Int32Array.from(kk),
    candNext: Int32Array.from(nxt),
    candThresh: Float64Array.from(thr),
    subsets: Uint16Array.from(subs),
    subStart,
    subCount,
    subReject,
    cursor: new Int32Array(rows),
    pick: new Int32Array(Math.max(...colSize, 1)),
  }
}

/** Uniform integer in [0, n) from 32-bit words, Lemire's multiply-and-reject (exact: u*n < 2^53 for n < 2^21). */
function boundedFrom(next32: () => number, n: number, reject: number): number {
  for (;;) {
    const m = next32() * n
    const hi = Math.floor(m / TWO32)
    if (m - hi * TWO32 >= reject) return hi
  }
}

/**
 * Draws one uniformly random valid card into `out` as its rows' numbers, row-major, each row left to right
 * (so ascending), `plan.cells` values. `next32` returns uniform integers in [0, 2^32).
 */
function sampleInto(plan: Plan, next32: () => number, out: Uint16Array): void {
  const { rows, columns, perRow, states, off, candMask, candK, candNext, candThresh, colLo, colSize, cursor, pick } =
    plan
  const { subsets, subStart, subCount, subReject } = plan
  for (let r = 0; r < rows; r++) cursor[r] = r * perRow
  let s = plan.startState
  for (let j = 0; j < columns; j++) {
    const base = j * states + s
    let c = off[base]
    if (off[base + 1] - c > 1) {
      const u = next32()
      while (u >= candThresh[c]) c++
    }
    const k = candK[c]
    let mask = candMask[c]
    s = candNext[c]
    if (k === 0) continue
    const lo = colLo[j]
    const key = j * (rows + 1) + k
    const cnt = subCount[key]
    let src: Uint16Array | Int32Array
    let p: number
    if (cnt > 0) {
      src = subsets
      p = subStart[key] + (cnt > 1 ? boundedFrom(next32, cnt, subReject[key]) * k : 0)
    } else {
      // Floyd's algorithm: a uniform k-subset of 0..n-1 with exactly k draws, kept sorted by insertion.
      const n = colSize[j]
      let taken = 0
      for (let t = n - k; t < n; t++) {
        let v = boundedFrom(next32, t + 1, TWO32 % (t + 1))
        for (let i = 0; i < taken; i++) {
          if (pick[i] === v) {
            v = t
            break
          }
        }
        let i = taken++
        while (i > 0 && pick[i - 1] > v) {
          pick[i] = pick[i - 1]
          i--
        }
        pick[i] = v
      }
      src = pick
      p = 0
    }
    // Ascending down the column: the i-th chosen row (top to bottom) gets the i-th smallest number.
    for (let r = 0; mask !== 0; r++, mask >>>= 1) {
      if (mask & 1) out[cursor[r]++] = lo + src[p++]
    }
  }
}

/** 32-bit words from any Rng (the seeded one hands them out directly). */
function wordSource(rng: Rng): () => number {
  const direct = (rng as { nextUint32?: () => number }).nextUint32
  return typeof direct === 'function' ? direct : () => rng.nextInt(TWO32)
}

function cardFromCells(plan: Plan, cells: ArrayLike<number>, offset: number): Card {
  const grid: number[][] = []
  for (let r = 0; r < plan.rows; r++) {
    const row: number[] = []
    for (let j = 0; j < plan.columns; j++) row.push(0)
    for (let k = 0, i = offset + r * plan.perRow; k < plan.perRow; k++, i++) {
      const x = cells[i]
      row[plan.colOf[x]] = x
    }
    grid.push(row)
  }
  return { grid }
}

/**
 * A uniformly random valid card for `layout` (BNG-5 for LAYOUT_90): exactly `perRow` numbers per row, each column
 * holding between `minPerColumn` and `rows` numbers from its range, all distinct, ascending down each column.
 */
export function generateCard(rng: Rng, layout: CardLayout = LAYOUT_90): Card {
  const plan = planFor(layout)
  const cells = new Uint16Array(plan.cells)
  sampleInto(plan, wordSource(rng), cells)
  return cardFromCells(plan, cells, 0)
}

/** Number of distinct valid cards of a layout (exact while below 2^53; about 3.67e18 for LAYOUT_90, 2.44e17 for LAYOUT_75). */
export function countCards(layout: CardLayout = LAYOUT_90): number {
  return planFor(layout).total
}

// ---------------------------------------------------------------------------------------------------------------
// Master sets (BNG-13: two identical cards can never be sold in the same game, so a series has distinct cards).

/**
 * Generates a master set as packed rows: card i occupies `rows*perRow` bytes from `i*rows*perRow`, its rows in
 * order, each row's numbers left to right. Duplicates (same numbers in the same rows) are rejected and redrawn, so
 * the cards are pairwise distinct. Deterministic from the seed (createSeededRng).
 */
function generatePacked(
  seed: string | number,
  count: number,
  layout: CardLayout,
  onCard?: (cells: Uint8Array, index: number) => void,
): Uint8Array {
  if (!Number.isInteger(count) || count < 0)
    fail(ErrorCode.ValidationFailed, `card count ${count} must be a non-negative integer`)
  const plan = planFor(layout)
  if (plan.ballCount > 255) fail(ErrorCode.ValidationFailed, 'master sets support at most 255 balls')
  if (count > plan.total) {
    fail(
      ErrorCode.ValidationFailed,
      `a master set of ${count} distinct cards is impossible: the layout has only ${plan.total}`,
    )
  }
  const L = plan.cells
  const packed = new Uint8Array(count * L)
  let cap = 16
  while (cap < count * 2) cap *= 2
  const mask = cap - 1
  const table = new Int32Array(cap) // card index + 1, 0 = empty slot
  const cells = new Uint16Array(L)
  const next32 = createSeededRng(seed).nextUint32
  let made = 0
  while (made < count) {
    sampleInto(plan, next32, cells)
    let h = 0x811c9dc5
    for (let i = 0; i < L; i++) h = Math.imul(h ^ cells[i], 0x01000193)
    h ^= h >>> 16
    h = Math.imul(h, 0x85ebca6b)
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35)
    h ^= h >>> 16
    let slot = h & mask
    let duplicate = false
    for (;;) {
      const t = table[slot]
      if (t === 0) break
      const b = (t - 1) * L
      let i = 0
      while (i < L && packed[b + i] === cells[i]) i++
      if (i === L) {
        duplicate = true
        break
      }
      slot = (slot + 1) & mask
    }
    if (duplicate) continue
    table[slot] = made + 1
    const b = made * L
    for (let i = 0; i < L; i++) packed[b + i] = cells[i]
    if (onCard) onCard(packed.subarray(b, b + L), made)
    made++
  }
  return packed
}

/**
 * A master set in packed form (for large series and the winner detector): `count * rows * perRow` bytes; card k
 * (1-based) is at offset `(k-1) * rows * perRow`, its rows in order, each row's numbers left to right. Same cards,
 * same order as generateMasterSet(seed, count, layout).
 */
export function generateMasterSetPacked(
  seed: string | number,
  count: number,
  layout: CardLayout = LAYOUT_90,
): Uint8Array {
  return generatePacked(seed, count, layout)
}

/**
 * Calls `fn(card, index)` for each card of the master set in order, without keeping the Card objects
 * (BNG-13: pairwise distinct; card number k is index k-1).
 */
export function forEachMasterCard(
  seed: string | number,
  count: number,
  layout: CardLayout,
  fn: (card: Card, index: number) => void,
): void {
  const plan = planFor(layout)
  generatePacked(seed, count, layout, (cells, index) => fn(cardFromCells(plan, cells, 0), index))
}

/**
 * `count` pairwise distinct cards (by cardKey), deterministic from `seed` (BNG-13). Card number k (1-based) is
 * element k-1. Fails with VALIDATION_FAILED if the layout has fewer than `count` distinct cards.
 */
export function generateMasterSet(seed: string | number, count: number, layout: CardLayout = LAYOUT_90): Card[] {
  const cards: Card[] = []
  forEachMasterCard(seed, count, layout, (card) => {
    cards.push(card)
  })
  return cards
}

/** Card `index` (0-based) of a packed master set, as a grid. */
export function cardFromPacked(packed: Uint8Array, index: number, layout: CardLayout = LAYOUT_90): Card {
  const plan = planFor(layout)
  if (!Number.isInteger(index) || index < 0 || (index + 1) * plan.cells > packed.length) {
    fail(ErrorCode.ValidationFailed, `card index ${index} outside the packed set`)
  }
  return cardFromCells(plan, packed, index * plan.cells)
}

// ---------------------------------------------------------------------------------------------------------------
// Checks and conversions.

/**
 * Every violation of the layout's card rules (BNG-5 for LAYOUT_90), as human-readable sentences; empty = valid.
 * Checks each rule on its own, trusting nothing about how the card was made. Rows and columns are 1-based.
 */
export function validateCard(card: Card, layout: CardLayout = LAYOUT_90): string[] {
  const v: string[] = []
  const grid: unknown = card?.grid
  if (!Array.isArray(grid)) return ['card has no grid']
  const { rows, columns, perRow, columnRanges, minPerColumn } = layout
  if (grid.length !== rows) v.push(`card has ${grid.length} rows, expected ${rows}`)
  const seen = new Set<number>()
  const colCount = new Array<number>(columns).fill(0)
  const colPrev = new Array<number>(columns).fill(0)
  let total = 0
  grid.forEach((row: unknown, r) => {
    if (!Array.isArray(row)) {
      v.push(`row ${r + 1} is not a list of cells`)
      return
    }
    if (row.length !== columns) v.push(`row ${r + 1} has ${row.length} cells, expected ${columns}`)
    let inRow = 0
    row.forEach((x: unknown, c) => {
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 0) {
        v.push(`row ${r + 1}, column ${c + 1}: ${String(x)} is neither a number nor blank (0)`)
        return
      }
      if (x === 0) return
      inRow++
      total++
      if (seen.has(x)) v.push(`number ${x} appears more than once`)
      seen.add(x)
      if (c >= columns) return
      const [lo, hi] = columnRanges[c]
      if (x < lo || x > hi) v.push(`row ${r + 1}, column ${c + 1}: ${x} is outside the column's range ${lo}-${hi}`)
      colCount[c]++
      if (x <= colPrev[c]) v.push(`column ${c + 1} is not ascending top to bottom: ${x} is below ${colPrev[c]}`)
      colPrev[c] = x
    })
    if (inRow !== perRow) v.push(`row ${r + 1} has ${inRow} numbers, expected ${perRow}`)
  })
  for (let c = 0; c < columns; c++) {
    if (colCount[c] < minPerColumn || colCount[c] > rows) {
      v.push(
        `column ${c + 1} holds ${colCount[c]} numbers, expected ${minPerColumn === rows ? rows : `${minPerColumn} to ${rows}`}`,
      )
    }
  }
  if (total !== rows * perRow) v.push(`card has ${total} numbers, expected ${rows * perRow}`)
  return v
}

/** The numbers of each row, left to right, blanks removed (3 rows of 5 for a 90-ball card). */
export function cardRows(card: Card): number[][] {
  return card.grid.map((row) => row.filter((x) => x > 0))
}

/** All the card's numbers, ascending. */
export function cardNumbers(card: Card): number[] {
  const out: number[] = []
  for (const row of card.grid) for (const x of row) if (x > 0) out.push(x)
  return out.sort((a, b) => a - b)
}

/**
 * Canonical identity of a card's content: two cards with the same numbers in the same cells have the same key,
 * any other difference gives a different key. Rows are separated by '-', each cell is a two-digit number or '.'
 * for a blank (three digits after a leading 'w3:' when a number exceeds 99). A 90-ball card's key is 44 characters,
 * e.g. `01.22..5160.80-...`.
 */
export function cardKey(card: Card): string {
  let wide = false
  for (const row of card.grid) for (const x of row) if (x > 99) wide = true
  const width = wide ? 3 : 2
  const parts: string[] = []
  for (const row of card.grid) {
    let s = ''
    for (const x of row) s += x > 0 ? String(x).padStart(width, '0') : '.'
    parts.push(s)
  }
  return (wide ? 'w3:' : '') + parts.join('-')
}

/**
 * Rebuilds a card's grid from its rows' numbers (the inverse of cardRows): each number goes to the column whose
 * range holds it. Fails with VALIDATION_FAILED when the row count is wrong, a number belongs to no column, or two
 * numbers of a row fall in the same column. Does not check the other card rules: use validateCard.
 */
export function cardFromRows(rows: ReadonlyArray<ReadonlyArray<number>>, layout: CardLayout = LAYOUT_90): Card {
  if (rows.length !== layout.rows)
    fail(ErrorCode.ValidationFailed, `card has ${rows.length} rows, expected ${layout.rows}`)
  const grid = rows.map((numbers, r) => {
    const row = new Array<number>(layout.columns).fill(0)
    for (const x of numbers) {
      const c = layout.columnRanges.findIndex(([lo, hi]) => x >= lo && x <= hi)
      if (!Number.isInteger(x) || c < 0) fail(ErrorCode.ValidationFailed, `row ${r + 1}: ${x} belongs to no column`)
      if (row[c] !== 0)
        fail(ErrorCode.ValidationFailed, `row ${r + 1}: ${row[c]} and ${x} fall in the same column ${c + 1}`)
      row[c] = x
    }
    return row
  })
  return { grid }
}

function isCalled(called: CalledBalls, x: number): boolean {
  return called instanceof Uint8Array ? called[x] > 0 : called.has(x)
}

/**
 * BNG-44: row `row` (0-based) is a line when it holds at least one number and every number in it has been
 * called. Blank cells are never marks: a called "0" or a set bit 0 in a bitmap changes nothing.
 */
export function isLineComplete(card: Card, called: CalledBalls, row: number): boolean {
  const cells = card.grid[row]
  if (!cells) return false
  let numbers = 0
  for (const x of cells) {
    if (!(x > 0)) continue
    if (!isCalled(called, x)) return false
    numbers++
  }
  return numbers > 0
}

/** Indices (0-based, ascending) of the card's complete rows (BNG-44 line). */
export function completedRows(card: Card, called: CalledBalls): number[] {
  const out: number[] = []
  for (let r = 0; r < card.grid.length; r++) if (isLineComplete(card, called, r)) out.push(r)
  return out
}

/** BNG-44 bingo (full house): the card holds at least one number and every number on it has been called. */
export function isFullHouse(card: Card, called: CalledBalls): boolean {
  let numbers = 0
  for (const row of card.grid) {
    for (const x of row) {
      if (!(x > 0)) continue
      if (!isCalled(called, x)) return false
      numbers++
    }
  }
  return numbers > 0
}
