import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t, type CallerKey } from './texts.ts'

/** The keyboard shortcuts, always on screen: only those of actions the console offers to this role. */
export function Shortcuts({ store, lang, manual }: { store: CallerStore; lang: Lang; manual: boolean }) {
  const keys: Array<[string, CallerKey] | false> = [
    store.can('game.draw') && (manual ? [t(lang, 'kDigits'), 'kManual'] : [t(lang, 'kSpace'), 'kDraw']),
    store.can('game.claim') && ['L', 'kLine'],
    store.can('game.claim') && ['B', 'kBingo'],
    Boolean(store.offer('game.window')) && ['C', 'kClose'],
    [t(lang, 'enter'), 'kEnter'],
    ['Esc', 'kEsc'],
    store.can('minutes.read') && ['A', 'kMinutes'],
  ]
  return (
    <footer class="cc-keys" data-testid="shortcuts">
      <span class="cc-keys__title">{t(lang, 'keys')}</span>
      {keys
        .filter((k) => k !== false)
        .map(([key, what]) => (
          <span key={what} class="cc-keys__item">
            <kbd>{key}</kbd> {t(lang, what)}
          </span>
        ))}
    </footer>
  )
}
