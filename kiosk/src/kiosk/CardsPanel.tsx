import { formatMoney } from '../../../server/src/shared/money.ts'
import { Stepper } from './Stepper.tsx'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'
import { chosenGridColumns } from '../../../web/chosen-picks.ts'

/** BNG-11: the game on sale with its series, cards in the series, face value and prizes, and how many cards; or why nothing is on sale. */
export function CardsPanel(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const offer = store.offer.value
  const money = (c: number) => formatMoney(c, store.currency.value, store.lang.value)
  const g = store.game.value
  if (!offer || !g) {
    const og = offer?.game
    const [title, hint] =
      !offer || offer.state === 'none'
        ? [T.noGame, T.noGameHint]
        : offer.state === 'not_open'
          ? [T.notOpen, og ? `${T.game} ${og.orderNo}` : '']
          : [T.closed, og ? T.closedHint(og.orderNo) : '']
    return (
      <div class="k-empty" data-testid="kiosk-state" data-state={offer?.state ?? 'none'}>
        <div class="k-empty__icon" aria-hidden="true">
          <span class={offer?.state === 'closed' ? 'k-glyph k-glyph--play' : 'k-glyph k-glyph--pause'} />
        </div>
        <h2 class="k-empty__title">{title}</h2>
        <p class="k-empty__hint">{hint}</p>
      </div>
    )
  }
  const pct = (bp: number) => (bp / 100).toLocaleString(store.lang.value)
  // Before the first sale the prize is best told as its share of the sales.
  const byShare = g.cardsSold === 0 && !g.prizes.final
  const prize = (cents: number, bp: number) => (byShare ? `${pct(bp)} %` : money(cents))
  const note = (bp: number) => (byShare ? T.ofSalesOnly : `${T.ofSales(pct(bp))}${g.prizes.final ? '' : ` · ${T.now}`}`)
  return (
    <div
      // BNG-98: a universe of more than 40 numbers takes the room the game's facts leave it (compact facts).
      class={(g.chosenNumbers?.universe ?? 0) > 40 ? 'k-cards-panel k-cards-panel--wide' : 'k-cards-panel'}
      data-testid="kiosk-cards"
      data-game={g.gameId}
    >
      <div class="k-facts">
        <div class="k-facts__game">
          <span class="k-badge">{T.onSale}</span>
          <h2 class="k-facts__title" data-testid="kiosk-game-no">
            {T.game} {g.orderNo}
          </h2>
          {g.isLastGame && <p class="k-facts__last">{T.lastGame}</p>}
          <ul class="k-series">
            {g.series.map((s) => (
              <li key={s.code} data-testid={`kiosk-series-${s.code}`}>
                <strong>
                  {T.series} {s.code}
                </strong>{' '}
                · {T.cardsInSeries(s.cardCount)} · {T.range(s.nextCardNo, s.lastCardNo)}
              </li>
            ))}
          </ul>
          <p class="k-facts__sold">
            {T.cardsSold}: <strong data-testid="kiosk-cards-sold">{g.cardsSold}</strong>
          </p>
        </div>
        <div class="k-price">
          <div class="k-price__label">{T.faceValue}</div>
          <div class="k-price__value" data-testid="kiosk-face-value">
            {money(g.faceValueCents)}
          </div>
        </div>
      </div>
      <div class="k-prizes">
        <div class="k-prize">
          <div class="k-prize__name">{T.line}</div>
          <div class="k-prize__amount" data-testid="kiosk-prize-line">
            {prize(g.prizes.lineCents, g.prizes.lineBp)}
          </div>
          <div class="k-prize__note">{note(g.prizes.lineBp)}</div>
        </div>
        <div class="k-prize k-prize--bingo">
          <div class="k-prize__name">{T.bingo}</div>
          <div class="k-prize__amount" data-testid="kiosk-prize-bingo">
            {prize(g.prizes.bingoCents, g.prizes.bingoBp)}
          </div>
          <div class="k-prize__note">{note(g.prizes.bingoBp)}</div>
        </div>
      </div>
      {g.chosenNumbers ? (
        <ChosenNumbers store={store} />
      ) : (
        <div class="k-choose">
          <h3 class="k-choose__title">{T.howManyCards}</h3>
          {/* Issue 29 point 10: the hall's limits with their numbers, as the server posts them (BNG-40). */}
          {offer?.bets && (
            <p class="k-choose__limits" data-testid="kiosk-cards-limits">
              {T.cardsLimits(offer.bets.minCardsPerPurchase, offer.bets.maxCardsPerPurchase)}
            </p>
          )}
          <Stepper
            value={store.cardCount.value}
            max={store.maxCards.value}
            onChange={store.setCards}
            testId="kiosk-cards"
          />
        </div>
      )}
    </div>
  )
}

const two = (n: number) => String(n).padStart(2, '0')

/**
 * BNG-98 (002 §6.1.9, bingo rápido: the players "deben elegir y adquirir uno o más números ... entre un universo"):
 * the player taps his numbers on a large grid of the universe; a card joins the basket when it holds its picks.
 */
function ChosenNumbers(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const c = store.game.value!.chosenNumbers!
  const picks = store.cardPicks.value
  const cards = store.chosenCards.value
  const full = cards.length >= store.maxCards.value
  const cols = chosenGridColumns(c.universe)
  return (
    <div class="k-choose k-chosen" data-testid="kiosk-chosen">
      <div class="k-chosen__left">
        <h3 class="k-choose__title" data-testid="kiosk-chosen-title">
          {T.chooseNumbers(c.picks)}
        </h3>
        <p class="k-chosen__hint">{T.chosenHint(c.universe, c.picks, c.timesRequired)}</p>
        <div
          class={c.universe > 40 ? 'k-grid k-chosen__grid k-chosen__grid--wide' : 'k-grid k-chosen__grid'}
          style={{ gridTemplateColumns: `repeat(${cols}, 1fr)` }}
        >
          {Array.from({ length: c.universe }, (_, i) => i + 1).map((n) => (
            <button
              type="button"
              key={n}
              class={picks.includes(n) ? 'k-cell k-cell--on' : 'k-cell'}
              data-testid={`kiosk-pick-${n}`}
              aria-pressed={picks.includes(n)}
              disabled={full}
              onClick={() => store.toggleCardNumber(n)}
            >
              {two(n)}
            </button>
          ))}
        </div>
      </div>
      <div class="k-chosen__right">
        <p class="k-chosen__count" data-testid="kiosk-chosen-count">
          {T.chosenCount(picks.length, c.picks)}
        </p>
        {store.noFreeCard.value && (
          <p class="k-chosen__none" role="status" data-testid="kiosk-chosen-none">
            {T.noFreeCard}
          </p>
        )}
        <div class="k-row">
          <button
            type="button"
            class="btn btn--primary"
            data-testid="kiosk-chosen-random"
            disabled={full}
            onClick={() => store.quickPickCard()}
          >
            {T.randomPick}
          </button>
          <button
            type="button"
            class="btn btn--secondary"
            data-testid="kiosk-chosen-clear"
            disabled={picks.length === 0}
            onClick={() => store.clearCardPicks()}
          >
            {T.clear}
          </button>
        </div>
        <div class="k-boards">
          <h3 class="k-boards__title">
            {T.chosenCards} ({cards.length}/{store.maxCards.value})
          </h3>
          <ol class="k-boards__list" data-testid="kiosk-chosen-cards">
            {cards.map((card, i) => (
              <li key={card.join('-')}>
                <span class="k-mono">
                  {T.cardLabel(i + 1)}: {card.map(two).join(' ')}
                </span>
                <button
                  type="button"
                  class="k-link"
                  data-testid={`kiosk-chosen-remove-${i}`}
                  onClick={() => store.removeChosenCard(i)}
                >
                  {T.remove}
                </button>
              </li>
            ))}
            {picks.length > 0 && (
              <li class="k-boards__pending">
                <span class="k-mono">{picks.map(two).join(' ')}</span>
              </li>
            )}
          </ol>
        </div>
      </div>
    </div>
  )
}
