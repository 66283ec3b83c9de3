/**
 * The kiosk's and the cashier's calls to the server (same origin), through the screens' shared request function
 * (http.ts: ApiError by `code`, Accept-Language) and, for a person at the station, the same login and till calls as
 * the caller's table (station-api.ts). An enrolled device sends its credential (`Authorization: Device
 * <id>.<secret>`), given once as `?device=` and kept in the browser (credentials.ts).
 */
import type { CashSent } from './cash-count.ts'
import type { KioskFullOffer as KioskOffer, KioskPurchase } from '../server/src/cashdesk/paid-sales.ts'
import type { LotteryValidation } from '../server/src/lottery/service.ts'
import type { LottoReceiptView as LottoReceipt, LottoValidation } from '../server/src/lotto/service.ts'
import type { Payout, TicketStatus } from '../server/src/cashdesk/payouts.ts'
import type {
  InstantScan,
  PaidView,
  PayAnswer as ServerPayAnswer,
  ScanAnswer as ServerScanAnswer,
  ScanView,
} from '../server/src/cashdesk/ticket-answer.ts'
import type { CashMovement, DayMovement, VoucherView } from '../server/src/cashdesk/vouchers.ts'
import type { CardRefund } from '../server/src/cashdesk/refunds.ts'
import { ApiError, createRequest } from './http.ts'
import type { Lang } from './i18n.ts'
import { stationCalls, type TableTill } from './station-api.ts'

export { ApiError }
export type {
  CardRefund,
  KioskOffer,
  KioskPurchase,
  Payout,
  TicketStatus,
  VoucherView,
  CashMovement,
  LottoValidation,
  LotteryValidation,
  LottoReceipt,
}
export type { Lang }

/** What the kiosk asks for in one purchase (the player's age answer is added by `purchase`). */
export interface KioskBasketRequest {
  voucherCode: string
  kioskId: string
  cards?: { gameId: string; count: number }
  slips?: Array<{
    drawId: string
    boards: number[][]
    quickPicks: number
    draws: number
    player: { name: string; document: string }
  }>
  instant?: { gameNo: number; count: number }
}

/** Issue 27: a bingo terminal of the hall and its open session, as the cashier loads credit onto it. */
export interface HallTerminal {
  id: string
  name: string
  session: { id: string; balanceCents: number; currency: string } | null
}
export interface TerminalLoad {
  sessionId: string
  started: boolean
  terminal: { id: string; name: string }
  amountCents: number
  balanceCents: number
  currency: string
  voucher: VoucherView
  aml: { flagged: boolean; reportId: string | null }
  /** The load's voucher, printed at this station after the commit as any voucher sold here. */
  preview: string
  print: VoucherSale['print']
}

/** A lost terminal session closed at the cash desk against its original voucher: its balance as a change voucher. */
export interface TerminalRecovery {
  sessionId: string
  balanceCents: number
  /** null: the session had no balance left, so no voucher is issued. */
  change: VoucherView | null
  print: VoucherSale['print'] | null
}

/** `print`: printed, or PRINT_PENDING (the voucher is sold; reprint it with `reprintSale` before handing it over). */
export interface VoucherSale {
  voucher: VoucherView
  aml: { flagged: boolean; reportId: string | null }
  preview: string
  print:
    | { printed: true; target: string }
    | { printed: false; code: 'PRINT_PENDING'; ref: string; message: string; messageEn: string }
}
export type ReceiptPrint =
  { printed: true } | { printed: false; error: { code: string; reason: string | null; message: string } }
export interface PayResult {
  payout: Payout
  receipt: ReceiptPrint
  preview: string
}

/**
 * What POST /api/tickets/validate and /api/tickets/pay answer: the line's own words plus the one shape the cashier
 * reads (`view`, `paid`), made by the server's cash desk (cashdesk/ticket-answer.ts).
 */
export type ScanAnswer = ServerScanAnswer & { view: ScanView }
export type PayAnswer = ServerPayAnswer & { paid: PaidView }
export type { InstantScan }
/** One row of the lotto or lottery prize register (what the cashier reads of it: when, where, how much). */
export interface RegisterEntry {
  payoutId: string
  ticketNumber: string
  amountCents: number
  currency: string
  paidAt: string
  stationId: string | null
  cashierId: string | null
}
/** The part of a lottery or raffle draw the cashier shows. */
export interface LotteryDrawInfo {
  drawId: string
  product: 'lottery' | 'raffle'
  plan: { name: string; drawNumber: number; claimDeadline: string; currency: string }
}
export interface StationDay {
  stationId: string
  day: string
  movements: DayMovement[]
  inCents: number
  outCents: number
  balanceCents: number
  currency: string | null
}

/** A game of the hall that sold cards, as the cashier chooses it to find a card by serial (issue 29). */
export interface CardGame {
  gameId: string
  gameNo: number
  status: string
  sessionNo: number
  sessionOpenedAt: string
  createdAt: string
  finishedAt: string | null
  /** BNG-100: a simultaneous game hosted by another hall: the host's name (null for the hall's own game). */
  hostHallName: string | null
}

/** Who is at this cashier station and the open shift (issue 13 point 5). */
export type StationShift = TableTill

export function createCashdeskApi(
  lang: () => Lang,
  options: { base?: string; device?: string | null; token?: () => string | null } = {},
) {
  const requestOptions = { lang, base: options.base, device: options.device, token: options.token }
  const request = createRequest(requestOptions)
  const enc = encodeURIComponent
  return {
    ...stationCalls(request, requestOptions),
    halls: () => request<{ halls: Array<{ id: string; name: string; currency: string }> }>('GET', '/api/halls'),
    offer: (hallId: string) => request<KioskOffer>('GET', `/api/kiosk/halls/${enc(hallId)}/offer`),
    checkVoucher: (code: string) => request<VoucherView>('POST', '/api/vouchers/check', { code }),
    /** One voucher for a basket of cards, lotto slips and e-instant tickets, printed all or nothing (issue 13). */
    purchase: (input: KioskBasketRequest) =>
      request<KioskPurchase>('POST', '/api/kiosk/purchases', { ...input, ageConfirmed: true }),
    sellVoucher: (input: {
      hallId: string
      amountCents: number
      cash: CashSent
      stationId: string
      cashierId: string
      buyerDocument?: string
    }) => request<VoucherSale>('POST', '/api/vouchers', input),
    /** Issue 27: the hall's bingo terminals, each with its open session's balance (null: waiting for a player). */
    hallTerminals: (hallId: string) =>
      request<{ hallId: string; terminals: HallTerminal[] }>('GET', `/api/halls/${enc(hallId)}/terminals`),
    /** Issue 27: cash loaded onto a terminal's session (or a session started), the cash into this drawer. */
    loadTerminal: (input: {
      terminalId: string
      amountCents: number
      cash: CashSent
      ageConfirmed?: boolean
      buyerDocument?: string
    }) => request<TerminalLoad>('POST', '/api/terminal-sessions/load', input),
    recoverTerminal: (voucherCode: string) =>
      request<TerminalRecovery>('POST', '/api/terminal-sessions/recover', { voucherCode }),
    cashOut: (input: { code: string; stationId: string; cashierId: string }) =>
      request<{ voucher: VoucherView; paidCents: number }>('POST', '/api/vouchers/cashout', input),
    /** INS-10: `inventoryCode`, an instant ticket's code printed outside its scratch area, judged with `code`. */
    validate: (input: { code: string; inventoryCode?: string; stationId: string; cashierId: string }) =>
      request<ScanAnswer>('POST', '/api/tickets/validate', input),
    /** Issue 29: the games of this station's hall that sold cards, to find a card by its serial within one. */
    cardGames: () => request<{ games: CardGame[] }>('GET', '/api/tickets/lookup/games'),
    /** Issue 29: a card's state by its serial (as heard) within a game; never payable (BNG-71). */
    lookupCard: (input: { gameId: string; serial: string; stationId: string; cashierId: string }) =>
      request<{ view: ScanView }>('POST', '/api/tickets/lookup', input),
    pay: (input: {
      code: string
      /** INS-10: an instant ticket is paid only with its inventory code (printed outside the scratch area) too. */
      inventoryCode?: string
      stationId: string
      cashierId: string
      payeeName?: string
      payeeDocument?: string
      /** CFG-22: a progressive pot winner's contact telephone (Bolivia). */
      payeePhone?: string
      objectCode?: string
      /** PRM-2: the other tickets of a points tómbola presented with `code`, used in the one hand-over. */
      codes?: string[]
    }) => request<PayAnswer>('POST', '/api/tickets/pay', input),
    lottoSlip: (receipt: string) => request<LottoReceipt>('GET', `/api/lotto/slips/${enc(receipt)}`),
    lotteryDraw: (drawId: string) => request<LotteryDrawInfo>('GET', `/api/lottery/draws/${enc(drawId)}`),
    prizeRegister: (product: 'lotto' | 'lottery', drawId: string) =>
      request<{ entries: RegisterEntry[] }>('GET', `/api/${product}/prize-register?drawId=${enc(drawId)}`),
    /**
     * Issue 29 point 1 (BNG-86): an annulled game's card refunded once, through the cash desk's one refund: in cash
     * out of this station's open shift, or (a kiosk buyer's card, at the kiosk) onto a new printed voucher.
     */
    refundCard: (input: { code: string; to: 'cash' | 'voucher'; stationId?: string; cashierId?: string }) =>
      request<CardRefund>('POST', '/api/refunds/cards', input),
    /** BNG-92: the presented card is altered or does not match its code: held as evidence, its prize not paid. */
    markTampered: (input: { code: string; reason: 'code_mismatch' | 'altered_marks' | 'erasable_marks' | 'damaged' }) =>
      request<{ state: string }>('POST', '/api/tickets/tampered', input),
    reprint: (payoutId: string, stationId: string) =>
      request<{ printed: boolean }>('POST', `/api/payouts/${enc(payoutId)}/receipt/print`, { stationId }),
    /** Issue 23 point 5: a sale whose ticket failed to print, printed again at this station (REIMPRESIÓN n). */
    reprintSale: (ref: string) => request<{ ref: string; reprint: number }>('POST', '/api/tickets/reprint', { ref }),
    movements: (stationId: string) => request<StationDay>('GET', `/api/stations/${enc(stationId)}/movements`),
    /** The closed shift's report as PDF, in the screen's language. */
    shiftReportPdf: (shiftId: string, lang: Lang) =>
      request.blob(`/api/shifts/${enc(shiftId)}/report.pdf?lang=${lang}`),
  }
}

export type CashdeskApi = ReturnType<typeof createCashdeskApi>
export type { ShiftReport } from './station-api.ts'
