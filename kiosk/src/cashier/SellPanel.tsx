import { useEffect } from 'preact/hooks'
import { formatMoney } from '../../../server/src/shared/money.ts'
import { ConfirmBox } from './ConfirmBox.tsx'
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
  const loaded = store.loaded.value
  const recovered = store.recovered.value
  const chosen = store.terminals.value.find((t) => t.id === store.terminalId.value)
  useEffect(() => {
    void store.refreshTerminals()
  }, [])
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
                      disabled={Boolean(sale) || Boolean(loaded)}
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
                      disabled={Boolean(sale) || Boolean(loaded)}
                      onInput={(e) => setNote(note.cents, Number((e.target as HTMLInputElement).value) || 0)}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="c-step"
                      data-testid={`note-plus-${note.cents}`}
                      onClick={() => setNote(note.cents, n + 1)}
                      disabled={Boolean(sale) || Boolean(loaded)}
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
                  disabled={Boolean(sale) || Boolean(loaded)}
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
        {!sale && !loaded && (
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
        {!sale && !loaded && store.terminals.value.length > 0 && (
          <div class="c-load" data-testid="terminal-load">
            <h3 class="c-h3">{T.loadTitle}</h3>
            <label class="c-field">
              <span>{T.loadTerminal}</span>
              <select
                class="c-input"
                data-testid="terminal-select"
                value={store.terminalId.value}
                onChange={(e) => {
                  store.terminalId.value = (e.target as HTMLSelectElement).value
                  store.loadConfirming.value = false
                }}
              >
                <option value="">{T.loadPick}</option>
                {store.terminals.value.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name} · {t.session ? T.loadBalance(money(t.session.balanceCents)) : T.loadWaiting}
                  </option>
                ))}
              </select>
            </label>
            {chosen && !chosen.session && (
              <label class="c-check">
                <input
                  type="checkbox"
                  data-testid="terminal-age"
                  checked={store.loadAgeConfirmed.value}
                  onChange={(e) => {
                    store.loadAgeConfirmed.value = (e.target as HTMLInputElement).checked
                  }}
                />{' '}
                {T.loadAge}
              </label>
            )}
            {store.loadConfirming.value && chosen ? (
              <ConfirmBox
                title={T.loadConfirmTitle}
                text={T.loadConfirmText(money(b.amountCents), chosen.name, !chosen.session)}
                yes={T.loadYes}
                no={T.loadNo}
                busy={store.busy.value}
                onYes={() => void store.loadTerminal()}
                onNo={() => {
                  store.loadConfirming.value = false
                }}
                testId="terminal-load-confirm"
              />
            ) : (
              <button
                type="button"
                class="c-btn c-btn--primary"
                data-testid="terminal-load-button"
                disabled={store.busy.value || b.amountCents <= 0 || !chosen}
                onClick={() => {
                  store.loadConfirming.value = true
                }}
              >
                {T.load(money(b.amountCents))}
              </button>
            )}
          </div>
        )}
        {!sale && !loaded && !recovered && (
          // A lost terminal session (the terminal broke, the player left it): its balance back against the voucher.
          <div class="c-load" data-testid="terminal-recover">
            <h3 class="c-h3">{T.recoverTitle}</h3>
            <p class="c-muted">{T.recoverHint}</p>
            <label class="c-field">
              <span>{T.recoverCode}</span>
              <input
                class="c-input c-input--code"
                data-testid="terminal-recover-code"
                value={store.recoverCode.value}
                autocomplete="off"
                spellcheck={false}
                onInput={(e) => {
                  store.recoverCode.value = (e.target as HTMLInputElement).value
                  store.recoverConfirming.value = false
                  store.error.value = null
                }}
                onKeyDown={(e) => {
                  // A scanner ends the code with Enter: ask, as the button does.
                  if (e.key === 'Enter' && store.recoverCode.value.trim()) store.recoverConfirming.value = true
                }}
              />
            </label>
            {store.recoverConfirming.value ? (
              <ConfirmBox
                title={T.recoverConfirmTitle}
                text={T.recoverConfirmText}
                yes={T.recoverYes}
                no={T.loadNo}
                busy={store.busy.value}
                onYes={() => void store.recoverTerminal()}
                onNo={() => {
                  store.recoverConfirming.value = false
                }}
                testId="terminal-recover-confirm"
              />
            ) : (
              <button
                type="button"
                class="c-btn c-btn--primary"
                data-testid="terminal-recover-button"
                disabled={store.busy.value || !store.recoverCode.value.trim()}
                onClick={() => {
                  store.recoverConfirming.value = true
                }}
              >
                {T.recoverButton}
              </button>
            )}
          </div>
        )}
        {recovered && (
          <div class="c-sold" data-testid="terminal-recovered">
            <div class="c-banner c-banner--ok">
              <div class="c-banner__title">{recovered.change ? T.recovered : T.recoveredNothing}</div>
              <div class="c-banner__amount" data-testid="terminal-recovered-amount">
                {money(recovered.change?.amountCents ?? 0)}
              </div>
            </div>
            {recovered.change?.shortCode && (
              <p class="c-short">
                {T.loadedVoucherCode}:{' '}
                <strong class="c-mono" data-testid="terminal-recovered-code">
                  {recovered.change.shortCode}
                </strong>
              </p>
            )}
            {recovered.print &&
              (recovered.print.printed ? (
                <p data-testid="terminal-recovered-printed">{T.recoveredPrinted}</p>
              ) : (
                <div class="c-error" data-testid="terminal-recovered-print-pending" data-ref={recovered.print.ref}>
                  <strong>{T.loadedNotPrinted}</strong>
                  <button
                    type="button"
                    class="c-btn c-btn--primary"
                    data-testid="terminal-recovered-reprint"
                    disabled={store.busy.value}
                    onClick={() => void store.reprintRecovered()}
                  >
                    {T.reprintVoucher}
                  </button>
                </div>
              ))}
            <button
              type="button"
              class="c-btn c-btn--primary"
              data-testid="terminal-recover-new"
              onClick={() => store.newSale()}
            >
              {T.newSale}
            </button>
          </div>
        )}
        {loaded && (
          <div class="c-sold" data-testid="terminal-loaded">
            <div class="c-banner c-banner--ok">
              <div class="c-banner__title">{T.loaded(loaded.terminal.name)}</div>
              <div class="c-banner__amount">{money(loaded.amountCents)}</div>
            </div>
            <p data-testid="terminal-loaded-balance">{T.loadedBalance(money(loaded.balanceCents))}</p>
            <p class="c-muted">{T.loadedVoucher}</p>
            {loaded.voucher.shortCode && (
              <p class="c-short">
                {T.loadedVoucherCode}:{' '}
                <strong class="c-mono" data-testid="terminal-loaded-code">
                  {loaded.voucher.shortCode}
                </strong>
              </p>
            )}
            {loaded.print.printed ? (
              <p data-testid="terminal-loaded-printed">{T.loadedPrinted}</p>
            ) : (
              <div class="c-error" data-testid="terminal-loaded-print-pending" data-ref={loaded.print.ref}>
                <strong>{T.loadedNotPrinted}</strong>
                <button
                  type="button"
                  class="c-btn c-btn--primary"
                  data-testid="terminal-loaded-reprint"
                  disabled={store.busy.value}
                  onClick={() => void store.reprintLoadVoucher()}
                >
                  {T.reprintVoucher}
                </button>
              </div>
            )}
            <img
              src={loaded.preview}
              alt=""
              class="c-receipt__img c-receipt__img--small"
              data-testid="terminal-loaded-preview"
            />
            {loaded.aml.flagged && <p class="c-aml">{T.amlFlag}</p>}
            <button
              type="button"
              class="c-btn c-btn--primary"
              data-testid="terminal-load-new"
              onClick={() => store.newSale()}
            >
              {T.newSale}
            </button>
          </div>
        )}
        {store.error.value && (
          <div class="c-error" data-testid="cashier-error" data-code={store.error.value.code}>
            {/* The server's message in the screen's language; its English detail is for the log, never the cashier. */}
            <strong>{store.error.value.message}</strong>
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
