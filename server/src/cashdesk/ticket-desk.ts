/**
 * The cash desk's one door for a presented ticket (issue 23 points 1-2): judge a code, pay its prize, refund a
 * misprint. The line is found from the code (its signed kind, or an instant ticket's typed validation code), never
 * from what the request says, and the product line settles the ticket inside its own transaction while the cash
 * desk moves the money in that same transaction (`OnPaid`, shared/settlement.ts): out of the payer's open shift at
 * an enrolled station, or by cheque where the profile allows it (bingo cards, BNG-70).
 *
 * Where a prize may be paid is decided from the ticket too: a bingo card's prizes are its hall's (paid only at a
 * station of that hall, payouts.ts WRONG_HALL); lotto, lottery, raffle and instant prizes are the operator's, paid
 * "by the operator" (INS-11, LOT-25) at any of its enrolled cash desks, as a national game's retailers do.
 *
 * Every answer carries one shape for the cashier (`view` for a scan, `paid` for a payout: ticket-answer.ts), next
 * to the line's own words, which the tests and the other screens still read.
 */
import type { Sql } from '../db/database.ts'
import { DomainError } from '../shared/errors.ts'
import type { OnPaid } from '../shared/settlement.ts'
import type { InstantService } from '../instant/service.ts'
import type { LottoService } from '../lotto/service.ts'
import type { LotteryService } from '../lottery/service.ts'
import type { Cashdesk } from './service.ts'
import { readAnswer, readPayment, type PayAnswer, type ScanAnswer } from './ticket-answer.ts'

import { assertAcceptedDocument } from '../shared/identity.ts'
import { heldScopes, narrowOrAll, ScopesTooNarrow } from '../db/scopes.ts'
import { OPERATOR_CHAIN } from '../shared/journal-chain.ts'
import type { PlayerAdmission } from '../access/players.ts'
export interface TicketDeskDeps {
  cashdesk: Pick<Cashdesk, 'payouts' | 'cashOut'>
  instant: Pick<InstantService, 'handles' | 'scan' | 'payAtCashier' | 'refund'>
  lotto: Pick<LottoService, 'handles' | 'validate' | 'pay'>
  lottery: Pick<LotteryService, 'handles' | 'validate' | 'pay' | 'chainOfCode'>
  /** Issue 29 point 6: the names a person reads for a station and a person id ("Caja 1", "Rosa Vargas"). */
  names?: { station(id: string): Promise<string>; person(id: string): Promise<string> }
  /**
   * CFG-5: the profile of the hall of the paying station (undefined: a station of no hall), read with `sql`: the
   * payout's own transaction.
   */
  stationProfile?: (sql: Sql, stationId: string) => Promise<Parameters<typeof assertAcceptedDocument>[0] | undefined>
  /** The IANA time zone of the paying station's hall, for the dates a receipt prints (undefined: none known). */
  stationTimeZone?: (stationId: string) => Promise<string | undefined>
  /** The paying station's hall, from its enrolment (undefined: a station of no hall), read with `sql` when given. */
  stationHall?: (stationId: string, sql?: Sql) => Promise<string | undefined>
  /**
   * GEN-23 / GEN-27 (issue 23 point 3): the exclusion list, asked by the payout itself, in its transaction, about the
   * payee it records and the buyers the line read on the ticket. Optional only for callers that pay no one.
   */
  admission?: Pick<
    PlayerAdmission,
    'assertAdmittedWithin' | 'exclusionWithin' | 'journalRefundedWithin' | 'journalingRefusals'
  >
}

/** Who pays: the person's open shift at an enrolled station (http/till.ts resolves it from the session). */
export interface Till {
  stationId: string
  cashierId: string
  shiftId: string | null
}

type Line = 'card' | 'instant' | 'lotto' | 'lottery'

/** An inventory code is an instant ticket's only: sent with any other code it is a mistake, not ignored. */
const notInstant = () =>
  new DomainError('VALIDATION_FAILED', 'only an instant ticket has an inventory code (INS-10)', {
    field: 'inventoryCode',
    rule: 'INS-10',
  })

export function createTicketDesk(deps: TicketDeskDeps) {
  const { payouts, cashOut } = deps.cashdesk
  // Codes come typed or scanned: a paste or a wedge scanner may add spaces around them.
  const clean = (code: string) => code.trim()
  const lineOf = (code: string): Line =>
    deps.instant.handles(code)
      ? 'instant'
      : deps.lotto.handles(code)
        ? 'lotto'
        : deps.lottery.handles(code)
          ? 'lottery'
          : 'card'
  const drawer = (till: Till, product: string, payeeDocument?: string): OnPaid => {
    const cash = cashOut(till.stationId, till.cashierId, { shiftId: till.shiftId, product })
    return async (tx, paid) => {
      // CFG-5: a lotto, lottery or instant payee's document is one the paying station's hall accepts (a card's payee
      // is judged by its own hall in payouts.pay), decided in the payout's transaction from the hall it reads there,
      // so that nothing changed between the request and the payout decides it; a refusal rolls the payout back.
      if (payeeDocument?.trim() && deps.stationProfile) {
        const profile = await deps.stationProfile(tx, till.stationId)
        if (profile) assertAcceptedDocument(profile, payeeDocument, 'payeeDocument')
      }
      // Issue 23 point 5: the drawer's movement and its shift's close share the station's hall lock. A station moved to
      // another hall (under the exclusive lock) since the scopes were decided: run again with every chain.
      const held = heldScopes()
      const hall = held || deps.admission ? await deps.stationHall?.(till.stationId, tx) : undefined
      if (held && deps.stationHall && (!hall || !held.includes(`hall:${hall}`))) throw new ScopesTooNarrow()
      // GEN-23 / GEN-27 (issue 23 point 3): neither the payee this payout records nor the buyer the line read on the
      // ticket (a named slip's player) is on the exclusion list. Lotto, lottery, raffle and instant tickets are the
      // operator's, paid at any of its cash desks (INS-11, LOT-25): the list asked is that of the hall whose drawer
      // pays, read from the station's enrolment, never from the request; a station of no hall asks every hall's.
      // An excluded player's prize is withheld, not forfeited (a refusal, journaled by `pay`): the ticket stays
      // unpaid until its claim period ends, and is paid if the exclusion ends before (GEN-27: "por el período que el
      // salón de juegos o casino determine"; GEN-21 (3): the prizes due).
      if (deps.admission) {
        const documents = [payeeDocument ?? '', ...(paid.buyers ?? [])]
        if (paid.kind === 'refund') {
          // A refund returns the player's own stake (a cancelled draw, an annulled slip): it is not taking part in a
          // game, which is what 002 §1.2.2.2 bars an excluded person from, and GEN-21 (5) gives him the right to it;
          // withholding it would keep a barred player's money. So it is paid, to whom the line allows (a named
          // slip's buyer, or someone he authorised under a supervisor's override, GEN-16/GEN-26), and the hall's chain
          // records that a person on the list was refunded, for the regulator to see. A card's refund does the same
          // (cashdesk/refunds.ts); a misprinted instant ticket records no buyer to ask about.
          const excluded = await deps.admission.exclusionWithin(tx, documents, hall ?? null)
          if (excluded)
            await deps.admission.journalRefundedWithin(tx, excluded, {
              at: paid.at,
              hallId: hall ?? null,
              refId: paid.refId,
              amountCents: paid.amountCents,
            })
        } else await deps.admission.assertAdmittedWithin(tx, documents, hall ?? null)
      }
      await cash(tx, paid)
    }
  }

  /** A payout whose transaction asks the exclusion list: a refusal, rolled back with it, is journaled after. */
  const journaling = <T>(run: () => Promise<T>): Promise<T> =>
    deps.admission ? deps.admission.journalingRefusals(run) : run()

  /**
   * Issue 23 point 5: the chains a payout or refund of an operator product locks: the product's (its tickets, wins and
   * payouts, shared by every hall's cash desks, so two desks paying one ticket serialise) and the paying station's
   * hall (its drawer and shift, which the shift's close locks too), the hall resolved from the station's enrolment,
   * never from the request. A raffle's ticket is the operator chain's (its records, objects and points: no product
   * chain of its own). Every chain at a station of no hall.
   */
  const productScopes = async (till: Till, product: 'lotto' | 'lottery' | 'instant' | typeof OPERATOR_CHAIN) => {
    const hall = await deps.stationHall?.(till.stationId)
    return hall ? [`hall:${hall}`, product] : undefined
  }

  /** A lottery fraction pays in `lottery`, a raffle's ticket (or a code naming no draw, refused) in the operator's. */
  const lotteryChain = async (code: string) =>
    (await deps.lottery.chainOfCode(code)) === 'lottery' ? ('lottery' as const) : OPERATOR_CHAIN

  /**
   * What a code is and what it is worth (§8), in the line's words and in the cashier's one shape (`view`). An instant
   * ticket is judged on its validation code alone; the answer says when its inventory code is still needed to pay
   * it (INS-10), and judges the match when one is presented.
   */
  async function judge(rawCode: string, who: { stationId?: string; cashierId?: string } = {}, inventoryCode?: string) {
    const code = clean(rawCode)
    const line = lineOf(code)
    if (inventoryCode !== undefined && line !== 'instant') throw notInstant()
    let answer: ScanAnswer
    switch (line) {
      case 'instant':
        answer = await deps.instant.scan(code, who, inventoryCode === undefined ? undefined : clean(inventoryCode))
        break
      case 'lotto':
        answer = await deps.lotto.validate(code, who)
        break
      case 'lottery':
        answer = await deps.lottery.validate(code, who)
        break
      default:
        answer = await payouts.validate(code, who)
    }
    const view = readAnswer(answer, code)
    // ALREADY PAID says where and by whom by name, never by the station's or the person's id.
    if (view.paid && deps.names)
      view.paid = {
        ...view.paid,
        stationId: view.paid.stationId && (await deps.names.station(view.paid.stationId)),
        cashierId: view.paid.cashierId && (await deps.names.person(view.paid.cashierId)),
      }
    return { ...answer, view }
  }

  /**
   * Pays a ticket's prize once, against its signed code. `override` reads a supervisor's authorisation to pay a named
   * lotto slip to someone other than its buyer (GEN-26) from the second person's session; it is asked for only when
   * the code is a lotto slip, which this use case decides.
   */
  async function pay(input: {
    code: string
    /** INS-10: an instant ticket's inventory code, printed outside its scratch area; required to pay one. */
    inventoryCode?: string
    till: Till
    payeeName?: string
    payeeDocument?: string
    payeePhone?: string
    objectCode?: string
    /** PRM-2: the other tickets of a points tómbola presented with `code`, all used in the one payout. */
    moreCodes?: readonly string[]
    payment?: { method: 'cash' } | { method: 'cheque'; chequeNumber: string; playerConsent: boolean }
    override?: () => Promise<Parameters<LottoService['pay']>[0]['override']>
  }): Promise<PayAnswer & { paid: ReturnType<typeof readPayment> }> {
    const code = clean(input.code)
    const line = lineOf(code)
    const { till } = input
    if (input.payment?.method === 'cheque' && line !== 'card') {
      throw new DomainError('VALIDATION_FAILED', "only a bingo card's prizes are paid by cheque (BNG-70)", {
        field: 'payment.method',
        rule: 'BNG-70',
      })
    }
    if (input.inventoryCode !== undefined && line !== 'instant') throw notInstant()
    if (input.moreCodes?.length && line !== 'lottery')
      throw new DomainError('VALIDATION_FAILED', "only a points tómbola's tickets are presented together (PRM-2)", {
        field: 'codes',
        rule: 'PRM-2',
      })
    const payee = { name: input.payeeName ?? '', document: input.payeeDocument ?? '' }
    let answer: PayAnswer
    switch (line) {
      case 'instant':
        answer = await journaling(async () =>
          narrowOrAll(await productScopes(till, 'instant'), async (scopes) =>
            deps.instant.payAtCashier({
              scopes,
              code,
              inventoryCode: input.inventoryCode === undefined ? undefined : clean(input.inventoryCode),
              stationId: till.stationId,
              cashierId: till.cashierId,
              stationName: await deps.names?.station(till.stationId),
              cashierName: await deps.names?.person(till.cashierId),
              timeZone: await deps.stationTimeZone?.(till.stationId),
              payeeName: input.payeeName,
              payeeDocument: input.payeeDocument,
              onPaid: drawer(till, 'instant', input.payeeDocument),
            }),
          ),
        )
        break
      case 'lotto': {
        const override = await input.override?.()
        answer = {
          payout: {
            kind: 'lotto',
            ...(await journaling(async () =>
              narrowOrAll(await productScopes(till, 'lotto'), (scopes) =>
                deps.lotto.pay({
                  code,
                  scopes,
                  stationId: till.stationId,
                  cashierId: till.cashierId,
                  payee,
                  override,
                  onPaid: drawer(till, 'lotto', input.payeeDocument),
                }),
              ),
            )),
          },
        }
        break
      }
      case 'lottery':
        // A raffle's code reads as this line's too: its draw, read from the code, says which chain it pays in.
        answer = {
          payout: {
            kind: 'lottery',
            ...(await journaling(async () =>
              narrowOrAll(await productScopes(till, await lotteryChain(code)), (scopes) =>
                deps.lottery.pay({
                  code,
                  scopes,
                  stationId: till.stationId,
                  cashierId: till.cashierId,
                  payee,
                  objectCode: input.objectCode,
                  moreCodes: input.moreCodes?.map(clean),
                  onPaid: drawer(till, 'lottery', input.payeeDocument),
                }),
              ),
            )),
          },
        }
        break
      default:
        answer = await payouts.pay({
          code,
          ...till,
          payeeName: input.payeeName,
          payeeDocument: input.payeeDocument,
          payeePhone: input.payeePhone,
          payment: input.payment,
        })
    }
    return { ...answer, paid: readPayment(answer) }
  }

  /** INS-9: a misprinted instant ticket's price, once, out of the till's drawer, approved by a second person. */
  async function refundMisprint(input: {
    code: string
    inventoryCode?: string
    reason: string
    note?: string
    till: Till
    approvedBy: { id: string; name: string; role: string } | null
  }) {
    const code = clean(input.code)
    if (lineOf(code) !== 'instant')
      throw new DomainError('NOT_REFUNDABLE', 'only a printed instant ticket is refunded as a misprint (INS-9)', {
        rule: 'INS-9',
      })
    return narrowOrAll(await productScopes(input.till, 'instant'), (scopes) =>
      deps.instant.refund({
        scopes,
        code,
        inventoryCode: input.inventoryCode === undefined ? undefined : clean(input.inventoryCode),
        reason: input.reason,
        note: input.note,
        stationId: input.till.stationId,
        cashierId: input.till.cashierId,
        approvedBy: input.approvedBy,
        onPaid: drawer(input.till, 'instant'),
      }),
    )
  }

  return { judge, pay, refundMisprint }
}

export type TicketDesk = ReturnType<typeof createTicketDesk>
