import type { GameState } from '../../../server/src/bingo/service.ts'
import { gameWord } from '../../../web/format.ts'
import { text, type Lang } from '../../../web/i18n.ts'
import type { Speaker } from '../../../web/speech.ts'
import { SoundControls } from './SoundControls.tsx'

/** Hall, game number, the state in one big word, and the sound controls. */
export function Header({
  state,
  speaker,
  lang,
  offline,
}: {
  state: GameState
  speaker: Speaker
  lang: Lang
  offline: boolean
}) {
  return (
    <header class="hd-header">
      <div class="hd-header__hall">
        <div class="hd-header__name" data-testid="hall-name">
          {state.hallName}
        </div>
        <div class="hd-header__game">
          {text(lang, 'gameNo')} <strong data-testid="game-no">{state.orderNo}</strong>
          {state.isLastGame && (
            <span class="hd-badge" data-testid="last-game">
              {text(lang, 'lastGame')}
            </span>
          )}
        </div>
      </div>
      <div class={`hd-state hd-state--${state.status}`} data-testid="state">
        {gameWord(state, lang)}
      </div>
      <div class="hd-header__side">
        <SoundControls speaker={speaker} lang={lang} />
        <span
          class={offline ? 'hd-dot hd-dot--off' : 'hd-dot'}
          data-testid="connection"
          data-online={offline ? 'false' : 'true'}
        />
      </div>
    </header>
  )
}
