import { HelpButton } from './HelpPanel.tsx'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

/** Hall name and the language switch; the switch is always reachable. */
export function Header(props: { store: KioskStore }) {
  const { store } = props
  const hall = store.offer.value?.hall
  return (
    <header class="k-header">
      <div class="k-header__hall" data-testid="kiosk-hall">
        {hall?.name ?? TEXTS[store.lang.value].title}
      </div>
      <HelpButton store={store} />
      <div class="k-header__langs" role="group" aria-label="Idioma / Language">
        {(['es', 'en'] as const).map((l) => (
          <button
            type="button"
            key={l}
            class={store.lang.value === l ? 'k-lang k-lang--on' : 'k-lang'}
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
  )
}
