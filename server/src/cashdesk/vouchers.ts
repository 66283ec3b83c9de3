/**
 * Credit vouchers (vales de crédito): the only way money enters play at a kiosk. A cashier sells a voucher for
 * cash (GEN-13: cash at cashier stations only; GEN-14: no cash or cards at the kiosk), prints it with the QR of
 * its signed code (`BLL1.V.<id>.<sig>`), and any kiosk of the hall redeems it. A voucher is spent once: a kiosk
 * purchase spends all of it and carries the remaining balance on a new "change" voucher. The cashier can refund
 * an active voucher in cash. Vouchers expire after BOLILLO_VOUCHER_DAYS.
 *
 * Every movement is journaled inside its transaction (voucher.sold, voucher.redeemed, voucher.issued,
 * voucher.cashed_out), and cash in and out of each cashier station is kept in cash_movements.
 *
 * GEN-17 (AML small-denomination rule): the cashier counts how the voucher was paid by note and coin, and the hall's
 * profile splits it into small notes and coins (Bs 10, Bs 20, coins: CFG-2) against the rest, as a cash intake (cash-intake.ts, the one path of every cash sale). When
 * the small-denomination cash of the operation, or of the buyer's day (voucher and counter sales of the same
 * person's identity key, CFG-3 aggregation window), exceeds BOLILLO_AML_SMALL_SHARE_PERCENT of the UIF threshold, a
 * suspicious-operation record is opened for the responsible officer (FR), who files the ROS or documents why not.
 */
import type { CashPieces } from '../shared/cash-count.ts'
import type { BingoEvent, BingoService } from '../bingo/service.ts'
import type { Clock } from '../shared/clock.ts'
import type { BonusService } from '../bingo/bonus-service.ts'
import { appendJournal } from '../shared/journal.ts'
import { chainOfScope } from '../shared/journal-chain.ts'
import { assertLatestSealOfJournal, assertReadRowsSealed } from '../shared/row-seals.ts'
import type { Config } from '../config.ts'
import type { Database, Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { getProfile } from '../shared/profile.ts'
import { hallZoneOf, wallClock, zoneOffsetMinutes } from '../shared/time-zone.ts'
import {
  encodeTicketCode,
  TicketKind,
  verifyTicketCode,
  verifyTicketCodeAsync,
  type TicketRef,
} from '../shared/ticket-code.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import type { Sealer } from '../shared/sealing.ts'
import type { SalePrint, TicketPrints } from './ticket-prints.ts'
import type { PrinterPool } from '../../../printer/src/printers.ts'
import { voucherTicket, type Paper, type PrintDoc } from '../../../printer/src/ticket-layout.ts'
import { ticketPreviewDataUrl } from '../../../printer/src/preview.ts'
import {
  amlReportRow,
  amlReportRows,
  cashMovementsOfStation,
  deviceRow,
  hallById,
  insertCashMovement,
  insertVoucher,
  markVoucherSpentRow,
  openAmlReportsOn,
  reviewAmlReportRow,
  cashIntakesOfBuyer,
  voucherById,
  voucherWithSealById,
  voucherIdByShortCodeHash,
  vouchersWithClearShortCode,
  replaceShortCodeByHash,
  eraseFreedBytes,
  checkpointWal,
  type Voucher,
  stationNameOf,
  personNameOf,
  movementRefLabel,
  hallOfStation,
} from './store.ts'
import { marksPolicy } from '../access/device-marks.ts'
import { assertShiftOpen } from './shift-guard.ts'
import { assertActsInHall, assertReadsHall } from '../access/acting-hall.ts'
import type { PlayerAdmission } from '../access/players.ts'
import { voucherFactsById } from '../access/store.ts'
import { identityKey } from '../shared/identity.ts'
import { createCashIntakes } from './cash-intake.ts'
import { randomBytes } from 'node:crypto'
import {
  identityKeyAtRest,
  isIdentityKeyAtRest,
  maskDocument,
  openDocumentAtRest,
  sealDocumentAtRest,
} from '../shared/document-at-rest.ts'
import { formatShortCode, normalizeShortCode, SHORT_CODE_LENGTH, shortCodeFromBytes } from './short-code.ts'

export interface CashdeskDeps {
  db: Database
  clock: Clock
  bingo: BingoService
  /** Bonus prizes (prima, pots, lucky ball): the cash desk settles them with the card's other prizes (issue 23). */
  bonus: Pick<BonusService, 'settleWithin' | 'bonusReceipt'>
  keys: OperatorKeys
  config: Pick<
    Config,
    'voucherDays' | 'amlThresholdCents' | 'amlSmallShareBp' | 'idRequiredPrizeCents' | 'prizeClaimDays' | 'production'
  >
  printers: PrinterPool
  /** Issue 23 point 5: seals the print job a sale owes until its paper is out (ticket-prints.ts). */
  sealer: Sealer
  /** Where background housekeeping (a printed mark) reports a failure. */
  onError?: (err: unknown) => void
  /** Screens' events, published after the commit. */
  publish?: (e: BingoEvent) => void
  /**
   * Issue 23 point 3 (GEN-23, GEN-27): the exclusion list, asked by the sale itself about the buyer's document it
   * records (a refund asks it too, to record that a person on the list was refunded). Optional only for callers that
   * sell no voucher to a named buyer.
   */
  admission?: Pick<
    PlayerAdmission,
    'assertAdmittedWithin' | 'exclusionWithin' | 'journalRefundedWithin' | 'journalingRefusals' | 'keyOf'
  >
}

export type { Voucher } from './store.ts'

/** What the kiosk and the cashier see of a voucher. `expired` is an active voucher past its date. */
export interface VoucherView {
  id: string
  code: string
  /** Issue 13: the code a player can type at a kiosk ("7KQM-2XRD-9HFA"); null for vouchers issued before it. */
  /** Only in the answer of the sale that issued it (issue 24 point 2: the server keeps its keyed hash alone); else null. */
  shortCode: string | null
  hallId: string
  currency: string
  amountCents: number
  status: 'active' | 'spent' | 'expired'
  origin: 'cashier' | 'change'
  parentId: string | null
  issuedAt: string
  expiresAt: string
  stationId: string
  spentAt: string | null
  spentStation: string | null
  /** The enrolled station's name, for screens (check only; the id above is for records). */
  spentStationName?: string | null
  spentFor: 'purchase' | 'cashout' | null
}

/** A drawer movement. Kinds: voucher_sale, voucher_cashout, prize_payout, refund (and the sales other lines file). */
export interface CashMovement {
  id: string
  at: string
  kind: string
  amountCents: number
  currency: string
  refId: string
  cashierId: string
  stationId: string
}

/**
 * A movement as the station's day shows it (issue 29 point 6): `ref` is what a person reads for the reference
 * (serials, a receipt number; empty for a voucher), `cashierName` the full name of who moved the cash.
 */
export type DayMovement = CashMovement & { ref: string; cashierName: string }

export interface AmlReport {
  id: string
  hallId: string
  stationId: string
  cashierId: string
  /** The voucher sold, or '' for a counter sale (then `saleId`). */
  voucherId: string
  saleId: string | null
  /** As typed, and the person's key the day's total was added up by (issue 24 point 6). */
  buyerDocument: string | null
  buyerKey: string | null
  amountCents: number
  smallCents: number
  windowSmallCents: number
  limitCents: number
  thresholdCents: number
  sharePercent: number
  status: 'open' | 'filed' | 'dismissed'
  createdAt: string
  reviewedAt: string | null
  reviewedBy: string | null
  reviewNote: string | null
  rule: 'GEN-17'
}

export const DAY_MS = 86_400_000

/**
 * Loads a voucher as the server wrote it: it must exist (else TICKET_NOT_FOUND) and its row be the journal's latest
 * (else ROW_TAMPERED). The spend ({@link loadSpendableVoucher}) and the check of a scanned code both read it here, so
 * that a check answers what a spend would.
 */
export async function loadSealedVoucher(tx: Sql, voucherId: string): Promise<Voucher> {
  const read = await voucherWithSealById(tx, voucherId)
  if (!read)
    throw new DomainError('TICKET_NOT_FOUND', `voucher ${voucherId} was never issued`, { voucherId, reason: 'unknown' })
  // Issue 24 point 1: a voucher whose row was changed outside the server (amount, status, expiry) is not spent. The
  // row checked is the row read here, its seal read with it.
  assertReadRowsSealed(tx, 'vouchers', [read.sealed])
  // GEN-13 (a voucher's value leaves the house once) and issue 24 point 1: a spent voucher's row and seal put back from
  // an older copy of the file match each other, but the journal has sealed the voucher since (its spend names it,
  // journal.voucher_id). Every spend of a stored voucher loads it here: the kiosk's purchase, a terminal's session
  // opened with it and the cashier's cash-out; the check is the same read, so the sale pays no statement for it.
  assertLatestSealOfJournal(tx, 'vouchers', read.sealed, read.journalSeq)
  return read.voucher
}

/** Loads a voucher for spending: sealed as above, active and not expired (else VOUCHER_SPENT / VOUCHER_EXPIRED). */
export async function loadSpendableVoucher(tx: Sql, voucherId: string, nowIso: string): Promise<Voucher> {
  const v = await loadSealedVoucher(tx, voucherId)
  if (v.status !== 'active')
    throw new DomainError('VOUCHER_SPENT', `voucher ${v.id} was already used (${v.spentFor} at ${v.spentAt})`, {
      voucherId: v.id,
      spentAt: v.spentAt,
      spentFor: v.spentFor,
      spentStation: v.spentStation,
    })
  if (nowIso >= v.expiresAt)
    throw new DomainError('VOUCHER_EXPIRED', `voucher ${v.id} expired at ${v.expiresAt}`, {
      voucherId: v.id,
      expiresAt: v.expiresAt,
    })
  return v
}

/** Marks an active voucher spent; a concurrent spend makes the conditional update miss and the caller roll back. */
export async function markVoucherSpent(
  tx: Sql,
  v: Voucher,
  spend: { at: string; station: string; for: 'purchase' | 'cashout'; ref: string },
): Promise<void> {
  if ((await markVoucherSpentRow(tx, v.id, spend)) !== 1)
    throw new DomainError('VOUCHER_SPENT', `voucher ${v.id} was used at the same moment elsewhere`, { voucherId: v.id })
}

/** Issue 24 point 2: the keyed hash a voucher's short code (normalised) is stored and looked up by. */
export function shortCodeHash(sealer: Pick<Sealer, 'tag'>, normalised: string): string {
  return sealer.tag(normalised, 'voucher-short-code')
}

/**
 * Issue 24 point 2: short codes written in clear before migration 0065 are hashed once at startup (the key is not
 * available in SQL) and the clear column emptied. On SQLite the freed bytes are overwritten (secure_delete) and the
 * WAL checkpointed, so the old codes do not linger in the file.
 */
export async function hashClearShortCodes(db: Database, sealer: Pick<Sealer, 'tag'>): Promise<number> {
  let done = 0
  for (;;) {
    const rows = await vouchersWithClearShortCode(db, 500)
    if (rows.length === 0) break
    if (done === 0) await eraseFreedBytes(db)
    await db.transaction(async (tx) => {
      for (const r of rows) {
        const normalised = normalizeShortCode(r.short_code) ?? r.short_code
        await replaceShortCodeByHash(tx, r.id, shortCodeHash(sealer, normalised))
      }
    })
    done += rows.length
  }
  if (done > 0) await checkpointWal(db)
  return done
}

export function createVoucherService(deps: CashdeskDeps, prints: TicketPrints) {
  const { db, clock, keys, config } = deps
  const now = () => clock.now().toISOString()
  /** Issue 24 point 6: the key a person is matched by (the exclusion list's, in the server's country). */
  const keyOf = deps.admission?.keyOf ?? ((document: string) => identityKey(document))
  /** GEN-17: every cash intake, here and at the counters (paid-sales.ts), on one path. */
  // Issue 24 point 2: the key stored beside a sealed document is keyed under the sealing key too (a normalised
  // document is the document); the AML totals match on it, the officer's screens show the person's plain key.
  const storedKeyOf = (document: string) =>
    isIdentityKeyAtRest(document) ? document : identityKeyAtRest(deps.sealer, keyOf(document))
  const intakes = createCashIntakes({
    config,
    newId: (p) => deps.bingo.newId(p),
    keyOf: storedKeyOf,
    sealDocument: (d) => sealDocumentAtRest(deps.sealer, d)!,
  })
  /** A buyer's document as stored (sealed), opened for the use cases that need it. */
  const openDocument = (stored: string | null | undefined) => openDocumentAtRest(deps.sealer, stored)

  function view(v: Voucher, atIso = now()): VoucherView {
    return {
      id: v.id,
      code: codeOf(v.id),
      shortCode: v.shortCode ? formatShortCode(v.shortCode) : null,
      hallId: v.hallId,
      currency: v.currency,
      amountCents: v.amountCents,
      status: v.status === 'active' && atIso >= v.expiresAt ? 'expired' : v.status,
      origin: v.origin,
      parentId: v.parentId,
      issuedAt: v.issuedAt,
      expiresAt: v.expiresAt,
      stationId: v.stationId,
      spentAt: v.spentAt,
      spentStation: v.spentStation,
      spentFor: v.spentFor,
    }
  }

  const codeOf = (id: string) => encodeTicketCode({ kind: TicketKind.voucher, id }, keys.privateKey)

  /** Verifies a voucher code's signature and kind; returns the voucher id. INVALID_SIGNATURE otherwise. */
  function voucherIdOf(code: string): string {
    return voucherIdOfRef(verifyTicketCode(code.trim(), keys.publicKey))
  }

  /** {@link voucherIdOf} with the signature checked on the thread pool (the kiosk sale path, before its batch). */
  async function voucherIdOfAsync(code: string): Promise<string> {
    return voucherIdOfRef(await verifyTicketCodeAsync(code.trim(), keys.publicKey))
  }

  function voucherIdOfRef(ref: TicketRef): string {
    if (ref.kind !== TicketKind.voucher)
      throw new DomainError('INVALID_SIGNATURE', 'this code is not a credit voucher', {
        kind: ref.kind,
        reason: 'kind',
      })
    return ref.id
  }

  /**
   * The voucher a kiosk was given: its signed QR code (`BLL1.V.…`, verified), or its short code typed by hand
   * (issue 13). INVALID_SIGNATURE for a bad signed code, TICKET_NOT_FOUND for a short code no voucher has.
   */
  async function resolveVoucherId(sql: Sql, code: string): Promise<string> {
    const typed = code.trim()
    if (typed.startsWith('BLL1.')) return voucherIdOf(typed)
    const short = normalizeShortCode(typed)
    const id = short ? await voucherIdByShortCodeHash(sql, shortCodeHash(deps.sealer, short)) : undefined
    if (!id) throw new DomainError('TICKET_NOT_FOUND', 'no voucher has this short code', { reason: 'unknown' })
    return id
  }

  /** A hall with what tickets print of it: name, currency and the profile's minimum age (CFG-5). */
  async function hallFor(
    sql: Sql,
    hallId: string,
  ): Promise<{
    id: string
    name: string
    currency: string
    profileId: string
    minimumAge: number
    timeZone: string
    /** GEN-25: the hall sells only to identified players (its settings, bingo/halls.ts setIdentifiedSales). */
    identifiedSales: boolean
    /** GEN-5: the reference of the hall's licence or authorisation as recorded (printed on its cards and vouchers). */
    authorisationRef: string | null
  }> {
    const hall = await hallById(sql, hallId)
    if (!hall) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
    return hallView(hall)
  }

  /** {@link hallFor} over a hall's row already read in the caller's transaction. */
  function hallView(hall: { id: string; name: string; currency: string; profile_id: string; settings: string }) {
    const profile = getProfile(hall.profile_id)
    // Issue 17: tickets print the hall's wall-clock time, not the server's UTC.
    const timeZone = hallZoneOf(hall.settings, profile?.timeZone ?? 'UTC')
    const settings = JSON.parse(hall.settings || '{}') as {
      identifiedSales?: unknown
      licence?: { authorisationRef?: unknown }
    }
    return {
      id: hall.id,
      name: hall.name,
      currency: hall.currency,
      profileId: hall.profile_id,
      minimumAge: profile?.minimumAge ?? 18,
      timeZone,
      identifiedSales: settings.identifiedSales === true,
      authorisationRef:
        typeof settings.licence?.authorisationRef === 'string' ? settings.licence.authorisationRef : null,
    }
  }

  /**
   * Issues a voucher row and its journal record inside the caller's transaction. Change vouchers get a full
   * validity period of their own, so that a player is never left with credit that expires at once.
   */
  async function issue(
    tx: Sql,
    input: {
      hallId: string
      currency: string
      amountCents: number
      origin: 'cashier' | 'change'
      parentId: string | null
      stationId: string
      issuedBy: string
      smallCents: number
      otherCents: number
      buyerDocument: string | null
      at: string
    },
  ): Promise<Voucher> {
    const id = deps.bingo.newId('v')
    const expiresAt = new Date(Date.parse(input.at) + config.voucherDays * DAY_MS).toISOString()
    const shortCode = shortCodeFromBytes(randomBytes(SHORT_CODE_LENGTH))
    await insertVoucher(tx, {
      id,
      hallId: input.hallId,
      currency: input.currency,
      amountCents: input.amountCents,
      origin: input.origin,
      parentId: input.parentId,
      stationId: input.stationId,
      issuedBy: input.issuedBy,
      issuedAt: input.at,
      expiresAt,
      smallCents: input.smallCents,
      otherCents: input.otherCents,
      // Issue 24 point 2: the buyer's document is kept sealed (lookups and totals go by its key).
      buyerDocument: sealDocumentAtRest(deps.sealer, input.buyerDocument),
      shortCodeHash: shortCodeHash(deps.sealer, shortCode),
    })
    await appendJournal(tx, {
      at: input.at,
      type: 'voucher.issued',
      scope: `hall:${input.hallId}`,
      payload: {
        voucherId: id,
        origin: input.origin,
        parentId: input.parentId,
        amountCents: input.amountCents,
        currency: input.currency,
        stationId: input.stationId,
        issuedBy: input.issuedBy,
        expiresAt,
      },
    })
    // The short code lives only in this answer (printed and shown once); the row keeps its keyed hash.
    return { ...(await voucherById(tx, id))!, shortCode }
  }

  /**
   * Files cash in (positive) or out (negative) of a station's drawer, under its open shift (issue 13 point 5): the
   * shift is checked again here, inside the movement's transaction, so that a close at the same moment wins.
   */
  async function movement(
    tx: Sql,
    m: Omit<CashMovement, 'id'> & { hallId: string; shiftId?: string | null; product?: string },
  ): Promise<void> {
    await assertShiftOpen(tx, m.shiftId ?? null, m.stationId, marksPolicy(deps.config))
    await insertCashMovement(tx, {
      id: deps.bingo.newId('cm'),
      hallId: m.hallId,
      stationId: m.stationId,
      cashierId: m.cashierId,
      kind: m.kind,
      amountCents: m.amountCents,
      currency: m.currency,
      refId: m.refId,
      at: m.at,
      shiftId: m.shiftId ?? null,
      product: m.product ?? null,
    })
  }

  /**
   * GEN-17 / GEN-23 / GEN-27: what a cash intake checks before its transaction: whole minor units, the count adds up,
   * small notes over the limit name the buyer, and a named buyer is admitted in the hall of the station that takes it.
   */
  async function checkCashIn(input: {
    hallId: string
    amountCents: number
    cash: CashPieces
    stationId: string
    buyerDocument?: string | null
  }): Promise<void> {
    const { amountCents, cash } = input
    if (!Number.isSafeInteger(amountCents) || amountCents < 0)
      throw new DomainError('VALIDATION_FAILED', 'amountCents must be a whole number of minor units', {
        field: 'amountCents',
      })
    if (amountCents <= 0)
      throw new DomainError('VALIDATION_FAILED', 'a voucher is worth more than nothing', { field: 'amountCents' })
    // GEN-17: the count adds up, and small notes over the limit name the buyer (checked again in the transaction).
    intakes.check({ amountCents, cash, buyerDocument: input.buyerDocument ?? null })
    // GEN-23 / GEN-27: the buyer this sale records is asked about inside the sale's transaction (sellWithin).
  }

  /**
   * GEN-23 / GEN-27: runs a voucher sale's transaction (sellWithin decides the buyer's admission inside it); a refusal
   * rolled back with it is journaled after, in a transaction of its own.
   */
  function journalingRefusals<T>(sale: () => Promise<T>): Promise<T> {
    return deps.admission ? deps.admission.journalingRefusals(sale) : sale()
  }

  /** A transaction that asks the exclusion list (a payout, a cash-out): a refusal, rolled back, is journaled after. */
  const admittedTransaction: Database['transaction'] = (fn, options) =>
    journalingRefusals(() => db.transaction(fn, options))

  /**
   * A voucher sold for cash inside the caller's transaction: issued, the cash into the station's drawer under its open
   * shift, the intake recorded (GEN-17), journaled. `sell` prints it; a terminal's cash load spends it into the
   * session at once (issue 27), so money enters a drawer by this one path.
   */
  async function sellWithin(
    tx: Sql,
    input: {
      hallId: string
      amountCents: number
      cash: CashPieces
      stationId: string
      cashierId: string
      shiftId?: string | null
      buyerDocument?: string | null
      at: string
    },
  ) {
    const { amountCents, at } = input
    const buyerDocument = input.buyerDocument?.trim() || null
    const hall = await hallFor(tx, input.hallId)
    // CFG-2: a count by denomination split by the hall's profile, before the voucher records it.
    const cash = (await intakes.split(tx, hall.id, input.cash))!
    // Issue 23 point 3: a voucher is sold in the hall of the station whose drawer takes the cash, by someone of it.
    await assertActsInHall(tx, hall.id, { stationId: input.stationId, resource: 'voucher sale' })
    // GEN-23 / GEN-25 / GEN-27 (issue 23 point 3): the buyer this sale records, whatever the request looked like, is
    // asked about in this transaction, in the hall of the station that sells (checked just above): an exclusion
    // recorded while the sale is under way stops it.
    if (buyerDocument && deps.admission) await deps.admission.assertAdmittedWithin(tx, [buyerDocument], hall.id)
    const v = await issue(tx, {
      hallId: hall.id,
      currency: hall.currency,
      amountCents,
      origin: 'cashier',
      parentId: null,
      stationId: input.stationId,
      issuedBy: input.cashierId,
      smallCents: cash.smallCents,
      otherCents: cash.otherCents,
      buyerDocument,
      at,
    })
    await movement(tx, {
      hallId: hall.id,
      stationId: input.stationId,
      cashierId: input.cashierId,
      shiftId: input.shiftId,
      product: 'voucher',
      kind: 'voucher_sale',
      amountCents,
      currency: hall.currency,
      refId: v.id,
      at,
    })
    // Issue 24 point 1: recorded before the sale's record, which seals the intake with the voucher.
    const { counted: _counted, ...aml } = await intakes.record(tx, {
      hallId: hall.id,
      stationId: input.stationId,
      cashierId: input.cashierId,
      source: 'voucher',
      refId: v.id,
      amountCents,
      currency: hall.currency,
      cash,
      buyerDocument,
      at,
    })
    await appendJournal(tx, {
      at,
      type: 'voucher.sold',
      scope: `hall:${hall.id}`,
      payload: {
        voucherId: v.id,
        amountCents,
        currency: hall.currency,
        smallCents: cash.smallCents,
        otherCents: cash.otherCents,
        stationId: input.stationId,
        cashierId: input.cashierId,
        payment: 'cash',
        rule: 'GEN-13',
      },
    })
    return { voucher: v, hall, aml }
  }

  /**
   * Issue 23 point 5: what a voucher sale or cash-out locks: the station's hall (its drawer and shift, which the
   * shift's close locks too: db/scopes.ts), resolved from the station's enrolment, never from the request, and the
   * voucher's hall (its voucher, cash intakes and GEN-17 records), which the use case refuses unless it is the
   * station's (assertActsInHall; locked anyway, so that a refusal reads it under its lock). Every other row read to
   * decide (halls, profiles, devices, the exclusion list) changes only under the global lock's exclusive side. Every
   * chain at a station of no hall (authentication off).
   */
  async function stationScopes(stationId: string, voucherHall: string | undefined): Promise<string[] | undefined> {
    const stationHall = await hallOfStation(db, stationId)
    if (!stationHall) return undefined
    return [...new Set([stationHall, voucherHall].filter((h): h is string => Boolean(h)))].map((h) => `hall:${h}`)
  }

  /**
   * Sells a voucher for cash at a cashier station and prints it after the commit (issue 23 point 5: no printer
   * waited on under the write lock). A voucher whose paper did not come out stays sold and is answered with
   * `print.code` PRINT_PENDING: the cashier reprints it (POST /api/tickets/reprint) before handing it over.
   */
  async function sell(input: {
    hallId: string
    amountCents: number
    cash: CashPieces
    stationId: string
    cashierId: string
    shiftId?: string | null
    buyerDocument?: string | null
  }): Promise<{
    voucher: VoucherView
    aml: { flagged: boolean; reportId: string | null; limitCents: number }
    print: SalePrint
    preview: string
  }> {
    await checkCashIn(input)
    await prints.ensurePrinter(input.stationId)
    const scopes = await stationScopes(input.stationId, input.hallId)
    // Issue 23 point 5: the sale commits with the paper it owes, and the voucher is printed after the commit.
    const { doc, ...sold } = await journalingRefusals(() =>
      db.transaction(
        async (tx) => {
          const at = now()
          const { voucher: v, hall, aml } = await sellWithin(tx, { ...input, at })
          const doc = await paperWithin(tx, { voucher: v, hall, stationId: input.stationId, at })
          return { voucher: view(v, at), aml, doc }
        },
        scopes ? { scopes } : undefined,
      ),
    )
    return { ...sold, ...(await printPaper(sold.voucher.id, input.stationId, doc)) }
  }

  /**
   * A voucher's paper, the same wherever it is issued (a sale at the cashier, a purchase's or a terminal session's
   * change, a refund): its QR and the short code typed when the QR is damaged, the hall's name, authorisation
   * (GEN-5) and clock, the station by its name (issue 29 point 6, never its id), and the minimum age (CFG-5).
   */
  function ticketOf(
    v: Pick<Voucher, 'id' | 'shortCode' | 'amountCents' | 'currency' | 'issuedAt' | 'expiresAt'>,
    hall: { name: string; timeZone: string; minimumAge: number; authorisationRef: string | null },
    on: { station: string; origin: 'cashier' | 'change'; paper: Paper; loadedTo?: string },
  ): PrintDoc {
    return voucherTicket(
      {
        code: codeOf(v.id),
        shortCode: v.shortCode ? formatShortCode(v.shortCode) : undefined,
        voucherId: v.id,
        hallName: hall.name,
        amountCents: v.amountCents,
        currency: v.currency,
        issuedAt: v.issuedAt,
        expiresAt: v.expiresAt,
        station: on.station,
        origin: on.origin,
        minimumAge: hall.minimumAge,
        ...(on.loadedTo ? { loadedTo: on.loadedTo } : {}),
        authorisationRef: hall.authorisationRef,
      },
      { paper: on.paper, timeZone: hall.timeZone },
    )
  }

  /**
   * Inside the sale's transaction: the paper a voucher sold at a cashier station owes, recorded for the print after
   * the commit (and a reprint). No I/O. `loadedTo`: the terminal the voucher's credit went onto (issue 27), printed
   * so the player keeps the voucher a lost terminal session is recovered with.
   */
  async function paperWithin(
    tx: Sql,
    input: {
      voucher: Voucher
      hall: { id: string; name: string; timeZone: string; minimumAge: number; authorisationRef: string | null }
      stationId: string
      at: string
      loadedTo?: string
    },
  ): Promise<PrintDoc> {
    const { voucher: v, hall } = input
    const doc = ticketOf(v, hall, {
      station: await stationNameOf(tx, input.stationId),
      origin: 'cashier',
      paper: deps.printers.forStation(input.stationId).paper,
      loadedTo: input.loadedTo,
    })
    await prints.recordWithin(tx, {
      ref: v.id,
      hallId: hall.id,
      stationId: input.stationId,
      voucherId: null,
      docs: [doc],
      at: input.at,
      items: { change: v.id },
    })
    return doc
  }

  /** After the commit, with no lock held: the voucher's paper at the station, and its picture for the screen. */
  async function printPaper(
    voucherId: string,
    stationId: string,
    doc: PrintDoc,
  ): Promise<{ print: SalePrint; preview: string }> {
    const print = await prints.printSale({ ref: voucherId, stationId }, [doc], `voucher-${voucherId}`)
    return { print, preview: ticketPreviewDataUrl(doc) }
  }

  /**
   * What a scanned voucher code stands for. INVALID_SIGNATURE for a bad code, TICKET_NOT_FOUND for one that matches no
   * voucher (a short code typed with a mistake), WRONG_HALL for a voucher of a hall the caller does not work in
   * (its amount and state are then not shown), ROW_TAMPERED for one changed or put back from an older copy behind the
   * journal (GEN-13, issue 24 point 1), as a spend would refuse it: read by the spend's own loader, in a transaction
   * of the voucher's hall so that the refusal is journaled.
   */
  async function check(code: string): Promise<VoucherView> {
    const id = await resolveVoucherId(db, code)
    // The hall, as the request's hall guard read it (one statement per request): the row itself is read sealed below.
    const found = await voucherFactsById(db, id)
    if (!found)
      throw new DomainError('TICKET_NOT_FOUND', `voucher ${id} was never issued`, { voucherId: id, reason: 'unknown' })
    // Decided from the voucher's own hall against who asks (a kiosk sees only its hall's vouchers), never the body;
    // asked before the lock, so that a device of another hall neither waits on this hall nor learns of its rows.
    assertReadsHall(found.hallId, 'voucher')
    return db.transaction(
      async (tx) => {
        const row = await loadSealedVoucher(tx, id)
        assertReadsHall(row.hallId, 'voucher')
        // Issue 29: a screen names the station where it was spent, never its internal id.
        const spentStationName = row.spentStation ? ((await deviceRow(tx, row.spentStation))?.name ?? null) : null
        return { ...view(row), spentStationName }
      },
      { scopes: [`hall:${found.hallId}`] },
    )
  }

  /** Refunds an active voucher in cash at a cashier station (GEN-13: cash changes hands only there). */
  async function cashOut(input: {
    code: string
    stationId: string
    cashierId: string
    shiftId?: string | null
  }): Promise<{ voucher: VoucherView; paidCents: number }> {
    // Issue 29 point 3: the printed short code is the voucher's bearer secret made for typing (60 random bits,
    // kiosks already spend it): it cashes out as the QR does when the QR cannot be read. A voucher is no prize, so
    // no card rule (BNG-71) is at stake; the hall, shift and GEN-17 checks below apply the same.
    const id = await resolveVoucherId(db, input.code)
    // A voucher never changes hall: read before the transaction to decide its locks.
    const scopes = await stationScopes(input.stationId, (await voucherFactsById(db, id))?.hallId)
    return admittedTransaction(
      async (tx) => {
        const at = now()
        const v = await loadSpendableVoucher(tx, id, at)
        // Issue 23 point 3: paid only out of a drawer of the voucher's own hall, by someone of that hall.
        await assertActsInHall(tx, v.hallId, { stationId: input.stationId, resource: 'voucher' })
        // GEN-23 / GEN-27 (issue 23 point 3): a voucher whose buyer was recorded (a change voucher carries the document
        // of the voucher it is the change of, a terminal's the session's) is not turned into cash for an excluded
        // buyer, whoever presents it: its credit may be a prize (a terminal's winnings come back on one). Asked in this
        // transaction, of the list of the voucher's own hall, whatever the request carries; the refusal is journaled in
        // that hall's chain. The credit is withheld, not forfeited: the voucher stays active.
        const buyer = openDocument(v.buyerDocument)
        if (buyer?.trim() && deps.admission) await deps.admission.assertAdmittedWithin(tx, [buyer], v.hallId)
        // GEN-17 (issue 13 point 8): credit bought with small notes over the limit is not turned into other cash at once:
        // the voucher, or any voucher it is the change of, waits for the officer's review of its record.
        const chain = [v.id]
        for (let p = v.parentId; p && chain.length < 100; p = (await voucherById(tx, p))?.parentId ?? null)
          chain.push(p)
        const held = await openAmlReportsOn(tx, chain)
        if (held.length > 0) {
          throw new DomainError(
            'AML_REVIEW_PENDING',
            `voucher ${v.id} comes from cash held for the officer's review (GEN-17 record ${held[0].id})`,
            { reportId: held[0].id, voucherId: held[0].voucher_id, rule: 'GEN-17' },
          )
        }
        await markVoucherSpent(tx, v, { at, station: input.stationId, for: 'cashout', ref: input.cashierId })
        await movement(tx, {
          hallId: v.hallId,
          stationId: input.stationId,
          cashierId: input.cashierId,
          shiftId: input.shiftId,
          product: 'voucher',
          kind: 'voucher_cashout',
          amountCents: -v.amountCents,
          currency: v.currency,
          refId: v.id,
          at,
        })
        await appendJournal(tx, {
          at,
          type: 'voucher.cashed_out',
          scope: `hall:${v.hallId}`,
          payload: {
            voucherId: v.id,
            amountCents: v.amountCents,
            currency: v.currency,
            stationId: input.stationId,
            cashierId: input.cashierId,
          },
        })
        const spent = (await voucherById(tx, v.id))!
        return { voucher: view(spent, at), paidCents: v.amountCents }
      },
      scopes ? { scopes } : undefined,
    )
  }

  /**
   * The cash movements of a station on one local day (default today), with the totals: what the drawer should
   * hold beyond its opening float.
   */
  async function stationDay(
    stationId: string,
    day?: string,
  ): Promise<{
    stationId: string
    day: string
    from: string
    to: string
    movements: DayMovement[]
    inCents: number
    outCents: number
    balanceCents: number
    currency: string | null
  }> {
    // The day is the station's hall's, on its clock (a La Paz evening is still that day on a UTC server).
    const hallId = await hallOfStation(db, stationId)
    const zone = hallId ? (await hallFor(db, hallId)).timeZone : 'UTC'
    const today = wallClock(clock.now().getTime(), zone)
    const [y, m, d] = day ? day.split('-').map(Number) : [today.year, today.month, today.day]
    if (![y, m, d].every(Number.isInteger) || Number.isNaN(Date.UTC(y, m - 1, d)))
      throw new DomainError('VALIDATION_FAILED', 'day must be YYYY-MM-DD', { field: 'day' })
    // Local midnight as an instant: the zone's offset at that wall time, read twice across a change of offset.
    const midnight = (dd: number) => {
      const wall = Date.UTC(y, m - 1, dd)
      const guess = wall - zoneOffsetMinutes(wall, zone) * 60_000
      return new Date(wall - zoneOffsetMinutes(guess, zone) * 60_000)
    }
    const start = midnight(d)
    const end = midnight(d + 1)
    const dayText = new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10)
    const rows = await cashMovementsOfStation(db, stationId, start.toISOString(), end.toISOString())
    // Issue 29 point 6: the screen shows who moved the cash by name and what it was by serial or receipt number.
    const names = new Map<string, string>()
    const movements: DayMovement[] = []
    for (const r of rows) {
      if (!names.has(r.cashierId)) names.set(r.cashierId, await personNameOf(db, r.cashierId))
      movements.push({
        id: r.id,
        at: r.at,
        kind: r.kind,
        amountCents: r.amountCents,
        currency: r.currency,
        refId: r.refId,
        ref: await movementRefLabel(db, r),
        cashierId: r.cashierId,
        cashierName: names.get(r.cashierId)!,
        stationId: r.stationId,
      })
    }
    const inCents = movements.filter((m) => m.amountCents > 0).reduce((s, m) => s + m.amountCents, 0)
    const outCents = -movements.filter((m) => m.amountCents < 0).reduce((s, m) => s + m.amountCents, 0)
    return {
      stationId,
      day: dayText,
      from: start.toISOString(),
      to: end.toISOString(),
      movements,
      inCents,
      outCents,
      balanceCents: inCents - outCents,
      currency: movements[0]?.currency ?? null,
    }
  }

  function toReport(r: Record<string, unknown>): AmlReport {
    return {
      id: String(r.id),
      hallId: String(r.hall_id),
      stationId: String(r.station_id),
      cashierId: String(r.cashier_id),
      voucherId: String(r.voucher_id),
      saleId: r.intake_source === 'counter_sale' ? String(r.intake_ref) : null,
      // The officer's record (aml.review) shows the document opened.
      buyerDocument: openDocument(r.buyer_document as string | null),
      buyerKey: (() => {
        const d = openDocument(r.buyer_document as string | null)
        return d ? keyOf(d) : ((r.buyer_key as string | null) ?? null)
      })(),
      amountCents: Number(r.amount_cents),
      smallCents: Number(r.small_cents),
      windowSmallCents: Number(r.window_small_cents),
      limitCents: Number(r.limit_cents),
      thresholdCents: Number(r.threshold_cents),
      sharePercent: Number(r.share_bp) / 100,
      status: r.status as AmlReport['status'],
      createdAt: String(r.created_at),
      reviewedAt: (r.reviewed_at as string | null) ?? null,
      reviewedBy: (r.reviewed_by as string | null) ?? null,
      reviewNote: (r.review_note as string | null) ?? null,
      rule: 'GEN-17',
    }
  }

  /**
   * GEN-17 (issue 24 point 6): one person's cash on one UTC day (CFG-3), voucher and counter sales alike, found by the
   * key of the document however it was typed: each intake with its denominations, and the small-note total the
   * rule compares with its limit (an intake not counted counts whole).
   */
  async function amlDay(input: { document: string; day: string; hallId?: string | null }) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(input.day) || Number.isNaN(Date.parse(`${input.day}T00:00:00.000Z`)))
      throw new DomainError('VALIDATION_FAILED', 'day must be YYYY-MM-DD', { field: 'day' })
    const buyerKey = keyOf(input.document)
    const from = `${input.day}T00:00:00.000Z`
    const rows = await cashIntakesOfBuyer(
      db,
      storedKeyOf(input.document),
      input.hallId ?? null,
      from,
      new Date(Date.parse(from) + DAY_MS).toISOString(),
    )
    const list = rows.map((r) => ({
      id: r.id,
      at: r.at,
      hallId: r.hall_id,
      stationId: r.station_id,
      cashierId: r.cashier_id,
      source: r.source,
      refId: r.ref_id,
      amountCents: Number(r.amount_cents),
      currency: r.currency,
      counted: Number(r.counted) === 1,
      smallCents: r.small_cents === null ? null : Number(r.small_cents),
      otherCents: r.other_cents === null ? null : Number(r.other_cents),
      buyerDocument: openDocument(r.buyer_document),
    }))
    return {
      buyerKey,
      day: input.day,
      hallId: input.hallId ?? null,
      intakes: list,
      amountCents: list.reduce((s, i) => s + i.amountCents, 0),
      smallCents: list.reduce((s, i) => s + (i.smallCents ?? i.amountCents), 0),
      notCountedCents: list.reduce((s, i) => s + (i.counted ? 0 : i.amountCents), 0),
      limitCents: intakes.limitCents(),
      rule: 'GEN-17' as const,
    }
  }

  /** GEN-17 records for the responsible officer, newest first. */
  /**
   * The officer's records. GEN-9 / GEN-10: the person behind a record (the ROS is confidential, the FR's work) is read
   * by the officer, the director and the inspector (`showDocuments`, aml.identity); an auditor sees the amounts, the
   * figures and the decisions, with the document masked and no key (issue 24 point 2).
   */
  async function amlReports(
    filter: { status?: AmlReport['status'] } = {},
    opts: { showDocuments: boolean } = { showDocuments: true },
  ): Promise<AmlReport[]> {
    const rows = await amlReportRows(db, filter.status)
    return rows
      .map(toReport)
      .map((r) => (opts.showDocuments ? r : { ...r, buyerDocument: maskDocument(r.buyerDocument), buyerKey: null }))
  }

  /** The officer's decision: ROS filed, or dismissed with the documented analysis that justifies it (GEN-17). */
  async function reviewAml(
    id: string,
    input: { status: 'filed' | 'dismissed'; note: string; officer: string },
  ): Promise<AmlReport> {
    if (input.status === 'dismissed' && input.note.trim().length < 10)
      throw new DomainError(
        'VALIDATION_FAILED',
        'not filing a ROS needs the documented analysis that justifies it (GEN-17)',
        { field: 'note', rule: 'GEN-17' },
      )
    // Issue 23 point 5: the record's row and a record of its hall's chain, under that hall's lock alone. A record never
    // changes hall, so its hall is read before the transaction; one of no hall is the operator chain's.
    const found = await amlReportRow(db, id)
    if (!found) throw new DomainError('NOT_FOUND', `AML record ${id} not found`)
    const scope = chainOfScope(`hall:${String(found.hall_id ?? '')}`)
    return db.transaction(
      async (tx) => {
        const at = now()
        const changed = await reviewAmlReportRow(tx, id, {
          status: input.status,
          at,
          officer: input.officer,
          note: input.note,
        })
        const row = await amlReportRow(tx, id)
        if (!row) throw new DomainError('NOT_FOUND', `AML record ${id} not found`)
        if (changed !== 1) throw new DomainError('CONFLICT', `AML record ${id} was already reviewed`)
        await appendJournal(tx, {
          at,
          type: 'aml.reviewed',
          scope,
          payload: { reportId: id, status: input.status, officer: input.officer, rule: 'GEN-17' },
        })
        return toReport(row)
      },
      { scopes: [scope] },
    )
  }

  return {
    openDocument,
    sell,
    sellWithin,
    paperWithin,
    ticketOf,
    printPaper,
    checkCashIn,
    journalingRefusals,
    admittedTransaction,
    check,
    cashOut,
    stationDay,
    amlReports,
    amlDay,
    reviewAml,
    issue,
    movement,
    view,
    codeOf,
    voucherIdOf,
    voucherIdOfAsync,
    resolveVoucherId,
    hallFor,
    hallView,
    intakes,
    keyOf,
    storedKeyOf,
  }
}

export type VoucherService = ReturnType<typeof createVoucherService>
