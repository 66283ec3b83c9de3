import { useEffect, useState } from 'preact/hooks'
import QRCode from 'qrcode'
import { formatMoney } from '../../../server/src/shared/money.ts'
import { ScratchCard } from './ScratchCard.tsx'
import type { InstantStore } from './store.ts'
import { TEXTS } from './texts.ts'

function TicketQr(props: { payload: string }) {
  const [svg, setSvg] = useState('')
  useEffect(() => { void QRCode.toString(props.payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }).then(setSvg) }, [props.payload])
  return <div class="i-qr" data-testid="instant-qr" dangerouslySetInnerHTML={{ __html: svg }} />
}

export function App({ store }: { store: InstantStore }) {
  const T = TEXTS[store.lang.value]
  const game = store.game.value
  const sale = store.sale.value
  const money = (c: number, currency = game?.currency ?? sale?.currency ?? 'BOB') => formatMoney(c, currency, store.lang.value)
  const [auto, setAuto] = useState(false)
  useEffect(() => { setAuto(false) }, [sale?.serial])

  return (
    <div class="instant">
      <header class="i-header">
        <span class="i-header__title">{T.title}</span>
        <span class="i-header__game">{game ? `${game.name} · N.º ${String(game.gameNo).padStart(4, '0')}` : ''}</span>
      </header>
      <main class="i-main">
        {store.screen.value === 'home' && (
          game ? (
            <section class="i-home" data-testid="instant-home">
              <h1 class="i-home__name">{game.name}</h1>
              <div class="i-price"><span>{T.price}</span><strong data-testid="instant-price">{money(game.priceCents)}</strong></div>
              <h2 class="i-sub">{T.prizes}</h2>
              <ul class="i-tiers">
                {game.tiers.map((t) => <li key={t.tier}><strong>{money(t.amountCents)}</strong><span>{T.oneIn(Math.round(game.ticketCount / t.count).toLocaleString(store.lang.value))}</span></li>)}
              </ul>
              <p class="i-hint">{game.playStyle === 'match-three' ? T.matchHint : T.beatHint}</p>
              <button class="i-btn i-btn--primary" data-testid="instant-buy" disabled={store.busy.value} onClick={() => void store.buy()}>{T.buy}</button>
            </section>
          ) : <p class="i-hint" data-testid="instant-none">{T.noGame}</p>
        )}
        {store.screen.value === 'scratch' && sale && (
          <section class="i-play" data-testid="instant-play">
            <p class="i-hint">{T.scratchHint}</p>
            <ScratchCard label="RASPE AQUÍ" autoScratch={auto} onReveal={store.reveal} testId="instant-card">
              {sale.face.style === 'match-three' ? (
                <div class="i-grid">
                  {sale.face.cells.map((s, i) => {
                    const amount = sale.symbolAmountsCents[s]
                    const win = store.revealed.value && sale.prizeCents > 0 && amount === sale.prizeCents
                    return <div key={i} class={`i-cell${win ? ' i-cell--win' : ''}`} data-testid="instant-cell">{money(amount)}</div>
                  })}
                </div>
              ) : (
                <table class="i-rows">
                  <thead><tr><th>{T.you}</th><th>{T.them}</th><th>{T.prize}</th></tr></thead>
                  <tbody>
                    {sale.face.rows.map((r, i) => <tr key={i} class={store.revealed.value && r.yours > r.theirs ? 'i-row--win' : ''}><td>{r.yours}</td><td>{r.theirs}</td><td>{money(sale.symbolAmountsCents[r.symbol])}</td></tr>)}
                  </tbody>
                </table>
              )}
            </ScratchCard>
            {!store.revealed.value && <button class="i-btn i-btn--secondary" data-testid="instant-scratch-all" onClick={() => setAuto(true)}>{T.scratchAll}</button>}
            {store.revealed.value && (
              <>
                <div class={`i-result ${sale.prizeCents > 0 ? 'i-result--win' : ''}`} data-testid="instant-result">{sale.prizeCents > 0 ? T.won(money(sale.prizeCents)) : T.lost}</div>
                <div class="i-ticket" data-testid="instant-ticket">
                  <TicketQr payload={sale.qr} />
                  <div class="i-ticket__text">
                    <strong>{T.ticket}</strong>
                    <span>{T.serial} {sale.serial}</span>
                    <span class="i-mono">{T.code} {sale.validationCode.replace(/(.{4})(?=.)/g, '$1-')}</span>
                    <span>{sale.receipt.printed ? T.printed : T.notPrinted}</span>
                  </div>
                </div>
                <button class="i-btn i-btn--primary" data-testid="instant-again" onClick={store.home}>{T.again}</button>
              </>
            )}
          </section>
        )}
        {store.screen.value === 'problem' && store.problem.value && (
          <section class="i-problem" data-testid="instant-problem" data-code={store.problem.value.code}>
            <h2>{T.problem}</h2>
            <p class="i-problem__message">{store.problem.value.code === 'RULE_DISABLED' ? T.ruleDisabled : store.problem.value.message}</p>
            {store.problem.value.detail && <p class="i-problem__detail">{store.problem.value.detail}</p>}
            <button class="i-btn i-btn--secondary" data-testid="instant-back" onClick={store.home}>{T.back}</button>
          </section>
        )}
      </main>
    </div>
  )
}
