import { useState } from 'preact/hooks'
import { formatInZone } from '../../../server/src/shared/time-zone.ts'
import { money } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'
import { sellsAtDesk, tillState } from './till.ts'

/**
 * Issue 13: the table's drawer. A sale at the table takes cash only in the open shift of the person logged in at
 * this console, an enrolled cashier station ("Mesa 1"). Without a station the console says so in words; at the
 * station with no shift it asks for the counted float; with the person's shift open it offers the close with the
 * counted drawer, whose difference the server gives to the centavo.
 */

/** What stops the table selling, in words, or the form that opens the till; nothing when it may sell. */
export function TillGate({ store, lang }: { store: CallerStore; lang: Lang }) {
  const [amount, setAmount] = useState('')
  const state = tillState(store.me.value, store.till.value)
  const busy = Boolean(store.busy.value)
  if (state === 'free' || state === 'open') return null
  if (state === 'no-station')
    return (
      <p class="cc-till cc-till--warn" data-testid="till-no-station">
        {t(lang, 'tillNoStation')}
      </p>
    )
  if (state === 'other')
    return (
      <p class="cc-till cc-till--warn" data-testid="till-other">
        {t(lang, sellsAtDesk(store.me.value) ? 'tillOtherDesk' : 'tillOther').replace(
          '{name}',
          store.till.value!.shift!.cashier.name,
        )}
      </p>
    )
  const open = (e: Event) => {
    e.preventDefault()
    void store.openShift(amount).then((ok) => {
      if (ok) setAmount('')
    })
  }
  return (
    <form class="cc-till cc-flow" data-testid="till-closed" onSubmit={open}>
      <ClosedResult store={store} lang={lang} />
      <p class="cc-till__lead">{t(lang, sellsAtDesk(store.me.value) ? 'tillClosedDesk' : 'tillClosed')}</p>
      <div class="cc-row">
        <label class="cc-field cc-field--grow">
          <span>{t(lang, 'tillFloat')}</span>
          <input
            type="text"
            inputMode="decimal"
            autocomplete="off"
            placeholder="0,00"
            value={amount}
            data-testid="till-float"
            onInput={(e) => setAmount((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="cc-btn cc-btn--primary cc-btn--big" data-testid="till-open" disabled={busy}>
          {t(lang, sellsAtDesk(store.me.value) ? 'tillOpenDesk' : 'tillOpen')}
        </button>
      </div>
    </form>
  )
}

/** The person's open table shift in one line, and its close with the counted drawer (arqueo). */
export function TillClose({ store, lang }: { store: CallerStore; lang: Lang }) {
  const [counted, setCounted] = useState('')
  const [note, setNote] = useState('')
  const till = store.till.value
  if (tillState(store.me.value, till) !== 'open') return null
  const shift = till!.shift!
  const busy = Boolean(store.busy.value)
  // Issue 29 point 5: the hall's clock with its zone named, not the browser's.
  const since = formatInZone(shift.openedAt, till!.station?.timeZone ?? 'UTC', 'time', true)
  const close = (e: Event) => {
    e.preventDefault()
    void store.closeShift(counted, note).then((ok) => {
      if (ok) {
        setCounted('')
        setNote('')
      }
    })
  }
  return (
    <form class="cc-till cc-till--open" data-testid="till-open-shift" onSubmit={close}>
      <div class="cc-till__line">
        <strong>
          {t(lang, sellsAtDesk(store.me.value) ? 'tillDesk' : 'till')} · {till!.station!.name}
        </strong>
        <span class="cc-muted" data-testid="till-since">
          {t(lang, 'tillOpenSince')} {since}
        </span>
        <span class="cc-muted">
          {t(lang, 'tillInDrawer')}{' '}
          <strong data-testid="till-expected">{money(shift.expectedCents, shift.currency, lang)}</strong>
        </span>
      </div>
      <div class="cc-row cc-till__close">
        <label class="cc-field">
          <span>{t(lang, 'tillCounted')}</span>
          <input
            type="text"
            inputMode="decimal"
            autocomplete="off"
            placeholder="0,00"
            value={counted}
            data-testid="till-counted"
            onInput={(e) => setCounted((e.target as HTMLInputElement).value)}
          />
        </label>
        <label class="cc-field cc-field--grow">
          <span>{t(lang, 'tillNote')}</span>
          <input
            type="text"
            maxLength={500}
            value={note}
            data-testid="till-note"
            onInput={(e) => setNote((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="cc-btn cc-btn--small" data-testid="till-close" disabled={busy}>
          {t(lang, 'tillClose')}
        </button>
      </div>
    </form>
  )
}

/** The shift last closed at this console: expected, counted and the difference, as the server counted them. */
function ClosedResult({ store, lang }: { store: CallerStore; lang: Lang }) {
  const c = store.closedShift.value
  if (!c) return null
  const m = (cents: number | null) => money(cents ?? 0, c.currency, lang)
  const diff = c.differenceCents ?? 0
  return (
    <p class={`cc-till__result${diff === 0 ? '' : ' cc-till__result--off'}`} data-testid="till-closed-result">
      <strong>{t(lang, 'tillClosedTitle')}</strong> · {t(lang, 'tillExpected')} {m(c.expectedCents)} ·{' '}
      {t(lang, 'tillCountedWord')} {m(c.countedCents)} · {t(lang, 'tillDifference')}{' '}
      <strong data-testid="till-difference">{m(diff)}</strong>
    </p>
  )
}

/** Between games (sales not on): the open table shift and its close, in the side column. */
export function TillPanel({ store, lang }: { store: CallerStore; lang: Lang }) {
  const state = tillState(store.me.value, store.till.value)
  if (state !== 'open' && !store.closedShift.value) return null
  return (
    <div class="cc-panel cc-flow" data-testid="till-panel">
      <h2>{t(lang, sellsAtDesk(store.me.value) ? 'tillDesk' : 'till')}</h2>
      {state === 'open' ? <TillClose store={store} lang={lang} /> : <ClosedResult store={store} lang={lang} />}
    </div>
  )
}
