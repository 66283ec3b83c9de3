/**
 * Lotto (lotería de números seleccionados, LNS-1 to LNS-25): boards, quick picks, the packed representation of
 * plays and the settlement of a draw.
 *
 * ## Packed plays
 *
 * A board of numbers from 1..n is a bit mask of `words = ceil(n / 32)` 32-bit words: number `x` is bit
 * `(x - 1) % 32` of word `floor((x - 1) / 32)`. A draw's plays are one `Uint32Array` of `count * words` words, in
 * the canonical order (receipt number ascending by bytes, then board index within the slip). The matches of a play
 * are the popcount of its mask AND the mask of the numbers drawn (LNS-3: order of extraction is not considered).
 * For 6 of 49 that is two ANDs and two popcounts per play: ten million plays settle in well under a second.
 *
 * ## Settlement and the remainder rule
 *
 * - Prize pool = floor(gross sales x prizePoolBp / 10 000) (`shareOf`; the fraction of a centavo stays with the
 *   operator).
 * - Each pari-mutuel category gets floor(pool x bp / 10 000), plus what the same category carried over from the
 *   game's previous draw. When the shares add up to 100 %, the centavos that the flooring leaves over (fewer than
 *   the number of share categories) go to the first share category of the plan (normally the top prize); when they
 *   add up to less, everything not allocated is the operator's reserve and is reported as such.
 * - A category's money is split equally among its winning plays with `splitEvenly`: every winner gets
 *   floor(money / winners) and the `money mod winners` leftover centavos go one each to the first winners in the
 *   canonical order (lowest receipt number, then lowest board). Nothing is created or lost.
 * - A pari-mutuel category without winners rolls its money over to the same category of the next draw, or leaves
 *   it with the operator, as the plan says (`unwonShares`).
 * - Fixed categories pay their amount to every winning play (from the draw budget); goods categories give one unit
 *   per winning play (LNS-23).
 *
 * Pure: no clock, no I/O; randomness for quick picks arrives as an `Rng`.
 */
import { DomainError } from '../shared/errors.ts'
import { carryTargetOf, type LottoCategory, type LottoPlan } from './plan.ts'
import { shareOf, splitEvenly } from '../shared/money.ts'
import type { Rng } from '../shared/rng.ts'

/** 32-bit words per play for balls 1..range. */
export function wordsFor(range: number): number {
  return Math.ceil(range / 32)
}

/**
 * Checks a board chosen by the player (LNS-21: more numbers than authorised, or numbers outside the range, are
 * refused) and returns its numbers ascending.
 *
 * @throws DomainError VALIDATION_FAILED naming what is wrong.
 */
export function parseBoard(numbers: readonly number[], range: number, picks: number): number[] {
  if (!Array.isArray(numbers)) throw new DomainError('VALIDATION_FAILED', 'a board is a list of numbers')
  if (numbers.length !== picks) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `a board has exactly ${picks} numbers, this one has ${numbers.length} (LNS-21)`,
      { rule: 'LNS-21' },
    )
  }
  const seen = new Set<number>()
  for (const x of numbers) {
    if (!Number.isInteger(x) || x < 1 || x > range)
      throw new DomainError('VALIDATION_FAILED', `number ${String(x)} is outside 1..${range} (LNS-15)`, {
        rule: 'LNS-15',
      })
    if (seen.has(x)) throw new DomainError('VALIDATION_FAILED', `number ${x} is chosen twice on one board`)
    seen.add(x)
  }
  return [...numbers].sort((a, b) => a - b)
}

/** A quick pick: `picks` distinct numbers of 1..range chosen uniformly (partial Fisher-Yates), ascending. */
export function quickPick(rng: Rng, range: number, picks: number): number[] {
  if (!Number.isInteger(picks) || picks < 1 || picks >= range)
    throw new DomainError('VALIDATION_FAILED', `cannot pick ${picks} of ${range}`)
  const a = Array.from({ length: range }, (_, i) => i + 1)
  for (let i = 0; i < picks; i++) {
    const j = i + rng.nextInt(range - i)
    const t = a[i]
    a[i] = a[j]
    a[j] = t
  }
  return a.slice(0, picks).sort((x, y) => x - y)
}

/** Boards as stored and published: numbers joined by "-", boards by " " (e.g. "3-11-19-27-38-45 1-2-3-4-5-6"). */
export function formatBoards(boards: readonly (readonly number[])[]): string {
  return boards.map((b) => b.join('-')).join(' ')
}

/** Inverse of {@link formatBoards}. */
export function parseStoredBoards(text: string): number[][] {
  return text.split(' ').map((b) => b.split('-').map(Number))
}

/** Receipt number of a slip: the game code and a 9-digit counter, e.g. "LOTO649-000000123" (byte order = sale order). */
export function receiptNumber(gameCode: string, seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > 999_999_999)
    throw new DomainError('VALIDATION_FAILED', `receipt counter ${seq} out of range`)
  return `${gameCode}-${String(seq).padStart(9, '0')}`
}

/** Bit mask of a set of numbers, `words` words long. */
export function maskOf(numbers: readonly number[], words: number): Uint32Array {
  const m = new Uint32Array(words)
  for (const x of numbers) m[(x - 1) >>> 5] |= 1 << ((x - 1) & 31)
  return m
}

/** A growable packed list of plays (see the module comment). */
export class PackedPlays {
  readonly words: number
  masks: Uint32Array
  count = 0

  constructor(range: number, capacity = 1024) {
    this.words = wordsFor(range)
    this.masks = new Uint32Array(Math.max(1, capacity) * this.words)
  }

  /** Appends one board; returns its play index. */
  push(numbers: readonly number[]): number {
    if ((this.count + 1) * this.words > this.masks.length) {
      const bigger = new Uint32Array(this.masks.length * 2)
      bigger.set(this.masks)
      this.masks = bigger
    }
    const base = this.count * this.words
    for (const x of numbers) this.masks[base + ((x - 1) >>> 5)] |= 1 << ((x - 1) & 31)
    return this.count++
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}

/**
 * Matches of every play against the numbers drawn: `out[i]` = how many of play `i`'s numbers were drawn.
 * Runs the two-word loop for ranges up to 64 and a general one above.
 */
export function countMatches(
  masks: Uint32Array,
  words: number,
  count: number,
  drawn: readonly number[],
  out = new Uint8Array(count),
): Uint8Array {
  const d = maskOf(drawn, words)
  if (words === 1) {
    const d0 = d[0]
    for (let i = 0; i < count; i++) out[i] = popcount(masks[i] & d0)
  } else if (words === 2) {
    const d0 = d[0]
    const d1 = d[1]
    for (let i = 0, j = 0; i < count; i++, j += 2) out[i] = popcount(masks[j] & d0) + popcount(masks[j + 1] & d1)
  } else {
    for (let i = 0, j = 0; i < count; i++, j += words) {
      let s = 0
      for (let w = 0; w < words; w++) s += popcount(masks[j + w] & d[w])
      out[i] = s
    }
  }
  return out
}

/** What one category paid in a draw. */
export interface CategoryResult {
  code: string
  name: string
  matches: number
  type: LottoCategory['prize']['type']
  winners: number
  /** Pari-mutuel: the category's money (share of the pool + carry-in + any flooring residue). */
  poolCents: number
  /** Part of `poolCents` that came from the previous draw. */
  carryInCents: number
  /** Part of `poolCents` that is the flooring residue of the pool split (see the module comment). */
  residueCents: number
  /** What each winner gets (pari-mutuel: the floor; the first `extraCentWinners` winners get one centavo more). */
  amountEachCents: number
  extraCentWinners: number
  /** Cash paid to the category's winners in total. */
  totalCents: number
  /** Pari-mutuel money without winners, carried to the next draw. */
  carryOutCents: number
  /** Pari-mutuel money without winners, kept by the operator (`unwonShares: operator`). */
  retainedCents: number
  /** Goods: description and value of one unit. */
  goods: { description: string; unitValueCents: number } | null
}

/** Result of settling one draw. */
export interface LottoSettlement {
  salesCents: number
  poolCents: number
  /** Pool money no share category takes (shares under 100 %): the operator's reserve. */
  reserveCents: number
  categories: CategoryResult[]
  /** Winning plays, ascending by play index: the play, its category (index into `categories`) and its cash amount. */
  winners: { play: Uint32Array; category: Uint8Array; amountCents: Float64Array }
  /** Plays with each number of matches (index = matches). */
  histogram: number[]
}

export interface SettlementInput {
  plan: Pick<LottoPlan, 'categories' | 'prizePoolBp' | 'unwonShares' | 'picks'>
  salesCents: number
  /** Per category code: pari-mutuel money carried over from the previous draw of the game. */
  carryInCents?: Readonly<Record<string, number>>
  /** Matches of each play, in canonical order (see {@link countMatches}). */
  matches: Uint8Array
}

/** Rolled-over money placed on a plan's categories (LNS-4): what each receives, from which old code, and what could not be placed. */
export interface CarryPlacement {
  carryIn: Record<string, number>
  moves: Array<{ from: string; to: string; cents: number }>
  unplaced: Array<{ code: string; cents: number }>
}

/**
 * LNS-4: places the money the previous draw rolled over (per old category code) on this plan's pari-mutuel
 * categories: same code, or the plan's explicit `carryMap`. Money it cannot place is returned in `unplaced`,
 * never dropped: the caller refuses to settle (ROLLOVER_UNMAPPED).
 */
export function placeCarry(
  carryOut: Readonly<Record<string, number>>,
  plan: Pick<LottoPlan, 'categories' | 'carryMap'>,
): CarryPlacement {
  const out: CarryPlacement = { carryIn: {}, moves: [], unplaced: [] }
  for (const [code, cents] of Object.entries(carryOut)) {
    if (!(cents > 0)) continue
    const to = carryTargetOf(plan, code)
    if (to === null) {
      out.unplaced.push({ code, cents })
      continue
    }
    out.carryIn[to] = (out.carryIn[to] ?? 0) + cents
    out.moves.push({ from: code, to, cents })
  }
  return out
}

/**
 * Settles a draw from the matches of its plays: winners and amounts per category, exact to the centavo (see the
 * module comment for the remainder rule).
 */
export function settleLotto(input: SettlementInput): LottoSettlement {
  const { plan, matches } = input
  const cats = plan.categories
  const byMatches = new Int16Array(256).fill(-1)
  cats.forEach((c, i) => {
    byMatches[c.matches] = i
  })
  const histogram = new Array<number>(plan.picks + 1).fill(0)
  const winnersOf = new Array<number>(cats.length).fill(0)
  for (let i = 0; i < matches.length; i++) histogram[matches[i]]++
  for (let m = 0; m < histogram.length; m++) if (byMatches[m] >= 0) winnersOf[byMatches[m]] += histogram[m]

  const poolCents = shareOf(input.salesCents, plan.prizePoolBp)
  const shareIdx = cats.map((c, i) => (c.prize.type === 'share' ? i : -1)).filter((i) => i >= 0)
  const shareBp = shareIdx.reduce((s, i) => s + (cats[i].prize as { bp: number }).bp, 0)
  const base = cats.map((c) => (c.prize.type === 'share' ? shareOf(poolCents, c.prize.bp) : 0))
  const allocated = base.reduce((s, x) => s + x, 0)
  const leftover = poolCents - allocated
  const residue = shareIdx.length > 0 && shareBp === 10_000 ? leftover : 0
  const reserveCents = leftover - residue

  const results: CategoryResult[] = cats.map((c, i) => {
    const carryIn = c.prize.type === 'share' ? Math.max(0, input.carryInCents?.[c.code] ?? 0) : 0
    const res = shareIdx.length > 0 && i === shareIdx[0] ? residue : 0
    const w = winnersOf[i]
    const r: CategoryResult = {
      code: c.code,
      name: c.name,
      matches: c.matches,
      type: c.prize.type,
      winners: w,
      poolCents: 0,
      carryInCents: carryIn,
      residueCents: res,
      amountEachCents: 0,
      extraCentWinners: 0,
      totalCents: 0,
      carryOutCents: 0,
      retainedCents: 0,
      goods: null,
    }
    switch (c.prize.type) {
      case 'share': {
        r.poolCents = base[i] + carryIn + res
        if (w === 0) {
          if (plan.unwonShares === 'rollover') r.carryOutCents = r.poolCents
          else r.retainedCents = r.poolCents
        } else {
          r.amountEachCents = Math.floor(r.poolCents / w)
          r.extraCentWinners = r.poolCents - r.amountEachCents * w
          r.totalCents = r.poolCents
        }
        break
      }
      case 'fixed':
        r.amountEachCents = c.prize.amountCents
        r.totalCents = c.prize.amountCents * w
        break
      case 'goods':
        r.goods = { description: c.prize.description, unitValueCents: c.prize.unitValueCents }
        break
    }
    return r
  })

  const total = winnersOf.reduce((s, x) => s + x, 0)
  const play = new Uint32Array(total)
  const category = new Uint8Array(total)
  const amountCents = new Float64Array(total)
  // One splitEvenly per pari-mutuel category, consumed in play order: the first winners get the extra centavos.
  const parts = results.map((r) => (r.type === 'share' && r.winners > 0 ? splitEvenly(r.poolCents, r.winners) : null))
  const next = new Array<number>(cats.length).fill(0)
  let k = 0
  for (let i = 0; i < matches.length; i++) {
    const ci = byMatches[matches[i]]
    if (ci < 0) continue
    play[k] = i
    category[k] = ci
    const p = parts[ci]
    amountCents[k] = p ? p[next[ci]++] : results[ci].type === 'fixed' ? results[ci].amountEachCents : 0
    k++
  }
  return {
    salesCents: input.salesCents,
    poolCents,
    reserveCents,
    categories: results,
    winners: { play, category, amountCents },
    histogram,
  }
}

/**
 * Checks a ball entered from an authorised blower or tómbola (LNS-16: one by one, without repetition, within the
 * range). Returns the new extraction order; the order is kept for the minutes but is irrelevant to prizes (LNS-3).
 */
export function recordManualBall(drawn: readonly number[], ball: number, range: number, drawCount: number): number[] {
  if (drawn.length >= drawCount) throw new DomainError('NO_BALLS_LEFT', `all ${drawCount} numbers have been drawn`)
  if (!Number.isInteger(ball) || ball < 1 || ball > range)
    throw new DomainError('BALL_OUT_OF_RANGE', `ball ${ball} is outside 1..${range}`)
  if (drawn.includes(ball)) throw new DomainError('BALL_ALREADY_DRAWN', `ball ${ball} was already drawn`)
  return [...drawn, ball]
}
