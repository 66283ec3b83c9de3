/**
 * Instant lottery (raspadita) game design: the per-issue parameters of CFG-42 (issue number, ticket count, pack
 * size, prize table with exact counts, symbol set, play style, claim period, back-side texts) and the check that
 * refuses a design which cannot be met, with the reason in words.
 *
 * A design is plain JSON (README "Instant lottery", `docs` example in test fixtures):
 *
 * ```json
 * {
 *   "gameNo": 101, "name": "Raspa y Gana", "currency": "BOB", "priceCents": 1000,
 *   "ticketCount": 1000000, "packSize": 100, "channel": "printed",
 *   "playStyle": { "type": "match-three", "decoyAmountsCents": [300, 700] },
 *   "tiers": [ { "amountCents": 1000000, "count": 2 }, { "amountCents": 1000, "count": 100000 } ],
 *   "payoutShareBp": { "min": 5000, "max": 6500 },
 *   "packRules": { "lowTiers": { "maxAmountCents": 2000, "minPerPack": 8 },
 *                  "topTiers": { "minAmountCents": 100000, "maxPerPack": 1, "notFirstOrLast": true } },
 *   "claimDays": 90, "salesEndAt": "2025-12-31T23:59:59-04:00",
 *   "back": { "issuer": "Lotería Nacional", "paymentPlace": "Cajas autorizadas", "securityWarnings": "..." }
 * }
 * ```
 *
 * Tiers are numbered 1..n in the order given (tier 0 = no prize). Money is integer minor units; shares are basis
 * points of `priceCents x ticketCount`. Pure: no I/O.
 */
import { DomainError } from '../shared/errors.ts'

/** How a ticket shows its result under the scratch layer (INS-6, INS-13). */
export type PlayStyle =
  | {
      /** 9 cells; a ticket wins the amount that shows three times. A losing ticket never shows an amount three times. */
      type: 'match-three'
      /** Amounts shown as decoys besides the prize amounts (at least 5 distinct amounts in all). */
      decoyAmountsCents?: number[]
    }
  | {
      /**
       * "Your number beats theirs": `rows` rows, each with your number, their number (1..maxNumber, never equal)
       * and a prize amount; a row pays its amount when your number is higher. A winning ticket has exactly one such
       * row; a losing ticket has none.
       */
      type: 'beat-their-number'
      rows?: number
      maxNumber?: number
      decoyAmountsCents?: number[]
    }

export interface PrizeTier {
  amountCents: number
  count: number
  /** Optional label on the back ("Premio mayor"). */
  label?: string
}

export interface PackRules {
  /** Every pack holds at least `minPerPack` prizes of the tiers whose amount is at most `maxAmountCents`. */
  lowTiers?: { maxAmountCents: number; minPerPack: number }
  /**
   * Tiers whose amount is at least `minAmountCents`: at most `maxPerPack` in a pack and, with `notFirstOrLast`,
   * never the first or the last ticket of a pack (those show on the outside of a book).
   */
  topTiers?: { minAmountCents: number; maxPerPack?: number; notFirstOrLast?: boolean }
}

/** INS-4 / §7.12: the back of every ticket. Prize structure, expiry and how to play are derived from the design. */
export interface BackTexts {
  issuer: string
  paymentPlace: string
  securityWarnings?: string
  instructions?: string
  other?: string
}

export interface InstantDesign {
  /** Issue number ("N° de emisión"), 1..9999: the first field of every serial and validation code. */
  gameNo: number
  name: string
  currency: string
  priceCents: number
  ticketCount: number
  /** Tickets per pack (book), 3..1000; ticketCount must be a whole number of packs. */
  packSize: number
  /** `printed`: pre-printed stock in packs; `electronic`: an on-screen pool sold in order (INS-15, profile switch). */
  channel?: 'printed' | 'electronic'
  playStyle: PlayStyle
  tiers: PrizeTier[]
  /** Accepted range of the prize fund over the sales of the whole issue, basis points. */
  payoutShareBp: { min: number; max: number }
  packRules?: PackRules
  /** INS-10: days after the game is closed during which prizes are paid. */
  claimDays: number
  /**
   * INS-10: the last moment of sale, fixed in the design (ISO date and time with its offset). The game closes then
   * if nobody closed it earlier, so the claim period always ends: at most claimDays after this moment, a date the
   * back of the ticket can print.
   */
  salesEndAt: string
  back: BackTexts
  /**
   * LOT-3 / GEN-5 (GEN-3 in Cantabria): the reference of the regulator's authorisation of this game, printed on the back
   * of its tickets; required where the profile says so (instantDesignAuthorisationRequired, games.ts).
   */
  authorisationRef?: string | null
}

/** A design that passed {@link checkDesign}, with the figures derived from it. */
export interface CheckedDesign {
  design: InstantDesign
  packCount: number
  /** Prize fund, minor units. */
  prizeFundCents: number
  /** Sales of the whole issue, minor units. */
  salesCents: number
  /** floor(prize fund x 10000 / sales). */
  payoutShareBp: number
  winnerCount: number
  /** Tier numbers (1-based) that count as low tiers for the pack rule, and as top tiers. */
  lowTiers: number[]
  topTiers: number[]
  /** Low-tier prizes every pack holds at least (0 without the rule). */
  minLowPerPack: number
  /** Top-tier prizes a pack may hold at most (its real capacity after the other rules). */
  topCapacityPerPack: number
  notFirstOrLast: boolean
  /** The amounts a ticket may show, ascending; symbol letter A is the first. */
  symbolAmountsCents: number[]
  /** Index of each tier's amount in symbolAmountsCents (index 0 unused). */
  tierSymbol: number[]
}

/** Limits of the serial and code formats (instant-codes.ts). */
export const INSTANT_LIMITS = Object.freeze({
  maxGameNo: 9999,
  maxPacks: 999_999,
  minPackSize: 3,
  maxPackSize: 1000,
  /** The validation code carries the ticket index in 30 bits. */
  maxTickets: 2 ** 30,
  maxTiers: 60,
  maxRows: 10,
})

function refuse(reason: string, field: string): never {
  throw new DomainError('VALIDATION_FAILED', `design refused: ${reason}`, { field, reason })
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0
const isAmount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0

/**
 * Checks that a design can be met and derives its figures. Every refusal is a DomainError VALIDATION_FAILED whose
 * message states the reason ("design refused: ...") and whose details name the field.
 */
export function checkDesign(input: InstantDesign): CheckedDesign {
  const d = input
  if (typeof d !== 'object' || d === null) refuse('the design must be a JSON object', '')
  if (!Number.isInteger(d.gameNo) || d.gameNo < 1 || d.gameNo > INSTANT_LIMITS.maxGameNo)
    refuse(`gameNo must be an integer 1..${INSTANT_LIMITS.maxGameNo}`, 'gameNo')
  if (typeof d.name !== 'string' || d.name.trim() === '' || d.name.length > 80)
    refuse('name must be 1..80 characters', 'name')
  if (typeof d.currency !== 'string' || !/^[A-Z]{3}$/.test(d.currency))
    refuse('currency must be an ISO 4217 code such as BOB or EUR', 'currency')
  if (!isAmount(d.priceCents)) refuse('priceCents must be a positive integer number of minor units', 'priceCents')
  if (
    !Number.isInteger(d.packSize) ||
    d.packSize < INSTANT_LIMITS.minPackSize ||
    d.packSize > INSTANT_LIMITS.maxPackSize
  ) {
    refuse(`packSize must be an integer ${INSTANT_LIMITS.minPackSize}..${INSTANT_LIMITS.maxPackSize}`, 'packSize')
  }
  if (!isAmount(d.ticketCount)) refuse('ticketCount must be a positive integer', 'ticketCount')
  if (d.ticketCount % d.packSize !== 0)
    refuse(`ticketCount ${d.ticketCount} is not a whole number of packs of ${d.packSize}`, 'ticketCount')
  const packCount = d.ticketCount / d.packSize
  if (packCount > INSTANT_LIMITS.maxPacks)
    refuse(`${packCount} packs do not fit the 6-digit pack number (at most ${INSTANT_LIMITS.maxPacks})`, 'ticketCount')
  if (d.ticketCount > INSTANT_LIMITS.maxTickets)
    refuse(`at most ${INSTANT_LIMITS.maxTickets} tickets per game`, 'ticketCount')
  if (d.channel !== undefined && d.channel !== 'printed' && d.channel !== 'electronic')
    refuse('channel must be "printed" or "electronic"', 'channel')
  if (!Number.isInteger(d.claimDays) || d.claimDays < 1 || d.claimDays > 3660)
    refuse('claimDays must be an integer 1..3660 (INS-10)', 'claimDays')
  if (
    typeof d.salesEndAt !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(d.salesEndAt) ||
    !Number.isFinite(Date.parse(d.salesEndAt))
  )
    refuse(
      'salesEndAt, the last moment of sale with its offset (e.g. 2025-12-31T23:59:59-04:00), is required: without it the claim period never ends (INS-10)',
      'salesEndAt',
    )
  if (
    d.authorisationRef !== undefined &&
    d.authorisationRef !== null &&
    (typeof d.authorisationRef !== 'string' || d.authorisationRef.length > 120)
  )
    refuse('authorisationRef must be text of at most 120 characters (LOT-3)', 'authorisationRef')
  if (typeof d.back !== 'object' || d.back === null)
    refuse('back texts are required (INS-4: issuer, payment place)', 'back')
  if (typeof d.back.issuer !== 'string' || !d.back.issuer.trim())
    refuse('back.issuer is required (INS-4)', 'back.issuer')
  if (typeof d.back.paymentPlace !== 'string' || !d.back.paymentPlace.trim())
    refuse('back.paymentPlace is required (INS-4, INS-6)', 'back.paymentPlace')

  // ---- prize table
  if (!Array.isArray(d.tiers) || d.tiers.length === 0) refuse('at least one prize tier is required', 'tiers')
  if (d.tiers.length > INSTANT_LIMITS.maxTiers) refuse(`at most ${INSTANT_LIMITS.maxTiers} prize tiers`, 'tiers')
  const amounts = new Set<number>()
  let winnerCount = 0
  let fund = 0n
  d.tiers.forEach((t, i) => {
    if (!isAmount(t?.amountCents))
      refuse(`tier ${i + 1}: amountCents must be a positive integer`, `tiers.${i}.amountCents`)
    if (!isCount(t.count) || t.count < 1) refuse(`tier ${i + 1}: count must be a positive integer`, `tiers.${i}.count`)
    if (amounts.has(t.amountCents))
      refuse(
        `tier ${i + 1}: two tiers pay ${t.amountCents}; a ticket shows its prize as an amount, so amounts must differ`,
        `tiers.${i}.amountCents`,
      )
    amounts.add(t.amountCents)
    winnerCount += t.count
    fund += BigInt(t.amountCents) * BigInt(t.count)
  })
  if (winnerCount > d.ticketCount)
    refuse(`the tiers hold ${winnerCount} prizes but there are only ${d.ticketCount} tickets`, 'tiers')
  const sales = BigInt(d.priceCents) * BigInt(d.ticketCount)
  if (fund > BigInt(Number.MAX_SAFE_INTEGER) || sales > BigInt(Number.MAX_SAFE_INTEGER))
    refuse('amounts too large', 'tiers')
  const shareBp = Number((fund * 10_000n) / sales)
  const range = d.payoutShareBp
  if (
    typeof range !== 'object' ||
    range === null ||
    !isCount(range.min) ||
    !isCount(range.max) ||
    range.min > range.max ||
    range.max > 10_000
  ) {
    refuse('payoutShareBp must be {min, max} basis points with 0 <= min <= max <= 10000', 'payoutShareBp')
  }
  if (
    shareBp < range.min ||
    shareBp > range.max ||
    (shareBp === range.max && fund * 10_000n > sales * BigInt(range.max))
  ) {
    refuse(
      `the prize fund is ${pct(fund, sales)} of sales, outside the declared ${bp(range.min)}..${bp(range.max)}`,
      'payoutShareBp',
    )
  }

  // ---- pack rules
  const rules = d.packRules ?? {}
  const lowTiers: number[] = []
  const topTiers: number[] = []
  let minLowPerPack = 0
  let topCapacityPerPack = d.packSize
  let notFirstOrLast = false
  if (rules.lowTiers) {
    const r = rules.lowTiers
    if (!isAmount(r.maxAmountCents))
      refuse('packRules.lowTiers.maxAmountCents must be a positive integer', 'packRules.lowTiers.maxAmountCents')
    if (!isCount(r.minPerPack) || r.minPerPack > d.packSize)
      refuse(`packRules.lowTiers.minPerPack must be 0..${d.packSize}`, 'packRules.lowTiers.minPerPack')
    d.tiers.forEach((t, i) => {
      if (t.amountCents <= r.maxAmountCents) lowTiers.push(i + 1)
    })
    minLowPerPack = r.minPerPack
    if (minLowPerPack > 0 && lowTiers.length === 0)
      refuse(
        `no tier pays ${r.maxAmountCents} or less, so no pack can hold ${minLowPerPack} low-tier prizes`,
        'packRules.lowTiers',
      )
    const lowTotal = lowTiers.reduce((s, k) => s + d.tiers[k - 1].count, 0)
    if (lowTotal < minLowPerPack * packCount) {
      refuse(
        `every pack needs ${minLowPerPack} low-tier prizes: ${minLowPerPack} x ${packCount} packs = ${minLowPerPack * packCount}, but the low tiers hold ${lowTotal}`,
        'packRules.lowTiers.minPerPack',
      )
    }
  }
  if (rules.topTiers) {
    const r = rules.topTiers
    if (!isAmount(r.minAmountCents))
      refuse('packRules.topTiers.minAmountCents must be a positive integer', 'packRules.topTiers.minAmountCents')
    if (r.maxPerPack !== undefined && (!isCount(r.maxPerPack) || r.maxPerPack < 1))
      refuse('packRules.topTiers.maxPerPack must be a positive integer', 'packRules.topTiers.maxPerPack')
    notFirstOrLast = r.notFirstOrLast === true
    d.tiers.forEach((t, i) => {
      if (t.amountCents >= r.minAmountCents) topTiers.push(i + 1)
    })
    const overlap = topTiers.filter((k) => lowTiers.includes(k))
    if (overlap.length) refuse(`tier ${overlap[0]} is both a low tier and a top tier`, 'packRules')
    const edgeSlots = notFirstOrLast ? d.packSize - 2 : d.packSize
    topCapacityPerPack = Math.min(r.maxPerPack ?? d.packSize, edgeSlots, d.packSize - minLowPerPack)
    const topTotal = topTiers.reduce((s, k) => s + d.tiers[k - 1].count, 0)
    if (topTotal > 0 && topCapacityPerPack < 1) {
      refuse(
        `a pack of ${d.packSize} has no room for a top prize after ${minLowPerPack} low-tier prizes${notFirstOrLast ? ' and its first and last tickets' : ''}`,
        'packRules.topTiers',
      )
    }
    if (topTotal > topCapacityPerPack * packCount) {
      refuse(
        `${topTotal} top-tier prizes do not fit ${packCount} packs at ${topCapacityPerPack} per pack`,
        'packRules.topTiers',
      )
    }
  }

  // ---- play style and symbols
  const style = d.playStyle
  if (typeof style !== 'object' || style === null) refuse('playStyle is required', 'playStyle')
  if (style.type !== 'match-three' && style.type !== 'beat-their-number')
    refuse('playStyle.type must be "match-three" or "beat-their-number"', 'playStyle.type')
  const decoys = style.decoyAmountsCents ?? []
  if (!Array.isArray(decoys) || decoys.some((a) => !isAmount(a)))
    refuse('decoyAmountsCents must be positive integers', 'playStyle.decoyAmountsCents')
  const symbolAmountsCents = [...new Set([...amounts, ...decoys])].sort((a, b) => a - b)
  if (symbolAmountsCents.length > 26)
    refuse('at most 26 different amounts (symbols A..Z)', 'playStyle.decoyAmountsCents')
  if (style.type === 'match-three') {
    // 9 cells with no amount three times need at least 5 amounts (4 pairs and a single).
    if (symbolAmountsCents.length < 5) {
      refuse(
        `match-three needs at least 5 different amounts so that a losing ticket can fill 9 cells without three equal; the design has ${symbolAmountsCents.length}: add decoyAmountsCents`,
        'playStyle.decoyAmountsCents',
      )
    }
  } else {
    const rows = style.rows ?? 5
    const maxNumber = style.maxNumber ?? 20
    if (!Number.isInteger(rows) || rows < 1 || rows > INSTANT_LIMITS.maxRows)
      refuse(`playStyle.rows must be 1..${INSTANT_LIMITS.maxRows}`, 'playStyle.rows')
    if (!Number.isInteger(maxNumber) || maxNumber < 2 || maxNumber > 99)
      refuse('playStyle.maxNumber must be 2..99', 'playStyle.maxNumber')
  }
  const tierSymbol = [-1, ...d.tiers.map((t) => symbolAmountsCents.indexOf(t.amountCents))]

  return {
    design: d,
    packCount,
    prizeFundCents: Number(fund),
    salesCents: Number(sales),
    payoutShareBp: shareBp,
    winnerCount,
    lowTiers,
    topTiers,
    minLowPerPack,
    topCapacityPerPack: topTiers.length ? topCapacityPerPack : 0,
    notFirstOrLast,
    symbolAmountsCents,
    tierSymbol,
  }
}

function bp(v: number): string {
  return `${(v / 100).toFixed(2)}%`
}
function pct(num: bigint, den: bigint): string {
  return `${(Number((num * 1_000_000n) / den) / 10_000).toFixed(2)}%`
}

/** Odds "1 in X" of a tier and of any prize, for the back of the ticket (INS-4 prize structure). */
export function prizeStructure(
  c: CheckedDesign,
): Array<{ tier: number; amountCents: number; count: number; oneIn: number }> {
  return c.design.tiers.map((t, i) => ({
    tier: i + 1,
    amountCents: t.amountCents,
    count: t.count,
    oneIn: Math.round((c.design.ticketCount / t.count) * 100) / 100,
  }))
}

/** INS-4 item 5: the security warnings of the back (pre-printed sheets and e-instant paper) when the design gives none. */
export const DEFAULT_SECURITY_WARNINGS =
  'Boleto nulo si está alterado, roto o raspado fuera de las zonas de raspado. El código de validación decide el premio.'

/** The how-to-play text of a play style (INS-4 item 7), unless the design gives its own. */
export function instructionsFor(c: CheckedDesign, lang: 'es' | 'en' = 'es'): string {
  if (c.design.back.instructions) return c.design.back.instructions
  const style = c.design.playStyle
  if (style.type === 'match-three') {
    return lang === 'es'
      ? 'Raspe las 9 casillas. Si aparece 3 veces el mismo importe, gana ese importe.'
      : 'Scratch the 9 cells. If the same amount shows 3 times, you win that amount.'
  }
  return lang === 'es'
    ? 'Raspe TU NÚMERO y SU NÚMERO de cada fila. Si tu número es mayor que el suyo, gana el premio de esa fila.'
    : "Scratch YOUR NUMBER and THEIR NUMBER in each row. If yours is higher than theirs, you win that row's prize."
}
