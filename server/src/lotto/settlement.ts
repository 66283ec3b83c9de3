/**
 * Lotto settlement (LNS-16 step 4; the remainder rule in rules.ts), the extracto (LNS-10, LOT-17) and the draw
 * minutes (LNS-17), with their PDFs.
 */
import { DomainError } from '../shared/errors.ts'
import type { LottoContext } from './context.ts'
import {
  countMatches,
  PackedPlays,
  parseStoredBoards,
  placeCarry,
  settleLotto,
  type CarryPlacement,
  type CategoryResult,
} from './rules.ts'
import { insertWins, previousLottoDraw } from './store.ts'

/** The stored result of a settled draw. */
export interface LottoResult {
  numbers: number[]
  salesCents: number
  poolCents: number
  reserveCents: number
  categories: CategoryResult[]
  /** LNS-4: money rolled over from the game's previous draw, by old code and the category that received it. */
  carriedIn?: CarryPlacement['moves']
  histogram: number[]
  plays: number
  receipts: number
  remainderRule: string
}

/** Stated in the extracto and the minutes (CFG-26, DESIGN.md "Money"). */
export const LOTTO_REMAINDER_RULE =
  'Fondo de premios = ventas x porcentaje, redondeado hacia abajo al centavo. Cada categoría de reparto recibe su porcentaje del fondo, redondeado hacia abajo, más lo acumulado del sorteo anterior en la misma categoría o en la que el plan del sorteo le asigne expresamente (LNS-4); si los porcentajes suman 100 %, los centavos sobrantes del redondeo van a la primera categoría de reparto. El importe de una categoría se divide en partes iguales entre sus jugadas ganadoras; los centavos que sobran se asignan, uno a cada una, a las primeras jugadas ganadoras por número de comprobante ascendente y, dentro del comprobante, por número de jugada. / Prize pool = sales x share, rounded down to the centavo. Each pari-mutuel category gets its share, rounded down, plus what the previous draw rolled over under the same category or the one the plan names for it (LNS-4); when the shares total 100 % the rounding leftover goes to the first pari-mutuel category. A category is split equally among its winning plays; leftover centavos go one each to the first winning plays by ascending receipt number, then play number.'

export function createSettlementUseCases(ctx: LottoContext) {
  const { db, zoneOf, slipsOfDraw, life } = ctx

  /**
   * Settles a drawn draw (LNS-16 step 4): every participating play is matched against the numbers drawn, the
   * winners of each category and their amounts are fixed (remainder rule: rules.ts) and stored, and the
   * result is journaled. The game's previous draw must be settled first (its unwon pari-mutuel money may roll over).
   */
  async function settle(drawId: string): Promise<LottoResult> {
    return life.settle(drawId, async (tx, row, plan, balls) => {
      const prev = await previousLottoDraw(tx, row.gameCode, row.drawNo)
      if (prev && prev.status !== 'settled')
        throw new DomainError('ILLEGAL_TRANSITION', `settle draw ${prev.drawNo} of ${row.gameCode} first`)
      const carryOut: Record<string, number> = {}
      if (prev?.result)
        for (const c of (JSON.parse(prev.result) as LottoResult).categories)
          if (c.carryOutCents > 0) carryOut[c.code] = c.carryOutCents
      // LNS-4: the carried money follows its category or the plan's explicit map; it is never dropped silently.
      const placed = placeCarry(carryOut, plan)
      if (placed.unplaced.length > 0) {
        throw new DomainError(
          'ROLLOVER_UNMAPPED',
          `draw ${prev!.drawNo} rolled over ${placed.unplaced.map((u) => `${u.cents} under ${u.code}`).join(', ')}, which no pari-mutuel category of this plan receives (LNS-4)`,
          { rule: 'LNS-4', unplaced: placed.unplaced },
        )
      }
      const carryIn = placed.carryIn
      const slips = await slipsOfDraw(tx, row, 'active')
      const packed = new PackedPlays(plan.range, Math.max(1, Number(row.playsCount ?? 1)))
      const playRef: Array<[number, number]> = []
      slips.forEach((s, si) =>
        parseStoredBoards(s.boards).forEach((b, bi) => {
          packed.push(b)
          playRef.push([si, bi])
        }),
      )
      const matches = countMatches(packed.masks, packed.words, packed.count, balls)
      const s = settleLotto({ plan, salesCents: Number(row.salesCents ?? 0), carryInCents: carryIn, matches })
      const rows: unknown[][] = []
      for (let k = 0; k < s.winners.play.length; k++) {
        const [si, bi] = playRef[s.winners.play[k]]
        const cat = s.categories[s.winners.category[k]]
        rows.push([
          drawId,
          slips[si].id,
          bi + 1,
          cat.code,
          cat.matches,
          s.winners.amountCents[k],
          cat.goods ? cat.goods.description : null,
        ])
      }
      await insertWins(tx, rows)
      const result: LottoResult = {
        numbers: [...balls].sort((a, b) => a - b),
        salesCents: s.salesCents,
        poolCents: s.poolCents,
        reserveCents: s.reserveCents,
        categories: s.categories,
        carriedIn: placed.moves,
        histogram: s.histogram,
        plays: packed.count,
        receipts: slips.length,
        remainderRule: LOTTO_REMAINDER_RULE,
      }
      return {
        result,
        record: {
          numbers: result.numbers,
          poolCents: s.poolCents,
          reserveCents: s.reserveCents,
          carryIn,
          carriedIn: placed.moves,
          categories: s.categories.map((c) => ({
            code: c.code,
            winners: c.winners,
            amountEachCents: c.amountEachCents,
            extraCentWinners: c.extraCentWinners,
            totalCents: c.totalCents,
            carryOutCents: c.carryOutCents,
            retainedCents: c.retainedCents,
          })),
          winningPlays: rows.length,
        },
      }
    })
  }

  // ------------------------------------------------------------------------------------------ extracto and minutes

  /** The extracto (official results, LNS-10, LOT-17): the only basis for paying prizes. */
  async function extracto(drawId: string) {
    const { row, plan, published } = await life.extractoOf(drawId)
    const result = JSON.parse(row.result!) as LottoResult
    return {
      ...published,
      product: 'lotto' as const,
      operator: plan.operator,
      gameName: plan.name,
      gameCode: plan.gameCode,
      issue: plan.issue,
      range: plan.range,
      picks: plan.picks,
      balls: JSON.parse(row.balls!) as number[],
      numbers: result.numbers,
      categories: result.categories.map((c) => ({
        code: c.code,
        name: c.name,
        matches: c.matches,
        type: c.type,
        winners: c.winners,
        amountEachCents: c.amountEachCents,
        extraCentWinners: c.extraCentWinners,
        totalCents: c.totalCents,
        carryInCents: c.carryInCents,
        carryOutCents: c.carryOutCents,
        goods: c.goods,
      })),
      // LNS-4: the money carried in from the previous draw, in total and by old category (the extracto states it).
      carriedInCents: result.categories.reduce((t, c) => t + c.carryInCents, 0),
      carriedIn: result.carriedIn ?? [],
      receipts: result.receipts,
      plays: result.plays,
      salesCents: result.salesCents,
      poolCents: result.poolCents,
      currency: plan.currency,
      regulationUrl: plan.regulationUrl,
      remainderRule: result.remainderRule,
      timeZone: zoneOf(plan),
    }
  }

  /** The draw minutes (acta, LNS-17, §7.11), derived from the plan, the draw row and the draw's journal records. */
  async function acta(drawId: string) {
    const { row, plan, events, cancellation, signatures, facts, incidents, journal, seed } =
      await life.minutesOf(drawId)
    const inactive = row.participationSha256 ? await slipsOfDraw(db, row, 'inactive') : []
    const result = row.result ? (JSON.parse(row.result) as LottoResult) : null
    return {
      title: 'Acta del sorteo',
      product: 'lotto' as const,
      drawId,
      status: row.status,
      timeZone: zoneOf(plan),
      background: {
        operator: plan.operator,
        gameName: plan.name,
        drawNumber: plan.drawNumber,
        issue: plan.issue,
        authorisationRef: plan.authorisationRef,
        range: plan.range,
        picks: plan.picks,
        drawCount: plan.drawCount,
        priceCents: plan.priceCents,
        currency: plan.currency,
        salesStartAt: plan.salesStartAt,
        salesCloseAt: plan.salesCloseAt,
        drawAt: plan.drawAt,
        drawPlace: plan.drawPlace,
        claimDeadline: plan.claimDeadline,
        drawMethod: plan.drawMethod,
        drawDevice: plan.drawDevice,
        commitment: row.commitment,
        budgetCents: plan.budgetCents,
        prizePoolBp: plan.prizePoolBp,
        categories: plan.categories,
      },
      beforeDraw: row.participationSha256
        ? {
            closedAt: row.closedAt,
            receiptsEnabled: Number(row.entriesCount),
            plays: Number(row.playsCount),
            salesCents: Number(row.salesCents),
            participationSha256: row.participationSha256,
            salesDigest: row.salesDigest,
            beaconRound: facts?.beaconRound ?? null,
            beacon: facts?.beacon ?? null,
            externalEntropy: facts?.externalEntropy ?? null,
            excluded: inactive.map((s) => ({
              receipt: s.id,
              status: s.status,
              reason: s.statusReason,
              refundCents: s.amountCents,
            })),
          }
        : null,
      draw: row.balls
        ? {
            balls: JSON.parse(row.balls) as number[],
            drawnAt: row.drawnAt,
            seed,
          }
        : null,
      results: result
        ? {
            numbers: result.numbers,
            poolCents: result.poolCents,
            reserveCents: result.reserveCents,
            categories: result.categories,
            histogram: result.histogram,
            remainderRule: result.remainderRule,
          }
        : null,
      incidents,
      // LNS-22 / LOT-21: an authorised withdrawal or renunciation, and what its slips are refunded.
      cancellation: cancellation && {
        at: cancellation.at,
        kind: cancellation.kind,
        authorisationRef: cancellation.authorisationRef,
        reason: cancellation.reason,
        slipsToRefund: Number(cancellation.payload.slipsToRefund),
        refundCents: Number(cancellation.payload.refundCents),
      },
      journal: { ...journal, events: events.map((e) => ({ seq: e.seq, at: e.at, type: e.type })) },
      signatures: signatures(),
    }
  }

  async function extractoPdf(drawId: string): Promise<Uint8Array> {
    const { renderLottoExtractoPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return renderLottoExtractoPdf(await extracto(drawId))
  }
  async function actaPdf(drawId: string): Promise<Uint8Array> {
    const { renderLottoActaPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return renderLottoActaPdf(await acta(drawId))
  }

  return { settle, extracto, acta, extractoPdf, actaPdf }
}
