import { useState } from 'preact/hooks'
import { money } from '../../../web/format.ts'
import type { HeldCard, TerminalStore } from './store.ts'
import { TEXTS, type Texts } from './texts.ts'

/** Issue 27: the hall terminal's one screen: start by voucher, balance always on screen, buy, play, claim, end. */
export function App({ store }: { store: TerminalStore }) {
  const t = TEXTS[store.lang.value]
  const v = store.view.value
  const open = v?.session?.status === 'open' ? v.session : null
  const currency = v?.session?.currency ?? store.feed.state.value?.currency ?? 'EUR'
  return (
    <div class="t-root">
      <header class="t-header">
        <div class="t-title">
          <strong>{t.title}</strong>
          <span data-testid="hall-name">{store.hallName.value}</span>
        </div>
        <div class="t-balance" data-testid="balance">
          <span>{t.balance}</span>
          <strong>{money(open?.balanceCents ?? 0, currency, store.lang.value)}</strong>
        </div>
        <button class="t-lang" onClick={() => (store.lang.value = store.lang.value === 'es' ? 'en' : 'es')}>
          {t.language}
        </button>
      </header>
      {store.feed.connection.value === 'offline' && <div class="t-banner t-banner--warn">{t.offline}</div>}
      {store.message.value && (
        <div
          class={`t-banner ${store.message.value.kind === 'ok' ? 't-banner--ok' : 't-banner--error'}`}
          data-testid="message"
          role="status"
        >
          {store.message.value.text}
        </div>
      )}
      {open ? (
        <Play store={store} t={t} currency={currency} />
      ) : store.ended.value ? (
        <Ended store={store} t={t} currency={currency} />
      ) : (
        <Start store={store} t={t} />
      )}
    </div>
  )
}

function Start({ store, t }: { store: TerminalStore; t: Texts }) {
  const [code, setCode] = useState('')
  // GEN-23: asked on every start; the server refuses the session without it (AGE_NOT_CONFIRMED).
  const [adult, setAdult] = useState(false)
  return (
    <main class="t-start">
      <h1>{t.startTitle}</h1>
      <p>{t.startHint}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (code.trim() && adult) void store.start(code, adult, t.voucherRefused)
        }}
      >
        <label>
          {t.voucherLabel}
          <input
            data-testid="voucher"
            autoFocus
            value={code}
            onInput={(e) => setCode((e.target as HTMLInputElement).value)}
            autoComplete="off"
            spellcheck={false}
          />
        </label>
        <label class="t-age">
          <input
            type="checkbox"
            data-testid="age-confirm"
            checked={adult}
            onChange={(e) => setAdult((e.target as HTMLInputElement).checked)}
          />
          {t.ageConfirm}
        </label>
        <button
          class="t-primary"
          type="submit"
          disabled={store.busy.value || !code.trim() || !adult}
          data-testid="start"
        >
          {t.start}
        </button>
      </form>
    </main>
  )
}

function Ended({ store, t, currency }: { store: TerminalStore; t: Texts; currency: string }) {
  const e = store.ended.value!
  return (
    <main class="t-start" data-testid="ended">
      <h1>{t.endTitle}</h1>
      {e.change ? (
        <>
          <p>{t.endChange}</p>
          <div class="t-change" data-testid="change">
            <strong>{money(e.change.amountCents, currency, store.lang.value)}</strong>
            {/* The voucher's code is its bearer secret: it is on the paper only, never left on a seat's screen. */}
          </div>
          <p>{e.print?.printed ? t.printed : t.printPending}</p>
        </>
      ) : (
        <p>{t.endNothing}</p>
      )}
      <button class="t-primary" onClick={() => (store.ended.value = null)}>
        {t.again}
      </button>
    </main>
  )
}

function Play({ store, t, currency }: { store: TerminalStore; t: Texts; currency: string }) {
  const v = store.view.value!
  const s = v.session!
  const g = store.game.value
  const lang = store.lang.value
  const [count, setCount] = useState(1)
  const terms = v.terms && 'terms' in v.terms ? v.terms.terms : undefined
  // BNG-100: the hall's own game and an interconnected one may be on sale at once; the player chooses, each named.
  const onSale = v.games.filter((x) => x.onSale)
  const [picked, setPicked] = useState<string | null>(null)
  const target = onSale.find((x) => x.gameId === picked) ?? onSale.find((x) => x.gameId === g?.gameId) ?? onSale[0]
  const gameName = (x: (typeof onSale)[number]) =>
    x.kind === 'interconnected'
      ? `${t.interconnected} · ${x.hallCount} ${t.halls} · nº ${x.orderNo}`
      : `${t.hallGame} · ${s.hallName} · nº ${x.orderNo}`
  const maxByBalance = target ? Math.floor(s.balanceCents / target.faceValueCents) : 0
  // The panel names the game the purchase is for while no ball of the shown game is drawn (the player's choice,
  // BNG-100); once the shown game is in play it stays on that game and its balls.
  const beforePlay = !g || ['on_sale', 'announced', 'finished', 'void'].includes(g.status)
  const chosen = target && beforePlay && target.gameId !== g?.gameId ? target : null
  const panelStatus = chosen ? chosen.status : g?.status
  const statusText = !panelStatus
    ? t.noGame
    : panelStatus === 'on_sale'
      ? t.onSale
      : panelStatus === 'announced'
        ? t.announced
        : panelStatus === 'finished' || panelStatus === 'void'
          ? t.finished
          : t.inPlay
  const balls = chosen ? [] : (g?.balls ?? [])
  const panelEntry = v.games.find((x) => x.gameId === (chosen?.gameId ?? g?.gameId))
  // BNG-100: a game played with other halls (one draw, one pool) says so, and with how many halls.
  const feedState = store.feed.state.value
  const hallCount = chosen
    ? chosen.hallCount
    : g && feedState?.gameId === g.gameId
      ? (feedState.halls?.length ?? panelEntry?.hallCount ?? 1)
      : (panelEntry?.hallCount ?? 1)
  const orderNo = chosen?.orderNo ?? g?.orderNo
  return (
    <main class="t-play">
      <section class="t-side">
        <div class="t-game" data-testid="game">
          <div class="t-game__head">
            <span data-testid="game-no">
              {t.game} {orderNo !== undefined ? `nº ${orderNo}` : ''}
            </span>
            <span class="t-status" data-testid="status">
              {statusText}
            </span>
          </div>
          {hallCount > 1 ? (
            <p class="t-interconnected" data-testid="interconnected">
              {t.interconnected} · {hallCount} {t.halls}
            </p>
          ) : panelEntry ? (
            <p class="t-interconnected" data-testid="hall-game">
              {t.hallGame} · {s.hallName}
            </p>
          ) : null}
          <div class="t-ball" data-testid="last-ball">
            <span>{t.lastBall}</span>
            <strong>{balls.at(-1) ?? '–'}</strong>
            <small>
              {t.balls}: {balls.length}
            </small>
          </div>
          {balls.length > 0 && (
            <div class="t-recent">
              {balls
                .slice(-8, -1)
                .reverse()
                .map((b) => (
                  <span key={b}>{b}</span>
                ))}
            </div>
          )}
        </div>
        <div class="t-money">
          <div>
            <span>{t.spent}</span>
            <strong>{money(s.spentCents, currency, lang)}</strong>
          </div>
          <div>
            <span>{t.won}</span>
            <strong data-testid="won">{money(s.wonCents, currency, lang)}</strong>
          </div>
        </div>
        {target ? (
          <div class="t-buy">
            <h2>{onSale.length > 1 ? t.chooseGame : t.buyTitle}</h2>
            {onSale.length > 1 && (
              <div class="t-choose" role="radiogroup" data-testid="choose-game">
                {onSale.map((x) => (
                  <button
                    key={x.gameId}
                    role="radio"
                    aria-checked={x.gameId === target.gameId}
                    class={x.gameId === target.gameId ? 't-choice t-choice--on' : 't-choice'}
                    data-testid={`choose-${x.kind}`}
                    onClick={() => setPicked(x.gameId)}
                  >
                    {gameName(x)}
                  </button>
                ))}
              </div>
            )}
            <p>
              {t.cardPrice}: <strong>{money(target.faceValueCents, currency, lang)}</strong>
            </p>
            <div class="t-stepper">
              <button onClick={() => setCount(Math.max(1, count - 1))} aria-label="-">
                −
              </button>
              <strong data-testid="count">{count}</strong>
              <button onClick={() => setCount(count + 1)} aria-label="+">
                +
              </button>
            </div>
            <button
              class="t-primary"
              data-testid="buy"
              disabled={store.busy.value || count > maxByBalance}
              onClick={() => void store.buy(count, target.gameId)}
            >
              {t.buyCount(count)} · {money(count * target.faceValueCents, currency, lang)}
            </button>
          </div>
        ) : g && g.cards.length && g.status !== 'finished' && g.status !== 'void' ? (
          <p class="t-note">{t.salesClosed}</p>
        ) : null}
        {terms && (
          <p class="t-caps">
            {t.caps}: {money(terms.maxCardCents, currency, lang)} {t.perCard} ·{' '}
            {money(terms.maxGameCents, currency, lang)} {t.perGame} · {money(terms.maxSessionCents, currency, lang)}{' '}
            {t.perSession}
          </p>
        )}
        <button class="t-end" data-testid="end" disabled={store.busy.value} onClick={() => void store.end()}>
          {t.end}
        </button>
      </section>
      <section class="t-cards">
        <div class="t-cards__head">
          <h2>{t.yourCards}</h2>
          {store.mode.value === 'catch-up' && (
            <button class="t-secondary" data-testid="catch-up" onClick={() => store.catchUp()}>
              {t.catchUp}
            </button>
          )}
          <small class={store.mode.value === 'per-ball' ? 't-hint--act' : undefined} data-testid="marking-hint">
            {store.mode.value === 'per-ball' ? t.tapToMark : store.mode.value === 'automatic' ? t.autoMarked : ''}
          </small>
        </div>
        {store.ranked.value.length === 0 ? (
          <p class="t-note">{t.noCards}</p>
        ) : (
          <div class="t-card-list">
            {store.ranked.value.map((c, i) => (
              <Card key={c.id} store={store} t={t} card={c} best={i === 0} />
            ))}
          </div>
        )}
      </section>
    </main>
  )
}

function Card({ store, t, card, best }: { store: TerminalStore; t: Texts; card: HeldCard; best: boolean }) {
  const g = store.game.value!
  const marks = store.marks.value
  const ready = card.missing.length === 0
  const kind = card.target
  const winner = g.winners.some((w) => w.serial === card.serial)
  const playing = !['finished', 'void', 'on_sale', 'announced'].includes(g.status)
  return (
    <article
      class={`t-card${best ? ' t-card--best' : ''}${ready && playing ? ' t-card--ready' : ''}`}
      data-testid="card"
      data-serial={card.serial}
    >
      <header>
        <span>
          {t.serial} {card.serial}
        </span>
        {winner && <strong class="t-won">★</strong>}
      </header>
      <table class="t-grid">
        <tbody>
          {card.grid.map((row, r) => (
            <tr key={r}>
              {row.map((n, c) =>
                n === 0 ? (
                  <td key={c} class="t-cell t-cell--blank" />
                ) : (
                  <td
                    key={c}
                    class={marks.has(n) ? 't-cell t-cell--marked' : 't-cell'}
                    data-marked={marks.has(n) ? 'true' : 'false'}
                    onClick={() => store.mode.value === 'per-ball' && store.mark(n)}
                  >
                    {n}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {ready && playing ? (
        <button
          class="t-claim"
          data-testid="claim"
          disabled={store.busy.value}
          onClick={() => void store.claim(card.id, kind, t.claimOk, t.claimRejected, t.rejected)}
        >
          {kind === 'line' ? t.readyLine : t.readyBingo}
        </button>
      ) : winner ? (
        <p class="t-missing t-credited" data-testid="winner">
          ★ {g.status === 'finished' ? t.credited : t.claimOk}
        </p>
      ) : (
        <p class="t-missing" data-testid="missing">
          {kind === 'line' ? t.needsLine : t.needsBingo} {card.missing.length}:{' '}
          <span>{card.missing.slice(0, 15).join(' · ')}</span>
        </p>
      )}
    </article>
  )
}
