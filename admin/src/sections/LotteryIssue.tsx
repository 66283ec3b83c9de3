/**
 * The issue of a numbered-ticket lottery in the back office (issue 29 point 8): print runs for the print shop
 * (POST /print-runs as PDF), with the reprint's reason and its consequence confirmed.
 */
import { useState } from 'preact/hooks'
import { ApiError } from '../../../web/http.ts'
import { api } from '../session.ts'
import { Field, Input, Notice, errorText, num, openPdf, useConfirm } from '../ui.tsx'
import { lx } from './lottery-texts.ts'

export interface IssuePlan {
  numbering: { from: number; to: number; digits: number }
  series: number
  fractions: number
}

export const pad = (n: number, plan: IssuePlan) => String(n).padStart(plan.numbering.digits, '0')

/** A range of the issue as typed: numbers and series (blank series = every series). */
export interface RangeInput {
  from: string
  to: string
  seriesFrom: string
  seriesTo: string
}

export function emptyRange(): RangeInput {
  return { from: '', to: '', seriesFrom: '', seriesTo: '' }
}

/** The range typed, checked against the plan; a Spanish (or English) reason when it is not usable. */
export function parseRange(r: RangeInput, plan: IssuePlan) {
  const whole = (s: string) => (/^\s*\d+\s*$/.test(s) ? Number(s) : null)
  const from = whole(r.from)
  const to = whole(r.to)
  if (from === null || to === null) return { error: lx('rangeRequired') } as const
  const seriesFrom = r.seriesFrom.trim() ? whole(r.seriesFrom) : 1
  const seriesTo = r.seriesTo.trim() ? whole(r.seriesTo) : plan.series
  if (
    from > to ||
    from < plan.numbering.from ||
    to > plan.numbering.to ||
    seriesFrom === null ||
    seriesTo === null ||
    seriesFrom < 1 ||
    seriesTo > plan.series ||
    seriesFrom > seriesTo
  )
    return {
      error: lx('outOfIssue', { from: pad(plan.numbering.from, plan), to: pad(plan.numbering.to, plan) }),
    } as const
  const tickets = (to - from + 1) * (seriesTo - seriesFrom + 1)
  return { from, to, seriesFrom, seriesTo, tickets, fractions: tickets * plan.fractions } as const
}

/** The number and series inputs of a range. */
export function RangeFields(props: {
  plan: IssuePlan
  value: RangeInput
  onValue: (r: RangeInput) => void
  prefix: string
}) {
  const { plan, value } = props
  const set = (k: keyof RangeInput) => (v: string) => props.onValue({ ...value, [k]: v })
  const hint = `${pad(plan.numbering.from, plan)}–${pad(plan.numbering.to, plan)}`
  return (
    <>
      <Field label={lx('fromNumberOf', { hint })}>
        <Input name={`${props.prefix}-from`} inputMode="numeric" value={value.from} onValue={set('from')} />
      </Field>
      <Field label={lx('toNumber')}>
        <Input name={`${props.prefix}-to`} inputMode="numeric" value={value.to} onValue={set('to')} />
      </Field>
      {plan.series > 1 && (
        <>
          <Field label={lx('seriesFrom')}>
            <Input
              name={`${props.prefix}-series-from`}
              inputMode="numeric"
              placeholder="1"
              value={value.seriesFrom}
              onValue={set('seriesFrom')}
            />
          </Field>
          <Field label={lx('seriesTo')}>
            <Input
              name={`${props.prefix}-series-to`}
              inputMode="numeric"
              placeholder={String(plan.series)}
              value={value.seriesTo}
              onValue={set('seriesTo')}
            />
          </Field>
        </>
      )}
    </>
  )
}

/** Print run for the print shop: the PDF sheet of the range, entered in the issue register. */
export function PrintRunPanel(props: { drawId: string; plan: IssuePlan; onPrinted: () => void }) {
  const { plan } = props
  const [range, setRange] = useState(emptyRange())
  const [reason, setReason] = useState('')
  const [needsReason, setNeedsReason] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [ok, setOk] = useState<string | null>(null)
  const confirm = useConfirm()
  const parsed = parseRange(range, plan)
  async function print(e: Event) {
    e.preventDefault()
    setError(null)
    setOk(null)
    if ('error' in parsed) return setError(parsed.error ?? null)
    const why = reason.trim()
    if (why) {
      const yes = await confirm.ask({
        title: lx('reprintTitle'),
        consequence: [
          lx('reprintLead', {
            fractions: num(parsed.fractions),
            from: pad(parsed.from, plan),
            to: pad(parsed.to, plan),
          }),
          lx('reprintConsequence'),
        ],
        confirmLabel: lx('reprintOk'),
        danger: true,
      })
      if (!yes) return
    }
    setBusy(true)
    try {
      await openPdf(`/api/lottery/draws/${encodeURIComponent(props.drawId)}/print-runs`, api, {
        from: parsed.from,
        to: parsed.to,
        seriesFrom: parsed.seriesFrom,
        seriesTo: parsed.seriesTo,
        format: 'pdf',
        ...(why ? { reason: why } : {}),
      })
      setOk(lx('printOpened', { fractions: num(parsed.fractions) }))
      setNeedsReason(null)
      setReason('')
      props.onPrinted()
    } catch (err) {
      const already =
        err instanceof ApiError && err.code === 'CONFLICT'
          ? Number((err.details as { alreadyPrinted?: number } | undefined)?.alreadyPrinted ?? NaN)
          : NaN
      if (Number.isFinite(already)) {
        setNeedsReason(already)
        setError(lx('alreadyPrinted', { n: num(already) }))
      } else setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="subpanel" data-testid="print-run">
      <h3>{lx('printTitle')}</h3>
      <p class="muted">{lx('printHelp')}</p>
      <form class="inline" onSubmit={(e) => void print(e)}>
        <RangeFields plan={plan} value={range} onValue={setRange} prefix="print" />
        {needsReason !== null && (
          <Field label={lx('reprintReason')} wide>
            <Input name="print-reason" value={reason} onValue={setReason} />
          </Field>
        )}
        <button type="submit" class="primary" data-testid="print-pdf" disabled={busy}>
          {lx('printPdf')}
        </button>
      </form>
      {!('error' in parsed) && (
        <p class="muted" data-testid="print-covers">
          {lx('printCovers', { tickets: num(parsed.tickets), fractions: num(parsed.fractions) })}
        </p>
      )}
      {error && (
        <Notice kind="error" testId="error">
          {error}
        </Notice>
      )}
      {ok && (
        <Notice kind="ok" testId="ok">
          {ok}
        </Notice>
      )}
      {confirm.dialog}
    </div>
  )
}
