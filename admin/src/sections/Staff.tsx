/**
 * Director: people (each with their own account and role, BNG-94) and the stations enrolled to act on their own
 * (kiosks, cash desks, hall displays), with revocation. The enrolment credential is shown once, as the link that
 * sets the station up.
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { formatInZone } from '../../../server/src/shared/time-zone.ts'
import { api, can, lang, me } from '../session.ts'
import { named } from '../texts.ts'
import { ConfirmDialog, Field, Input, Loading, Notice, Panel, Select, Table, tx, useAction, useLoad } from '../ui.tsx'
import { useHalls } from './Halls.tsx'
import { ex, exNamed } from './equipment-texts.ts'

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
const STATION_KINDS = ['kiosk', 'cashier_station', 'display', 'terminal'] as const
/** The screen each kind of station opens. */
const SCREEN: Record<string, string> = {
  kiosk: 'kiosk',
  cashier_station: 'cashier',
  display: 'display',
  terminal: 'terminal',
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
    await list.reload()
    return said
  })
  const act = useAction(async (p: Person, what: 'disable' | 'enable' | 'unlock') => {
    await api('POST', `/api/auth/users/${encodeURIComponent(p.id)}/${what}`)
    await list.reload()
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

/** What GET /api/auth/devices answers (issue 29 point 7); the id is for the calls, never shown. */
/**
 * Issue 29 point 5: a device's times on its hall's clock with the zone named ("14/03/2026 18:10 (La Paz, UTC-04:00)"),
 * never the browser's: the back office may sit in another zone than the hall.
 */
const hallTime = (d: { timeZone: string | null }, iso: string) =>
  formatInZone(iso, d.timeZone ?? 'UTC', 'date-time', true)

interface Device {
  id: string
  name: string
  kind: string
  hallId: string | null
  hallName: string | null
  /** The device's hall's zone (IANA): its times are shown on that clock, with the zone named. */
  timeZone: string | null
  enrolledAt: string
  lastSeenAt: string | null
  revokedAt: string | null
  /** Issue 26 (GEN-7, GEN-4): the marks on record and what the hall's profile still asks of the device. */
  sealCode: string | null
  typeApprovalNo: string | null
  missingMarks: string[]
  /** Issue 26 (GEN-4, GEN-7, BNG-9): the printer it prints on, and what it lacks, as the server judges a sale. */
  printer?: PrinterOf | null
  printerMissing?: string[]
  printerMarksRequired?: { sealCode: boolean; typeApproval: boolean; issuingAuthorisation: boolean } | null
}
interface PrinterOf {
  id: string
  name: string
  own: boolean
  shared: 'hall' | 'operator' | null
  sealCode: string | null
  typeApprovalNo: string | null
  issuingAuthorisation: string | null
  status: string
}
/** What is typed in a device's printer form. */
interface PrinterForm {
  device: Device
  name: string
  model: string
  sealCode: string
  typeApprovalNo: string
  issuingAuthorisation: string
}
/** The printer's state in words: which one, whose, and whether the device may sell on it. */
function PrinterCell(props: { d: Device }) {
  const { d } = props
  const p = d.printer
  const missing = d.printerMissing ?? []
  const name = !p
    ? ex('pr_none')
    : p.own
      ? ex('pr_own', { name: p.name })
      : ex(p.shared === 'hall' ? 'pr_shared' : 'pr_sharedOperator', { name: p.name })
  const need = d.printerMarksRequired
  const needsAny = !!need && (need.sealCode || need.typeApproval || need.issuingAuthorisation)
  return (
    <span data-testid="device-printer">
      {name}{' '}
      {missing.length > 0 ? (
        <span class="tag bad block" data-testid="device-printer-missing">
          {ex('pr_missing', {
            what: missing.map((m) => exNamed('pr_m_', m === 'no-printer' ? 'no_printer' : m, m)).join(', '),
          })}
        </span>
      ) : (
        <span class="tag good block" data-testid="device-printer-ok">
          {needsAny ? ex('pr_complete') : ex('pr_noneNeeded')}
        </span>
      )}
    </span>
  )
}

/**
 * Issue 29 point 7: every enrolled station of the director's halls (the demo's too), loaded from the server so the
 * list survives a reload, with revocation and re-enrolment, each confirmed with its consequence. A new credential
 * is shown once, as the link that sets the station up.
 */
function Stations() {
  const halls = useHalls()
  const [kind, setKind] = useState<string>('kiosk')
  const [name, setName] = useState('')
  const [hallId, setHallId] = useState('')
  const [sealCode, setSealCode] = useState('')
  const [typeApprovalNo, setTypeApprovalNo] = useState('')
  /** Issue 26: the device whose seal and type approval are being recorded, with what is typed. */
  const [marking, setMarking] = useState<{ device: Device; sealCode: string; typeApprovalNo: string } | null>(null)
  const devices = useLoad(() => api<{ devices: Device[] }>('GET', '/api/auth/devices').then((r) => r.devices))
  /** Issue 26: the device whose printer is being recorded, what is typed, and whether it is being asked. */
  const [printing, setPrinting] = useState<PrinterForm | null>(null)
  const [askingPrinter, setAskingPrinter] = useState(false)
  const [printerProblem, setPrinterProblem] = useState<string | null>(null)
  const savePrinter = useAction(async () => {
    if (!printing) return
    const d = printing.device
    const text = (v: string) => v.trim() || null
    const marks = {
      name: printing.name.trim(),
      // A model left empty keeps the one on record.
      ...(printing.model.trim() ? { model: printing.model.trim() } : {}),
      sealCode: text(printing.sealCode),
      typeApprovalNo: text(printing.typeApprovalNo),
      issuingAuthorisation: text(printing.issuingAuthorisation),
    }
    if (d.printer?.own) await api('PATCH', `/api/devices/${encodeURIComponent(d.printer.id)}`, marks)
    else
      await api('POST', '/api/devices', {
        // The registry's id is for the calls only: nobody types or reads it.
        id: `IMP-${[...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, '0')).join('')}`,
        kind: 'printer',
        hallId: d.hallId,
        servesDeviceId: d.id,
        ...marks,
      })
    setAskingPrinter(false)
    setPrinting(null)
    await devices.reload()
    return ex('pr_saved', { device: d.name })
  })
  /** The credential just issued, shown once (gone on reload, as the server keeps only its hash). */
  const [issued, setIssued] = useState<{ name: string; link: string; again: boolean } | null>(null)
  const [asking, setAsking] = useState<{ action: 'revoke' | 'reenrol'; device: Device } | null>(null)
  const [copied, setCopied] = useState(false)
  const linkOf = (d: { kind: string; hallId: string | null }, credential: string) =>
    `${location.origin}/${SCREEN[d.kind] ?? 'kiosk'}/?${d.hallId ? `hall=${encodeURIComponent(d.hallId)}&` : ''}device=${encodeURIComponent(credential)}`
  const enrol = useAction(async () => {
    const hall = hallId || halls.data?.[0]?.id || null
    const r = await api<{ id: string; credential: string }>('POST', '/api/auth/devices', {
      kind,
      name: name.trim(),
      ...(hall ? { hallId: hall } : {}),
      // Issue 26: the server refuses the station when its hall's rules require a mark left empty.
      ...(sealCode.trim() ? { sealCode: sealCode.trim() } : {}),
      ...(typeApprovalNo.trim() ? { typeApprovalNo: typeApprovalNo.trim() } : {}),
    })
    // The link is shown with the list that already holds its station.
    await devices.reload()
    setIssued({ name: name.trim(), link: linkOf({ kind, hallId: hall }, r.credential), again: false })
    setCopied(false)
    setName('')
    setSealCode('')
    setTypeApprovalNo('')
  })
  const saveMarks = useAction(async () => {
    if (!marking) return
    await api('POST', `/api/auth/devices/${encodeURIComponent(marking.device.id)}/marks`, {
      sealCode: marking.sealCode.trim() || null,
      typeApprovalNo: marking.typeApprovalNo.trim() || null,
    })
    const done = marking.device.name
    setMarking(null)
    await devices.reload()
    return tx('marksSaved', { name: done })
  })
  const act = useAction(async () => {
    if (!asking) return
    const d = asking.device
    if (asking.action === 'revoke') {
      await api('POST', `/api/auth/devices/${encodeURIComponent(d.id)}/revoke`)
      setAsking(null)
      setIssued(null)
      await devices.reload()
      return tx('revokedDone', { name: d.name })
    }
    const r = await api<{ credential: string }>('POST', `/api/auth/devices/${encodeURIComponent(d.id)}/reenrol`)
    setAsking(null)
    await devices.reload()
    setIssued({ name: d.name, link: linkOf(d, r.credential), again: true })
    setCopied(false)
  })
  const kindName = (k: string) => named(lang.value, 'kind', k, 'role_other')
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
            options={STATION_KINDS.map((k): [string, string] => [k, kindName(k)])}
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
        <Field label={tx('sealCode')}>
          <Input name="sealCode" value={sealCode} onValue={setSealCode} />
        </Field>
        <Field label={tx('typeApprovalNo')}>
          <Input name="typeApprovalNo" value={typeApprovalNo} onValue={setTypeApprovalNo} />
        </Field>
        <button type="submit" class="primary" disabled={enrol.busy || !name.trim()}>
          {tx('enrolDevice')}
        </button>
      </form>
      {enrol.error && enrol.feedback}
      {issued && (
        <div class="stack" data-testid="issued">
          <Notice kind="info">{tx(issued.again ? 'reenrolled' : 'enrolled', { name: issued.name })}</Notice>
          <div class="row-actions">
            <a class="link" data-testid="enrol-link" href={issued.link} target="_blank" rel="noreferrer">
              {tx('open')}: {issued.name}
            </a>
            <button
              data-testid="copy-link"
              onClick={() =>
                void navigator.clipboard?.writeText(issued.link).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {tx('copyLink')}
            </button>
            {copied && <span class="muted">{tx('linkCopied')}</span>}
          </div>
        </div>
      )}
      {devices.data === null ? (
        <Loading error={devices.error} />
      ) : (
        <Table
          testId="enrolled-table"
          empty={tx('noDevices')}
          head={[
            tx('name'),
            tx('deviceKind'),
            tx('hall'),
            tx('sealCode'),
            tx('typeApprovalNo'),
            ex('pr_column'),
            tx('lastSeen'),
            tx('enrolledAt'),
            tx('status'),
            '',
          ]}
          rows={devices.data.map((d) => [
            <strong data-testid="device-name">{d.name}</strong>,
            kindName(d.kind),
            d.hallName ?? '—',
            <span data-testid="device-seal">
              {d.sealCode ?? '—'}
              {d.missingMarks.length > 0 && (
                <>
                  {' '}
                  <span class="tag bad" data-testid="device-missing-marks">
                    {tx('marksMissing', {
                      what: d.missingMarks
                        .map((m) => tx(m === 'seal-code' ? 'mark_seal_code' : 'mark_type_approval'))
                        .join(', '),
                    })}
                  </span>
                </>
              )}
            </span>,
            <span data-testid="device-type-approval">{d.typeApprovalNo ?? '—'}</span>,
            d.kind === 'display' ? '—' : <PrinterCell d={d} />,
            d.lastSeenAt ? hallTime(d, d.lastSeenAt) : tx('never'),
            hallTime(d, d.enrolledAt),
            d.revokedAt ? (
              <span class="tag bad">
                {tx('revoked')} · {hallTime(d, d.revokedAt)}
              </span>
            ) : (
              <span class="tag good">{tx('active')}</span>
            ),
            <div class="row-actions" data-testid={`device-actions-${d.name}`}>
              {!d.revokedAt && (
                <button data-testid="revoke" onClick={() => setAsking({ action: 'revoke', device: d })}>
                  {tx('revoke')}
                </button>
              )}
              <button data-testid="reenrol" onClick={() => setAsking({ action: 'reenrol', device: d })}>
                {tx('reenrol')}
              </button>
              {!d.revokedAt && (
                <button
                  data-testid="edit-marks"
                  onClick={() =>
                    setMarking({ device: d, sealCode: d.sealCode ?? '', typeApprovalNo: d.typeApprovalNo ?? '' })
                  }
                >
                  {tx('editMarks')}
                </button>
              )}
              {!d.revokedAt && d.kind !== 'display' && (
                <button
                  data-testid="edit-printer"
                  onClick={() => {
                    const p = d.printer?.own ? d.printer : null
                    setPrinterProblem(null)
                    setPrinting({
                      device: d,
                      name: p?.name ?? `${ex('pr_column')} ${d.name}`,
                      model: '',
                      sealCode: p?.sealCode ?? '',
                      typeApprovalNo: p?.typeApprovalNo ?? '',
                      issuingAuthorisation: p?.issuingAuthorisation ?? '',
                    })
                  }}
                >
                  {ex(d.printer?.own ? 'pr_editOwn' : 'pr_edit')}
                </button>
              )}
            </div>,
          ])}
        />
      )}
      {marking && (
        <form
          class="inline"
          data-testid="device-marks"
          onSubmit={(e) => {
            e.preventDefault()
            void saveMarks.run()
          }}
        >
          <strong>{tx('marksTitle', { name: marking.device.name })}</strong>
          <Field label={tx('sealCode')}>
            <Input
              name="markSealCode"
              value={marking.sealCode}
              onValue={(v) => setMarking({ ...marking, sealCode: v })}
            />
          </Field>
          <Field label={tx('typeApprovalNo')}>
            <Input
              name="markTypeApprovalNo"
              value={marking.typeApprovalNo}
              onValue={(v) => setMarking({ ...marking, typeApprovalNo: v })}
            />
          </Field>
          <button type="submit" class="primary" disabled={saveMarks.busy}>
            {tx('saveMarks')}
          </button>
          <button type="button" onClick={() => setMarking(null)}>
            {tx('cancel')}
          </button>
        </form>
      )}
      {saveMarks.feedback}
      {printing && (
        <PrinterFormView
          form={printing}
          onForm={setPrinting}
          busy={savePrinter.busy}
          onSubmit={() => {
            if (!printing.name.trim()) return setPrinterProblem(ex('pr_nameNeeded'))
            setPrinterProblem(null)
            setAskingPrinter(true)
          }}
          onCancel={() => setPrinting(null)}
        />
      )}
      {printerProblem && (
        <Notice kind="error" testId="printer-problem">
          {printerProblem}
        </Notice>
      )}
      {!askingPrinter && savePrinter.feedback}
      {askingPrinter && printing && (
        <ConfirmDialog
          title={ex('pr_confirmTitle', { device: printing.device.name })}
          consequence={printerConsequence(printing)}
          confirm={ex('pr_save')}
          busy={savePrinter.busy}
          error={savePrinter.error}
          onConfirm={() => void savePrinter.run()}
          onCancel={() => setAskingPrinter(false)}
        />
      )}
      {!asking && act.feedback}
      {asking && (
        <ConfirmDialog
          title={tx(asking.action === 'revoke' ? 'revokeTitle' : 'reenrolTitle', { name: asking.device.name })}
          consequence={tx(asking.action === 'revoke' ? 'revokeConsequence' : 'reenrolConsequence')}
          confirm={tx(asking.action === 'revoke' ? 'revoke' : 'reenrol')}
          danger
          busy={act.busy}
          error={act.error}
          onConfirm={() => void act.run()}
          onCancel={() => setAsking(null)}
        />
      )}
    </Panel>
  )
}

/** What recording the printer leads to: the marks it will carry, and whether the device then sells. */
function printerConsequence(f: PrinterForm): string[] {
  const need = f.device.printerMarksRequired
  const marks = [
    f.sealCode.trim() && ex('pr_markSeal', { v: f.sealCode.trim() }),
    f.typeApprovalNo.trim() && ex('pr_markTypeApproval', { v: f.typeApprovalNo.trim() }),
    f.issuingAuthorisation.trim() && ex('pr_markIssuing', { v: f.issuingAuthorisation.trim() }),
  ].filter(Boolean)
  const still = [
    need?.sealCode && !f.sealCode.trim() && 'seal-code',
    need?.typeApproval && !f.typeApprovalNo.trim() && 'type-approval',
    need?.issuingAuthorisation && !f.issuingAuthorisation.trim() && 'issuing-authorisation',
  ].filter((m): m is string => !!m)
  return [
    ex('pr_confirmLead', {
      device: f.device.name,
      printer: f.name.trim(),
      marks: marks.length ? marks.join(', ') : ex('pr_marksNone'),
    }),
    still.length
      ? ex('pr_confirmStill', { what: still.map((m) => exNamed('pr_m_', m, m)).join(', ') })
      : ex('pr_confirmOk'),
  ]
}

/** Issue 26: the form of a device's own printer, the fields its hall's rules require marked as such. */
function PrinterFormView(props: {
  form: PrinterForm
  onForm: (f: PrinterForm) => void
  busy: boolean
  onSubmit: () => void
  onCancel: () => void
}) {
  const f = props.form
  const need = f.device.printerMarksRequired
  const set = (k: keyof Omit<PrinterForm, 'device'>) => (v: string) => props.onForm({ ...f, [k]: v })
  const label = (text: string, required: boolean | undefined) => (required ? `${text} (${ex('pr_required')})` : text)
  // The form opens below the device list: brought into view, so the director sees what the button opened.
  const box = useRef<HTMLFormElement>(null)
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'center' })
    box.current?.querySelector('input')?.focus()
  }, [f.device.id])
  return (
    <form
      ref={box}
      class="inline"
      data-testid="device-printer-form"
      onSubmit={(e) => {
        e.preventDefault()
        props.onSubmit()
      }}
    >
      <div class="wide">
        <strong>{ex('pr_formTitle', { name: f.device.name })}</strong>
        <p class="muted">
          {ex('pr_formHelp')}{' '}
          {f.device.printer?.own ? ex('pr_formExisting', { name: f.device.printer.name }) : ex('pr_formNew')}
        </p>
      </div>
      <Field label={ex('pr_name')}>
        <Input name="printerName" value={f.name} maxLength={120} onValue={set('name')} />
      </Field>
      <Field label={ex('pr_model')}>
        <Input name="printerModel" value={f.model} maxLength={120} onValue={set('model')} />
      </Field>
      <Field label={label(ex('pr_seal'), need?.sealCode)}>
        <Input name="printerSeal" value={f.sealCode} maxLength={40} onValue={set('sealCode')} />
      </Field>
      <Field label={label(ex('pr_typeApproval'), need?.typeApproval)}>
        <Input name="printerTypeApproval" value={f.typeApprovalNo} maxLength={60} onValue={set('typeApprovalNo')} />
      </Field>
      <Field label={label(ex('pr_issuing'), need?.issuingAuthorisation)} wide>
        <Input
          name="printerIssuing"
          value={f.issuingAuthorisation}
          maxLength={120}
          onValue={set('issuingAuthorisation')}
        />
      </Field>
      <button type="submit" class="primary" disabled={props.busy}>
        {ex('pr_save')}
      </button>
      <button type="button" onClick={props.onCancel}>
        {tx('cancel')}
      </button>
    </form>
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
