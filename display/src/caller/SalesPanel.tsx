import { useState } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'
import { tillState } from './till.ts'
import { TillClose, TillGate } from './TillPanel.tsx'

/**
 * Open sales, sell at the table, close sales (BNG-16); the close fixes the beacon round (DESIGN.md bolillo-draw-v2).
 * Issue 13: the table sells only through the open shift of the person logged in at this console as an enrolled
 * station; until then the panel says what is missing instead of offering a sale the server would refuse.
 */
export function SalesPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const [count, setCount] = useState('10')
  const busy = Boolean(store.busy.value)
  // Issue 14 point 7: opening and closing sales (game.sales) and selling (game.sell) each show only to a role holding them.
  const sales = store.can('game.sales')
  const selling = store.can('game.sell')
  const till = tillState(store.me.value, store.till.value)
  const mayTake = till === 'free' || till === 'open'
  if (game.status === 'announced') {
    if (!sales)
      return (
        <div class="cc-panel cc-flow cc-muted" data-testid="caller-waiting">
          {t(lang, 'waitSales')}
        </div>
      )
    return (
      <div class="cc-panel cc-flow">
        <h2>{t(lang, 'openSales')}</h2>
        <button
          type="button"
          class="cc-btn cc-btn--primary cc-btn--huge"
          data-testid="open-sales"
          disabled={busy}
          onClick={() => void store.openSales()}
        >
          {t(lang, 'openSales')}
        </button>
        {selling && <TillGate store={store} lang={lang} />}
        {selling && <TillClose store={store} lang={lang} />}
      </div>
    )
  }
  const sell = (e: Event) => {
    e.preventDefault()
    const n = Number(count)
    if (Number.isInteger(n) && n > 0) void store.sell(n)
  }
  const close = () =>
    store.ask({
      title: t(lang, 'closeSales'),
      body: [t(lang, 'closeSalesConfirm'), `${t(lang, 'cardsSold')}: ${game.cardsSold}`],
      confirmLabel: t(lang, 'closeSales'),
      run: () => store.closeSales(),
    })
  if (!sales && !selling)
    return (
      <div class="cc-panel cc-flow cc-muted" data-testid="caller-waiting">
        {t(lang, 'waitSales')} {t(lang, 'cardsSold')}: {game.cardsSold}
      </div>
    )
  return (
    <div class="cc-panel cc-flow">
      <h2>{t(lang, 'counterSale')}</h2>
      {selling && <TillGate store={store} lang={lang} />}
      {selling && mayTake && (
        <form class="cc-row" onSubmit={sell}>
          <label class="cc-field">
            <span>{t(lang, 'cards')}</span>
            <input
              type="number"
              min={1}
              max={1000}
              inputMode="numeric"
              value={count}
              data-testid="sell-count"
              onInput={(e) => setCount((e.target as HTMLInputElement).value)}
            />
          </label>
          <button type="submit" class="cc-btn cc-btn--big" data-testid="sell" disabled={busy}>
            {t(lang, 'sell')}
          </button>
          <div class="cc-bigstat">
            <span>{t(lang, 'cardsSold')}</span>
            <strong>{game.cardsSold}</strong>
          </div>
        </form>
      )}
      {selling && !mayTake && (
        <div class="cc-bigstat cc-bigstat--alone">
          <span>{t(lang, 'cardsSold')}</span>
          <strong>{game.cardsSold}</strong>
        </div>
      )}
      {selling && <TillClose store={store} lang={lang} />}
      {sales && (
        <small class="cc-muted" data-testid="close-sales-beacon">
          {t(lang, 'closeSalesBeacon')}
        </small>
      )}
      {sales && (
        <button
          type="button"
          class="cc-btn cc-btn--primary cc-btn--huge"
          data-testid="close-sales"
          disabled={busy}
          onClick={close}
        >
          {t(lang, 'closeSales')}
        </button>
      )}
    </div>
  )
}
