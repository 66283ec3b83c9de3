import { useEffect, useState } from 'preact/hooks'
import QRCode from 'qrcode'
import { formatMoney } from '../../../server/src/shared/money.ts'
import { planTime } from './slip.ts'
import type { LottoStore } from './store.ts'
import { TEXTS } from './texts.ts'

const two = (n: number) => String(n).padStart(2, '0')

function ReceiptQr(props: { payload: string }) {
  const [svg, setSvg] = useState('')
  useEffect(() => { void QRCode.toString(props.payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 }).then(setSvg) }, [props.payload])
  return <div class="l-qr" data-testid="lotto-qr" dangerouslySetInnerHTML={{ __html: svg }} />
}

function prizeText(p: { type: string; bp?: number; amountCents?: number; description?: string }, currency: string, lang: 'es' | 'en'): string {
  if (p.type === 'share') return `${((p.bp ?? 0) / 100).toFixed(0)} % ${lang === 'en' ? 'of the pool' : 'del fondo'}`
  if (p.type === 'fixed') return formatMoney(p.amountCents ?? 0, currency, lang)
  return p.description ?? ''
}

export function App({ store }: { store: LottoStore }) {
  const lang = store.lang.value
  const T = TEXTS[lang]
  const d = store.draw.value
  const r = store.receipt.value
  const rules = store.rules.value
  const money = (c: number) => formatMoney(c, d?.plan.currency ?? 'BOB', lang)

  if (!store.loaded.value) return <div class="lotto" />
  if (!d || !rules) return <div class="lotto"><p class="l-problem" data-testid="lotto-no-draw">{store.error.value?.message ?? T.noDraw}</p></div>

  return (
    <div class="lotto">
      <header class="l-header">
        <span class="l-header__title">{d.plan.name}</span>
        <span>{T.draw(d.plan.drawNumber)} · {planTime(d.plan.drawAt)}</span>
      </header>
      {r ? (
        <main class="l-main" data-testid="lotto-receipt">
          <section class="l-receipt">
            <div class="l-receipt__text">
              <strong>{r.operator}</strong>
              <span>{T.receipt} {T.receiptNo} <span class="l-mono" data-testid="lotto-receipt-number">{r.receiptNumber}</span></span>
              <span>{r.gameName} · {T.draw(r.drawNumber)} · {r.issue}</span>
              <span>{T.drawDate}: {planTime(r.drawAt)}</span>
              <span>{T.validFor}: {r.draws.map((x) => `N.º ${x.drawNumber} (${planTime(x.drawAt)})`).join(', ')}</span>
              <span>{r.player.name} · {r.player.document}</span>
              <ol class="l-receipt__boards">{r.boards.map((b, i) => <li key={i} class="l-mono">{b.numbers.map(two).join(' ')}{b.quickPick ? ` (${T.quick})` : ''}</li>)}</ol>
              <span>{T.soldAt}: {new Date(r.soldAt).toLocaleString(lang)}</span>
              <strong data-testid="lotto-receipt-amount">{money(r.amountCents)}</strong>
              <small>{r.legend}</small>
            </div>
            <ReceiptQr payload={r.code} />
          </section>
          <button class="l-btn l-btn--primary" data-testid="lotto-again" onClick={() => store.again()}>{T.again}</button>
        </main>
      ) : (
        <main class="l-main">
          <p class="l-hint">{T.choose(rules.picks, rules.range)} · {T.price}: <strong>{money(rules.priceCents)}</strong></p>
          <div class="l-grid" style={{ gridTemplateColumns: `repeat(${Math.min(10, Math.ceil(Math.sqrt(rules.range)) + 1)}, 1fr)` }} data-testid="lotto-grid">
            {Array.from({ length: rules.range }, (_, i) => i + 1).map((n) => (
              <button key={n} class={`l-cell${store.pending.value.includes(n) ? ' l-cell--on' : ''}`} data-testid={`lotto-n-${n}`} onClick={() => store.toggle(n)}>{two(n)}</button>
            ))}
          </div>
          <div class="l-row">
            <button class="l-btn l-btn--secondary" data-testid="lotto-clear" onClick={() => store.clear()}>{T.clear}</button>
            <button class="l-btn l-btn--secondary" data-testid="lotto-quick" onClick={() => store.quick()}>{T.quick}</button>
          </div>
          <section class="l-panel">
            <h2>{T.boards} ({store.boards.value.length}/{rules.maxBoardsPerSlip})</h2>
            <ol class="l-boards" data-testid="lotto-boards">
              {store.boards.value.map((b, i) => (
                <li key={i}><span class="l-mono">{b.kind === 'chosen' ? b.numbers.map(two).join(' ') : T.quickBoard}</span><button class="l-link" data-testid={`lotto-remove-${i}`} onClick={() => store.removeBoard(i)}>{T.remove}</button></li>
              ))}
              {store.pending.value.length > 0 && <li class="l-pending"><span class="l-mono">{store.pending.value.map(two).join(' ')}</span></li>}
            </ol>
          </section>
          {rules.maxDrawsPerSlip > 1 && (
            <section class="l-panel l-row">
              <span>{T.draws}</span>
              {Array.from({ length: rules.maxDrawsPerSlip }, (_, i) => i + 1).map((n) => (
                <button key={n} class={`l-chip${store.draws.value === n ? ' l-chip--on' : ''}`} data-testid={`lotto-draws-${n}`} onClick={() => store.setDraws(n)}>{n}</button>
              ))}
            </section>
          )}
          <section class="l-panel">
            <h2>{T.player}</h2>
            <input class="l-input" data-testid="lotto-name" placeholder={T.name} value={store.player.value.name} onInput={(e) => { store.player.value = { ...store.player.value, name: (e.target as HTMLInputElement).value } }} />
            <input class="l-input" data-testid="lotto-document" placeholder={T.document} value={store.player.value.document} onInput={(e) => { store.player.value = { ...store.player.value, document: (e.target as HTMLInputElement).value } }} />
          </section>
          <section class="l-panel">
            <h2>{T.categories}</h2>
            <ul class="l-cats">{d.plan.categories.map((c) => <li key={c.code}><strong>{c.name}</strong> · {c.matches} · {prizeText(c.prize, d.plan.currency, lang)}</li>)}</ul>
            <small>{T.regulation}: {d.plan.regulationUrl}</small>
          </section>
          {store.error.value && <p class="l-problem" data-testid="lotto-error">{store.error.value.message} {store.error.value.detail ?? ''}</p>}
          <p class="l-hint">{T.check}</p>
          <div class="l-buy">
            <span>{T.total}: <strong data-testid="lotto-total">{money(store.total.value)}</strong></span>
            <button class="l-btn l-btn--primary" data-testid="lotto-buy" disabled={store.blocker.value !== null || store.busy.value} onClick={() => void store.buy()}>{T.buy}</button>
          </div>
          {store.blocker.value && <p class="l-hint" data-testid="lotto-missing">{T.missing[store.blocker.value]}</p>}
        </main>
      )}
    </div>
  )
}
