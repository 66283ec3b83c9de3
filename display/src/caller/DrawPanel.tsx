import type { GameState } from '../../../server/src/bingo/service.ts'
import { GameAction, isLegal } from '../../../server/src/bingo/game.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** Next ball: one big button for the RNG, or the keypad for a ball read from a manual blower (BNG-81). */
export function DrawPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const busy = Boolean(store.busy.value)
  if (game.status === 'suspended') {
    return (
      <div class="cc-panel cc-flow cc-flow--warn">
        <h2>{t(lang, 'resume')}</h2>
        <button type="button" class="cc-btn cc-btn--primary cc-btn--huge" data-testid="resume" disabled={busy} onClick={() => void store.resume()}>{t(lang, 'resume')}</button>
      </div>
    )
  }
  const canDraw = isLegal(GameAction.Draw, game.status)
  if (game.drawSource === 'rng') {
    return (
      <div class="cc-panel cc-flow">
        <button type="button" class="cc-btn cc-btn--primary cc-btn--draw" data-testid="draw-next" disabled={!canDraw || busy} onClick={() => void store.draw()}>
          {t(lang, 'drawNext')} <kbd>{t(lang, 'kSpace')}</kbd>
        </button>
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
        <div class="cc-manual__display" data-testid="manual-display">{value || '—'}</div>
        <div class="cc-keypad">
          {['7', '8', '9', '4', '5', '6', '1', '2', '3'].map((d) => (
            <button key={d} type="button" class="cc-btn cc-key" data-testid={`key-${d}`} disabled={!canDraw} onClick={() => press(d)}>{d}</button>
          ))}
          <button type="button" class="cc-btn cc-key cc-key--muted" data-testid="key-clear" onClick={() => { store.manualBall.value = '' }}>{t(lang, 'clear')}</button>
          <button type="button" class="cc-btn cc-key" data-testid="key-0" disabled={!canDraw} onClick={() => press('0')}>0</button>
          <button type="button" class="cc-btn cc-btn--primary cc-key" data-testid="manual-enter" disabled={!canDraw || busy || !value} onClick={() => void store.enterBall()}>{t(lang, 'enter')} ⏎</button>
        </div>
      </div>
    </div>
  )
}
