/**
 * The cashier station's state: what was scanned and what it is worth (§8): a bingo card, an instant ticket, a
 * lotto receipt, a lottery or raffle ticket (answer.ts), or a credit voucher; the payout with the payee's data,
 * the voucher being sold with the cash counted (GEN-13, GEN-17), and the day's movements of this station.
 */
import { batch, computed, signal } from '@preact/signals'
import {
  ApiError,
  type CardGame,
  type CardRefund,
  type CashdeskApi,
  type HallTerminal,
  type TerminalLoad,
  type TerminalRecovery,
  type Lang,
  type ShiftReport,
  type StationDay,
  type StationShift,
  type VoucherSale,
  type VoucherView,
} from '../../../web/cashdesk-api.ts'
import { invalidFromError, invalidView, readTyped, type PaidView, type ScanView } from './answer.ts'
import { cashBreakdown, cashPieces, parseAmount } from './cash.ts'
import type { ReceiptParty } from './receipt.ts'
import { TEXTS } from './texts.ts'
import { formatMoney } from '../../../server/src/shared/money.ts'
import { ErrorCode } from '../../../server/src/shared/errors.ts'

/** A refusal as the cashier sees it: the server's message in the screen's language (its English detail is for the log). */
export interface ShownError {
  code: string
  message: string
}
export type Tab = 'pay' | 'sell' | 'day'

/** The codes the server answers a refusal with, each worded in both languages by http/messages.ts. */
const SERVER_CODES: ReadonlySet<string> = new Set([
  ...Object.values(ErrorCode),
  'INTERNAL',
  'PAYLOAD_TOO_LARGE',
  'ROUTE_NOT_FOUND',
])

/**
 * A refusal in the screen's words: the server's message (localized by Accept-Language, every code it sends has one in
 * http/messages.ts) or, for what did not come from the server as a refusal (a proxy's bare status line, a fault of the
 * screen itself), the screen's own sentence, never an English status text or a stack line. The code stays off screen.
 */
export function shownError(err: unknown, lang: Lang): ShownError {
  if (err instanceof ApiError && SERVER_CODES.has(err.code)) return { code: err.code, message: err.message }
  // NETWORK and BAD_RESPONSE are worded by the client library in the screen's language (web/http.ts).
  if (err instanceof ApiError && (err.code === 'NETWORK' || err.code === 'BAD_RESPONSE'))
    return { code: err.code, message: err.message }
  return { code: err instanceof ApiError ? err.code : 'ERROR', message: TEXTS[lang].refused.failed }
}

const NAME_KEY = 'bolillo.cashier.name'

export function createCashierStore(
  api: CashdeskApi,
  options: {
    hallId: string
    stationId: string
    lang: Lang
    currency: string
    session?: { set(token: string | null): void }
  },
) {
  const lang = signal<Lang>(options.lang)
  const currency = signal(options.currency)
  const hallName = signal('')
  const tab = signal<Tab>('pay')
  const cashier = signal(readName())
  const busy = signal(false)
  const error = signal<ShownError | null>(null)
  // pay
  const code = signal('')
  const view = signal<ScanView | null>(null)
  const voucher = signal<VoucherView | null>(null)
  const payeeName = signal('')
  const payeeDocument = signal('')
  const payeePhone = signal('')
  /** INS-10: an instant ticket's inventory code (printed outside its scratch area), asked for before it is paid. */
  const inventoryCode = signal('')
  /** PRM-2: the object a tómbola's winner chose ('' = the one drawn for the ticket). */
  const objectCode = signal('')
  /**
   * PRM-2: the other tickets of a points tómbola the holder presents with the one scanned, each as the desk judged it
   * (its number, points and verdict): all of them are used in the one hand-over.
   */
  const moreTickets = signal<Array<{ code: string; number: string | null; points: number; verdict: string }>>([])
  const moreCode = signal('')
  const paid = signal<PaidView | null>(null)
  /** The code whose answer is on screen (the input may be typed over meanwhile). */
  const shownCode = signal('')
  /** Who paid whom, for the receipt the screen draws (lotto, lottery). */
  const paidParty = signal<ReceiptParty | null>(null)
  const cashedOut = signal<number | null>(null)
  /** Issue 29 point 1: the annulled game's card refunded here, and whether the cashier is being asked to confirm. */
  const refunded = signal<CardRefund | null>(null)
  const confirming = signal(false)
  /**
   * Issue 29: a card found by its serial within a chosen game. The answer is its state only (BNG-71: the serial is
   * public); `sought` is the card looked up, until the QR or the printed code is scanned to pay it, and `mismatch` the
   * card sought when the code then scanned is of another card.
   */
  const lookupGames = signal<CardGame[] | null>(null)
  const lookupGameId = signal('')
  const lookupSerial = signal('')
  const sought = signal<{ serial: string; gameNo: number } | null>(null)
  const mismatch = signal<{ serial: string; gameNo: number } | null>(null)
  // sell
  const notes = signal<Record<number, number>>({})
  const coins = signal('')
  const buyerDocument = signal('')
  const sale = signal<VoucherSale | null>(null)
  // Issue 27: the counted cash loaded onto a bingo terminal instead of a voucher.
  const terminals = signal<HallTerminal[]>([])
  const terminalId = signal('')
  const loadAgeConfirmed = signal(false)
  const loadConfirming = signal(false)
  const loaded = signal<TerminalLoad | null>(null)
  // A lost terminal session's balance, recovered against the voucher that opened it.
  const recoverCode = signal('')
  const recoverConfirming = signal(false)
  const recovered = signal<TerminalRecovery | null>(null)
  // day
  const day = signal<StationDay | null>(null)
  // the person at this station and the open shift (issue 13 point 5)
  const station = signal<StationShift | null>(null)
  /** Issue 29 point 2: why the shift did not open or close, shown in the shift bar whatever the tab. */
  const shiftError = signal<string | null>(null)
  /** The report of the shift just closed, on screen with its PDF. */
  const closedReport = signal<ShiftReport | null>(null)

  const breakdown = computed(() =>
    cashBreakdown({ notes: notes.value, coinsCents: parseCoins(coins.value) }, currency.value),
  )

  function readName(): string {
    try {
      return localStorage.getItem(NAME_KEY) ?? ''
    } catch {
      return ''
    }
  }
  function setCashier(name: string) {
    cashier.value = name
    try {
      localStorage.setItem(NAME_KEY, name)
    } catch {
      /* private mode */
    }
  }
  const who = () => ({ stationId: options.stationId, cashierId: cashier.value.trim() || options.stationId })

  async function run<T>(fn: () => Promise<T>): Promise<T | undefined> {
    busy.value = true
    error.value = null
    try {
      return await fn()
    } catch (err) {
      error.value = shownError(err, lang.value)
      return undefined
    } finally {
      busy.value = false
    }
  }

  /**
   * A code from the scanner, the camera or the input: a voucher is looked up, any other code is validated. A typed
   * instant validation code is sent in groups of four; one of the wrong length, or the inventory serial typed by
   * mistake, is refused here without asking the server.
   */
  async function scanned(text: string): Promise<void> {
    const typed = readTyped(text)
    const c =
      typed.kind === 'signed' ||
      typed.kind === 'instant' ||
      typed.kind === 'voucher_short' ||
      typed.kind === 'card_short' ||
      typed.kind === 'other'
        ? typed.code
        : text.trim()
    if (!c) return
    // INS-10: the inventory code of the instant winner on screen, scanned into the main field or by the camera, is
    // the second code of that ticket, not a new scan.
    const shown = view.value
    if (shown?.product === 'instant' && shown.payable && shown.inventoryCodeRequired && !paid.value) {
      if (typed.kind === 'instant_serial' || /^BLL1\.I\.\d{4}-?\d{6}-?\d{3}-?\d\./.test(c)) {
        batch(() => {
          inventoryCode.value = typed.kind === 'instant_serial' ? text.trim() : c
          code.value = shownCode.value
          error.value = null
        })
        return
      }
    }
    const expected = sought.value
    batch(() => {
      sought.value = null
      mismatch.value = null
      tab.value = 'pay'
      code.value = c
      view.value = null
      voucher.value = null
      paid.value = null
      paidParty.value = null
      cashedOut.value = null
      refunded.value = null
      confirming.value = false
      payeeName.value = ''
      payeeDocument.value = ''
      payeePhone.value = ''
      inventoryCode.value = ''
      shownCode.value = c
      moreTickets.value = []
      moreCode.value = ''
      error.value = null
    })
    if (typed.kind === 'instant_length') {
      view.value = { ...invalidView('instant', 'length'), typedLength: typed.length }
      return
    }
    if (typed.kind === 'instant_serial') {
      view.value = invalidView('instant', 'inventory')
      return
    }
    await run(async () => {
      if (/^BLL1\.V\./.test(c) || typed.kind === 'voucher_short') {
        try {
          voucher.value = await api.checkVoucher(c)
        } catch (err) {
          // A voucher code that does not verify is shown as any invalid code.
          if (err instanceof ApiError && (err.code === 'INVALID_SIGNATURE' || err.code === 'TICKET_NOT_FOUND'))
            view.value = invalidView(null, err.code === 'TICKET_NOT_FOUND' ? 'unknown' : 'signature', err.message)
          else throw err
        }
        return
      }
      let v: ScanView
      try {
        v = (await api.validate({ code: c, ...who() })).view
      } catch (err) {
        // The instant service refuses a forged or mistyped validation code with an error: it is an answer too.
        const invalid = err instanceof ApiError ? invalidFromError(c, err.code, err.detail) : null
        if (!invalid) throw err
        v = invalid
      }
      view.value = await withDetails(v)
      // The code scanned after a look by serial is the one paid: said plainly when it is of another card.
      if (expected && v.product === 'card' && v.verdict !== 'invalid')
        if (v.ids.serial !== expected.serial || v.ids.gameNo !== expected.gameNo) mismatch.value = expected
    })
  }

  /** The hall's games that sold cards, newest first; the newest chosen unless one already is. */
  async function loadLookupGames(): Promise<void> {
    const r = await run(() => api.cardGames())
    if (!r) return
    lookupGames.value = r.games
    if (!r.games.some((g) => g.gameId === lookupGameId.value)) lookupGameId.value = r.games[0]?.gameId ?? ''
  }

  /**
   * Issue 29: the card with the serial typed (as heard: "41", "A-00041") in the chosen game: its state on screen,
   * never payable; to pay, the cashier then scans its QR or types the code printed under it (BNG-71).
   */
  async function lookup(): Promise<void> {
    const serial = lookupSerial.value.trim()
    const gameId = lookupGameId.value
    if (!serial || !gameId) return
    clearScan()
    const r = await run(() => api.lookupCard({ gameId, serial, ...who() }))
    if (!r) return
    batch(() => {
      view.value = r.view
      sought.value = r.view.ids.serial ? { serial: r.view.ids.serial, gameNo: r.view.ids.gameNo ?? 0 } : null
    })
  }

  /**
   * What the answer leaves out, asked for once: a lotto game's name (from the receipt), a lottery's name, draw
   * number and claim deadline, and when, where and by whom a lotto or lottery prize was paid (prize register). A
   * failure leaves the view as it was.
   */
  async function withDetails(v: ScanView): Promise<ScanView> {
    if (v.verdict === 'invalid') return v
    const out: ScanView = { ...v, ids: { ...v.ids } }
    try {
      if (v.product === 'lotto' && v.ids.receipt) {
        const slip = await api.lottoSlip(v.ids.receipt)
        out.ids.gameName = slip.gameName
        if (!out.ids.drawNumbers?.length) out.ids.drawNumbers = slip.draws.map((d) => d.drawNumber)
        out.currency ??= slip.currency
      }
      if ((v.product === 'lottery' || v.product === 'raffle') && v.ids.drawId) {
        const d = await api.lotteryDraw(v.ids.drawId)
        out.ids.gameName = d.plan.name
        out.ids.drawNumbers = [d.plan.drawNumber]
        if (v.verdict === 'winner') out.claimUntil = d.plan.claimDeadline
        if (v.verdict === 'expired') out.expiredAt = d.plan.claimDeadline
      }
      if (v.verdict === 'paid' && v.product && v.product !== 'card' && v.product !== 'instant') {
        const draws = v.product === 'lotto' ? (v.ids.paidDrawIds ?? []) : v.ids.drawId ? [v.ids.drawId] : []
        const ticket = v.ids.receipt
        const entries = (
          await Promise.all(draws.map((id) => api.prizeRegister(v.product === 'lotto' ? 'lotto' : 'lottery', id)))
        )
          .flatMap((r) => r.entries)
          .filter((e) => e.ticketNumber === ticket)
        const last = entries.sort((a, b) => a.paidAt.localeCompare(b.paidAt)).at(-1)
        if (last) {
          out.paid = { at: last.paidAt, stationId: last.stationId, cashierId: last.cashierId }
          if (out.amountCents === null) out.amountCents = entries.reduce((s, e) => s + e.amountCents, 0)
        }
      }
    } catch {
      /* the answer alone is shown */
    }
    return out
  }

  /** Refusals of a payout that another scan explains better (paid meanwhile, expired, blocked ...). */
  const RESCAN = new Set([
    'ALREADY_PAID',
    'TICKET_EXPIRED',
    'TICKET_BLOCKED',
    'TICKET_VOID',
    'NOT_A_WINNER',
    'PRIZE_PENDING',
    'PACK_NOT_ACTIVATED',
    'CARD_HELD',
    'CARD_DESTROYED',
    'ALREADY_REFUNDED',
    'NOT_REFUNDABLE',
  ])

  /**
   * Issue 29 point 1 (BNG-86): the presented card of an annulled game, refunded in cash out of this station's open
   * shift once the cashier has confirmed. A refusal that a new scan explains (refunded meanwhile elsewhere) rescans.
   */
  async function refund(): Promise<void> {
    const scan = view.value
    if (!scan || scan.product !== 'card' || scan.verdict !== 'void' || scan.refunded) return
    confirming.value = false
    const r = await run(() => api.refundCard({ code: code.value, to: 'cash', ...who() }))
    if (r) {
      refunded.value = r
      void refreshDay()
      void refreshShift()
    } else if (RESCAN.has(error.value?.code ?? '')) await scanned(code.value)
  }

  /** PRM-2: another ticket of the points tómbola presented with the one on screen, judged to show its points. */
  async function addPointsTicket(text: string): Promise<void> {
    const c = text.trim()
    if (!c || c === code.value || moreTickets.value.some((t) => t.code === c)) {
      moreCode.value = ''
      return
    }
    const r = await run(() => api.validate({ code: c, ...who() }))
    if (!r) return
    const v = r.view
    moreTickets.value = [
      ...moreTickets.value,
      // Another draw's ticket is listed as such: the hand-over refuses it (OTHER_TOMBOLA).
      {
        code: c,
        number: v.ids.number ?? null,
        points: v.ids.drawId === view.value?.ids.drawId ? (v.points ?? 0) : 0,
        verdict: v.ids.drawId === view.value?.ids.drawId ? v.verdict : 'other',
      },
    ]
    moreCode.value = ''
  }

  function dropPointsTicket(c: string): void {
    moreTickets.value = moreTickets.value.filter((t) => t.code !== c)
  }

  async function pay(): Promise<void> {
    const scan = view.value
    if (!scan) return
    // The receipt names the station and the person logged in at it, as the server recorded them (not the address's id).
    const at = station.value
    const party: ReceiptParty = {
      stationId: at?.station?.name ?? who().stationId,
      cashierId: at?.person?.name ?? who().cashierId,
      payeeName: payeeName.value.trim(),
      payeeDocument: payeeDocument.value.trim(),
    }
    const r = await run(() =>
      api.pay({
        code: code.value,
        inventoryCode: scan.product === 'instant' ? inventoryCode.value.trim() || undefined : undefined,
        ...who(),
        payeeName: party.payeeName || undefined,
        payeeDocument: party.payeeDocument || undefined,
        payeePhone: payeePhone.value.trim() || undefined,
        objectCode: objectCode.value || undefined,
        codes: moreTickets.value.length ? moreTickets.value.map((t) => t.code) : undefined,
      }),
    )
    if (r) {
      batch(() => {
        paid.value = r.paid
        paidParty.value = party
      })
      void refreshDay()
    } else if (RESCAN.has(error.value?.code ?? '')) await scanned(code.value)
  }

  /** BNG-92: the cashier holds the presented card (altered, or its paper does not match its code); the scan shows RETENIDO. */
  async function markTampered(reason: 'code_mismatch' | 'altered_marks' | 'erasable_marks' | 'damaged'): Promise<void> {
    if (await run(() => api.markTampered({ code: code.value, reason }))) await scanned(code.value)
  }

  async function reprint(): Promise<void> {
    const p = paid.value
    if (p?.reprint) await run(() => api.reprint(p.payoutIds[0], options.stationId))
  }

  async function cashOut(): Promise<void> {
    const r = await run(() => api.cashOut({ code: code.value, ...who() }))
    if (r) {
      batch(() => {
        voucher.value = r.voucher
        cashedOut.value = r.paidCents
      })
      void refreshDay()
    }
  }

  async function sell(): Promise<void> {
    const b = breakdown.value
    // CFG-2: the notes and coins counted; the server splits them by the hall's profile.
    const cash = cashPieces({ notes: notes.value, coinsCents: parseCoins(coins.value) }, currency.value)
    const r = await run(() =>
      api.sellVoucher({
        hallId: options.hallId,
        amountCents: b.amountCents,
        cash,
        ...who(),
        buyerDocument: buyerDocument.value.trim() || undefined,
      }),
    )
    if (r) {
      sale.value = r
      void refreshDay()
    }
  }

  /** Issue 27: the hall's terminals (a cashier whose role may not load sees none). */
  async function refreshTerminals(): Promise<void> {
    try {
      terminals.value = (await api.hallTerminals(options.hallId)).terminals
    } catch {
      terminals.value = []
    }
  }

  /** Issue 27: the counted cash onto the chosen terminal's session (one started if none is open), after the confirm. */
  async function loadTerminal(): Promise<void> {
    const b = breakdown.value
    // CFG-2: the notes and coins counted; the server splits them by the hall's profile.
    const cash = cashPieces({ notes: notes.value, coinsCents: parseCoins(coins.value) }, currency.value)
    const r = await run(() =>
      api.loadTerminal({
        terminalId: terminalId.value,
        amountCents: b.amountCents,
        cash,
        ageConfirmed: loadAgeConfirmed.value || undefined,
        buyerDocument: buyerDocument.value.trim() || undefined,
      }),
    )
    loadConfirming.value = false
    if (r) {
      loaded.value = r
      void refreshDay()
      void refreshTerminals()
    }
  }

  /** A lost terminal session closed against its original voucher (typed or scanned), after the confirm. */
  async function recoverTerminal(): Promise<void> {
    const code = recoverCode.value.trim()
    const r = await run(() => api.recoverTerminal(code))
    recoverConfirming.value = false
    const e = error.value
    if (!r && e) {
      // The server's words for these are a terminal's or a card's; the cashier is told what they mean here.
      const T = TEXTS[lang.value]
      const said =
        e.code === 'TICKET_NOT_FOUND'
          ? T.recoverNotFound
          : e.code === 'TERMINAL_SESSION_CLOSED'
            ? T.recoverNoSession
            : e.code === 'CONFLICT'
              ? T.recoverInPlay
              : null
      if (said) error.value = { code: e.code, message: said }
    }
    if (r) {
      batch(() => {
        recovered.value = r
        recoverCode.value = ''
      })
      void refreshDay()
      void refreshTerminals()
    }
  }

  /** The recovered balance's change voucher whose paper did not come out, printed again here. */
  async function reprintRecovered(): Promise<void> {
    const v = recovered.value
    if (!v?.print || v.print.printed) return
    const r = await run(() => api.reprintSale(v.print && !v.print.printed ? v.print.ref : ''))
    if (r) recovered.value = { ...v, print: { printed: true, target: '' } }
  }

  /** The sold voucher whose paper did not come out, printed again here (marked REIMPRESIÓN n). */
  async function reprintVoucher(): Promise<void> {
    const s = sale.value
    if (!s || s.print.printed) return
    const r = await run(() => api.reprintSale(s.print.printed ? '' : s.print.ref))
    if (r) sale.value = { ...s, print: { printed: true, target: '' } }
  }

  /** Issue 27: the voucher of a terminal load whose paper did not come out, printed again here. */
  async function reprintLoadVoucher(): Promise<void> {
    const l = loaded.value
    if (!l || l.print.printed) return
    const r = await run(() => api.reprintSale(l.print.printed ? '' : l.print.ref))
    if (r) loaded.value = { ...l, print: { printed: true, target: '' } }
  }

  function newSale() {
    batch(() => {
      notes.value = {}
      coins.value = ''
      buyerDocument.value = ''
      sale.value = null
      loaded.value = null
      recovered.value = null
      recoverConfirming.value = false
      loadAgeConfirmed.value = false
      error.value = null
    })
  }

  function clearScan() {
    batch(() => {
      sought.value = null
      mismatch.value = null
      code.value = ''
      shownCode.value = ''
      inventoryCode.value = ''
      view.value = null
      objectCode.value = ''
      moreTickets.value = []
      moreCode.value = ''
      voucher.value = null
      paid.value = null
      paidParty.value = null
      cashedOut.value = null
      refunded.value = null
      confirming.value = false
      error.value = null
    })
  }

  async function refreshDay(): Promise<void> {
    // The drawer is the enrolled station's (its device id), not the name typed in the address.
    try {
      day.value = await api.movements(station.value?.station?.id ?? options.stationId)
    } catch {
      /* shown on the next refresh */
    }
  }

  async function refreshShift(): Promise<void> {
    try {
      station.value = await api.currentShift()
    } catch {
      station.value = null
    }
  }

  /** A cashier logs in at this station: the session is bound to it, and the screen sends the token from then on. */
  async function login(username: string, password: string): Promise<boolean> {
    const r = await run(() => api.login(username, password))
    if (!r) return false
    options.session?.set(r.token)
    await refreshShift()
    void refreshDay()
    return true
  }

  async function logout(): Promise<void> {
    await run(() => api.logout())
    options.session?.set(null)
    await refreshShift()
  }

  /** Runs a shift action; a refusal is said in the shift bar (the tab's own error area may not be on screen). */
  async function shiftAction<T>(fn: () => Promise<T>): Promise<T | undefined> {
    busy.value = true
    shiftError.value = null
    try {
      return await fn()
    } catch (err) {
      shiftError.value = shiftRefusal(err)
      return undefined
    } finally {
      busy.value = false
    }
  }
  function shiftRefusal(err: unknown): string {
    const T = TEXTS[lang.value].shift
    if (err instanceof ApiError && err.code === 'SHIFT_COUNT_DIFFERS') {
      // By how much, over or short, as the server counted it; then what to do.
      const d = err.details as { differenceCents?: unknown; currency?: unknown } | undefined
      if (typeof d?.differenceCents === 'number') {
        const amount = formatMoney(
          Math.abs(d.differenceCents),
          typeof d.currency === 'string' ? d.currency : currency.value,
          lang.value,
        )
        return T.differs(d.differenceCents > 0 ? 'over' : 'short', amount)
      }
    }
    return err instanceof ApiError ? err.message : TEXTS[lang.value].shift.failed
  }

  async function openShift(floatText: string): Promise<boolean> {
    const cents = parseAmount(floatText)
    if (Number.isNaN(cents)) {
      shiftError.value = TEXTS[lang.value].shift.badAmount
      return false
    }
    if (!(await shiftAction(() => api.openShift(cents)))) return false
    closedReport.value = null
    await refreshShift()
    void refreshDay()
    return true
  }

  /** Closes the shift with the drawer counted; false (and the count kept on screen) when the server refuses. */
  async function closeShift(countedText: string, note: string): Promise<boolean> {
    const cents = parseAmount(countedText)
    if (Number.isNaN(cents)) {
      shiftError.value = TEXTS[lang.value].shift.badAmount
      return false
    }
    const report = await shiftAction(() => api.closeShift(cents, note.trim() || undefined))
    if (!report) return false
    closedReport.value = report
    await refreshShift()
    void refreshDay()
    return true
  }

  /** The closed shift's report as a PDF file, in the screen's language. */
  async function downloadShiftPdf(): Promise<void> {
    const r = closedReport.value
    if (!r) return
    const blob = await shiftAction(() => api.shiftReportPdf(r.shiftId, lang.value))
    if (!blob) return
    const a = document.createElement('a')
    a.href = URL.createObjectURL(blob)
    a.download = `${TEXTS[lang.value].shift.pdfName}-${r.station.name.replace(/[^\p{L}\p{N}]+/gu, '-')}-${r.closedAt?.slice(0, 10) ?? ''}.pdf`
    document.body.appendChild(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(a.href), 60_000)
  }

  return {
    lang,
    currency,
    hallName,
    tab,
    cashier,
    setCashier,
    busy,
    error,
    code,
    view,
    voucher,
    payeeName,
    payeeDocument,
    payeePhone,
    inventoryCode,
    objectCode,
    moreTickets,
    moreCode,
    addPointsTicket,
    dropPointsTicket,
    paid,
    paidParty,
    cashedOut,
    refunded,
    confirming,
    refund,
    lookupGames,
    lookupGameId,
    lookupSerial,
    sought,
    mismatch,
    loadLookupGames,
    lookup,
    notes,
    coins,
    buyerDocument,
    sale,
    terminals,
    terminalId,
    loadAgeConfirmed,
    loadConfirming,
    loaded,
    recoverCode,
    recoverConfirming,
    recovered,
    recoverTerminal,
    reprintRecovered,
    refreshTerminals,
    loadTerminal,
    breakdown,
    day,
    stationId: options.stationId,
    hallId: options.hallId,
    scanned,
    pay,
    markTampered,
    reprint,
    cashOut,
    sell,
    reprintVoucher,
    reprintLoadVoucher,
    newSale,
    clearScan,
    refreshDay,
    station,
    refreshShift,
    login,
    logout,
    openShift,
    closeShift,
    shiftError,
    closedReport,
    downloadShiftPdf,
  }
}

function parseCoins(text: string): number {
  const cents = parseAmount(text)
  return Number.isNaN(cents) ? 0 : cents
}

export type CashierStore = ReturnType<typeof createCashierStore>
