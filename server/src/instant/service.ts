/**
 * Instant lottery (raspadita) use cases, composed from one file per topic:
 * - games.ts: generate a batch into storage (streamed, batched inserts), list and close games;
 * - inventory.ts: move packs from the warehouse to retailers, activate them on arrival, report lost or stolen
 *   ranges (LST-);
 * - sales.ts: sell pre-printed tickets by their inventory code and electronic tickets from the pre-generated pool
 *   (INS-15 switch);
 * - claims.ts: validate by the hidden code, pay once (INS-11, INS-12), refund misprints (INS-9);
 * - reconciliation.ts: the prize register (INS-5) and the reconciliation of a game.
 * Their SQL is in store.ts, what they share (ids, batches, resolving codes) in context.ts.
 *
 * Every state change is one transaction with its journal record. The prize file (which ticket wins what, pack prize
 * counts, symbol keys) and the batch seed are stored sealed (DESIGN.md "Sealed secrets"): tickets hold prize tags,
 * and the tier is opened only inside validation, payout, the on-screen sale and the reconciliation.
 */
import { encodeTicketCode, parseTicketCode, TicketKind } from '../shared/ticket-code.ts'
import { createInstantContext, type InstantDeps } from './context.ts'
import { createGameUseCases } from './games.ts'
import { createInventoryUseCases } from './inventory.ts'
import { createSaleUseCases } from './sales.ts'
import { createClaimUseCases } from './claims.ts'
import { createReconciliationUseCases } from './reconciliation.ts'
import { createCertifierUseCases } from './certifiers.ts'

export type { InstantDeps, ResolvedTicket } from './context.ts'
export type { BatchSummary, GenerateOptions, PackPrintData } from './games.ts'
export { typedSeedRefused } from './games.ts'
export type { ValidationOutcome, ValidationResult } from './claims.ts'
export { TicketState, type Batch } from './store.ts'

export function createInstantService(deps: InstantDeps) {
  const ctx = createInstantContext(deps)
  const games = createGameUseCases(ctx)
  const inventory = createInventoryUseCases(ctx)
  const sales = createSaleUseCases(ctx)
  const claims = createClaimUseCases(ctx)
  const reports = createReconciliationUseCases(ctx)
  const certifiers = createCertifierUseCases(ctx)

  return {
    handles: claims.handles,
    scan: claims.scan,
    generateBatch: games.generateBatch,
    listGames: games.listGames,
    getGame: games.getGame,
    validate: claims.validate,
    pay: claims.pay,
    payAtCashier: claims.payAtCashier,
    refund: claims.refund,
    voidForDamage: claims.voidForDamage,
    shipPacks: inventory.shipPacks,
    activatePack: inventory.activatePack,
    reportLostOrStolen: inventory.reportLostOrStolen,
    publicNotice: inventory.publicNotice,
    sellPrinted: sales.sellPrinted,
    sellPrintedWithin: sales.sellPrintedWithin,
    electronicAllowed: sales.electronicAllowed,
    sellElectronic: sales.sellElectronic,
    sellElectronicWithin: sales.sellElectronicWithin,
    sellElectronicAndPrint: sales.sellElectronicAndPrint,
    configureHall: sales.configureHall,
    closeGame: games.closeGame,
    exportSeed: games.exportSeed,
    verifyGenerator: games.verifyGenerator,
    recordCertifier: certifiers.recordCertifier,
    withdrawCertifier: certifiers.withdrawCertifier,
    listCertifiers: certifiers.listCertifiers,
    prizeRegister: reports.prizeRegister,
    reconciliation: reports.reconciliation,
    ticketPrintData: games.ticketPrintData,
    pepperId: ctx.pepperId,
    /** The operator's signed QR payload of an instant-ticket id (serial or validation code). */
    signCode: (id: string) => encodeTicketCode({ kind: TicketKind.instant, id }, deps.keys.privateKey),
    parseQr: (text: string) => parseTicketCode(text),
  }
}
export type InstantService = ReturnType<typeof createInstantService>
