/**
 * The issue of a numbered-ticket lottery or a raffle: planning (LOT-3, LOT-4, LOT-12, CFG-39, CFG-44), the draw as
 * anyone may see it, printing fractions for the print shop and the thermal layout (LOT-15, LOT-16), unsold tickets
 * returned, and ranges reported lost or stolen with their public notice (LST-1 to LST-7).
 */
import { DomainError } from '../shared/errors.ts'
import { beaconRoundOf, beaconSummary, closeFacts, newSealedSeed, parseBeacon, seedContext } from '../shared/lottery-draw-v2.ts'
import { AJ_LEGEND, type PlanProblem } from '../shared/lottery-common.ts'
import { appendJournal } from '../shared/journal.ts'
import type { DrawRow } from '../lotto/store.ts'
import { describeRule, inRange, isRaffle, type LotteryContext, type Plan, type TicketRange } from './context.ts'
import {
  formatNumber, fractionTicketId, numberCount, parseLotteryPlan, parseRafflePlan, winningTicketCount, type LotteryPlan, type LotteryPlanInput, type RafflePlanInput,
} from './rules.ts'
import type { LotteryResult } from './settlement.ts'
import { insertLotteryDraw, insertRange, lotteryDrawIds } from './store.ts'

/** Most fractions printed by one request (the print shop asks range by range). */
export const MAX_PRINT_FRACTIONS = 2_000

/** LST-1 / LST-2 / LST-5: the last day a report to the AJ is on time: the next business day (Monday to Friday). */
export function nextBusinessDay(iso: string): string {
  const d = new Date(Date.parse(iso.slice(0, 10) + 'T00:00:00Z'))
  do d.setUTCDate(d.getUTCDate() + 1)
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6)
  return d.toISOString().slice(0, 10)
}

/** LST-3: the public notice of lost and stolen tickets of a draw. */
export type LostStolenNotice = Awaited<ReturnType<ReturnType<typeof createIssueUseCases>['lostStolenNotice']>>

export function createIssueUseCases(ctx: LotteryContext) {
  const { db, deps, now, newId, scope, sign, planOf, loadDraw, ranges } = ctx

  async function create(product: 'lottery' | 'raffle', plan: Plan, priceCents: number) {
    const id = newId(product === 'lottery' ? 'ltr' : 'rfl')
    // RNG-32: from the health-tested source, sealed at once (DESIGN.md "Sealed secrets").
    const { commitment, sealed, source } = newSealedSeed(deps.seedEntropy, deps.sealer, seedContext('lottery', id))
    const at = now()
    await db.transaction(async (tx) => {
      await insertLotteryDraw(tx, {
        id, product, gameCode: plan.gameCode, drawNo: plan.drawNumber, planJson: JSON.stringify(plan), currency: plan.currency, priceCents, salesStartAt: plan.salesStartAt,
        salesCloseAt: plan.salesCloseAt, drawAt: plan.drawAt, claimDeadline: plan.claimDeadline, drawMethod: plan.drawMethod, commitment, seedSealed: sealed, entropySource: source, createdAt: at,
      })
      await appendJournal(tx, { at, type: `${product}.draw_planned`, scope: `${product}:${plan.gameCode}/draw:${id}`, payload: { drawId: id, plan, commitment, entropySource: source } })
    })
    return getDraw(id)
  }

  /** Plans a numbered-ticket lottery draw (LOT-3, LOT-4, LOT-12). */
  async function createLottery(input: LotteryPlanInput) {
    const plan = parseLotteryPlan(input)
    return create('lottery', plan, plan.ticketPriceCents)
  }

  /** Plans a raffle, tombola or promotional draw (PRM-1 to PRM-10). */
  async function createRaffle(input: RafflePlanInput) {
    const plan = parseRafflePlan(input)
    return create('raffle', plan, plan.ticketPriceCents)
  }


  async function getDraw(drawId: string) {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    const drawn = row.balls ? (JSON.parse(row.balls) as number[]) : []
    const complete = row.status === 'drawn' || row.status === 'settled'
    return {
      drawId: row.id, product: row.product, status: row.status, plan, commitment: row.commitment,
      seed: complete && plan.drawMethod === 'rng' && row.seed_hex ? row.seed_hex : null, salesDigest: row.sales_digest,
      // Fixed at the close of sales (t, and the beacon round R the draw waits for), and the verified beacon.
      close: row.closed_at && plan.drawMethod === 'rng' ? { closedAt: closeFacts(row.closed_at).closedAt, beaconRound: beaconRoundOf(row), beaconPublishedAt: closeFacts(row.closed_at).beaconPublishedAt } : null,
      beacon: row.beacon ? beaconSummary(parseBeacon(row.beacon)!) : null,
      participation: row.participation_sha256 ? { sha256: row.participation_sha256, ticketsInPlay: Number(row.entries_count), salesCents: Number(row.sales_cents), closedAt: row.closed_at } : null,
      drawn, result: row.result ? (JSON.parse(row.result) as LotteryResult) : null,
      ticketsIssued: isRaffle(plan) ? numberCount(plan.numbering) : numberCount(plan.numbering) * plan.series,
      winningTickets: isRaffle(plan) ? plan.prizes.length : winningTicketCount(plan),
      times: { createdAt: row.created_at, closedAt: row.closed_at, drawnAt: row.drawn_at, settledAt: row.settled_at },
    }
  }

  async function listDraws(product?: 'lottery' | 'raffle') {
    return Promise.all((await lotteryDrawIds(db, product)).map((id) => getDraw(id)))
  }

  // ------------------------------------------------------------------------------------------ printing (lottery)

  /** One fraction as printed: every front (LOT-15) and back (LOT-16) field of §7.8, with its signed code. */
  function ticketData(row: DrawRow, plan: LotteryPlan, number: number, series: number, fraction: number) {
    const id = fractionTicketId(row.id, number, series, fraction, plan.numbering)
    return {
      code: sign(id), ticketId: id, institution: plan.institution, lotteryName: plan.name, number: formatNumber(number, plan.numbering), series, fraction, fractions: plan.fractions,
      fractionPriceCents: plan.ticketPriceCents / plan.fractions, ticketPriceCents: plan.ticketPriceCents, currency: plan.currency, drawNumber: plan.drawNumber, issue: plan.issue,
      drawAt: plan.drawAt, drawPlace: plan.drawPlace, securityMarks: plan.securityMarks, authority: plan.staff.authority, legend: AJ_LEGEND,
      prizes: plan.prizes.map((p) => ({ name: p.name, rule: describeRule(p.rule, plan), amountPerTicketCents: p.amountCents, amountPerFractionCents: p.amountCents / plan.fractions })),
      claimDeadline: plan.claimDeadline, securityWarnings: plan.securityWarnings, winningTickets: winningTicketCount(plan), paymentPlace: plan.paymentPlace,
      regulationUrl: plan.regulationUrl, authorisationRef: plan.authorisationRef, territory: plan.territory,
    }
  }

  async function lotteryDraw(drawId: string) {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    if (isRaffle(plan)) throw new DomainError('VALIDATION_FAILED', `${drawId} is a ${plan.kind}, not a numbered-ticket lottery`)
    return { row, plan }
  }

  /** Fractions of a range of the issue, for the print shop (at most MAX_PRINT_FRACTIONS per request). */
  async function printData(drawId: string, input: { from: number; to: number; seriesFrom?: number; seriesTo?: number }) {
    const { row, plan } = await lotteryDraw(drawId)
    const sFrom = input.seriesFrom ?? 1
    const sTo = input.seriesTo ?? plan.series
    if (input.from < plan.numbering.from || input.to > plan.numbering.to || input.from > input.to || sFrom < 1 || sTo > plan.series || sFrom > sTo) {
      throw new DomainError('VALIDATION_FAILED', `the range must lie in ${plan.numbering.from}..${plan.numbering.to}, series 1..${plan.series}`)
    }
    const count = (input.to - input.from + 1) * (sTo - sFrom + 1) * plan.fractions
    if (count > MAX_PRINT_FRACTIONS) throw new DomainError('VALIDATION_FAILED', `${count} fractions asked; print at most ${MAX_PRINT_FRACTIONS} per request`)
    const blocked = await ranges(db, drawId, ['lost', 'stolen'])
    const tickets = []
    for (let s = sFrom; s <= sTo; s++) for (let n = input.from; n <= input.to; n++) {
      // LST-1 (a): lost numbering is never printed again under the same numbers.
      if (inRange(blocked, n, s)) continue
      for (let f = 1; f <= plan.fractions; f++) tickets.push(ticketData(row, plan, n, s, f))
    }
    return tickets
  }

  async function ticketsPdf(drawId: string, input: { from: number; to: number; seriesFrom?: number; seriesTo?: number }): Promise<Uint8Array> {
    const { renderLotteryTicketSheetPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return renderLotteryTicketSheetPdf(await printData(drawId, input))
  }

  /** One fraction in the thermal-style layout (front then back, 48 columns) and as a roll-sized PDF. */
  async function thermalTicket(drawId: string, number: number, series: number, fraction: number) {
    const { plan, row } = await lotteryDraw(drawId)
    if (number < plan.numbering.from || number > plan.numbering.to || series < 1 || series > plan.series || fraction < 1 || fraction > plan.fractions) {
      throw new DomainError('VALIDATION_FAILED', 'no such fraction in this issue')
    }
    const { lotteryTicketLines } = await import('../../../printer/src/lottery-pdf.ts')
    const t = ticketData(row, plan, number, series, fraction)
    return { ...lotteryTicketLines(t), ticket: t }
  }
  async function thermalTicketPdf(drawId: string, number: number, series: number, fraction: number): Promise<Uint8Array> {
    const { renderLotteryThermalPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return renderLotteryThermalPdf((await thermalTicket(drawId, number, series, fraction)).ticket)
  }

  // ------------------------------------------------------------------------------------------ returns, lost and stolen

  /** Unsold tickets returned by sellers before the close of sales: they take no part in the draw. */
  async function recordReturn(drawId: string, input: { from: number; to: number; seriesFrom?: number; seriesTo?: number; note?: string }) {
    return addRange(drawId, 'returned', input, { note: input.note ?? '' })
  }

  /**
   * Reports a range lost or stolen (LST-1, LST-2, LST-5, §7.14): blocked from payment, refund and exchange
   * (LST-4, LST-5) and listed publicly (LST-3). A theft needs the police or prosecutor complaint record. A report
   * to the AJ later than the next business day (LST-1: before distribution, 1 business day) is recorded as late.
   */
  async function reportLostStolen(drawId: string, input: {
    kind: 'lost' | 'stolen'; from: number; to: number; seriesFrom?: number; seriesTo?: number; discoveredAt: string; reportedToAjAt: string
    distributed: boolean; policeReportRef?: string | null; remedy: 'new-numbering' | 'full-reprint' | 'renunciation' | 'new-draw-date' | 'none'; notice: string
  }) {
    const problems: PlanProblem[] = []
    if (input.kind === 'stolen' && !input.policeReportRef?.trim()) problems.push({ field: 'policeReportRef', rule: 'LST-5', message: 'a theft is reported with the police or prosecutor complaint record' })
    if (!input.notice?.trim()) problems.push({ field: 'notice', rule: 'LST-3', message: 'the public notice text is required' })
    if (!Number.isFinite(Date.parse(input.discoveredAt)) || !Number.isFinite(Date.parse(input.reportedToAjAt))) problems.push({ field: 'reportedToAjAt', rule: 'LST-1', message: 'discovery and report dates are required' })
    if (input.remedy === 'renunciation' && input.distributed) problems.push({ field: 'remedy', rule: 'LST-1', message: 'renunciation of the draw is only possible before distribution and advertising' })
    if (problems.length) throw new DomainError('VALIDATION_FAILED', problems.map((p) => `${p.message} (${p.rule})`).join('; '), { problems })
    const lateReport = input.reportedToAjAt.slice(0, 10) > nextBusinessDay(input.discoveredAt)
    return addRange(drawId, input.kind, input, {
      discoveredAt: input.discoveredAt, reportedToAjAt: input.reportedToAjAt, distributed: input.distributed, policeReportRef: input.policeReportRef ?? null,
      remedy: input.remedy, notice: input.notice, lateReport,
    })
  }

  async function addRange(drawId: string, kind: TicketRange['kind'], input: { from: number; to: number; seriesFrom?: number; seriesTo?: number }, details: TicketRange['details']): Promise<TicketRange> {
    return db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (kind === 'returned' && row.status !== 'open') throw new DomainError('SALES_CLOSED', 'unsold tickets are returned before the close of sales')
      const seriesMax = isRaffle(plan) ? 1 : plan.series
      const sFrom = input.seriesFrom ?? 1
      const sTo = input.seriesTo ?? seriesMax
      if (!Number.isInteger(input.from) || !Number.isInteger(input.to) || input.from > input.to || input.from < plan.numbering.from || input.to > plan.numbering.to || sFrom < 1 || sTo > seriesMax || sFrom > sTo) {
        throw new DomainError('VALIDATION_FAILED', `the range must lie in ${plan.numbering.from}..${plan.numbering.to}, series 1..${seriesMax}`)
      }
      const id = newId('rng')
      const at = now()
      const quantity = (input.to - input.from + 1) * (sTo - sFrom + 1)
      // After the close the range is blocked from payment only: the draw keeps the list its D was fixed on.
      const afterClose = row.status !== 'open'
      await insertRange(tx, { id, drawId, kind, from: input.from, to: input.to, seriesFrom: sFrom, seriesTo: sTo, quantity, detailsJson: JSON.stringify(details), createdAt: at, afterClose })
      await appendJournal(tx, { at, type: `lottery.range_${kind}`, scope: scope(row), payload: { drawId, rangeId: id, from: input.from, to: input.to, seriesFrom: sFrom, seriesTo: sTo, quantity, ...details, afterClose, rule: kind === 'returned' ? 'LOT-12' : kind === 'stolen' ? 'LST-5' : 'LST-2' } })
      return { id, kind, from: input.from, to: input.to, seriesFrom: sFrom, seriesTo: sTo, quantity, createdAt: at, afterClose, details }
    })
  }

  /** LST-3: the public notice of lost and stolen tickets, with quantities, numbering and procedure. */
  async function lostStolenNotice(drawId: string) {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    const list = await ranges(db, drawId, ['lost', 'stolen'])
    return {
      drawId, name: plan.name, drawNumber: plan.drawNumber, issue: isRaffle(plan) ? null : plan.issue,
      ranges: list.map((r) => ({
        kind: r.kind, from: formatNumber(r.from, plan.numbering), to: formatNumber(r.to, plan.numbering), seriesFrom: r.seriesFrom, seriesTo: r.seriesTo, quantity: r.quantity,
        reportedAt: r.createdAt, notice: r.details.notice ?? '',
      })),
      total: list.reduce((s, r) => s + r.quantity, 0),
      procedure: 'Los billetes de estas numeraciones no se pagan, no se reembolsan ni se canjean (LST-4, LST-5). Tickets in these ranges are neither paid, refunded nor exchanged.',
    }
  }

  return { createLottery, createRaffle, getDraw, listDraws, printData, ticketsPdf, thermalTicket, thermalTicketPdf, recordReturn, reportLostStolen, lostStolenNotice }
}
