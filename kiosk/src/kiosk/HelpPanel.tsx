import { formatMoney } from '../../../server/src/shared/money.ts'
import type { KioskStore } from './store.ts'

/**
 * GEN-21 (2): the player's right to information on the description and characteristics of the games. The rules are
 * told from what the kiosk already reads from the server (its offer: the card's price, the prizes' shares and amounts,
 * the lotto draw with its prize table), never from fixed figures, and never with an internal id or code.
 */
const HELP = {
  es: {
    open: 'Reglas del juego · Ayuda',
    title: 'Reglas del juego',
    close: 'Cerrar',
    bingo: 'Bingo (cartones)',
    noGame: 'No hay partida anunciada en este momento. Las reglas de la próxima se mostrarán aquí.',
    game: (n: number) => `Partida N.º ${n}`,
    price: 'Precio del cartón',
    prizes: 'Premios de la partida',
    line: 'Línea',
    bingoPrize: 'Bingo',
    ofSales: (pct: string) => `${pct} % de lo vendido en la partida`,
    soFar: (amount: string) => `hoy ${amount} con lo vendido hasta ahora`,
    fixed: (amount: string) => `${amount} (importe final)`,
    howLine: 'Línea: gana el primer cartón que completa todos los números de una de sus filas horizontales.',
    howBingo:
      'Bingo: gana el primer cartón que completa todos sus números. Con la línea cantada, la partida sigue hasta el bingo.',
    howFigure: 'Si la partida juega figuras, la pantalla de la sala muestra cada figura y su premio antes de empezar.',
    claim:
      'Cómo reclamar: cante en voz alta «¡Línea!» o «¡Bingo!» en cuanto complete, antes de que salga la siguiente bola, y muestre su cartón al personal, que lo comprueba a la vista de la sala. Si hay varios ganadores a la vez, el premio se reparte.',
    collect: 'Dónde cobrar: en la caja de la sala, con el cartón ganador, durante la misma sesión.',
    limits: (min: number, max: number) => `De ${min} a ${max} cartones por compra.`,
    lotto: 'Loto (boletos)',
    noDraw: 'No hay sorteo de loto a la venta en este momento.',
    draw: (n: number) => `Sorteo N.º ${n}`,
    drawAt: 'Fecha y hora del sorteo',
    bet: (k: number, n: number) => `Jugada sencilla: marque ${k} números del 1 al ${n}, o pida una jugada automática.`,
    boards: (b: number, d: number) =>
      `Hasta ${b} jugadas por boleto; ${d === 1 ? 'un sorteo por boleto' : `hasta ${d} sorteos consecutivos`}.`,
    perBoard: 'Precio por jugada',
    table: 'Tabla de premios',
    matches: (n: number) => `${n} aciertos`,
    share: (pct: string) => `${pct} % del fondo de premios`,
    lottoClaim: (op: string) =>
      `Cobro: en la caja, con el boleto, en el plazo que fija el Reglamento Específico de ${op}.`,
    regulation: 'Reglamento Específico',
    general: 'Para todos los juegos',
    age: (n: number) => `Prohibido a menores de ${n} años. Se le pedirá su documento de identidad.`,
    complaints:
      'Libro de reclamos: tiene derecho a presentar un reclamo; pídalo en la caja de la sala. Si hubo fraude en el juego, se le devuelve lo pagado.',
    pay: 'Pague con un vale de crédito de la caja. El juego debe pagarse antes de que empiece la partida.',
  },
  en: {
    open: 'Game rules · Help',
    title: 'Game rules',
    close: 'Close',
    bingo: 'Bingo (cards)',
    noGame: 'No game is announced right now. The next game’s rules will be shown here.',
    game: (n: number) => `Game No. ${n}`,
    price: 'Card price',
    prizes: 'Prizes of the game',
    line: 'Line',
    bingoPrize: 'Bingo',
    ofSales: (pct: string) => `${pct} % of the game’s sales`,
    soFar: (amount: string) => `${amount} today with the sales so far`,
    fixed: (amount: string) => `${amount} (final amount)`,
    howLine: 'Line: the first card to complete every number of one of its horizontal rows wins.',
    howBingo:
      'Bingo: the first card to complete all its numbers wins. Once the line is called, the game goes on to the bingo.',
    howFigure: 'If the game plays figures, the hall display shows each figure and its prize before the start.',
    claim:
      'How to claim: call out “Line!” or “Bingo!” as soon as you complete, before the next ball is drawn, and show your card to the staff, who check it in view of the hall. Several winners at once share the prize.',
    collect: 'Where to collect: at the hall’s cash desk, with the winning card, during the same session.',
    limits: (min: number, max: number) => `From ${min} to ${max} cards per purchase.`,
    lotto: 'Lotto (slips)',
    noDraw: 'No lotto draw is on sale right now.',
    draw: (n: number) => `Draw No. ${n}`,
    drawAt: 'Draw date and time',
    bet: (k: number, n: number) => `Simple bet: mark ${k} numbers from 1 to ${n}, or ask for a quick pick.`,
    boards: (b: number, d: number) =>
      `Up to ${b} bets per slip; ${d === 1 ? 'one draw per slip' : `up to ${d} consecutive draws`}.`,
    perBoard: 'Price per bet',
    table: 'Prize table',
    matches: (n: number) => `${n} matches`,
    share: (pct: string) => `${pct} % of the prize fund`,
    lottoClaim: (op: string) =>
      `Collect at the cash desk, with the slip, within the period set by ${op}’s specific rules.`,
    regulation: 'Specific rules',
    general: 'For every game',
    age: (n: number) => `Forbidden to anyone under ${n}. You will be asked for your identity document.`,
    complaints:
      'Complaints book: you have the right to file a complaint; ask for it at the hall’s cash desk. If there was fraud in the game, your payment is refunded.',
    pay: 'Pay with a credit voucher from the cash desk. A game must be paid before it starts.',
  },
} satisfies Record<'es' | 'en', unknown>

/** The big button that opens the rules, on every sale screen. */
export function HelpButton(props: { store: KioskStore }) {
  const { store } = props
  return (
    <button type="button" class="k-help-btn" data-testid="kiosk-help" onClick={() => (store.helpOpen.value = true)}>
      <span aria-hidden="true" class="k-help-btn__icon">
        ?
      </span>
      {HELP[store.lang.value].open}
    </button>
  )
}

export function HelpPanel(props: { store: KioskStore }) {
  const { store } = props
  if (!store.helpOpen.value) return null
  const lang = store.lang.value
  const H = HELP[lang]
  const offer = store.offer.value
  const money = (c: number, cur = store.currency.value) => formatMoney(c, cur, lang)
  const pct = (bp: number) => (bp / 100).toLocaleString(lang)
  const g = offer?.game && offer.state !== 'none' ? offer.game : null
  const l = offer?.lotto ?? null
  const age = offer?.hall.minimumAge ?? 18
  const prize = (bp: number, cents: number) =>
    g?.prizes.final
      ? H.fixed(money(cents))
      : `${H.ofSales(pct(bp))}${g && g.cardsSold > 0 ? ` · ${H.soFar(money(cents))}` : ''}`
  const drawAt = l
    ? new Intl.DateTimeFormat(lang === 'es' ? 'es-BO' : 'en-GB', {
        dateStyle: 'full',
        timeStyle: 'short',
        hourCycle: 'h23',
        timeZone: offer?.hall.timeZone,
      }).format(new Date(l.drawAt))
    : ''
  const close = () => (store.helpOpen.value = false)
  return (
    <div class="k-help" role="dialog" aria-modal="true" aria-labelledby="k-help-title" data-testid="kiosk-help-panel">
      <div class="k-help__box">
        <header class="k-help__head">
          <h1 id="k-help-title">{H.title}</h1>
          {/* The panel covers the header: its own language switch. */}
          <div class="k-header__langs" role="group" aria-label="Idioma / Language">
            {(['es', 'en'] as const).map((l) => (
              <button
                type="button"
                key={l}
                class={lang === l ? 'k-lang k-lang--on' : 'k-lang'}
                data-testid={`help-lang-${l}`}
                onClick={() => {
                  store.lang.value = l
                  document.documentElement.lang = l
                }}
              >
                {l.toUpperCase()}
              </button>
            ))}
          </div>
          <button type="button" class="btn btn--secondary k-help__close" data-testid="kiosk-help-close" onClick={close}>
            {H.close} ✕
          </button>
        </header>
        <div class="k-help__body">
          <section data-testid="help-bingo">
            <h2>{H.bingo}</h2>
            {g ? (
              <>
                <p>
                  <strong>{H.game(g.orderNo)}</strong>
                </p>
                <dl class="k-help__facts">
                  <dt>{H.price}</dt>
                  <dd data-testid="help-card-price">{money(g.faceValueCents)}</dd>
                  <dt>{H.prizes}</dt>
                  <dd>
                    <ul>
                      <li data-testid="help-prize-line">
                        <strong>{H.line}</strong>: {prize(g.prizes.lineBp, g.prizes.lineCents)}
                      </li>
                      <li data-testid="help-prize-bingo">
                        <strong>{H.bingoPrize}</strong>: {prize(g.prizes.bingoBp, g.prizes.bingoCents)}
                      </li>
                    </ul>
                  </dd>
                </dl>
              </>
            ) : (
              <p>{H.noGame}</p>
            )}
            <ul class="k-help__rules">
              <li>{H.howLine}</li>
              <li>{H.howBingo}</li>
              <li>{H.howFigure}</li>
              <li>{H.claim}</li>
              <li>{H.collect}</li>
              {offer && <li>{H.limits(offer.bets?.minCardsPerPurchase ?? 1, offer.maxCardsPerPurchase)}</li>}
            </ul>
          </section>
          <section data-testid="help-lotto">
            <h2>{H.lotto}</h2>
            {l ? (
              <>
                <p>
                  <strong>{l.name}</strong> · {H.draw(l.drawNumber)}
                </p>
                <dl class="k-help__facts">
                  <dt>{H.drawAt}</dt>
                  <dd data-testid="help-draw-at">{drawAt}</dd>
                  <dt>{H.perBoard}</dt>
                  <dd data-testid="help-board-price">{money(l.priceCents, l.currency)}</dd>
                </dl>
                <ul class="k-help__rules">
                  <li>{H.bet(l.picks, l.range)}</li>
                  <li>{H.boards(l.maxBoardsPerSlip, l.maxDrawsPerSlip)}</li>
                </ul>
                <h3>{H.table}</h3>
                <table class="k-help__table" data-testid="help-prize-table">
                  <tbody>
                    {l.categories.map((c) => (
                      <tr key={c.code}>
                        <th>{c.name}</th>
                        <td>{H.matches(c.matches)}</td>
                        <td>
                          {c.prize.type === 'fixed'
                            ? money(c.prize.amountCents, l.currency)
                            : c.prize.type === 'share'
                              ? H.share(pct(c.prize.bp))
                              : c.prize.description}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <p>{H.lottoClaim(l.operator)}</p>
                <p>
                  {H.regulation}: {l.regulationUrl}
                </p>
              </>
            ) : (
              <p>{H.noDraw}</p>
            )}
          </section>
          <section data-testid="help-general">
            <h2>{H.general}</h2>
            <ul class="k-help__rules">
              <li data-testid="help-age">{H.age(age)}</li>
              <li>{H.pay}</li>
              <li data-testid="help-complaints">{H.complaints}</li>
            </ul>
          </section>
        </div>
        <button type="button" class="btn btn--primary btn--wide k-help__done" onClick={close}>
          {H.close}
        </button>
      </div>
    </div>
  )
}
