import type { GameState } from '../../../server/src/bingo/service.ts'
import { CardGrid } from '../../../web/CardGrid.tsx'
import { money, poolOfKind, windowQuestion } from '../../../web/format.ts'
import { FIGURE_NAMES, figureOfKind } from '../../../server/src/bingo/patterns.ts'
import type { Lang } from '../../../web/i18n.ts'
import { JefeMark } from './JefeMark.tsx'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** Confirms the order that closes the "any more?" window: after it nobody may claim that prize (BNG-50). */
export function askCloseWindow(store: CallerStore, game: GameState, lang: Lang): void {
  if (!game.window || !store.offer('game.window')) return
  const winners = game.winners.filter((w) => w.kind === game.window)
  const pool = poolOfKind(game, game.window)
  const figure = figureOfKind(game.window)
  store.ask({
    title: question(game.window, lang),
    body: [
      figure
        ? t(lang, 'closeWindowConfirmFigure').replace('{figure}', FIGURE_NAMES[figure][lang])
        : t(lang, game.window === 'line' ? 'closeWindowConfirmLine' : 'closeWindowConfirmBingo'),
      `${t(lang, 'winners')}: ${winners.map((w) => w.serial).join(', ')}${pool !== null ? ` · ${money(pool, game.currency, lang)}` : ''}`,
    ],
    confirmLabel: t(lang, 'closeWindow'),
    // A locutor may not give this order (game.window): a jefe authorises it on his console.
    permission: 'game.window',
    run: (second) => store.closeWindow(second),
  })
}

/** The console's question: its own for line and bingo, the hall's for a figure (CFG-13). */
function question(window: NonNullable<GameState['window']>, lang: Lang): string {
  if (window === 'line') return t(lang, 'anyMoreLine')
  if (window === 'bingo') return t(lang, 'anyMoreBingo')
  return windowQuestion(window, lang) ?? ''
}

/** BNG-50: "¿alguna línea más?" with the verified cards, and the order to continue or finish. */
export function WindowPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const winners = game.winners.filter((w) => w.kind === game.window)
  const called = new Set(game.balls)
  return (
    <div class="cc-panel cc-flow cc-window" data-testid="window-panel">
      <div class="cc-window__question" data-testid="caller-window-question">
        {game.window ? question(game.window, lang) : ''}
      </div>
      <div class="cc-window__winners">
        {winners.map((w) => (
          <div key={w.cardId} class="cc-window__winner" data-testid="caller-winner" data-serial={w.serial}>
            <strong>{w.serial}</strong>{' '}
            <span class="cc-muted">
              {t(lang, 'atBall')} {w.atBall}
            </span>
            <CardGrid rows={w.rows} ballCount={game.ballCount} called={called} testId="caller-winner-card" />
          </div>
        ))}
      </div>
      {store.offer('game.window') && (
        <button
          type="button"
          class="cc-btn cc-btn--primary cc-btn--huge"
          data-testid="close-window"
          disabled={Boolean(store.busy.value)}
          onClick={() => askCloseWindow(store, game, lang)}
        >
          {t(lang, 'closeWindow')} <kbd>C</kbd> <JefeMark how={store.offer('game.window')} lang={lang} />
        </button>
      )}
    </div>
  )
}
