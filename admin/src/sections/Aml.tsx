/**
 * AML officer: the voucher sales the system held for review (GEN-17): file a suspicious transaction report, or
 * dismiss it with the documented analysis that justifies not filing.
 */
import { useState } from 'preact/hooks'
import { api, can, lang, me } from '../session.ts'
import { named } from '../texts.ts'
import { Field, Loading, Panel, Select, Table, money, percent, tx, useAction, useLoad, when } from '../ui.tsx'
import { useHalls } from './Halls.tsx'

interface AmlReport {
  id: string
  hallId: string
  amountCents: number
  smallCents: number
  thresholdCents: number
  sharePercent: number
  buyerDocument: string | null
  status: 'open' | 'filed' | 'dismissed'
  createdAt: string
  reviewedAt: string | null
  reviewedBy: string | null
  reviewNote: string | null
}

function Review(props: { report: AmlReport; currency: string; onDone: () => void }) {
  const [note, setNote] = useState('')
  const act = useAction(async (status: 'filed' | 'dismissed') => {
    await api('POST', `/api/aml/reports/${encodeURIComponent(props.report.id)}/review`, {
      status,
      note: note.trim(),
      officer: me.value?.name ?? '',
    })
    props.onDone()
  })
  return (
    <div class="stack" data-testid="aml-review">
      <Field label={tx('analysis')} wide>
        <textarea
          name="analysis"
          rows={3}
          value={note}
          onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
        />
      </Field>
      <div class="inline">
        <button class="primary" data-testid="aml-file" disabled={act.busy} onClick={() => void act.run('filed')}>
          {tx('file')}
        </button>
        <button data-testid="aml-dismiss" disabled={act.busy} onClick={() => void act.run('dismissed')}>
          {tx('dismiss')}
        </button>
      </div>
      {act.feedback}
    </div>
  )
}

export function AmlSection() {
  const [status, setStatus] = useState('open')
  const reports = useLoad(
    () =>
      api<{ reports: AmlReport[] }>('GET', `/api/aml/reports${status ? `?status=${status}` : ''}`).then(
        (r) => r.reports,
      ),
    [status],
  )
  const halls = useHalls()
  const hallOf = (id: string) => halls.data?.find((h) => h.id === id)
  if (!reports.data) return <Loading error={reports.error} />
  return (
    <div class="grid">
      <Panel
        title={tx('amlReports')}
        testId="aml"
        wide
        actions={
          <Select
            value={status}
            onValue={setStatus}
            options={[
              ['open', tx('aml_open')],
              ['filed', tx('aml_filed')],
              ['dismissed', tx('aml_dismissed')],
              ['', tx('total')],
            ]}
          />
        }
      >
        <Table
          testId="aml-table"
          empty={tx('noAml')}
          head={[
            tx('date'),
            tx('hall'),
            tx('amlAmount'),
            tx('amlSmall'),
            tx('amlThreshold'),
            tx('amlDocument'),
            tx('status'),
            '',
          ]}
          rows={reports.data.map((r) => {
            const currency = hallOf(r.hallId)?.currency ?? 'BOB'
            return [
              when(r.createdAt),
              hallOf(r.hallId)?.name ?? '—',
              money(r.amountCents, currency),
              `${money(r.smallCents, currency)} (${percent(r.sharePercent * 100)})`,
              money(r.thresholdCents, currency),
              r.buyerDocument ?? '—',
              <span class={`tag ${r.status === 'open' ? 'warn' : 'good'}`}>
                {named(lang.value, 'aml', r.status, 'ds_other')}
              </span>,
              r.status === 'open' ? (
                can('aml.decide') ? (
                  <Review report={r} currency={currency} onDone={reports.reload} />
                ) : (
                  ''
                )
              ) : (
                <span>
                  {tx('reviewedBy')} {r.reviewedBy} · {when(r.reviewedAt)}
                  <br />
                  {r.reviewNote}
                </span>
              ),
            ]
          })}
        />
      </Panel>
    </div>
  )
}
