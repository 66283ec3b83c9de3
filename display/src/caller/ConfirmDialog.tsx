import { useEffect, useRef } from 'preact/hooks'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** Asks before an action that cannot be undone. Enter confirms, Esc cancels. */
export function ConfirmDialog({ store, lang }: { store: CallerStore; lang: Lang }) {
  const c = store.confirmation.value
  const ok = useRef<HTMLButtonElement>(null)
  useEffect(() => { if (c) ok.current?.focus() }, [c])
  if (!c) return null
  return (
    <div class="cc-modal" data-testid="confirm-dialog">
      <div class={c.danger ? 'cc-modal__box cc-modal__box--danger' : 'cc-modal__box'} role="dialog" aria-modal="true">
        <h2 class="cc-modal__title">{c.title}</h2>
        {c.body.map((p, i) => <p key={i} class={i === 0 ? 'cc-modal__lead' : 'cc-modal__text'}>{p}</p>)}
        <div class="cc-modal__actions">
          <button type="button" class="cc-btn cc-btn--ghost cc-btn--big" data-testid="confirm-cancel" onClick={() => store.cancel()}>
            {t(lang, 'cancel')} <kbd>Esc</kbd>
          </button>
          <button type="button" ref={ok} class={c.danger ? 'cc-btn cc-btn--danger cc-btn--big' : 'cc-btn cc-btn--primary cc-btn--big'} data-testid="confirm-ok" disabled={Boolean(store.busy.value)} onClick={() => void store.confirm()}>
            {c.confirmLabel} <kbd>{t(lang, 'enter')}</kbd>
          </button>
        </div>
      </div>
    </div>
  )
}
