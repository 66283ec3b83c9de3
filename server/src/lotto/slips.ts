/**
 * Lotto sales: selling a slip (LNS-2, LNS-6, LNS-13, LNS-15), its receipt rebuilt for reprints and the cashier,
 * and annulment before the close of sales (LNS-21). The sale itself is group-committed (sales.ts).
 */
import { protectDocument } from '../shared/journal-privacy.ts'
import { openDocumentAtRest, sealDocumentAtRest } from '../shared/document-at-rest.ts'
import { currentActor } from '../shared/request-context.ts'
import { DomainError } from '../shared/errors.ts'
import { AJ_LEGEND, checkDemoReferences, checkSoftwareDraw } from '../shared/lottery-common.ts'
import { appendJournal } from '../shared/journal.ts'
import type { Rng } from '../shared/rng.ts'
import type { EntropySource } from '../shared/clock.ts'
import type { LottoContext, PlannedDraw } from './context.ts'
import type { ReceiptPool } from './receipts.ts'
import { formatBoards, parseBoard, parseStoredBoards, quickPick } from './rules.ts'
import type { createSlipQueue } from './sales.ts'
import { writeSlipBatch, type SlipToWrite } from './sale-writer.ts'
import { encodeTicketCode, TicketKind } from '../shared/ticket-code.ts'
import type { Sql } from '../db/database.ts'
import { drawHasBegun } from '../draws/lifecycle.ts'
import { amendSlipPlayer, annulSlipRow, lottoDrawByNumber, slipById } from './store.ts'

/** The scopes of a write of a slip's row and `lotto` records alone (db/scopes.ts). */
const LOTTO_ONLY = { scopes: ['lotto'] }

export interface SlipInput {
  drawId: string
  /** Boards chosen by the player. */
  boards?: number[][]
  /** Boards the system chooses (quick pick, LNS-2). */
  quickPicks?: number
  /** Consecutive draws the slip is valid for, from `drawId` (LNS-5 (3), CFG-41). */
  draws?: number
  /** LNS-6 (5): player data are mandatory. */
  player: { name: string; document: string }
  channel: string
}

/** The receipt (comprobante) with every field LNS-6 lists (§7.10) and the signed QR payload. */
export interface LottoReceipt {
  receiptNumber: string
  /** QR payload: `BLL1.L.<receipt>.<Ed25519 signature>` (DESIGN.md "Ticket codes"). */
  code: string
  operator: string
  gameName: string
  /** LNS-6 (2): the category fantasy names. */
  categories: Array<{ code: string; name: string; matches: number }>
  drawNumber: number
  issue: string
  drawAt: string
  /** LNS-6 (9): every draw the slip is valid for. */
  draws: Array<{ drawId: string; drawNumber: number; issue: string; drawAt: string; claimDeadline: string }>
  player: { name: string; document: string }
  boards: Array<{ numbers: number[]; quickPick: boolean }>
  soldAt: string
  amountCents: number
  currency: string
  channel: string
  status: 'active' | 'annulled' | 'excluded'
  securityWarnings: string[]
  regulationUrl: string
  paymentPlace: string
  legend: string
  /** Issue 17: the wall clock the receipt's times are shown and printed on. */
  timeZone: string | null
}

/** A receipt looked up by its number: no bearer code, and the document only for those who pay prizes (issue 13 point 4). */
export type LottoReceiptView = Omit<LottoReceipt, 'code' | 'player'> & {
  player: { name: string; document: string | null }
}

/** A CSPRNG-backed Rng for quick picks (LNS-2). */
function entropyRng(entropy: EntropySource): Rng {
  let buf: Uint8Array = new Uint8Array(0)
  let off = 0
  const next32 = () => {
    if (off + 4 > buf.length) {
      buf = entropy.randomBytes(4096)
      off = 0
    }
    const v = ((buf[off] << 24) | (buf[off + 1] << 16) | (buf[off + 2] << 8) | buf[off + 3]) >>> 0
    off += 4
    return v
  }
  return {
    nextInt(max: number) {
      const limit = 2 ** 32 - (2 ** 32 % max)
      for (;;) {
        const u = next32()
        if (u < limit) return u % max
      }
    },
  }
}

/**
 * @param sales the group-commit queue the slips go through.
 * @param receipts receipt numbers signed ahead (writer-thread mode), or null to number and sign at commit.
 */
export function createSlipUseCases(
  ctx: LottoContext,
  sales: ReturnType<typeof createSlipQueue>,
  receipts: ReceiptPool | null,
) {
  const { db, clock, deps, now, cached, cachedByNumber } = ctx
  const rng = entropyRng(deps.entropy)

  /**
   * Checks a slip (LNS-21 boards, LNS-6 player data, LNS-13 sales window of every draw against the server's clock)
   * and picks its quick picks (LNS-2): what is left is to number, sign and write it. `reader`: the caller's
   * transaction when it runs inside one (the draws a cache miss reads).
   */
  async function prepareSlip(input: SlipInput, reader: Sql = db) {
    const first = await cached(input.drawId, reader)
    const plan = first.plan
    const drawCount = input.draws ?? 1
    const chosen = input.boards ?? []
    const qp = input.quickPicks ?? 0
    if (!Number.isInteger(drawCount) || drawCount < 1 || drawCount > plan.maxDrawsPerSlip) {
      throw new DomainError('VALIDATION_FAILED', `a slip is valid for 1 to ${plan.maxDrawsPerSlip} consecutive draws`, {
        field: 'draws',
      })
    }
    if (!Number.isInteger(qp) || qp < 0 || chosen.length + qp < 1 || chosen.length + qp > plan.maxBoardsPerSlip) {
      throw new DomainError('VALIDATION_FAILED', `a slip holds 1 to ${plan.maxBoardsPerSlip} boards`, {
        field: 'boards',
      })
    }
    const name = input.player?.name?.trim() ?? ''
    const document = input.player?.document?.trim() ?? ''
    if (!name || !document)
      throw new DomainError(
        'VALIDATION_FAILED',
        'the player name and identity document are required on the receipt (LNS-6)',
        { rule: 'LNS-6' },
      )
    const boards = chosen.map((b) => parseBoard(b, plan.range, plan.picks))
    for (let i = 0; i < qp; i++) boards.push(quickPick(rng, plan.range, plan.picks))
    const t = clock.now().getTime()
    const draws: PlannedDraw[] = []
    for (let n = first.row.drawNo; n < first.row.drawNo + drawCount; n++) {
      const d = n === first.row.drawNo ? first : await cachedByNumber(plan.gameCode, n, reader)
      if (!d)
        throw new DomainError(
          'NOT_FOUND',
          `draw ${n} of ${plan.gameCode} is not planned yet: the slip cannot cover ${drawCount} draws`,
          { drawNo: n },
        )
      if (t < Date.parse(d.plan.salesStartAt))
        throw new DomainError('SALES_NOT_OPEN', `sales of draw ${n} start at ${d.plan.salesStartAt}`)
      if (t >= Date.parse(d.plan.salesCloseAt))
        throw new DomainError('SALES_CLOSED', `sales of draw ${n} closed at ${d.plan.salesCloseAt} (LNS-13)`, {
          rule: 'LNS-13',
        })
      // INS-16 / RNG-26: a draw by software ("lotería electrónica") is sold only while the profile or the licence's AJ
      // authorisation of the RNG allows it, as on-screen instant sales are gated at each sale (INS-15).
      if (d.plan.drawMethod === 'rng') checkSoftwareDraw('rng', deps.softwareDraw)
      checkDemoReferences(d.plan, deps.softwareDraw)
      draws.push(d)
    }
    const amountCents = draws.reduce((s, d) => s + d.plan.priceCents * boards.length, 0)
    const quickPicks = '0'.repeat(chosen.length) + '1'.repeat(qp)
    const slip: SlipToWrite = {
      gameCode: plan.gameCode,
      firstDrawNo: first.row.drawNo,
      drawCount,
      boards: formatBoards(boards),
      boardCount: boards.length,
      quickPicks,
      amountCents,
      playerName: name,
      // Issue 24 point 2: the player's document is stored sealed; the receipt, the payee check and the prize
      // register open it for the roles that read it.
      playerDocument: sealDocumentAtRest(deps.sealer, document)!,
      channel: input.channel,
    }
    const receiptOf = (done: { receipt: string; code: string; soldAt: string }): LottoReceipt => ({
      receiptNumber: done.receipt,
      code: done.code,
      operator: plan.operator,
      gameName: plan.name,
      categories: plan.categories.map((c) => ({ code: c.code, name: c.name, matches: c.matches })),
      drawNumber: plan.drawNumber,
      issue: plan.issue,
      drawAt: plan.drawAt,
      draws: draws.map((d) => ({
        drawId: d.row.id,
        drawNumber: d.plan.drawNumber,
        issue: d.plan.issue,
        drawAt: d.plan.drawAt,
        claimDeadline: d.plan.claimDeadline,
      })),
      player: { name, document },
      boards: boards.map((numbers, i) => ({ numbers, quickPick: quickPicks[i] === '1' })),
      soldAt: done.soldAt,
      amountCents,
      currency: plan.currency,
      channel: input.channel,
      status: 'active',
      securityWarnings: plan.securityWarnings,
      regulationUrl: plan.regulationUrl,
      paymentPlace: plan.paymentPlace,
      legend: AJ_LEGEND,
      timeZone: ctx.zoneOf(plan),
    })
    return { slip, receiptOf, amountCents, currency: plan.currency }
  }

  /**
   * Sells one slip (LNS-2, LNS-6, LNS-15) through the group-commit queue; its receipt is returned only after the
   * commit. Issue 13: no HTTP route calls this any more without a payment; the paid paths use sellSlipWithin.
   */
  async function sellSlip(input: SlipInput): Promise<LottoReceipt> {
    const { slip, receiptOf } = await prepareSlip(input)
    const pre = receipts ? await receipts.take(slip.gameCode) : null
    const done = await sales.submit({ ...slip, receipt: pre?.receipt, code: pre?.code })
    return receiptOf(done)
  }

  /**
   * The same sale inside a caller's transaction (issue 13): a kiosk purchase paid with a voucher, or a counter sale
   * with the cash taken into the station's drawer, which also prints the receipt before it commits. The receipt
   * number comes from the game's counter in this transaction, so it commits or vanishes with the payment.
   */
  async function sellSlipWithin(tx: Sql, input: SlipInput, at: string): Promise<LottoReceipt> {
    const { slip, receiptOf } = await prepareSlip(input, tx)
    // Issue 14 point 2: the slip's record names the seller (its payload text is written by hand, not stamped).
    const actor = slip.actor ?? currentActor()
    const [r] = await writeSlipBatch(tx, [actor ? { ...slip, actor } : slip], at, (receipt) =>
      encodeTicketCode({ kind: TicketKind.lotto, id: receipt }, deps.keys.privateKey),
    )
    if (!r.ok) throw new DomainError(r.code, r.message)
    return receiptOf({ receipt: r.receipt, code: r.code, soldAt: at })
  }

  /**
   * The receipt of a sold slip, rebuilt from the sales system (for the cashier's details and copies). Issue 13
   * point 4: a lookup by receipt number never returns the bearer code (only the sale that printed the slip does),
   * and the player's identity document only to someone who pays prizes (`showDocument`); others get null.
   */
  async function getReceipt(receipt: string, opts: { showDocument: boolean }): Promise<LottoReceiptView> {
    const s = await slipById(db, receipt)
    if (!s) throw new DomainError('TICKET_NOT_FOUND', `receipt ${receipt} not found`)
    const draws: PlannedDraw[] = []
    for (let n = s.firstDrawNo; n < s.firstDrawNo + s.drawCount; n++) {
      const d = await cachedByNumber(s.gameCode, n)
      if (d) draws.push(d)
    }
    const plan = draws[0].plan
    return {
      receiptNumber: s.id,
      operator: plan.operator,
      gameName: plan.name,
      categories: plan.categories.map((c) => ({ code: c.code, name: c.name, matches: c.matches })),
      drawNumber: plan.drawNumber,
      issue: plan.issue,
      drawAt: plan.drawAt,
      draws: draws.map((d) => ({
        drawId: d.row.id,
        drawNumber: d.plan.drawNumber,
        issue: d.plan.issue,
        drawAt: d.plan.drawAt,
        claimDeadline: d.plan.claimDeadline,
      })),
      player: {
        name: s.playerName,
        document: opts.showDocument ? openDocumentAtRest(deps.sealer, s.playerDocument) : null,
      },
      boards: parseStoredBoards(s.boards).map((numbers, i) => ({ numbers, quickPick: s.quickPicks[i] === '1' })),
      soldAt: s.soldAt,
      amountCents: s.amountCents,
      currency: plan.currency,
      channel: s.channel,
      status: s.status,
      securityWarnings: plan.securityWarnings,
      regulationUrl: plan.regulationUrl,
      paymentPlace: plan.paymentPlace,
      legend: AJ_LEGEND,
      timeZone: ctx.zoneOf(plan),
    }
  }

  /**
   * Annuls a slip before the close of sales (LNS-21): it is listed among the annulled plays with the reason, takes
   * part in no draw, and entitles the holder only to a refund of its price. Every draw it covers must still be
   * open: after a close its receipt is in that draw's sales digest D, which nothing changes (bolillo-draw-v2 step 2).
   */
  async function annulSlip(receipt: string, reason: string): Promise<void> {
    if (!reason.trim()) throw new DomainError('VALIDATION_FAILED', 'an annulment needs its reason (LNS-21)')
    // Issue 23 point 5: the slip's row and its record in the `lotto` chain, nothing of a hall (no money moves here):
    // it locks `lotto` alone, as the slip's sale and payout do, so that no hall's sales wait for it.
    await db.transaction(async (tx) => {
      const s = await slipById(tx, receipt)
      if (!s) throw new DomainError('TICKET_NOT_FOUND', `receipt ${receipt} not found`)
      for (let n = s.firstDrawNo; n < s.firstDrawNo + s.drawCount; n++) {
        const d = await lottoDrawByNumber(tx, s.gameCode, n)
        if (!d || d.status !== 'open')
          throw new DomainError(
            'SALES_CLOSED',
            `a slip can only be annulled before the close of sales of every draw it covers (LNS-21): draw ${n} is ${d?.status ?? 'not planned'}`,
          )
      }
      const at = now()
      if (!(await annulSlipRow(tx, receipt, reason, at)))
        throw new DomainError('CONFLICT', `receipt ${receipt} is ${s.status}`)
      await appendJournal(tx, {
        at,
        type: 'lotto.slip_annulled',
        scope: `lotto:${s.gameCode}/sales`,
        payload: { receipt, reason, rule: 'LNS-21' },
      })
    }, LOTTO_ONLY)
  }

  /**
   * LNS-20: the player's data on a receipt amended before the draw, justified with supporting documents and validated
   * by the operator (the authenticated person who records it). The numbers never change; every draw the slip covers
   * must not have been drawn yet. The journal keeps the data before and after, the evidence and who validated it.
   */
  async function amendPlayer(
    receipt: string,
    input: { name: string; document: string; evidenceRef: string; reason: string },
    actor: { kind: string; id: string; role: string },
  ) {
    const name = input.name?.trim() ?? ''
    const document = input.document?.trim() ?? ''
    if (!name || !document)
      throw new DomainError(
        'VALIDATION_FAILED',
        'the player name and identity document are required on the receipt (LNS-6)',
        { rule: 'LNS-6' },
      )
    if (!input.evidenceRef?.trim() || !input.reason?.trim())
      throw new DomainError(
        'VALIDATION_FAILED',
        'an amendment is justified with its supporting document and reason (LNS-20)',
        { rule: 'LNS-20' },
      )
    // Issue 23 point 5: as the annulment, the slip's row and its `lotto` record alone.
    return db.transaction(async (tx) => {
      const s = await slipById(tx, receipt)
      if (!s) throw new DomainError('TICKET_NOT_FOUND', `receipt ${receipt} not found`)
      if (s.status !== 'active') throw new DomainError('CONFLICT', `receipt ${receipt} is ${s.status}`)
      const at = now()
      // LNS-20, 002 §7.3.6: "modificaciones a éstos antes del sorteo". Not only a drawn draw: a manual draw stays
      // `closed` until its last ball, and an amendment between its balls would name who cashes a known winner.
      for (let n = s.firstDrawNo; n < s.firstDrawNo + s.drawCount; n++) {
        const d = await lottoDrawByNumber(tx, s.gameCode, n, { lock: true })
        if (d && drawHasBegun(d, d.drawMethod === 'rng' ? 'rng' : 'manual', at))
          throw new DomainError(
            'ILLEGAL_TRANSITION',
            `player data are amended before the draw (LNS-20, 002 §7.3.6): draw ${n} has begun (${d.status}${d.balls ? `, balls ${d.balls}` : ''})`,
            { rule: 'LNS-20' },
          )
      }
      if (!(await amendSlipPlayer(tx, receipt, name, sealDocumentAtRest(deps.sealer, document)!)))
        throw new DomainError('CONFLICT', `receipt ${receipt} is no longer active`)
      await appendJournal(tx, {
        at,
        type: 'lotto.player_amended',
        scope: `lotto:${s.gameCode}/sales`,
        payload: {
          receipt,
          before: {
            name: s.playerName,
            document: protectDocument(deps.sealer, openDocumentAtRest(deps.sealer, s.playerDocument)),
          },
          after: { name, document: protectDocument(deps.sealer, document) },
          evidenceRef: input.evidenceRef.trim(),
          reason: input.reason.trim(),
          validatedBy: actor,
          rule: 'LNS-20',
        },
      })
      return { receipt, player: { name, document }, amendedAt: at }
    }, LOTTO_ONLY)
  }

  /** A copy of the receipt: marked as a copy, without the bearer QR (issue 13 point 4), so it cannot be cashed. */
  async function receiptPdf(receipt: string, opts: { showDocument: boolean }): Promise<Uint8Array> {
    const { renderLottoReceiptPdf } = await import('../../../printer/src/lottery-pdf.ts')
    const r = await getReceipt(receipt, opts)
    return renderLottoReceiptPdf({
      ...r,
      code: null,
      player: { name: r.player.name, document: r.player.document ?? '(reservado)' },
    })
  }

  return { sellSlip, sellSlipWithin, getReceipt, annulSlip, receiptPdf, amendPlayer }
}
