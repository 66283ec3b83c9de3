/**
 * Plans a raffle of goods (PRM-1 to PRM-6, CFG-44) in the back office (issue 29 point 8): every field POST
 * /api/lottery/draws requires, with Spanish labels, and the server's refusal named by field and rule.
 */
import { useState } from 'preact/hooks'
import { api } from '../session.ts'
import { Feedback, Field, HallDateTime, Input, Select, cents, hallInstant } from '../ui.tsx'
import { lx } from './lottery-texts.ts'
import { planRefusal } from './plan-refusal.ts'

const FIELDS = [
  'organiser',
  'name',
  'gameCode',
  'drawNumber',
  'from',
  'to',
  'price',
  'currency',
  'salesStartAt',
  'salesCloseAt',
  'drawAt',
  'claimDeadline',
  'drawPlace',
  'paymentPlace',
  'authority',
  'director',
  'moderator',
  'notary',
  'prizeName',
  'prizeDescription',
  'prizeValue',
  'prizeDepositedAt',
  'prizeDepositPlace',
  'prizeInvoiceRef',
] as const
type FieldKey = (typeof FIELDS)[number]
const DATES = new Set<FieldKey>(['salesStartAt', 'salesCloseAt', 'drawAt', 'claimDeadline', 'prizeDepositedAt'])
const SERVER_FIELD: Record<string, FieldKey> = {
  organiser: 'organiser',
  numbering: 'to',
  ticketPriceCents: 'price',
  authorisationRef: 'authorisationRef' as FieldKey,
  'prizes.0.valueCents': 'prizeValue',
  'prizes.0.depositedAt': 'prizeDepositedAt',
  'prizes.0.invoiceRef': 'prizeInvoiceRef',
}

export function RafflePlanForm(props: { onCreated: () => void }) {
  const [f, setF] = useState<Record<FieldKey, string>>(
    Object.fromEntries(FIELDS.map((k) => [k, k === 'currency' ? 'BOB' : ''])) as Record<FieldKey, string>,
  )
  const [classification, setClassification] = useState('')
  // PRM-4: the authority's reference, unless the raffle is exempt (non-profit and a small prize): the server says.
  const [authorisationRef, setAuthorisationRef] = useState('')
  const [bad, setBad] = useState<Set<string>>(new Set())
  const [error, setError] = useState<string | null>(null)
  const [ok, setOk] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const label = (k: FieldKey | 'classification' | 'authorisationRef') => lx(`rf_${k}` as never)
  async function submit() {
    setError(null)
    setOk(null)
    const missing: Array<FieldKey | 'classification'> = FIELDS.filter((k) => !f[k].trim())
    if (!classification) missing.push('classification')
    if (missing.length) {
      setBad(new Set(missing))
      return setError(lx('checkFields', { fields: missing.map(label).join(', ') }))
    }
    // Issue 29: typed on the hall's clock (its zone named by the field), whatever the browser's zone.
    const iso = (v: string) => hallInstant(v)
    setBusy(true)
    try {
      await api('POST', '/api/lottery/draws', {
        kind: 'raffle',
        organiser: f.organiser.trim(),
        name: f.name.trim(),
        gameCode: f.gameCode.trim().toUpperCase(),
        drawNumber: Number(f.drawNumber),
        classification,
        nonProfit: classification !== 'interes-particular',
        numbering: { from: Number(f.from), to: Number(f.to), digits: Math.max(String(f.to).trim().length, 1) },
        ticketPriceCents: cents(f.price),
        currency: f.currency.trim().toUpperCase(),
        prizes: [
          {
            code: 'R1',
            name: f.prizeName.trim(),
            description: f.prizeDescription.trim(),
            kind: 'goods',
            valueCents: cents(f.prizeValue),
            depositedAt: iso(f.prizeDepositedAt),
            depositPlace: f.prizeDepositPlace.trim(),
            invoiceRef: f.prizeInvoiceRef.trim(),
          },
        ],
        salesStartAt: iso(f.salesStartAt),
        salesCloseAt: iso(f.salesCloseAt),
        drawAt: iso(f.drawAt),
        claimDeadline: iso(f.claimDeadline),
        drawPlace: f.drawPlace.trim(),
        paymentPlace: f.paymentPlace.trim(),
        drawMethod: 'rng',
        ...(authorisationRef.trim() ? { authorisationRef: authorisationRef.trim() } : {}),
        staff: {
          authority: f.authority.trim(),
          director: f.director.trim(),
          moderator: f.moderator.trim(),
          notary: f.notary.trim(),
        },
      })
      setOk(lx('planCreated', { name: f.name.trim() }))
      props.onCreated()
    } catch (err) {
      const refused = planRefusal(err, FIELDS, SERVER_FIELD, label)
      if (refused.bad) setBad(refused.bad)
      setError(refused.message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="subpanel" data-testid="raffle-plan-form">
      <h3>{lx('rafflePlanTitle')}</h3>
      <p class="muted">{lx('rafflePlanHelp')}</p>
      <form
        class="form-grid"
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <Field label={label('classification')}>
          <Select
            testId="raffle-classification"
            value={classification}
            onValue={setClassification}
            options={[
              ['', lx('choose')],
              ['benefica', lx('classBenefica')],
              ['utilidad-publica', lx('classPublic')],
              ['interes-particular', lx('classPrivate')],
            ]}
          />
        </Field>
        {FIELDS.map((k) =>
          // Issue 29 point 4: dates typed day first and on 24 h, on the hall's clock, not the browser's picker.
          DATES.has(k) ? (
            <HallDateTime
              key={k}
              name={`raffle-${k}`}
              label={label(k)}
              value={f[k]}
              onValue={(v) => setF((x) => ({ ...x, [k]: v }))}
              invalid={bad.has(k)}
            />
          ) : (
            <Field label={label(k)} key={k}>
              <Input
                name={`raffle-${k}`}
                value={f[k]}
                onValue={(v) => setF((x) => ({ ...x, [k]: v }))}
                aria-invalid={bad.has(k) ? 'true' : undefined}
              />
            </Field>
          ),
        )}
        <Field label={label('authorisationRef')}>
          <Input
            name="raffle-authorisationRef"
            value={authorisationRef}
            onValue={setAuthorisationRef}
            aria-invalid={bad.has('authorisationRef') ? 'true' : undefined}
          />
        </Field>
        <button type="submit" class="primary" data-testid="raffle-plan-submit" disabled={busy}>
          {lx('rafflePlanSubmit')}
        </button>
      </form>
      <Feedback error={error} ok={ok} />
    </div>
  )
}
