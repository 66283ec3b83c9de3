import { useEffect, useRef, useState } from 'preact/hooks'
import type { Lang } from '../../../web/i18n.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** Staff login (issue 9): a person's session token, kept for this tab only. */
export function LoginPanel({ store, lang }: { store: CallerStore; lang: Lang }) {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const first = useRef<HTMLInputElement>(null)
  useEffect(() => {
    first.current?.focus()
  }, [])
  const submit = async (e: Event) => {
    e.preventDefault()
    if (await store.login(username.trim(), password)) setPassword('')
  }
  return (
    <form class="cc-panel cc-flow cc-login" data-testid="login" onSubmit={submit}>
      <h2>{t(lang, 'login')}</h2>
      <p class="cc-muted">{t(lang, 'loginHelp')}</p>
      <div class="cc-row">
        <label class="cc-field cc-field--grow">
          <span>{t(lang, 'username')}</span>
          <input
            ref={first}
            type="text"
            autocomplete="username"
            required
            value={username}
            data-testid="login-user"
            onInput={(e) => setUsername((e.target as HTMLInputElement).value)}
          />
        </label>
        <label class="cc-field cc-field--grow">
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
      </div>
      <button type="submit" class="cc-btn cc-btn--primary cc-btn--huge" data-testid="login-submit">
        {t(lang, 'enterLogin')}
      </button>
    </form>
  )
}
