import { useEffect } from 'preact/hooks'
import { useScanner } from '../shared/useScanner.ts'
import { DoneScreen } from './DoneScreen.tsx'
import { Header } from './Header.tsx'
import { HelpPanel } from './HelpPanel.tsx'
import { OnScreenKeyboard } from './OnScreenKeyboard.tsx'
import { ProblemScreen } from './ProblemScreen.tsx'
import { RefundedScreen, RefundScreen } from './RefundScreen.tsx'
import { SaleScreen } from './SaleScreen.tsx'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

/** A kiosk left alone goes back to the start, so that no voucher or ticket stays on screen for the next player. */
const IDLE_MS = 90_000

export function App(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const screen = store.screen.value
  const age = store.offer.value?.hall.minimumAge ?? 18
  // A voucher's QR read by the wedge scanner, on the sale screen (a bingo card's: its refund, issue 29 point 1).
  useScanner((code) => void store.checkVoucher(code))
  const untouched =
    screen.name === 'sale' && !store.voucher.value && store.lines.value.length === 0 && store.adult.value === null
  useEffect(() => {
    if (untouched || screen.name === 'printing') return
    let timer = setTimeout(() => store.reset(), IDLE_MS)
    const poke = () => {
      clearTimeout(timer)
      timer = setTimeout(() => store.reset(), IDLE_MS)
    }
    window.addEventListener('pointerdown', poke)
    window.addEventListener('keydown', poke)
    return () => {
      clearTimeout(timer)
      window.removeEventListener('pointerdown', poke)
      window.removeEventListener('keydown', poke)
    }
  }, [screen, untouched])
  return (
    <div class="kiosk" data-screen={screen.name}>
      <Header store={store} />
      <main class="k-main">
        {store.offline.value && (
          <div class="k-offline" data-testid="kiosk-offline">
            {T.problems.network[0]}
          </div>
        )}
        {store.refused.value && screen.name === 'sale' && (
          <section class="k-state k-state--stop" data-testid="kiosk-refused">
            <div class="k-state__icon" aria-hidden="true">
              !
            </div>
            <h1 class="k-state__title">{T.refusedTitle}</h1>
            <p class="k-state__hint">{store.refused.value}</p>
          </section>
        )}
        {screen.name === 'sale' && !store.refused.value && <SaleScreen store={store} />}
        {screen.name === 'minor' && (
          <section class="k-state k-state--stop" data-testid="kiosk-minor">
            <div class="k-state__icon" aria-hidden="true">
              {age}+
            </div>
            <h1 class="k-state__title">{T.minorTitle}</h1>
            <p class="k-state__hint">{T.minorBody(age)}</p>
            <button
              type="button"
              class="btn btn--secondary btn--wide k-state__btn"
              data-testid="kiosk-back"
              onClick={() => store.reset()}
            >
              {T.back}
            </button>
          </section>
        )}
        {screen.name === 'printing' && (
          <section class="k-state" data-testid="kiosk-printing">
            <div class="k-spinner" aria-hidden="true" />
            <h1 class="k-state__title">{T.printing}</h1>
            <p class="k-state__hint">{T.printingHint}</p>
          </section>
        )}
        {screen.name === 'done' && <DoneScreen store={store} purchase={screen.purchase} />}
        {screen.name === 'problem' && <ProblemScreen store={store} screen={screen} />}
        {screen.name === 'refund' && <RefundScreen store={store} screen={screen} />}
        {screen.name === 'refunding' && (
          <section class="k-state" data-testid="kiosk-printing">
            <div class="k-spinner" aria-hidden="true" />
            <h1 class="k-state__title">{T.refundPrinting}</h1>
            <p class="k-state__hint">{T.printingHint}</p>
          </section>
        )}
        {screen.name === 'refunded' && <RefundedScreen store={store} screen={screen} />}
      </main>
      <HelpPanel store={store} />
      <OnScreenKeyboard labels={{ delete: T.keyDelete, ok: T.keyOk, space: T.keySpace, keyboard: T.keyboard }} />
      <footer class="k-footer">{T.footer(age)}</footer>
    </div>
  )
}
