import { formatMoney } from '../../../server/src/shared/money.ts'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

/** BNG-11: the game on sale with its series, cards in the series, face value and prizes; or why nothing is on sale. */
export function HomeScreen(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const offer = store.offer.value
  const money = (c: number) => formatMoney(c, offer?.hall.currency ?? 'BOB', store.lang.value)
  if (!offer || offer.state !== 'on_sale' || !offer.game) {
    const g = offer?.game
    const [title, hint] = !offer || offer.state === 'none' ? [T.noGame, T.noGameHint]
      : offer.state === 'not_open' ? [T.notOpen, g ? `${T.game} ${g.orderNo}` : ''] : [T.closed, g ? T.closedHint(g.orderNo) : '']
    return (
      <section class="k-state" data-testid="kiosk-state" data-state={offer?.state ?? 'none'}>
        <div class="k-state__icon" aria-hidden="true">{offer?.state === 'closed' ? '⏵' : '⏸'}</div>
        <h1 class="k-state__title">{title}</h1>
        <p class="k-state__hint">{hint}</p>
      </section>
    )
  }
  const g = offer.game
  const pct = (bp: number) => (bp / 100).toLocaleString(store.lang.value)
  // Before the first sale the prize is best told as its share of the sales.
  const byShare = g.cardsSold === 0 && !g.prizes.final
  const prize = (cents: number, bp: number) => (byShare ? `${pct(bp)} %` : money(cents))
  const note = (bp: number) => (byShare ? T.ofSalesOnly : `${T.ofSales(pct(bp))}${g.prizes.final ? '' : ` · ${T.now}`}`)
  return (
    <section class="k-home" data-testid="kiosk-home" data-game={g.gameId}>
      <div class="k-home__game">
        <span class="k-badge">{store.lang.value === 'en' ? 'ON SALE' : 'EN VENTA'}</span>
        <h1 class="k-home__title" data-testid="kiosk-game-no">{T.game} {g.orderNo}</h1>
        {g.isLastGame && <p class="k-home__last">{T.lastGame}</p>}
      </div>
      <div class="k-price">
        <div class="k-price__label">{T.faceValue}</div>
        <div class="k-price__value" data-testid="kiosk-face-value">{money(g.faceValueCents)}</div>
      </div>
      <ul class="k-series">
        {g.series.map((s) => (
          <li key={s.code} data-testid={`kiosk-series-${s.code}`}>
            <strong>{T.series} {s.code}</strong> · {T.cardsInSeries(s.cardCount)} · {T.range(s.nextCardNo, s.lastCardNo)}
          </li>
        ))}
      </ul>
      <div class="k-prizes">
        <div class="k-prize">
          <div class="k-prize__name">{T.line}</div>
          <div class="k-prize__amount" data-testid="kiosk-prize-line">{prize(g.prizes.lineCents, g.prizes.lineBp)}</div>
          <div class="k-prize__note">{note(g.prizes.lineBp)}</div>
        </div>
        <div class="k-prize k-prize--bingo">
          <div class="k-prize__name">{T.bingo}</div>
          <div class="k-prize__amount" data-testid="kiosk-prize-bingo">{prize(g.prizes.bingoCents, g.prizes.bingoBp)}</div>
          <div class="k-prize__note">{note(g.prizes.bingoBp)}</div>
        </div>
      </div>
      <p class="k-home__sold">{T.cardsSold}: <strong data-testid="kiosk-cards-sold">{g.cardsSold}</strong></p>
      <button type="button" class="btn btn--primary btn--huge" data-testid="kiosk-buy" onClick={() => store.start()}>{T.buy}</button>
      <ol class="k-steps">
        {T.steps.map((step, i) => <li key={i}><span class="k-steps__n">{i + 1}</span>{step}</li>)}
      </ol>
    </section>
  )
}
