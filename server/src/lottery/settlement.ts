/**
 * Settlement of a lottery or raffle draw (the winning numbers, approximations and terminations of rules.ts, and
 * what the tickets in play may claim), its extracto and its minutes, with their PDFs.
 */
import { describeRule, inRange, isRaffle, type LotteryContext, type LotteryResult } from './context.ts'
import type { LostStolenNotice } from './issue.ts'
import {
  exactWinners,
  formatNumber,
  lotteryLiabilityCents,
  lotteryPrizeGoods,
  lotteryWinningNumbers,
  pointsAwarded,
} from './rules.ts'
import type { Plan } from './context.ts'

/** PRM-2: what the extracto and the acta list of a points tómbola (null for any other draw). */
function pointsList(plan: Plan, result: LotteryResult) {
  if (!isRaffle(plan) || !plan.points || !result.points) return null
  return {
    basesRef: plan.points.basesRef,
    totalPoints: plan.points.totalPoints,
    tiers: plan.points.tiers,
    figures: plan.prizes.map((p) => ({ code: p.code, name: p.name, points: plan.points!.figures[p.code] })),
    tickets: result.points.map((a) => ({ ...a, number: formatNumber(a.number, plan.numbering) })),
  }
}

export type { LotteryResult } from './context.ts'

/** @param lostStolenNotice the public list of lost and stolen ranges (issue.ts), printed in the extracto. */
export function createSettlementUseCases(
  ctx: LotteryContext,
  lostStolenNotice: (drawId: string) => Promise<LostStolenNotice>,
) {
  const { db, ranges, ticketsInPlay, life } = ctx

  /** Settles: the winning numbers of every prize and what the tickets in play may claim. */
  async function settle(drawId: string): Promise<LotteryResult> {
    return life.settle(drawId, async (tx, row, plan, drawn) => {
      const out = await ranges(tx, drawId)
      let result: LotteryResult
      if (isRaffle(plan) && plan.points) {
        // PRM-2 (004 F.I "por suma de puntos hasta alcanzar una cifra determinada"): the one sealed draw gives the
        // tickets it extracts their tier's points, in order; every object stays on display until points take it.
        const points = pointsAwarded(plan.points, drawn)
        const prizes = plan.prizes.map((p) => ({
          code: p.code,
          name: p.name,
          rule: `cifra de ${plan.points!.figures[p.code]} puntos`,
          numbers: null,
          numbersCount: 0,
          amountPerTicketCents: 0,
          amountPerFractionCents: 0,
          ticketsInPlay: 0,
          liabilityCents: p.valueCents,
          goods: p.description,
        }))
        result = {
          winning: {},
          drawn,
          ticketsInPlay: row.entriesCount ?? 0,
          liabilityCents: prizes.reduce((s, p) => s + p.liabilityCents, 0),
          prizes,
          points,
        }
      } else if (isRaffle(plan)) {
        const winning: Record<string, number> = {}
        plan.prizes.forEach((p, i) => {
          winning[p.code] = drawn[i]
        })
        const sold = new Set(await ticketsInPlay(tx, row, plan))
        const prizes = plan.prizes.map((p, i) => {
          // drawAmong 'issued': a number nobody bought leaves its prize void (desierto), kept by the organiser.
          const inPlay = sold.has(formatNumber(drawn[i], plan.numbering)) ? 1 : 0
          return {
            code: p.code,
            name: p.name,
            rule: inPlay ? `boleto extraido n.º ${i + 1}` : `boleto extraido n.º ${i + 1}: no vendido, premio desierto`,
            numbers: [drawn[i]],
            numbersCount: 1,
            amountPerTicketCents: p.kind === 'cash' ? p.valueCents : 0,
            amountPerFractionCents: p.kind === 'cash' ? p.valueCents : 0,
            ticketsInPlay: inPlay,
            liabilityCents: inPlay * p.valueCents,
            goods: p.kind === 'cash' ? null : p.description,
          }
        })
        result = {
          winning,
          drawn,
          ticketsInPlay: row.entriesCount ?? 0,
          liabilityCents: prizes.reduce((s, p) => s + p.liabilityCents, 0),
          prizes,
        }
      } else {
        const winning = exactWinners(
          plan,
          drawn.map((n) => n - plan.numbering.from + 1),
        )
        const numbers = lotteryWinningNumbers(plan, winning)
        result = { winning, drawn, ticketsInPlay: row.entriesCount ?? 0, liabilityCents: 0, prizes: [] }
        for (const p of plan.prizes) {
          const nums = numbers.filter((w) => w.prizes.some((x) => x.code === p.code)).map((w) => w.number)
          let inPlay = 0
          for (const n of nums) for (let s = 1; s <= plan.series; s++) if (!inRange(out, n, s)) inPlay++
          const liability = inPlay * p.amountCents
          result.liabilityCents += liability
          result.prizes.push({
            code: p.code,
            name: p.name,
            rule: describeRule(p.rule, plan),
            numbers: nums.length <= 50 ? nums : null,
            numbersCount: nums.length,
            amountPerTicketCents: p.amountCents,
            amountPerFractionCents: p.amountCents / plan.fractions,
            ticketsInPlay: inPlay,
            liabilityCents: liability,
            // LOT-22: a prize in goods is handed over; its value stays in the liability (the budget) but no cash is due.
            goods: lotteryPrizeGoods(p),
          })
        }
      }
      return {
        result,
        record: {
          winning: result.winning,
          ...(result.points ? { points: result.points } : {}),
          liabilityCents: result.liabilityCents,
          prizes: result.prizes.map((p) => ({
            code: p.code,
            numbersCount: p.numbersCount,
            ticketsInPlay: p.ticketsInPlay,
            liabilityCents: p.liabilityCents,
          })),
        },
      }
    })
  }

  // ---- extracto and minutes

  async function extracto(drawId: string) {
    const { row, plan, published } = await life.extractoOf(drawId)
    const result = JSON.parse(row.result!) as LotteryResult
    const blocked = await lostStolenNotice(drawId)
    return {
      ...published,
      product: row.product,
      kind: plan.kind,
      institution: isRaffle(plan) ? plan.organiser : plan.institution,
      name: plan.name,
      issue: isRaffle(plan) ? null : plan.issue,
      numbering: plan.numbering,
      series: isRaffle(plan) ? 1 : plan.series,
      fractions: isRaffle(plan) ? 1 : plan.fractions,
      currency: plan.currency,
      winning: Object.fromEntries(Object.entries(result.winning).map(([k, v]) => [k, formatNumber(v, plan.numbering)])),
      prizes: result.prizes.map((p) => ({
        ...p,
        numbers: p.numbers?.map((n) => formatNumber(n, plan.numbering)) ?? null,
      })),
      ticketsInPlay: result.ticketsInPlay,
      // PRM-2: a points tómbola's drawn tickets with their points, in the order drawn, and each object's figure.
      points: pointsList(plan, result),
      lostStolen: blocked.ranges,
      // LOT-17: the extracto, the game rules and the Reglamento Específico are the basis for paying (as lotto's).
      regulationUrl: isRaffle(plan) ? null : plan.regulationUrl,
      timeZone: ctx.zoneOf(plan),
      // PRM-9: each draw of a successive plan is published on its own, saying which it is.
      successive:
        isRaffle(plan) && plan.round
          ? { index: plan.round.index, of: plan.round.of, winnersStayIn: plan.winnersStayIn ?? null }
          : null,
    }
  }

  async function acta(drawId: string) {
    const { row, plan, cancellation, signatures, facts, incidents, journal, seed } = await life.minutesOf(drawId)
    const rs = await ranges(db, drawId)
    return {
      title: 'Acta del sorteo',
      product: row.product,
      drawId,
      status: row.status,
      plan,
      timeZone: ctx.zoneOf(plan),
      liabilityCents: isRaffle(plan) ? plan.prizes.reduce((s, p) => s + p.valueCents, 0) : lotteryLiabilityCents(plan),
      ranges: rs,
      participation: row.participationSha256
        ? {
            closedAt: row.closedAt,
            ticketsInPlay: row.entriesCount ?? 0,
            sha256: row.participationSha256,
            salesDigest: row.salesDigest,
            beaconRound: facts?.beaconRound ?? null,
            beacon: facts?.beacon ?? null,
            externalEntropy: facts?.externalEntropy ?? null,
          }
        : null,
      drawn: row.balls ? (JSON.parse(row.balls) as number[]).map((n) => formatNumber(n, plan.numbering)) : [],
      drawnAt: row.drawnAt,
      seed,
      commitment: row.commitment,
      result: row.result ? (JSON.parse(row.result) as LotteryResult) : null,
      points: row.result ? pointsList(plan, JSON.parse(row.result) as LotteryResult) : null,
      incidents,
      // LOT-21 (as lotto's LNS-22): an authorised withdrawal or renunciation, and what is to be refunded.
      cancellation: cancellation && {
        at: cancellation.at,
        kind: cancellation.kind,
        authorisationRef: cancellation.authorisationRef,
        reason: cancellation.reason,
        toRefund: Number(cancellation.payload.ticketsToRefund ?? cancellation.payload.fractionsToRefund ?? 0),
        refundCents: Number(cancellation.payload.refundCents),
      },
      journal,
      signatures: signatures(isRaffle(plan) ? 'Organizador' : undefined),
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

  return { settle, extracto, acta, extractoPdf, actaPdf }
}
