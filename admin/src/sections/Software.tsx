/**
 * Issue 26 (RNG-3, RNG-24/25, RNG-29, RNG-32 point 5): the certified software registry in the back office. The
 * director sees the running build of each component (version and SHA-256 fingerprint, from the server), the
 * certificates on record in words (which build, jurisdiction, laboratory, whether it still counts), records a
 * certificate for the running build only (the version and fingerprint are the server's, never typed) and withdraws
 * one, each asked first with its consequence. Until then only the API could (POST /api/software).
 */
import { useState } from 'preact/hooks'
import { PROFILES } from '../../../server/src/shared/profile.ts'
import { api } from '../session.ts'
import {
  ConfirmDialog,
  Field,
  Input,
  Loading,
  Notice,
  Panel,
  Select,
  Table,
  tx,
  useAction,
  useLoad,
  when,
} from '../ui.tsx'
import { ex, exNamed } from './equipment-texts.ts'

interface Build {
  component: string
  version: string
  buildSha256: string
}
interface Certificate {
  id: string
  component: string
  jurisdiction: string
  version: string
  buildSha256: string
  certificateRef: string
  laboratory: string
  demo: boolean
  status: 'active' | 'withdrawn'
  recordedBy: string
  recordedAt: string
  withdrawnAt: string | null
  withdrawnReason: string | null
}

/** A certificate is issued for the halls of one regulation: the shipped profiles. */
const JURISDICTIONS = Object.keys(PROFILES)
const componentName = (c: string) => exNamed('sw_c_', c, ex('sw_component'))
const jurisdictionName = (j: string) => exNamed('sw_j_', j, PROFILES[j]?.name ?? ex('sw_jurisdiction'))
/** A fingerprint cut for a sentence: its first and last 8 hex digits (the full one is in the table). */
const shortHash = (h: string) => (h.length > 20 ? `${h.slice(0, 8)}…${h.slice(-8)}` : h)

export function SoftwareSection() {
  const list = useLoad(() => api<{ records: Certificate[]; running: Build[] }>('GET', '/api/software'))
  const [component, setComponent] = useState('draw-engine')
  const [jurisdiction, setJurisdiction] = useState<string>('BO-2025')
  const [certificateRef, setCertificateRef] = useState('')
  const [laboratory, setLaboratory] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [asking, setAsking] = useState(false)
  const [withdrawing, setWithdrawing] = useState<{ cert: Certificate; reason: string; asking: boolean } | null>(null)
  const [withdrawProblem, setWithdrawProblem] = useState<string | null>(null)

  const running = list.data?.running ?? []
  const build = running.find((b) => b.component === component)
  const record = useAction(async () => {
    if (!build) return
    const ref = certificateRef.trim()
    await api('POST', '/api/software', {
      component,
      jurisdiction,
      version: build.version,
      buildSha256: build.buildSha256,
      certificateRef: ref,
      laboratory: laboratory.trim(),
    })
    setAsking(false)
    setCertificateRef('')
    setLaboratory('')
    await list.reload()
    return ex('sw_recorded_done', { certificate: ref })
  })
  const withdraw = useAction(async () => {
    if (!withdrawing) return
    const { cert, reason } = withdrawing
    await api('POST', `/api/software/${encodeURIComponent(cert.id)}/withdraw`, { reason: reason.trim() })
    setWithdrawing(null)
    await list.reload()
    return ex('sw_withdrawn_done', { certificate: cert.certificateRef })
  })

  if (!list.data) return <Loading error={list.error} />
  // By component, then jurisdiction, the newest first: a withdrawn record beside the one that replaced it.
  const order = (c: string) => running.findIndex((b) => b.component === c)
  const records = [...list.data.records].sort(
    (a, b) =>
      order(a.component) - order(b.component) ||
      a.jurisdiction.localeCompare(b.jurisdiction) ||
      b.recordedAt.localeCompare(a.recordedAt),
  )
  const activeFor = (b: Build) =>
    records.filter((r) => r.status === 'active' && r.component === b.component && r.buildSha256 === b.buildSha256)
  return (
    <div class="grid">
      <Panel title={ex('sw_runningTitle')} testId="software-running" wide>
        <p class="muted">{ex('sw_runningHelp')}</p>
        <Table
          testId="software-running-table"
          head={[ex('sw_component'), ex('sw_version'), ex('sw_hash'), ex('sw_certifiedFor')]}
          rows={running.map((b) => {
            const certs = activeFor(b)
            return [
              <strong>{componentName(b.component)}</strong>,
              b.version,
              <code class="mono hash" data-testid={`running-hash-${b.component}`}>
                {b.buildSha256}
              </code>,
              certs.length ? (
                <ul class="plain" data-testid={`running-certified-${b.component}`}>
                  {certs.map((c) => (
                    <li key={c.id}>
                      {jurisdictionName(c.jurisdiction)}: {c.certificateRef}
                      {c.demo ? ` (${ex('sw_demo')})` : ''}
                    </li>
                  ))}
                </ul>
              ) : (
                <span class="tag bad" data-testid={`running-certified-${b.component}`}>
                  {ex('sw_notCertified')}
                </span>
              ),
            ]
          })}
        />
      </Panel>

      <Panel title={ex('sw_recordsTitle')} testId="software-records" wide>
        <Table
          testId="software-records-table"
          empty={ex('sw_none')}
          head={[
            ex('sw_certificate'),
            ex('sw_component'),
            ex('sw_jurisdiction'),
            ex('sw_version'),
            ex('sw_laboratory'),
            ex('sw_recorded'),
            tx('status'),
            '',
          ]}
          rows={records.map((r) => {
            const current = running.some((b) => b.component === r.component && b.buildSha256 === r.buildSha256)
            return [
              <strong data-testid="software-ref">{r.certificateRef}</strong>,
              componentName(r.component),
              jurisdictionName(r.jurisdiction),
              <span>
                {r.version}{' '}
                <small class={current ? 'muted' : ''}>
                  <code class="mono">{shortHash(r.buildSha256)}</code> ·{' '}
                  {current ? ex('sw_thisBuild') : ex('sw_otherBuild')}
                </small>
              </span>,
              r.laboratory,
              `${when(r.recordedAt)} · ${r.recordedBy}`,
              <span data-testid="software-status">
                {r.status === 'active' ? (
                  <span class={`tag ${current ? 'good' : 'warn'}`}>{ex('sw_active')}</span>
                ) : (
                  <span class="tag bad block">
                    {ex('sw_withdrawn', { date: when(r.withdrawnAt), reason: r.withdrawnReason ?? '—' })}
                  </span>
                )}
                {r.demo && <span class="tag info"> {ex('sw_demo')}</span>}
              </span>,
              r.status === 'active' ? (
                <button
                  data-testid="software-withdraw"
                  onClick={() => {
                    setWithdrawProblem(null)
                    setWithdrawing({ cert: r, reason: '', asking: false })
                  }}
                >
                  {ex('sw_withdraw')}
                </button>
              ) : (
                ''
              ),
            ]
          })}
        />
        {withdrawing && !withdrawing.asking && (
          <form
            class="inline"
            data-testid="software-withdraw-form"
            onSubmit={(e) => {
              e.preventDefault()
              if (!withdrawing.reason.trim()) return setWithdrawProblem(ex('sw_reasonNeeded'))
              setWithdrawProblem(null)
              setWithdrawing({ ...withdrawing, asking: true })
            }}
          >
            <strong>{ex('sw_withdrawTitle', { certificate: withdrawing.cert.certificateRef })}</strong>
            <Field label={ex('sw_withdrawReason')} wide>
              <Input
                name="withdrawReason"
                value={withdrawing.reason}
                maxLength={500}
                onValue={(v) => setWithdrawing({ ...withdrawing, reason: v })}
              />
            </Field>
            <button type="submit" class="danger">
              {ex('sw_withdraw')}
            </button>
            <button type="button" onClick={() => setWithdrawing(null)}>
              {tx('cancel')}
            </button>
          </form>
        )}
        {withdrawProblem && (
          <Notice kind="error" testId="software-withdraw-problem">
            {withdrawProblem}
          </Notice>
        )}
        {!withdrawing && withdraw.feedback}
      </Panel>

      <Panel title={ex('sw_newTitle')} testId="software-new" wide>
        <p class="muted">{ex('sw_newHelp')}</p>
        <form
          class="inline"
          data-testid="software-form"
          onSubmit={(e) => {
            e.preventDefault()
            if (!certificateRef.trim() || !laboratory.trim()) return setProblem(ex('sw_fieldsNeeded'))
            setProblem(null)
            setAsking(true)
          }}
        >
          <Field label={ex('sw_component')}>
            <Select
              testId="software-component"
              value={component}
              onValue={setComponent}
              options={running.map((b): [string, string] => [b.component, componentName(b.component)])}
            />
          </Field>
          <Field label={ex('sw_jurisdiction')}>
            <Select
              testId="software-jurisdiction"
              value={jurisdiction}
              onValue={setJurisdiction}
              options={JURISDICTIONS.map((j): [string, string] => [j, jurisdictionName(j)])}
            />
          </Field>
          <Field label={ex('sw_certificateRef')} wide>
            <Input name="certificateRef" value={certificateRef} maxLength={120} onValue={setCertificateRef} />
          </Field>
          <Field label={ex('sw_laboratory')} wide>
            <Input name="laboratory" value={laboratory} maxLength={120} onValue={setLaboratory} />
          </Field>
          {build && (
            <p class="wide" data-testid="software-build">
              {ex('sw_willCertify', { component: componentName(component), version: build.version })}{' '}
              <code class="mono hash">{build.buildSha256}</code>
            </p>
          )}
          <button type="submit" class="primary" disabled={record.busy || !build}>
            {ex('sw_record')}
          </button>
        </form>
        {problem && (
          <Notice kind="error" testId="software-problem">
            {problem}
          </Notice>
        )}
        {!asking && record.feedback}
      </Panel>

      {asking && build && (
        <ConfirmDialog
          title={ex('sw_confirmTitle', { certificate: certificateRef.trim() })}
          consequence={[
            ex('sw_confirmLead', {
              component: componentName(component),
              version: build.version,
              hash: shortHash(build.buildSha256),
              jurisdiction: jurisdictionName(jurisdiction),
              laboratory: laboratory.trim(),
            }),
            ex('sw_confirmConsequence', { jurisdiction: jurisdictionName(jurisdiction) }),
          ]}
          confirm={ex('sw_record')}
          busy={record.busy}
          error={record.error}
          onConfirm={() => void record.run()}
          onCancel={() => setAsking(false)}
        />
      )}
      {withdrawing?.asking && (
        <ConfirmDialog
          title={ex('sw_withdrawTitle', { certificate: withdrawing.cert.certificateRef })}
          consequence={[
            ex('sw_withdrawLead', {
              component: componentName(withdrawing.cert.component),
              jurisdiction: jurisdictionName(withdrawing.cert.jurisdiction),
            }),
            ex('sw_withdrawReasonSaid', { reason: withdrawing.reason.trim() }),
          ]}
          confirm={ex('sw_withdraw')}
          danger
          busy={withdraw.busy}
          error={withdraw.error}
          onConfirm={() => void withdraw.run()}
          onCancel={() => setWithdrawing({ ...withdrawing, asking: false })}
        />
      )}
    </div>
  )
}
