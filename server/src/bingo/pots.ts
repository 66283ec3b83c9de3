/**
 * Pots beyond the ordinary line and bingo prizes: progressive jackpots (Bolivia, BNG-55, RNG-15 to RNG-22;
 * CFG-28), the interconnected bonus shared by several halls (Cantabria, BNG-66; CFG-30) and the lucky ball
 * (bola loca, BNG-67, RNG-28; CFG-31). Pure: amounts, conditions, awards and the lucky-ball draw.
 *
 * Accounting model (the "allocation algorithm" RNG-21 asks to publish):
 * - Each pot has a main pot and a reserve. A game contributes `contributionBp` of its sales (face value x cards
 *   sold, per participating hall); `reserveBp` of that contribution goes to the reserve, the rest to the main pot.
 *   Once the main pot reaches its maximum (BNG-66), the whole contribution goes to the reserve.
 * - An optional base (seed) amount enters the main pot when the pot is created (RNG-21 "initial value").
 * - An award takes `shareBp` of the main pot for the first step of the condition's ball scale that the winning
 *   ball count meets (a single step "bingo within N balls, 100 %" is the usual progressive pot). Several winners
 *   split it in equal parts per card, leftover cents one each to the lowest serials (the same published rule as
 *   the ordinary prizes). Right after an award the whole reserve moves into the main pot: the next cycle starts
 *   from it (no operator top-up, BNG-68).
 * - The amount shown is the main pot: the sum of the pot's ledger movements.
 */
import { createHash, createHmac } from 'node:crypto'
import { DomainError } from '../shared/errors.ts'
import { shuffleOrder } from '../shared/draw-proof.ts'
import { LUCKY_V2, luckyNumbersV2 } from '../shared/draw-proof-v2.ts'
import { QUICKNET_KEY, drawRoundFor, randomnessOf, verifyBeaconSignature, type BeaconKey } from '../shared/beacon.ts'
import { compareBytes } from './game.ts'
import { shareOf, splitEvenly, type Cents } from '../shared/money.ts'

export const PotKind = { Progressive: 'progressive', Interconnected: 'interconnected', Lucky: 'lucky' } as const
export type PotKind = (typeof PotKind)[keyof typeof PotKind]

export type PrizeKind = 'line' | 'bingo'

/** One step of a ball scale: a winning combination with at most `withinBalls` balls drawn takes `shareBp` of the pot. */
export interface ScaleStep {
  withinBalls: number
  shareBp: number
}

/** Public conditions of a pot (BNG-55: fixed explicitly and shown at all times). */
export type PotCondition =
  /** Progressive or interconnected: `prize` won within the ball scale. */
  | { prize: PrizeKind; scale: ScaleStep[] }
  /** Lucky ball: `prizes` whose completing ball is one of the first `numbers` lucky numbers. */
  | { luckyPrizes: PrizeKind[]; numbers: number }

export interface PotDefinition {
  kind: PotKind
  /** Share of face value x cards sold that goes into the pot (bp of the card price, BNG-55). */
  contributionBp: number
  /** Share of each contribution set aside in the reserve (RNG-21 reserve pots). */
  reserveBp: number
  /** Base (seed) amount put in at creation (RNG-21). */
  seedCents: Cents
  /** Maximum of the main pot; beyond it contributions go to the reserve (BNG-66). null = no maximum. */
  maxCents: Cents | null
  condition: PotCondition
  /**
   * RNG-21: the operator's commission, bp of what the sales put in (contributionBp of sales), approved by the AJ in the
   * Plan de Apuestas; taken before the remainder increments the main pot and the reserve. 0 when none.
   */
  commissionBp?: number
}

export interface PotBalance {
  mainCents: Cents
  reserveCents: Cents
}

/** Every problem with a pot definition (empty = valid). */
export function potDefinitionProblems(d: PotDefinition): string[] {
  const p: string[] = []
  const bp = (x: number) => Number.isInteger(x) && x >= 0 && x <= 10_000
  if (!Object.values(PotKind).includes(d.kind)) p.push(`unknown pot kind ${String(d.kind)}`)
  if (!bp(d.contributionBp) || d.contributionBp === 0) p.push('contributionBp must be 1..10000')
  if (!bp(d.reserveBp)) p.push('reserveBp must be 0..10000')
  if (d.commissionBp !== undefined && (!bp(d.commissionBp) || d.commissionBp === 10_000))
    p.push('commissionBp must be 0..9999 (RNG-21: the remainder increments the pot)')
  if (!Number.isSafeInteger(d.seedCents) || d.seedCents < 0) p.push('seedCents must be a non-negative amount')
  if (d.maxCents !== null && (!Number.isSafeInteger(d.maxCents) || d.maxCents <= 0 || d.maxCents < d.seedCents))
    p.push('maxCents must be positive and at least the seed')
  const c = d.condition as Partial<{ prize: unknown; scale: unknown; luckyPrizes: unknown; numbers: unknown }>
  if (d.kind === PotKind.Lucky) {
    if (
      !Array.isArray(c.luckyPrizes) ||
      c.luckyPrizes.length === 0 ||
      !c.luckyPrizes.every((k) => k === 'line' || k === 'bingo')
    )
      p.push('a lucky-ball pot needs luckyPrizes: line and/or bingo')
    if (!Number.isInteger(c.numbers) || (c.numbers as number) < 1 || (c.numbers as number) > 10)
      p.push('a lucky-ball pot draws 1..10 numbers')
  } else {
    if (c.prize !== 'line' && c.prize !== 'bingo') p.push('condition.prize must be line or bingo')
    const scale = c.scale as ScaleStep[] | undefined
    if (!Array.isArray(scale) || scale.length === 0 || scale.length > 20) p.push('condition.scale needs 1..20 steps')
    else {
      scale.forEach((s, i) => {
        if (!Number.isInteger(s?.withinBalls) || s.withinBalls < 1 || s.withinBalls > 255)
          p.push(`step ${i + 1}: withinBalls must be 1..255`)
        if (!bp(s?.shareBp) || s.shareBp === 0) p.push(`step ${i + 1}: shareBp must be 1..10000`)
        if (i > 0 && !(s.withinBalls > scale[i - 1].withinBalls)) p.push('scale steps must have increasing withinBalls')
        if (i > 0 && !(s.shareBp < scale[i - 1].shareBp)) p.push('later scale steps must pay a smaller share')
      })
    }
  }
  return p
}

export function validatePotDefinition(d: PotDefinition): PotDefinition {
  const p = potDefinitionProblems(d)
  if (p.length) throw new DomainError('VALIDATION_FAILED', `invalid pot: ${p.join('; ')}`, { problems: p })
  return d
}

/** The public text of a pot's conditions (BNG-55, RNG-17), in Spanish as shown in the hall. */
export function potConditionText(d: PotDefinition, currencyUnit = ''): string {
  const pct = (bp: number) => `${(bp / 100).toLocaleString('es-ES', { maximumFractionDigits: 2 })} %`
  const c = d.condition
  const funding = `Se financia con el ${pct(d.contributionBp)} del valor facial de los cartones vendidos${d.commissionBp ? `, menos una comisión del operador del ${pct(d.commissionBp)} de ese aporte` : ''}${d.reserveBp ? ` (${pct(d.reserveBp)} de ello a la reserva)` : ''}${d.maxCents !== null ? `, hasta un máximo de ${(d.maxCents / 100).toFixed(2)} ${currencyUnit}`.trimEnd() : ''}.`
  if ('luckyPrizes' in c) {
    const what = c.luckyPrizes.map((k) => (k === 'line' ? 'línea' : 'bingo')).join(' o ')
    return `Bola loca: se gana cuando la última bola que completa la ${what} premiada es ${c.numbers === 1 ? 'la bola loca sorteada' : `una de las ${c.numbers} bolas locas sorteadas`} antes de la partida. ${funding}`
  }
  const what = c.prize === 'line' ? 'línea' : 'bingo'
  const steps = c.scale.map((s) => `${what} en ${s.withinBalls} bolas o menos: ${pct(s.shareBp)} del pozo`).join('; ')
  return `${steps}. ${funding}`
}

/** RNG-21: the operator's commission on what one game's sales put into a pot (rounded down, in the pot's favour). */
export function potCommission(salesCents: Cents, d: Pick<PotDefinition, 'contributionBp' | 'commissionBp'>): Cents {
  return shareOf(shareOf(salesCents, d.contributionBp), d.commissionBp ?? 0)
}

/** What one game's sales add to a pot (BNG-55, BNG-66, RNG-21). */
export function potContribution(
  salesCents: Cents,
  balance: PotBalance,
  d: Pick<PotDefinition, 'contributionBp' | 'reserveBp' | 'maxCents' | 'commissionBp'>,
): PotBalance {
  // RNG-21: the commission is taken from what the sales put in; only the remainder increments the pots.
  const gross = shareOf(salesCents, d.contributionBp)
  const total = gross - potCommission(salesCents, d)
  let reserve = shareOf(total, d.reserveBp)
  let main = total - reserve
  if (d.maxCents !== null) {
    const room = Math.max(0, d.maxCents - balance.mainCents)
    if (main > room) {
      reserve += main - room
      main = room
    }
  }
  return { mainCents: main, reserveCents: reserve }
}

/**
 * The award of a progressive or interconnected pot for a prize won with `atBall` balls drawn: the first step of
 * the ball scale whose limit is met. null when no step is met or the pot is empty.
 */
export function scaleAward(
  condition: { prize: PrizeKind; scale: readonly ScaleStep[] },
  atBall: number,
  mainCents: Cents,
): { step: ScaleStep; amountCents: Cents } | null {
  const step = condition.scale.find((s) => atBall <= s.withinBalls)
  if (!step || mainCents <= 0) return null
  const amountCents = shareOf(mainCents, step.shareBp)
  return amountCents > 0 ? { step, amountCents } : null
}

/** Splits an award among winners: equal parts by serial byte order, leftover cents to the lowest serials. */
export function splitAward<T extends { serial: string }>(
  amountCents: Cents,
  winners: readonly T[],
): Array<T & { amountCents: Cents }> {
  if (winners.length === 0) return []
  const sorted = [...winners].sort((a, b) => compareBytes(a.serial, b.serial))
  const parts = splitEvenly(amountCents, sorted.length)
  return sorted.map((w, i) => ({ ...w, amountCents: parts[i] }))
}

/**
 * The ball that completed a winning combination (BNG-64 "balls drawn when the winning card was completed";
 * BNG-67 "the last number that completes the winning line or bingo") and its 1-based extraction count. For a
 * line, the earliest completed row counts. null when the combination is not complete with `balls`.
 */
export function completingBall(
  rows: ReadonlyArray<ReadonlyArray<number>>,
  balls: readonly number[],
  kind: PrizeKind,
): { ball: number; atBall: number } | null {
  const at = new Map<number, number>()
  balls.forEach((b, i) => at.set(b, i + 1))
  const completedAt = (numbers: readonly number[]) => {
    let last = 0
    for (const n of numbers) {
      const i = at.get(n)
      if (i === undefined) return Infinity
      if (i > last) last = i
    }
    return numbers.length ? last : Infinity
  }
  const when = kind === 'bingo' ? completedAt(rows.flat()) : Math.min(...rows.map((r) => completedAt(r)))
  return Number.isFinite(when) ? { ball: balls[when - 1], atBall: when } : null
}

// ---------------------------------------------------------------------------------------------------------------
// Lucky ball draw (RNG-28): a source independent of the game's extraction order.

/** Version tag of the lucky-ball derivation; part of the HMAC message and of the published proof. */
export const LUCKY_BALL_VERSION = 'bolillo-lucky-v1'

/**
 * The lucky numbers of a game. The server takes a 32-byte seed `L` of its own from the OS CSPRNG when the game is
 * announced (never the draw seed `S`) and publishes `hex(SHA-256(L))`. At close of sales, before the first ball:
 * `KL = HMAC-SHA256(key = L, msg = UTF-8("bolillo-lucky-v1|" + gameId + "|" + D + "|" + X))` with the same sales
 * digest `D` and external entropy `X` as the draw, and the lucky numbers are the first `count` values of the
 * `bolillo-draw-v1` shuffle of 1..ballCount under `KL`. `L` is published when the game ends.
 */
export function luckyNumbers(
  seed: Uint8Array,
  gameId: string,
  salesDigest: string,
  externalEntropy: string,
  ballCount: number,
  count: number,
): number[] {
  if (!(seed instanceof Uint8Array) || seed.length !== 32)
    throw new DomainError('VALIDATION_FAILED', 'the lucky-ball seed must be 32 bytes')
  if (!Number.isInteger(count) || count < 1 || count > ballCount)
    throw new DomainError('VALIDATION_FAILED', `cannot draw ${count} lucky numbers out of ${ballCount}`)
  const key = createHmac('sha256', seed)
    .update(`${LUCKY_BALL_VERSION}|${gameId}|${salesDigest}|${externalEntropy}`, 'utf8')
    .digest()
  return shuffleOrder(key, ballCount).slice(0, count)
}

export function luckyCommitment(seed: Uint8Array): string {
  return createHash('sha256').update(seed).digest('hex')
}

/** bolillo-lucky-v2 (DESIGN.md draw v2 point 4): the v2 key with the prefix "bolillo-lucky-v2|" and the game's beacon round. */
export const LUCKY_BALL_V2: typeof LUCKY_V2 = LUCKY_V2

export interface LuckyProof {
  version: string
  gameId: string
  commitment: string
  seed: string
  salesDigest: string
  externalEntropy: string
  ballCount: number
  count: number
  numbers: number[]
}

/** A v2 lucky-ball proof: the game's close of sales and the beacon round that follows from it. */
export interface LuckyProofV2 {
  version: typeof LUCKY_BALL_V2
  gameId: string
  commitment: string
  seed: string
  salesDigest: string
  closedAt: string
  beacon: {
    scheme: 'drand-quicknet' | 'demo'
    chainHash: string
    round: number
    signature: string
    randomness: string
    publicKey?: string
  }
  ballCount: number
  count: number
  numbers: number[]
}

/** Checks a v2 lucky-ball proof offline: commitment, round from `closedAt`, the beacon's BLS signature and randomness, numbers. */
function verifyLuckyProofV2(p: LuckyProofV2): { ok: boolean; errors: string[] } {
  const errors: string[] = []
  try {
    const seed = Buffer.from(p.seed, 'hex')
    if (luckyCommitment(seed) !== p.commitment) errors.push('the seed does not match the commitment')
    const b = p.beacon
    const closed = Math.floor(Date.parse(p.closedAt) / 1000)
    if (!Number.isFinite(closed) || drawRoundFor(closed) !== b.round)
      errors.push(
        `the beacon round should be ${Number.isFinite(closed) ? drawRoundFor(closed) : '?'} for a close at ${p.closedAt}, not ${b.round}`,
      )
    const key: BeaconKey =
      b.scheme === 'demo' ? { scheme: 'demo', chainHash: b.chainHash, publicKey: b.publicKey ?? '' } : QUICKNET_KEY
    if (b.scheme !== 'demo' && b.chainHash !== QUICKNET_KEY.chainHash) errors.push('the beacon is not drand quicknet')
    const check = verifyBeaconSignature(key, b.round, b.signature)
    if (!check.ok) errors.push(`beacon signature: ${check.reason}`)
    if (randomnessOf(b.signature) !== b.randomness) errors.push('the beacon randomness is not SHA-256 of its signature')
    const numbers = luckyNumbersV2(
      seed,
      p.gameId,
      p.salesDigest,
      { round: b.round, signature: b.signature, randomness: b.randomness },
      p.ballCount,
      p.count,
    )
    if (JSON.stringify(numbers) !== JSON.stringify(p.numbers))
      errors.push(`the numbers should be ${numbers.join(', ')}`)
  } catch (err) {
    errors.push(err instanceof Error ? err.message : String(err))
  }
  return { ok: errors.length === 0, errors }
}

/** Checks a published lucky-ball proof (v1 or v2): the seed matches the commitment and yields the numbers. */
export function verifyLuckyProof(p: LuckyProof | LuckyProofV2): { ok: boolean; errors: string[] } {
  if (p.version === LUCKY_BALL_V2) return verifyLuckyProofV2(p as LuckyProofV2)
  return verifyLuckyProofV1(p as LuckyProof)
}

function verifyLuckyProofV1(p: LuckyProof): { ok: boolean; errors: string[] } {
  const errors: string[] = []
  try {
    const seed = Buffer.from(p.seed, 'hex')
    if (p.version !== LUCKY_BALL_VERSION) errors.push(`unknown version ${p.version}`)
    if (luckyCommitment(seed) !== p.commitment) errors.push('the seed does not match the commitment')
    const numbers = luckyNumbers(seed, p.gameId, p.salesDigest, p.externalEntropy, p.ballCount, p.count)
    if (JSON.stringify(numbers) !== JSON.stringify(p.numbers))
      errors.push(`the numbers should be ${numbers.join(', ')}`)
  } catch (err) {
    errors.push(err instanceof Error ? err.message : String(err))
  }
  return { ok: errors.length === 0, errors }
}
