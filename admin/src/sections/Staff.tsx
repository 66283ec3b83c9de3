/**
 * Director: people (each with their own account and role, BNG-94) and the stations enrolled to act on their own
 * (kiosks, cash desks, hall displays), with revocation. The enrolment credential is shown once, as the link that
 * sets the station up.
 */
import { useState } from 'preact/hooks'
import { api, can, lang } from '../session.ts'
import { named } from '../texts.ts'
import { Field, Input, Notice, Panel, Select, Table, tx, useAction, useLoad } from '../ui.tsx'
import { useHalls } from './Halls.tsx'

const PERSON_ROLES = ['director', 'floor_manager', 'caller', 'cashier', 'auditor'] as const
const STATION_KINDS = ['kiosk', 'cashier_station', 'display'] as const
/** The screen each kind of station opens. */
const SCREEN: Record<string, string> = { kiosk: 'kiosk', cashier_station: 'cashier', display: 'display' }

interface Enrolled { id: string; name: string; kind: string; hallId?: string; link: string; revoked: boolean }
interface Person { id?: string; username: string; displayName: string; role: string; status?: string }

function People() {
  // The people list is the access line's; until it is there, the form still works and says so.
  const list = useLoad(() => api<{ users?: Person[]; people?: Person[] }>('GET', '/api/auth/users').then((r) => r.users ?? r.people ?? null).catch(() => null))
  const [username, setUsername] = useState('')
  const [displayName, setDisplayName] = useState('')
  const [role, setRole] = useState<string>('cashier')
  const [password, setPassword] = useState('')
  const create = useAction(async () => {
    await api('POST', '/api/auth/users', { username: username.trim(), displayName: displayName.trim(), role, password })
    const said = tx('personCreated', { name: displayName.trim(), role: named(lang.value, 'role', role, 'role_other') })
    setUsername('')
    setDisplayName('')
    setPassword('')
    list.reload()
    return said
  })
  return (
    <Panel title={tx('people')} testId="people">
      {list.data ? (
        <Table testId="people-table" head={[tx('fullName'), tx('username'), tx('role')]}
          rows={list.data.map((p) => [p.displayName, p.username, named(lang.value, 'role', p.role, 'role_other')])} />
      ) : <p class="muted">{tx('noPeopleList')}</p>}
      <form class="inline" data-testid="new-person" onSubmit={(e) => { e.preventDefault(); void create.run() }}>
        <Field label={tx('fullName')}><Input name="displayName" value={displayName} onValue={setDisplayName} /></Field>
        <Field label={tx('username')}><Input name="newUsername" autocomplete="off" value={username} onValue={setUsername} /></Field>
        <Field label={tx('role')}><Select testId="person-role" value={role} onValue={setRole} options={PERSON_ROLES.map((r): [string, string] => [r, named(lang.value, 'role', r, 'role_other')])} /></Field>
        <Field label={tx('password')}><Input name="newPassword" type="password" autocomplete="new-password" value={password} onValue={setPassword} /></Field>
        <button type="submit" class="primary" disabled={create.busy || !username.trim() || !displayName.trim() || password.length < 8}>{tx('newPerson')}</button>
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
    const r = await api<{ id: string; credential: string }>('POST', '/api/auth/devices', { kind, name: name.trim(), ...(hall ? { hallId: hall } : {}) })
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
      <form class="inline" data-testid="enrol-device" onSubmit={(e) => { e.preventDefault(); void enrol.run() }}>
        <Field label={tx('deviceKind')}><Select testId="device-kind" value={kind} onValue={setKind} options={STATION_KINDS.map((k): [string, string] => [k, named(lang.value, 'kind', k, 'role_other')])} /></Field>
        <Field label={tx('name')}><Input name="deviceName" value={name} onValue={setName} /></Field>
        <Field label={tx('hall')}><Select value={hallId || halls.data?.[0]?.id || ''} onValue={setHallId} options={(halls.data ?? []).map((h): [string, string] => [h.id, h.name])} /></Field>
        <button type="submit" class="primary" disabled={enrol.busy || !name.trim()}>{tx('enrolDevice')}</button>
      </form>
      {enrol.feedback}
      {enrolled.length > 0 && (
        <Table testId="enrolled-table" head={[tx('name'), tx('deviceKind'), tx('hall'), tx('status'), '']}
          rows={enrolled.map((d) => [
            d.name, named(lang.value, 'kind', d.kind, 'role_other'), hallName(d.hallId),
            d.revoked ? <span class="tag bad">{tx('revoked')}</span> : <span class="tag good">{tx('active')}</span>,
            d.revoked ? '' : <div class="stack"><Notice kind="info">{tx('enrolled')}</Notice><a class="link" data-testid="enrol-link" href={d.link} target="_blank" rel="noreferrer">{tx('open')}: {d.name}</a>
              <button data-testid="revoke" onClick={() => void revoke.run(d)}>{tx('revoke')}</button></div>,
          ])} />
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
