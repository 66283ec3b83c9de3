import { useState } from 'preact/hooks'
import { CardGrid } from '../../../web/CardGrid.tsx'
import { formatMoney } from '../../../server/src/shared/money.ts'
import { planTime } from '../shared/lotto-slip.ts'
import { ScratchCard } from '../shared/ScratchCard.tsx'
import type { KioskPurchase } from '../../../web/cashdesk-api.ts'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

const NONE: ReadonlySet<number> = new Set()
const two = (n: number) => String(n).padStart(2, '0')

type InstantSale = KioskPurchase['instant'][number]

/** One e-instant ticket as bought: its face under a scratch layer, then its result (the printed ticket is what pays). */
function InstantTicket(props: { store: KioskStore; sale: InstantSale }) {
  const { store, sale } = props
  const T = TEXTS[store.lang.value]
  const money = (c: number) => formatMoney(c, sale.currency, store.lang.value)
  const [auto, setAuto] = useState(false)
  const [revealed, setRevealed] = useState(false)
  return (
    <article class="k-ticket" data-testid="kiosk-instant" data-serial={sale.serial}>
      <header class="k-ticket__head">
        <span>{sale.name}</span>
        <strong>{sale.serial}</strong>
      </header>
      <ScratchCard
        label={store.lang.value === 'en' ? 'SCRATCH HERE' : 'RASPE AQUÍ'}
        autoScratch={auto}
        onReveal={() => setRevealed(true)}
        testId="instant-card"
      >
        {sale.face.style === 'match-three' ? (
          <div class="k-scratch-grid">
            {sale.face.cells.map((s, i) => {
              const amount = sale.symbolAmountsCents[s]
              const win = revealed && sale.prizeCents > 0 && amount === sale.prizeCents
              return (
                <div
                  key={i}
                  class={win ? 'k-scratch-cell k-scratch-cell--win' : 'k-scratch-cell'}
                  data-testid="instant-cell"
                >
                  {money(amount)}
                </div>
              )
            })}
          </div>
        ) : (
          <table class="k-scratch-rows">
            <tbody>
              {sale.face.rows.map((r, i) => (
                <tr key={i} class={revealed && r.yours > r.theirs ? 'k-scratch-row--win' : ''}>
                  <td>{r.yours}</td>
                  <td>{r.theirs}</td>
                  <td>{money(sale.symbolAmountsCents[r.symbol])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ScratchCard>
      {revealed ? (
        <p
          class={sale.prizeCents > 0 ? 'k-ticket__result k-ticket__result--win' : 'k-ticket__result'}
          data-testid="instant-result"
        >
          {sale.prizeCents > 0 ? T.won(money(sale.prizeCents)) : T.lost}
        </p>
      ) : (
        <button
          type="button"
          class="btn btn--secondary"
          data-testid="instant-scratch-all"
          onClick={() => setAuto(true)}
        >
          {T.scratchAll}
        </button>
      )}
    </article>
  )
}

/** What was just printed, as the player holds it: cards, the lotto slip, the scratch tickets, and the change voucher to take. */
export function DoneScreen(props: { store: KioskStore; purchase: KioskPurchase }) {
  const { store, purchase } = props
  const T = TEXTS[store.lang.value]
  const money = (c: number) => formatMoney(c, purchase.currency, store.lang.value)
  // Issue 23 point 5: the purchase stands even when its paper did not come out; the player is told where to get it.
  const pending = purchase.print.printed ? null : purchase.print
  return (
    <section class="k-done" data-testid="kiosk-done" data-purchase={purchase.purchaseId}>
      <header class="k-done__head">
        <div class="k-done__tick" aria-hidden="true">
          ✓
        </div>
        <div>
          <h1 class="k-done__title">{pending ? T.donePrintPendingTitle : T.doneTitle}</h1>
          <p class="k-done__sub">
            {T.total}: <strong data-testid="kiosk-done-total">{money(purchase.amountCents)}</strong>
          </p>
        </div>
      </header>
      {pending && (
        <p class="k-done__pending" role="alert" data-testid="kiosk-print-pending" data-ref={pending.ref}>
          {store.lang.value === 'en' ? pending.messageEn : pending.message}
        </p>
      )}
      <div class="k-done__body">
        {purchase.cards.length > 0 && (
          <section class="k-done__group">
            <h2>
              {T.doneCards} · {T.game} {purchase.gameNo}
            </h2>
            <div class="k-cards">
              {purchase.cards.map((c) => (
                <article class="k-card" key={c.id} data-testid="kiosk-card" data-serial={c.serial}>
                  <header class="k-card__head">
                    <span>
                      {T.series} {c.seriesCode}
                    </span>
                    <strong>{c.serial}</strong>
                  </header>
                  <CardGrid rows={c.rows} grid={c.grid} called={NONE} testId="kiosk-card-grid" />
                </article>
              ))}
            </div>
          </section>
        )}
        {purchase.slips.map((r) => (
          <section class="k-done__group" key={r.receiptNumber}>
            <h2>{T.doneSlip}</h2>
            <article class="k-receipt" data-testid="kiosk-slip" data-receipt={r.receiptNumber}>
              <p>
                <strong>{r.gameName}</strong> · {T.receiptNo}{' '}
                <span class="k-mono" data-testid="kiosk-slip-number">
                  {r.receiptNumber}
                </span>
              </p>
              <p>
                {T.validFor}: {r.draws.map((x) => `${T.draw(x.drawNumber)} (${planTime(x.drawAt)})`).join(', ')}
              </p>
              <p>{r.player.name}</p>
              <ol class="k-receipt__boards">
                {r.boards.map((b, i) => (
                  <li key={i} class="k-mono">
                    {b.numbers.map(two).join(' ')}
                    {b.quickPick ? ` · ${T.quickBoard}` : ''}
                  </li>
                ))}
              </ol>
              <p class="k-receipt__amount">{money(r.amountCents)}</p>
            </article>
          </section>
        ))}
        {purchase.instant.length > 0 && (
          <section class="k-done__group">
            <h2>{T.doneInstant}</h2>
            <p class="k-done__hint">{T.scratchHint}</p>
            <div class="k-tickets">
              {purchase.instant.map((s) => (
                <InstantTicket key={s.serial} store={store} sale={s} />
              ))}
            </div>
          </section>
        )}
      </div>
      <footer class="k-done__bar">
        <div
          class={purchase.change ? 'k-done__change' : 'k-done__change k-done__change--none'}
          data-testid="kiosk-change-voucher"
        >
          {purchase.change ? T.doneChange(money(purchase.change.amountCents)) : T.doneNoChange}
          {purchase.change?.shortCode && (
            <span class="k-done__code">
              {T.changeCode}:{' '}
              <span class="k-mono" data-testid="kiosk-change-code">
                {purchase.change.shortCode}
              </span>
            </span>
          )}
        </div>
        <button type="button" class="btn btn--primary" data-testid="kiosk-finish" onClick={() => store.reset()}>
          {T.finish}
        </button>
      </footer>
    </section>
  )
}
