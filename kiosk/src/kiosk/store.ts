/**
 * The kiosk's state: the game on sale (from the server, refreshed whenever the hall feed moves) and where the
 * player is in the purchase: home -> age check (CFG-5) -> voucher scan -> how many cards -> printing -> done, with
 * a problem screen for every refusal. Every screen has a way back; the kiosk returns home by itself when left idle.
 */
import { batch, computed, signal } from '@preact/signals'
import { ApiError, type CashdeskApi, type KioskOffer, type KioskPurchase, type Lang, type VoucherView } from '../shared/api.ts'
import type { Problem } from './texts.ts'

export type Screen =
  | { name: 'home' }
  | { name: 'age' }
  | { name: 'minor' }
  | { name: 'scan' }
  | { name: 'checking' }
  | { name: 'count'; voucher: VoucherView }
  | { name: 'printing'; count: number }
  | { name: 'done'; purchase: KioskPurchase }
  | { name: 'problem'; problem: Problem; detail: string | null; keepsCredit: boolean; back: 'home' | 'scan' | 'count' }

/** What a refusal from the server means to the player. */
export function problemOf(err: unknown): Problem {
  if (!(err instanceof ApiError)) return 'other'
  switch (err.code) {
    case 'INVALID_SIGNATURE': case 'TICKET_NOT_FOUND': case 'VALIDATION_FAILED': return 'voucher_invalid'
    case 'VOUCHER_SPENT': return 'voucher_spent'
    case 'VOUCHER_EXPIRED': return 'voucher_expired'
    case 'VOUCHER_INSUFFICIENT': return 'voucher_empty'
    case 'SALES_CLOSED': case 'SALES_NOT_OPEN': case 'GAME_NOT_FOUND': return 'sales_closed'
    case 'SERIES_EXHAUSTED': return 'sold_out'
    case 'DEVICE_UNAVAILABLE': return (err.details as { reason?: string } | undefined)?.reason === 'paper_out' ? 'printer_paper' : 'printer_offline'
    case 'NETWORK': return 'network'
    default: return 'other'
  }
}

export function createKioskStore(api: CashdeskApi, options: { hallId: string; kioskId: string; lang: Lang }) {
  const lang = signal<Lang>(options.lang)
  const offer = signal<KioskOffer | null>(null)
  const offline = signal(false)
  const screen = signal<Screen>({ name: 'home' })
  const count = signal(1)
  /** The player confirmed the minimum age in this visit (reset when the kiosk goes home). */
  let ageConfirmed = false
  let pendingCode: string | null = null
  /** The voucher to go back to after a printer problem. */
  let pendingVoucher: VoucherView | null = null

  const game = computed(() => (offer.value?.state === 'on_sale' ? offer.value.game : null))

  async function refreshOffer(): Promise<void> {
    try {
      offer.value = await api.offer(options.hallId)
      offline.value = false
    } catch {
      offline.value = true
    }
  }

  function home() {
    ageConfirmed = false
    pendingCode = null
    batch(() => { screen.value = { name: 'home' }; count.value = 1 })
    void refreshOffer()
  }

  function start() {
    screen.value = ageConfirmed ? { name: 'scan' } : { name: 'age' }
  }

  function confirmAge(adult: boolean) {
    if (!adult) { screen.value = { name: 'minor' }; return }
    ageConfirmed = true
    if (pendingCode) void scanned(pendingCode)
    else screen.value = { name: 'scan' }
  }

  function problem(p: Problem, back: 'home' | 'scan' | 'count', detail: string | null = null, keepsCredit = false) {
    screen.value = { name: 'problem', problem: p, detail, keepsCredit, back }
  }

  /** A voucher read by the wedge scanner or the camera, on any screen where a player may present one. */
  async function scanned(code: string): Promise<void> {
    const where = screen.value.name
    if (where === 'printing' || where === 'checking' || where === 'done') return
    if (!ageConfirmed) { pendingCode = code; screen.value = { name: 'age' }; return }
    pendingCode = null
    screen.value = { name: 'checking' }
    try {
      const voucher = await api.checkVoucher(code)
      await refreshOffer()
      const g = game.value
      if (voucher.status === 'spent') return problem('voucher_spent', 'scan')
      if (voucher.status === 'expired') return problem('voucher_expired', 'scan')
      if (!g) return problem('sales_closed', 'home', null, true)
      if (voucher.amountCents < g.faceValueCents) return problem('voucher_empty', 'scan')
      batch(() => { count.value = 1; screen.value = { name: 'count', voucher } })
    } catch (err) {
      problem(problemOf(err), 'scan', err instanceof ApiError ? err.message : null)
    }
  }

  /** Cards this voucher can buy now: its balance, what is left in the series, and the kiosk's limit. */
  function maxCards(voucher: VoucherView): number {
    const g = game.value
    if (!g || !offer.value) return 0
    return Math.max(0, Math.min(Math.floor(voucher.amountCents / g.faceValueCents), g.available, offer.value.maxCardsPerPurchase))
  }

  function setCount(n: number, voucher: VoucherView) {
    count.value = Math.max(1, Math.min(n, Math.max(1, maxCards(voucher))))
  }

  async function buy(voucher: VoucherView): Promise<void> {
    const g = game.value
    if (!g) return problem('sales_closed', 'home', null, true)
    const n = count.value
    screen.value = { name: 'printing', count: n }
    try {
      const purchase = await api.purchase({ voucherCode: voucher.code, gameId: g.gameId, count: n, kioskId: options.kioskId })
      screen.value = { name: 'done', purchase }
      void refreshOffer()
    } catch (err) {
      const p = problemOf(err)
      const backTo = p.startsWith('printer') || p === 'network' || p === 'other' ? 'count' : p === 'sales_closed' || p === 'sold_out' ? 'home' : 'scan'
      // A printer or connection problem can be retried with the same voucher: nothing was spent.
      if (backTo === 'count') pendingVoucher = voucher
      // The sale is all or nothing: whatever went wrong, the voucher was not spent.
      problem(p, backTo, err instanceof ApiError ? err.message : null, true)
    }
  }

  function back(to: 'home' | 'scan' | 'count') {
    if (to === 'count' && pendingVoucher) {
      const voucher = pendingVoucher
      pendingVoucher = null
      screen.value = { name: 'count', voucher }
      return
    }
    if (to === 'scan') { screen.value = { name: 'scan' }; return }
    home()
  }

  return { lang, offer, offline, screen, count, game, refreshOffer, home, start, confirmAge, scanned, maxCards, setCount, buy, back, kioskId: options.kioskId, hallId: options.hallId }
}

export type KioskStore = ReturnType<typeof createKioskStore>
