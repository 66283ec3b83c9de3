/**
 * Numbered-ticket lotteries (lotería tradicional, popular, regional: LOT-3 to LOT-29) and raffles, tombolas and
 * promotional draws (PRM-1 to PRM-10), from plan to paid prize:
 *
 * Lottery: plan (LOT-4, CFG-39) -> an issue of numbers in series and fractions, printed for the print shop and in
 * a thermal layout with the front and back the regulation lists (LOT-15, LOT-16) -> unsold tickets returned, and
 * ranges reported lost or stolen, blocked from payment and listed publicly (LST-1 to LST-7) -> close of sales:
 * the tickets in play, their sales digest and a participation file -> the draw: each exact prize's number drawn
 * among the M issued numbers (bolillo-draw-v2, N = M, value v = the v-th number of the sorted list), or entered
 * from an authorised tómbola (LOT-18) -> approximations and terminations (domain/lottery.ts) -> extracto and
 * minutes -> validation and one payout per fraction (LOT-25, LOT-26), void when the code's signature fails
 * (LOT-8) -> unclaimed prizes for charity (LOT-24).
 *
 * Raffle / tombola / promotional draw: plan (CFG-44) -> tickets sold by number -> close -> a draw among the sold
 * tickets with the same proof (the first ticket drawn wins the first prize) -> delivery of the goods, registered.
 *
 * The use cases live by topic: issue.ts (plans, printing, returns, lost and stolen), draws.ts (raffle sales, close,
 * draw, proof), settlement.ts (settlement, extracto, minutes), payouts.ts (validation, payout, claim period); their
 * SQL is in store.ts.
 */
import { createArtworkUseCases } from './artwork.ts'
import { createLotteryContext, type LotteryDeps } from './context.ts'
import { createDrawUseCases } from './draws.ts'
import { createBallSetRegistry } from '../draws/ball-sets.ts'
import type { Actor } from '../shared/lottery-draw-v2.ts'
import { createIssueUseCases } from './issue.ts'
import { createPayoutUseCases } from './payouts.ts'
import { createReissueUseCases } from './reissue.ts'
import { createSettlementUseCases } from './settlement.ts'

export { MAX_TICKETS_IN_PLAY, type LotteryDeps, type TicketRange } from './context.ts'
export { MAX_PRINT_FRACTIONS, nextBusinessDay } from './issue.ts'
export type { LotteryValidation } from './payouts.ts'
export type { LotteryResult } from './settlement.ts'

export function createLotteryService(deps: LotteryDeps) {
  const ctx = createLotteryContext(deps)
  const {
    createLottery,
    createRaffle,
    getDraw,
    listDraws,
    printRun,
    printRunPdf,
    distribute,
    sellers,
    register,
    recordReturn,
    reportLostStolen,
    lostStolenNotice,
  } = createIssueUseCases(ctx)
  const {
    sellRaffleTicketsWithin,
    closeSales,
    participationFile,
    recordBeacon,
    drawRng,
    enterNumber,
    swapBallSet,
    postpone,
    cancel,
    getProof,
    recordIncident,
  } = createDrawUseCases(ctx, getDraw)
  const { settle, extracto, acta, extractoPdf, actaPdf } = createSettlementUseCases(ctx, lostStolenNotice)
  const { validateAtDesk, chainOfCode, pay, unclaimed, disposeUnclaimed, prizeRegister } = createPayoutUseCases(ctx)
  const ballSets = createBallSetRegistry(ctx)

  return {
    /** Whether a scanned code is a lottery or raffle ticket (kind `T`), for the cashier's generic dispatch. */
    handles: (code: string) => String(code).trim().startsWith('BLL1.T.'),
    createLottery,
    createRaffle,
    getDraw,
    listDraws,
    printRun,
    printRunPdf,
    distribute,
    sellers,
    register,
    recordReturn,
    reportLostStolen,
    lostStolenNotice,
    sellRaffleTicketsWithin,
    closeSales,
    participationFile,
    recordBeacon,
    drawRng,
    enterNumber,
    swapBallSet,
    /** LOT-18: the operator's digit ball sets (0-9 per drum) a manual lottery draw is read from (draws/ball-sets.ts). */
    registerBallSet: (input: { reference: string; drums: number; sealRef: string }, actor: Actor | null) =>
      ballSets.registerBallSet({ ...input, kind: 'digits' }, actor),
    markReserveBallSet: ballSets.markReserve,
    retireBallSet: ballSets.retire,
    listBallSets: () => ballSets.listBallSets('digits'),
    postpone,
    cancel,
    settle,
    getProof,
    recordIncident,
    extracto,
    acta,
    extractoPdf,
    actaPdf,
    /** §8: what a fraction or raffle ticket is worth at a cash desk, journaled with the station, its seal and the cashier. */
    validate: (code: string, who: { stationId?: string; cashierId?: string } = {}) => validateAtDesk(code, who),
    /** The journal chain a presented code's scan and payout write (`lottery`; the operator's for a raffle's ticket). */
    chainOfCode,
    pay,
    unclaimed,
    disposeUnclaimed,
    prizeRegister,
    ...createReissueUseCases(ctx),
    ...createArtworkUseCases(deps),
  }
}

export type LotteryService = ReturnType<typeof createLotteryService>
