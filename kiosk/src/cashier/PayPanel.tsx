import { CardGrid } from '../../../display/src/lib/CardGrid.tsx'
import { formatMoney } from '../../../server/src/domain/money.ts'
import { CameraScanner } from '../shared/CameraScanner.tsx'
import { StatusBanner } from './StatusBanner.tsx'
import type { CashierStore } from './store.ts'
import { TEXTS } from './texts.ts'

const NONE: ReadonlySet<number> = new Set()

/** Scan a card or a voucher, see what it is worth, take the payee's ID where required, pay once, print. */
export function PayPanel(props: { store: CashierStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const st = store.status.value
  const paid = store.paid.value
  const v = store.voucher.value
  const card = st && st.status !== 'invalid' ? st : null
  const money = (c: number, cur = store.currency.value) => formatMoney(c, cur, store.lang.value)
  const winner = st?.status === 'winner' && !paid ? st : null
  const idMissing = Boolean(winner?.idRequired && (!store.payeeName.value.trim() || !store.payeeDocument.value.trim()))
  return (
    <div class="c-pay">
      <section class="c-scan">
        <h2 class="c-h2">{T.scanTitle}</h2>
        <p class="c-muted">{T.scanHint}</p>
        <form class="c-scan__form" onSubmit={(e) => { e.preventDefault(); void store.scanned(store.code.value) }}>
          <input class="c-input c-input--code" data-testid="cashier-code" placeholder={T.codePlaceholder} value={store.code.value}
            onInput={(e) => { store.code.value = (e.target as HTMLInputElement).value }} autocomplete="off" spellcheck={false} />
          <button type="submit" class="c-btn c-btn--primary" data-testid="cashier-check" disabled={store.busy.value}>{T.check}</button>
        </form>
        <CameraScanner onCode={(c) => void store.scanned(c)} label={T.camera} stopLabel={T.cameraStop} class="camera c-camera" />
        {card && (
          <div class="c-cardinfo" data-testid="cashier-card">
            <div class="c-cardinfo__head"><span>{T.game} {card.gameNo}</span><strong data-testid="cashier-serial">{T.card} {card.serial}</strong></div>
            <CardGrid rows={card.rows} ballCount={90} called={NONE} testId="cashier-card-grid" />
          </div>
        )}
      </section>
      <section class="c-result">
        <StatusBanner store={store} />
        {store.error.value && (
          <div class="c-error" data-testid="cashier-error" data-code={store.error.value.code}>
            <strong>{store.error.value.message}</strong>{store.error.value.detail && <span> {store.error.value.detail}</span>}
          </div>
        )}
        {(winner || (paid && st?.status === 'winner')) && (
          <ul class="c-prizes">
            {(paid ? paid.payout.prizes : winner!.prizes).map((p) => <li key={p.id}><span>{T.kinds[p.kind] ?? p.kind}</span><strong>{money(p.amountCents)}</strong></li>)}
          </ul>
        )}
        {winner && (
          <form class="c-payee" onSubmit={(e) => { e.preventDefault(); if (!idMissing) void store.pay() }}>
            <div class="c-payee__head">{T.payee}{winner.idRequired && <span class="c-tag" data-testid="cashier-id-required">{T.payeeRequired}</span>}</div>
            <label class="c-field"><span>{T.payeeName}</span>
              <input class="c-input" data-testid="cashier-payee-name" value={store.payeeName.value} required={winner.idRequired} onInput={(e) => { store.payeeName.value = (e.target as HTMLInputElement).value }} />
            </label>
            <label class="c-field"><span>{T.payeeDocument}</span>
              <input class="c-input" data-testid="cashier-payee-document" value={store.payeeDocument.value} required={winner.idRequired} onInput={(e) => { store.payeeDocument.value = (e.target as HTMLInputElement).value }} />
            </label>
            <button type="submit" class="c-btn c-btn--pay" data-testid="cashier-pay" disabled={store.busy.value || idMissing}>{T.pay(money(winner.amountCents, winner.currency))}</button>
          </form>
        )}
        {paid && (
          <div class="c-receipt" data-testid="cashier-receipt">
            {!paid.receipt.printed && <p class="c-error">{T.receiptFailed(paid.receipt.error.message)}</p>}
            <img src={paid.preview} alt="" class="c-receipt__img" data-testid="cashier-receipt-preview" />
            <div class="c-receipt__actions">
              <button type="button" class="c-btn" data-testid="cashier-reprint" onClick={() => void store.reprint()}>{T.reprint}</button>
              <button type="button" class="c-btn c-btn--primary" data-testid="cashier-next" onClick={() => store.clearScan()}>{T.next}</button>
            </div>
          </div>
        )}
        {v && v.status === 'active' && store.cashedOut.value === null && (
          <button type="button" class="c-btn c-btn--pay" data-testid="cashier-cashout" disabled={store.busy.value} onClick={() => void store.cashOut()}>{T.cashOut(money(v.amountCents, v.currency))}</button>
        )}
        {(st || v) && !paid && <button type="button" class="c-btn c-btn--ghost" data-testid="cashier-clear" onClick={() => store.clearScan()}>{T.next}</button>}
      </section>
    </div>
  )
}
