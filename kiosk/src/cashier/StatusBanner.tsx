import { formatMoney } from '../../../server/src/domain/money.ts'
import { formatStamp } from '../../../printer/src/ticket-layout.ts'
import type { TicketStatus } from '../shared/api.ts'
import type { CashierStore } from './store.ts'
import { TEXTS } from './texts.ts'

type Tone = 'ok' | 'bad' | 'warn' | 'info'

/** The answer to a scan in one look: a big word, the amount, green for pay, red for refuse, amber for wait (§8). */
export function StatusBanner(props: { store: CashierStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const L = store.lang.value
  const money = (c: number, cur = store.currency.value) => formatMoney(c, cur, L)
  const stamp = (iso: string) => formatStamp(iso)
  let tone: Tone = 'info'
  let title = ''
  let amount: string | null = null
  let note = ''
  let testStatus = ''
  const paid = store.paid.value
  const v = store.voucher.value
  const st: TicketStatus | null = store.status.value
  if (paid) {
    tone = 'ok'; title = T.status.done; amount = money(paid.payout.amountCents, paid.payout.currency); note = T.paidDone; testStatus = 'done'
  } else if (v) {
    const cashed = store.cashedOut.value
    testStatus = `voucher_${v.status}`
    if (cashed !== null) { tone = 'ok'; title = T.status.done; amount = money(cashed, v.currency); note = T.cashedOut(money(cashed, v.currency)) }
    else if (v.status === 'active') { tone = 'info'; title = T.voucher; amount = money(v.amountCents, v.currency); note = T.voucherUntil(stamp(v.expiresAt)) }
    else if (v.status === 'spent') { tone = 'bad'; title = T.voucherSpent; amount = money(v.amountCents, v.currency); note = v.spentAt ? T.paidOn(stamp(v.spentAt), v.spentStation ?? '', v.spentFor ?? '') : '' }
    else { tone = 'bad'; title = T.voucherExpired; amount = money(v.amountCents, v.currency); note = T.expiredOn(stamp(v.expiresAt)) }
  } else if (st) {
    testStatus = st.status
    switch (st.status) {
      case 'winner': tone = 'ok'; title = T.status.winner; amount = money(st.amountCents, st.currency); note = T.claimUntil(stamp(st.claimUntil)); break
      case 'paid': tone = 'bad'; title = T.status.paid; amount = money(st.amountCents, st.currency); note = st.stationId ? T.paidOn(stamp(st.paidAt), st.stationId, st.cashierId ?? '') : T.paidAtTable(stamp(st.paidAt)); break
      case 'not_winner': tone = 'bad'; title = T.status.not_winner; note = T.notWinnerNote; break
      case 'expired': tone = 'bad'; title = T.status.expired; amount = money(st.amountCents, st.currency); note = T.expiredOn(stamp(st.expiredAt)); break
      case 'void': tone = 'bad'; title = T.status.void; note = T.voidNote(money(st.refundCents, st.currency)); break
      case 'blocked': tone = 'bad'; title = T.status.blocked; note = T.blockedNote(st.reason); break
      case 'invalid': tone = 'bad'; title = T.status.invalid; note = T.invalidNote[st.reason] ?? st.detail; break
      case 'pending': tone = 'warn'; title = T.status.pending; note = T.pendingNote(st.gameNo); break
      default: {
        const _never: never = st
        void _never
      }
    }
  } else {
    return <div class="c-banner c-banner--idle" data-testid="cashier-status" data-status="idle">{T.waiting}</div>
  }
  return (
    <div class={`c-banner c-banner--${tone}`} data-testid="cashier-status" data-status={testStatus} role="status">
      <div class="c-banner__title" data-testid="cashier-status-title">{title}</div>
      {amount && <div class="c-banner__amount" data-testid="cashier-status-amount">{amount}</div>}
      {note && <div class="c-banner__note" data-testid="cashier-status-note">{note}</div>}
    </div>
  )
}
