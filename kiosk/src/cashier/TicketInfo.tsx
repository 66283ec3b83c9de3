import { CardGrid } from '../../../web/CardGrid.tsx'
import { formatMoney } from '../../../server/src/shared/money.ts'
import type { PrizeRow, ScanView } from './answer.ts'
import type { CashierStore } from './store.ts'
import { TEXTS } from './texts.ts'

const NONE: ReadonlySet<number> = new Set()
type Texts = (typeof TEXTS)['es']

/**
 * What the scanned ticket is and the data that identify it, for the cashier to compare with the paper: the bingo
 * card's game, serial and grid; the instant game, ticket number and prize category; the lotto game, draws, receipt
 * number and categories won; the lottery's draw, number, series and fraction (never the ticket's internal id).
 */
export function TicketInfo(props: { store: CashierStore; view: ScanView }) {
  const { store, view } = props
  const T = TEXTS[store.lang.value]
  const money = (c: number) => formatMoney(c, view.currency || store.currency.value, store.lang.value)
  const ids = view.ids
  const facts: Array<{ key: string; label: string; value: string; big?: boolean }> = []
  const add = (key: string, label: string, value: string | number | undefined | null, big = false) => {
    if (value !== undefined && value !== null && value !== '') facts.push({ key, label, value: String(value), big })
  }
  const categories = [...new Set(view.prizes.map((p) => prizeName(T, p, false)))].join(' · ')
  switch (view.product) {
    case 'card':
      // BNG-100: the hall the card was sold in; an interconnected game's host is named apart.
      add('hall', T.facts.hall, ids.hallName)
      add('host', T.facts.hostGame, ids.hostHallName)
      add('game', T.facts.gameNo, ids.gameNo)
      add('serial', T.facts.card, ids.serial, true)
      break
    case 'instant':
      add(
        'game',
        T.facts.instantGame,
        ids.gameNo === undefined ? null : `${String(ids.gameNo).padStart(4, '0')} · ${ids.gameName ?? ''}`,
      )
      add('serial', T.facts.serial, ids.serial, true)
      add(
        'category',
        T.facts.category,
        ids.tier === undefined
          ? null
          : ids.tier > 0
            ? `${T.tier(ids.tier)} · ${money(view.prizes[0]?.amountCents ?? 0)}`
            : T.noTier,
      )
      add('price', T.facts.price, ids.priceCents === undefined ? null : money(ids.priceCents))
      break
    case 'lotto':
      add('game', T.facts.game, ids.gameName ? `${ids.gameName} (${ids.gameCode ?? ''})` : ids.gameCode)
      add('draw', T.facts.draw, ids.drawNumbers?.join(', '))
      add('serial', T.facts.receipt, ids.receipt, true)
      add('category', T.facts.category, categories)
      break
    case 'lottery':
    case 'raffle':
      add('game', T.facts.game, ids.gameName)
      add('draw', T.facts.draw, ids.drawNumbers?.join(', '))
      add('number', T.facts.number, ids.number, true)
      if (view.product === 'lottery' && ids.series !== undefined)
        add('series', `${T.facts.series} / ${T.facts.fraction}`, `${ids.series} / ${ids.fraction ?? '-'}`)
      // No internal id on a screen: the fraction carries no printed reference but its number, series and fraction.
      add('category', T.facts.prize, categories)
      break
    default:
      break
  }
  if (!view.product || (view.verdict === 'invalid' && facts.length === 0)) return null
  return (
    <div class="c-ticket" data-testid="cashier-ticket" data-kind={view.product}>
      <div class="c-ticket__kind" data-testid="cashier-ticket-kind">
        {T.products[view.product]}
      </div>
      <dl class="c-facts">
        {facts.map((f) => (
          <div
            key={f.key}
            class={f.big ? 'c-fact c-fact--big' : 'c-fact'}
            data-testid={f.key === 'serial' ? 'cashier-serial' : `cashier-fact-${f.key}`}
          >
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      {view.product === 'card' && ids.rows && ids.rows.length > 0 && (
        <div class="c-cardinfo" data-testid="cashier-card">
          {/* The card in its own layout as the server read it (5 x 5 for 75 balls), never redrawn for 90. */}
          {ids.grid ? (
            <CardGrid rows={ids.rows} grid={ids.grid} called={NONE} testId="cashier-card-grid" />
          ) : (
            <CardGrid rows={ids.rows} ballCount={90} called={NONE} testId="cashier-card-grid" />
          )}
        </div>
      )}
    </div>
  )
}

/** A prize line's words: "Línea", "Categoría 2", "Sorteo 101 · jugada 2 — Oro Mágico (4 aciertos)", "Primer Premio". */
export function prizeName(T: Texts, p: PrizeRow, withBoard = true): string {
  switch (p.label.t) {
    case 'bingo':
      return T.kinds[p.label.kind] ?? p.label.kind
    case 'tier':
      return T.tier(p.label.tier)
    case 'category': {
      const cat = T.category(p.label.name, p.label.matches)
      return withBoard ? `${T.drawBoard(p.label.drawNumber, p.label.board)} — ${cat}` : cat
    }
    case 'named':
      return p.label.name
    default: {
      const _never: never = p.label
      return _never
    }
  }
}
