import type { Lang } from '../../../web/i18n.ts'
import { t, type CallerKey } from './texts.ts'

/** The keyboard shortcuts, always on screen. */
export function Shortcuts({ lang, manual }: { lang: Lang; manual: boolean }) {
  const keys: Array<[string, CallerKey]> = [
    manual ? [t(lang, 'kDigits'), 'kManual'] : [t(lang, 'kSpace'), 'kDraw'],
    ['L', 'kLine'], ['B', 'kBingo'], ['C', 'kClose'], [t(lang, 'enter'), 'kEnter'], ['Esc', 'kEsc'], ['A', 'kMinutes'],
  ]
  return (
    <footer class="cc-keys" data-testid="shortcuts">
      <span class="cc-keys__title">{t(lang, 'keys')}</span>
      {keys.map(([key, what]) => (
        <span key={what} class="cc-keys__item"><kbd>{key}</kbd> {t(lang, what)}</span>
      ))}
    </footer>
  )
}
