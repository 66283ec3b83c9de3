/**
 * The exclusion list (GEN-23, GEN-25, GEN-27; issue 26, CFG-4) in the back office: the director records a
 * self-exclusion or a prohibition, and, only where the operator's profile names international lists (the UIF's in
 * Bolivia), the list the person comes from. Elsewhere the field is absent: the hall alone excludes.
 */
import { useState } from 'preact/hooks'
import { ApiError } from '../../../web/http.ts'
import { api } from '../session.ts'
import { Field, Input, Loading, Panel, Select, Table, tx, useAction, useLoad, when } from '../ui.tsx'

interface Exclusion {
  id: string
  document: string
  name: string
  kind: 'self_excluded' | 'prohibited'
  reason: string
  listSource: string | null
  createdAt: string
  liftedAt: string | null
}

export function ExclusionsSection() {
  const list = useLoad(
    async () =>
      api<{ exclusions: Exclusion[]; internationalLists: { authority: string } | null }>(
        'GET',
        '/api/players/exclusions',
      ),
    [],
  )
  const [f, setF] = useState({ document: '', name: '', kind: '', reason: '', listSource: '' })
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }))
  const lists = list.data?.internationalLists ?? null
  const record = useAction(async () => {
    const missing = (['document', 'name', 'kind', 'reason'] as const).filter((k) => !f[k].trim())
    if (missing.length)
      throw new ApiError('LOCAL', tx('ex_missing', { fields: missing.map((k) => tx(`ex_${k}`)).join(', ') }), 0)
    // GEN-23 (6): a person on an international list is prohibited, never self-excluded.
    if (lists && f.listSource.trim() && f.kind !== 'prohibited') throw new ApiError('LOCAL', tx('ex_listHint'), 0)
    await api('POST', '/api/players/exclusions', {
      document: f.document.trim(),
      name: f.name.trim(),
      kind: f.kind,
      reason: f.reason.trim(),
      ...(lists && f.listSource.trim() ? { listSource: f.listSource.trim() } : {}),
    })
    const name = f.name.trim()
    setF({ document: '', name: '', kind: '', reason: '', listSource: '' })
    await list.reload()
    return tx('ex_done', { name })
  })
  return (
    <div class="grid">
      <Panel title={tx('ex_title')} testId="exclusion-form" wide>
        <p class="muted">{tx('ex_help')}</p>
        {!list.data ? (
          <Loading error={list.error} />
        ) : (
          <form
            class="form-grid"
            onSubmit={(e) => {
              e.preventDefault()
              void record.run()
            }}
          >
            <Field label={tx('ex_document')}>
              <Input name="ex-document" value={f.document} onValue={set('document')} />
            </Field>
            <Field label={tx('ex_name')}>
              <Input name="ex-name" value={f.name} onValue={set('name')} />
            </Field>
            <Field label={tx('ex_kind')}>
              <Select
                testId="ex-kind"
                value={f.kind}
                onValue={set('kind')}
                options={[
                  ['', tx('ex_choose')],
                  ['self_excluded', tx('ex_self')],
                  ['prohibited', tx('ex_prohibited')],
                ]}
              />
            </Field>
            <Field label={tx('ex_reason')}>
              <Input name="ex-reason" value={f.reason} onValue={set('reason')} />
            </Field>
            {lists && (
              <Field label={tx('ex_listSource', { authority: lists.authority })} wide>
                <Input name="ex-listSource" value={f.listSource} onValue={set('listSource')} />
              </Field>
            )}
            {lists && <p class="muted wide">{tx('ex_listHint')}</p>}
            <button type="submit" class="primary" data-testid="ex-submit" disabled={record.busy}>
              {tx('ex_submit')}
            </button>
          </form>
        )}
        {record.feedback}
      </Panel>
      <Panel title={tx('ex_list')} testId="exclusions" wide>
        {list.data && (
          <Table
            testId="exclusions-table"
            head={[tx('ex_name'), tx('ex_document'), tx('ex_kind'), tx('ex_source'), tx('ex_since')]}
            rows={list.data.exclusions
              .filter((e) => !e.liftedAt)
              .map((e) => [
                e.name,
                e.document,
                e.kind === 'prohibited' ? tx('ex_prohibited') : tx('ex_self'),
                e.listSource ?? tx('ex_byHall'),
                when(e.createdAt),
              ])}
          />
        )}
      </Panel>
    </div>
  )
}
