/**
 * The one kiosk's state (issue 13 point 1): what the hall has on sale (cartones, the lotto draw, e-instant games;
 * refreshed whenever the hall feed moves), the basket the player fills in the three sections, the voucher (scanned
 * or typed by its short code) with its balance, and the age answer (CFG-5). One purchase pays the whole basket
 * with the voucher, printed all or nothing; a refusal shows a problem screen with the way back, and the kiosk
 * forgets the player when left idle.
 */
import { batch, computed, signal } from '@preact/signals'
import {
  ApiError,
  type CardRefund,
  type CashdeskApi,
  type KioskOffer,
  type KioskPurchase,
  type Lang,
  type VoucherView,
} from '../../../web/cashdesk-api.ts'
import { canAddBoard, toggleNumber, type Board, type SlipRules } from '../shared/lotto-slip.ts'
import { quickPickOrNone, tapNumber, type ChosenDraft } from '../../../web/chosen-picks.ts'
import { basketBlocker, basketLines, basketTotalCents, purchaseBody, type BasketInput, type Section } from './basket.ts'
import type { Problem, RefundRefusal } from './texts.ts'
import { DESK_PROBLEMS, problemOf } from './refusals.ts'
import { invalidView, type ScanView } from '../../../server/src/cashdesk/ticket-answer.ts'
import { readCardShortCode } from '../../../server/src/cashdesk/card-short-code.ts'

export type Screen =
  | { name: 'sale' }
  | { name: 'minor' }
  | { name: 'printing' }
  | { name: 'done'; purchase: KioskPurchase }
  | { name: 'problem'; problem: Problem; keepsCredit: boolean; retry: boolean }
  /** Issue 29 point 1: a presented card of an annulled game, its refund offered onto a voucher, or refused in words. */
  | { name: 'refund'; code: string; view: ScanView; refusal: RefundRefusal | null }
  | { name: 'refunding' }
  | { name: 'refunded'; refund: CardRefund }

const EMPTY_PLAYER = { name: '', document: '' }

export function createKioskStore(
  api: CashdeskApi,
  options: { hallId: string; kioskId: string; lang: Lang; section?: Section | null },
) {
  const lang = signal<Lang>(options.lang)
  const offer = signal<KioskOffer | null>(null)
  const offline = signal(false)
  /** The server's own words when it refuses this kiosk (a revoked or unknown credential, another hall). */
  const refused = signal<string | null>(null)
  const screen = signal<Screen>({ name: 'sale' })
  /** The section the player looks at; null until the offer says what is on sale. */
  const chosenSection = signal<Section | null>(options.section ?? null)
  /** GEN-21: the rules panel is open over the sale. */
  const helpOpen = signal(false)

  // ---- the basket
  const cardCount = signal(0)
  /** BNG-98: in a game whose player chooses his numbers, each card's numbers, and those of the card being chosen. */
  const chosenCards = signal<number[][]>([])
  const cardPicks = signal<number[]>([])
  /** BNG-13: «Al azar» found no card left to make with the numbers tapped (said on screen, not done silently). */
  const noFreeCard = signal(false)
  const boards = signal<Board[]>([])
  const pending = signal<number[]>([])
  const draws = signal(1)
  const player = signal({ ...EMPTY_PLAYER })
  const instantCount = signal(0)
  const instantGameNo = signal<number | null>(null)

  // ---- the voucher and the age answer
  const voucher = signal<VoucherView | null>(null)
  const typedCode = signal('')
  const checking = signal(false)
  /** Why the last voucher read was refused, shown beside the field (null when it was not). */
  const voucherProblem = signal<Problem | null>(null)
  /** CFG-5: null until the player answers the age question in this visit. */
  const adult = signal<boolean | null>(null)

  const game = computed(() => (offer.value?.state === 'on_sale' ? offer.value.game : null))
  const lotto = computed(() => offer.value?.lotto ?? null)
  const slipRules = computed<SlipRules | null>(() => {
    const l = lotto.value
    return l
      ? {
          range: l.range,
          picks: l.picks,
          priceCents: l.priceCents,
          maxBoardsPerSlip: l.maxBoardsPerSlip,
          maxDrawsPerSlip: l.maxDrawsPerSlip,
        }
      : null
  })
  const instantGames = computed(() => (offer.value?.instantAllowed ? offer.value.instant : []))
  const instantGame = computed(
    () => instantGames.value.find((g) => g.gameNo === instantGameNo.value) ?? instantGames.value[0] ?? null,
  )
  const currency = computed(() => offer.value?.hall.currency ?? voucher.value?.currency ?? 'BOB')

  /** The section shown: the chosen one, else the first with something on sale. */
  const section = computed<Section>(() => {
    if (chosenSection.value) return chosenSection.value
    if (game.value) return 'cards'
    if (lotto.value) return 'slips'
    if (instantGames.value.length > 0) return 'instant'
    return 'cards'
  })

  const basket = computed<BasketInput>(() => {
    const g = game.value
    const l = lotto.value
    const r = slipRules.value
    const ig = instantGame.value
    return {
      cards: g
        ? {
            count: cardCount.value,
            gameId: g.gameId,
            faceValueCents: g.faceValueCents,
            ...(g.chosenNumbers ? { picks: chosenCards.value, pendingPicks: cardPicks.value.length } : {}),
          }
        : null,
      slip:
        l && r
          ? {
              drawId: l.drawId,
              rules: r,
              draft: { boards: boards.value, pending: pending.value, draws: draws.value, player: player.value },
            }
          : null,
      instant: ig ? { count: instantCount.value, gameNo: ig.gameNo, priceCents: ig.priceCents } : null,
    }
  })
  const lines = computed(() => basketLines(basket.value))
  const totalCents = computed(() => basketTotalCents(basket.value))
  const blocker = computed(() =>
    basketBlocker(basket.value, {
      voucherCents: voucher.value?.amountCents ?? null,
      ageConfirmed: adult.value === true,
    }),
  )

  async function refreshOffer(): Promise<void> {
    try {
      const next = await api.offer(options.hallId)
      batch(() => {
        offer.value = next
        offline.value = false
        refused.value = null
        // What went off sale leaves the basket: the purchase would be refused for it.
        if (next.state !== 'on_sale') cardCount.value = 0
        else if (next.game) cardCount.value = Math.min(cardCount.value, maxCards.value)
        // BNG-98: numbers chosen for a game no longer on sale, or for cards beyond the maximum, leave too.
        if (next.state !== 'on_sale' || !next.game?.chosenNumbers) {
          chosenCards.value = []
          cardPicks.value = []
        } else if (chosenCards.value.length > cardCount.value)
          chosenCards.value = chosenCards.value.slice(0, cardCount.value)
        if (!next.lotto) {
          boards.value = []
          pending.value = []
        }
        if (!next.instantAllowed || next.instant.length === 0) instantCount.value = 0
      })
    } catch (err) {
      // A refusal is said in the server's words (localized by Accept-Language); anything else is the network.
      if (err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404))
        batch(() => {
          refused.value = err.message
          offline.value = false
        })
      else offline.value = true
    }
  }

  /** Forgets the player: basket, voucher, age answer (after a purchase, when idle, or on "cancel"). */
  function reset() {
    batch(() => {
      screen.value = { name: 'sale' }
      helpOpen.value = false
      chosenSection.value = options.section ?? null
      cardCount.value = 0
      chosenCards.value = []
      cardPicks.value = []
      boards.value = []
      pending.value = []
      draws.value = 1
      player.value = { ...EMPTY_PLAYER }
      instantCount.value = 0
      voucher.value = null
      typedCode.value = ''
      voucherProblem.value = null
      adult.value = null
    })
    void refreshOffer()
  }

  function show(s: Section) {
    chosenSection.value = s
  }

  // ---- cartones
  const maxCards = computed(() => {
    const g = game.value
    return g && offer.value ? Math.max(0, Math.min(g.available, offer.value.maxCardsPerPurchase)) : 0
  })
  function setCards(n: number) {
    // GEN-18 (issue 29 point 10): below the hall's minimum purchase the stepper goes to the minimum or to none.
    const min = offer.value?.bets?.minCardsPerPurchase ?? 1
    let next = Math.max(0, Math.min(n, maxCards.value))
    if (next > 0 && next < min) next = n > cardCount.value && min <= maxCards.value ? min : 0
    cardCount.value = next
  }

  // ---- cartones de números elegidos (BNG-98)
  function setChosenCards(cards: number[][]) {
    batch(() => {
      chosenCards.value = cards
      cardCount.value = cards.length
    })
  }
  /** The basket's chosen cards and the card being chosen, as the shared rule of a tap (web/chosen-picks.ts) gives them. */
  function setDraft(d: ChosenDraft) {
    batch(() => {
      noFreeCard.value = false
      if (d.cards !== chosenCards.value) setChosenCards(d.cards)
      cardPicks.value = d.pending
    })
  }
  /** A number tapped on the card being chosen; the card joins the basket once it holds its picks (not twice). */
  function toggleCardNumber(n: number) {
    const c = game.value?.chosenNumbers
    if (c) setDraft(tapNumber({ cards: chosenCards.value, pending: cardPicks.value }, n, c, maxCards.value))
  }
  /** "Al azar": the rest of the card being chosen, at random among the numbers not yet tapped. */
  function quickPickCard() {
    const c = game.value?.chosenNumbers
    if (!c) return
    const next = quickPickOrNone({ cards: chosenCards.value, pending: cardPicks.value }, c, maxCards.value)
    if (next) setDraft(next)
    else noFreeCard.value = true
  }
  function removeChosenCard(i: number) {
    setChosenCards(chosenCards.value.filter((_, j) => j !== i))
  }
  function clearCardPicks() {
    noFreeCard.value = false
    cardPicks.value = []
  }

  // ---- boletos
  function toggle(n: number) {
    const r = slipRules.value
    if (!r) return
    const next = toggleNumber(pending.value, n, r)
    // A board joins the slip as soon as it is complete.
    if (next.length === r.picks && canAddBoard(boards.value, r))
      batch(() => {
        boards.value = [...boards.value, { kind: 'chosen', numbers: next }]
        pending.value = []
      })
    else pending.value = next
  }
  function quickPick() {
    const r = slipRules.value
    if (r && canAddBoard(boards.value, r)) boards.value = [...boards.value, { kind: 'quick' }]
  }
  function removeBoard(i: number) {
    boards.value = boards.value.filter((_, j) => j !== i)
  }
  function clearPending() {
    pending.value = []
  }
  function setDraws(n: number) {
    const r = slipRules.value
    if (r && n >= 1 && n <= r.maxDrawsPerSlip) draws.value = n
  }
  function setPlayer(p: Partial<{ name: string; document: string }>) {
    player.value = { ...player.value, ...p }
  }

  // ---- raspaditas
  const maxInstant = 20
  function setInstant(n: number, gameNo?: number) {
    batch(() => {
      if (gameNo !== undefined) instantGameNo.value = gameNo
      instantCount.value = Math.max(0, Math.min(n, maxInstant))
    })
  }

  // ---- the voucher
  /** A voucher read by the wedge scanner or the camera, or its short code typed in the field. */
  async function checkVoucher(code: string): Promise<void> {
    const typed = code.trim()
    if (!typed || checking.value || screen.value.name !== 'sale') return
    // A bingo card read by the scanner: the player hands in a card of an annulled game for its refund.
    if (/^BLL1\.C\./.test(typed)) return presentCard(typed)
    // Issue 29: or the code printed under its QR, typed as printed (with its dashes or spaces) when the QR is damaged.
    const printed = readCardShortCode(typed)
    if (printed) {
      typedCode.value = ''
      return presentCard(printed)
    }
    checking.value = true
    voucherProblem.value = null
    try {
      const v = await api.checkVoucher(typed)
      batch(() => {
        if (v.status === 'spent') {
          voucherProblem.value = 'voucher_spent'
          voucher.value = null
        } else if (v.status === 'expired') {
          voucherProblem.value = 'voucher_expired'
          voucher.value = null
        } else {
          voucher.value = v
          typedCode.value = ''
        }
      })
    } catch (err) {
      const problem = problemOf(err, 'voucher')
      batch(() => {
        voucher.value = null
        // What the player cannot mend by typing again is said on the big screen, with the way to the cash desk.
        if (DESK_PROBLEMS.has(problem)) {
          typedCode.value = ''
          screen.value = { name: 'problem', problem, keepsCredit: false, retry: false }
        } else voucherProblem.value = problem
      })
    } finally {
      checking.value = false
    }
  }
  /**
   * Issue 29 point 1 (BNG-86): what the presented card is worth back. A card of an annulled game not yet refunded is
   * offered its full price onto a new voucher (confirmed first); anything else is said in words.
   */
  async function presentCard(code: string): Promise<void> {
    const typed = readCardShortCode(code) !== null
    checking.value = true
    try {
      const { view } = await api.validate({ code, stationId: options.kioskId, cashierId: options.kioskId })
      // A typed printed code no card has is a mistyped code, never a card "not valid".
      const refusal =
        typed && view.verdict === 'invalid' && view.invalid === 'unknown' ? 'unknown_code' : refusalOf(view)
      screen.value = { name: 'refund', code, view, refusal }
    } catch (err) {
      if (typed && err instanceof ApiError && err.code === 'TICKET_NOT_FOUND') {
        screen.value = { name: 'refund', code, view: invalidView('card', 'unknown'), refusal: 'unknown_code' }
        return
      }
      const invalid = err instanceof ApiError && (err.code === 'INVALID_SIGNATURE' || err.code === 'TICKET_NOT_FOUND')
      // Issue 24 point 1: a card whose row fails its seal is not refunded here: said as a card for the cash desk.
      const held = err instanceof ApiError && err.code === 'ROW_TAMPERED'
      screen.value = {
        name: 'refund',
        code,
        view: invalidView('card', 'unknown'),
        refusal: invalid ? 'invalid' : held ? 'held' : 'other',
      }
    } finally {
      checking.value = false
    }
  }
  function refusalOf(v: ScanView): RefundRefusal | null {
    if (v.product !== 'card' || v.verdict === 'invalid') return 'invalid'
    if (v.verdict === 'void') return v.refunded ? 'already' : null
    if (v.verdict === 'held' || v.verdict === 'destroyed' || v.verdict === 'blocked') return 'held'
    return 'not_annulled'
  }
  /** The player confirmed: the refund through the cash desk's one refund, printed on this kiosk's printer. */
  async function refundCard(): Promise<void> {
    const s = screen.value
    if (s.name !== 'refund' || s.refusal) return
    screen.value = { name: 'refunding' }
    try {
      const refund = await api.refundCard({ code: s.code, to: 'voucher' })
      screen.value = { name: 'refunded', refund }
    } catch (err) {
      const code = err instanceof ApiError ? err.code : ''
      if (code === 'ALREADY_REFUNDED') return presentCard(s.code)
      // Nothing was refunded when the printer is not there (checked before): said as any printer problem.
      if (code === 'DEVICE_UNAVAILABLE' || code === 'NETWORK') {
        screen.value = { name: 'problem', problem: problemOf(err), keepsCredit: false, retry: false }
        return
      }
      const details = (err as ApiError).details as { field?: string; reason?: string } | undefined
      // Not onto a voucher: a card bought in cash, or one the server refunds only in cash (GEN-21).
      const refusal: RefundRefusal =
        code === 'NOT_REFUNDABLE' && details?.field === 'to'
          ? details.reason === 'cash_only'
            ? 'cash_only'
            : 'cash_bought'
          : code === 'CARD_HELD' || code === 'CARD_DESTROYED' || code === 'TICKET_BLOCKED' || code === 'ROW_TAMPERED'
            ? 'held'
            : code === 'NOT_REFUNDABLE'
              ? 'not_annulled'
              : 'other'
      screen.value = { ...s, refusal }
    }
  }
  /** After the refund: the new voucher pays a purchase here straight away. */
  function useRefundVoucher() {
    const s = screen.value
    if (s.name !== 'refunded' || !s.refund.voucher) return
    const v = s.refund.voucher
    reset()
    voucher.value = v
  }

  /**
   * The voucher field as the player types it. A refusal of the last code read is about that code: it goes as soon
   * as the player edits the field, instead of staying beside a code it no longer describes.
   */
  function typeVoucherCode(text: string) {
    batch(() => {
      typedCode.value = text.toUpperCase()
      voucherProblem.value = null
    })
  }

  function forgetVoucher() {
    batch(() => {
      voucher.value = null
      voucherProblem.value = null
    })
  }

  function answerAge(isAdult: boolean) {
    adult.value = isAdult
    if (!isAdult) screen.value = { name: 'minor' }
  }

  async function buy(): Promise<void> {
    const v = voucher.value
    if (!v || blocker.value !== null || screen.value.name !== 'sale') return
    screen.value = { name: 'printing' }
    try {
      const purchase = await api.purchase({
        voucherCode: v.code,
        kioskId: options.kioskId,
        ...purchaseBody(basket.value),
      })
      screen.value = { name: 'done', purchase }
      void refreshOffer()
    } catch (err) {
      const p = problemOf(err)
      // The sale is all or nothing: whatever went wrong, the voucher was not spent. A voucher the desk must look at
      // (not_usable) is not promised to keep its balance, and leaves the screen with the player.
      const retry = p.startsWith('printer') || p === 'network' || p === 'busy' || p === 'other'
      if (p.startsWith('voucher') || DESK_PROBLEMS.has(p)) voucher.value = null
      screen.value = { name: 'problem', problem: p, keepsCredit: !DESK_PROBLEMS.has(p), retry }
    }
  }

  /** Back to the sale from a problem, basket kept (the offer reloaded: a closed sale leaves the basket). */
  function back() {
    screen.value = { name: 'sale' }
    void refreshOffer()
  }

  /** The same basket again after a printer or connection problem (nothing was spent). */
  async function retry(): Promise<void> {
    screen.value = { name: 'sale' }
    await buy()
  }

  return {
    lang,
    helpOpen,
    offer,
    offline,
    refused,
    screen,
    section,
    game,
    lotto,
    slipRules,
    instantGames,
    instantGame,
    currency,
    cardCount,
    maxCards,
    chosenCards,
    cardPicks,
    noFreeCard,
    toggleCardNumber,
    quickPickCard,
    removeChosenCard,
    clearCardPicks,
    boards,
    pending,
    draws,
    player,
    instantCount,
    maxInstant,
    voucher,
    typedCode,
    typeVoucherCode,
    checking,
    voucherProblem,
    adult,
    lines,
    totalCents,
    blocker,
    refreshOffer,
    reset,
    show,
    setCards,
    toggle,
    quickPick,
    removeBoard,
    clearPending,
    setDraws,
    setPlayer,
    setInstant,
    checkVoucher,
    presentCard,
    refundCard,
    useRefundVoucher,
    forgetVoucher,
    answerAge,
    buy,
    retry,
    back,
    kioskId: options.kioskId,
    hallId: options.hallId,
  }
}

export type KioskStore = ReturnType<typeof createKioskStore>
