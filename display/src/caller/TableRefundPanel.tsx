import { useEffect, useState } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import { formatStamp } from '../../../printer/src/ticket-layout.ts'
import { money } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'
import { tillState } from './till.ts'

/** The card id a signed card code carries (`BLL1.C.<id>.<signature>`), to name the card before it is refunded. */
function cardIdOf(code: string): string | null {
  const m = /^BLL1\.C\.([A-Za-z0-9_-]+)\./.exec(code.trim())
  return m ? m[1] : null
}

/**
 * Issue 29 point 1 (BNG-80 to BNG-83, BNG-86): after an annulment, the table's till lists the cards of the annulled
 * game it sold and refunds each one as the player hands it back: the card's code is scanned, the console says the
 * cash to hand out and asks once, and the refund goes through the cash desk's one refund, out of this table shift.
 */
export function TableRefundPanel({ store, game, lang }: { store: CallerStore; game: GameState | null; lang: Lang }) {
  const [code, setCode] = useState('')
  const open = tillState(store.me.value, store.till.value) === 'open' && store.can('ticket.refund')
  const voidGame = game?.status === 'void' ? game : null
  useEffect(() => {
    if (open && voidGame) void store.loadTableRefunds({ gameId: voidGame.gameId, gameNo: voidGame.orderNo })
  }, [open, voidGame?.gameId])
  const list = store.tableRefunds.value
  const target = store.refundGame.value
  if (!open || !target || !list || list.gameId !== target.gameId) return null
  const m = (cents: number) => money(cents, list.currency, lang)
  const last = store.lastRefund.value
  const submit = (e: Event) => {
    e.preventDefault()
    const typed = code.trim()
    if (!typed) return
    const id = cardIdOf(typed)
    const card = list.cards.find((c) => c.cardId === id)
    const amount = m(card?.amountCents ?? list.faceValueCents)
    store.ask({
      title: t(lang, 'refundsConfirmTitle').replace('{serial}', card?.serial ?? t(lang, 'refundsThisCard')),
      body: [t(lang, 'refundsConfirm').replace('{amount}', amount), t(lang, 'refundsConsequence')],
      confirmLabel: t(lang, 'refundsConfirmLabel').replace('{amount}', amount),
      run: async () => {
        await store.refundTableCard(typed)
        setCode('')
      },
    })
  }
  return (
    <div class="cc-panel cc-flow cc-refunds" data-testid="table-refunds">
      <h2>{t(lang, 'refundsTitle').replace('{n}', String(list.gameNo))}</h2>
      {list.cards.length === 0 ? (
        <p class="cc-muted" data-testid="table-refunds-none">
          {t(lang, 'refundsNone')}
        </p>
      ) : (
        <>
          <dl class="cc-refunds__sum">
            <div>
              <dt>{t(lang, 'refundsSold')}</dt>
              <dd data-testid="table-refunds-sold">{list.sold}</dd>
            </div>
            <div>
              <dt>{t(lang, 'refundsDone')}</dt>
              <dd data-testid="table-refunds-done">
                {list.refunded} · {m(list.refundedCents)}
              </dd>
            </div>
            <div class="cc-refunds__due">
              <dt>{t(lang, 'refundsToHandOut')}</dt>
              <dd data-testid="table-refunds-due">{m(list.toHandOutCents)}</dd>
            </div>
          </dl>
          {last && last.gameId === list.gameId && (
            <div class="cc-refunds__last" role="status" data-testid="table-refund-last">
              <strong data-testid="table-refund-handout">
                {t(lang, 'refundsHandOut').replace('{amount}', m(last.amountCents)).replace('{serial}', last.serial)}
              </strong>
              {last.preview && (
                <details>
                  <summary>{t(lang, 'refundsPrint')}</summary>
                  <img src={last.preview} alt="" class="cc-refunds__receipt" data-testid="table-refund-receipt" />
                </details>
              )}
            </div>
          )}
          {list.toHandOutCents > 0 && (
            <form class="cc-row" onSubmit={submit}>
              <label class="cc-field cc-field--grow">
                <span>{t(lang, 'refundsCode')}</span>
                <input
                  type="text"
                  autocomplete="off"
                  spellcheck={false}
                  value={code}
                  data-testid="table-refund-code"
                  onInput={(e) => setCode((e.target as HTMLInputElement).value)}
                />
              </label>
              <button
                type="submit"
                class="cc-btn cc-btn--primary"
                data-testid="table-refund-go"
                disabled={Boolean(store.busy.value) || !code.trim()}
              >
                {t(lang, 'refundsGo')}
              </button>
            </form>
          )}
          <p class="cc-muted">{t(lang, 'refundsHint')}</p>
          <table class="cc-table cc-refunds__cards" data-testid="table-refunds-cards">
            <tbody>
              {list.cards.map((c) => (
                <tr
                  key={c.serial}
                  data-testid="table-refund-row"
                  data-serial={c.serial}
                  data-refunded={c.refund ? 'yes' : 'no'}
                >
                  <td class="cc-mono">{c.serial}</td>
                  <td class="cc-num">{m(c.amountCents)}</td>
                  <td>
                    {c.refund
                      ? `${t(lang, 'refundsDone')} ${formatStamp(c.refund.at, list.timeZone)} · ${c.refund.station}${c.refund.by ? ` · ${c.refund.by}` : ''}`
                      : t(lang, 'refundsPending')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <small class="cc-muted">
            {t(lang, 'refundsHallTime')}: {list.timeZone}
          </small>
        </>
      )}
    </div>
  )
}
