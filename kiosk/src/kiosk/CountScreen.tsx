import { formatMoney } from '../../../server/src/shared/money.ts'
import type { VoucherView } from '../shared/api.ts'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

/** How many cards: big − and + buttons, the total, and the change voucher the kiosk will print. */
export function CountScreen(props: { store: KioskStore; voucher: VoucherView }) {
  const { store, voucher } = props
  const T = TEXTS[store.lang.value]
  const g = store.game.value
  if (!g) return null
  const money = (c: number) => formatMoney(c, voucher.currency, store.lang.value)
  const n = store.count.value
  const max = store.maxCards(voucher)
  const total = n * g.faceValueCents
  const change = voucher.amountCents - total
  return (
    <section class="k-count" data-testid="kiosk-count">
      <div class="k-credit">
        <span class="k-credit__label">{T.credit}</span>
        <span class="k-credit__value" data-testid="kiosk-credit">{money(voucher.amountCents)}</span>
      </div>
      <h1 class="k-count__title">{T.howMany}</h1>
      <div class="k-stepper">
        <button type="button" class="k-stepper__btn" data-testid="kiosk-minus" aria-label="−" disabled={n <= 1} onClick={() => store.setCount(n - 1, voucher)}>−</button>
        <output class="k-stepper__value" data-testid="kiosk-count-value">{n}</output>
        <button type="button" class="k-stepper__btn" data-testid="kiosk-plus" aria-label="+" disabled={n >= max} onClick={() => store.setCount(n + 1, voucher)}>+</button>
      </div>
      <p class="k-count__each">{money(g.faceValueCents)} {T.each} · {T.maxCards(max)}</p>
      <dl class="k-sum">
        <div><dt>{T.total}</dt><dd data-testid="kiosk-total">{money(total)}</dd></div>
        <div><dt>{T.change}</dt><dd data-testid="kiosk-change">{change > 0 ? money(change) : T.noChange}</dd></div>
      </dl>
      <button type="button" class="btn btn--primary btn--huge" data-testid="kiosk-confirm" onClick={() => void store.buy(voucher)}>{T.confirm(n)}</button>
      <button type="button" class="btn btn--ghost btn--wide" data-testid="kiosk-back" onClick={() => store.home()}>{T.cancel}</button>
    </section>
  )
}
