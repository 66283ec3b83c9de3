import type { GameState } from '../../../server/src/bingo/service.ts'
import { gameWord } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** Hall, session, game and who is at the console, all in words: no role codes, session ids or device ids. */
export function Header({
  store,
  game,
  lang,
  offline,
}: {
  store: CallerStore
  game: GameState | null
  lang: Lang
  offline: boolean
}) {
  const hall = store.hall.value
  const session = store.session.value
  const open = hall?.openSessionId ?? null
  const me = store.me.value
  // A station's own credential (issue 13) is no one logged in: the station is named and a person logs in at it.
  const loggedIn = me !== null && me.kind === 'person'
  return (
    <header class="cc-header">
      <div class="cc-header__brand">
        BOLILLO <span>{t(lang, 'title')}</span>
      </div>
      <div class="cc-header__where">
        <span>
          {t(lang, 'hall')}: <strong data-testid="caller-hall">{hall?.hall.name ?? '…'}</strong>
        </span>
        <span>
          {t(lang, 'session')}:{' '}
          {open ? (
            <strong data-testid="caller-session">
              {session?.lastGameAnnounced ? t(lang, 'sessionLastGame') : t(lang, 'sessionOpen')}
            </strong>
          ) : (
            <strong data-testid="caller-session">{t(lang, 'noSession')}</strong>
          )}
        </span>
        {game && (
          <span>
            {t(lang, 'game')}: <strong>nº {game.orderNo}</strong>
          </span>
        )}
      </div>
      <div class={`cc-state cc-state--${game?.status ?? 'none'}`} data-testid="caller-state">
        {game ? gameWord(game, lang) : '—'}
      </div>
      <div class="cc-header__user">
        {loggedIn ? (
          <>
            <span data-testid="caller-user">
              {me.name}{' '}
              <small data-testid="caller-role">
                {me.roleLabel}
                {me.station && me.station.name !== me.name ? ` · ${me.station.name}` : ''}
              </small>
            </span>
            {me.kind === 'person' && (
              <button
                type="button"
                class="cc-btn cc-btn--small cc-btn--ghost"
                data-testid="logout"
                onClick={() => void store.logout()}
              >
                {t(lang, 'logout')}
              </button>
            )}
          </>
        ) : (
          <>
            {me?.kind === 'device' && <span data-testid="caller-station">{me.name}</span>}
            {me?.authOn !== false && (
              <button
                type="button"
                class="cc-btn cc-btn--small cc-btn--ghost"
                data-testid="login-open"
                onClick={() => {
                  store.needLogin.value = true
                }}
              >
                {t(lang, 'login')}
              </button>
            )}
          </>
        )}
        <span class={offline ? 'cc-conn cc-conn--off' : 'cc-conn'} data-testid="caller-connection">
          {offline ? t(lang, 'offline') : t(lang, 'online')}
        </span>
      </div>
    </header>
  )
}
