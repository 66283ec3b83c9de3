/**
 * Halls, master card sets, series and sessions: what must exist before a game is announced. Each use case is
 * one transaction with its journal records.
 */
import { checkFigurePlan, type FigurePlan } from './patterns.ts'
import { assertHallPotsWithinPlan } from './pots-plan.ts'
import { cardKey, cardRows, generateMasterSet, type CardLayout } from './card.ts'
import { isoInZone } from '../shared/time-zone.ts'
import { assertHoldsHall } from '../access/acting-hall.ts'
import { DomainError } from '../shared/errors.ts'
import { getProfile, minimumCardsToStart, type PrizeShares, type Profile } from '../shared/profile.ts'
import { appendJournal } from '../shared/journal.ts'
import { emit, hallOf, hallTimeZone, loadSession, sessionScope, type BingoContext, type Tx } from './context.ts'
import {
  autoClaimsOf,
  checkBettingPlan,
  checkLicenceTerms,
  hallProfile,
  type BettingPlan,
  type HallRuleSettings,
  type LicenceTerms,
} from './betting-plan.ts'
import { checkDerivedPlan, hallBallCounts, isLayoutAuthorised, type DerivedPlan } from './modalities.ts'
import { assertFaceValueAuthorised, checkSaleRules, type PostedBets, type SaleRules } from './sale-rules.ts'
import { doorOf } from './purchases.ts'
import { checkCallingTimes, type CallingTimes } from './calling-times.ts'
import { isTimeZone } from '../shared/time-zone.ts'
import {
  type Session,
  openSessionIdOfHall,
  insertSession,
  sessionById,
  markLastGameAnnounced,
  unfinishedGameOfSession,
  markSessionClosed,
} from './store/games.ts'
import {
  type Hall,
  type HallSeriesSummary,
  type HallSummary,
  insertHall,
  hallById,
  latestHallPlanVersion,
  insertHallPlan,
  setHallSettings,
  setHallPlayingPositions,
  hallPlans,
  updateHallSettings,
  hallSummaries,
  hallSummary,
  latestOpenSessionIdOfHall,
  latestGameIdOfHall,
  seriesSummariesOfHall,
  hallExists as hallRowExists,
} from './store/halls.ts'
import {
  type Series,
  insertMasterSet,
  insertMasterCards,
  masterSetCardCount,
  masterSetLayout,
  insertSeries,
  seriesById,
} from './store/series.ts'

/** BNG-27: the balls counted, the witness who confirmed (`confirmedBy`) and, with authentication on, who counted. */
type Recount = { ballsCounted: number; confirmedBy: string; countedBy?: string; confirmedByRole?: string }

/**
 * BNG-27 (002 §6.1.5): in Bolivia the recount is made in the presence of the Director de Bingo, not of any jefe
 * (profile `ballSetChangeWitness: 'director'`). The witness's role comes from their credential (absent with
 * authentication off, where no one is identified). Returns the recount as recorded (without the role).
 */
function checkedRecount(profile: Profile, r: Recount): Omit<Recount, 'confirmedByRole'> {
  const { confirmedByRole, ...recount } = r
  if (profile.ballSetChangeWitness === 'director' && confirmedByRole !== undefined && confirmedByRole !== 'director')
    throw new DomainError('SECOND_PERSON_REQUIRED', 'the Director de Bingo witnesses the ball recount (BNG-27)', {
      field: 'secondPerson',
      permission: 'recount.witness.director',
      rule: 'BNG-27',
    })
  return recount
}

/**
 * BNG-41 (002 §6.1.5; 004 Bingo III "se comprobará el correcto funcionamiento de todo el material e instalaciones"):
 * the equipment checked before the session: the extractor (BNG-30), the CCTV camera on the ball exit and its
 * monitors (BNG-34), the information screens or panels (BNG-36/37) and the sound installation (BNG-38); the
 * automatic reader when the hall has one (BNG-31). Every item checked must work, or the session does not open.
 */
export interface EquipmentChecklist {
  extractor: boolean
  cctv: boolean
  displays: boolean
  sound: boolean
  reader?: boolean
  note?: string
}

function checkChecklist(c: EquipmentChecklist): EquipmentChecklist {
  const items = {
    extractor: c.extractor,
    cctv: c.cctv,
    displays: c.displays,
    sound: c.sound,
    ...(c.reader === undefined ? {} : { reader: c.reader }),
  }
  const failed = Object.entries(items)
    .filter(([, ok]) => ok !== true)
    .map(([k]) => k)
  if (failed.length)
    throw new DomainError(
      'EQUIPMENT_CHECK_FAILED',
      `the session does not open while ${failed.join(', ')} does not work (BNG-41)`,
      { failed, rule: 'BNG-41' },
    )
  const note = c.note?.trim().slice(0, 500)
  return { ...items, ...(note ? { note } : {}) }
}

/** Who did it, as the route proved it (http/context.ts actorOf); the server's own set-up (demo, CLI) names itself. */
export interface PlanActor {
  kind: string
  id: string
  name: string
  role: string
}
const SETUP_ACTOR: PlanActor = { kind: 'system', id: 'server', name: 'servidor', role: 'system' }

export async function createHall(
  ctx: BingoContext,
  input: {
    name: string
    profileId: string
    playingPositions: number
    shares?: Partial<PrizeShares>
    bettingPlan?: BettingPlan
    /** GEN-18 / BNG-40: the hall's bet limits with the authority's reference, recorded with the hall. */
    saleRules?: SaleRules
    /** GEN-1 / CFG-17: the hall's operating licence, recorded with the hall (its positions: `playingPositions`). */
    licence?: Omit<LicenceTerms, 'playingPositions'>
    id?: string
    timeZone?: string
    by?: PlanActor
  },
): Promise<Hall> {
  const profile = getProfile(input.profileId)
  if (!profile) throw new DomainError('VALIDATION_FAILED', `unknown profile ${input.profileId}`)
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) throw unknownZone(input.timeZone)
  const plan = input.bettingPlan ? checkBettingPlan(profile, input.bettingPlan) : null
  const saleRules = input.saleRules ? checkSaleRules(input.saleRules) : null
  const licence = input.licence
    ? checkLicenceTerms(profile, { ...input.licence, playingPositions: input.playingPositions })
    : null
  const id = input.id ?? ctx.newId('hall')
  return ctx.tx(async (tx) => {
    const at = ctx.now()
    const settings: HallRuleSettings = {
      shares: plan?.shares ?? input.shares ?? {},
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    }
    await insertHall(tx, {
      id,
      name: input.name,
      profileId: profile.id,
      currency: profile.currency,
      playingPositions: input.playingPositions,
      settings: JSON.stringify(settings),
      at,
    })
    await appendJournal(tx, {
      at,
      type: 'hall.created',
      scope: `hall:${id}`,
      payload: {
        hallId: id,
        name: input.name,
        profileId: profile.id,
        playingPositions: input.playingPositions,
        shares: settings.shares,
        by: input.by ?? SETUP_ACTOR,
      },
    })
    if (plan) await recordBettingPlan(ctx, tx, id, plan, input.by ?? SETUP_ACTOR)
    if (saleRules) await recordSaleRules(ctx, tx, id, saleRules, input.by ?? SETUP_ACTOR)
    if (licence) await recordLicenceTerms(ctx, tx, id, licence, input.by ?? SETUP_ACTOR)
    return (await hallById(tx, id))!
  })
}

// ---------------------------------------------------------------- plans (issue 18: BNG-52, CFG-17, CFG-24/25)

async function recordPlan(
  ctx: BingoContext,
  tx: Tx,
  hallId: string,
  kind: 'betting-plan' | 'licence' | 'derived' | 'sale-rules' | 'layout' | 'calling-times' | 'figures',
  authorisationRef: string | null,
  body: unknown,
  by: PlanActor,
): Promise<number> {
  const version = (await latestHallPlanVersion(tx, hallId, kind)) + 1
  const at = ctx.now()
  await insertHallPlan(tx, {
    id: ctx.newId('plan'),
    hallId,
    kind,
    version,
    authorisationRef,
    body: JSON.stringify(body),
    at,
    createdBy: JSON.stringify(by),
  })
  const open = await openSessionIdOfHall(tx, hallId)
  await appendJournal(tx, {
    at,
    type: 'hall.plan',
    scope: open ? `hall:${hallId}/session:${open}` : `hall:${hallId}`,
    payload: { hallId, kind, version, authorisationRef, plan: body, by },
  })
  return version
}

async function recordBettingPlan(
  ctx: BingoContext,
  tx: Tx,
  hallId: string,
  plan: BettingPlan,
  by: PlanActor,
): Promise<number> {
  const hall = (await hallById(tx, hallId))!
  const version = await recordPlan(ctx, tx, hallId, 'betting-plan', plan.authorisationRef, plan, by)
  const settings = JSON.parse(hall.settings) as HallRuleSettings
  await setHallSettings(
    tx,
    hallId,
    JSON.stringify({
      ...settings,
      shares: plan.shares,
      bettingPlan: {
        version,
        authorisationRef: plan.authorisationRef,
        potsBp: plan.potsBp,
        commissionBp: plan.commissionBp,
      },
    } satisfies HallRuleSettings),
  )
  return version
}

/**
 * BNG-52 / CFG-24 / CFG-25: records a new version of the hall's Plan de Apuestas (prize shares, pot increments,
 * commission, with the authority's reference). It applies from the next game announced: a game keeps the shares
 * it was announced with.
 */
export async function setBettingPlan(
  ctx: BingoContext,
  input: { hallId: string; plan: BettingPlan; by: PlanActor },
): Promise<HallRules> {
  await ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    const profile = getProfile(hall.profileId)!
    const plan = checkBettingPlan(profile, input.plan)
    // BNG-52 / CFG-28: the pots the hall already funds fit in the new version.
    const settings = JSON.parse(hall.settings) as HallRuleSettings
    await assertHallPotsWithinPlan(tx, hall.id, {
      settings: {
        ...settings,
        shares: plan.shares,
        bettingPlan: {
          version: 0,
          authorisationRef: plan.authorisationRef,
          potsBp: plan.potsBp,
          commissionBp: plan.commissionBp,
        },
      },
    })
    await recordBettingPlan(ctx, tx, hall.id, plan, input.by)
  })
  return hallRules(ctx, input.hallId)
}

/** CFG-17 / BNG-21: the licence's options (minimum by cards or by 10 % of the positions it provides). */
export async function setLicenceTerms(
  ctx: BingoContext,
  input: { hallId: string; terms: LicenceTerms; by: PlanActor },
): Promise<HallRules> {
  await ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    const terms = checkLicenceTerms(getProfile(hall.profileId)!, input.terms)
    await recordLicenceTerms(ctx, tx, hall.id, terms, input.by)
  })
  return hallRules(ctx, input.hallId)
}

/** Records checked licence terms as the hall's newest licence version and its copy in the hall's settings. */
async function recordLicenceTerms(
  ctx: BingoContext,
  tx: Tx,
  hallId: string,
  terms: LicenceTerms,
  by: PlanActor,
): Promise<void> {
  const hall = (await hallById(tx, hallId))!
  const version = await recordPlan(ctx, tx, hallId, 'licence', terms.authorisationRef, terms, by)
  const settings = JSON.parse(hall.settings) as HallRuleSettings
  await setHallSettings(
    tx,
    hallId,
    JSON.stringify({
      ...settings,
      licence: {
        version,
        authorisationRef: terms.authorisationRef,
        minimumBasis: terms.minimumBasis,
        ...(terms.fastBingo ? { fastBingo: terms.fastBingo } : {}),
        autoClaims: terms.autoClaims === true,
      },
    } satisfies HallRuleSettings),
  )
  await setHallPlayingPositions(tx, hallId, terms.playingPositions)
}

/** BNG-102 / CFG-34: a derived bingo version for the hall, checked against decree 004 and the Consejería minimum. */
export async function setDerivedPlan(
  ctx: BingoContext,
  input: { hallId: string; plan: DerivedPlan; by: PlanActor },
): Promise<HallRules> {
  await ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    const plan = checkDerivedPlan(getProfile(hall.profileId)!, input.plan)
    await recordPlan(ctx, tx, hall.id, 'derived', plan.authorisationRef, plan, input.by)
  })
  return hallRules(ctx, input.hallId)
}

/**
 * CFG-13 / BNG-103 / CFG-35: the prize figures the hall's games may play, with the reference of the approval the
 * profile names (profile.figurePrizes.authority). Each game chooses among them when it is announced.
 */
export async function setFigurePlan(
  ctx: BingoContext,
  input: { hallId: string; plan: FigurePlan; by: PlanActor },
): Promise<HallRules> {
  await ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    assertHoldsHall(hall.id, 'hall') // issue 23 point 3: only a person of this hall sets its figures
    const plan = checkFigurePlan(getProfile(hall.profileId)!, input.plan)
    await recordPlan(ctx, tx, hall.id, 'figures', plan.authorisationRef, plan, input.by)
  })
  return hallRules(ctx, input.hallId)
}

/**
 * BNG-40 / GEN-18 / CFG-16 / BNG-10: records a new version of the hall's sale rules (minimum and maximum cards per
 * purchase, maximum per player and game, authorised face values) with the authority's reference. Limits apply to
 * the next purchase; a face-value list applies to series created from now on.
 */
export async function setSaleRules(
  ctx: BingoContext,
  input: { hallId: string; rules: SaleRules; by: PlanActor },
): Promise<HallRules> {
  const rules = checkSaleRules(input.rules)
  await ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    await recordSaleRules(ctx, tx, hall.id, rules, input.by)
  })
  return hallRules(ctx, input.hallId)
}

/** A checked version of the hall's sale rules: its plan record and the copy in the hall's settings. */
async function recordSaleRules(ctx: BingoContext, tx: Tx, hallId: string, rules: SaleRules, by: PlanActor) {
  const version = await recordPlan(ctx, tx, hallId, 'sale-rules', rules.authorisationRef, rules, by)
  const hall = (await hallById(tx, hallId))!
  const settings = JSON.parse(hall.settings) as HallRuleSettings
  await setHallSettings(
    tx,
    hallId,
    JSON.stringify({ ...settings, saleRules: { version, ...rules } } satisfies HallRuleSettings),
  )
}

/**
 * CFG-20 / CFG-46: records a new version of the hall's calling times (least seconds between balls, least seconds of
 * the "¿alguna línea/bingo más?" window, least minutes of a suspension before its refund). The texts leave the values
 * open (profile.ts `callingTimes`); where the profile names the authority that approves them, only with its reference.
 * Apply from the next ball, window or refund.
 */
export async function setCallingTimes(
  ctx: BingoContext,
  input: { hallId: string; times: CallingTimes; by: PlanActor },
): Promise<HallRules> {
  await ctx.tx(async (tx) => {
    const { hall, profile } = await hallOf(tx, input.hallId)
    const times = checkCallingTimes(profile, input.times)
    const version = await recordPlan(ctx, tx, hall.id, 'calling-times', times.authorisationRef, times, input.by)
    const settings = JSON.parse(hall.settings) as HallRuleSettings
    await setHallSettings(
      tx,
      hall.id,
      JSON.stringify({ ...settings, callingTimes: { version, ...times } } satisfies HallRuleSettings),
    )
  })
  return hallRules(ctx, input.hallId)
}

/**
 * CFG-21: the hall's own choice of automatic claims (null: back to the default, on where its licence allows them).
 * Switching them on is refused where the profile forbids them (Cantabria, 004 Bingo III: the player calls, staff may
 * not learn of a winner first), and where the hall's recorded operating licence does not allow them (002 §6.1.5: the
 * players "deberán cantarlo"; the catalogue's CFG-21: off unless the licence allows it). Applies from the next ball.
 */
export async function setAutoClaim(
  ctx: BingoContext,
  input: { hallId: string; autoClaim: boolean | null; by: PlanActor },
): Promise<HallRules> {
  await ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    // The jurisdiction's profile, not the hall's (hallOf's), whose autoClaimSoldCards is already this hall's.
    const profile = getProfile(hall.profileId)!
    const settings = JSON.parse(hall.settings) as HallRuleSettings
    if (input.autoClaim === true && !profile.autoClaimAllowed) {
      throw new DomainError(
        'RULE_DISABLED',
        `profile ${profile.id} does not allow the system to claim for the players (CFG-21)`,
        { rule: 'CFG-21', profileId: profile.id },
      )
    }
    if (input.autoClaim === true && settings.licence?.autoClaims !== true) {
      const licence = settings.licence?.authorisationRef ?? null
      throw new DomainError(
        'RULE_DISABLED',
        licence
          ? `the hall's operating licence ${licence} does not allow the system to claim for the players: they call their own combinations (CFG-21, 002 §6.1.5)`
          : `the hall has no operating licence on record allowing the system to claim for the players (CFG-21, 002 §6.1.5)`,
        { rule: 'CFG-21', licence },
      )
    }
    if (input.autoClaim === null) delete settings.autoClaim
    else settings.autoClaim = input.autoClaim
    await setHallSettings(tx, hall.id, JSON.stringify(settings))
    const effective = autoClaimsOf(profile, settings)
    const open = await openSessionIdOfHall(tx, hall.id)
    await appendJournal(tx, {
      at: ctx.now(),
      type: 'hall.auto_claim',
      scope: open ? `hall:${hall.id}/session:${open}` : `hall:${hall.id}`,
      payload: { hallId: hall.id, own: input.autoClaim, autoClaim: effective, by: input.by, rule: 'CFG-21' },
    })
  })
  return hallRules(ctx, input.hallId)
}

/** What the hall posts (BNG-40): its limits and face values as it plays them, with their authorisation. */
export function postedBets(profile: Profile, settings: HallRuleSettings): PostedBets {
  const own = hallProfile(profile, JSON.stringify(settings))
  return {
    ...own.betLimits,
    faceValuesCents: own.faceValuesCents,
    authorisationRef: settings.saleRules?.authorisationRef ?? null,
  }
}

export interface HallRules {
  hallId: string
  profileId: string
  timeZone: string
  /** null: a Bolivian hall without a Plan de Apuestas (no game can be announced, BNG-52). */
  shares: PrizeShares | null
  bettingPlan: HallRuleSettings['bettingPlan'] | null
  minimumParticipation: Profile['minimumParticipation']
  minimumCardsToStart: number
  playingPositions: number
  licence: HallRuleSettings['licence'] | null
  /** BNG-40 / GEN-18 / CFG-16 / BNG-10: the bets and face values the hall posts. */
  bets: PostedBets
  /** CFG-21: claims made by the system for the cards it sold, as the hall plays now. */
  autoClaim: boolean
  /** GEN-25: the hall sells only to players who give their identity document (PUT .../identified-sales). */
  identifiedSales: boolean
  /** CFG-20: the hall's calling times in force (null: none recorded, no minimum), and who must approve them. */
  callingTimes: HallRuleSettings['callingTimes'] | null
  callingTimesAuthority: Profile['callingTimes']
  plans: Array<{
    kind: string
    version: number
    authorisationRef: string | null
    plan: unknown
    createdAt: string
    createdBy: PlanActor
  }>
}

/** The rules a hall plays under now, and every version of its plans. */
export async function hallRules(ctx: BingoContext, hallId: string): Promise<HallRules> {
  const { hall, profile } = await hallOf(ctx.db, hallId)
  const settings = JSON.parse(hall.settings) as HallRuleSettings
  const plans = await hallPlans(ctx.db, hall.id)
  return {
    hallId: hall.id,
    profileId: profile.id,
    timeZone: hallTimeZone(hall, profile),
    shares: profile.shares,
    bettingPlan: settings.bettingPlan ?? null,
    minimumParticipation: profile.minimumParticipation,
    minimumCardsToStart: minimumCardsToStart(profile, hall.playingPositions),
    playingPositions: hall.playingPositions,
    licence: settings.licence ?? null,
    bets: postedBets(getProfile(hall.profileId)!, settings),
    // CFG-21: as the hall plays (profile, licence and the hall's own switch), not the jurisdiction's default.
    autoClaim: autoClaimsOf(getProfile(hall.profileId)!, settings),
    identifiedSales: (settings as { identifiedSales?: unknown }).identifiedSales === true,
    callingTimes: settings.callingTimes ?? null,
    callingTimesAuthority: profile.callingTimes,
    plans: plans.map((p) => ({
      kind: p.kind,
      version: Number(p.version),
      authorisationRef: p.authorisation_ref,
      plan: JSON.parse(p.body),
      createdAt: p.created_at,
      createdBy: JSON.parse(p.created_by),
    })),
  }
}

/** Generates a master card set once from a recorded seed and stores it (BNG-13). */
export async function createMasterSet(
  ctx: BingoContext,
  input: { count: number; seed?: string; layout?: CardLayout },
): Promise<{ id: string; seed: string; count: number }> {
  const seed = input.seed ?? Buffer.from(ctx.deps.entropy.randomBytes(16)).toString('hex')
  const layout = input.layout ?? getProfile('BO-2025')!.layout
  const cards = generateMasterSet(seed, input.count, layout)
  const id = ctx.newId('set')
  await ctx.tx(async (tx) => {
    const at = ctx.now()
    await insertMasterSet(tx, { id, seed, cardCount: input.count, layout: JSON.stringify(layout), at })
    await insertMasterCards(
      tx,
      id,
      cards.map((card, i) => ({ cardNo: i + 1, numbers: JSON.stringify(cardRows(card)), cardKey: cardKey(card) })),
    )
    await appendJournal(tx, {
      at,
      type: 'master_set.created',
      scope: '',
      payload: { masterSetId: id, seed, count: input.count, layout },
    })
  })
  return { id, seed, count: input.count }
}

/**
 * A series of a hall printed from a master set. BNG-3 / BNG-4: a master set of another layout than the profile's
 * (75 balls, bingo plus...) is put on sale in a hall only under the reference that authorises that layout there
 * (`layoutAuthorisationRef`: the licence in Bolivia, the Consejería's resolution in Cantabria), recorded once as the
 * hall's `layout` plan; later series of the same layout need none.
 */
export async function createSeries(
  ctx: BingoContext,
  input: {
    hallId: string
    code: string
    masterSetId: string
    faceValueCents: number
    layoutAuthorisationRef?: string
    by?: PlanActor
  },
): Promise<Series> {
  if (!/^[A-Z0-9]{1,8}$/.test(input.code))
    throw new DomainError('VALIDATION_FAILED', 'series code must be 1-8 capital letters or digits', { field: 'code' })
  if (!Number.isSafeInteger(input.faceValueCents) || input.faceValueCents <= 0)
    throw new DomainError('VALIDATION_FAILED', 'face value must be a positive amount of minor units', {
      field: 'faceValueCents',
    })
  return ctx.tx(async (tx) => {
    const { hall, profile } = await hallOf(tx, input.hallId)
    // BNG-10 / CFG-15: only a face value the authority set for the hall.
    assertFaceValueAuthorised(profile, input.faceValueCents)
    const cardCount = await masterSetCardCount(tx, input.masterSetId)
    if (cardCount === undefined) throw new DomainError('NOT_FOUND', `master set ${input.masterSetId} not found`)
    const stored = await masterSetLayout(tx, input.masterSetId)
    const layout: CardLayout = stored !== undefined ? JSON.parse(stored) : profile.layout
    if (!isLayoutAuthorised(profile, layout, await hallPlans(tx, hall.id))) {
      const ref = input.layoutAuthorisationRef?.trim() ?? ''
      if (ref.length < 3 || ref.length > 120) {
        throw new DomainError(
          'LAYOUT_NOT_AUTHORISED',
          `hall ${hall.id} plays ${profile.layout.ballCount}-ball cards; a ${layout.ballCount}-ball layout needs the reference of its licence or authorisation (BNG-3, BNG-4)`,
          { field: 'layoutAuthorisationRef', ballCount: layout.ballCount, rule: 'BNG-3' },
        )
      }
      await recordPlan(
        ctx,
        tx,
        hall.id,
        'layout',
        ref,
        { layout, masterSetId: input.masterSetId },
        input.by ?? SETUP_ACTOR,
      )
    }
    const id = ctx.newId('ser')
    const at = ctx.now()
    await insertSeries(tx, {
      id,
      hallId: input.hallId,
      code: input.code,
      masterSetId: input.masterSetId,
      cardCount,
      faceValueCents: input.faceValueCents,
      at,
    })
    await appendJournal(tx, {
      at,
      type: 'series.created',
      scope: `hall:${input.hallId}`,
      payload: {
        seriesId: id,
        code: input.code,
        masterSetId: input.masterSetId,
        cardCount,
        faceValueCents: input.faceValueCents,
      },
    })
    return (await seriesById(tx, id))!
  })
}

// ---------------------------------------------------------------- sessions

export async function openSession(
  ctx: BingoContext,
  input: { hallId: string; recount: Recount; checklist?: EquipmentChecklist },
): Promise<Session> {
  const checklist = input.checklist ? checkChecklist(input.checklist) : null
  return ctx.tx(async (tx) => {
    const { hall, profile } = await hallOf(tx, input.hallId)
    input = { ...input, recount: checkedRecount(profile, input.recount) }
    const open = await openSessionIdOfHall(tx, hall.id)
    if (open) throw new DomainError('CONFLICT', `hall ${hall.id} already has open session ${open}`, { sessionId: open })
    // BNG-27 / BNG-41: the ball count is verified before the session: a set of the profile's layout or of one
    // authorised for the hall (BNG-3/4; the active set's own count is checked by the equipment hook).
    const counts = hallBallCounts(profile, await hallPlans(tx, hall.id))
    if (!counts.includes(input.recount.ballsCounted)) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `ball recount found ${input.recount.ballsCounted} balls, the hall's sets have ${counts.join(' or ')} (BNG-27)`,
        { rule: 'BNG-27' },
      )
    }
    const id = ctx.newId('ses')
    const at = ctx.now()
    await insertSession(tx, { id, hallId: hall.id, at, openRecount: JSON.stringify(input.recount) })
    const rec = await appendJournal(tx, {
      at,
      type: 'session.opened',
      scope: `hall:${hall.id}/session:${id}`,
      payload: {
        sessionId: id,
        hallId: hall.id,
        hallName: hall.name,
        profileId: profile.id,
        recount: input.recount,
        ...(checklist
          ? {
              equipmentCheck: {
                ...checklist,
                checkedBy: input.recount.countedBy ?? input.recount.confirmedBy,
                witnessedBy: input.recount.confirmedBy,
                rule: 'BNG-41',
              },
            }
          : {}),
      },
    })
    for (const h of ctx.deps.hooks ?? [])
      await h.sessionOpened?.(tx, {
        sessionId: id,
        hallId: hall.id,
        profile,
        recount: input.recount,
        at,
        scope: `hall:${hall.id}/session:${id}`,
      })
    emit(tx, { type: 'session:changed', sessionId: id, hallId: hall.id, seq: rec.seq, reason: 'opened' })
    return (await sessionById(tx, id))!
  })
}

export async function announceLastGame(ctx: BingoContext, sessionId: string): Promise<void> {
  await ctx.tx(async (tx) => {
    const s = await loadSession(tx, sessionId)
    if (s.status !== 'open') throw new DomainError('ILLEGAL_TRANSITION', `session ${sessionId} is ${s.status}`)
    await markLastGameAnnounced(tx, sessionId)
    // BNG-43: the next game announced is the last one; no game may follow it.
    const rec = await appendJournal(tx, {
      at: ctx.now(),
      type: 'session.last_game',
      scope: sessionScope(s),
      payload: { sessionId },
    })
    emit(tx, { type: 'session:changed', sessionId, hallId: s.hallId, seq: rec.seq, reason: 'last_game' })
  })
}

export async function closeSession(ctx: BingoContext, sessionId: string, recount: Recount | null): Promise<void> {
  await ctx.tx(async (tx) => {
    const s = await loadSession(tx, sessionId)
    if (s.status === 'closed') throw new DomainError('ILLEGAL_TRANSITION', `session ${sessionId} is already closed`)
    const { profile } = await hallOf(tx, s.hallId)
    if (recount) recount = checkedRecount(profile, recount)
    const running = await unfinishedGameOfSession(tx, sessionId)
    if (running)
      throw new DomainError('ILLEGAL_TRANSITION', `game ${running.id} is still ${running.status}`, {
        gameId: running.id,
      })
    // BNG-27 (Cantabria): recount at the end of the session as well.
    if (profile.ballRecount === 'start-and-end') {
      if (!recount)
        throw new DomainError(
          'VALIDATION_FAILED',
          'this profile requires a ball recount to close the session (BNG-27)',
          { rule: 'BNG-27' },
        )
      const counts = hallBallCounts(profile, await hallPlans(tx, s.hallId))
      if (!counts.includes(recount.ballsCounted))
        throw new DomainError(
          'VALIDATION_FAILED',
          `ball recount found ${recount.ballsCounted} balls, the hall's sets have ${counts.join(' or ')} (BNG-27)`,
          { rule: 'BNG-27' },
        )
    }
    const at = ctx.now()
    for (const h of ctx.deps.hooks ?? [])
      await h.sessionClosing?.(tx, { sessionId, hallId: s.hallId, profile, recount, at, scope: sessionScope(s) })
    await markSessionClosed(tx, sessionId, at, recount ? JSON.stringify(recount) : null)
    const rec = await appendJournal(tx, {
      at,
      type: 'session.closed',
      scope: sessionScope(s),
      payload: { sessionId, recount },
    })
    emit(tx, { type: 'session:changed', sessionId, hallId: s.hallId, seq: rec.seq, reason: 'closed' })
  })
}

// ---------------------------------------------------------------- CCTV (BNG-34)

/**
 * BNG-34: the hall's CCTV camera on the ball exit point of the extractor (null: none registered). Every incident of
 * the hall's games names it unless staff name another (GEN-31). Journaled.
 */
export async function setHallCamera(
  ctx: BingoContext,
  input: { hallId: string; ballCameraId: string | null; by: unknown },
): Promise<{ hallId: string; ballCameraId: string | null }> {
  const cam = input.ballCameraId?.trim() || null
  if (cam && !/^[\p{L}\p{N} ._:/#-]{1,80}$/u.test(cam))
    throw new DomainError('VALIDATION_FAILED', 'ballCameraId has 1 to 80 letters, digits or . _ : / # -', {
      field: 'ballCameraId',
      rule: 'BNG-34',
    })
  return ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    const settings = JSON.parse(hall.settings || '{}') as Record<string, unknown>
    if (cam === null) delete settings.ballCameraId
    else settings.ballCameraId = cam
    await updateHallSettings(tx, hall.id, JSON.stringify(settings))
    await appendJournal(tx, {
      at: ctx.now(),
      type: 'hall.cctv_set',
      scope: `hall:${hall.id}`,
      payload: { hallId: hall.id, ballCameraId: cam, actor: input.by, rule: 'BNG-34' },
    })
    return { hallId: hall.id, ballCameraId: cam }
  })
}

// ---------------------------------------------------------------- time zone (issue 17)

function unknownZone(tz: string): DomainError {
  return new DomainError(
    'VALIDATION_FAILED',
    `unknown time zone "${tz}": use an IANA name such as America/La_Paz or Europe/Madrid`,
    { field: 'timeZone' },
  )
}

/** Sets (or, with null, clears back to the profile's) the zone of the hall's wall clock; journaled. */
export async function setHallTimeZone(
  ctx: BingoContext,
  input: { hallId: string; timeZone: string | null; by: unknown },
): Promise<{ hallId: string; timeZone: string }> {
  if (input.timeZone !== null && !isTimeZone(input.timeZone)) throw unknownZone(input.timeZone)
  return ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    const settings = JSON.parse(hall.settings || '{}') as Record<string, unknown>
    if (input.timeZone === null) delete settings.timeZone
    else settings.timeZone = input.timeZone
    const json = JSON.stringify(settings)
    await updateHallSettings(tx, hall.id, json)
    const timeZone = hallTimeZone({ ...hall, settings: json }, getProfile(hall.profileId)!)
    await appendJournal(tx, {
      at: ctx.now(),
      type: 'hall.time_zone_set',
      scope: `hall:${hall.id}`,
      payload: { hallId: hall.id, timeZone, own: input.timeZone, actor: input.by },
    })
    return { hallId: hall.id, timeZone }
  })
}

/**
 * LOT-28 (002 §7.2, "departamento, municipio o ciudad"): the hall's place in the territory, written from the widest
 * to the narrowest, e.g. "La Paz/Murillo/El Alto" (null clears it). A regional or territory-limited lottery is
 * distributed only to sellers of halls inside its territory (lottery/issue.ts). Journaled.
 */
export async function setHallTerritory(
  ctx: BingoContext,
  input: { hallId: string; territory: string | null; by: unknown },
): Promise<{ hallId: string; territory: string | null }> {
  const territory =
    input.territory === null
      ? null
      : input.territory
          .split('/')
          .map((p) => p.trim())
          .filter(Boolean)
          .join('/')
  if (territory !== null && (!territory || territory.length > 120))
    throw new DomainError(
      'VALIDATION_FAILED',
      'a territory is "Departamento/Municipio/Ciudad", 1 to 120 characters (LOT-28)',
      { field: 'territory', rule: 'LOT-28' },
    )
  return ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    const settings = JSON.parse(hall.settings || '{}') as Record<string, unknown>
    const before = typeof settings.territory === 'string' ? settings.territory : null
    if (territory === null) delete settings.territory
    else settings.territory = territory
    await updateHallSettings(tx, hall.id, JSON.stringify(settings))
    await appendJournal(tx, {
      at: ctx.now(),
      type: 'hall.territory_set',
      scope: `hall:${hall.id}`,
      payload: { hallId: hall.id, before, territory, actor: input.by, rule: 'LOT-28' },
    })
    return { hallId: hall.id, territory }
  })
}

/**
 * GEN-25 (design note of 002 §1.2.2.2): "sales channels (kiosk, cashier) must be able to require a verified player
 * session before selling". The hall's choice, kept in its settings: when on, every sale of the hall (counter, table,
 * kiosk, terminal) names the player's identity document, which the exclusion list is asked about (GEN-27), so no
 * one buys anonymously past it. Journaled with who set it.
 */
export async function setIdentifiedSales(
  ctx: BingoContext,
  input: { hallId: string; required: boolean; by: unknown },
): Promise<{ hallId: string; identifiedSales: boolean }> {
  return ctx.tx(async (tx) => {
    const { hall } = await hallOf(tx, input.hallId)
    const settings = JSON.parse(hall.settings || '{}') as Record<string, unknown>
    const before = settings.identifiedSales === true
    if (input.required) settings.identifiedSales = true
    else delete settings.identifiedSales
    await updateHallSettings(tx, hall.id, JSON.stringify(settings))
    await appendJournal(tx, {
      at: ctx.now(),
      type: 'hall.identified_sales_set',
      scope: `hall:${hall.id}`,
      payload: { hallId: hall.id, before, required: input.required, actor: input.by, rule: 'GEN-25' },
    })
    return { hallId: hall.id, identifiedSales: input.required }
  })
}

/**
 * BNG-22 / CFG-17 (000 §6.1.4, "Inicio de juego", BO-2013 only): "el salón ... puede determinar iniciar el juego con
 * un número menor de cartones vendidos, situación que deberá informar en un lugar visible al público, al comienzo de
 * la jornada". The director records the notice posted for the hall's day (its calendar day in its time zone); games
 * of that day then close their sales below the minimum. Refused where the profile has no such exception (002).
 */
export async function postReducedMinimum(
  ctx: BingoContext,
  input: { hallId: string; notice: string; by: PlanActor },
): Promise<{ hallId: string; day: string; notice: string }> {
  const notice = input.notice.trim()
  if (notice.length < 10 || notice.length > 500)
    throw new DomainError('VALIDATION_FAILED', 'the notice posted has 10 to 500 characters', { field: 'notice' })
  return ctx.tx(async (tx) => {
    const { hall, profile } = await hallOf(tx, input.hallId)
    if (!profile.minimumParticipation?.belowIfPosted)
      throw new DomainError(
        'RULE_DISABLED',
        `profile ${profile.id} has no start below the minimum participation (BNG-21; the exception of 000 §6.1.4 was removed in 002)`,
        { rule: 'BNG-22' },
      )
    const at = ctx.now()
    const day = hallDayOf(at, hallTimeZone(hall, profile))
    const settings = JSON.parse(hall.settings) as HallRuleSettings
    await setHallSettings(
      tx,
      hall.id,
      JSON.stringify({ ...settings, reducedMinimum: { day, notice, postedAt: at } } satisfies HallRuleSettings),
    )
    const open = await openSessionIdOfHall(tx, hall.id)
    await appendJournal(tx, {
      at,
      type: 'hall.reduced_minimum_posted',
      scope: open ? `hall:${hall.id}/session:${open}` : `hall:${hall.id}`,
      payload: { hallId: hall.id, day, notice, by: input.by, rule: 'BNG-22' },
    })
    return { hallId: hall.id, day, notice }
  })
}

/** The hall's calendar day (YYYY-MM-DD) of the instant `iso`. */
export function hallDayOf(iso: string, timeZone: string): string {
  return isoInZone(Date.parse(iso), timeZone).slice(0, 10)
}

/** A hall as listed, with its wall-clock zone instead of its raw settings. */
function summaryOf(h: HallSummary): HallSummary & { timeZone: string } {
  const { settings, ...rest } = h
  const profile = getProfile(h.profileId)
  const own = (JSON.parse(settings ?? '{}') as { timeZone?: unknown }).timeZone
  return { ...rest, timeZone: typeof own === 'string' && own ? own : (profile?.timeZone ?? 'UTC') }
}

// ---------------------------------------------------------------- reads

export async function listHalls(ctx: BingoContext): Promise<Array<HallSummary & { timeZone: string }>> {
  return (await hallSummaries(ctx.db)).map(summaryOf)
}

/** A hall with its open session, its newest game and its series, as the hall's page shows them. */
export async function getHallOverview(
  ctx: BingoContext,
  hallId: string,
): Promise<{
  hall: HallSummary & { timeZone: string }
  openSessionId: string | null
  currentGameId: string | null
  series: HallSeriesSummary[]
  /** BNG-40: the minimum and maximum bets and the authorised face values, for the hall's screens to post. */
  bets: PostedBets
  /** BNG-93 / BNG-19: seated players against the playing positions, and whether entry is closed for a game. */
  door: { present: number; playingPositions: number; entryClosedForGame: string | null }
  /** CFG-21. */
  autoClaim: boolean
}> {
  const row = await hallSummary(ctx.db, hallId)
  if (!row) throw new DomainError('NOT_FOUND', 'hall not found')
  const settings = JSON.parse(row.settings ?? '{}') as HallRuleSettings
  const hall = summaryOf(row)
  const session = await latestOpenSessionIdOfHall(ctx.db, hall.id)
  const game = await latestGameIdOfHall(ctx.db, hall.id)
  const series = await seriesSummariesOfHall(ctx.db, hall.id)
  const profile = getProfile(row.profileId)!
  const door = await doorOf(ctx.db, session ?? null)
  return {
    hall,
    openSessionId: session ?? null,
    currentGameId: game ?? null,
    series,
    bets: postedBets(profile, settings),
    door: { ...door, playingPositions: Number(hall.playingPositions) },
    autoClaim: hallProfile(profile, row.settings ?? '{}').autoClaimSoldCards,
  }
}

export function hallExists(ctx: BingoContext, hallId: string): Promise<boolean> {
  return hallRowExists(ctx.db, hallId)
}

/** The hall's newest game (whatever its status), or null. */
export async function currentGameOfHall(ctx: BingoContext, hallId: string): Promise<string | null> {
  return (await latestGameIdOfHall(ctx.db, hallId)) ?? null
}
