import { useState } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import type { IncidentKind } from '../../../web/api.ts'
import type { Lang } from '../../../web/i18n.ts'
import { INCIDENT_KINDS, incidentRule, isIncidentAvailable, say } from './incidents.ts'
import { JefeMark } from './JefeMark.tsx'
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
  const [reason, setReason] = useState('')
  const [secondUser, setSecondUser] = useState('')
  const [secondPassword, setSecondPassword] = useState('')
  const kind = chosen && isIncidentAvailable(chosen, game) ? chosen : firstAvailable
  const rule = incidentRule(kind, game.profileId, game.drawSource)
  const available = isIncidentAvailable(kind, game)
  const canCorrect = kind === 'caller-error' && !rule.voids && game.drawSource !== 'rng'
  // BNG-74: in a Bolivian hall every incident entry is co-signed by the Director de Bingo with her own credential.
  const cosign = game.profileId === 'BO-2025' || game.profileId === 'BO-2013'
  const asksSecond = rule.voids || cosign
  // Issue 15 point 4: an annulment needs a reason and a second person's username and password.
  const annulReady =
    (!rule.voids || (reason.trim().length >= 5 && reason.trim().length <= 500)) &&
    (!asksSecond || (secondUser.trim() !== '' && secondPassword !== ''))
  const declare = () => {
    const ball = canCorrect && corrected ? Number(corrected) : undefined
    const confirm = { username: secondUser.trim(), password: secondPassword }
    const annul = rule.voids ? { reason: reason.trim(), confirm } : cosign ? { confirm } : undefined
    store.ask({
      title: `${say(rule.title, lang)} (${rule.rule})`,
      body: [
        say(rule.paragraph, lang),
        `${t(lang, 'outcome')}: ${say(rule.outcome, lang)}`,
        ...(annul?.reason !== undefined ? [`${t(lang, 'annulReason')}: ${annul.reason}`] : []),
        ...(annul ? [`${t(lang, 'secondUser')}: ${annul.confirm.username}`] : []),
        ...(note.trim() ? [`${t(lang, 'note')}: ${note.trim()}`] : []),
      ],
      confirmLabel: t(lang, 'declare'),
      danger: rule.voids,
      permission: 'game.incident',
      run: async (person) => {
        try {
          await store.incident(kind, note, ball, annul, person)
        } finally {
          // The second person's password never stays on screen, accepted or not.
          setSecondPassword('')
        }
        setNote('')
        setCorrected('')
        setReason('')
        setSecondUser('')
      },
    })
  }
  return (
    <div class="cc-panel cc-incidents" data-testid="incidents">
      <h2>{t(lang, 'incidents')}</h2>
      <label class="cc-field">
        <span>{t(lang, 'incidentKind')}</span>
        <select
          value={kind}
          data-testid="incident-kind"
          onChange={(e) => setChosen((e.target as HTMLSelectElement).value as IncidentKind)}
        >
          {INCIDENT_KINDS.map((k) => {
            const r = incidentRule(k, game.profileId, game.drawSource)
            const ok = isIncidentAvailable(k, game)
            return (
              <option key={k} value={k} disabled={!ok}>
                {r.rule} · {say(r.title, lang)}
                {ok ? '' : ` (${t(lang, 'notNow')})`}
              </option>
            )
          })}
        </select>
      </label>
      <div class={rule.voids ? 'cc-rule cc-rule--danger' : 'cc-rule'}>
        <div class="cc-rule__lead">{t(lang, 'readAloud')}</div>
        <blockquote class="cc-rule__text" data-testid="incident-text">
          {say(rule.paragraph, lang)}
        </blockquote>
        <div class="cc-rule__outcome" data-testid="incident-outcome">
          <strong>{t(lang, 'outcome')}:</strong> {say(rule.outcome, lang)}
        </div>
      </div>
      <label class="cc-field">
        <span>{t(lang, 'note')}</span>
        <textarea
          rows={2}
          maxLength={2000}
          value={note}
          data-testid="incident-note"
          onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      {canCorrect && (
        <label class="cc-field">
          <span>{t(lang, 'correctedBall')}</span>
          <input
            type="number"
            min={1}
            max={game.ballCount}
            value={corrected}
            data-testid="incident-ball"
            onInput={(e) => setCorrected((e.target as HTMLInputElement).value)}
          />
        </label>
      )}
      {asksSecond && (
        <fieldset class="cc-field cc-annul" data-testid="annul-fields">
          <legend>{t(lang, cosign ? 'directorCosigns' : 'secondPerson')}</legend>
          {rule.voids && (
            <label class="cc-field">
              <span>{t(lang, 'annulReason')}</span>
              <textarea
                rows={2}
                minLength={5}
                maxLength={500}
                value={reason}
                data-testid="annul-reason"
                onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)}
              />
            </label>
          )}
          <label class="cc-field">
            <span>{t(lang, 'secondUser')}</span>
            <input
              type="text"
              autocomplete="off"
              value={secondUser}
              data-testid="annul-user"
              onInput={(e) => setSecondUser((e.target as HTMLInputElement).value)}
            />
          </label>
          <label class="cc-field">
            <span>{t(lang, 'secondPassword')}</span>
            <input
              type="password"
              autocomplete="off"
              value={secondPassword}
              data-testid="annul-password"
              onInput={(e) => setSecondPassword((e.target as HTMLInputElement).value)}
            />
          </label>
          {!annulReady && <div class="cc-hint">{t(lang, 'annulNeedsTwo')}</div>}
        </fieldset>
      )}
      <button
        type="button"
        class={rule.voids ? 'cc-btn cc-btn--danger' : 'cc-btn'}
        data-testid="incident-declare"
        disabled={!available || !annulReady || Boolean(store.busy.value)}
        onClick={declare}
      >
        {t(lang, 'declare')} <JefeMark how={store.offer('game.incident')} lang={lang} />
      </button>
    </div>
  )
}
