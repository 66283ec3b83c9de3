import { previousBalls } from '../../../web/format.ts'
import { text, type Lang } from '../../../web/i18n.ts'

/** The five balls before the current one, most recent first. */
export function LastBalls({ balls, lang }: { balls: number[]; lang: Lang }) {
  const last = previousBalls(balls, 5)
  return (
    <div class="hd-last">
      <div class="hd-last__label">{text(lang, 'lastBalls')}</div>
      <div class="hd-last__balls" data-testid="last-balls">
        {Array.from({ length: 5 }, (_, i) =>
          last[i] !== undefined ? (
            <div key={`${balls.length}-${i}`} class="hd-last__ball" data-testid="last-ball">
              {last[i]}
            </div>
          ) : (
            <div key={`empty-${i}`} class="hd-last__ball hd-last__ball--empty" />
          ),
        )}
      </div>
    </div>
  )
}
