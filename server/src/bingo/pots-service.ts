/**
 * Pots: progressive jackpots, interconnected bonuses and lucky-ball prizes (BNG-55, BNG-66, BNG-67, RNG-15 to
 * RNG-22, RNG-28). Definition and halls, the ledger of every movement (RNG-18), contributions at close of sales,
 * awards when a line or bingo is awarded, the lucky-ball draw. The rules are pots.ts; the SQL is store.ts.
 */
import { assertHallPotsWithinPlan } from './pots-plan.ts'
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { getProfile } from '../shared/profile.ts'
import { luckyNumbersV2 } from '../shared/draw-proof-v2.ts'
import type { BeaconValue } from '../shared/beacon-source.ts'
import {
  LUCKY_BALL_V2,
  LUCKY_BALL_VERSION,
  luckyCommitment,
  luckyNumbers,
  potCommission,
  potConditionText,
  potContribution,
  scaleAward,
  splitAward,
  validatePotDefinition,
  type PotCondition,
  type PotDefinition,
  type PotKind,
  type PrizeKind,
} from './pots.ts'
import { appendJournal } from '../shared/journal.ts'
import { assertRowsSealedWhere } from '../shared/row-seals.ts'
import type { PotView } from './game-extras.ts'
import {
  activePotsOfHalls,
  appendPotLedgerEntry,
  insertLuckyDraw,
  insertPot,
  insertPotHall,
  lastPotIncrement,
  luckyDrawByGame,
  luckyNumberCount,
  potBalance,
  potById,
  potCandidateHall,
  potContributionsOfGame,
  potJoiningHall,
  raiseLuckyNumberCount,
  setLuckyNumbers,
  type LuckyDraw,
  type Pot,
} from './store/pots.ts'

export function definitionOf(p: Pot): PotDefinition {
  return {
    kind: p.kind,
    contributionBp: p.contributionBp,
    reserveBp: p.reserveBp,
    seedCents: p.seedCents,
    maxCents: p.maxCents,
    condition: JSON.parse(p.conditions) as PotCondition,
    commissionBp: p.commissionBp,
  }
}

export interface CreatePotInput {
  name: string
  kind: PotKind
  contributionBp: number
  reserveBp?: number
  seedCents?: number
  maxCents?: number | null
  condition: PotCondition
  hallIds: string[]
  /**
   * RNG-20 / RNG-21: the AJ's prior authorisation of the pot or lucky-ball prize (its use, conditions and pay table);
   * required where a hall's profile says so (potAuthorisationRequired).
   */
  authorisationRef?: string | null
  /** RNG-21: the operator's commission approved in the Plan de Apuestas, bp of what the sales put in (default 0). */
  commissionBp?: number
}

/**
 * BNG-68 (Cantabria, 004 Bingo V.3): prizes may not be topped up with any money, nor any prize set up besides the
 * regulated ones. A progressive pot is not among them, and seed money tops a prize up: both refused in a hall
 * whose profile forbids them. Interconnected bingo and bola loca are regulated (V.2.b, V.2.c) and stay.
 */
function assertPotAllowed(hallId: string, profileId: string, kind: PotKind, seedCents: number): void {
  const profile = getProfile(profileId)
  if (!profile) throw new DomainError('VALIDATION_FAILED', `hall ${hallId} has unknown profile ${profileId}`)
  if (kind === 'progressive' && !profile.extraPrizes.progressivePots) {
    throw new DomainError(
      'RULE_DISABLED',
      `hall ${hallId} (${profile.id}) may not run a progressive pot: no prize besides the regulated ones (BNG-68)`,
      { hallId, rule: 'BNG-68' },
    )
  }
  if (seedCents > 0 && !profile.extraPrizes.seedMoney) {
    throw new DomainError(
      'RULE_DISABLED',
      `hall ${hallId} (${profile.id}) may not seed a pot: prizes are never topped up with other money (BNG-68)`,
      { hallId, rule: 'BNG-68' },
    )
  }
}

export async function createPotTx(tx: Sql, id: string, input: CreatePotInput, at: string): Promise<Pot> {
  const def = validatePotDefinition({
    kind: input.kind,
    contributionBp: input.contributionBp,
    reserveBp: input.reserveBp ?? 0,
    seedCents: input.seedCents ?? 0,
    maxCents: input.maxCents ?? null,
    condition: input.condition,
    commissionBp: input.commissionBp ?? 0,
  })
  const authorisationRef = input.authorisationRef?.trim() || null
  if (input.hallIds.length === 0)
    throw new DomainError('VALIDATION_FAILED', 'a pot needs at least one hall', { field: 'hallIds' })
  if (input.kind !== 'interconnected' && input.hallIds.length > 1)
    throw new DomainError('VALIDATION_FAILED', 'only an interconnected pot is shared by several halls (BNG-66)', {
      field: 'hallIds',
    })
  const halls = [] as Array<{ id: string; currency: string; profileId: string }>
  for (const h of new Set(input.hallIds)) {
    const hall = await potCandidateHall(tx, h)
    if (!hall) throw new DomainError('NOT_FOUND', `hall ${h} not found`, { hallId: h })
    halls.push(hall)
  }
  if (new Set(halls.map((h) => h.currency)).size !== 1)
    throw new DomainError('VALIDATION_FAILED', 'the halls of a pot must share one currency')
  for (const h of halls) {
    assertPotAllowed(h.id, h.profileId, def.kind, def.seedCents)
    // BNG-66 / CFG-30: the interconnected pot's percentage and ball scale are the Consejería's, not the operator's.
    const authority = getProfile(h.profileId)?.interconnectedPotAuthority
    if (def.kind === 'interconnected' && !authorisationRef && authority)
      throw new DomainError(
        'INTERCONNECTED_NOT_AUTHORISED',
        `an interconnected pot in hall ${h.id} needs the reference of the resolution of ${authority.name} that sets its percentage and ball scale (${authority.rule})`,
        { hallId: h.id, field: 'authorisationRef', authority: authority.name, rule: 'BNG-66' },
      )
    // RNG-20 / RNG-21: a pot or lucky-ball prize runs only under the AJ's prior authorisation where the profile says so.
    if (!authorisationRef && getProfile(h.profileId)?.potAuthorisationRequired) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `a pot in hall ${h.id} needs the reference of the AJ's prior authorisation of its use, conditions and pay table (RNG-20, RNG-21)`,
        {
          field: 'authorisationRef',
          rule: 'RNG-20',
          problems: [{ field: 'authorisationRef', rule: 'RNG-20', message: 'required' }],
        },
      )
    }
  }
  // BNG-52 / CFG-28: each hall's pots, this one included, within its Plan de Apuestas and 100 % of its takings.
  for (const h of halls) await assertHallPotsWithinPlan(tx, h.id, { addedBp: def.contributionBp })
  const text = potConditionText(def, halls[0].currency)
  await insertPot(tx, {
    id,
    name: input.name,
    kind: def.kind,
    currency: halls[0].currency,
    contributionBp: def.contributionBp,
    reserveBp: def.reserveBp,
    seedCents: def.seedCents,
    maxCents: def.maxCents,
    conditionJson: JSON.stringify(def.condition),
    publicText: text,
    status: 'active',
    at,
    authorisationRef,
    commissionBp: def.commissionBp ?? 0,
  })
  for (const h of halls) await insertPotHall(tx, id, h.id, at)
  if (def.seedCents > 0)
    await appendPotLedgerEntry(tx, id, {
      kind: 'seed',
      mainCents: def.seedCents,
      reserveCents: 0,
      detail: { rule: 'RNG-21' },
      at,
    })
  await appendJournal(tx, {
    at,
    type: 'pot.created',
    scope: `pot:${id}`,
    payload: {
      potId: id,
      name: input.name,
      ...def,
      authorisationRef,
      publicText: text,
      hallIds: halls.map((h) => h.id),
      currency: halls[0].currency,
      rule: input.kind === 'progressive' ? 'BNG-55' : input.kind === 'interconnected' ? 'BNG-66' : 'BNG-67',
    },
  })
  return (await potById(tx, id))!
}

export async function addPotHallTx(tx: Sql, potId: string, hallId: string, at: string): Promise<void> {
  const pot = await potById(tx, potId)
  if (!pot) throw new DomainError('NOT_FOUND', `pot ${potId} not found`)
  if (pot.kind !== 'interconnected')
    throw new DomainError('VALIDATION_FAILED', 'only an interconnected pot is shared by several halls (BNG-66)')
  const hall = await potJoiningHall(tx, hallId)
  if (!hall) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`)
  if (hall.currency !== pot.currency)
    throw new DomainError('VALIDATION_FAILED', 'the halls of a pot must share one currency')
  assertPotAllowed(hallId, hall.profileId, pot.kind, pot.seedCents)
  // BNG-66 / CFG-30: a hall whose profile wants the Consejería's resolution joins only a pot created under one.
  const authority = getProfile(hall.profileId)?.interconnectedPotAuthority
  if (authority && !pot.authorisationRef?.trim())
    throw new DomainError(
      'INTERCONNECTED_NOT_AUTHORISED',
      `hall ${hallId} joins no interconnected pot without the reference of the resolution of ${authority.name} (${authority.rule})`,
      { hallId, potId, authority: authority.name, rule: 'BNG-66' },
    )
  await assertHallPotsWithinPlan(tx, hallId, { addedBp: pot.contributionBp })
  await insertPotHall(tx, potId, hallId, at)
  await appendJournal(tx, {
    at,
    type: 'pot.hall_joined',
    scope: `pot:${potId}`,
    payload: { potId, hallId, rule: 'RNG-16' },
  })
}

export async function potViews(tx: Sql, hallIds: readonly string[]): Promise<PotView[]> {
  const out: PotView[] = []
  for (const p of await activePotsOfHalls(tx, hallIds)) {
    const b = await potBalance(tx, p.id)
    out.push({
      id: p.id,
      name: p.name,
      kind: p.kind,
      amountCents: b.mainCents,
      incrementCents: await lastPotIncrement(tx, p.id),
      reserveCents: b.reserveCents,
      contributionBp: p.contributionBp,
      conditions: p.publicText,
      condition: JSON.parse(p.conditions),
      hallIds: p.hallIds,
    })
  }
  return out
}

/** BNG-55, BNG-66, BNG-67: each hall's sales in the game fund the pots it takes part in. */
export async function contributeToPots(
  tx: Sql,
  e: { gameId: string; sales: Array<{ hallId: string; salesCents: number }>; at: string; scope: string },
): Promise<void> {
  for (const pot of await activePotsOfHalls(
    tx,
    e.sales.map((s) => s.hallId),
  )) {
    const def = definitionOf(pot)
    const parts: Array<{
      hallId: string
      salesCents: number
      mainCents: number
      reserveCents: number
      commissionCents: number
    }> = []
    for (const s of e.sales) {
      if (!pot.hallIds.includes(s.hallId) || s.salesCents <= 0) continue
      const c = potContribution(s.salesCents, await potBalance(tx, pot.id), def)
      // RNG-21: the commission is recorded beside the contribution it was taken from (RNG-18 ledger).
      const commissionCents = potCommission(s.salesCents, def)
      await appendPotLedgerEntry(tx, pot.id, {
        kind: 'contribution',
        gameId: e.gameId,
        hallId: s.hallId,
        mainCents: c.mainCents,
        reserveCents: c.reserveCents,
        detail: {
          salesCents: s.salesCents,
          contributionBp: def.contributionBp,
          commissionBp: def.commissionBp ?? 0,
          commissionCents,
        },
        at: e.at,
      })
      parts.push({ hallId: s.hallId, salesCents: s.salesCents, ...c, commissionCents })
    }
    if (parts.length === 0) continue
    const b = await potBalance(tx, pot.id)
    await appendJournal(tx, {
      at: e.at,
      type: 'pot.contributed',
      scope: e.scope,
      payload: {
        gameId: e.gameId,
        potId: pot.id,
        name: pot.name,
        kind: pot.kind,
        contributions: parts,
        amountCents: b.mainCents,
        reserveCents: b.reserveCents,
        rule: 'RNG-18',
      },
    })
  }
}

export interface PotWinner {
  serial: string
  cardId: string
  hallId: string
  atBall: number
  rows: number[][]
  completingBall: number | null
  completedAtBall: number | null
}
export interface PotAward {
  potId: string
  name: string
  kind: PotKind
  prizeKind: PrizeKind
  amountCents: number
  atBall: number
  winners: Array<PotWinner & { amountCents: number }>
}

/**
 * Awards every pot whose condition a prize just awarded meets (BNG-55, BNG-66, BNG-67). A pot pays only winners
 * whose card was sold by one of its halls. Returns the awards so the caller records the bonus prizes.
 */
export async function awardPots(
  tx: Sql,
  e: {
    gameId: string
    kind: PrizeKind
    winners: PotWinner[]
    luckyNumbers: number[] | null
    at: string
    scope: string
  },
): Promise<PotAward[]> {
  const awards: PotAward[] = []
  for (const pot of await activePotsOfHalls(tx, [...new Set(e.winners.map((w) => w.hallId))])) {
    const c = JSON.parse(pot.conditions) as PotCondition
    const eligible = e.winners.filter((w) => pot.hallIds.includes(w.hallId))
    if (eligible.length === 0) continue
    // Issue 24 point 1: a pot pays its ledger's balance only as the server wrote it (an entry raised or added behind
    // the journal refuses the award, ROW_TAMPERED, journaled).
    await assertRowsSealedWhere(tx, 'pot_ledger', 't.pot_id = ?', [pot.id])
    const balance = await potBalance(tx, pot.id)
    let amount = 0
    let takers: PotWinner[] = []
    let detail: Record<string, unknown> = {}
    if ('luckyPrizes' in c) {
      if (!c.luckyPrizes.includes(e.kind) || !e.luckyNumbers) continue
      const lucky = e.luckyNumbers.slice(0, c.numbers)
      // BNG-67: the last number completing the winning line or bingo is a lucky number.
      takers = eligible.filter((w) => w.completingBall !== null && lucky.includes(w.completingBall))
      amount = balance.mainCents
      detail = { luckyNumbers: lucky, rule: 'BNG-67' }
    } else {
      if (c.prize !== e.kind) continue
      const atBall = Math.min(...eligible.map((w) => w.atBall))
      const hit = scaleAward(c, atBall, balance.mainCents)
      if (!hit) continue
      takers = eligible.filter((w) => w.atBall <= hit.step.withinBalls)
      amount = hit.amountCents
      detail = {
        withinBalls: hit.step.withinBalls,
        shareBp: hit.step.shareBp,
        rule: pot.kind === 'interconnected' ? 'BNG-66' : 'BNG-55',
      }
    }
    if (takers.length === 0 || amount <= 0) continue
    const split = splitAward(amount, takers)
    const key = pot.kind === 'lucky' ? e.kind : ''
    await appendPotLedgerEntry(tx, pot.id, {
      kind: 'award',
      gameId: e.gameId,
      prizeId: key,
      mainCents: -amount,
      reserveCents: 0,
      detail: { ...detail, winners: split.map((w) => ({ serial: w.serial, amountCents: w.amountCents })) },
      at: e.at,
    })
    const after = await potBalance(tx, pot.id)
    if (after.reserveCents > 0) {
      // RNG-21: the reserve starts the next cycle of the main pot.
      await appendPotLedgerEntry(tx, pot.id, {
        kind: 'reserve_transfer',
        gameId: e.gameId,
        prizeId: key,
        mainCents: after.reserveCents,
        reserveCents: -after.reserveCents,
        at: e.at,
      })
    }
    const now = await potBalance(tx, pot.id)
    const atBall = Math.min(...takers.map((w) => w.atBall))
    await appendJournal(tx, {
      at: e.at,
      type: 'pot.awarded',
      scope: e.scope,
      payload: {
        gameId: e.gameId,
        potId: pot.id,
        name: pot.name,
        kind: pot.kind,
        prizeKind: e.kind,
        amountCents: amount,
        atBall,
        ...detail,
        winners: split.map((w) => ({
          serial: w.serial,
          cardId: w.cardId,
          hallId: w.hallId,
          amountCents: w.amountCents,
          completedAtBall: w.completedAtBall,
        })),
        amountAfterCents: now.mainCents,
        reserveAfterCents: now.reserveCents,
        remainderRule: 'equal split per card, leftover cents one each to the lowest serials',
      },
    })
    awards.push({
      potId: pot.id,
      name: pot.name,
      kind: pot.kind,
      prizeKind: e.kind,
      amountCents: amount,
      atBall,
      winners: split,
    })
  }
  return awards
}

/** A void game: its contributions leave the pots again, and awards not yet paid go back into the main pot. */
export async function reversePots(
  tx: Sql,
  e: {
    gameId: string
    voidedAwards: Array<{ potId: string; prizeKind: string; amountCents: number }>
    /** Pots that paid a prize of the game that stands (BNG-82): their contributions of the game are kept. */
    keepPotIds?: string[]
    at: string
    scope: string
  },
): Promise<void> {
  const keep = new Set(e.keepPotIds ?? [])
  const all = await potContributionsOfGame(tx, e.gameId)
  const rows = all.filter((r) => !keep.has(r.potId))
  for (const r of rows) {
    await appendPotLedgerEntry(tx, r.potId, {
      kind: 'reversal',
      gameId: e.gameId,
      hallId: r.hallId,
      mainCents: -r.mainCents,
      reserveCents: -r.reserveCents,
      detail: { reason: 'game void, cards refunded', rule: 'BNG-86' },
      at: e.at,
    })
  }
  const back = new Map<string, number>()
  for (const a of e.voidedAwards)
    back.set(`${a.potId}|${a.prizeKind}`, (back.get(`${a.potId}|${a.prizeKind}`) ?? 0) + a.amountCents)
  for (const [key, cents] of back) {
    const [potId, prizeKind] = key.split('|')
    await appendPotLedgerEntry(tx, potId, {
      kind: 'award_reversal',
      gameId: e.gameId,
      prizeId: prizeKind,
      mainCents: cents,
      reserveCents: 0,
      detail: { reason: 'game void before payment' },
      at: e.at,
    })
  }
  if (rows.length || back.size || keep.size)
    await appendJournal(tx, {
      at: e.at,
      type: 'pot.reversed',
      scope: e.scope,
      payload: {
        gameId: e.gameId,
        contributions: rows.map((r) => ({
          potId: r.potId,
          hallId: r.hallId,
          mainCents: r.mainCents,
          reserveCents: r.reserveCents,
        })),
        awards: e.voidedAwards,
        ...(keep.size ? { keptForPaidPrizes: [...keep], keptRule: 'BNG-82' } : {}),
        rule: 'BNG-86',
      },
    })
}

// ---------------------------------------------------------------------------------------------------------------
// Lucky ball (RNG-28): its own seed, committed when the game is announced, drawn once the draw's inputs are fixed.

/** Seals and opens a lucky-ball seed under the sealing key (DESIGN.md "Sealed secrets"; context `lucky-seed|<gameId>`). */
export interface LuckySeedVault {
  seal(seed: Uint8Array, gameId: string): string
  open(draw: LuckyDraw): Uint8Array
}

/** Creates the game's lucky-ball draw if one of `hallIds` has a lucky-ball pot and the game has none yet. */
export async function ensureLuckyDraw(
  tx: Sql,
  e: { gameId: string; hallIds: string[]; seed: () => Uint8Array; vault: LuckySeedVault; at: string; scope: string },
): Promise<void> {
  const lucky = (await activePotsOfHalls(tx, e.hallIds)).filter((p) => p.kind === 'lucky')
  if (lucky.length === 0) return
  const count = Math.max(...lucky.map((p) => (JSON.parse(p.conditions) as { numbers: number }).numbers))
  const existing = await luckyNumberCount(tx, e.gameId)
  if (existing !== undefined) {
    if (existing < count) await raiseLuckyNumberCount(tx, e.gameId, count)
    return
  }
  const seed = e.seed()
  const commitment = luckyCommitment(seed)
  // The seed is never written in clear: only sealed, opened again at the draw and for the proof once the game ends.
  await insertLuckyDraw(tx, { gameId: e.gameId, commitment, seedSealed: e.vault.seal(seed, e.gameId), count, at: e.at })
  await appendJournal(tx, {
    at: e.at,
    type: 'lucky.committed',
    scope: e.scope,
    payload: { gameId: e.gameId, commitment, count, rule: 'RNG-28' },
  })
}

/** bolillo-lucky-v1, at close of sales (games whose draw has no beacon): the lucky numbers are fixed and shown (BNG-67). */
export async function drawLucky(
  tx: Sql,
  e: {
    gameId: string
    salesDigest: string
    externalEntropy: string
    ballCount: number
    vault: LuckySeedVault
    at: string
    scope: string
  },
): Promise<number[] | null> {
  const row = await luckyDrawByGame(tx, e.gameId)
  if (!row) return null
  if (row.numbers) return row.numbers
  const numbers = luckyNumbers(
    e.vault.open(row),
    e.gameId,
    e.salesDigest,
    e.externalEntropy,
    e.ballCount,
    row.numberCount,
  )
  await setLuckyNumbers(tx, e.gameId, numbers, e.at, LUCKY_BALL_VERSION)
  await appendJournal(tx, {
    at: e.at,
    type: 'lucky.drawn',
    scope: e.scope,
    payload: { gameId: e.gameId, numbers, commitment: row.commitment, version: LUCKY_BALL_VERSION, rule: 'BNG-67' },
  })
  return numbers
}

/**
 * bolillo-lucky-v2 (DESIGN.md draw v2 point 4): once the game's beacon round `R` is verified, the lucky numbers are
 * the v2 shuffle under the prefix "bolillo-lucky-v2|" with the lucky seed; none is fixed before (point 3).
 */
export async function drawLuckyV2(
  tx: Sql,
  e: {
    gameId: string
    salesDigest: string
    beacon: BeaconValue
    ballCount: number
    vault: LuckySeedVault
    at: string
    scope: string
  },
): Promise<number[] | null> {
  const row = await luckyDrawByGame(tx, e.gameId)
  if (!row) return null
  if (row.numbers) return row.numbers
  const b = e.beacon
  const numbers = luckyNumbersV2(
    e.vault.open(row),
    e.gameId,
    e.salesDigest,
    { round: b.round, signature: b.signature, randomness: b.randomness },
    e.ballCount,
    row.numberCount,
  )
  const beacon = {
    scheme: b.scheme,
    chainHash: b.chainHash,
    round: b.round,
    signature: b.signature,
    randomness: b.randomness,
    ...(b.publicKey ? { publicKey: b.publicKey } : {}),
  }
  await setLuckyNumbers(tx, e.gameId, numbers, e.at, LUCKY_BALL_V2, JSON.stringify(beacon))
  await appendJournal(tx, {
    at: e.at,
    type: 'lucky.drawn',
    scope: e.scope,
    payload: {
      gameId: e.gameId,
      numbers,
      commitment: row.commitment,
      version: LUCKY_BALL_V2,
      round: b.round,
      randomness: b.randomness,
      demo: b.scheme === 'demo',
      rule: 'BNG-67',
    },
  })
  return numbers
}
