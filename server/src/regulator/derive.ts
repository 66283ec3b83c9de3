/**
 * Issue 28 point 1: the control records a regulator receives, derived from the hash-chained journal (the same
 * facts the minutes, the draw proofs and the lotto settlement are made of). Pure: journal records in, control
 * records out; the zone of a hall and the card numbers of a game arrive as values.
 *
 * The format is published in SCHEMA.md (bolillo-control-v1); the checker in server/src/regulator-check/ reads it
 * without this module.
 */
import type { JournalRecord } from '../shared/journal-chain.ts'
import { createProductDeriver } from './derive-products.ts'
import type { DerivedRecord } from './derived-record.ts'

export type { ControlType, DerivedRecord } from './derived-record.ts'

export const CONTROL_SCHEMA = 'bolillo-control-v1'

/** The chain of batches a record travels in: one per hall, and one for the operator's own products (lotto). */
export const OPERATOR_CHAIN = 'operator'

interface BingoGameState {
  gameId: string
  hallId: string
  sessionId: string
  orderNo: number
  faceValueCents: number
  lineBp: number
  bingoBp: number
  ballCount: number
  /** BNG-98 / CFG-32: a fast bingo's numbers drawn that win, as its hall's licence set it (null: all). */
  timesRequired: number | null
  commitment: string
  drawSource: string
  announcedAt: string
  startedAt: string | null
  endedAt: string | null
  series: Array<{ series: string; from: number; to: number }>
  cardsSold: number
  byChannel: Record<string, number>
  collectedCents: number
  poolsCents: { line: number; bingo: number }
  salesDigest: string | null
  beacon: { round: number; randomness: string | null; scheme: string | null } | null
  balls: number[]
  prizes: Array<{
    kind: string
    poolCents: number
    lineAtBingo: boolean
    winners: Array<{ serial: string; atBall: number; amountCents: number }>
  }>
  jackpots: Array<{ type: string; amountCents: number; serial: string | null }>
  incidents: Array<{ at: string; kind: string; outcome: string; rule: string; note: string; declaredBy: string | null }>
  corrections: Array<{ seq: number; from: number; to: number }>
  rejectedClaims: number
  /** Issue 28 point 2: increases and decreases of the prima fund and the accumulated pots in this game. */
  potMovements: PotMovement[]
}

export interface PotMovement {
  pot: string
  hallId: string | null
  direction: 'increase' | 'decrease'
  amountCents: number
  event: string
}

interface LottoDrawState {
  drawId: string
  gameCode: string | null
  plannedAt: string | null
  closedAt: string | null
  receipts: number
  plays: number
  salesCents: number
  participationSha256: string | null
  excluded: number
  excludedSha256: string | null
  salesDigest: string | null
  balls: number[]
  beacon: unknown
  /** The plan's categories: a pari-mutuel share of the pool, or a fixed amount paid from the budget. */
  prizeKinds: Record<string, string>
  drawNo: number | null
  /** What of the plan a checker needs to settle the draw again: categories, pool share, picks. */
  plan: {
    picks: number
    priceCents: number
    prizePoolBp: number
    unwonShares: string | null
    categories: Array<{ code: string; matches: number; prize: unknown }>
  } | null
}

/** Journal types that are significant events (GLI-19 / AGCO: configuration, devices, integrity, logins, refusals). */
const SIGNIFICANT: Record<
  string,
  'configuration' | 'device' | 'integrity' | 'login' | 'refusal' | 'self-verification'
> = {
  'hall.created': 'configuration',
  'hall.plan': 'configuration',
  'hall.auto_claim': 'configuration',
  'hall.time_zone_set': 'configuration',
  'hall.territory_set': 'configuration',
  'hall.cctv_set': 'configuration',
  'hall.closed': 'configuration',
  'prima.configured': 'configuration',
  'prima.amount_changed': 'configuration',
  'user.created': 'configuration',
  'user.halls': 'configuration',
  'instant.hall_configured': 'configuration',
  'device.enrolled': 'device',
  'device.revoked': 'device',
  'device.reenrolled': 'device',
  'device.updated': 'device',
  'device.registered': 'device',
  'device.status_changed': 'device',
  'entropy.failure': 'integrity',
  'beacon.refused': 'integrity',
  'lotto.beacon_refused': 'integrity',
  'device.refused': 'integrity',
  'instant.seed_export_refused': 'integrity',
  'regulator.integrity_failed': 'integrity',
  'system.build_refused': 'integrity',
  'user.login': 'login',
  'user.locked': 'login',
  'user.unlocked': 'login',
  'access.refused': 'refusal',
  'access.refused.summary': 'refusal',
  'player.refused': 'refusal',
  'player.refunded_excluded': 'refusal',
  'system.self_verified': 'self-verification',
}

/** The hall a journal record belongs to: its scope `hall:<id>/...`, else the hall its payload names. */
export function hallOfRecord(r: JournalRecord): string | null {
  const m = /^hall:([^/]+)/.exec(r.scope)
  if (m) return m[1]
  const p = r.payload as { hallId?: unknown } | null
  return p && typeof p.hallId === 'string' ? p.hallId : null
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/** The person or device a journal record names (issue 14: never from a request body). */
function actorName(p: Record<string, any>): string | null {
  const a = p.actor ?? p.by
  if (!a || typeof a !== 'object') return null
  return str(a.name) ?? str(a.id)
}

/**
 * Feeds journal records, in order, and collects the control records they complete: a bingo game's record at its
 * end (finished or void), a lotto draw's at its settlement or cancellation, a significant event at once.
 */
export function createDeriver() {
  const games = new Map<string, BingoGameState>()
  const draws = new Map<string, LottoDrawState>()
  const products = createProductDeriver()
  let lastSeq = 0

  function gameOf(p: Record<string, any>): BingoGameState | undefined {
    return games.get(String(p.gameId))
  }

  function drawOf(p: Record<string, any>): LottoDrawState {
    const id = String(p.drawId)
    let d = draws.get(id)
    if (!d) {
      d = {
        drawId: id,
        gameCode: null,
        plannedAt: null,
        closedAt: null,
        receipts: 0,
        plays: 0,
        salesCents: 0,
        participationSha256: null,
        excluded: 0,
        excludedSha256: null,
        salesDigest: null,
        balls: [],
        beacon: null,
        prizeKinds: {},
        drawNo: null,
        plan: null,
      }
      draws.set(id, d)
    }
    return d
  }

  function bingoRecord(
    g: BingoGameState,
    status: 'finished' | 'void',
    at: string,
    extra: { voidReason?: string; refundCents?: number; refundedCards?: number },
  ): DerivedRecord {
    return {
      sourceKey: `bingo.game:${g.gameId}`,
      chain: g.hallId,
      hall: g.hallId,
      type: 'bingo.game',
      at,
      data: {
        gameId: g.gameId,
        sessionId: g.sessionId,
        gameNo: g.orderNo,
        status,
        announcedAt: g.announcedAt,
        startedAt: g.startedAt,
        endedAt: at,
        series: g.series,
        faceValueCents: g.faceValueCents,
        shares: { lineBp: g.lineBp, bingoBp: g.bingoBp },
        cardsSold: g.cardsSold,
        cardsByChannel: g.byChannel,
        collectedCents: g.collectedCents,
        poolsCents: g.poolsCents,
        prizes: g.prizes,
        jackpots: g.jackpots,
        ballCount: g.ballCount,
        ...(g.timesRequired !== null ? { timesRequired: g.timesRequired } : {}),
        balls: g.balls,
        drawSource: g.drawSource,
        commitment: g.commitment,
        salesDigest: g.salesDigest,
        beacon: g.beacon,
        incidents: g.incidents,
        ballCorrections: g.corrections,
        rejectedClaims: g.rejectedClaims,
        potMovements: g.potMovements,
        voidReason: extra.voidReason ?? null,
        refundCents: extra.refundCents ?? 0,
        refundedCards: extra.refundedCards ?? 0,
      },
    }
  }

  /** Feeds one journal record; returns the control records it completes. */
  function feed(r: JournalRecord): DerivedRecord[] {
    if (r.seq <= lastSeq) return []
    lastSeq = r.seq
    const p = (r.payload ?? {}) as Record<string, any>
    const out: DerivedRecord[] = []
    const kind = SIGNIFICANT[r.type]
    if (kind) {
      const hall = hallOfRecord(r)
      out.push({
        sourceKey: `event:${r.seq}`,
        chain: hall ?? OPERATOR_CHAIN,
        hall,
        type: 'event.significant',
        at: r.at,
        data: {
          kind,
          event: r.type,
          journalSeq: r.seq,
          journalHash: r.hash,
          by: actorName(p),
          before: p.before ?? p.from ?? null,
          after: p.after ?? p.to ?? null,
          details: stripActor(p),
        },
      })
    }
    switch (r.type) {
      case 'game.announced': {
        const hall = hallOfRecord(r)
        const session = /\/session:([^/]+)/.exec(r.scope)?.[1] ?? ''
        if (!hall) break
        games.set(String(p.gameId), {
          gameId: String(p.gameId),
          hallId: hall,
          sessionId: session,
          orderNo: num(p.orderNo),
          faceValueCents: num(p.faceValueCents),
          lineBp: num(p.lineBp),
          bingoBp: num(p.bingoBp),
          ballCount: num(p.ballCount),
          timesRequired: fastTimesRequired(p.fastBingo),
          commitment: String(p.commitment ?? ''),
          drawSource: String(p.drawSource ?? ''),
          announcedAt: r.at,
          startedAt: null,
          endedAt: null,
          series: [],
          cardsSold: 0,
          byChannel: {},
          collectedCents: 0,
          poolsCents: { line: 0, bingo: 0 },
          salesDigest: null,
          beacon: null,
          balls: [],
          prizes: [],
          jackpots: [],
          incidents: [],
          corrections: [],
          rejectedClaims: 0,
          potMovements: [],
        })
        break
      }
      case 'cards.sold': {
        const g = gameOf(p)
        if (!g) break
        // Paper (the table, a cashier) or terminal (kiosk, e-bingo): as the sale named its channel.
        const channel = String(p.channel ?? 'unknown')
        g.byChannel[channel] = (g.byChannel[channel] ?? 0) + num(p.count)
        break
      }
      case 'sales.closed': {
        const g = gameOf(p)
        if (!g) break
        g.series = Array.isArray(p.ranges)
          ? p.ranges.map((x: any) => ({ series: String(x.series), from: num(x.from), to: num(x.to) }))
          : []
        g.cardsSold = num(p.cardsSold)
        g.collectedCents = num(p.totalCents)
        g.poolsCents = { line: num(p.linePoolCents), bingo: num(p.bingoPoolCents) }
        g.salesDigest = str(p.salesDigest)
        g.startedAt = r.at
        if (p.beaconRound) g.beacon = { round: num(p.beaconRound), randomness: null, scheme: null }
        break
      }
      case 'game.beacon': {
        const g = gameOf(p)
        if (g) g.beacon = { round: num(p.round), randomness: str(p.randomness), scheme: str(p.scheme) }
        break
      }
      case 'ball.called': {
        const g = gameOf(p)
        if (g) g.balls.push(num(p.ball))
        break
      }
      case 'ball.corrected': {
        // BNG-83: the number on the ball prevails; the record keeps both values.
        const g = gameOf(p)
        if (!g) break
        g.corrections.push({ seq: num(p.seq), from: num(p.from), to: num(p.to) })
        if (Number.isInteger(p.seq) && p.seq >= 1 && p.seq <= g.balls.length) g.balls[p.seq - 1] = num(p.to)
        break
      }
      case 'claim.rejected': {
        const g = gameOf(p)
        if (g) g.rejectedClaims++
        break
      }
      case 'prize.awarded': {
        const g = gameOf(p)
        if (!g) break
        const winners = Array.isArray(p.winners)
          ? p.winners.map((w: any) => ({
              serial: String(w.serial),
              atBall: num(w.atBall),
              amountCents: num(w.amountCents),
            }))
          : []
        g.prizes.push({
          kind: String(p.kind),
          poolCents: num(p.poolCents),
          lineAtBingo: Boolean(p.lineAtBingo),
          winners,
        })
        break
      }
      case 'prima.awarded':
      case 'pot.awarded':
      case 'lucky.drawn': {
        const g = gameOf(p)
        if (g && (p.amountCents || p.totalCents))
          g.jackpots.push({ type: r.type, amountCents: num(p.amountCents ?? p.totalCents), serial: str(p.serial) })
        if (g && r.type !== 'lucky.drawn' && num(p.amountCents) > 0)
          g.potMovements.push({
            pot: r.type === 'prima.awarded' ? 'prima' : String(p.potId ?? 'pot'),
            hallId: str(p.hallId) ?? g.hallId,
            direction: 'decrease',
            amountCents: num(p.amountCents),
            event: r.type,
          })
        break
      }
      case 'prima.deducted':
      case 'prima.reversed': {
        // The prima fund grows by each game's deduction (BNG-58); a void game gives its deduction back.
        const g = gameOf(p)
        const amount = num(r.type === 'prima.deducted' ? p.deductedCents : p.reversedCents)
        if (g && amount > 0)
          g.potMovements.push({
            pot: 'prima',
            hallId: str(p.hallId) ?? g.hallId,
            direction: r.type === 'prima.deducted' ? 'increase' : 'decrease',
            amountCents: amount,
            event: r.type,
          })
        break
      }
      case 'pot.contributed':
      case 'pot.reversed': {
        // RNG-18: each hall's contribution to an accumulated pot (main and reserve), or its reversal.
        const g = gameOf(p)
        if (!g || !Array.isArray(p.contributions)) break
        for (const c of p.contributions) {
          const amount = num(c.mainCents) + num(c.reserveCents)
          if (amount > 0)
            g.potMovements.push({
              pot: String(c.potId ?? p.potId ?? 'pot'),
              hallId: str(c.hallId) ?? g.hallId,
              direction: r.type === 'pot.contributed' ? 'increase' : 'decrease',
              amountCents: amount,
              event: r.type,
            })
        }
        break
      }
      case 'incident': {
        const g = gameOf(p)
        if (g)
          g.incidents.push({
            at: r.at,
            kind: String(p.kind),
            outcome: String(p.outcome ?? ''),
            rule: String(p.rule ?? ''),
            note: String(p.note ?? ''),
            declaredBy: actorName(p),
          })
        break
      }
      case 'game.finished': {
        const g = gameOf(p)
        if (!g) break
        if (Array.isArray(p.balls) && p.balls.length >= g.balls.length && g.corrections.length === 0)
          g.balls = p.balls.map(num)
        out.push(bingoRecord(g, 'finished', r.at, {}))
        games.delete(g.gameId)
        break
      }
      case 'game.void': {
        const g = gameOf(p)
        if (!g) break
        out.push(
          bingoRecord(g, 'void', r.at, {
            voidReason: String(p.reason ?? ''),
            refundCents: num(p.refundCents),
            refundedCards: num(p.refundedCards),
          }),
        )
        games.delete(g.gameId)
        break
      }
      case 'lotto.draw_planned': {
        const d = drawOf(p)
        d.gameCode = str(p.plan?.gameCode)
        d.plannedAt = str(p.plan?.drawAt)
        for (const c of Array.isArray(p.plan?.categories) ? p.plan.categories : [])
          d.prizeKinds[String(c.code)] = String(c.prize?.type ?? '')
        d.drawNo = typeof p.plan?.drawNumber === 'number' ? p.plan.drawNumber : null
        d.plan = p.plan
          ? {
              picks: num(p.plan.picks),
              priceCents: num(p.plan.priceCents),
              prizePoolBp: num(p.plan.prizePoolBp),
              unwonShares: str(p.plan.unwonShares),
              categories: (Array.isArray(p.plan.categories) ? p.plan.categories : []).map((c: any) => ({
                code: String(c.code),
                matches: num(c.matches),
                prize: c.prize ?? null,
              })),
            }
          : null
        break
      }
      case 'lotto.sales_closed': {
        const d = drawOf(p)
        Object.assign(d, {
          closedAt: str(p.closedAt) ?? r.at,
          receipts: num(p.receipts),
          plays: num(p.plays),
          salesCents: num(p.salesCents),
          participationSha256: str(p.participationSha256),
          excluded: num(p.excluded),
          excludedSha256: str(p.excludedSha256),
          salesDigest: str(p.salesDigest),
        })
        break
      }
      case 'lotto.drawn': {
        const d = drawOf(p)
        d.balls = Array.isArray(p.balls) ? p.balls.map(num) : []
        d.beacon = p.beacon ?? null
        break
      }
      case 'lotto.settled':
      case 'lotto.draw_cancelled': {
        const d = drawOf(p)
        const settled = r.type === 'lotto.settled'
        out.push({
          sourceKey: `lotto.draw:${d.drawId}`,
          chain: OPERATOR_CHAIN,
          hall: null,
          type: 'lotto.draw',
          at: r.at,
          data: {
            drawId: d.drawId,
            gameCode: d.gameCode,
            drawNo: d.drawNo,
            plan: d.plan,
            status: settled ? 'settled' : 'cancelled',
            plannedAt: d.plannedAt,
            closedAt: d.closedAt,
            closeOfSales: {
              receipts: d.receipts,
              plays: d.plays,
              salesCents: d.salesCents,
              participationSha256: d.participationSha256,
              excluded: d.excluded,
              excludedSha256: d.excludedSha256,
              salesDigest: d.salesDigest,
            },
            balls: d.balls,
            winningNumbers: settled ? (Array.isArray(p.numbers) ? p.numbers.map(num) : []) : [],
            beacon: d.beacon,
            poolCents: num(p.poolCents),
            reserveCents: num(p.reserveCents),
            carryInCents: p.carryIn ?? {},
            categories:
              settled && Array.isArray(p.categories)
                ? p.categories.map((c: any) => ({
                    code: String(c.code),
                    prize: d.prizeKinds[String(c.code)] ?? null,
                    winners: num(c.winners),
                    amountEachCents: num(c.amountEachCents),
                    extraCentWinners: num(c.extraCentWinners),
                    totalCents: num(c.totalCents),
                    carryOutCents: num(c.carryOutCents),
                    retainedCents: num(c.retainedCents),
                  }))
                : [],
            refundCents: settled ? 0 : num(p.refundCents),
            cancelReason: settled ? null : String(p.reason ?? ''),
          },
        })
        draws.delete(d.drawId)
        break
      }
      default:
        out.push(...products.feed(r, p))
        break
    }
    return out
  }

  return { feed, lastSeq: () => lastSeq }
}

function stripActor(p: Record<string, any>): Record<string, unknown> {
  // Secrets never travel: a refused beacon keeps its round, a refused login its name; the credential hash is never journaled.
  const { actor: _actor, ...rest } = p
  return rest
}

/** The calendar day (YYYY-MM-DD) of a UTC instant on a zone's wall clock. */
export function dayIn(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(iso))
  const get = (t: string) => parts.find((x) => x.type === t)?.value ?? '00'
  return `${get('year')}-${get('month')}-${get('day')}`
}

/**
 * How a jurisdiction's tax base is computed from a day's or a month's figures: the profile's `taxBase` (shared/
 * profile.ts), gross gaming revenue when the profile says nothing. Each totals record names the basis it used.
 */
export type TaxBasis = 'gross-gaming-revenue' | 'stakes'

export function taxBaseCents(
  basis: TaxBasis,
  t: { stakesCents: number; refundsCents: number; prizesCents: number },
): number {
  return basis === 'stakes' ? t.stakesCents - t.refundsCents : t.stakesCents - t.refundsCents - t.prizesCents
}

interface TotalsFigures {
  events: number
  stakesCents: number
  refundsCents: number
  prizesCents: number
  grossGamingRevenueCents: number
  potIncreasesCents: number
  potDecreasesCents: number
  taxBasis: TaxBasis
  taxBaseCents: number
}

const emptyFigures = (taxBasis: TaxBasis): TotalsFigures => ({
  events: 0,
  stakesCents: 0,
  refundsCents: 0,
  prizesCents: 0,
  grossGamingRevenueCents: 0,
  potIncreasesCents: 0,
  potDecreasesCents: 0,
  taxBasis,
  taxBaseCents: 0,
})

/** The product of a game or draw record in the totals, and the instant its day is taken from. */
function totalsFact(r: {
  type: string
  at: string
  data: Record<string, any>
}): { product: string; at: string } | null {
  if (r.type === 'bingo.game') return { product: 'bingo', at: r.at }
  if (r.type === 'lotto.draw') return { product: 'lotto', at: r.at }
  // A lottery draw counts on the day it was settled, whichever record (settlement or a later update) is in force.
  // A cancelled one (LOT-21) on the day it was cancelled.
  if (r.type === 'lottery.draw')
    return { product: 'lottery', at: String(r.data.settledAt ?? r.data.cancellation?.at ?? r.at) }
  return null
}

/**
 * Daily totals per hall (chain) and product, computed from the control records themselves so that the checker
 * recomputes them from the same records: stakes (collected), refunds, prizes awarded (line, bingo and jackpots; a
 * lottery's prizes owed), pot increases and decreases (bingo), gross gaming revenue and the tax base. Records
 * replaced by a later one are left out by the caller. An instant game's sales, payouts and misprint refunds count on
 * the day each happened (its record's `salesByHour`, `payouts`, `refunds`).
 */
export function dailyTotals(
  records: ReadonlyArray<{ chain: string; hall: string | null; type: string; at: string; data: Record<string, any> }>,
  zoneOf: (chain: string) => string,
  basisOf: (chain: string) => TaxBasis = () => 'gross-gaming-revenue',
): Map<string, DerivedRecord> {
  const out = new Map<string, DerivedRecord>()
  for (const r of records) {
    if (r.type === 'instant.game') {
      // Issue 28: an instant game's sales, payouts and misprint refunds, each on the day it happened.
      for (const [day, f] of instantDays(r.data, (iso) => dayIn(iso, zoneOf(r.chain)))) {
        const key = `totals.daily:${r.chain}:instant:${day}`
        let t = out.get(key)
        if (!t) {
          t = {
            sourceKey: key,
            chain: r.chain,
            hall: r.hall,
            type: 'totals.daily',
            at: f.at,
            data: { day, product: 'instant', ...emptyFigures(basisOf(r.chain)) },
          }
          out.set(key, t)
        }
        const d = t.data as unknown as TotalsFigures
        d.events++
        d.stakesCents += f.stakesCents
        d.refundsCents += f.refundsCents
        d.prizesCents += f.prizesCents
        d.grossGamingRevenueCents = d.stakesCents - d.refundsCents - d.prizesCents
        d.taxBaseCents = taxBaseCents(d.taxBasis, d)
        if (f.at > t.at) t.at = f.at
      }
      continue
    }
    const fact = totalsFact(r)
    if (!fact) continue
    const { product } = fact
    const day = dayIn(fact.at, zoneOf(r.chain))
    const key = `totals.daily:${r.chain}:${product}:${day}`
    let t = out.get(key)
    if (!t) {
      t = {
        sourceKey: key,
        chain: r.chain,
        hall: r.hall,
        type: 'totals.daily',
        at: fact.at,
        data: { day, product, ...emptyFigures(basisOf(r.chain)) },
      }
      out.set(key, t)
    }
    const d = t.data as unknown as TotalsFigures
    d.events++
    if (r.type === 'bingo.game') {
      d.stakesCents += Number(r.data.collectedCents ?? 0)
      d.refundsCents += Number(r.data.refundCents ?? 0)
      for (const p of r.data.prizes ?? []) for (const w of p.winners ?? []) d.prizesCents += Number(w.amountCents ?? 0)
      for (const j of r.data.jackpots ?? []) d.prizesCents += Number(j.amountCents ?? 0)
      for (const m of r.data.potMovements ?? [])
        if (m.direction === 'increase') d.potIncreasesCents += Number(m.amountCents ?? 0)
        else d.potDecreasesCents += Number(m.amountCents ?? 0)
    } else if (r.type === 'lotto.draw') {
      d.stakesCents += Number(r.data.closeOfSales?.salesCents ?? 0)
      d.refundsCents += Number(r.data.refundCents ?? 0)
      for (const c of r.data.categories ?? []) d.prizesCents += Number(c.totalCents ?? 0)
    } else {
      d.stakesCents += Number(r.data.closeOfSales?.salesCents ?? 0)
      d.refundsCents += Number(r.data.refundCents ?? 0)
      d.prizesCents += Number(r.data.liabilityCents ?? 0)
    }
    d.grossGamingRevenueCents = d.stakesCents - d.refundsCents - d.prizesCents
    d.taxBaseCents = taxBaseCents(d.taxBasis, d)
    if (fact.at > t.at) t.at = fact.at
  }
  return out
}

/**
 * An `instant.game` record's figures by day (SCHEMA.md `totals.daily`): its sales by hour, its payouts by `paidAt`
 * and its misprint refunds by `at`, each put on the day `dayOf` gives. Pure.
 */
export function instantDays(
  data: Record<string, any>,
  dayOf: (iso: string) => string,
): Map<string, { stakesCents: number; prizesCents: number; refundsCents: number; at: string }> {
  const days = new Map<string, { stakesCents: number; prizesCents: number; refundsCents: number; at: string }>()
  const on = (iso: string) => {
    const day = dayOf(iso)
    let f = days.get(day)
    if (!f) days.set(day, (f = { stakesCents: 0, prizesCents: 0, refundsCents: 0, at: iso }))
    if (iso > f.at) f.at = iso
    return f
  }
  for (const [hour, h] of Object.entries((data.salesByHour ?? {}) as Record<string, { salesCents: number }>))
    on(`${hour}:00:00.000Z`).stakesCents += Number(h.salesCents ?? 0)
  for (const p of (data.payouts ?? []) as Array<{ paidAt: string; amountCents: number }>)
    on(String(p.paidAt)).prizesCents += Number(p.amountCents ?? 0)
  for (const x of (data.refunds ?? []) as Array<{ at: string; amountCents: number }>)
    on(String(x.at)).refundsCents += Number(x.amountCents ?? 0)
  return days
}

/**
 * Monthly totals per hall (chain) and product: the sum of the daily totals in force of that month (a daily total
 * replaced by a correction counts by its correction), so that the checker recomputes each month from the days.
 */
export function monthlyTotals(
  daily: ReadonlyArray<{ chain: string; hall: string | null; at: string; data: Record<string, any> }>,
): Map<string, DerivedRecord> {
  const out = new Map<string, DerivedRecord>()
  for (const r of daily) {
    const month = String(r.data.day).slice(0, 7)
    const key = `totals.monthly:${r.chain}:${r.data.product}:${month}`
    let t = out.get(key)
    if (!t) {
      t = {
        sourceKey: key,
        chain: r.chain,
        hall: r.hall,
        type: 'totals.monthly',
        at: r.at,
        data: { month, product: r.data.product, days: 0, ...emptyFigures(r.data.taxBasis ?? 'gross-gaming-revenue') },
      }
      out.set(key, t)
    }
    const d = t.data as unknown as TotalsFigures & { days: number }
    d.days++
    for (const f of [
      'events',
      'stakesCents',
      'refundsCents',
      'prizesCents',
      'grossGamingRevenueCents',
      'potIncreasesCents',
      'potDecreasesCents',
      'taxBaseCents',
    ] as const)
      d[f] += Number(r.data[f] ?? 0)
    if (r.at > t.at) t.at = r.at
  }
  return out
}

/** BNG-98 / CFG-32: the numbers drawn that win a fast bingo announced with these terms, when fewer than its picks. */
function fastTimesRequired(fast: unknown): number | null {
  const f = fast as { picks?: unknown; timesRequired?: unknown } | undefined
  const t = Number(f?.timesRequired)
  return f && Number.isInteger(t) && t >= 1 && t < Number(f.picks) ? t : null
}
