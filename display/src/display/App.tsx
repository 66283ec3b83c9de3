import type { Lang } from '../../../web/i18n.ts'
import { text } from '../../../web/i18n.ts'
import { winnersOnShow } from '../../../web/format.ts'
import type { GameFeed } from '../../../web/socket.ts'
import type { Speaker } from '../../../web/speech.ts'
import { Board } from './Board.tsx'
import { CentralVideo } from './CentralVideo.tsx'
import { CurrentBall } from './CurrentBall.tsx'
import { Header } from './Header.tsx'
import { InfoBar } from './InfoBar.tsx'
import { LastBalls } from './LastBalls.tsx'
import { Notice } from './Notice.tsx'
import { IncidentBanner } from './IncidentBanner.tsx'
import { WinnerPanel } from './WinnerPanel.tsx'
import './display.css'

/**
 * The hall display (BNG-34 to BNG-39, REGULATIONS §7.2). It keeps no state of its own: it renders what the server
 * last sent for the watched hall or game.
 */
/** RNG-30: the statuses in which a simultaneous game is being drawn, so the halls see the central's image. */
const VIDEO_STATUSES: readonly string[] = [
  'sales_closed',
  'drawing',
  'checking',
  'line_window',
  'bingo_window',
  'suspended',
]

export function App({
  feed,
  speaker,
  lang,
  device = null,
}: {
  feed: GameFeed
  speaker: Speaker
  lang: Lang
  /** The enrolled display's credential: the central's image is relayed only to the displays of the game's halls. */
  device?: string | null
}) {
  const state = feed.state.value
  const error = feed.error.value
  const offline = feed.connection.value !== 'online'

  if (error || !state) {
    return (
      <div class="hd hd--empty" data-testid="display" data-status="none">
        <div class="hd-waiting">
          <div class="hd-waiting__logo">BOLILLO</div>
          <div class="hd-waiting__text" data-testid="state">
            {error ? text(lang, 'notFound') : text(lang, 'waitingGame')}
          </div>
        </div>
        {offline && (
          <div class="hd-offline" data-testid="offline">
            {text(lang, 'offline')}
          </div>
        )}
      </div>
    )
  }

  document.title = `${state.hallName} · ${text(lang, 'gameNo')} ${state.orderNo}`
  const winners = winnersOnShow(state)
  // RNG-30: a simultaneous game shows the central's image; BNG-34: any other game its own hall's ball-exit camera.
  const simultaneous = (state.halls?.length ?? 0) > 0
  const video = VIDEO_STATUSES.includes(state.status)
  return (
    <div class={`hd hd--${state.status}`} data-testid="display" data-status={state.status} data-game={state.gameId}>
      <Header state={state} speaker={speaker} lang={lang} offline={offline} />
      <main class={video && simultaneous ? 'hd-main hd-main--video' : 'hd-main'}>
        <section class="hd-left">
          {video ? (
            <div class="hd-ball-row">
              <CurrentBall state={state} lang={lang} />
              <CentralVideo gameId={state.gameId} device={device} lang={lang} central={simultaneous} />
            </div>
          ) : (
            <CurrentBall state={state} lang={lang} />
          )}
          <LastBalls balls={state.balls} lang={lang} />
        </section>
        <section class="hd-right">
          {winners.length > 0 ? (
            <WinnerPanel state={state} winners={winners} lang={lang} />
          ) : state.status === 'void' || state.status === 'suspended' ? (
            <Notice state={state} lang={lang} />
          ) : (
            <Board state={state} lang={lang} />
          )}
        </section>
      </main>
      <IncidentBanner state={state} lang={lang} />
      <InfoBar state={state} lang={lang} />
      {offline && (
        <div class="hd-offline" data-testid="offline">
          {text(lang, 'offline')}
        </div>
      )}
    </div>
  )
}
