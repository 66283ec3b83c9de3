/**
 * The issue of a numbered-ticket lottery or a raffle: planning (LOT-3, LOT-4, LOT-12, CFG-39, CFG-44), the draw as
 * anyone may see it, printing fractions for the print shop and the thermal layout (LOT-15, LOT-16), unsold tickets
 * returned, and ranges reported lost or stolen with their public notice (LST-1 to LST-7).
 */
import { DomainError } from '../shared/errors.ts'
import { assertCatalogueGameAuthorised } from '../shared/lottery-common.ts'
import {
  nextBusinessDay,
  AJ_LEGEND,
  checkDemoReferences,
  checkSoftwareDraw,
  territoryCovers,
  type PlanProblem,
} from '../shared/lottery-common.ts'
import { appendJournal } from '../shared/journal.ts'
import { sha256Hex } from '../shared/print-files.ts'
import { publicKeyId } from '../shared/ticket-code.ts'
import { printRunCsv, writePrintRunFiles } from './print-files.ts'
import type { Draw } from '../draws/store.ts'
import { artworkList } from './store/artwork.ts'
import { currentDesignVersion } from './store/reissue.ts'
import { hallExists, hallZoneRow } from './store/tombola.ts'
import { assertActsInHall } from '../access/acting-hall.ts'
import { currentScope } from '../shared/request-context.ts'
import { hallZoneOf } from '../shared/time-zone.ts'
import { getProfile } from '../shared/profile.ts'
import {
  blocksDesign,
  describeRule,
  fractionCodeId,
  inRange,
  isRaffle,
  issueSecretContext,
  type LotteryContext,
  type Plan,
  type TicketRange,
} from './context.ts'
import {
  formatNumber,
  fractionTicketId,
  numberCount,
  pointsTicketCount,
  parseLotteryPlan,
  parseRafflePlan,
  isPrm4Exempt,
  normalizeRafflePlan,
  successiveDrawPlans,
  winningTicketCount,
  type LotteryPlan,
  type LotteryPlanInput,
  type RafflePlanInput,
  type RafflePlan as RafflePlanType,
} from './rules.ts'
import type { LotteryResult } from './context.ts'
import {
  activeSellerDevice,
  activeSellers,
  sellerHallTerritory,
  distributeFractions,
  fractionsIn,
  insertFractions,
  insertPrintRun,
  insertRange,
  issueSecretOf,
  lastPrintRunNo,
  lotteryDrawIds,
  printRunsOf,
  raffleDrawsNumbered,
  registerCounts,
  reprintFractions,
  returnFractions,
  sellerNameOf,
  heldBySeller,
  setIssueSecret,
  type FractionBlock,
} from './store.ts'
import type { Sql } from '../db/database.ts'

/** Most fractions printed by one request (the print shop asks range by range). */
export const MAX_PRINT_FRACTIONS = 2_000

/** A block of the issue as a request names it: series and fractions default to all. */
export interface BlockInput {
  from: number
  to: number
  seriesFrom?: number
  seriesTo?: number
  fractionFrom?: number
  fractionTo?: number
}
/** The authenticated person or device, as journaled (http/context.ts actorOf). */
export type Actor = { kind: string; id: string; role: string; name?: string }

/** LST-1 / LST-2 / LST-5: the last day a report to the AJ is on time (shared with the instant games' reports). */
export { nextBusinessDay }

/** LST-3: the public notice of lost and stolen tickets of a draw. */
export type LostStolenNotice = Awaited<ReturnType<ReturnType<typeof createIssueUseCases>['lostStolenNotice']>>

/** "00041-01-01 T1 3FA2 9C1B 0D4E 7A11": the fraction, its print run and the run's tag from the code id. */
export function fractionControl(
  number: string,
  series: number,
  fraction: number,
  runNo: number,
  codeId: string,
): string {
  const tag = /-([0-9a-f]{16})$/.exec(codeId)?.[1] ?? ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${number}-${pad(series)}-${pad(fraction)} T${runNo} ${tag.toUpperCase().replace(/(.{4})(?=.)/g, '$1 ')}`.trim()
}

/** One fraction as printed: every front (LOT-15) and back (LOT-16) field of §7.8, with the signed code of its print run. */
export function fractionTicketData(
  ctx: LotteryContext,
  row: Draw,
  plan: LotteryPlan,
  number: number,
  series: number,
  fraction: number,
  runNo: number,
  secret: Buffer,
  designVersion = 1,
) {
  const id = fractionCodeId(fractionTicketId(row.id, number, series, fraction, plan.numbering), runNo, secret)
  return {
    code: ctx.sign(id),
    ticketId: id,
    /**
     * Issue 29 point 6: what the print shop prints in the NO RASPAR zone (LOT-15 (1), security keys): the fraction
     * as people name it, its print run and the run's tag, never the draw's record id.
     */
    control: fractionControl(formatNumber(number, plan.numbering), series, fraction, runNo, id),
    printRun: runNo,
    /** LST-7: the design printed (1 = the authorised one; a full reprint after a loss prints the next). */
    designVersion,
    institution: plan.institution,
    lotteryName: plan.name,
    number: formatNumber(number, plan.numbering),
    series,
    fraction,
    fractions: plan.fractions,
    fractionPriceCents: plan.ticketPriceCents / plan.fractions,
    ticketPriceCents: plan.ticketPriceCents,
    currency: plan.currency,
    drawNumber: plan.drawNumber,
    issue: plan.issue,
    drawAt: plan.drawAt,
    drawPlace: plan.drawPlace,
    securityMarks: plan.securityMarks,
    authority: plan.staff.authority,
    legend: AJ_LEGEND,
    prizes: plan.prizes.map((p) => ({
      name: p.name,
      rule: describeRule(p.rule, plan),
      amountPerTicketCents: p.amountCents,
      amountPerFractionCents: p.amountCents / plan.fractions,
    })),
    claimDeadline: plan.claimDeadline,
    securityWarnings: plan.securityWarnings,
    winningTickets: winningTicketCount(plan),
    paymentPlace: plan.paymentPlace,
    regulationUrl: plan.regulationUrl,
    authorisationRef: plan.authorisationRef,
    territory: plan.territory,
    timeZone: ctx.zoneOf(plan),
  }
}

/**
 * LOT-26: a fraction as the back office may see it: what is printed in the clear, the control cut to the fraction and
 * its run (the run's tag is part of the code's id), no code.
 */
export function proofOf({ code: _code, ticketId: _id, ...t }: ReturnType<typeof fractionTicketData>) {
  return { ...t, control: t.control.split(' ').slice(0, 2).join(' ') }
}

export function createIssueUseCases(ctx: LotteryContext) {
  const { db, deps, now, newId, scope, planOf, loadDraw, ranges, life } = ctx

  /** The lifecycle's plan step; a lottery's issue also gets its per-issue secret (issue 13 point 3). */
  async function create(product: 'lottery' | 'raffle', plan: Plan, rngAuthorisation?: string | null, within?: Sql) {
    const id = await planIn(product, plan, rngAuthorisation, within)
    return getDraw(id)
  }

  function planIn(product: 'lottery' | 'raffle', plan: Plan, rngAuthorisation?: string | null, within?: Sql) {
    return life.plan(
      {
        product,
        idPrefix: product === 'lottery' ? 'ltr' : 'rfl',
        plan,
        priceCents: plan.ticketPriceCents,
        rngAuthorisation,
      },
      undefined,
      async (tx, drawId) => {
        // The per-issue secret that keys the fraction codes, sealed at once like the seed.
        if (product === 'lottery')
          await setIssueSecret(
            tx,
            drawId,
            deps.sealer.seal(Buffer.from(deps.seedEntropy.randomBytes(32)), issueSecretContext(drawId)),
          )
      },
      within,
    )
  }

  /** Plans a numbered-ticket lottery draw (LOT-3, LOT-4, LOT-12). */
  async function createLottery(input: LotteryPlanInput) {
    // GEN-3: a catalogue game is planned only under the authority's prior authorisation, where the profile names one.
    assertCatalogueGameAuthorised(deps.gameAuthority, input.authorisationRef, 'lottery')
    const plan = parseLotteryPlan(licensed(input), { prizeKinds: deps.prizeKinds })
    // RNG-26 / LOT-18: a software draw only under the profile or the licence's AJ authorisation of the RNG.
    // RNG-26: the authorisation is journaled with the plan, as lotto's is (it was dropped for lotteries).
    return create('lottery', plan, checkSoftwareDraw(plan.drawMethod, deps.softwareDraw))
  }

  /**
   * LOT-12 / LOT-27: the issue's maximum is the licence record's, never what the plan says of itself; a plan may
   * declare a lower one (then it is bound by it), never a higher one. Where the profile requires the record and none
   * is installed, no lottery is planned.
   */
  function licensed(input: LotteryPlanInput): LotteryPlanInput {
    const licence = deps.licence ?? null
    if (!licence) {
      if (deps.licenceRequired)
        throw new DomainError(
          'VALIDATION_FAILED',
          'the operating licence record with its maximum issue is missing (BOLILLO_LOTTERY_LICENCE) (LOT-12)',
          {
            problems: [
              {
                field: 'licensedMaxTickets',
                rule: 'LOT-12',
                message: 'the operating licence record with its maximum issue is missing',
              },
            ],
          },
        )
      return { ...input, licenceRef: null }
    }
    // LOT-1: the lottery is organised by the public entity the AJ licensed; the plan names that entity, no other.
    if (deps.publicEntityRequired) {
      const holder = licence.holder?.trim()
      const same = (a: string, b: string) =>
        a.normalize('NFC').replace(/\s+/g, ' ').trim().toLocaleLowerCase('es') ===
        b.normalize('NFC').replace(/\s+/g, ' ').trim().toLocaleLowerCase('es')
      if (!holder || typeof input.institution !== 'string' || !same(input.institution, holder))
        throw new DomainError(
          'VALIDATION_FAILED',
          holder
            ? `the lottery licence ${licence.ref} was granted to ${holder}, not to ${String(input.institution)} (LOT-1)`
            : `the lottery licence record names no licensed public entity (BOLILLO_LOTTERY_LICENCE_HOLDER) (LOT-1)`,
          {
            problems: [
              {
                field: 'institution',
                rule: 'LOT-1',
                message: holder
                  ? `a numbered lottery is organised by the licensed public entity, ${holder}`
                  : 'the operating licence record names no licensed public entity',
              },
            ],
          },
        )
    }
    const declared = input.licensedMaxTickets
    return {
      ...input,
      licensedMaxTickets:
        Number.isSafeInteger(declared) && declared! > 0 ? Math.min(declared!, licence.maxTickets) : licence.maxTickets,
      licenceRef: licence.ref,
    }
  }

  /** Plans a raffle, tombola or promotional draw (PRM-1 to PRM-10). */
  async function createRaffle(input: RafflePlanInput) {
    // GEN-3: likewise a raffle or tómbola, unless the text exempts it (PRM-4) or it is a promotional draw, which is
    // communicated rather than authorised (PRM-8).
    const draft = normalizeRafflePlan(input)
    if (Array.isArray(draft.prizes) && draft.kind !== 'promotional' && !isPrm4Exempt(draft))
      assertCatalogueGameAuthorised(
        deps.gameAuthority,
        draft.authorisationRef,
        draft.kind === 'tombola' ? 'tombola' : 'raffle',
      )
    const plan = await inItsHallsZone(parseRafflePlan(input))
    // PRM-6: a points tómbola's objects are on display in a hall of the operator, whose cash desks hand them over.
    if (plan.points && !(await hallExists(db, plan.points.hallId)))
      throw new DomainError('VALIDATION_FAILED', 'invalid raffle plan', {
        problems: [{ field: 'points.hallId', rule: 'PRM-6', message: `no hall ${plan.points.hallId}` }],
      })
    // A person of another hall does not put objects on display in this one.
    if (plan.points) await assertActsInHall(db, plan.points.hallId, { resource: 'tombola' })
    if (!plan.successive) return create('raffle', plan)
    // PRM-9: each draw of a successive plan is a draw of its own (seed, commitment, close, proof, extracto, acta,
    // settlement and payouts), numbered one after another; the first sells the tickets of all of them.
    const plans = successiveDrawPlans(plan)
    const last = plan.drawNumber + plans.length - 1
    // All the draws or none: one transaction, the numbers checked in it.
    const firstId = await db.transaction(async (tx) => {
      const taken = await raffleDrawsNumbered(tx, plan.gameCode, plan.drawNumber, last)
      if (taken.length > 0)
        throw new DomainError('VALIDATION_FAILED', 'invalid raffle plan', {
          problems: [
            {
              field: 'drawNumber',
              rule: 'PRM-9',
              message: `the ${plans.length} draws take numbers ${plan.drawNumber} to ${last} of ${plan.gameCode}; ${taken.map((d) => d.drawNo).join(', ')} already exist`,
            },
          ],
        })
      const first = await planIn('raffle', plans[0], undefined, tx)
      for (const p of plans.slice(1))
        await planIn('raffle', { ...p, round: { ...p.round!, firstDrawId: first } }, undefined, tx)
      return first
    })
    return getDraw(firstId)
  }

  /**
   * Issue 29: a raffle's or tómbola's times are typed on its hall's clock (the back office's fields name that hall's
   * zone) and are listed on it. A plan that names no zone takes the zone of the hall it is held in: a points
   * tómbola's hall (PRM-6), else the hall of the station or person planning it (one hall only; someone of every hall
   * at no station names the zone, or the operator profile's applies). Decided from the hall, not the browser.
   */
  async function inItsHallsZone<P extends { timeZone?: string | null; points?: { hallId: string } | null }>(
    plan: P,
  ): Promise<P> {
    if (plan.timeZone) return plan
    const scope = currentScope()
    const hallId =
      plan.points?.hallId ??
      scope?.deviceHall ??
      (scope && scope.halls !== '*' && scope.halls.length === 1 ? scope.halls[0] : null)
    if (!hallId) return plan
    const hall = await hallZoneRow(db, hallId)
    if (!hall) return plan
    return { ...plan, timeZone: hallZoneOf(hall.settings, getProfile(hall.profile_id)?.timeZone ?? 'UTC') }
  }

  /** The lifecycle's view of a draw (shared with lotto), with what only a ticket line shows. */
  async function getDraw(drawId: string) {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    const drawn = row.balls ? (JSON.parse(row.balls) as number[]) : []
    return {
      ...life.viewOf(row, ctx.zoneOf(plan), (r) => ({ ticketsInPlay: Number(r.entriesCount) })),
      plan,
      drawn,
      /** LOT-18 / LNS-9: the digit ball set a manual draw is read from and the reserve on hand, fixed at its first number. */
      ballSetId: row.ballSetId,
      reserveSetId: row.reserveSetId,
      result: row.result ? (JSON.parse(row.result) as LotteryResult) : null,
      ticketsIssued: isRaffle(plan) ? numberCount(plan.numbering) : numberCount(plan.numbering) * plan.series,
      winningTickets: isRaffle(plan)
        ? plan.points
          ? pointsTicketCount(plan.points)
          : plan.prizes.length
        : winningTicketCount(plan),
      // PRM-9: every draw of a successive plan, in order, with where each stands.
      ...(isRaffle(plan) && plan.round
        ? {
            successiveDraws: (await ctx.successiveDraws(db, row)).map((d) => ({
              drawId: d.id,
              index: (planOf(d) as RafflePlanType).round!.index,
              drawAt: d.drawAt,
              status: d.status,
            })),
          }
        : {}),
    }
  }

  async function listDraws(product?: 'lottery' | 'raffle') {
    return Promise.all((await lotteryDrawIds(db, product)).map((id) => getDraw(id)))
  }

  // ------------------------------------------------------------------------------------------ printing (lottery)

  const ticketData = (
    row: Draw,
    plan: LotteryPlan,
    number: number,
    series: number,
    fraction: number,
    runNo: number,
    secret: Buffer,
    designVersion = 1,
  ) => fractionTicketData(ctx, row, plan, number, series, fraction, runNo, secret, designVersion)

  async function lotteryDraw(tx: Sql, drawId: string) {
    const row = await loadDraw(tx, drawId)
    const plan = planOf(row)
    if (isRaffle(plan))
      throw new DomainError('VALIDATION_FAILED', `${drawId} is a ${plan.kind}, not a numbered-ticket lottery`)
    return { row, plan }
  }

  /** A block of the issue from a request, checked against the plan. */
  function blockOf(plan: LotteryPlan, input: BlockInput): FractionBlock {
    const b = {
      from: input.from,
      to: input.to,
      seriesFrom: input.seriesFrom ?? 1,
      seriesTo: input.seriesTo ?? plan.series,
      fractionFrom: input.fractionFrom ?? 1,
      fractionTo: input.fractionTo ?? plan.fractions,
    }
    const ok =
      [b.from, b.to, b.seriesFrom, b.seriesTo, b.fractionFrom, b.fractionTo].every(Number.isInteger) &&
      b.from >= plan.numbering.from &&
      b.to <= plan.numbering.to &&
      b.from <= b.to &&
      b.seriesFrom >= 1 &&
      b.seriesTo <= plan.series &&
      b.seriesFrom <= b.seriesTo &&
      b.fractionFrom >= 1 &&
      b.fractionTo <= plan.fractions &&
      b.fractionFrom <= b.fractionTo
    if (!ok)
      throw new DomainError(
        'VALIDATION_FAILED',
        `the range must lie in ${plan.numbering.from}..${plan.numbering.to}, series 1..${plan.series}, fractions 1..${plan.fractions}`,
      )
    return b
  }

  /**
   * A print run (issue 13 point 3, LOT-12, LOT-26): the only way a fraction's signed code leaves the server, asked by
   * the lottery administration before the close of sales and written for the secure printer alone (print-files.ts);
   * the answer and the journal carry counts, ranges, the run number and the file's SHA-256, never a code (a director
   * holding the codes could cash a distributed fraction before its holder). Every fraction printed is entered in the
   * issue register under this run; a fraction printed before is printed again only with a reason (a reprint, LST-1 (a), LST-4):
   * an undistributed fraction's earlier code is void from then on, a sold (distributed) one keeps its paper valid
   * and its reprint waits for the exchange (exchange.ts). Lost or stolen numbering is not printed again under the
   * design it was lost under (LST-1 (a), LST-7); a returned fraction is not reprinted. The code's id carries a tag
   * keyed by the sealed per-issue secret, so nobody without it (not the database, not the signing key alone) can make a payable code for a fraction.
   */
  async function printRun(
    drawId: string,
    input: BlockInput & { reason?: string },
    actor: Actor,
    { sheets = false }: { sheets?: boolean } = {},
  ) {
    const run = await recordPrintRun(drawId, input, actor)
    // After the commit: the files, the sheet's rendering and the artwork read hold no transaction.
    const art = sheets ? await db.transaction((tx) => artworkList(tx)) : []
    const artwork = {
      ajLogo: art.find((a) => a.kind === 'aj-logo')?.png,
      maeSignature: art.find((a) => a.kind === 'mae-signature')?.png,
    }
    const { renderLotteryTicketSheetPdf } = await import('../../../printer/src/lottery-pdf.ts')
    const written = writePrintRunFiles({
      printShopDir: deps.printShopDir ?? `${deps.dataDir}-print-shop`,
      dataDir: deps.dataDir,
      drawId,
      runNo: run.runNo,
      csv: run.csv,
      // Like an instant batch's sheets, the print-ready sheet (QR of every code) only when sheets are asked for:
      // rendering a thousand QR codes takes minutes; the codes file is enough to print from.
      sheetPdf: sheets ? await renderLotteryTicketSheetPdf(run.tickets, artwork) : null,
      manifest: { drawId, runId: run.runId, ...run.answer, printedAt: run.at },
      operatorKey: deps.keys.privateKey,
      operatorKeyId: publicKeyId(deps.keys.publicKey),
    })
    const csvFile = written.files[0]
    const answer = {
      runId: run.runId,
      ...run.answer,
      /** What the print shop is handed: the folder under its outbox, the codes file's digest, the signed manifest's. */
      printFile: { folder: written.folder, name: csvFile.name, bytes: csvFile.bytes, sha256: csvFile.sha256 },
      files: written.files,
      manifestSha256: written.manifestSha256,
    }
    return { answer, proofs: run.tickets.map(proofOf), artwork }
  }

  /** The run in the issue register and the journal, in one transaction; the codes stay in memory for the files. */
  async function recordPrintRun(drawId: string, input: BlockInput & { reason?: string }, actor: Actor) {
    return db.transaction(async (tx) => {
      const { row, plan } = await lotteryDraw(tx, drawId)
      if (row.status !== 'open')
        throw new DomainError(
          'SALES_CLOSED',
          `fractions are printed before the close of sales; draw ${drawId} is ${row.status} (LOT-12)`,
          { rule: 'LOT-12' },
        )
      const b = blockOf(plan, { ...input, fractionFrom: 1, fractionTo: plan.fractions })
      const count = (b.to - b.from + 1) * (b.seriesTo - b.seriesFrom + 1) * plan.fractions
      if (count > MAX_PRINT_FRACTIONS)
        throw new DomainError(
          'VALIDATION_FAILED',
          `${count} fractions asked; print at most ${MAX_PRINT_FRACTIONS} per request`,
        )
      const existing = await fractionsIn(tx, drawId, b)
      const reason = input.reason?.trim() || null
      if (existing.length > 0 && !reason) {
        throw new DomainError(
          'CONFLICT',
          `${existing.length} fractions of this range are already printed: a reprint needs its reason, and voids their earlier codes (LST-1, LST-4)`,
          { rule: 'LST-1', alreadyPrinted: existing.length },
        )
      }
      const secret = await issueSecret(tx, row.id)
      const runNo = (await lastPrintRunNo(tx, drawId)) + 1
      // LST-1 (a): numbering lost under the current design is never printed again under it; after a full reprint
      // with a new design (recordReissue) the whole authorised numbering prints under the new one.
      const design = await currentDesignVersion(tx, drawId)
      const blocked = (await ranges(tx, drawId, ['lost', 'stolen'])).filter((r) => blocksDesign(r, design))
      const known = new Map(existing.map((f) => [`${f.number}-${f.series}-${f.fraction}`, f]))
      const fresh: unknown[][] = []
      const tickets: Array<ReturnType<typeof ticketData> & { forExchange?: true }> = []
      let reprinted = 0
      for (let s = b.seriesFrom; s <= b.seriesTo; s++)
        for (let n = b.from; n <= b.to; n++) {
          if (inRange(blocked, n, s)) continue
          for (let f = 1; f <= plan.fractions; f++) {
            const was = known.get(`${n}-${s}-${f}`)
            if (was?.status === 'returned') continue
            if (was) reprinted++
            else fresh.push([drawId, n, s, f, runNo, 'printed'])
            const t = ticketData(row, plan, n, s, f, runNo, secret, design)
            // LST-4: a sold fraction's reprint goes to the exchange desk, not to a seller; its sold paper stays valid.
            tickets.push(was?.status === 'distributed' ? { ...t, forExchange: true } : t)
          }
        }
      if (tickets.length === 0)
        throw new DomainError(
          'CONFLICT',
          'nothing to print in this range: it is reported lost or stolen, or returned',
          { rule: 'LST-1' },
        )
      if (fresh.length) await insertFractions(tx, fresh)
      if (reprinted) await reprintFractions(tx, drawId, b, runNo)
      const at = now()
      const runId = newId('lpr')
      await insertPrintRun(tx, {
        id: runId,
        drawId,
        runNo,
        from: b.from,
        to: b.to,
        seriesFrom: b.seriesFrom,
        seriesTo: b.seriesTo,
        fractions: tickets.length,
        reprinted,
        reason,
        actorJson: JSON.stringify(actor),
        createdAt: at,
        designVersion: design,
      })
      const csv = printRunCsv(tickets)
      const answer = {
        runNo,
        designVersion: design,
        from: b.from,
        to: b.to,
        seriesFrom: b.seriesFrom,
        seriesTo: b.seriesTo,
        fractionsPerTicket: plan.fractions,
        printed: tickets.length,
        reprinted,
        forExchange: tickets.filter((t) => t.forExchange).length,
      }
      // The journal names the run, its counts and the print file's digest, never a code.
      await appendJournal(tx, {
        at,
        type: 'lottery.print_run',
        scope: scope(row),
        payload: {
          drawId,
          runId,
          runNo,
          from: b.from,
          to: b.to,
          seriesFrom: b.seriesFrom,
          seriesTo: b.seriesTo,
          fractions: tickets.length,
          reprinted,
          reason,
          designVersion: design,
          forExchange: tickets.filter((t) => t.forExchange).length,
          printFileSha256: sha256Hex(Buffer.from(csv, 'latin1')),
          actor,
          rule: reprinted ? 'LST-1' : 'LOT-12',
        },
      })
      return { runId, runNo, at, answer, tickets, csv }
    })
  }

  /**
   * The print run for the back office as a PDF (LOT-26): the sheet as the fractions show in the clear (number,
   * series, fraction, run, texts), without the code's QR and without the run's tag; the secure printer's file set
   * holds the sheet with the codes.
   */
  async function printRunPdf(
    drawId: string,
    input: BlockInput & { reason?: string },
    actor: Actor,
  ): Promise<{ runNo: number; pdf: Uint8Array; printFileSha256: string }> {
    const run = await printRun(drawId, input, actor, { sheets: true })
    const { renderLotteryTicketSheetPdf } = await import('../../../printer/src/lottery-pdf.ts')
    return {
      runNo: run.answer.runNo,
      printFileSha256: run.answer.printFile.sha256,
      pdf: await renderLotteryTicketSheetPdf(run.proofs, run.artwork),
    }
  }

  /** The per-issue secret (sealed in the draw row), made on the first print run of a draw planned without one. */
  async function issueSecret(tx: Sql, drawId: string): Promise<Buffer> {
    const sealed = await issueSecretOf(tx, drawId)
    if (sealed) return deps.sealer.open(sealed, issueSecretContext(drawId))
    const secret = Buffer.from(deps.seedEntropy.randomBytes(32))
    if (!(await setIssueSecret(tx, drawId, deps.sealer.seal(secret, issueSecretContext(drawId)))))
      throw new DomainError('CONFLICT', 'the issue secret was set meanwhile; print again')
    return secret
  }

  /**
   * Distribution (issue 13 point 3): printed fractions handed to a seller, an enrolled kiosk or cashier station, before
   * the close of sales. Only distributed fractions can become payable; each goes to one seller.
   */
  async function distribute(drawId: string, input: BlockInput & { sellerId: string }, actor: Actor) {
    return db.transaction(async (tx) => {
      const { row, plan } = await lotteryDraw(tx, drawId)
      if (row.status !== 'open')
        throw new DomainError(
          'SALES_CLOSED',
          `fractions are distributed before the close of sales; draw ${drawId} is ${row.status}`,
        )
      // Issue 24 point 4: fractions of an issue planned under a demo reference reach no seller outside the demo.
      checkDemoReferences(plan, deps.softwareDraw)
      const seller = await activeSellerDevice(tx, input.sellerId)
      if (!seller)
        throw new DomainError('NOT_FOUND', `no enrolled kiosk or cashier station ${input.sellerId}`, {
          sellerId: input.sellerId,
        })
      // LOT-28: a regional (or territory-limited popular) lottery reaches only sellers of halls inside its territory.
      const territory = isRaffle(plan) ? null : plan.territory
      if (territory) {
        const at = await sellerHallTerritory(tx, seller.id)
        if (!territoryCovers(territory, at.territory)) {
          throw new DomainError(
            'OUTSIDE_TERRITORY',
            `${seller.name} is in a hall ${at.territory ? `at ${at.territory}` : 'that has no registered territory'}, outside this lottery's territory ${territory} (LOT-28)`,
            { rule: 'LOT-28', territory, sellerTerritory: at.territory },
          )
        }
      }
      const b = blockOf(plan, input)
      const inBlock = await fractionsIn(tx, drawId, b)
      const wanted = (b.to - b.from + 1) * (b.seriesTo - b.seriesFrom + 1) * (b.fractionTo - b.fractionFrom + 1)
      const notPrinted = wanted - inBlock.length
      const taken = inBlock.filter((f) => f.status !== 'printed')
      if (notPrinted > 0 || taken.length > 0) {
        throw new DomainError(
          'CONFLICT',
          `only printed, undistributed fractions are distributed: ${notPrinted} of this range are not printed, ${taken.length} are already distributed or returned`,
          { notPrinted, taken: taken.length },
        )
      }
      const at = now()
      const n = await distributeFractions(tx, drawId, b, { id: seller.id, name: seller.name }, at)
      await appendJournal(tx, {
        at,
        type: 'lottery.fractions_distributed',
        scope: scope(row),
        payload: { drawId, ...b, fractions: n, sellerId: seller.id, sellerName: seller.name, actor, rule: 'LOT-12' },
      })
      return {
        drawId,
        ...b,
        fractions: n,
        seller: { id: seller.id, name: seller.name, kind: seller.kind },
        distributedAt: at,
      }
    })
  }

  /** Issue 29 point 8: the stations a range can be distributed to (enrolled kiosks and cashier stations), by name. */
  async function sellers() {
    return { sellers: await activeSellers(db) }
  }

  /**
   * The issue register (issue 13 point 3): print runs, and by seller the fractions distributed, returned and sold
   * (distributed and not returned: what the seller owes at the fraction price), with the undistributed stock.
   */
  async function register(drawId: string) {
    const { row, plan } = await lotteryDraw(db, drawId)
    const runs = await printRunsOf(db, drawId)
    const counts = await registerCounts(db, drawId)
    const fractionPriceCents = plan.ticketPriceCents / plan.fractions
    const sellers = new Map<
      string,
      {
        sellerId: string
        sellerName: string
        distributed: number
        returned: number
        sold: number
        amountDueCents: number
      }
    >()
    let printed = 0
    let undistributed = 0
    let returnedUndistributed = 0
    for (const c of counts) {
      printed += c.fractions
      if (!c.sellerId) {
        if (c.status === 'returned') returnedUndistributed += c.fractions
        else undistributed += c.fractions
        continue
      }
      const s = sellers.get(c.sellerId) ?? {
        sellerId: c.sellerId,
        sellerName: c.sellerName ?? c.sellerId,
        distributed: 0,
        returned: 0,
        sold: 0,
        amountDueCents: 0,
      }
      s.distributed += c.fractions
      if (c.status === 'returned') s.returned += c.fractions
      s.sold = s.distributed - s.returned
      s.amountDueCents = s.sold * fractionPriceCents
      sellers.set(c.sellerId, s)
    }
    // Issue 29 point 8: the ranges each seller holds now, so a return names what is in the seller's hands.
    // Consecutive numbers of a series with the same count of fractions held make one run (`each` per number).
    const held = new Map<string, Array<{ series: number; from: number; to: number; each: number; fractions: number }>>()
    for (const h of await heldBySeller(db, drawId)) {
      const runs = held.get(h.sellerId) ?? []
      const last = runs.at(-1)
      if (last && last.series === h.series && last.to + 1 === h.number && last.each === h.fractions) {
        last.to = h.number
        last.fractions += h.fractions
      } else runs.push({ series: h.series, from: h.number, to: h.number, each: h.fractions, fractions: h.fractions })
      held.set(h.sellerId, runs)
    }
    const list = [...sellers.values()]
      .map((s) => ({ ...s, held: held.get(s.sellerId) ?? [] }))
      .sort((a, b) => a.sellerName.localeCompare(b.sellerName, 'es'))
    return {
      drawId,
      status: row.status,
      numbering: plan.numbering,
      currency: plan.currency,
      fractionPriceCents,
      fractionsPerTicket: plan.fractions,
      issue: {
        tickets: numberCount(plan.numbering) * plan.series,
        fractions: numberCount(plan.numbering) * plan.series * plan.fractions,
        printed,
        undistributed,
        returnedUndistributed,
      },
      printRuns: runs.map((r) => ({
        runId: r.id,
        runNo: r.runNo,
        from: r.from,
        to: r.to,
        seriesFrom: r.seriesFrom,
        seriesTo: r.seriesTo,
        fractions: r.fractions,
        reprinted: r.reprinted,
        reason: r.reason,
        designVersion: r.designVersion,
        by: JSON.parse(r.actorJson),
        at: r.createdAt,
      })),
      sellers: list,
      totals: {
        distributed: list.reduce((s, x) => s + x.distributed, 0),
        returned: list.reduce((s, x) => s + x.returned, 0),
        sold: list.reduce((s, x) => s + x.sold, 0),
        amountDueCents: list.reduce((s, x) => s + x.amountDueCents, 0),
      },
    }
  }

  // ------------------------------------------------------------------------------------------ returns, lost and stolen

  /**
   * Unsold fractions returned by sellers before the close of sales (LOT-12, issue 13 point 3): the register marks them
   * returned, so they are never payable. Whole tickets returned (every fraction) also take no part in the draw.
   * With `sellerId`, only that seller's fractions are marked.
   */
  async function recordReturn(drawId: string, input: BlockInput & { sellerId?: string; note?: string }, actor?: Actor) {
    return db.transaction(async (tx) => {
      const row = await loadDraw(tx, drawId)
      const plan = planOf(row)
      if (row.status !== 'open')
        throw new DomainError(
          'RETURN_AFTER_CLOSE',
          `unsold tickets are returned before the close of sales; draw ${drawId} is ${row.status} (LOT-12)`,
          { rule: 'LOT-12', status: row.status },
        )
      const whole =
        isRaffle(plan) || ((input.fractionFrom ?? 1) === 1 && (input.fractionTo ?? plan.fractions) === plan.fractions)
      // Issue 29 point 8: the register decides what a seller holds, so a return never reaches fractions of another
      // seller, fractions returned already, or (without a seller named) fractions out with any seller.
      const b = isRaffle(plan) ? null : blockOf(plan, input)
      if (b) await assertHeld(tx, drawId, b, input.sellerId)
      const at = now()
      let range: TicketRange | null = null
      if (whole) range = await addRangeIn(tx, row, 'returned', input, { note: input.note ?? '' })
      if (!b) return { ...range!, fractionsReturned: 0 }
      const n = await returnFractions(tx, drawId, b, at, input.sellerId)
      await appendJournal(tx, {
        at,
        type: 'lottery.fractions_returned',
        scope: scope(row),
        payload: {
          drawId,
          ...b,
          fractions: n,
          sellerId: input.sellerId ?? null,
          sellerName: input.sellerId ? ((await sellerNameOf(tx, drawId, input.sellerId)) ?? null) : null,
          wholeTickets: whole,
          note: input.note ?? '',
          actor: actor ?? null,
          rule: 'LOT-12',
        },
      })
      return {
        ...(range ?? {
          kind: 'returned',
          from: b.from,
          to: b.to,
          seriesFrom: b.seriesFrom,
          seriesTo: b.seriesTo,
          quantity: 0,
          afterClose: false,
        }),
        fractionFrom: b.fractionFrom,
        fractionTo: b.fractionTo,
        fractionsReturned: n,
      }
    })
  }

  /**
   * LOT-12 / issue 29 point 8: with a seller named, every fraction of the block is distributed to that seller and not
   * returned; without one, none of it is out with a seller (the operator's own printed or unprinted stock).
   */
  async function assertHeld(tx: Sql, drawId: string, b: FractionBlock, sellerId: string | undefined) {
    const inBlock = await fractionsIn(tx, drawId, b)
    const wanted = (b.to - b.from + 1) * (b.seriesTo - b.seriesFrom + 1) * (b.fractionTo - b.fractionFrom + 1)
    if (!sellerId) {
      const out = inBlock.filter((f) => f.status === 'distributed').length
      if (out > 0)
        throw new DomainError(
          'RETURN_SELLER_REQUIRED',
          `${out} fractions of this range are distributed to sellers: name the seller who returns them (LOT-12)`,
          { rule: 'LOT-12', held: out, wanted },
        )
      return
    }
    const held = inBlock.filter((f) => f.status === 'distributed' && f.sellerId === sellerId).length
    if (held < wanted) {
      const seller = (await sellerNameOf(tx, drawId, sellerId)) ?? '?'
      throw new DomainError(
        'RETURN_NOT_HELD',
        `${seller} holds ${held} of the ${wanted} fractions of this range not yet returned (LOT-12)`,
        { rule: 'LOT-12', seller, held, wanted },
      )
    }
  }

  /**
   * Reports a range lost or stolen (LST-1, LST-2, LST-5, §7.14): blocked from payment, refund and exchange
   * (LST-4, LST-5) and listed publicly (LST-3). A theft needs the police or prosecutor complaint record. A report
   * to the AJ later than the next business day (LST-1: before distribution, 1 business day) is recorded as late.
   */
  async function reportLostStolen(
    drawId: string,
    input: {
      kind: 'lost' | 'stolen'
      from: number
      to: number
      seriesFrom?: number
      seriesTo?: number
      discoveredAt: string
      reportedToAjAt: string
      distributed: boolean
      policeReportRef?: string | null
      remedy: 'new-numbering' | 'full-reprint' | 'renunciation' | 'new-draw-date' | 'none'
      notice: string
    },
  ) {
    const problems: PlanProblem[] = []
    if (input.kind === 'stolen' && !input.policeReportRef?.trim())
      problems.push({
        field: 'policeReportRef',
        rule: 'LST-5',
        message: 'a theft is reported with the police or prosecutor complaint record',
      })
    if (!input.notice?.trim())
      problems.push({ field: 'notice', rule: 'LST-3', message: 'the public notice text is required' })
    if (!Number.isFinite(Date.parse(input.discoveredAt)) || !Number.isFinite(Date.parse(input.reportedToAjAt)))
      problems.push({ field: 'reportedToAjAt', rule: 'LST-1', message: 'discovery and report dates are required' })
    if (input.remedy === 'renunciation' && input.distributed)
      problems.push({
        field: 'remedy',
        rule: 'LST-1',
        message: 'renunciation of the draw is only possible before distribution and advertising',
      })
    if (problems.length)
      throw new DomainError('VALIDATION_FAILED', problems.map((p) => `${p.message} (${p.rule})`).join('; '), {
        problems,
      })
    const lateReport = input.reportedToAjAt.slice(0, 10) > nextBusinessDay(input.discoveredAt)
    return addRange(drawId, input.kind, input, {
      designVersion: await currentDesignVersion(db, drawId),
      discoveredAt: input.discoveredAt,
      reportedToAjAt: input.reportedToAjAt,
      distributed: input.distributed,
      policeReportRef: input.policeReportRef ?? null,
      remedy: input.remedy,
      notice: input.notice,
      lateReport,
    })
  }

  async function addRange(
    drawId: string,
    kind: TicketRange['kind'],
    input: { from: number; to: number; seriesFrom?: number; seriesTo?: number },
    details: TicketRange['details'],
  ): Promise<TicketRange> {
    return db.transaction(async (tx) => addRangeIn(tx, await loadDraw(tx, drawId), kind, input, details))
  }

  async function addRangeIn(
    tx: Sql,
    row: Draw,
    kind: TicketRange['kind'],
    input: { from: number; to: number; seriesFrom?: number; seriesTo?: number },
    details: TicketRange['details'],
  ): Promise<TicketRange> {
    const drawId = row.id
    const plan = planOf(row)
    if (kind === 'returned' && row.status !== 'open')
      throw new DomainError('SALES_CLOSED', 'unsold tickets are returned before the close of sales')
    const seriesMax = isRaffle(plan) ? 1 : plan.series
    const sFrom = input.seriesFrom ?? 1
    const sTo = input.seriesTo ?? seriesMax
    if (
      !Number.isInteger(input.from) ||
      !Number.isInteger(input.to) ||
      input.from > input.to ||
      input.from < plan.numbering.from ||
      input.to > plan.numbering.to ||
      sFrom < 1 ||
      sTo > seriesMax ||
      sFrom > sTo
    ) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `the range must lie in ${plan.numbering.from}..${plan.numbering.to}, series 1..${seriesMax}`,
      )
    }
    const id = newId('rng')
    const at = now()
    const quantity = (input.to - input.from + 1) * (sTo - sFrom + 1)
    // After the close the range is blocked from payment only: the draw keeps the list its D was fixed on.
    const afterClose = row.status !== 'open'
    await insertRange(tx, {
      id,
      drawId,
      kind,
      from: input.from,
      to: input.to,
      seriesFrom: sFrom,
      seriesTo: sTo,
      quantity,
      detailsJson: JSON.stringify(details),
      createdAt: at,
      afterClose,
    })
    await appendJournal(tx, {
      at,
      type: `lottery.range_${kind}`,
      scope: scope(row),
      payload: {
        drawId,
        rangeId: id,
        from: input.from,
        to: input.to,
        seriesFrom: sFrom,
        seriesTo: sTo,
        quantity,
        ...details,
        afterClose,
        rule: kind === 'returned' ? 'LOT-12' : kind === 'stolen' ? 'LST-5' : 'LST-2',
      },
    })
    return {
      id,
      kind,
      from: input.from,
      to: input.to,
      seriesFrom: sFrom,
      seriesTo: sTo,
      quantity,
      createdAt: at,
      afterClose,
      details,
    }
  }

  /** LST-3: the public notice of lost and stolen tickets, with quantities, numbering and procedure. */
  async function lostStolenNotice(drawId: string) {
    const row = await loadDraw(db, drawId)
    const plan = planOf(row)
    const list = await ranges(db, drawId, ['lost', 'stolen'])
    return {
      drawId,
      name: plan.name,
      drawNumber: plan.drawNumber,
      issue: isRaffle(plan) ? null : plan.issue,
      ranges: list.map((r) => ({
        kind: r.kind,
        from: formatNumber(r.from, plan.numbering),
        to: formatNumber(r.to, plan.numbering),
        seriesFrom: r.seriesFrom,
        seriesTo: r.seriesTo,
        quantity: r.quantity,
        reportedAt: r.createdAt,
        notice: r.details.notice ?? '',
      })),
      total: list.reduce((s, r) => s + r.quantity, 0),
      procedure:
        'Los billetes de estas numeraciones no se pagan, no se reembolsan ni se canjean (LST-4, LST-5). Los demás billetes vendidos de un sorteo reimpreso se canjean en caja a sola presentación. Tickets in these ranges are neither paid, refunded nor exchanged; other sold tickets of a reprinted issue are exchanged at a cash desk on presentation.',
    }
  }

  return {
    createLottery,
    createRaffle,
    getDraw,
    listDraws,
    printRun: async (drawId: string, input: BlockInput & { reason?: string }, actor: Actor) =>
      (await printRun(drawId, input, actor)).answer,
    printRunPdf,
    distribute,
    sellers,
    register,
    recordReturn,
    reportLostStolen,
    lostStolenNotice,
  }
}
