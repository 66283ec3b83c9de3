/**
 * Raffle and tombola ticket sales (PRM-1, PRM-2), the close of sales with the participation file, the draw
 * (bolillo-draw-v2 among the M issued numbers or the tickets in play, or numbers entered from an authorised
 * tómbola, LOT-18), its proof and incidents.
 *
 * bolillo-draw-v2 (DESIGN.md): the seed is stored only sealed until the draw has ended; the close fixes D, t and
 * R; the draw waits for beacon round R (a relay, or a signature typed in by staff); no person supplies entropy.
 */
import type { Sql } from '../db/database.ts'
import { join } from 'node:path'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Actor } from '../shared/lottery-draw-v2.ts'
import { writeHashed } from '../draws/lifecycle.ts'
import { createBallSetRegistry, type DrawSetNeeds } from '../draws/ball-sets.ts'
import { checkDemoReferences } from '../shared/lottery-common.ts'
import { drawsAmongSold, inRange, ticketPriceOf, isRaffle, valuesNeeded, type LotteryContext } from './context.ts'
import { formatNumber, raffleTicketId } from './rules.ts'
import { insertSales, registerCounts, soldNumbers } from './store.ts'

/** @param getDraw the draw as anyone may see it (issue.ts), answered after a draw. */
export function createDrawUseCases<DrawView>(ctx: LotteryContext, getDraw: (drawId: string) => Promise<DrawView>) {
  const { db, deps, now, scope, sign, planOf, loadDraw, ranges, ticketsInPlay, life } = ctx
  const ballSets = createBallSetRegistry(ctx)
  /**
   * LOT-18 (002 §7.1.2.1): a numbered lottery's number is read one digit per drum, each drum holding a registered set
   * of digit balls 0-9, so a draw needs a digit set of as many drums as its number has digits (ball-sets.ts). 002 §7.1
   * asks no reserve set of a lottery: the one on hand is named, and needed only to swap.
   */
  const setNeeds = (digits: number): DrawSetNeeds => ({
    fit: { kind: 'digits', drums: digits },
    requireReserve: false,
    code: 'LOTTERY_BALL_SET_REQUIRED',
    rule: 'LOT-18',
  })

  /**
   * Sells raffle or tombola tickets by number (PRM-1: a single fixed price): the numbers asked, or the next free ones.
   * Only inside a caller's transaction: the cash desk's, which takes the counter's cash in it (issue 13, issue 23
   * point 2). This line has no sale of its own, so no raffle ticket exists without money and a person.
   */
  async function sellRaffleTicketsWithin(
    tx: Sql,
    drawId: string,
    input: { count?: number; numbers?: number[]; buyerName?: string; channel: string },
  ) {
    const row = await loadDraw(tx, drawId)
    const plan = planOf(row)
    if (!isRaffle(plan))
      throw new DomainError('VALIDATION_FAILED', 'numbered lottery tickets are printed and distributed, not sold here')
    // PRM-9: the tickets of a successive plan are sold for its first draw and take part in every draw.
    if (plan.round && plan.round.index > 1)
      throw new DomainError(
        'VALIDATION_FAILED',
        `draw ${plan.round.index} of ${plan.round.of} sells no tickets: those of the first draw (${plan.round.firstDrawId}) take part in every draw (PRM-9)`,
        { rule: 'PRM-9', firstDrawId: plan.round.firstDrawId },
      )
    checkDemoReferences(plan, deps.softwareDraw)
    const at = now()
    const t = Date.parse(at)
    if (t < Date.parse(plan.salesStartAt))
      throw new DomainError('SALES_NOT_OPEN', `sales start at ${plan.salesStartAt}`)
    if (row.status !== 'open' || t >= Date.parse(plan.salesCloseAt))
      throw new DomainError('SALES_CLOSED', 'sales are closed')
    let numbers = input.numbers ?? []
    if (numbers.length === 0) {
      const count = input.count ?? 1
      if (!Number.isInteger(count) || count < 1 || count > 1000)
        throw new DomainError('VALIDATION_FAILED', 'count must be 1..1000')
      const sold = new Set(await soldNumbers(tx, drawId))
      for (let n = plan.numbering.from; n <= plan.numbering.to && numbers.length < count; n++)
        if (!sold.has(n)) numbers.push(n)
      if (numbers.length < count) throw new DomainError('SERIES_EXHAUSTED', `only ${numbers.length} tickets left`)
    }
    numbers = [...new Set(numbers)]
    const blocked = await ranges(tx, drawId, ['lost', 'stolen', 'returned'])
    for (const n of numbers) {
      if (!Number.isInteger(n) || n < plan.numbering.from || n > plan.numbering.to)
        throw new DomainError('VALIDATION_FAILED', `ticket ${n} is outside the numbering`)
      if (inRange(blocked, n, 1)) throw new DomainError('TICKET_BLOCKED', `ticket ${n} is out of sale`)
    }
    const tickets = numbers.map((n) => ({
      number: formatNumber(n, plan.numbering),
      ticketId: raffleTicketId(drawId, n, plan.numbering),
      code: sign(raffleTicketId(drawId, n, plan.numbering)),
    }))
    await insertSales(
      tx,
      numbers.map((n, i) => [drawId, tickets[i].number, n, input.channel, input.buyerName ?? null, at]),
    )
    await appendJournal(tx, {
      at,
      type: 'raffle.tickets_sold',
      scope: scope(row),
      payload: {
        drawId,
        numbers: tickets.map((x) => x.number),
        amountCents: plan.ticketPriceCents * numbers.length,
        channel: input.channel,
      },
    })
    return {
      tickets: tickets.map((x) => ({
        ...x,
        organiser: plan.organiser,
        name: plan.name,
        drawNumber: plan.drawNumber,
        drawAt: plan.drawAt,
        drawPlace: plan.drawPlace,
        priceCents: plan.ticketPriceCents,
        currency: plan.currency,
        soldAt: at,
        // PRM-2: a points tómbola's ticket states each object's figure in points.
        prizes: plan.prizes.map(
          (p) => `${p.name}: ${p.description}${plan.points ? ` (${plan.points.figures[p.code]} puntos)` : ''}`,
        ),
        // PRM-9: a successive plan's ticket names every draw's date and the prizes drawn on it.
        ...(plan.round && plan.draws
          ? {
              draws: plan.draws.map((d) => ({ drawAt: d.drawAt, prizes: d.prizeNames ?? d.prizeCodes })),
            }
          : {}),
      })),
      amountCents: plan.ticketPriceCents * numbers.length,
      currency: plan.currency,
      priceCents: plan.ticketPriceCents,
    }
  }

  // ---- close of sales and the draw

  /**
   * Closes sales, from the plan's close time on (never earlier: the lifecycle's close-time rule, `earlyClose:
   * 'refused'`): fixes the tickets in play (after returns and lost/stolen reports)
   * and writes them to the participation file; the lifecycle fixes D, t and R (bolillo-draw-v2 step 2), journaled
   * before anything else happens.
   */
  async function closeSales(drawId: string, actor: Actor | null = null) {
    return life.closeSales(drawId, actor, async (tx, row, plan, at, dir) => {
      const serials = await ticketsInPlay(tx, row, plan)
      // PRM-3: a raffle drawn among the sold tickets needs at least one ticket per prize.
      if (isRaffle(plan) && plan.drawAmong === 'sold' && serials.length < plan.prizes.length)
        throw new DomainError(
          'MINIMUM_PARTICIPATION',
          `${serials.length} tickets sold for ${plan.prizes.length} prizes`,
        )
      const part = writeHashed(join(dir, 'participation.csv'), (out) => {
        out(`# Bolillo - billetes en juego / tickets in play ${plan.name} N.${plan.drawNumber} draw ${drawId} ${at}\n`)
        for (const s of serials) out(s + '\n')
        out(`# total ${serials.length}\n`)
      })
      // Issue 13 point 3: the issue register as it stands at the close (fractions by seller and state), journaled.
      const register = isRaffle(plan)
        ? null
        : (await registerCounts(tx, drawId)).map((r) => ({
            sellerId: r.sellerId,
            status: r.status,
            fractions: r.fractions,
          }))
      return {
        serials,
        entries: serials.length,
        plays: null,
        salesCents: serials.length * plan.ticketPriceCents,
        participationSha256: part.sha256,
        record: { ticketsInPlay: serials.length, register },
        answer: { ticketsInPlay: serials.length },
      }
    })
  }

  /**
   * A winning number read from an authorised tómbola (LOT-18; its device checked by the lifecycle, a raffle's being
   * the organiser's), for the next prize in order.
   */
  async function enterNumber(drawId: string, number: number, deviceId: string | null) {
    await life.enterValue(drawId, deviceId, async (tx, row, plan, drawn, device) => {
      if (!Number.isInteger(number) || number < plan.numbering.from || number > plan.numbering.to)
        throw new DomainError('BALL_OUT_OF_RANGE', `${number} is outside the numbering`)
      if (drawn.includes(number)) throw new DomainError('BALL_ALREADY_DRAWN', `${number} was already drawn`)
      if (drawsAmongSold(plan)) {
        const serials = new Set(await ticketsInPlay(tx, row, plan))
        if (!serials.has(formatNumber(number, plan.numbering)))
          throw new DomainError('VALIDATION_FAILED', `ticket ${number} is not in play: draw again`)
      }
      const values = [...drawn, number]
      const complete = values.length === valuesNeeded(plan)
      // LOT-18: the set the numbers are read from, fixed on the draw at its first number and named on each.
      // A raffle's or tómbola's manual draw (PRM) names a device only, as before.
      const sets = isRaffle(plan) ? null : await ballSets.drawSets(tx, row, setNeeds(plan.numbering.digits))
      const deviceRef = { ...device, ...(sets ? sets.journal : {}) }
      return {
        values,
        complete,
        async record(at) {
          await appendJournal(tx, {
            at,
            type: `${row.product}.number_drawn`,
            scope: scope(row),
            payload: { drawId, seq: values.length, number, source: 'manual', ...deviceRef },
          })
          // As lotto's manual draw and every RNG draw: the completed draw has its `<product>.drawn` record, with the
          // numbers, so a reader of the journal finds the result of every draw by one record type.
          if (complete)
            await appendJournal(tx, {
              at,
              type: `${row.product}.drawn`,
              scope: scope(row),
              payload: { drawId, source: 'manual', ...deviceRef, numbers: values },
            })
        },
      }
    })
    return getDraw(drawId)
  }

  /**
   * LNS-9 / LOT-18: mid-draw, the digit set in use is swapped for the reserve set (ball-sets.ts); the numbers drawn so
   * far stand. A person of the draw's hall (or of the operator, for a draw held in no hall); lottery.admin at the route.
   */
  async function swapBallSet(drawId: string, reason: string, actor: Actor | null) {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (isRaffle(plan))
        throw new DomainError('RULE_DISABLED', 'a raffle or tómbola draw names its device, not a registered ball set')
      await ballSets.swapToReserve(
        tx,
        row,
        {
          reason,
          hallId: plan.drawHallId ?? null,
          journalType: `${row.product}.ball_set_swapped`,
          scope: scope(row),
          needs: setNeeds(plan.numbering.digits),
        },
        actor,
      )
    })
    return getDraw(drawId)
  }

  /**
   * LOT-21 (002 §7.1.4; as lotto's LNS-22): the public entity's withdrawal or renunciation of a lottery or raffle
   * draw not yet begun, with the AJ's prior authorisation. The tickets in the public's hands (a raffle's sold
   * tickets; a lottery's fractions distributed and not returned) are refunded their price once each, at a cash desk
   * against the ticket's code (payouts.ts `pay`, out of the open shift's drawer).
   */
  async function cancel(
    drawId: string,
    input: { kind: 'withdrawal' | 'renunciation'; authorisationRef: string; reason: string },
    actor: Actor,
  ) {
    await life.cancel(drawId, input, actor, async (tx, row, plan) => {
      if (isRaffle(plan)) {
        const sold = (await soldNumbers(tx, drawId)).length
        return { ticketsToRefund: sold, refundCents: sold * plan.ticketPriceCents }
      }
      const distributed = (await registerCounts(tx, drawId))
        .filter((c) => c.status === 'distributed')
        .reduce((t, c) => t + c.fractions, 0)
      return { fractionsToRefund: distributed, refundCents: distributed * ticketPriceOf(plan) }
    })
    return getDraw(drawId)
  }

  return {
    sellRaffleTicketsWithin,
    closeSales,
    participationFile: (drawId: string) => life.participationFile(drawId),
    ...life.answeredWith(getDraw),
    enterNumber,
    swapBallSet,
    cancel,
    getProof: life.getProof,
    recordIncident: life.recordIncident,
  }
}
