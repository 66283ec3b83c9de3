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
import type { LottoPlan } from './plan.ts'
import { lottoDrawById, lottoDrawByNumber, slipsCoveringDraw, type DrawRow, type SlipRow } from './store.ts'

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
  row: DrawRow
  plan: LottoPlan
}

export type LottoContext = ReturnType<typeof createLottoContext>

export function createLottoContext(deps: LottoDeps) {
  const { db, clock } = deps
  const planCache = new Map<string, PlannedDraw>()
  const planOf = (row: DrawRow) => JSON.parse(row.plan) as LottoPlan
  /** Issue 17: the wall clock a draw's documents print: its plan's zone, else the operator's. */
  const zoneOf = (plan: LottoPlan): string | null => plan.timeZone ?? deps.timeZone ?? null

  async function loadDraw(tx: Sql, drawId: string): Promise<DrawRow> {
    const row = await lottoDrawById(tx, drawId)
    if (!row) throw new DomainError('NOT_FOUND', `lotto draw ${drawId} not found`, { drawId })
    return row
  }

  return {
    deps,
    db,
    clock,
    now: () => clock.now().toISOString(),
    newId: (prefix: string): string => recordId(prefix, deps.entropy.randomBytes(RECORD_ID_BYTES)),
    /** Journal scope of a draw's records (the minutes read them back by this prefix). */
    drawScope: (r: { game_code: string; id: string }) => `lotto:${r.game_code}/draw:${r.id}`,
    planOf,
    zoneOf,
    loadDraw,

    /** Plans are immutable, so a draw's plan may be cached; its status is always re-read where it matters. */
    async cached(drawId: string): Promise<PlannedDraw> {
      let hit = planCache.get(drawId)
      if (!hit) {
        const row = await loadDraw(db, drawId)
        hit = { row, plan: planOf(row) }
        planCache.set(drawId, hit)
      }
      return hit
    },
    async cachedByNumber(gameCode: string, drawNo: number): Promise<PlannedDraw | null> {
      const key = `${gameCode}#${drawNo}`
      let hit = planCache.get(key)
      if (!hit) {
        const row = await lottoDrawByNumber(db, gameCode, drawNo)
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
    async slipsOfDraw(tx: Sql, row: DrawRow, status: 'active' | 'inactive'): Promise<SlipRow[]> {
      const rows = await slipsCoveringDraw(tx, row.game_code, row.draw_no, status)
      const order = new Map(sortByBytes(rows.map((r) => r.id)).map((id, i) => [id, i]))
      return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
    },
  }
}
