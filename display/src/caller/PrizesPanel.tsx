import type { GameState } from '../../../server/src/bingo/service.ts'
import { money } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** The game's awarded prizes and their payment, once each (BNG-71); the payer's name goes to the journal. */
export function PrizesPanel({ store, game, lang }: { store: CallerStore; game: GameState; lang: Lang }) {
  const prizes = store.prizes.value.filter((p) => p.game_id === game.gameId && p.status !== 'void')
  const due = prizes.filter((p) => p.status === 'awarded')
  const busy = Boolean(store.busy.value)
  return (
    <div class="cc-panel cc-prizes" data-testid="prizes">
      <h2>{t(lang, 'prizes')}</h2>
      <label class="cc-field cc-field--inline">
        <span>{t(lang, 'paidBy')}</span>
        <input type="text" value={store.operator.value} data-testid="paid-by" onInput={(e) => store.setOperator((e.target as HTMLInputElement).value)} />
      </label>
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
                    : <button type="button" class="cc-btn cc-btn--small" data-testid="pay" disabled={busy} onClick={() => void store.pay(p.id)}>{t(lang, 'pay')}</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {due.length > 1 && <button type="button" class="cc-btn" data-testid="pay-all" disabled={busy} onClick={() => void store.payAll()}>{t(lang, 'payAll')} ({due.length})</button>}
    </div>
  )
}
