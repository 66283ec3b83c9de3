/**
 * Director: people (each with their own account and role, BNG-94) and the stations enrolled to act on their own
 * (kiosks, cash desks, hall displays), with revocation. The enrolment credential is shown once, as the link that
 * sets the station up.
 */
import { useState } from 'preact/hooks'
import { api, can, lang, me } from '../session.ts'
import { named } from '../texts.ts'
import { Field, Input, Notice, Panel, Select, Table, tx, useAction, useLoad } from '../ui.tsx'
import { useHalls } from './Halls.tsx'

/** The people's roles of access/permissions.ts (BNG-94, BNG-96, GEN-9). */
const PERSON_ROLES = [
  'director',
  'hall_manager',
  'floor_manager',
  'table_cashier',
  'caller',
  'cashier',
  'aml_officer',
  'lottery_operator',
  'inspector',
  'auditor',
] as const
const STATION_KINDS = ['kiosk', 'cashier_station', 'display'] as const
/** The screen each kind of station opens. */
const SCREEN: Record<string, string> = { kiosk: 'kiosk', cashier_station: 'cashier', display: 'display' }

interface Enrolled {
  id: string
  name: string
  kind: string
  hallId?: string
  link: string
  revoked: boolean
}
interface Person {
  id: string
  username: string
  displayName: string
  role: string
  disabled?: boolean
  lockedUntil?: string | null
  halls?: '*' | string[]
}

function People() {
  const list = useLoad(() =>
    api<{ users?: Person[] }>('GET', '/api/auth/users')
      .then((r) => r.users ?? null)
      .catch(() => null),
  )
  const halls = useHalls()
  const [username, setUsername] = useState('')
  const [displayName, setDisplayName] = useState('')
  const [role, setRole] = useState<string>('cashier')
  const [hall, setHall] = useState('*')
  const [password, setPassword] = useState('')
  const create = useAction(async () => {
    await api('POST', '/api/auth/users', {
      username: username.trim(),
      displayName: displayName.trim(),
      role,
      password,
      halls: hall === '*' ? '*' : [hall],
    })
    const said = tx('personCreated', { name: displayName.trim(), role: named(lang.value, 'role', role, 'role_other') })
    setUsername('')
    setDisplayName('')
    setPassword('')
    list.reload()
    return said
  })
  const act = useAction(async (p: Person, what: 'disable' | 'enable' | 'unlock') => {
    await api('POST', `/api/auth/users/${encodeURIComponent(p.id)}/${what}`)
    list.reload()
  })
  const hallNames = (h: Person['halls']) =>
    h === '*' || h === undefined
      ? tx('allHalls')
      : h.map((id) => halls.data?.find((x) => x.id === id)?.name ?? '—').join(', ')
  return (
    <Panel title={tx('people')} testId="people" wide>
      {list.data ? (
        <Table
          testId="people-table"
          head={[tx('fullName'), tx('username'), tx('role'), tx('halls'), tx('status'), '']}
          rows={list.data.map((p) => [
            p.displayName,
            p.username,
            named(lang.value, 'role', p.role, 'role_other'),
            hallNames(p.halls),
            p.disabled ? (
              <span class="tag bad">{tx('disabled')}</span>
            ) : p.lockedUntil ? (
              <span class="tag warn">{tx('locked')}</span>
            ) : (
              <span class="tag good">{tx('active')}</span>
            ),
            <div class="inline">
              {p.lockedUntil && <button onClick={() => void act.run(p, 'unlock')}>{tx('unlock')}</button>}
              {p.displayName !== me.value?.name && (
                <button onClick={() => void act.run(p, p.disabled ? 'enable' : 'disable')}>
                  {tx(p.disabled ? 'enable' : 'disable')}
                </button>
              )}
            </div>,
          ])}
        />
      ) : (
        <p class="muted">{tx('noPeopleList')}</p>
      )}
      {act.feedback}
      <form
        class="inline"
        data-testid="new-person"
        onSubmit={(e) => {
          e.preventDefault()
          void create.run()
        }}
      >
        <Field label={tx('fullName')}>
          <Input name="displayName" value={displayName} onValue={setDisplayName} />
        </Field>
        <Field label={tx('username')}>
          <Input name="newUsername" autocomplete="off" value={username} onValue={setUsername} />
        </Field>
        <Field label={tx('role')}>
          <Select
            testId="person-role"
            value={role}
            onValue={setRole}
            options={PERSON_ROLES.map((r): [string, string] => [r, named(lang.value, 'role', r, 'role_other')])}
          />
        </Field>
        <Field label={tx('halls')}>
          <Select
            testId="person-hall"
            value={hall}
            onValue={setHall}
            options={[['*', tx('allHalls')], ...(halls.data ?? []).map((h): [string, string] => [h.id, h.name])]}
          />
        </Field>
        <Field label={tx('password')}>
          <Input
            name="newPassword"
            type="password"
            autocomplete="new-password"
            value={password}
            onValue={setPassword}
          />
        </Field>
        <button
          type="submit"
          class="primary"
          disabled={create.busy || !username.trim() || !displayName.trim() || password.length < 8}
        >
          {tx('newPerson')}
        </button>
      </form>
      {create.feedback}
    </Panel>
  )
}

function Stations() {
  const halls = useHalls()
  const [kind, setKind] = useState<string>('kiosk')
  const [name, setName] = useState('')
  const [hallId, setHallId] = useState('')
  const [enrolled, setEnrolled] = useState<Enrolled[]>([])
  const enrol = useAction(async () => {
    const hall = hallId || halls.data?.[0]?.id
    const r = await api<{ id: string; credential: string }>('POST', '/api/auth/devices', {
      kind,
      name: name.trim(),
      ...(hall ? { hallId: hall } : {}),
    })
    const link = `${location.origin}/${SCREEN[kind]}/?${hall ? `hall=${encodeURIComponent(hall)}&` : ''}device=${encodeURIComponent(r.credential)}`
    setEnrolled((list) => [{ id: r.id, name: name.trim(), kind, hallId: hall, link, revoked: false }, ...list])
    setName('')
  })
  const revoke = useAction(async (d: Enrolled) => {
    if (!confirm(tx('revokeConfirm', { name: d.name }))) return
    await api('POST', `/api/auth/devices/${encodeURIComponent(d.id)}/revoke`)
    setEnrolled((list) => list.map((x) => (x.id === d.id ? { ...x, revoked: true, link: '' } : x)))
  })
  const hallName = (id?: string) => halls.data?.find((h) => h.id === id)?.name ?? '—'
  return (
    <Panel title={tx('devices')} testId="stations" wide>
      <form
        class="inline"
        data-testid="enrol-device"
        onSubmit={(e) => {
          e.preventDefault()
          void enrol.run()
        }}
      >
        <Field label={tx('deviceKind')}>
          <Select
            testId="device-kind"
            value={kind}
            onValue={setKind}
            options={STATION_KINDS.map((k): [string, string] => [k, named(lang.value, 'kind', k, 'role_other')])}
          />
        </Field>
        <Field label={tx('name')}>
          <Input name="deviceName" value={name} onValue={setName} />
        </Field>
        <Field label={tx('hall')}>
          <Select
            value={hallId || halls.data?.[0]?.id || ''}
            onValue={setHallId}
            options={(halls.data ?? []).map((h): [string, string] => [h.id, h.name])}
          />
        </Field>
        <button type="submit" class="primary" disabled={enrol.busy || !name.trim()}>
          {tx('enrolDevice')}
        </button>
      </form>
      {enrol.feedback}
      {enrolled.length > 0 && (
        <Table
          testId="enrolled-table"
          head={[tx('name'), tx('deviceKind'), tx('hall'), tx('status'), '']}
          rows={enrolled.map((d) => [
            d.name,
            named(lang.value, 'kind', d.kind, 'role_other'),
            hallName(d.hallId),
            d.revoked ? <span class="tag bad">{tx('revoked')}</span> : <span class="tag good">{tx('active')}</span>,
            d.revoked ? (
              ''
            ) : (
              <div class="stack">
                <Notice kind="info">{tx('enrolled')}</Notice>
                <a class="link" data-testid="enrol-link" href={d.link} target="_blank" rel="noreferrer">
                  {tx('open')}: {d.name}
                </a>
                <button data-testid="revoke" onClick={() => void revoke.run(d)}>
                  {tx('revoke')}
                </button>
              </div>
            ),
          ])}
        />
      )}
      {revoke.feedback}
    </Panel>
  )
}

export function StaffSection() {
  return (
    <div class="grid">
      {can('users.admin') && <People />}
      {can('device.admin') && <Stations />}
    </div>
  )
}
