import { CardGrid } from '../../../web/CardGrid.tsx'
import { formatMoney } from '../../../server/src/shared/money.ts'
import type { KioskPurchase } from '../shared/api.ts'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

const NONE: ReadonlySet<number> = new Set()

/** The cards just printed, as the player holds them, and the change voucher to take. */
export function DoneScreen(props: { store: KioskStore; purchase: KioskPurchase }) {
  const { store, purchase } = props
  const T = TEXTS[store.lang.value]
  const money = (c: number) => formatMoney(c, purchase.currency, store.lang.value)
  return (
    <section class="k-done" data-testid="kiosk-done" data-purchase={purchase.purchaseId}>
      <div class="k-done__tick" aria-hidden="true">✓</div>
      <h1 class="k-done__title">{T.doneTitle}</h1>
      <p class="k-done__sub">{T.game} {purchase.gameNo} · {purchase.count} × {money(purchase.amountCents / purchase.count)} = <strong>{money(purchase.amountCents)}</strong></p>
      <div class={purchase.cards.length > 4 ? 'k-cards k-cards--many' : 'k-cards'}>
        {purchase.cards.map((c) => (
          <article class="k-card" key={c.id} data-testid="kiosk-card" data-serial={c.serial}>
            <header class="k-card__head"><span>{T.series} {c.seriesCode}</span><strong>{c.serial}</strong></header>
            <CardGrid rows={c.rows} ballCount={90} called={NONE} testId="kiosk-card-grid" />
          </article>
        ))}
      </div>
      <p class={purchase.change ? 'k-done__change' : 'k-done__change k-done__change--none'} data-testid="kiosk-change-voucher">
        {purchase.change ? T.doneChange(money(purchase.change.amountCents)) : T.doneNoChange}
      </p>
      <p class="k-done__hint">{T.doneHint}</p>
      <div class="k-done__bar">
        <button type="button" class="btn btn--primary btn--wide" data-testid="kiosk-finish" onClick={() => store.home()}>{T.finish}</button>
      </div>
    </section>
  )
}
