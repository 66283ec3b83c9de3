/**
 * Lotto validation and payout at the cashier (REGULATIONS.md §8, LNS-24, LNS-25): one payout per prize, with the
 * prize register; and the claim period: unclaimed prizes for charity after prescription (LOT-23, LOT-24).
 */
import { identityKey } from '../shared/identity.ts'
import { openDocumentAtRest } from '../shared/document-at-rest.ts'
import { DomainError } from '../shared/errors.ts'
import { assertRowsSealed, assertRowsSealedWhere } from '../shared/row-seals.ts'
import { ValidationOutcome } from '../shared/lottery-common.ts'
import type { PayInput } from '../draws/lifecycle.ts'
import type { Sql } from '../db/database.ts'
import { journalValidation } from '../draws/validation-journal.ts'
import { narrowOrAll, requireChain } from '../db/scopes.ts'
import { chainOfScope, OPERATOR_CHAIN } from '../shared/journal-chain.ts'
import type { LottoContext } from './context.ts'
import type { LottoReceipt } from './slips.ts'
import {
  hasPayout,
  lottoDrawByNumber,
  lottoDrawIdByNumber,
  markWinsPaid,
  slipById,
  unpaidWins,
  winsOfSlip,
  type Slip,
} from './store.ts'

/**
 * GEN-26: a supervisor's override to pay a named slip to someone the buyer authorised: who (a second person with
 * their own credential, never a name from a body) and the buyer's authorisation they checked.
 */
export interface PayeeOverride {
  by: { id: string; name: string; role: string }
  reason: string
}

/** An identity document compared as written by different people: no spaces, dots or dashes, in capitals. */
/** GEN-16 / GEN-26: the payee is the buyer when both documents are one person's (issue 24 point 6: "4567890 LP" is "4567890-lp"). */
export const sameDocument = (a: string, b: string) => identityKey(a) === identityKey(b)

export interface DrawClaim {
  /** `refund` / `refunded`: the draw was cancelled (LNS-22, LOT-21); the price of the slip's boards for it is refunded once. */
  drawId: string
  drawNumber: number
  status: 'pending' | 'no_win' | 'win' | 'paid' | 'expired' | 'refund' | 'refunded'
  amountCents: number
  goods: string[]
  prizes: Array<{
    board: number
    category: string
    name: string
    matches: number
    amountCents: number
    goods: string | null
  }>
  claimDeadline: string
}
export interface LottoValidation {
  outcome: ValidationOutcome
  kind: 'lotto'
  ticketId: string | null
  amountCents: number
  goods: string[]
  currency: string | null
  reason: string
  draws: DrawClaim[]
  receipt: LottoReceipt | null
}

export function createPayoutUseCases(ctx: LottoContext) {
  const { db, deps, planOf, cachedByNumber, life } = ctx

  async function claimsOf(tx: Sql, s: Slip): Promise<DrawClaim[]> {
    const out: DrawClaim[] = []
    for (let n = s.firstDrawNo; n < s.firstDrawNo + s.drawCount; n++) {
      const d = await lottoDrawByNumber(tx, s.gameCode, n)
      if (!d) continue
      const plan = planOf(d)
      const c: DrawClaim = {
        drawId: d.id,
        drawNumber: Number(d.drawNo),
        status: 'pending',
        amountCents: 0,
        goods: [],
        prizes: [],
        claimDeadline: d.claimDeadline,
      }
      const claim = await life.claimOf(tx, d, s.id, async () => {
        const wins = await winsOfSlip(tx, d.id, s.id)
        c.prizes = wins.map((w) => ({
          board: Number(w.board),
          category: w.category,
          name: plan.categories.find((x) => x.code === w.category)?.name ?? w.category,
          matches: Number(w.matches),
          amountCents: Number(w.amountCents),
          goods: w.goods,
        }))
        c.amountCents = c.prizes.reduce((t, p) => t + p.amountCents, 0)
        c.goods = c.prizes.filter((p) => p.goods).map((p) => p.goods!)
        return { won: wins.length > 0, paid: wins.some((w) => w.paidAt) }
      })
      c.status = claim.state
      // LNS-22 / LOT-21: a withdrawn or renounced draw refunds what the slip paid for it, once.
      if (claim.state === 'refund') c.amountCents = plan.priceCents * Number(s.boardCount)
      out.push(c)
    }
    return out
  }

  /**
   * What a cashier's scan of a receipt answers (REGULATIONS.md §8): a code whose signature fails, or that the
   * sales system does not know, is VOID (LOT-8); an annulled or excluded slip is REFUND ONLY (LNS-21); otherwise
   * WIN with the total payable now, PENDING while a draw is not settled, ALREADY PAID, EXPIRED after the claim
   * deadline (LOT-23), or NO WIN.
   */
  async function validate(code: string, tx: Sql = db): Promise<LottoValidation> {
    const base = {
      kind: 'lotto' as const,
      amountCents: 0,
      goods: [] as string[],
      currency: null as string | null,
      draws: [] as DrawClaim[],
      receipt: null as LottoReceipt | null,
    }
    const read = life.readCode(code)
    if (read.id === undefined) return { ...base, outcome: ValidationOutcome.Void, ...read }
    const id = read.id
    const s = await slipById(tx, id)
    if (!s)
      return {
        ...base,
        outcome: ValidationOutcome.Void,
        ticketId: id,
        reason: 'the receipt is not registered in the sales system (LOT-8)',
      }
    const receipt = {
      ...base,
      ticketId: id,
      currency: (await cachedByNumber(s.gameCode, s.firstDrawNo, tx))?.plan.currency ?? null,
    }
    if (s.status !== 'active') {
      if (await hasPayout(tx, id))
        return { ...receipt, outcome: ValidationOutcome.AlreadyPaid, reason: 'the refund was already paid' }
      return {
        ...receipt,
        outcome: ValidationOutcome.RefundOnly,
        amountCents: s.amountCents,
        reason: `${s.status}: ${s.statusReason ?? ''} — refund of the price only (LNS-21)`,
      }
    }
    const draws = await claimsOf(tx, s)
    const payable = draws.filter((d) => d.status === 'win')
    const refunds = draws.filter((d) => d.status === 'refund')
    const amountCents = [...payable, ...refunds].reduce((t, d) => t + d.amountCents, 0)
    const goods = payable.flatMap((d) => d.goods)
    const r = { ...receipt, draws, amountCents, goods }
    const refundText = refunds.length
      ? `; refund of cancelled draw(s) ${refunds.map((d) => d.drawNumber).join(', ')} (LNS-22)`
      : ''
    if (payable.length > 0)
      return {
        ...r,
        outcome: ValidationOutcome.Win,
        reason: `prize in draw(s) ${payable.map((d) => d.drawNumber).join(', ')}${refundText}`,
      }
    if (refunds.length > 0)
      return {
        ...r,
        outcome: ValidationOutcome.RefundOnly,
        reason: `draw(s) ${refunds.map((d) => d.drawNumber).join(', ')} cancelled with the AJ's authorisation: refund of the price only (LNS-22, LOT-21)`,
      }
    if (draws.some((d) => d.status === 'pending'))
      return { ...r, outcome: ValidationOutcome.Pending, reason: 'a draw of this receipt is not settled yet' }
    if (draws.some((d) => d.status === 'refunded') && !draws.some((d) => d.status === 'win' || d.status === 'expired'))
      return {
        ...r,
        outcome: ValidationOutcome.AlreadyPaid,
        reason: 'the refund of the cancelled draw was already paid',
        amountCents: 0,
      }
    if (draws.some((d) => d.status === 'paid'))
      return { ...r, outcome: ValidationOutcome.AlreadyPaid, reason: 'the prize was already paid', amountCents: 0 }
    if (draws.some((d) => d.status === 'expired'))
      return { ...r, outcome: ValidationOutcome.Expired, reason: 'the claim period has ended (LOT-23)', amountCents: 0 }
    return { ...r, outcome: ValidationOutcome.NoWin, reason: 'no prize' }
  }

  /** §8: a slip judged at a cash desk, journaled with the station, its seal and the cashier (draws/validation-journal.ts). */
  async function validateAtDesk(code: string, who: { stationId?: string; cashierId?: string } = {}) {
    // Issue 23 point 5: a scan writes one record, in `lotto` for a registered slip and in the operator chain for a
    // code the sales system does not know, and so locks that chain alone (no hall waits for a scan). The chain is read
    // from the code before the transaction (a slip's game never changes); a slip found inside that was not found
    // before runs again with every chain.
    const id = life.readCode(code).id
    const known = id !== undefined && (await slipById(db, id)) !== undefined
    return narrowOrAll([known ? 'lotto' : OPERATOR_CHAIN], (scopes) =>
      db.transaction(
        async (tx) => {
          const v = await validate(code, tx)
          const gameCode = v.ticketId ? ((await slipById(tx, v.ticketId))?.gameCode ?? null) : null
          const scope = gameCode ? `lotto:${gameCode}` : ''
          requireChain(chainOfScope(scope))
          await journalValidation(
            tx,
            {
              at: ctx.now(),
              type: 'lotto.ticket_validated',
              scope,
              kind: 'lotto',
              ticketId: v.ticketId ?? null,
              drawIds: v.draws.map((d) => d.drawId),
              outcome: v.outcome,
              amountCents: v.amountCents,
            },
            who,
          )
          return v
        },
        scopes ? { scopes } : undefined,
      ),
    )
  }

  /**
   * Pays what a receipt has won, once (LOT-26: only against the receipt; LNS-25: prize register), through the
   * lifecycle's payout: each winning row is marked paid by a conditional update and one payout per draw is made; a
   * concurrent second payout finds the rows paid and is refused with ALREADY_PAID. Annulled/excluded slips are
   * refunded the same way.
   */
  async function pay(input: PayInput & { override?: PayeeOverride }) {
    const p = input.payee
    return life.pay(
      input,
      { payee: 'INS-5, LNS-25', validate, voidCode: () => 'INVALID_SIGNATURE' },
      async (tx, v, at, payOut) => {
        const s = (await slipById(tx, v.ticketId!))!
        // Issue 24 point 1: nothing is paid from a slip, a winning play or a payout changed or deleted outside the
        // server (a prize raised, a paid play made unpaid and its payout removed).
        await assertRowsSealed(tx, 'lotto_slips', [s.id])
        await assertRowsSealedWhere(tx, 'lotto_wins', 't.receipt = ?', [s.id])
        const drawIds = new Set(v.draws.map((d) => d.drawId))
        const firstDraw = await lottoDrawIdByNumber(tx, s.gameCode, s.firstDrawNo)
        if (firstDraw) drawIds.add(firstDraw)
        await assertRowsSealed(
          tx,
          'lottery_payouts',
          [...drawIds].map((d) => `${d}|${s.id}`),
        )
        // GEN-16 / GEN-26 (issue 14 point 8): a named slip's prize or refund goes to its buyer; to anyone else only
        // as someone the buyer authorised, which a supervisor checks and overrides with their own credential.
        const buyer = openDocumentAtRest(deps.sealer, s.playerDocument) ?? ''
        const payeeIsBuyer = sameDocument(p.document, buyer)
        if (!payeeIsBuyer) {
          if (!input.override)
            throw new DomainError(
              'PAYEE_NOT_BUYER',
              `receipt ${s.id} is named: its prize is paid to its buyer, or to someone the buyer authorised with a supervisor's override (GEN-16, GEN-26)`,
              { rule: 'GEN-16', field: 'payeeDocument' },
            )
          if (input.override.reason.length < 3)
            throw new DomainError(
              'VALIDATION_FAILED',
              "state the buyer's authorisation the supervisor checked (payeeAuthorisation, GEN-26)",
              { field: 'payeeAuthorisation', rule: 'GEN-26' },
            )
        }
        const third = payeeIsBuyer
          ? {}
          : {
              payeeIsBuyer: false,
              override: { by: input.override!.by, authorisation: input.override!.reason.slice(0, 500) },
              rule: 'GEN-26',
            }
        const payouts: Array<{
          payoutId: string
          drawId: string
          amountCents: number
          goods: string[]
          refund?: boolean
        }> = []
        // An annulled or excluded slip: its whole price, once (LNS-21). An active slip: its prizes, and the price of
        // its boards for each cancelled draw (LNS-22, LOT-21), each draw's payout row once (UNIQUE draw_id, ticket_id).
        const targets =
          s.status !== 'active'
            ? [
                {
                  drawId: firstDraw!,
                  amountCents: v.amountCents,
                  goods: [] as string[],
                  prizes: [{ refund: true }] as unknown[],
                  refund: true,
                },
              ]
            : v.draws
                .filter((d) => d.status === 'win' || d.status === 'refund')
                .map((d) => ({
                  drawId: d.drawId,
                  amountCents: d.amountCents,
                  goods: d.goods,
                  refund: d.status === 'refund',
                  prizes: (d.status === 'refund'
                    ? [{ refund: true, cancelledDraw: d.drawNumber, rule: 'LNS-22' }]
                    : d.prizes) as unknown[],
                }))
        for (const t of targets) {
          if (!t.refund) {
            const rows = v.draws.find((d) => d.drawId === t.drawId)!.prizes.length
            if ((await markWinsPaid(tx, t.drawId, s.id, at)) !== rows)
              throw new DomainError('ALREADY_PAID', `receipt ${s.id} was paid meanwhile`)
          }
          const payoutId = await payOut({
            ...t,
            product: 'lotto',
            ticketId: s.id,
            currency: v.currency ?? '',
            scope: `lotto:${s.gameCode}/payouts`,
            ticket: { receipt: s.id },
            tail: third,
            // GEN-23 / GEN-27: the slip's buyer is asked about by the cash desk, whoever the payee is.
            buyers: [buyer],
          })
          payouts.push({ payoutId, drawId: t.drawId, amountCents: t.amountCents, goods: t.goods, refund: t.refund })
        }
        // The draws paid, for the cashier's receipt (an annulled slip's refund names none).
        const drawNumbers = [
          ...new Set(
            payouts
              .filter((x) => !x.refund)
              .map((x) => v.draws.find((d) => d.drawId === x.drawId)?.drawNumber ?? 0)
              .filter((n) => n > 0),
          ),
        ]
        return {
          outcome: v.outcome,
          receipt: s.id,
          amountCents: payouts.reduce((x, y) => x + y.amountCents, 0),
          currency: v.currency,
          goods: payouts.flatMap((x) => x.goods),
          payouts,
          drawNumbers,
          paidAt: at,
        }
      },
    )
  }

  // ---- claim period

  /** LOT-24: after prescription, the winning plays nobody claimed, for charity and health. */
  const { unclaimed, disposeUnclaimed } = life.claimPeriod(async (row) => {
    const items = await unpaidWins(db, row.id)
    return {
      unclaimedCents: items.reduce((s, i) => s + Number(i.amountCents), 0),
      unclaimedGoods: items.filter((i) => i.goods).map((i) => i.goods!),
      count: items.length,
      items: items.map((i) => ({
        ticketId: i.receipt,
        board: Number(i.board),
        category: i.category,
        amountCents: Number(i.amountCents),
        goods: i.goods,
      })),
    }
  })

  return { validate, validateAtDesk, pay, unclaimed, disposeUnclaimed, prizeRegister: life.prizeRegister }
}
