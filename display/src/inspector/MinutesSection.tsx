import { useState } from 'preact/hooks'
import type { SessionMinutes } from '../../../server/src/bingo/minutes.ts'
import { groupedCommitment, money } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import { useLoad } from './load.ts'
import type { InspectorStore, JournalRecord } from './store.ts'
import { t } from './texts.ts'

interface Proof {
  commitment?: string
  beacon?: { round: number } | null
  balls?: number[]
}

/**
 * Session minutes (BNG-72 to BNG-79) picked by hall and date, never by id, with each game's published draw proof
 * to download and check offline.
 */
export function MinutesSection({
  store,
  lang,
  records,
}: {
  store: InspectorStore
  lang: Lang
  records: JournalRecord[]
}) {
  const when = store.when
  const sessions = records.filter((r) => r.type === 'session.opened').reverse()
  const [chosen, setChosen] = useState('')
  const sessionId = chosen || String(sessions[0]?.payload.sessionId ?? '')
  return (
    <section class="in-panel in-panel--wide" data-testid="minutes">
      <h2>
        {t(lang, 'minutes')} · {t(lang, 'proofs')}
      </h2>
      {sessions.length === 0 ? (
        <p class="in-muted">{t(lang, 'noSessions')}</p>
      ) : (
        <>
          <label class="in-field">
            <span>{t(lang, 'session')}</span>
            <select
              value={sessionId}
              data-testid="session-picker"
              onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}
            >
              {sessions.map((r) => (
                <option key={r.seq} value={String(r.payload.sessionId)}>
                  {String(r.payload.hallName ?? '')} · {t(lang, 'sessionOf', { date: when(r.at) })}
                </option>
              ))}
            </select>
          </label>
          {sessionId && <SessionView key={sessionId} store={store} lang={lang} sessionId={sessionId} when={when} />}
        </>
      )}
    </section>
  )
}

function SessionView({
  store,
  lang,
  sessionId,
  when,
}: {
  store: InspectorStore
  lang: Lang
  sessionId: string
  when: (iso: string | null, zone?: string | null) => string
}) {
  const minutes = useLoad(
    () => store.request<SessionMinutes>('GET', `/api/sessions/${encodeURIComponent(sessionId)}/minutes`),
    [sessionId],
  )
  const [game, setGame] = useState<string | null>(null)
  if (minutes.error) return <p class="in-bad">{minutes.error}</p>
  if (!minutes.data) return <p class="in-muted">{t(lang, 'loading')}</p>
  const m = minutes.data
  const cur = (c: number) => money(c, m.currency || 'BOB', lang)
  const state = (s: string) => t(lang, s === 'finished' ? 'finished' : s === 'void' ? 'void' : 'inProgress')
  // The minutes take a game's cards and takings from its close of sales (BNG-17): before it they are not zero but
  // not yet known, and the game is on sale, not in play.
  const salesOpen = (g: SessionMinutes['games'][number]) => g.status === 'in_progress' && !g.salesDigest
  return (
    <div data-testid="session-minutes">
      <p class="in-row">
        <strong>{m.hallName}</strong> · {when(m.openedAt, m.timeZone)} – {when(m.closedAt, m.timeZone)}
        <button
          type="button"
          class="in-btn"
          data-testid="minutes-pdf"
          onClick={() =>
            void store.open(`/api/sessions/${encodeURIComponent(sessionId)}/minutes.pdf?lang=${lang}`, 'acta.pdf')
          }
        >
          {t(lang, 'pdf')}
        </button>
      </p>
      <table class="in-table" data-testid="minutes-table">
        <thead>
          <tr>
            <th>{t(lang, 'gameNo')}</th>
            <th>{t(lang, 'cards')}</th>
            <th>{t(lang, 'takings')}</th>
            <th>{t(lang, 'prizesPaid')}</th>
            <th>{t(lang, 'balls')}</th>
            <th>{t(lang, 'state')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {m.games.map((g) => (
            <tr key={g.gameId} data-testid="minutes-row">
              <td class="in-num">{g.orderNo}</td>
              <td class="in-num">{salesOpen(g) ? '—' : g.cardsSold}</td>
              <td class="in-num">{salesOpen(g) ? '—' : cur(g.totalCents)}</td>
              <td class="in-num" data-testid="minutes-row-paid">
                {/* Every prize of the game (line, bingo, figures, pots and prima), so the rows add up to the total. */}
                {cur(g.linePaidCents + g.bingoPaidCents + (g.figuresPaidCents ?? 0) + g.jackpotsPaidCents)}
              </td>
              <td class="in-num">{g.ballsDrawn}</td>
              <td data-testid="minutes-row-state">{salesOpen(g) ? t(lang, 'salesOpen') : state(g.status)}</td>
              <td>
                <button
                  type="button"
                  class="in-btn in-btn--small"
                  data-testid="show-proof"
                  onClick={() => setGame(g.gameId)}
                >
                  {t(lang, 'proof')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th>{t(lang, 'totals')}</th>
            <th class="in-num">{m.totals.cardsSold}</th>
            <th class="in-num">{cur(m.totals.totalCents)}</th>
            <th class="in-num">{cur(m.totals.prizesPaidCents)}</th>
            <th colSpan={3} />
          </tr>
        </tfoot>
      </table>
      {game && (
        <ProofView
          key={game}
          store={store}
          lang={lang}
          gameId={game}
          orderNo={m.games.find((g) => g.gameId === game)?.orderNo ?? 0}
        />
      )}
    </div>
  )
}

function ProofView({
  store,
  lang,
  gameId,
  orderNo,
}: {
  store: InspectorStore
  lang: Lang
  gameId: string
  orderNo: number
}) {
  const proof = useLoad(() => store.request<Proof>('GET', `/api/games/${encodeURIComponent(gameId)}/proof`), [gameId])
  return (
    <div class="in-proof" data-testid="proof">
      <h3>
        {t(lang, 'proof')} · {t(lang, 'gameNo')} {orderNo}
      </h3>
      {proof.error && (
        <p class="in-muted" data-testid="proof-pending">
          {t(lang, 'noProof')}
        </p>
      )}
      {proof.data && (
        <>
          <dl>
            <dt>{t(lang, 'commitment')}</dt>
            <dd>
              <code data-testid="proof-commitment">{groupedCommitment(proof.data.commitment ?? '')}</code>
            </dd>
            {proof.data.beacon && (
              <>
                <dt>{t(lang, 'beaconRound')}</dt>
                <dd>{proof.data.beacon.round}</dd>
              </>
            )}
            <dt>{t(lang, 'drawOrder')}</dt>
            <dd data-testid="proof-balls">{(proof.data.balls ?? []).join(' · ') || '—'}</dd>
          </dl>
          <p class="in-muted">{t(lang, 'proofHelp')}</p>
          <button
            type="button"
            class="in-btn"
            data-testid="download-proof"
            onClick={() =>
              void store.open(`/api/games/${encodeURIComponent(gameId)}/proof`, `prueba-partida-${orderNo}.json`)
            }
          >
            {t(lang, 'downloadProof')}
          </button>
        </>
      )}
    </div>
  )
}
