import { useState } from 'preact/hooks'
import { formatMoney } from '../../../server/src/shared/money.ts'
import { formatInZone } from '../../../server/src/shared/time-zone.ts'
import type { CashierStore } from './store.ts'
import { TEXTS } from './texts.ts'

/**
 * Issue 13 point 5: who is at this station and the shift. A cashier logs in with her own account at the enrolled
 * station, opens the shift with the counted float and closes it with the counted drawer (arqueo); until then
 * the server refuses to move cash here, and this bar says what to do.
 */
export function ShiftBar(props: { store: CashierStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value].shift
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [amount, setAmount] = useState('')
  const [note, setNote] = useState('')
  const s = store.station.value
  // Only an enrolled station has a drawer to open; with authentication off the screen works as before.
  if (!s?.station) return <div class="c-shift-none" />
  const input = (testid: string, value: string, set: (v: string) => void, label: string, type = 'text') => (
    <label class="c-shift__field">
      {label}
      <input
        class="c-input"
        data-testid={testid}
        type={type}
        value={value}
        onInput={(e) => set((e.target as HTMLInputElement).value)}
      />
    </label>
  )
  if (!s.person) {
    return (
      <form
        class="c-shift"
        data-testid="shift-login"
        onSubmit={(e) => {
          e.preventDefault()
          void store.login(username.trim(), password).then((ok) => {
            if (ok) setPassword('')
          })
        }}
      >
        <strong>
          {T.login} · {s.station.name}
        </strong>
        {input('shift-user', username, setUsername, T.user)}
        {input('shift-password', password, setPassword, T.password, 'password')}
        <button type="submit" class="c-btn" data-testid="shift-enter" disabled={store.busy.value}>
          {T.enter}
        </button>
      </form>
    )
  }
  const currency = store.currency.value
  return (
    <div class="c-shift" data-testid="shift-bar">
      <strong data-testid="shift-person">
        {s.person.name} · {s.station.name}
      </strong>
      {!s.shift && (
        <form
          class="c-shift__form"
          onSubmit={(e) => {
            e.preventDefault()
            void store.openShift(amount).then((ok) => {
              if (ok) setAmount('')
            })
          }}
        >
          <span class="c-muted">{T.noShift}</span>
          {input('shift-float', amount, setAmount, T.float)}
          <button type="submit" class="c-btn" data-testid="shift-open" disabled={store.busy.value}>
            {T.open}
          </button>
        </form>
      )}
      {s.shift && (
        // Issue 29 point 2: a refused close keeps the count typed, so the cashier adds the reason or counts again.
        <form
          class="c-shift__form"
          onSubmit={(e) => {
            e.preventDefault()
            void store.closeShift(amount, note).then((ok) => {
              if (ok) {
                setAmount('')
                setNote('')
              }
            })
          }}
        >
          <span data-testid="shift-open-since">
            {T.openSince} {/* Issue 29 point 5: the hall's clock with its zone named, not the browser's. */}
            {s.shift.openedAt ? formatInZone(s.shift.openedAt, s.station?.timeZone ?? 'UTC', 'time', true) : ''}
            {s.shift.floatCents !== undefined
              ? ` · ${formatMoney(s.shift.floatCents, currency, store.lang.value)}`
              : ''}
          </span>
          {input('shift-counted', amount, setAmount, T.counted)}
          {input('shift-note', note, setNote, T.note)}
          <button type="submit" class="c-btn" data-testid="shift-close" disabled={store.busy.value}>
            {T.close}
          </button>
        </form>
      )}
      <button type="button" class="c-btn" data-testid="shift-logout" onClick={() => void store.logout()}>
        {T.logout}
      </button>
      {store.shiftError.value && (
        <div class="c-error c-shift__error" role="alert" data-testid="shift-error">
          {store.shiftError.value}
        </div>
      )}
      {store.closedReport.value && <ShiftReportPanel store={store} />}
    </div>
  )
}

/** The shift just closed, as its report says: float, movements by product, expected, counted, difference. */
function ShiftReportPanel(props: { store: CashierStore }) {
  const { store } = props
  const r = store.closedReport.value!
  const lang = store.lang.value
  const T = TEXTS[lang].shift
  const all = TEXTS[lang]
  const money = (c: number) => formatMoney(c, r.currency, lang)
  // Issue 29 point 5: the report's times on the hall's clock, its zone named once after the close, as the PDF prints.
  const zone = store.station.value?.station?.timeZone ?? 'UTC'
  const at = (iso: string | null, named = false) => (iso ? formatInZone(iso, zone, 'date-time', named) : '')
  const diff = r.differenceCents ?? 0
  return (
    <section class="c-shift-report" data-testid="shift-report">
      <div class="c-shift-report__head">
        <h2 class="c-h2">
          {T.reportTitle} · {r.cashier.name} · {r.station.name}
        </h2>
        <span class="c-muted">
          {T.opened} {at(r.openedAt)} · {T.closed} {at(r.closedAt, true)}
        </span>
      </div>
      <table class="c-table" data-testid="shift-report-table">
        <thead>
          <tr>
            <th>{T.product}</th>
            <th class="num">{T.count}</th>
            <th class="num">{all.inCol}</th>
            <th class="num">{all.outCol}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>{T.floatLine}</td>
            <td />
            <td class="num">{money(r.floatCents)}</td>
            <td />
          </tr>
          {r.lines.map((l) => (
            <tr key={`${l.product}-${l.kind}`}>
              <td>
                {all.kinds2[l.kind] ?? (all.products as Record<string, string>)[l.product] ?? all.products.unknown}
              </td>
              <td class="num">{l.count}</td>
              <td class="num">{l.inCents ? money(l.inCents) : ''}</td>
              <td class="num">{l.outCents ? money(l.outCents) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl class="c-shift-report__sums">
        <dt>{T.expected}</dt>
        <dd data-testid="shift-report-expected">{money(r.expectedCents)}</dd>
        <dt>{T.countedLine}</dt>
        <dd data-testid="shift-report-counted">{money(r.countedCents ?? 0)}</dd>
        <dt>{T.difference}</dt>
        <dd data-testid="shift-report-difference" class={diff === 0 ? '' : 'c-bad'}>
          {diff < 0 ? '−' : diff > 0 ? '+' : ''}
          {money(Math.abs(diff))}
        </dd>
        {r.note && (
          <>
            <dt>{T.noteLine}</dt>
            <dd data-testid="shift-report-note">{r.note}</dd>
          </>
        )}
      </dl>
      <div class="c-row">
        <button
          type="button"
          class="c-btn c-btn--primary"
          data-testid="shift-report-pdf"
          disabled={store.busy.value}
          onClick={() => void store.downloadShiftPdf()}
        >
          {T.pdf}
        </button>
        <button
          type="button"
          class="c-btn"
          data-testid="shift-report-dismiss"
          onClick={() => {
            store.closedReport.value = null
          }}
        >
          {T.dismiss}
        </button>
      </div>
    </section>
  )
}
