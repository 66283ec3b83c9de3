/**
 * Lotto plans and draws: planning a draw (LOT-3, LOT-5), the close of sales with the participation file and the
 * excluded/annulled list (LNS-13, LNS-14, LNS-21), the draw itself (bolillo-draw-v2 RNG or balls from an
 * authorised blower, LNS-8, LNS-16), its proof and incidents. One transaction per use case.
 *
 * bolillo-draw-v2 (DESIGN.md): the seed comes from the health-tested source and is stored only sealed until the
 * draw has ended; the close fixes D, t and R; the draw waits for beacon round R (a relay, or a signature typed in
 * by staff), and no person supplies any entropy.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DomainError } from '../shared/errors.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Actor, beaconSummary } from '../shared/lottery-draw-v2.ts'
import type { LottoContext } from './context.ts'
import { writeHashed } from '../draws/lifecycle.ts'
import { createBallSetRegistry, type DrawSetNeeds } from '../draws/ball-sets.ts'
import { parseLottoPlan, unreceivedCarryCodes, type LottoPlan, type LottoPlanInput } from './plan.ts'
import { assertCatalogueGameAuthorised, checkSoftwareDraw } from '../shared/lottery-common.ts'
import { parseBoard, parseStoredBoards, recordManualBall } from './rules.ts'
import type { LottoResult } from './settlement.ts'
import {
  ensureReceiptCounter,
  excludeSlip,
  lastPlanOfGame,
  lottoDraws,
  previousLottoDraw,
  type Draw,
  type Slip,
  recordNotarialAct as storeNotarialAct,
} from './store.ts'

/** LNS-21: the notary's act listing a draw's excluded and annulled plays. */
export interface NotarialAct {
  notary: string
  actNumber: string
  actDate: string | null
  excludedSha256: string
  excluded: number
  recordedAt: string
  recordedBy: Actor | null
}

/** What anyone may see of a draw. The seed is revealed only once the numbers are drawn. */
export interface DrawView {
  drawId: string
  product: 'lotto'
  status: Draw['status']
  plan: LottoPlan
  commitment: string
  seed: string | null
  salesDigest: string | null
  /** Fixed at the close of sales: t (whole seconds) and the beacon round R the draw waits for. */
  close: { closedAt: string; beaconRound: number; beaconPublishedAt: string } | null
  /** The verified beacon round, once obtained or typed in. */
  beacon: ReturnType<typeof beaconSummary> | null
  participation: { sha256: string; receipts: number; plays: number; salesCents: number; closedAt: string } | null
  /** LNS-14: the first time the draw may start, the profile's hold after the participation file was published. */
  drawableFrom: string | null
  /** LNS-21: the notary's act listing the excluded and annulled plays, once recorded. */
  notarialAct: NotarialAct | null
  /** LNS-9 / LNS-16: the registered ball set and reserve set a manual draw is drawn with, fixed at its first ball. */
  ballSetId: string | null
  reserveSetId: string | null
  balls: number[]
  numbers: number[]
  result: LottoResult | null
  times: { createdAt: string; closedAt: string | null; drawnAt: string | null; settledAt: string | null }
  /** The clock the plan's times are read in (issue 29): the plan's zone, else the deployment's; null if neither. */
  timeZone: string | null
}

export function createDrawUseCases(ctx: LottoContext) {
  const { db, deps, now, drawScope, planOf, loadDraw, slipsOfDraw, forget, life } = ctx
  const ballSets = createBallSetRegistry(ctx)

  /** Plans a draw (LOT-3, LOT-5): the lotto's checks of its plan, then the lifecycle's plan step. */
  async function createDraw(input: LottoPlanInput): Promise<DrawView> {
    // LNS-12 / LNS-15: the range is bounded by the operator's licence record, never by what the plan says of itself.
    const licence = deps.licence ?? null
    if (!licence && deps.licensedRangeRequired) {
      throw new DomainError(
        'VALIDATION_FAILED',
        'no Licencia de Operaciones range is on record (BOLILLO_LOTTO_LICENCE): a lotto draw cannot be planned under this profile (LNS-12)',
        {
          rule: 'LNS-12',
          problems: [
            {
              field: 'licensedRange',
              rule: 'LNS-12',
              message: 'the operating licence record with its authorised range is missing',
            },
          ],
        },
      )
    }
    // GEN-3: a catalogue game is planned only under the authority's prior authorisation, where the profile names one.
    assertCatalogueGameAuthorised(deps.gameAuthority, input.authorisationRef, 'lotto')
    const plan = parseLottoPlan(
      licence
        ? { ...input, licensedRange: { min: licence.rangeMin, max: licence.rangeMax }, licenceRef: licence.ref }
        : { ...input, licenceRef: null },
    )
    // LOT-30: where the profile's lotteries pay cash only (Cantabria, 004 Loterías I), a lotto category pays no goods.
    const kinds = deps.prizeKinds
    if (kinds && !kinds.includes('goods')) {
      const problems = plan.categories.flatMap((c, i) =>
        c.prize.type === 'goods'
          ? [
              {
                field: `categories[${i}].prize`,
                rule: 'LOT-30',
                message: `this profile's lotteries pay ${kinds.join(', ')} prizes only, not goods`,
              },
            ]
          : [],
      )
      if (problems.length)
        throw new DomainError('VALIDATION_FAILED', 'invalid lotto plan: goods prizes are not allowed (LOT-30)', {
          problems,
        })
    }
    // RNG-26 / LNS-8: a software draw only under the profile or the licence's AJ authorisation of the RNG.
    const rngAuthorisation = checkSoftwareDraw(plan.drawMethod, deps.softwareDraw)
    const id = await life.plan(
      { product: 'lotto', idPrefix: 'ldr', plan, priceCents: plan.priceCents, rngAuthorisation },
      async (tx) => {
        // A slip may span consecutive draws of a game: they must share the ball set and the slip rules.
        const sibling = await lastPlanOfGame(tx, plan.gameCode)
        if (sibling) {
          const s = JSON.parse(sibling) as LottoPlan
          for (const f of ['range', 'picks', 'drawCount', 'currency'] as const) {
            if (s[f] !== plan[f])
              throw new DomainError('VALIDATION_FAILED', `draws of game ${plan.gameCode} must share ${f} (${s[f]})`, {
                problems: [{ field: f, rule: 'LNS-12', message: `differs from the game's other draws` }],
              })
          }
        }
        // LNS-4: the previous draw's unwon pari-mutuel money rolls over to this one; a plan whose categories could
        // not receive it (another code, and no explicit carryMap entry) is refused rather than losing the money.
        const prev = await previousLottoDraw(tx, plan.gameCode, plan.drawNumber)
        const lost = prev ? unreceivedCarryCodes(planOf(prev), plan) : []
        if (lost.length > 0) {
          throw new DomainError(
            'ROLLOVER_UNMAPPED',
            `draw ${prev!.drawNo} of ${plan.gameCode} rolls unwon money over under ${lost.join(', ')}: keep those pari-mutuel categories or map them in carryMap (LNS-4)`,
            {
              rule: 'LNS-4',
              problems: lost.map((code) => ({
                field: `carryMap.${code}`,
                rule: 'LNS-4',
                message: `rolled-over money of ${code} has no category to go to`,
              })),
            },
          )
        }
      },
      (tx) => ensureReceiptCounter(tx, plan.gameCode),
    )
    return getDraw(id)
  }

  /** The lifecycle's view of a draw (shared with the ticket lines), with what only lotto shows. */
  function toView(row: Draw): DrawView {
    const plan = planOf(row)
    const balls = row.balls ? (JSON.parse(row.balls) as number[]) : []
    const complete = balls.length === plan.drawCount
    return {
      ...life.viewOf(row, ctx.zoneOf(plan), (r) => ({ receipts: Number(r.entriesCount), plays: Number(r.playsCount) })),
      product: 'lotto',
      plan,
      drawableFrom: row.closedAt ? ctx.drawableFrom(row) : null,
      notarialAct: row.notarialAct ? (JSON.parse(row.notarialAct) as NotarialAct) : null,
      ballSetId: row.ballSetId,
      reserveSetId: row.reserveSetId,
      balls,
      numbers: complete ? [...balls].sort((a, b) => a - b) : [],
      result: row.result ? (JSON.parse(row.result) as LottoResult) : null,
    }
  }

  /**
   * LNS-21: records the notary's act that lists the draw's excluded and annulled plays (the excluded list published
   * at the close, whose SHA-256 the act is tied to), once, after the close of sales and before the draw. Journaled
   * with the person who recorded it.
   */
  async function recordNotarialAct(
    drawId: string,
    input: { notary: string; actNumber: string; actDate?: string },
    actor: Actor | null = null,
  ): Promise<DrawView> {
    const notary = input.notary?.trim() ?? ''
    const actNumber = input.actNumber?.trim() ?? ''
    const problems = [
      ...(notary ? [] : [{ field: 'notary', rule: 'LNS-21', message: 'the notary who drew up the act is required' }]),
      ...(actNumber
        ? []
        : [{ field: 'actNumber', rule: 'LNS-21', message: 'the number of the notarial act is required' }]),
      ...(input.actDate !== undefined && Number.isNaN(Date.parse(input.actDate))
        ? [{ field: 'actDate', rule: 'LNS-21', message: 'actDate must be an ISO 8601 time' }]
        : []),
    ]
    if (problems.length)
      throw new DomainError('VALIDATION_FAILED', 'a notarial act names its notary and its number (LNS-21)', {
        rule: 'LNS-21',
        problems,
      })
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      if (row.status !== 'closed')
        throw new DomainError(
          'ILLEGAL_TRANSITION',
          `draw ${drawId} is ${row.status}: the notarial act is recorded after the close of sales and before the draw (LNS-21)`,
          { rule: 'LNS-21' },
        )
      if (row.notarialAct)
        throw new DomainError('CONFLICT', `the notarial act of draw ${drawId} is already recorded`, { rule: 'LNS-21' })
      const excludedSha256 = createHash('sha256')
        .update(readFileSync(join(life.drawDir(row), 'excluded.csv')))
        .digest('hex')
      const excluded = (await slipsOfDraw(tx, row, 'inactive')).length
      const at = now()
      const act: NotarialAct = {
        notary,
        actNumber,
        actDate: input.actDate ?? null,
        excludedSha256,
        excluded,
        recordedAt: at,
        recordedBy: actor,
      }
      if (!(await storeNotarialAct(tx, drawId, JSON.stringify(act))))
        throw new DomainError('CONFLICT', `draw ${drawId} changed meanwhile`)
      await appendJournal(tx, {
        at,
        type: 'lotto.notarial_act_recorded',
        scope: drawScope(row),
        payload: { drawId, ...act, actor, rule: 'LNS-21' },
      })
    })
    forget(drawId)
    return getDraw(drawId)
  }

  async function getDraw(drawId: string): Promise<DrawView> {
    return toView(await loadDraw(db, drawId))
  }

  async function listDraws(gameCode?: string): Promise<DrawView[]> {
    return (await lottoDraws(db, gameCode)).map(toView)
  }

  // ------------------------------------------------------------------------------------------ close of sales

  /**
   * Closes the sales of a draw (LNS-13): from the plan's close time on (the server's clock), or earlier with a
   * recorded reason (the lifecycle's close-time rule, `earlyClose: 'with_reason'`). Immediately writes the participation file (every accepted play with its receipt number,
   * LNS-14) and the excluded/annulled list (LNS-21) to DATA_DIR; the lifecycle fixes D over the receipt numbers, t
   * and R and journals them with the files' SHA-256 before any ball is drawn. Nothing after this changes D: a slip
   * is annulled only while all its draws are open.
   */
  async function closeSales(drawId: string, input: { earlyReason?: string } = {}, actor: Actor | null = null) {
    return life.closeSales(
      drawId,
      actor,
      async (tx, row, plan, at, dir) => {
        // LNS-21: a registration that cannot be processed (numbers outside the range, wrong count) is excluded.
        const active = await slipsOfDraw(tx, row, 'active')
        const participating: Slip[] = []
        for (const s of active) {
          let reason: string | null = null
          try {
            const boards = parseStoredBoards(s.boards)
            if (boards.length !== s.boardCount) reason = 'board count differs from the registration'
            for (const b of boards) parseBoard(b, plan.range, plan.picks)
          } catch (e) {
            reason = (e as Error).message
          }
          if (reason) {
            await excludeSlip(tx, s.id, reason, at)
            await appendJournal(tx, {
              at,
              type: 'lotto.slip_excluded',
              scope: drawScope(row),
              payload: { receipt: s.id, reason, rule: 'LNS-21' },
            })
          } else participating.push(s)
        }
        const inactive = await slipsOfDraw(tx, row, 'inactive')
        let plays = 0
        const part = writeHashed(join(dir, 'participation.csv'), (out) => {
          out(`# Bolillo - archivo de participacion / participation file (LNS-13, LNS-14)\n`)
          out(`# sorteo ${plan.name} N.${plan.drawNumber} emision ${plan.issue} draw ${drawId}\n`)
          out(`# cierre de ventas / close of sales ${at}\n`)
          out('comprobante;jugada;numeros;automatica\n')
          for (const s of participating) {
            const boards = parseStoredBoards(s.boards)
            boards.forEach((b, i) => {
              out(
                `${s.id};${i + 1};${b.map((x) => String(x).padStart(2, '0')).join(' ')};${s.quickPicks[i] === '1' ? 'S' : 'N'}\n`,
              )
              plays++
            })
          }
          out(`# comprobantes habilitados / receipts enabled: ${participating.length}; jugadas / plays: ${plays}\n`)
        })
        const excludedRows = inactive.map((s) => ({
          receipt: s.id,
          status: s.status,
          reason: s.statusReason ?? '',
          at: s.statusAt,
          refundCents: s.amountCents,
        }))
        const excl = writeHashed(join(dir, 'excluded.csv'), (out) => {
          out(`# Bolillo - jugadas excluidas o anuladas / excluded or annulled plays (LNS-21) draw ${drawId}\n`)
          out('comprobante;estado;motivo;reembolso_centavos\n')
          for (const e of excludedRows)
            out(`${e.receipt};${e.status};${e.reason.replace(/[;\n]/g, ' ')};${e.refundCents}\n`)
        })
        const salesCents = participating.reduce((s, x) => s + x.boardCount * plan.priceCents, 0)
        const counts = { receipts: participating.length, plays, salesCents }
        return {
          serials: participating.map((s) => s.id),
          entries: participating.length,
          plays,
          salesCents,
          participationSha256: part.sha256,
          record: {
            ...counts,
            participationBytes: part.bytes,
            excludedSha256: excl.sha256,
            excluded: excludedRows.length,
          },
          tail: { rule: 'LNS-13' },
          answer: { ...counts, excludedSha256: excl.sha256, excluded: excludedRows },
        }
      },
      input.earlyReason ?? null,
    )
  }

  // ------------------------------------------------------------------------------------------ the draw

  /**
   * LNS-22 (as LOT-21, 002 §7.3.9 "desistimiento o renuncia"): with the AJ's prior authorisation a draw not yet
   * drawn is withdrawn or renounced. It takes no more sales, balls or settlement; every active slip covering it is
   * refunded the price of its boards for this draw, once, at a cashier against the slip's code (payouts.ts, out of
   * the open shift's drawer). Money rolled over into it passes on to the game's next draw (previousLottoDraw skips
   * cancelled draws). Journaled with the person, the authorisation and what is to be refunded.
   */
  async function cancel(
    drawId: string,
    input: { kind: 'withdrawal' | 'renunciation'; authorisationRef: string; reason: string },
    actor: Actor,
  ) {
    await life.cancel(drawId, input, actor, async (tx, row, plan) => {
      const slips = await slipsOfDraw(tx, row, 'active')
      return {
        slipsToRefund: slips.length,
        refundCents: slips.reduce((t, s) => t + plan.priceCents * Number(s.boardCount), 0),
      }
    })
    return getDraw(drawId)
  }

  /**
   * A ball read from an authorised blower or tómbola (LNS-8, LNS-16; its device checked by the lifecycle); the draw is
   * complete at `drawCount`.
   */
  async function enterBall(drawId: string, ball: number, deviceId: string | null): Promise<DrawView> {
    await life.enterValue(drawId, deviceId, async (tx, row, plan, drawn, device) => {
      const balls = recordManualBall(drawn, ball, plan.range, plan.drawCount)
      const complete = balls.length === plan.drawCount
      // LNS-9 / LNS-16: the draw is made with a registered set of the plan's range, with the range's reserve set on
      // hand; both are fixed on the draw row at its first ball and named in every ball's journal entry.
      const sets = await ballSets.drawSets(tx, row, setNeeds(plan.range))
      return {
        values: balls,
        complete,
        async record(at) {
          await appendJournal(tx, {
            at,
            type: 'lotto.ball_drawn',
            scope: drawScope(row),
            payload: {
              drawId,
              seq: balls.length,
              ball,
              source: 'manual',
              ...device,
              ...sets.journal,
            },
          })
          if (complete)
            await appendJournal(tx, {
              at,
              type: 'lotto.drawn',
              scope: drawScope(row),
              payload: {
                drawId,
                source: 'manual',
                ...device,
                ...sets.journal,
                balls,
                numbers: [...balls].sort((a, b) => a - b),
              },
            })
        },
      }
    })
    return getDraw(drawId)
  }

  /** LNS-9 / LNS-16: a lotto draw is drawn with a set of the plan's range, the range's reserve set on hand. */
  const setNeeds = (range: number): DrawSetNeeds => ({
    fit: { kind: 'range', ballCount: range },
    requireReserve: true,
    code: 'LOTTO_BALL_SET_REQUIRED',
    rule: 'LNS-9',
  })

  /**
   * LNS-9: mid-draw, the set in use is swapped for the reserve set (ball-sets.ts); the balls drawn so far stand.
   * A person of the draw's hall (or of the operator, for a draw held in no hall); lottery.admin at the route.
   */
  async function swapBallSet(drawId: string, reason: string, actor: Actor | null): Promise<DrawView> {
    await db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      await ballSets.swapToReserve(
        tx,
        row,
        {
          reason,
          hallId: plan.drawHallId ?? null,
          journalType: 'lotto.ball_set_swapped',
          scope: drawScope(row),
          needs: setNeeds(plan.range),
        },
        actor,
      )
    })
    return getDraw(drawId)
  }

  return {
    createDraw,
    getDraw,
    listDraws,
    closeSales,
    participationFile: life.participationFile,
    ...life.answeredWith(getDraw),
    enterBall,
    cancel,
    getProof: life.getProof,
    recordIncident: life.recordIncident,
    recordNotarialAct,
    swapBallSet,
  }
}
