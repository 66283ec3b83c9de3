import type { SessionMinutes } from '../../../server/src/bingo/minutes.ts'
import { formatInZone } from '../../../server/src/shared/time-zone.ts'
import { money } from '../../../web/format.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { IncidentKind } from '../../../web/api.ts'
import { INCIDENT_KINDS, incidentRule, say } from './incidents.ts'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'
import { getProfile } from '../../../server/src/shared/profile.ts'
import { FIGURE_NAMES, figureOfKind, type Figure } from '../../../server/src/bingo/patterns.ts'

/** The session's running minutes (GET /api/sessions/:id/minutes) as a table, with the PDF beside it. */
export function MinutesPanel({ store, lang }: { store: CallerStore; lang: Lang }) {
  if (!store.minutesOpen.value) return null
  const m = store.minutes.value
  return (
    <div
      class="cc-modal"
      onClick={(e) => {
        if (e.target === e.currentTarget) store.minutesOpen.value = false
      }}
    >
      <div class="cc-modal__box cc-minutes" data-testid="minutes">
        <div class="cc-minutes__head">
          <h2>{t(lang, 'minutes')}</h2>
          {m && (
            <a
              class="cc-link"
              href={`/api/sessions/${encodeURIComponent(m.sessionId)}/minutes.pdf`}
              target="_blank"
              rel="noopener"
              onClick={(e) => {
                if (store.token.value) {
                  e.preventDefault()
                  void store.openMinutesPdf(m.sessionId)
                }
              }}
            >
              {t(lang, 'minutesPdf')}
            </a>
          )}
          <button
            type="button"
            class="cc-btn cc-btn--ghost"
            data-testid="minutes-close"
            onClick={() => {
              store.minutesOpen.value = false
            }}
          >
            {t(lang, 'close')} <kbd>Esc</kbd>
          </button>
        </div>
        {m ? <MinutesTable m={m} lang={lang} /> : <p class="cc-muted">…</p>}
      </div>
    </div>
  )
}

function MinutesTable({ m, lang }: { m: SessionMinutes; lang: Lang }) {
  const cur = (c: number) => money(c, m.currency || 'BOB', lang)
  // Issue 17: the hall's wall clock, not the browser's.
  // Issue 29: without the hall's zone the time is UTC, said so, never the browser's clock.
  const when = (iso: string | null) =>
    m.timeZone ? formatInZone(iso, m.timeZone, 'seconds') : formatInZone(iso, 'UTC', 'seconds', true)
  const status = (s: SessionMinutes['games'][number]['status']) =>
    t(lang, s === 'finished' ? 'mFinished' : s === 'void' ? 'mVoid' : 'mInProgress')
  const figureName = (f: Figure) => FIGURE_NAMES[f]?.[lang] ?? t(lang, 'mFigure')
  // A winner's prize by its name (Línea, Bingo, Cuatro esquinas), never the kind's code.
  const prizeName = (kind: string) => {
    const f = figureOfKind(kind)
    return f ? figureName(f) : t(lang, kind === 'line' ? 'mLine' : 'mBingo')
  }
  const incidents = m.games.flatMap((g) => g.incidents.map((i) => ({ ...i, orderNo: g.orderNo })))
  // Incident kinds and void reasons are codes: the screen shows the regulation's words for them (issue 14 point 7).
  const incidentTitle = (kind: string) =>
    (INCIDENT_KINDS as readonly string[]).includes(kind)
      ? say(incidentRule(kind as IncidentKind, m.profileId).title, lang)
      : ''
  return (
    <>
      <div class="cc-minutes__meta">
        <span>
          {m.hallName} · {getProfile(m.profileId)?.name ?? ''}
        </span>
        <span>
          {t(lang, 'mOpened')}: {when(m.openedAt)}
          {m.openRecount
            ? ` · ${t(lang, 'mRecount')} ${m.openRecount.ballsCounted} (${m.openRecount.confirmedBy})`
            : ''}
        </span>
        <span>
          {t(lang, 'mClosed')}: {when(m.closedAt)}
          {m.closeRecount
            ? ` · ${t(lang, 'mRecount')} ${m.closeRecount.ballsCounted} (${m.closeRecount.confirmedBy})`
            : ''}
        </span>
      </div>
      <table class="cc-table cc-table--minutes" data-testid="minutes-table">
        <thead>
          <tr>
            <th>{t(lang, 'mNo')}</th>
            <th>{t(lang, 'mSeries')}</th>
            <th>{t(lang, 'mPrice')}</th>
            <th>{t(lang, 'mSold')}</th>
            <th>{t(lang, 'mTotal')}</th>
            <th>{t(lang, 'mLine')}</th>
            <th>{t(lang, 'mBingo')}</th>
            <th>{t(lang, 'mFigures')}</th>
            <th>{t(lang, 'mPots')}</th>
            <th>{t(lang, 'mPrizesPaid')}</th>
            <th>{t(lang, 'mBalls')}</th>
            <th>{t(lang, 'mWinners')}</th>
            <th>{t(lang, 'mStatus')}</th>
          </tr>
        </thead>
        <tbody>
          {m.games.map((g) => (
            <tr key={g.gameId} data-testid="minutes-row" data-status={g.status}>
              <td class="cc-num">
                {g.orderNo}
                {g.lastGame ? ' *' : ''}
              </td>
              <td>{g.series.map((s) => `${s.code} ${s.from}–${s.to}`).join(', ') || '—'}</td>
              <td class="cc-num">{cur(g.faceValueCents)}</td>
              <td class="cc-num">{g.cardsSold}</td>
              <td class="cc-num">{cur(g.totalCents)}</td>
              <td class="cc-num">
                {cur(g.linePoolCents)}
                <br />
                <small>
                  {t(lang, 'mPaid')} {cur(g.linePaidCents)}
                </small>
              </td>
              <td class="cc-num">
                {cur(g.bingoPoolCents)}
                <br />
                <small>
                  {t(lang, 'mPaid')} {cur(g.bingoPaidCents)}
                </small>
              </td>
              {/* CFG-13: each figure by its name, so the row adds up to what the game paid (as the PDF acta). */}
              <td class="cc-num" data-testid="minutes-row-figures">
                {(g.figures ?? []).length === 0
                  ? '—'
                  : (g.figures ?? []).map((f) => (
                      <div key={f.figure} data-testid="minutes-figure">
                        {figureName(f.figure)} {cur(f.paidCents)}
                      </div>
                    ))}
              </td>
              {/* BNG-73 (8): pots and prima paid in this game. */}
              <td class="cc-num" data-testid="minutes-row-pots">
                {cur(g.jackpotsPaidCents)}
              </td>
              <td class="cc-num cc-minutes__paid" data-testid="minutes-row-paid">
                {cur(g.linePaidCents + g.bingoPaidCents + (g.figuresPaidCents ?? 0) + g.jackpotsPaidCents)}
              </td>
              <td class="cc-num">{g.ballsDrawn}</td>
              <td>
                {g.winners
                  .map((w) => `${prizeName(w.kind)} ${w.serial} (${w.atBall}) ${cur(w.amountCents)}`)
                  .join('; ') || '—'}
              </td>
              <td>
                {status(g.status)}
                {g.voidReason && incidentTitle(g.voidReason) ? ` · ${incidentTitle(g.voidReason)}` : ''}
                {g.refundCents ? ` · ${t(lang, 'mRefund')}: ${cur(g.refundCents)}` : ''}
                {g.status === 'void' && g.refundsPaid && (
                  <>
                    <br />
                    <small data-testid={`minutes-refunds-${g.orderNo}`}>
                      {t(lang, 'mRefundsPaid')
                        .replace('{n}', String(g.refundsPaid.cards))
                        .replace('{of}', String(g.refundCards ?? g.cardsSold))
                        .replace('{amount}', cur(g.refundsPaid.amountCents))}
                    </small>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={3}>{t(lang, 'mTotals')}</th>
            <th class="cc-num">{m.totals.cardsSold}</th>
            <th class="cc-num">{cur(m.totals.totalCents)}</th>
            <th class="cc-num" data-testid="minutes-total-line">
              {cur(m.totals.linePaidCents ?? 0)}
            </th>
            <th class="cc-num" data-testid="minutes-total-bingo">
              {cur(m.totals.bingoPaidCents ?? 0)}
            </th>
            <th class="cc-num" data-testid="minutes-total-figures">
              {(m.totals.figures ?? []).length === 0
                ? '—'
                : (m.totals.figures ?? []).map((f) => (
                    <div key={f.figure}>
                      {figureName(f.figure)} {cur(f.paidCents)}
                    </div>
                  ))}
            </th>
            <th class="cc-num" data-testid="minutes-total-pots">
              {cur(m.totals.jackpotsPaidCents ?? 0)}
            </th>
            <th class="cc-num cc-minutes__paid" data-testid="minutes-total-paid">
              {cur(m.totals.prizesPaidCents)}
            </th>
            <th colSpan={3}>{m.totals.refundCents ? `${t(lang, 'mRefunds')} ${cur(m.totals.refundCents)}` : ''}</th>
          </tr>
        </tfoot>
      </table>
      {incidents.length > 0 && (
        <div class="cc-minutes__incidents" data-testid="minutes-incidents">
          <h3>{t(lang, 'mIncidents')}</h3>
          <ul>
            {incidents.map((i, n) => (
              <li key={n}>
                {t(lang, 'game')} {i.orderNo} · {when(i.at)} · {i.rule}
                {incidentTitle(i.kind) ? ` · ${incidentTitle(i.kind)}` : ''}
                {i.note ? ` · «${i.note}»` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p class="cc-muted cc-minutes__foot">
        {m.remainderRule} · {t(lang, 'mJournal')} {m.journal.firstSeq}–{m.journal.lastSeq} ·{' '}
        {m.journal.lastHash.slice(0, 16)}…
      </p>
    </>
  )
}
