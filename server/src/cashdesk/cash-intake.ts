/**
 * GEN-17 (issue 24 point 6): every cash intake at a drawer, a voucher sold at the till or a counter sale of cards,
 * lotto slips, raffle or instant tickets, goes through `record` in the sale's transaction: its denominations (small
 * notes and coins, Bs 10, Bs 20 and coins, CFG-2, against the rest) and its buyer are written to `cash_intakes`,
 * and the buyer's day (CFG-3: the UTC day, per hall) is added up by the buyer's identity key over voucher and
 * counter sales alike, so that three spellings of one document are one person's total.
 *
 * The count is taken by note and coin (CFG-2, issue 26): which of them are small is the hall's profile's, split here
 * (`split`); a count given as the split itself is refused (CASH_COUNT_BY_PIECE).
 *
 * The rule needs the count wherever small notes could cross the limit (BOLILLO_AML_SMALL_SHARE_PERCENT of the UIF
 * threshold). A sale of at most the limit may be recorded "not counted" (the counter screens of older clients);
 * it then counts whole as small notes in the buyer's day, so not counting never hides cash from the rule. A sale
 * over the limit is refused without its count, and small notes over the limit without the buyer's document.
 */
import type { Sql } from '../db/database.ts'
import type { Config } from '../config.ts'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import { shareOf } from '../shared/money.ts'
import { assertRowsSealedWhere } from '../shared/row-seals.ts'
import { hallById, insertAmlReport, insertCashIntake, smallCashOfBuyer } from './store.ts'
import { assertAcceptedDocument } from '../shared/identity.ts'
import { getProfile } from '../shared/profile.ts'
import { assertCountedByPiece, splitCash, type CashPieces, type CashSplit } from '../shared/cash-count.ts'

const DAY_MS = 86_400_000

/** How the cash was paid: small notes and coins, and the rest (GEN-17), as the hall's profile split it (`split`). */
export type CashCount = CashSplit

export interface CashIntake {
  hallId: string
  stationId: string
  cashierId: string
  source: 'voucher' | 'counter_sale'
  /** The voucher or the counter sale the cash paid for. */
  refId: string
  amountCents: number
  currency: string
  /** null: not counted (allowed up to the limit only). CFG-2: the count by piece as `split` made it. */
  cash: CashCount | null
  /** As typed by the cashier (kept for display); matched by its key. */
  buyerDocument: string | null
  at: string
}

export interface AmlScreen {
  flagged: boolean
  reportId: string | null
  limitCents: number
  counted: boolean
}

export function createCashIntakes(deps: {
  config: Pick<Config, 'amlThresholdCents' | 'amlSmallShareBp'>
  newId: (prefix: string) => string
  keyOf: (document: string) => string
  /** Issue 24 point 2: the document as it is stored (sealed, document-at-rest.ts); matched by its key. */
  sealDocument?: (document: string) => string
}) {
  const { config } = deps
  const limitCents = () => shareOf(config.amlThresholdCents, config.amlSmallShareBp)

  /**
   * The checks that need no database, before the sale's transaction: the count is by note and coin (CFG-2), and is
   * given over the limit.
   */
  function check(input: { amountCents: number; cash: CashPieces | null; buyerDocument: string | null }): void {
    assertCountedByPiece(input.cash)
    const limit = limitCents()
    if (!input.cash && input.amountCents > limit) {
      throw new DomainError(
        'CASH_COUNT_REQUIRED',
        `${input.amountCents} in cash is over the GEN-17 limit of ${limit}: count the notes and coins (cash.pieces)`,
        { field: 'cash', limitCents: limit, rule: 'GEN-17' },
      )
    }
  }

  /** The split count adds up to the amount, and small notes over the limit name the buyer (GEN-17). */
  function checkCounted(input: CashIntake): void {
    const { amountCents, cash } = input
    const limit = limitCents()
    if (!cash && amountCents > limit) {
      throw new DomainError(
        'CASH_COUNT_REQUIRED',
        `${amountCents} in cash is over the GEN-17 limit of ${limit}: count the notes and coins (cash.pieces)`,
        { field: 'cash', limitCents: limit, rule: 'GEN-17' },
      )
    }
    if (cash && cash.smallCents + cash.otherCents !== amountCents) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `the notes and coins counted (${cash.smallCents + cash.otherCents}) must add up to the amount ${amountCents} (GEN-17)`,
        { field: 'cash', rule: 'GEN-17' },
      )
    }
    // GEN-17 (issue 13 point 8): small notes over the limit are recorded against the buyer's identity document, so
    // that the officer's record names the person and the buyer's day adds up (CFG-3).
    const small = cash ? cash.smallCents : amountCents
    if (small > limit && !input.buyerDocument?.trim()) {
      throw new DomainError(
        'BUYER_ID_REQUIRED',
        `${small} in small notes is over the GEN-17 limit of ${limit}: the buyer's identity document is recorded first`,
        { field: 'buyerDocument', limitCents: limit, rule: 'GEN-17' },
      )
    }
  }

  /**
   * CFG-2: a count by note and coin split into small notes and coins and the rest by the hall's profile (an unknown
   * note or coin refused, DENOMINATION_UNKNOWN; the split itself refused, CASH_COUNT_BY_PIECE); null, not counted.
   */
  async function split(tx: Sql, hallId: string, cash: CashPieces | null): Promise<CashCount | null> {
    assertCountedByPiece(cash)
    if (!cash) return null
    const hall = await hallById(tx, hallId)
    const profile = hall ? getProfile(hall.profile_id) : undefined
    if (!profile) throw new DomainError('NOT_FOUND', `hall ${hallId} not found`, { hallId })
    return splitCash(profile, cash)
  }

  /** Records the intake and opens a GEN-17 record when the operation, or the buyer's day, goes over the limit. */
  async function record(tx: Sql, input: CashIntake): Promise<AmlScreen> {
    checkCounted(input)
    // CFG-5: every buyer's document taken with cash (a voucher, a counter sale of any product) is one of the kinds
    // of identity document the hall's profile accepts.
    if (input.buyerDocument?.trim()) {
      const hall = await hallById(tx, input.hallId)
      const profile = hall ? getProfile(hall.profile_id) : undefined
      if (profile) assertAcceptedDocument(profile, input.buyerDocument, 'buyerDocument')
    }
    const limit = limitCents()
    const buyerDocument = input.buyerDocument?.trim() || null
    const buyerKey = buyerDocument ? deps.keyOf(buyerDocument) : null
    const storedDocument = buyerDocument && deps.sealDocument ? deps.sealDocument(buyerDocument) : buyerDocument
    const id = deps.newId('ci')
    await insertCashIntake(tx, {
      id,
      hallId: input.hallId,
      stationId: input.stationId,
      cashierId: input.cashierId,
      source: input.source,
      refId: input.refId,
      amountCents: input.amountCents,
      currency: input.currency,
      smallCents: input.cash?.smallCents ?? null,
      otherCents: input.cash?.otherCents ?? null,
      buyerDocument: storedDocument,
      buyerKey,
      at: input.at,
    })
    const small = input.cash ? input.cash.smallCents : input.amountCents
    let windowSmall = small
    if (buyerKey) {
      const dayStart = `${input.at.slice(0, 10)}T00:00:00.000Z`
      const dayEnd = new Date(Date.parse(dayStart) + DAY_MS).toISOString()
      // Issue 24 point 1: the person's day adds up only intakes as the server wrote them; one edited or re-keyed
      // behind the journal (to keep a buyer under the limit) refuses the sale (ROW_TAMPERED, journaled).
      // (This intake is sealed with the sale's record, after this check.)
      await assertRowsSealedWhere(
        tx,
        'cash_intakes',
        't.buyer_key = ? AND t.hall_id = ? AND t.at >= ? AND t.at < ? AND t.id <> ?',
        [buyerKey, input.hallId, dayStart, dayEnd, id],
      )
      windowSmall = await smallCashOfBuyer(tx, buyerKey, input.hallId, dayStart, dayEnd)
    }
    const counted = input.cash !== null
    if (windowSmall <= limit) return { flagged: false, reportId: null, limitCents: limit, counted }
    const reportId = deps.newId('aml')
    await insertAmlReport(tx, {
      id: reportId,
      hallId: input.hallId,
      stationId: input.stationId,
      cashierId: input.cashierId,
      voucherId: input.source === 'voucher' ? input.refId : '',
      buyerDocument: storedDocument,
      buyerKey,
      intakeId: id,
      amountCents: input.amountCents,
      smallCents: small,
      windowSmallCents: windowSmall,
      limitCents: limit,
      thresholdCents: config.amlThresholdCents,
      shareBp: config.amlSmallShareBp,
      createdAt: input.at,
    })
    await appendJournal(tx, {
      at: input.at,
      type: 'aml.flagged',
      scope: `hall:${input.hallId}`,
      payload: {
        reportId,
        intakeId: id,
        source: input.source,
        ...(input.source === 'voucher' ? { voucherId: input.refId } : { saleId: input.refId }),
        stationId: input.stationId,
        cashierId: input.cashierId,
        // The amounts the officer's record shows, so that the journal says the same (issue 24 point 1).
        amountCents: input.amountCents,
        currency: input.currency,
        smallCents: small,
        counted,
        windowSmallCents: windowSmall,
        limitCents: limit,
        thresholdCents: config.amlThresholdCents,
        shareBp: config.amlSmallShareBp,
        rule: 'GEN-17',
      },
    })
    return { flagged: true, reportId, limitCents: limit, counted }
  }

  return { check, record, split, limitCents }
}

export type CashIntakes = ReturnType<typeof createCashIntakes>
