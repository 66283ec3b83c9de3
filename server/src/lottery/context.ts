/**
 * What the lottery and raffle use cases (issue.ts, draws.ts, settlement.ts, payouts.ts) share: the dependencies,
 * ids, signed codes, draw lookups, the ranges out of play and the tickets in play.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { RECORD_ID_BYTES, recordId } from '../shared/record-id.ts'
import type { Database, Sql } from '../db/database.ts'
import { sortByBytes } from '../shared/draw-proof.ts'
import { DomainError } from '../shared/errors.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import type { BeaconSource } from '../shared/beacon-source.ts'
import type { Sealer } from '../shared/sealing.ts'
import type { SoftwareDrawPolicy } from '../shared/lottery-common.ts'
import { encodeTicketCode, TicketKind } from '../shared/ticket-code.ts'
import type { Clock, EntropySource } from '../shared/clock.ts'
import type { Draw } from '../draws/store.ts'
import { createDrawLifecycle } from '../draws/lifecycle.ts'
import { checkDemoReferences, checkSoftwareDraw } from '../shared/lottery-common.ts'
import {
  formatNumber,
  numberCount,
  pointsTicketCount,
  ticketSerial,
  type PointsAward,
  type LotteryPlan,
  type RafflePlan,
} from './rules.ts'
import {
  lotteryDrawById,
  raffleDrawsNumbered,
  rangesOfDraw,
  soldTickets,
  type LotteryDraw,
  type TicketRange,
} from './store.ts'
import { currentDesignVersion } from './store/reissue.ts'

export interface LotteryDeps {
  db: Database
  clock: Clock
  keys: OperatorKeys
  dataDir: string
  /** LOT-26: the secure printer's outbox, outside DATA_DIR, where print runs are written (default `<DATA_DIR>-print-shop`). */
  printShopDir?: string
  /** Issue 17: the operator's profile zone, for plans that name none. */
  timeZone?: string
  /** Ids. */
  entropy: EntropySource
  /** Draw seeds: the health-tested source (RNG-32, equipment.entropy). */
  seedEntropy: EntropySource
  /** Seeds are kept sealed until the draw has ended (DESIGN.md "Sealed secrets"). */
  sealer: Sealer
  /** bolillo-draw-v2's public randomness: relays, a typed signature, or the labelled demo beacon. */
  /** RNG-26: whether software draws may be planned, and under which AJ authorisation (issue 18). */
  softwareDraw: SoftwareDrawPolicy
  /** GEN-3: the authority whose prior authorisation every catalogue game needs (profile catalogueGameAuthority). */
  gameAuthority?: { name: string; rule: string } | null
  beacon: BeaconSource
  /**
   * LOT-12 / LOT-27: the operator's licence record (BOLILLO_LOTTERY_LICENCE): the most tickets an issue may hold, as
   * authorised by the AJ; and whether the profile requires it (lotteryLicensedMaxRequired).
   */
  licence?: LotteryLicence | null
  licenceRequired?: boolean
  /** LOT-22 / LOT-30: the prize kinds the operator's profile lets a numbered lottery offer (default: all three). */
  prizeKinds?: readonly ('cash' | 'goods' | 'in-kind')[]
  /** LOT-1: whether the profile reserves numbered lotteries to the public entity named by the licence record. */
  publicEntityRequired?: boolean
}

/** LOT-12: the licence record a numbered lottery's issue is bounded by. */
export interface LotteryLicence {
  ref: string
  maxTickets: number
  /** LOT-1: the public entity the licence was granted to; null when the record does not name it. */
  holder?: string | null
}

/** Most whole tickets (numbers x series) an issue may put in play: the participation list is built in memory. */
export const MAX_TICKETS_IN_PLAY = 4_000_000

export type Plan = LotteryPlan | RafflePlan
export const isRaffle = (p: Plan): p is RafflePlan =>
  p.kind === 'raffle' || p.kind === 'tombola' || p.kind === 'promotional'

/** A range taken out of play (LST-7, §7.14); the store maps it from its row. */
export type { TicketRange }

/**
 * LST-4 / LST-7: a lost or stolen range blocks the papers of the design it was lost under and earlier; a full
 * reprint with a new design under the authorised numbering (LST-1 (a)) prints its numbers again, distinguishable.
 */
export const blocksDesign = (r: TicketRange, design: number) =>
  r.kind === 'returned' || (r.details.designVersion ?? 1) >= design

/** How many values the draw needs: one per exact prize (lottery) or per prize (raffle). */
export const valuesNeeded = (plan: Plan) =>
  isRaffle(plan)
    ? plan.points
      ? pointsTicketCount(plan.points) // PRM-2: a points tómbola draws the tickets its tiers give points to
      : plan.prizes.length
    : plan.prizes.filter((p) => p.rule.type === 'exact').length

/** Whether the draw is made among the tickets in play (a raffle drawn among sold tickets), not the numbering. */
/** The price a ticket's holder paid: a raffle ticket's single price (PRM-1); a lottery fraction's share (LOT-15 (5)). */
export const ticketPriceOf = (plan: Plan) =>
  isRaffle(plan) ? plan.ticketPriceCents : plan.ticketPriceCents / plan.fractions
export const drawsAmongSold = (plan: Plan) => isRaffle(plan) && plan.drawAmong === 'sold'

export const inRange = (rs: readonly TicketRange[], number: number, series: number) =>
  rs.find((r) => number >= r.from && number <= r.to && series >= r.seriesFrom && series <= r.seriesTo)

/** Sealing context of a draw's per-issue secret (issue 13 point 3). */
export const issueSecretContext = (drawId: string) => `lottery-issue-secret|${drawId}`

/**
 * The tag a fraction's code carries: 64 bits of HMAC-SHA256 under the per-issue secret over the fraction and its
 * print run. Without the secret (sealed, never in the database in clear) nobody can make the id of a payable code,
 * even holding the operator's signing key; a reprint gives another run, so the earlier code no longer matches.
 */
export function fractionTag(secret: Uint8Array, baseId: string, runNo: number): string {
  return createHmac('sha256', secret).update(`bolillo-fraction|${baseId}|${runNo}`).digest('hex').slice(0, 16)
}

/** The id in a fraction's signed code: `<drawId>-<number>-<series>-<fraction>-r<run>-<tag>`. */
export function fractionCodeId(baseId: string, runNo: number, secret: Uint8Array): string {
  return `${baseId}-r${runNo}-${fractionTag(secret, baseId, runNo)}`
}

/** Inverse of {@link fractionCodeId}; null for anything else (codes minted before the register included). */
export function parseFractionCodeId(id: string): {
  baseId: string
  drawId: string
  number: number
  series: number
  fraction: number
  runNo: number
  tag: string
} | null {
  const m = /^(([^-]+)-(\d{1,9})-(\d{2,})-(\d{2,}))-r(\d{1,9})-([0-9a-f]{16})$/.exec(id)
  if (!m) return null
  return {
    baseId: m[1],
    drawId: m[2],
    number: Number(m[3]),
    series: Number(m[4]),
    fraction: Number(m[5]),
    runNo: Number(m[6]),
    tag: m[7],
  }
}

/** Constant-time comparison of a code's tag with the one the secret gives. */
export function tagMatches(secret: Uint8Array, baseId: string, runNo: number, tag: string): boolean {
  const want = Buffer.from(fractionTag(secret, baseId, runNo), 'utf8')
  const got = Buffer.from(tag, 'utf8')
  return want.length === got.length && timingSafeEqual(want, got)
}

/** A prize rule as printed on the ticket and in the results. */
export function describeRule(r: LotteryPlan['prizes'][number]['rule'], plan: LotteryPlan): string {
  switch (r.type) {
    case 'exact':
      return 'número exacto'
    case 'approximation':
      return `aproximación +/-${r.distance} al ${plan.prizes.find((p) => p.code === r.of)?.name ?? r.of}`
    case 'ending':
      return `terminación de ${r.digits} cifra${r.digits > 1 ? 's' : ''} del ${plan.prizes.find((p) => p.code === r.of)?.name ?? r.of}`
    case 'beginning':
      return `comienzo de ${r.digits} cifra${r.digits > 1 ? 's' : ''} del ${plan.prizes.find((p) => p.code === r.of)?.name ?? r.of}`
    case 'progression':
      return `progresión de ${r.step} en ${r.step} desde el ${plan.prizes.find((p) => p.code === r.of)?.name ?? r.of}`
  }
}

export type LotteryContext = ReturnType<typeof createLotteryContext>

export function createLotteryContext(deps: LotteryDeps) {
  const { db, clock } = deps

  async function loadDraw(tx: Sql, drawId: string): Promise<LotteryDraw> {
    const row = await lotteryDrawById(tx, drawId)
    if (!row) throw new DomainError('NOT_FOUND', `draw ${drawId} not found`, { drawId })
    return row
  }

  async function ranges(
    tx: Sql,
    drawId: string,
    kinds: ReadonlyArray<TicketRange['kind']> = ['returned', 'lost', 'stolen'],
  ): Promise<TicketRange[]> {
    return rangesOfDraw(tx, drawId, kinds)
  }

  const ctx = {
    deps,
    db,
    clock,
    now: () => clock.now().toISOString(),
    newId: (prefix: string): string => recordId(prefix, deps.entropy.randomBytes(RECORD_ID_BYTES)),
    /** Journal scope of a draw's records (the minutes read them back by this prefix). */
    scope: (r: { product: string; gameCode: string; id: string }) => `${r.product}:${r.gameCode}/draw:${r.id}`,
    sign: (id: string) => encodeTicketCode({ kind: TicketKind.lottery, id }, deps.keys.privateKey),
    planOf: (r: Draw) => JSON.parse(r.plan) as Plan,
    /** Issue 17: the wall clock a draw's documents print: its plan's zone, else the operator's. */
    zoneOf: (plan: { timeZone?: string | null }): string | null => plan.timeZone ?? deps.timeZone ?? null,
    loadDraw,
    ranges,

    /**
     * The whole tickets in play as fixed at the close of sales, sorted by bytes: lottery = issued - returned -
     * lost/stolen; raffle = sold - lost/stolen. A range reported after the close does not take a ticket out of the
     * draw's list: its D is fixed (bolillo-draw-v2 step 2); the ticket is only blocked from payment (LST-4).
     */
    async ticketsInPlay(tx: Sql, row: Draw, plan: Plan): Promise<string[]> {
      if (isRaffle(plan) && plan.round && plan.round.index > 1) return laterDrawInPlay(tx, plan)
      // LST-1 (a): numbers lost under an earlier design and reprinted under the new one are back in play.
      const design = isRaffle(plan) ? 1 : await currentDesignVersion(tx, row.id)
      const out = (await ranges(tx, row.id)).filter((r) => !r.afterClose && blocksDesign(r, design))
      if (isRaffle(plan)) {
        const sold = await soldTickets(tx, row.id)
        return sortByBytes(sold.filter((s) => !inRange(out, s.number, 1)).map((s) => s.serial))
      }
      const total = numberCount(plan.numbering) * plan.series
      if (total > MAX_TICKETS_IN_PLAY)
        throw new DomainError(
          'VALIDATION_FAILED',
          `${total} tickets are more than this server puts in one participation list (${MAX_TICKETS_IN_PLAY})`,
        )
      const list: string[] = []
      for (let n = plan.numbering.from; n <= plan.numbering.to; n++)
        for (let s = 1; s <= plan.series; s++) if (!inRange(out, n, s)) list.push(ticketSerial(n, s, plan.numbering))
      // Zero-padded serials of equal width: numeric order is byte order.
      return list
    },
  }

  /**
   * PRM-9: the draws of a successive plan, first to last, from any of them (the first sells the tickets that take
   * part in every draw).
   */
  async function successiveDraws(tx: Sql, row: LotteryDraw): Promise<LotteryDraw[]> {
    const plan = ctx.planOf(row)
    if (!isRaffle(plan) || !plan.round) return [row]
    const first = plan.round.firstDrawId ? await loadDraw(tx, plan.round.firstDrawId) : row
    const firstNo = first.drawNo
    return (await raffleDrawsNumbered(tx, first.gameCode, firstNo, firstNo + plan.round.of - 1)).filter(
      (d) => d.id === first.id || (ctx.planOf(d) as RafflePlan).round?.firstDrawId === first.id,
    )
  }

  /**
   * PRM-9: the tickets in play of a later draw of a successive plan: those in play at the first draw's close (its
   * sales close before the first draw; 004 G.II holds "un sorteo de forma sucesiva", the same draw on several
   * dates), less, where the bases say a winner leaves (winnersStayIn false), the tickets drawn in an earlier draw.
   * The draws are held in order: each earlier one is settled first, so its winners are known.
   */
  async function laterDrawInPlay(tx: Sql, plan: RafflePlan): Promise<string[]> {
    const first = await loadDraw(tx, plan.round!.firstDrawId!)
    const firstPlan = ctx.planOf(first)
    const inPlay = await ctx.ticketsInPlay(tx, first, firstPlan)
    const out = new Set<string>()
    for (const d of await successiveDraws(tx, first)) {
      const p = ctx.planOf(d) as RafflePlan
      if (p.round!.index >= plan.round!.index) continue
      // A draw withdrawn with the AJ's authorisation (LOT-21) gave no prize: the later ones go on without it.
      if (d.status === 'cancelled') continue
      if (d.status !== 'settled')
        throw new DomainError(
          'DRAW_OUT_OF_ORDER',
          `draw ${p.round!.index} of ${p.round!.of} (${d.id}) is ${d.status}: the successive draws are held in order (PRM-9)`,
          { drawId: d.id, rule: 'PRM-9' },
        )
      if (plan.winnersStayIn) continue
      const winning = (JSON.parse(d.result!) as { winning: Record<string, number> }).winning
      for (const n of Object.values(winning)) out.add(formatNumber(n, plan.numbering))
    }
    return inPlay.filter((s) => !out.has(s))
  }

  /** The lottery's and raffle's rules of the shared draw lifecycle (draws/lifecycle.ts). */
  const life = createDrawLifecycle<LotteryDraw, Plan>({
    db,
    clock,
    dataDir: deps.dataDir,
    beacon: deps.beacon,
    sealer: deps.sealer,
    seedEntropy: deps.seedEntropy,
    newId: ctx.newId,
    codes: { kind: TicketKind.lottery, publicKey: deps.keys.publicKey, name: 'lottery ticket', noun: 'ticket' },
    seedLine: 'lottery',
    products: ['lottery', 'raffle'],
    loadDraw,
    planOf: ctx.planOf,
    scope: ctx.scope,
    forget: () => {},
    rules: { postpone: 'LOT-21', cancel: 'LOT-21' },
    // A distributed ticket takes part until the planned close (LOT-14): no early close.
    earlyClose: 'refused',
    // LOT-18: a numbered lottery's tómbola is a registered device of its hall; a raffle's is the organiser's (PRM-1).
    registeredDevice: (plan) => !isRaffle(plan),
    texts: {
      notClosed: (row) => `draw ${row.id} is ${row.status}; close the sales first`,
      notRng: 'this draw is made with an authorised tómbola: enter its numbers (LOT-18, RNG-26)',
      noProof: 'a tómbola draw has no RNG proof; its numbers are in the minutes',
      listChanged: (drawId) =>
        `the tickets in play of draw ${drawId} no longer give the sales digest fixed at the close of sales`,
    },
    // Issue 26 (GEN-6): RNG draws by a registered, certified RNG device where the profile requires one.
    rngDevice: {
      required: deps.softwareDraw.rngDeviceRequired ?? false,
      typeApproval: deps.softwareDraw.rngTypeApproval ?? false,
    },
    demoReferencesRefused: deps.softwareDraw.demoReferencesRefused ?? false,
    checkRng(plan) {
      // INS-16 / RNG-26: a numbered lottery drawn by software ("lotería electrónica") only while its authorisation stands.
      if (!isRaffle(plan)) checkSoftwareDraw('rng', deps.softwareDraw)
      checkDemoReferences(plan, deps.softwareDraw)
    },
    async readyToDraw(_tx, _row, plan) {
      checkDemoReferences(plan, deps.softwareDraw)
    },
    // Among the sold tickets: N = M tickets in play (value v = the v-th of the sorted list); among issued numbers:
    // N = the numbering, value v = number from + v - 1. The first value wins the first (exact) prize, and so on.
    async rngList(tx, row, plan) {
      const serials = await ctx.ticketsInPlay(tx, row, plan)
      const sold = drawsAmongSold(plan)
      return {
        serials,
        ballCount: sold ? serials.length : numberCount(plan.numbering),
        count: valuesNeeded(plan),
        toDrawn: (v) => (sold ? Number(serials[v - 1]) : plan.numbering.from + v - 1),
        toValue: (n) => (sold ? serials.indexOf(formatNumber(n, plan.numbering)) + 1 : n - plan.numbering.from + 1),
        includeSerials: serials.length <= 200_000,
      }
    },
    drawnRecord: (numbers) => ({ numbers }),
    proofExtra: (row, plan) => {
      const sold = drawsAmongSold(plan)
      return {
        items: sold
          ? { list: 'soldSerials (tickets in play at the close of sales, sorted by bytes)' }
          : {
              numbering: plan.numbering,
              mapping: 'value v -> number from + v - 1 (the v-th of the sorted zero-padded numbers)',
            },
        winning: row.result ? (JSON.parse(row.result) as LotteryResult).winning : null,
        note: sold
          ? 'draw among M tickets in play: value v is the v-th ticket of the sorted list; the first drawn wins the first prize'
          : 'draw among M issued numbers: the first value wins the first exact prize, and so on',
        // PRM-9: a draw of a successive plan has its own seed, commitment, beacon and list (the first draw's tickets,
        // less earlier winners where the bases take them out), so each draw's proof stands alone.
        ...(isRaffle(plan) && plan.round
          ? {
              successive: {
                index: plan.round.index,
                of: plan.round.of,
                firstDrawId: plan.round.firstDrawId ?? row.id,
                winnersStayIn: plan.winnersStayIn ?? null,
              },
            }
          : {}),
      }
    },
  })

  return { ...ctx, life, successiveDraws }
}

/** The stored result of a settled lottery or raffle draw. */
export interface LotteryResult {
  /** Lottery: the winning number of each exact prize; raffle: the winning ticket number of each prize. */
  winning: Record<string, number>
  /** Values drawn (bolillo-draw-v1 positions, or the numbers entered), in order. */
  drawn: number[]
  prizes: Array<{
    code: string
    name: string
    rule: string
    numbers: number[] | null
    numbersCount: number
    amountPerTicketCents: number
    amountPerFractionCents: number
    ticketsInPlay: number
    liabilityCents: number
    goods: string | null
  }>
  ticketsInPlay: number
  liabilityCents: number
  /** PRM-2: a points tómbola's drawn tickets and their points, in the order drawn (its `winning` is empty). */
  points?: PointsAward[]
}
