/**
 * Plans a raffle of goods (PRM-1 to PRM-6, CFG-44) in the back office (issue 29 point 8): every field POST
 * /api/lottery/draws requires, with Spanish labels, and the server's refusal named by field and rule. Issue 26: or a
 * free promotional draw held on several dates (PRM-9, tracto sucesivo): the dates of its draws, the draw each prize
 * is drawn in, and the bases' word on whether a ticket that has won stays in play; every prize says who provides it
 * (PRM-11). PRM-2: or a tómbola by points (004 F.I, "por suma de puntos hasta alcanzar una cifra determinada"): the
 * bases' reference, the hall where the objects are on display, the tiers of points the draw gives (their sum shown
 * as it is typed, against the total the bases approve) and each object's figure in points.
 */
import { useState } from 'preact/hooks'
import { api } from '../session.ts'
import { Feedback, Field, HallDateTime, Input, Select, cents, hallInstant, hallZone } from '../ui.tsx'
import { lx } from './lottery-texts.ts'
import { planRefusal } from './plan-refusal.ts'
import { SourceSelect, type GoodsValue } from './GoodsPrize.tsx'
import { useHalls } from './Halls.tsx'

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
  'prizes[0].valueCents': 'prizeValue',
  'prizes[0].depositedAt': 'prizeDepositedAt',
  'prizes[0].invoiceRef': 'prizeInvoiceRef',
  'draws[0].drawAt': 'drawAt',
}

/** PRM-9: a further prize of a successive plan, drawn in the draw it names (0 = the first). */
interface MorePrize {
  name: string
  description: string
  value: string
  depositedAt: string
  depositPlace: string
  invoiceRef: string
  source: GoodsValue['source']
  draw: number
  /** PRM-2: the object's figure in points, in a tómbola by points. */
  figure: string
}

/** PRM-2: one tier of a tómbola by points: how many tickets drawn, and the points each of them gets. */
interface Tier {
  count: string
  points: string
}
/** A whole number typed, or null (the live sum counts only what is a number). */
const whole = (v: string): number | null => (/^\s*\d+\s*$/.test(v) ? Number(v) : null)

/** PRM-2: the tiers' sum as typed, for the live check against the approved total. */
export function tiersSum(tiers: readonly Tier[]): { points: number; tickets: number } {
  let points = 0
  let tickets = 0
  for (const t of tiers) {
    const c = whole(t.count)
    const v = whole(t.points)
    if (c === null || v === null) continue
    points += c * v
    tickets += c
  }
  return { points, tickets }
}
const MORE_TEXT = ['name', 'description', 'value', 'depositPlace', 'invoiceRef'] as const
const moreLabel: Record<(typeof MORE_TEXT)[number] | 'depositedAt', FieldKey> = {
  name: 'prizeName',
  description: 'prizeDescription',
  value: 'prizeValue',
  depositedAt: 'prizeDepositedAt',
  depositPlace: 'prizeDepositPlace',
  invoiceRef: 'prizeInvoiceRef',
}

export function RafflePlanForm(props: { onCreated: () => void }) {
  const [f, setF] = useState<Record<FieldKey, string>>(
    Object.fromEntries(FIELDS.map((k) => [k, k === 'currency' ? 'BOB' : ''])) as Record<FieldKey, string>,
  )
  const [classification, setClassification] = useState('')
  // PRM-4: the authority's reference, unless the raffle is exempt (non-profit and a small prize): the server says.
  const [authorisationRef, setAuthorisationRef] = useState('')
  const [source, setSource] = useState<GoodsValue['source']>('')
  // PRM-9: one draw, or a promotional plan on several dates (its first draw is the plan's draw date); PRM-2: or a
  // tómbola by points.
  const [mode, setMode] = useState<'single' | 'successive' | 'points'>('single')
  const successive = mode === 'successive'
  const byPoints = mode === 'points'
  const [basesRef, setBasesRef] = useState('')
  const [pointsHall, setPointsHall] = useState('')
  const [totalPoints, setTotalPoints] = useState('')
  const [tiers, setTiers] = useState<Tier[]>([{ count: '', points: '' }])
  const [firstFigure, setFirstFigure] = useState('')
  const halls = useHalls()
  // Issue 29: the times are typed on the clock of the hall the draw is held in: a points tómbola's (PRM-6, chosen
  // below), else the back office's own. That zone goes with the plan, so the list shows the draw on the same clock.
  const zone = (byPoints && halls.data?.find((h) => h.id === pointsHall)?.timeZone) || hallZone()
  const [communicationRef, setCommunicationRef] = useState('')
  const [winnersStayIn, setWinnersStayIn] = useState('')
  const [laterDraws, setLaterDraws] = useState<string[]>([''])
  const [firstPrizeDraw, setFirstPrizeDraw] = useState(0)
  const [more, setMore] = useState<MorePrize[]>([])
  const [bad, setBad] = useState<Set<string>>(new Set())
  const [error, setError] = useState<string | null>(null)
  const [ok, setOk] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const label = (k: FieldKey | 'classification' | 'authorisationRef') => lx(`rf_${k}` as never)
  async function submit() {
    setError(null)
    setOk(null)
    // A promotional draw is free (PRM-7): it has no price to type, and its class is the promotional one.
    const missing: Array<FieldKey | 'classification'> = FIELDS.filter(
      (k) => !f[k].trim() && !(successive && k === 'price'),
    )
    if (!classification && !successive) missing.push('classification')
    const lacking = [
      ...(source ? [] : [lx('gp_source')]),
      ...(successive && !communicationRef.trim() ? [lx('sv_communicationRef')] : []),
      ...(successive && !winnersStayIn ? [lx('sv_winnersStayIn')] : []),
      ...(successive && laterDraws.some((d) => !d) ? [lx('sv_draws')] : []),
      ...((successive || byPoints) &&
      more.some((m) => MORE_TEXT.some((k) => !m[k].trim()) || !m.depositedAt || !m.source)
        ? [lx(byPoints ? 'pt_objects' : 'sv_prizes')]
        : []),
      ...(byPoints && !basesRef.trim() ? [lx('pt_basesRef')] : []),
      ...(byPoints && !pointsHall ? [lx('pt_hall')] : []),
      ...(byPoints && !totalPoints.trim() ? [lx('pt_total')] : []),
      ...(byPoints && tiers.some((t) => !t.count.trim() || !t.points.trim()) ? [lx('pt_tiers')] : []),
      ...(byPoints && (!firstFigure.trim() || more.some((m) => !m.figure.trim())) ? [lx('pt_figure')] : []),
    ]
    if (missing.length || lacking.length) {
      setBad(new Set(missing))
      return setError(lx('checkFields', { fields: [...missing.map(label), ...lacking].join(', ') }))
    }
    // Issue 29: typed on the hall's clock (its zone named by the field), whatever the browser's zone.
    const iso = (v: string) => hallInstant(v, zone)
    setBusy(true)
    try {
      const prizes = [
        {
          code: 'R1',
          name: f.prizeName.trim(),
          description: f.prizeDescription.trim(),
          kind: 'goods',
          valueCents: cents(f.prizeValue),
          depositedAt: iso(f.prizeDepositedAt),
          depositPlace: f.prizeDepositPlace.trim(),
          invoiceRef: f.prizeInvoiceRef.trim(),
          source,
        },
        ...(successive || byPoints ? more : []).map((m, i) => ({
          code: `R${i + 2}`,
          name: m.name.trim(),
          description: m.description.trim(),
          kind: 'goods',
          valueCents: cents(m.value),
          depositedAt: iso(m.depositedAt),
          depositPlace: m.depositPlace.trim(),
          invoiceRef: m.invoiceRef.trim(),
          source: m.source,
        })),
      ]
      const drawOf = [firstPrizeDraw, ...more.map((m) => m.draw)]
      const dates = [f.drawAt, ...laterDraws]
      await api('POST', '/api/lottery/draws', {
        ...(successive
          ? {
              kind: 'promotional',
              classification: 'promotional',
              nonProfit: false,
              ticketPriceCents: 0,
              communicationRef: communicationRef.trim(),
              successive: true,
              winnersStayIn: winnersStayIn === 'yes',
              draws: dates.map((d, i) => ({
                drawAt: iso(d),
                prizeCodes: prizes.filter((_, j) => drawOf[j] === i).map((x) => x.code),
              })),
            }
          : {
              kind: byPoints ? 'tombola' : 'raffle',
              classification,
              nonProfit: classification !== 'interes-particular',
              ticketPriceCents: cents(f.price),
              // PRM-2: as the bases approve them; what is not a whole number goes as typed, for the server to refuse.
              ...(byPoints
                ? {
                    points: {
                      basesRef: basesRef.trim(),
                      hallId: pointsHall,
                      totalPoints: whole(totalPoints) ?? Number(totalPoints),
                      tiers: tiers.map((t) => ({
                        count: whole(t.count) ?? Number(t.count),
                        points: whole(t.points) ?? Number(t.points),
                      })),
                      figures: Object.fromEntries(
                        prizes.map((x, i) => {
                          const v = i === 0 ? firstFigure : (more[i - 1]?.figure ?? '')
                          return [x.code, whole(v) ?? Number(v)]
                        }),
                      ),
                    },
                  }
                : {}),
            }),
        organiser: f.organiser.trim(),
        name: f.name.trim(),
        // The clock the times were typed on: the list shows the draw on it.
        timeZone: zone,
        gameCode: f.gameCode.trim().toUpperCase(),
        drawNumber: Number(f.drawNumber),
        numbering: { from: Number(f.from), to: Number(f.to), digits: Math.max(String(f.to).trim().length, 1) },
        currency: f.currency.trim().toUpperCase(),
        prizes,
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
  /** The further prizes (PRM-9) or objects (PRM-2), one row each. */
  const morePrizes = () => (
    <>
      {more.map((m, i) => (
        <div class="form-grid" key={i} data-testid="raffle-more-prize">
          {MORE_TEXT.map((k) => (
            <Field label={`${label(moreLabel[k])} ${i + 2}`} key={k}>
              <Input
                name={`raffle-prize-${i + 2}-${k}`}
                value={m[k]}
                onValue={(v) => setMore((x) => x.map((y, j) => (j === i ? { ...y, [k]: v } : y)))}
              />
            </Field>
          ))}
          <HallDateTime
            name={`raffle-prize-${i + 2}-depositedAt`}
            label={`${label('prizeDepositedAt')} ${i + 2}`}
            value={m.depositedAt}
            onValue={(v) => setMore((x) => x.map((y, j) => (j === i ? { ...y, depositedAt: v } : y)))}
            zone={zone}
          />
          <SourceSelect
            testId={`raffle-prize-${i + 2}-source`}
            value={m.source}
            onValue={(v) => setMore((x) => x.map((y, j) => (j === i ? { ...y, source: v } : y)))}
          />
          {successive && (
            <Field label={lx('sv_prizeDraw')}>
              <Select
                testId={`raffle-prize-${i + 2}-draw`}
                value={String(m.draw)}
                onValue={(v) => setMore((x) => x.map((y, j) => (j === i ? { ...y, draw: Number(v) } : y)))}
                options={drawOptions}
              />
            </Field>
          )}
          {byPoints && (
            <Field label={`${lx('pt_figure')} ${i + 2}`}>
              <Input
                name={`raffle-prize-${i + 2}-figure`}
                inputMode="numeric"
                value={m.figure}
                onValue={(v) => setMore((x) => x.map((y, j) => (j === i ? { ...y, figure: v } : y)))}
              />
            </Field>
          )}
        </div>
      ))}
      <button
        type="button"
        data-testid="raffle-add-prize"
        onClick={() =>
          setMore((x) => [
            ...x,
            {
              name: '',
              description: '',
              value: '',
              depositedAt: '',
              depositPlace: '',
              invoiceRef: '',
              source: '',
              draw: Math.min(x.length + 1, laterDraws.length),
              figure: '',
            },
          ])
        }
      >
        {lx(byPoints ? 'pt_addObject' : 'sv_addPrize')}
      </button>
    </>
  )
  const sum = tiersSum(tiers)
  const total = whole(totalPoints)
  const drawOptions: Array<[string, string]> = [0, ...laterDraws.map((_, i) => i + 1)].map((i) => [
    String(i),
    lx('sv_drawN', { n: i + 1 }),
  ])
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
        <Field label={lx('sv_mode')}>
          <Select
            testId="raffle-mode"
            value={mode}
            onValue={(v) => setMode(v as typeof mode)}
            options={[
              ['single', lx('sv_single')],
              ['successive', lx('sv_successive')],
              ['points', lx('pt_mode')],
            ]}
          />
        </Field>
        {!successive && (
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
        )}
        {successive && (
          <Field label={lx('sv_communicationRef')}>
            <Input name="raffle-communicationRef" value={communicationRef} onValue={setCommunicationRef} />
          </Field>
        )}
        {FIELDS.filter((k) => !(successive && k === 'price')).map((k) =>
          // Issue 29 point 4: dates typed day first and on 24 h, on the hall's clock, not the browser's picker.
          DATES.has(k) ? (
            <HallDateTime
              key={k}
              name={`raffle-${k}`}
              label={label(k)}
              value={f[k]}
              onValue={(v) => setF((x) => ({ ...x, [k]: v }))}
              invalid={bad.has(k)}
              zone={zone}
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
        <SourceSelect testId="raffle-prize-source" value={source} onValue={setSource} />
        {successive && (
          <Field label={lx('sv_prizeDraw')}>
            <Select
              testId="raffle-prize-draw"
              value={String(firstPrizeDraw)}
              onValue={(v) => setFirstPrizeDraw(Number(v))}
              options={drawOptions}
            />
          </Field>
        )}
        <Field label={label('authorisationRef')}>
          <Input
            name="raffle-authorisationRef"
            value={authorisationRef}
            onValue={setAuthorisationRef}
            aria-invalid={bad.has('authorisationRef') ? 'true' : undefined}
          />
        </Field>
        {successive && (
          <div class="wide" data-testid="raffle-successive">
            <h4>{lx('sv_draws')}</h4>
            <Field label={lx('sv_winnersStayIn')}>
              <Select
                testId="raffle-winners-stay-in"
                value={winnersStayIn}
                onValue={setWinnersStayIn}
                options={[
                  ['', lx('choose')],
                  ['yes', lx('sv_stayIn')],
                  ['no', lx('sv_out')],
                ]}
              />
            </Field>
            <p class="muted">{lx('sv_firstDraw', { field: label('drawAt') })}</p>
            {laterDraws.map((d, i) => (
              <HallDateTime
                key={i}
                name={`raffle-draw-${i + 2}`}
                label={lx('sv_drawAt', { n: i + 2 })}
                value={d}
                onValue={(v) => setLaterDraws((x) => x.map((y, j) => (j === i ? v : y)))}
                zone={zone}
              />
            ))}
            <button type="button" data-testid="raffle-add-draw" onClick={() => setLaterDraws((x) => [...x, ''])}>
              {lx('sv_addDraw')}
            </button>
            <h4>{lx('sv_prizes')}</h4>
            {morePrizes()}
          </div>
        )}
        {byPoints && (
          <div class="wide" data-testid="raffle-points">
            <h4>{lx('pt_title')}</h4>
            <div class="form-grid">
              <Field label={lx('pt_basesRef')}>
                <Input name="raffle-points-basesRef" value={basesRef} onValue={setBasesRef} />
              </Field>
              <Field label={lx('pt_hall')}>
                <Select
                  testId="raffle-points-hall"
                  value={pointsHall}
                  onValue={setPointsHall}
                  options={[['', lx('choose')], ...(halls.data ?? []).map((h): [string, string] => [h.id, h.name])]}
                />
              </Field>
              <Field label={lx('pt_total')}>
                <Input name="raffle-points-total" inputMode="numeric" value={totalPoints} onValue={setTotalPoints} />
              </Field>
            </div>
            <h4>{lx('pt_tiers')}</h4>
            {tiers.map((t, i) => (
              <div class="form-grid" key={i} data-testid="raffle-points-tier">
                <Field label={lx('pt_tierCount', { n: i + 1 })}>
                  <Input
                    name={`raffle-tier-${i + 1}-count`}
                    inputMode="numeric"
                    value={t.count}
                    onValue={(v) => setTiers((x) => x.map((y, j) => (j === i ? { ...y, count: v } : y)))}
                  />
                </Field>
                <Field label={lx('pt_tierPoints', { n: i + 1 })}>
                  <Input
                    name={`raffle-tier-${i + 1}-points`}
                    inputMode="numeric"
                    value={t.points}
                    onValue={(v) => setTiers((x) => x.map((y, j) => (j === i ? { ...y, points: v } : y)))}
                  />
                </Field>
                {tiers.length > 1 && (
                  <button
                    type="button"
                    data-testid={`raffle-tier-${i + 1}-remove`}
                    onClick={() => setTiers((x) => x.filter((_, j) => j !== i))}
                  >
                    {lx('pt_removeTier')}
                  </button>
                )}
              </div>
            ))}
            <button
              type="button"
              data-testid="raffle-add-tier"
              onClick={() => setTiers((x) => [...x, { count: '', points: '' }])}
            >
              {lx('pt_addTier')}
            </button>
            {/* The sum as it is typed, against the total the bases approve: the server refuses any other. */}
            <p
              class={`tag ${total !== null && sum.points === total ? 'good' : 'warn'}`}
              data-testid="raffle-points-sum"
              role="status"
            >
              {total === null
                ? lx('pt_sumNoTotal', { sum: sum.points, tickets: sum.tickets })
                : lx(sum.points === total ? 'pt_sumOk' : 'pt_sumOff', {
                    sum: sum.points,
                    total,
                    tickets: sum.tickets,
                  })}
            </p>
            <h4>{lx('pt_objects')}</h4>
            <div class="form-grid">
              <Field label={`${lx('pt_figure')} 1${f.prizeName.trim() ? ` (${f.prizeName.trim()})` : ''}`}>
                <Input name="raffle-prize-1-figure" inputMode="numeric" value={firstFigure} onValue={setFirstFigure} />
              </Field>
            </div>
            {morePrizes()}
          </div>
        )}
        <button type="submit" class="primary" data-testid="raffle-plan-submit" disabled={busy}>
          {lx('rafflePlanSubmit')}
        </button>
      </form>
      <Feedback error={error} ok={ok} />
    </div>
  )
}
