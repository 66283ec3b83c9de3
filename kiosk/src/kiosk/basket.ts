/**
 * The one kiosk's basket (issue 13 point 1): cartones, one lotto slip (boletos: chosen numbers or quick picks) and
 * raspaditas, paid together by one credit voucher. Pure: what the basket holds, what it costs, what still stops the
 * purchase, and the body of POST /api/kiosk/purchases.
 */
import {
  missing as slipMissing,
  slipRequest,
  slipTotalCents,
  type Board,
  type SlipRules,
} from '../shared/lotto-slip.ts'

export const Section = { cards: 'cards', slips: 'slips', instant: 'instant' } as const
export type Section = (typeof Section)[keyof typeof Section]

/** `?section=` as the lotto and instant screens' redirects send it (Spanish names, English accepted). */
export function sectionFromParam(raw: string | null): Section | null {
  switch ((raw ?? '').toLowerCase()) {
    case 'cartones':
    case 'cards':
      return 'cards'
    case 'boletos':
    case 'slips':
    case 'lotto':
      return 'slips'
    case 'raspaditas':
    case 'instant':
      return 'instant'
    default:
      return null
  }
}

export interface SlipDraft {
  boards: Board[]
  pending: number[]
  draws: number
  player: { name: string; document: string }
}

export interface BasketInput {
  /**
   * `picks`: in a fast bingo whose player chooses his numbers (BNG-98), each card's numbers (count = picks.length);
   * `pendingPicks`: the numbers of the card being chosen, not yet complete.
   */
  cards: {
    count: number
    gameId: string
    faceValueCents: number
    picks?: number[][]
    pendingPicks?: number
  } | null
  slip: { draft: SlipDraft; drawId: string; rules: SlipRules } | null
  instant: { count: number; gameNo: number; priceCents: number } | null
}

export interface BasketLine {
  kind: Section
  quantity: number
  amountCents: number
}

/** The lines with something in them, in the order of the tabs. */
export function basketLines(b: BasketInput): BasketLine[] {
  const lines: BasketLine[] = []
  if (b.cards && b.cards.count > 0)
    lines.push({ kind: 'cards', quantity: b.cards.count, amountCents: b.cards.count * b.cards.faceValueCents })
  if (b.slip && b.slip.draft.boards.length > 0)
    lines.push({
      kind: 'slips',
      quantity: b.slip.draft.boards.length,
      amountCents: slipTotalCents(b.slip.draft.boards, b.slip.draft.draws, b.slip.rules),
    })
  if (b.instant && b.instant.count > 0)
    lines.push({ kind: 'instant', quantity: b.instant.count, amountCents: b.instant.count * b.instant.priceCents })
  return lines
}

export function basketTotalCents(b: BasketInput): number {
  return basketLines(b).reduce((s, l) => s + l.amountCents, 0)
}

/** What still stops the purchase, first things first; null when the buy button may be pressed. */
export type Blocker = 'empty' | 'slip_pending' | 'card_pending' | 'slip_player' | 'voucher' | 'balance' | 'age'

export function basketBlocker(
  b: BasketInput,
  state: { voucherCents: number | null; ageConfirmed: boolean },
): Blocker | null {
  const lines = basketLines(b)
  const pending = b.slip ? b.slip.draft.pending.length > 0 : false
  const cardPending = (b.cards?.pendingPicks ?? 0) > 0
  if (lines.length === 0) return pending ? 'slip_pending' : cardPending ? 'card_pending' : 'empty'
  if (cardPending) return 'card_pending'
  if (b.slip && (pending || b.slip.draft.boards.length > 0)) {
    const m = slipMissing(b.slip.draft.boards, b.slip.draft.pending, b.slip.draft.player)
    if (m === 'pending') return 'slip_pending'
    if (m === 'player') return 'slip_player'
  }
  if (state.voucherCents === null) return 'voucher'
  if (basketTotalCents(b) > state.voucherCents) return 'balance'
  if (!state.ageConfirmed) return 'age'
  return null
}

export interface PurchaseBody {
  cards?: { gameId: string; count: number; picks?: number[][] }
  slips?: Array<{
    drawId: string
    boards: number[][]
    quickPicks: number
    draws: number
    player: { name: string; document: string }
  }>
  instant?: { gameNo: number; count: number }
}

/** The items of POST /api/kiosk/purchases (the voucher, the age answer and the kiosk are added by the caller). */
export function purchaseBody(b: BasketInput): PurchaseBody {
  const out: PurchaseBody = {}
  if (b.cards && b.cards.count > 0)
    out.cards = {
      gameId: b.cards.gameId,
      count: b.cards.count,
      ...(b.cards.picks ? { picks: b.cards.picks.map((p) => [...p]) } : {}),
    }
  if (b.slip && b.slip.draft.boards.length > 0) {
    const { boards, quickPicks, draws, player } = slipRequest(
      b.slip.draft.boards,
      b.slip.draft.draws,
      b.slip.draft.player,
      '',
    )
    out.slips = [{ drawId: b.slip.drawId, boards, quickPicks, draws, player }]
  }
  if (b.instant && b.instant.count > 0) out.instant = { gameNo: b.instant.gameNo, count: b.instant.count }
  return out
}
