import { formatMoney } from '../../../server/src/shared/money.ts'
import { Stepper } from './Stepper.tsx'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

/** E-instant games (INS-15: only where the hall is authorised), their prizes, and how many tickets. */
export function InstantPanel(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const offer = store.offer.value
  const games = store.instantGames.value
  const game = store.instantGame.value
  const money = (c: number) => formatMoney(c, game?.currency ?? store.currency.value, store.lang.value)
  if (!game) {
    return (
      <div class="k-empty" data-testid="instant-none">
        <div class="k-empty__icon" aria-hidden="true">
          <span class="k-glyph k-glyph--pause" />
        </div>
        <h2 class="k-empty__title">{T.noInstant}</h2>
        {offer && !offer.instantAllowed && <p class="k-empty__hint">{T.instantNotAllowed}</p>}
      </div>
    )
  }
  return (
    <div class="k-instant-panel" data-testid="instant-home" data-game={game.gameNo}>
      {games.length > 1 && (
        <div class="k-chips">
          {games.map((g) => (
            <button
              type="button"
              key={g.gameNo}
              class={g.gameNo === game.gameNo ? 'k-chip k-chip--on' : 'k-chip'}
              data-testid={`instant-game-${g.gameNo}`}
              onClick={() => store.setInstant(0, g.gameNo)}
            >
              {g.name}
            </button>
          ))}
        </div>
      )}
      <div class="k-facts">
        <div class="k-facts__game">
          <h2 class="k-facts__title" data-testid="instant-name">
            {game.name}
          </h2>
          <p class="k-facts__sold">{game.playStyle === 'match-three' ? T.matchHint : T.beatHint}</p>
        </div>
        <div class="k-price">
          <div class="k-price__label">{T.price}</div>
          <div class="k-price__value" data-testid="instant-price">
            {money(game.priceCents)}
          </div>
        </div>
      </div>
      <ul class="k-tiers">
        {game.tiers.map((t) => (
          <li key={t.tier}>
            <strong>{money(t.amountCents)}</strong>
            <span>{T.oneIn(Math.round(game.ticketCount / t.count).toLocaleString(store.lang.value))}</span>
          </li>
        ))}
      </ul>
      <div class="k-choose">
        <h3 class="k-choose__title">{T.howManyInstant}</h3>
        <Stepper
          value={store.instantCount.value}
          max={store.maxInstant}
          onChange={(n) => store.setInstant(n)}
          testId="instant-count"
        />
      </div>
    </div>
  )
}
