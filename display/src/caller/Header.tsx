import type { GameState } from '../../../server/src/bingo/service.ts'
import { stateWord } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

export function Header({ store, game, lang, offline }: { store: CallerStore; game: GameState | null; lang: Lang; offline: boolean }) {
  const hall = store.hall.value
  const session = store.session.value
  const open = hall?.openSessionId ?? null
  return (
    <header class="cc-header">
      <div class="cc-header__brand">BOLILLO <span>{t(lang, 'title')}</span></div>
      <div class="cc-header__where">
        <span>{t(lang, 'hall')}: <strong data-testid="caller-hall">{hall?.hall.name ?? '…'}</strong></span>
        <span>
          {t(lang, 'session')}:{' '}
          {open
            ? <strong data-testid="caller-session">{open} · {session?.lastGameAnnounced ? t(lang, 'sessionLastGame') : t(lang, 'sessionOpen')}</strong>
            : <strong data-testid="caller-session">{t(lang, 'noSession')}</strong>}
        </span>
        {game && <span>{t(lang, 'game')}: <strong>nº {game.orderNo}</strong></span>}
      </div>
      <div class={`cc-state cc-state--${game?.status ?? 'none'}`} data-testid="caller-state">{game ? stateWord(game.status, lang) : '—'}</div>
      <div class="cc-header__user">
        {store.principal.value
          ? <>
              <span data-testid="caller-user">{store.principal.value.name} <small>({store.principal.value.role})</small></span>
              <button type="button" class="cc-btn cc-btn--small cc-btn--ghost" data-testid="logout" onClick={() => void store.logout()}>{t(lang, 'logout')}</button>
            </>
          : <button type="button" class="cc-btn cc-btn--small cc-btn--ghost" data-testid="login-open" onClick={() => { store.needLogin.value = true }}>{t(lang, 'login')}</button>}
        <span class={offline ? 'cc-conn cc-conn--off' : 'cc-conn'} data-testid="caller-connection">{offline ? t(lang, 'offline') : t(lang, 'online')}</span>
      </div>
    </header>
  )
}
