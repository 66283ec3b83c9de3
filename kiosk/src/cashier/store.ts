/**
 * The cashier station's state: what was scanned and what it is worth (§8), the payout with the payee's data,
 * the voucher being sold with the cash counted (GEN-13, GEN-17), and the day's movements of this station.
 */
import { batch, computed, signal } from '@preact/signals'
import { ApiError, type CashdeskApi, type Lang, type PayResult, type StationDay, type TicketStatus, type VoucherSale, type VoucherView } from '../shared/api.ts'
import { cashBreakdown, parseAmount } from './cash.ts'

export interface ShownError { code: string; message: string; detail?: string }
export type Tab = 'pay' | 'sell' | 'day'

const NAME_KEY = 'bolillo.cashier.name'

export function createCashierStore(api: CashdeskApi, options: { hallId: string; stationId: string; lang: Lang; currency: string }) {
  const lang = signal<Lang>(options.lang)
  const currency = signal(options.currency)
  const hallName = signal('')
  const tab = signal<Tab>('pay')
  const cashier = signal(readName())
  const busy = signal(false)
  const error = signal<ShownError | null>(null)
  // pay
  const code = signal('')
  const status = signal<TicketStatus | null>(null)
  const voucher = signal<VoucherView | null>(null)
  const payeeName = signal('')
  const payeeDocument = signal('')
  const paid = signal<PayResult | null>(null)
  const cashedOut = signal<number | null>(null)
  // sell
  const notes = signal<Record<number, number>>({})
  const coins = signal('')
  const buyerDocument = signal('')
  const sale = signal<VoucherSale | null>(null)
  // day
  const day = signal<StationDay | null>(null)

  const breakdown = computed(() => cashBreakdown({ notes: notes.value, coinsCents: parseCoins(coins.value) }, currency.value))

  function readName(): string {
    try { return localStorage.getItem(NAME_KEY) ?? '' } catch { return '' }
  }
  function setCashier(name: string) {
    cashier.value = name
    try { localStorage.setItem(NAME_KEY, name) } catch { /* private mode */ }
  }
  const who = () => ({ stationId: options.stationId, cashierId: cashier.value.trim() || options.stationId })

  async function run<T>(fn: () => Promise<T>): Promise<T | undefined> {
    busy.value = true
    error.value = null
    try {
      return await fn()
    } catch (err) {
      error.value = err instanceof ApiError ? { code: err.code, message: err.message, detail: err.detail } : { code: 'ERROR', message: String(err) }
      return undefined
    } finally {
      busy.value = false
    }
  }

  /** A code from the scanner, the camera or the input: a card is validated, a voucher is looked up. */
  async function scanned(text: string): Promise<void> {
    const c = text.trim()
    if (!c) return
    batch(() => { tab.value = 'pay'; code.value = c; status.value = null; voucher.value = null; paid.value = null; cashedOut.value = null; payeeName.value = ''; payeeDocument.value = '' })
    await run(async () => {
      if (/^BLL1\.V\./.test(c)) {
        try {
          voucher.value = await api.checkVoucher(c)
        } catch (err) {
          // A voucher code that does not verify is shown as any invalid code.
          if (err instanceof ApiError && (err.code === 'INVALID_SIGNATURE' || err.code === 'TICKET_NOT_FOUND')) status.value = { status: 'invalid', reason: err.code === 'TICKET_NOT_FOUND' ? 'unknown' : 'signature', detail: err.message, ticketId: null }
          else throw err
        }
      } else {
        status.value = await api.validate({ code: c, ...who() })
      }
    })
  }

  async function pay(): Promise<void> {
    const r = await run(() => api.pay({ code: code.value, ...who(), payeeName: payeeName.value.trim() || undefined, payeeDocument: payeeDocument.value.trim() || undefined }))
    if (r) { paid.value = r; void refreshDay() }
    else if (error.value?.code === 'ALREADY_PAID') await scanned(code.value)
  }

  async function reprint(): Promise<void> {
    const p = paid.value
    if (p) await run(() => api.reprint(p.payout.payoutId, options.stationId))
  }

  async function cashOut(): Promise<void> {
    const r = await run(() => api.cashOut({ code: code.value, ...who() }))
    if (r) { batch(() => { voucher.value = r.voucher; cashedOut.value = r.paidCents }); void refreshDay() }
  }

  async function sell(): Promise<void> {
    const b = breakdown.value
    const r = await run(() => api.sellVoucher({ hallId: options.hallId, amountCents: b.amountCents, cash: { smallCents: b.smallCents, otherCents: b.otherCents }, ...who(), buyerDocument: buyerDocument.value.trim() || undefined }))
    if (r) { sale.value = r; void refreshDay() }
  }

  function newSale() {
    batch(() => { notes.value = {}; coins.value = ''; buyerDocument.value = ''; sale.value = null; error.value = null })
  }

  function clearScan() {
    batch(() => { code.value = ''; status.value = null; voucher.value = null; paid.value = null; cashedOut.value = null; error.value = null })
  }

  async function refreshDay(): Promise<void> {
    try { day.value = await api.movements(options.stationId) } catch { /* shown on the next refresh */ }
  }

  return {
    lang, currency, hallName, tab, cashier, setCashier, busy, error, code, status, voucher, payeeName, payeeDocument, paid, cashedOut,
    notes, coins, buyerDocument, sale, breakdown, day, stationId: options.stationId, hallId: options.hallId,
    scanned, pay, reprint, cashOut, sell, newSale, clearScan, refreshDay,
  }
}

function parseCoins(text: string): number {
  const cents = parseAmount(text)
  return Number.isNaN(cents) ? 0 : cents
}

export type CashierStore = ReturnType<typeof createCashierStore>
