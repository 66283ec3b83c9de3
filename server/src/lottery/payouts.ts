/**
 * Validation and payout of lottery fractions and raffle tickets (REGULATIONS.md §8, LOT-25, LOT-26): void when the
 * code's signature fails (LOT-8), blocked when reported lost or stolen (LST-4, LST-5), one payout per fraction
 * with the prize register (INS-5); and the unclaimed prizes for charity (LOT-23, LOT-24).
 */
import { chainOfScope, OPERATOR_CHAIN } from '../shared/journal-chain.ts'
import { narrowOrAll, requireChain } from '../db/scopes.ts'
import type { Sql } from '../db/database.ts'
import { journalValidation } from '../draws/validation-journal.ts'
import { assertActsInHall } from '../access/acting-hall.ts'
import { DomainError } from '../shared/errors.ts'
import { assertRowsSealed, assertRowsSealedWhere } from '../shared/row-seals.ts'
import { ValidationOutcome } from '../shared/lottery-common.ts'
import { assertPayable, type PayInput } from '../draws/lifecycle.ts'
import {
  blocksDesign,
  inRange,
  isRaffle,
  issueSecretContext,
  parseFractionCodeId,
  tagMatches,
  ticketPriceOf,
  type LotteryContext,
} from './context.ts'
import { lotteryPrizesFor, rafflePrizeWon, type RafflePlan, type WonPrize } from './rules.ts'
import type { LotteryResult } from './settlement.ts'
import {
  deliveredPrizeCodes,
  fractionOf,
  isNumberSold,
  issueSecretOf,
  lotteryDrawById,
  payoutTotals,
  type LotteryDraw,
} from './store.ts'
import { runDesignVersion } from './store/reissue.ts'
import { insertObjectTaken, insertTicketUses, objectsTaken, stationHall, ticketUses } from './store/tombola.ts'

export interface LotteryValidation {
  outcome: ValidationOutcome
  kind: 'lottery' | 'raffle'
  ticketId: string | null
  amountCents: number
  goods: string[]
  currency: string | null
  reason: string
  prizes: WonPrize[]
  drawId: string | null
  number: string | null
  series: number | null
  fraction: number | null
  /**
   * PRM-2: a tómbola's winner may take any of the objects drawn that nobody has taken yet: their codes and names
   * (empty for lotteries and raffles, whose prizes are fixed by the order of the draw).
   */
  choices?: Array<{ code: string; name: string; description: string; points?: number }>
  /** PRM-2: what a ticket of a points tómbola is worth in points (0: the draw gave it none). */
  points?: number
  /** PRM-2: a used ticket of a points tómbola: the payout that consumed it. */
  usedIn?: { payoutId: string; usedAt: string }
  /** PRM-9: the draw the ticket was sold for (the first of a successive plan), when `drawId` is a later one. */
  ticketDrawId?: string
}

export function createPayoutUseCases(ctx: LotteryContext) {
  const { db, deps, scope, planOf, loadDraw, ranges, life } = ctx

  /** §8 for a lottery fraction or raffle ticket: VOID if the signature fails (LOT-8), REPORTED LOST/STOLEN, ... */
  async function validate(code: string, tx: Sql = db): Promise<LotteryValidation> {
    const base = {
      amountCents: 0,
      goods: [] as string[],
      currency: null as string | null,
      prizes: [] as WonPrize[],
      drawId: null as string | null,
      number: null as string | null,
      series: null as number | null,
      fraction: null as number | null,
    }
    const read = life.readCode(code)
    if (read.id === undefined) return { ...base, kind: 'lottery', outcome: ValidationOutcome.Void, ...read }
    const id = read.id
    const fractionRef = parseFractionCodeId(id)
    const parts = id.split('-')
    const row = await lotteryDrawById(tx, fractionRef?.drawId ?? parts[0])
    if (!row) return { ...base, kind: 'lottery', outcome: ValidationOutcome.Void, ticketId: id, reason: 'no such draw' }
    const plan = planOf(row)
    const kind = row.product
    if (!isRaffle(plan) && !fractionRef) {
      // Issue 13 point 3: a fraction's code comes only from a print run of the register; one without its run and tag
      // (such as those the removed per-fraction route handed to any kiosk) is not a ticket of this issue.
      return {
        ...base,
        kind,
        drawId: row.id,
        currency: plan.currency,
        ticketId: id,
        outcome: ValidationOutcome.Void,
        reason: 'not a code from a print run of this issue (LOT-26)',
      }
    }
    const number = fractionRef ? fractionRef.number : Number(parts[1])
    const series = isRaffle(plan) ? 1 : fractionRef!.series
    const fraction = isRaffle(plan) ? 1 : fractionRef!.fraction
    const shape = isRaffle(plan)
      ? parts.length === 2
      : series >= 1 && series <= plan.series && fraction >= 1 && fraction <= plan.fractions
    const r0 = {
      ...base,
      kind,
      ticketId: id,
      drawId: row.id,
      currency: plan.currency,
      number: fractionRef ? String(fractionRef.number).padStart(plan.numbering.digits, '0') : (parts[1] ?? null),
      series,
      fraction,
    }
    if (!shape || !Number.isInteger(number) || number < plan.numbering.from || number > plan.numbering.to)
      return { ...r0, outcome: ValidationOutcome.Void, reason: 'not a ticket of this issue' }
    // LST-7: a lost range blocks the papers of the design it was lost under; a new design's reprint is not blocked.
    const design = fractionRef ? await runDesignVersion(tx, row.id, fractionRef.runNo) : 1
    const rs = (await ranges(tx, row.id)).filter((r) => blocksDesign(r, design))
    const hit = inRange(rs, number, series)
    if (hit && hit.kind !== 'returned')
      return {
        ...r0,
        outcome: ValidationOutcome.ReportedLostStolen,
        reason: `number reported ${hit.kind}: no payment, refund or exchange (${hit.kind === 'stolen' ? 'LST-5' : 'LST-4'})`,
      }
    if (hit) return { ...r0, outcome: ValidationOutcome.Void, reason: 'returned unsold before the draw: not in play' }
    if (isRaffle(plan)) {
      if (!(await isNumberSold(tx, row.id, number)))
        return { ...r0, outcome: ValidationOutcome.Void, reason: 'this ticket was never sold (LOT-8)' }
    } else {
      // Issue 13 point 3 (LOT-12, LOT-26, LST-1): the register's current print run, the per-issue tag, and only a
      // fraction distributed to a seller and not returned is payable.
      const reg = await fractionOf(tx, row.id, number, series, fraction)
      if (!reg) return { ...r0, outcome: ValidationOutcome.Void, reason: 'this fraction was never printed (LOT-12)' }
      const sealed = await issueSecretOf(tx, row.id)
      if (
        !sealed ||
        !tagMatches(
          deps.sealer.open(sealed, issueSecretContext(row.id)),
          fractionRef!.baseId,
          fractionRef!.runNo,
          fractionRef!.tag,
        )
      ) {
        return {
          ...r0,
          outcome: ValidationOutcome.Void,
          reason: 'altered or forged ticket: the issue tag does not match (LOT-8)',
        }
      }
      // LST-4: the reprint of a sold fraction is handed over only in exchange for the sold paper, which stays valid.
      if (reg.exchangeRunNo === fractionRef!.runNo)
        return {
          ...r0,
          outcome: ValidationOutcome.Void,
          reason: 'printed for the exchange of the sold ticket: payable only once exchanged (LST-4)',
        }
      if (reg.runNo !== fractionRef!.runNo)
        return {
          ...r0,
          outcome: ValidationOutcome.Void,
          reason: `reprinted in print run ${reg.runNo}: this earlier code is void (LST-1, LST-4)`,
        }
      if (reg.status === 'printed')
        return { ...r0, outcome: ValidationOutcome.Void, reason: 'never distributed to a seller: not payable (LOT-12)' }
      if (reg.status === 'returned')
        return { ...r0, outcome: ValidationOutcome.Void, reason: 'returned unsold by the seller: not payable (LOT-12)' }
    }
    if (isRaffle(plan) && plan.round) return successiveClaim(tx, row, id, number, r0)
    let prizes: WonPrize[] = []
    let goods: string[] = []
    let choices: LotteryValidation['choices']
    let points: number | undefined
    let usedIn: LotteryValidation['usedIn']
    const claim = await life.claimOf(tx, row, id, async () => {
      const result = JSON.parse(row.result!) as LotteryResult
      if (isRaffle(plan) && plan.points) {
        // PRM-2: a points tómbola's ticket is worth the points the draw gave it; it wins nothing by itself, and is
        // used once, in the payout of the object its holder takes (tombola_ticket_uses).
        points = result.points?.find((a) => a.number === number)?.points ?? 0
        if (points === 0) return { won: false }
        const use = (await ticketUses(tx, row.id, [number]))[0]
        if (use) usedIn = { payoutId: use.payoutId, usedAt: use.usedAt }
        const taken = await objectsTaken(tx, row.id)
        choices = plan.prizes
          .filter((p) => !taken.has(p.code))
          .map((p) => ({
            code: p.code,
            name: p.name,
            description: p.description,
            points: plan.points!.figures[p.code],
          }))
        return { won: true, paid: use !== undefined }
      }
      if (isRaffle(plan)) {
        const won = plan.prizes.filter((p) => result.winning[p.code] === number)
        prizes = won.map((p) => rafflePrizeWon(p).prize)
        goods = won.map((p) => rafflePrizeWon(p).goods).filter((g): g is string => g !== null)
        if (plan.kind === 'tombola' && won.length > 0) {
          const taken = await deliveredPrizeCodes(tx, row.id)
          choices = plan.prizes
            .filter((p) => result.winning[p.code] !== undefined && !taken.has(p.code))
            .map((p) => ({ code: p.code, name: p.name, description: p.description }))
        }
      } else {
        prizes = lotteryPrizesFor(plan, result.winning, number).map((p) => ({
          ...p,
          amountCents: p.amountCents / plan.fractions,
        }))
        // LOT-22: goods and in-kind prizes are handed over against the ticket, recorded in the register, no cash.
        goods = prizes.filter((p) => p.goods).map((p) => `${p.name}: ${p.goods}`)
      }
      return { won: prizes.length > 0 }
    })
    const r = {
      ...r0,
      prizes,
      amountCents: prizes.reduce((s, p) => s + p.amountCents, 0),
      goods,
      ...(choices ? { choices } : {}),
      ...(points !== undefined ? { points } : {}),
      ...(usedIn ? { usedIn } : {}),
    }
    switch (claim.state) {
      // LOT-21 (002 §7.1.4): a withdrawn or renounced draw refunds the price of a ticket in the public's hands
      // (sold, or distributed and not returned, as checked above), once; a free promotional ticket has none.
      case 'refunded':
        return {
          ...r0,
          outcome: ValidationOutcome.AlreadyPaid,
          reason: `the refund of the cancelled draw was already paid at ${claim.paidAt} (LOT-21)`,
        }
      case 'refund': {
        const price = ticketPriceOf(plan)
        if (price <= 0)
          return {
            ...r0,
            outcome: ValidationOutcome.NoWin,
            reason: 'free ticket of a cancelled draw: nothing to refund',
          }
        return {
          ...r0,
          amountCents: price,
          outcome: ValidationOutcome.RefundOnly,
          reason: "draw cancelled with the AJ's authorisation: refund of the price only (LOT-21)",
        }
      }
      case 'pending':
        return { ...r0, outcome: ValidationOutcome.Pending, reason: `the draw is ${row.status}` }
      case 'no_win':
        return { ...r, outcome: ValidationOutcome.NoWin, reason: points === 0 ? 'no points (PRM-2)' : 'no prize' }
      case 'paid':
        if (usedIn)
          return {
            ...r,
            outcome: ValidationOutcome.AlreadyPaid,
            reason: `${points} points, used at ${usedIn.usedAt} in payout ${usedIn.payoutId} (PRM-2)`,
          }
        return { ...r, outcome: ValidationOutcome.AlreadyPaid, reason: `paid at ${claim.paidAt}` }
      case 'expired':
        return { ...r, outcome: ValidationOutcome.Expired, reason: 'the claim period has ended (LOT-23)' }
      case 'win':
        if (points !== undefined) return { ...r, outcome: ValidationOutcome.Win, reason: `${points} points (PRM-2)` }
        return { ...r, outcome: ValidationOutcome.Win, reason: prizes.map((p) => p.name).join(', ') }
    }
  }

  /**
   * PRM-9: where a ticket of a successive plan stands: each draw is its own claim (settled, won, paid or expired on
   * its own), so a prize is payable once its own draw is settled, whatever the later draws. The answer is the first
   * draw with a prize to pay; else the first still to be drawn; else what the draws say (expired, paid, no prize).
   * A free promotional ticket has no price to refund from a cancelled draw.
   */
  async function successiveClaim(
    tx: Sql,
    first: LotteryDraw,
    id: string,
    number: number,
    r0: Omit<LotteryValidation, 'outcome' | 'reason'>,
  ): Promise<LotteryValidation> {
    const states: Array<{
      drawId: string
      label: string
      state: string
      paidAt?: string
      prizes: WonPrize[]
      goods: string[]
    }> = []
    for (const d of await ctx.successiveDraws(tx, first)) {
      const p = planOf(d) as RafflePlan
      let prizes: WonPrize[] = []
      const claim = await life.claimOf(tx, d, id, async () => {
        const result = JSON.parse(d.result!) as LotteryResult
        prizes = p.prizes.filter((x) => result.winning[x.code] === number).map((x) => rafflePrizeWon(x).prize)
        return { won: prizes.length > 0 }
      })
      const goods = p.prizes
        .filter((x) => prizes.some((w) => w.code === x.code))
        .map((x) => rafflePrizeWon(x).goods)
        .filter((g): g is string => g !== null)
      states.push({ drawId: d.id, label: `draw ${p.round!.index} of ${p.round!.of}`, ...claim, prizes, goods })
    }
    const answer = (s: (typeof states)[number], outcome: ValidationOutcome, reason: string): LotteryValidation => ({
      ...r0,
      drawId: s.drawId,
      ticketDrawId: first.id,
      prizes: s.prizes,
      goods: s.goods,
      amountCents: s.prizes.reduce((t, p) => t + p.amountCents, 0),
      outcome,
      reason,
    })
    const win = states.find((s) => s.state === 'win')
    if (win)
      return answer(win, ValidationOutcome.Win, `${win.prizes.map((p) => p.name).join(', ')} (${win.label}, PRM-9)`)
    const pending = states.find((s) => s.state === 'pending')
    const paid = states.filter((s) => s.state === 'paid')
    const paidNote = paid.length ? `; paid: ${paid.map((s) => `${s.label} at ${s.paidAt ?? '?'}`).join(', ')}` : ''
    if (pending)
      return {
        ...answer(pending, ValidationOutcome.Pending, `${pending.label} is still to be drawn${paidNote} (PRM-9)`),
        prizes: [],
        goods: [],
      }
    const expired = states.find((s) => s.state === 'expired')
    if (expired) return answer(expired, ValidationOutcome.Expired, `the claim period has ended (LOT-23)${paidNote}`)
    if (paid.length) return answer(paid[paid.length - 1], ValidationOutcome.AlreadyPaid, paidNote.slice(2))
    return answer(states[states.length - 1], ValidationOutcome.NoWin, 'no prize in any draw (PRM-9)')
  }

  /**
   * Pays a winning fraction or delivers a raffle prize once (LOT-25, LOT-26), with the prize register (INS-5),
   * through the lifecycle's payout; a tómbola's winner names the object taken (PRM-2).
   */
  async function pay(input: PayInput & { objectCode?: string; moreCodes?: readonly string[] }) {
    return life.pay(
      input,
      {
        payee: 'INS-5',
        // PRM-2: a used ticket of a points tómbola is refused as used (it took an object), not as a prize paid.
        validate: async (code, tx) => usable(await validate(code, tx)),
        // A forged or altered code is refused as such; a genuine code that is not payable (never distributed,
        // returned, reprinted: issue 13 point 3) as void.
        voidCode: (v) => (v.reason.startsWith('altered or forged') ? 'INVALID_SIGNATURE' : 'TICKET_VOID'),
      },
      async (tx, v, at, payOut) => {
        // Issue 23 point 5: a raffle's records (a tómbola's objects and points included) go to the operator chain,
        // which the cash desk locks for a raffle's code (chainOfCode); scoped otherwise, run again with every chain.
        requireChain(chainOfScope(`${v.kind}:`))
        if (v.points !== undefined) return pointsPayout(tx, v, input, at, payOut)
        if (input.moreCodes?.length)
          throw new DomainError('VALIDATION_FAILED', "only a points tómbola's tickets are presented together (PRM-2)", {
            field: 'codes',
            rule: 'PRM-2',
          })
        if (input.objectCode !== undefined && !v.choices)
          throw new DomainError('VALIDATION_FAILED', "only a tómbola's winner chooses an object (PRM-2)", {
            field: 'objectCode',
            rule: 'PRM-2',
          })
        // Issue 24 point 1: nothing is paid from a fraction or raffle sale changed outside the server (a returned
        // fraction made distributed), nor again once its payout was deleted (its seal is still there).
        if (v.kind === 'raffle')
          await assertRowsSealedWhere(tx, 'lottery_sales', 't.draw_id = ? AND t.number = ?', [
            v.ticketDrawId ?? v.drawId,
            Number(v.number),
          ])
        else
          await assertRowsSealed(tx, 'lottery_fractions', [`${v.drawId}|${Number(v.number)}|${v.series}|${v.fraction}`])
        await assertRowsSealed(tx, 'lottery_payouts', [`${v.drawId}|${v.ticketId}`])
        if (v.choices) Object.assign(v, await chosenObject(tx, v, input.objectCode))
        // LOT-21: a cancelled draw's ticket is refunded its price (a refund out of the drawer, not a prize).
        const refund = v.outcome === ValidationOutcome.RefundOnly
        const row = await loadDraw(tx, v.drawId!)
        const payoutId = await payOut({
          drawId: v.drawId!,
          product: v.kind,
          ticketId: v.ticketId!,
          amountCents: v.amountCents,
          goods: v.goods,
          prizes: refund ? [{ refund: true, rule: 'LOT-21' }] : v.prizes,
          currency: v.currency ?? '',
          refund,
          scope: scope(row),
          ticket: { ticketId: v.ticketId },
          detail: { prizes: v.prizes.map((x) => x.code) },
        })
        // `product` and `drawNumber` for the cashier's receipt (a raffle or a lottery, which draw).
        return {
          payoutId,
          outcome: v.outcome,
          product: v.kind,
          drawNumber: planOf(row).drawNumber,
          ticketId: v.ticketId,
          amountCents: v.amountCents,
          goods: v.goods,
          prizes: v.prizes,
          currency: v.currency,
          paidAt: at,
        }
      },
    )
  }

  /** PRM-2: a points tómbola's ticket that was used already is refused as such (TICKET_ALREADY_USED). */
  function usable(v: LotteryValidation): LotteryValidation {
    if (v.usedIn && v.outcome === ValidationOutcome.AlreadyPaid)
      throw new DomainError('TICKET_ALREADY_USED', `ticket ${v.number}: ${v.reason}`, {
        rule: 'PRM-2',
        number: v.number,
        payoutId: v.usedIn.payoutId,
      })
    return v
  }

  /**
   * PRM-2 (004 F.I: the winner may take any object "por suma de puntos hasta alcanzar una cifra determinada"): the
   * holder presents tickets of one points tómbola whose points add up to at least the figure of the object named, at
   * a cash desk of the hall where the objects are on display (PRM-6), and takes it in ONE payout that uses every
   * ticket presented, all or nothing. Points are not carried over: 004 speaks of a sum reaching a figure, of no
   * balance kept between hand-overs, so what a payout's tickets give over the figure is spent with them.
   */
  async function pointsPayout(
    tx: Sql,
    first: LotteryValidation,
    input: PayInput & { objectCode?: string; moreCodes?: readonly string[] },
    at: string,
    payOut: Parameters<Parameters<typeof life.pay>[2]>[3],
  ) {
    const row = await loadDraw(tx, first.drawId!)
    const plan = planOf(row)
    if (!isRaffle(plan) || !plan.points) throw new DomainError('VALIDATION_FAILED', 'not a points tómbola')
    const points = plan.points
    // PRM-6: the objects are on display in one hall; only its cash desks hand them over (the station's hall, enrolled).
    // The person acting must work in that hall too (their scope, not the body's word).
    await assertActsInHall(tx, points.hallId, { stationId: input.stationId, resource: 'tombola' })
    const hall = await stationHall(tx, input.stationId)
    if (hall !== points.hallId)
      throw new DomainError(
        'WRONG_HALL',
        "a tómbola's objects are handed over in the hall where they are on display (PRM-6)",
        {
          rule: 'PRM-6',
        },
      )
    const tickets = [first]
    for (const code of input.moreCodes ?? []) {
      const v = usable(await validate(code, tx))
      // A forged or altered code is refused as such, whatever draw it names.
      if (v.outcome === ValidationOutcome.Void && v.reason.startsWith('altered or forged'))
        assertPayable(v, 'INVALID_SIGNATURE')
      if (v.drawId !== first.drawId)
        throw new DomainError('OTHER_TOMBOLA', `ticket ${v.ticketId ?? '?'} is not of this tómbola (PRM-2)`, {
          rule: 'PRM-2',
          ticketId: v.ticketId,
        })
      assertPayable(v, v.reason.startsWith('altered or forged') ? 'INVALID_SIGNATURE' : 'TICKET_VOID', v.kind)
      if (tickets.some((t) => t.number === v.number))
        throw new DomainError('TICKET_ALREADY_USED', `ticket ${v.number} is presented twice (PRM-2)`, {
          rule: 'PRM-2',
          number: v.number,
        })
      tickets.push(v)
    }
    // Issue 24 point 1: a ticket whose use was deleted outside the server (its seal is still there) counts no more.
    await assertRowsSealed(
      tx,
      'tombola_ticket_uses',
      tickets.map((t) => `${row.id}|${Number(t.number)}`),
    )
    const code = input.objectCode
    if (code === undefined)
      throw new DomainError('VALIDATION_FAILED', 'the holder names the object taken (PRM-2)', {
        field: 'objectCode',
        rule: 'PRM-2',
        choices: first.choices,
      })
    const prize = plan.prizes.find((p) => p.code === code)
    if (!prize)
      throw new DomainError('VALIDATION_FAILED', `no object ${code} in this tómbola`, {
        field: 'objectCode',
        rule: 'PRM-2',
      })
    if ((await objectsTaken(tx, row.id)).has(code))
      throw new DomainError('OBJECT_TAKEN', `object ${code} was already taken (PRM-2)`, {
        rule: 'PRM-2',
        objectCode: code,
      })
    const total = tickets.reduce((s, t) => s + (t.points ?? 0), 0)
    const figure = points.figures[code]
    if (total < figure)
      throw new DomainError('POINTS_SHORT', `the tickets give ${total} points; ${prize.name} needs ${figure} (PRM-2)`, {
        rule: 'PRM-2',
        points: total,
        figure,
        objectCode: code,
      })
    // Issue 24 point 1: nothing is handed over against a sale changed outside the server, nor an object whose
    // hand-over was deleted outside it.
    for (const t of tickets)
      await assertRowsSealedWhere(tx, 'lottery_sales', 't.draw_id = ? AND t.number = ?', [row.id, Number(t.number)])
    await assertRowsSealed(tx, 'tombola_objects_taken', [`${row.id}|${code}`])
    const won = rafflePrizeWon(prize)
    const used = tickets.map((t) => ({ number: Number(t.number), ticketId: t.ticketId!, points: t.points! }))
    const prizes = [{ ...won.prize, figure, points: total, tickets: used.map((u) => u.ticketId) }]
    const goods = won.goods === null ? [] : [won.goods]
    const payoutId = await payOut({
      drawId: row.id,
      product: first.kind,
      ticketId: first.ticketId!,
      amountCents: won.prize.amountCents,
      goods,
      prizes,
      currency: first.currency ?? '',
      refund: false,
      scope: scope(row),
      ticket: { ticketId: first.ticketId },
      detail: {
        prizes: [code],
        rule: 'PRM-2',
        objectCode: code,
        figure,
        points: total,
        tickets: used.map((u) => ({ ticketId: u.ticketId, number: u.number, points: u.points })),
      },
    })
    // The keys of these rows are the database's guard: a ticket used twice or an object taken twice fails the
    // transaction, and the payout with it.
    await insertTicketUses(tx, row.id, payoutId, at, used)
    await insertObjectTaken(tx, row.id, code, payoutId, at)
    return {
      payoutId,
      outcome: first.outcome,
      product: first.kind,
      drawNumber: plan.drawNumber,
      ticketId: first.ticketId,
      // As printed on the tickets (zero-padded), for the receipt.
      tickets: tickets.map((x) => ({ number: x.number!, ticketId: x.ticketId!, points: x.points! })),
      points: total,
      figure,
      amountCents: won.prize.amountCents,
      goods,
      prizes,
      currency: first.currency,
      paidAt: at,
    }
  }

  /**
   * PRM-2: a tómbola's winner takes any object drawn that is still there: the one they name, or, if they name none,
   * the one drawn for their ticket while nobody has taken it (or the only one left). Each object is handed over once (the payout's prizes).
   */
  async function chosenObject(
    tx: Sql,
    v: LotteryValidation,
    objectCode: string | undefined,
  ): Promise<Pick<LotteryValidation, 'prizes' | 'goods' | 'amountCents'>> {
    const row = await loadDraw(tx, v.drawId!)
    const plan = planOf(row)
    if (!isRaffle(plan)) throw new DomainError('VALIDATION_FAILED', 'not a tómbola')
    // Naming nothing: the object drawn for the ticket if it is still there, else the only one left.
    const code =
      objectCode ??
      v.prizes.find((p) => v.choices!.some((c) => c.code === p.code))?.code ??
      (v.choices!.length === 1 ? v.choices![0].code : undefined)
    if (code === undefined) {
      if (v.choices!.length === 0)
        throw new DomainError('CONFLICT', 'every object of the tómbola has been taken (PRM-2)', {
          rule: 'PRM-2',
          reason: 'none_left',
        })
      throw new DomainError(
        'VALIDATION_FAILED',
        'the object drawn for this ticket was taken: the winner chooses another (PRM-2)',
        { field: 'objectCode', rule: 'PRM-2', choices: v.choices },
      )
    }
    const prize = plan.prizes.find((p) => p.code === code)
    if (!prize)
      throw new DomainError('VALIDATION_FAILED', `no object ${code} in this tómbola`, {
        field: 'objectCode',
        rule: 'PRM-2',
      })
    if (!v.choices!.some((c) => c.code === code))
      throw new DomainError('CONFLICT', `object ${code} was already taken by another winner (PRM-2)`, {
        field: 'objectCode',
        rule: 'PRM-2',
        reason: 'taken',
      })
    const won = rafflePrizeWon(prize)
    return { prizes: [won.prize], goods: won.goods === null ? [] : [won.goods], amountCents: won.prize.amountCents }
  }

  /** LOT-24: after prescription, what the tickets in play could still have claimed, for charity and health. */
  const { unclaimed, disposeUnclaimed } = life.claimPeriod(async (row) => {
    const result = JSON.parse(row.result!) as LotteryResult
    const paid = await payoutTotals(db, row.id)
    const cashLiability = result.prizes.reduce((s, p) => s + (p.goods ? 0 : p.liabilityCents), 0)
    return {
      prizesInPlayCents: cashLiability,
      paidCents: paid.totalCents,
      payouts: paid.count,
      unclaimedCents: cashLiability - paid.totalCents,
      note: 'Prizes of tickets in play (not returned, lost or stolen) not presented before the deadline (LOT-23).',
    }
  })

  /** §8: a fraction or raffle ticket judged at a cash desk, journaled with the station, its seal and the cashier. */
  async function validateAtDesk(code: string, who: { stationId?: string; cashierId?: string } = {}) {
    // Issue 23 point 5: a scan writes one record, in its draw's product chain (`lottery`; a raffle's, `raffle:...`,
    // in the operator chain, as everything of a raffle is), and so locks that chain alone: no hall waits for a scan.
    // A draw found inside the transaction in another chain than the one read before runs again with every chain.
    return narrowOrAll([await chainOfCode(code)], (scopes) =>
      db.transaction(
        async (tx) => {
          const v = await validate(code, tx)
          const row = v.drawId ? await lotteryDrawById(tx, v.drawId) : undefined
          const scope = row ? `${row.product}:${row.gameCode}` : ''
          requireChain(chainOfScope(scope))
          await journalValidation(
            tx,
            {
              at: ctx.now(),
              type: `${v.kind}.ticket_validated`,
              scope,
              kind: v.kind,
              ticketId: v.ticketId ?? null,
              drawIds: v.drawId ? [v.drawId] : [],
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
   * The journal chain of a presented code's draw, read before its transaction (a draw's product never changes):
   * `lottery` for a fraction, the operator chain for a raffle's ticket (`raffle:...`) and for a code naming no draw.
   */
  async function chainOfCode(code: string): Promise<string> {
    const id = life.readCode(code).id
    if (id === undefined) return OPERATOR_CHAIN
    const row = await lotteryDrawById(db, parseFractionCodeId(id)?.drawId ?? id.split('-')[0])
    return chainOfScope(row ? `${row.product}:` : '')
  }

  return { validate, validateAtDesk, chainOfCode, pay, unclaimed, disposeUnclaimed, prizeRegister: life.prizeRegister }
}
