/**
 * Inspector (read only): the journal's chain checked end to end and its signed checkpoints (DESIGN.md "Journal"),
 * session minutes (BNG-73) with each game's draw proof, and the prize registers of every product (BNG-87, LOT-19).
 * Nothing here changes anything: every call is a GET.
 */
import { useState } from 'preact/hooks'
import { formatInZone, zoneLabel } from '../../../server/src/shared/time-zone.ts'
import { FIGURE_NAMES, type Figure } from '../../../server/src/bingo/patterns.ts'
import { api, can, lang } from '../session.ts'
import { journalTypeName } from '../texts.ts'
import { Loading, Notice, Panel, Select, Table, money, num, openPdf, tx, useAction, useLoad, when } from '../ui.tsx'

interface JournalRecord {
  seq: number
  at: string
  type: string
  scope: string
  payload: Record<string, unknown>
}
interface Verification {
  ok: boolean
  count: number
  badSeq?: number
  rows?: { checked: number; problems: Array<{ table: string; id: string; what: string }> }
}
interface Minutes {
  sessionId: string
  hallName: string
  currency: string
  openedAt: string
  closedAt: string | null
  games: Array<{
    orderNo: number
    gameId: string
    cardsSold: number
    totalCents: number
    linePaidCents: number
    bingoPaidCents: number
    figuresPaidCents?: number
    figures?: Array<{ figure: Figure; name: string; paidCents: number }>
    jackpotsPaidCents: number
    ballsDrawn: number
    status?: string
    salesDigest?: string | null
  }>
  totals: {
    cardsSold: number
    totalCents: number
    prizesPaidCents: number
    linePaidCents?: number
    bingoPaidCents?: number
    figuresPaidCents?: number
    figures?: Array<{ figure: Figure; name: string; paidCents: number }>
    jackpotsPaidCents?: number
    refundCents: number
  }
  journal: { firstSeq: number; lastSeq: number; records: number }
}
interface Proof {
  version?: string
  commitment?: string
  seed?: string | null
  balls?: number[]
  beacon?: { round: number; scheme: string } | null
  drawSources?: string[]
}

/** Who a record names: the authenticated actor's name, never an id. */
function whoOf(p: Record<string, unknown>): string {
  const actor = (p.actor ?? p.by ?? p.officer ?? p.cashier) as unknown
  if (actor && typeof actor === 'object' && typeof (actor as { name?: unknown }).name === 'string')
    return (actor as { name: string }).name
  return '—'
}

async function journalAll(): Promise<JournalRecord[]> {
  const out: JournalRecord[] = []
  for (let from = 0; out.length < 20_000;) {
    const page = (await api<{ records: JournalRecord[] }>('GET', `/api/journal?from=${from}&limit=1000`)).records
    out.push(...page)
    if (page.length < 1000) break
    from = page[page.length - 1].seq + 1
  }
  return out
}

function Integrity() {
  const [result, setResult] = useState<Verification | null>(null)
  const verify = useAction(async () => {
    setResult(await api<Verification>('GET', '/api/journal/verify'))
  })
  const checkpoints = useLoad(async () => {
    const res = await api.blob('/api/journal/checkpoints')
    return (await res.text()).split('\n').filter(Boolean).length
  })
  const download = useAction(async () => {
    const blob = await api.blob('/api/journal/checkpoints')
    const a = document.createElement('a')
    a.href = URL.createObjectURL(blob)
    a.download = 'checkpoints.jsonl'
    a.click()
  })
  return (
    <Panel title={tx('journal')} testId="integrity" actions={<span class="tag">{tx('readOnly')}</span>}>
      <div class="inline">
        <button class="primary" data-testid="verify-journal" disabled={verify.busy} onClick={() => void verify.run()}>
          {tx('verifyJournal')}
        </button>
        <button disabled={download.busy} onClick={() => void download.run()}>
          {tx('downloadCheckpoints')}
        </button>
      </div>
      {result &&
        (result.ok ? (
          <Notice kind="ok" testId="journal-ok">
            {tx('journalOk', { n: num(result.count) })}
          </Notice>
        ) : (
          (result.badSeq ?? 0) > 0 && (
            <Notice kind="error" testId="journal-bad">
              {tx('journalBad', { seq: num(result.badSeq ?? 0) })}
            </Notice>
          )
        ))}
      {/* Issue 24 point 1: every value row that differs from the journal, by table and id. */}
      {result && !result.ok && (result.rows?.problems.length ?? 0) > 0 && (
        <Notice kind="error" testId="rows-bad">
          {tx('rowsBad', { n: num(result.rows!.problems.length) })}
          <ul>
            {result.rows!.problems.slice(0, 200).map((p) => (
              <li key={`${p.table}:${p.id}:${p.what}`} class="mono">
                {p.table} {p.id}: {p.what}
              </li>
            ))}
          </ul>
        </Notice>
      )}
      {verify.error && verify.feedback}
      <p data-testid="checkpoint-count">
        {checkpoints.data !== null ? tx('checkpointCount', { n: num(checkpoints.data) }) : tx('loading')}
      </p>
    </Panel>
  )
}

interface FeedState {
  verified: boolean
  broken: string[]
  chains: Array<{ chain: string; lastSeq: number; lastHash: string; closedAt: string }>
  pending: Array<{ chain: string; count: number }>
  selfVerification: { at: string; codeSha256: string; configSha256: string; files: number; changed: boolean } | null
}

/** Issue 28: the regulator's control feed (last batch of each chain, chain verified) and the server's self-verification. */
function ControlFeed() {
  const state = useLoad(() => api<FeedState>('GET', '/api/regulator/state'))
  if (!state.data)
    return (
      <Panel title={tx('controlFeed')} testId="control-feed">
        <Loading error={state.error} />
      </Panel>
    )
  const f = state.data
  const waiting = f.pending.reduce((n, p) => n + p.count, 0)
  return (
    <Panel title={tx('controlFeed')} testId="control-feed" wide actions={<span class="tag">{tx('readOnly')}</span>}>
      {f.chains.length === 0 ? (
        <p class="muted">{tx('feedNone')}</p>
      ) : (
        <Table
          testId="feed-chains"
          head={[tx('feedChain'), tx('feedLastBatch'), tx('feedClosedAt'), 'SHA-256']}
          rows={f.chains.map((c) => [
            c.chain,
            `${c.chain}-b${c.lastSeq}`,
            when(c.closedAt),
            <span class="mono">{c.lastHash.slice(0, 16)}…</span>,
          ])}
        />
      )}
      {f.verified ? (
        <Notice kind="ok" testId="feed-verified">
          {tx('feedVerified')}
        </Notice>
      ) : (
        <Notice kind="error" testId="feed-broken">
          {tx('feedBroken', { ids: f.broken.join(', ') })}
        </Notice>
      )}
      <p data-testid="feed-pending">{tx('feedPending', { n: num(waiting) })}</p>
      <h3>{tx('selfVerification')}</h3>
      {f.selfVerification ? (
        <dl data-testid="self-verification">
          <dt>{tx('selfVerifiedAt', { when: when(f.selfVerification.at) })}</dt>
          <dd />
          <dt>{tx('codeDigest')}</dt>
          <dd class="mono">{f.selfVerification.codeSha256}</dd>
          <dt>{tx('configDigest')}</dt>
          <dd class="mono">{f.selfVerification.configSha256}</dd>
        </dl>
      ) : (
        <p class="muted">{tx('selfNone')}</p>
      )}
    </Panel>
  )
}

function ProofView(props: { gameId: string }) {
  const proof = useLoad(() => api<Proof>('GET', `/api/games/${encodeURIComponent(props.gameId)}/proof`), [props.gameId])
  if (!proof.data) return <Loading error={proof.error} />
  const p = proof.data
  return (
    <div class="proof" data-testid="proof">
      <h3>{tx('proof')}</h3>
      <dl>
        <dt>SHA-256</dt>
        <dd class="mono">{p.commitment?.slice(0, 32)}…</dd>
        {p.beacon && (
          <>
            <dt>{tx('beaconRound')}</dt>
            <dd>{num(p.beacon.round)}</dd>
          </>
        )}
        <dt>{tx('drawOrder')}</dt>
        <dd>{(p.balls ?? []).join(' · ') || '—'}</dd>
      </dl>
      {p.seed && <Notice kind="ok">{tx('proofOk')}</Notice>}
    </div>
  )
}

/** CFG-13: a figure by its name in the screen's language, never its code. */
const figureName = (f: Figure) => FIGURE_NAMES[f]?.[lang.value] ?? tx('figure')

function figureList(figures: Array<{ figure: Figure; paidCents: number }> | undefined, currency: string) {
  if (!figures?.length) return '—'
  return (
    <span data-testid="minutes-row-figures">
      {figures.map((f) => (
        <span key={f.figure} class="minutes-figure" data-testid="minutes-figure">
          {figureName(f.figure)} {money(f.paidCents, currency)}
        </span>
      ))}
    </span>
  )
}

function SessionMinutes(props: { sessionId: string }) {
  const minutes = useLoad(
    () => api<Minutes>('GET', `/api/sessions/${encodeURIComponent(props.sessionId)}/minutes`),
    [props.sessionId],
  )
  const [game, setGame] = useState('')
  const pdf = useAction(async () => {
    await openPdf(`/api/sessions/${encodeURIComponent(props.sessionId)}/minutes.pdf`, api)
  })
  if (!minutes.data) return <Loading error={minutes.error} />
  const m = minutes.data
  // BNG-17: the minutes take a game's cards and takings from its close of sales: before it they are not zero but not
  // yet known (as the inspector's minutes say), so a game still on sale reads "—", not "0" and "Bs 0,00".
  const salesOpen = (g: Minutes['games'][number]) => g.status === 'in_progress' && !g.salesDigest
  const open = m.games.some(salesOpen)
  return (
    <div data-testid="minutes">
      <div class="inline">
        <strong>{m.hallName}</strong> · {when(m.openedAt)} – {when(m.closedAt)}
        <button onClick={() => void pdf.run()} data-testid="minutes-pdf">
          {tx('pdf')}
        </button>
      </div>
      {pdf.error && pdf.feedback}
      <Table
        testId="minutes-games"
        head={[
          tx('bingoGameNo'),
          tx('cards'),
          tx('sales'),
          tx('linePaid'),
          tx('bingoPaid'),
          tx('figuresPaid'),
          tx('potsPaid'),
          tx('prizesPaid'),
          tx('ballsDrawn'),
          '',
        ]}
        // Every prize of the game (line, bingo, each figure by name, pots and prima), so a row adds up to its total.
        rows={m.games.map((g) => [
          num(g.orderNo),
          salesOpen(g) ? '—' : num(g.cardsSold),
          salesOpen(g) ? (
            <span data-testid="minutes-row-sales-open">— · {tx('salesOpen')}</span>
          ) : (
            money(g.totalCents, m.currency)
          ),
          money(g.linePaidCents, m.currency),
          money(g.bingoPaidCents, m.currency),
          figureList(g.figures, m.currency),
          money(g.jackpotsPaidCents, m.currency),
          <strong data-testid="minutes-row-paid">
            {money(g.linePaidCents + g.bingoPaidCents + (g.figuresPaidCents ?? 0) + g.jackpotsPaidCents, m.currency)}
          </strong>,
          num(g.ballsDrawn),
          <button data-testid="show-proof" onClick={() => setGame(g.gameId)}>
            {tx('proof')}
          </button>,
        ])}
      />
      <p>
        {tx('total')}: {num(m.totals.cardsSold)} {tx('cards').toLowerCase()} · {money(m.totals.totalCents, m.currency)}
        {open && <span data-testid="minutes-total-sales-open"> · {tx('salesOpenTotal')}</span>}
      </p>
      <dl class="minutes-totals" data-testid="minutes-totals">
        <dt>{tx('linePaid')}</dt>
        <dd data-testid="minutes-total-line">{money(m.totals.linePaidCents ?? 0, m.currency)}</dd>
        <dt>{tx('bingoPaid')}</dt>
        <dd data-testid="minutes-total-bingo">{money(m.totals.bingoPaidCents ?? 0, m.currency)}</dd>
        {(m.totals.figures ?? []).map((f) => (
          <>
            <dt>{figureName(f.figure)}</dt>
            <dd data-testid="minutes-total-figure">{money(f.paidCents, m.currency)}</dd>
          </>
        ))}
        <dt>{tx('potsPaid')}</dt>
        <dd data-testid="minutes-total-pots">{money(m.totals.jackpotsPaidCents ?? 0, m.currency)}</dd>
        <dt>{tx('prizesPaid')}</dt>
        <dd data-testid="minutes-total-paid">
          <strong>{money(m.totals.prizesPaidCents, m.currency)}</strong>
        </dd>
      </dl>
      {game && <ProofView key={game} gameId={game} />}
    </div>
  )
}

function Minutes(props: { records: JournalRecord[] }) {
  const sessions = props.records.filter((r) => r.type === 'session.opened').reverse()
  const [sessionId, setSessionId] = useState('')
  const current = sessionId || String(sessions[0]?.payload.sessionId ?? '')
  return (
    <Panel title={tx('minutes')} testId="sessions" wide>
      {sessions.length === 0 ? (
        <p class="muted">{tx('nothing')}</p>
      ) : (
        <>
          <Select
            testId="session-picker"
            value={current}
            onValue={setSessionId}
            options={sessions.map((r): [string, string] => [
              String(r.payload.sessionId),
              `${String(r.payload.hallName ?? '')} · ${tx('sessionOf', { date: when(r.at) })}`,
            ])}
          />
          {current && <SessionMinutes key={current} sessionId={current} />}
        </>
      )}
    </Panel>
  )
}

function Registers() {
  const [which, setWhich] = useState<'bingo' | 'lotto' | 'lottery'>('bingo')
  const reg = useLoad(async () => {
    if (which === 'bingo') {
      const r = await api<{
        rows: Array<{
          paidAt: string
          hallName: string
          gameNo: number
          serial: string
          amountCents: number
          currency: string
          payeeName: string | null
        }>
        totalCents: number
        currency: string | null
        timeZone?: string
      }>('GET', '/api/prize-register')
      // Issue 29 point 5: paid on the hall's clock (the server names the zone), never the browser's.
      const zone = r.timeZone
      return {
        zone: zone && r.rows[0] ? zoneLabel(Date.parse(r.rows[0].paidAt), zone) : null,
        rows: r.rows.map((x) => [
          zone ? formatInZone(x.paidAt, zone) : when(x.paidAt),
          `${x.hallName} · ${tx('bingoGameNo')} ${x.gameNo}`,
          x.serial,
          money(x.amountCents, x.currency),
          x.payeeName ?? '—',
        ]),
        total: money(r.totalCents, r.currency ?? 'BOB'),
      }
    }
    const path = which === 'lotto' ? '/api/lotto/prize-register' : '/api/lottery/prize-register'
    const r = await api<{
      entries: Array<{
        paidAt: string
        gameCode?: string
        drawNumber: number
        ticketNumber: string
        amountCents: number
        currency: string
        payee?: { name: string }
      }>
    }>('GET', path)
    const total = r.entries.reduce((s, e) => s + e.amountCents, 0)
    return {
      zone: null,
      rows: r.entries.map((x) => [
        when(x.paidAt),
        `${tx('drawNo')} ${x.drawNumber}`,
        x.ticketNumber,
        money(x.amountCents, x.currency),
        x.payee?.name ?? '—',
      ]),
      total: money(total, r.entries[0]?.currency ?? 'BOB'),
    }
  }, [which])
  const pdf = useAction(async () => {
    await openPdf(`/api/prize-register.pdf?lang=${lang.value}`, api)
  })
  return (
    <Panel
      title={tx('prizeRegisters')}
      testId="registers"
      wide
      actions={
        <>
          <Select
            testId="register-picker"
            value={which}
            onValue={(v) => setWhich(v as typeof which)}
            options={(['bingo', 'lotto', 'lottery'] as const).map((k): [string, string] => [
              k,
              tx(`register_${k}` as const),
            ])}
          />
          {which === 'bingo' && <button onClick={() => void pdf.run()}>{tx('pdf')}</button>}
        </>
      }
    >
      {!reg.data ? (
        <Loading error={reg.error} />
      ) : (
        <>
          <Table
            testId="register-table"
            head={[
              tx('when'),
              tx('game'),
              tx(which === 'bingo' ? 'cardSerial' : 'ticketNo'),
              tx('amount'),
              tx('payee'),
            ]}
            rows={reg.data.rows}
          />
          <p data-testid="register-total">
            {tx('entries', { n: num(reg.data.rows.length) })} · {tx('total')} {reg.data.total}
          </p>
          {reg.data.zone && (
            <p class="muted" data-testid="register-zone">
              {tx('hallTimes', { zone: reg.data.zone })}
            </p>
          )}
        </>
      )}
    </Panel>
  )
}

function RecentJournal(props: { records: JournalRecord[] }) {
  const recent = props.records.slice(-25).reverse()
  return (
    <Panel title={tx('journal')} testId="journal-recent" wide>
      <Table
        head={[tx('record'), tx('when'), tx('what'), tx('who')]}
        rows={recent.map((r) => [num(r.seq), when(r.at), journalTypeName(lang.value, r.type), whoOf(r.payload)])}
      />
    </Panel>
  )
}

export function InspectionSection() {
  const journal = useLoad(() => (can('journal.read') ? journalAll() : Promise.resolve([] as JournalRecord[])))
  return (
    <div class="grid">
      {can('regulator.state') && <ControlFeed />}
      {can('journal.read') && <Integrity />}
      {can('minutes.read') && <Registers />}
      {journal.data ? (
        <>
          <Minutes records={journal.data} />
          <RecentJournal records={journal.data} />
        </>
      ) : (
        <Loading error={journal.error} />
      )}
    </div>
  )
}
