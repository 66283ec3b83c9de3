/**
 * Plans a numbered-ticket lottery (LOT-3, LOT-4, LOT-12, CFG-39) in the back office (issue 29 point 8): every field
 * POST /api/lottery/draws requires, with Spanish labels, and the server's refusal named by field.
 */
import { useState } from 'preact/hooks'
import { api } from '../session.ts'
import { Feedback, Field, HallDateTime, Input, Select, cents, hallInstant } from '../ui.tsx'
import { lx } from './lottery-texts.ts'
import { planRefusal } from './plan-refusal.ts'
import { emptyGoods, goodsBody, goodsMissing, GoodsPrizeFields, type GoodsValue } from './GoodsPrize.tsx'

type PrizeRow = {
  name: string
  rule: 'exact' | 'ending'
  digits: string
  amount: string
  /** LOT-22: cash, or goods / in kind with their class, backing and source (PRM-11). */
  kind: 'cash' | 'goods' | 'in-kind'
  goods: GoodsValue
}
const newPrize = (rule: PrizeRow['rule'], digits: string): PrizeRow => ({
  name: '',
  rule,
  digits,
  amount: '',
  kind: 'cash',
  goods: emptyGoods(),
})

const FIELDS = [
  'institution',
  'name',
  'gameCode',
  'drawNumber',
  'issue',
  'from',
  'to',
  'series',
  'fractions',
  'price',
  'currency',
  'budget',
  'salesStartAt',
  'salesCloseAt',
  'drawAt',
  'claimDeadline',
  'drawPlace',
  'paymentPlace',
  'regulationUrl',
  'authorisationRef',
  'securityMarks',
  'authority',
  'director',
  'moderator',
  'notary',
] as const
type FieldKey = (typeof FIELDS)[number]

/** The server's field paths (rules.ts problems, zod issues) to the form's inputs. */
const SERVER_FIELD: Record<string, FieldKey> = {
  numbering: 'to',
  'numbering.to': 'to',
  'numbering.digits': 'to',
  ticketPriceCents: 'price',
  budgetCents: 'budget',
  licensedMaxTickets: 'to',
  staff: 'authority',
}

export function LotteryPlanForm(props: { onCreated: () => void }) {
  const [f, setF] = useState<Record<FieldKey, string>>(
    Object.fromEntries(FIELDS.map((k) => [k, k === 'currency' ? 'BOB' : ''])) as Record<FieldKey, string>,
  )
  const [prizes, setPrizes] = useState<PrizeRow[]>([newPrize('exact', '')])
  const [bad, setBad] = useState<Set<string>>(new Set())
  const [error, setError] = useState<string | null>(null)
  const [ok, setOk] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const set = (k: FieldKey) => (v: string) => setF((x) => ({ ...x, [k]: v }))
  const label = (k: FieldKey) => lx(`pf_${k}` as never)
  async function submit(e: Event) {
    e.preventDefault()
    setError(null)
    setOk(null)
    const missing = FIELDS.filter((k) => !f[k].trim())
    const goodsLacking = prizes.flatMap((p) => (p.kind === 'cash' ? [] : goodsMissing(p.goods)))
    if (missing.length || goodsLacking.length || prizes.some((p) => !p.name.trim() || !p.amount.trim())) {
      setBad(new Set(missing))
      return setError(
        lx('checkFields', {
          fields: [
            ...new Set([
              ...missing.map(label),
              ...(prizes.some((p) => !p.name.trim() || !p.amount.trim()) ? [lx('pf_prizes')] : []),
              ...goodsLacking,
            ]),
          ].join(', '),
        }),
      )
    }
    const to = Number(f.to)
    // Issue 29: typed on the hall's clock (its zone named by the field), whatever the browser's zone.
    const iso = (v: string) => hallInstant(v)
    setBusy(true)
    try {
      await api('POST', '/api/lottery/draws', {
        kind: 'traditional',
        institution: f.institution.trim(),
        name: f.name.trim(),
        gameCode: f.gameCode.trim().toUpperCase(),
        drawNumber: Number(f.drawNumber),
        issue: f.issue.trim(),
        numbering: { from: Number(f.from), to, digits: Math.max(String(to).length, f.to.trim().length) },
        series: Number(f.series),
        fractions: Number(f.fractions),
        ticketPriceCents: cents(f.price),
        currency: f.currency.trim().toUpperCase(),
        budgetCents: cents(f.budget),
        prizes: prizes.map((p, i) => ({
          code: `P${i + 1}`,
          name: p.name.trim(),
          amountCents: cents(p.amount),
          rule: p.rule === 'exact' ? { type: 'exact' } : { type: 'ending', of: 'P1', digits: Number(p.digits || 1) },
          ...(p.kind === 'cash' ? {} : { kind: p.kind, goods: goodsBody(p.goods), source: p.goods.source }),
        })),
        salesStartAt: iso(f.salesStartAt),
        salesCloseAt: iso(f.salesCloseAt),
        drawAt: iso(f.drawAt),
        claimDeadline: iso(f.claimDeadline),
        drawPlace: f.drawPlace.trim(),
        paymentPlace: f.paymentPlace.trim(),
        regulationUrl: f.regulationUrl.trim(),
        authorisationRef: f.authorisationRef.trim(),
        drawMethod: 'rng',
        securityMarks: f.securityMarks.trim(),
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
  const input = (k: FieldKey) =>
    // Issue 29 point 4: dates typed day first and on 24 h, on the hall's clock (its zone named), not the browser's picker.
    dates.has(k) ? (
      <HallDateTime key={k} name={`plan-${k}`} label={label(k)} value={f[k]} onValue={set(k)} invalid={bad.has(k)} />
    ) : (
      <Field label={label(k)} key={k}>
        <Input name={`plan-${k}`} value={f[k]} onValue={set(k)} aria-invalid={bad.has(k) ? 'true' : undefined} />
      </Field>
    )
  const dates = new Set<FieldKey>(['salesStartAt', 'salesCloseAt', 'drawAt', 'claimDeadline'])
  return (
    <div class="subpanel" data-testid="lottery-plan-form">
      <h3>{lx('planTitle')}</h3>
      <p class="muted">{lx('planHelp')}</p>
      <form class="form-grid" onSubmit={(e) => void submit(e)}>
        {FIELDS.map((k) => input(k))}
      </form>
      <h4>{lx('pf_prizes')}</h4>
      {prizes.map((p, i) => (
        <div key={i} data-testid="plan-prize">
          <div class="inline">
            <Field label={lx('prizeName')}>
              <Input
                name={`prize-name-${i}`}
                value={p.name}
                onValue={(v) => setPrizes((x) => x.map((y, j) => (j === i ? { ...y, name: v } : y)))}
              />
            </Field>
            <Field label={lx('prizeRule')}>
              <Select
                value={p.rule}
                onValue={(v) =>
                  setPrizes((x) => x.map((y, j) => (j === i ? { ...y, rule: v as PrizeRow['rule'] } : y)))
                }
                options={[
                  ['exact', lx('ruleExact')],
                  ['ending', lx('ruleEnding')],
                ]}
              />
            </Field>
            {p.rule === 'ending' && (
              <Field label={lx('endingDigits')}>
                <Input
                  name={`prize-digits-${i}`}
                  inputMode="numeric"
                  value={p.digits}
                  onValue={(v) => setPrizes((x) => x.map((y, j) => (j === i ? { ...y, digits: v } : y)))}
                />
              </Field>
            )}
            <Field label={lx('prizeAmount')}>
              <Input
                name={`prize-amount-${i}`}
                inputMode="decimal"
                value={p.amount}
                onValue={(v) => setPrizes((x) => x.map((y, j) => (j === i ? { ...y, amount: v } : y)))}
              />
            </Field>
            <Field label={lx('gp_kind')}>
              <Select
                testId={`prize-kind-${i}`}
                value={p.kind}
                onValue={(v) =>
                  setPrizes((x) => x.map((y, j) => (j === i ? { ...y, kind: v as PrizeRow['kind'] } : y)))
                }
                options={[
                  ['cash', lx('gp_cash')],
                  ['goods', lx('gp_goods')],
                  ['in-kind', lx('gp_inKind')],
                ]}
              />
            </Field>
          </div>
          {p.kind !== 'cash' && (
            <GoodsPrizeFields
              prefix={`prize-${i}`}
              value={p.goods}
              onValue={(g) => setPrizes((x) => x.map((y, j) => (j === i ? { ...y, goods: g } : y)))}
            />
          )}
        </div>
      ))}
      <div class="inline">
        <button type="button" onClick={() => setPrizes((x) => [...x, newPrize('ending', '1')])}>
          {lx('addPrize')}
        </button>
        <button type="button" class="primary" data-testid="plan-submit" disabled={busy} onClick={(e) => void submit(e)}>
          {lx('planSubmit')}
        </button>
      </div>
      <Feedback error={error} ok={ok} />
    </div>
  )
}
