import { formatMoney } from '../../../server/src/shared/money.ts'
import { CameraScanner } from '../shared/CameraScanner.tsx'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

/**
 * The basket beside the sections: the voucher (scanned, or typed by its short code), what the basket holds, the
 * total, the balance and the change, the age question (CFG-5) and the buy button, always in view.
 */
export function BasketPanel(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const money = (c: number) => formatMoney(c, store.currency.value, store.lang.value)
  const v = store.voucher.value
  const age = store.offer.value?.hall.minimumAge ?? 18
  const total = store.totalCents.value
  const blocker = store.blocker.value
  const lineText = (kind: string, q: number) =>
    kind === 'cards' ? T.lineCards(q) : kind === 'slips' ? T.lineSlip(q, store.draws.value) : T.lineInstant(q)
  return (
    <aside class="k-basket" data-testid="kiosk-basket">
      <div class="k-voucher" data-testid="kiosk-voucher">
        <h2 class="k-basket__title">{T.voucherTitle}</h2>
        {v ? (
          <div class="k-credit">
            <span class="k-credit__label">{T.credit}</span>
            <span class="k-credit__value" data-testid="kiosk-credit">
              {money(v.amountCents)}
            </span>
            <button
              type="button"
              class="k-link"
              data-testid="kiosk-voucher-other"
              onClick={() => store.forgetVoucher()}
            >
              {T.voucherOther}
            </button>
          </div>
        ) : (
          <form
            class="k-voucher__form"
            onSubmit={(e) => {
              e.preventDefault()
              void store.checkVoucher(store.typedCode.value)
            }}
          >
            <label class="k-voucher__hint" for="voucher-code">
              {T.voucherHint}
            </label>
            <div class="k-voucher__row">
              <input
                id="voucher-code"
                class="k-input k-input--code"
                data-testid="kiosk-voucher-code"
                placeholder={T.voucherPlaceholder}
                autocomplete="off"
                inputMode="none"
                data-osk="code"
                autocapitalize="characters"
                spellcheck={false}
                // A card's printed code, typed as printed with its dashes or spaces, is 24 characters (issue 29).
                maxLength={30}
                value={store.typedCode.value}
                onInput={(e) => store.typeVoucherCode((e.target as HTMLInputElement).value)}
              />
              <button
                type="submit"
                class="btn btn--secondary"
                data-testid="kiosk-voucher-check"
                disabled={store.checking.value || store.typedCode.value.trim().length === 0}
              >
                {store.checking.value ? T.voucherChecking : T.voucherCheck}
              </button>
            </div>
            {store.voucherProblem.value && (
              <p
                class="k-voucher__problem"
                data-testid="kiosk-voucher-problem"
                data-problem={store.voucherProblem.value}
                role="alert"
              >
                <strong>{T.problems[store.voucherProblem.value][0]}.</strong>{' '}
                {T.problems[store.voucherProblem.value][1]}
              </p>
            )}
            <CameraScanner
              class="camera camera--inline"
              onCode={(code) => void store.checkVoucher(code)}
              label={T.camera}
              stopLabel={T.cameraStop}
              failedText={T.cameraFailed}
            />
          </form>
        )}
      </div>

      <div class="k-lines">
        <h2 class="k-basket__title">{T.basket}</h2>
        {store.lines.value.length === 0 ? (
          <p class="k-lines__empty">{T.emptyBasket}</p>
        ) : (
          <ul class="k-lines__list">
            {store.lines.value.map((l) => (
              <li key={l.kind} data-testid={`basket-${l.kind}`}>
                <span>{lineText(l.kind, l.quantity)}</span>
                <strong>{money(l.amountCents)}</strong>
              </li>
            ))}
          </ul>
        )}
        <dl class="k-sum">
          <div class="k-sum__total">
            <dt>{T.total}</dt>
            <dd data-testid="kiosk-total">{money(total)}</dd>
          </div>
          {v && (
            <div>
              <dt>{T.change}</dt>
              <dd data-testid="kiosk-change">
                {v.amountCents - total > 0
                  ? money(v.amountCents - total)
                  : v.amountCents - total === 0
                    ? T.noChange
                    : '—'}
              </dd>
            </div>
          )}
        </dl>
      </div>

      <div class={store.adult.value ? 'k-age k-age--yes' : 'k-age'} data-testid="kiosk-age">
        <div class="k-age__text">
          <strong class="k-age__question">{T.ageQuestion(age)}</strong>
          <span class="k-age__law">{T.ageLaw(age)}</span>
        </div>
        <div class="k-age__answers" role="group">
          <button
            type="button"
            class={store.adult.value ? 'k-answer k-answer--on' : 'k-answer'}
            aria-pressed={store.adult.value === true}
            data-testid="kiosk-age-yes"
            onClick={() => store.answerAge(true)}
          >
            {T.ageYes}
          </button>
          <button type="button" class="k-answer" data-testid="kiosk-age-no" onClick={() => store.answerAge(false)}>
            {T.ageNo}
          </button>
        </div>
      </div>

      <div class="k-buy">
        <p class="k-buy__why" data-testid="kiosk-blocker" aria-live="polite">
          {blocker ? T.blockers[blocker] : '\u00a0'}
        </p>
        <div class="k-buy__row">
          <button type="button" class="btn btn--ghost" data-testid="kiosk-cancel" onClick={() => store.reset()}>
            {T.cancel}
          </button>
          <button
            type="button"
            class="btn btn--primary btn--buy"
            data-testid="kiosk-confirm"
            disabled={blocker !== null}
            onClick={() => void store.buy()}
          >
            {T.buy}
          </button>
        </div>
      </div>
    </aside>
  )
}
