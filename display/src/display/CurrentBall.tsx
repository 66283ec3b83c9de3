import type { GameState } from '../../../server/src/bingo/service.ts'
import { money } from '../../../web/format.ts'
import { text, type Lang } from '../../../web/i18n.ts'
import { ballCall } from '../../../web/number-words.ts'

/**
 * The ball just drawn, as large as the screen allows, with its name in words and the explicit count of
 * extractions (BNG-36 (1), BNG-37). The ball element is keyed by the count, so each new ball mounts afresh and
 * plays its entrance animation.
 */
export function CurrentBall({ state, lang }: { state: GameState; lang: Lang }) {
  const ball = state.lastBall
  const count = state.balls.length
  const key = `${state.gameId}:${count}`
  const before = state.status === 'announced' || state.status === 'on_sale' || state.status === 'sales_closed'
  return (
    <div class="hd-ball-panel">
      <div class="hd-flash" key={`flash-${key}`} />
      <div class="hd-ball-stage">
        {ball !== null ? (
          <div class="hd-ball hd-ball--in" key={key} data-testid="current-ball" data-count={count}>
            {ball}
          </div>
        ) : (
          <div class="hd-ball hd-ball--empty" data-testid="current-ball" data-count={0}>
            {before ? '' : '–'}
          </div>
        )}
        {ball === null && before && (
          <div class="hd-ball-pre" data-testid="pre-draw">
            <div class="hd-ball-pre__hint">
              {text(
                lang,
                state.status === 'sales_closed'
                  ? 'salesClosedHint'
                  : state.status === 'announced'
                    ? 'announcedHint'
                    : 'onSaleHint',
              )}
            </div>
            <div class="hd-ball-pre__price">{money(state.faceValueCents, state.currency, lang)}</div>
          </div>
        )}
      </div>
      <div class="hd-ball-words" data-testid="current-ball-words">
        {ball !== null ? ballCall(ball, lang) : '\u00a0'}
      </div>
      <div class="hd-count">
        <span class="hd-count__label">{text(lang, 'extractions')}</span>
        <strong class="hd-count__value" data-testid="extraction-count">
          {count}
        </strong>
        <span class="hd-count__of">
          {text(lang, 'extractionOf')} {state.ballCount}
        </span>
      </div>
    </div>
  )
}
