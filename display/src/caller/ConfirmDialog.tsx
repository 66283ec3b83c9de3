import { useEffect, useRef } from 'preact/hooks'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/**
 * Asks before an action that cannot be undone. Enter confirms, Esc cancels. For an action the role at the console
 * may not take, a jefe types her username and password here (issue 14 point 7): the request carries them as the
 * second person, the person logged in stays logged in, and the journal names both.
 */
export function ConfirmDialog({ store, lang }: { store: CallerStore; lang: Lang }) {
  const c = store.confirmation.value
  const ok = useRef<HTMLButtonElement>(null)
  const user = useRef<HTMLInputElement>(null)
  const authorise = c?.permission !== undefined && store.offer(c.permission) === 'jefe'
  useEffect(() => {
    if (!c) return
    if (authorise) user.current?.focus()
    else ok.current?.focus()
  }, [c])
  if (!c) return null
  const ready = !authorise || (store.secondUser.value.trim() !== '' && store.secondPassword.value !== '')
  const error = store.error.value
  return (
    <div class="cc-modal" data-testid="confirm-dialog">
      <div class={c.danger ? 'cc-modal__box cc-modal__box--danger' : 'cc-modal__box'} role="dialog" aria-modal="true">
        <h2 class="cc-modal__title">{c.title}</h2>
        {c.body.map((p, i) => (
          <p key={i} class={i === 0 ? 'cc-modal__lead' : 'cc-modal__text'}>
            {p}
          </p>
        ))}
        {authorise && (
          <fieldset class="cc-authorise" data-testid="authorise">
            <legend>{t(lang, 'authoriseTitle')}</legend>
            <p class="cc-muted">{t(lang, 'authoriseHelp')}</p>
            <div class="cc-row">
              <label class="cc-field cc-field--grow">
                <span>{t(lang, 'authoriseUser')}</span>
                <input
                  ref={user}
                  type="text"
                  autocomplete="off"
                  value={store.secondUser.value}
                  data-testid="authorise-user"
                  onInput={(e) => {
                    store.secondUser.value = (e.target as HTMLInputElement).value
                  }}
                />
              </label>
              <label class="cc-field cc-field--grow">
                <span>{t(lang, 'authorisePassword')}</span>
                <input
                  type="password"
                  autocomplete="off"
                  value={store.secondPassword.value}
                  data-testid="authorise-password"
                  onInput={(e) => {
                    store.secondPassword.value = (e.target as HTMLInputElement).value
                  }}
                />
              </label>
            </div>
            {error && (
              <div class="cc-hint" role="alert" data-testid="authorise-error">
                {error.message}
              </div>
            )}
          </fieldset>
        )}
        <div class="cc-modal__actions">
          <button
            type="button"
            class="cc-btn cc-btn--ghost cc-btn--big"
            data-testid="confirm-cancel"
            onClick={() => store.cancel()}
          >
            {t(lang, 'cancel')} <kbd>Esc</kbd>
          </button>
          <button
            type="button"
            ref={ok}
            class={c.danger ? 'cc-btn cc-btn--danger cc-btn--big' : 'cc-btn cc-btn--primary cc-btn--big'}
            data-testid="confirm-ok"
            disabled={Boolean(store.busy.value) || !ready}
            onClick={() => void store.confirm()}
          >
            {authorise ? `${t(lang, 'authorise')}: ${c.confirmLabel}` : c.confirmLabel} <kbd>{t(lang, 'enter')}</kbd>
          </button>
        </div>
      </div>
    </div>
  )
}
