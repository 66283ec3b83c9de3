/**
 * Validation, payout and misprint refund of instant tickets at the cashier: the §8 outcome of a ticket by its
 * hidden validation code, paying a prize once (INS-11, INS-12) with the prize register (INS-5), refunding
 * misprints (INS-9), and the generic cashier scan and payout (POST /api/tickets/validate and /pay).
 *
 * A ticket's validation outcome follows REGULATIONS §8: WIN, NO_WIN, REFUND_ONLY, ALREADY_PAID, EXPIRED,
 * REPORTED_LOST_STOLEN, NOT_ACTIVATED.
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import { ticketFace, type TicketFace } from './play.ts'
import { appendJournal } from '../shared/journal.ts'
import { sealCodeOfDevice } from '../access/device-marks.ts'
import { sealDocumentAtRest } from '../shared/document-at-rest.ts'
import type { OnPaid } from '../shared/settlement.ts'
import { payoutReceipt } from '../../../printer/src/ticket-layout.ts'
import { ticketPreviewDataUrl } from '../../../printer/src/preview.ts'
import type { InstantContext, ResolvedTicket } from './context.ts'
import { assertRowsSealed } from '../shared/row-seals.ts'
import { insertPrizePayout, insertRefundPayout, payoutOfSerial, settleTicket, TicketState } from './store.ts'

/** `VOID`: declared not valid for prizes for the player's damage (INS-8): neither paid nor refunded. */
export type ValidationOutcome =
  'WIN' | 'NO_WIN' | 'REFUND_ONLY' | 'ALREADY_PAID' | 'EXPIRED' | 'REPORTED_LOST_STOLEN' | 'NOT_ACTIVATED' | 'VOID'

export interface ValidationResult {
  outcome: ValidationOutcome
  /** Why, for REFUND_ONLY, NOT_ACTIVATED, EXPIRED and the like. */
  reason: string | null
  gameNo: number
  gameName: string
  serial: string
  tier: number
  amountCents: number
  priceCents: number
  currency: string
  /** What the ticket must show under the scratch layer: a face that differs is a misprint (INS-9). */
  face: TicketFace
  symbolAmountsCents: number[]
  expiresAt: string | null
  /**
   * INS-10: the inventory code printed outside the scratch area was not presented with the validation code, so the
   * ticket may be judged but not paid, refunded or voided until it is (false once it was presented and matched).
   */
  inventoryCodeRequired: boolean
}

const refusal: Record<
  Exclude<ValidationOutcome, 'WIN' | 'NO_WIN'>,
  | 'TICKET_BLOCKED'
  | 'PACK_NOT_ACTIVATED'
  | 'ALREADY_PAID'
  | 'TICKET_EXPIRED'
  | 'TICKET_VOID'
  | 'INVENTORY_CODE_MISMATCH'
> = {
  REPORTED_LOST_STOLEN: 'TICKET_BLOCKED',
  NOT_ACTIVATED: 'PACK_NOT_ACTIVATED',
  ALREADY_PAID: 'ALREADY_PAID',
  EXPIRED: 'TICKET_EXPIRED',
  // No instant ticket is judged REFUND_ONLY (a pair of two tickets' codes is refused in outcomeOf); kept for the type.
  REFUND_ONLY: 'INVENTORY_CODE_MISMATCH',
  VOID: 'TICKET_VOID',
}

/**
 * Whether a use case only judges a ticket or settles it (pay, refund, void). INS-10 (002 §7.4.6.1; 000 §7.2.6.1;
 * REGULATIONS §8 NOT PRESENTED): a prize is paid only against the ticket itself, which nothing replaces. The hidden
 * validation code alone can be read off a photo of the scratched area; the inventory code printed outside it (on an
 * e-instant paper, the serial printed as "Boleto", which is the same inventory code) is the proof that the ticket is
 * at the counter. So settling needs both, of the same ticket; judging may go on the validation code alone.
 */
type Use = 'judge' | 'settle'

/** §8 outcome in the words of the generic cashier scan (payouts.ts TicketStatus), plus the instant details. */
/** The one chain a validation writes (`instant:<game>` scopes all go to `instant`), and so the one lock it takes. */
const INSTANT_SCOPES = { scopes: ['instant'] } as const

const SCAN_STATUS: Record<ValidationOutcome, string> = {
  WIN: 'winner',
  NO_WIN: 'not_winner',
  ALREADY_PAID: 'paid',
  EXPIRED: 'expired',
  REPORTED_LOST_STOLEN: 'blocked',
  REFUND_ONLY: 'void',
  NOT_ACTIVATED: 'not_activated',
  VOID: 'void',
}

/** INS-10: the ticket is paid, refunded or voided only with its inventory code presented too. */
function inventoryCodeRequired(serial: string): DomainError {
  return new DomainError(
    'INVENTORY_CODE_REQUIRED',
    `ticket ${serial}: scan also the inventory code printed outside the scratch area; the validation code alone does not prove the ticket is presented (INS-10)`,
    { rule: 'INS-10', field: 'inventoryCode' },
  )
}

export function createClaimUseCases(ctx: InstantContext) {
  const { db, deps, now, scopeOf } = ctx

  /** The §8 outcome; the ticket's tier is opened from its sealed tag here, inside the validation use case only. */
  async function outcomeOf(
    tx: Sql,
    t: ResolvedTicket,
    inventoryCode: string | undefined,
    use: Use,
  ): Promise<ValidationResult> {
    const presented = Boolean(inventoryCode?.trim())
    const tier = ctx.tierOf(t)
    const amount = tier > 0 ? t.design.design.tiers[tier - 1].amountCents : 0
    const face = ticketFace(t.design, ctx.keysOf(t.batch).symbolsKey, t.index, tier)
    const base = {
      gameNo: t.batch.gameNo,
      gameName: t.batch.name,
      serial: t.serial,
      tier,
      amountCents: amount,
      priceCents: t.batch.priceCents,
      currency: t.batch.currency,
      face,
      symbolAmountsCents: t.design.symbolAmountsCents,
      expiresAt: ctx.claimExpiresAt(t.batch),
      inventoryCodeRequired: !presented,
    }
    const result = (outcome: ValidationOutcome, reason: string | null): ValidationResult => ({
      outcome,
      reason,
      ...base,
    })
    // Issue 24 point 1: a ticket's state, sale and payout are as the server sealed them (none marked sold, unpaid
    // or refunded outside it); a ticket in stock carries no seal until it is sold.
    const id = String(t.ticketId)
    await assertRowsSealed(tx, 'instant_tickets', [id])
    await assertRowsSealed(tx, 'instant_sales', [id])
    await assertRowsSealed(tx, 'instant_payouts', [id])
    const blocked = await ctx.blockedBy(tx, t)
    if (blocked)
      return result(
        'REPORTED_LOST_STOLEN',
        `in a range reported ${blocked.kind} (report ${blocked.id}): no payment, refund or exchange (LST-4, LST-5)`,
      )
    if (t.batch.channel === 'printed' && t.packStatus !== 'activated')
      return result(
        'NOT_ACTIVATED',
        `pack ${t.packNo} is ${t.packStatus}, not activated: its tickets were never on sale (INS-12)`,
      )
    // INS-12 (issue 24 point 3): only a sold ticket is paid or refunded. A pre-printed ticket's sale is recorded
    // ticket by ticket at the point of sale: its inventory code scanned at a kiosk or till (sales.ts sellPrinted,
    // the counter sale that takes the cash), which marks it sold with an instant_sales row and a journal record.
    // An activated pack is only stock on the retailer's shelf: a ticket of it never scanned as sold is neither
    // paid nor refunded, so a pack's unsold winners cannot be cashed by whoever holds the pack. Same for an
    // electronic ticket never issued. Every use case that settles a ticket (pay, refund, void) passes here.
    if (t.status === TicketState.InStock) {
      return result(
        'NOT_ACTIVATED',
        t.batch.channel === 'printed'
          ? `ticket ${t.serial} was never sold: a pre-printed ticket is paid or refunded only once its sale was recorded by scanning it at the point of sale (INS-12)`
          : 'this electronic ticket was never sold (INS-12)',
      )
    }
    if (t.status === TicketState.Paid) return result('ALREADY_PAID', 'the prize of this ticket was already paid')
    if (t.status === TicketState.Refunded)
      return result('ALREADY_PAID', 'this ticket was already refunded as a misprint')
    if (t.status === TicketState.Voided)
      return result(
        'VOID',
        'declared not valid for prizes: marks or crossings-out prevent identifying its number or symbols; no prize and no refund (INS-8)',
      )
    const exp = base.expiresAt
    if (exp && now() > exp) return result('EXPIRED', `the claim period ended on ${exp} (INS-10)`)
    // INS-10: the one check every settling use case passes (pay, refund, void), after the ticket's state.
    if (!presented && use === 'settle') throw inventoryCodeRequired(t.serial)
    if (presented) {
      const outside = await ctx.byInventoryCode(tx, inventoryCode!.trim()).catch((err: unknown) => {
        // Not an inventory code at all (the validation code scanned twice, a mistyped check digit): not presented.
        if (err instanceof DomainError && err.code === 'VALIDATION_FAILED') throw inventoryCodeRequired(t.serial)
        return null
      })
      if (!outside || outside.ticketId !== t.ticketId) {
        // INS-9/INS-10: a pair of codes of two tickets settles neither: not the hidden code's ticket (its outside is
        // not at the counter, so it could be refunded from a photo and never paid again) nor the other one (its
        // hidden code was not read). Judging says so too, rather than offer a price refund every settle refuses.
        throw new DomainError(
          'INVENTORY_CODE_MISMATCH',
          `ticket ${t.serial}: the inventory code outside (${outside?.serial ?? 'of no ticket'}) is another ticket's; a pair of codes of two tickets is neither paid, refunded nor voided (INS-9, INS-10)`,
          { rule: 'INS-10', field: 'inventoryCode' },
        )
      }
    }
    return result(tier > 0 ? 'WIN' : 'NO_WIN', null)
  }

  /**
   * A ticket's worth at the cashier (REGULATIONS §8), journaled with the station and cashier; changes nothing else.
   * Issue 23 point 5: it writes one record of the `instant` chain (an instant game is the operator's, INS-11) and no
   * row, so it locks that product alone, whatever the ticket or the station: another hall's open transaction does not
   * hold it up, nor does it hold up another hall's writers.
   */
  async function validate(input: {
    code: string
    inventoryCode?: string
    stationId?: string
    cashierId?: string
  }): Promise<ValidationResult> {
    return db.transaction(async (tx) => {
      const v = await outcomeOf(tx, await ctx.byValidationCode(tx, input.code), input.inventoryCode, 'judge')
      await appendJournal(tx, {
        at: now(),
        type: 'instant.ticket_validated',
        scope: `instant:${v.gameNo}`,
        payload: {
          gameNo: v.gameNo,
          serial: v.serial,
          outcome: v.outcome,
          stationId: input.stationId ?? null,
          // REGULATIONS.md §8 / GEN-7: every validation's record names the seal code of the terminal that judged it,
          // as the lotto and lottery ones do (draws/validation-journal.ts).
          sealCode: await sealCodeOfDevice(tx, input.stationId),
          cashierId: input.cashierId ?? null,
          rule: '§8',
        },
      })
      return v
    }, INSTANT_SCOPES)
  }

  /**
   * Pays a winning ticket once (INS-11, INS-12): the conditional update on its state, the prize register row
   * (INS-5; UNIQUE per ticket) and the journal record commit together. A second or concurrent payout gets
   * ALREADY_PAID.
   */
  async function pay(input: {
    code: string
    inventoryCode?: string
    stationId: string
    cashierId: string
    payeeName?: string | null
    payeeDocument?: string | null
    signatureRef?: string
    onPaid: OnPaid
    /** The journal chains the payout locks (db/scopes.ts), decided by the cash desk; none: every chain. */
    scopes?: readonly string[]
  }) {
    const payeeName = input.payeeName?.trim() ?? ''
    const payeeDocument = input.payeeDocument?.trim() ?? ''
    if (!/\S+\s+\S+/.test(payeeName) || !payeeDocument) {
      throw new DomainError(
        'PAYEE_ID_REQUIRED',
        "the prize register needs the payee's first and last names and identity document (INS-5)",
        { rule: 'INS-5', fields: ['payeeName', 'payeeDocument'] },
      )
    }
    return db.transaction(
      async (tx) => {
        const t = await ctx.byValidationCode(tx, input.code)
        const v = await outcomeOf(tx, t, input.inventoryCode, 'settle')
        if (v.outcome === 'NO_WIN')
          throw new DomainError('NOT_A_WINNER', `ticket ${t.serial} has no prize`, {
            outcome: v.outcome,
            product: 'instant',
          })
        if (v.outcome !== 'WIN')
          throw new DomainError(refusal[v.outcome], v.reason ?? v.outcome, { outcome: v.outcome })
        if ((await settleTicket(tx, t.ticketId, TicketState.Paid)) !== 1)
          throw new DomainError('ALREADY_PAID', `ticket ${t.serial} was already paid`, { outcome: 'ALREADY_PAID' })
        const at = now()
        const id = ctx.newId('inp')
        await insertPrizePayout(tx, {
          id,
          ticketId: t.ticketId,
          batchId: t.batch.id,
          gameNo: t.batch.gameNo,
          serial: t.serial,
          tier: v.tier,
          amountCents: v.amountCents,
          currency: t.batch.currency,
          stationId: input.stationId,
          cashierId: input.cashierId,
          payeeName,
          // Issue 24 point 2: stored sealed; the register opens it for its readers.
          payeeDocument: sealDocumentAtRest(deps.sealer, payeeDocument)!,
          signatureRef: input.signatureRef ?? 'signed-slip',
          paidAt: at,
        })
        const rec = await appendJournal(tx, {
          at,
          type: 'instant.prize_paid',
          scope: scopeOf(t.batch),
          // Personal data stays in the register (instant_payouts), not in the journal, which cannot forget.
          // A paid prize is public record (INS-5): its tier and amount are written once the ticket is settled.
          payload: {
            payoutId: id,
            gameNo: t.batch.gameNo,
            serial: t.serial,
            tier: v.tier,
            amountCents: v.amountCents,
            currency: t.batch.currency,
            stationId: input.stationId,
            // REGULATIONS.md §8 / GEN-7: the payout's record names the seal code of the station that paid it.
            sealCode: await sealCodeOfDevice(tx, input.stationId),
            cashierId: input.cashierId,
            payeeIdentified: true,
            rule: 'INS-11',
          },
        })
        await input.onPaid(tx, {
          amountCents: v.amountCents,
          currency: t.batch.currency,
          refId: id,
          at,
          kind: 'prize_payout',
        })
        return {
          payoutId: id,
          serial: t.serial,
          gameNo: t.batch.gameNo,
          tier: v.tier,
          amountCents: v.amountCents,
          currency: t.batch.currency,
          paidAt: at,
          journalSeq: rec.seq,
        }
      },
      input.scopes?.length ? { scopes: input.scopes } : undefined,
    )
  }

  /**
   * An instant prize paid through the generic cashier route (POST /api/tickets/pay): paid in cash, answered in that
   * route's shape (payout with its prize lines, receipt printed after the commit with the signature line of the
   * prize register, INS-5, and its preview).
   */
  async function payAtCashier(input: {
    code: string
    inventoryCode?: string
    stationId: string
    cashierId: string
    /** The names a person reads for the station and the cashier (the cash desk's, issue 29 point 6): never their ids. */
    stationName?: string
    cashierName?: string
    /** The paying hall's time zone, for the receipt's date. */
    timeZone?: string
    payeeName?: string
    payeeDocument?: string
    onPaid: OnPaid
    scopes?: readonly string[]
  }) {
    if (!deps.printers) throw new Error('payAtCashier needs the printers')
    // The cash desk's drawer movement (issue 23: the product line never touches cash).
    const p = await pay(input)
    const prizes = [{ id: p.payoutId, kind: 'instant', amountCents: p.amountCents }]
    const printer = deps.printers.forStation(input.stationId)
    const doc = payoutReceipt(
      {
        payoutId: p.payoutId,
        hallName: `Juego instantáneo ${String(p.gameNo).padStart(4, '0')}`,
        gameNo: p.gameNo,
        gameId: `instant-${p.gameNo}`,
        sessionId: '-',
        serial: p.serial,
        cardId: p.serial,
        prizes,
        amountCents: p.amountCents,
        currency: p.currency,
        paidAt: p.paidAt,
        station: input.stationName ?? '-',
        cashier: input.cashierName ?? '-',
        payeeName: input.payeeName ?? null,
        payeeDocument: input.payeeDocument ?? null,
        line: 'instant',
      },
      { paper: printer.paper, timeZone: input.timeZone },
    )
    let receipt: { printed: true } | { printed: false; error: { code: string; reason: string | null; message: string } }
    try {
      await printer.print([doc], `payout-${p.payoutId}`)
      receipt = { printed: true }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      receipt = { printed: false, error: { code: err.code, reason: null, message: err.message } }
    }
    return {
      payout: {
        kind: 'instant' as const,
        ...p,
        ticketId: p.serial,
        prizes,
        stationId: input.stationId,
        cashierId: input.cashierId,
        payeeName: input.payeeName ?? null,
        payeeDocument: input.payeeDocument ?? null,
      },
      receipt,
      preview: ticketPreviewDataUrl(doc),
    }
  }

  /**
   * Misprint handling (INS-9): an illegible or defective play area, symbols other than programmed, an apparent win
   * contradicted by the control number, or a hidden code that is not the ticket's: the price is refunded, once, and
   * the ticket can no longer be paid. Lost, stolen, unactivated or expired tickets are refused as for a payout.
   */
  async function refund(input: {
    code: string
    inventoryCode?: string
    reason: string
    stationId: string
    cashierId: string
    note?: string
    approvedBy?: { id: string; name: string; role: string } | null
    onPaid: OnPaid
    /** The journal chains the refund locks (db/scopes.ts), decided by the cash desk; none: every chain. */
    scopes?: readonly string[]
  }) {
    return db.transaction(
      async (tx) => {
        const t = await ctx.byValidationCode(tx, input.code)
        // INS-9 is about a printed play area (illegible, defective, wrong symbols): an electronic ticket's face is the
        // server's own computation, so there is nothing misprinted to refund (issue 13 point 7).
        if (t.batch.channel !== 'printed')
          throw new DomainError(
            'NOT_REFUNDABLE',
            `ticket ${t.serial} is an electronic instant ticket: its play cannot be misprinted (INS-9)`,
            { channel: t.batch.channel, rule: 'INS-9' },
          )
        const v = await outcomeOf(tx, t, input.inventoryCode, 'settle')
        if (v.outcome !== 'WIN' && v.outcome !== 'NO_WIN')
          throw new DomainError(refusal[v.outcome], v.reason ?? v.outcome, { outcome: v.outcome })
        if ((await settleTicket(tx, t.ticketId, TicketState.Refunded)) !== 1)
          throw new DomainError('ALREADY_PAID', `ticket ${t.serial} was already paid or refunded`)
        const at = now()
        const id = ctx.newId('inp')
        const reason = input.note ? `${input.reason}: ${input.note}` : input.reason
        await insertRefundPayout(tx, {
          id,
          ticketId: t.ticketId,
          batchId: t.batch.id,
          gameNo: t.batch.gameNo,
          serial: t.serial,
          tier: v.tier,
          amountCents: t.batch.priceCents,
          currency: t.batch.currency,
          reason,
          stationId: input.stationId,
          cashierId: input.cashierId,
          paidAt: at,
        })
        const rec = await appendJournal(tx, {
          at,
          type: 'instant.misprint_refunded',
          scope: scopeOf(t.batch),
          payload: {
            payoutId: id,
            gameNo: t.batch.gameNo,
            serial: t.serial,
            amountCents: t.batch.priceCents,
            reason,
            stationId: input.stationId,
            cashierId: input.cashierId,
            approvedBy: input.approvedBy ?? null,
            rule: 'INS-9',
          },
        })
        // The price leaves the drawer of the till that refunds it, in the same transaction.
        await input.onPaid(tx, {
          amountCents: t.batch.priceCents,
          currency: t.batch.currency,
          refId: id,
          at,
          kind: 'refund',
        })
        return {
          payoutId: id,
          serial: t.serial,
          amountCents: t.batch.priceCents,
          currency: t.batch.currency,
          reason,
          journalSeq: rec.seq,
        }
      },
      input.scopes?.length ? { scopes: input.scopes } : undefined,
    )
  }

  /**
   * INS-8 (002 §7.4.5.2): a printed ticket whose marks or crossings-out (the player's damage) prevent identifying its
   * number or the symbols of its play boxes is not valid for prizes, "bajo entera responsabilidad del Operador". So
   * it is the operator's decision, taken by floor staff (the route: instant.void), never by the cashier alone, and
   * recorded with the person, the damage and where the ticket is kept. Nothing is paid: unlike a misprint (INS-9,
   * the operator's fault, price refunded), the damage is the player's. The ticket can no longer be paid or
   * refunded. An electronic ticket has no paper to damage and is refused.
   */
  async function voidForDamage(input: {
    code: string
    inventoryCode?: string
    damage: string
    keptAs: string
    decidedBy: { kind: string; id: string; name: string; role: string }
  }) {
    const damage = input.damage?.trim() ?? ''
    const keptAs = input.keptAs?.trim() ?? ''
    if (damage.length < 5 || !keptAs)
      throw new DomainError(
        'VALIDATION_FAILED',
        'a void for damage describes the marks (5+ characters) and where the ticket is kept (INS-8)',
        { rule: 'INS-8', fields: ['damage', 'keptAs'] },
      )
    // Issue 23 point 5: the ticket's state and a record of the `instant` chain, no money and no hall's row: it locks
    // that product alone, as a validation does.
    return db.transaction(async (tx) => {
      const t = await ctx.byValidationCode(tx, input.code)
      if (t.batch.channel !== 'printed')
        throw new DomainError(
          'NOT_REFUNDABLE',
          `ticket ${t.serial} is electronic: it has no paper a player could damage (INS-8)`,
          { channel: t.batch.channel, rule: 'INS-8' },
        )
      const v = await outcomeOf(tx, t, input.inventoryCode, 'settle')
      if (v.outcome !== 'WIN' && v.outcome !== 'NO_WIN')
        throw new DomainError(refusal[v.outcome], v.reason ?? v.outcome, { outcome: v.outcome })
      if ((await settleTicket(tx, t.ticketId, TicketState.Voided)) !== 1)
        throw new DomainError('ALREADY_PAID', `ticket ${t.serial} was already paid, refunded or voided`)
      const at = now()
      const rec = await appendJournal(tx, {
        at,
        type: 'instant.ticket_voided',
        scope: scopeOf(t.batch),
        payload: {
          gameNo: t.batch.gameNo,
          serial: t.serial,
          cause: 'player-damage',
          damage,
          keptAs,
          paidCents: 0,
          refundCents: 0,
          decidedBy: input.decidedBy,
          rule: 'INS-8',
        },
      })
      return {
        serial: t.serial,
        gameNo: t.batch.gameNo,
        outcome: 'VOID' as const,
        paidCents: 0,
        refundCents: 0,
        damage,
        keptAs,
        decidedBy: input.decidedBy,
        at,
        journalSeq: rec.seq,
      }
    }, INSTANT_SCOPES)
  }

  /** True when a scanned or typed code is an instant ticket's: a kind `I` QR or a bare validation code. */
  function handles(text: string): boolean {
    const t = String(text ?? '').trim()
    if (t.startsWith('BLL1.I.')) return true
    return /^\d{4}[0-9A-Za-z]{20}$/.test(t.replace(/[\s-]/g, ''))
  }

  async function scan(code: string, who: { stationId?: string; cashierId?: string } = {}, inventoryCode?: string) {
    const v = await validate({ code, inventoryCode, ...who })
    const paid = v.outcome === 'ALREADY_PAID' ? await payoutOfSerial(db, v.serial, v.gameNo) : undefined
    // The generic scan's fields (payouts.ts TicketStatus) so that the cashier screen shows an instant ticket too:
    // no card grid, one prize line, the payee always asked for (INS-5).
    return {
      kind: 'instant' as const,
      status: SCAN_STATUS[v.outcome],
      ...v,
      ticketId: v.serial,
      rows: [] as number[][],
      prizes: v.tier > 0 ? [{ id: `instant-${v.serial}`, kind: 'instant', amountCents: v.amountCents }] : [],
      idRequired: true,
      claimUntil: v.expiresAt ?? '',
      expiredAt: v.expiresAt ?? '',
      refundCents: v.outcome === 'REFUND_ONLY' ? v.priceCents : 0,
      paidAt: paid?.paidAt ?? '',
      stationId: paid?.stationId ?? null,
      cashierId: paid?.cashierId ?? null,
      payoutId: paid?.id ?? null,
    }
  }

  return { handles, scan, validate, pay, payAtCashier, refund, voidForDamage }
}
