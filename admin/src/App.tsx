/**
 * The back office: a person logs in (POST /api/auth/login, bearer token) and sees the sections their
 * permissions open, grouped by who does the work (management, lotteries, control). `#/<section>` picks one.
 */
import { useEffect, useState } from 'preact/hooks'
import type { FunctionComponent } from 'preact'
import { can, changePassword, lang, loadMe, login, logout, me, mustChangePassword, setLang, token } from './session.ts'
import { named, type AdminTextKey } from './texts.ts'
import { Field, Input, Notice, errorText, tx } from './ui.tsx'
import { HallsSection } from './sections/Halls.tsx'
import { StaffSection } from './sections/Staff.tsx'
import { BallSetsSection } from './sections/BallSets.tsx'
import { BonusSection } from './sections/Bonus.tsx'
import { DrawsSection } from './sections/Draws.tsx'
import { InstantSection } from './sections/Instant.tsx'
import { AmlSection } from './sections/Aml.tsx'
import { ExclusionsSection } from './sections/Exclusions.tsx'
import { InspectionSection } from './sections/Inspection.tsx'
import { ReportsSection } from './sections/Reports.tsx'
import { SoftwareSection } from './sections/Software.tsx'

interface SectionDef {
  key: string
  title: AdminTextKey
  group: AdminTextKey
  needs: string[]
  view: FunctionComponent
}

/** Each section opens for any of its permissions (access/permissions.ts names them). */
export const SECTIONS: SectionDef[] = [
  { key: 'halls', title: 's_halls', group: 'g_director', needs: ['hall.admin'], view: HallsSection },
  { key: 'staff', title: 's_staff', group: 'g_director', needs: ['users.admin', 'device.admin'], view: StaffSection },
  // Issue 26 (RNG-32): the certificates of the running build, recorded by whoever registers equipment.
  { key: 'software', title: 's_software', group: 'g_director', needs: ['device.admin'], view: SoftwareSection },
  { key: 'ball-sets', title: 's_ballsets', group: 'g_director', needs: ['hall.admin'], view: BallSetsSection },
  { key: 'bonus', title: 's_bonus', group: 'g_director', needs: ['hall.admin'], view: BonusSection },
  { key: 'draws', title: 's_draws', group: 'g_lottery', needs: ['lottery.admin', 'lottery.draw'], view: DrawsSection },
  { key: 'instant', title: 's_instant', group: 'g_lottery', needs: ['lottery.admin'], view: InstantSection },
  { key: 'aml', title: 's_aml', group: 'g_control', needs: ['aml.review', 'aml.decide'], view: AmlSection },
  {
    key: 'exclusions',
    title: 's_exclusions',
    group: 'g_control',
    needs: ['players.exclude'],
    view: ExclusionsSection,
  },
  {
    key: 'inspection',
    title: 's_inspection',
    group: 'g_control',
    needs: ['journal.read', 'minutes.read', 'regulator.state'],
    view: InspectionSection,
  },
  { key: 'reports', title: 's_reports', group: 'g_control', needs: ['minutes.read'], view: ReportsSection },
]

/** The role in the screen's language: our own words for the roles we know, the server's label for newer ones. */
function roleName(person: { role: string; roleLabel?: string }): string {
  const ours = named(lang.value, 'role', person.role, 'role_other')
  return ours === tx('role_other') && person.roleLabel ? person.roleLabel : ours
}

function useHash(): string {
  const [hash, setHash] = useState(location.hash)
  useEffect(() => {
    const on = () => setHash(location.hash)
    addEventListener('hashchange', on)
    return () => removeEventListener('hashchange', on)
  }, [])
  return hash.replace(/^#\/?/, '')
}

function LangSwitch() {
  return (
    <div class="lang" role="group" aria-label={tx('language')}>
      {(['es', 'en'] as const).map((l) => (
        <button key={l} class={lang.value === l ? 'on' : ''} data-testid={`lang-${l}`} onClick={() => setLang(l)}>
          {l.toUpperCase()}
        </button>
      ))}
    </div>
  )
}

function Login() {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function submit(e: Event) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await login(username.trim(), password)
      if (!me.value && !mustChangePassword.value) setError(tx('noSection'))
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="login">
      <form onSubmit={submit} data-testid="login">
        <div class="login-head">
          <h1>{tx('loginTitle')}</h1>
          <LangSwitch />
        </div>
        <p class="muted">{tx('loginHint')}</p>
        <Field label={tx('username')}>
          <Input name="username" autocomplete="username" value={username} onValue={setUsername} />
        </Field>
        <Field label={tx('password')}>
          <Input
            name="password"
            type="password"
            autocomplete="current-password"
            value={password}
            onValue={setPassword}
          />
        </Field>
        <button class="primary" type="submit" disabled={busy || !username || !password}>
          {tx('enter')}
        </button>
        {error && (
          <Notice kind="error" testId="login-error">
            {error}
          </Notice>
        )}
      </form>
    </main>
  )
}

/** A password someone else set is replaced by the person's own before anything else (issue 14 point 5). */
function ChangePassword() {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [again, setAgain] = useState('')
  const [error, setError] = useState<string | null>(null)
  async function submit(e: Event) {
    e.preventDefault()
    setError(null)
    if (next !== again) return setError(tx('passwordsDiffer'))
    try {
      await changePassword(current, next)
    } catch (err) {
      setError(errorText(err))
    }
  }
  return (
    <main class="login">
      <form onSubmit={submit} data-testid="change-password">
        <div class="login-head">
          <h1>{tx('newPasswordTitle')}</h1>
          <LangSwitch />
        </div>
        <p class="muted">{tx('newPasswordHint')}</p>
        <Field label={tx('currentPassword')}>
          <Input name="current" type="password" autocomplete="current-password" value={current} onValue={setCurrent} />
        </Field>
        <Field label={tx('newPassword')}>
          <Input name="next" type="password" autocomplete="new-password" value={next} onValue={setNext} />
        </Field>
        <Field label={tx('repeatPassword')}>
          <Input name="again" type="password" autocomplete="new-password" value={again} onValue={setAgain} />
        </Field>
        <button class="primary" type="submit" disabled={!current || next.length < 8}>
          {tx('save')}
        </button>
        {error && (
          <Notice kind="error" testId="password-error">
            {error}
          </Notice>
        )}
      </form>
    </main>
  )
}

export function App() {
  const [checked, setChecked] = useState(false)
  const route = useHash()
  useEffect(() => {
    document.title = tx('title')
    if (token.value && !me.value)
      loadMe()
        .then(
          (m) => {
            me.value = m
          },
          () => {
            token.value = null
          },
        )
        .finally(() => setChecked(true))
    else setChecked(true)
  }, [])
  useEffect(() => {
    document.title = tx('title')
  }, [lang.value])
  if (!checked) return <p class="muted">{tx('loading')}</p>
  const person = me.value
  if (token.value && mustChangePassword.value) return <ChangePassword />
  if (!token.value || !person) return <Login />
  const mine = SECTIONS.filter((s) => can(...s.needs))
  const current = mine.find((s) => s.key === route) ?? mine[0]
  const groups = [...new Set(mine.map((s) => s.group))]
  const View = current?.view
  return (
    <div class="shell">
      <nav class="side" data-testid="nav">
        <div class="brand">
          Bolillo<small>{tx('brand')}</small>
        </div>
        {groups.map((g) => (
          <div class="group" key={g}>
            <h3>{tx(g)}</h3>
            {mine
              .filter((s) => s.group === g)
              .map((s) => (
                <a key={s.key} href={`#/${s.key}`} class={s === current ? 'on' : ''} data-testid={`nav-${s.key}`}>
                  {tx(s.title)}
                </a>
              ))}
          </div>
        ))}
      </nav>
      <div class="main">
        <header class="top">
          <h1 data-testid="section-title">{current ? tx(current.title) : tx('brand')}</h1>
          <div class="who" data-testid="who">
            <span>
              {tx('loggedAs')} <strong>{person.name}</strong> · {roleName(person)}
            </span>
            <LangSwitch />
            <button data-testid="logout" onClick={() => void logout()}>
              {tx('logout')}
            </button>
          </div>
        </header>
        <div class="content">{View ? <View key={current!.key} /> : <Notice kind="info">{tx('noSection')}</Notice>}</div>
      </div>
    </div>
  )
}
