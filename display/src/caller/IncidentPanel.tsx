import { useState } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import type { IncidentKind } from '../../../web/api.ts'
import type { Lang } from '../../../web/i18n.ts'
import { INCIDENT_KINDS, incidentRule, isIncidentAvailable, say } from './incidents.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/**
 * Incidents (BNG-80 to BNG-83): the regulation paragraph and its outcome are on screen before anything is
 * confirmed, for the Jefe de Sala to read aloud (BNG-84).
 */
export function IncidentPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const firstAvailable = INCIDENT_KINDS.find((k) => isIncidentAvailable(k, game)) ?? INCIDENT_KINDS[0]
  const [chosen, setChosen] = useState<IncidentKind | null>(null)
  const [note, setNote] = useState('')
  const [corrected, setCorrected] = useState('')
  const kind = chosen && isIncidentAvailable(chosen, game) ? chosen : firstAvailable
  const rule = incidentRule(kind, game.profileId)
  const available = isIncidentAvailable(kind, game)
  const canCorrect = kind === 'caller-error' && !rule.voids && game.drawSource !== 'rng'
  const declare = () => {
    const ball = canCorrect && corrected ? Number(corrected) : undefined
    store.ask({
      title: `${say(rule.title, lang)} (${rule.rule})`,
      body: [say(rule.paragraph, lang), `${t(lang, 'outcome')}: ${say(rule.outcome, lang)}`, ...(note.trim() ? [`${t(lang, 'note')}: ${note.trim()}`] : [])],
      confirmLabel: t(lang, 'declare'),
      danger: rule.voids,
      run: async () => {
        await store.incident(kind, note, ball)
        setNote('')
        setCorrected('')
      },
    })
  }
  return (
    <div class="cc-panel cc-incidents" data-testid="incidents">
      <h2>{t(lang, 'incidents')}</h2>
      <label class="cc-field">
        <span>{t(lang, 'incidentKind')}</span>
        <select value={kind} data-testid="incident-kind" onChange={(e) => setChosen((e.target as HTMLSelectElement).value as IncidentKind)}>
          {INCIDENT_KINDS.map((k) => {
            const r = incidentRule(k, game.profileId)
            const ok = isIncidentAvailable(k, game)
            return <option key={k} value={k} disabled={!ok}>{r.rule} · {say(r.title, lang)}{ok ? '' : ` (${t(lang, 'notNow')})`}</option>
          })}
        </select>
      </label>
      <div class={rule.voids ? 'cc-rule cc-rule--danger' : 'cc-rule'}>
        <div class="cc-rule__lead">{t(lang, 'readAloud')}</div>
        <blockquote class="cc-rule__text" data-testid="incident-text">{say(rule.paragraph, lang)}</blockquote>
        <div class="cc-rule__outcome" data-testid="incident-outcome"><strong>{t(lang, 'outcome')}:</strong> {say(rule.outcome, lang)}</div>
      </div>
      <label class="cc-field">
        <span>{t(lang, 'note')}</span>
        <textarea rows={2} maxLength={2000} value={note} data-testid="incident-note" onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} />
      </label>
      {canCorrect && (
        <label class="cc-field">
          <span>{t(lang, 'correctedBall')}</span>
          <input type="number" min={1} max={game.ballCount} value={corrected} data-testid="incident-ball" onInput={(e) => setCorrected((e.target as HTMLInputElement).value)} />
        </label>
      )}
      <button type="button" class={rule.voids ? 'cc-btn cc-btn--danger' : 'cc-btn'} data-testid="incident-declare" disabled={!available || Boolean(store.busy.value)} onClick={declare}>
        {t(lang, 'declare')}
      </button>
    </div>
  )
}
