/**
 * The caller console's state: the live game from the hall feed, the hall and session from the API, and what the
 * caller is typing (claim serial, manual ball, confirmations). Actions call the API and report errors in one place.
 */
import { batch, signal } from '@preact/signals'
import type { GameState } from '../../../server/src/bingo/service.ts'
import type { SessionMinutes } from '../../../server/src/bingo/minutes.ts'
import { ApiError, createApi, type Annul, type CardInfo, type HallInfo, type IncidentKind, type Principal, type PrizeInfo, type Recount } from '../../../web/api.ts'
import type { Lang } from '../../../web/i18n.ts'
import type { GameFeed } from '../../../web/socket.ts'

export interface ShownError { code: string; message: string; detail?: string }
export interface ClaimResult { kind: 'line' | 'bingo'; serial: string; ok: boolean; reason?: string; card: CardInfo | null; called: number[] }
export interface Confirmation { title: string; body: string[]; confirmLabel: string; danger?: boolean; run: () => Promise<void> }

const NAME_KEY = 'bolillo.caller.name'
// The session token lives for the tab only: closing the console logs out.
const TOKEN_KEY = 'bolillo.caller.token'

function storedName(): string {
  try { return localStorage.getItem(NAME_KEY) ?? '' } catch { return '' }
}
function storedToken(): string | null {
  try { return sessionStorage.getItem(TOKEN_KEY) } catch { return null }
}
function storeToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token)
    else sessionStorage.removeItem(TOKEN_KEY)
  } catch { /* private mode: log in again after a reload */ }
}

export function createCallerStore(feed: GameFeed, hallId: string, lang: Lang, base = '') {
  const token = signal<string | null>(storedToken())
  /** Who is logged in (null: nobody; the server may not ask for anyone when authentication is off). */
  const principal = signal<Principal | null>(null)
  /** The server refused an anonymous request: show the login form. */
  const needLogin = signal(false)
  const api = createApi(lang, { base, token: () => token.value })
  const hall = signal<HallInfo | null>(null)
  const session = signal<SessionMinutes | null>(null)
  const lastSessionId = signal<string | null>(null)
  const error = signal<ShownError | null>(null)
  const busy = signal<string | null>(null)
  const claimKind = signal<'line' | 'bingo'>('line')
  const claimSerial = signal('')
  const claimResult = signal<ClaimResult | null>(null)
  const manualBall = signal('')
  const confirmation = signal<Confirmation | null>(null)
  const prizes = signal<PrizeInfo[]>([])
  const minutes = signal<SessionMinutes | null>(null)
  const minutesOpen = signal(false)
  const operator = signal(storedName() || (lang === 'en' ? 'Floor manager' : 'Jefe de Mesa'))
  const claimFocus = signal(0)

  const game = (): GameState | null => feed.state.value

  function showError(err: unknown) {
    if (err instanceof ApiError && err.code === 'UNAUTHORIZED') {
      // An expired or missing session: forget the token and ask for a login.
      if (token.value) { token.value = null; storeToken(null); principal.value = null }
      needLogin.value = true
    }
    if (err instanceof ApiError) error.value = { code: err.code, message: err.message, detail: err.detail }
    else error.value = { code: 'ERROR', message: err instanceof Error ? err.message : String(err) }
  }

  /** Runs one action: one at a time, errors shown, hall and session refreshed afterwards. */
  async function act(name: string, fn: () => Promise<void>): Promise<boolean> {
    if (busy.value) return false
    busy.value = name
    try {
      await fn()
      error.value = null
      return true
    } catch (err) {
      showError(err)
      return false
    } finally {
      busy.value = null
      void refreshHall()
    }
  }

  async function refreshHall(): Promise<void> {
    try {
      const h = await api.hall(hallId)
      const sessionId = h.openSessionId ?? lastSessionId.value
      // The session summary is for roles that read the minutes; a caller without that right goes on without it.
      const s = sessionId
        ? await api.session(sessionId).catch((err: unknown) => {
          if (err instanceof ApiError && err.code === 'FORBIDDEN') return null
          throw err
        })
        : null
      batch(() => {
        hall.value = h
        session.value = s
        if (h.openSessionId) lastSessionId.value = h.openSessionId
      })
    } catch (err) {
      showError(err)
    }
  }

  async function refreshPrizes(): Promise<void> {
    const g = game()
    if (!g) { prizes.value = []; return }
    try {
      prizes.value = (await api.prizes(g.gameId)).prizes
    } catch {
      // The prize list is a convenience; the state on screen stays right without it.
    }
  }

  async function refreshMinutes(): Promise<void> {
    const id = hall.value?.openSessionId ?? lastSessionId.value ?? game()?.sessionId ?? null
    if (!id) return
    try {
      minutes.value = await api.minutes(id)
    } catch (err) {
      showError(err)
    }
  }

  const gameId = () => {
    const g = game()
    if (!g) throw new ApiError('NO_GAME', lang === 'en' ? 'There is no game.' : 'No hay partida.', 0)
    return g.gameId
  }

  function ask(c: Confirmation) { confirmation.value = c }

  async function checkLogin(): Promise<void> {
    if (!token.value) return
    try {
      const me = await api.me()
      principal.value = me.kind === 'anonymous' ? null : me
    } catch (err) {
      showError(err)
    }
  }

  return {
    api, token, principal, needLogin, checkLogin,
    async login(username: string, password: string): Promise<boolean> {
      try {
        const r = await api.login(username, password)
        batch(() => {
          token.value = r.token
          principal.value = { kind: 'person', id: r.user.id, name: r.user.displayName, role: r.user.role }
          needLogin.value = false
          error.value = null
          if (!storedName()) operator.value = r.user.displayName
        })
        storeToken(r.token)
        await refreshHall()
        return true
      } catch (err) {
        showError(err)
        return false
      }
    },
    async logout(): Promise<void> {
      await api.logout().catch(() => undefined)
      batch(() => {
        token.value = null
        principal.value = null
        needLogin.value = true
      })
      storeToken(null)
    },
    async openMinutesPdf(sessionId: string): Promise<void> {
      try {
        const blob = await api.minutesPdf(sessionId)
        window.open(URL.createObjectURL(blob), '_blank', 'noopener')
      } catch (err) {
        showError(err)
      }
    },
    hall, session, lastSessionId, error, busy, claimKind, claimSerial, claimResult, manualBall, confirmation, prizes,
    minutes, minutesOpen, operator, claimFocus, game,
    refreshHall, refreshPrizes, refreshMinutes, ask, showError,
    clearError() { error.value = null },
    setOperator(name: string) {
      operator.value = name
      try { localStorage.setItem(NAME_KEY, name) } catch { /* not remembered */ }
    },
    async confirm() {
      const c = confirmation.value
      // While another request is in flight the dialog stays open: the confirmed action is never dropped.
      if (!c || busy.value) return
      confirmation.value = null
      await act('confirm', c.run)
    },
    cancel() { confirmation.value = null },

    openSession: (recount: Recount) => act('openSession', async () => { await api.openSession(hallId, recount) }),
    lastGame: (sessionId: string) => api.lastGame(sessionId).then(() => undefined),
    closeSession: async (sessionId: string, recount?: Recount) => {
      await api.closeSession(sessionId, recount)
      lastSessionId.value = sessionId
      minutesOpen.value = true
      await refreshMinutes()
    },
    announce: (sessionId: string, seriesIds: string[], drawSource: 'rng' | 'manual') =>
      act('announce', async () => {
        await api.announce(sessionId, seriesIds, drawSource)
        claimResult.value = null
        await feed.refresh()
      }),
    openSales: () => act('openSales', async () => { await api.openSales(gameId()) }),
    sell: (count: number) => act('sell', async () => { await api.sell(gameId(), count) }),
    closeSales: () => api.closeSales(gameId()).then(() => undefined),
    typeBeacon: (signature: string) => act('beacon', async () => { await api.beacon(gameId(), signature.trim()) }),
    draw: () => act('draw', async () => { await api.draw(gameId()) }),
    enterBall: () => {
      const n = Number(manualBall.value)
      if (!manualBall.value || !Number.isInteger(n)) return Promise.resolve(false)
      return act('enterBall', async () => {
        await api.enterBall(gameId(), n)
        manualBall.value = ''
      })
    },
    claim: () => act('claim', async () => {
      const serial = claimSerial.value.trim().toUpperCase()
      if (!serial) return
      const kind = claimKind.value
      const id = gameId()
      const r = await api.claim(id, kind, serial)
      const card = await api.card(id, serial).catch(() => null)
      claimResult.value = { kind, serial, ok: r.ok, reason: r.reason, card, called: r.state.balls }
      claimSerial.value = ''
    }),
    closeWindow: () => api.closeWindow(gameId()).then(() => { claimResult.value = null }),
    stopForClaim: () => act('stopForClaim', async () => { await api.stopForClaim(gameId()); claimFocus.value++ }),
    resumePlay: () => act('resumePlay', async () => { await api.resumePlay(gameId()); claimResult.value = null }),
    incident: (kind: IncidentKind, note: string, correctedBall?: number, annul?: Annul) => api.incident(gameId(), kind, note.trim() || undefined, correctedBall, annul).then(() => undefined),
    resume: () => act('resume', async () => { await api.resume(gameId()) }),
    pay: (prizeId: string) => act('pay', async () => {
      await api.pay(prizeId, operator.value.trim() || 'Jefe de Mesa')
      await refreshPrizes()
    }),
    payAll: () => act('payAll', async () => {
      for (const p of prizes.value.filter((x) => x.status === 'awarded')) await api.pay(p.id, operator.value.trim() || 'Jefe de Mesa')
      await refreshPrizes()
    }),
  }
}

export type CallerStore = ReturnType<typeof createCallerStore>
