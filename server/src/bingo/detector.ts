/**
 * Winner detection for bingo games (BNG-2, BNG-44, BNG-48). Pure: no I/O, no clock.
 *
 * The incremental detector does work per ball proportional to the number of card rows holding that ball, not to the
 * number of cards: an inverted index (CSR: ball -> packed row ids) and per-row / per-card counters of numbers still
 * missing, all in typed arrays, so a million sold cards cost about 80 MB and well under a millisecond per ball.
 *
 * The rescan detectors check every card against a bitmap of called balls after each ball. They are the reference
 * (the oracle in tests, the baseline in the benchmark).
 */
import { ErrorCode, fail } from '../shared/errors.ts'

/** What one called ball produced, card indices ascending. */
export interface BallResult {
  /**
   * Cards with at least one complete row (BNG-44 line) for the first time at this ball. Always empty once the line
   * has been closed.
   */
  lines: number[]
  /** Cards whose every number has now been called (BNG-44 bingo), each reported once, at its completing ball. */
  bingos: number[]
}

/** Card indices as views valid until the next call (see WinnerDetector.callView). */
export interface BallView {
  lines: Int32Array
  bingos: Int32Array
}
const EMPTY = new Int32Array(0)

export interface WinnerDetector {
  readonly cardCount: number
  readonly ballCount: number
  /**
   * Records a ball and returns the cards it made win. Fails with BALL_OUT_OF_RANGE (not an integer 1..ballCount)
   * or BALL_ALREADY_DRAWN.
   */
  call(ball: number): BallResult
  /**
   * Same as call(), but the card indices come as views onto the detector's own buffers, valid until the next
   * call: no per-ball allocation (the benchmark measures this; call() copies the indices into arrays).
   */
  callView(ball: number): BallView
  /**
   * The line prize has been awarded (BNG-44: one line prize per game): from now on no line is reported or
   * tracked; only bingos are.
   */
  closeLine(): void
  isLineClosed(): boolean
  /** The balls called so far, in order. */
  called(): number[]
  /**
   * Extraction count (1-based) at which the card first had a complete row, or 0 if it had none before the line
   * was closed. Recorded even when nothing is announced (BNG-48 profiles record winners silently).
   */
  firstLineAt(cardIndex: number): number
  /** Extraction count (1-based) at which every number of the card had been called, or 0. */
  firstBingoAt(cardIndex: number): number
}

/** Card rows as number lists (cardRows output): cards[i][r] = numbers of row r of card i. */
export type CardRowsList = ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>

function checkBallCount(ballCount: number): void {
  if (!Number.isInteger(ballCount) || ballCount < 1 || ballCount > 65535) {
    fail(ErrorCode.ValidationFailed, `ball count ${ballCount} must be an integer 1..65535`)
  }
}

function badNumber(card: number, x: number, ballCount: number): never {
  return fail(ErrorCode.ValidationFailed, `card ${card}: ${x} is not a ball 1..${ballCount}`)
}

function duplicateNumber(card: number, x: number): never {
  return fail(ErrorCode.ValidationFailed, `card ${card}: number ${x} appears more than once`)
}

/**
 * Collects the card indices of one call in a reusable typed buffer, then copies them into a pre-sized array:
 * several times faster than growing an array by push when a ball completes 100,000+ cards.
 */
class IndexBuffer {
  buf: Int32Array
  n = 0
  constructor(capacity: number) {
    this.buf = new Int32Array(capacity)
  }
  take(): number[] {
    const out = copyOut(this.buf, 0, this.n)
    this.n = 0
    return out
  }
}

/** Shared ball bookkeeping of every detector. */
class CallLog {
  readonly isCalled: Uint8Array
  readonly order: number[] = []
  constructor(readonly ballCount: number) {
    this.isCalled = new Uint8Array(ballCount + 1)
  }
  /** Validates and records a ball; returns the extraction count (1-based). */
  record(ball: number): number {
    if (!Number.isInteger(ball) || ball < 1 || ball > this.ballCount) {
      fail(ErrorCode.BallOutOfRange, `ball ${ball} is not in 1..${this.ballCount}`)
    }
    if (this.isCalled[ball]) fail(ErrorCode.BallAlreadyDrawn, `ball ${ball} has already been called`)
    this.isCalled[ball] = 1
    this.order.push(ball)
    return this.order.length
  }
}

function checkCardIndex(cardIndex: number, cardCount: number): void {
  if (!Number.isInteger(cardIndex) || cardIndex < 0 || cardIndex >= cardCount) {
    fail(ErrorCode.ValidationFailed, `card index ${cardIndex} is not in 0..${cardCount - 1}`)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Incremental detector.

class IncrementalDetector implements WinnerDetector {
  private readonly log: CallLog
  private lineClosed = false
  private readonly lineAt: Uint16Array
  private lineBuf: IndexBuffer
  /**
   * Every bingo so far, in order: the cards completed by extraction n (1-based) are
   * bingoLog[bingoEnd[n-1] .. bingoEnd[n]-1]. Each card completes at most once, so cardCount slots suffice.
   */
  private readonly bingoLog: Int32Array
  private readonly bingoEnd: Int32Array
  /** firstBingoAt answers, folded in from the log on demand (keeps call() to the work it must do). */
  private readonly bingoAt: Uint16Array
  private bingoAtUpTo = 0

  constructor(
    readonly cardCount: number,
    readonly ballCount: number,
    /** Row id of an entry = card << shift | row. */
    private readonly shift: number,
    /** CSR: entries[offsets[b] .. offsets[b+1]-1] are the row ids holding ball b, card order. */
    private readonly offsets: Int32Array,
    private readonly entries: Int32Array,
    /** Numbers still uncalled in each row, by row id (0 for rows that do not exist or hold no number). */
    private readonly rowLeft: Uint8Array,
    /** Numbers still uncalled on each card. */
    private readonly cardLeft: Uint8Array,
  ) {
    this.log = new CallLog(ballCount)
    this.lineAt = new Uint16Array(cardCount)
    this.lineBuf = new IndexBuffer(cardCount)
    this.bingoLog = new Int32Array(cardCount)
    this.bingoEnd = new Int32Array(ballCount + 1)
    this.bingoAt = new Uint16Array(cardCount)
  }

  call(ball: number): BallResult {
    const v = this.callView(ball)
    return { lines: Array.from(v.lines), bingos: Array.from(v.bingos) }
  }

  callView(ball: number): BallView {
    const n = this.log.record(ball)
    const { entries, rowLeft, cardLeft, lineAt, bingoLog, shift } = this
    const first = this.bingoEnd[n - 1]
    let nb = first
    const end = this.offsets[ball + 1]
    if (!this.lineClosed) {
      const lines = this.lineBuf.buf
      let nl = 0
      for (let i = this.offsets[ball]; i < end; i++) {
        const e = entries[i]
        const card = e >> shift
        if (--rowLeft[e] === 0 && lineAt[card] === 0) {
          lineAt[card] = n
          lines[nl++] = card
        }
        if (--cardLeft[card] === 0) bingoLog[nb++] = card
      }
      this.lineBuf.n = nl
    } else {
      // Only bingo work is left. Branch-free: the card index is always written, the count advances only when
      // the card's last number was this ball (late balls complete 100,000+ of 1,000,000 cards, a coin flip for
      // a branch predictor). The slot just past the last bingo is scratch: the next ball overwrites it, and a
      // write beyond the log's end (every card already complete) is ignored by the typed array.
      for (let i = this.offsets[ball]; i < end; i++) {
        const card = entries[i] >> shift
        const left = --cardLeft[card]
        bingoLog[nb] = card
        // Counts left === 0 only: a fast bingo card (bingoAfter) is decremented once more past its bingo, and that
        // decrement yields -1 (stored as 255), which must not count it again.
        nb += ((left - 1) >>> 31) & ~(left >>> 31)
      }
    }
    this.bingoEnd[n] = nb
    const lines = this.lineClosed ? EMPTY : this.lineBuf.buf.subarray(0, this.lineBuf.n)
    this.lineBuf.n = 0
    return { lines, bingos: bingoLog.subarray(first, nb) }
  }

  closeLine(): void {
    this.lineClosed = true
    this.lineBuf = new IndexBuffer(0) // no more line work: free the buffer
  }

  isLineClosed(): boolean {
    return this.lineClosed
  }

  called(): number[] {
    return this.log.order.slice()
  }

  firstLineAt(cardIndex: number): number {
    checkCardIndex(cardIndex, this.cardCount)
    return this.lineAt[cardIndex]
  }

  firstBingoAt(cardIndex: number): number {
    checkCardIndex(cardIndex, this.cardCount)
    const { bingoAt, bingoLog, bingoEnd } = this
    const calls = this.log.order.length
    for (let m = this.bingoAtUpTo + 1; m <= calls; m++) {
      for (let i = bingoEnd[m - 1]; i < bingoEnd[m]; i++) bingoAt[bingoLog[i]] = m
    }
    this.bingoAtUpTo = calls
    return bingoAt[cardIndex]
  }
}

/** buf[from .. to-1] as a new array (pre-sized: much cheaper than push for 100,000+ indices). */
function copyOut(buf: Int32Array, from: number, to: number): number[] {
  const out = new Array<number>(to - from)
  for (let i = from; i < to; i++) out[i - from] = buf[i]
  return out
}

function shiftFor(rows: number): number {
  return rows <= 1 ? 0 : 32 - Math.clz32(rows - 1)
}

function checkRowIdSpace(cardCount: number, shift: number): void {
  if (cardCount * 2 ** shift > 2 ** 31 - 1)
    fail(ErrorCode.ValidationFailed, `too many cards (${cardCount}) for the detector`)
}

/**
 * Incremental detector over cards given as their rows' numbers (`cardRows(card)` for each card). Rows may differ
 * in length; a row without numbers never makes a line. Numbers must be balls 1..ballCount, distinct on each card.
 *
 * `bingoAfter` (BNG-98 / CFG-32, a fast bingo whose licence sets it): a card's bingo is the drawing of that many of
 * its numbers (all of them when it holds fewer), instead of all.
 *
 * @example
 * const detector = createDetector(cards.map(cardRows), 90)
 * const { lines, bingos } = detector.call(17)
 */
export function createDetector(
  cards: CardRowsList,
  ballCount: number,
  opts: { bingoAfter?: number } = {},
): WinnerDetector {
  const after = opts.bingoAfter
  if (after !== undefined && (!Number.isInteger(after) || after < 1))
    fail(ErrorCode.ValidationFailed, `bingoAfter ${after} must be a positive integer`)
  checkBallCount(ballCount)
  const cardCount = cards.length
  let maxRows = 1
  for (const card of cards) maxRows = Math.max(maxRows, card.length)
  const shift = shiftFor(maxRows)
  checkRowIdSpace(cardCount, shift)
  const counts = new Int32Array(ballCount + 2)
  const stamp = new Int32Array(ballCount + 1).fill(-1)
  const rowLeft = new Uint8Array(cardCount * 2 ** shift)
  const cardLeft = new Uint8Array(cardCount)
  for (let c = 0; c < cardCount; c++) {
    const card = cards[c]
    let total = 0
    for (let r = 0; r < card.length; r++) {
      const row = card[r]
      if (row.length > 255) fail(ErrorCode.ValidationFailed, `card ${c}: a row holds more than 255 numbers`)
      for (const x of row) {
        if (!Number.isInteger(x) || x < 1 || x > ballCount) badNumber(c, x, ballCount)
        if (stamp[x] === c) duplicateNumber(c, x)
        stamp[x] = c
        counts[x + 1]++
      }
      rowLeft[c * 2 ** shift + r] = row.length
      total += row.length
    }
    if (total > 255) fail(ErrorCode.ValidationFailed, `card ${c} holds more than 255 numbers`)
    // The counter reaches 0 at the bingo: at the last number, or at the `bingoAfter`-th drawn. Past 0 it wraps
    // (Uint8Array) and never reads 0 again before the 256th decrement, which a card of at most 255 numbers never sees.
    cardLeft[c] = after === undefined ? total : Math.min(total, after)
  }
  const offsets = prefixSums(counts)
  const cursor = offsets.slice()
  const entries = new Int32Array(offsets[ballCount + 1])
  for (let c = 0; c < cardCount; c++) {
    const card = cards[c]
    for (let r = 0; r < card.length; r++) {
      const id = c * 2 ** shift + r
      for (const x of card[r]) entries[cursor[x]++] = id
    }
  }
  return new IncrementalDetector(cardCount, ballCount, shift, offsets, entries, rowLeft, cardLeft)
}

/** counts[b+1] = entries for ball b  ->  offsets[b] = first entry of ball b, offsets[ballCount+1] = total. */
function prefixSums(counts: Int32Array): Int32Array {
  const offsets = new Int32Array(counts.length)
  let sum = 0
  for (let b = 0; b < counts.length; b++) {
    sum += counts[b]
    offsets[b] = sum
  }
  return offsets
}

function checkPacked(numbers: Uint8Array, cardCount: number, rows: number, perRow: number, ballCount: number): void {
  checkBallCount(ballCount)
  if (!Number.isInteger(cardCount) || cardCount < 0)
    fail(ErrorCode.ValidationFailed, `card count ${cardCount} must be a non-negative integer`)
  if (!Number.isInteger(rows) || rows < 1 || !Number.isInteger(perRow) || perRow < 1 || rows * perRow > 255) {
    fail(ErrorCode.ValidationFailed, `bad card shape ${rows} rows of ${perRow}`)
  }
  if (numbers.length !== cardCount * rows * perRow) {
    fail(
      ErrorCode.ValidationFailed,
      `packed cards hold ${numbers.length} numbers, expected ${cardCount * rows * perRow}`,
    )
  }
}

/**
 * Incremental detector over packed cards (generateMasterSetPacked): `numbers` holds cardCount * rows * perRow
 * balls, card by card, row by row. Avoids a JS array per card for very large sets.
 */
export function createDetectorFromPacked(
  numbers: Uint8Array,
  cardCount: number,
  rows: number,
  perRow: number,
  ballCount: number,
): WinnerDetector {
  checkPacked(numbers, cardCount, rows, perRow, ballCount)
  const L = rows * perRow
  const shift = shiftFor(rows)
  checkRowIdSpace(cardCount, shift)
  const counts = new Int32Array(ballCount + 2)
  const stamp = new Int32Array(ballCount + 1).fill(-1)
  for (let c = 0, i = 0; c < cardCount; c++) {
    for (let k = 0; k < L; k++, i++) {
      const x = numbers[i]
      if (x < 1 || x > ballCount) badNumber(c, x, ballCount)
      if (stamp[x] === c) duplicateNumber(c, x)
      stamp[x] = c
      counts[x + 1]++
    }
  }
  const offsets = prefixSums(counts)
  const cursor = offsets.slice()
  const entries = new Int32Array(numbers.length)
  const rowLeft = new Uint8Array(cardCount * 2 ** shift)
  for (let c = 0, i = 0; c < cardCount; c++) {
    const card = c * 2 ** shift
    for (let r = 0; r < rows; r++) {
      const id = card + r
      rowLeft[id] = perRow
      for (let k = 0; k < perRow; k++, i++) entries[cursor[numbers[i]]++] = id
    }
  }
  const cardLeft = new Uint8Array(cardCount).fill(L)
  return new IncrementalDetector(cardCount, ballCount, shift, offsets, entries, rowLeft, cardLeft)
}

// ---------------------------------------------------------------------------------------------------------------
// Rescan detectors: the reference.

/**
 * Which cards, under the called balls, have at least one complete row (`lineCards`) and which have all their
 * numbers called (`bingoCards`), by checking every row of every card. Indices ascending. Rows without numbers
 * never count, nor do cards without numbers.
 */
export function rescanDetect(
  cards: CardRowsList,
  called: ReadonlySet<number> | Uint8Array,
): { lineCards: number[]; bingoCards: number[] } {
  const has = called instanceof Uint8Array ? (x: number) => called[x] > 0 : (x: number) => called.has(x)
  const lineCards: number[] = []
  const bingoCards: number[] = []
  cards.forEach((card, c) => {
    const numbered = card.filter((row) => row.length > 0)
    if (numbered.some((row) => row.every(has))) lineCards.push(c)
    if (numbered.length > 0 && numbered.every((row) => row.every(has))) bingoCards.push(c)
  })
  return { lineCards, bingoCards }
}

/** Common state of the stateful rescan detectors. */
abstract class RescanBase implements WinnerDetector {
  protected readonly log: CallLog
  protected lineClosed = false
  protected readonly lineAt: Uint16Array
  protected readonly bingoAt: Uint16Array

  constructor(
    readonly cardCount: number,
    readonly ballCount: number,
  ) {
    this.log = new CallLog(ballCount)
    this.lineAt = new Uint16Array(cardCount)
    this.bingoAt = new Uint16Array(cardCount)
  }

  abstract call(ball: number): BallResult

  callView(ball: number): BallView {
    const r = this.call(ball)
    return { lines: Int32Array.from(r.lines), bingos: Int32Array.from(r.bingos) }
  }

  closeLine(): void {
    this.lineClosed = true
  }

  isLineClosed(): boolean {
    return this.lineClosed
  }

  called(): number[] {
    return this.log.order.slice()
  }

  firstLineAt(cardIndex: number): number {
    checkCardIndex(cardIndex, this.cardCount)
    return this.lineAt[cardIndex]
  }

  firstBingoAt(cardIndex: number): number {
    checkCardIndex(cardIndex, this.cardCount)
    return this.bingoAt[cardIndex]
  }
}

class RescanDetector extends RescanBase {
  constructor(
    private readonly cards: CardRowsList,
    ballCount: number,
  ) {
    super(cards.length, ballCount)
  }

  call(ball: number): BallResult {
    const n = this.log.record(ball)
    const called = this.log.isCalled
    const lines: number[] = []
    const bingos: number[] = []
    for (let c = 0; c < this.cards.length; c++) {
      if (this.bingoAt[c] !== 0) continue
      const needLine = !this.lineClosed && this.lineAt[c] === 0
      let full = true
      let numbers = 0
      let line = false
      for (const row of this.cards[c]) {
        if (row.length === 0) continue
        numbers += row.length
        let complete = true
        for (const x of row) {
          if (called[x] === 0) {
            complete = false
            break
          }
        }
        if (complete) {
          line = true
        } else {
          full = false
          if (!needLine) break
        }
      }
      if (needLine && line) {
        this.lineAt[c] = n
        lines.push(c)
      }
      if (full && numbers > 0) {
        this.bingoAt[c] = n
        bingos.push(c)
      }
    }
    return { lines, bingos }
  }
}

class PackedRescanDetector extends RescanBase {
  constructor(
    private readonly numbers: Uint8Array,
    cardCount: number,
    private readonly rows: number,
    private readonly perRow: number,
    ballCount: number,
  ) {
    super(cardCount, ballCount)
  }

  call(ball: number): BallResult {
    const n = this.log.record(ball)
    const called = this.log.isCalled
    const { numbers, rows, perRow, lineAt, bingoAt } = this
    const L = rows * perRow
    const lines: number[] = []
    const bingos: number[] = []
    for (let c = 0; c < this.cardCount; c++) {
      if (bingoAt[c] !== 0) continue
      const needLine = !this.lineClosed && lineAt[c] === 0
      const base = c * L
      let full = true
      let line = false
      for (let r = 0; r < rows; r++) {
        let complete = true
        for (let k = base + r * perRow, end = k + perRow; k < end; k++) {
          if (called[numbers[k]] === 0) {
            complete = false
            break
          }
        }
        if (complete) {
          line = true
        } else {
          full = false
          if (!needLine) break
        }
      }
      if (needLine && line) {
        lineAt[c] = n
        lines.push(c)
      }
      if (full) {
        bingoAt[c] = n
        bingos.push(c)
      }
    }
    return { lines, bingos }
  }
}

/** Stateful rescan detector with the WinnerDetector API: checks every card that has not won yet at each ball. */
export function createRescanDetector(cards: CardRowsList, ballCount: number): WinnerDetector {
  checkBallCount(ballCount)
  cards.forEach((card, c) => {
    const seen = new Set<number>()
    for (const row of card) {
      for (const x of row) {
        if (!Number.isInteger(x) || x < 1 || x > ballCount) badNumber(c, x, ballCount)
        if (seen.has(x)) duplicateNumber(c, x)
        seen.add(x)
      }
    }
  })
  return new RescanDetector(cards, ballCount)
}

/** Stateful rescan detector over packed cards (same layout as createDetectorFromPacked). */
export function createRescanDetectorFromPacked(
  numbers: Uint8Array,
  cardCount: number,
  rows: number,
  perRow: number,
  ballCount: number,
): WinnerDetector {
  checkPacked(numbers, cardCount, rows, perRow, ballCount)
  for (let i = 0; i < numbers.length; i++) {
    if (numbers[i] < 1 || numbers[i] > ballCount) badNumber(Math.floor(i / (rows * perRow)), numbers[i], ballCount)
  }
  return new PackedRescanDetector(numbers, cardCount, rows, perRow, ballCount)
}
