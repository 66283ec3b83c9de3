import type { GameState } from '../../../server/src/bingo/service.ts'
import { money } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import { JefeMark } from './JefeMark.tsx'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** The game's awarded prizes and their payment, once each (BNG-71); the payer's name goes to the journal. */
export function PrizesPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const prizes = store.prizes.value.filter((p) => p.game_id === game.gameId && p.status !== 'void')
  const due = prizes.filter((p) => p.status === 'awarded')
  const busy = Boolean(store.busy.value)
  // Issue 14 point 7: paying is offered to a role holding prize.pay, or authorised by a jefe; never to the inspector.
  const how = store.offer('prize.pay')
  const pay = (ids: string[]) => {
    const amount = prizes.filter((p) => ids.includes(p.id)).reduce((sum, p) => sum + p.amount_cents, 0)
    store.perform('prize.pay', 'pay', { title: t(lang, ids.length > 1 ? 'payAll' : 'pay'), body: [`${prizes.filter((p) => ids.includes(p.id)).map((p) => p.serial).join(', ')} · ${money(amount, game.currency, lang)}`], confirmLabel: t(lang, 'pay') },
      (person) => ids.length > 1 ? store.payAll(person) : store.pay(ids[0], person))
  }
  return (
    <div class="cc-panel cc-prizes" data-testid="prizes">
      <h2>{t(lang, 'prizes')}</h2>
      {how && (
        <label class="cc-field cc-field--inline">
          <span>{t(lang, 'paidBy')}</span>
          <input type="text" value={store.operator.value} data-testid="paid-by" onInput={(e) => store.setOperator((e.target as HTMLInputElement).value)} />
        </label>
      )}
      {prizes.length === 0 ? <p class="cc-muted">{t(lang, 'noPrizes')}</p> : (
        <table class="cc-table">
          <tbody>
            {prizes.map((p) => (
              <tr key={p.id} data-testid="prize" data-status={p.status} data-serial={p.serial}>
                <td>{p.kind === 'line' ? t(lang, 'claimLine') : t(lang, 'claimBingo')}</td>
                <td><strong>{p.serial}</strong></td>
                <td class="cc-num">{money(p.amount_cents, game.currency, lang)}</td>
                <td>
                  {p.status === 'paid'
                    ? <span class="cc-tag cc-tag--ok">{t(lang, 'paid')}</span>
                    : how
                      ? <button type="button" class="cc-btn cc-btn--small" data-testid="pay" disabled={busy} onClick={() => pay([p.id])}>{t(lang, 'pay')} <JefeMark how={how} lang={lang} /></button>
                      : <span class="cc-tag">{t(lang, 'awarded')}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {how && due.length > 1 && <button type="button" class="cc-btn" data-testid="pay-all" disabled={busy} onClick={() => pay(due.map((p) => p.id))}>{t(lang, 'payAll')} ({due.length}) <JefeMark how={how} lang={lang} /></button>}
    </div>
  )
}
