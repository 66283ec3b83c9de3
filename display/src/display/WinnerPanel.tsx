import type { GameState, PublicWinner } from '../../../server/src/bingo/service.ts'
import { CardGrid } from '../../../web/CardGrid.tsx'
import { bonusesOf, money, poolOfKind, prizeKindWord, windowQuestion } from '../../../web/format.ts'
import { text, type Lang } from '../../../web/i18n.ts'

const MAX_CARDS = 4

/**
 * Verified winners: each winning card as its grid with the called numbers marked, its serial and its prize
 * (BNG-35, BNG-46), and the "¿alguna línea más?" question while the window is open (BNG-50).
 */
export function WinnerPanel({ state, winners, lang }: { state: GameState; winners: PublicWinner[]; lang: Lang }) {
  const kind = winners[0].kind
  const called = new Set(state.balls)
  const question = windowQuestion(state.window, lang)
  const pool = poolOfKind(state, kind)
  const shown = winners.slice(0, MAX_CARDS)
  const more = winners.slice(MAX_CARDS)
  return (
    <div
      class={`hd-winners hd-winners--${kind.startsWith('figure:') ? 'figure' : kind} hd-winners--n${Math.min(shown.length, MAX_CARDS)}`}
      data-testid="winner-panel"
      data-kind={kind}
    >
      <div class="hd-winners__top">
        <div class="hd-winners__kind" data-testid="winner-kind">
          {prizeKindWord(kind, lang)}
        </div>
        {question && (
          <div class="hd-winners__question" data-testid="window-question">
            {question}
          </div>
        )}
      </div>
      <div class="hd-winners__cards">
        {shown.map((w) => {
          const amount = w.amountCents ?? pool
          return (
            <div class="hd-winner" key={`${w.cardId}-${w.kind}`} data-testid="winner" data-serial={w.serial}>
              <div class="hd-winner__head">
                <span class="hd-winner__label">{text(lang, 'card')}</span>
                <strong class="hd-winner__serial" data-testid="winner-serial">
                  {w.serial}
                </strong>
                <span class="hd-winner__ball" data-testid="winner-draw">
                  {text(lang, 'atBallN')} {w.atBall}
                </span>
              </div>
              <div class="hd-winner__card">
                <CardGrid rows={w.rows} ballCount={state.ballCount} called={called} testId="winner-card" />
              </div>
              <div class="hd-winner__prize">
                <span class="hd-winner__label">{text(lang, 'prize')}</span>
                <strong data-testid="winner-prize">
                  {amount === null ? '—' : money(amount, state.currency, lang)}
                </strong>
                {w.amountCents === null && winners.length > 1 && (
                  <span class="hd-winner__shared">
                    {text(lang, 'prizeShared')} {winners.length} {text(lang, 'cards')}
                  </span>
                )}
                {w.status === 'paid' && <span class="hd-badge hd-badge--paid">{text(lang, 'paid')}</span>}
              </div>
              {bonusesOf(state, w.cardId, w.kind).map((b, i) => (
                <div class="hd-winner__bonus" key={i} data-testid="winner-bonus">
                  + {b.name}: <strong>{money(b.amountCents, state.currency, lang)}</strong>
                </div>
              ))}
            </div>
          )
        })}
      </div>
      {more.length > 0 && (
        <div class="hd-winners__more" data-testid="winner-more">
          + {more.map((w) => w.serial).join(' · ')}
        </div>
      )}
    </div>
  )
}
