import { formatMoney } from '../../../server/src/shared/money.ts'
import type { CashierStore } from './store.ts'
import { NOTES, TEXTS } from './texts.ts'

/** Sells a credit voucher for the cash counted note by note; the split feeds the GEN-17 check on the server. */
export function SellPanel(props: { store: CashierStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const cur = store.currency.value
  const money = (c: number) => formatMoney(c, cur, store.lang.value)
  const b = store.breakdown.value
  const sale = store.sale.value
  const setNote = (cents: number, n: number) => {
    store.notes.value = { ...store.notes.value, [cents]: Math.max(0, n) }
  }
  return (
    <div class="c-sell">
      <section class="c-count">
        <h2 class="c-h2">{T.sellTitle}</h2>
        <p class="c-muted">{T.sellHint}</p>
        <table class="c-notes">
          <tbody>
            {(NOTES[cur] ?? []).map((note) => {
              const n = store.notes.value[note.cents] ?? 0
              return (
                <tr key={note.cents} class={note.small ? 'c-note c-note--small' : 'c-note'}>
                  <th>{money(note.cents)}</th>
                  <td>
                    <button
                      type="button"
                      class="c-step"
                      data-testid={`note-minus-${note.cents}`}
                      onClick={() => setNote(note.cents, n - 1)}
                      disabled={Boolean(sale)}
                    >
                      −
                    </button>
                  </td>
                  <td>
                    <input
                      class="c-input c-input--count"
                      type="number"
                      min="0"
                      data-testid={`note-count-${note.cents}`}
                      value={n}
                      disabled={Boolean(sale)}
                      onInput={(e) => setNote(note.cents, Number((e.target as HTMLInputElement).value) || 0)}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="c-step"
                      data-testid={`note-plus-${note.cents}`}
                      onClick={() => setNote(note.cents, n + 1)}
                      disabled={Boolean(sale)}
                    >
                      +
                    </button>
                  </td>
                  <td class="c-note__sum">{money(n * note.cents)}</td>
                </tr>
              )
            })}
            <tr class="c-note c-note--small">
              <th>{T.coins}</th>
              <td colSpan={3}>
                <input
                  class="c-input"
                  inputMode="decimal"
                  data-testid="coins"
                  value={store.coins.value}
                  disabled={Boolean(sale)}
                  placeholder="0,00"
                  onInput={(e) => {
                    store.coins.value = (e.target as HTMLInputElement).value
                  }}
                />
              </td>
              <td class="c-note__sum" />
            </tr>
          </tbody>
        </table>
        <p class="c-muted c-small">{T.amlHint}</p>
      </section>
      <section class="c-total">
        <div class="c-total__label">{T.amount}</div>
        <div class="c-total__value" data-testid="voucher-amount">
          {money(b.amountCents)}
        </div>
        <dl class="c-split">
          <div class="c-split--small">
            <dt>{T.small}</dt>
            <dd data-testid="voucher-small">{money(b.smallCents)}</dd>
          </div>
          <div>
            <dt>{T.other}</dt>
            <dd data-testid="voucher-other">{money(b.otherCents)}</dd>
          </div>
        </dl>
        {!sale && (
          <>
            <label class="c-field">
              <span>{T.buyerDocument}</span>
              <input
                class="c-input"
                data-testid="buyer-document"
                value={store.buyerDocument.value}
                onInput={(e) => {
                  store.buyerDocument.value = (e.target as HTMLInputElement).value
                }}
              />
            </label>
            <button
              type="button"
              class="c-btn c-btn--pay"
              data-testid="voucher-sell"
              disabled={store.busy.value || b.amountCents <= 0}
              onClick={() => void store.sell()}
            >
              {T.sell(money(b.amountCents))}
            </button>
          </>
        )}
        {store.error.value && (
          <div class="c-error" data-testid="cashier-error" data-code={store.error.value.code}>
            <strong>{store.error.value.message}</strong> {store.error.value.detail}
          </div>
        )}
        {sale && (
          <div class="c-sold" data-testid="voucher-sold">
            <div class="c-banner c-banner--ok">
              <div class="c-banner__title">{sale.print.printed ? T.sold : T.soldNotPrinted}</div>
              <div class="c-banner__amount">{money(sale.voucher.amountCents)}</div>
            </div>
            {!sale.print.printed && (
              <div class="c-error" data-testid="voucher-print-pending" data-ref={sale.print.ref}>
                <strong>{T.voucherPrintPending}</strong>
                <button
                  type="button"
                  class="c-btn c-btn--primary"
                  data-testid="voucher-reprint"
                  disabled={store.busy.value}
                  onClick={() => void store.reprintVoucher()}
                >
                  {T.reprintVoucher}
                </button>
              </div>
            )}
            {sale.aml.flagged && (
              <p class="c-aml" data-testid="voucher-aml">
                {T.amlFlag}
              </p>
            )}
            <img src={sale.preview} alt="" class="c-receipt__img c-receipt__img--small" data-testid="voucher-preview" />
            {sale.voucher.shortCode && (
              <p class="c-short">
                {T.shortCode}:{' '}
                <strong class="c-mono" data-testid="voucher-short-code">
                  {sale.voucher.shortCode}
                </strong>
              </p>
            )}
            <code class="c-code" data-testid="voucher-code">
              {sale.voucher.code}
            </code>
            <button
              type="button"
              class="c-btn c-btn--primary"
              data-testid="voucher-new"
              onClick={() => store.newSale()}
            >
              {T.newSale}
            </button>
          </div>
        )}
      </section>
    </div>
  )
}
