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
 * | derived             | BNG-102, CFG-34       | balls 6..90, cards of 6 to 18 numbers (decree 004 Bingo VI.3.a); version instant or deferred (checkDerivedPlan) |
 * | fast                | BNG-98, CFG-32        | one row of `picks` numbers from a universe 1..U: the bingo is `timesRequired` of them drawn (all, unless the hall's licence sets fewer: fastGameTerms) |
 * | fast, chosen numbers | BNG-98, CFG-32       | the player's own `picks` distinct numbers anywhere in 1..U (chosenNumbersLayout), where the hall's licence sets it |
 * | electronic          | BNG-101, CFG-33       | any layout above, virtual cards sold at terminals and marked by the system (profile.autoClaimSoldCards) |
 *
 * Lines are rows: a one-row card (fast bingo) completes its line with its last pick; when all picks win, its bingo
 * comes with the same ball, and when fewer do the bingo comes first (the line pool then goes with it, BNG-56). Give
 * such halls a line share of 0 if the licence has no line prize.
 */
import { LAYOUT_75, LAYOUT_90, countCards, validateLayout, type CardLayout } from './card.ts'
import { DomainError } from '../shared/errors.ts'
import type { Profile } from '../shared/profile.ts'
import { shareOf } from '../shared/money.ts'

export const Modality = {
  Ordinary90: 'ordinary-90',
  Bingo75: 'bingo-75',
  BingoPlus: 'bingo-plus',
  Derived: 'derived',
  Fast: 'fast',
} as const
export type Modality = (typeof Modality)[keyof typeof Modality]

export interface ModalityParams {
  /** Balls 1..ballCount (derived: 6..90; fast: the universe). */
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
  if (!Number.isInteger(columns) || columns < 1 || columns > ballCount)
    throw new DomainError('VALIDATION_FAILED', `cannot cut ${ballCount} balls into ${columns} columns`)
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
  if (n < cardsMin || n > cardsMax)
    problems.push(`${what} cards hold ${cardsMin} to ${cardsMax} numbers, this one ${n}`)
  if (layout.rows > 5) problems.push('at most 5 rows')
  if (problems.length)
    throw new DomainError('VALIDATION_FAILED', `invalid ${what} layout: ${problems.join('; ')}`, { problems })
  if (!(countCards(layout) > 0)) throw new DomainError('VALIDATION_FAILED', `the ${what} layout admits no card`)
  return Object.freeze({
    ...layout,
    columnRanges: Object.freeze(layout.columnRanges.map((r) => Object.freeze([r[0], r[1]] as const))),
  }) as CardLayout
}

/** BNG-103: bingo plus on 1..100 with cards of 5 to 20 numbers (`rows` x `perRow`), columns 1-10, 11-20, ..., 91-100. */
export function bingoPlusLayout(p: { rows: number; perRow: number }): CardLayout {
  return checked(
    {
      ballCount: 100,
      rows: p.rows,
      columns: 10,
      perRow: p.perRow,
      columnRanges: evenColumns(100, 10),
      minPerColumn: 0,
    },
    'bingo plus',
    5,
    20,
  )
}

/**
 * BNG-102: derived bingo "sobre un máximo de 90 números y un mínimo de 6", with cards "con un mínimo de 6 y un
 * máximo de 18 números distintos" (decree 004, Bingo VI.3.a).
 */
export function derivedLayout(p: { ballCount: number; rows: number; perRow: number; columns?: number }): CardLayout {
  if (!Number.isInteger(p.ballCount) || p.ballCount < 6 || p.ballCount > 90)
    throw new DomainError('VALIDATION_FAILED', 'derived bingo is played on 6 to 90 numbers (BNG-102)', {
      rule: 'BNG-102',
    })
  const columns = p.columns ?? Math.min(p.ballCount, Math.max(p.perRow, Math.ceil(p.ballCount / 10)))
  return checked(
    {
      ballCount: p.ballCount,
      rows: p.rows,
      columns,
      perRow: p.perRow,
      columnRanges: evenColumns(p.ballCount, columns),
      minPerColumn: 0,
    },
    'derived bingo',
    6,
    18,
  )
}

/**
 * A derived bingo version (BNG-102, CFG-34), authorised by the Consejería (`authorisationRef`). Its prizes are
 * predetermined combinations, each with its part (`shareBp`) of the prize percentage, which may not be below the
 * Consejería's minimum. `instant`: each prize is fixed in each play, independently of the betting volume
 * (`fixedCents`, or `stakeMultiple` times the card price). `deferred`: prizes of an amount fixed within a time span
 * of games (`window`) as a function of card sales: each prize is its `shareBp` of the sales in the window.
 */
export interface DerivedPlan {
  authorisationRef: string
  version: 'instant' | 'deferred'
  ballCount: number
  rows: number
  perRow: number
  prizePercentBp: number
  prizes: Array<{
    name: string
    combination: string
    /**
     * Issue 26: which verified combination wins the prize, the one the server checks a claim against: a whole row
     * ('line') or the whole card ('bingo'). `combination` is its public wording.
     */
    wins: 'line' | 'bingo'
    shareBp: number
    fixedCents?: number
    stakeMultiple?: number
  }>
  window?: { games?: number; hours?: number }
}

/** Whether a game's layout is the card format of this derived version (balls, rows, numbers per row, free columns). */
export function isDerivedLayoutOf(
  layout: CardLayout,
  plan: Pick<DerivedPlan, 'ballCount' | 'rows' | 'perRow'>,
): boolean {
  return (
    layout.minPerColumn === 0 &&
    layout.ballCount === plan.ballCount &&
    layout.rows === plan.rows &&
    layout.perRow === plan.perRow
  )
}

/**
 * BNG-102 / CFG-34 (004 Bingo VI.3.b): what a derived game pays, fixed before it from its version. Each prize is its
 * `shareBp` of the face value of the cards sold, so that the prize percentage is the version's, never below the
 * Consejería minimum; an instant version's prize is besides a fixed amount "independently of the betting volume"
 * (`fixedCents`, or `stakeMultiple` times the card price), paid whatever the sales, and never less than its share
 * (the minimum percentage holds in any version). A deferred version's prize is its share of the sales.
 */
export function derivedPools(
  plan: DerivedPlan,
  cardsSold: number,
  faceValueCents: number,
): { totalCents: number; lineCents: number; bingoCents: number } {
  const totalCents = cardsSold * faceValueCents
  const amount = (kind: 'line' | 'bingo'): number => {
    const p = plan.prizes.find((x) => x.wins === kind)
    if (!p) return 0
    const share = shareOf(totalCents, p.shareBp)
    if (plan.version === 'deferred') return share
    const fixed = p.fixedCents ?? (p.stakeMultiple ?? 0) * faceValueCents
    return Math.max(fixed, share)
  }
  return { totalCents, lineCents: amount('line'), bingoCents: amount('bingo') }
}

/** The shares a derived game is announced with (its line and bingo parts of the version's prize percentage). */
export function derivedShares(plan: DerivedPlan): { lineBp: number; bingoBp: number } {
  const bp = (kind: 'line' | 'bingo') => plan.prizes.find((x) => x.wins === kind)?.shareBp ?? 0
  return { lineBp: bp('line'), bingoBp: bp('bingo') }
}

export function checkDerivedPlan(profile: Profile, plan: DerivedPlan): DerivedPlan {
  if (!profile.derivedBingo.allowed)
    throw new DomainError(
      'RULE_DISABLED',
      `profile ${profile.id} has no derived bingo (BNG-102 is a Cantabrian modality)`,
      { rule: 'BNG-102' },
    )
  derivedLayout({ ballCount: plan.ballCount, rows: plan.rows, perRow: plan.perRow })
  const problems: string[] = []
  const ref = plan.authorisationRef.trim()
  if (ref.length < 3 || ref.length > 120)
    problems.push('the Consejería authorisation reference has 3 to 120 characters')
  if (plan.version !== 'instant' && plan.version !== 'deferred') problems.push('version is instant or deferred')
  if (!Number.isInteger(plan.prizePercentBp) || plan.prizePercentBp > 10_000)
    problems.push('prizePercentBp must be at most 10000')
  if (plan.prizePercentBp < profile.derivedBingo.minimumPrizeBp)
    problems.push(
      `the prize percentage ${plan.prizePercentBp} is below the Consejería minimum ${profile.derivedBingo.minimumPrizeBp}`,
    )
  if (plan.prizes.length < 1) problems.push('at least one predetermined prize')
  let sum = 0
  for (const [i, p] of plan.prizes.entries()) {
    if (!p.name.trim() || !p.combination.trim())
      problems.push(`prize ${i + 1} needs a name and its predetermined combination`)
    if (p.wins !== 'line' && p.wins !== 'bingo')
      problems.push(`prize ${i + 1}: wins is the combination the server verifies, 'line' or 'bingo'`)
    else if (plan.prizes.findIndex((x) => x.wins === p.wins) !== i)
      problems.push(`prize ${i + 1}: one prize per combination (${p.wins} twice)`)
    if (!Number.isInteger(p.shareBp) || p.shareBp <= 0)
      problems.push(`prize ${i + 1}: shareBp must be a positive integer`)
    sum += p.shareBp
    const fixed = p.fixedCents !== undefined || p.stakeMultiple !== undefined
    if (plan.version === 'instant' && !fixed)
      problems.push(
        `prize ${i + 1}: an instant version's prize is a fixed amount or a multiple of the stake, independent of the betting volume`,
      )
    if (plan.version === 'deferred' && fixed)
      problems.push(`prize ${i + 1}: a deferred version's prize comes from the sales of its window, not a fixed stake`)
    if (p.fixedCents !== undefined && (!Number.isSafeInteger(p.fixedCents) || p.fixedCents <= 0))
      problems.push(`prize ${i + 1}: fixedCents must be positive`)
    if (p.stakeMultiple !== undefined && (!Number.isInteger(p.stakeMultiple) || p.stakeMultiple <= 0))
      problems.push(`prize ${i + 1}: stakeMultiple must be a positive integer`)
  }
  if (sum !== plan.prizePercentBp)
    problems.push(
      `the prizes' shares add up to ${sum}, the prize percentage is ${plan.prizePercentBp}: specify its split among the prizes`,
    )
  const w = plan.window
  if (
    plan.version === 'deferred' &&
    !(w && ((Number.isInteger(w.games) && w.games! >= 1) || (Number.isInteger(w.hours) && w.hours! >= 1)))
  )
    problems.push('a deferred version names its time span: games or hours')
  if (plan.version === 'instant' && w) problems.push('an instant version has no time span')
  if (problems.length)
    throw new DomainError('VALIDATION_FAILED', `invalid derived bingo version: ${problems.join('; ')} (BNG-102)`, {
      problems,
      rule: 'BNG-102',
    })
  return { ...plan, authorisationRef: ref }
}

/** BNG-98: fast bingo, one row of `picks` numbers (one per band of the universe 1..ballCount). */
export function fastBingoLayout(p: { ballCount: number; picks: number }): CardLayout {
  if (!Number.isInteger(p.ballCount) || p.ballCount < 2 || p.ballCount > 255)
    throw new DomainError('VALIDATION_FAILED', 'fast bingo universe must be 2..255 numbers')
  return checked(
    {
      ballCount: p.ballCount,
      rows: 1,
      columns: p.picks,
      perRow: p.picks,
      columnRanges: evenColumns(p.ballCount, p.picks),
      minPerColumn: 1,
    },
    'fast bingo',
    1,
    20,
  )
}

/**
 * BNG-98 / CFG-32 (002 §6.1.9, bingo rápido): the terms of a fast bingo as the hall's AJ Operating Licence sets them
 * ("Los medios de juego y medios de acceso al juego deberán estar claramente establecidos en la Licencia de
 * Operaciones emitida por la AJ"): the universe of numbers, how many the player holds (`picks`), "la cantidad de
 * veces requerida por el Operador" to win (`timesRequired`, 1..picks) and whether the player chooses each number
 * (`playerChooses`). The prize is the game's bingo share of the Plan de Apuestas (BNG-52), as for every game.
 */
export interface FastBingoTerms {
  universe: number
  picks: number
  timesRequired: number
  playerChooses: boolean
}

/** The licence a hall plays under, as its settings copy it (betting-plan.ts HallRuleSettings.licence). */
export interface LicenceOfHall {
  version: number
  authorisationRef: string
  fastBingo?: FastBingoTerms
}

/**
 * Checks the fast bingo terms of a licence (BNG-98, CFG-32). A licence may let the player choose his numbers
 * ("uno o varios jugadores deben elegir y adquirir uno o más números ... entre un universo", 002 §6.1.9): its games
 * then sell chosen-number cards (chosenNumbersLayout) at the counter and the kiosk.
 */
export function checkFastBingoTerms(profile: Profile, terms: FastBingoTerms): FastBingoTerms {
  if (!profile.fastBingo.licenceTerms)
    throw new DomainError(
      'RULE_DISABLED',
      `profile ${profile.id} has no bingo rápido whose terms a licence sets (BNG-98 is new in 002 §6.1.9)`,
      { rule: 'BNG-98', field: 'fastBingo' },
    )
  fastBingoLayout({ ballCount: terms.universe, picks: terms.picks })
  if (!Number.isInteger(terms.timesRequired) || terms.timesRequired < 1 || terms.timesRequired > terms.picks)
    throw new DomainError(
      'VALIDATION_FAILED',
      `fast bingo is won with 1 to ${terms.picks} of the player's ${terms.picks} numbers drawn, not ${terms.timesRequired} (CFG-32)`,
      { rule: 'CFG-32', field: 'timesRequired' },
    )
  if (terms.playerChooses) chosenNumbersLayout({ ballCount: terms.universe, picks: terms.picks })
  return {
    universe: terms.universe,
    picks: terms.picks,
    timesRequired: terms.timesRequired,
    playerChooses: terms.playerChooses === true,
  }
}

/**
 * BNG-98 / CFG-32 (002 §6.1.9 "elegir y adquirir uno o más números ... entre un universo de números"): a card of
 * `picks` numbers the player chose, anywhere in 1..ballCount (not one per band, as a printed fast card). One row;
 * each number of the universe is a column of its own, so that any choice is a card of this format, and the detector
 * and the k-of-n win check read it as any other one-row card.
 */
export function chosenNumbersLayout(p: { ballCount: number; picks: number }): CardLayout {
  if (!Number.isInteger(p.ballCount) || p.ballCount < 2 || p.ballCount > 255)
    throw new DomainError('VALIDATION_FAILED', 'fast bingo universe must be 2..255 numbers')
  if (!Number.isInteger(p.picks) || p.picks < 1 || p.picks > 20 || p.picks >= p.ballCount)
    throw new DomainError('VALIDATION_FAILED', `a chosen-number card holds 1 to 20 numbers, fewer than the universe`)
  return Object.freeze({
    ballCount: p.ballCount,
    rows: 1,
    columns: p.ballCount,
    perRow: p.picks,
    columnRanges: Object.freeze(Array.from({ length: p.ballCount }, (_, i) => Object.freeze([i + 1, i + 1] as const))),
    minPerColumn: 0,
  }) as CardLayout
}

/** The universe and picks of a chosen-number layout (chosenNumbersLayout), or null for any other card format. */
export function chosenLayoutOf(layout: CardLayout): { universe: number; picks: number } | null {
  if (layout.rows !== 1 || layout.minPerColumn !== 0 || layout.columns !== layout.ballCount) return null
  try {
    return isSameLayout(chosenNumbersLayout({ ballCount: layout.ballCount, picks: layout.perRow }), layout)
      ? { universe: layout.ballCount, picks: layout.perRow }
      : null
  } catch {
    return null
  }
}

/**
 * BNG-98 / CFG-32: the numbers of one chosen-number card as the player gave them: exactly `picks` distinct whole
 * numbers of 1..universe, sorted for the card; or the problems found (in Spanish and English, for the screens).
 */
export function checkChosenNumbers(
  terms: { universe: number; picks: number },
  numbers: unknown,
): { numbers: number[]; problems?: undefined } | { numbers?: undefined; problems: string[] } {
  if (!Array.isArray(numbers)) return { problems: [`a card's numbers are a list of ${terms.picks}`] }
  const problems: string[] = []
  if (numbers.length !== terms.picks)
    problems.push(`${numbers.length} numbers given, the card holds exactly ${terms.picks}`)
  const out = numbers.filter((n) => Number.isInteger(n) && n >= 1 && n <= terms.universe) as number[]
  if (out.length !== numbers.length) problems.push(`every number is a whole number of 1..${terms.universe}`)
  if (new Set(out).size !== out.length) problems.push('a number chosen twice')
  return problems.length ? { problems } : { numbers: [...out].sort((a, b) => a - b) }
}

/** The universe and picks of a fast bingo layout (fastBingoLayout), or null for any other card format. */
export function fastLayoutOf(layout: CardLayout): { universe: number; picks: number } | null {
  if (layout.rows !== 1 || layout.minPerColumn !== 1 || layout.columns !== layout.perRow) return null
  try {
    const fast = fastBingoLayout({ ballCount: layout.ballCount, picks: layout.perRow })
    return isSameLayout(fast, layout) ? { universe: layout.ballCount, picks: layout.perRow } : null
  } catch {
    return null
  }
}

/** BNG-98: a purchase whose chosen numbers do not make the game's cards (422, with what is wrong). */
export function chosenNumbersRefused(
  problems: string[],
  terms?: { universe: number; picks: number },
  card?: number,
): DomainError {
  return new DomainError('CHOSEN_NUMBERS_INVALID', `numbers refused: ${problems.join('; ')} (BNG-98)`, {
    field: card === undefined ? 'picks' : `picks.${card}`,
    problems,
    ...(terms ? { universe: terms.universe, picks: terms.picks } : {}),
    rule: 'BNG-98',
  })
}

/**
 * BNG-98 / CFG-32: the terms a fast bingo game of `layout` plays, from the hall's licence: its fast bingo terms when
 * they are for this universe and number of picks, else the default every hall may play (printed cards, won when all
 * picks are drawn). A game asking for other terms than those (`asked`) is refused, RULE_DISABLED, naming the licence:
 * "Los medios de juego y medios de acceso al juego deberán estar claramente establecidos en la Licencia" (002
 * §6.1.9), so neither chosen numbers where the licence does not set them, nor printed cards where it does.
 */
export function fastGameTerms(
  layout: { universe: number; picks: number },
  licence: LicenceOfHall | null,
  asked: { timesRequired?: number; playerChooses?: boolean } = {},
): { timesRequired: number; playerChooses: boolean; licence: { version: number; authorisationRef: string } | null } {
  const t = licence?.fastBingo
  const own = t && t.universe === layout.universe && t.picks === layout.picks ? t : null
  const timesRequired = own?.timesRequired ?? layout.picks
  const playerChooses = own?.playerChooses === true
  const named = licence
    ? `the hall's AJ Operating Licence ${licence.authorisationRef} (version ${licence.version})`
    : 'the hall, which has no AJ Operating Licence on record,'
  const format = `${layout.picks} numbers of 1..${layout.universe}`
  if (asked.playerChooses !== undefined && asked.playerChooses !== playerChooses)
    throw new DomainError(
      'RULE_DISABLED',
      playerChooses
        ? `${named} sets that the player chooses his numbers in a fast bingo of ${format}, not printed cards (BNG-98, CFG-32)`
        : `${named} does not let the player choose his numbers in a fast bingo of ${format} (BNG-98, CFG-32)`,
      { rule: 'BNG-98', field: 'playerChooses', licence: licence?.authorisationRef ?? null },
    )
  if (asked.timesRequired !== undefined && asked.timesRequired !== timesRequired)
    throw new DomainError(
      'RULE_DISABLED',
      `${named} sets that a fast bingo of ${format} is won with ${timesRequired} of them drawn, not ${asked.timesRequired} (BNG-98, CFG-32)`,
      { rule: 'CFG-32', field: 'timesRequired', timesRequired, licence: licence?.authorisationRef ?? null },
    )
  return {
    timesRequired,
    playerChooses,
    licence: own && licence ? { version: licence.version, authorisationRef: licence.authorisationRef } : null,
  }
}

/** The layout of a modality with its parameters (defaults: bingo plus 4 x 5 = 20 numbers; derived 2 x 4 on 48). */
export function layoutForModality(modality: Modality, p: ModalityParams = {}): CardLayout {
  switch (modality) {
    case Modality.Ordinary90:
      return LAYOUT_90
    case Modality.Bingo75:
      return LAYOUT_75
    case Modality.BingoPlus:
      return bingoPlusLayout({ rows: p.rows ?? 4, perRow: p.perRow ?? 5 })
    case Modality.Derived:
      return derivedLayout({
        ballCount: p.ballCount ?? 48,
        rows: p.rows ?? 2,
        perRow: p.perRow ?? 4,
        columns: p.columns,
      })
    case Modality.Fast:
      return fastBingoLayout({ ballCount: p.ballCount ?? 30, picks: p.picks ?? 5 })
    default: {
      const _never: never = modality
      throw new DomainError('VALIDATION_FAILED', `unknown modality ${String(_never)}`)
    }
  }
}

/** Whether two layouts are the same card format (same balls, rows, columns and column ranges). */
export function isSameLayout(a: CardLayout, b: CardLayout): boolean {
  return (
    a.ballCount === b.ballCount &&
    a.rows === b.rows &&
    a.columns === b.columns &&
    a.perRow === b.perRow &&
    a.minPerColumn === b.minPerColumn &&
    a.columnRanges.length === b.columnRanges.length &&
    a.columnRanges.every((r, i) => r[0] === b.columnRanges[i][0] && r[1] === b.columnRanges[i][1])
  )
}

/** A hall's recorded plan, as stored: its kind and its body (JSON). */
export interface HallPlanBody {
  kind: string
  body: string
}

/**
 * BNG-3 / BNG-4: the layouts a hall may play besides its profile's own: each one authorised for it (a `layout` plan
 * with the licence or Consejería reference) and each derived bingo version the Consejería authorised (BNG-102).
 */
export function authorisedLayouts(plans: readonly HallPlanBody[]): CardLayout[] {
  const out: CardLayout[] = []
  for (const p of plans) {
    try {
      const body = JSON.parse(p.body) as { layout?: CardLayout; ballCount?: number; rows?: number; perRow?: number }
      if (p.kind === 'layout' && body.layout) out.push(body.layout)
      else if (p.kind === 'derived' && body.ballCount !== undefined)
        out.push(derivedLayout({ ballCount: body.ballCount, rows: body.rows!, perRow: body.perRow! }))
    } catch {
      // A plan that no longer builds a layout authorises none.
    }
  }
  return out
}

/** Whether `layout` may be played in a hall of `profile` with these plans (BNG-3 / BNG-4). */
export function isLayoutAuthorised(profile: Profile, layout: CardLayout, plans: readonly HallPlanBody[]): boolean {
  if (isSameLayout(layout, profile.layout) || !profile.otherLayoutsNeedAuthorisation) return true
  return authorisedLayouts(plans).some((l) => isSameLayout(l, layout))
}

/**
 * BNG-23 / CFG-11: the ball counts a hall's sets and recounts may have: its profile's (90) and those of the layouts
 * authorised for it. Ascending, without repeats.
 */
export function hallBallCounts(profile: Profile, plans: readonly HallPlanBody[]): number[] {
  return [...new Set([profile.layout.ballCount, ...authorisedLayouts(plans).map((l) => l.ballCount)])].sort(
    (a, b) => a - b,
  )
}
