import { useEffect } from 'preact/hooks'
import { useScanner } from '../shared/useScanner.ts'
import { AgeScreen } from './AgeScreen.tsx'
import { CountScreen } from './CountScreen.tsx'
import { DoneScreen } from './DoneScreen.tsx'
import { Header } from './Header.tsx'
import { HomeScreen } from './HomeScreen.tsx'
import { ProblemScreen } from './ProblemScreen.tsx'
import { ScanScreen } from './ScanScreen.tsx'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

/** A kiosk left alone goes back to the start, so that no voucher or card stays on screen for the next player. */
const IDLE_MS = 90_000

export function App(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const screen = store.screen.value
  useScanner((code) => void store.scanned(code))
  useEffect(() => {
    if (screen.name === 'home' || screen.name === 'printing') return
    let timer = setTimeout(() => store.home(), IDLE_MS)
    const poke = () => { clearTimeout(timer); timer = setTimeout(() => store.home(), IDLE_MS) }
    window.addEventListener('pointerdown', poke)
    window.addEventListener('keydown', poke)
    return () => { clearTimeout(timer); window.removeEventListener('pointerdown', poke); window.removeEventListener('keydown', poke) }
  }, [screen])
  return (
    <div class="kiosk" data-screen={screen.name}>
      <Header store={store} />
      <main class="k-main">
        {store.offline.value && <div class="k-offline" data-testid="kiosk-offline">{T.problems.network[0]}</div>}
        {screen.name === 'home' && <HomeScreen store={store} />}
        {(screen.name === 'age' || screen.name === 'minor') && <AgeScreen store={store} />}
        {(screen.name === 'scan' || screen.name === 'checking') && <ScanScreen store={store} />}
        {screen.name === 'count' && <CountScreen store={store} voucher={screen.voucher} />}
        {screen.name === 'printing' && (
          <section class="k-state" data-testid="kiosk-printing">
            <div class="k-spinner" aria-hidden="true" />
            <h1 class="k-state__title">{T.printing}</h1>
            <p class="k-state__hint">{T.printingHint}</p>
          </section>
        )}
        {screen.name === 'done' && <DoneScreen store={store} purchase={screen.purchase} />}
        {screen.name === 'problem' && <ProblemScreen store={store} screen={screen} />}
      </main>
      <footer class="k-footer">{store.lang.value === 'en' ? 'Play responsibly · No play under 18' : 'Juego responsable · Prohibido a menores de 18 años'}</footer>
    </div>
  )
}
