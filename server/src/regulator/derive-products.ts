/**
 * Issue 28 point 1: the control records of numbered lotteries and raffles (`lottery.draw`) and of instant games
 * (`instant.game`), derived from the journal as derive.ts derives bingo and lotto. Pure: journal records in, control
 * records out. What the journal does not hold (the ranges taken out of play, the tiers' amounts, the pack states,
 * the payees' keyed references) the feed adds from the tables when it stores the record (feed.ts `enrich`).
 *
 * Both products run for the operator, not for one hall: their records travel in the `operator` chain. A fact that
 * arrives after the record was sent (a payout in the claim period, the disposal of unclaimed prizes) brings a new
 * record of the same type that `replaces` the previous one, whole; the original stays.
 */
import type { JournalRecord } from '../shared/journal-chain.ts'
import type { DerivedRecord } from './derived-record.ts'

const OPERATOR_CHAIN = 'operator'
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

interface LotteryDrawState {
  drawId: string
  product: 'lottery' | 'raffle'
  plan: Record<string, any> | null
  closedAt: string | null
  ticketsInPlay: number
  register: Array<{ sellerId: string | null; status: string; fractions: number }> | null
  participationSha256: string | null
  salesDigest: string | null
  raffleSold: number
  raffleSalesCents: number
  drawn: number[]
  drawSource: string | null
  settled: Record<string, any> | null
  settledAt: string | null
  payouts: number
  paidCents: number
  unclaimed: Record<string, unknown> | null
  incidents: Array<{ at: string; note: string }>
  /** LOT-21: the withdrawal or renunciation, with what it owes the public (its refunds). */
  cancelled: {
    at: string
    kind: string
    authorisationRef: string
    reason: string
    statusBefore: string | null
    ticketsToRefund: number | null
    fractionsToRefund: number | null
    refundCents: number
  } | null
  refundsPaid: number
  refundsPaidCents: number
  lastKey: string | null
}

interface InstantGameState {
  gameNo: number
  generated: Record<string, any>
  generatedAt: string
  closedAt: string | null
  ticketsSold: number
  salesCents: number
  /** Sales by UTC hour (`YYYY-MM-DDTHH`), so that the daily totals put each sale on its day (issue 28 point 1). */
  salesByHour: Record<string, { tickets: number; salesCents: number }>
  validations: Record<string, number>
  payouts: Array<{ payoutId: string; serial: string; tier: number; amountCents: number; paidAt: string }>
  refunds: Array<{ payoutId: string; serial: string; amountCents: number; reason: string; at: string }>
  voided: number
  reports: Array<Record<string, unknown>>
  packsShipped: number
  packsActivated: number
  lastKey: string | null
}

export function createProductDeriver() {
  const lotteries = new Map<string, LotteryDrawState>()
  const instants = new Map<number, InstantGameState>()

  function lotteryOf(p: Record<string, any>, product: string): LotteryDrawState {
    const id = String(p.drawId)
    let d = lotteries.get(id)
    if (!d) {
      d = {
        drawId: id,
        product: product === 'raffle' ? 'raffle' : 'lottery',
        plan: null,
        closedAt: null,
        ticketsInPlay: 0,
        register: null,
        participationSha256: null,
        salesDigest: null,
        raffleSold: 0,
        raffleSalesCents: 0,
        drawn: [],
        drawSource: null,
        settled: null,
        settledAt: null,
        payouts: 0,
        paidCents: 0,
        unclaimed: null,
        incidents: [],
        cancelled: null,
        refundsPaid: 0,
        refundsPaidCents: 0,
        lastKey: null,
      }
      lotteries.set(id, d)
    }
    return d
  }

  /** The sales of a numbered lottery are its fractions distributed and not returned, at the fraction price. */
  function lotterySalesCents(d: LotteryDrawState): number {
    const plan = d.plan ?? {}
    if (d.product === 'raffle') return d.raffleSalesCents
    const sold = (d.register ?? []).filter((r) => r.status === 'distributed').reduce((s, r) => s + r.fractions, 0)
    return Math.round((sold * num(plan.ticketPriceCents)) / Math.max(1, num(plan.fractions)))
  }

  function lotteryRecord(d: LotteryDrawState, at: string, key: string): DerivedRecord {
    const plan = d.plan ?? {}
    const s = d.settled ?? {}
    const raffle = d.product === 'raffle'
    const record: DerivedRecord = {
      sourceKey: key,
      chain: OPERATOR_CHAIN,
      hall: null,
      type: 'lottery.draw',
      at,
      data: {
        drawId: d.drawId,
        product: d.product,
        kind: str(plan.kind),
        gameCode: str(plan.gameCode),
        drawNo: typeof plan.drawNumber === 'number' ? plan.drawNumber : null,
        name: str(plan.name),
        status: d.cancelled ? 'cancelled' : d.unclaimed ? 'unclaimed-disposed' : 'settled',
        plannedAt: str(plan.drawAt),
        claimDeadline: str(plan.claimDeadline),
        plan: {
          numbering: plan.numbering ?? null,
          series: raffle ? 1 : num(plan.series),
          fractions: raffle ? 1 : num(plan.fractions),
          ticketPriceCents: num(plan.ticketPriceCents),
          drawAmong: raffle ? (str(plan.drawAmong) ?? 'sold') : null,
          prizes: (Array.isArray(plan.prizes) ? plan.prizes : []).map((x: any) => ({
            code: String(x.code),
            name: String(x.name ?? ''),
            rule: raffle ? null : (x.rule ?? null),
            kind: str(x.kind) ?? 'cash',
            amountCents: num(raffle ? x.valueCents : x.amountCents),
          })),
        },
        closeOfSales: {
          closedAt: d.closedAt,
          ticketsInPlay: d.ticketsInPlay,
          participationSha256: d.participationSha256,
          salesDigest: d.salesDigest,
          register: d.register,
          ticketsSold: raffle ? d.raffleSold : null,
          salesCents: lotterySalesCents(d),
        },
        drawSource: d.drawSource,
        drawn: d.drawn,
        winning: s.winning ?? {},
        prizes: (Array.isArray(s.prizes) ? s.prizes : []).map((x: any) => ({
          code: String(x.code),
          numbersCount: num(x.numbersCount),
          ticketsInPlay: num(x.ticketsInPlay),
          liabilityCents: num(x.liabilityCents),
        })),
        liabilityCents: num(s.liabilityCents),
        settledAt: d.settledAt,
        payouts: d.payouts,
        paidCents: d.paidCents,
        unclaimed: d.unclaimed,
        incidents: d.incidents,
        // LOT-21: a withdrawn or renounced draw owes the price of every ticket in the public's hands (refundCents),
        // refunded once each at a cash desk (refunds: paid so far); a settled draw refunds nothing.
        refundCents: d.cancelled ? d.cancelled.refundCents : 0,
        cancellation: d.cancelled
          ? {
              at: d.cancelled.at,
              kind: d.cancelled.kind,
              authorisationRef: d.cancelled.authorisationRef,
              reason: d.cancelled.reason,
              statusBefore: d.cancelled.statusBefore,
              ticketsToRefund: d.cancelled.ticketsToRefund,
              fractionsToRefund: d.cancelled.fractionsToRefund,
              rule: 'LOT-21',
            }
          : null,
        refunds: { paid: d.refundsPaid, paidCents: d.refundsPaidCents },
      },
    }
    if (d.lastKey) record.replacesKey = d.lastKey
    d.lastKey = key
    // A copy: the draw's state goes on changing after this record is sent.
    record.data = structuredClone(record.data)
    return record
  }

  function instantOf(p: Record<string, any>): InstantGameState | undefined {
    return instants.get(num(p.gameNo))
  }

  function instantRecord(g: InstantGameState, at: string, key: string): DerivedRecord {
    const x = g.generated
    const record: DerivedRecord = {
      sourceKey: key,
      chain: OPERATOR_CHAIN,
      hall: null,
      type: 'instant.game',
      at,
      data: {
        gameNo: g.gameNo,
        name: str(x.name),
        channel: str(x.channel),
        status: g.closedAt ? 'closed' : 'on-sale',
        generatedAt: g.generatedAt,
        closedAt: g.closedAt,
        ticketCount: num(x.ticketCount),
        packCount: num(x.packCount),
        packSize: num(x.packSize),
        tierCounts: Array.isArray(x.tierCounts) ? x.tierCounts.map(num) : [],
        prizeFundCents: num(x.prizeFundCents),
        payoutShareBp: x.payoutShareBp ?? null,
        seedCommitment: str(x.seedCommitment),
        designSha256: str(x.designSha256),
        packsShipped: g.packsShipped,
        packsActivated: g.packsActivated,
        reports: g.reports,
        sales: { tickets: g.ticketsSold, salesCents: g.salesCents },
        salesByHour: Object.fromEntries(Object.entries(g.salesByHour).sort(([a], [b]) => (a < b ? -1 : 1))),
        validations: g.validations,
        payouts: g.payouts,
        refunds: g.refunds,
        voided: g.voided,
      },
    }
    if (g.lastKey) record.replacesKey = g.lastKey
    g.lastKey = key
    // A copy: the game's state goes on changing after this record is sent.
    record.data = structuredClone(record.data)
    return record
  }

  function feed(r: JournalRecord, p: Record<string, any>): DerivedRecord[] {
    const out: DerivedRecord[] = []
    const m = /^(lottery|raffle)\.(.+)$/.exec(r.type)
    if (m) {
      const [, product, what] = m
      if (typeof p.drawId !== 'string') return out
      const d = lotteryOf(p, product)
      switch (what) {
        case 'draw_planned':
          d.plan = p.plan ?? null
          break
        case 'draw_postponed':
          if (d.plan && p.to) d.plan = { ...d.plan, ...p.to }
          break
        case 'tickets_sold':
          d.raffleSold += Array.isArray(p.numbers) ? p.numbers.length : 0
          d.raffleSalesCents += num(p.amountCents)
          break
        case 'sales_closed':
          d.closedAt = str(p.closedAt) ?? r.at
          d.ticketsInPlay = num(p.ticketsInPlay)
          d.register = Array.isArray(p.register)
            ? p.register.map((x: any) => ({
                sellerId: str(x.sellerId),
                status: String(x.status),
                fractions: num(x.fractions),
              }))
            : null
          d.participationSha256 = str(p.participationSha256)
          d.salesDigest = str(p.salesDigest)
          break
        case 'number_drawn':
          d.drawSource = 'manual'
          d.drawn.push(num(p.number))
          break
        case 'drawn':
          d.drawSource = str(p.source) ?? 'rng'
          if (Array.isArray(p.numbers)) d.drawn = p.numbers.map(num)
          break
        case 'incident':
          d.incidents.push({ at: r.at, note: String(p.note ?? '') })
          break
        case 'settled':
          d.settled = p
          d.settledAt = r.at
          out.push(lotteryRecord(d, r.at, `lottery.draw:${d.drawId}`))
          break
        case 'prize_paid':
          d.payouts++
          d.paidCents += num(p.amountCents)
          break
        // Issue 28 (LOT-21): a cancelled draw sends its control record at once, with what it owes the public; each
        // refund paid afterwards sends it again, replacing the previous one.
        case 'draw_cancelled':
          d.cancelled = {
            at: r.at,
            kind: String(p.kind ?? ''),
            authorisationRef: String(p.authorisationRef ?? ''),
            reason: String(p.reason ?? ''),
            statusBefore: str(p.statusBefore),
            ticketsToRefund: typeof p.ticketsToRefund === 'number' ? p.ticketsToRefund : null,
            fractionsToRefund: typeof p.fractionsToRefund === 'number' ? p.fractionsToRefund : null,
            refundCents: num(p.refundCents),
          }
          out.push(lotteryRecord(d, r.at, `lottery.draw:${d.drawId}`))
          break
        case 'refund_paid':
          d.refundsPaid++
          d.refundsPaidCents += num(p.amountCents)
          if (d.cancelled) out.push(lotteryRecord(d, r.at, `lottery.draw:${d.drawId}#${r.seq}`))
          break
        case 'unclaimed_disposed':
          d.unclaimed = {
            amountCents: num(p.amountCents),
            goods: Array.isArray(p.goods) ? p.goods : [],
            destination: String(p.destination ?? ''),
            reference: String(p.reference ?? ''),
            recordedAt: str(p.recordedAt) ?? r.at,
            dueBy: str(p.dueBy),
            late: Boolean(p.late),
            rule: 'LOT-24',
          }
          if (d.settled) out.push(lotteryRecord(d, r.at, `lottery.draw:${d.drawId}#${r.seq}`))
          break
        default:
          break
      }
      return out
    }
    if (!r.type.startsWith('instant.')) return out
    if (r.type === 'instant.batch_generated') {
      instants.set(num(p.gameNo), {
        gameNo: num(p.gameNo),
        generated: p,
        generatedAt: r.at,
        closedAt: null,
        ticketsSold: 0,
        salesCents: 0,
        salesByHour: {},
        validations: {},
        payouts: [],
        refunds: [],
        voided: 0,
        reports: [],
        packsShipped: 0,
        packsActivated: 0,
        lastKey: null,
      })
      return out
    }
    const g = instantOf(p)
    if (!g) return out
    switch (r.type) {
      case 'instant.ticket_sold':
        g.ticketsSold++
        g.salesCents += num(p.priceCents)
        {
          const h = (g.salesByHour[r.at.slice(0, 13)] ??= { tickets: 0, salesCents: 0 })
          h.tickets++
          h.salesCents += num(p.priceCents)
        }
        break
      case 'instant.ticket_validated': {
        const outcome = String(p.outcome ?? 'UNKNOWN')
        g.validations[outcome] = (g.validations[outcome] ?? 0) + 1
        break
      }
      case 'instant.prize_paid':
        g.payouts.push({
          payoutId: String(p.payoutId),
          serial: String(p.serial),
          tier: num(p.tier),
          amountCents: num(p.amountCents),
          paidAt: r.at,
        })
        break
      case 'instant.misprint_refunded':
        g.refunds.push({
          payoutId: String(p.payoutId),
          serial: String(p.serial),
          amountCents: num(p.amountCents),
          reason: String(p.reason ?? ''),
          at: r.at,
        })
        break
      case 'instant.ticket_voided':
        g.voided++
        break
      case 'instant.packs_shipped':
        g.packsShipped += num(p.packs)
        break
      case 'instant.pack_activated':
        g.packsActivated++
        break
      case 'instant.range_reported':
        // LST-1, LST-2, §7.5: the range, the date it was found and the date it was reported to the regulator.
        g.reports.push({
          reportId: String(p.reportId),
          kind: String(p.kind),
          stage: String(p.stage ?? ''),
          fromSerial: String(p.fromSerial),
          toSerial: String(p.toSerial),
          tickets: num(p.tickets),
          discoveredAt: str(p.discoveredAt),
          regulatorReportedAt: str(p.regulatorReportedAt),
          recordedAt: r.at,
          policeReportRef: str(p.policeReportRef),
          remedy: str(p.remedy),
        })
        break
      case 'instant.game_closed':
        g.closedAt = r.at
        out.push(instantRecord(g, r.at, `instant.game:${g.gameNo}`))
        return out
      default:
        return out
    }
    // In the claim period after the close, a payout or a refund brings the game's record up to date.
    if (g.closedAt && (r.type === 'instant.prize_paid' || r.type === 'instant.misprint_refunded'))
      out.push(instantRecord(g, r.at, `instant.game:${g.gameNo}#${r.seq}`))
    return out
  }

  return { feed }
}
