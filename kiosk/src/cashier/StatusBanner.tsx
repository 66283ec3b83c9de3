import { formatMoney } from '../../../server/src/shared/money.ts'
import { formatStamp } from '../../../printer/src/ticket-layout.ts'
import { productOfCode, readTyped, type ScanView } from './answer.ts'
import type { CashierStore } from './store.ts'
import { TEXTS } from './texts.ts'

type Tone = 'ok' | 'bad' | 'warn' | 'info'
type Texts = (typeof TEXTS)['es']

/**
 * The answer to a scan in one look (§8): what the ticket is, a big word, the amount, and one line of why: green to
 * pay, amber for a refund or a wait, red to refuse.
 */
export function StatusBanner(props: { store: CashierStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const L = store.lang.value
  const money = (c: number, cur: string | null = null) => formatMoney(c, cur || store.currency.value, L)
  // The hall's clock, as the shift bar and the receipts speak it, not the browser's.
  const stamp = (iso: string) => formatStamp(iso, store.station.value?.station?.timeZone ?? undefined)
  let tone: Tone = 'info'
  let title = ''
  let amount: string | null = null
  let note = ''
  let extra = ''
  let testStatus = ''
  let kind = ''
  const paid = store.paid.value
  const v = store.voucher.value
  const st = store.view.value
  if (v) {
    const cashed = store.cashedOut.value
    kind = T.products.voucher
    testStatus = `voucher_${v.status}`
    if (cashed !== null) {
      tone = 'ok'
      title = T.status.done
      amount = money(cashed, v.currency)
      note = T.cashedOut(money(cashed, v.currency))
    } else if (v.status === 'active') {
      tone = 'info'
      title = T.voucher
      amount = money(v.amountCents, v.currency)
      note = T.voucherUntil(stamp(v.expiresAt))
    } else if (v.status === 'spent') {
      tone = 'bad'
      title = T.voucherSpent
      amount = money(v.amountCents, v.currency)
      note = v.spentAt ? T.paidOn(stamp(v.spentAt), v.spentStationName ?? '', T.spentFor[v.spentFor ?? ''] ?? '') : ''
    } else {
      tone = 'bad'
      title = T.voucherExpired
      amount = money(v.amountCents, v.currency)
      note = T.expiredOn(stamp(v.expiresAt))
    }
  } else if (st && store.refunded.value) {
    // Issue 29 point 1: the annulled game's card just refunded here.
    const r = store.refunded.value
    kind = kindLine(T, st, store.code.value)
    tone = 'ok'
    testStatus = 'refunded'
    title = T.status.refunded
    amount = money(r.amountCents, r.currency)
    note = T.refundCardDone(amount)
  } else if (st && paid) {
    kind = kindLine(T, st, store.code.value)
    tone = 'ok'
    testStatus = 'done'
    title = paid.refund ? T.status.refunded : T.status.done
    amount =
      paid.amountCents === 0 && paid.goods.length ? paid.goods.join(' + ') : money(paid.amountCents, paid.currency)
    note = paid.refund ? T.refundDone : paid.amountCents === 0 && paid.goods.length ? T.goodsDone : T.paidDone
    if (st.pendingDraws.length && st.product === 'lotto') extra = T.stillPlays(st.pendingDraws.join(', '))
  } else if (st) {
    kind = kindLine(T, st, store.code.value)
    testStatus = st.verdict
    const worth =
      st.amountCents === null
        ? null
        : st.amountCents === 0 && st.goods.length
          ? st.goods.join(' + ')
          : money(st.amountCents, st.currency)
    title = T.status[st.verdict]
    switch (st.verdict) {
      case 'winner':
        tone = 'ok'
        amount = worth
        note = st.claimUntil ? T.claimUntil(stamp(st.claimUntil)) : ''
        if (st.choices.length) {
          // PRM-2: the object the tómbola's winner takes: the one chosen, or the one drawn for the ticket if still there.
          const pick =
            st.choices.find((o) => o.code === store.objectCode.value) ??
            st.choices.find((o) => st.prizes.some((p) => p.key === o.code))
          amount = pick ? `${pick.name}: ${pick.description}` : T.chooseShort
        }
        if (st.pendingDraws.length) extra = T.stillPlays(st.pendingDraws.join(', '))
        // PRM-2: what a points tómbola's ticket is worth.
        if (st.points) extra = T.pointsWorth(st.points)
        break
      case 'refund':
        tone = 'warn'
        amount = worth
        note = T.refundNote[st.product ?? 'other'] ?? T.refundNote.other
        break
      case 'paid': {
        tone = 'bad'
        amount = worth
        const p = st.paid
        if (st.refunded) note = T.refundedAlready
        else if (p?.at && p.stationId) note = T.paidOn(stamp(p.at), p.stationId, p.cashierId ?? '')
        else if (p?.at && st.product === 'card') note = T.paidAtTable(stamp(p.at))
        else if (p?.at) note = T.paidWhen(stamp(p.at))
        else if (st.product === 'lotto' && st.prizes.length)
          note = T.paidDraws(
            [...new Set(st.prizes.map((x) => (x.label.t === 'category' ? x.label.drawNumber : 0)))].join(', '),
          )
        else note = T.paidUnknown
        if (st.refunded && p?.at) extra = T.paidWhen(stamp(p.at))
        break
      }
      case 'expired':
        tone = 'bad'
        amount = worth
        note = st.expiredAt ? T.expiredOn(stamp(st.expiredAt)) : T.expiredNote
        break
      case 'not_winner':
        tone = 'bad'
        note = T.notWinnerNote[st.product ?? 'card'] ?? ''
        break
      case 'void':
        if (st.refunded && st.paid?.at) {
          // Presented again: when (the hall's clock), where and by whom, in names.
          tone = 'bad'
          testStatus = 'void_refunded'
          title = T.refundedTitle
          amount = worth
          note = T.refundedOn(
            formatStamp(st.paid.at, st.ids.timeZone),
            st.paid.stationId ?? '',
            st.paid.cashierId ?? '',
          )
        } else if (st.product === 'card' && st.refundCents !== null) {
          // BNG-86: the full price of the card is refunded, once (PayPanel offers it).
          tone = 'warn'
          amount = money(st.refundCents, st.currency)
          note = T.voidNote(amount)
        } else {
          tone = 'bad'
          note = T.voidReturned
        }
        break
      case 'blocked':
        tone = 'bad'
        amount = T.blockedWord(st.blocked)
        note = T.blockedNote(st.blocked)
        break
      case 'invalid':
        tone = 'bad'
        // The server's reason is English detail for the log: the cashier reads the screen's own words for it.
        note =
          st.invalid === 'length' ? T.lengthNote(st.typedLength ?? 0) : (st.invalid && T.invalidNote[st.invalid]) || ''
        break
      case 'pending':
        tone = 'warn'
        note =
          st.product === 'card'
            ? T.pendingNote(st.ids.gameNo ?? 0)
            : T.pendingDraws((st.pendingDraws.length ? st.pendingDraws : (st.ids.drawNumbers ?? [])).join(', '))
        break
      case 'not_activated':
        tone = 'bad'
        note = T.notActivatedNote
        break
      case 'held':
        tone = 'bad'
        note = T.heldNote
        break
      case 'destroyed':
        tone = 'bad'
        note = T.destroyedNote
        break
      default: {
        const _never: never = st.verdict
        void _never
      }
    }
  } else if (store.error.value) {
    // A scan refused with nothing to show for it (a voucher whose row fails its seal, a code of another hall): the
    // refusal is the one state on screen, not under a prompt still waiting for a code; the prompt returns with the
    // next scan or SIGUIENTE (clearScan).
    tone = 'bad'
    testStatus = 'refused'
    kind = store.code.value ? kindOfCode(T, store.code.value) : ''
    title = T.refused.title
    note = store.error.value.message
    extra = T.refused.next
  } else {
    return (
      <div class="c-banner c-banner--idle" data-testid="cashier-status" data-status="idle">
        {T.waiting}
      </div>
    )
  }
  return (
    <div
      class={`c-banner c-banner--${tone}`}
      data-testid="cashier-status"
      data-status={testStatus}
      data-kind={st?.product ?? (v ? 'voucher' : '')}
      role="status"
    >
      {kind && (
        <div class="c-banner__kind" data-testid="cashier-kind">
          {kind}
        </div>
      )}
      <div class="c-banner__title" data-testid="cashier-status-title">
        {title}
      </div>
      {amount && (
        <div class="c-banner__amount" data-testid="cashier-status-amount">
          {amount}
        </div>
      )}
      {note && (
        <div
          class={testStatus === 'refused' ? 'c-banner__note c-banner__note--refusal' : 'c-banner__note'}
          // The refusal's words are the screen's error (`cashier-error`, as beside an answer); its code stays an attribute.
          data-testid={testStatus === 'refused' ? 'cashier-error' : 'cashier-status-note'}
          data-code={testStatus === 'refused' ? store.error.value?.code : undefined}
          role={testStatus === 'refused' ? 'alert' : undefined}
        >
          {note}
        </div>
      )}
      {extra && (
        <div class="c-banner__note c-banner__note--extra" data-testid="cashier-status-extra">
          {extra}
        </div>
      )}
    </div>
  )
}

/** What a code refused before any answer looks like (VALE, CÓDIGO), from its shape alone. */
function kindOfCode(T: Texts, code: string): string {
  const hint = readTyped(code).kind === 'voucher_short' ? 'voucher' : productOfCode(code)
  // As the answers name them: a voucher as the voucher's answer does, a ticket as kindLine does.
  if (hint === 'voucher') return T.products.voucher
  return (hint ? T.products[hint] : T.products.unknown).toUpperCase()
}

/** "RASPADITA · Raspa Test": what the ticket is, in capitals, and its game when known. */
function kindLine(T: Texts, st: ScanView, code: string): string {
  const hint = productOfCode(code)
  const label = st.product ? T.products[st.product] : hint === 'voucher' ? T.products.voucher : T.products.unknown
  const game = st.verdict === 'invalid' ? null : (st.ids.gameName ?? st.ids.gameCode ?? null)
  return game ? `${label.toUpperCase()} · ${game}` : label.toUpperCase()
}
