import { useState } from 'preact/hooks'
import type { GameState } from '../../../server/src/bingo/service.ts'
import type { Lang } from '../../../web/i18n.ts'
import { JefeMark } from './JefeMark.tsx'
import type { CallerStore } from './store.ts'
import { t } from './texts.ts'

/** Last game (BNG-43), session close with the final recount (BNG-27), and the running minutes (BNG-72 to BNG-79). */
export function SessionPanel({ store, game, lang }: { store: CallerStore; game: GameState | null; lang: Lang }) {
  const hall = store.hall.value!
  const sessionId = hall.openSessionId
  const session = store.session.value
  const [balls, setBalls] = useState('')
  const [by, setBy] = useState('')
  const [pass, setPass] = useState('')
  const busy = Boolean(store.busy.value)
  const minutesId = sessionId ?? store.lastSessionId.value
  const gameRunning =
    game !== null && game.sessionId === sessionId && game.status !== 'finished' && game.status !== 'void'
  // With a session token the PDF is fetched with it; a plain link cannot send the Authorization header.
  const pdf = (e: Event, id: string) => {
    if (!store.token.value) return
    e.preventDefault()
    void store.openMinutesPdf(id)
  }
  const openMinutes = () => {
    store.minutesOpen.value = true
    void store.refreshMinutes()
  }
  // Issue 14 point 7: minutes for roles that read them; closing for a jefe (or authorised by one on this console).
  const reads = store.can('minutes.read')
  const closes = store.offer('session.close')
  const lastGame = () =>
    store.ask({
      title: t(lang, 'lastGame'),
      body: [t(lang, 'lastGameConfirm')],
      confirmLabel: t(lang, 'lastGame'),
      permission: 'session.close',
      run: (person) => store.lastGame(sessionId!, person),
    })
  const close = (e: Event) => {
    e.preventDefault()
    // BNG-27: the final recount is witnessed by a second person with their own credential (issue 14 point 2).
    // `confirmedBy` counts only where authentication is off; with it on the server takes the witness's credential.
    const recount = balls ? { ballsCounted: Number(balls), confirmedBy: by.trim() || store.operator.value } : undefined
    const witness = recount && by.trim() && pass ? { username: by.trim(), password: pass } : undefined
    store.ask({
      title: t(lang, 'closeSession'),
      body: [
        t(lang, 'closeSessionConfirm'),
        ...(recount
          ? [
              `${t(lang, 'ballsCounted')}: ${recount.ballsCounted}${witness ? ` · ${t(lang, 'witness')}: ${witness.username}` : ''}`,
            ]
          : []),
      ],
      confirmLabel: t(lang, 'closeSession'),
      danger: true,
      permission: 'session.close',
      run: async (person) => {
        await store.closeSession(sessionId!, recount, person ?? witness)
        setBalls('')
        setPass('')
      },
    })
  }
  if (!reads && !closes) return null
  return (
    <div class="cc-panel cc-session" data-testid="session">
      <h2>{t(lang, 'session')}</h2>
      {reads && minutesId && (
        <div class="cc-row">
          <button type="button" class="cc-btn" data-testid="show-minutes" onClick={openMinutes}>
            {t(lang, 'showMinutes')} <kbd>A</kbd>
          </button>
          <a
            class="cc-link"
            href={`/api/sessions/${encodeURIComponent(minutesId)}/minutes.pdf`}
            target="_blank"
            rel="noopener"
            data-testid="minutes-pdf"
            onClick={(e) => pdf(e, minutesId)}
          >
            {t(lang, 'minutesPdf')}
          </a>
        </div>
      )}
      {closes && sessionId && (
        <>
          <button
            type="button"
            class="cc-btn"
            data-testid="last-game"
            disabled={busy || Boolean(session?.lastGameAnnounced)}
            onClick={lastGame}
          >
            {t(lang, 'lastGame')} <JefeMark how={closes} lang={lang} />
          </button>
          <form class="cc-close-session" onSubmit={close}>
            <small class="cc-muted">{t(lang, 'closeSessionHelp')}</small>
            <div class="cc-row">
              <label class="cc-field">
                <span>{t(lang, 'ballsCounted')}</span>
                <input
                  type="number"
                  min={0}
                  max={1000}
                  inputMode="numeric"
                  value={balls}
                  data-testid="close-recount-balls"
                  onInput={(e) => setBalls((e.target as HTMLInputElement).value)}
                />
              </label>
              <label class="cc-field cc-field--grow">
                <span>{t(lang, 'confirmedBy')}</span>
                <input
                  type="text"
                  autocomplete="off"
                  value={by}
                  data-testid="close-recount-by"
                  onInput={(e) => setBy((e.target as HTMLInputElement).value)}
                />
              </label>
              <label class="cc-field cc-field--grow">
                <span>{t(lang, 'witnessPassword')}</span>
                <input
                  type="password"
                  autocomplete="off"
                  value={pass}
                  data-testid="close-recount-pass"
                  onInput={(e) => setPass((e.target as HTMLInputElement).value)}
                />
              </label>
            </div>
            <button
              type="submit"
              class="cc-btn cc-btn--danger"
              data-testid="close-session"
              disabled={busy || gameRunning}
            >
              {t(lang, 'closeSession')} <JefeMark how={closes} lang={lang} />
            </button>
          </form>
        </>
      )}
    </div>
  )
}
