import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/**
 * The API's refusal in large print, in the screen's language: only the server's message, never its code, the
 * permission it names or an internal id (issue 14 point 7).
 */
export function ErrorBanner({ store, lang }: { store: CallerStore; lang: Lang }) {
  const e = store.error.value
  if (!e) return null
  return (
    <div class="cc-error" role="alert" data-testid="error-banner">
      <div class="cc-error__body">
        <div class="cc-error__title">{t(lang, 'couldNot')}</div>
        <div class="cc-error__message" data-testid="error-message">
          {e.message}
        </div>
      </div>
      <button type="button" class="cc-btn cc-btn--ghost" onClick={() => store.clearError()}>
        {t(lang, 'dismiss')}
      </button>
    </div>
  )
}
