/**
 * The issue of a numbered-ticket lottery in the back office (issue 29 point 8): print runs for the print shop
 * (POST /print-runs as PDF: the codes go to the secure printer's folder, the back office gets the proof without them,
 * LOT-26), with the reprint's reason and its consequence confirmed.
 */
import { useState } from 'preact/hooks'
import { ApiError } from '../../../web/http.ts'
import { api } from '../session.ts'
import {
  HallDateTime,
  Field,
  Input,
  Loading,
  Feedback,
  Select,
  Table,
  errorText,
  money,
  num,
  openPdf,
  useAction,
  useConfirm,
  useLoad,
  hallInstant,
  when,
} from '../ui.tsx'
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

/** Print run for the print shop, entered in the issue register; the PDF opened is its proof without codes (LOT-26). */
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
      <Feedback error={error} ok={ok} />
      {confirm.dialog}
    </div>
  )
}

export interface HeldRun {
  series: number
  from: number
  to: number
  each: number
  fractions: number
}
export interface IssueRegister {
  status: string
  currency: string
  fractionPriceCents: number
  fractionsPerTicket: number
  issue: { tickets: number; fractions: number; printed: number; undistributed: number; returnedUndistributed: number }
  printRuns: Array<{
    runNo: number
    from: number
    to: number
    seriesFrom: number
    seriesTo: number
    fractions: number
    reprinted: number
    reason: string | null
    by: { name?: string }
    at: string
  }>
  sellers: Array<{
    sellerId: string
    sellerName: string
    distributed: number
    returned: number
    sold: number
    amountDueCents: number
    held: HeldRun[]
  }>
  totals: { distributed: number; returned: number; sold: number; amountDueCents: number }
}

/** "0005–0009 (50 fracciones)" for each run a seller holds (series named when the issue has several). */
export function heldText(runs: HeldRun[], plan: IssuePlan): string {
  if (runs.length === 0) return lx('holdsNothing')
  return runs
    .map((r) => {
      const numbers = r.from === r.to ? pad(r.from, plan) : `${pad(r.from, plan)}–${pad(r.to, plan)}`
      const series = plan.series > 1 ? ` ${lx('seriesShort', { n: r.series })}` : ''
      return `${numbers}${series} (${lx('nFractions', { n: num(r.fractions) })})`
    })
    .join(', ')
}

/** The most fractions of the typed block a seller can hold, from the runs of the register. */
function heldAtMost(
  runs: HeldRun[],
  b: { from: number; to: number; seriesFrom: number; seriesTo: number },
  per: number,
) {
  let n = 0
  for (const r of runs) {
    if (r.series < b.seriesFrom || r.series > b.seriesTo) continue
    const overlap = Math.min(r.to, b.to) - Math.max(r.from, b.from) + 1
    if (overlap > 0) n += overlap * Math.min(r.each, per)
  }
  return n
}

/**
 * Unsold fractions handed back by a seller (LOT-12): the seller is chosen (no default), the range is typed (none
 * pre-filled), the screen says how many fractions it covers and whether the seller holds them, and a confirm
 * states that they are voided for good. The server checks the same against its register.
 */
export function ReturnPanel(props: {
  drawId: string
  plan: IssuePlan
  register: IssueRegister
  onReturned: () => void
}) {
  const { plan, register } = props
  const [sellerId, setSellerId] = useState('')
  const [range, setRange] = useState(emptyRange())
  const [fractionFrom, setFractionFrom] = useState('')
  const [fractionTo, setFractionTo] = useState('')
  const [note, setNote] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [ok, setOk] = useState<string | null>(null)
  const confirm = useConfirm()
  const holders = register.sellers.filter((s) => s.held.length > 0)
  const seller = register.sellers.find((s) => s.sellerId === sellerId)
  const parsed = parseRange(range, plan)
  const fFrom = fractionFrom.trim() ? Number(fractionFrom) : 1
  const fTo = fractionTo.trim() ? Number(fractionTo) : plan.fractions
  const fractionsOk =
    Number.isInteger(fFrom) && Number.isInteger(fTo) && fFrom >= 1 && fTo <= plan.fractions && fFrom <= fTo
  const per = fractionsOk ? fTo - fFrom + 1 : 0
  const covers = 'error' in parsed || !fractionsOk ? null : parsed.tickets * per
  const atMost = seller && covers !== null && !('error' in parsed) ? heldAtMost(seller.held, parsed, per) : null
  const short = atMost !== null && covers !== null && atMost < covers
  async function submit(e: Event) {
    e.preventDefault()
    setError(null)
    setOk(null)
    if (!seller) return setError(lx('chooseSellerFirst'))
    if ('error' in parsed) return setError(parsed.error ?? null)
    if (!fractionsOk) return setError(lx('fractionsOutOf', { n: plan.fractions }))
    const fractions = parsed.tickets * per
    const numbers =
      parsed.from === parsed.to ? pad(parsed.from, plan) : `${pad(parsed.from, plan)}–${pad(parsed.to, plan)}`
    const yes = await confirm.ask({
      title: lx('returnTitle'),
      consequence: [
        lx('returnLead', { seller: seller.sellerName, n: num(fractions), numbers }),
        lx('returnConsequence', { seller: seller.sellerName }),
      ],
      confirmLabel: lx('returnOk', { n: num(fractions) }),
      danger: true,
    })
    if (!yes) return
    setBusy(true)
    try {
      const r = await api<{ fractionsReturned: number }>(
        'POST',
        `/api/lottery/draws/${encodeURIComponent(props.drawId)}/returns`,
        {
          sellerId: seller.sellerId,
          from: parsed.from,
          to: parsed.to,
          seriesFrom: parsed.seriesFrom,
          seriesTo: parsed.seriesTo,
          fractionFrom: fFrom,
          fractionTo: fTo,
          ...(note.trim() ? { note: note.trim() } : {}),
        },
      )
      setOk(lx('returnDone', { n: num(r.fractionsReturned), seller: seller.sellerName }))
      setRange(emptyRange())
      setFractionFrom('')
      setFractionTo('')
      setNote('')
      props.onReturned()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="subpanel" data-testid="returns">
      <h3>{lx('returnsTitle')}</h3>
      <p class="muted">{lx('returnsHelp')}</p>
      {holders.length === 0 ? (
        <p class="muted" data-testid="no-holders">
          {lx('noHolders')}
        </p>
      ) : (
        <form class="inline" onSubmit={(e) => void submit(e)}>
          <Field label={lx('seller')}>
            <Select
              testId="return-seller"
              value={sellerId}
              onValue={setSellerId}
              options={[['', lx('chooseSeller')], ...holders.map((s): [string, string] => [s.sellerId, s.sellerName])]}
            />
          </Field>
          <RangeFields plan={plan} value={range} onValue={setRange} prefix="return" />
          {plan.fractions > 1 && (
            <>
              <Field label={lx('fractionFrom')}>
                <Input
                  name="return-fraction-from"
                  inputMode="numeric"
                  placeholder="1"
                  value={fractionFrom}
                  onValue={setFractionFrom}
                />
              </Field>
              <Field label={lx('fractionTo')}>
                <Input
                  name="return-fraction-to"
                  inputMode="numeric"
                  placeholder={String(plan.fractions)}
                  value={fractionTo}
                  onValue={setFractionTo}
                />
              </Field>
            </>
          )}
          <Field label={lx('note')} wide>
            <Input name="return-note" value={note} onValue={setNote} />
          </Field>
          <button type="submit" class="primary" data-testid="record-return" disabled={busy || !seller || short}>
            {lx('recordReturn')}
          </button>
        </form>
      )}
      {seller && (
        <p class="muted" data-testid="seller-holds">
          {lx('sellerHolds', { seller: seller.sellerName, ranges: heldText(seller.held, plan) })}
        </p>
      )}
      {covers !== null && (
        <p class={short ? 'notice error' : 'muted'} data-testid="return-covers">
          {seller
            ? short
              ? lx('returnShort', { n: num(covers), seller: seller.sellerName, held: num(atMost ?? 0) })
              : lx('returnCovers', { n: num(covers), seller: seller.sellerName })
            : lx('returnCoversNoSeller', { n: num(covers) })}
        </p>
      )}
      <Feedback error={error} ok={ok} />
      {confirm.dialog}
    </div>
  )
}

/** Field names the server's validation answers with, in the screen's words (never the field's code). */
function problemsText(err: unknown, labels: Record<string, string>): string {
  const details =
    err instanceof ApiError ? (err.details as { problems?: Array<{ field: string; rule?: string }> }) : null
  const problems = details?.problems ?? []
  if (!problems.length) return errorText(err)
  const named = problems.map((p) => {
    const label = labels[p.field] ?? labels[p.field.split('.')[0]] ?? lx('otherField')
    return p.rule ? `${label} (${p.rule})` : label
  })
  return lx('checkFields', { fields: [...new Set(named)].join(', ') })
}

/** A printed range handed to an enrolled kiosk or cashier station to sell (issue 13 point 3, LOT-28). */
export function DistributePanel(props: { drawId: string; plan: IssuePlan; onDistributed: () => void }) {
  const { plan } = props
  const sellers = useLoad(
    () => api<{ sellers: Array<{ id: string; name: string; hallName: string | null }> }>('GET', '/api/lottery/sellers'),
    [],
  )
  const [sellerId, setSellerId] = useState('')
  const [range, setRange] = useState(emptyRange())
  const parsed = parseRange(range, plan)
  const seller = sellers.data?.sellers.find((s) => s.id === sellerId)
  const give = useAction(async () => {
    if (!seller) throw new ApiError('LOCAL', lx('chooseSellerToGive'), 0)
    if ('error' in parsed) throw new ApiError('LOCAL', parsed.error ?? '', 0)
    try {
      const r = await api<{ fractions: number }>(
        'POST',
        `/api/lottery/draws/${encodeURIComponent(props.drawId)}/distributions`,
        { sellerId, from: parsed.from, to: parsed.to, seriesFrom: parsed.seriesFrom, seriesTo: parsed.seriesTo },
      )
      setRange(emptyRange())
      props.onDistributed()
      return lx('distributedDone', { n: num(r.fractions), seller: seller.name })
    } catch (err) {
      // The register's refusal says how many of the range are not printed or are out already.
      const d =
        err instanceof ApiError ? (err.details as { notPrinted?: number; taken?: number } | undefined) : undefined
      if (err instanceof ApiError && err.code === 'CONFLICT' && d?.notPrinted !== undefined)
        throw new ApiError(
          err.code,
          lx('distributeConflict', { notPrinted: num(d.notPrinted), taken: num(d.taken ?? 0) }),
          err.status,
        )
      throw err
    }
  })
  return (
    <div class="subpanel" data-testid="distribute">
      <h3>{lx('distributeTitle')}</h3>
      <p class="muted">{lx('distributeHelp')}</p>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault()
          void give.run()
        }}
      >
        <Field label={lx('seller')}>
          <Select
            testId="distribute-seller"
            value={sellerId}
            onValue={setSellerId}
            options={[
              ['', lx('chooseSeller')],
              ...(sellers.data?.sellers ?? []).map((s): [string, string] => [
                s.id,
                s.hallName ? `${s.name} · ${s.hallName}` : s.name,
              ]),
            ]}
          />
        </Field>
        <RangeFields plan={plan} value={range} onValue={setRange} prefix="distribute" />
        <button type="submit" class="primary" data-testid="distribute-submit" disabled={give.busy || !seller}>
          {lx('distributeOk')}
        </button>
      </form>
      {!('error' in parsed) && (
        <p class="muted" data-testid="distribute-covers">
          {lx('printCovers', { tickets: num(parsed.tickets), fractions: num(parsed.fractions) })}
        </p>
      )}
      {give.feedback}
    </div>
  )
}

/**
 * A range reported lost or stolen (LST-1, LST-2, LST-5, §7.14): blocked for good from payment, refund and exchange
 * and listed in the public notice (LST-3), so the confirm says so.
 */
export function LostStolenPanel(props: { drawId: string; plan: IssuePlan; onReported: () => void }) {
  const { plan } = props
  const [f, setF] = useState({
    kind: '',
    discoveredAt: '',
    reportedToAjAt: '',
    distributed: '',
    policeReportRef: '',
    remedy: '',
    notice: '',
  })
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }))
  const [range, setRange] = useState(emptyRange())
  const parsed = parseRange(range, plan)
  const confirm = useConfirm()
  const labels: Record<string, string> = {
    kind: lx('lostKind'),
    discoveredAt: lx('discoveredAt'),
    reportedToAjAt: lx('reportedToAjAt'),
    distributed: lx('wasDistributed'),
    policeReportRef: lx('policeReportRef'),
    remedy: lx('remedy'),
    notice: lx('publicNotice'),
    from: lx('fromNumber'),
    to: lx('toNumber'),
  }
  const report = useAction(async () => {
    if ('error' in parsed) throw new ApiError('LOCAL', parsed.error ?? '', 0)
    const missing = (['kind', 'discoveredAt', 'reportedToAjAt', 'distributed', 'remedy', 'notice'] as const).filter(
      (k) => !f[k].trim(),
    )
    if (f.kind === 'stolen' && !f.policeReportRef.trim()) missing.push('policeReportRef' as never)
    if (missing.length)
      throw new ApiError('LOCAL', lx('checkFields', { fields: missing.map((k) => labels[k]).join(', ') }), 0)
    const numbers =
      parsed.from === parsed.to ? pad(parsed.from, plan) : `${pad(parsed.from, plan)}–${pad(parsed.to, plan)}`
    const yes = await confirm.ask({
      title: f.kind === 'stolen' ? lx('stolenTitle') : lx('lostTitle'),
      consequence: [lx('lostLead', { tickets: num(parsed.tickets), numbers }), lx('lostConsequence')],
      confirmLabel: lx('lostOk'),
      danger: true,
    })
    if (!yes) return lx('notReported')
    try {
      await api('POST', `/api/lottery/draws/${encodeURIComponent(props.drawId)}/lost-stolen`, {
        kind: f.kind,
        from: parsed.from,
        to: parsed.to,
        seriesFrom: parsed.seriesFrom,
        seriesTo: parsed.seriesTo,
        // Issue 29: typed on the hall's clock (named by the field), never the browser's.
        discoveredAt: hallInstant(f.discoveredAt),
        reportedToAjAt: hallInstant(f.reportedToAjAt),
        distributed: f.distributed === 'yes',
        policeReportRef: f.policeReportRef.trim() || null,
        remedy: f.remedy,
        notice: f.notice.trim(),
      })
    } catch (err) {
      throw new ApiError('LOCAL', problemsText(err, labels), 0)
    }
    setRange(emptyRange())
    props.onReported()
    return lx('lostDone', { tickets: num(parsed.tickets), numbers })
  })
  return (
    <div class="subpanel" data-testid="lost-stolen">
      <h3>{lx('lostPanelTitle')}</h3>
      <p class="muted">{lx('lostHelp')}</p>
      <form
        class="form-grid"
        onSubmit={(e) => {
          e.preventDefault()
          void report.run()
        }}
      >
        <Field label={lx('lostKind')}>
          <Select
            testId="lost-kind"
            value={f.kind}
            onValue={set('kind')}
            options={[
              ['', lx('choose')],
              ['lost', lx('kindLost')],
              ['stolen', lx('kindStolen')],
            ]}
          />
        </Field>
        <RangeFields plan={plan} value={range} onValue={setRange} prefix="lost" />
        <Field label={lx('wasDistributed')}>
          <Select
            testId="lost-distributed"
            value={f.distributed}
            onValue={set('distributed')}
            options={[
              ['', lx('choose')],
              ['no', lx('beforeDistribution')],
              ['yes', lx('afterDistribution')],
            ]}
          />
        </Field>
        {/* Issue 29 point 4: typed day first and on 24 h on the hall's clock, its zone named, not the browser's picker. */}
        <HallDateTime
          name="lost-discovered"
          label={lx('discoveredAt')}
          value={f.discoveredAt}
          onValue={set('discoveredAt')}
        />
        <HallDateTime
          name="lost-reported"
          label={lx('reportedToAjAt')}
          value={f.reportedToAjAt}
          onValue={set('reportedToAjAt')}
        />
        <Field label={lx('policeReportRef')}>
          <Input name="lost-police" value={f.policeReportRef} onValue={set('policeReportRef')} />
        </Field>
        <Field label={lx('remedy')}>
          <Select
            testId="lost-remedy"
            value={f.remedy}
            onValue={set('remedy')}
            options={[
              ['', lx('choose')],
              ['new-numbering', lx('remedyNewNumbering')],
              ['full-reprint', lx('remedyFullReprint')],
              ['new-draw-date', lx('remedyNewDate')],
              ['renunciation', lx('remedyRenunciation')],
              ['none', lx('remedyNone')],
            ]}
          />
        </Field>
        <Field label={lx('publicNotice')} wide>
          <Input name="lost-notice" value={f.notice} onValue={set('notice')} />
        </Field>
        <button type="submit" class="danger" data-testid="lost-submit" disabled={report.busy}>
          {lx('lostSubmit')}
        </button>
      </form>
      {report.feedback}
      {confirm.dialog}
    </div>
  )
}

/** A prize paid or delivered, as the register answers it (GET /api/lottery/prize-register). */
interface PrizeEntry {
  paidAt: string
  ticketNumber: string
  amountCents: number
  currency: string
  goods: string[]
  prizes: Array<{ name?: string; code?: string }>
  payee: { name: string | null }
}

/** The fraction a prize was paid on, as its paper shows it (number, series, fraction), never its code's id. */
function ticketText(id: string, plan: IssuePlan): string {
  const m = /-(\d{1,9})-(\d{2,})-(\d{2,})-r\d+-[0-9a-f]{16}$/.exec(id)
  if (!m) return '—'
  return lx('fractionOf', { number: pad(Number(m[1]), plan), series: Number(m[2]), fraction: Number(m[3]) })
}

/**
 * The issue and distribution register (issue 13 point 3) and the prize register (LOT-25, INS-5) of one draw: what
 * was printed, what each seller was given, returned, sold and owes and still holds, and each prize paid, with
 * the printable book.
 */
export function RegisterPanel(props: { drawId: string; plan: IssuePlan; register: IssueRegister }) {
  const { plan, register: r } = props
  const prizes = useLoad(
    () =>
      api<{ entries: PrizeEntry[] }>('GET', `/api/lottery/prize-register?drawId=${encodeURIComponent(props.drawId)}`),
    [props.drawId],
  )
  const book = useAction(async () => {
    await openPdf(`/api/lottery/prize-register.pdf?drawId=${encodeURIComponent(props.drawId)}`, api)
    return lx('bookOpened')
  })
  const m = (cents: number) => money(cents, r.currency)
  return (
    <div class="subpanel" data-testid="register">
      <h3>{lx('registerTitle')}</h3>
      <div class="facts" data-testid="register-issue">
        {(
          [
            ['ticketsIssued', num(r.issue.tickets)],
            ['fractionsIssued', num(r.issue.fractions)],
            ['printed', num(r.issue.printed)],
            ['inStock', num(r.issue.undistributed)],
            ['fractionPrice', m(r.fractionPriceCents)],
          ] as const
        ).map(([k, v]) => (
          <div key={k}>
            <span>{lx(k)}</span>
            <strong>{v}</strong>
          </div>
        ))}
      </div>
      <h4>{lx('bySeller')}</h4>
      <Table
        testId="register-sellers"
        empty={lx('noDistribution')}
        head={[lx('seller'), lx('distributed'), lx('returned'), lx('soldCol'), lx('owes'), lx('holdsCol')]}
        rows={[
          ...r.sellers.map((s) => [
            s.sellerName,
            num(s.distributed),
            num(s.returned),
            num(s.sold),
            m(s.amountDueCents),
            heldText(s.held, plan),
          ]),
          ...(r.sellers.length
            ? [
                [
                  <strong>{lx('totals')}</strong>,
                  num(r.totals.distributed),
                  num(r.totals.returned),
                  num(r.totals.sold),
                  <strong>{m(r.totals.amountDueCents)}</strong>,
                  '',
                ],
              ]
            : []),
        ]}
      />
      <h4>{lx('printRuns')}</h4>
      <Table
        testId="register-runs"
        empty={lx('noPrintRuns')}
        head={[
          lx('runNo'),
          lx('numbersCol'),
          lx('seriesCol'),
          lx('fractionsCol'),
          lx('reprinted'),
          lx('reason'),
          lx('by'),
          lx('when'),
        ]}
        rows={r.printRuns.map((run) => [
          num(run.runNo),
          `${pad(run.from, plan)}–${pad(run.to, plan)}`,
          run.seriesFrom === run.seriesTo ? String(run.seriesFrom) : `${run.seriesFrom}–${run.seriesTo}`,
          num(run.fractions),
          num(run.reprinted),
          run.reason ?? '—',
          run.by?.name ?? '—',
          when(run.at),
        ])}
      />
      <div class="inline">
        <h4>{lx('prizeRegister')}</h4>
        <button data-testid="prize-register-pdf" onClick={() => void book.run()} disabled={book.busy}>
          {lx('prizeBookPdf')}
        </button>
      </div>
      {book.feedback}
      {!prizes.data ? (
        <Loading error={prizes.error} />
      ) : (
        <Table
          testId="prize-register"
          empty={lx('noPrizesPaid')}
          head={[lx('paidAt'), lx('ticket'), lx('prizeCol'), lx('amountCol'), lx('payee')]}
          rows={prizes.data.entries.map((e) => [
            when(e.paidAt),
            ticketText(e.ticketNumber, plan),
            [...e.prizes.map((p) => p.name ?? ''), ...e.goods].filter(Boolean).join(' + ') || '—',
            money(e.amountCents, e.currency),
            e.payee.name ?? '—',
          ])}
        />
      )}
    </div>
  )
}

/** The issue's panels of a numbered lottery on sale: print, returns (and, with the register, the rest). */
export function LotteryIssue(props: {
  drawId: string
  plan: IssuePlan
  status: string
  read: boolean
  admin: boolean
  draw: boolean
}) {
  const register = useLoad(
    () => api<IssueRegister>('GET', `/api/lottery/draws/${encodeURIComponent(props.drawId)}/register`),
    [props.drawId],
  )
  const open = props.status === 'open'
  return (
    <div data-testid="lottery-issue">
      {open && props.admin && <PrintRunPanel drawId={props.drawId} plan={props.plan} onPrinted={register.reload} />}
      {open && props.admin && (
        <DistributePanel drawId={props.drawId} plan={props.plan} onDistributed={register.reload} />
      )}
      {!register.data ? (
        <Loading error={register.error} />
      ) : (
        <>
          {open && props.draw && (
            <ReturnPanel
              drawId={props.drawId}
              plan={props.plan}
              register={register.data}
              onReturned={register.reload}
            />
          )}
          {props.admin && <LostStolenPanel drawId={props.drawId} plan={props.plan} onReported={register.reload} />}
          {props.read && <RegisterPanel drawId={props.drawId} plan={props.plan} register={register.data} />}
        </>
      )}
    </div>
  )
}
