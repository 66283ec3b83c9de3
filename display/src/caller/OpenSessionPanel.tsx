import { useState } from 'preact/hooks'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** BNG-27, BNG-41: a session opens with the ball recount and who confirmed it. */
export function OpenSessionPanel({ store, lang }: { store: CallerStore; lang: Lang }) {
  const [balls, setBalls] = useState('')
  const [by, setBy] = useState(store.operator.value)
  const submit = (e: Event) => {
    e.preventDefault()
    void store.openSession({ ballsCounted: Number(balls), confirmedBy: by.trim() })
  }
  return (
    <form class="cc-panel cc-flow" onSubmit={submit}>
      <h2>{t(lang, 'openSession')}</h2>
      <p class="cc-muted">{t(lang, 'openSessionHelp')}</p>
      <div class="cc-row">
        <label class="cc-field">
          <span>{t(lang, 'ballsCounted')}</span>
          <input type="number" inputMode="numeric" min={0} max={1000} required value={balls} data-testid="recount-balls" onInput={(e) => setBalls((e.target as HTMLInputElement).value)} />
        </label>
        <label class="cc-field cc-field--grow">
          <span>{t(lang, 'confirmedBy')}</span>
          <input type="text" required value={by} data-testid="recount-by" onInput={(e) => setBy((e.target as HTMLInputElement).value)} />
        </label>
      </div>
      <button type="submit" class="cc-btn cc-btn--primary cc-btn--huge" data-testid="open-session" disabled={Boolean(store.busy.value)}>{t(lang, 'openSession')}</button>
    </form>
  )
}
