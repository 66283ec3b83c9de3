import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  LAYOUT_75,
  LAYOUT_90,
  cardRows,
  generateMasterSet,
  generateMasterSetPacked,
  isLineComplete,
  type CardLayout,
} from './card.ts'
import {
  createDetector,
  createDetectorFromPacked,
  createRescanDetector,
  createRescanDetectorFromPacked,
  rescanDetect,
  type BallResult,
  type CardRowsList,
  type WinnerDetector,
} from './detector.ts'
import { DomainError, ErrorCode } from '../shared/errors.ts'
import { createSeededRng } from '../shared/rng.ts'

/** A small 90-ball-like layout over 18 balls: lines and bingos come within a few balls, with many ties. */
const SMALL: CardLayout = {
  ballCount: 18,
  rows: 3,
  columns: 6,
  perRow: 2,
  columnRanges: [
    [1, 3],
    [4, 6],
    [7, 9],
    [10, 12],
    [13, 15],
    [16, 18],
  ],
  minPerColumn: 1,
}

function shuffledBalls(seed: string | number, ballCount: number): number[] {
  const rng = createSeededRng(seed)
  const balls = Array.from({ length: ballCount }, (_, i) => i + 1)
  for (let j = ballCount - 1; j > 0; j--) {
    const r = rng.nextInt(j + 1)
    ;[balls[j], balls[r]] = [balls[r], balls[j]]
  }
  return balls
}

function difference(now: number[], before: Set<number>): number[] {
  return now.filter((c) => !before.has(c))
}

interface Scenario {
  layout: CardLayout
  rows: number[][][]
  balls: number[]
  /** Close the line after this many balls (>= balls.length: never), or at the first ball reporting a line. */
  closeAfter: number | 'first-line'
}

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    layout: fc.constantFrom(LAYOUT_90, LAYOUT_75, SMALL),
    seed: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
    cards: fc.integer({ min: 0, max: 40 }),
    orderSeed: fc.integer(),
    prefix: fc.double({ min: 0, max: 1, noNaN: true }),
    close: fc.oneof(fc.constant<'first-line'>('first-line'), fc.integer({ min: 0, max: 100 })),
  })
  .map(({ layout, seed, cards, orderSeed, prefix, close }) => {
    const count = Math.min(cards, layout === SMALL ? 20 : cards)
    const all = shuffledBalls(orderSeed, layout.ballCount)
    return {
      layout,
      rows: generateMasterSet(seed, count, layout).map(cardRows),
      balls: all.slice(0, Math.ceil(prefix * layout.ballCount)),
      closeAfter: close,
    }
  })

/** Plays a scenario through a detector, closing the line as told; returns the per-ball results. */
function play(detector: WinnerDetector, s: Scenario): BallResult[] {
  const results: BallResult[] = []
  s.balls.forEach((ball, i) => {
    const r = detector.call(ball)
    results.push(r)
    if (s.closeAfter === 'first-line' ? r.lines.length > 0 : i + 1 === s.closeAfter) detector.closeLine()
  })
  return results
}

/** The oracle: rescan every card from scratch after each ball (rescanDetect), diffing with the previous ball. */
function oracle(s: Scenario): { results: BallResult[]; lineAt: number[]; bingoAt: number[] } {
  const called = new Set<number>()
  let hadLine = new Set<number>()
  let hadBingo = new Set<number>()
  let lineOpen = true
  const lineAt = new Array<number>(s.rows.length).fill(0)
  const bingoAt = new Array<number>(s.rows.length).fill(0)
  const results: BallResult[] = []
  s.balls.forEach((ball, i) => {
    called.add(ball)
    const now = rescanDetect(s.rows, called)
    const lines = lineOpen ? difference(now.lineCards, hadLine) : []
    const bingos = difference(now.bingoCards, hadBingo)
    for (const c of lines) lineAt[c] = i + 1
    for (const c of bingos) bingoAt[c] = i + 1
    results.push({ lines, bingos })
    if (lineOpen) hadLine = new Set(now.lineCards)
    hadBingo = new Set(now.bingoCards)
    if (s.closeAfter === 'first-line' ? lines.length > 0 : i + 1 === s.closeAfter) lineOpen = false
  })
  return { results, lineAt, bingoAt }
}

function packRows(rows: CardRowsList): Uint8Array {
  return Uint8Array.from(rows.flat(2))
}

describe('winner detection (BNG-44: line = a complete row, bingo = every number)', () => {
  it('the incremental detectors agree exactly with rescanning every card after each ball', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const expected = oracle(s)
        const { rows: r, perRow, ballCount } = s.layout
        const detectors: WinnerDetector[] = [
          createDetector(s.rows, ballCount),
          createDetectorFromPacked(packRows(s.rows), s.rows.length, r, perRow, ballCount),
          createRescanDetector(s.rows, ballCount),
          createRescanDetectorFromPacked(packRows(s.rows), s.rows.length, r, perRow, ballCount),
        ]
        for (const detector of detectors) {
          expect(play(detector, s)).toEqual(expected.results)
          expect(detector.called()).toEqual(s.balls)
          s.rows.forEach((_, c) => {
            expect(detector.firstLineAt(c)).toBe(expected.lineAt[c])
            expect(detector.firstBingoAt(c)).toBe(expected.bingoAt[c])
          })
        }
      }),
      { numRuns: 150 },
    )
  })

  it('reports the line at the first ball where any card has a complete row (BNG-2, BNG-44)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 50 }), (seed, count) => {
        const cards = generateMasterSet(seed, count, LAYOUT_90)
        const balls = shuffledBalls(seed, 90)
        // Independent reference: the first prefix length at which some row of some card is complete.
        const called = new Set<number>()
        let firstLineBall = 0
        for (let i = 0; i < balls.length && firstLineBall === 0; i++) {
          called.add(balls[i])
          if (cards.some((card) => [0, 1, 2].some((r) => isLineComplete(card, called, r)))) firstLineBall = i + 1
        }
        const detector = createDetector(cards.map(cardRows), 90)
        let reportedAt = 0
        balls.forEach((ball, i) => {
          const { lines } = detector.call(ball)
          if (lines.length > 0 && reportedAt === 0) {
            reportedAt = i + 1
            detector.closeLine()
          }
        })
        expect(reportedAt).toBe(firstLineBall)
      }),
      { numRuns: 100 },
    )
  })

  it('stops reporting lines once the line is closed, and keeps reporting bingos', () => {
    const cards = generateMasterSet('close', 200).map(cardRows)
    const detector = createDetector(cards, 90)
    let lines = 0
    let bingos = 0
    let closedAt = 0
    for (const ball of shuffledBalls('close', 90)) {
      const r = detector.call(ball)
      if (detector.isLineClosed()) expect(r.lines).toEqual([])
      if (r.lines.length > 0 && !detector.isLineClosed()) {
        lines += r.lines.length
        detector.closeLine()
        closedAt = detector.called().length
      }
      bingos += r.bingos.length
    }
    expect(lines).toBeGreaterThan(0)
    expect(closedAt).toBeGreaterThan(0)
    // With all 90 balls every card ends as a bingo exactly once.
    expect(bingos).toBe(200)
    // Lines are tracked only until the close: later first lines stay 0.
    expect(cards.every((_, c) => detector.firstLineAt(c) <= closedAt)).toBe(true)
  })

  it('reports every card once as a bingo over a full game, with ties at the same ball', () => {
    const rows = generateMasterSet('ties', 20, SMALL).map(cardRows)
    const detector = createDetector(rows, SMALL.ballCount)
    const seen: number[] = []
    let maxTie = 0
    for (const ball of shuffledBalls('ties', SMALL.ballCount)) {
      const { bingos } = detector.call(ball)
      seen.push(...bingos)
      maxTie = Math.max(maxTie, bingos.length)
    }
    expect(seen.slice().sort((a, b) => a - b)).toEqual(rows.map((_, i) => i))
    expect(maxTie).toBeGreaterThan(1)
  })

  it('never counts a row without numbers as a line, nor a card without numbers as a bingo', () => {
    const cards = [
      [[], [1, 2]],
      [[], []],
      [[3], []],
    ]
    for (const detector of [createDetector(cards, 5), createRescanDetector(cards, 5)]) {
      expect(detector.call(5)).toEqual({ lines: [], bingos: [] })
      expect(detector.call(3)).toEqual({ lines: [2], bingos: [2] })
      expect(detector.call(1)).toEqual({ lines: [], bingos: [] })
      expect(detector.call(2)).toEqual({ lines: [0], bingos: [0] })
      expect(detector.call(4)).toEqual({ lines: [], bingos: [] })
      expect(detector.firstLineAt(1)).toBe(0)
      expect(detector.firstBingoAt(1)).toBe(0)
      expect(detector.firstBingoAt(0)).toBe(4)
    }
    expect(rescanDetect(cards, new Set([0, 1, 2, 3, 4, 5]))).toEqual({ lineCards: [0, 2], bingoCards: [0, 2] })
  })

  it('rejects bad balls and bad cards with domain codes', () => {
    const rows = generateMasterSet('errors', 3).map(cardRows)
    const packed = generateMasterSetPacked('errors', 3)
    for (const detector of [
      createDetector(rows, 90),
      createDetectorFromPacked(packed, 3, 3, 5, 90),
      createRescanDetector(rows, 90),
      createRescanDetectorFromPacked(packed, 3, 3, 5, 90),
    ]) {
      detector.call(7)
      expect(() => detector.call(7)).toThrow(expect.objectContaining({ code: ErrorCode.BallAlreadyDrawn }))
      expect(() => detector.call(0)).toThrow(expect.objectContaining({ code: ErrorCode.BallOutOfRange }))
      expect(() => detector.call(91)).toThrow(expect.objectContaining({ code: ErrorCode.BallOutOfRange }))
      expect(() => detector.call(2.5)).toThrow(expect.objectContaining({ code: ErrorCode.BallOutOfRange }))
      expect(() => detector.firstLineAt(3)).toThrow(DomainError)
      expect(detector.called()).toEqual([7])
    }
    expect(() => createDetector([[[1, 91]]], 90)).toThrow(expect.objectContaining({ code: ErrorCode.ValidationFailed }))
    expect(() => createDetector([[[1, 2], [2]]], 90)).toThrow(/more than once/)
    expect(() => createRescanDetector([[[1, 2], [2]]], 90)).toThrow(/more than once/)
    expect(() => createDetectorFromPacked(new Uint8Array([1, 2, 3]), 1, 2, 2, 90)).toThrow(DomainError)
    expect(() => createDetectorFromPacked(new Uint8Array([1, 0]), 1, 1, 2, 90)).toThrow(/not a ball/)
  })

  it('handles thousands of cards: incremental and rescan agree ball by ball', () => {
    const count = 5000
    const packed = generateMasterSetPacked('scale', count)
    const fast = createDetectorFromPacked(packed, count, 3, 5, 90)
    const slow = createRescanDetectorFromPacked(packed, count, 3, 5, 90)
    for (const ball of shuffledBalls('scale', 90)) {
      const a = fast.call(ball)
      expect(slow.call(ball)).toEqual(a)
      if (a.lines.length > 0) {
        fast.closeLine()
        slow.closeLine()
      }
    }
  })
})
