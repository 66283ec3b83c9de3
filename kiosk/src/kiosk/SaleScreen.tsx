import { BasketPanel } from './BasketPanel.tsx'
import { CardsPanel } from './CardsPanel.tsx'
import { InstantPanel } from './InstantPanel.tsx'
import { SlipPanel } from './SlipPanel.tsx'
import type { Section } from './basket.ts'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

const SECTIONS: Section[] = ['cards', 'slips', 'instant']

/** The one sale screen: the three sections as tabs on one side, the basket with the voucher and the buy button on the other. */
export function SaleScreen(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const section = store.section.value
  const inBasket = new Map(store.lines.value.map((l) => [l.kind, l.quantity]))
  return (
    <section class="k-sale" data-testid="kiosk-home" data-section={section}>
      <div class="k-shop">
        <nav class="k-tabs" role="tablist">
          {SECTIONS.map((s) => (
            <button
              type="button"
              key={s}
              role="tab"
              aria-selected={section === s}
              class={section === s ? 'k-tab k-tab--on' : 'k-tab'}
              data-testid={`tab-${s}`}
              onClick={() => store.show(s)}
            >
              <span class="k-tab__name">{T.tabs[s]}</span>
              <span class="k-tab__hint">{T.tabHints[s]}</span>
              {inBasket.has(s) && (
                <span class="k-tab__count" data-testid={`tab-${s}-count`}>
                  {inBasket.get(s)}
                </span>
              )}
            </button>
          ))}
        </nav>
        <div class="k-panel" role="tabpanel">
          {section === 'cards' && <CardsPanel store={store} />}
          {section === 'slips' && <SlipPanel store={store} />}
          {section === 'instant' && <InstantPanel store={store} />}
        </div>
      </div>
      <BasketPanel store={store} />
    </section>
  )
}
