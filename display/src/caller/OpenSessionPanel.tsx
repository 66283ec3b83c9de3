import { useState } from 'preact/hooks'
import type { Lang } from '../../../web/i18n.ts'
import { JefeMark } from './JefeMark.tsx'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/**
 * BNG-27, BNG-41: a session opens with the ball recount, witnessed by a second person who types their own username
 * and password here (issue 14 point 2: the witness is proven, not a name typed in). A jefe who authorises the
 * opening on a locutor's console is that witness.
 */
const CHECK_ITEMS = ['extractor', 'cctv', 'displays', 'sound'] as const
type CheckItem = (typeof CHECK_ITEMS)[number]

export function OpenSessionPanel({ store, lang }: { store: CallerStore; lang: Lang }) {
  const [balls, setBalls] = useState('')
  const [by, setBy] = useState('')
  const [pass, setPass] = useState('')
  // BNG-41: each item is ticked by whoever checked it works; the server refuses the opening otherwise.
  const [checks, setChecks] = useState<Record<CheckItem, boolean>>({
    extractor: false,
    cctv: false,
    displays: false,
    sound: false,
  })
  const submit = (e: Event) => {
    e.preventDefault()
    // `confirmedBy` counts only where authentication is off; with it on the server takes the witness's credential.
    const recount = { ballsCounted: Number(balls), confirmedBy: by.trim() || store.operator.value }
    const witness = by.trim() && pass ? { username: by.trim(), password: pass } : undefined
    store.perform(
      'session.open',
      'openSession',
      {
        title: t(lang, 'openSession'),
        body: [
          `${t(lang, 'ballsCounted')}: ${recount.ballsCounted}${witness ? ` · ${t(lang, 'witness')}: ${witness.username}` : ''}`,
        ],
        confirmLabel: t(lang, 'openSession'),
      },
      async (person) => {
        await store.openSession(recount, checks, person ?? witness)
        setPass('')
      },
    )
  }
  return (
    <form class="cc-panel cc-flow" onSubmit={submit}>
      <h2>{t(lang, 'openSession')}</h2>
      <p class="cc-muted">{t(lang, 'openSessionHelp')}</p>
      <div class="cc-row">
        <label class="cc-field">
          <span>{t(lang, 'ballsCounted')}</span>
          <input
            type="number"
            inputMode="numeric"
            min={0}
            max={1000}
            required
            value={balls}
            data-testid="recount-balls"
            onInput={(e) => setBalls((e.target as HTMLInputElement).value)}
          />
        </label>
        <label class="cc-field cc-field--grow">
          <span>{t(lang, 'confirmedBy')}</span>
          <input
            type="text"
            autocomplete="off"
            value={by}
            data-testid="recount-by"
            onInput={(e) => setBy((e.target as HTMLInputElement).value)}
          />
        </label>
        <label class="cc-field cc-field--grow">
          <span>{t(lang, 'witnessPassword')}</span>
          <input
            type="password"
            autocomplete="off"
            value={pass}
            data-testid="recount-pass"
            onInput={(e) => setPass((e.target as HTMLInputElement).value)}
          />
        </label>
      </div>
      <fieldset class="cc-row" data-testid="equipment-check">
        <legend>{t(lang, 'equipmentCheck')}</legend>
        {CHECK_ITEMS.map((item) => (
          <label class="cc-field" key={item}>
            <input
              type="checkbox"
              required
              checked={checks[item]}
              data-testid={`check-${item}`}
              onChange={(e) => setChecks({ ...checks, [item]: (e.target as HTMLInputElement).checked })}
            />
            <span>{t(lang, `check_${item}`)}</span>
          </label>
        ))}
      </fieldset>
      <button
        type="submit"
        class="cc-btn cc-btn--primary cc-btn--huge"
        data-testid="open-session"
        disabled={Boolean(store.busy.value)}
      >
        {t(lang, 'openSession')} <JefeMark how={store.offer('session.open')} lang={lang} />
      </button>
    </form>
  )
}
