import { useState } from 'preact/hooks'
import { formatMoney } from '../../../server/src/shared/money.ts'
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
    <label class="c-shift__field">{label}
      <input class="c-input" data-testid={testid} type={type} value={value} onInput={(e) => set((e.target as HTMLInputElement).value)} />
    </label>
  )
  if (!s.person) {
    return (
      <form class="c-shift" data-testid="shift-login" onSubmit={(e) => { e.preventDefault(); void store.login(username.trim(), password).then((ok) => { if (ok) setPassword('') }) }}>
        <strong>{T.login} · {s.station.name}</strong>
        {input('shift-user', username, setUsername, T.user)}
        {input('shift-password', password, setPassword, T.password, 'password')}
        <button type="submit" class="c-btn" data-testid="shift-enter" disabled={store.busy.value}>{T.enter}</button>
      </form>
    )
  }
  const currency = store.currency.value
  return (
    <div class="c-shift" data-testid="shift-bar">
      <strong data-testid="shift-person">{s.person.name} · {s.station.name}</strong>
      {!s.shift && (
        <form class="c-shift__form" onSubmit={(e) => { e.preventDefault(); void store.openShift(amount).then(() => setAmount('')) }}>
          <span class="c-muted">{T.noShift}</span>
          {input('shift-float', amount, setAmount, T.float)}
          <button type="submit" class="c-btn" data-testid="shift-open" disabled={store.busy.value}>{T.open}</button>
        </form>
      )}
      {s.shift && (
        <form class="c-shift__form" onSubmit={(e) => { e.preventDefault(); void store.closeShift(amount, note).then(() => { setAmount(''); setNote('') }) }}>
          <span data-testid="shift-open-since">{T.openSince} {s.shift.openedAt ? new Date(s.shift.openedAt).toLocaleTimeString(store.lang.value === 'es' ? 'es-BO' : 'en-GB', { hour: '2-digit', minute: '2-digit' }) : ''}{s.shift.floatCents !== undefined ? ` · ${formatMoney(s.shift.floatCents, currency, store.lang.value)}` : ''}</span>
          {input('shift-counted', amount, setAmount, T.counted)}
          {input('shift-note', note, setNote, T.note)}
          <button type="submit" class="c-btn" data-testid="shift-close" disabled={store.busy.value}>{T.close}</button>
        </form>
      )}
      <button type="button" class="c-btn" data-testid="shift-logout" onClick={() => void store.logout()}>{T.logout}</button>
    </div>
  )
}
