import { formatMoney } from '../../../server/src/shared/money.ts'
import { useScanner } from '../shared/useScanner.ts'
import { INSTANT_CODE_SHAPE, TICKET_CODE_SHAPE } from '../shared/wedge.ts'
import { MovementsPanel } from './MovementsPanel.tsx'
import { PayPanel } from './PayPanel.tsx'
import { SellPanel } from './SellPanel.tsx'
import { ShiftBar } from './ShiftBar.tsx'
import type { CashierStore, Tab } from './store.ts'
import { TEXTS } from './texts.ts'

/** A burst the cashier takes for a scan: a signed code, or an instant ticket's validation code read from its barcode. */
const isCode = (c: string) => TICKET_CODE_SHAPE.test(c) || INSTANT_CODE_SHAPE.test(c)

/** Cashier station: pay prizes, sell vouchers, see the day's cash. A scan anywhere opens the payout panel. */
export function App(props: { store: CashierStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  useScanner((code) => void store.scanned(code), true, isCode)
  const d = store.day.value
  return (
    <div class="cashier">
      <header class="c-top">
        <div class="c-top__brand">
          <strong>Bolillo</strong> · {store.hallName.value}
        </div>
        <div class="c-top__station">
          {T.station}{' '}
          <strong data-testid="cashier-station">{store.station.value?.station?.name ?? store.stationId}</strong>
        </div>
        {/* With a person logged in at the station, the cashier is that person; the typed name is for a station without logins. */}
        {store.station.value?.person ? (
          <div class="c-top__cashier">
            {T.cashier} <strong data-testid="cashier-person">{store.station.value.person.name}</strong>
          </div>
        ) : store.station.value?.station ? (
          // An enrolled station knows its cashier only by her login (the bar below): a typed name here would be a
          // second, unchecked way to say who is at the till.
          <div class="c-top__cashier">
            {T.cashier} <strong data-testid="cashier-person">{T.nobodyLoggedIn}</strong>
          </div>
        ) : (
          <label class="c-top__cashier">
            {T.cashier}
            <input
              class="c-input"
              data-testid="cashier-name"
              value={store.cashier.value}
              onInput={(e) => store.setCashier((e.target as HTMLInputElement).value)}
            />
          </label>
        )}
        <div class="c-top__balance">
          {T.balance}{' '}
          <strong data-testid="cashier-balance">
            {formatMoney(d?.balanceCents ?? 0, d?.currency ?? store.currency.value, store.lang.value)}
          </strong>
        </div>
        <div class="c-top__langs">
          {(['es', 'en'] as const).map((l) => (
            <button
              type="button"
              key={l}
              class={store.lang.value === l ? 'c-lang c-lang--on' : 'c-lang'}
              data-testid={`lang-${l}`}
              onClick={() => {
                store.lang.value = l
                document.documentElement.lang = l
              }}
            >
              {l.toUpperCase()}
            </button>
          ))}
        </div>
      </header>
      <ShiftBar store={store} />
      <nav class="c-nav">
        {(['pay', 'sell', 'day'] as Tab[]).map((t) => (
          <button
            type="button"
            key={t}
            class={store.tab.value === t ? 'c-tab c-tab--on' : 'c-tab'}
            data-testid={`tab-${t}`}
            onClick={() => {
              store.tab.value = t
              store.error.value = null
              if (t === 'day') void store.refreshDay()
            }}
          >
            {T.tabs[t]}
          </button>
        ))}
      </nav>
      <main class="c-main">
        {store.tab.value === 'pay' && <PayPanel store={store} />}
        {store.tab.value === 'sell' && <SellPanel store={store} />}
        {store.tab.value === 'day' && <MovementsPanel store={store} />}
      </main>
    </div>
  )
}
