import { formatMoney } from '../../../server/src/shared/money.ts'
import { planTime } from '../shared/lotto-slip.ts'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

const two = (n: number) => String(n).padStart(2, '0')

/** The lotto slip (LNS-2, LNS-6): numbers marked on the grid or quick picks, the draws, and the player's data. */
export function SlipPanel(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const l = store.lotto.value
  const rules = store.slipRules.value
  if (!l || !rules) {
    return (
      <div class="k-empty" data-testid="lotto-no-draw">
        <div class="k-empty__icon" aria-hidden="true">
          <span class="k-glyph k-glyph--pause" />
        </div>
        <h2 class="k-empty__title">{T.noDraw}</h2>
        <p class="k-empty__hint">{T.noDrawHint}</p>
      </div>
    )
  }
  const money = (c: number) => formatMoney(c, l.currency, store.lang.value)
  const boards = store.boards.value
  const pending = store.pending.value
  const full = boards.length >= rules.maxBoardsPerSlip
  const cols = Math.ceil(Math.sqrt(rules.range))
  return (
    <div class="k-slip" data-testid="lotto-slip" data-draw={l.drawId}>
      <div class="k-slip__left">
        <p class="k-slip__head">
          <strong>{l.name}</strong> · {T.draw(l.drawNumber)} · {planTime(l.drawAt)}
        </p>
        <p class="k-slip__hint">
          {T.choose(rules.picks, rules.range)} · <strong>{money(rules.priceCents)}</strong> {T.perBoard}
        </p>
        {/* LNS-5 / §7.9: operator, issue, number range, the prizes by category, the Reglamento Específico, the legend. */}
        <div class="k-slip__facts" data-testid="lotto-slip-facts">
          <p>
            {l.operator} · {T.issue} {l.issue} · {T.range(1, rules.range)}
          </p>
          <ul>
            {(l.categories ?? []).map((c) => (
              <li key={c.code}>
                <strong>{c.name}</strong> ({T.matches(c.matches)}):{' '}
                {c.prize.type === 'fixed'
                  ? money(c.prize.amountCents)
                  : c.prize.type === 'share'
                    ? T.share(c.prize.bp / 100)
                    : c.prize.description}
              </li>
            ))}
          </ul>
          <p>
            {T.regulation}: {l.regulationUrl}
          </p>
          <p class="k-slip__legend">{l.legend}</p>
        </div>
        <div class="k-grid" style={{ gridTemplateColumns: `repeat(${cols}, 1fr)` }} data-testid="lotto-grid">
          {Array.from({ length: rules.range }, (_, i) => i + 1).map((n) => (
            <button
              type="button"
              key={n}
              class={pending.includes(n) ? 'k-cell k-cell--on' : 'k-cell'}
              data-testid={`lotto-n-${n}`}
              disabled={full && !pending.includes(n)}
              onClick={() => store.toggle(n)}
            >
              {two(n)}
            </button>
          ))}
        </div>
      </div>
      <div class="k-slip__right">
        <div class="k-row">
          <button
            type="button"
            class="btn btn--primary"
            data-testid="lotto-quick"
            disabled={full}
            onClick={() => store.quickPick()}
          >
            {T.quick}
          </button>
          <button
            type="button"
            class="btn btn--secondary"
            data-testid="lotto-clear"
            disabled={pending.length === 0}
            onClick={() => store.clearPending()}
          >
            {T.clear}
          </button>
        </div>
        <div class="k-boards">
          <h3 class="k-boards__title">
            {T.boards} ({boards.length}/{rules.maxBoardsPerSlip})
          </h3>
          <ol class="k-boards__list" data-testid="lotto-boards">
            {boards.map((b, i) => (
              <li key={i}>
                <span class="k-mono">{b.kind === 'chosen' ? b.numbers.map(two).join(' ') : T.quickBoard}</span>
                <button
                  type="button"
                  class="k-link"
                  data-testid={`lotto-remove-${i}`}
                  onClick={() => store.removeBoard(i)}
                >
                  {T.remove}
                </button>
              </li>
            ))}
            {pending.length > 0 && (
              <li class="k-boards__pending">
                <span class="k-mono">{pending.map(two).join(' ')}</span>
              </li>
            )}
          </ol>
        </div>
        {rules.maxDrawsPerSlip > 1 && (
          <div class="k-row k-draws">
            <span>{T.drawsLabel}</span>
            {Array.from({ length: rules.maxDrawsPerSlip }, (_, i) => i + 1).map((n) => (
              <button
                type="button"
                key={n}
                class={store.draws.value === n ? 'k-chip k-chip--on' : 'k-chip'}
                data-testid={`lotto-draws-${n}`}
                onClick={() => store.setDraws(n)}
              >
                {n}
              </button>
            ))}
          </div>
        )}
        <fieldset class="k-player">
          <legend>{T.playerTitle}</legend>
          <input
            class="k-input"
            data-testid="lotto-name"
            data-osk="text"
            inputMode="none"
            placeholder={T.name}
            aria-label={T.name}
            autocomplete="off"
            value={store.player.value.name}
            onInput={(e) => store.setPlayer({ name: (e.target as HTMLInputElement).value })}
          />
          <input
            class="k-input"
            data-testid="lotto-document"
            data-osk="text"
            inputMode="none"
            placeholder={T.document}
            aria-label={T.document}
            autocomplete="off"
            value={store.player.value.document}
            onInput={(e) => store.setPlayer({ document: (e.target as HTMLInputElement).value })}
          />
        </fieldset>
      </div>
    </div>
  )
}
