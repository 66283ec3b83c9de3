/**
 * What the lotto use cases (draws.ts, slips.ts, settlement.ts, payouts.ts) share: the dependencies, ids, the
 * server's clock, draw lookups and the cache of draw plans.
 */
import { RECORD_ID_BYTES, recordId } from '../shared/record-id.ts'
import type { Database, Sql } from '../db/database.ts'
import { sortByBytes } from '../shared/draw-proof.ts'
import { DomainError } from '../shared/errors.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import type { BeaconSource } from '../shared/beacon-source.ts'
import type { Sealer } from '../shared/sealing.ts'
import type { SoftwareDrawPolicy } from '../shared/lottery-common.ts'
import type { Clock, EntropySource } from '../shared/clock.ts'
import { checkDemoReferences, checkSoftwareDraw } from '../shared/lottery-common.ts'
import { createDrawLifecycle } from '../draws/lifecycle.ts'
import { TicketKind } from '../shared/ticket-code.ts'
import type { LottoPlan } from './plan.ts'
import { lottoDrawById, lottoDrawByNumber, slipsCoveringDraw, type Draw, type Slip } from './store.ts'

export interface LottoDeps {
  db: Database
  clock: Clock
  /** Ids and quick picks. */
  entropy: EntropySource
  /** Draw seeds: the health-tested source (RNG-32, equipment.entropy). */
  seedEntropy: EntropySource
  /** Seeds are kept sealed until the draw has ended (DESIGN.md "Sealed secrets"). */
  sealer: Sealer
  /** bolillo-draw-v2's public randomness: relays, a typed signature, or the labelled demo beacon. */
  beacon: BeaconSource
  keys: OperatorKeys
  /** Participation files and excluded-play lists are written under DATA_DIR/lotto/<drawId>/. */
  dataDir: string
  /** The SQLite file, when the database is one: sales are then committed on a writer thread. */
  /** RNG-26: whether software draws may be planned, and under which AJ authorisation (issue 18). */
  softwareDraw: SoftwareDrawPolicy
  /** GEN-3: the authority whose prior authorisation every catalogue game needs (profile catalogueGameAuthority). */
  gameAuthority?: { name: string; rule: string } | null
  /**
   * LOT-30 (004 Loterías I: a lottery awards "premios en metálico"): the prize kinds the profile's lotteries may pay.
   * A lotto draw is a 004 E lotería where the profile names the Consejería (GEN-3), so its categories obey it too.
   */
  prizeKinds?: readonly ('cash' | 'goods' | 'in-kind')[]
  /** LNS-12 / LNS-15: the licence record plans are checked against, and whether the profile requires one. */
  licence?: { ref: string; rangeMin: number; rangeMax: number } | null
  licensedRangeRequired?: boolean
  /** LNS-14: minutes a draw waits after its participation file is published (profile lnsPublicationHoldMinutes). */
  publicationHoldMinutes?: number
  sqliteFile?: string | null
  sqliteSynchronous?: 'FULL' | 'NORMAL'
  /** Issue 17: the operator's profile zone, for plans that name none. */
  timeZone?: string
}

/** A draw row with its parsed plan. */
export interface PlannedDraw {
  row: Draw
  plan: LottoPlan
}

export type LottoContext = ReturnType<typeof createLottoContext>

export function createLottoContext(deps: LottoDeps) {
  const { db, clock } = deps
  const planCache = new Map<string, PlannedDraw>()
  const planOf = (row: Draw) => JSON.parse(row.plan) as LottoPlan
  /** Issue 17: the wall clock a draw's documents print: its plan's zone, else the operator's. */
  const zoneOf = (plan: LottoPlan): string | null => plan.timeZone ?? deps.timeZone ?? null

  async function loadDraw(tx: Sql, drawId: string): Promise<Draw> {
    const row = await lottoDrawById(tx, drawId)
    if (!row) throw new DomainError('NOT_FOUND', `lotto draw ${drawId} not found`, { drawId })
    return row
  }

  const ctx = {
    deps,
    db,
    clock,
    now: () => clock.now().toISOString(),
    newId: (prefix: string): string => recordId(prefix, deps.entropy.randomBytes(RECORD_ID_BYTES)),
    /** Journal scope of a draw's records (the minutes read them back by this prefix). */
    drawScope: (r: { gameCode: string; id: string }) => `lotto:${r.gameCode}/draw:${r.id}`,
    planOf,
    zoneOf,
    loadDraw,

    /**
     * Plans are immutable, so a draw's plan may be cached; its status is always re-read where it matters. `reader`:
     * the transaction a caller inside one runs in, so that a miss is read on its connection (db/postgres.ts).
     */
    async cached(drawId: string, reader: Sql = db): Promise<PlannedDraw> {
      let hit = planCache.get(drawId)
      if (!hit) {
        const row = await loadDraw(reader, drawId)
        hit = { row, plan: planOf(row) }
        planCache.set(drawId, hit)
      }
      return hit
    },
    async cachedByNumber(gameCode: string, drawNo: number, reader: Sql = db): Promise<PlannedDraw | null> {
      const key = `${gameCode}#${drawNo}`
      let hit = planCache.get(key)
      if (!hit) {
        const row = await lottoDrawByNumber(reader, gameCode, drawNo)
        if (!row) return null
        hit = { row, plan: planOf(row) }
        planCache.set(key, hit)
        planCache.set(row.id, hit)
      }
      return hit
    },
    /** Drops a draw's cached row after its status changed. */
    forget(drawId: string): void {
      planCache.delete(drawId)
      // Also under its game and number (cachedByNumber): a postponement changes the plan itself.
      for (const [key, hit] of planCache) if (hit.row.id === drawId) planCache.delete(key)
    },

    /** Slips covering a draw, in canonical order (receipt number by bytes). */
    async slipsOfDraw(tx: Sql, row: Draw, status: 'active' | 'inactive'): Promise<Slip[]> {
      const rows = await slipsCoveringDraw(tx, row.gameCode, row.drawNo, status)
      const order = new Map(sortByBytes(rows.map((r) => r.id)).map((id, i) => [id, i]))
      return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
    },

    /** LNS-14: the close of sales (when the participation file is published) plus the profile's hold. */
    drawableFrom(row: Draw): string {
      return new Date(Date.parse(row.closedAt!) + (deps.publicationHoldMinutes ?? 0) * 60_000).toISOString()
    },
  }

  /**
   * What must be true before the first ball or the RNG draw, besides the date (LOT-21):
   * - LNS-14: the participation file has been public for the profile's hold (lnsPublicationHoldMinutes);
   * - LNS-21: where plays were excluded or annulled, the notary's act listing them has been recorded;
   * - INS-16 / RNG-26: an RNG draw ("lotería electrónica") is still authorised now, not only when it was planned.
   */
  async function readyToDraw(tx: Sql, row: Draw, plan: LottoPlan): Promise<void> {
    const from = ctx.drawableFrom(row)
    if (Date.parse(ctx.now()) < Date.parse(from)) {
      throw new DomainError(
        'PUBLICATION_HOLD',
        `the participation file was published at ${row.closedAt}; the draw may start from ${from} (LNS-14)`,
        { rule: 'LNS-14', drawableFrom: from },
      )
    }
    if (!row.notarialAct && (await ctx.slipsOfDraw(tx, row, 'inactive')).length > 0) {
      throw new DomainError(
        'NOTARIAL_ACT_REQUIRED',
        `draw ${row.id} has excluded or annulled plays: record the notarial act that lists them before the draw (LNS-21)`,
        { rule: 'LNS-21' },
      )
    }
    if (plan.drawMethod === 'rng') checkSoftwareDraw('rng', deps.softwareDraw)
    checkDemoReferences(plan, deps.softwareDraw)
  }

  /** The lotto's rules of the shared draw lifecycle (draws/lifecycle.ts). */
  const life = createDrawLifecycle<Draw, LottoPlan>({
    db,
    clock,
    dataDir: deps.dataDir,
    beacon: deps.beacon,
    sealer: deps.sealer,
    seedEntropy: deps.seedEntropy,
    newId: ctx.newId,
    codes: { kind: TicketKind.lotto, publicKey: deps.keys.publicKey, name: 'lotto receipt', noun: 'receipt' },
    seedLine: 'lotto',
    products: ['lotto'],
    loadDraw,
    planOf,
    scope: ctx.drawScope,
    forget: ctx.forget,
    rules: { postpone: 'LNS-22', cancel: 'LNS-22', incident: 'LNS-17' },
    // LNS-13: staff may close a lotto draw's sales before the planned time, with a recorded reason.
    earlyClose: 'with_reason',
    // LNS-8: every manual lotto draw is made with a registered, certified blower or tómbola of its hall.
    registeredDevice: () => true,
    texts: {
      notClosed: (row) => `draw ${row.id} is ${row.status}; sales must be closed first (LNS-13)`,
      notRng: 'this draw is made with an authorised blower or tómbola: enter its balls (LNS-8, RNG-26)',
      noProof: 'a blower draw has no RNG proof; its balls are in the minutes',
      listChanged: (drawId) =>
        `the slips in play of draw ${drawId} no longer give the sales digest fixed at the close of sales`,
    },
    // Issue 26 (GEN-6): RNG draws by a registered, certified RNG device where the profile requires one.
    rngDevice: {
      required: deps.softwareDraw.rngDeviceRequired ?? false,
      typeApproval: deps.softwareDraw.rngTypeApproval ?? false,
    },
    demoReferencesRefused: deps.softwareDraw.demoReferencesRefused ?? false,
    checkRng(plan) {
      checkSoftwareDraw('rng', deps.softwareDraw)
      checkDemoReferences(plan, deps.softwareDraw)
    },
    readyToDraw,
    // LNS-16: the first `drawCount` values of the order of balls 1..range, over the receipt numbers in play.
    async rngList(tx, row, plan) {
      return {
        serials: (await ctx.slipsOfDraw(tx, row, 'active')).map((s) => s.id),
        ballCount: plan.range,
        count: plan.drawCount,
        toDrawn: (v) => v,
        toValue: (b) => b,
        includeSerials: true,
      }
    },
    drawnRecord: (balls) => ({ balls, numbers: [...balls].sort((a, b) => a - b) }),
    proofExtra: (_row, plan, balls) => ({
      numbers: [...balls].sort((a, b) => a - b),
      note: `lotto draw of ${plan.drawCount} numbers: the first ${plan.drawCount} of the extraction order of balls 1..${plan.range}`,
    }),
  })

  return { ...ctx, readyToDraw, life }
}
