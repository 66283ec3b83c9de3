import type { GameState } from '../../../server/src/bingo/service.ts'
import { boardRows, claimReason } from '../../../web/format.ts'
import { text, type Lang } from '../../../web/i18n.ts'

/** Every ball of the set (9 rows of 10 for 90) with the called ones lit and the newest one pulsing. */
export function Board({ state, lang }: { state: GameState; lang: Lang }) {
  const called = new Set(state.balls)
  const rows = boardRows(state.ballCount)
  // A claim rejected at the current ball is said on screen until the next ball (BNG-49: play resumes).
  const rejected = state.rejectedClaims.filter((r) => r.atBall === state.balls.length)
  return (
    <div class="hd-board-wrap">
      <div
        class="hd-board"
        data-testid="board"
        data-lit={called.size}
        style={{ '--cols': String(rows[0]?.length ?? 10), '--rows': String(rows.length) }}
      >
        {rows.flat().map((n) => (
          <div
            key={n}
            class={
              n === state.lastBall
                ? 'hd-cell hd-cell--lit hd-cell--last'
                : called.has(n)
                  ? 'hd-cell hd-cell--lit'
                  : 'hd-cell'
            }
            data-testid={`board-${n}`}
            data-lit={called.has(n) ? 'true' : 'false'}
          >
            {n}
          </div>
        ))}
      </div>
      {rejected.length > 0 && (
        <div class="hd-rejected" data-testid="claim-rejected">
          {rejected.map((r) => (
            <div key={`${r.serial}-${r.kind}`}>
              {text(lang, 'card')} <strong>{r.serial}</strong>: {text(lang, 'claimRejected')}{' '}
              <span>({claimReason(r.reason, lang)})</span>
            </div>
          ))}
        </div>
      )}
    </div>
  )
}
