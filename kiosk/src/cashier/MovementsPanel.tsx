import { formatMoney } from '../../../server/src/shared/money.ts'
import { formatStamp } from '../../../printer/src/ticket-layout.ts'
import { formatInZone } from '../../../server/src/shared/time-zone.ts'
import type { CashierStore } from './store.ts'
import { TEXTS } from './texts.ts'

/** The station's cash today: every movement, money in, money out and what the drawer should hold. */
export function MovementsPanel(props: { store: CashierStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const d = store.day.value
  const money = (c: number) => formatMoney(c, d?.currency ?? store.currency.value, store.lang.value)
  // Times on the hall's clock (the shift bar's), and the day as people write it (27/11/2026), never "2026-11-27".
  const zone = store.station.value?.station?.timeZone ?? undefined
  return (
    <section class="c-day" data-testid="cashier-day">
      <div class="c-day__head">
        <h2 class="c-h2">
          {T.dayTitle}{' '}
          {d && (
            <span class="c-muted" data-testid="day-date">
              · {formatInZone(`${d.day}T12:00:00Z`, 'UTC', 'date')}
            </span>
          )}
        </h2>
        <button type="button" class="c-btn" onClick={() => void store.refreshDay()}>
          {T.refresh}
        </button>
      </div>
      <div class="c-tiles">
        <div class="c-tile">
          <span>{T.cashIn}</span>
          <strong data-testid="day-in">{money(d?.inCents ?? 0)}</strong>
        </div>
        <div class="c-tile">
          <span>{T.cashOut2}</span>
          <strong data-testid="day-out">{money(d?.outCents ?? 0)}</strong>
        </div>
        <div class="c-tile c-tile--net">
          <span>{T.net}</span>
          <strong data-testid="day-balance">{money(d?.balanceCents ?? 0)}</strong>
        </div>
      </div>
      {d && d.movements.length === 0 && <p class="c-muted">{T.none}</p>}
      {d && d.movements.length > 0 && (
        <table class="c-table" data-testid="day-table">
          <thead>
            <tr>
              <th>{T.time}</th>
              <th>{T.kind}</th>
              <th>{T.ref}</th>
              <th>{T.by}</th>
              <th class="num">{T.inCol}</th>
              <th class="num">{T.outCol}</th>
            </tr>
          </thead>
          <tbody>
            {d.movements.map((m) => (
              <tr key={m.id} data-kind={m.kind}>
                <td data-testid="day-time">{formatStamp(m.at, zone).slice(11)}</td>
                <td>{T.kinds2[m.kind] ?? m.kind}</td>
                <td data-testid="day-ref">{m.ref}</td>
                <td data-testid="day-by">{m.cashierName}</td>
                <td class="num">{m.amountCents > 0 ? money(m.amountCents) : ''}</td>
                <td class="num">{m.amountCents < 0 ? money(-m.amountCents) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
