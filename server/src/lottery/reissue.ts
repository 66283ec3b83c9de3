/**
 * After tickets are lost or stolen (002 §7.5.1, §7.5.2): the reprint the AJ authorises and the exchange of sold
 * tickets for the reprinted ones.
 *
 * - LST-1 (a) / LST-2 (a) / LST-5: either a new numbering for the lost quantity, in the original format, linked to
 *   the lost range; or a new design under the authorised numbering, the whole issue reprinted (the lost numbers
 *   too: the old design's papers of those numbers stay blocked, LST-7). Both with the AJ's authorisation reference
 *   and the new schedule of acts (material delivery, voiding of misprinted tickets, guillotining).
 * - LST-4 (1): a sold ticket is exchanged on mere presentation of the sold paper: its fraction's reprint becomes the
 *   current code and the old paper is void from then on. The sold paper stays payable until it is exchanged.
 * - LST-4 (2) / LST-5: a paper of numbering reported lost or stolen is neither refunded nor exchanged.
 * - LST-4 (3): a damaged ticket whose front cannot be verified is exchanged only on the operator's evaluation
 *   (lottery administration), recorded with its reason.
 */
import type { Sql } from '../db/database.ts'
import { narrowOrAll, requireChain } from '../db/scopes.ts'
import { DomainError } from '../shared/errors.ts'
import { chainOfScope } from '../shared/journal-chain.ts'
import { appendJournal } from '../shared/journal.ts'
import { TicketKind, verifyTicketCode } from '../shared/ticket-code.ts'
import { blocksDesign, inRange, isRaffle, issueSecretContext, parseFractionCodeId, tagMatches } from './context.ts'
import type { LotteryContext } from './context.ts'
import { fractionTicketData, type Actor } from './issue.ts'
import { formatNumber, numberCount, type LotteryPlan } from './rules.ts'
import {
  currentDesignVersion,
  insertExchange,
  insertReissue,
  moveToExchangeRun,
  reissuesOf,
  runDesignVersion,
} from './store/reissue.ts'
import { fractionOf, fractionsIn, issueSecretOf } from './store.ts'
import { paidAtOf } from '../draws/store.ts'

export interface ReissueInput {
  mode: 'new-numbering' | 'full-reprint'
  /** The lost or stolen range (POST /api/lottery/draws/:id/lost-stolen) this reprint remedies. */
  lostRangeId: string
  /** The AJ's authorisation of the reprint (LST-1 (a): "solicitar autorización a la AJ para su reimpresión"). */
  authorisationRef: string
  /** The new schedule of the draw's acts reported to the AJ (material delivery, voiding, guillotining, ...). */
  schedule: Array<{ act: string; at: string }>
  /** full-reprint: what changes in the design (images, drawings, colours). */
  designNote?: string
  /** new-numbering: the replacement numbers, the same quantity as the lost range, not printed before. */
  replacement?: { from: number; to: number; seriesFrom?: number; seriesTo?: number }
}

export function createReissueUseCases(ctx: LotteryContext) {
  const { db, deps, now, newId, scope, planOf, loadDraw, ranges } = ctx

  /**
   * Issue 23 point 5: a reprint's record and an exchange write the draw's rows and one record of its chain (a
   * numbered lottery's: `lottery`), and so lock that chain alone, as a fraction's payout does: no hall's sale waits
   * for them, and a payout and an exchange of one fraction still run one after the other. A draw found in another
   * chain inside the transaction (requireChain, in numberedDraw) runs it again with every chain.
   */
  const inLotteryChain = <T>(run: (tx: Sql) => Promise<T>) =>
    narrowOrAll(['lottery'], (scopes) => db.transaction(run, scopes ? { scopes } : undefined))

  async function numberedDraw(tx: Sql, drawId: string) {
    const row = await loadDraw(tx, drawId)
    const plan = planOf(row)
    if (isRaffle(plan))
      throw new DomainError(
        'VALIDATION_FAILED',
        `${drawId} is a ${plan.kind}: reprints and exchanges are of lottery tickets`,
      )
    requireChain(chainOfScope(scope(row)))
    return { row, plan: plan as LotteryPlan }
  }

  /** LST-1 (a), LST-2 (a), LST-5: records the reprint the AJ authorised for a lost or stolen range. */
  async function recordReissue(drawId: string, input: ReissueInput, actor: Actor) {
    const problems: Array<{ field: string; rule: string; message: string }> = []
    if (!input.authorisationRef?.trim())
      problems.push({
        field: 'authorisationRef',
        rule: 'LST-1',
        message: "a reprint is made only with the AJ's authorisation reference",
      })
    const schedule = (input.schedule ?? []).filter((x) => x.act?.trim() && Number.isFinite(Date.parse(x.at)))
    if (schedule.length === 0 || schedule.length !== (input.schedule ?? []).length)
      problems.push({
        field: 'schedule',
        rule: 'LST-1',
        message: 'the new schedule of the draw acts (act and date each) is reported to the AJ',
      })
    if (input.mode === 'full-reprint' && !input.designNote?.trim())
      problems.push({
        field: 'designNote',
        rule: 'LST-1',
        message: 'a full reprint keeps the numbering and changes the design: say what changes',
      })
    if (input.mode === 'new-numbering' && !input.replacement)
      problems.push({
        field: 'replacement',
        rule: 'LST-1',
        message: 'a new numbering names the replacement numbers, the same quantity as the lost ones',
      })
    if (problems.length)
      throw new DomainError('VALIDATION_FAILED', problems.map((p) => `${p.message} (${p.rule})`).join('; '), {
        problems,
      })
    return inLotteryChain(async (tx) => {
      const { row, plan } = await numberedDraw(tx, drawId)
      if (row.status !== 'open')
        throw new DomainError(
          'SALES_CLOSED',
          `a reprint is printed before the close of sales; draw ${drawId} is ${row.status}`,
          {
            rule: 'LST-1',
          },
        )
      const all = await ranges(tx, drawId, ['lost', 'stolen'])
      const lost = all.find((r) => r.id === input.lostRangeId)
      if (!lost)
        throw new DomainError('NOT_FOUND', `no lost or stolen range ${input.lostRangeId} in draw ${drawId}`, {
          lostRangeId: input.lostRangeId,
        })
      const design = await currentDesignVersion(tx, drawId)
      let replacement: { from: number; to: number; seriesFrom: number; seriesTo: number } | null = null
      if (input.mode === 'new-numbering') {
        const r = input.replacement!
        replacement = { from: r.from, to: r.to, seriesFrom: r.seriesFrom ?? 1, seriesTo: r.seriesTo ?? plan.series }
        const quantity = (replacement.to - replacement.from + 1) * (replacement.seriesTo - replacement.seriesFrom + 1)
        const inIssue =
          [replacement.from, replacement.to, replacement.seriesFrom, replacement.seriesTo].every(Number.isInteger) &&
          replacement.from >= plan.numbering.from &&
          replacement.to <= plan.numbering.to &&
          replacement.from <= replacement.to &&
          replacement.seriesFrom >= 1 &&
          replacement.seriesTo <= plan.series &&
          replacement.seriesFrom <= replacement.seriesTo
        if (!inIssue || quantity !== lost.quantity)
          throw new DomainError(
            'VALIDATION_FAILED',
            `the new numbering is ${lost.quantity} tickets inside the authorised issue ${formatNumber(plan.numbering.from, plan.numbering)}..${formatNumber(plan.numbering.to, plan.numbering)} (LST-1)`,
            { rule: 'LST-1', lostQuantity: lost.quantity, quantity },
          )
        const printed = await fractionsIn(tx, drawId, {
          ...replacement,
          fractionFrom: 1,
          fractionTo: plan.fractions,
        })
        const taken = (await ranges(tx, drawId)).some(
          (x) =>
            x.from <= replacement!.to &&
            x.to >= replacement!.from &&
            x.seriesFrom <= replacement!.seriesTo &&
            x.seriesTo >= replacement!.seriesFrom,
        )
        if (printed.length > 0 || taken)
          throw new DomainError(
            'CONFLICT',
            'the new numbering must be numbers never printed, returned or reported (LST-1)',
            { rule: 'LST-1', alreadyPrinted: printed.length },
          )
      }
      const id = newId('lri')
      const at = now()
      const designVersion = input.mode === 'full-reprint' ? design + 1 : design
      await insertReissue(tx, {
        id,
        drawId,
        mode: input.mode,
        lostRangeId: lost.id,
        designVersion,
        designNote: input.designNote?.trim() || null,
        replacement,
        authorisationRef: input.authorisationRef.trim(),
        scheduleJson: JSON.stringify(schedule),
        actorJson: JSON.stringify(actor),
        createdAt: at,
      })
      await appendJournal(tx, {
        at,
        type: 'lottery.reissue_recorded',
        scope: scope(row),
        payload: {
          drawId,
          reissueId: id,
          mode: input.mode,
          lostRangeId: lost.id,
          designVersion,
          replacement,
          authorisationRef: input.authorisationRef.trim(),
          schedule,
          actor,
          rule: lost.kind === 'stolen' ? 'LST-5' : 'LST-1',
        },
      })
      return {
        reissueId: id,
        drawId,
        mode: input.mode,
        lostRange: { id: lost.id, kind: lost.kind, from: lost.from, to: lost.to, quantity: lost.quantity },
        designVersion,
        designNote: input.designNote?.trim() || null,
        replacement,
        // LST-1 (a): a new design reprints the whole authorised quantity.
        toReprint: input.mode === 'full-reprint' ? numberCount(plan.numbering) * plan.series : lost.quantity,
        authorisationRef: input.authorisationRef.trim(),
        schedule,
        recordedAt: at,
      }
    })
  }

  async function listReissues(drawId: string) {
    await numberedDraw(db, drawId)
    return (await reissuesOf(db, drawId)).map((r) => ({
      reissueId: r.id,
      mode: r.mode,
      lostRangeId: r.lostRangeId,
      designVersion: r.designVersion,
      designNote: r.designNote,
      replacement: r.replacement,
      authorisationRef: r.authorisationRef,
      schedule: JSON.parse(r.scheduleJson),
      at: r.createdAt,
    }))
  }

  /**
   * LST-4 (1): the holder of a sold fraction presents the old paper and takes the reprint, at a cash desk (no money
   * moves). Refused: a forged code, a paper of numbering reported lost or stolen (LST-4 (2), LST-5), a paper
   * already exchanged or paid, a fraction never sold, or one with no reprint waiting.
   */
  async function exchange(code: string, actor: Actor) {
    let id: string
    try {
      const ref = verifyTicketCode(code, deps.keys.publicKey)
      if (ref.kind !== TicketKind.lottery) throw new Error('not a lottery ticket')
      id = ref.id
    } catch (e) {
      throw new DomainError('INVALID_SIGNATURE', `altered or forged ticket: ${(e as Error).message} (LOT-8)`)
    }
    const f = parseFractionCodeId(id)
    if (!f) throw new DomainError('TICKET_VOID', 'not a fraction code from a print run of a lottery issue (LOT-26)')
    return inLotteryChain(async (tx) => {
      const { row, plan } = await numberedDraw(tx, f.drawId)
      const sealed = await issueSecretOf(tx, row.id)
      const secret = sealed ? deps.sealer.open(sealed, issueSecretContext(row.id)) : null
      if (!secret || !tagMatches(secret, f.baseId, f.runNo, f.tag))
        throw new DomainError('INVALID_SIGNATURE', 'altered or forged ticket: the issue tag does not match (LOT-8)')
      const design = await runDesignVersion(tx, row.id, f.runNo)
      const hit = inRange(
        (await ranges(tx, row.id, ['lost', 'stolen'])).filter((r) => blocksDesign(r, design)),
        f.number,
        f.series,
      )
      if (hit)
        throw new DomainError(
          'TICKET_BLOCKED',
          `number reported ${hit.kind}: neither refunded nor exchanged (${hit.kind === 'stolen' ? 'LST-5' : 'LST-4'})`,
          { rule: hit.kind === 'stolen' ? 'LST-5' : 'LST-4' },
        )
      const reg = await fractionOf(tx, row.id, f.number, f.series, f.fraction)
      if (!reg || reg.status !== 'distributed')
        throw new DomainError('TICKET_VOID', 'only a ticket distributed for sale is exchanged (LST-4)', {
          rule: 'LST-4',
        })
      if (reg.runNo !== f.runNo)
        throw new DomainError(
          'TICKET_VOID',
          'this paper is not the current one of its fraction: already exchanged or reprinted (LST-4)',
          {
            rule: 'LST-4',
          },
        )
      if ((await paidAtOf(tx, row.id, id)) !== undefined)
        throw new DomainError('ALREADY_PAID', 'this ticket was paid: it is not exchanged')
      if (reg.exchangeRunNo == null)
        throw new DomainError('CONFLICT', 'no reprint of this ticket waits for its exchange (LST-4)', {
          rule: 'LST-4',
        })
      const to = reg.exchangeRunNo
      if (!(await moveToExchangeRun(tx, row.id, f, f.runNo, to)))
        throw new DomainError('CONFLICT', 'this ticket was exchanged meanwhile (LST-4)', { rule: 'LST-4' })
      const at = now()
      const exchangeId = newId('lex')
      await insertExchange(tx, {
        id: exchangeId,
        drawId: row.id,
        number: f.number,
        series: f.series,
        fraction: f.fraction,
        oldRunNo: f.runNo,
        newRunNo: to,
        kind: 'presented',
        evaluation: null,
        actorJson: JSON.stringify(actor),
        createdAt: at,
      })
      // The journal names the fraction and the runs, never a code.
      await appendJournal(tx, {
        at,
        type: 'lottery.ticket_exchanged',
        scope: scope(row),
        payload: {
          drawId: row.id,
          exchangeId,
          number: f.number,
          series: f.series,
          fraction: f.fraction,
          oldRunNo: f.runNo,
          newRunNo: to,
          actor,
          rule: 'LST-4',
        },
      })
      // The reprinted paper waits at the desk from the print run: the answer says which one to hand over, never its code.
      const {
        code: _code,
        ticketId: _id,
        control: _control,
        ...ticket
      } = fractionTicketData(
        ctx,
        row,
        plan,
        f.number,
        f.series,
        f.fraction,
        to,
        secret,
        await runDesignVersion(tx, row.id, to),
      )
      return { exchangeId, drawId: row.id, oldRunNo: f.runNo, newRunNo: to, exchangedAt: at, ticket }
    })
  }

  return { recordReissue, listReissues, exchange }
}
