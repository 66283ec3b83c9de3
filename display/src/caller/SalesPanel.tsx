import { useState } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import { formatMoney } from '../../../server/src/shared/money.ts'
import { cashBreakdown, cashPieces, NOTES } from '../../../web/cash-count.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'
import { parseAmount, tillState } from './till.ts'
import { JefeMark } from './JefeMark.tsx'

/**
 * GEN-17 (issue 24 point 6): the cash a table sale takes is counted note by note, large buttons for a touch screen;
 * the sale goes only when the count equals the amount due, and is sent with it (small notes and coins against the
 * rest), so a sale over the limit is not refused for want of a count.
 */
function CashCountEntry(props: {
  lang: Lang
  currency: string
  dueCents: number
  notes: Record<number, number>
  coins: string
  busy: boolean
  onNotes: (notes: Record<number, number>) => void
  onCoins: (coins: string) => void
}) {
  const { lang, currency, dueCents, notes, coins, busy } = props
  const money = (c: number) => formatMoney(c, currency, lang)
  const coinsCents = coins.trim() === '' ? 0 : parseAmount(coins)
  const b = cashBreakdown({ notes, coinsCents: Number.isNaN(coinsCents) ? 0 : coinsCents }, currency)
  const diff = b.amountCents - dueCents
  const set = (cents: number, n: number) => props.onNotes({ ...notes, [cents]: Math.max(0, n) })
  return (
    <section class="cc-cash" data-testid="cash-count">
      <h3>{t(lang, 'cashTitle')}</h3>
      <p class="cc-muted">{t(lang, 'cashHint')}</p>
      <div class="cc-cash__notes">
        {(NOTES[currency] ?? []).map((note) => {
          const n = notes[note.cents] ?? 0
          return (
            <div key={note.cents} class={note.small ? 'cc-note cc-note--small' : 'cc-note'}>
              <button
                type="button"
                class="cc-note__add"
                data-testid={`note-plus-${note.cents}`}
                disabled={busy}
                onClick={() => set(note.cents, n + 1)}
              >
                + {money(note.cents)}
              </button>
              <div class="cc-note__row">
                <button
                  type="button"
                  class="cc-note__minus"
                  aria-label={`− ${money(note.cents)}`}
                  data-testid={`note-minus-${note.cents}`}
                  disabled={busy || n === 0}
                  onClick={() => set(note.cents, n - 1)}
                >
                  −
                </button>
                <strong data-testid={`note-count-${note.cents}`}>× {n}</strong>
              </div>
            </div>
          )
        })}
        <label class="cc-field cc-note">
          <span>{t(lang, 'cashCoins')}</span>
          <input
            inputMode="decimal"
            placeholder="0,00"
            value={coins}
            data-testid="cash-coins"
            disabled={busy}
            onInput={(e) => props.onCoins((e.target as HTMLInputElement).value)}
          />
        </label>
      </div>
      <dl class="cc-cash__sum">
        <div>
          <dt>{t(lang, 'cashDue')}</dt>
          <dd data-testid="cash-due">{money(dueCents)}</dd>
        </div>
        <div>
          <dt>{t(lang, 'cashReceived')}</dt>
          <dd data-testid="cash-received">{money(b.amountCents)}</dd>
        </div>
        <div>
          <dt>{t(lang, 'cashSmall')}</dt>
          <dd data-testid="cash-small">{money(b.smallCents)}</dd>
        </div>
        <div>
          <dt>{t(lang, 'cashOther')}</dt>
          <dd data-testid="cash-other">{money(b.otherCents)}</dd>
        </div>
      </dl>
      <p
        class={diff === 0 ? 'cc-cash__state cc-cash__state--ok' : 'cc-cash__state'}
        data-testid="cash-state"
        data-ok={diff === 0 ? 'yes' : 'no'}
      >
        {diff === 0
          ? t(lang, 'cashMatches')
          : `${t(lang, diff < 0 ? 'cashShort' : 'cashOver')}: ${money(Math.abs(diff))}`}
      </p>
      <button
        type="button"
        class="cc-btn"
        data-testid="cash-clear"
        disabled={busy}
        onClick={() => {
          props.onNotes({})
          props.onCoins('')
        }}
      >
        {t(lang, 'cashClear')}
      </button>
    </section>
  )
}
import { TillClose, TillGate } from './TillPanel.tsx'

/**
 * Open sales, sell at the table, close sales (BNG-16); the close fixes the beacon round (DESIGN.md bolillo-draw-v2).
 * Issue 13: the table sells only through the open shift of the person logged in at this console as an enrolled
 * station; until then the panel says what is missing instead of offering a sale the server would refuse.
 */
export function SalesPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const [count, setCount] = useState('10')
  const [notes, setNotes] = useState<Record<number, number>>({})
  const [coins, setCoins] = useState('')
  const [buyer, setBuyer] = useState('')
  // GEN-23: the person at the table ticks, for each sale, that the player is of age (document seen).
  const [adult, setAdult] = useState(false)
  const busy = Boolean(store.busy.value)
  // Issue 14 point 7: opening and closing sales (game.sales) and selling (game.sell) each show only to a role holding them.
  const sales = store.can('game.sales')
  const selling = store.can('game.sell')
  const till = tillState(store.me.value, store.till.value)
  const mayTake = till === 'free' || till === 'open'
  if (game.status === 'announced') {
    if (!sales)
      return (
        <div class="cc-panel cc-flow cc-muted" data-testid="caller-waiting">
          {t(lang, 'waitSales')}
        </div>
      )
    return (
      <div class="cc-panel cc-flow">
        <h2>{t(lang, 'openSales')}</h2>
        <button
          type="button"
          class="cc-btn cc-btn--primary cc-btn--huge"
          data-testid="open-sales"
          disabled={busy}
          onClick={() => void store.openSales()}
        >
          {t(lang, 'openSales')}
        </button>
        {selling && <TillGate store={store} lang={lang} />}
        {selling && <TillClose store={store} lang={lang} />}
      </div>
    )
  }
  const n = Number(count)
  const dueCents = Number.isInteger(n) && n > 0 ? n * game.faceValueCents : 0
  const coinsCents = coins.trim() === '' ? 0 : parseAmount(coins)
  const counted = cashBreakdown({ notes, coinsCents: Number.isNaN(coinsCents) ? 0 : coinsCents }, game.currency)
  // The sale goes only with the cash counted to the amount due (GEN-17).
  const ready = dueCents > 0 && !Number.isNaN(coinsCents) && counted.amountCents === dueCents && adult
  const sell = (e: Event) => {
    e.preventDefault()
    if (!ready) return
    void store
      // CFG-2: the notes and coins counted; the server splits them by the hall's profile.
      .sell(
        n,
        cashPieces({ notes, coinsCents: Number.isNaN(coinsCents) ? 0 : coinsCents }, game.currency),
        buyer.trim() || undefined,
        adult,
      )
      .then((ok) => {
        if (ok) {
          setNotes({})
          setCoins('')
          setBuyer('')
          setAdult(false)
        }
      })
  }
  const close = () =>
    store.ask({
      title: t(lang, 'closeSales'),
      body: [t(lang, 'closeSalesConfirm'), `${t(lang, 'cardsSold')}: ${game.cardsSold}`],
      confirmLabel: t(lang, 'closeSales'),
      // BNG-97: a locutor does not close sales alone; a jefe authorises it on his console.
      permission: 'game.sales.close',
      run: (second) => store.closeSales(second),
    })
  if (!sales && !selling)
    return (
      <div class="cc-panel cc-flow cc-muted" data-testid="caller-waiting">
        {t(lang, 'waitSales')} {t(lang, 'cardsSold')}: {game.cardsSold}
      </div>
    )
  return (
    <div class="cc-panel cc-flow">
      <h2>{t(lang, 'counterSale')}</h2>
      {selling && <TillGate store={store} lang={lang} />}
      {selling && mayTake && (
        <form class="cc-sale" onSubmit={sell}>
          <label class="cc-field">
            <span>{t(lang, 'cards')}</span>
            <input
              type="number"
              min={1}
              max={1000}
              inputMode="numeric"
              value={count}
              data-testid="sell-count"
              onInput={(e) => setCount((e.target as HTMLInputElement).value)}
            />
          </label>
          <div class="cc-bigstat">
            <span>{t(lang, 'cardsSold')}</span>
            <strong>{game.cardsSold}</strong>
          </div>
          <CashCountEntry
            lang={lang}
            currency={game.currency}
            dueCents={dueCents}
            notes={notes}
            coins={coins}
            busy={busy}
            onNotes={setNotes}
            onCoins={setCoins}
          />
          <label class="cc-field cc-field--grow">
            <span>{t(lang, 'buyerDocument')}</span>
            <input
              value={buyer}
              data-testid="sell-buyer"
              onInput={(e) => setBuyer((e.target as HTMLInputElement).value)}
            />
          </label>
          <label class="cc-field cc-field--inline">
            <input
              type="checkbox"
              checked={adult}
              data-testid="sell-age"
              onChange={(e) => setAdult((e.target as HTMLInputElement).checked)}
            />
            <span>{t(lang, 'ageConfirm')}</span>
          </label>
          <button type="submit" class="cc-btn cc-btn--huge" data-testid="sell" disabled={busy || !ready}>
            {t(lang, 'sell')} · {formatMoney(dueCents, game.currency, lang)}
          </button>
        </form>
      )}
      {selling && !mayTake && (
        <div class="cc-bigstat cc-bigstat--alone">
          <span>{t(lang, 'cardsSold')}</span>
          <strong>{game.cardsSold}</strong>
        </div>
      )}
      {selling && <TillClose store={store} lang={lang} />}
      {sales && (
        <small class="cc-muted" data-testid="close-sales-beacon">
          {t(lang, 'closeSalesBeacon')}
        </small>
      )}
      {sales && (
        <button
          type="button"
          class="cc-btn cc-btn--primary cc-btn--huge"
          data-testid="close-sales"
          disabled={busy}
          onClick={close}
        >
          {t(lang, 'closeSales')} <JefeMark how={store.offer('game.sales.close')} lang={lang} />
        </button>
      )}
    </div>
  )
}
