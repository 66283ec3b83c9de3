/**
 * Numbered-ticket lotteries (lotería tradicional, popular, regional: LOT-3 to LOT-29) and raffles, tombolas and
 * promotional draws (PRM-1 to PRM-10), from plan to paid prize:
 *
 * Lottery: plan (LOT-4, CFG-39) -> an issue of numbers in series and fractions, printed for the print shop and in
 * a thermal layout with the front and back the regulation lists (LOT-15, LOT-16) -> unsold tickets returned, and
 * ranges reported lost or stolen, blocked from payment and listed publicly (LST-1 to LST-7) -> close of sales:
 * the tickets in play, their sales digest and a participation file -> the draw: each exact prize's number drawn
 * among the M issued numbers (bolillo-draw-v1, N = M, value v = the v-th number of the sorted list), or entered
 * from an authorised tómbola (LOT-18) -> approximations and terminations (domain/lottery.ts) -> extracto and
 * minutes -> validation and one payout per fraction (LOT-25, LOT-26), void when the code's signature fails
 * (LOT-8) -> unclaimed prizes for charity (LOT-24).
 *
 * Raffle / tombola / promotional draw: plan (CFG-44) -> tickets sold by number -> close -> a draw among the sold
 * tickets with the same proof (the first ticket drawn wins the first prize) -> delivery of the goods, registered.
 */
import { createHash } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import type { Database, Sql } from '../db/database.ts'
import { commitmentOf, drawKey, DRAW_PROOF_VERSION, pickFromSorted, salesDigest, shuffleOrder, sortByBytes, type DrawProof } from '../shared/draw-proof.ts'
import { DomainError } from '../shared/errors.ts'
import { AJ_LEGEND, charityDueBy, isClaimExpired, ValidationOutcome, type PlanProblem } from '../shared/lottery-common.ts'
import {
  exactWinners, formatNumber, fractionTicketId, lotteryLiabilityCents, lotteryPrizesFor, lotteryWinningNumbers, numberCount, parseLotteryPlan, parseRafflePlan,
  raffleTicketId, ticketSerial, winningTicketCount, type LotteryPlan, type LotteryPlanInput, type RafflePlan, type RafflePlanInput, type WonPrize,
} from './rules.ts'
import { encodeTicketCode, TicketKind, verifyTicketCode } from '../shared/ticket-code.ts'
import type { OperatorKeys } from '../shared/keys.ts'
import type { Clock, EntropySource } from '../bingo/service.ts'
import type { OnPaid } from '../cashdesk/cash.ts'
import { insertRows } from '../shared/journal-batch.ts'
import { appendJournal, readJournal } from '../shared/journal.ts'
import { SIGNED_RECEIPT, type DrawRow, type PayeeData } from '../lotto/service.ts'

export interface LotteryDeps { db: Database; clock: Clock; entropy: EntropySource; keys: OperatorKeys; dataDir: string }

/** Most whole tickets (numbers x series) an issue may put in play: the participation list is built in memory. */
export const MAX_TICKETS_IN_PLAY = 4_000_000
/** Most fractions printed by one request (the print shop asks range by range). */
export const MAX_PRINT_FRACTIONS = 2_000

type Plan = LotteryPlan | RafflePlan
const isRaffle = (p: Plan): p is RafflePlan => p.kind === 'raffle' || p.kind === 'tombola' || p.kind === 'promotional'

/** A range taken out of play (LST-7, §7.14). */
export interface TicketRange {
  id: string; kind: 'returned' | 'lost' | 'stolen'; from: number; to: number; seriesFrom: number; seriesTo: number; quantity: number; createdAt: string
  details: { discoveredAt?: string; reportedToAjAt?: string; distributed?: boolean; policeReportRef?: string | null; remedy?: string; notice?: string; lateReport?: boolean; note?: string }
}

/** The stored result of a settled lottery or raffle draw. */
export interface LotteryResult {
  /** Lottery: the winning number of each exact prize; raffle: the winning ticket number of each prize. */
  winning: Record<string, number>
  /** Values drawn (bolillo-draw-v1 positions, or the numbers entered), in order. */
  drawn: number[]
  prizes: Array<{ code: string; name: string; rule: string; numbers: number[] | null; numbersCount: number; amountPerTicketCents: number; amountPerFractionCents: number; ticketsInPlay: number; liabilityCents: number; goods: string | null }>
  ticketsInPlay: number
  liabilityCents: number
}

export interface LotteryValidation {
  outcome: ValidationOutcome; kind: 'lottery' | 'raffle'; ticketId: string | null; amountCents: number; goods: string[]; currency: string | null
  reason: string; prizes: WonPrize[]; drawId: string | null; number: string | null; series: number | null; fraction: number | null
}

/** LST-1 / LST-2 / LST-5: the last day a report to the AJ is on time: the next business day (Monday to Friday). */
export function nextBusinessDay(iso: string): string {
  const d = new Date(Date.parse(iso.slice(0, 10) + 'T00:00:00Z'))
  do d.setUTCDate(d.getUTCDate() + 1)
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6)
  return d.toISOString().slice(0, 10)
}

export function createLotteryService(deps: LotteryDeps) {
  const { db, clock } = deps
  const now = () => clock.now().toISOString()
  const newId = (prefix: string) => {
    const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'
    let s = ''
    for (const b of deps.entropy.randomBytes(10)) s += alphabet[b % alphabet.length]
    return `${prefix}_${s}`
  }
  const scope = (r: { product: string; game_code: string; id: string }) => `${r.product}:${r.game_code}/draw:${r.id}`
  const sign = (id: string) => encodeTicketCode({ kind: TicketKind.lottery, id }, deps.keys.privateKey)
  const planOf = (r: DrawRow) => JSON.parse(r.plan) as Plan

  async function loadDraw(tx: Sql, drawId: string): Promise<DrawRow & { product: 'lottery' | 'raffle' }> {
    const row = await tx.get<DrawRow & { product: 'lottery' | 'raffle' }>("SELECT * FROM lottery_draws WHERE id = ? AND product IN ('lottery', 'raffle')", [drawId])
    if (!row) throw new DomainError('NOT_FOUND', `draw ${drawId} not found`, { drawId })
    return { ...row, draw_no: Number(row.draw_no), price_cents: Number(row.price_cents) }
  }

  // ------------------------------------------------------------------------------------------ plans

  async function create(product: 'lottery' | 'raffle', plan: Plan, priceCents: number) {
    const id = newId(product === 'lottery' ? 'ltr' : 'rfl')
    const seed = deps.entropy.randomBytes(32)
    const commitment = commitmentOf(seed)
    const at = now()
    await db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO lottery_draws (id, product, game_code, draw_no, plan, status, currency, price_cents, sales_start_at, sales_close_at, draw_at, claim_deadline, draw_method, commitment, seed_hex, created_at)
         VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, product, plan.gameCode, plan.drawNumber, JSON.stringify(plan), plan.currency, priceCents, plan.salesStartAt, plan.salesCloseAt, plan.drawAt, plan.claimDeadline, plan.drawMethod, commitment, Buffer.from(seed).toString('hex'), at],
      )
      await appendJournal(tx, { at, type: `${product}.draw_planned`, scope: `${product}:${plan.gameCode}/draw:${id}`, payload: { drawId: id, plan, commitment } })
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

  async function ranges(tx: Sql, drawId: string, kinds: ReadonlyArray<TicketRange['kind']> = ['returned', 'lost', 'stolen']): Promise<TicketRange[]> {
    const rows = await tx.all<{ id: string; kind: TicketRange['kind']; from_number: number; to_number: number; series_from: number; series_to: number; quantity: number; details: string; created_at: string }>(
      `SELECT * FROM lottery_ranges WHERE draw_id = ? AND kind IN (${kinds.map(() => '?').join(', ')}) ORDER BY created_at, id`, [drawId, ...kinds],
    )
    return rows.map((r) => ({ id: r.id, kind: r.kind, from: Number(r.from_number), to: Number(r.to_number), seriesFrom: Number(r.series_from), seriesTo: Number(r.series_to), quantity: Number(r.quantity), createdAt: r.created_at, details: JSON.parse(r.details) }))
  }
  const inRange = (rs: readonly TicketRange[], number: number, series: number) => rs.find((r) => number >= r.from && number <= r.to && series >= r.seriesFrom && series <= r.seriesTo)

  async function getDraw(drawId: string) {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    const drawn = row.balls ? (JSON.parse(row.balls) as number[]) : []
    const complete = row.status === 'drawn' || row.status === 'settled'
    return {
      drawId: row.id, product: row.product, status: row.status, plan, commitment: row.commitment,
      seed: complete && plan.drawMethod === 'rng' ? row.seed_hex : null, salesDigest: row.sales_digest, externalEntropy: row.external_entropy,
      participation: row.participation_sha256 ? { sha256: row.participation_sha256, ticketsInPlay: Number(row.entries_count), salesCents: Number(row.sales_cents), closedAt: row.closed_at } : null,
      drawn, result: row.result ? (JSON.parse(row.result) as LotteryResult) : null,
      ticketsIssued: isRaffle(plan) ? numberCount(plan.numbering) : numberCount(plan.numbering) * plan.series,
      winningTickets: isRaffle(plan) ? plan.prizes.length : winningTicketCount(plan),
      times: { createdAt: row.created_at, closedAt: row.closed_at, drawnAt: row.drawn_at, settledAt: row.settled_at },
    }
  }

  async function listDraws(product?: 'lottery' | 'raffle') {
    const rows = await db.all<{ id: string }>(`SELECT id FROM lottery_draws WHERE product IN (${product ? '?' : "'lottery', 'raffle'"}) ORDER BY created_at`, product ? [product] : [])
    return Promise.all(rows.map((r) => getDraw(r.id)))
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
      await tx.run('INSERT INTO lottery_ranges (id, draw_id, kind, from_number, to_number, series_from, series_to, quantity, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [id, drawId, kind, input.from, input.to, sFrom, sTo, quantity, JSON.stringify(details), at])
      await appendJournal(tx, { at, type: `lottery.range_${kind}`, scope: scope(row), payload: { drawId, rangeId: id, from: input.from, to: input.to, seriesFrom: sFrom, seriesTo: sTo, quantity, ...details, rule: kind === 'returned' ? 'LOT-12' : kind === 'stolen' ? 'LST-5' : 'LST-2' } })
      return { id, kind, from: input.from, to: input.to, seriesFrom: sFrom, seriesTo: sTo, quantity, createdAt: at, details }
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

  // ------------------------------------------------------------------------------------------ raffle sales

  /** Sells raffle or tombola tickets by number (PRM-1: a single fixed price): the numbers asked, or the next free ones. */
  async function sellRaffleTickets(drawId: string, input: { count?: number; numbers?: number[]; buyerName?: string; channel: string }) {
    return db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (!isRaffle(plan)) throw new DomainError('VALIDATION_FAILED', 'numbered lottery tickets are printed and distributed, not sold here')
      const at = now()
      const t = Date.parse(at)
      if (t < Date.parse(plan.salesStartAt)) throw new DomainError('SALES_NOT_OPEN', `sales start at ${plan.salesStartAt}`)
      if (row.status !== 'open' || t >= Date.parse(plan.salesCloseAt)) throw new DomainError('SALES_CLOSED', 'sales are closed')
      let numbers = input.numbers ?? []
      if (numbers.length === 0) {
        const count = input.count ?? 1
        if (!Number.isInteger(count) || count < 1 || count > 1000) throw new DomainError('VALIDATION_FAILED', 'count must be 1..1000')
        const sold = new Set((await tx.all<{ number: number }>('SELECT number FROM lottery_sales WHERE draw_id = ?', [drawId])).map((r) => Number(r.number)))
        for (let n = plan.numbering.from; n <= plan.numbering.to && numbers.length < count; n++) if (!sold.has(n)) numbers.push(n)
        if (numbers.length < count) throw new DomainError('SERIES_EXHAUSTED', `only ${numbers.length} tickets left`)
      }
      numbers = [...new Set(numbers)]
      const blocked = await ranges(tx, drawId, ['lost', 'stolen', 'returned'])
      for (const n of numbers) {
        if (!Number.isInteger(n) || n < plan.numbering.from || n > plan.numbering.to) throw new DomainError('VALIDATION_FAILED', `ticket ${n} is outside the numbering`)
        if (inRange(blocked, n, 1)) throw new DomainError('TICKET_BLOCKED', `ticket ${n} is out of sale`)
      }
      const tickets = numbers.map((n) => ({ number: formatNumber(n, plan.numbering), ticketId: raffleTicketId(drawId, n, plan.numbering), code: sign(raffleTicketId(drawId, n, plan.numbering)) }))
      await insertRows(tx, 'lottery_sales', ['draw_id', 'serial', 'number', 'channel', 'buyer_name', 'sold_at'], numbers.map((n, i) => [drawId, tickets[i].number, n, input.channel, input.buyerName ?? null, at]))
      await appendJournal(tx, { at, type: 'raffle.tickets_sold', scope: scope(row), payload: { drawId, numbers: tickets.map((x) => x.number), amountCents: plan.ticketPriceCents * numbers.length, channel: input.channel } })
      return {
        tickets: tickets.map((x) => ({ ...x, organiser: plan.organiser, name: plan.name, drawNumber: plan.drawNumber, drawAt: plan.drawAt, drawPlace: plan.drawPlace, priceCents: plan.ticketPriceCents, currency: plan.currency, soldAt: at, prizes: plan.prizes.map((p) => `${p.name}: ${p.description}`) })),
        amountCents: plan.ticketPriceCents * numbers.length,
      }
    })
  }

  // ------------------------------------------------------------------------------------------ close, draw, settle

  /** The whole tickets in play, sorted by bytes: lottery = issued - returned - lost/stolen; raffle = sold - lost/stolen. */
  async function ticketsInPlay(tx: Sql, row: DrawRow, plan: Plan): Promise<string[]> {
    const out = await ranges(tx, row.id)
    if (isRaffle(plan)) {
      const sold = await tx.all<{ serial: string; number: number }>('SELECT serial, number FROM lottery_sales WHERE draw_id = ?', [row.id])
      return sortByBytes(sold.filter((s) => !inRange(out, Number(s.number), 1)).map((s) => s.serial))
    }
    const total = numberCount(plan.numbering) * plan.series
    if (total > MAX_TICKETS_IN_PLAY) throw new DomainError('VALIDATION_FAILED', `${total} tickets are more than this server puts in one participation list (${MAX_TICKETS_IN_PLAY})`)
    const list: string[] = []
    for (let n = plan.numbering.from; n <= plan.numbering.to; n++) for (let s = 1; s <= plan.series; s++) if (!inRange(out, n, s)) list.push(ticketSerial(n, s, plan.numbering))
    // Zero-padded serials of equal width: numeric order is byte order.
    return list
  }

  /**
   * Closes sales: fixes the tickets in play (after returns and lost/stolen reports), writes them to the
   * participation file with its SHA-256, and fixes the sales digest and external entropy of the draw.
   */
  async function closeSales(drawId: string, input: { externalEntropy?: string; entropySource?: string } = {}) {
    return db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      if (row.status !== 'open') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}`)
      const plan = planOf(row)
      const at = now()
      if (Date.parse(at) < Date.parse(plan.salesCloseAt)) throw new DomainError('ILLEGAL_TRANSITION', `sales close at ${plan.salesCloseAt}`)
      const serials = await ticketsInPlay(tx, row, plan)
      if (isRaffle(plan) && plan.drawAmong === 'sold' && serials.length < plan.prizes.length) throw new DomainError('MINIMUM_PARTICIPATION', `${serials.length} tickets sold for ${plan.prizes.length} prizes`)
      const dir = join(deps.dataDir, row.product, drawId)
      mkdirSync(dir, { recursive: true })
      const hash = createHash('sha256')
      const fd = openSync(join(dir, 'participation.csv'), 'w')
      let chunk: string[] = [`# Bolillo - billetes en juego / tickets in play ${plan.name} N.${plan.drawNumber} draw ${drawId} ${at}\n`]
      const flush = () => { const b = Buffer.from(chunk.join(''), 'utf8'); hash.update(b); writeSync(fd, b); chunk = [] }
      try {
        for (const s of serials) { chunk.push(s + '\n'); if (chunk.length > 8192) flush() }
        chunk.push(`# total ${serials.length}\n`)
        flush()
      } finally { closeSync(fd) }
      const sha = hash.digest('hex')
      const digest = salesDigest(serials)
      const salesCents = isRaffle(plan) ? serials.length * plan.ticketPriceCents : serials.length * plan.ticketPriceCents
      const entropy = input.externalEntropy ?? ''
      await tx.run(`UPDATE lottery_draws SET status = 'closed', closed_at = ?, sales_digest = ?, external_entropy = ?, participation_sha256 = ?, participation_file = 'participation.csv', entries_count = ?, sales_cents = ? WHERE id = ? AND status = 'open'`,
        [at, digest, entropy, sha, serials.length, salesCents, drawId])
      await appendJournal(tx, { at, type: `${row.product}.sales_closed`, scope: scope(row), payload: { drawId, ticketsInPlay: serials.length, participationSha256: sha, salesDigest: digest, externalEntropy: entropy, entropySource: input.entropySource ?? null } })
      return { drawId, closedAt: at, ticketsInPlay: serials.length, participationSha256: sha, salesDigest: digest }
    })
  }

  async function participationFile(drawId: string): Promise<Buffer> {
    const row = await loadDraw(db, drawId)
    if (!row.participation_sha256) throw new DomainError('ILLEGAL_TRANSITION', 'the participation file is produced at the close of sales')
    return readFileSync(join(deps.dataDir, row.product, drawId, 'participation.csv'))
  }

  /** How many values the draw needs: one per exact prize (lottery) or per prize (raffle). */
  const valuesNeeded = (plan: Plan) => (isRaffle(plan) ? plan.prizes.length : plan.prizes.filter((p) => p.rule.type === 'exact').length)

  /**
   * RNG draw (bolillo-draw-v1). Lottery: N = M issued numbers, the first value wins the first exact prize, and so
   * on; raffle: a draw among the M tickets in play (pickFromSorted), the first drawn wins the first prize.
   */
  async function drawRng(drawId: string) {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'closed') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}; close the sales first`)
      if (plan.drawMethod !== 'rng') throw new DomainError('RULE_DISABLED', 'this draw is made with an authorised tómbola: enter its numbers (LOT-18, RNG-26)')
      const key = drawKey(Buffer.from(row.seed_hex, 'hex'), row.id, row.sales_digest!, row.external_entropy ?? '')
      let drawn: number[]
      if (isRaffle(plan) && plan.drawAmong === 'sold') {
        const serials = await ticketsInPlay(tx, row, plan)
        drawn = pickFromSorted(serials, key, plan.prizes.length).map(Number)
      } else if (isRaffle(plan)) drawn = shuffleOrder(key, numberCount(plan.numbering)).slice(0, plan.prizes.length).map((v) => plan.numbering.from + v - 1)
      else drawn = shuffleOrder(key, numberCount(plan.numbering)).slice(0, valuesNeeded(plan)).map((v) => plan.numbering.from + v - 1)
      const at = now()
      await tx.run("UPDATE lottery_draws SET balls = ?, status = 'drawn', drawn_at = ? WHERE id = ? AND status = 'closed'", [JSON.stringify(drawn), at, drawId])
      await appendJournal(tx, { at, type: `${row.product}.drawn`, scope: scope(row), payload: { drawId, source: 'rng', version: DRAW_PROOF_VERSION, numbers: drawn, seed: row.seed_hex } })
    })
    return getDraw(drawId)
  }

  /** A winning number read from an authorised tómbola (LOT-18), for the next prize in order. */
  async function enterNumber(drawId: string, number: number, deviceId: string | null) {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'closed') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}`)
      if (plan.drawMethod !== 'manual') throw new DomainError('RULE_DISABLED', 'this draw is made by the bolillo-draw-v1 RNG')
      const drawn = row.balls ? (JSON.parse(row.balls) as number[]) : []
      if (!Number.isInteger(number) || number < plan.numbering.from || number > plan.numbering.to) throw new DomainError('BALL_OUT_OF_RANGE', `${number} is outside the numbering`)
      if (drawn.includes(number)) throw new DomainError('BALL_ALREADY_DRAWN', `${number} was already drawn`)
      if (isRaffle(plan) && plan.drawAmong === 'sold') {
        const serials = new Set(await ticketsInPlay(tx, row, plan))
        if (!serials.has(formatNumber(number, plan.numbering))) throw new DomainError('VALIDATION_FAILED', `ticket ${number} is not in play: draw again`)
      }
      drawn.push(number)
      const complete = drawn.length === valuesNeeded(plan)
      const at = now()
      await tx.run(`UPDATE lottery_draws SET balls = ?${complete ? ", status = 'drawn', drawn_at = ?" : ''} WHERE id = ?`, complete ? [JSON.stringify(drawn), at, drawId] : [JSON.stringify(drawn), drawId])
      await appendJournal(tx, { at, type: `${row.product}.number_drawn`, scope: scope(row), payload: { drawId, seq: drawn.length, number, source: 'manual', device: deviceId ?? plan.drawDevice } })
    })
    return getDraw(drawId)
  }

  function describeRule(r: LotteryPlan['prizes'][number]['rule'], plan: LotteryPlan): string {
    switch (r.type) {
      case 'exact': return 'numero exacto'
      case 'approximation': return `aproximacion +/-${r.distance} al ${plan.prizes.find((p) => p.code === r.of)?.name ?? r.of}`
      case 'ending': return `terminacion de ${r.digits} cifra${r.digits > 1 ? 's' : ''} del ${plan.prizes.find((p) => p.code === r.of)?.name ?? r.of}`
      case 'beginning': return `comienzo de ${r.digits} cifra${r.digits > 1 ? 's' : ''} del ${plan.prizes.find((p) => p.code === r.of)?.name ?? r.of}`
    }
  }

  /** Settles: the winning numbers of every prize and what the tickets in play may claim. */
  async function settle(drawId: string): Promise<LotteryResult> {
    return db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'drawn') throw new DomainError('ILLEGAL_TRANSITION', `draw ${drawId} is ${row.status}; it is settled once drawn`)
      const drawn = JSON.parse(row.balls!) as number[]
      const out = await ranges(tx, drawId)
      let result: LotteryResult
      if (isRaffle(plan)) {
        const winning: Record<string, number> = {}
        plan.prizes.forEach((p, i) => { winning[p.code] = drawn[i] })
        const sold = new Set(await ticketsInPlay(tx, row, plan))
        const prizes = plan.prizes.map((p, i) => {
          // drawAmong 'issued': a number nobody bought leaves its prize void (desierto), kept by the organiser.
          const inPlay = sold.has(formatNumber(drawn[i], plan.numbering)) ? 1 : 0
          return { code: p.code, name: p.name, rule: inPlay ? `boleto extraido n.º ${i + 1}` : `boleto extraido n.º ${i + 1}: no vendido, premio desierto`, numbers: [drawn[i]], numbersCount: 1, amountPerTicketCents: p.kind === 'cash' ? p.valueCents : 0, amountPerFractionCents: p.kind === 'cash' ? p.valueCents : 0, ticketsInPlay: inPlay, liabilityCents: inPlay * p.valueCents, goods: p.kind === 'cash' ? null : p.description }
        })
        result = { winning, drawn, ticketsInPlay: Number(row.entries_count), liabilityCents: prizes.reduce((s, p) => s + p.liabilityCents, 0), prizes }
      } else {
        const winning = exactWinners(plan, drawn.map((n) => n - plan.numbering.from + 1))
        const numbers = lotteryWinningNumbers(plan, winning)
        result = { winning, drawn, ticketsInPlay: Number(row.entries_count), liabilityCents: 0, prizes: [] }
        for (const p of plan.prizes) {
          const nums = numbers.filter((w) => w.prizes.some((x) => x.code === p.code)).map((w) => w.number)
          let inPlay = 0
          for (const n of nums) for (let s = 1; s <= plan.series; s++) if (!inRange(out, n, s)) inPlay++
          const liability = inPlay * p.amountCents
          result.liabilityCents += liability
          result.prizes.push({
            code: p.code, name: p.name, rule: describeRule(p.rule, plan), numbers: nums.length <= 50 ? nums : null, numbersCount: nums.length,
            amountPerTicketCents: p.amountCents, amountPerFractionCents: p.amountCents / plan.fractions, ticketsInPlay: inPlay, liabilityCents: liability, goods: null,
          })
        }
      }
      const at = now()
      await tx.run("UPDATE lottery_draws SET result = ?, status = 'settled', settled_at = ? WHERE id = ? AND status = 'drawn'", [JSON.stringify(result), at, drawId])
      await appendJournal(tx, { at, type: `${row.product}.settled`, scope: scope(row), payload: { drawId, winning: result.winning, liabilityCents: result.liabilityCents, prizes: result.prizes.map((p) => ({ code: p.code, numbersCount: p.numbersCount, ticketsInPlay: p.ticketsInPlay, liabilityCents: p.liabilityCents })) } })
      return result
    })
  }

  async function getProof(drawId: string): Promise<DrawProof & { items: unknown; winning: Record<string, number> | null; note: string }> {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    if (plan.drawMethod !== 'rng') throw new DomainError('RULE_DISABLED', 'a tómbola draw has no RNG proof; its numbers are in the minutes')
    if (row.status !== 'drawn' && row.status !== 'settled') throw new DomainError('ILLEGAL_TRANSITION', 'the proof is published after the draw')
    const serials = await ticketsInPlay(db, row, plan)
    const drawn = JSON.parse(row.balls!) as number[]
    // Among the sold tickets: value v is the v-th sold serial; among issued numbers: v is the number from + v - 1.
    const raffle = isRaffle(plan) && plan.drawAmong === 'sold'
    const ballCount = raffle ? serials.length : numberCount(plan.numbering)
    const balls = raffle ? drawn.map((n) => serials.indexOf(formatNumber(n, plan.numbering)) + 1) : drawn.map((n) => n - plan.numbering.from + 1)
    return {
      version: DRAW_PROOF_VERSION, gameId: row.id, commitment: row.commitment, seed: row.seed_hex, salesDigest: row.sales_digest!, externalEntropy: row.external_entropy ?? '',
      ballCount, balls, ...(serials.length <= 200_000 ? { soldSerials: serials } : {}),
      items: raffle ? { list: 'soldSerials (tickets in play, sorted by bytes)' } : { numbering: plan.numbering, mapping: 'value v -> number from + v - 1 (the v-th of the sorted zero-padded numbers)' },
      winning: row.result ? (JSON.parse(row.result) as LotteryResult).winning : null,
      note: raffle ? 'draw among M tickets in play: value v is the v-th ticket of the sorted list; the first drawn wins the first prize' : 'draw among M issued numbers: the first value wins the first exact prize, and so on',
    }
  }

  async function recordIncident(drawId: string, note: string): Promise<void> {
    if (!note.trim()) throw new DomainError('VALIDATION_FAILED', 'an incident needs its description')
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      await appendJournal(tx, { at: now(), type: `${row.product}.incident`, scope: scope(row), payload: { drawId, note, status: row.status } })
    })
  }

  // ------------------------------------------------------------------------------------------ extracto and minutes

  async function extracto(drawId: string) {
    const row = await loadDraw(db, drawId)
    if (row.status !== 'settled') throw new DomainError('ILLEGAL_TRANSITION', 'the extracto is published once the draw is settled')
    const plan = planOf(row)
    const result = JSON.parse(row.result!) as LotteryResult
    const blocked = await lostStolenNotice(drawId)
    return {
      title: 'Extracto oficial de resultados', product: row.product, kind: plan.kind, institution: isRaffle(plan) ? plan.organiser : plan.institution, name: plan.name,
      drawId, drawNumber: plan.drawNumber, issue: isRaffle(plan) ? null : plan.issue, drawAt: plan.drawAt, drawPlace: plan.drawPlace, drawMethod: plan.drawMethod, drawDevice: plan.drawDevice,
      numbering: plan.numbering, series: isRaffle(plan) ? 1 : plan.series, fractions: isRaffle(plan) ? 1 : plan.fractions, currency: plan.currency,
      winning: Object.fromEntries(Object.entries(result.winning).map(([k, v]) => [k, formatNumber(v, plan.numbering)])),
      prizes: result.prizes.map((p) => ({ ...p, numbers: p.numbers?.map((n) => formatNumber(n, plan.numbering)) ?? null })),
      ticketsInPlay: result.ticketsInPlay, participationSha256: row.participation_sha256, lostStolen: blocked.ranges,
      proof: plan.drawMethod === 'rng' ? { version: DRAW_PROOF_VERSION, commitment: row.commitment, seed: row.seed_hex, salesDigest: row.sales_digest, externalEntropy: row.external_entropy ?? '' } : null,
      claimDeadline: plan.claimDeadline, paymentPlace: plan.paymentPlace, legend: AJ_LEGEND, publishedAt: row.settled_at,
    }
  }

  async function acta(drawId: string) {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    const events: Array<{ seq: number; at: string; type: string; payload: Record<string, unknown>; hash: string }> = []
    for await (const r of readJournal(db, { scopePrefix: scope(row) })) events.push({ seq: r.seq, at: r.at, type: r.type, payload: r.payload as Record<string, unknown>, hash: r.hash })
    const rs = await ranges(db, drawId)
    return {
      title: 'Acta del sorteo', product: row.product, drawId, status: row.status, plan,
      liabilityCents: isRaffle(plan) ? plan.prizes.reduce((s, p) => s + p.valueCents, 0) : lotteryLiabilityCents(plan),
      ranges: rs, participation: row.participation_sha256 ? { closedAt: row.closed_at, ticketsInPlay: Number(row.entries_count), sha256: row.participation_sha256, salesDigest: row.sales_digest, externalEntropy: row.external_entropy } : null,
      drawn: row.balls ? (JSON.parse(row.balls) as number[]).map((n) => formatNumber(n, plan.numbering)) : [], drawnAt: row.drawn_at,
      seed: row.status === 'drawn' || row.status === 'settled' ? row.seed_hex : null, commitment: row.commitment,
      result: row.result ? (JSON.parse(row.result) as LotteryResult) : null,
      incidents: events.filter((e) => e.type.endsWith('.incident')).map((e) => ({ at: e.at, note: String(e.payload.note) })),
      journal: { records: events.length, lastSeq: events.at(-1)?.seq ?? null, lastHash: events.at(-1)?.hash ?? null },
      signatures: [
        { role: isRaffle(plan) ? 'Organizador' : 'Máxima Autoridad Ejecutiva', name: plan.staff.authority },
        { role: 'Director del Sorteo', name: plan.staff.director }, { role: 'Moderador', name: plan.staff.moderator }, { role: 'Notario de Fe Pública', name: plan.staff.notary },
      ],
    }
  }

  async function extractoPdf(drawId: string) {
    const { renderLotteryExtractoPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return renderLotteryExtractoPdf(await extracto(drawId))
  }
  async function actaPdf(drawId: string) {
    const { renderLotteryActaPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return renderLotteryActaPdf(await acta(drawId))
  }

  // ------------------------------------------------------------------------------------------ validation and payout

  /** §8 for a lottery fraction or raffle ticket: VOID if the signature fails (LOT-8), REPORTED LOST/STOLEN, ... */
  async function validate(code: string, tx: Sql = db): Promise<LotteryValidation> {
    const base = { amountCents: 0, goods: [] as string[], currency: null as string | null, prizes: [] as WonPrize[], drawId: null as string | null, number: null as string | null, series: null as number | null, fraction: null as number | null }
    let id: string
    try {
      const ref = verifyTicketCode(code, deps.keys.publicKey)
      if (ref.kind !== TicketKind.lottery) return { ...base, kind: 'lottery', outcome: ValidationOutcome.Void, ticketId: ref.id, reason: 'not a lottery ticket' }
      id = ref.id
    } catch (e) {
      return { ...base, kind: 'lottery', outcome: ValidationOutcome.Void, ticketId: null, reason: `altered or forged ticket: ${(e as Error).message} (LOT-8)` }
    }
    const parts = id.split('-')
    const row = await tx.get<DrawRow & { product: 'lottery' | 'raffle' }>("SELECT * FROM lottery_draws WHERE id = ? AND product IN ('lottery', 'raffle')", [parts[0]])
    if (!row) return { ...base, kind: 'lottery', outcome: ValidationOutcome.Void, ticketId: id, reason: 'no such draw' }
    const plan = planOf(row)
    const kind = row.product
    const number = Number(parts[1])
    const series = isRaffle(plan) ? 1 : Number(parts[2])
    const fraction = isRaffle(plan) ? 1 : Number(parts[3])
    const shape = isRaffle(plan) ? parts.length === 2 : parts.length === 4 && series >= 1 && series <= plan.series && fraction >= 1 && fraction <= plan.fractions
    const r0 = { ...base, kind, ticketId: id, drawId: row.id, currency: plan.currency, number: parts[1] ?? null, series, fraction }
    if (!shape || !Number.isInteger(number) || number < plan.numbering.from || number > plan.numbering.to) return { ...r0, outcome: ValidationOutcome.Void, reason: 'not a ticket of this issue' }
    const rs = await ranges(tx, row.id)
    const hit = inRange(rs, number, series)
    if (hit && hit.kind !== 'returned') return { ...r0, outcome: ValidationOutcome.ReportedLostStolen, reason: `number reported ${hit.kind}: no payment, refund or exchange (${hit.kind === 'stolen' ? 'LST-5' : 'LST-4'})` }
    if (hit) return { ...r0, outcome: ValidationOutcome.Void, reason: 'returned unsold before the draw: not in play' }
    if (isRaffle(plan)) {
      const sold = await tx.get('SELECT serial FROM lottery_sales WHERE draw_id = ? AND number = ?', [row.id, number])
      if (!sold) return { ...r0, outcome: ValidationOutcome.Void, reason: 'this ticket was never sold (LOT-8)' }
    }
    if (row.status !== 'settled') return { ...r0, outcome: ValidationOutcome.Pending, reason: `the draw is ${row.status}` }
    const result = JSON.parse(row.result!) as LotteryResult
    let prizes: WonPrize[]
    let goods: string[] = []
    if (isRaffle(plan)) {
      const won = plan.prizes.filter((p) => result.winning[p.code] === number)
      prizes = won.map((p) => ({ code: p.code, name: p.name, amountCents: p.kind === 'cash' ? p.valueCents : 0 }))
      goods = won.filter((p) => p.kind !== 'cash').map((p) => `${p.name}: ${p.description}`)
    } else {
      prizes = lotteryPrizesFor(plan, result.winning, number).map((p) => ({ ...p, amountCents: p.amountCents / plan.fractions }))
    }
    const amountCents = prizes.reduce((s, p) => s + p.amountCents, 0)
    const r = { ...r0, prizes, amountCents, goods }
    if (prizes.length === 0) return { ...r, outcome: ValidationOutcome.NoWin, reason: 'no prize' }
    const paid = await tx.get<{ paid_at: string }>('SELECT paid_at FROM lottery_payouts WHERE draw_id = ? AND ticket_id = ?', [row.id, id])
    if (paid) return { ...r, outcome: ValidationOutcome.AlreadyPaid, reason: `paid at ${paid.paid_at}` }
    if (isClaimExpired(plan.claimDeadline, now())) return { ...r, outcome: ValidationOutcome.Expired, reason: 'the claim period has ended (LOT-23)' }
    return { ...r, outcome: ValidationOutcome.Win, reason: prizes.map((p) => p.name).join(', ') }
  }

  /** Pays a winning fraction or delivers a raffle prize once (LOT-25, LOT-26), with the prize register (INS-5). */
  async function pay(input: { code: string; stationId: string; cashierId: string; payee: PayeeData; onPaid?: OnPaid }) {
    const p = input.payee
    if (![p?.name, p?.document].every((x) => typeof x === 'string' && x.trim()) || p.name.trim().split(/\s+/).length < 2) {
      throw new DomainError('PAYEE_ID_REQUIRED', 'the prize register needs the payee first and last names and identity document (INS-5)', { rule: 'INS-5' })
    }
    return db.transaction(async (tx) => {
      const v = await validate(input.code, tx)
      switch (v.outcome) {
        case 'VOID': throw new DomainError('INVALID_SIGNATURE', v.reason, { outcome: v.outcome })
        case 'REPORTED_LOST_STOLEN': throw new DomainError('TICKET_BLOCKED', v.reason, { outcome: v.outcome })
        case 'ALREADY_PAID': throw new DomainError('ALREADY_PAID', v.reason, { outcome: v.outcome })
        case 'EXPIRED': throw new DomainError('TICKET_EXPIRED', v.reason, { outcome: v.outcome })
        case 'PENDING': throw new DomainError('PRIZE_PENDING', v.reason, { outcome: v.outcome })
        case 'NO_WIN': throw new DomainError('NOT_A_WINNER', v.reason, { outcome: v.outcome })
        default: break
      }
      const at = now()
      const payoutId = newId('lpay')
      await tx.run(
        `INSERT INTO lottery_payouts (id, draw_id, product, ticket_id, amount_cents, goods, prizes, currency, station_id, cashier_id, payee_name, payee_document, signature_ref, paid_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [payoutId, v.drawId, v.kind, v.ticketId, v.amountCents, v.goods.length ? JSON.stringify(v.goods) : null, JSON.stringify(v.prizes), v.currency, input.stationId, input.cashierId, p.name.trim(), p.document.trim(), p.signatureRef?.trim() || SIGNED_RECEIPT, at],
      )
      const row = await loadDraw(tx, v.drawId!)
      await appendJournal(tx, { at, type: `${v.kind}.prize_paid`, scope: scope(row), payload: { payoutId, drawId: v.drawId, ticketId: v.ticketId, amountCents: v.amountCents, goods: v.goods, prizes: v.prizes.map((x) => x.code), stationId: input.stationId, cashierId: input.cashierId, payeeDocument: p.document } })
      await input.onPaid?.(tx, { amountCents: v.amountCents, currency: v.currency ?? '', refId: payoutId, at, kind: 'prize_payout' })
      return { payoutId, outcome: v.outcome, ticketId: v.ticketId, amountCents: v.amountCents, goods: v.goods, prizes: v.prizes, currency: v.currency, paidAt: at }
    })
  }

  /** LOT-24: after prescription, what the tickets in play could still have claimed, for charity and health. */
  async function unclaimed(drawId: string) {
    const row = await loadDraw(db, drawId)
    if (row.status !== 'settled') throw new DomainError('ILLEGAL_TRANSITION', 'the draw is not settled')
    const plan = planOf(row)
    const result = JSON.parse(row.result!) as LotteryResult
    const paid = await db.get<{ total: number | null; n: number }>('SELECT SUM(amount_cents) AS total, COUNT(*) AS n FROM lottery_payouts WHERE draw_id = ?', [drawId])
    const cashLiability = result.prizes.reduce((s, p) => s + (p.goods ? 0 : p.liabilityCents), 0)
    const at = now()
    return {
      drawId, product: row.product, claimDeadline: plan.claimDeadline, prescribed: isClaimExpired(plan.claimDeadline, at), charityDueBy: charityDueBy(plan.claimDeadline), asOf: at,
      currency: plan.currency, prizesInPlayCents: cashLiability, paidCents: Number(paid?.total ?? 0), payouts: Number(paid?.n ?? 0),
      unclaimedCents: cashLiability - Number(paid?.total ?? 0),
      note: 'Prizes of tickets in play (not returned, lost or stolen) not presented before the deadline (LOT-23).', disposal: row.disposal ? JSON.parse(row.disposal) : null, rule: 'LOT-24',
    }
  }

  async function disposeUnclaimed(drawId: string, input: { destination: string; reference: string }) {
    const report = await unclaimed(drawId)
    if (!report.prescribed) throw new DomainError('ILLEGAL_TRANSITION', `prizes can be claimed until ${report.claimDeadline} (LOT-23)`)
    const at = now()
    const disposal = { destination: input.destination, reference: input.reference, amountCents: report.unclaimedCents, recordedAt: at, dueBy: report.charityDueBy, late: Date.parse(at) > Date.parse(report.charityDueBy) }
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const r = await tx.run('UPDATE lottery_draws SET disposal = ? WHERE id = ? AND disposal IS NULL', [JSON.stringify(disposal), drawId])
      if (r.changes !== 1) throw new DomainError('CONFLICT', 'the unclaimed prizes were already disposed of')
      await appendJournal(tx, { at, type: `${row.product}.unclaimed_disposed`, scope: scope(row), payload: { drawId, ...disposal, rule: 'LOT-24' } })
    })
    return disposal
  }

  async function prizeRegister(drawId?: string) {
    const rows = await db.all<Record<string, unknown>>(
      `SELECT p.*, d.draw_no FROM lottery_payouts p JOIN lottery_draws d ON d.id = p.draw_id WHERE p.product IN ('lottery', 'raffle')${drawId ? ' AND p.draw_id = ?' : ''} ORDER BY p.paid_at, p.ticket_id`,
      drawId ? [drawId] : [],
    )
    return rows.map((r) => ({
      payoutId: r.id, product: r.product, drawNumber: Number(r.draw_no), ticketNumber: r.ticket_id, amountCents: Number(r.amount_cents), currency: r.currency,
      goods: r.goods ? JSON.parse(String(r.goods)) : [], prizes: JSON.parse(String(r.prizes)), payee: { name: r.payee_name, document: r.payee_document, signatureRef: r.signature_ref },
      stationId: r.station_id, cashierId: r.cashier_id, paidAt: r.paid_at,
    }))
  }

  return {
    /** Whether a scanned code is a lottery or raffle ticket (kind `T`), for the cashier's generic dispatch. */
    handles: (code: string) => String(code).trim().startsWith('BLL1.T.'),
    createLottery, createRaffle, getDraw, listDraws, printData, ticketsPdf, thermalTicket, thermalTicketPdf, recordReturn, reportLostStolen, lostStolenNotice,
    sellRaffleTickets, closeSales, participationFile, drawRng, enterNumber, settle, getProof, recordIncident, extracto, acta, extractoPdf, actaPdf,
    validate: (code: string) => validate(code), pay, unclaimed, disposeUnclaimed, prizeRegister,
  }
}

export type LotteryService = ReturnType<typeof createLotteryService>
