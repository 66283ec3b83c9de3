/**
 * Director: the hall's prima de bingo (BNG-57 to BNG-64) and the pots it takes part in (BNG-55, BNG-66, BNG-67).
 */
import { useState } from 'preact/hooks'
import { api, lang } from '../session.ts'
import { named } from '../texts.ts'
import {
  Field,
  Input,
  Loading,
  Panel,
  Select,
  Table,
  cents,
  money,
  num,
  percent,
  tx,
  useAction,
  useLoad,
} from '../ui.tsx'
import { HallPicker, useHalls, type Hall } from './Halls.tsx'

interface Prima {
  amountsCents: number[]
  rules: { deductionBp: number; baseBallLimit: number; incrementPerGame: number }
  state: { amountCents: number; fundCents: number; ballLimit: number }
}
interface Pot {
  id: string
  name: string
  kind: string
  amountCents: number
  reserveCents: number
  contributionBp: number
  hallIds: string[]
}

function HallBonus(props: { hall: Hall; halls: Hall[] }) {
  const { hall } = props
  const enc = encodeURIComponent(hall.id)
  const prima = useLoad(() => api<{ prima: Prima | null }>('GET', `/api/halls/${enc}/prima`), [hall.id])
  const pots = useLoad(() => api<{ pots: Pot[] }>('GET', `/api/pots?hallId=${enc}`).then((r) => r.pots), [hall.id])
  const [amounts, setAmounts] = useState('500, 1000, 2000')
  const [deduction, setDeduction] = useState('6')
  const [baseBalls, setBaseBalls] = useState('50')
  const savePrima = useAction(async () => {
    await api('PUT', `/api/halls/${enc}/prima`, {
      amountsCents: amounts
        .split(/[;,\s]+/)
        .filter(Boolean)
        .map(cents),
      deductionBp: Math.round(Number(deduction.replace(',', '.')) * 100),
      baseBallLimit: Number(baseBalls),
    })
    await prima.reload()
  })
  const [potName, setPotName] = useState('')
  const [potKind, setPotKind] = useState('progressive')
  const [contribution, setContribution] = useState('2')
  const [within, setWithin] = useState('40')
  // RNG-20 / RNG-21: the AJ's prior authorisation of the pot, and the commission approved in the Plan de Apuestas.
  const [potAuthorisation, setPotAuthorisation] = useState('')
  const [commission, setCommission] = useState('0')
  const createPot = useAction(async () => {
    const condition =
      potKind === 'lucky'
        ? { luckyPrizes: ['bingo'], numbers: 1 }
        : { prize: 'bingo', scale: [{ withinBalls: Number(within), shareBp: 10_000 }] }
    await api('POST', '/api/pots', {
      name: potName.trim(),
      kind: potKind,
      contributionBp: Math.round(Number(contribution.replace(',', '.')) * 100),
      condition,
      hallIds: [hall.id],
      authorisationRef: potAuthorisation.trim() || null,
      commissionBp: Math.round(Number(commission.replace(',', '.') || '0') * 100),
    })
    setPotName('')
    await pots.reload()
  })
  const p = prima.data?.prima
  return (
    <>
      <Panel title={`${tx('prima')} · ${hall.name}`} testId="prima">
        {p ? (
          <dl data-testid="prima-state">
            <dt>{tx('primaAmounts')}</dt>
            <dd>{p.amountsCents.map((a) => money(a, hall.currency)).join(' · ')}</dd>
            <dt>{tx('amount')}</dt>
            <dd>{money(p.state.amountCents, hall.currency)}</dd>
            <dt>{tx('primaFund')}</dt>
            <dd>{money(p.state.fundCents, hall.currency)}</dd>
            <dt>{tx('primaDeduction')}</dt>
            <dd>{percent(p.rules.deductionBp)}</dd>
            <dt>{tx('primaBalls')}</dt>
            <dd>{num(p.state.ballLimit)}</dd>
          </dl>
        ) : !prima.data ? (
          <Loading error={prima.error} />
        ) : (
          <p class="muted">{tx('primaOff')}</p>
        )}
        <form
          class="inline"
          data-testid="prima-form"
          onSubmit={(e) => {
            e.preventDefault()
            void savePrima.run()
          }}
        >
          <Field label={tx('primaAmounts')} wide>
            <Input name="amounts" value={amounts} onValue={setAmounts} />
          </Field>
          <Field label={`${tx('primaDeduction')} (%)`}>
            <Input name="deduction" inputMode="decimal" value={deduction} onValue={setDeduction} />
          </Field>
          <Field label={tx('primaBalls')}>
            <Input name="baseBalls" inputMode="numeric" value={baseBalls} onValue={setBaseBalls} />
          </Field>
          <button type="submit" class="primary" disabled={savePrima.busy}>
            {tx('save')}
          </button>
        </form>
        {savePrima.feedback}
      </Panel>
      <Panel title={`${tx('pots')} · ${hall.name}`} testId="pots">
        {pots.data ? (
          <Table
            testId="pots-table"
            head={[tx('name'), tx('potKind'), tx('contribution'), tx('potBalance'), tx('halls')]}
            rows={pots.data.map((pot) => [
              pot.name,
              named(lang.value, 'pot', pot.kind, 'role_other'),
              percent(pot.contributionBp),
              money(pot.amountCents, hall.currency),
              pot.hallIds.map((id) => props.halls.find((h) => h.id === id)?.name ?? '—').join(', '),
            ])}
          />
        ) : (
          <Loading error={pots.error} />
        )}
        <form
          class="inline"
          data-testid="pot-form"
          onSubmit={(e) => {
            e.preventDefault()
            void createPot.run()
          }}
        >
          <Field label={tx('name')}>
            <Input name="potName" value={potName} onValue={setPotName} />
          </Field>
          <Field label={tx('potKind')}>
            <Select
              value={potKind}
              onValue={setPotKind}
              options={['progressive', 'interconnected', 'lucky'].map((k): [string, string] => [
                k,
                named(lang.value, 'pot', k, 'role_other'),
              ])}
            />
          </Field>
          <Field label={`${tx('contribution')} (%)`}>
            <Input name="contribution" inputMode="decimal" value={contribution} onValue={setContribution} />
          </Field>
          {potKind !== 'lucky' && (
            <Field label={tx('withinBalls')}>
              <Input name="within" inputMode="numeric" value={within} onValue={setWithin} />
            </Field>
          )}
          <Field label={tx('authorisationRef')}>
            <Input name="potAuthorisation" value={potAuthorisation} onValue={setPotAuthorisation} />
          </Field>
          <Field label={`${tx('potCommission')} (%)`}>
            <Input name="potCommission" inputMode="decimal" value={commission} onValue={setCommission} />
          </Field>
          <button type="submit" class="primary" disabled={createPot.busy || !potName.trim()}>
            {tx('newPot')}
          </button>
        </form>
        {createPot.feedback}
      </Panel>
    </>
  )
}

export function BonusSection() {
  const halls = useHalls()
  const [hallId, setHallId] = useState('')
  if (!halls.data) return <Loading error={halls.error} />
  const hall = halls.data.find((h) => h.id === hallId) ?? halls.data[0]
  return (
    <div class="grid">
      <div class="wide inline">
        <HallPicker halls={halls.data} value={hall?.id ?? ''} onValue={setHallId} />
      </div>
      {hall && <HallBonus key={hall.id} hall={hall} halls={halls.data} />}
    </div>
  )
}
