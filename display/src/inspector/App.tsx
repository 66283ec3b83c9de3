import { useState } from 'preact/hooks'
import type { Lang } from '../../../web/i18n.ts'
import { JournalSection } from './JournalSection.tsx'
import { useLoad } from './load.ts'
import { MinutesSection } from './MinutesSection.tsx'
import { RegistersSection } from './RegistersSection.tsx'
import type { InspectorStore } from './store.ts'
import { t } from './texts.ts'
import './inspector.css'

/**
 * The inspector's read-only screen (issue 14 point 7): the journal's chain and signed checkpoints, session minutes
 * with their draw proofs, and the prize registers. Every call is a GET; sections show by the role's permissions.
 */
export function App({ store, lang }: { store: InspectorStore; lang: Lang }) {
  const me = store.me.value
  return (
    <div class="in" data-testid="inspector">
      <header class="in-header">
        <div class="in-brand">
          BOLILLO <span>{t(lang, 'title')}</span>
        </div>
        {me && store.loggedIn() && (
          <div class="in-user">
            <span data-testid="inspector-user">
              {me.name} <small data-testid="inspector-role">{me.roleLabel}</small>
            </span>
            <button type="button" class="in-btn in-btn--ghost" data-testid="logout" onClick={() => void store.logout()}>
              {t(lang, 'logout')}
            </button>
          </div>
        )}
      </header>
      {store.error.value && (
        <div class="in-error" role="alert" data-testid="error-banner">
          <strong>{t(lang, 'couldNot')}</strong> <span data-testid="error-message">{store.error.value}</span>
          <button
            type="button"
            class="in-btn in-btn--ghost"
            onClick={() => {
              store.error.value = null
            }}
          >
            ×
          </button>
        </div>
      )}
      <main class="in-main">
        {!me ? null : !store.loggedIn() ? (
          <Login store={store} lang={lang} />
        ) : !store.can('journal.read') && !store.can('minutes.read') ? (
          <p class="in-panel in-muted" data-testid="not-for-role">
            {t(lang, 'notForRole')}
          </p>
        ) : (
          <Sections store={store} lang={lang} />
        )}
      </main>
    </div>
  )
}

function Sections({ store, lang }: { store: InspectorStore; lang: Lang }) {
  const journal = useLoad(() => (store.can('journal.read') ? store.journal() : Promise.resolve([])), [])
  return (
    <div class="in-grid">
      {store.can('journal.read') && <JournalSection store={store} lang={lang} />}
      {journal.data && store.can('minutes.read') && <MinutesSection store={store} lang={lang} records={journal.data} />}
      {journal.error && <p class="in-bad">{journal.error}</p>}
      <RegistersSection store={store} lang={lang} />
    </div>
  )
}

function Login({ store, lang }: { store: InspectorStore; lang: Lang }) {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const submit = async (e: Event) => {
    e.preventDefault()
    await store.login(username.trim(), password)
    setPassword('')
  }
  return (
    <form class="in-panel in-login" data-testid="login" onSubmit={submit}>
      <h2>{t(lang, 'login')}</h2>
      <p class="in-muted">{t(lang, 'loginHelp')}</p>
      <label class="in-field">
        <span>{t(lang, 'username')}</span>
        <input
          type="text"
          autocomplete="username"
          required
          value={username}
          data-testid="login-user"
          onInput={(e) => setUsername((e.target as HTMLInputElement).value)}
        />
      </label>
      <label class="in-field">
        <span>{t(lang, 'password')}</span>
        <input
          type="password"
          autocomplete="current-password"
          required
          value={password}
          data-testid="login-password"
          onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" class="in-btn in-btn--primary" data-testid="login-submit">
        {t(lang, 'enter')}
      </button>
    </form>
  )
}
