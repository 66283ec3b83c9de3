import { useState } from 'preact/hooks'
import { getProfile } from '../../../server/src/shared/profile.ts'
import { money } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import { JefeMark } from './JefeMark.tsx'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** BNG-11: announce the next game with its series (a second one under BNG-13) and how balls are drawn. */
export function AnnouncePanel({ store, lang, sessionId }: { store: CallerStore; lang: Lang; sessionId: string }) {
  const hall = store.hall.value!
  const profile = getProfile(hall.hall.profileId)
  const available = hall.series.filter((s) => s.nextCardNo <= s.cardCount)
  const [first, setFirst] = useState(available[0]?.id ?? '')
  const [second, setSecond] = useState('')
  const [source, setSource] = useState<'rng' | 'manual'>(profile?.softwareDrawAllowed === false ? 'manual' : 'rng')
  const firstId = available.some((s) => s.id === first) ? first : (available[0]?.id ?? '')
  const submit = (e: Event) => {
    e.preventDefault()
    if (!firstId) return
    const ids = second && second !== firstId ? [firstId, second] : [firstId]
    store.perform(
      'game.announce',
      'announce',
      {
        title: t(lang, 'announce'),
        body: [ids.map((id) => hall.series.find((s) => s.id === id)?.code ?? '').join(' + ')],
        confirmLabel: t(lang, 'announce'),
      },
      (person) => store.announce(sessionId, ids, source, person),
    )
  }
  return (
    <form class="cc-panel cc-flow" onSubmit={submit}>
      <h2>{t(lang, 'announce')}</h2>
      <fieldset class="cc-choices">
        <legend>{t(lang, 'series')}</legend>
        {hall.series.map((s) => (
          <label key={s.id} class={s.id === firstId ? 'cc-choice cc-choice--on' : 'cc-choice'}>
            <input
              type="radio"
              name="series"
              value={s.id}
              checked={s.id === firstId}
              disabled={s.nextCardNo > s.cardCount}
              data-testid={`series-${s.code}`}
              onChange={() => setFirst(s.id)}
            />
            <strong>{s.code}</strong>
            <span>{money(s.faceValueCents, hall.hall.currency, lang)}</span>
            <span class="cc-muted">
              {Math.max(0, s.cardCount - s.nextCardNo + 1)} {t(lang, 'cardsLeft')} · {s.nextCardNo}…{s.cardCount}
            </span>
          </label>
        ))}
      </fieldset>
      <div class="cc-row">
        <label class="cc-field">
          <span>{t(lang, 'secondSeries')}</span>
          <select
            value={second}
            data-testid="second-series"
            onChange={(e) => setSecond((e.target as HTMLSelectElement).value)}
          >
            <option value="">{t(lang, 'none')}</option>
            {hall.series
              .filter((s) => s.id !== firstId)
              .map((s) => (
                <option key={s.id} value={s.id}>
                  {s.code}
                </option>
              ))}
          </select>
        </label>
        <fieldset class="cc-choices cc-choices--inline">
          <legend>{t(lang, 'drawSource')}</legend>
          {(['rng', 'manual'] as const).map((src) => (
            <label key={src} class={source === src ? 'cc-choice cc-choice--on' : 'cc-choice'}>
              <input
                type="radio"
                name="source"
                value={src}
                checked={source === src}
                disabled={src === 'rng' && profile?.softwareDrawAllowed === false}
                data-testid={`source-${src}`}
                onChange={() => setSource(src)}
              />
              {t(lang, src)}
            </label>
          ))}
        </fieldset>
      </div>
      <button
        type="submit"
        class="cc-btn cc-btn--primary cc-btn--huge"
        data-testid="announce"
        disabled={!firstId || Boolean(store.busy.value)}
      >
        {t(lang, 'announce')} <JefeMark how={store.offer('game.announce')} lang={lang} />
      </button>
    </form>
  )
}
