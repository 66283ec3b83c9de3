import type { GameState } from '../../../server/src/bingo/service.ts'
import { GameAction, isLegal } from '../../../server/src/bingo/game.ts'
import type { Lang } from '../../../web/i18n.ts'
import { JefeMark } from './JefeMark.tsx'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'
import { beaconWaiting } from '../../../web/format.ts'
import { useState } from 'preact/hooks'

/** DESIGN.md bolillo-draw-v2 point 3: staff type the round's published signature; the server verifies it. */
function BeaconSignatureForm({ store, lang, busy }: { store: CallerStore; lang: Lang; busy: boolean }) {
  const [signature, setSignature] = useState('')
  const submit = (e: Event) => {
    e.preventDefault()
    if (signature.trim())
      void store.typeBeacon(signature).then((ok) => {
        if (ok) setSignature('')
      })
  }
  return (
    <form class="cc-field cc-beacon-form" onSubmit={submit}>
      <span>{t(lang, 'beaconSignature')}</span>
      <div class="cc-row">
        <input
          type="text"
          maxLength={400}
          spellcheck={false}
          autocomplete="off"
          value={signature}
          data-testid="beacon-signature"
          placeholder="b713718a…"
          onInput={(e) => setSignature((e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="cc-btn" data-testid="beacon-submit" disabled={busy || !signature.trim()}>
          {t(lang, 'beaconCheck')}
        </button>
      </div>
      <small class="cc-muted">{t(lang, 'beaconSignatureHelp')}</small>
    </form>
  )
}

/** Next ball: one big button for the RNG, or the keypad for a ball read from a manual blower (BNG-81). */
export function DrawPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const busy = Boolean(store.busy.value)
  if (game.status === 'suspended') {
    const how = store.offer('game.incident')
    if (!how)
      return (
        <div class="cc-panel cc-flow cc-flow--warn">
          <h2>{t(lang, 'resume')}</h2>
        </div>
      )
    return (
      <div class="cc-panel cc-flow cc-flow--warn">
        <h2>{t(lang, 'resume')}</h2>
        <button
          type="button"
          class="cc-btn cc-btn--primary cc-btn--huge"
          data-testid="resume"
          disabled={busy}
          onClick={() =>
            store.perform(
              'game.incident',
              'resume',
              { title: t(lang, 'resume'), body: [t(lang, 'resume')], confirmLabel: t(lang, 'resume') },
              (person) => store.resume(person),
            )
          }
        >
          {t(lang, 'resume')} <JefeMark how={how} lang={lang} />
        </button>
      </div>
    )
  }
  const canDraw = isLegal(GameAction.Draw, game.status)
  if (game.drawSource === 'rng') {
    // bolillo-draw-v2: no ball before round R is verified; pressing asks the server, which answers once it is out.
    const awaiting = game.beacon?.status === 'awaiting' ? game.beacon : null
    return (
      <div class="cc-panel cc-flow">
        <button
          type="button"
          class={`cc-btn cc-btn--primary cc-btn--draw${awaiting ? ' cc-btn--waiting' : ''}`}
          data-testid="draw-next"
          data-beacon={awaiting ? 'awaiting' : undefined}
          disabled={!canDraw || busy}
          onClick={() => void store.draw()}
        >
          {awaiting ? beaconWaiting(awaiting.round, lang) : t(lang, 'drawNext')} <kbd>{t(lang, 'kSpace')}</kbd>
        </button>
        {awaiting && <BeaconSignatureForm store={store} lang={lang} busy={busy} />}
      </div>
    )
  }
  const value = store.manualBall.value
  const press = (d: string) => {
    store.manualBall.value = (value + d).replace(/^0+/, '').slice(-String(game.ballCount).length)
  }
  return (
    <div class="cc-panel cc-flow">
      <h2>{t(lang, 'manualEntry')}</h2>
      <div class="cc-manual">
        <div class="cc-manual__display" data-testid="manual-display">
          {value || '—'}
        </div>
        <div class="cc-keypad">
          {['7', '8', '9', '4', '5', '6', '1', '2', '3'].map((d) => (
            <button
              key={d}
              type="button"
              class="cc-btn cc-key"
              data-testid={`key-${d}`}
              disabled={!canDraw}
              onClick={() => press(d)}
            >
              {d}
            </button>
          ))}
          <button
            type="button"
            class="cc-btn cc-key cc-key--muted"
            data-testid="key-clear"
            onClick={() => {
              store.manualBall.value = ''
            }}
          >
            {t(lang, 'clear')}
          </button>
          <button
            type="button"
            class="cc-btn cc-key"
            data-testid="key-0"
            disabled={!canDraw}
            onClick={() => press('0')}
          >
            0
          </button>
          <button
            type="button"
            class="cc-btn cc-btn--primary cc-key"
            data-testid="manual-enter"
            disabled={!canDraw || busy || !value}
            onClick={() => void store.enterBall()}
          >
            {t(lang, 'enter')} ⏎
          </button>
        </div>
      </div>
    </div>
  )
}
