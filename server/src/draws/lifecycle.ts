/**
 * One draw lifecycle for lotto (LNS-*), numbered lotteries (LOT-*) and raffles, tombolas and promotional draws
 * (PRM-*), over the rows they share (lottery_draws, lottery_payouts): close of sales, beacon, RNG draw, proof,
 * postponement, incidents, settlement, unclaimed prizes and their disposal, the prize register, and the checks a
 * payout starts with. Each line gives a small {@link DrawLine} object with what differs: which tickets are in play
 * and how the RNG's values map to balls or numbers, the readiness checks of its regulation, the texts of its refusals
 * and the fields of its journal records. The record kinds stay `<product>.<event>` and the proof stays
 * bolillo-draw-v2 (DESIGN.md).
 *
 * The twin use cases this replaced (lotto/ | lottery/, same name, same tables), and what really differed:
 * - closeSales: lotto excludes plays it cannot process and writes excluded.csv (LNS-21); a raffle drawn among sold
 *   tickets needs one ticket per prize. Shared: the state check, the close-time rule (LNS-13: lotto may close early
 *   with a reason, a ticket line never, as the line's `earlyClose`), the participation file and its SHA-256, D, t
 *   and R, the row update.
 * - participationFile: lotto also serves the excluded list. Shared: the file under DATA_DIR/<product>/<draw>/.
 * - recordBeacon: identical but for the refusal texts.
 * - drawRng: lotto draws k of balls 1..range over the receipt numbers and first checks LNS-14/LNS-21; a lottery
 *   draws among M issued numbers, a raffle among the tickets in play. Shared: the beacon fetched outside the
 *   transaction, the seed, the order, the D check, the row and the `<product>.drawn` record.
 * - enterBall / enterNumber: the value's check (a lotto ball and its ball sets; a number of the numbering, or a
 *   ticket in play) and the record (`ball_drawn` + `drawn`, or `number_drawn`). Shared: the state, method, date and
 *   device checks (the line's `registeredDevice`: a raffle's tómbola is the organiser's).
 * - getProof: what the proof lists (soldSerials always, or when at most 200,000) and its note. Shared: v1 and v2.
 * - postpone, recordIncident, disposeUnclaimed: identical but for the rule cited (LNS-22 / LOT-21, LNS-17).
 * - settle: the matching (lotto: boards against balls with carry-over, LNS-4; lottery: exact numbers,
 *   approximations, terminations; raffle: the order of the draw). Shared: the state check, the row and record.
 * - unclaimed: lotto lists its unpaid winning plays; a lottery counts the liability of the tickets in play less
 *   what was paid. Shared: the state check, prescription and the charity date (LOT-23, LOT-24).
 * - prizeRegister: lotto names the game, a ticket line the product. Shared: the query.
 * - plan (createDraw / createLottery, createRaffle): the line parses and checks its plan (lotto: licence range,
 *   sibling draws, carried money; a lottery: licence maximum, and its per-issue secret). Shared: the sealed seed
 *   and commitment, the device of a manual draw, the row and `<product>.draw_planned` with the RNG authorisation.
 * - pay: lotto pays per draw of a slip with the buyer's document (GEN-16); a lottery pays a fraction, a tómbola an
 *   object chosen (PRM-2). Shared: the payee's data (INS-5), the validation repeated in the transaction and the
 *   outcomes that refuse a payout, and per payout the register row, its record and the drawer movement.
 * - validate: the line's ticket (slip and its draws; fraction, print run and ranges; raffle sale) and prizes.
 *   Shared: reading the signed code (LOT-8) and where a ticket stands in a draw (claimOf).
 * - the routes of these steps (draws/routes.ts), the same under /api/lotto and /api/lottery.
 * - getDraw, listDraws: the line's own fields (lotto: balls, notarial act, ball sets; a ticket line: numbers drawn,
 *   tickets issued). Shared (viewOf): state, commitment, the seed once an RNG draw has ended, close facts, beacon,
 *   participation, times and zone.
 * - extracto, acta: the line's results, prizes and what was in play. Shared (extractoOf, minutesOf): the draw, its
 *   method and device, proof, claim period, legend, cancellation and signatures; their PDFs are laid out on one
 *   frame (printer/src/lottery-pdf.ts renderExtracto, renderActa).
 */
import { assertHoldsHall } from '../access/acting-hall.ts'
import { SIGNED_RECEIPT, type DrawStaff, type PayeeData } from './types.ts'
import { createHash, type KeyObject } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import type { Database, Sql } from '../db/database.ts'
import type { BeaconValue, BeaconSource } from '../shared/beacon-source.ts'
import type { Clock, EntropySource } from '../shared/clock.ts'
import { extractionDevice, registeredRng } from '../equipment/devices.ts'
import { softwareBuild } from '../equipment/software.ts'
import { roundTime } from '../shared/beacon.ts'
import { DRAW_PROOF_VERSION, salesDigest, type DrawProof } from '../shared/draw-proof.ts'
import {
  buildDrawProofV2,
  drawOrderV2,
  DRAW_PROOF_V2,
  unixSecondsOf,
  type DrawInputV2,
  type DrawProofV2,
} from '../shared/draw-proof-v2.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal, readJournal } from '../shared/journal.ts'
import { chainOfScope } from '../shared/journal-chain.ts'
import { requireChain } from '../db/scopes.ts'
import { sealCodeOfDevice } from '../access/device-marks.ts'
import {
  assertDrawDate,
  charityDueBy,
  checkCloseOfSales,
  isClaimExpired,
  postponedDates,
  type EarlyClose,
  AJ_LEGEND,
} from '../shared/lottery-common.ts'
import {
  beaconKeyOf,
  beaconRoundOf,
  beaconSummary,
  closeFacts,
  newSealedSeed,
  parseBeacon,
  proofFacts,
  seedContext,
  seedOf,
  type Actor,
} from '../shared/lottery-draw-v2.ts'
import type { Sealer } from '../shared/sealing.ts'
import type { OnPaid } from '../shared/settlement.ts'
import { verifyTicketCode } from '../shared/ticket-code.ts'
import { protectDocument } from '../shared/journal-privacy.ts'
import { openDocumentAtRest, sealDocumentAtRest } from '../shared/document-at-rest.ts'
import {
  insertDraw,
  insertPayout,
  markDrawCancelled,
  paidAtOf,
  markDrawClosed,
  markDrawn,
  markDrawSettled,
  payoutsOf,
  postponeDrawRow,
  recordDisposal,
  recordDrawBeacon,
  recordDrawnValues,
  type Draw,
} from './store.ts'

/** What every plan of the three lines states about its dates and method. */
export interface LifecyclePlan {
  name: string
  drawNumber: number
  currency: string
  salesStartAt: string
  salesCloseAt: string
  drawAt: string
  claimDeadline: string
  drawMethod: 'rng' | 'manual'
  /** A manual draw's device (its registry id once planned) and the hall it draws in. */
  drawDevice: string | null
  drawHallId?: string | null
  drawPlace: string
  paymentPlace: string
  /** LOT-19: the people who sign the minutes. */
  staff: DrawStaff
}

/** The list a draw is made over, fixed at its close, and how the RNG's values 1..ballCount become balls or numbers. */
export interface RngList {
  /** The serials in play, sorted by bytes (their digest is D). */
  serials: string[]
  ballCount: number
  /** How many values the draw takes. */
  count: number
  /** Value v of the extraction order as the ball or number recorded. */
  toDrawn(v: number): number
  /** Its inverse, for a proof made before v2. */
  toValue(drawn: number): number
  /** Whether the published proof lists the serials (a very large issue does not). */
  includeSerials: boolean
}

/** The device a manual value was entered from, as its journal records name it (registry id and seal code). */
export interface ManualDevice {
  device: string | null
  sealCode: string | null
}

/** What a line's close of sales fixes: the participation it writes and the counts it reports. */
export interface ClosedParticipation {
  /** The serials in play, sorted by bytes. */
  serials: string[]
  entries: number
  plays: number | null
  salesCents: number
  participationSha256: string
  /** The record `<product>.sales_closed` (the shared facts of D, t and R are added) and the answer. */
  record: Record<string, unknown>
  /** Fields of the record after the actor and the early close's reason (the rule). */
  tail?: Record<string, unknown>
  answer: Record<string, unknown>
}

/** A line's rules of the lifecycle (lotto; lottery and raffle). */
export interface DrawLine<Row extends Draw, Plan extends LifecyclePlan> {
  db: Database
  clock: Clock
  dataDir: string
  beacon: BeaconSource
  sealer: Sealer
  /** Draw seeds: the health-tested source (RNG-32). */
  seedEntropy: EntropySource
  newId(prefix: string): string
  /** The signed codes of the line's tickets (LOT-8): their kind, the operator's key, and their names in refusals. */
  codes: { kind: string; publicKey: KeyObject | readonly KeyObject[]; name: string; noun: string }
  /** The sealing context of the seeds (DESIGN.md "Sealed secrets"). */
  seedLine: 'lotto' | 'lottery'
  /** The products whose payouts the prize register lists. */
  products: readonly string[]
  loadDraw(tx: Sql, drawId: string): Promise<Row>
  planOf(row: Row): Plan
  /** Journal scope of a draw's records (the minutes read them back by this prefix). */
  scope(row: Pick<Draw, 'product' | 'gameCode' | 'id'>): string
  /** Drops what the line caches of a draw after it changed. */
  forget(drawId: string): void
  /** The rule each step cites in its record. */
  rules: { postpone: string; cancel: string; incident?: string }
  /** Whether sales may close before the plan's close time, with a recorded reason (LNS-13; shared/lottery-common). */
  earlyClose: EarlyClose
  /**
   * LNS-8 / LOT-18: whether a manual draw's device must be a registered, certified extraction device of its hall,
   * checked at planning and at every ball or number (lotto, a numbered lottery); a raffle's tómbola is the organiser's.
   */
  registeredDevice(plan: Plan): boolean
  texts: { notClosed(row: Row): string; notRng: string; noProof: string; listChanged(drawId: string): string }
  /** Before a beacon is asked for: the software draw's authorisation, demo references (INS-16, RNG-26). */
  checkRng(plan: Plan): void
  /**
   * Issue 26 (GEN-6, profile rngDeviceRequired): an RNG draw is planned and drawn only while a registered, sealed and
   * certified RNG device serves its hall or the operator (type-approved where `typeApproval`). Absent: not required.
   */
  rngDevice?: { required: boolean; typeApproval: boolean }
  /**
   * Issue 24 point 4: the server runs without the demo (config.production): a DEMO seal, certificate or type approval
   * of the extraction or RNG device counts as none. Required, so that no line leaves it out.
   */
  demoReferencesRefused: boolean
  /** Inside the transaction, before the first ball or the RNG draw (lotto: LNS-14, LNS-21). */
  readyToDraw(tx: Sql, row: Row, plan: Plan): Promise<void>
  rngList(tx: Sql, row: Row, plan: Plan): Promise<RngList>
  /** The balls or numbers in the `<product>.drawn` record. */
  drawnRecord(values: number[]): Record<string, unknown>
  /** What the proof adds: the mapping, the winning numbers, a note. */
  proofExtra(row: Row, plan: Plan, values: number[]): Record<string, unknown>
}

/** Streams lines into a file and its SHA-256 at once (a participation file can be large). */
export function writeHashed(
  file: string,
  body: (out: (line: string) => void) => void,
): { sha256: string; bytes: number } {
  const hash = createHash('sha256')
  const fd = openSync(file, 'w')
  let bytes = 0
  let chunk: string[] = []
  const flush = () => {
    const buf = Buffer.from(chunk.join(''), 'utf8')
    hash.update(buf)
    writeSync(fd, buf)
    bytes += buf.length
    chunk = []
  }
  try {
    body((line) => {
      chunk.push(line)
      if (chunk.length >= 8192) flush()
    })
    flush()
  } finally {
    closeSync(fd)
  }
  return { sha256: hash.digest('hex'), bytes }
}

/**
 * Whether the draw (the sorteo) has begun, so that what decides a ticket's prize may no longer change (LNS-20,
 * 002 §7.3.6 "pudiendo efectuarse modificaciones a éstos antes del sorteo"). The close of sales comes before the
 * draw (002 §7.3.4.2 "Previo a la realización del sorteo, se deberá efectuar el cierre de ventas"), so a closed draw
 * has not begun by itself. It has begun once drawn, once its first ball or number is entered (002 §7.3.4.5
 * "Extracción de los Bolillos", a manual draw stays `closed` until its last ball), and, for a draw by software, once
 * its beacon is recorded or beacon round R has been published: from then the result exists.
 */
export function drawHasBegun(
  row: Pick<Draw, 'status' | 'balls' | 'beacon' | 'beaconRound' | 'closedAt'>,
  method: 'rng' | 'manual',
  nowIso: string,
): boolean {
  if (row.status !== 'open' && row.status !== 'closed') return true
  if (row.balls && (JSON.parse(row.balls) as unknown[]).length > 0) return true
  if (row.status !== 'closed' || method !== 'rng') return false
  if (row.beacon) return true
  return Date.parse(nowIso) >= roundTime(beaconRoundOf(row)) * 1000
}

/** What the cash desk asks of a line's payout: the code presented, who pays where, the payee, the drawer movement. */
export interface PayInput {
  code: string
  stationId: string
  cashierId: string
  payee: PayeeData
  /** The cash desk's drawer movement, in the payout's transaction (issue 23: no payout without its cash). */
  onPaid: OnPaid
  /**
   * The journal chains the payout locks (db/scopes.ts), decided by the cash desk from the line and the paying
   * station; none: every chain.
   */
  scopes?: readonly string[]
}

/** One payout row (a prize or a refund) of a ticket for a draw, as the line lays it out. */
export interface Payout {
  drawId: string
  product: string
  ticketId: string
  amountCents: number
  goods: string[]
  /** What the register lists as paid (the prizes, or the refund and its rule). */
  prizes: unknown[]
  currency: string
  refund: boolean
  /** Journal scope of the `<product>.prize_paid` / `refund_paid` record. */
  scope: string
  /** How the record names the ticket (lotto `receipt`, a lottery `ticketId`), then what it adds. */
  ticket: Record<string, unknown>
  detail?: Record<string, unknown>
  tail?: Record<string, unknown>
  /** GEN-23 / GEN-27: the identified buyers of the ticket (documents as recorded), asked about by the cash desk. */
  buyers?: readonly string[]
}

/**
 * Where a ticket stands in one draw (REGULATIONS.md §8): `refund` / `refunded` when the draw was cancelled (LNS-22,
 * LOT-21), `pending` until it is settled, then `no_win`, `paid`, `expired` after the claim deadline (LOT-23) or
 * `win`.
 */
export type ClaimState = 'pending' | 'no_win' | 'win' | 'paid' | 'expired' | 'refund' | 'refunded'

/** The outcomes of a validation that refuse a payout, and the error each gives. VOID and lost/stolen are the line's. */
const REFUSED = {
  ALREADY_PAID: 'ALREADY_PAID',
  EXPIRED: 'TICKET_EXPIRED',
  PENDING: 'PRIZE_PENDING',
  NO_WIN: 'NOT_A_WINNER',
  REPORTED_LOST_STOLEN: 'TICKET_BLOCKED',
} as const

/**
 * Refuses a payout whose validation does not allow it (REGULATIONS.md §8); `voidCode` names a void code's error.
 * `product` lets the refusal name what was presented (a lotto slip, a lottery ticket, a raffle ticket).
 */
export function assertPayable(
  v: { outcome: string; reason: string },
  voidCode: 'INVALID_SIGNATURE' | 'TICKET_VOID',
  product?: string,
) {
  if (v.outcome === 'VOID') throw new DomainError(voidCode, v.reason, { outcome: v.outcome })
  const code = REFUSED[v.outcome as keyof typeof REFUSED]
  if (code) throw new DomainError(code, v.reason, product ? { outcome: v.outcome, product } : { outcome: v.outcome })
}

/** INS-5 (and LNS-25): the prize register names the payee with first and last names and an identity document. */
export function assertPayee(p: { name: string; document: string } | undefined, rules: string): void {
  if (
    ![p?.name, p?.document].every((x) => typeof x === 'string' && x.trim()) ||
    p!.name.trim().split(/\s+/).length < 2
  ) {
    throw new DomainError(
      'PAYEE_ID_REQUIRED',
      `the prize register needs the payee first and last names and identity document (${rules})`,
      { rule: 'INS-5' },
    )
  }
}

/** The steps answer nothing of the draw: each line answers its own view of it. */
export function createDrawLifecycle<Row extends Draw, Plan extends LifecyclePlan>(line: DrawLine<Row, Plan>) {
  const { db, clock, loadDraw, planOf, scope, forget, texts } = line
  const now = () => clock.now().toISOString()
  const drawDir = (row: Row) => join(line.dataDir, row.product, row.id)

  // ---------------------------------------------------------------------------------------- plan

  /**
   * Plans a draw (LOT-3, LOT-5, CFG-44) from a plan the line has parsed and checked: takes the seed from the
   * health-tested source (RNG-32), seals it at once and publishes its commitment. A manual draw names a registered,
   * sealed, certified extraction device of its hall (LNS-8, LOT-18), the plan keeping its id; the line's own checks
   * (`check`) and rows (`after`) run in the same transaction. The record `<product>.draw_planned` names the AJ
   * authorisation of a software draw where the line gives one (RNG-26). Answers the new draw's id.
   */
  async function plan<P extends Plan & { gameCode: string }>(
    input: {
      product: string
      idPrefix: string
      plan: P
      priceCents: number
      rngAuthorisation?: string | null
    },
    check: (tx: Sql) => Promise<void> = async () => {},
    after: (tx: Sql, drawId: string) => Promise<void> = async () => {},
    /** The caller's transaction, when several draws are planned all or none (PRM-9's successive draws). */
    within?: Sql,
  ): Promise<string> {
    const { product, plan: p } = input
    const id = line.newId(input.idPrefix)
    const { commitment, sealed, source } = newSealedSeed(line.seedEntropy, line.sealer, seedContext(line.seedLine, id))
    const inTx = (body: (tx: Sql) => Promise<void>) => (within ? body(within) : db.transaction(body))
    // Issue 23 point 3: a draw held in a hall, with that hall's devices, is planned by someone who holds that hall,
    // whatever hall the request names; a draw of no hall by the lottery staff the permission gate lets in.
    if (p.drawHallId) assertHoldsHall(p.drawHallId, `${product} draw`)
    await inTx(async (tx) => {
      if (p.drawMethod === 'manual' && line.registeredDevice(p))
        p.drawDevice = (
          await extractionDevice(tx, p.drawDevice, p.drawHallId ?? null, clock.now(), line.demoReferencesRefused)
        ).id
      const rng = p.drawMethod === 'rng' ? await rngOf(tx, p.drawHallId ?? null) : null
      await check(tx)
      const at = now()
      await insertDraw(tx, {
        id,
        product,
        gameCode: p.gameCode,
        drawNo: p.drawNumber,
        planJson: JSON.stringify(p),
        currency: p.currency,
        priceCents: input.priceCents,
        salesStartAt: p.salesStartAt,
        salesCloseAt: p.salesCloseAt,
        drawAt: p.drawAt,
        claimDeadline: p.claimDeadline,
        drawMethod: p.drawMethod,
        commitment,
        seedSealed: sealed,
        entropySource: source,
        createdAt: at,
      })
      await after(tx, id)
      await appendJournal(tx, {
        at,
        type: `${product}.draw_planned`,
        scope: scope({ product, gameCode: p.gameCode, id }),
        payload: {
          drawId: id,
          plan: p,
          commitment,
          entropySource: source,
          ...(input.rngAuthorisation !== undefined ? { rngAuthorisation: input.rngAuthorisation } : {}),
          ...(rng ? { rngDevice: rng, rule: 'GEN-6' } : {}),
        },
      })
    })
    return id
  }

  /** Issue 26 (GEN-6): the registered RNG that draws, where the profile requires one; null where it does not. */
  async function rngOf(tx: Sql, hallId: string | null) {
    if (!line.rngDevice?.required) return null
    const d = await registeredRng(tx, hallId, clock.now(), {
      typeApproval: line.rngDevice.typeApproval,
      demoRefused: line.demoReferencesRefused,
    })
    return { id: d.id, sealCode: d.sealCode, certificateId: d.certificateId, typeApprovalNo: d.typeApprovalNo }
  }

  // ---------------------------------------------------------------------------------------- close of sales

  /**
   * Closes the sales of an open draw: the line fixes what is in play and writes the participation file (LNS-13,
   * LNS-14); this fixes D over the serials, the close time t and the beacon round R (bolillo-draw-v2 step 2) and
   * journals them with the file's SHA-256 before anything else happens.
   */
  async function closeSales(
    drawId: string,
    actor: Actor | null,
    inPlay: (tx: Sql, row: Row, plan: Plan, at: string, dir: string) => Promise<ClosedParticipation>,
    earlyReason: string | null = null,
  ): Promise<Record<string, unknown>> {
    const result = await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      if (row.status !== 'open') throw new DomainError('ILLEGAL_TRANSITION', texts.notClosed(row))
      const plan = planOf(row)
      const at = now()
      // LNS-13: one close-time rule for every line; the line says whether an early close with a reason is allowed.
      const early = checkCloseOfSales(at, plan.salesCloseAt, line.earlyClose, earlyReason)
      const dir = drawDir(row)
      mkdirSync(dir, { recursive: true })
      const p = await inPlay(tx, row, plan, at, dir)
      const digest = salesDigest(p.serials)
      const facts = closeFacts(at)
      await markDrawClosed(tx, drawId, {
        at,
        salesDigest: digest,
        beaconRound: facts.beaconRound,
        participationSha256: p.participationSha256,
        entries: p.entries,
        plays: p.plays,
        salesCents: p.salesCents,
      })
      const close = {
        salesDigest: digest,
        closedAt: facts.closedAt,
        closedAtUnix: facts.closedAtUnix,
        beaconRound: facts.beaconRound,
        beaconPublishedAt: facts.beaconPublishedAt,
      }
      await appendJournal(tx, {
        at,
        type: `${row.product}.sales_closed`,
        scope: scope(row),
        payload: {
          drawId,
          ...p.record,
          participationSha256: p.participationSha256,
          ...close,
          actor,
          // The reason of an early close, where the line allows one (null when closed on time).
          ...(line.earlyClose === 'with_reason' ? { early: early.reason } : {}),
          ...p.tail,
        },
      })
      return {
        drawId,
        closedAt: at,
        closedAtUnix: facts.closedAtUnix,
        beaconRound: facts.beaconRound,
        beaconPublishedAt: facts.beaconPublishedAt,
        ...p.answer,
        participationSha256: p.participationSha256,
        salesDigest: digest,
      }
    })
    forget(drawId)
    return result
  }

  /** The published participation file (LNS-14) or lotto's excluded list; its SHA-256 is in the journal and minutes. */
  async function participationFile(
    drawId: string,
    which: 'participation' | 'excluded' = 'participation',
  ): Promise<Buffer> {
    const row = await loadDraw(db, drawId)
    if (!row.participationSha256)
      throw new DomainError('ILLEGAL_TRANSITION', 'the participation file is produced at the close of sales')
    return readFileSync(join(drawDir(row), `${which}.csv`))
  }

  // ---------------------------------------------------------------------------------------- the draw

  /** A closed RNG draw, or the reason it cannot take a beacon or be drawn. */
  function assertRngClosed(row: Row): Plan {
    const plan = planOf(row)
    if (row.status !== 'closed') throw new DomainError('ILLEGAL_TRANSITION', texts.notClosed(row))
    if (plan.drawMethod !== 'rng') throw new DomainError('RULE_DISABLED', texts.notRng)
    return plan
  }

  /**
   * Beacon round R's signature typed in by staff from any public source (DESIGN.md point 3): verified against the
   * quicknet key and kept for the draw. A wrong one is refused (INVALID_SIGNATURE) and journaled with who typed it.
   */
  async function recordBeacon(drawId: string, signature: string, actor: Actor | null = null): Promise<void> {
    const pre = await loadDraw(db, drawId)
    assertRngClosed(pre)
    assertDrawDate(planOf(pre).drawAt, now())
    const round = beaconRoundOf(pre)
    let value: BeaconValue
    try {
      value = line.beacon.acceptTyped(round, signature)
    } catch (e) {
      if (e instanceof DomainError && e.code === 'INVALID_SIGNATURE') {
        // Issue 23 point 5: one record and no row, in the draw's product chain (the operator's for a raffle): that
        // chain's lock alone, never every hall's.
        await db.transaction(
          (tx) =>
            appendJournal(tx, {
              at: now(),
              type: `${pre.product}.beacon_refused`,
              scope: scope(pre),
              payload: {
                drawId,
                round,
                signature: String(signature).slice(0, 200),
                reason: e.message,
                source: 'staff',
                actor,
              },
            }),
          { scopes: [chainOfScope(scope(pre))] },
        )
      }
      throw e
    }
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      assertRngClosed(row)
      if (!(await recordDrawBeacon(tx, drawId, JSON.stringify(value))))
        throw new DomainError('CONFLICT', `beacon round ${round} of draw ${drawId} is already recorded`)
      await appendJournal(tx, {
        at: now(),
        type: `${row.product}.beacon_recorded`,
        scope: scope(row),
        payload: { drawId, ...beaconSummary(value), actor },
      })
    })
    forget(drawId)
  }

  /** The draw input over the list fixed at the close; D must be the one fixed then. */
  async function orderInput(tx: Sql, row: Row, plan: Plan, value: BeaconValue, seed: Uint8Array) {
    const list = await line.rngList(tx, row, plan)
    const input: DrawInputV2 = {
      seed,
      gameId: row.id,
      serials: list.serials,
      closedAt: unixSecondsOf(row.closedAt!),
      beaconKey: beaconKeyOf(value),
      beacon: value,
      ballCount: list.ballCount,
    }
    return { list, input }
  }

  /**
   * RNG draw (bolillo-draw-v2): waits for beacon round R (BEACON_PENDING until it is published), then takes the
   * line's count of values of the extraction order over the list in play. The list must still give the D fixed at
   * the close. No person supplies any entropy.
   */
  async function drawRng(drawId: string, actor: Actor | null = null): Promise<void> {
    const pre = await loadDraw(db, drawId)
    assertRngClosed(pre)
    assertDrawDate(planOf(pre).drawAt, now())
    // INS-16 / RNG-26, issue 24 point 4: no beacon is asked for a draw that may not be drawn by software here.
    line.checkRng(planOf(pre))
    const round = beaconRoundOf(pre)
    // Network outside the transaction; a value typed in meanwhile is used first.
    const fetched = parseBeacon(pre.beacon) ?? (await line.beacon.obtain(round, clock.now(), { drawId }))
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = assertRngClosed(row)
      await line.readyToDraw(tx, row, plan)
      // Issue 26 (GEN-6): the RNG device must still be fit at the draw (a suspended or expired one draws nothing).
      const rng = await rngOf(tx, (plan as { drawHallId?: string | null }).drawHallId ?? null)
      const value = parseBeacon(row.beacon) ?? fetched
      const seed = seedOf(line.sealer, seedContext(line.seedLine, row.id), row)
      const { list, input } = await orderInput(tx, row, plan, value, seed)
      const { salesDigest: digest, order } = drawOrderV2(input)
      if (digest !== row.salesDigest) throw new DomainError('CONFLICT', texts.listChanged(drawId))
      const values = order.slice(0, list.count).map(list.toDrawn)
      const at = now()
      const seedHex = seed.toString('hex')
      const engine = softwareBuild('draw-engine')
      await markDrawn(tx, drawId, {
        valuesJson: JSON.stringify(values),
        at,
        beaconJson: JSON.stringify(value),
        seedHex,
      })
      await appendJournal(tx, {
        at,
        type: `${row.product}.drawn`,
        scope: scope(row),
        payload: {
          drawId,
          source: 'rng',
          version: DRAW_PROOF_V2,
          beacon: beaconSummary(value),
          ...line.drawnRecord(values),
          seed: seedHex,
          actor,
          ...(rng ? { rngDevice: rng } : {}),
          // Issue 26 (RNG-32 point 4): the draw log names the draw engine's version and build hash.
          software: { version: engine.version, buildSha256: engine.buildSha256 },
        },
      })
    })
    forget(drawId)
  }

  /**
   * A ball or number read from an authorised blower or tómbola (LNS-8, LNS-16, LOT-18). The device is checked here,
   * against the registry as each value is entered (`deviceId`, else the plan's); the line checks the value and
   * journals it with the device (`accept`); the draw is complete at the line's count.
   */
  async function enterValue(
    drawId: string,
    deviceId: string | null,
    accept: (
      tx: Sql,
      row: Row,
      plan: Plan,
      drawn: number[],
      device: ManualDevice,
    ) => Promise<{ values: number[]; complete: boolean; record(at: string): Promise<unknown> }>,
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'closed') throw new DomainError('ILLEGAL_TRANSITION', texts.notClosed(row))
      if (plan.drawMethod !== 'manual')
        throw new DomainError('RULE_DISABLED', 'this draw is made by the bolillo-draw-v2 RNG')
      assertDrawDate(plan.drawAt, now())
      await line.readyToDraw(tx, row, plan)
      // LNS-8 / LOT-18: a registered, certified, active device of the draw's hall, read as each value is entered.
      const ref = deviceId ?? plan.drawDevice
      const registered = line.registeredDevice(plan)
        ? await extractionDevice(tx, ref, plan.drawHallId ?? null, clock.now(), line.demoReferencesRefused)
        : null
      const device = { device: registered?.id ?? ref, sealCode: registered?.sealCode ?? null }
      const a = await accept(tx, row, plan, row.balls ? (JSON.parse(row.balls) as number[]) : [], device)
      const at = now()
      await recordDrawnValues(tx, drawId, JSON.stringify(a.values), a.complete ? at : null)
      await a.record(at)
    })
    forget(drawId)
  }

  /**
   * The published proof, once drawn: bolillo-draw-v2 with the draw id as gameId over the list fixed at the close.
   * A draw made before v2 keeps its v1 proof.
   */
  async function getProof(drawId: string): Promise<(DrawProofV2 | DrawProof) & Record<string, unknown>> {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    if (plan.drawMethod !== 'rng') throw new DomainError('RULE_DISABLED', texts.noProof)
    if (row.status !== 'drawn' && row.status !== 'settled')
      throw new DomainError('ILLEGAL_TRANSITION', 'the proof is published after the draw')
    const values = JSON.parse(row.balls!) as number[]
    const extra = line.proofExtra(row, plan, values)
    const value = parseBeacon(row.beacon)
    if (!value) {
      // Drawn before v2: its v1 proof.
      const list = await line.rngList(db, row, plan)
      return {
        version: DRAW_PROOF_VERSION,
        gameId: row.id,
        commitment: row.commitment,
        seed: row.seedHex,
        salesDigest: row.salesDigest!,
        externalEntropy: row.externalEntropy ?? '',
        ballCount: list.ballCount,
        balls: values.map(list.toValue),
        ...(list.includeSerials ? { soldSerials: list.serials } : {}),
        ...extra,
      }
    }
    const { list, input } = await orderInput(db, row, plan, value, Buffer.from(row.seedHex, 'hex'))
    const proof = buildDrawProofV2({ ...input, calledCount: list.count, includeSerials: list.includeSerials })
    if (proof.salesDigest !== row.salesDigest || proof.balls.some((b, i) => list.toDrawn(b) !== values[i]))
      throw new DomainError('CONFLICT', `draw ${drawId} no longer matches its close of sales`)
    return { ...proof, ...extra }
  }

  // ---------------------------------------------------------------------------------------- incidents, dates

  /**
   * LOT-21 / LNS-22: an authorised postponement of a draw not yet drawn: a new draw date with the AJ authorisation
   * reference and the reason; the claim deadline keeps its 60 full days from the new date (LOT-23). Journaled with
   * the person.
   */
  async function postpone(
    drawId: string,
    input: { drawAt: string; authorisationRef: string; reason: string },
    actor: Actor,
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      if (row.status !== 'open' && row.status !== 'closed')
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `draw ${drawId} is ${row.status}: only a draw not yet drawn is postponed`,
        )
      const plan = planOf(row)
      const dates = postponedDates(plan, input, now())
      if (
        !(await postponeDrawRow(tx, drawId, JSON.stringify({ ...plan, ...dates }), dates.drawAt, dates.claimDeadline))
      )
        throw new DomainError('CONFLICT', `draw ${drawId} changed meanwhile`)
      await appendJournal(tx, {
        at: now(),
        type: `${row.product}.draw_postponed`,
        scope: scope(row),
        payload: {
          drawId,
          from: { drawAt: plan.drawAt, claimDeadline: plan.claimDeadline },
          to: dates,
          authorisationRef: input.authorisationRef.trim(),
          reason: input.reason.trim(),
          actor,
          rule: line.rules.postpone,
        },
      })
    })
    forget(drawId)
  }

  /**
   * LOT-21 / LNS-22 (002 §7.1.4 and §7.3.9 "desistimiento o renuncia ... previa autorización de la AJ"): a draw that
   * has not begun (drawHasBegun) is withdrawn or renounced with the AJ authorisation reference and a justified
   * reason. It takes no more sales, numbers or settlement; what the line counts as to be refunded (`toRefund`: the
   * tickets in the public's hands and their price) is refunded once each at the cash desk against the ticket's code,
   * through the line's payout (the desk's one door, out of the open shift's drawer). Journaled with the person.
   */
  async function cancel(
    drawId: string,
    input: { kind: 'withdrawal' | 'renunciation'; authorisationRef: string; reason: string },
    actor: Actor,
    toRefund: (tx: Sql, row: Row, plan: Plan) => Promise<Record<string, unknown> & { refundCents: number }>,
  ): Promise<void> {
    const rule = line.rules.cancel
    const authorisationRef = input.authorisationRef?.trim() ?? ''
    const reason = input.reason?.trim() ?? ''
    if (!authorisationRef)
      throw new DomainError('VALIDATION_FAILED', `a cancellation needs the AJ authorisation reference (${rule})`, {
        problems: [{ field: 'authorisationRef', rule, message: 'required' }],
      })
    if (reason.length < 5)
      throw new DomainError('VALIDATION_FAILED', `a cancellation states its justified reason (${rule})`, {
        problems: [{ field: 'reason', rule, message: 'required' }],
      })
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (drawHasBegun(row, plan.drawMethod, now()))
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `draw ${drawId} is ${row.status}${row.balls ? `, values ${row.balls} in` : ''}: only a draw not yet begun is withdrawn or renounced (${rule})`,
          { rule },
        )
      const refunds = await toRefund(tx, row, plan)
      if (!(await markDrawCancelled(tx, drawId))) throw new DomainError('CONFLICT', `draw ${drawId} changed meanwhile`)
      await appendJournal(tx, {
        at: now(),
        type: `${row.product}.draw_cancelled`,
        scope: scope(row),
        payload: {
          drawId,
          kind: input.kind,
          authorisationRef,
          reason,
          statusBefore: row.status,
          ...refunds,
          actor,
          rule,
        },
      })
    })
    forget(drawId)
  }

  /** An incident of the draw, for its minutes (LNS-17, §7.11). */
  async function recordIncident(drawId: string, note: string): Promise<void> {
    if (!note.trim()) throw new DomainError('VALIDATION_FAILED', 'an incident needs its description')
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      await appendJournal(tx, {
        at: now(),
        type: `${row.product}.incident`,
        scope: scope(row),
        payload: { drawId, note, status: row.status, ...(line.rules.incident ? { rule: line.rules.incident } : {}) },
      })
    })
  }

  // ---------------------------------------------------------------------------------------- settlement

  /**
   * Settles a drawn draw: the line matches what is in play against the values drawn (`match`, in this transaction)
   * and gives its result and the fields of its `<product>.settled` record.
   */
  async function settle<Result>(
    drawId: string,
    match: (
      tx: Sql,
      row: Row,
      plan: Plan,
      drawn: number[],
    ) => Promise<{ result: Result; record: Record<string, unknown> }>,
  ): Promise<Result> {
    const result = await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'drawn')
        throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}; it is settled once drawn`)
      const m = await match(tx, row, plan, JSON.parse(row.balls!) as number[])
      const at = now()
      await markDrawSettled(tx, drawId, JSON.stringify(m.result), at)
      await appendJournal(tx, {
        at,
        type: `${row.product}.settled`,
        scope: scope(row),
        payload: { drawId, ...m.record },
      })
      return m.result
    })
    forget(drawId)
    return result
  }

  // ---------------------------------------------------------------------------------------- extracto and minutes

  /**
   * What the extracto (official results, LNS-10, LOT-17) is made from: a settled draw, its plan and, for an RNG
   * draw, the facts of its proof. The line lays out its own results.
   */
  async function extractoOf(drawId: string) {
    const row = await loadDraw(db, drawId)
    if (row.status !== 'settled')
      throw new DomainError('ILLEGAL_TRANSITION', 'the extracto is published once the draw is settled')
    const plan = planOf(row)
    const proof = plan.drawMethod === 'rng' ? proofFacts(row) : null
    return {
      row,
      plan,
      proof,
      /** What every line's extracto states alike: the draw, how it was drawn, where and until when prizes are paid. */
      published: {
        title: 'Extracto oficial de resultados',
        drawId,
        drawNumber: plan.drawNumber,
        drawAt: plan.drawAt,
        drawPlace: plan.drawPlace,
        drawMethod: plan.drawMethod,
        drawDevice: plan.drawDevice,
        participationSha256: row.participationSha256,
        proof,
        claimDeadline: plan.claimDeadline,
        paymentPlace: plan.paymentPlace,
        legend: AJ_LEGEND,
        publishedAt: row.settledAt,
      },
    }
  }

  /**
   * What the draw minutes (acta, LNS-17, §7.11) are made from: the draw, its plan, every journal record of its scope
   * in order, its incidents and the facts of its proof. The line lays out its own minutes.
   */
  async function minutesOf(drawId: string) {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    const events: Array<{ seq: number; at: string; type: string; payload: Record<string, unknown>; hash: string }> = []
    for await (const r of readJournal(db, { scopePrefix: scope(row) }))
      events.push({ seq: r.seq, at: r.at, type: r.type, payload: r.payload as Record<string, unknown>, hash: r.hash })
    const cancelled = events.find((e) => e.type === `${row.product}.draw_cancelled`)
    return {
      row,
      plan,
      events,
      /** LNS-22 / LOT-21: the authorised withdrawal or renunciation, with its record (what the line refunds). */
      cancellation: cancelled
        ? {
            at: cancelled.at,
            kind: String(cancelled.payload.kind),
            authorisationRef: String(cancelled.payload.authorisationRef),
            reason: String(cancelled.payload.reason),
            payload: cancelled.payload,
          }
        : null,
      /** LOT-19: the participants who sign; the first is a lottery's Máxima Autoridad, a raffle's organiser. */
      signatures: (authorityRole = 'Máxima Autoridad Ejecutiva') => [
        { role: authorityRole, name: plan.staff.authority },
        { role: 'Director del Sorteo', name: plan.staff.director },
        { role: 'Moderador', name: plan.staff.moderator },
        { role: 'Notario de Fe Pública', name: plan.staff.notary },
      ],
      facts: plan.drawMethod === 'rng' ? proofFacts(row) : null,
      incidents: events
        .filter((e) => e.type === `${row.product}.incident`)
        .map((e) => ({ at: e.at, note: String(e.payload.note) })),
      journal: { records: events.length, lastSeq: events.at(-1)?.seq ?? null, lastHash: events.at(-1)?.hash ?? null },
      seed: (row.status === 'drawn' || row.status === 'settled') && row.seedHex ? row.seedHex : null,
    }
  }

  // ---------------------------------------------------------------------------------------- claim period

  /**
   * LOT-24: after prescription (LOT-23), what nobody claimed, its total and the date by which it must have gone to
   * charity and health purposes (prescription + 10 days). The line counts what is unclaimed (`amounts`).
   */
  async function unclaimed<Amounts extends { unclaimedCents: number; unclaimedGoods?: string[] }>(
    drawId: string,
    amounts: (row: Row, plan: Plan) => Promise<Amounts>,
  ) {
    const row = await loadDraw(db, drawId)
    if (row.status !== 'settled') throw new DomainError('ILLEGAL_TRANSITION', 'the draw is not settled')
    const at = now()
    return {
      drawId,
      product: row.product,
      claimDeadline: row.claimDeadline,
      prescribed: isClaimExpired(row.claimDeadline, at),
      charityDueBy: charityDueBy(row.claimDeadline),
      asOf: at,
      currency: row.currency,
      ...(await amounts(row, planOf(row))),
      disposal: row.disposal ? (JSON.parse(row.disposal) as Record<string, unknown>) : null,
      rule: 'LOT-24' as const,
    }
  }

  /** Records that the unclaimed prizes went to charity and health (LOT-24); late when after prescription + 10 days. */
  async function disposeUnclaimed(
    report: {
      drawId: string
      prescribed: boolean
      claimDeadline: string
      charityDueBy: string
      unclaimedCents: number
      unclaimedGoods?: string[]
      disposal: unknown
    },
    input: { destination: string; reference: string },
  ) {
    if (!report.prescribed)
      throw new DomainError('ILLEGAL_TRANSITION', `prizes can be claimed until ${report.claimDeadline} (LOT-23)`)
    if (report.disposal) throw new DomainError('CONFLICT', 'the unclaimed prizes were already disposed of')
    const at = now()
    const disposal = {
      destination: input.destination,
      reference: input.reference,
      amountCents: report.unclaimedCents,
      ...(report.unclaimedGoods ? { goods: report.unclaimedGoods } : {}),
      recordedAt: at,
      dueBy: report.charityDueBy,
      late: Date.parse(at) > Date.parse(report.charityDueBy),
    }
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, report.drawId)
      if (!(await recordDisposal(tx, report.drawId, JSON.stringify(disposal))))
        throw new DomainError('CONFLICT', 'the unclaimed prizes were already disposed of')
      await appendJournal(tx, {
        at,
        type: `${row.product}.unclaimed_disposed`,
        scope: scope(row),
        payload: { drawId: report.drawId, ...disposal, rule: 'LOT-24' },
      })
    })
    return disposal
  }

  // ---------------------------------------------------------------------------------------- validation and payout

  /**
   * A presented code, read (LOT-8): the id of a signed code of this line's kind, or why it is void (altered or
   * forged, or another kind of ticket).
   */
  function readCode(code: string): { id: string } | { id?: undefined; ticketId: string | null; reason: string } {
    try {
      const ref = verifyTicketCode(code, line.codes.publicKey)
      if (ref.kind !== line.codes.kind) return { ticketId: ref.id, reason: `not a ${line.codes.name}` }
      return { id: ref.id }
    } catch (e) {
      return { ticketId: null, reason: `altered or forged ${line.codes.noun}: ${(e as Error).message} (LOT-8)` }
    }
  }

  /**
   * Where a ticket stands in one draw (ClaimState), and when it was paid or refunded. `won` is asked only of a
   * settled draw: whether the ticket won, and whether the line's own rows already say it was paid (else its payout
   * row does).
   */
  async function claimOf(
    tx: Sql,
    row: Draw,
    ticketId: string,
    won: () => Promise<{ won: boolean; paid?: boolean }>,
  ): Promise<{ state: ClaimState; paidAt?: string }> {
    if (row.status === 'cancelled') {
      const paidAt = await paidAtOf(tx, row.id, ticketId)
      return paidAt !== undefined ? { state: 'refunded', paidAt } : { state: 'refund' }
    }
    if (row.status !== 'settled') return { state: 'pending' }
    const w = await won()
    if (!w.won) return { state: 'no_win' }
    if (w.paid) return { state: 'paid' }
    const paidAt = w.paid === undefined ? await paidAtOf(tx, row.id, ticketId) : undefined
    if (paidAt !== undefined) return { state: 'paid', paidAt }
    if (isClaimExpired(row.claimDeadline, now())) return { state: 'expired' }
    return { state: 'win' }
  }

  /**
   * Pays what a presented code may be paid, once (REGULATIONS.md §8, LOT-26: only against the ticket), in one
   * transaction: the payee's data (INS-5), the line's validation repeated inside the transaction and its refusals
   * (assertPayable), then the line's own checks and payouts (`pays`). Each payout (`payOut`) is one row of the
   * prize register (its UNIQUE draw and ticket is the database's own guard), its `<product>.prize_paid` or
   * `refund_paid` record with the document protected, and the cash desk's drawer movement, all in this transaction.
   */
  async function pay<V extends { outcome: string; reason: string }, R>(
    input: PayInput,
    rules: {
      /** The rules cited when the payee's data is missing. */
      payee: string
      validate(code: string, tx: Sql): Promise<V>
      /** The error of a void code: a forged one, or a genuine one that is not payable. */
      voidCode(v: V): 'INVALID_SIGNATURE' | 'TICKET_VOID'
    },
    pays: (tx: Sql, v: V, at: string, payOut: (p: Payout) => Promise<string>) => Promise<R>,
  ): Promise<R> {
    const p = input.payee
    assertPayee(p, rules.payee)
    return db.transaction(
      async (tx) => {
        const v = await rules.validate(input.code, tx)
        assertPayable(v, rules.voidCode(v), (v as { kind?: string }).kind ?? line.products[0])
        const at = now()
        return pays(tx, v, at, async (o) => {
          // Issue 23 point 5: the cash desk scoped the payout by the chain it read from the code (`lottery`, `lotto`,
          // the operator's for a raffle); a record of a chain it did not lock runs again with every chain.
          requireChain(chainOfScope(o.scope))
          const payoutId = line.newId('lpay')
          await insertPayout(tx, {
            id: payoutId,
            drawId: o.drawId,
            product: o.product,
            ticketId: o.ticketId,
            amountCents: o.amountCents,
            goodsJson: o.goods.length ? JSON.stringify(o.goods) : null,
            prizesJson: JSON.stringify(o.prizes),
            currency: o.currency,
            stationId: input.stationId,
            cashierId: input.cashierId,
            payeeName: p.name.trim(),
            // Issue 24 point 2: stored sealed; the prize register opens it.
            payeeDocument: sealDocumentAtRest(line.sealer, p.document.trim())!,
            signatureRef: p.signatureRef?.trim() || SIGNED_RECEIPT,
            paidAt: at,
          })
          await appendJournal(tx, {
            at,
            type: `${o.product}.${o.refund ? 'refund_paid' : 'prize_paid'}`,
            scope: o.scope,
            payload: {
              payoutId,
              drawId: o.drawId,
              ...o.ticket,
              amountCents: o.amountCents,
              goods: o.goods,
              ...o.detail,
              stationId: input.stationId,
              // REGULATIONS.md §8 / GEN-7: the payout's record names the seal code of the station that paid it.
              sealCode: await sealCodeOfDevice(tx, input.stationId),
              cashierId: input.cashierId,
              payeeDocument: protectDocument(line.sealer, p.document),
              ...o.tail,
            },
          })
          // A refund leaves the drawer as a refund, a prize as a payout (issue 13 point 7).
          await input.onPaid(tx, {
            amountCents: o.amountCents,
            currency: o.currency,
            refId: payoutId,
            at,
            kind: o.refund ? 'refund' : 'prize_payout',
            buyers: o.buyers,
          })
          return payoutId
        })
      },
      input.scopes?.length ? { scopes: input.scopes } : undefined,
    )
  }

  /** The claim period of a line that counts what is unclaimed its own way: the report and its disposal (LOT-24). */
  function claimPeriod<Amounts extends { unclaimedCents: number; unclaimedGoods?: string[] }>(
    amounts: (row: Row, plan: Plan) => Promise<Amounts>,
  ) {
    const report = (drawId: string) => unclaimed(drawId, amounts)
    return {
      unclaimed: report,
      disposeUnclaimed: async (drawId: string, input: { destination: string; reference: string }) =>
        disposeUnclaimed(await report(drawId), input),
    }
  }

  /**
   * What every line shows of a draw (its view: lotto's DrawView, a lottery's), the line adding its own fields. The
   * seed is revealed only once an RNG draw has ended (bolillo-draw-v2: stored only sealed until then); the close
   * facts t and R only for an RNG draw. `counts` are the line's participation counts at the close (lotto: receipts
   * and plays; a ticket line: the tickets in play).
   */
  function viewOf<Counts extends Record<string, number>>(
    row: Row,
    timeZone: string | null,
    counts: (row: Row) => Counts,
  ) {
    const plan = planOf(row)
    const ended = row.status === 'drawn' || row.status === 'settled'
    return {
      drawId: row.id,
      product: row.product,
      status: row.status,
      plan,
      commitment: row.commitment,
      seed: ended && plan.drawMethod === 'rng' && row.seedHex ? row.seedHex : null,
      salesDigest: row.salesDigest,
      // Fixed at the close of sales: t (whole seconds) and the beacon round R the draw waits for.
      close:
        row.closedAt && plan.drawMethod === 'rng'
          ? {
              closedAt: closeFacts(row.closedAt).closedAt,
              beaconRound: beaconRoundOf(row),
              beaconPublishedAt: closeFacts(row.closedAt).beaconPublishedAt,
            }
          : null,
      /** The verified beacon round, once obtained or typed in. */
      beacon: row.beacon ? beaconSummary(parseBeacon(row.beacon)!) : null,
      participation: row.participationSha256
        ? {
            sha256: row.participationSha256,
            ...counts(row),
            salesCents: Number(row.salesCents),
            closedAt: row.closedAt!,
          }
        : null,
      times: { createdAt: row.createdAt, closedAt: row.closedAt, drawnAt: row.drawnAt, settledAt: row.settledAt },
      /** The clock the plan's times are read in (issue 29): the plan's zone, else the deployment's; null if neither. */
      timeZone,
    }
  }

  /** The steps that answer nothing, answered with the line's view of the draw (lotto's DrawView, a lottery's). */
  function answeredWith<View>(getDraw: (drawId: string) => Promise<View>) {
    const then =
      <A extends unknown[]>(step: (drawId: string, ...a: A) => Promise<void>) =>
      async (drawId: string, ...a: A): Promise<View> => {
        await step(drawId, ...a)
        return getDraw(drawId)
      }
    return { recordBeacon: then(recordBeacon), drawRng: then(drawRng), postpone: then(postpone) }
  }

  /** The prize register (libro de registro de premios, §7.13, LNS-25): every payout of the line's products. */
  async function prizeRegister(drawId?: string) {
    const rows = await payoutsOf(db, line.products, drawId)
    return rows.map((r) => ({
      payoutId: r.id,
      product: r.product,
      gameCode: r.gameCode,
      drawNumber: r.drawNo,
      ticketNumber: r.ticketId,
      amountCents: r.amountCents,
      currency: r.currency,
      goods: r.goods ? JSON.parse(r.goods) : [],
      prizes: JSON.parse(r.prizes),
      payee: {
        name: r.payeeName,
        // Issue 24 point 2: opened for the register's readers (prizes.register).
        document: openDocumentAtRest(line.sealer, r.payeeDocument),
        signatureRef: r.signatureRef,
      },
      stationId: r.stationId,
      cashierId: r.cashierId,
      paidAt: r.paidAt,
    }))
  }

  return {
    now,
    drawDir,
    plan,
    closeSales,
    participationFile,
    recordBeacon,
    drawRng,
    enterValue,
    getProof,
    postpone,
    cancel,
    recordIncident,
    settle,
    extractoOf,
    minutesOf,
    unclaimed,
    disposeUnclaimed,
    claimPeriod,
    answeredWith,
    viewOf,
    readCode,
    claimOf,
    pay,
    prizeRegister,
  }
}

export type DrawLifecycle<Row extends Draw, Plan extends LifecyclePlan> = ReturnType<
  typeof createDrawLifecycle<Row, Plan>
>
