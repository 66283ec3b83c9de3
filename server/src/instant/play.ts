/**
 * What a ticket shows under the scratch layer (its "face"), derived from the batch's symbols key, the ticket index
 * and its prize tier, so that a face is never stored: the print file, the kiosk's on-screen reveal and a cashier's
 * misprint check all derive the same face from the same inputs (bolillo-instant-v2, codes.ts).
 *
 * Symbols are indexes into the design's ascending list of amounts (letter A = the smallest amount).
 *
 * - match-three: 9 cells. A winner of amount w shows w exactly three times and every other amount at most twice;
 *   a loser shows every amount at most twice. So a ticket never shows two triples and a loser never shows one.
 * - beat-their-number: rows of (your number, their number, prize); numbers differ in every row. A winner has one
 *   row, at a random place, where yours is higher, carrying its prize; a loser has none.
 *
 * Randomness per ticket: the uint32 words of AES-256-ECB(symbolsKey, uint64be(index) ‖ uint64be(j)), j = 0, 1, ...
 * read in order (big-endian); bounded integers by rejection sampling. Pure.
 */
import type { CheckedDesign } from './design.ts'
import { indexBlocks } from './codes.ts'

export type TicketFace =
  | { style: 'match-three'; cells: number[] }
  | { style: 'beat-their-number'; rows: Array<{ yours: number; theirs: number; symbol: number }> }

/** Blocks computed up front per ticket; a ticket that needs more derives further blocks on its own (rare). */
const BULK_BLOCKS = 4
const FACTORIAL_9 = 362880

/** uint32 words of one ticket: blocks j = 0, 1, ... of its index, extended on demand. */
class TicketWords {
  private view!: DataView
  private pos = 0
  private end = 0
  private nextBlock = 0
  private index = 0
  constructor(private readonly key: Buffer) {}
  /** Points the reader at ticket `index`, whose first BULK_BLOCKS blocks are at `offset` of `bulk`. */
  reset(index: number, bulk: DataView, offset: number): this {
    this.index = index
    this.view = bulk
    this.pos = offset
    this.end = offset + BULK_BLOCKS * 16
    this.nextBlock = BULK_BLOCKS
    return this
  }
  next(): number {
    if (this.pos >= this.end) {
      const more = indexBlocks(this.key, this.index, 1, BULK_BLOCKS, this.nextBlock)
      this.view = new DataView(more.buffer, more.byteOffset, more.byteLength)
      this.pos = 0
      this.end = BULK_BLOCKS * 16
      this.nextBlock += BULK_BLOCKS
    }
    const v = this.view.getUint32(this.pos)
    this.pos += 4
    return v
  }
  uniform(n: number): number {
    if (n === 1) return 0
    const limit = 4294967296 - (4294967296 % n)
    for (;;) {
      const u = this.next()
      if (u < limit) return u % n
    }
  }
}

const counts = new Uint8Array(32)

/**
 * match-three cells into `cells` (9 symbol indexes): the winning amount three times, then each further cell a
 * uniform amount among those shown fewer than twice (and not the winning one), then a uniform permutation of the
 * 9 cells from one draw in [0, 9!) read as a Fisher-Yates swap sequence (Lehmer code).
 */
function matchThreeCells(m: number, win: number, w: TicketWords, cells: Uint8Array): void {
  counts.fill(0, 0, m)
  let n = 0
  if (win >= 0) {
    cells[0] = cells[1] = cells[2] = win
    counts[win] = 3
    n = 3
  }
  while (n < 9) {
    const s = w.uniform(m)
    if (counts[s] >= 2) continue
    counts[s]++
    cells[n++] = s
  }
  let r = w.uniform(FACTORIAL_9)
  for (let j = 8; j > 0; j--) {
    const q = r % (j + 1)
    r = (r - q) / (j + 1)
    const t = cells[j]
    cells[j] = cells[q]
    cells[q] = t
  }
}

function beatRows(
  c: CheckedDesign,
  win: number,
  w: TicketWords,
): Array<{ yours: number; theirs: number; symbol: number }> {
  const style = c.design.playStyle as Extract<CheckedDesign['design']['playStyle'], { type: 'beat-their-number' }>
  const rowCount = style.rows ?? 5
  const maxNumber = style.maxNumber ?? 20
  const m = c.symbolAmountsCents.length
  const winRow = win >= 0 ? w.uniform(rowCount) : -1
  const rows: Array<{ yours: number; theirs: number; symbol: number }> = []
  for (let r = 0; r < rowCount; r++) {
    const a = 1 + w.uniform(maxNumber)
    let b = 1 + w.uniform(maxNumber - 1)
    if (b >= a) b++
    const hi = a > b ? a : b
    const lo = a > b ? b : a
    const symbol = r === winRow ? win : w.uniform(m)
    rows.push(r === winRow ? { yours: hi, theirs: lo, symbol } : { yours: lo, theirs: hi, symbol })
  }
  return rows
}

function faceOf(c: CheckedDesign, tier: number, w: TicketWords): TicketFace {
  const win = tier > 0 ? c.tierSymbol[tier] : -1
  if (c.design.playStyle.type === 'match-three') {
    const cells = new Uint8Array(9)
    matchThreeCells(c.symbolAmountsCents.length, win, w, cells)
    return { style: 'match-three', cells: [...cells] }
  }
  return { style: 'beat-their-number', rows: beatRows(c, win, w) }
}

/** The face of one ticket. */
export function ticketFace(c: CheckedDesign, symbolsKey: Buffer, index: number, tier: number): TicketFace {
  const bulk = indexBlocks(symbolsKey, index, 1, BULK_BLOCKS)
  return faceOf(
    c,
    tier,
    new TicketWords(symbolsKey).reset(index, new DataView(bulk.buffer, bulk.byteOffset, bulk.byteLength), 0),
  )
}

/** Faces of tickets [from, from + tiers.length), with one cipher call for the range. */
export function ticketFaces(
  c: CheckedDesign,
  symbolsKey: Buffer,
  from: number,
  tiers: ArrayLike<number>,
): TicketFace[] {
  const bulk = indexBlocks(symbolsKey, from, tiers.length, BULK_BLOCKS)
  const view = new DataView(bulk.buffer, bulk.byteOffset, bulk.byteLength)
  const w = new TicketWords(symbolsKey)
  const out = new Array<TicketFace>(tiers.length)
  for (let i = 0; i < tiers.length; i++) out[i] = faceOf(c, tiers[i], w.reset(from + i, view, i * BULK_BLOCKS * 16))
  return out
}

/** {@link encodeFace} of tickets [from, from + tiers.length) without building face objects (print files). */
export function encodedFaces(c: CheckedDesign, symbolsKey: Buffer, from: number, tiers: ArrayLike<number>): string[] {
  if (c.design.playStyle.type !== 'match-three') return ticketFaces(c, symbolsKey, from, tiers).map(encodeFace)
  const bulk = indexBlocks(symbolsKey, from, tiers.length, BULK_BLOCKS)
  const view = new DataView(bulk.buffer, bulk.byteOffset, bulk.byteLength)
  const w = new TicketWords(symbolsKey)
  const m = c.symbolAmountsCents.length
  const cells = new Uint8Array(9)
  const out = new Array<string>(tiers.length)
  for (let i = 0; i < tiers.length; i++) {
    const tier = tiers[i]
    matchThreeCells(m, tier > 0 ? c.tierSymbol[tier] : -1, w.reset(from + i, view, i * BULK_BLOCKS * 16), cells)
    out[i] = String.fromCharCode(
      65 + cells[0],
      65 + cells[1],
      65 + cells[2],
      65 + cells[3],
      65 + cells[4],
      65 + cells[5],
      65 + cells[6],
      65 + cells[7],
      65 + cells[8],
    )
  }
  return out
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const two = (n: number) => (n < 10 ? `0${n}` : String(n))

/**
 * Compact text of a face for the print file: match-three `ABCABDEFC` (cells row by row, letter = amount index);
 * beat-their-number rows `YYTTL` joined by `.` (your number, their number, prize letter).
 */
export function encodeFace(face: TicketFace): string {
  if (face.style === 'match-three') {
    let s = ''
    for (const x of face.cells) s += LETTERS[x]
    return s
  }
  return face.rows.map((r) => `${two(r.yours)}${two(r.theirs)}${LETTERS[r.symbol]}`).join('.')
}

/** Reads back {@link encodeFace}. */
export function decodeFace(text: string): TicketFace {
  if (/^[A-Z]{9}$/.test(text)) return { style: 'match-three', cells: [...text].map((ch) => ch.charCodeAt(0) - 65) }
  return {
    style: 'beat-their-number',
    rows: text
      .split('.')
      .map((r) => ({ yours: Number(r.slice(0, 2)), theirs: Number(r.slice(2, 4)), symbol: r.charCodeAt(4) - 65 })),
  }
}

/**
 * What a face pays by the rules printed on the ticket, independent of how it was generated: the amount shown three
 * times (match-three), or the sum of the prizes of rows where your number is higher. `ambiguous` marks a face a
 * generator must never produce (two triples, or an amount more than three times).
 */
export function evaluateFace(
  face: TicketFace,
  symbolAmountsCents: readonly number[],
): { amountCents: number; ambiguous: boolean } {
  if (face.style === 'match-three') {
    const counts = new Map<number, number>()
    for (const s of face.cells) counts.set(s, (counts.get(s) ?? 0) + 1)
    const triples = [...counts].filter(([, n]) => n >= 3)
    return {
      amountCents: triples.length === 1 ? symbolAmountsCents[triples[0][0]] : 0,
      ambiguous: triples.length > 1 || triples.some(([, n]) => n > 3) || face.cells.length !== 9,
    }
  }
  let amountCents = 0
  let ties = false
  for (const r of face.rows) {
    if (r.yours === r.theirs) ties = true
    if (r.yours > r.theirs) amountCents += symbolAmountsCents[r.symbol]
  }
  return { amountCents, ambiguous: ties }
}
