/**
 * Director: the hall's ball sets (BNG-24 to BNG-27): register, retire, games played against the limit, and how
 * often each ball came out over a set's life with the chi-square test of equal chances (RNG-32).
 */
import { useState } from 'preact/hooks'
import { api, lang, me } from '../session.ts'
import { named } from '../texts.ts'
import { localeOf } from '../../../web/i18n.ts'
import { Chart, COLORS } from '../Chart.tsx'
import { Field, Input, Loading, Panel, Table, num, tx, useAction, useLoad, when } from '../ui.tsx'
import { HallPicker, useHalls } from './Halls.tsx'

interface BallSet {
  id: string
  label: string
  approvalNo: string | null
  ballCount: number
  gameLimit: number
  gamesPlayed: number
  status: string
  createdAt: string
  warning: boolean
  exhausted: boolean
}
export interface Frequencies {
  setId: string
  label: string
  ballCount: number
  games: number
  balls: number
  counts: number[]
  expected: number
  chiSquare: { statistic: number; df: number; pValue: number } | null
}

export function FrequencyChart(props: { f: Frequencies }) {
  const { f } = props
  const labels = f.counts.map((_, i) => String(i + 1))
  return (
    <>
      <p class="muted" data-testid="frequency-hint">
        {tx('frequencyHint', {
          games: num(f.games),
          balls: num(f.balls),
          p: f.chiSquare
            ? f.chiSquare.pValue.toLocaleString(localeOf(lang.value), {
                minimumFractionDigits: 3,
                maximumFractionDigits: 3,
              })
            : '—',
        })}
      </p>
      <Chart
        testId="frequency-chart"
        title={`${tx('frequencies')} · ${f.label}`}
        type="bar"
        labels={labels}
        height={300}
        format={(v) => num(Math.round(v * 10) / 10)}
        series={[
          { label: tx('times'), data: f.counts, color: COLORS.sales },
          {
            label: tx('expected'),
            data: f.counts.map(() => f.expected),
            color: COLORS.plan,
            type: 'line',
            dashed: true,
          },
        ]}
      />
    </>
  )
}

function HallSets(props: { hallId: string }) {
  const sets = useLoad(
    () =>
      api<{ sets: BallSet[] }>('GET', `/api/halls/${encodeURIComponent(props.hallId)}/ball-sets`).then((r) => r.sets),
    [props.hallId],
  )
  const [chosen, setChosen] = useState('')
  const [label, setLabel] = useState('')
  const [approvalNo, setApprovalNo] = useState('')
  const [limit, setLimit] = useState('1000')
  // BNG-26: the manufacturer's guaranteed games (required in Cantabria); BNG-3/4: a set of another layout's balls.
  const [guaranteed, setGuaranteed] = useState('')
  const [ballCount, setBallCount] = useState('')
  const [reason, setReason] = useState('')
  const active = chosen || sets.data?.find((s) => s.status === 'active')?.id || sets.data?.[0]?.id || ''
  const freq = useLoad(
    () =>
      active
        ? api<Frequencies>('GET', `/api/ball-sets/${encodeURIComponent(active)}/frequencies`)
        : Promise.resolve(null),
    [active],
  )
  const register = useAction(async () => {
    await api('POST', `/api/halls/${encodeURIComponent(props.hallId)}/ball-sets`, {
      label: label.trim(),
      ...(approvalNo.trim() ? { approvalNo: approvalNo.trim() } : {}),
      ...(guaranteed.trim() ? { guaranteedGames: Number(guaranteed) } : {}),
      ...(ballCount.trim() ? { ballCount: Number(ballCount) } : {}),
      gameLimit: Number(limit),
      status: sets.data?.some((s) => s.status === 'active') ? 'reserve' : 'active',
    })
    setLabel('')
    await sets.reload()
  })
  const retire = useAction(async (id: string) => {
    await api('POST', `/api/ball-sets/${encodeURIComponent(id)}/retire`, {
      reason: reason.trim(),
      by: me.value?.name ?? '',
    })
    setReason('')
    await sets.reload()
  })
  if (!sets.data) return <Loading error={sets.error} />
  return (
    <>
      <Panel title={tx('ballSets')} testId="ball-sets" wide>
        <Table
          testId="ball-sets-table"
          head={[tx('label'), tx('approvalNo'), tx('status'), tx('gamesPlayed'), tx('gameLimit'), tx('createdAt'), '']}
          rows={sets.data.map((s) => [
            <a
              href="#/ball-sets"
              class={s.id === active ? 'on' : ''}
              onClick={(e) => {
                e.preventDefault()
                setChosen(s.id)
              }}
            >
              {s.label}
            </a>,
            s.approvalNo ?? '—',
            <span class={`tag ${s.exhausted ? 'bad' : s.warning ? 'warn' : 'good'}`}>
              {named(lang.value, 'bs', s.status, 'ds_other')}
            </span>,
            num(s.gamesPlayed),
            num(s.gameLimit),
            when(s.createdAt),
            s.status === 'retired' ? (
              ''
            ) : (
              <button disabled={retire.busy || reason.trim().length < 3} onClick={() => void retire.run(s.id)}>
                {tx('retire')}
              </button>
            ),
          ])}
        />
        <div class="inline">
          <Field label={tx('retireReason')} wide>
            <Input name="retireReason" value={reason} onValue={setReason} />
          </Field>
        </div>
        {retire.feedback}
        <form
          class="inline"
          data-testid="new-ball-set"
          onSubmit={(e) => {
            e.preventDefault()
            void register.run()
          }}
        >
          <Field label={tx('label')}>
            <Input name="label" value={label} onValue={setLabel} />
          </Field>
          <Field label={tx('approvalNo')}>
            <Input name="approvalNo" value={approvalNo} onValue={setApprovalNo} />
          </Field>
          <Field label={tx('gameLimit')}>
            <Input name="gameLimit" inputMode="numeric" value={limit} onValue={setLimit} />
          </Field>
          <Field label={tx('guaranteedGames')}>
            <Input name="guaranteedGames" inputMode="numeric" value={guaranteed} onValue={setGuaranteed} />
          </Field>
          <Field label={tx('ballCount')}>
            <Input name="ballCount" inputMode="numeric" value={ballCount} onValue={setBallCount} />
          </Field>
          <button type="submit" class="primary" disabled={register.busy || !label.trim()}>
            {tx('newBallSet')}
          </button>
        </form>
        {register.feedback}
      </Panel>
      <Panel title={tx('frequencies')} testId="frequencies" wide>
        {freq.data ? (
          <FrequencyChart f={freq.data} />
        ) : active ? (
          <Loading error={freq.error} />
        ) : (
          <p class="muted">{tx('nothing')}</p>
        )}
      </Panel>
    </>
  )
}

export function BallSetsSection() {
  const halls = useHalls()
  const [hallId, setHallId] = useState('')
  if (!halls.data) return <Loading error={halls.error} />
  const current = hallId || halls.data[0]?.id || ''
  return (
    <div class="grid">
      <div class="wide inline">
        <HallPicker halls={halls.data} value={current} onValue={setHallId} />
      </div>
      {current && <HallSets key={current} hallId={current} />}
    </div>
  )
}
