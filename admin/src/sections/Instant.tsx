/**
 * Instant games: the design with its prize table (checked as the server checks it, INS-1), generation with a live
 * progress bar (rate and time left; the seed comes from the server's entropy source, RNG-27), packs shipped and
 * activated (INS-6) and the reconciliation (INS-12).
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { checkDesign, type InstantDesign } from '../../../server/src/instant/design.ts'
import { api, lang, me } from '../session.ts'
import { named } from '../texts.ts'
import { Chart, COLORS } from '../Chart.tsx'
import {
  HallDay,
  Field,
  Input,
  Loading,
  Notice,
  Panel,
  Table,
  cents,
  errorText,
  money,
  num,
  openPdf,
  percent,
  tx,
  useAction,
  useLoad,
  hallInstant,
} from '../ui.tsx'

interface Game {
  gameNo: number
  name: string
  channel: string
  status: string
  currency: string
  priceCents: number
  ticketCount: number
  packSize: number
  packCount: number
}
interface Progress {
  gameNo: number
  status: 'running' | 'done' | 'failed'
  done: number
  total: number
  startedAt: string
  updatedAt: string
  message?: string
}
interface Reconciliation {
  gameNo: number
  name: string
  currency: string
  priceCents: number
  generated: { tickets: number; packs: number; prizeFundCents: number; salesValueCents: number }
  distributed: { packs: number }
  activated: { packs: number; tickets: number }
  sold: { tickets: number; amountCents: number }
  tiers: Array<{
    tier: number
    amountCents: number
    generated: number
    inPlay: number | null
    paid: number
    paidCents: number
    unpaid: number | null
  }>
  /** Issue 24: a pre-printed game's prizes in play are given once it is closed (they would tell which pack holds what). */
  inPlayWithheld: { until: 'closed' } | null
  refunds: { tickets: number; amountCents: number }
  payoutShare: { designBp: number; inPlayBp: number | null; paidOfSalesBp: number | null; paidCents: number }
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—'
  const s = Math.max(0, Math.round(seconds))
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`
}

/** The live bar: done of total, tickets a second and time left, from the server's progress. */
export function ProgressBar(props: { p: Progress }) {
  const { p } = props
  const elapsed = Math.max(0.001, (Date.parse(p.updatedAt) - Date.parse(p.startedAt)) / 1000)
  const rate = p.done / elapsed
  const left = rate > 0 ? (p.total - p.done) / rate : Infinity
  const pct = p.total > 0 ? Math.floor((p.done * 100) / p.total) : 0
  return (
    <div class="progress" data-testid="generation-progress" data-done={p.done} data-total={p.total}>
      <div class="bar">
        <div class="fill" style={{ width: `${pct}%` }} />
      </div>
      <p>
        <strong>{pct} %</strong> · {num(p.done)} / {num(p.total)} ·{' '}
        <span data-testid="generation-rate">{tx('rate', { rate: num(Math.round(rate)) })}</span>
        {p.status === 'running' && (
          <>
            {' '}
            · <span data-testid="generation-left">{tx('timeLeft', { t: duration(left) })}</span>
          </>
        )}
      </p>
    </div>
  )
}

interface Tier {
  amount: string
  count: string
}

function Designer(props: { onGenerated: () => void; nextGameNo: number }) {
  const [f, setF] = useState({
    gameNo: String(props.nextGameNo),
    name: '',
    price: '10',
    tickets: '300000',
    packSize: '100',
    min: '45',
    max: '70',
    issuer: '',
    paymentPlace: '',
    claimDays: '90',
    salesEnd: '',
    authorisation: '',
  })
  const [tiers, setTiers] = useState<Tier[]>([
    { amount: '5000', count: '20' },
    { amount: '500', count: '400' },
    { amount: '50', count: '8000' },
    { amount: '20', count: '20000' },
    { amount: '10', count: '60000' },
  ])
  const [progress, setProgress] = useState<Progress | null>(null)
  const [error, setError] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setInterval> | null>(null)
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current)
    },
    [],
  )
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }))
  const design: InstantDesign = {
    gameNo: Number(f.gameNo),
    name: f.name.trim(),
    currency: 'BOB',
    priceCents: cents(f.price),
    ticketCount: Number(f.tickets),
    packSize: Number(f.packSize),
    playStyle: { type: 'match-three' },
    tiers: tiers.map((t) => ({ amountCents: cents(t.amount), count: Number(t.count) })),
    payoutShareBp: { min: Math.round(Number(f.min) * 100), max: Math.round(Number(f.max) * 100) },
    claimDays: Number(f.claimDays),
    // INS-10: the last moment of sale on the hall's wall clock (issue 29: never the browser's), sent as UTC.
    salesEndAt: /^\d{4}-\d{2}-\d{2}$/.test(f.salesEnd) ? hallInstant(`${f.salesEnd}T23:59:59`) : '',
    back: { issuer: f.issuer.trim(), paymentPlace: f.paymentPlace.trim() },
    // LOT-3 / GEN-5: the regulator's authorisation of the game, printed on the back of its tickets.
    authorisationRef: f.authorisation.trim() || null,
  }
  let preview: ReturnType<typeof checkDesign> | null = null
  let refusal: string | null = null
  try {
    preview = checkDesign(design)
  } catch (err) {
    // The rule the design breaks, in words (the domain's own message is for logs).
    const field = (err as { details?: { field?: string } }).details?.field ?? ''
    refusal =
      field === 'payoutShareBp'
        ? tx('designPayoutOut')
        : field.startsWith('tiers')
          ? tx('designTiersBad')
          : tx('designBad')
  }
  async function generate(e: Event) {
    e.preventDefault()
    setError(null)
    try {
      await api('POST', '/api/instant/generations', { design })
      const poll = async () => {
        const p = await api<Progress>('GET', `/api/instant/generations/${design.gameNo}`)
        setProgress(p)
        if (p.status !== 'running') {
          if (timer.current) clearInterval(timer.current)
          timer.current = null
          if (p.status === 'failed') setError(p.message ?? errorText(null))
          else props.onGenerated()
        }
      }
      timer.current = setInterval(() => void poll().catch((err) => setError(errorText(err))), 250)
      await poll()
    } catch (err) {
      setError(errorText(err))
    }
  }
  const running = progress?.status === 'running'
  return (
    <Panel title={tx('newInstant')} testId="instant-designer" wide>
      <form onSubmit={generate}>
        <div class="form-grid">
          <Field label={tx('gameNo')}>
            <Input name="gameNo" inputMode="numeric" value={f.gameNo} onValue={set('gameNo')} />
          </Field>
          <Field label={tx('name')}>
            <Input name="instantName" value={f.name} onValue={set('name')} />
          </Field>
          <Field label={tx('price')}>
            <Input name="price" inputMode="decimal" value={f.price} onValue={set('price')} />
          </Field>
          <Field label={tx('ticketCount')}>
            <Input name="tickets" inputMode="numeric" value={f.tickets} onValue={set('tickets')} />
          </Field>
          <Field label={tx('packSize')}>
            <Input name="packSize" inputMode="numeric" value={f.packSize} onValue={set('packSize')} />
          </Field>
          <Field label={tx('payoutMin')}>
            <Input name="min" value={f.min} onValue={set('min')} />
          </Field>
          <Field label={tx('payoutMax')}>
            <Input name="max" value={f.max} onValue={set('max')} />
          </Field>
          <Field label={tx('operator')}>
            <Input name="issuer" value={f.issuer} onValue={set('issuer')} />
          </Field>
          <Field label={tx('paymentPlace')}>
            <Input name="paymentPlace" value={f.paymentPlace} onValue={set('paymentPlace')} />
          </Field>
          {/* Issue 29 point 4: the last day of sale typed dd/mm/aaaa, a day of the hall, not the browser's picker. */}
          <HallDay name="salesEnd" label={tx('salesEnd')} value={f.salesEnd} onValue={set('salesEnd')} />
          <Field label={tx('authorisationRef')}>
            <Input name="instantAuthorisation" value={f.authorisation} onValue={set('authorisation')} />
          </Field>
        </div>
        <h3>{tx('tiers')}</h3>
        <table class="tiers" data-testid="tiers">
          <thead>
            <tr>
              <th>{tx('tierAmount')}</th>
              <th>{tx('tierCount')}</th>
              <th>{tx('prizeFund')}</th>
            </tr>
          </thead>
          <tbody>
            {tiers.map((t, i) => (
              <tr key={i}>
                <td>
                  <Input
                    name={`tier-amount-${i}`}
                    inputMode="decimal"
                    value={t.amount}
                    onValue={(v) => setTiers((x) => x.map((y, j) => (j === i ? { ...y, amount: v } : y)))}
                  />
                </td>
                <td>
                  <Input
                    name={`tier-count-${i}`}
                    inputMode="numeric"
                    value={t.count}
                    onValue={(v) => setTiers((x) => x.map((y, j) => (j === i ? { ...y, count: v } : y)))}
                  />
                </td>
                <td>{money(cents(t.amount) * Number(t.count))}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div class="inline">
          <button type="button" onClick={() => setTiers((x) => [...x, { amount: '1', count: '1' }])}>
            {tx('addTier')}
          </button>
          {refusal && (
            <Notice kind="error" testId="design-refused">
              {refusal}
            </Notice>
          )}
          {preview && (
            <span data-testid="design-preview">
              {tx('prizeFund')}: <strong>{money(preview.prizeFundCents)}</strong> · {tx('payoutShare')}:{' '}
              <strong>{percent(preview.payoutShareBp)}</strong> · {tx('packs')}: {num(preview.packCount)}
            </span>
          )}
          <button type="submit" class="primary" data-testid="generate" disabled={running || !preview}>
            {tx('generate')}
          </button>
        </div>
      </form>
      {progress && (
        <>
          <p>
            {running
              ? tx('generating')
              : progress.status === 'done'
                ? tx('generated', { n: num(progress.total), packs: num(preview?.packCount ?? 0) })
                : ''}
          </p>
          <ProgressBar p={progress} />
        </>
      )}
      {error && (
        <Notice kind="error" testId="error">
          {error}
        </Notice>
      )}
    </Panel>
  )
}

function GameDetail(props: { game: Game; onChange: () => void }) {
  const g = props.game
  const rec = useLoad(() => api<Reconciliation>('GET', `/api/instant/games/${g.gameNo}/reconciliation`), [g.gameNo])
  const [from, setFrom] = useState('1')
  const [to, setTo] = useState('2')
  const [destination, setDestination] = useState('')
  const [packNo, setPackNo] = useState('1')
  const [location, setLocation] = useState('')
  const ship = useAction(async () => {
    await api('POST', `/api/instant/games/${g.gameNo}/packs/ship`, {
      fromPack: Number(from),
      toPack: Number(to),
      destination: destination.trim(),
      by: me.value?.name ?? '',
    })
    await rec.reload()
    return tx('shipped', { n: Number(to) - Number(from) + 1 })
  })
  const activate = useAction(async () => {
    await api('POST', '/api/instant/packs/activate', {
      gameNo: g.gameNo,
      packNo: Number(packNo),
      location: location.trim(),
      by: me.value?.name ?? '',
    })
    await rec.reload()
    return tx('activated')
  })
  const pdf = useAction(async () => {
    await openPdf(`/api/instant/games/${g.gameNo}/reconciliation.pdf`, api)
  })
  const r = rec.data
  return (
    <>
      <Panel title={`${g.name} · ${tx('gameNo')} ${g.gameNo}`} testId="instant-packs">
        <form
          class="inline"
          data-testid="ship-packs"
          onSubmit={(e) => {
            e.preventDefault()
            void ship.run()
          }}
        >
          <Field label={tx('fromPack')}>
            <Input name="fromPack" inputMode="numeric" value={from} onValue={setFrom} />
          </Field>
          <Field label={tx('toPack')}>
            <Input name="toPack" inputMode="numeric" value={to} onValue={setTo} />
          </Field>
          <Field label={tx('destination')}>
            <Input name="destination" value={destination} onValue={setDestination} />
          </Field>
          <button type="submit" class="primary" disabled={ship.busy || !destination.trim()}>
            {tx('shipPacks')}
          </button>
        </form>
        {ship.feedback}
        <form
          class="inline"
          data-testid="activate-pack"
          onSubmit={(e) => {
            e.preventDefault()
            void activate.run()
          }}
        >
          <Field label={tx('packNo')}>
            <Input name="packNo" inputMode="numeric" value={packNo} onValue={setPackNo} />
          </Field>
          <Field label={tx('location')}>
            <Input name="location" value={location} onValue={setLocation} />
          </Field>
          <button type="submit" class="primary" disabled={activate.busy || !location.trim()}>
            {tx('activatePack')}
          </button>
        </form>
        {activate.feedback}
      </Panel>
      <Panel
        title={tx('reconciliation')}
        testId="reconciliation"
        actions={<button onClick={() => void pdf.run()}>{tx('pdf')}</button>}
      >
        {!r ? (
          <Loading error={rec.error} />
        ) : (
          <>
            <dl data-testid="reconciliation-figures">
              <dt>{tx('ticketCount')}</dt>
              <dd>
                {num(r.generated.tickets)} · {num(r.generated.packs)} {tx('packs').toLowerCase()}
              </dd>
              <dt>{tx('packsShipped')}</dt>
              <dd>{num(r.distributed.packs)}</dd>
              <dt>{tx('packsActivated')}</dt>
              <dd>{num(r.activated.packs)}</dd>
              <dt>{tx('sold')}</dt>
              <dd>
                {num(r.sold.tickets)} · {money(r.sold.amountCents, r.currency)}
              </dd>
              <dt>{tx('paid')}</dt>
              <dd>{money(r.payoutShare.paidCents, r.currency)}</dd>
              <dt>{tx('refunded')}</dt>
              <dd>
                {num(r.refunds.tickets)} · {money(r.refunds.amountCents, r.currency)}
              </dd>
              <dt>{tx('payoutShare')}</dt>
              <dd>
                {tx('planned')} {percent(r.payoutShare.designBp)} · {tx('actual')}{' '}
                {percent(r.payoutShare.paidOfSalesBp)}
              </dd>
            </dl>
            <Chart
              testId="instant-tiers-chart"
              title={tx('tiers')}
              type="bar"
              labels={r.tiers.map((t) => money(t.amountCents, r.currency))}
              format={(v) => num(v)}
              height={220}
              series={[
                { label: tx('paid'), data: r.tiers.map((t) => t.paid), color: COLORS.actual },
                ...(r.inPlayWithheld
                  ? []
                  : [{ label: tx('outstanding'), data: r.tiers.map((t) => t.unpaid ?? 0), color: COLORS.prizes }]),
              ]}
              stacked
            />
            {r.inPlayWithheld && (
              <Notice kind="info" testId="in-play-withheld">
                {tx('inPlayWithheld')}
              </Notice>
            )}
          </>
        )}
        {pdf.error && pdf.feedback}
      </Panel>
    </>
  )
}

export function InstantSection() {
  const games = useLoad(() => api<{ games: Game[] }>('GET', '/api/instant/games').then((r) => r.games))
  const [selected, setSelected] = useState<number | null>(null)
  if (!games.data) return <Loading error={games.error} />
  const current = games.data.find((g) => g.gameNo === selected) ?? games.data[0]
  const nextNo = Math.max(100, ...games.data.map((g) => g.gameNo)) + 1
  return (
    <div class="grid">
      <Panel title={tx('instantGames')} testId="instant-games" wide>
        <Table
          testId="instant-table"
          head={[tx('gameNo'), tx('name'), tx('price'), tx('ticketCount'), tx('packs'), tx('status')]}
          rows={games.data.map((g) => [
            num(g.gameNo),
            <a
              href="#/instant"
              onClick={(e) => {
                e.preventDefault()
                setSelected(g.gameNo)
              }}
            >
              {g.name}
            </a>,
            money(g.priceCents, g.currency),
            num(g.ticketCount),
            num(g.packCount),
            <span class="tag">{named(lang.value, 'is', g.status, 'ds_other')}</span>,
          ])}
        />
      </Panel>
      <Designer nextGameNo={nextNo} onGenerated={games.reload} />
      {current && <GameDetail key={current.gameNo} game={current} onChange={games.reload} />}
    </div>
  )
}
