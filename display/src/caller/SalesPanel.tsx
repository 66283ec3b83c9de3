import { useState } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import { formatMoney } from '../../../server/src/shared/money.ts'
import { cashBreakdown, cashPieces, NOTES } from '../../../web/cash-count.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'
import { parseAmount, sellsAtDesk, tillState } from './till.ts'
import { JefeMark } from './JefeMark.tsx'
import {
  chosenGridColumns,
  quickPickOrNone,
  tapNumber,
  type ChosenDraft,
  type ChosenTerms,
} from '../../../web/chosen-picks.ts'

const two = (n: number) => String(n).padStart(2, '0')

/**
 * BNG-98 / CFG-32 (002 §6.1.9, bingo rápido: the players "deben elegir y adquirir uno o más números ... entre un
 * universo"): at the counter the seller taps the buyer's numbers on a grid of the universe, card by card, as the
 * kiosk's player does; the sale then sends one list per card.
 */
function ChosenNumbersEntry(props: {
  lang: Lang
  terms: ChosenTerms & { timesRequired: number }
  maxCards: number
  draft: ChosenDraft
  busy: boolean
  onDraft: (d: ChosenDraft) => void
}) {
  const { lang, terms, maxCards, draft, busy } = props
  const fill = (key: Parameters<typeof t>[1], v: Record<string, number>) =>
    Object.entries(v).reduce((s, [k, x]) => s.replace(`{${k}}`, String(x)), t(lang, key))
  const full = draft.cards.length >= maxCards
  const cols = chosenGridColumns(terms.universe)
  // BNG-13: «Al azar» with no card left to make says so.
  const [none, setNone] = useState(false)
  return (
    <section class="cc-chosen" data-testid="sell-chosen">
      <h3 data-testid="sell-chosen-title">{fill('chooseNumbers', { n: terms.picks })}</h3>
      <p class="cc-muted">{fill('chosenHint', { n: terms.picks, u: terms.universe, k: terms.timesRequired })}</p>
      <div class="cc-chosen__grid" style={{ gridTemplateColumns: `repeat(${cols}, 1fr)` }}>
        {Array.from({ length: terms.universe }, (_, i) => i + 1).map((n) => (
          <button
            type="button"
            key={n}
            class={draft.pending.includes(n) ? 'cc-pick cc-pick--on' : 'cc-pick'}
            data-testid={`sell-pick-${n}`}
            aria-pressed={draft.pending.includes(n)}
            disabled={busy || full}
            onClick={() => props.onDraft(tapNumber(draft, n, terms, maxCards))}
          >
            {two(n)}
          </button>
        ))}
      </div>
      <div class="cc-chosen__bar">
        <strong data-testid="sell-chosen-count">
          {fill('chosenCount', { k: draft.pending.length, n: terms.picks })}
        </strong>
        <button
          type="button"
          class="cc-btn"
          data-testid="sell-chosen-random"
          disabled={busy || full}
          onClick={() => {
            const next = quickPickOrNone(draft, terms, maxCards)
            setNone(!next)
            if (next) props.onDraft(next)
          }}
        >
          {t(lang, 'randomPick')}
        </button>
        <button
          type="button"
          class="cc-btn"
          data-testid="sell-chosen-clear"
          disabled={busy || draft.pending.length === 0}
          onClick={() => props.onDraft({ ...draft, pending: [] })}
        >
          {t(lang, 'clearPicks')}
        </button>
      </div>
      {none && (
        <p class="cc-muted" role="status" data-testid="sell-chosen-none">
          {t(lang, 'noFreeCard')}
        </p>
      )}
      <h4>
        {t(lang, 'chosenCards')} ({draft.cards.length}/{maxCards})
      </h4>
      <ol class="cc-chosen__cards" data-testid="sell-chosen-cards">
        {draft.cards.map((card, i) => (
          <li key={card.join('-')}>
            <span class="cc-mono">
              {fill('cardLabel', { i: i + 1 })}: {card.map(two).join(' ')}
            </span>{' '}
            <button
              type="button"
              class="cc-link"
              data-testid={`sell-chosen-remove-${i}`}
              disabled={busy}
              onClick={() => props.onDraft({ ...draft, cards: draft.cards.filter((_, j) => j !== i) })}
            >
              {t(lang, 'removeCard')}
            </button>
          </li>
        ))}
      </ol>
    </section>
  )
}

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
  const [draft, setDraft] = useState<ChosenDraft>({ cards: [], pending: [] })
  const chosen = game.chosenNumbers ?? null
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
  // BNG-98: in a chosen-number game the cards are those the buyer's numbers fill, not a count typed.
  const n = chosen ? draft.cards.length : Number(count)
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
        chosen ? draft.cards : undefined,
      )
      .then((ok) => {
        if (ok) {
          setDraft({ cards: [], pending: [] })
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
      <h2 data-testid="sale-heading">{t(lang, sellsAtDesk(store.me.value) ? 'deskSale' : 'counterSale')}</h2>
      {selling && <TillGate store={store} lang={lang} />}
      {selling && mayTake && (
        <form class="cc-sale" onSubmit={sell}>
          {chosen ? (
            <ChosenNumbersEntry
              lang={lang}
              terms={chosen}
              maxCards={game.bets?.maxCardsPerPurchase ?? 50}
              draft={draft}
              busy={busy}
              onDraft={setDraft}
            />
          ) : (
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
          )}
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
