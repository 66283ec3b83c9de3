/**
 * What a scanned ticket is and what it is worth, in one shape for every kind of ticket (issue 23 point 1). Each
 * product line judges a code in its own words: bingo cards (payouts.ts TicketStatus), instant tickets (instant
 * `scan`), lotto receipts (LottoValidation) and lottery or raffle tickets (LotteryValidation). The cash desk's
 * ticket desk (ticket-desk.ts) answers every scan with `view` and every payout with `paid` made here, so the
 * cashier screen reads one shape: what the ticket is, its identifying data, the verdict with its amount, and
 * whether and how it is paid here (§8).
 *
 * Pure: no I/O. Shared by the server and the cashier screen (kiosk/src/cashier/).
 */
import { readCardShortCode } from './card-short-code.ts'
import type { TicketStatus, Payout } from './payouts.ts'
import { formatShortCode, normalizeShortCode } from './short-code.ts'
import type { InstantService } from '../instant/service.ts'
import type { LottoService, LottoValidation } from '../lotto/service.ts'
import type { LotteryService, LotteryValidation } from '../lottery/service.ts'

/** An instant ticket's answer to the generic scan (instant `scan`). */
export type InstantScan = Awaited<ReturnType<InstantService['scan']>>
/** What a product line answers to a scan, by the code's kind. */
export type ScanAnswer = TicketStatus | InstantScan | LottoValidation | LotteryValidation
export type ReceiptPrint =
  { printed: true } | { printed: false; error: { code: string; reason: string | null; message: string } }
export interface CardPayResult {
  payout: Payout
  receipt: ReceiptPrint
  preview: string
}
export type InstantPayResult = Awaited<ReturnType<InstantService['payAtCashier']>>
export type LottoPayout = Awaited<ReturnType<LottoService['pay']>>
export type LotteryPayout = Awaited<ReturnType<LotteryService['pay']>>
/** What a product line answers to a payout: lotto and lottery payouts come without a printed receipt. */
export type PayAnswer =
  | CardPayResult
  | InstantPayResult
  | { payout: { kind: 'lotto' } & LottoPayout }
  | { payout: { kind: 'lottery' } & LotteryPayout }

export type Product = 'card' | 'instant' | 'lotto' | 'lottery' | 'raffle'

/**
 * The verdict, one word on the screen: GANADOR, SOLO REEMBOLSO (payable refund of the price), NO PREMIADO,
 * YA PAGADO, CADUCADO, ANULADO, BLOQUEADO (lost or stolen), NO VÁLIDO, PENDIENTE, NO VENDIDO (instant ticket not sold, or its pack not activated),
 * RETENIDO (a card kept as evidence, BNG-87 (a) / BNG-92), DESTRUIDO (BNG-87).
 */
export type Verdict =
  | 'winner'
  | 'refund'
  | 'not_winner'
  | 'paid'
  | 'expired'
  | 'void'
  | 'blocked'
  | 'invalid'
  | 'pending'
  | 'not_activated'
  | 'held'
  | 'destroyed'

/** Why a code is not valid, for the words under NO VÁLIDO. */
export type InvalidWhy =
  'signature' | 'kind' | 'unknown' | 'serial' | 'not_sold' | 'counterfeit' | 'mistyped' | 'length' | 'inventory'

/** One prize line: what it is for and how much. */
export type PrizeLabel =
  | { t: 'bingo'; kind: string }
  | { t: 'tier'; tier: number }
  | { t: 'category'; name: string; matches: number; drawNumber: number; board: number }
  | { t: 'named'; name: string }
export interface PrizeRow {
  key: string
  label: PrizeLabel
  amountCents: number
  goods: string | null
}

/** The data that identify the ticket: game or draw, serial or receipt, number, series and fraction. */
export interface TicketIds {
  gameNo?: number
  gameName?: string
  gameCode?: string
  hallName?: string
  /** A card of an interconnected game (BNG-100): the host hall whose game it plays; `hallName` is where it was sold. */
  hostHallName?: string
  drawNumbers?: number[]
  drawId?: string
  /** Lotto: the draws whose prize was already paid (to find when in the prize register). */
  paidDrawIds?: string[]
  serial?: string
  receipt?: string
  number?: string
  series?: number
  fraction?: number
  tier?: number
  priceCents?: number
  rows?: number[][]
  /** A card's rows laid out in its own layout's columns (3 x 9 for 90 balls, 5 x 5 for 75; 0 = blank). */
  grid?: number[][]
  /** The hall's time zone, for the times shown with the ticket (a refund's). */
  timeZone?: string
}

export interface ScanView {
  /** Null when nothing tells what the code was meant to be. */
  product: Product | null
  verdict: Verdict
  /** The verdict's amount: payable now, paid, lost by expiry, or refundable. Null when there is none. */
  amountCents: number | null
  currency: string | null
  /** Whether the cashier pays it now: a winner, or a lotto slip whose price is refunded at the desk. */
  payable: boolean
  /** What the prize register needs of the payee to pay it: `fullName` = first and last names (two words). */
  payee: { required: boolean; fullName: boolean }
  /**
   * INS-10: an instant ticket judged on its validation code alone: it is paid only once the inventory code printed
   * outside its scratch area is presented too.
   */
  inventoryCodeRequired: boolean
  ids: TicketIds
  prizes: PrizeRow[]
  /** Prizes in goods (raffles, some lotto categories). */
  goods: string[]
  /** PRM-2: a tómbola's winner may take any object drawn that is still there (empty otherwise). */
  choices: Array<{ code: string; name: string; description: string; points?: number }>
  /** PRM-2: what a points tómbola's ticket is worth in points (null for any other ticket). */
  points: number | null
  claimUntil: string | null
  expiredAt: string | null
  paid: { at: string | null; stationId: string | null; cashierId: string | null } | null
  blocked: 'lost' | 'stolen' | null
  invalid: InvalidWhy | null
  /** Draws of a lotto slip or lottery ticket that are not settled yet. */
  pendingDraws: number[]
  /** Bingo void games and misprinted instant tickets: the face value or price refunded. */
  refundCents: number | null
  /** ALREADY PAID because the price was refunded (misprint, annulled slip), not a prize paid. */
  refunded: boolean
  /** Characters of a typed validation code of the wrong length. */
  typedLength: number | null
  /** The server's own words (English), shown small under the verdict. */
  reason: string | null
}

/** The kind of ticket a code is, from its prefix (`BLL1.C.`, ...) or its shape (a typed instant code). */
export function productOfCode(code: string): Product | 'voucher' | null {
  const m = /^BLL1\.([CLTIV])\./.exec(code.trim())
  if (m)
    return ({ C: 'card', L: 'lotto', T: 'lottery', I: 'instant', V: 'voucher' } as const)[
      m[1] as 'C' | 'L' | 'T' | 'I' | 'V'
    ]
  return readTyped(code).kind === 'instant' ? 'instant' : null
}

/** The kind of prize ticket a code is meant to be (null for a voucher or an unknown code). */
export function ticketOfCode(code: string): Product | null {
  const p = productOfCode(code)
  return p === 'voucher' ? null : p
}

/** An instant ticket's inventory serial (printed outside): `GGGG-PPPPPP-TTT-C` (instant-codes.ts). */
const SERIAL = /^\d{4}-?\d{6}-?\d{3}-?\d$/
const VALIDATION_CODE_LENGTH = 24

export type TypedCode =
  | { kind: 'signed'; code: string }
  | { kind: 'instant'; code: string }
  | { kind: 'instant_length'; length: number }
  | { kind: 'instant_serial' }
  | { kind: 'voucher_short'; code: string }
  | { kind: 'card_short'; code: string }
  | { kind: 'other'; code: string }

/**
 * What a cashier typed or a scanner read: a signed code (`BLL1....`, spaces a paste may carry removed), an instant
 * ticket's hidden validation code (24 characters, dashes and spaces ignored, shown in groups of four, upper case),
 * such a code with characters missing or extra, or the ticket's inventory serial typed by mistake.
 */
export function readTyped(text: string): TypedCode {
  const t = text.trim()
  if (/^BLL1\./i.test(t)) return { kind: 'signed', code: t.replace(/\s+/g, '') }
  if (SERIAL.test(t)) return { kind: 'instant_serial' }
  // Issue 29 point 4: a bingo card's printed short code ("CK7Q-M2XR-D9HF-AB3C-DE4F"), typed when its QR is damaged.
  const card = readCardShortCode(t)
  if (card) return { kind: 'card_short', code: card }
  // Issue 29 point 3: a voucher's printed short code ("7KQM-2XRD-9HFA"), typed when its QR cannot be read.
  const short = normalizeShortCode(t)
  if (short && /[A-Z]/i.test(short)) return { kind: 'voucher_short', code: formatShortCode(short) }
  const compact = t.replace(/[\s-]/g, '')
  if (/^\d{4}[0-9A-Za-z]*$/.test(compact) && /[-\s]|^.{16,}$/.test(t)) {
    if (compact.length === VALIDATION_CODE_LENGTH)
      return { kind: 'instant', code: compact.toUpperCase().replace(/(.{4})(?=.)/g, '$1-') }
    if (compact.length >= 12) return { kind: 'instant_length', length: compact.length }
  }
  return { kind: 'other', code: t }
}

function empty(product: Product | null, verdict: Verdict): ScanView {
  return {
    product,
    verdict,
    amountCents: null,
    currency: null,
    payable: false,
    payee: { required: false, fullName: false },
    inventoryCodeRequired: false,
    ids: {},
    prizes: [],
    goods: [],
    choices: [],
    points: null,
    claimUntil: null,
    expiredAt: null,
    paid: null,
    blocked: null,
    invalid: null,
    pendingDraws: [],
    refundCents: null,
    refunded: false,
    typedLength: null,
    reason: null,
  }
}

/** A code the cashier screen refuses before asking the server, or one the server refused with an error. */
export function invalidView(product: Product | null, why: InvalidWhy, reason: string | null = null): ScanView {
  return { ...empty(product, 'invalid'), invalid: why, reason }
}

const blockedKind = (reason: string | null | undefined): 'lost' | 'stolen' | null => {
  const m = /\b(lost|stolen)\b/.exec(reason ?? '')
  return m ? (m[1] as 'lost' | 'stolen') : null
}

/** The answer of POST /api/tickets/validate as the cashier shows it. `code` is what was scanned. */
export function readAnswer(a: ScanAnswer, code = ''): ScanView {
  if (!('kind' in a)) return invalidView(ticketOfCode(code), a.reason, a.detail)
  switch (a.kind) {
    case 'card':
      return readCard(a)
    case 'instant':
      return readInstant(a)
    case 'lotto':
      return readLotto(a)
    case 'lottery':
    case 'raffle':
      return readLottery(a)
    default: {
      const _never: never = a
      return _never
    }
  }
}

function readCard(st: Exclude<TicketStatus, { status: 'invalid' }>): ScanView {
  const base: ScanView = {
    ...empty('card', 'invalid'),
    currency: st.currency,
    ids: {
      gameNo: st.gameNo,
      serial: st.serial,
      hallName: st.cardHallName,
      ...(st.cardHallId !== st.hallId ? { hostHallName: st.hallName } : {}),
      rows: st.rows,
      grid: st.grid,
    },
  }
  const lines = (ps: Array<{ id: string; kind: string; amountCents: number }>): PrizeRow[] =>
    ps.map((p) => ({ key: p.id, label: { t: 'bingo', kind: p.kind }, amountCents: p.amountCents, goods: null }))
  switch (st.status) {
    case 'winner':
      return {
        ...base,
        verdict: 'winner',
        amountCents: st.amountCents,
        payable: true,
        payee: { required: st.idRequired, fullName: false },
        prizes: lines(st.prizes),
        claimUntil: st.claimUntil,
      }
    case 'paid':
      return {
        ...base,
        verdict: 'paid',
        amountCents: st.amountCents,
        prizes: lines(st.prizes),
        paid: { at: st.paidAt || null, stationId: st.stationId, cashierId: st.cashierId },
      }
    case 'expired':
      return {
        ...base,
        verdict: 'expired',
        amountCents: st.amountCents,
        prizes: lines(st.prizes),
        expiredAt: st.expiredAt,
      }
    case 'not_winner':
      return { ...base, verdict: 'not_winner' }
    case 'void':
      // Issue 29 point 1: refunded once; a second presentation says when, where and by whom (names: ticket-desk.ts).
      return st.refunded
        ? {
            ...base,
            verdict: 'void',
            refundCents: st.refundCents,
            amountCents: st.refundCents,
            reason: st.reason,
            refunded: true,
            paid: { at: st.refunded.at, stationId: st.refunded.stationId, cashierId: st.refunded.cashierId },
            ids: { ...base.ids, timeZone: st.refunded.timeZone },
          }
        : { ...base, verdict: 'void', refundCents: st.refundCents, reason: st.reason }
    case 'blocked':
      return { ...base, verdict: 'blocked', blocked: blockedKind(st.reason) ?? 'lost', reason: st.note || null }
    case 'pending':
      return { ...base, verdict: 'pending', pendingDraws: [st.gameNo] }
    case 'held':
      return { ...base, verdict: 'held' }
    // BNG-91 / BNG-92: not valid for prizes: nothing is paid or refunded (as INS-8's declared-invalid ticket).
    case 'forfeited':
      return { ...base, verdict: 'void', prizes: [], amountCents: 0, refundCents: 0, reason: 'BNG-92' }
    case 'destroyed':
      return { ...base, verdict: 'destroyed' }
    default: {
      const _never: never = st
      return _never
    }
  }
}

function readInstant(a: InstantScan): ScanView {
  const base: ScanView = {
    ...empty('instant', 'invalid'),
    currency: a.currency,
    reason: a.reason,
    ids: { gameNo: a.gameNo, gameName: a.gameName, serial: a.serial, tier: a.tier, priceCents: a.priceCents },
    prizes:
      a.tier > 0
        ? [{ key: `tier-${a.tier}`, label: { t: 'tier', tier: a.tier }, amountCents: a.amountCents, goods: null }]
        : [],
  }
  switch (a.outcome) {
    // INS-5: the instant prize register always takes the payee's first and last names and document.
    case 'WIN':
      return {
        ...base,
        verdict: 'winner',
        amountCents: a.amountCents,
        payable: true,
        payee: { required: true, fullName: true },
        inventoryCodeRequired: a.inventoryCodeRequired,
        claimUntil: a.expiresAt,
      }
    case 'NO_WIN':
      return { ...base, verdict: 'not_winner' }
    case 'ALREADY_PAID': {
      const refunded = /refunded/.test(a.reason ?? '')
      return {
        ...base,
        verdict: 'paid',
        refunded,
        amountCents: refunded ? a.priceCents : a.tier > 0 ? a.amountCents : null,
        paid: { at: a.paidAt || null, stationId: a.stationId, cashierId: a.cashierId },
      }
    }
    case 'EXPIRED':
      return { ...base, verdict: 'expired', amountCents: a.tier > 0 ? a.amountCents : null, expiredAt: a.expiresAt }
    case 'REPORTED_LOST_STOLEN':
      return { ...base, verdict: 'blocked', blocked: blockedKind(a.reason) }
    // A misprint (INS-9): the price is refunded through the refund procedure, never paid as a prize here.
    case 'REFUND_ONLY':
      return { ...base, verdict: 'refund', amountCents: a.priceCents, refundCents: a.priceCents }
    case 'NOT_ACTIVATED':
      return { ...base, verdict: 'not_activated' }
    // INS-8: declared not valid for prizes for the player's damage: nothing is paid or refunded.
    case 'VOID':
      return { ...base, verdict: 'void', prizes: [], amountCents: 0, refundCents: 0 }
    default: {
      const _never: never = a.outcome
      return _never
    }
  }
}

function readLotto(a: LottoValidation): ScanView {
  const receipt = a.ticketId ?? undefined
  const byStatus = (s: string) => a.draws.filter((d) => d.status === s)
  const prizeRows = (draws: LottoValidation['draws']): PrizeRow[] =>
    draws.flatMap((d) =>
      d.prizes.map((p) => ({
        key: `${d.drawNumber}-${p.board}-${p.category}`,
        label: { t: 'category' as const, name: p.name, matches: p.matches, drawNumber: d.drawNumber, board: p.board },
        amountCents: p.amountCents,
        goods: p.goods,
      })),
    )
  const sum = (draws: LottoValidation['draws']) => draws.reduce((s, d) => s + d.amountCents, 0)
  const base: ScanView = {
    ...empty('lotto', 'invalid'),
    currency: a.currency,
    reason: a.reason,
    ids: { receipt, gameCode: receipt?.split('-')[0], drawNumbers: a.draws.map((d) => d.drawNumber) },
    pendingDraws: byStatus('pending').map((d) => d.drawNumber),
  }
  // LNS-25: every lotto payout, prize or refund, goes in the prize register with both names and the document.
  const payee = { required: true, fullName: true }
  switch (a.outcome) {
    case 'WIN': {
      const won = byStatus('win')
      return {
        ...base,
        verdict: 'winner',
        amountCents: a.amountCents,
        payable: true,
        payee,
        prizes: prizeRows(won),
        goods: a.goods,
        claimUntil: earliest(won.map((d) => d.claimDeadline)),
      }
    }
    case 'NO_WIN':
      return { ...base, verdict: 'not_winner' }
    case 'PENDING':
      return { ...base, verdict: 'pending' }
    case 'REFUND_ONLY':
      return {
        ...base,
        verdict: 'refund',
        amountCents: a.amountCents,
        refundCents: a.amountCents,
        payable: true,
        payee,
      }
    case 'ALREADY_PAID': {
      const paid = byStatus('paid')
      return {
        ...base,
        verdict: 'paid',
        refunded: /refund/.test(a.reason),
        amountCents: paid.length ? sum(paid) : null,
        prizes: prizeRows(paid),
        goods: paid.flatMap((d) => d.goods),
        paid: { at: null, stationId: null, cashierId: null },
        ids: { ...base.ids, paidDrawIds: paid.map((d) => d.drawId) },
      }
    }
    case 'EXPIRED': {
      const expired = byStatus('expired')
      return {
        ...base,
        verdict: 'expired',
        amountCents: sum(expired) || null,
        prizes: prizeRows(expired),
        expiredAt: latest(expired.map((d) => d.claimDeadline)),
      }
    }
    case 'REPORTED_LOST_STOLEN':
      return { ...base, verdict: 'blocked', blocked: blockedKind(a.reason) }
    // LOT-8: a receipt whose signature fails, or that the sales system does not know, is void: not valid.
    case 'VOID':
      return {
        ...base,
        verdict: 'invalid',
        invalid: /not a lotto/.test(a.reason) ? 'kind' : /registered/.test(a.reason) ? 'unknown' : 'signature',
      }
    default: {
      const _never: never = a.outcome
      return _never
    }
  }
}

function readLottery(a: LotteryValidation): ScanView {
  const base: ScanView = {
    ...empty(a.kind, 'invalid'),
    currency: a.currency,
    reason: a.reason,
    ids: {
      receipt: a.ticketId ?? undefined,
      drawId: a.drawId ?? undefined,
      number: a.number ?? undefined,
      series: a.series ?? undefined,
      fraction: a.fraction ?? undefined,
    },
    prizes: a.prizes.map((p) => ({
      key: p.code,
      label: { t: 'named' as const, name: p.name },
      amountCents: p.amountCents,
      goods: a.goods.find((g) => g.startsWith(`${p.name}:`)) ?? null,
    })),
    goods: a.goods,
    choices: a.choices ?? [],
    points: a.points ?? null,
  }
  // PRM-2: the object drawn for a tómbola ticket that another winner already took is not what this one is owed.
  if (a.choices?.length && !a.prizes.some((p) => a.choices!.some((o) => o.code === p.code))) {
    base.prizes = []
    base.goods = []
  }
  switch (a.outcome) {
    case 'WIN':
      return {
        ...base,
        verdict: 'winner',
        amountCents: a.amountCents,
        payable: true,
        payee: { required: true, fullName: true },
      }
    case 'NO_WIN':
      return { ...base, verdict: 'not_winner' }
    case 'PENDING':
      return { ...base, verdict: 'pending' }
    case 'ALREADY_PAID':
      return {
        ...base,
        verdict: 'paid',
        refunded: /refund/.test(a.reason),
        amountCents: a.amountCents,
        paid: {
          at: a.usedIn?.usedAt ?? /paid at (\S+)/.exec(a.reason)?.[1] ?? null,
          stationId: null,
          cashierId: null,
        },
      }
    case 'EXPIRED':
      return { ...base, verdict: 'expired', amountCents: a.amountCents }
    case 'REPORTED_LOST_STOLEN':
      return { ...base, verdict: 'blocked', blocked: blockedKind(a.reason) }
    // LOT-21: a cancelled draw's ticket: its price is refunded at the desk, to a named payee (INS-5).
    case 'REFUND_ONLY':
      return {
        ...base,
        verdict: 'refund',
        amountCents: a.amountCents,
        refundCents: a.amountCents,
        payable: true,
        payee: { required: true, fullName: true },
      }
    case 'VOID':
      // Returned unsold before the draw: a genuine ticket out of play (ANULADO). Anything else is not valid (LOT-8).
      if (/returned unsold/.test(a.reason)) return { ...base, verdict: 'void' }
      return {
        ...base,
        verdict: 'invalid',
        invalid: /not a lottery/.test(a.reason)
          ? 'kind'
          : /never sold/.test(a.reason)
            ? 'not_sold'
            : /forged|altered/.test(a.reason)
              ? 'signature'
              : 'unknown',
      }
    default: {
      const _never: never = a.outcome
      return _never
    }
  }
}

const earliest = (isos: string[]) =>
  isos.length ? isos.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b)) : null
const latest = (isos: string[]) =>
  isos.length ? isos.reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b)) : null

// ------------------------------------------------------------------------------------------------ payment

/** What was paid, for the banner and the receipt. */
export interface PaidView {
  product: Product
  /** A refund of the price (lotto slip annulled or excluded) rather than a prize. */
  refund: boolean
  payoutIds: string[]
  amountCents: number
  currency: string
  paidAt: string
  goods: string[]
  /**
   * The receipt: printed at the station's printer (`printed`), or the printer failed (`failed`), or the server
   * prints none for this kind (`none`: lotto and lottery payouts), in which case the screen draws one to print.
   */
  receipt: 'printed' | 'failed' | 'none'
  printError: string | null
  /** The server's preview of the printed receipt (bingo and instant). */
  preview: string | null
  /** Whether the server can print the receipt again (bingo payouts). */
  reprint: boolean
  /** Draw numbers paid (lotto, lottery). */
  drawNumbers: number[]
  /** PRM-2: the tickets of a points tómbola used in the hand-over, with their points. */
  tickets?: Array<{ number: string; points: number }>
}

/** A product line's answer to a payout, as the cashier shows it. */
export function readPayment(r: PayAnswer): PaidView {
  const printed = (x: { receipt: { printed: boolean; error?: { message: string } }; preview: string }) => ({
    receipt: x.receipt.printed ? ('printed' as const) : ('failed' as const),
    printError: x.receipt.printed ? null : (x.receipt.error?.message ?? null),
    preview: x.preview,
  })
  const p = r.payout
  if (!('kind' in p)) {
    const b = r as Extract<PayAnswer, { receipt: unknown }>
    return {
      product: 'card',
      refund: false,
      payoutIds: [p.payoutId],
      amountCents: p.amountCents,
      currency: p.currency,
      paidAt: p.paidAt,
      goods: [],
      ...printed(b),
      reprint: true,
      drawNumbers: [],
    }
  }
  switch (p.kind) {
    case 'instant': {
      const i = r as Extract<PayAnswer, { payout: { kind: 'instant' } }>
      return {
        product: 'instant',
        refund: false,
        payoutIds: [p.payoutId],
        amountCents: p.amountCents,
        currency: p.currency,
        paidAt: p.paidAt,
        goods: [],
        ...printed(i),
        reprint: false,
        drawNumbers: [],
      }
    }
    case 'lotto':
      return {
        product: 'lotto',
        refund: p.outcome === 'REFUND_ONLY',
        payoutIds: p.payouts.map((x) => x.payoutId),
        amountCents: p.amountCents,
        currency: p.currency ?? '',
        paidAt: p.paidAt,
        goods: p.goods,
        receipt: 'none',
        printError: null,
        preview: null,
        reprint: false,
        drawNumbers: p.drawNumbers,
      }
    case 'lottery':
      return {
        product: p.product,
        refund: p.outcome === 'REFUND_ONLY',
        payoutIds: [p.payoutId],
        amountCents: p.amountCents,
        currency: p.currency ?? '',
        paidAt: p.paidAt,
        goods: p.goods,
        receipt: 'none',
        printError: null,
        preview: null,
        reprint: false,
        drawNumbers: [p.drawNumber],
        ...('tickets' in p && p.tickets
          ? { tickets: p.tickets.map((x) => ({ number: x.number, points: x.points })) }
          : {}),
      }
    default: {
      const _never: never = p
      return _never
    }
  }
}
