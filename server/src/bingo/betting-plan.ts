/**
 * A hall's Plan de Apuestas and licence options (BNG-52, BNG-56, BNG-21, CFG-17, CFG-24, CFG-25). Pure.
 *
 * Bolivia (002 §6.1.8.3): from the total collected, the percentages for prizes, progressive-pot increments and
 * the hall's commission are applied "with prior AJ authorisation"; they form part of the operator's Plan de
 * Apuestas and the text fixes no values. So a Bolivian hall has no shares until its plan is recorded with the
 * AJ's reference, and no game is announced before. Cantabria (004 Bingo V.1, V.2.a): 67 % = line 10 % + bingo
 * 51 % + prima 6 %, changed only by a Consejería resolution (whose reference the new version carries).
 * Every version must keep prizes, pots and commission within 100 % of the total collected.
 */
import { DomainError } from '../shared/errors.ts'
import type { PrizeShares, Profile } from '../shared/profile.ts'
import { checkFastBingoTerms, type FastBingoTerms } from './modalities.ts'

const BP_MAX = 10_000

export interface BettingPlan {
  /** Reference of the authority's approval: AJ resolution (BO) or Consejería resolution (ES). */
  authorisationRef: string
  shares: PrizeShares
  /** BNG-52 / BNG-55: progressive-pot increments, basis points of the total collected. */
  potsBp: number
  /** CFG-25: the hall's commission, basis points of the total collected. */
  commissionBp: number
}

/** Licence options the decree leaves to the licence (CFG-17). */
export interface LicenceTerms {
  /** Reference of the resolution granting the hall's operating licence. */
  authorisationRef: string
  /** BNG-21: a game needs 10 cards, or 10 % of the hall's playing positions, as the licence says. */
  minimumBasis: 'cards' | 'positions'
  /** Playing positions the licence provides for the hall (the base of the 10 %). */
  playingPositions: number
  /** BNG-98 / CFG-32 (002 §6.1.9): the terms of the hall's bingo rápido, where its licence sets them. */
  fastBingo?: FastBingoTerms
  /**
   * CFG-21: the licence allows the system to claim for the players the combinations their cards form. 002 §6.1.5:
   * players who form a line or a bingo "deberán cantarlo en voz alta"; the catalogue's CFG-21: off unless the licence
   * allows it, never in Cantabria (004 Bingo III, BNG-48). Absent: not allowed.
   */
  autoClaims?: boolean
}

function refOf(ref: string, problems: string[]): string {
  const r = ref.trim()
  if (r.length < 3 || r.length > 120) problems.push('the authorisation reference has 3 to 120 characters')
  return r
}

function bpOk(name: string, v: number, problems: string[]) {
  if (!Number.isInteger(v) || v < 0 || v > BP_MAX) problems.push(`${name} must be 0..10000 basis points`)
}

/**
 * Checks a new Plan de Apuestas version against the hall's profile. Returns it normalised, or throws
 * PRIZE_SHARES_INVALID with every problem found (BNG-52: within 100 %; BNG-56 / BNG-58 structure).
 */
export function checkBettingPlan(profile: Profile, plan: BettingPlan): BettingPlan {
  const problems: string[] = []
  const authorisationRef = refOf(plan.authorisationRef, problems)
  const { poolBp, lineBp, bingoBp, primaBp } = plan.shares
  for (const [k, v] of Object.entries({
    poolBp,
    lineBp,
    bingoBp,
    primaBp,
    potsBp: plan.potsBp,
    commissionBp: plan.commissionBp,
  }))
    bpOk(k, v, problems)
  if (problems.length === 0) {
    // The pool is every prize of the game: line, bingo and the prima's deduction (67 = 10 + 51 + 6 in Cantabria).
    // Issue 26 (BNG-52): exactly, so that no part of the approved prize percentage is left to no prize.
    if (lineBp + bingoBp + primaBp !== poolBp)
      problems.push(
        `line ${lineBp} + bingo ${bingoBp} + prima ${primaBp} = ${lineBp + bingoBp + primaBp} is not the prize pool ${poolBp}`,
      )
    if (bingoBp === 0) problems.push('the bingo prize cannot be 0')
    if (primaBp > 0 && !profile.prima.enabled)
      problems.push('this profile has no prima de bingo (BNG-57): prima must be 0')
    const total = poolBp + plan.potsBp + plan.commissionBp
    if (total > BP_MAX)
      problems.push(
        `prizes ${poolBp} + pots ${plan.potsBp} + commission ${plan.commissionBp} = ${total} basis points, over 100 %`,
      )
  }
  if (problems.length)
    throw new DomainError('PRIZE_SHARES_INVALID', `invalid Plan de Apuestas: ${problems.join('; ')} (BNG-52)`, {
      problems,
      rule: 'BNG-52',
    })
  return {
    authorisationRef,
    shares: { poolBp, lineBp, bingoBp, primaBp },
    potsBp: plan.potsBp,
    commissionBp: plan.commissionBp,
  }
}

/**
 * BNG-52 / CFG-24 / CFG-28 (002 §6.1.8.3: the percentages for prizes, progressive-pot increments and commission are
 * the AJ-approved Plan de Apuestas'): `potsBp`, the sum of the contributions of every active pot a hall funds, stays
 * within the plan's approved pot increments, and prizes + pots + commission within 100 % of the total collected.
 * Where the profile fixes the shares itself (Cantabria), no plan is needed, and only the 100 % holds. `profile` is the
 * jurisdiction's, not the hall's (hallProfile); throws PRIZE_SHARES_INVALID or BETTING_PLAN_REQUIRED.
 */
export function checkPotsWithinPlan(profile: Profile, settings: HallRuleSettings, potsBp: number): void {
  const plan = settings.bettingPlan
  if (!plan && profile.shares === null)
    throw new DomainError(
      'BETTING_PLAN_REQUIRED',
      'a pot takes a share of the takings only under the Plan de Apuestas the AJ approved (BNG-52)',
      { rule: 'BNG-52' },
    )
  const shares = effectiveShares(profile, settings)
  const problems: string[] = []
  if (plan && potsBp > plan.potsBp)
    problems.push(`the pots take ${potsBp} basis points, the Plan de Apuestas approves ${plan.potsBp}`)
  const total = (shares?.poolBp ?? 0) + potsBp + (plan?.commissionBp ?? 0)
  if (total > BP_MAX)
    problems.push(
      `prizes ${shares?.poolBp ?? 0} + pots ${potsBp} + commission ${plan?.commissionBp ?? 0} = ${total} basis points, over 100 %`,
    )
  if (problems.length)
    throw new DomainError('PRIZE_SHARES_INVALID', `${problems.join('; ')} (BNG-52)`, {
      problems,
      potsBp,
      approvedPotsBp: plan?.potsBp ?? null,
      rule: 'BNG-52',
    })
}

/**
 * Checks the licence options (BNG-21, CFG-17, CFG-21). A profile without a minimum (Cantabria) has none to choose: its
 * hall records only the reference of its authorisation (GEN-3) and its positions, under the minimum by cards (none
 * binds). A licence allowing automatic claims is refused where the profile forbids them (CFG-21; 004 Bingo III).
 */
export function checkLicenceTerms(
  profile: Profile,
  terms: LicenceTerms,
): Required<Omit<LicenceTerms, 'fastBingo'>> & Pick<LicenceTerms, 'fastBingo'> {
  if (!profile.minimumParticipation && terms.minimumBasis !== 'cards')
    throw new DomainError('RULE_DISABLED', `profile ${profile.id} sets no minimum participation to choose (BNG-21)`, {
      rule: 'BNG-21',
    })
  if (terms.autoClaims === true && !profile.autoClaimAllowed)
    throw new DomainError(
      'RULE_DISABLED',
      `profile ${profile.id} never lets the system claim for the players, whatever the licence says (CFG-21, BNG-48)`,
      { rule: 'CFG-21', profileId: profile.id, licence: terms.authorisationRef.trim() },
    )
  const problems: string[] = []
  const authorisationRef = refOf(terms.authorisationRef, problems)
  if (terms.minimumBasis !== 'cards' && terms.minimumBasis !== 'positions')
    problems.push('minimumBasis is cards or positions')
  if (!Number.isInteger(terms.playingPositions) || terms.playingPositions < 1 || terms.playingPositions > 100_000)
    problems.push('playingPositions must be 1..100000')
  if (terms.autoClaims !== undefined && typeof terms.autoClaims !== 'boolean')
    problems.push('autoClaims is true or false')
  if (problems.length)
    throw new DomainError('VALIDATION_FAILED', `invalid licence terms: ${problems.join('; ')}`, {
      problems,
      rule: 'CFG-17',
    })
  // BNG-98 / CFG-32: checked after the rest, so that a licence with no fast bingo keeps its answers as before.
  const fastBingo = terms.fastBingo ? checkFastBingoTerms(profile, terms.fastBingo) : undefined
  return {
    authorisationRef,
    minimumBasis: terms.minimumBasis,
    playingPositions: terms.playingPositions,
    ...(fastBingo ? { fastBingo } : {}),
    autoClaims: terms.autoClaims === true,
  }
}

/** What a hall's settings say about its rules (the copy of the plans in force; older halls carry only `shares`). */
export interface HallRuleSettings {
  shares?: Partial<PrizeShares>
  bettingPlan?: { version: number; authorisationRef: string; potsBp: number; commissionBp: number }
  /** `autoClaims`: CFG-21, the licence allows the system's claims (absent in licences recorded before: not allowed). */
  licence?: {
    version: number
    authorisationRef: string
    minimumBasis: 'cards' | 'positions'
    autoClaims?: boolean
    /** BNG-98 / CFG-32: the licence's fast bingo terms, if it sets them. */
    fastBingo?: FastBingoTerms
  }
  timeZone?: string
  /** BNG-40 / GEN-18 / CFG-16 / BNG-10: the sale rules in force (sale-rules.ts), a copy of their newest version. */
  saleRules?: {
    version: number
    authorisationRef: string
    minCardsPerPurchase: number
    maxCardsPerPurchase: number
    maxCardsPerPlayer: number
    faceValuesCents: number[] | null
  }
  /** CFG-21: the hall's own choice of automatic claims, within what its licence allows; absent = on where allowed. */
  autoClaim?: boolean
  /**
   * BNG-22 (000 §6.1.4, BO-2013): the day (the hall's calendar day, YYYY-MM-DD) whose start the hall posted that games
   * may start with fewer cards than the minimum, with the notice's words.
   */
  reducedMinimum?: { day: string; notice: string; postedAt: string }
  /** CFG-20: the hall's calling times in force (calling-times.ts), a copy of their newest version; absent: no minimum. */
  callingTimes?: {
    version: number
    authorisationRef: string | null
    minBallIntervalSeconds: number
    claimWindowSeconds: number
    suspensionMinutes: number
  }
}

/**
 * The shares a hall plays with: its own complete set, or its own over the profile's defaults, or none (a
 * Bolivian hall with no Plan de Apuestas yet: BNG-52).
 */
export function effectiveShares(profile: Profile, settings: HallRuleSettings): PrizeShares | null {
  const own = settings.shares ?? {}
  const complete =
    own.poolBp !== undefined && own.lineBp !== undefined && own.bingoBp !== undefined && own.primaBp !== undefined
  if (complete) return { poolBp: own.poolBp!, lineBp: own.lineBp!, bingoBp: own.bingoBp!, primaBp: own.primaBp! }
  if (!profile.shares) return null
  return { ...profile.shares, ...own }
}

/** The hall's minimum participation rule: the profile's, with the basis its licence chose (CFG-17). */
export function effectiveMinimum(profile: Profile, settings: HallRuleSettings): Profile['minimumParticipation'] {
  const base = profile.minimumParticipation
  if (!base) return null
  return settings.licence ? { ...base, basis: settings.licence.minimumBasis } : base
}

/**
 * The profile as a hall plays it: the shares of its Plan de Apuestas (BNG-52; none for a Bolivian hall without
 * one) and the minimum-participation basis its licence chose (CFG-17).
 */
export function hallProfile(profile: Profile, settingsJson: string): Profile {
  const settings = JSON.parse(settingsJson || '{}') as HallRuleSettings
  const sale = settings.saleRules
  return {
    ...profile,
    shares: effectiveShares(profile, settings),
    minimumParticipation: effectiveMinimum(profile, settings),
    // BNG-40 / GEN-18 / CFG-16: the limits of the hall's sale rules over the profile's defaults.
    betLimits: sale
      ? {
          minCardsPerPurchase: sale.minCardsPerPurchase,
          maxCardsPerPurchase: sale.maxCardsPerPurchase,
          maxCardsPerPlayer: sale.maxCardsPerPlayer,
        }
      : profile.betLimits,
    // BNG-10: the hall's list of authorised face values, when its sale rules give one.
    faceValuesCents: sale?.faceValuesCents ?? profile.faceValuesCents,
    autoClaimSoldCards: autoClaimsOf(profile, settings),
    // BNG-101 / CFG-33: virtual cards by the electronic-bingo rules, not the licence's say on paper cards (system-claims.ts);
    // the hall's own switch, off, stops the system's claims for every card it sold.
    electronicBingo: effectiveElectronicBingo(profile, settingsJson),
  }
}

/**
 * BNG-101 / CFG-33: the electronic-bingo rules as a hall plays them: the profile's, with the system's claims for
 * virtual cards off where the hall's own switch (its `autoClaim` setting) is off. `settingsJson`: the hall's settings.
 */
export function effectiveElectronicBingo(profile: Profile, settingsJson: string): Profile['electronicBingo'] {
  const settings = JSON.parse(settingsJson || '{}') as HallRuleSettings
  return { ...profile.electronicBingo, autoClaim: profile.electronicBingo.autoClaim && settings.autoClaim !== false }
}

/**
 * CFG-21: whether the system claims for the players the combinations their paper cards form. 002 §6.1.5: the players
 * "deberán cantarlo en voz alta"; the catalogue's CFG-21: off unless the licence allows it, and never in Cantabria
 * (004 Bingo III, BNG-48). So: the profile allows them (`autoClaimAllowed`), the hall's recorded licence allows them
 * (`autoClaims`), and the hall has not switched them off (its own `autoClaim`, on by default where both allow).
 * Virtual cards at terminals follow the electronic-bingo rules instead (system-claims.ts). `profile`: the
 * jurisdiction's (getProfile), not a hall's.
 */
export function autoClaimsOf(profile: Profile, settings: HallRuleSettings): boolean {
  return profile.autoClaimAllowed && settings.licence?.autoClaims === true && settings.autoClaim !== false
}

/**
 * The demo hall's operating licence (GEN-1): labelled as a demo, never the AJ's reference (demo.ts). It allows the
 * system's claims (CFG-21), as a licence may: the demo plays a whole game unattended, with nobody in the hall to call
 * a line or a bingo (002 §6.1.5), so without them no game of the demo would ever end.
 */
export const DEMO_LICENCE: Omit<LicenceTerms, 'playingPositions'> = Object.freeze({
  authorisationRef: 'DEMO — sin Licencia de Operaciones de la AJ',
  minimumBasis: 'cards',
  autoClaims: true,
}) as Omit<LicenceTerms, 'playingPositions'>

/** The demo's Plan de Apuestas: labelled as such, never an authority's reference (demo.ts, cli demo-game). */
export const DEMO_BETTING_PLAN: BettingPlan = Object.freeze({
  authorisationRef: 'DEMO — sin resolución de la AJ',
  shares: Object.freeze({ poolBp: 6100, lineBp: 1000, bingoBp: 5100, primaBp: 0 }),
  potsBp: 0,
  commissionBp: 0,
}) as BettingPlan
