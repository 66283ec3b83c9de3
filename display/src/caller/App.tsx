import { useEffect } from 'preact/hooks'
import { GameAction, isLegal } from '../../../server/src/bingo/game.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { GameFeed } from '../../../web/socket.ts'
import { AnnouncePanel } from './AnnouncePanel.tsx'
import { ClaimPanel } from './ClaimPanel.tsx'
import { ConfirmDialog } from './ConfirmDialog.tsx'
import { DrawPanel } from './DrawPanel.tsx'
import { ErrorBanner } from './ErrorBanner.tsx'
import { Header } from './Header.tsx'
import { IncidentPanel } from './IncidentPanel.tsx'
import { LoginPanel } from './LoginPanel.tsx'
import { MinutesPanel } from './MinutesPanel.tsx'
import { OpenSessionPanel } from './OpenSessionPanel.tsx'
import { PrizesPanel } from './PrizesPanel.tsx'
import { SalesPanel } from './SalesPanel.tsx'
import { SessionPanel } from './SessionPanel.tsx'
import { Shortcuts } from './Shortcuts.tsx'
import { SalesAnnouncement, StatusPanel } from './StatusPanel.tsx'
import { TableRefundPanel } from './TableRefundPanel.tsx'
import { TillPanel } from './TillPanel.tsx'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'
import { askCloseWindow, WindowPanel } from './WindowPanel.tsx'
import './caller.css'

/**
 * The caller console: every action of the caller API, big buttons, keyboard shortcuts for the frequent ones, and
 * API errors in large print. The game shown is the hall's current one, live from the hall feed.
 */
export function App({ store, feed, lang }: { store: CallerStore; feed: GameFeed; lang: Lang }) {
  const game = feed.state.value
  const hall = store.hall.value
  const offline = feed.connection.value !== 'online'

  useEffect(() => installKeyboard(store, feed, lang), [])
  // Prizes and the hall (session, series cursors) change with the game; refetch when it moves on.
  useEffect(() => {
    void store.refreshPrizes()
  }, [game?.gameId, game?.seq])
  useEffect(() => {
    void store.refreshHall()
  }, [game?.gameId, game?.status])

  const sessionId = hall?.openSessionId ?? null
  const ended = !game || game.status === 'finished' || game.status === 'void' || game.sessionId !== sessionId
  // Issue 14 point 7: each panel shows for a role that may act on it (or, at a locutor's console, with a jefe's
  // authorisation); otherwise the console says what it is waiting for.
  const me = store.me.value
  const waiting = (key: 'waitSession' | 'waitAnnounce' | 'waitPlay' | 'readOnly') => (
    <div class="cc-panel cc-flow cc-muted" data-testid="caller-waiting">
      {t(lang, key)}
    </div>
  )
  let primary
  // A person logs in (at an enrolled station, the station's own credential alone moves nothing: issue 13).
  if (store.needLogin.value && (!me || me.kind !== 'person')) primary = <LoginPanel store={store} lang={lang} />
  else if (!hall || !me) primary = null
  else if (!sessionId)
    primary = store.offer('session.open') ? <OpenSessionPanel store={store} lang={lang} /> : waiting('waitSession')
  else if (ended)
    primary = store.offer('game.announce') ? (
      <AnnouncePanel store={store} lang={lang} sessionId={sessionId} />
    ) : (
      waiting(store.can('game.draw') ? 'waitAnnounce' : 'readOnly')
    )
  else if (game.status === 'announced' || game.status === 'on_sale')
    primary = <SalesPanel store={store} game={game} lang={lang} />
  else if (game.window) primary = <WindowPanel store={store} game={game} lang={lang} />
  else if (store.can('game.draw') || game.status === 'suspended')
    primary = <DrawPanel store={store} game={game} lang={lang} />
  else primary = waiting('waitPlay')

  const claimsOpen = game !== null && !ended && isLegal(GameAction.Claim, game.status) && store.can('game.claim')
  return (
    <div class="cc" data-testid="caller" data-status={game?.status ?? 'none'} data-busy={store.busy.value ?? ''}>
      <Header store={store} game={game} lang={lang} offline={offline} />
      <ErrorBanner store={store} lang={lang} />
      <main class="cc-main">
        <StatusPanel game={game} lang={lang} />
        <section class="cc-col cc-col--flow">
          {/* Issue 29 point 1: after an annulment the players bring their cards back first; the refunds lead. */}
          {store.can('ticket.refund') && <TableRefundPanel store={store} game={game} lang={lang} />}
          {primary}
          {game && <SalesAnnouncement game={game} lang={lang} />}
          {claimsOpen && <ClaimPanel store={store} game={game} lang={lang} />}
        </section>
        <section class="cc-col cc-col--side">
          {game && <PrizesPanel store={store} game={game} lang={lang} />}
          {game && !ended && store.offer('game.incident') && <IncidentPanel store={store} game={game} lang={lang} />}
          {hall && <SessionPanel store={store} game={game} lang={lang} />}
          {/* Between games the table's open shift can be closed with its count (during sales it is in the sales panel). */}
          {ended && store.can('game.sell') && <TillPanel store={store} lang={lang} />}
        </section>
      </main>
      <Shortcuts store={store} lang={lang} manual={game?.drawSource === 'manual'} />
      <ConfirmDialog store={store} lang={lang} />
      <MinutesPanel store={store} lang={lang} />
    </div>
  )
}

function isTyping(target: EventTarget | null): target is HTMLElement {
  const el = target as HTMLElement | null
  if (!el || !el.tagName) return false
  return el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable
}

function isClaimFieldLeftEmpty(target: EventTarget | null): target is HTMLInputElement {
  const el = target as HTMLInputElement | null
  return Boolean(
    el && el.dataset?.testid === 'claim-serial' && el.dataset.deliberate !== 'true' && el.value.trim() === '',
  )
}

/**
 * Shortcuts (shown on screen): Space draws, digits + Enter enter a manual ball, L / B go to the claim box, C closes
 * the "any more?" window, A shows the minutes, Enter confirms and Esc cancels. Listens in the capture phase so a
 * focused button never steals Space or Enter.
 */
function installKeyboard(store: CallerStore, feed: GameFeed, lang: Lang): () => void {
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return
    const game = feed.state.value
    if (store.confirmation.value) {
      if (e.key === 'Enter') {
        e.preventDefault()
        void store.confirm()
      } else if (e.key === 'Escape') {
        e.preventDefault()
        store.cancel()
      }
      return
    }
    if (e.key === 'Escape') {
      e.preventDefault()
      if (isTyping(e.target)) (e.target as HTMLElement).blur()
      store.clearError()
      store.manualBall.value = ''
      store.claimSerial.value = ''
      store.claimChoices.value = null
      store.minutesOpen.value = false
      return
    }
    // Issue 29: the claim field that L / B or PARAR opened, still empty, gives Space back to the draw and takes L / B
    // as the kind of claim (never as typed letters: "L41"); a field the caller clicked into keeps every key.
    const kindKey = e.key.toLowerCase() === 'l' || e.key.toLowerCase() === 'b'
    if (e.key === ' ' && isClaimFieldLeftEmpty(e.target)) e.target.blur()
    else if (kindKey && isClaimFieldLeftEmpty(e.target)) {
      /* the claim keys below */
    } else if (isTyping(e.target)) return
    const canDraw = game !== null && isLegal(GameAction.Draw, game.status) && !game.window && store.can('game.draw')
    if (e.key === ' ') {
      e.preventDefault()
      if (canDraw && game.drawSource === 'rng') void store.draw()
      return
    }
    if (/^[0-9]$/.test(e.key) && canDraw && game.drawSource === 'manual') {
      e.preventDefault()
      store.manualBall.value = (store.manualBall.value + e.key).replace(/^0+/, '').slice(-String(game.ballCount).length)
      return
    }
    if (e.key === 'Backspace' && store.manualBall.value) {
      e.preventDefault()
      store.manualBall.value = store.manualBall.value.slice(0, -1)
      return
    }
    if (e.key === 'Enter' && store.manualBall.value) {
      e.preventDefault()
      void store.enterBall()
      return
    }
    const k = e.key.toLowerCase()
    if ((k === 'l' || k === 'b') && game && isLegal(GameAction.Claim, game.status) && store.can('game.claim')) {
      e.preventDefault()
      store.claimKind.value = k === 'l' ? 'line' : 'bingo'
      store.claimFocus.value++
      return
    }
    if (k === 'c' && game?.window) {
      e.preventDefault()
      askCloseWindow(store, game, lang)
      return
    }
    if (k === 'a' && store.can('minutes.read')) {
      e.preventDefault()
      store.minutesOpen.value = !store.minutesOpen.value
      if (store.minutesOpen.value) void store.refreshMinutes()
    }
  }
  // A focused button is clicked by Space on key-up: keep Space for "draw".
  const onKeyUp = (e: KeyboardEvent) => {
    if (e.key === ' ' && !isTyping(e.target)) e.preventDefault()
  }
  window.addEventListener('keydown', onKeyDown, true)
  window.addEventListener('keyup', onKeyUp, true)
  return () => {
    window.removeEventListener('keydown', onKeyDown, true)
    window.removeEventListener('keyup', onKeyUp, true)
  }
}
