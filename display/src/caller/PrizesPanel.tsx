import { useEffect, useRef, useState } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import { money, prizeKindWord } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import { JefeMark } from './JefeMark.tsx'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/**
 * The game's awarded prizes and their payment, once each (BNG-71). A prize is paid only against its own card's
 * signed code (issue 13 point 6): Pay opens a field the barcode or QR reader types into, and Enter pays. Every
 * card needs its own code, so there is no "pay all".
 */
export function PrizesPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const prizes = store.prizes.value.filter((p) => p.game_id === game.gameId && p.status !== 'void')
  const busy = Boolean(store.busy.value)
  // Issue 14 point 7: paying is offered to a role holding prize.pay, or authorised by a jefe; never to the inspector.
  const how = store.offer('prize.pay')
  const [paying, setPaying] = useState<string | null>(null)
  const [code, setCode] = useState('')
  const field = useRef<HTMLInputElement>(null)
  const chosen = prizes.find((p) => p.id === paying && p.status === 'awarded') ?? null
  useEffect(() => {
    if (chosen) field.current?.focus()
  }, [chosen?.id])

  const choose = (id: string) => {
    setPaying(id)
    setCode('')
    store.clearError()
  }
  const pay = (e: Event) => {
    e.preventDefault()
    if (!chosen) return
    const typed = code.trim()
    // Asked before anything is sent (and before a jefe is asked for her password): no code, no payment.
    if (!typed) {
      store.refuse(t(lang, 'codeNeeded'))
      field.current?.focus()
      return
    }
    // The card's other prizes (its line and its bingo) are paid with it.
    const same = prizes.filter((p) => p.card_id === chosen.card_id && p.status === 'awarded')
    const amount = same.reduce((sum, p) => sum + p.amount_cents, 0)
    store.perform(
      'prize.pay',
      'pay',
      {
        title: t(lang, 'payPrize'),
        body: [`${chosen.serial} · ${money(amount, game.currency, lang)}`],
        confirmLabel: t(lang, 'pay'),
      },
      async (person) => {
        await store.pay(chosen.id, typed, person)
        setPaying(null)
        setCode('')
      },
    )
  }
  const authOn = store.me.value?.authOn !== false
  return (
    <div class="cc-panel cc-prizes" data-testid="prizes">
      <h2>{t(lang, 'prizes')}</h2>
      {how && !authOn && (
        <label class="cc-field cc-field--inline">
          <span>{t(lang, 'paidBy')}</span>
          <input
            type="text"
            value={store.operator.value}
            data-testid="paid-by"
            onInput={(e) => store.setOperator((e.target as HTMLInputElement).value)}
          />
        </label>
      )}
      {prizes.length === 0 ? (
        <p class="cc-muted">{t(lang, 'noPrizes')}</p>
      ) : (
        <table class="cc-table">
          <tbody>
            {prizes.map((p) => (
              <tr
                key={p.id}
                data-testid="prize"
                data-status={p.status}
                data-serial={p.serial}
                class={p.id === chosen?.id ? 'cc-row--chosen' : undefined}
              >
                <td>
                  {p.kind === 'line'
                    ? t(lang, 'claimLine')
                    : p.kind === 'bingo'
                      ? t(lang, 'claimBingo')
                      : prizeKindWord(p.kind, lang)}
                </td>
                <td>
                  <strong>{p.serial}</strong>
                </td>
                <td class="cc-num">{money(p.amount_cents, game.currency, lang)}</td>
                <td>
                  {p.status === 'paid' ? (
                    <span class="cc-tag cc-tag--ok">{t(lang, 'paid')}</span>
                  ) : how ? (
                    <button
                      type="button"
                      class="cc-btn cc-btn--small"
                      data-testid="pay"
                      disabled={busy}
                      onClick={() => choose(p.id)}
                    >
                      {t(lang, 'pay')} <JefeMark how={how} lang={lang} />
                    </button>
                  ) : (
                    <span class="cc-tag">{t(lang, 'awarded')}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {how && chosen && (
        <form class="cc-paycode cc-flow" data-testid="pay-form" data-serial={chosen.serial} onSubmit={pay}>
          <div class="cc-paycode__what">
            {t(lang, 'payPrize')} <strong>{chosen.serial}</strong>
          </div>
          <label class="cc-field">
            <span>{t(lang, 'payCode')}</span>
            <input
              ref={field}
              type="text"
              autocomplete="off"
              spellcheck={false}
              value={code}
              data-testid="pay-code"
              onInput={(e) => setCode((e.target as HTMLInputElement).value)}
            />
          </label>
          <small class="cc-muted">{t(lang, 'payCodeHelp')}</small>
          <div class="cc-row">
            <button type="submit" class="cc-btn cc-btn--primary" data-testid="pay-submit" disabled={busy}>
              {t(lang, 'pay')} <JefeMark how={how} lang={lang} />
            </button>
            <button
              type="button"
              class="cc-btn cc-btn--ghost"
              data-testid="pay-cancel"
              onClick={() => {
                setPaying(null)
                setCode('')
              }}
            >
              {t(lang, 'cancel')}
            </button>
          </div>
        </form>
      )}
    </div>
  )
}
