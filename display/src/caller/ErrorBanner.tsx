import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** The API's refusal in large print: what was refused (message), the code to quote, and the server's detail. */
export function ErrorBanner({ store, lang }: { store: CallerStore; lang: Lang }) {
  const e = store.error.value
  if (!e) return null
  return (
    <div class="cc-error" role="alert" data-testid="error-banner">
      <div class="cc-error__body">
        <div class="cc-error__title">{t(lang, 'error')} · <span data-testid="error-code">{e.code}</span></div>
        <div class="cc-error__message" data-testid="error-message">{e.message}</div>
        {e.detail && <div class="cc-error__detail">{e.detail}</div>}
      </div>
      <button type="button" class="cc-btn cc-btn--ghost" onClick={() => store.clearError()}>{t(lang, 'dismiss')}</button>
    </div>
  )
}
