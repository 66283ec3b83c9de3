/**
 * A hall's sale rules: the posted minimum and maximum bets (BNG-40, GEN-18, CFG-7, CFG-16) and the authorised card
 * face values (BNG-10, CFG-15). Pure: checks a new version against the profile, and a purchase against the rules.
 *
 * 002 §1.2.1.1 (GEN-18): "las apuestas mínimas y máximas ... son las establecidas por el operador en su Plan de
 * Apuestas aprobado por la AJ ... En ningún caso se podrá apostar por encima del máximo autorizado ni por debajo del
 * mínimo". 002 §6.1.5 (BNG-40): in bingo they follow from the card values and the number of cards played, and are
 * shown in a visible place of the hall. So a bingo bet is counted in cards of the game's face value: the fewest and
 * the most cards one purchase may buy, and the most cards one player may hold in a game (CFG-16).
 */
import { DomainError } from '../shared/errors.ts'
import type { Profile } from '../shared/profile.ts'

export interface SaleRules {
  /** Reference of the authority's approval (AJ resolution of the Plan de Apuestas, Consejería resolution). */
  authorisationRef: string
  minCardsPerPurchase: number
  maxCardsPerPurchase: number
  /** CFG-16: most cards one player may hold in one game, all purchases together. */
  maxCardsPerPlayer: number
  /** BNG-10 / CFG-15: the authorised face values, minor units; null keeps the profile's (or none). */
  faceValuesCents: number[] | null
}

/**
 * The demo hall's sale rules (demo.ts): the profiles' default limits, under a reference labelled as a demo, never an
 * authority's (a server without the demo refuses a hall that carries it: demo-references.ts).
 */
export const DEMO_SALE_RULES: SaleRules = Object.freeze({
  authorisationRef: 'DEMO — límites sin resolución de la AJ',
  minCardsPerPurchase: 1,
  maxCardsPerPurchase: 50,
  maxCardsPerPlayer: 50,
  faceValuesCents: null,
}) as SaleRules

/** Largest number the limits may take: no purchase sells more (games.ts sellTx). */
const MAX_CARDS = 100_000

/** Checks a new version of a hall's sale rules; VALIDATION_FAILED with every problem found. */
export function checkSaleRules(rules: SaleRules): SaleRules {
  const problems: string[] = []
  const ref = rules.authorisationRef.trim()
  if (ref.length < 3 || ref.length > 120) problems.push('the authorisation reference has 3 to 120 characters')
  const n = (name: string, v: number) => {
    if (!Number.isInteger(v) || v < 1 || v > MAX_CARDS) problems.push(`${name} must be 1..${MAX_CARDS}`)
  }
  n('minCardsPerPurchase', rules.minCardsPerPurchase)
  n('maxCardsPerPurchase', rules.maxCardsPerPurchase)
  n('maxCardsPerPlayer', rules.maxCardsPerPlayer)
  if (rules.minCardsPerPurchase > rules.maxCardsPerPurchase)
    problems.push('the minimum per purchase is above the maximum')
  if (rules.maxCardsPerPurchase > rules.maxCardsPerPlayer)
    problems.push('the maximum per purchase is above the maximum per player')
  let faces: number[] | null = null
  if (rules.faceValuesCents !== null) {
    faces = [...new Set(rules.faceValuesCents)].sort((a, b) => a - b)
    if (faces.length === 0 || faces.length > 20) problems.push('list 1 to 20 authorised face values')
    if (faces.some((v) => !Number.isSafeInteger(v) || v <= 0))
      problems.push('face values are positive amounts of minor units')
  }
  if (problems.length)
    throw new DomainError('VALIDATION_FAILED', `invalid sale rules: ${problems.join('; ')}`, {
      problems,
      rule: 'GEN-18',
    })
  return {
    authorisationRef: ref,
    minCardsPerPurchase: rules.minCardsPerPurchase,
    maxCardsPerPurchase: rules.maxCardsPerPurchase,
    maxCardsPerPlayer: rules.maxCardsPerPlayer,
    faceValuesCents: faces,
  }
}

/**
 * BNG-10 / CFG-15: refuses a face value not among the hall's authorised ones (none listed: any, unless the profile
 * names the authority that sets them, and then none until the hall recorded its list). `profile` is the hall's
 * (hallProfile), so the list is the one in force now: checked when a series is created, when a game is announced from
 * it and on every purchase, so a value the authority withdrew after the series was put on sale is neither announced
 * nor sold.
 */
export function assertFaceValueAuthorised(profile: Profile, faceValueCents: number): void {
  const list = profile.faceValuesCents
  const authority = profile.faceValuesAuthority
  if (!list && authority) {
    throw new DomainError(
      'FACE_VALUES_NOT_RECORDED',
      `the hall has no card face values on record with the reference of ${authority.name}: no series is created, no game announced and no card sold until the director records them (${authority.rule})`,
      { faceValueCents, authority: authority.name, rule: 'BNG-10' },
    )
  }
  if (list && !list.includes(faceValueCents)) {
    throw new DomainError(
      'FACE_VALUE_NOT_AUTHORISED',
      `face value ${faceValueCents} is not among the hall's authorised values ${list.join(', ')} (BNG-10)`,
      { faceValueCents, authorised: list, rule: 'BNG-10' },
    )
  }
}

/**
 * GEN-1 (002 §1) / GEN-3 (004 Decreto 6/2010 art. 2): where the profile names the authority whose Operating Licence
 * (Bolivia) or prior authorisation (Cantabria) a hall must hold, the hall sells only
 * once that licence's reference is on record (`licenceRef`: its licence terms; null: none). A Plan de Apuestas or
 * bet limits are no licence: without it no card is sold, in any channel.
 */
export function assertOperatingLicence(profile: Profile, licenceRef: string | null): void {
  const authority = profile.operatingLicenceAuthority
  if (!authority || licenceRef?.trim()) return
  throw new DomainError(
    'OPERATING_LICENCE_REQUIRED',
    `the hall has no reference of its operating licence or authorisation from ${authority.name} on record: no card is sold until the director records it (${authority.rule})`,
    { authority: authority.name, rule: authority.rule.split(' ')[0] },
  )
}

/**
 * GEN-18 / BNG-40 (002 §1.2.1.1, §6.1.5): where the profile names an authority for the bet limits, a hall sells only
 * under limits recorded with that authority's reference (`authorisationRef` of its sale rules; null: none on record).
 * The profile's default limits are no approval: without the reference no card is sold, in any channel.
 */
export function assertBetLimitsAuthorised(profile: Profile, authorisationRef: string | null): void {
  const authority = profile.betLimitsAuthority
  if (!authority || authorisationRef?.trim()) return
  throw new DomainError(
    'BET_LIMITS_NOT_AUTHORISED',
    `the hall has no bet limits on record with the reference of ${authority.name}: no card is sold until the director records them (${authority.rule})`,
    { authority: authority.name, rule: 'GEN-18' },
  )
}

/**
 * BNG-40 / GEN-18 / CFG-16: refuses a purchase of `count` cards below the minimum or above the maximum of one
 * purchase, or that takes the player over the most cards one player may hold in the game (`heldBefore`: cards the
 * same player already holds in it; null when the buyer is not identified, so only the purchase is counted).
 */
export function assertWithinBetLimits(
  profile: Profile,
  input: {
    count: number
    heldBefore: number | null
    faceValueCents: number
    /** CFG-7: the game's own limits (or its channel's) instead of the hall's; `scope` names which, for the message. */
    limits?: BetLimits
    scope?: { of: 'hall' } | { of: 'game' } | { of: 'channel'; channel: SaleChannel }
  },
): void {
  const l = input.limits ?? profile.betLimits
  const scope = input.scope ?? { of: 'hall' }
  const detail = {
    count: input.count,
    minCardsPerPurchase: l.minCardsPerPurchase,
    maxCardsPerPurchase: l.maxCardsPerPurchase,
    maxCardsPerPlayer: l.maxCardsPerPlayer,
    faceValueCents: input.faceValueCents,
    scope: scope.of,
    ...(scope.of === 'channel' ? { channel: scope.channel } : {}),
    // What is left to buy in this game: within one purchase, and for an identified player, all purchases together.
    left: Math.max(
      0,
      Math.min(l.maxCardsPerPurchase, input.heldBefore === null ? Infinity : l.maxCardsPerPlayer - input.heldBefore),
    ),
  }
  if (input.count < l.minCardsPerPurchase) {
    throw new DomainError(
      'BET_OUT_OF_LIMITS',
      `${input.count} cards are below the ${scope.of}'s minimum bet of ${l.minCardsPerPurchase} cards (GEN-18)`,
      { ...detail, limit: 'min-per-purchase', rule: scope.of === 'hall' ? 'GEN-18' : 'CFG-7' },
    )
  }
  if (input.count > l.maxCardsPerPurchase) {
    throw new DomainError(
      'BET_OUT_OF_LIMITS',
      `${input.count} cards are above the ${scope.of}'s maximum bet of ${l.maxCardsPerPurchase} cards in one purchase (GEN-18)`,
      { ...detail, limit: 'max-per-purchase', rule: scope.of === 'hall' ? 'GEN-18' : 'CFG-7' },
    )
  }
  if (input.heldBefore !== null && input.heldBefore + input.count > l.maxCardsPerPlayer) {
    throw new DomainError(
      'BET_OUT_OF_LIMITS',
      `the player holds ${input.heldBefore} cards of this game; ${input.count} more pass the maximum of ${l.maxCardsPerPlayer} per player (CFG-16)`,
      {
        ...detail,
        heldBefore: input.heldBefore,
        limit: 'max-per-player',
        rule: scope.of === 'hall' ? 'CFG-16' : 'CFG-7',
      },
    )
  }
}

/** What a hall posts on its screens (BNG-40: "deberán ser exhibidas en un lugar visible de la sala"). */
export interface PostedBets {
  minCardsPerPurchase: number
  maxCardsPerPurchase: number
  maxCardsPerPlayer: number
  faceValuesCents: number[] | null
  authorisationRef: string | null
}

/**
 * CFG-7 (002 §1.2.1.1): the limits "deberán estar expuestos en letreros en las salas de juego, respecto de cada
 * juego", so each game may have its own, within the hall's (a game's limits only narrow what the hall's Plan de
 * Apuestas approved). The text sets one limit per game whatever the channel, except "en línea", restricted
 * "a través del sistema SIJEL" (no Bolillo channel is one); a limit per channel is therefore the plan's choice,
 * recorded under the same reference: the counter's till, the caller's table, the kiosk, a hall terminal.
 */
export const SALE_CHANNELS = ['counter', 'table', 'kiosk', 'terminal'] as const
export type SaleChannel = (typeof SALE_CHANNELS)[number]

export interface BetLimits {
  minCardsPerPurchase: number
  maxCardsPerPurchase: number
  maxCardsPerPlayer: number
}

/** A game's own limits (CFG-7), and per channel where the plan sets them; each within the hall's. */
export interface GameSaleLimits extends BetLimits {
  /** The authority's reference (the Plan de Apuestas' resolution for this game); required where the profile names one. */
  authorisationRef: string | null
  channels: Partial<Record<SaleChannel, BetLimits>>
}

/** Checks a game's limits against the hall's (`hall`: the limits the hall plays with); VALIDATION_FAILED otherwise. */
export function checkGameSaleLimits(profile: Profile, hall: BetLimits, limits: GameSaleLimits): GameSaleLimits {
  const problems: string[] = []
  const ref = limits.authorisationRef?.trim() || null
  if (profile.betLimitsAuthority && !ref)
    problems.push(`the reference of ${profile.betLimitsAuthority.name} approving the game's limits is required`)
  if (ref && (ref.length < 3 || ref.length > 120)) problems.push('the authorisation reference has 3 to 120 characters')
  const within = (name: string, l: BetLimits, outer: BetLimits, outerName: string) => {
    for (const k of ['minCardsPerPurchase', 'maxCardsPerPurchase', 'maxCardsPerPlayer'] as const) {
      if (!Number.isInteger(l[k]) || l[k] < 1 || l[k] > MAX_CARDS) problems.push(`${name}.${k} must be 1..${MAX_CARDS}`)
    }
    if (l.minCardsPerPurchase > l.maxCardsPerPurchase) problems.push(`${name}: the minimum is above the maximum`)
    if (l.maxCardsPerPurchase > l.maxCardsPerPlayer)
      problems.push(`${name}: the maximum per purchase is above the maximum per player`)
    if (l.minCardsPerPurchase < outer.minCardsPerPurchase)
      problems.push(`${name}: the minimum is below the ${outerName}'s ${outer.minCardsPerPurchase}`)
    if (l.maxCardsPerPurchase > outer.maxCardsPerPurchase)
      problems.push(`${name}: the maximum per purchase is above the ${outerName}'s ${outer.maxCardsPerPurchase}`)
    if (l.maxCardsPerPlayer > outer.maxCardsPerPlayer)
      problems.push(`${name}: the maximum per player is above the ${outerName}'s ${outer.maxCardsPerPlayer}`)
  }
  within('game', limits, hall, 'hall')
  const channels: Partial<Record<SaleChannel, BetLimits>> = {}
  for (const [name, l] of Object.entries(limits.channels ?? {})) {
    if (!(SALE_CHANNELS as readonly string[]).includes(name) || !l) {
      problems.push(`unknown channel ${name}`)
      continue
    }
    within(name, l, limits, 'game')
    channels[name as SaleChannel] = {
      minCardsPerPurchase: l.minCardsPerPurchase,
      maxCardsPerPurchase: l.maxCardsPerPurchase,
      maxCardsPerPlayer: l.maxCardsPerPlayer,
    }
  }
  if (problems.length)
    throw new DomainError('VALIDATION_FAILED', `invalid game limits: ${problems.join('; ')}`, {
      problems,
      rule: 'CFG-7',
    })
  return {
    authorisationRef: ref,
    minCardsPerPurchase: limits.minCardsPerPurchase,
    maxCardsPerPurchase: limits.maxCardsPerPurchase,
    maxCardsPerPlayer: limits.maxCardsPerPlayer,
    channels,
  }
}

/** The limits one purchase is held to: the channel's where the game sets them, else the game's; null: the hall's only. */
export function gameLimitsFor(limits: GameSaleLimits | null, channel: SaleChannel): BetLimits | null {
  if (!limits) return null
  return limits.channels[channel] ?? limits
}
