/**
 * Director: halls with their regulation and prize shares (BNG-56, BNG-52), master sets of cards (BNG-13) and the
 * series printed from them (BNG-11).
 */
import { useState } from 'preact/hooks'
import { PROFILES } from '../../../server/src/shared/profile.ts'
import { api, can } from '../session.ts'
import { GameLimitsPanel } from './GameLimits.tsx'
import {
  ConfirmDialog,
  Field,
  Input,
  Loading,
  Notice,
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
  when,
} from '../ui.tsx'

export interface Hall {
  id: string
  name: string
  profileId: string
  currency: string
  playingPositions: number
  /** Its clock (issue 29): its own zone, else its profile's. */
  timeZone?: string
}
interface Overview {
  hall: Hall
  openSessionId: string | null
  series: Array<{ id: string; code: string; cardCount: number; faceValueCents: number; nextCardNo: number }>
}
interface MasterSet {
  id: string
  cardCount: number
  createdAt: string
  seriesCount?: number
}

export const profileName = (id: string) =>
  id === 'BO-2013'
    ? tx('profile_BO2013')
    : id.startsWith('BO')
      ? tx('profile_BO')
      : id.startsWith('ES')
        ? tx('profile_ES')
        : id

export function useHalls() {
  return useLoad(() => api<{ halls: Hall[] }>('GET', '/api/halls').then((r) => r.halls))
}

/** A hall picker shared by the sections that work on one hall at a time. */
export function HallPicker(props: { halls: Hall[]; value: string; onValue: (id: string) => void }) {
  return (
    <Field label={tx('hall')}>
      <Select
        testId="hall-picker"
        value={props.value}
        onValue={props.onValue}
        options={[['', tx('chooseHall')], ...props.halls.map((h): [string, string] => [h.id, h.name])]}
      />
    </Field>
  )
}

interface Shares {
  poolBp: number
  lineBp: number
  bingoBp: number
  primaBp: number
}
interface HallRules {
  shares: Shares | null
  bettingPlan: { authorisationRef: string; shares: Shares } | null
  plans?: Array<{ kind: string; version: number; authorisationRef: string; createdAt: string }>
  licence?: { authorisationRef: string; minimumBasis: 'cards' | 'positions'; autoClaims?: boolean } | null
  /** CFG-21: the system claims for the players, as the hall plays now. */
  autoClaim?: boolean
  bets?: {
    minCardsPerPurchase: number
    maxCardsPerPurchase: number
    maxCardsPerPlayer: number
    faceValuesCents: number[] | null
    authorisationRef: string | null
  }
  playingPositions?: number
}

/** The newest version of one kind of the hall's plans (its reference and when it was recorded). */
const newestPlan = (rules: HallRules, kind: string) =>
  (rules.plans ?? []).filter((p) => p.kind === kind).sort((a, b) => b.version - a.version)[0] ?? null

/**
 * GEN-1 (002 §1) and GEN-18 / BNG-40 (002 §1.2.1.1, §6.1.5): a Bolivian hall sells nothing until the director records
 * the reference of its AJ Operating Licence and its bet limits with the AJ's reference. Until now only the API could
 * record them, so a director refused with OPERATING_LICENCE_REQUIRED or BET_LIMITS_NOT_AUTHORISED had no way out on
 * screen. Each form says what is on record in words and asks before recording, naming what follows.
 */
function SaleAuthorisationPanel(props: { hall: Hall; onChanged: () => void }) {
  const enc = encodeURIComponent(props.hall.id)
  const profile = PROFILES[props.hall.profileId]
  const rules = useLoad(() => api<HallRules>('GET', `/api/halls/${enc}/rules`), [props.hall.id])
  const [licence, setLicence] = useState<{ ref: string; basis: string; positions: string; auto: string } | null>(null)
  // CFG-21: only a profile that allows the system's claims at all asks whether the licence allows them.
  const autoClaimsAsked = profile?.autoClaimAllowed === true
  const [limits, setLimits] = useState<{
    ref: string
    min: string
    max: string
    player: string
    faces: string
  } | null>(null)
  const [asking, setAsking] = useState<'licence' | 'limits' | null>(null)
  // What the server would refuse only as "invalid data", said here in words before anything is asked.
  const [problem, setProblem] = useState<{ form: 'licence' | 'limits'; text: string } | null>(null)
  const positiveInt = (v: string) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN)
  const saveLicence = useAction(async () => {
    const f = licence!
    await api('PUT', `/api/halls/${enc}/licence`, {
      authorisationRef: f.ref.trim(),
      minimumBasis: f.basis,
      playingPositions: positiveInt(f.positions),
      ...(autoClaimsAsked ? { autoClaims: f.auto === 'yes' } : {}),
    })
    setAsking(null)
    setLicence(null)
    await rules.reload()
    props.onChanged()
    return tx('licenceSaved')
  })
  const saveLimits = useAction(async () => {
    const f = limits!
    const faces = f.faces
      .split(/[;\s]+/)
      .map((v) => v.trim())
      .filter(Boolean)
    await api('PUT', `/api/halls/${enc}/sale-rules`, {
      authorisationRef: f.ref.trim(),
      minCardsPerPurchase: positiveInt(f.min),
      maxCardsPerPurchase: positiveInt(f.max),
      maxCardsPerPlayer: positiveInt(f.player),
      faceValuesCents: faces.length ? faces.map(cents) : null,
    })
    setAsking(null)
    setLimits(null)
    await rules.reload()
    return tx('limitsSaved')
  })
  if (!rules.data) return <Loading error={rules.error} />
  const r = rules.data
  const licenceAuthority = profile?.operatingLicenceAuthority ?? null
  const limitsAuthority = profile?.betLimitsAuthority ?? null
  if (!licenceAuthority && !limitsAuthority) return null
  const licencePlan = newestPlan(r, 'licence')
  const limitsPlan = newestPlan(r, 'sale-rules')
  const bets = r.bets
  const decimal = (c: number) => (c / 100).toFixed(2).replace('.', ',')
  const lf = licence ?? {
    ref: '',
    basis: r.licence?.minimumBasis ?? 'cards',
    positions: String(r.playingPositions ?? props.hall.playingPositions),
    auto: r.licence?.autoClaims ? 'yes' : 'no',
  }
  const setL = (k: keyof typeof lf) => (v: string) => setLicence({ ...lf, [k]: v })
  const bf = limits ?? {
    ref: '',
    min: String(bets?.minCardsPerPurchase ?? 1),
    max: String(bets?.maxCardsPerPurchase ?? 50),
    player: String(bets?.maxCardsPerPlayer ?? 50),
    faces: (bets?.faceValuesCents ?? []).map(decimal).join(' '),
  }
  const setB = (k: keyof typeof bf) => (v: string) => setLimits({ ...bf, [k]: v })
  const licenceOk = !!r.licence?.authorisationRef
  const limitsOk = !!bets?.authorisationRef
  return (
    <div class="sale-authorisation" data-testid="sale-authorisation">
      {licenceAuthority && (
        <div data-testid="operating-licence">
          <h3>{tx('operatingLicence')}</h3>
          <p data-testid="operating-licence-state">
            <span class={`tag ${licenceOk ? 'good' : 'bad'}`}>
              {licenceOk ? tx('licenceOnTag') : tx('licenceOffTag')}
            </span>{' '}
            {licenceOk
              ? tx('licenceRecorded', {
                  reference: r.licence!.authorisationRef,
                  date: when(licencePlan?.createdAt),
                  basis: tx(r.licence!.minimumBasis === 'positions' ? 'basisPositions' : 'basisCards'),
                })
              : tx('licenceNone')}
          </p>
          {licenceOk && autoClaimsAsked && (
            <p data-testid="licence-auto-claims">
              {r.licence!.autoClaims
                ? tx(r.autoClaim ? 'autoClaimsLicensedOn' : 'autoClaimsLicensedOff')
                : tx('autoClaimsNotLicensed')}
            </p>
          )}
          {can('hall.rules') && (
            <form
              class="inline"
              data-testid="licence-form"
              onSubmit={(e) => {
                e.preventDefault()
                const bad = Number.isNaN(positiveInt(lf.positions)) || positiveInt(lf.positions) < 1
                setProblem(bad ? { form: 'licence', text: tx('licencePositionsWhole') } : null)
                if (!bad) setAsking('licence')
              }}
            >
              <Field label={tx('licenceRef')} wide>
                <Input name="licenceRef" value={lf.ref} onValue={setL('ref')} maxLength={120} />
              </Field>
              <Field label={tx('minimumBasis')}>
                <Select
                  testId="licence-basis"
                  value={lf.basis}
                  onValue={setL('basis')}
                  options={[
                    ['cards', tx('basisCards')],
                    ['positions', tx('basisPositions')],
                  ]}
                />
              </Field>
              <Field label={tx('positions')}>
                <Input name="licencePositions" inputMode="numeric" value={lf.positions} onValue={setL('positions')} />
              </Field>
              {autoClaimsAsked && (
                <Field label={tx('autoClaimsField')}>
                  <Select
                    testId="licence-auto-claims-field"
                    value={lf.auto}
                    onValue={setL('auto')}
                    options={[
                      ['no', tx('autoClaimsNo')],
                      ['yes', tx('autoClaimsYes')],
                    ]}
                  />
                </Field>
              )}
              <button type="submit" class="primary" disabled={saveLicence.busy || !lf.ref.trim()}>
                {tx('saveLicence')}
              </button>
            </form>
          )}
          {problem?.form === 'licence' && (
            <Notice kind="error" testId="licence-problem">
              {problem.text}
            </Notice>
          )}
          {asking !== 'licence' && saveLicence.feedback}
        </div>
      )}
      {limitsAuthority && (
        <div data-testid="bet-limits">
          <h3>{tx('betLimits')}</h3>
          <p data-testid="bet-limits-state">
            <span class={`tag ${limitsOk ? 'good' : 'bad'}`}>{limitsOk ? tx('limitsOnTag') : tx('limitsOffTag')}</span>{' '}
            {limitsOk && bets
              ? tx('limitsRecorded', {
                  reference: bets.authorisationRef!,
                  date: when(limitsPlan?.createdAt),
                  min: num(bets.minCardsPerPurchase),
                  max: num(bets.maxCardsPerPurchase),
                  player: num(bets.maxCardsPerPlayer),
                })
              : tx('limitsNone')}
          </p>
          {can('hall.rules') && (
            <form
              class="inline"
              data-testid="limits-form"
              onSubmit={(e) => {
                e.preventDefault()
                const [min, max, player] = [bf.min, bf.max, bf.player].map(positiveInt)
                const text = [min, max, player].some((n) => Number.isNaN(n) || n < 1)
                  ? tx('limitsWhole')
                  : min > max
                    ? tx('limitsMinAboveMax')
                    : max > player
                      ? tx('limitsMaxAbovePlayer')
                      : null
                setProblem(text ? { form: 'limits', text } : null)
                if (!text) setAsking('limits')
              }}
            >
              <Field label={tx('limitsRef')} wide>
                <Input name="limitsRef" value={bf.ref} onValue={setB('ref')} maxLength={120} />
              </Field>
              <Field label={tx('limitsMin')}>
                <Input name="limitsMin" inputMode="numeric" value={bf.min} onValue={setB('min')} />
              </Field>
              <Field label={tx('limitsMax')}>
                <Input name="limitsMax" inputMode="numeric" value={bf.max} onValue={setB('max')} />
              </Field>
              <Field label={tx('limitsPlayer')}>
                <Input name="limitsPlayer" inputMode="numeric" value={bf.player} onValue={setB('player')} />
              </Field>
              <Field label={`${tx('limitsFaces')} (${props.hall.currency})`} wide>
                <Input name="limitsFaces" inputMode="decimal" value={bf.faces} onValue={setB('faces')} />
              </Field>
              <button type="submit" class="primary" disabled={saveLimits.busy || !bf.ref.trim()}>
                {tx('saveLimits')}
              </button>
            </form>
          )}
          {problem?.form === 'limits' && (
            <Notice kind="error" testId="limits-problem">
              {problem.text}
            </Notice>
          )}
          {asking !== 'limits' && saveLimits.feedback}
        </div>
      )}
      {asking === 'licence' && (
        <ConfirmDialog
          title={tx('licenceConfirmTitle', { hall: props.hall.name })}
          consequence={[
            tx('licenceConfirmLead', { reference: lf.ref.trim() }),
            tx('licenceConfirmConsequence', {
              basis: tx(lf.basis === 'positions' ? 'basisPositions' : 'basisCards'),
              positions: lf.positions,
            }),
            ...(autoClaimsAsked ? [tx(lf.auto === 'yes' ? 'licenceConfirmAutoYes' : 'licenceConfirmAutoNo')] : []),
            ...(limitsAuthority && !limitsOk ? [tx('licenceConfirmStillLimits')] : []),
          ]}
          confirm={tx('saveLicence')}
          busy={saveLicence.busy}
          error={saveLicence.error}
          onConfirm={() => void saveLicence.run()}
          onCancel={() => setAsking(null)}
        />
      )}
      {asking === 'limits' && (
        <ConfirmDialog
          title={tx('limitsConfirmTitle', { hall: props.hall.name })}
          consequence={[
            tx('limitsConfirmLead', { reference: bf.ref.trim() }),
            tx('limitsConfirmConsequence', { min: bf.min, max: bf.max, player: bf.player }),
            ...(licenceAuthority && !licenceOk ? [tx('limitsConfirmStillLicence')] : []),
          ]}
          confirm={tx('saveLimits')}
          busy={saveLimits.busy}
          error={saveLimits.error}
          onConfirm={() => void saveLimits.run()}
          onCancel={() => setAsking(null)}
        />
      )}
    </div>
  )
}

/** The hall's prize shares: its approved Plan de Apuestas (BNG-52) where it has one, else the regulation's (BNG-56). */
function SharesPanel(props: { hall: Hall }) {
  const enc = encodeURIComponent(props.hall.id)
  const rules = useLoad(
    () =>
      api<HallRules>('GET', `/api/halls/${enc}/rules`).catch(
        () => ({ shares: PROFILES[props.hall.profileId]?.shares ?? null, bettingPlan: null }) as HallRules,
      ),
    [props.hall.id],
  )
  const [ref, setRef] = useState('')
  const [line, setLine] = useState('10')
  const [bingo, setBingo] = useState('51')
  // BNG-52 / CFG-24: the share of sales the plan approves for pots; no pot funds beyond it.
  const [pots, setPots] = useState('0')
  const save = useAction(async () => {
    const lineBp = Math.round(Number(line.replace(',', '.')) * 100)
    const bingoBp = Math.round(Number(bingo.replace(',', '.')) * 100)
    const potsBp = Math.round(Number(pots.replace(',', '.')) * 100)
    await api('PUT', `/api/halls/${enc}/betting-plan`, {
      authorisationRef: ref.trim(),
      shares: { poolBp: lineBp + bingoBp, lineBp, bingoBp, primaBp: 0 },
      potsBp,
    })
    setRef('')
    await rules.reload()
  })
  if (!rules.data) return <Loading error={rules.error} />
  const plan = rules.data.bettingPlan
  const s = plan?.shares ?? rules.data.shares
  return (
    <div class="shares" data-testid="prize-shares">
      <h3>{tx('shares')}</h3>
      {s ? (
        <dl>
          <dt>{tx('poolShare')}</dt>
          <dd>
            {percent(s.poolBp)} {tx('ofSales')}
          </dd>
          <dt>{tx('lineShare')}</dt>
          <dd>{percent(s.lineBp)}</dd>
          <dt>{tx('bingoShare')}</dt>
          <dd>{percent(s.bingoBp)}</dd>
          <dt>{tx('primaShare')}</dt>
          <dd>{percent(s.primaBp)}</dd>
          <dt>{tx('shareSource')}</dt>
          <dd>{plan ? `${tx('shareFromPlan')} · ${plan.authorisationRef}` : tx('shareFromProfile')}</dd>
        </dl>
      ) : (
        <Notice kind="error">{tx('noBettingPlan')}</Notice>
      )}
      {can('hall.rules') && (
        <form
          class="inline"
          data-testid="betting-plan"
          onSubmit={(e) => {
            e.preventDefault()
            void save.run()
          }}
        >
          <Field label={tx('authorisationRef')}>
            <Input name="planRef" value={ref} onValue={setRef} />
          </Field>
          <Field label={`${tx('lineShare')} (%)`}>
            <Input name="planLine" inputMode="decimal" value={line} onValue={setLine} />
          </Field>
          <Field label={`${tx('bingoShare')} (%)`}>
            <Input name="planBingo" inputMode="decimal" value={bingo} onValue={setBingo} />
          </Field>
          <Field label={`${tx('potsShare')} (%)`}>
            <Input name="planPots" inputMode="decimal" value={pots} onValue={setPots} />
          </Field>
          <button type="submit" class="primary" disabled={save.busy || !ref.trim()}>
            {tx('saveBettingPlan')}
          </button>
        </form>
      )}
      {save.feedback}
    </div>
  )
}

/**
 * GEN-25: whether the hall sells only to players who give their identity document (then every channel refuses an
 * anonymous buyer and each document is checked against the exclusion list). The director changes it after a
 * confirmation that says what follows from it.
 */
function IdentifiedSalesPanel(props: { hall: Hall }) {
  const enc = encodeURIComponent(props.hall.id)
  const rules = useLoad(() => api<{ identifiedSales: boolean }>('GET', `/api/halls/${enc}/rules`), [props.hall.id])
  const [asking, setAsking] = useState<boolean | null>(null)
  const change = useAction(async () => {
    await api('PUT', `/api/halls/${enc}/identified-sales`, { required: asking })
    setAsking(null)
    await rules.reload()
  })
  if (!rules.data) return <Loading error={rules.error} />
  const required = rules.data.identifiedSales
  return (
    <div class="identified-sales" data-testid="identified-sales">
      <h3>{tx('identifiedSales')}</h3>
      <p data-testid="identified-sales-state">
        <span class={`tag ${required ? 'good' : 'warn'}`}>
          {required ? tx('identifiedSalesOnTag') : tx('identifiedSalesOffTag')}
        </span>{' '}
        {required ? tx('identifiedSalesOn') : tx('identifiedSalesOff')}
      </p>
      {can('hall.rules') && (
        <button
          type="button"
          class={required ? '' : 'primary'}
          data-testid="identified-sales-toggle"
          onClick={() => setAsking(!required)}
        >
          {required ? tx('identifiedSalesRelease') : tx('identifiedSalesRequire')}
        </button>
      )}
      {asking === null && change.feedback}
      {asking !== null && (
        <ConfirmDialog
          title={tx(asking ? 'identifiedSalesRequireTitle' : 'identifiedSalesReleaseTitle', { hall: props.hall.name })}
          consequence={[
            tx(asking ? 'identifiedSalesRequireLead' : 'identifiedSalesReleaseLead'),
            tx(asking ? 'identifiedSalesRequireConsequence' : 'identifiedSalesReleaseConsequence'),
          ]}
          confirm={tx(asking ? 'identifiedSalesRequire' : 'identifiedSalesRelease')}
          danger={!asking}
          busy={change.busy}
          error={change.error}
          onConfirm={() => void change.run()}
          onCancel={() => setAsking(null)}
        />
      )}
    </div>
  )
}

interface TerminalTermsRecord {
  markingMode: 'automatic' | 'per-ball' | 'catch-up'
  maxCardCents: number
  maxGameCents: number
  maxSessionCents: number
  minGameSeconds: number
  prizeReturnBp: { min: number; max: number }
  terminalRangePercent: number
  onDisconnect?: 'play-on-credit'
}
interface TerminalTermsView {
  allowed: boolean
  authority: { name: string; rule: string } | null
  terms?: TerminalTermsRecord
  reference?: string
  refused?: string
}

/**
 * Issue 27, BNG-101 / CFG-33: where the regulation leaves the terminals' terms to an authority, the director records
 * them with its resolution. A refusal is shown here in the server's words (which field, what to choose).
 */
function TerminalTermsPanel(props: { hall: Hall }) {
  const enc = encodeURIComponent(props.hall.id)
  const view = useLoad(() => api<TerminalTermsView>('GET', `/api/halls/${enc}/terminal-terms`), [props.hall.id])
  const [form, setForm] = useState<Record<string, string> | null>(null)
  const save = useAction(async () => {
    const f = form!
    const pct = (v: string) => Math.round(Number(v.replace(',', '.')) * 100)
    await api('PUT', `/api/halls/${enc}/terminal-terms`, {
      reference: f.reference.trim(),
      terms: {
        markingMode: f.markingMode,
        maxCardCents: cents(f.maxCard),
        maxGameCents: cents(f.maxGame),
        maxSessionCents: cents(f.maxSession),
        minGameSeconds: Number(f.minGame),
        prizeReturnBp: { min: pct(f.returnMin), max: pct(f.returnMax) },
        terminalRangePercent: Number(f.range),
        ...(f.onDisconnect ? { onDisconnect: f.onDisconnect } : {}),
      },
    })
    await view.reload()
    return tx('termsSaved')
  })
  if (!view.data) return <Loading error={view.error} />
  const v = view.data
  if (!v.allowed || !v.authority) return null
  const t = v.terms
  const decimal = (c: number) => (c / 100).toFixed(2).replace('.', ',')
  const f = form ?? {
    reference: v.reference ?? '',
    markingMode: t?.markingMode ?? 'automatic',
    maxCard: t ? decimal(t.maxCardCents) : '',
    maxGame: t ? decimal(t.maxGameCents) : '',
    maxSession: t ? decimal(t.maxSessionCents) : '',
    minGame: String(t?.minGameSeconds ?? ''),
    returnMin: t ? String(t.prizeReturnBp.min / 100) : '',
    returnMax: t ? String(t.prizeReturnBp.max / 100) : '',
    range: String(t?.terminalRangePercent ?? ''),
    onDisconnect: t?.onDisconnect ?? '',
  }
  const set = (k: string) => (value: string) => setForm({ ...f, [k]: value })
  const money = (k: string, label: string) => (
    <Field label={`${label} (${props.hall.currency})`}>
      <Input name={`terms-${k}`} inputMode="decimal" value={f[k]} onValue={set(k)} />
    </Field>
  )
  return (
    <div class="terminal-terms" data-testid="terminal-terms">
      <h3>{tx('terminalTerms')}</h3>
      <p>{tx('terminalTermsAuthority', { authority: v.authority.name, rule: v.authority.rule })}</p>
      <p data-testid="terminal-terms-state">
        {t && v.reference ? tx('terminalTermsRecorded', { reference: v.reference }) : tx('terminalTermsNone')}
      </p>
      {can('terminal.terms') && (
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault()
            void save.run()
          }}
        >
          <Field label={tx('termsReference')} wide>
            <Input name="terms-reference" value={f.reference} onValue={set('reference')} />
          </Field>
          <Field label={tx('termsMarking')}>
            <Select
              testId="terms-marking"
              value={f.markingMode}
              onValue={set('markingMode')}
              options={(['automatic', 'per-ball', 'catch-up'] as const).map((m): [string, string] => [
                m,
                tx(`marking_${m}`),
              ])}
            />
          </Field>
          {money('maxCard', tx('termsMaxCard'))}
          {money('maxGame', tx('termsMaxGame'))}
          {money('maxSession', tx('termsMaxSession'))}
          <Field label={tx('termsMinGame')}>
            <Input name="terms-minGame" inputMode="numeric" value={f.minGame} onValue={set('minGame')} />
          </Field>
          <Field label={tx('termsReturnMin')}>
            <Input name="terms-returnMin" inputMode="decimal" value={f.returnMin} onValue={set('returnMin')} />
          </Field>
          <Field label={tx('termsReturnMax')}>
            <Input name="terms-returnMax" inputMode="decimal" value={f.returnMax} onValue={set('returnMax')} />
          </Field>
          <Field label={tx('termsRange')}>
            <Input name="terms-range" inputMode="numeric" value={f.range} onValue={set('range')} />
          </Field>
          <Field label={tx('termsDisconnect')} wide>
            <Select
              testId="terms-disconnect"
              value={f.onDisconnect}
              onValue={set('onDisconnect')}
              options={[
                ['', tx('termsDisconnectPick')],
                ['play-on-credit', tx('disconnect_play-on-credit')],
              ]}
            />
          </Field>
          <button type="submit" class="primary" data-testid="terms-save" disabled={save.busy || !f.reference.trim()}>
            {tx('saveTerms')}
          </button>
        </form>
      )}
      {save.feedback}
    </div>
  )
}

function HallDetail(props: { hallId: string; masterSets: MasterSet[] }) {
  const overview = useLoad(() => api<Overview>('GET', `/api/halls/${encodeURIComponent(props.hallId)}`), [props.hallId])
  const [code, setCode] = useState('')
  const [masterSetId, setMasterSetId] = useState('')
  const [price, setPrice] = useState('5')
  // BNG-3/4: a card format other than the profile's is put on sale under its licence or authorisation reference.
  const [layoutRef, setLayoutRef] = useState('')
  const add = useAction(async () => {
    await api('POST', `/api/halls/${encodeURIComponent(props.hallId)}/series`, {
      code: code.trim(),
      masterSetId: masterSetId || props.masterSets[0]?.id,
      faceValueCents: cents(price),
      ...(layoutRef.trim() ? { layoutAuthorisationRef: layoutRef.trim() } : {}),
    })
    setCode('')
    await overview.reload()
  })
  if (!overview.data) return <Loading error={overview.error} />
  const { hall, series, openSessionId } = overview.data
  return (
    <Panel title={hall.name} testId="hall-detail" wide>
      <div class="cols">
        <div>
          <dl>
            <dt>{tx('profile')}</dt>
            <dd>{profileName(hall.profileId)}</dd>
            <dt>{tx('currency')}</dt>
            <dd>{hall.currency}</dd>
            <dt>{tx('positions')}</dt>
            <dd>{num(hall.playingPositions)}</dd>
            <dt>{tx('status')}</dt>
            <dd>{openSessionId ? tx('openSession') : tx('noOpenSession')}</dd>
          </dl>
        </div>
        <SharesPanel hall={hall} />
        <SaleAuthorisationPanel hall={hall} onChanged={overview.reload} />
        <IdentifiedSalesPanel hall={hall} />
        <TerminalTermsPanel hall={hall} />
        <GameLimitsPanel hallId={hall.id} profileId={hall.profileId} openSessionId={openSessionId} />
      </div>
      <h3>{tx('series')}</h3>
      <Table
        testId="series-table"
        head={[tx('seriesCode'), tx('cards'), tx('faceValue'), tx('nextCard')]}
        rows={series.map((s) => [s.code, num(s.cardCount), money(s.faceValueCents, hall.currency), num(s.nextCardNo)])}
      />
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault()
          void add.run()
        }}
        data-testid="new-series"
      >
        <Field label={tx('seriesCode')}>
          <Input name="code" value={code} onValue={setCode} maxLength={8} />
        </Field>
        <Field label={tx('masterSets')}>
          <select
            name="masterSet"
            value={masterSetId}
            onChange={(e) => setMasterSetId((e.target as HTMLSelectElement).value)}
          >
            {props.masterSets.map((m) => (
              <option key={m.id} value={m.id}>
                {tx('masterSetOf', { n: num(m.cardCount) })} · {when(m.createdAt)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={tx('faceValue')}>
          <Input name="price" inputMode="decimal" value={price} onValue={setPrice} />
        </Field>
        <Field label={tx('layoutAuthorisationRef')}>
          <Input name="layoutAuthorisationRef" value={layoutRef} onValue={setLayoutRef} />
        </Field>
        <button type="submit" class="primary" disabled={add.busy || !code.trim() || props.masterSets.length === 0}>
          {tx('newSeries')}
        </button>
      </form>
      {props.masterSets.length === 0 && <Notice kind="info">{tx('noMasterSet')}</Notice>}
      {add.feedback}
    </Panel>
  )
}

export function HallsSection() {
  const halls = useHalls()
  const masterSets = useLoad(() =>
    api<{ masterSets: MasterSet[] }>('GET', '/api/master-sets')
      .then((r) => r.masterSets)
      .catch(() => [] as MasterSet[]),
  )
  const [selected, setSelected] = useState('')
  const [name, setName] = useState('')
  const [profileId, setProfileId] = useState('BO-2025')
  const [positions, setPositions] = useState('200')
  const [count, setCount] = useState('600')
  const create = useAction(async () => {
    const h = await api<Hall>('POST', '/api/halls', {
      name: name.trim(),
      profileId,
      playingPositions: Number(positions),
    })
    setName('')
    await halls.reload()
    setSelected(h.id)
  })
  const createSet = useAction(async () => {
    await api('POST', '/api/master-sets', { count: Number(count) })
    await masterSets.reload()
  })
  if (!halls.data) return <Loading error={halls.error} />
  const current = selected || halls.data[0]?.id || ''
  return (
    <div class="grid">
      <Panel title={tx('halls')} testId="halls">
        <Table
          testId="halls-table"
          head={[tx('name'), tx('profile'), tx('currency'), tx('positions')]}
          rows={halls.data.map((h) => [
            <a
              href="#/halls"
              class={h.id === current ? 'on' : ''}
              onClick={(e) => {
                e.preventDefault()
                setSelected(h.id)
              }}
            >
              {h.name}
            </a>,
            profileName(h.profileId),
            h.currency,
            num(h.playingPositions),
          ])}
        />
        <form
          class="inline"
          data-testid="new-hall"
          onSubmit={(e) => {
            e.preventDefault()
            void create.run()
          }}
        >
          <Field label={tx('name')}>
            <Input name="hallName" value={name} onValue={setName} />
          </Field>
          <Field label={tx('profile')}>
            <Select
              value={profileId}
              onValue={setProfileId}
              options={Object.keys(PROFILES).map((id): [string, string] => [id, profileName(id)])}
            />
          </Field>
          <Field label={tx('positions')}>
            <Input name="positions" inputMode="numeric" value={positions} onValue={setPositions} />
          </Field>
          <button type="submit" class="primary" disabled={create.busy || !name.trim()}>
            {tx('newHall')}
          </button>
        </form>
        {create.feedback}
      </Panel>
      <Panel title={tx('masterSets')} testId="master-sets">
        <Table
          head={[tx('cards'), tx('createdAt')]}
          rows={(masterSets.data ?? []).map((m) => [tx('masterSetOf', { n: num(m.cardCount) }), when(m.createdAt)])}
        />
        <form
          class="inline"
          data-testid="new-master-set"
          onSubmit={(e) => {
            e.preventDefault()
            void createSet.run()
          }}
        >
          <Field label={tx('cards')}>
            <Input name="count" inputMode="numeric" value={count} onValue={setCount} />
          </Field>
          <button type="submit" class="primary" disabled={createSet.busy}>
            {tx('newMasterSet')}
          </button>
        </form>
        {createSet.feedback}
      </Panel>
      {current && <HallDetail key={current} hallId={current} masterSets={masterSets.data ?? []} />}
    </div>
  )
}
