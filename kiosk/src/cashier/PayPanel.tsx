import { useEffect, useMemo } from 'preact/hooks'
import { formatMoney } from '../../../server/src/shared/money.ts'
import { CameraScanner } from '../shared/CameraScanner.tsx'
import { ConfirmBox } from './ConfirmBox.tsx'
import { lotteryReceiptDoc, receiptDataUrl } from './receipt.ts'
import { StatusBanner } from './StatusBanner.tsx'
import type { CashierStore } from './store.ts'
import { TEXTS } from './texts.ts'
import { prizeName, TicketInfo } from './TicketInfo.tsx'

/** Two words at least: the first and last names the lottery prize registers need (INS-5, LNS-25). */
const FULL_NAME = /\S+\s+\S+/

/**
 * Scan any ticket or a voucher, see what it is and what it is worth, take the payee's name and ID where the prize
 * register needs them, pay once, show the receipt.
 */
export function PayPanel(props: { store: CashierStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const st = store.view.value
  const paid = store.paid.value
  const party = store.paidParty.value
  const v = store.voucher.value
  const money = (c: number, cur: string | null = null) => formatMoney(c, cur || store.currency.value, store.lang.value)
  const payable = st?.payable && !paid ? st : null
  const refunded = store.refunded.value
  /** Issue 29: the card on screen was found by its serial: its state only, nothing paid or refunded from it (BNG-71). */
  const sought = store.sought.value
  // Issue 29 point 1 (BNG-86): an annulled game's card not yet refunded is refunded here, once, in cash.
  const refundable =
    st?.product === 'card' && st.verdict === 'void' && !st.refunded && st.refundCents !== null && !refunded && !sought
      ? st
      : null
  const name = store.payeeName.value.trim()
  const doc = store.payeeDocument.value.trim()
  const idMissing = Boolean(
    payable?.payee.required && (!name || !doc || (payable.payee.fullName && !FULL_NAME.test(name))),
  )
  // INS-10: an instant ticket is paid only against the ticket itself: its inventory code too, not a photo's code.
  const inventoryMissing = Boolean(payable?.inventoryCodeRequired && !store.inventoryCode.value.trim())
  // PRM-2: a tómbola's winner whose own object was taken names one of those left before the hand-over.
  // PRM-2: a points tómbola's holder always names the object their tickets' points reach.
  const pointsTicket = payable && payable.points !== null && payable.points > 0 ? payable : null
  const choiceMissing = Boolean(
    payable &&
    !store.objectCode.value &&
    (pointsTicket ||
      (payable.choices.length > 1 && !payable.prizes.some((p) => payable.choices.some((o) => o.code === p.key)))),
  )
  const more = store.moreTickets.value
  const pointsTotal = pointsTicket ? (pointsTicket.points ?? 0) + more.reduce((s, t) => s + t.points, 0) : 0
  const prizes =
    (paid || st?.verdict === 'winner' || st?.verdict === 'paid' || st?.verdict === 'expired') && st ? st.prizes : []
  const goods = st && (paid || st.verdict === 'winner') ? (paid?.goods ?? st.goods) : []
  const localReceipt = useMemo(
    () =>
      paid && st && party && paid.receipt === 'none'
        ? receiptDataUrl(lotteryReceiptDoc(paid, st, party, store.lang.value))
        : null,
    [paid, st, party, store.lang.value],
  )
  const payLabel = !payable
    ? ''
    : payable.verdict === 'refund'
      ? T.payRefund(money(payable.amountCents ?? 0, payable.currency))
      : payable.amountCents === 0 && (payable.goods.length || pointsTicket)
        ? T.payGoods
        : T.pay(money(payable.amountCents ?? 0, payable.currency))
  return (
    <div class="c-pay">
      <section class="c-scan">
        <h2 class="c-h2">{T.scanTitle}</h2>
        <p class="c-muted">{T.scanHint}</p>
        <form
          class="c-scan__form"
          onSubmit={(e) => {
            e.preventDefault()
            void store.scanned(store.code.value)
          }}
        >
          <input
            class="c-input c-input--code"
            data-testid="cashier-code"
            placeholder={T.codePlaceholder}
            value={store.code.value}
            onInput={(e) => {
              store.code.value = (e.target as HTMLInputElement).value
            }}
            autocomplete="off"
            spellcheck={false}
          />
          <button type="submit" class="c-btn c-btn--primary" data-testid="cashier-check" disabled={store.busy.value}>
            {T.check}
          </button>
        </form>
        <CameraScanner
          onCode={(c) => void store.scanned(c)}
          label={T.camera}
          stopLabel={T.cameraStop}
          failedText={T.cameraFailed}
          class="camera c-camera"
          buttonClass="c-btn c-btn--camera"
        />
        <CardLookup store={store} />
        {st && <TicketInfo store={store} view={st} />}
      </section>
      <section class="c-result">
        <StatusBanner store={store} />
        {sought && st && (
          <div class="c-sought" data-testid="cashier-lookup-found">
            <strong>{T.lookup.found(sought.serial, sought.gameNo)}</strong>
            {(st.verdict === 'winner' || (st.verdict === 'void' && !st.refunded)) && (
              <p data-testid="cashier-lookup-to-pay">{T.lookup.toPay}</p>
            )}
          </div>
        )}
        {store.mismatch.value && (
          <div class="c-error" data-testid="cashier-lookup-mismatch">
            <strong>{T.lookup.mismatch(store.mismatch.value.serial, store.mismatch.value.gameNo)}</strong>
          </div>
        )}
        {/* With no ticket or voucher on screen the banner above is the refusal itself (StatusBanner): said once. */}
        {store.error.value && (st || v) && (
          <div class="c-error" data-testid="cashier-error" data-code={store.error.value.code}>
            {/* Issue 14 point 7: the server's message in the screen's language; its code and English detail stay off screen. */}
            <strong>{store.error.value.message}</strong>
          </div>
        )}
        {(prizes.length > 0 || goods.length > 0) && (
          <ul class="c-prizes" data-testid="cashier-prizes">
            {prizes.map((p) => (
              <li key={p.key}>
                <span>{prizeName(T, p)}</span>
                <strong>{p.amountCents > 0 || !p.goods ? money(p.amountCents, st?.currency) : p.goods}</strong>
              </li>
            ))}
            {prizes.length === 0 &&
              goods.map((g) => (
                <li key={g}>
                  <span>{T.goods}</span>
                  <strong>{g}</strong>
                </li>
              ))}
          </ul>
        )}
        {payable && (
          <form
            class="c-payee"
            onSubmit={(e) => {
              e.preventDefault()
              if (idMissing || choiceMissing || inventoryMissing) return
              // A price refund (a cancelled draw's slip) is said with its consequence first.
              if (payable.verdict === 'refund' && !store.confirming.value) {
                store.confirming.value = true
                return
              }
              store.confirming.value = false
              void store.pay()
            }}
          >
            {payable.inventoryCodeRequired && (
              <label class="c-field c-inventory">
                <span>{T.inventoryCode}</span>
                <input
                  class="c-input c-input--code"
                  data-testid="cashier-inventory-code"
                  value={store.inventoryCode.value}
                  required
                  autocomplete="off"
                  spellcheck={false}
                  placeholder="0000-000000-000-0"
                  onInput={(e) => {
                    store.inventoryCode.value = (e.target as HTMLInputElement).value
                  }}
                  onKeyDown={(e) => {
                    // A wedge scanner ends the code with Enter: that does not pay.
                    if (e.key === 'Enter') e.preventDefault()
                  }}
                />
                <small class="c-muted" data-testid="cashier-inventory-hint">
                  {T.inventoryCodeHint}
                </small>
              </label>
            )}
            <div class="c-payee__head">
              {T.payee}
              {payable.payee.required && (
                <span class="c-tag" data-testid="cashier-id-required">
                  {payable.product === 'card' ? T.payeeRequired : T.payeeAlways}
                </span>
              )}
            </div>
            <label class="c-field">
              <span>{T.payeeName}</span>
              <input
                class="c-input"
                data-testid="cashier-payee-name"
                value={store.payeeName.value}
                required={payable.payee.required}
                autocomplete="off"
                placeholder={payable.payee.fullName ? T.payeeNameHint : ''}
                onInput={(e) => {
                  store.payeeName.value = (e.target as HTMLInputElement).value
                }}
              />
            </label>
            <label class="c-field">
              <span>{T.payeeDocument}</span>
              <input
                class="c-input"
                data-testid="cashier-payee-document"
                value={store.payeeDocument.value}
                required={payable.payee.required}
                autocomplete="off"
                onInput={(e) => {
                  store.payeeDocument.value = (e.target as HTMLInputElement).value
                }}
              />
            </label>
            {payable.product === 'card' && (
              // CFG-22: a progressive pot's winner leaves a contact telephone (the server says when it is required).
              <label class="c-field">
                <span>{T.payeePhone}</span>
                <input
                  class="c-input"
                  data-testid="cashier-payee-phone"
                  type="tel"
                  value={store.payeePhone.value}
                  autocomplete="off"
                  onInput={(e) => {
                    store.payeePhone.value = (e.target as HTMLInputElement).value
                  }}
                />
              </label>
            )}
            {payable.payee.fullName && name && !FULL_NAME.test(name) && (
              <p class="c-hint" data-testid="cashier-payee-hint">
                {T.payeeNameHint}
              </p>
            )}
            {pointsTicket && (
              // PRM-2: the holder presents several tickets whose points add up to the figure of the object taken.
              <fieldset class="c-choices" data-testid="cashier-points">
                <legend>{T.pointsTitle}</legend>
                <p data-testid="cashier-points-first">
                  {T.pointsTicket(pointsTicket.ids.number ?? '', pointsTicket.points ?? 0)}
                </p>
                {more.map((t) => (
                  <p key={t.code} data-testid="cashier-points-more">
                    {t.verdict === 'winner'
                      ? T.pointsTicket(t.number ?? '', t.points)
                      : T.pointsTicketBad(t.number ?? '', t.verdict)}{' '}
                    <button
                      type="button"
                      class="c-btn"
                      onClick={() => {
                        store.dropPointsTicket(t.code)
                      }}
                    >
                      {T.pointsRemove}
                    </button>
                  </p>
                ))}
                <label class="c-field">
                  <span>{T.pointsAdd}</span>
                  <input
                    class="c-input"
                    data-testid="cashier-points-add"
                    value={store.moreCode.value}
                    autocomplete="off"
                    onInput={(e) => {
                      store.moreCode.value = (e.target as HTMLInputElement).value
                    }}
                    onKeyDown={(e) => {
                      if (e.key !== 'Enter') return
                      e.preventDefault()
                      void store.addPointsTicket(store.moreCode.value)
                    }}
                  />
                </label>
                <button
                  type="button"
                  class="c-btn"
                  data-testid="cashier-points-add-button"
                  disabled={store.busy.value || !store.moreCode.value.trim()}
                  onClick={() => {
                    void store.addPointsTicket(store.moreCode.value)
                  }}
                >
                  {T.pointsAddButton}
                </button>
                <p data-testid="cashier-points-total">
                  <strong>{T.pointsTotal(pointsTotal)}</strong>
                </p>
              </fieldset>
            )}
            {payable.choices.length > 0 && (
              // PRM-2: a tómbola's winner takes any object drawn that nobody has taken yet.
              <fieldset class="c-choices" data-testid="cashier-choices">
                <legend>{pointsTicket ? T.pointsChoose : T.chooseObject}</legend>
                {payable.choices.map((o) => {
                  const own = payable.prizes.some((p) => p.key === o.code)
                  const chosen = store.objectCode.value ? store.objectCode.value === o.code : own
                  return (
                    <label key={o.code} class={chosen ? 'c-choice c-choice--on' : 'c-choice'}>
                      <input
                        type="radio"
                        name="object"
                        data-testid={`cashier-choice-${o.code}`}
                        checked={chosen}
                        onChange={() => {
                          store.objectCode.value = o.code
                        }}
                      />
                      <span>
                        {o.name}: {o.description}
                        {o.points !== undefined && ` (${T.pointsFigure(o.points)})`}
                      </span>
                    </label>
                  )
                })}
              </fieldset>
            )}
            {payable.verdict === 'refund' && store.confirming.value ? (
              <ConfirmBox
                title={T.refundConfirmSlipTitle}
                text={T.refundConfirmSlip(money(payable.amountCents ?? 0, payable.currency))}
                yes={T.refundYes(money(payable.amountCents ?? 0, payable.currency))}
                no={T.cancel}
                busy={store.busy.value}
                yesType="submit"
                onNo={() => {
                  store.confirming.value = false
                }}
                testId="cashier-confirm"
              />
            ) : (
              <button
                type="submit"
                class={payable.verdict === 'refund' ? 'c-btn c-btn--pay c-btn--refund' : 'c-btn c-btn--pay'}
                data-testid="cashier-pay"
                disabled={store.busy.value || idMissing || choiceMissing || inventoryMissing}
              >
                {payLabel}
              </button>
            )}
          </form>
        )}
        {refundable &&
          (store.confirming.value ? (
            <ConfirmBox
              title={T.refundConfirmTitle}
              text={T.refundConfirm(
                money(refundable.refundCents ?? 0, refundable.currency),
                refundable.ids.serial ?? '',
                refundable.ids.gameNo ?? '',
              )}
              yes={T.refundYes(money(refundable.refundCents ?? 0, refundable.currency))}
              no={T.cancel}
              busy={store.busy.value}
              onYes={() => void store.refund()}
              onNo={() => {
                store.confirming.value = false
              }}
              testId="cashier-confirm"
            />
          ) : (
            <button
              type="button"
              class="c-btn c-btn--pay c-btn--refund"
              data-testid="cashier-refund"
              disabled={store.busy.value}
              onClick={() => {
                store.confirming.value = true
              }}
            >
              {T.refundCard(money(refundable.refundCents ?? 0, refundable.currency))}
            </button>
          ))}
        {refunded && (
          <div
            class="c-receipt"
            data-testid="cashier-refund-receipt"
            data-receipt={refunded.receipt?.printed ? 'printed' : 'failed'}
          >
            {refunded.receipt && !refunded.receipt.printed && (
              <p class="c-error" data-testid="cashier-receipt-failed">
                {T.receiptFailed}
              </p>
            )}
            <img
              src={refunded.preview ?? ''}
              alt=""
              class="c-receipt__img"
              data-testid="cashier-refund-receipt-preview"
            />
            <div class="c-receipt__actions">
              {!refunded.receipt?.printed && (
                <button type="button" class="c-btn" data-testid="cashier-print" onClick={() => window.print()}>
                  {T.print}
                </button>
              )}
              <button
                type="button"
                class="c-btn c-btn--primary"
                data-testid="cashier-next"
                onClick={() => store.clearScan()}
              >
                {T.next}
              </button>
            </div>
          </div>
        )}
        {st?.product === 'card' && (st.verdict === 'winner' || st.verdict === 'not_winner') && !paid && !sought && (
          <details class="c-tamper" data-testid="cashier-tamper">
            <summary>{T.tamperTitle}</summary>
            <p class="c-muted">{T.tamperHint}</p>
            {(['code_mismatch', 'altered_marks', 'erasable_marks', 'damaged'] as const).map((r) => (
              <button
                key={r}
                type="button"
                class="c-btn c-btn--ghost"
                data-testid={`cashier-tamper-${r}`}
                disabled={store.busy.value}
                onClick={() => void store.markTampered(r)}
              >
                {T.tamperReasons[r]}
              </button>
            ))}
          </details>
        )}
        {paid && (
          <div class="c-receipt" data-testid="cashier-receipt" data-receipt={paid.receipt}>
            {paid.receipt === 'failed' && (
              <p class="c-error" data-testid="cashier-receipt-failed">
                {T.receiptFailed}
              </p>
            )}
            <img
              src={paid.preview ?? localReceipt ?? ''}
              alt=""
              class="c-receipt__img"
              data-testid="cashier-receipt-preview"
            />
            <div class="c-receipt__actions">
              {paid.receipt === 'none' && (
                <p class="c-receipt__note" data-testid="cashier-receipt-local">
                  {T.receiptLocal}
                </p>
              )}
              {paid.reprint && (
                <button type="button" class="c-btn" data-testid="cashier-reprint" onClick={() => void store.reprint()}>
                  {T.reprint}
                </button>
              )}
              {!paid.reprint && paid.receipt !== 'printed' && (
                <button type="button" class="c-btn" data-testid="cashier-print" onClick={() => window.print()}>
                  {T.print}
                </button>
              )}
              <button
                type="button"
                class="c-btn c-btn--primary"
                data-testid="cashier-next"
                onClick={() => store.clearScan()}
              >
                {T.next}
              </button>
            </div>
          </div>
        )}
        {v && v.status === 'active' && store.cashedOut.value === null && (
          <button
            type="button"
            class="c-btn c-btn--pay"
            data-testid="cashier-cashout"
            disabled={store.busy.value}
            onClick={() => void store.cashOut()}
          >
            {T.cashOut(money(v.amountCents, v.currency))}
          </button>
        )}
        {(st || v || store.error.value) && !paid && !refunded && (
          <button
            type="button"
            class="c-btn c-btn--ghost"
            data-testid="cashier-clear"
            onClick={() => store.clearScan()}
          >
            {T.next}
          </button>
        )}
      </section>
    </div>
  )
}

/**
 * Issue 29: the card a player names by its serial, found within the game chosen (the hall's games that sold cards,
 * newest first); its state is shown, and to pay or refund it the cashier then scans its QR or types the code printed
 * under it.
 */
function CardLookup(props: { store: CashierStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value].lookup
  const games = store.lookupGames.value
  const chosen = games?.find((g) => g.gameId === store.lookupGameId.value) ?? games?.[0] ?? null
  useEffect(() => {
    if (games === null) void store.loadLookupGames()
  }, [])
  return (
    <form
      class="c-lookup"
      data-testid="cashier-lookup"
      onSubmit={(e) => {
        e.preventDefault()
        void store.lookup()
      }}
    >
      <h3 class="c-lookup__title">{T.title}</h3>
      <p class="c-muted">{T.hint}</p>
      {games === null ? (
        <p class="c-muted">{T.loading}</p>
      ) : games.length === 0 ? (
        <p class="c-muted" data-testid="cashier-lookup-none">
          {T.noGames}
        </p>
      ) : (
        <div class="c-lookup__row">
          <label class="c-field c-lookup__game">
            <span>{T.game}</span>
            <select
              class="c-input"
              data-testid="cashier-lookup-game"
              value={store.lookupGameId.value}
              onChange={(e) => {
                store.lookupGameId.value = (e.target as HTMLSelectElement).value
              }}
            >
              {games.map((g) => (
                <option key={g.gameId} value={g.gameId}>
                  {g.hostHallName
                    ? T.optionShared(g.gameNo, g.hostHallName, T.gameStatus[g.status] ?? g.status)
                    : T.option(g.gameNo, g.sessionNo, T.gameStatus[g.status] ?? g.status)}
                </option>
              ))}
            </select>
          </label>
          {chosen?.hostHallName && (
            // A native select cannot wrap: the interconnected game's long name is said in full under it.
            <p class="c-lookup__chosen" data-testid="cashier-lookup-game-full">
              {T.chosenShared(chosen.gameNo, chosen.hostHallName, T.gameStatus[chosen.status] ?? chosen.status)}
            </p>
          )}
          <label class="c-field c-lookup__serial">
            <span>{T.serial}</span>
            <input
              class="c-input"
              data-testid="cashier-lookup-serial"
              placeholder={T.serialPlaceholder}
              value={store.lookupSerial.value}
              autocomplete="off"
              spellcheck={false}
              onInput={(e) => {
                store.lookupSerial.value = (e.target as HTMLInputElement).value
              }}
            />
          </label>
          <button
            type="submit"
            class="c-btn c-btn--primary c-lookup__go"
            data-testid="cashier-lookup-find"
            disabled={store.busy.value || !store.lookupSerial.value.trim()}
          >
            {T.find}
          </button>
        </div>
      )}
    </form>
  )
}
