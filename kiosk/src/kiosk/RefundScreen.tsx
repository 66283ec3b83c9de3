import { formatMoney } from '../../../server/src/shared/money.ts'
import { formatStamp } from '../../../printer/src/ticket-layout.ts'
import type { KioskStore, Screen } from './store.ts'
import { TEXTS } from './texts.ts'

/**
 * Issue 29 point 1 (BNG-86): a card of an annulled game presented at the kiosk. The full price goes onto a new
 * voucher printed here, after the player confirms with the consequence said; any other card is answered in words.
 */
export function RefundScreen(props: { store: KioskStore; screen: Extract<Screen, { name: 'refund' }> }) {
  const { store, screen } = props
  const T = TEXTS[store.lang.value]
  const v = screen.view
  const money = (c: number) => formatMoney(c, v.currency ?? store.currency.value, store.lang.value)
  if (screen.refusal) {
    const [title, body] = T.refusals[screen.refusal]
    const text =
      screen.refusal === 'already' && v.paid?.at
        ? T.refundAlready(formatStamp(v.paid.at, v.ids.timeZone), v.paid.stationId ?? '')
        : body
    return (
      <section class="k-state k-state--stop" data-testid="kiosk-refund-refused" data-refusal={screen.refusal}>
        <div class="k-state__icon" aria-hidden="true">
          !
        </div>
        <h1 class="k-state__title" data-testid="kiosk-refund-title">
          {title}
        </h1>
        {v.ids.serial && (
          <p class="k-state__hint" data-testid="kiosk-refund-card">
            {T.game} {v.ids.gameNo} · {v.ids.serial}
          </p>
        )}
        <p class="k-state__hint" data-testid="kiosk-refund-text">
          {text}
        </p>
        <div class="k-row k-state__btns">
          <button type="button" class="btn btn--secondary" data-testid="kiosk-back" onClick={() => store.reset()}>
            {T.back}
          </button>
        </div>
      </section>
    )
  }
  const amount = money(v.refundCents ?? 0)
  return (
    <section class="k-state k-refund" data-testid="kiosk-refund" role="alertdialog" aria-label={T.refundTitle}>
      <div class="k-state__icon k-refund__icon" aria-hidden="true">
        ↺
      </div>
      <h1 class="k-state__title">{T.refundTitle}</h1>
      <p class="k-refund__amount" data-testid="kiosk-refund-amount">
        {amount}
      </p>
      <p class="k-state__hint" data-testid="kiosk-refund-text">
        {T.refundBody(amount, v.ids.serial ?? '', v.ids.gameNo ?? '')}
      </p>
      <p class="k-refund__warn" data-testid="kiosk-refund-consequence">
        {T.refundConsequence}
      </p>
      <div class="k-row k-state__btns">
        <button
          type="button"
          class="btn btn--primary"
          data-testid="kiosk-refund-yes"
          onClick={() => void store.refundCard()}
        >
          {T.refundYes(amount)}
        </button>
        <button type="button" class="btn btn--secondary" data-testid="kiosk-refund-no" onClick={() => store.reset()}>
          {T.cancel}
        </button>
      </div>
    </section>
  )
}

/** The refund done: the new voucher, printed, with its short code, and the way to spend it here at once. */
export function RefundedScreen(props: { store: KioskStore; screen: Extract<Screen, { name: 'refunded' }> }) {
  const { store, screen } = props
  const T = TEXTS[store.lang.value]
  const r = screen.refund
  const amount = formatMoney(r.amountCents, r.currency, store.lang.value)
  const printed = r.print?.printed !== false
  return (
    <section class="k-state k-refund" data-testid="kiosk-refunded">
      <h1 class="k-state__title" data-testid="kiosk-refunded-title">
        {T.refundedTitle(amount)}
      </h1>
      {!printed && (
        <p class="k-done__pending" role="alert" data-testid="kiosk-refund-print-pending">
          {T.refundedNotPrinted}
        </p>
      )}
      <div class="k-refund__paper">
        {r.preview && <img src={r.preview} alt="" class="k-refund__img" data-testid="kiosk-refund-voucher" />}
        <div>
          <p class="k-state__hint">{T.refundedHint}</p>
          {r.voucher?.shortCode && (
            <p class="k-refund__code">
              {T.refundedCode}: <strong data-testid="kiosk-refund-code">{r.voucher.shortCode}</strong>
            </p>
          )}
        </div>
      </div>
      <div class="k-row k-state__btns">
        <button
          type="button"
          class="btn btn--primary"
          data-testid="kiosk-refund-use"
          onClick={() => store.useRefundVoucher()}
        >
          {T.refundedUse}
        </button>
        <button type="button" class="btn btn--secondary" data-testid="kiosk-finish" onClick={() => store.reset()}>
          {T.finish}
        </button>
      </div>
    </section>
  )
}
