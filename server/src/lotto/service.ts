/**
 * Lotto use cases (lotería de números seleccionados, LNS-1 to LNS-25), from plan to paid prize:
 *
 * plan (LOT-5) -> sales of slips with several boards, quick picks and consecutive draws, closed by the server's
 * clock at the plan's time (LNS-13) -> participation file and excluded/annulled list, hashed, published and
 * journaled before the draw (LNS-13, LNS-14, LNS-21) -> the draw: bolillo-draw-v2 RNG (salesDigest over the
 * receipt numbers, beacon round R fixed by the close; the first k of the order) or balls entered from an authorised blower or tómbola (LNS-8,
 * LNS-16) -> settlement (LNS-16 step 4; the remainder rule in rules.ts) -> extracto and minutes (LNS-10,
 * LNS-17) -> validation and one payout per prize at the cashier, with the prize register (LNS-24, LNS-25, §8)
 * -> the unclaimed-prize report for charity after prescription (LOT-24).
 *
 * Each use case is one transaction with its journal records; the sale path is group-committed (sales.ts). The use
 * cases live by topic: draws.ts (plans and draws), slips.ts (sales), settlement.ts (settlement, extracto, minutes),
 * payouts.ts (validation, payout, claim period); their SQL is in store.ts.
 */
import { createLottoContext, type LottoDeps } from './context.ts'
import { createBallSetRegistry } from '../draws/ball-sets.ts'
import { createDrawUseCases } from './draws.ts'
import { createPayoutUseCases } from './payouts.ts'
import { createReceiptPool } from './receipts.ts'
import { createInlineSlipWriter, createSlipQueue, createWorkerSlipWriter, type SlipWriter } from './sales.ts'
import { createSettlementUseCases } from './settlement.ts'
import { createSlipUseCases } from './slips.ts'

import { rowSealKeyOf } from '../shared/row-seal-database.ts'
export type { LottoDeps } from './context.ts'
export type { DrawView } from './draws.ts'
export type { DrawClaim, LottoValidation } from './payouts.ts'
export { LOTTO_REMAINDER_RULE, type LottoResult } from './settlement.ts'
export type { LottoReceipt, LottoReceiptView, SlipInput } from './slips.ts'
export type { Draw } from './store.ts'

export function createLottoService(deps: LottoDeps) {
  const ctx = createLottoContext(deps)
  const { db } = deps
  // The writer thread gives way to the server's own SQLite writes (Database.writerGate).
  const gate = deps.sqliteFile ? (db.writerGate ?? null) : null
  const writer: SlipWriter = deps.sqliteFile
    ? createWorkerSlipWriter({
        file: deps.sqliteFile,
        synchronous: deps.sqliteSynchronous ?? 'FULL',
        privateKey: deps.keys.privateKey,
        gate: gate ?? undefined,
        rowSealKey: rowSealKeyOf(deps.sealer),
      })
    : createInlineSlipWriter(db, deps.keys.privateKey)
  const sales = createSlipQueue(writer, { now: ctx.now })
  // Writer-thread mode: receipt numbers come from reserved blocks, signed ahead on a signer thread (receipts.ts).
  const receipts = writer.reserve ? createReceiptPool((g, n) => writer.reserve!(g, n), deps.keys.privateKey) : null

  const {
    createDraw,
    getDraw,
    listDraws,
    closeSales,
    participationFile,
    recordBeacon,
    drawRng,
    enterBall,
    postpone,
    cancel,
    getProof,
    recordIncident,
    recordNotarialAct,
    swapBallSet,
  } = createDrawUseCases(ctx)
  const { sellSlip, sellSlipWithin, getReceipt, annulSlip, receiptPdf, amendPlayer } = createSlipUseCases(
    ctx,
    sales,
    receipts,
  )
  const { settle, extracto, acta, extractoPdf, actaPdf } = createSettlementUseCases(ctx)
  const { validateAtDesk, pay, unclaimed, disposeUnclaimed, prizeRegister } = createPayoutUseCases(ctx)
  const ballSets = createBallSetRegistry(ctx)

  return {
    /** Whether a scanned code is a lotto receipt (kind `L`), for the cashier's generic dispatch. */
    handles: (code: string) => String(code).trim().startsWith('BLL1.L.'),
    createDraw,
    getDraw,
    listDraws,
    sellSlip,
    sellSlipWithin,
    getReceipt,
    annulSlip,
    amendPlayer,
    closeSales,
    participationFile,
    recordBeacon,
    drawRng,
    enterBall,
    postpone,
    cancel,
    getProof,
    recordIncident,
    recordNotarialAct,
    swapBallSet,
    registerBallSet: ballSets.registerBallSet,
    markReserveBallSet: ballSets.markReserve,
    retireBallSet: ballSets.retire,
    listBallSets: () => ballSets.listBallSets('range'),
    settle,
    extracto,
    acta,
    extractoPdf,
    actaPdf,
    receiptPdf,
    /** §8: what a slip is worth at a cash desk, journaled with the station, its seal and the cashier. */
    validate: (code: string, who: { stationId?: string; cashierId?: string } = {}) => validateAtDesk(code, who),
    pay,
    unclaimed,
    disposeUnclaimed,
    prizeRegister,
    saleStats: () => ({ ...sales.stats(), writer: writer.kind }),
    async close() {
      await sales.drain()
      await receipts?.close()
      await writer.close()
    },
  }
}

export type LottoService = ReturnType<typeof createLottoService>
